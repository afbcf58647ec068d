"""Twins: the physical limit of each twinned scenario (benchmarks/README.md, "Twins").

A twin is a hand-written aiohttp handler for a scenario's route that writes (or reads) the same rows as
livecore (the same tables of the run's database, SQLite or PostgreSQL, so the same indexes and triggers
fire) with as few statements as it can, a write in one transaction, and answers a comparable JSON body
(a read, the same body). The harness sends a twin the very requests of its scenario (same paths, headers,
bodies and Lua), from its own process on the run's database (``python -m benchmarks.twins``), in slices
alternating with livecore's, and reports livecore's requests a second over the twin's
(``ratio_to_twin``).

What a twin keeps of livecore's work: the API key (its hash, from a table loaded at start) and the player
secret (compared inside the write's ``WHERE``), the reads a write depends on, folded into that write where
SQL allows (a grant names its player by a sub-select), the idempotency record (sealed as livecore seals
it), the ledger, and the webhook events an endpoint subscribes to in the outbox (livecore stores no other,
docs/webhooks.md#what-is-kept; the bench game has no endpoint, so a run stores none). What it leaves out:
rate limits, the key's last-use stamp, the access log, metrics, and the dispatcher's pass over the
outbox: a twin writes each event fanned out already, except the debounced progress event, which must
stay open for the next progress of its attempt to replace.

:mod:`~benchmarks.twins.app` holds the routes, once for both databases; :mod:`~benchmarks.twins.stores`
what the two databases do differently (and how a PostgreSQL twin connects, and why).
"""

from __future__ import annotations

# The write scenarios that have a twin (benchmarks/scenarios.py), each a route of app.ROUTES.
WRITES = (
    "sdk_register",
    "server_grant",
    "send_gift",
    "claim_gift",
    "event_progress",
    "open_crate",
    "guild_donate",
)
# The read scenarios that have one.
READS = ("list_friends", "event_board_top", "leaderboard_top", "leaderboard_around")
TWINNED = WRITES + READS
# The share of its twin's requests a second each twinned scenario should reach.
TARGET = 0.6
# Pools a setup prepares (pending gifts, crates) are sized for this many times the run's seconds when the
# twins run: a twin drains its scenario's pool too, and faster than livecore.
POOL_FACTOR = 3

from benchmarks.twins.app import TwinProcess  # noqa: E402  (app reads the names above)

__all__ = ["POOL_FACTOR", "READS", "TARGET", "TWINNED", "WRITES", "TwinProcess"]
