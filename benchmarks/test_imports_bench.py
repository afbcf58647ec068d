"""The import-cost benchmark measures each statement in a fresh interpreter and reports it as a ratio to
``import httpx`` (its timing is reported, never asserted)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from benchmarks.imports import STATEMENTS, main, measure


def test_a_statement_is_timed_in_a_fresh_interpreter() -> None:
    # This process holds the clients already: the statement fails unless it runs in another.
    cpu, wall = measure("import sys; assert 'livecore_client' not in sys.modules")
    assert cpu >= 0 and wall >= 0
    with pytest.raises(subprocess.CalledProcessError):
        measure("import livecore_no_such_module")


def test_every_statement_is_reported_against_httpx_in_the_json(tmp_path: Path) -> None:
    out = tmp_path / "imports.json"
    assert main(["--rounds", "1", "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["scenario"] == "import_cost"
    imports = result["imports"]
    assert list(imports) == list(STATEMENTS)
    assert imports["httpx"]["ratioToHttpx"] == 1
    for figures in imports.values():
        assert figures["cpuSeconds"] > 0
        assert figures["ratioToHttpx"] == figures["cpuSeconds"] / imports["httpx"]["cpuSeconds"]
