"""One game or many (``--games``), and the counts summed over server processes: the manifest's copies,
the scenarios that refuse, each game's share of a setup, wrk's requests taking the games in turn, the
counts of several processes and a short run over two games on PostgreSQL (skipped without PostgreSQL or
wrk)."""

from __future__ import annotations

import asyncio
import collections
import json
import shutil
import threading
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from aiohttp import web

from benchmarks import __main__ as cli
from benchmarks import postgres, report, wrk
from benchmarks.harness import (
    MANIFEST,
    BenchError,
    Options,
    game_names,
    many_games_manifest,
    prepare_games,
    run,
    select,
)
from benchmarks.scenarios import BASELINE, CLAIMERS, GIFTERS, SCENARIOS, UNIQUE, claim_pool_size
from benchmarks.server import (
    SECRET_KEY_ENV,
    Counts,
    ServerProcess,
    apply_manifest,
    fresh_secret_key,
    manifest_vars,
    read_statement_file,
    server_env,
)
from benchmarks.test_benchmarks import FakeServer, _gift_sends
from livecore_server.statement_tally import RoundTripTally
from livecore_server.storage.postgres_tally import Tally
from tests.postgres_support import require_postgres

needs_wrk = pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk not installed (apt-get install wrk)")


def test_the_manifest_game_is_copied_with_its_own_keys_and_no_gift_cooldown() -> None:
    games = tomllib.loads(many_games_manifest(MANIFEST, 3))["games"]
    original = tomllib.loads(MANIFEST.read_text())["games"]["bench"]
    assert list(games) == game_names(3) == ["bench", "bench-2", "bench-3"]
    for game in games.values():
        assert game["gifting"]["cooldown_seconds"] == 0
        assert game["api_keys"] == original["api_keys"]  # each game mints its own from these
        assert game["events"] == original["events"] and game["leaderboards"] == original["leaderboards"]
    assert [g["name"] for g in games.values()] == ["Bench", "Bench 2", "Bench 3"]


def test_scenarios_reading_one_board_refuse_several_games() -> None:
    assert [s.name for s in select(["send_gift"], "postgres", games=8)] == [BASELINE, "send_gift"]
    with pytest.raises(BenchError, match=r"rank_1m.*one game only.*send_gift"):
        select(["rank_1m", "send_gift"], "postgres", games=2)
    with pytest.raises(BenchError, match="leaderboard_top"):
        select([], games=2)  # all of them: some cannot spread
    assert select(["rank_1m"], games=1)
    for name in ("send_gift", "claim_gift", "event_progress", "server_grant"):
        assert SCENARIOS[name].many_games, name
    args = cli.parse(["--db", "postgres", "--games", "8", "--db-latency-ms", "0.5"])
    assert (args.games, args.db_latency_ms) == (8, 0.5)
    with pytest.raises(SystemExit):
        cli.parse(["--db-latency-ms", "1"])  # PostgreSQL only
    with pytest.raises(BenchError, match="PostgreSQL"):
        Options(db_latency_ms=1).check()


def test_each_game_makes_its_share_of_the_players_and_the_pools() -> None:
    gifts = FakeServer()
    gifts.games = 8
    SCENARIOS["send_gift"].setup(gifts)  # type: ignore[misc]
    assert len(gifts.vars["gifters"].split(",")) == GIFTERS // 8 == 10
    assert len(gifts.friends) == 10 * 9 // 2
    claims = FakeServer(run_seconds=3)
    claims.games = 8
    SCENARIOS["claim_gift"].setup(claims)  # type: ignore[misc]
    assert len(claims.vars["claimers"].split(",")) == CLAIMERS // 8
    assert len(_gift_sends(claims)) == claim_pool_size(3, 8) + 1 == -(-3 * 2_000 // 8) + 1_000 + 1
    assert claims.share(100) == 13 and claims.share(1, least=2) == 2  # rounded up; never under least


# --- wrk's requests over several games ------------------------------------------------------------


@contextmanager
def recording_server() -> Iterator[tuple[str, list[tuple[str, str, str]]]]:
    """A tiny HTTP server answering 200 to anything, recording (Authorization, X-Game, path)."""
    seen: list[tuple[str, str, str]] = []

    async def anything(request: web.Request) -> web.Response:
        seen.append(
            (request.headers.get("Authorization", ""), request.headers.get("X-Game", ""), request.path)
        )
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", anything)
    loop = asyncio.new_event_loop()
    runner = web.AppRunner(app, access_log=None)
    loop.run_until_complete(runner.setup())
    site = web.TCPSite(runner, "127.0.0.1", 0)
    loop.run_until_complete(site.start())
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}", seen
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


