"""The gifting invariants of tests/core/gifts_machine.py on the server's SQLite store."""

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
from tests.core.gifts_machine import MANIFEST_GAME, make_machine

MANIFEST = f"""
studio = "gf"
[games.g]
name = "G"
{MANIFEST_GAME}
"""


def sqlite_store() -> tuple[Any, Scope]:
    services = make_services(Path(tempfile.mkdtemp()) / "gifts.db")
    applied = apply_manifest(services.store, services.keys, services.runtime, parse_manifest(MANIFEST))
    return services.store, Scope(
        studio_id=applied["studio"]["id"], game_id=applied["games"]["g"]["id"], env=Environment.TEST
    )


TestGiftsOnSqlite = make_machine(sqlite_store).TestCase
TestGiftsOnSqlite.settings = settings(max_examples=examples(40), stateful_step_count=30, deadline=None)
