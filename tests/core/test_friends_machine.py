"""The friend-graph invariants on the in-memory store (the SQLite run is in tests/server)."""

from __future__ import annotations

from typing import Any

from hypothesis import settings

from livecore.friends.settings import FRIENDS_SETTINGS, FriendsSettings
from livecore.games import Game, GameSettings, Studio
from livecore.memory import MemoryStore
from livecore.scope import Environment, Scope
from tests.budget import examples
from tests.core.friends_machine import MAX_FRIENDS, make_machine


def memory_store() -> tuple[Any, Scope]:
    store = MemoryStore()
    game = Game(
        id="gam_1",
        studio_id="std_1",
        key="g",
        name="G",
        settings=GameSettings(sections={FRIENDS_SETTINGS: FriendsSettings(max_friends=MAX_FRIENDS)}),
    )
    store.add_game(Studio(id="std_1", key="s"), game)
    return store, Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)


TestFriendsOnMemory = make_machine(memory_store).TestCase
TestFriendsOnMemory.settings = settings(max_examples=examples(150), stateful_step_count=40, deadline=None)
