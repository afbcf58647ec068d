"""studio_quests: a studio's own area, the daily check-in quest (docs/extending.md walks through it).

A player checks in once per UTC day and is granted the day's reward; consecutive days make a streak,
and every ``streak_bonus_every``-th day of a streak pays a bonus. The area brings its own table, routes,
webhook kind, error codes, an hourly sweep that ends missed streaks, and a check on the built-in gift
send: a player who never checked in cannot gift.

- ``rules``: the pure rules (a check-in, a streak, the day's reward, the manifest section's check);
- ``store``, ``memory``, ``sql``: the store port, in memory and in SQL (with the table's migration);
- ``commands``: check-in, the player's quest, the sweep; ``hooks``: the check on gift sends;
- ``api``, ``webhooks``: the routes and the webhook payload;
- ``area``: the area's declaration (``AREA``); ``server``: its server side (``SERVER_AREA``);
- ``client``: its resource in the typed clients; ``simulation``: its actions in a ``livecore.Simulation``.
- ``cli``: its ``livecore-server`` commands (``quests show``).
"""
