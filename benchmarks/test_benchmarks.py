"""Checks of the harness's pure parts (no server, no wrk): ``pytest benchmarks``."""

from __future__ import annotations

from benchmarks import wrk
from benchmarks.harness import select
from benchmarks.scenarios import BASELINE, SCENARIOS, UNIQUE


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


def test_baseline_always_runs_first() -> None:
    assert [s.name for s in select(["server_ping"])] == [BASELINE, "server_ping"]
    assert select([])[0].name == BASELINE
    assert len(select([])) == len(SCENARIOS)
