"""``livecore-server init`` (docs/server.md#manifest): the starter manifest it writes, which
``apply`` accepts as written, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from livecore.leaderboards.settings import LEADERBOARD_SETTINGS
from livecore.live_events.rules import EventState, state
from livecore.live_events.settings import EVENT_SETTINGS
from livecore.scope import Permission
from livecore_server.cli import main
from livecore_server.manifest import parse_manifest
from livecore_server.operators.apply import apply_manifest
from livecore_server.starter import starter_manifest_text
from tests.conftest import make_services

# The file as it ships: the wheel carries it (tests/packaging), init writes it.
SHIPPED = Path(__file__).resolve().parents[2] / "livecore_server" / "starter.toml"


def test_apply_accepts_the_starter_manifest_as_written(db_url: str) -> None:
    manifest = parse_manifest(starter_manifest_text())
    services = make_services(db_url)
    try:
        applied = apply_manifest(services.store, services.keys, services.runtime, manifest)
        game = applied["games"]["my-game"]
        stored = services.store.run(lambda tx: tx.games.get(game["id"]), write=False)
    finally:
        services.close()
    assert stored is not None
    assert stored.settings == manifest.games["my-game"].settings()
    assert {k["secret"][:8] for k in game["apiKeys"].values()} == {"lc_test_"}
    assert game["webhooks"]["backend"]["secret"].startswith("whsec_")
    assert applied["members"]["owner"]["role"] == "OWNER"


def test_the_starter_declares_one_game_with_both_keys_an_open_event_a_leaderboard_and_a_webhook() -> None:
    manifest = parse_manifest(starter_manifest_text())
    (game,) = manifest.games.values()
    assert {key.permission for key in game.api_keys.values()} == {
        Permission.CLIENT_SDK,
        Permission.SERVER_INTEGRATION,
    }
    settings = game.settings()
    (event,) = settings.of(EVENT_SETTINGS).values()
    # A window is open whenever the starter is applied, today and at any time of any later day.
    now = datetime.now(UTC)
    assert all(state(event, now + timedelta(hours=h)) is EventState.OPEN for h in (0, 5.5, 23.99, 24 * 400))
    assert event.completion_rewards and event.milestones and event.rank_rewards
    (board,) = settings.of(LEADERBOARD_SETTINGS)
    assert event.feeds == (board,) and settings.of(LEADERBOARD_SETTINGS)[board].rank_rewards
    assert len(game.webhooks) == 1


def test_init_writes_the_shipped_starter_manifest_and_apply_accepts_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    written = CliRunner().invoke(main, ["init"])
    assert written.exit_code == 0, written.output
    assert (tmp_path / "manifest.toml").read_bytes() == SHIPPED.read_bytes()
    assert "livecore-server apply manifest.toml" in written.stdout
    applied = CliRunner().invoke(main, ["apply", "manifest.toml", "--db", "starter.db", "--json"])
    assert applied.exit_code == 0, applied.output
    assert set(json.loads(applied.stdout)["games"]) == {"my-game"}


def test_init_writes_to_the_path_given(tmp_path: Path) -> None:
    path = tmp_path / "studio manifest.toml"
    result = CliRunner().invoke(main, ["init", str(path)])
    assert result.exit_code == 0, result.output
    assert path.read_text() == starter_manifest_text()
    assert f"livecore-server apply '{path}'" in result.stdout


def test_init_refuses_to_overwrite_an_existing_file_without_force(tmp_path: Path) -> None:
    path = tmp_path / "manifest.toml"
    path.write_text('studio = "mine"\n')
    refused = CliRunner().invoke(main, ["init", str(path)])
    assert refused.exit_code == 1
    assert refused.stdout == ""
    assert refused.stderr.splitlines() == [
        f"Error: {path} already exists: choose another PATH, or add --force to overwrite it"
    ]
    assert path.read_text() == 'studio = "mine"\n'

    forced = CliRunner().invoke(main, ["init", str(path), "--force"])
    assert forced.exit_code == 0, forced.output
    assert path.read_text() == starter_manifest_text()


def test_init_into_a_missing_directory_says_so_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "missing" / "manifest.toml"
    result = CliRunner().invoke(main, ["init", str(path)])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [f"Error: cannot write {path}: No such file or directory"]
