"""Checks of the harness's pure parts (no server, no wrk), and one short run on SQLite (skipped without
wrk): ``pytest benchmarks``."""

from __future__ import annotations

import asyncio
import re
import shutil
import threading
from collections.abc import Iterable
from typing import Any, cast

import httpx
import orjson
import pytest
from aiohttp import web

from benchmarks import report, wrk
from benchmarks.context import BenchContext, SetupCall, SetupError
from benchmarks.harness import Options, run, select
from benchmarks.scenarios import (
    BASELINE,
    CLAIMERS,
    GIFTERS,
    SCENARIOS,
    UNIQUE,
    claim_pool_size,
    pair,
)


def test_unique_marker_becomes_the_per_request_id() -> None:
    assert wrk.lua_expr(f"/players/{UNIQUE}/register") == '"/players/" .. u .. "/register"'
    assert wrk.lua_expr(UNIQUE) == "u"
    assert wrk.lua_expr("") == '""'


def test_lua_strings_escape_quotes_backslashes_and_non_ascii() -> None:
    assert wrk.lua_string('a"b\\c é') == '"a\\034b\\092c \\195\\169"'


def test_static_request_has_no_request_function() -> None:
    static = wrk.Request("GET", "/server/v1/ping", {"Authorization": "Bearer k"}, None)
    assert "request = function" not in wrk.request_lua(static)
    unique = wrk.Request("POST", f"/p/{UNIQUE}", {"Idempotency-Key": UNIQUE}, f'{{"id": "{UNIQUE}"}}')
    lua = wrk.request_lua(unique)
    assert 'return wrk.format(nil, "/p/" .. u, {["Idempotency-Key"] = u}, "{\\034id\\034: \\034" .. u' in lua


def test_result_line_is_parsed() -> None:
    line = (
        '@@BENCH_RESULT {"requests":10,"duration_us":2000000,"bytes":100,'
        '"errors":{"connect":0,"read":0,"write":0,"status":2,"timeout":0},'
        '"latency_us":{"p50":400,"p90":800,"p99":1200,"max":1500,"mean":450.0}}'
    )
    result = wrk.parse_result(f"Running 2s test\n{line}\n")
    assert result.rps == 5.0
    assert result.failed


def _result(requests: int, statements: int | None) -> wrk.WrkResult:
    latency = {"p50": 500.0, "p90": 900.0, "p99": 2000.0, "max": 3000.0, "mean": 600.0}
    return wrk.WrkResult(
        requests, 1_000_000, 0, {"status": 0}, latency, server_cpu_s=0.5, statements=statements
    )


def test_statements_per_request_are_the_median_round_and_a_dash_where_not_counted() -> None:
    scenarios = select(["server_grant"])
    rounds = [_result(1000, 8400), _result(1000, 9000), _result(2000, 17000)]  # 8.4, 9.0, 8.5
    rows = report.figures(scenarios, {BASELINE: [_result(10_000, 30)] * 3, "server_grant": rounds})
    assert "| 500 (0.10) | 8.5 |" in report.markdown(rows)
    doc = report.document({}, rows)["scenarios"]
    assert doc["server_grant"]["statements_per_request_median"] == 8.5
    assert doc["server_grant"]["rounds"][0]["statements"] == 8400
    assert doc[BASELINE]["statements_per_request_median"] == 0.0
    on_postgres = report.figures(
        scenarios, {BASELINE: [_result(10, None)], "server_grant": [_result(5, None)]}
    )
    assert "| 50000 (1.00) | — |" in report.markdown(on_postgres)
    assert (
        report.document({}, on_postgres)["scenarios"]["server_grant"]["statements_per_request_median"] is None
    )


@pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk not installed (apt-get install wrk)")
def test_a_short_sqlite_run_counts_the_statements_of_each_request() -> None:
    options = Options(rounds=1, slice_s=1, warmup_s=0, scenarios=["server_grant"])
    outcome = run(options, log=lambda line: None)
    assert outcome.errors == []
    figures = {f.scenario.name: f for f in outcome.rows}
    grant = figures["server_grant"].statements_per_request
    assert grant is not None and grant >= 5  # the route's own budget (tests/server/test_statement_budgets.py)
    # The bare handler runs none: only the idle server's background statements, over thousands of requests.
    baseline = figures[BASELINE].statements_per_request
    assert baseline is not None and f"{baseline:.1f}" == "0.0"


def test_baseline_always_runs_first() -> None:
    assert [s.name for s in select(["server_ping"])] == [BASELINE, "server_ping"]
    assert select([])[0].name == BASELINE
    assert len(select([])) == len(SCENARIOS)
    assert [s.name for s in select(["send_gift"], "postgres")] == [BASELINE, "send_gift"]


# --- the gifting scenarios' setups against a fake server ---------------------------------


NO_CLIENT = cast(httpx.Client, None)  # call_many does not use the httpx client


