"""Each area's ``livecore-server`` commands, found by the root command (livecore_server/cli.py,
docs/extending.md#its-commands): a built-in area's in its server package's ``cli`` module, a studio's in
its own package's once ``LIVECORE_AREAS`` names it, reaching the area's tables; a command name two modules
give is refused, naming both."""

from __future__ import annotations

import sys
from datetime import UTC, date, datetime
from pathlib import Path
from types import ModuleType

import click
import pytest
from click.testing import CliRunner
from studio_quests.rules import QuestState
from studio_quests.store import QUESTS

from livecore import registry
from livecore_server import cli
from livecore_server.cli import main
from livecore_server.cli_options import open_services, server_config


def _listed(monkeypatch: pytest.MonkeyPatch, named: str | None = None) -> list[str]:
    """The commands ``livecore-server --help`` lists with ``LIVECORE_AREAS`` set to ``named``."""
    if named is None:
        monkeypatch.delenv("LIVECORE_AREAS", raising=False)
    else:
        monkeypatch.setenv("LIVECORE_AREAS", named)
    return main.list_commands(click.Context(main))


def test_the_built_in_areas_commands_are_found_in_their_server_packages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    listed = _listed(monkeypatch)
    assert cli.area_packages() == tuple(f"livecore_server.{area.name}" for area in registry.installed())
    assert {"apply", "members", "webhooks"} <= set(listed)  # livecore_server/operators/cli.py
    assert {"serve", "demo", "init", "lockouts", "simulate", "population"} <= set(listed)  # the CLI's own
    assert "quests" not in listed
    assert listed == sorted(listed)


def test_a_studio_areas_commands_are_found_in_its_package_and_reach_its_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "q.db")
    services = open_services(server_config(db), areas=("studio_quests",))  # makes the database
    try:
        checked_in = datetime(2026, 3, 2, 9, tzinfo=UTC)
        state = QuestState("plr_ada", "gam_1", date(2026, 3, 2), 3, 5, 12, checked_in)
        services.store.run(lambda tx: tx.ports.of(QUESTS).put(state))
    finally:
        services.close()
    assert "quests" in _listed(monkeypatch, "studio_quests")
    env: dict[str, str | None] = {"LIVECORE_AREAS": "studio_quests"}
    helped = CliRunner().invoke(main, ["--help"], env=env)
    assert "quests The quests area: the players' daily check-ins" in " ".join(helped.stdout.split())
    shown = CliRunner().invoke(main, ["quests", "show", "plr_ada", "--db", db], env=env)
    assert shown.exit_code == 0, shown.output
    assert shown.stdout == "plr_ada  game gam_1: streak 3 (best 5), 12 check-ins, the last on 2026-03-02\n"
    missing = CliRunner().invoke(main, ["quests", "show", "plr_bea", "--db", db], env=env)
    assert missing.exit_code == 1
    assert missing.stderr == "Error: plr_bea has not checked in\n"
    unknown = CliRunner().invoke(
        main, ["quests", "show", "plr_ada", "--db", db], env={"LIVECORE_AREAS": None}
    )
    assert unknown.exit_code == 2 and "No such command 'quests'" in unknown.stderr


def test_a_command_name_two_modules_give_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    package, module = ModuleType("clashing_area"), ModuleType("clashing_area.cli")
    package.__path__ = []
    module.COMMANDS = (click.Command("serve"),)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "clashing_area", package)
    monkeypatch.setitem(sys.modules, "clashing_area.cli", module)
    result = CliRunner().invoke(main, ["--help"], env={"LIVECORE_AREAS": "clashing_area"})
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: the command serve of clashing_area.cli is also livecore_server.cli_serve's: rename one\n"
    )
