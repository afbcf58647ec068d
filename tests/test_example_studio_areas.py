"""The example studio areas' own suites (examples/studio_daily/tests, examples/studio_quests/tests), run
as a studio runs its suite: pytest in a process of its own, with the scaffold of livecore_server.testing;
served on SQLite, then on PostgreSQL, and embedded."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.postgres_support import require_postgres

ROOT = Path(__file__).resolve().parent.parent
SUITES = ("examples/studio_daily/tests", "examples/studio_quests/tests")


def _run(suite: str, postgres: str | None, selected: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LIVECORE_TEST_POSTGRES", "PYTEST_"))}
    if postgres is not None:
        env["LIVECORE_TEST_POSTGRES"] = postgres
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            suite,
            "-k",
            selected,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.mark.parametrize("suite", SUITES)
def test_the_examples_own_suite_runs_embedded_and_served_on_sqlite(suite: str) -> None:
    out = _run(suite, None, "not postgres")
    assert " passed" in out and "skipped" not in out, out


@pytest.mark.parametrize("suite", SUITES)
def test_the_examples_own_suite_runs_served_on_postgresql(suite: str) -> None:
    out = _run(suite, require_postgres(), "postgres")
    assert " passed" in out and "skipped" not in out, out
