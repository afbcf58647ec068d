"""The operator commands: livecore-server webhooks endpoints / deliveries / replay / unpause / sample."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from livecore_server.cli import main
from tests.conftest import TEST_MANIFEST, webhook_manifest


def _cli(db: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*args, "--db", str(db)])
    return result.exit_code, result.stdout + result.stderr


def test_operator_commands(tmp_path: Path) -> None:
    db = tmp_path / "ops.db"
    manifest = tmp_path / "m.toml"
    manifest.write_text(TEST_MANIFEST + webhook_manifest(hook=("test", "http://127.0.0.1:9/hooks", '["*"]')))
    applied = CliRunner().invoke(main, ["apply", str(manifest), "--json", "--db", str(db)])
    assert applied.exit_code == 0, applied.output
    assert applied.stderr.startswith("creating a new database at ")  # said apart from the JSON
    endpoint_id = json.loads(applied.stdout)["games"]["space-race"]["webhooks"]["hook"]["id"]

    code, out = _cli(db, "webhooks", "endpoints")
    assert code == 0
    assert f"{endpoint_id}  space-race/hook  [test]  active  failures=0" in out

    code, out = _cli(db, "webhooks", "sample", endpoint_id, "--kind", "player.secret_set")
    assert code == 0
    event_id = out.strip()
    assert event_id.startswith("evt_")

    code, out = _cli(db, "webhooks", "deliveries", endpoint_id)
    assert (code, out) == (0, "")  # not fanned out until a server's dispatcher runs

    code, out = _cli(db, "webhooks", "unpause", endpoint_id)
    assert (code, out.strip()) == (0, "was not paused")

    code, out = _cli(db, "webhooks", "replay", "dlv_nope")
    assert code == 1
    assert "no delivery dlv_nope" in out

    code, out = _cli(db, "webhooks", "deliveries", "whe_nope")
    assert code == 1
    assert "no webhook endpoint whe_nope" in out
