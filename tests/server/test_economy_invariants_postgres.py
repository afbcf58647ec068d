"""The economy invariants of tests/core/economy_machine.py on the PostgreSQL store."""

from __future__ import annotations

import pytest
from hypothesis import settings

from tests.budget import examples
from tests.core.economy_machine import BOX_TOML, make_machine
from tests.postgres_support import on_postgres, require_postgres

MANIFEST = (
    """
studio = "inv"
[games.g]
name = "G"
economy = "platform"
[games.g.resources.coins]
type = "currency"
[games.g.resources.sword]
type = "item"
"""
    + BOX_TOML
)


@pytest.fixture(autouse=True)
def _postgres() -> None:
    require_postgres()


TestEconomyOnPostgres = on_postgres(make_machine, MANIFEST).TestCase
TestEconomyOnPostgres.settings = settings(max_examples=examples(25), stateful_step_count=30, deadline=None)
