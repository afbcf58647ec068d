"""Fitting a population from a large history: ``livecore-server population`` on 100,000 players' 28 days.

    python -m benchmarks.population_fit                      # 100,000 players, 28 days, 3 segments
    python -m benchmarks.population_fit --players 5000 --days 7 --json out.json

The target (docs/simulation.md#fitting-from-a-servers-history): fitting a 100,000-player, 28-day
history takes under a minute on the 2-core machine. The run applies a manifest of one game (``duel``: a
platform-managed ``coins`` currency, gifting on, one event open all day every day) to a fresh SQLite
database with ``livecore-server apply``, then writes a synthetic history straight into the store's own
tables, in one transaction, with the columns the fitting's reads use and every column the tables require:
each player's row (first seen in the period's first days, its sessions on record, its last activity), its
attempts at the event (a play of one or more attempts, scored), its spending (client debits on the
ledger) and its gifts sent. Three kinds of player, by sessions a day (4, 1.5, 0.4), play the event, spend
and gift at their own rates, drawn from a fixed seed. Then it times ``livecore-server population --db DB
--game duel --until END --out FILE`` as a process of its own (start-up and import included), and reads
the file back. It reports the rows written, the build's time, the command's wall time and the segments
it found. Timing is reported, never asserted: this machine is shared.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from benchmarks.report import write_json
from tests.server.population_support import DUEL

TARGET_SECONDS = 60.0
ROOT = Path(__file__).resolve().parents[1]
START = datetime(2026, 3, 2, tzinfo=UTC)
GAME = "duel"

#: The server round trip's game (tests/server/population_support.py), in a studio of its own.
MANIFEST = 'studio = "bench"\n' + DUEL

#: The kinds of player: (share, sessions a day, event chance, attempts a play, skill, spend chance, gift
#: chance), a session's chances.
KINDS = (
    (0.2, 4.0, 0.8, 3, 0.75, 0.4, 0.5),
    (0.4, 1.5, 0.6, 2, 0.5, 0.2, 0.3),
    (0.4, 0.4, 0.4, 1, 0.3, 0.1, 0.1),
)
_DAY_MS = 86_400_000


def _cli() -> list[str]:
    return [sys.executable, "-m", "livecore_server.cli"]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def apply(db: Path, folder: Path) -> str:
    """The game's id, once the manifest is applied to a new database at ``db``."""
    manifest = folder / "manifest.toml"
    manifest.write_text(MANIFEST)
    done = subprocess.run(
        [*_cli(), "apply", str(manifest), "--db", str(db), "--json"],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=120,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"apply exited {done.returncode}:\n{done.stderr}{done.stdout}")
    import json

    game_id: str = json.loads(done.stdout)["games"][GAME]["id"]
    return game_id


