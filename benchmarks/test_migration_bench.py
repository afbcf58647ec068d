"""The migration benchmark imports correctly (its timing is reported, never asserted)."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.migration import main, player_rows, run, wallet_rows


def test_rows_are_unique_and_well_formed() -> None:
    players = player_rows(0, 1_000)
    wallets = wallet_rows(0, 1_000)
    assert len({r["idempotencyKey"] for r in players}) == 1_000
    assert len({r["externalPlayerId"] for r in players}) == 1_000
    assert [r["externalPlayerId"] for r in wallets] == [r["externalPlayerId"] for r in players]
    assert all(r["amount"] >= 1 for r in wallets)


def test_a_small_import_applies_every_row_and_the_players_exist() -> None:
    result = run(players=2_000, batch=1_000)
    for name in ("players", "wallet"):
        phase = result["phases"][name]
        assert (phase["rows"], phase["calls"], phase["applied"]) == (2_000, 2, 2_000)
    # run() itself reads back the first, middle and last player over the API.
    assert result["checkedPlayers"] == ["mig-0000000", "mig-0001000", "mig-0001999"]


def test_cli_writes_json_and_handles_a_partial_last_batch(tmp_path: Path) -> None:
    out = tmp_path / "migration.json"
    assert main(["--players", "250", "--batch", "100", "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["scenario"] == "migration_import"
    assert result["phases"]["players"]["calls"] == 3
    assert result["phases"]["wallet"]["applied"] == 250
