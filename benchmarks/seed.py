"""Seeding a shared leaderboard with many entries, straight through the store.

Scores submitted over HTTP cost a request each; a board of 100,000 entries would take minutes of setup.
This opens the run's own database in the bench's process and runs the same commands the server runs
(``first_contact`` without webhooks, as a migration does, then ``record_score``), a few thousand to a
transaction, while the server is idle or not yet started. The entries are what submissions would have
made, in the period holding now.
"""

from __future__ import annotations

from livecore.commands import Runtime
from livecore.hashing import KeyedHasher
from livecore.leaderboards.commands import record_score
from livecore.players.commands import first_contact, register
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore_server.clock import SystemClock
from livecore_server.storage.server_store import ServerTransaction, open_store

BATCH = 2_000


def score_of(i: int) -> float:
    """Distinct, scattered scores: player i's place on the board is not i."""
    return float((i * 7_919) % 1_000_003)


def seed_board(db: str, studio_id: str, game_id: str, board_key: str, n: int, prefix: str) -> list[str]:
    """``n`` test-environment players ``<prefix>-<i>``, each with one score on ``board_key``; their
    external ids."""
    store = open_store(db)
    rt = Runtime(SystemClock(), SeededRandomSource(n), KeyedHasher(b"bench-seed" * 4))
    scope = Scope(studio_id=studio_id, game_id=game_id, env=Environment.TEST)
    names = [f"{prefix}-{i}" for i in range(n)]

    def batch(start: int) -> None:
        def write(tx: ServerTransaction) -> None:
            game = tx.games.get(game_id)
            assert game is not None
            settings = game.settings.leaderboards[board_key]
            now = rt.clock.now()
            for i in range(start, min(n, start + BATCH)):
                player = first_contact(tx, rt, scope, names[i], announce=False)
                record_score(tx, game, scope.env, settings, player, score_of(i), now)

        store.run(write)

    try:
        for start in range(0, n, BATCH):
            batch(start)
    finally:
        store.close()
    return names


def seed_players(
    db: str, studio_id: str, game_id: str, n: int, prefix: str, hasher: KeyedHasher
) -> list[str]:
    """``n`` registered test-environment players ``<prefix>-<i>`` (``player.registered`` each, as a
    register request makes); their secrets, hashed with ``hasher``: the server's, for them to work."""
    store = open_store(db)
    rt = Runtime(SystemClock(), SeededRandomSource(n), hasher)
    scope = Scope(studio_id=studio_id, game_id=game_id, env=Environment.TEST)
    secrets: list[str] = []

    def batch(names: list[str]) -> list[str]:
        def write(tx: ServerTransaction) -> list[str]:
            return [register(tx, rt, scope, name).secret for name in names]

        return store.run(write)

    try:
        for start in range(0, n, BATCH):
            secrets += batch([f"{prefix}-{i}" for i in range(start, min(n, start + BATCH))])
    finally:
        store.close()
    return secrets
