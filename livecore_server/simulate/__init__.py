"""``livecore-server simulate`` (docs/simulation.md#playing-a-season-livecore-server-simulate). Importing
the package alone loads nothing of the simulation: the command's options read :data:`MOST_SEEDS` here."""

#: The most seeds one run plays (``--seeds``).
MOST_SEEDS = 100
