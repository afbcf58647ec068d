"""The example studio areas' own suites (examples/studio_daily/tests, examples/studio_quests/tests), run
as a studio runs its suite: pytest in a process of its own, with the scaffold of livecore_server.testing;
served on SQLite and on PostgreSQL, and embedded, in one run. The smallest area's listing in
docs/extending.md is run as written, by studio_daily's embedded tests."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.postgres_support import require_postgres

ROOT = Path(__file__).resolve().parent.parent
SUITES = ("examples/studio_daily/tests", "examples/studio_quests/tests")


def _run(suite: str, postgres: str | None, selected: str | None = None, cwd: Path = ROOT) -> str:
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
            *(() if selected is None else ("-k", selected)),
        ],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.mark.parametrize("suite", SUITES)
def test_the_examples_own_suite_runs_embedded_and_served_on_sqlite_and_on_postgresql(suite: str) -> None:
    """One run of the suite, as a studio's CI runs it: nothing skipped, so its PostgreSQL tests ran too."""
    out = _run(suite, require_postgres())
    assert " passed" in out and "skipped" not in out, out


def test_the_smallest_area_listed_in_docs_extending_runs_as_written(tmp_path: Path) -> None:
    """The listing is the whole ``studio_daily/__init__.py``: put in a package of that name, with the
    example's own tests, its client's resource and its generated typed facades beside it, their embedded
    tests (and apply's check of its section) pass."""
    guide = (ROOT / "docs" / "extending.md").read_text(encoding="utf-8")
    section = guide.split("## The smallest area: one module", 1)[1]
    listing = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert listing is not None
    package = tmp_path / "studio_daily"
    shutil.copytree(ROOT / "examples" / "studio_daily" / "tests", package / "tests")
    for module in ("client.py", "typed.py"):
        shutil.copy(ROOT / "examples" / "studio_daily" / module, package / module)
    (package / "__init__.py").write_text(listing[1], encoding="utf-8")
    out = _run("studio_daily/tests", None, "embedded or apply_refuses", cwd=tmp_path)
    assert "5 passed" in out and "skipped" not in out, out
    # The listing was what they imported, not the example's package.
    where = [sys.executable, "-c", "import studio_daily; print(studio_daily.__file__)"]
    found = subprocess.run(where, cwd=tmp_path, capture_output=True, text=True, timeout=60, check=True)
    assert found.stdout.strip() == str(package / "__init__.py")
