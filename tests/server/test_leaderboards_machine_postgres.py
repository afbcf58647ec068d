"""The shared leaderboard invariants of tests/core/leaderboards_machine.py on the PostgreSQL store: each
example on a schema without rows of its own (tests/postgres_support.py), given back at its end."""

from __future__ import annotations

import pytest
from hypothesis import settings

from livecore.games import Game
from livecore.scope import Environment, Scope
from livecore_server.storage.postgres import PostgresStore
from tests.budget import examples
from tests.core.leaderboards_machine import SETTINGS, make_machine
from tests.kept import keep_every_event_in
from tests.postgres_support import give_back, new_store, require_postgres, take_schema


@pytest.fixture(autouse=True)
def _postgres() -> None:
    require_postgres()


def postgres_store() -> tuple[PostgresStore, Scope]:
    store = new_store(schema=take_schema()[1])
    store.put_game(Game(id="gam_1", studio_id="std_1", key="g", name="G", settings=SETTINGS))
    keep_every_event_in(store)  # the machine reads what the commands emit from the outbox
    return store, Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)


class _GivingBack(make_machine(postgres_store)):  # type: ignore[misc]
    def teardown(self) -> None:
        self.store.close()
        give_back(self.store.schema or "")


TestLeaderboardsOnPostgres = _GivingBack.TestCase
TestLeaderboardsOnPostgres.settings = settings(
    max_examples=examples(8), stateful_step_count=30, deadline=None
)