class FakeServer(BenchContext):
    """Answers the setup calls of the gifting scenarios as the server would, and records them."""

    def __init__(self, run_seconds: int = 3) -> None:
        keys = {"client_key": "c", "server_key": "s"}
        super().__init__("http://fake", NO_CLIENT, vars={"run_seconds": str(run_seconds), **keys})
        self.sent: list[SetupCall] = []
        self.asked: set[tuple[str, str]] = set()
        self.friends: set[frozenset[str]] = set()

    def call_many(self, calls: Iterable[SetupCall], *, concurrency: int | None = None) -> list[Any]:
        return [self._answer(c) for c in calls]

    def _answer(self, c: SetupCall) -> Any:
        self.sent.append(c)
        me = c.path.split("/")[4]
        if c.path.endswith("/register"):
            return {"data": {"playerSecret": f"secret-of-{me}"}}
        assert c.path.startswith("/server/") or c.headers["X-Player-Secret"] == f"secret-of-{me}"
        if c.path.endswith("/friends/requests"):
            other = c.json["externalPlayerId"]
            if (other, me) in self.asked:
                self.friends.add(frozenset((me, other)))
                return {"data": {"status": "accepted"}}
            self.asked.add((me, other))
            return {"data": {"status": "pending"}}
        if c.path.endswith("/friends/gifts"):
            assert frozenset((me, c.json["externalPlayerId"])) in self.friends
            return {"data": {"gift": {"giftId": f"gift-{len(self.sent)}"}}}
        assert c.path.endswith("/wallet/coins/credit") and c.key == "server_key"
        return {"data": {}}


def _gift_sends(server: FakeServer) -> list[tuple[str, str]]:
    return [
        (c.path.split("/")[4], c.json["externalPlayerId"]) for c in server.sent if c.path.endswith("/gifts")
    ]


@pytest.mark.parametrize("n", [2, 3, 5, 80])
def test_clique_pairs_come_back_only_after_a_full_turn(n: int) -> None:
    turn = [pair(k, n) for k in range(n * (n - 1))]
    assert len(set(turn)) == n * (n - 1) and all(s != r for s, r in turn)
    assert [pair(k + n * (n - 1), n) for k in range(n)] == turn[:n]


def test_gifting_scenarios_are_registered_with_the_issue_targets() -> None:
    for name in ("send_gift", "claim_gift"):
        scenario = SCENARIOS[name].for_store("sqlite")
        assert (scenario.target_ratio, scenario.max_p99_ms) == (0.20, 100)
        assert scenario.lua is not None and "request = function" in scenario.lua
        assert not re.search(r"function (setup|init|done)\b|^(setup|init|done) =", scenario.lua, re.M)


def _check_rendered(name: str, server: FakeServer) -> None:
    scenario = SCENARIOS[name]
    assert scenario.lua is not None
    used = set(re.findall(r"vars\.(\w+)", scenario.lua))
    assert used <= server.vars.keys(), used - server.vars.keys()
    server.render(scenario.path)
    for value in scenario.headers.values():
        server.render(value)
    if scenario.body is not None:
        orjson.loads(server.render(scenario.body).replace(UNIQUE, "u-1"))


def test_send_gift_setup_makes_a_clique_with_coins() -> None:
    server = FakeServer()
    SCENARIOS["send_gift"].setup(server)  # type: ignore[misc]
    assert len(server.friends) == GIFTERS * (GIFTERS - 1) // 2
    credits = [c for c in server.sent if c.path.endswith("/credit")]
    assert len(credits) == GIFTERS and len({c.json["idempotencyKey"] for c in credits}) == GIFTERS
    assert len(server.vars["gifters"].split(",")) == GIFTERS
    _check_rendered("send_gift", server)


def test_claim_gift_setup_sizes_the_pool_from_the_run_and_respects_the_cooldown() -> None:
    server = FakeServer(run_seconds=3)
    SCENARIOS["claim_gift"].setup(server)  # type: ignore[misc]
    sends = _gift_sends(server)
    assert len(sends) == claim_pool_size(3) + 1  # one more for the probe
    last_seen: dict[tuple[str, str], int] = {}
    for k, sent in enumerate(sends):  # a pair gifts again only a full turn of the clique later
        assert k - last_seen.get(sent, -CLAIMERS * CLAIMERS) >= CLAIMERS * (CLAIMERS - 1)
        last_seen[sent] = k
    claims = server.vars["claims"].split(",")
    assert len(claims) == claim_pool_size(3) and server.vars["probe_gift"] not in server.vars["claims"]
    claimers = [entry.split(":")[0] for entry in server.vars["claimers"].split(",")]
    for (_, to), claim in zip(sends[1:], claims, strict=True):
        assert claimers[int(claim.split(":")[1])] == to  # each gift is claimed by its recipient
    _check_rendered("claim_gift", server)


# --- BenchContext.call_many against a real (tiny) aiohttp server -----------------------------------


def test_call_many_answers_in_order_and_raises_the_first_failure() -> None:
    async def echo(request: web.Request) -> web.Response:
        n = int(request.match_info["n"])
        if n == 99:
            return web.json_response({"error": "unlucky"}, status=409)
        body = await request.json() if request.can_read_body else None
        auth = request.headers.get("Authorization")
        return web.json_response({"n": n, "body": body, "auth": auth}, status=201)

    app = web.Application()
    app.router.add_route("*", "/echo/{n}", echo)
    loop = asyncio.new_event_loop()
    runner = web.AppRunner(app)
    loop.run_until_complete(runner.setup())
    site = web.TCPSite(runner, "127.0.0.1", 0)
    loop.run_until_complete(site.start())
    port = runner.addresses[0][1]
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        ctx = BenchContext(f"http://127.0.0.1:{port}", NO_CLIENT, vars={"k": "secret"})
        answers = ctx.call_many(SetupCall("POST", f"/echo/{n}", key="k", json={"i": n}) for n in range(40))
        assert [a["n"] for a in answers] == list(range(40))
        assert answers[7] == {"n": 7, "body": {"i": 7}, "auth": "Bearer secret"}
        with pytest.raises(SetupError, match="/echo/99 -> 409"):
            ctx.call_many(SetupCall("GET", f"/echo/{n}") for n in range(90, 110))
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
