"""What a test costs, as markers (docs/testing.md#what-a-run-costs): given here by where a test lives and
what it runs on, so that a new test is marked as its neighbours are without saying so.

- ``postgres``: runs on the PostgreSQL server (its parameters name it, or it takes a schema of its own);
- ``browser``: drives headless Chromium (``tests/browser``);
- ``fuzz``: schemathesis on the three documents (``fuzz/test_documents.py``);
- ``bench``: a benchmark's smoke run (``benchmarks/``);
- ``slow``: starts server processes, builds and installs the package, runs npm or mypy, plays the README's
  commands or whole seasons of the simulation, or seeds large data: the files of :data:`SLOW`, and any
  test marked ``slow`` where it is written.

``nox -s quick`` leaves all five out; ``nox -s tests`` (and CI) runs everything.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from livecore_server.simulate.engines import PROCESSES_ENV

ROOT = Path(__file__).resolve().parent

# The suite plays a simulation's seasons in the test's own process (docs/testing.md#what-a-run-costs): its
# two workers keep both cores busy, and a season's worker process only adds an interpreter's start. The
# tests of the worker processes themselves unset it.
os.environ.setdefault(PROCESSES_ENV, "1")

# Files whose tests are slow for what they check (each file 15 s or more of one worker on the 2-core
# machine): server processes, builds, installs, npm and mypy runs, simulated seasons, large seeded data.
SLOW = frozenset(
    {
        "tests/test_readme.py",
        "tests/packaging/test_built_package.py",
        "tests/packaging/test_fresh_interpreters.py",
        "tests/server/test_scale_out.py",
        "tests/server/test_idempotency_storm.py",
        "tests/server/test_key_rotation_live.py",
        "tests/server/test_fitted_demo.py",
        "tests/server/test_simulate_offers.py",
        "tests/server/test_cli_population.py",
        "tests/server/test_simulate_seeds.py",
        "tests/server/test_simulate_populations.py",
        "tests/server/test_simulate_effect_rows.py",
        "tests/server/test_simulation_report_figures.py",
        "tests/server/test_cli_simulate.py",
        "tests/server/test_simulate_sweep.py",
        "tests/server/test_simulate_cluster.py",
        "tests/server/test_guilds_query_plans.py",
        "tests/security/test_rotation_while_serving.py",
        "tests/security/test_newcomer.py",
        "tests/test_examples.py",
        "tests/test_example_studio_areas.py",
        "tests/typescript/test_typescript_clients.py",
    }
)
# Fixtures that give a test a PostgreSQL schema of its own.
POSTGRES_FIXTURES = frozenset({"pg_url", "storm_url"})


def _where(item: pytest.Item) -> str:
    return Path(item.path).resolve().relative_to(ROOT).as_posix()


def _on_postgres(item: pytest.Item) -> bool:
    callspec = getattr(item, "callspec", None)
    if callspec is not None and any(value == "postgres" for value in callspec.params.values()):
        return True
    return bool(POSTGRES_FIXTURES & set(getattr(item, "fixturenames", ())))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        where = _where(item)
        if _on_postgres(item):
            item.add_marker(pytest.mark.postgres)
        if where.startswith("tests/browser/"):
            item.add_marker(pytest.mark.browser)
        if where == "fuzz/test_documents.py":
            item.add_marker(pytest.mark.fuzz)
        if where.startswith("benchmarks/"):
            item.add_marker(pytest.mark.bench)
        if where in SLOW:
            item.add_marker(pytest.mark.slow)
    # The long files first (the whole run hands out files in this order, docs/testing.md#what-a-run-costs):
    # started early, each runs beside the many short files on the other worker, not alone at the end.
    items.sort(key=lambda item: not _long(item))


# The markers of files that take a minute or more of one worker.
LONG = ("fuzz", "bench", "slow")


def _long(item: pytest.Item) -> bool:
    return any(item.get_closest_marker(name) is not None for name in LONG)
