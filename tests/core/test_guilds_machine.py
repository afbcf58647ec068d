"""The guild membership and role invariants on the in-memory store (the SQLite and PostgreSQL runs are in
tests/server)."""

from __future__ import annotations

from typing import Any

from hypothesis import settings

from livecore.games import Game, Studio
from livecore.memory import MemoryStore
from livecore.scope import Environment, Scope
from tests.budget import examples
from tests.core.guilds_machine import SETTINGS, make_machine


def memory_store() -> tuple[Any, Scope]:
    store = MemoryStore()
    store.add_game(
        Studio(id="std_1", key="s"), Game(id="gam_1", studio_id="std_1", key="g", name="G", settings=SETTINGS)
    )
    return store, Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)


TestGuildsOnMemory = make_machine(memory_store).TestCase
TestGuildsOnMemory.settings = settings(max_examples=examples(60), stateful_step_count=40, deadline=None)
