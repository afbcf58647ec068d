"""The gifting invariants of tests/core/gifts_machine.py on the PostgreSQL store."""

from __future__ import annotations

import pytest
from hypothesis import settings

from tests.budget import examples
from tests.core.gifts_machine import MANIFEST_GAME, make_machine
from tests.postgres_support import on_postgres, require_postgres

MANIFEST = f"""
studio = "gf"
[games.g]
name = "G"
{MANIFEST_GAME}
"""


@pytest.fixture(autouse=True)
def _postgres() -> None:
    require_postgres()


TestGiftsOnPostgres = on_postgres(make_machine, MANIFEST).TestCase
TestGiftsOnPostgres.settings = settings(max_examples=examples(25), stateful_step_count=30, deadline=None)