_CHUNK = 200_000
_INSERTS = {
    "players": "INSERT INTO players (id, game_id, env, external_id, first_seen_at, last_seen_at, anon_name,"
    " sessions, last_active_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "attempts": "INSERT INTO attempts (id, game_id, env, player_id, external_player_id, event_key, event_id,"
    " window_id, board_id, status, started_at, ends_at, attempt_count, segment_values, metrics, score,"
    " milestones, flagged) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "ledger": "INSERT INTO ledger (id, player_id, game_id, resource_key, resource_type, delta, balance_after,"
    " reason, actor, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "gifts": "INSERT INTO gifts (id, game_id, grant_id, sender_id, recipient_id, type, resource_key, amount,"
    " status, sent_at, deducted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
}


def flush(conn: sqlite3.Connection, *tables: list[tuple[Any, ...]] | dict[str, int]) -> None:
    """Insert the rows gathered (players, attempts, ledger, gifts), counted into the last argument."""
    *lists, counts = tables
    assert isinstance(counts, dict)
    for (name, statement), rows in zip(_INSERTS.items(), lists, strict=True):
        assert isinstance(rows, list)
        conn.executemany(statement, rows)
        counts[name] += len(rows)
        rows.clear()


def build(db: Path, game_id: str, players: int, days: int, seed: int) -> dict[str, int]:
    """The synthetic history, written in one transaction; the rows written, by table."""
    rng = random.Random(seed)
    start_ms = int(START.timestamp() * 1000)
    span = days * _DAY_MS
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("BEGIN")
    player_rows: list[tuple[Any, ...]] = []
    attempt_rows: list[tuple[Any, ...]] = []
    ledger_rows: list[tuple[Any, ...]] = []
    gift_rows: list[tuple[Any, ...]] = []
    counts = {"players": 0, "attempts": 0, "ledger": 0, "gifts": 0}
    cumulative = []
    total = 0.0
    for kind in KINDS:
        total += kind[0]
        cumulative.append(total)
    ids = [f"plr_bench{i:07d}" for i in range(players)]
    for index, player_id in enumerate(ids):
        pick = rng.random() * total
        _, per_day, events, attempts, skill, spend, gifts = next(
            k for k, c in zip(KINDS, cumulative, strict=True) if pick <= c
        )
        first = start_ms + int(rng.random() * min(span, 3 * _DAY_MS))
        life = start_ms + span - first
        count = 1 + int(rng.expovariate(1.0) * per_day * life / _DAY_MS)  # about per_day a day
        times = sorted(first + int(rng.random() * life) for _ in range(count - 1))
        times.insert(0, first)
        coins = 1000
        for at in times:
            if rng.random() < events:
                score = round(min(1.0, max(0.0, rng.gauss(skill, 0.1))) * 1500)
                for n in range(attempts):
                    started = at + n * 60_000
                    attempt_rows.append(
                        (
                            f"att_{counts['attempts'] + len(attempt_rows):09d}",
                            game_id,
                            "live",
                            player_id,
                            f"ext-{index}",
                            "race",
                            "evt_race",
                            "win",
                            "brd",
                            "completed",
                            started,
                            started + 300_000,
                            n + 1,
                            "{}",
                            "{}",
                            score,
                            "[]",
                            0,
                        )
                    )
            if rng.random() < spend:
                amount = coins // 3
                coins -= amount
                ledger_rows.append(
                    (
                        f"led_{counts['ledger'] + len(ledger_rows):09d}",
                        player_id,
                        game_id,
                        "coins",
                        "currency",
                        -amount,
                        coins,
                        "client_debit",
                        "player",
                        at,
                    )
                )
                coins += 300
            if rng.random() < gifts:
                gift_rows.append(
                    (
                        f"gft_{counts['gifts'] + len(gift_rows):09d}",
                        game_id,
                        f"grt_{counts['gifts'] + len(gift_rows):09d}",
                        player_id,
                        ids[rng.randrange(players)],
                        "currency",
                        "coins",
                        1,
                        "sent",
                        at,
                        0,
                    )
                )
        if len(attempt_rows) > _CHUNK:
            flush(conn, player_rows, attempt_rows, ledger_rows, gift_rows, counts)
        last = times[-1]
        player_rows.append(
            (player_id, game_id, "live", f"ext-{index}", first, last, f"Player{index}", count, last)
        )
    flush(conn, player_rows, attempt_rows, ledger_rows, gift_rows, counts)
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.close()
    return counts


def fit(db: Path, out: Path, until: datetime, segments: int) -> tuple[float, str]:
    """The command's wall time and what it printed."""
    command = [*_cli(), "population", "--db", str(db), "--game", GAME, "--until", until.isoformat()]
    began = time.perf_counter()
    done = subprocess.run(
        [*command, "--segments", str(segments), "--out", str(out)],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=1800,
        check=False,
    )
    seconds = time.perf_counter() - began
    if done.returncode != 0:
        raise RuntimeError(f"population exited {done.returncode}:\n{done.stderr}{done.stdout}")
    return seconds, done.stdout.strip()


def run(players: int, days: int, segments: int, seed: int, folder: Path | None = None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="population-fit-") as temporary:
        where = folder or Path(temporary)
        where.mkdir(parents=True, exist_ok=True)
        db = where / "history.db"
        game_id = apply(db, where)
        began = time.perf_counter()
        rows = build(db, game_id, players, days, seed)
        built = time.perf_counter() - began
        until = START + timedelta(days=days)
        out = where / "fitted.toml"
        seconds, said = fit(db, out, until, segments)
        text = out.read_text()
    return {
        "players": players,
        "days": days,
        "segments": segments,
        "rows": rows,
        "build_seconds": round(built, 1),
        "fit_seconds": round(seconds, 1),
        "target_seconds": TARGET_SECONDS,
        "met": seconds < TARGET_SECONDS,
        "said": said,
        "file": text,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.population_fit", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--days", type=int, default=28)
    parser.add_argument("--segments", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    parser.add_argument("--db-dir", type=Path, help="keep the database and the file in a folder here")
    args = parser.parse_args(argv)
    result = run(args.players, args.days, args.segments, args.seed, args.db_dir)
    rows = ", ".join(f"{n:,} {table}" for table, n in result["rows"].items())
    print(f"history: {rows} written in {result['build_seconds']:.1f} s")
    print(result["said"])
    verdict = "met" if result["met"] else "MISSED"
    print(
        f"population_fit: {args.players:,} players x {args.days} days fitted in {result['fit_seconds']:.1f} s"
        f" (target {TARGET_SECONDS:.0f} s: {verdict})"
    )
    if args.json is not None:
        write_json(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