GAME_LUA = """
local calls = 0
request = function()
   calls = calls + 1
   wrk.headers["X-Game"] = vars.game .. "-" .. calls
   return wrk.format(nil, wrk.path .. unique_id())
end
"""


def _games(path: str) -> list[tuple[wrk.Request, dict[str, str]]]:
    return [
        (wrk.Request("GET", path, {"Authorization": f"Bearer key-{g}"}, None), {"game": g})
        for g in ("a", "b", "c")
    ]


@needs_wrk
@pytest.mark.parametrize("lua", [None, GAME_LUA], ids=["static", "scenario-lua"])
def test_wrk_takes_the_games_in_turn_each_with_its_own_request_and_state(
    lua: str | None, tmp_path: Path
) -> None:
    script = tmp_path / "games.lua"
    path = "/x/" if lua else f"/x/{UNIQUE}"
    script.write_text(wrk.build_games_script(_games(path), nonce="0badcafe", extra_lua=lua))
    with recording_server() as (url, seen):
        result = wrk.run(url, script, seconds=1, connections=4, threads=1)
    assert not result.failed and result.requests > 30
    keys = collections.Counter(auth for auth, _, _ in seen)
    assert set(keys) == {"Bearer key-a", "Bearer key-b", "Bearer key-c"}
    assert (
        max(keys.values()) - min(keys.values()) <= 4 + 1
    )  # in turn; up to one request a connection in flight
    assert all(p.startswith("/x/0badcafe-1-") for _, _, p in seen)  # unique ids either way
    if lua:  # each game's Lua reads its own vars and counts its own requests
        counters: dict[str, list[int]] = collections.defaultdict(list)
        for auth, game, _ in seen:
            letter, n = game.split("-")
            assert letter == auth[-1]
            counters[letter].append(int(n))
        for numbers in counters.values():
            # wrk calls request() once more at start, unsent; a counter shared by the games would reach
            # three times as far.
            assert len(set(numbers)) == len(numbers) and max(numbers) <= len(numbers) + 4 + 1


def test_one_game_or_identical_requests_keep_the_single_game_script() -> None:
    one = _games("/p")[:1]
    assert wrk.build_games_script(one, nonce="n", extra_lua=None) == wrk.build_script(
        one[0][0], nonce="n", variables=one[0][1], extra_lua=None
    )
    baseline = SCENARIOS[BASELINE]
    client = httpx.Client()  # unused: the baseline has no setup
    prepared = prepare_games(baseline, "http://unused", client, [{"k": "1"}, {"k": "2"}])
    assert prepared.others == () and prepared.variables == {"k": "1"}


# --- the counts of several server processes --------------------------------------------------------


def test_counts_add_and_subtract_over_processes() -> None:
    a = Counts(10, 4, 3, 1, {"SerializationFailure": 1})
    b = Counts.of(
        {"statements": 5, "round_trips": 2, "writes": 2, "retries": 2, "retried": {"DeadlockDetected": 2}}
    )
    total = a + b
    assert total == Counts(15, 6, 5, 3, {"DeadlockDetected": 2, "SerializationFailure": 1})
    assert total - a == b
    assert Counts(5) + Counts(7) == Counts(12)  # SQLite: statements only
    assert (Counts(5, 1) + Counts(7)).round_trips is None


