"""The economy invariants on the in-memory store (the SQLite run is in tests/server)."""

from __future__ import annotations

from typing import Any

from hypothesis import settings

from livecore.crates.settings import CRATE_SETTINGS
from livecore.games import Economy, Game, GameSettings, Resource, ResourceType, Studio
from livecore.memory import MemoryStore
from livecore.scope import Environment, Scope
from tests.budget import examples
from tests.core.economy_machine import BOX, make_machine

GAME = Game(
    id="gam_1",
    studio_id="std_1",
    key="g",
    name="G",
    settings=GameSettings(
        economy=Economy.PLATFORM,
        resources={
            "coins": Resource(key="coins", type=ResourceType.CURRENCY),
            "sword": Resource(key="sword", type=ResourceType.ITEM),
        },
        sections={CRATE_SETTINGS: {"box": BOX}},
    ),
)


def memory_store() -> tuple[Any, Scope]:
    store = MemoryStore()
    store.add_game(Studio(id="std_1", key="s"), GAME)
    return store, Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)


TestEconomyOnMemory = make_machine(memory_store).TestCase
TestEconomyOnMemory.settings = settings(max_examples=examples(60), stateful_step_count=40, deadline=None)
