"""The developer's tools as the docs tell them: a bare `nox` runs the sessions docs/testing.md says it
runs, and nothing slower (the fuzz run, the benchmarks) unless named; the README says where `python -m
build` comes from."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_bare_nox_runs_the_sessions_the_testing_page_names() -> None:
    command = [sys.executable, "-m", "nox", "--list", "--json"]
    listed = subprocess.run(command, cwd=ROOT, capture_output=True, timeout=60, check=True)
    sessions = [s["name"] for s in json.loads(listed.stdout)]  # the sessions a bare `nox` selects
    assert sessions == ["tests", "lint", "typecheck"]
    said = re.search(r"^nox +# (.*)$", (ROOT / "docs" / "testing.md").read_text(), re.MULTILINE)
    assert said is not None, "docs/testing.md says what a bare `nox` runs"
    assert said.group(1).startswith("tests, lint and typecheck, ")


def test_the_readme_says_where_python_m_build_comes_from() -> None:
    paragraphs = [" ".join(p.split()) for p in (ROOT / "README.md").read_text().split("\n\n")]
    building = [p for p in paragraphs if "`python -m build`" in p]
    assert building
    for paragraph in building:
        assert "pip install build" in paragraph, paragraph
