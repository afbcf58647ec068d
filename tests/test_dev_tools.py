"""The developer's tools as the docs tell them: a bare `nox` runs the sessions docs/testing.md says it
runs, and nothing slower (the fuzz run, the benchmarks) unless named; the README says where `python -m
build` comes from. And the tests' own waits (tests/waiting.py): a look that raises is retried until the
deadline."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.waiting import until, until_sync

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


class Looks:
    """A condition that raises ``TimeoutError`` (as a client timing out on a loaded machine does) for
    its first ``failures`` looks, then holds."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.count = 0

    def __call__(self) -> str:
        self.count += 1
        if self.count <= self.failures:
            raise TimeoutError(f"look {self.count} timed out")
        return "held"


async def _async(condition: Callable[[], str]) -> str:
    return condition()


async def _wait(waiter: str, condition: Callable[[], str], within: float = 30.0) -> str:
    """``condition`` waited for by ``until_sync``, by ``until``, or by ``until`` as a coroutine function."""
    if waiter == "until_sync":
        return until_sync(condition, "the looks", within=within, every=0.001)
    if waiter == "until":
        return await until(condition, "the looks", within=within, every=0.001)
    return await until(lambda: _async(condition), "the looks", within=within, every=0.001)


WAITERS = ["until_sync", "until", "until_awaiting"]


@pytest.mark.parametrize("waiter", WAITERS)
async def test_a_wait_retries_a_look_that_raises(waiter: str) -> None:
    looks = Looks(failures=3)
    assert await _wait(waiter, looks) == "held"
    assert looks.count == 4


@pytest.mark.parametrize("waiter", WAITERS)
async def test_a_wait_that_only_saw_exceptions_fails_at_its_deadline_naming_the_last(waiter: str) -> None:
    looks = Looks(failures=10**9)
    with pytest.raises(AssertionError) as failed:
        await _wait(waiter, looks, within=0.05)
    assert looks.count > 1
    message = str(failed.value)
    assert message.startswith("waited 0.05 s for the looks") and f"look {looks.count} timed out" in message
    assert isinstance(failed.value.__cause__, TimeoutError)


@pytest.mark.parametrize("waiter", WAITERS)
async def test_an_assertion_in_a_look_ends_the_wait_at_once(waiter: str) -> None:
    seen: list[int] = []

    def exited() -> str:
        seen.append(1)
        raise AssertionError("the server exited")

    with pytest.raises(AssertionError) as failed:
        await _wait(waiter, exited)
    assert str(failed.value) == "the server exited" and seen == [1]
