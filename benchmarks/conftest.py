"""Drop the PostgreSQL run database that ``tests.postgres_support.require_postgres`` made, also when only
``pytest benchmarks`` runs (``tests/conftest.py`` does the same for ``tests/``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session", autouse=True)
def _drop_postgres_run_databases() -> Iterator[None]:
    yield
    from tests.postgres_support import drop_run_databases

    drop_run_databases()