def test_round_trip_tally_reads_the_store_write_counts_by_name(tmp_path: Path) -> None:
    counted = Tally()
    counted.add(7, 3)
    before = RoundTripTally(tmp_path / "a.json", counted, store=None)  # a store without write_counts
    assert before.counts() == {"statements": 7, "round_trips": 3, "writes": 0, "retries": 0, "retried": {}}
    store: Any = SimpleNamespace(
        write_counts=SimpleNamespace(
            committed=40, retried=collections.Counter({"SerializationFailure": 3, "UniqueViolation": 1})
        )
    )
    tally = RoundTripTally(tmp_path / "b.json", counted, store=store)
    tally.write()
    found = json.loads((tmp_path / "b.json").read_text())
    assert found["writes"] == 40 and found["retries"] == 4 and found["seq"] == 1
    assert found["retried"] == {"SerializationFailure": 3, "UniqueViolation": 1}
    read = read_statement_file(tmp_path / "b.json")
    assert read == (Counts(7, 3, 40, 4, {"SerializationFailure": 3, "UniqueViolation": 1}), 1)


def test_the_retries_column_is_pooled_over_the_rounds() -> None:
    latency = {"p50": 500.0, "p90": 900.0, "p99": 2000.0, "max": 3000.0, "mean": 600.0}

    def result(requests: int, writes: int | None, retries: int | None) -> wrk.WrkResult:
        return wrk.WrkResult(
            requests, 1_000_000, 0, {"status": 0}, latency, db_cpu_s=0.1, writes=writes, retries=retries
        )

    rows = report.figures(
        select(["server_grant"], "postgres"),
        {BASELINE: [result(1000, 0, 0)] * 2, "server_grant": [result(100, 100, 1), result(100, 300, 7)]},
    )
    assert rows[1].retries_percent == 2.0  # 8 retries over 400 writes
    table = report.markdown(rows)
    assert "| retries % |" in table and "| 2.00 |" in table and "| — |" in table  # the baseline writes none
    assert report.document({}, rows)["scenarios"]["server_grant"]["retries_percent"] == 2.0
    sqlite = report.figures(select(["server_grant"]), {BASELINE: [result(10, None, None)]})
    assert "retries %" not in report.markdown(sqlite)


def test_two_processes_count_in_their_own_files_and_are_summed(tmp_path: Path) -> None:
    server = require_postgres()
    env = server_env({SECRET_KEY_ENV: fresh_secret_key()})
    with postgres.BenchDatabase(server) as db:
        variables = manifest_vars(apply_manifest(MANIFEST, db.url, env))
        counted = tmp_path / "statements.json"
        with ServerProcess(
            db.url, tmp_path / "server.log", env, processes=2, statement_file=counted
        ) as served:
            assert [p.name for p in served.statement_files] == ["statements-1.json", "statements-2.json"]
            before = served.counts()
            with httpx.Client(base_url=served.base_url, timeout=30) as client:
                for i in range(20):  # new connections: the kernel spreads them over both processes
                    client.headers["Connection"] = "close"
                    answer = client.post(
                        f"/sdk/v1/players/tally-{i}/register",
                        headers={"Authorization": f"Bearer {variables['client_key']}"},
                    )
                    assert answer.status_code in (200, 201), answer.text
            after = served.counts()
            assert before is not None and after is not None
            each = [read_statement_file(path) for path in served.statement_files]
            assert all(found is not None for found in each)
            assert after == sum((found[0] for found in each if found is not None), Counts(0, 0, 0, 0))
            spent = after - before
            assert spent.statements > 20 and spent.round_trips is not None and spent.round_trips > 0
            assert spent.writes is not None and spent.retries is not None  # 0 before the store counts them


@needs_wrk
def test_a_short_run_over_two_games_on_postgres() -> None:
    """A write each game of the two has its own player and keys for (its setup told as spread), on two
    server processes: the twin left out, the statements counted over both."""
    server = require_postgres()
    lines: list[str] = []
    options = Options(
        rounds=1,
        slice_s=1,
        warmup_s=0,
        scenarios=["server_grant"],
        store="postgres",
        pg_server=server,
        processes=2,
        games=2,
    )
    outcome = run(options, log=lines.append)
    assert outcome.errors == [], outcome.errors
    assert outcome.meta["games"] == 2 and outcome.meta["db_latency_ms"] == 0
    grant = next(f for f in outcome.rows if f.scenario.name == "server_grant")
    assert grant.twin == ()  # left out over several games
    # Counted over both processes now.
    assert grant.statements_per_request is not None and grant.round_trips_per_request is not None
    assert grant.writes is not None
    assert any("setup server_grant" in line and "(2 games)" in line for line in lines)
