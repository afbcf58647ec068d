"""The operator commands: livecore-server webhooks endpoints / deliveries / replay / unpause / sample /
rotate-secret."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from livecore.clock import format_ts, from_millis
from livecore_server.cli import main
from tests.conftest import TEST_MANIFEST, make_services, webhook_manifest


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


def test_rotate_secret_prints_the_new_secret_once_and_keeps_the_old_one_for_the_overlap(
    tmp_path: Path,
) -> None:
    db = tmp_path / "ops.db"
    manifest = tmp_path / "m.toml"
    manifest.write_text(TEST_MANIFEST + webhook_manifest(hook=("test", "http://127.0.0.1:9/hooks", '["*"]')))
    applied = CliRunner().invoke(main, ["apply", str(manifest), "--json", "--db", str(db)])
    hook = json.loads(applied.stdout)["games"]["space-race"]["webhooks"]["hook"]
    endpoint_id, old = hook["id"], hook["secret"]

    def stored() -> tuple[str, str | None, int | None]:
        services = make_services(db)
        try:
            ((secret_enc, previous_enc, until),) = services.store.run(
                lambda tx: [
                    tuple(r)
                    for r in tx.execute(
                        "SELECT secret_enc, previous_secret_enc, previous_secret_until FROM webhook_endpoints"
                        " WHERE id = ?",
                        (endpoint_id,),
                    )
                ],
                write=False,
            )
            keys = services.keys
            previous = None if previous_enc is None else keys.decrypt(previous_enc, context=endpoint_id)
            return keys.decrypt(secret_enc, context=endpoint_id), previous, until
        finally:
            services.close()

    code, out = _cli(db, "webhooks", "rotate-secret", endpoint_id)
    assert code == 0, out
    first, overlap = out.splitlines()
    new = first.removeprefix("signing secret: ")
    assert new.startswith("whsec_") and new != old
    until = stored()[2]
    assert until is not None
    assert overlap == f"the old secret signs until {format_ts(from_millis(until))}"
    assert stored()[:2] == (new, old)  # 24 hours by default

    code, out = _cli(db, "webhooks", "rotate-secret", endpoint_id, "--overlap", "0")
    assert code == 0, out
    newest = out.splitlines()[0].removeprefix("signing secret: ")
    assert out.splitlines()[1] == "the old secret no longer signs"
    assert stored() == (newest, None, None)  # both earlier secrets are gone

    code, out = _cli(db, "webhooks", "rotate-secret", endpoint_id, "--overlap", "604801")
    assert code == 2 and "604801" in out
    code, out = _cli(db, "webhooks", "rotate-secret", "whe_nope")
    assert code == 1 and "no webhook endpoint whe_nope" in out
    assert stored() == (newest, None, None)
