"""A studio's typed facades (``python -m livecore.assembly --area PACKAGE --out FILE``,
docs/extending.md#typed-facades): the examples' generated modules are current, ``--check`` fails on a
stale one, and a type checker reads a studio's area through them as it reads a built-in one, in the
clients and in a simulation, refusing a wrong argument."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from mypy import api as mypy_api

from livecore import registry
from livecore.area import Area, ClientPart
from livecore.assembly import main
from livecore.studio_facades import studio_module

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
STUDIOS = ("studio_quests", "studio_daily")

#: A studio's code, typed through its generated module: the area's client resource and simulated actions,
#: and a built-in area's beside them.
TYPED = """
from studio_daily.typed import AsyncSdkClient, SdkClient, Simulation
from studio_quests.api import CheckInResponse, QuestResponse
from studio_quests.typed import ServerClient, Simulation as QuestSimulation
from studio_daily import ClaimResponse
from livecore.gifts.api import GiftResponse


def play(sim: Simulation, quests: QuestSimulation) -> None:
    ada = sim.player("ada")
    claimed: ClaimResponse = ada.daily.claim()
    sent: GiftResponse = ada.gifts.send(
        type="currency", resource_key="gold", amount=1, external_player_id="bea"
    )
    checked: CheckInResponse = quests.player("bo").quests.check_in()
    read: QuestResponse = quests.server.quests.get("bo")


def call(sdk: SdkClient, server: ServerClient) -> None:
    claimed: ClaimResponse = sdk.daily.claim("ada", player_secret="s")
    read: QuestResponse = server.quests.get("ada")


async def call_async(sdk: AsyncSdkClient) -> None:
    claimed: ClaimResponse = await sdk.daily.claim("ada")
"""
#: The same calls with a wrong argument each, which the type checker must report, line by line.
WRONG = """
from studio_daily.typed import SdkClient, Simulation
from studio_quests.typed import ServerClient, Simulation as QuestSimulation


def play(sim: Simulation, sdk: SdkClient, quests: QuestSimulation, server: ServerClient) -> None:
    sim.player("ada").daily.claim(idempotency_key=7)
    sdk.daily.claim(42)
    sim.player("ada").daily.no_such_action()
    quests.player("bo").quests.check_in(player_secret=1)
    quests.server.quests.get(1)
    server.quests.get(1)
"""


def test_the_examples_typed_facades_are_current(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(EXAMPLES)
    for studio in STUDIOS:
        assert main(["--area", studio, "--out", f"{studio}/typed.py", "--check"]) == 0, (
            f"stale: run python -m livecore.assembly --area {studio} --out {studio}/typed.py in examples/"
        )


def test_check_fails_on_a_stale_module_and_writing_makes_it_current(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "typed.py"
    fresh = (EXAMPLES / "studio_quests" / "typed.py").read_text(encoding="utf-8")
    out.write_text(fresh.replace("quests = resource", "quest = resource", 1), encoding="utf-8")
    assert main(["--area", "studio_quests", "--out", str(out), "--check"]) == 1
    assert "is stale: run python -m livecore.assembly --area studio_quests" in capsys.readouterr().err
    assert main(["--area", "studio_quests", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == fresh
    assert main(["--area", "studio_quests", "--out", str(out), "--check"]) == 0
    out.unlink()
    assert main(["--area", "studio_quests", "--out", str(out), "--check"]) == 1


def test_an_area_that_does_not_load_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--area", "no_such_studio_area"]) == 2
    assert capsys.readouterr().err.startswith("error: area no_such_studio_area:")


def test_an_attribute_a_built_in_area_binds_is_refused() -> None:
    taken = Area(
        name="wallets",
        summary="",
        page="wallets",
        client=(ClientPart("sdk", "wallet", "studio_wallets.client", "Wallet"),),
    )
    with pytest.raises(registry.AreaConflict, match=r"sdk\.wallet"):
        studio_module(["studio_wallets"], [taken])


def _mypy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> list[str]:
    """mypy --strict's errors on ``text``, with the examples' packages importable, as a studio runs it."""
    snippet = tmp_path / "snippet.py"
    snippet.write_text(text, encoding="utf-8")
    monkeypatch.setenv("MYPYPATH", str(EXAMPLES))
    # mypy raises the interpreter's recursion limit and leaves it raised: a later test of this worker
    # counting on the usual limit (a file nested too deeply to read) would read that file instead.
    limit = sys.getrecursionlimit()
    try:
        stdout, stderr, _ = mypy_api.run(
            [
                "--strict",
                "--config-file",
                str(ROOT / "pyproject.toml"),
                "--cache-dir",
                str(tmp_path / "cache"),
                str(snippet),
            ]
        )
    finally:
        sys.setrecursionlimit(limit)
    assert not stderr, stderr
    return [line for line in stdout.splitlines() if line.startswith(str(snippet))]


@pytest.mark.slow
def test_mypy_reads_a_studios_area_typed_and_reports_a_wrong_argument(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _mypy(tmp_path, monkeypatch, TYPED) == []
    wrong = _mypy(tmp_path, monkeypatch, WRONG)
    # One error a line: none of the facades is Any, where every call would pass.
    assert [line.split(":")[1] for line in wrong] == ["7", "8", "9", "10", "11", "12"], "\n".join(wrong)
    assert 'Argument "idempotency_key"' in wrong[0] and "Argument 1" in wrong[1]
    assert 'has no attribute "no_such_action"' in wrong[2]
