"""``livecore-server simulate`` (docs/simulation.md#playing-a-season-livecore-server-simulate). Importing
the package alone loads nothing of the simulation: the command's options read :data:`MOST_SEEDS` and the
defaults here."""

#: The most seeds one run plays (``--seeds``).
MOST_SEEDS = 100
#: A first run, the command's and the notebook's defaults: a week of 1,000 players from a Monday (UTC).
PLAYERS = 1_000
DAYS = 7
START = "2026-01-05"
