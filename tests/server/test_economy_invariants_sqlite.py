"""The economy invariants of tests/core/economy_machine.py on the server's SQLite store."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hypothesis import settings

from livecore.scope import Environment, Scope
from livecore_server.manifest import parse_manifest
from livecore_server.operators.apply import apply_manifest
from tests.budget import examples
from tests.conftest import make_services
from tests.core.economy_machine import BOX_TOML, make_machine

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


def sqlite_store() -> tuple[Any, Scope]:
    services = make_services(Path(tempfile.mkdtemp()) / "inv.db")
    applied = apply_manifest(services.store, services.keys, services.runtime, parse_manifest(MANIFEST))
    scope = Scope(
        studio_id=applied["studio"]["id"], game_id=applied["games"]["g"]["id"], env=Environment.TEST
    )
    return services.store, scope


TestEconomyOnSqlite = make_machine(sqlite_store).TestCase
TestEconomyOnSqlite.settings = settings(max_examples=examples(25), stateful_step_count=30, deadline=None)
