"""The friend-graph invariants of tests/core/friends_machine.py on the PostgreSQL store."""

from __future__ import annotations

import pytest
from hypothesis import settings

from tests.budget import examples
from tests.core.friends_machine import MAX_FRIENDS, make_machine
from tests.postgres_support import on_postgres, require_postgres

MANIFEST = f"""
studio = "fr"
[games.g]
name = "G"
[games.g.friends]
max_friends = {MAX_FRIENDS}
"""


@pytest.fixture(autouse=True)
def _postgres() -> None:
    require_postgres()


TestFriendsOnPostgres = on_postgres(make_machine, MANIFEST).TestCase
TestFriendsOnPostgres.settings = settings(max_examples=examples(20), stateful_step_count=30, deadline=None)
