"""Figures per scenario over the rounds, the Markdown table and the JSON document."""

from __future__ import annotations

import json
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.scenarios import BASELINE, Scenario
from benchmarks.wrk import WrkResult


def _median(values: Sequence[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return statistics.median(known) if known and len(known) == len(values) else None


@dataclass(frozen=True)
class Baseline:
    """The baseline's medians in this run: what every ratio divides by."""

    rps: float | None = None
    cpu_us_per_request: float | None = None


@dataclass(frozen=True)
class ScenarioFigures:
    scenario: Scenario
    rounds: Sequence[WrkResult]
    baseline: Baseline

    @property
    def errored(self) -> bool:
        return any(r.failed for r in self.rounds)

    @property
    def rps(self) -> float:
        return statistics.median(r.rps for r in self.rounds)

    @property
    def p50_ms(self) -> float:
        return statistics.median(r.latency_us["p50"] for r in self.rounds) / 1000

    @property
    def p99_ms(self) -> float:
        """The worst round's p99."""
        return max(r.latency_us["p99"] for r in self.rounds) / 1000

    @property
    def ratio(self) -> float | None:
        """Median req/s over the baseline's median req/s: the figure targets are set on."""
        return self.rps / self.baseline.rps if self.baseline.rps else None

    @property
    def cpu_us_per_request(self) -> float | None:
        return _median([r.cpu_us_per_request for r in self.rounds])

    @property
    def db_cpu_us_per_request(self) -> float | None:
        return _median([r.db_cpu_us_per_request for r in self.rounds])

    @property
    def statements_per_request(self) -> float | None:
        return _median([r.statements_per_request for r in self.rounds])

    @property
    def cpu_ratio(self) -> float | None:
        """Baseline CPU per request over this scenario's: the ratio again, measured by CPU time."""
        mine, base = self.cpu_us_per_request, self.baseline.cpu_us_per_request
        return base / mine if mine and base else None

    def checks(self) -> dict[str, bool]:
        out: dict[str, bool] = {}
        target, ratio = self.scenario.target_ratio, self.ratio
        if target is not None:
            out["ratio"] = ratio is not None and ratio >= target
        if self.scenario.max_p99_ms is not None:
            out["max_p99"] = self.p99_ms <= self.scenario.max_p99_ms
        return out

    @property
    def verdict(self) -> str:
        if self.errored:
            return "ERROR"
        checks = self.checks()
        if not checks:
            return "—"
        return "PASS" if all(checks.values()) else "FAIL"

    def to_json(self, baseline_rounds: Sequence[WrkResult] | None) -> dict[str, Any]:
        s = self.scenario
        per_round = []
        for i, r in enumerate(self.rounds):
            entry: dict[str, Any] = {"round": i + 1, **r.to_json(), "failed": r.failed}
            entry["p99_ms"] = r.latency_us["p99"] / 1000
            if baseline_rounds is not None and i < len(baseline_rounds) and baseline_rounds[i].rps:
                entry["ratio_same_round"] = round(r.rps / baseline_rounds[i].rps, 4)
            per_round.append(entry)
        return {
            "description": s.description,
            "method": s.method,
            "path": s.path,
            "target_ratio": s.target_ratio,
            "max_p99_ms": s.max_p99_ms,
            "rps_median": round(self.rps, 1),
            "p50_ms_median": round(self.p50_ms, 3),
            "p99_ms_worst": round(self.p99_ms, 3),
            # What scripts tracking a scenario's latency read: the worst round's p99, and for a scenario
            # reading a board, the board's size.
            "p99_ms": round(self.p99_ms, 3),
            "entries": s.entries,
            "ratio": _round(self.ratio, 4),
            "cpu_us_per_request_median": _round(self.cpu_us_per_request, 1),
            "cpu_ratio": _round(self.cpu_ratio, 4),
            "db_cpu_us_per_request_median": _round(self.db_cpu_us_per_request, 1),
            "statements_per_request_median": _round(self.statements_per_request, 1),
            "checks": self.checks(),
            "verdict": self.verdict,
            "errored": self.errored,
            "rounds": per_round,
        }


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def figures(
    scenarios: Sequence[Scenario], results: Mapping[str, Sequence[WrkResult]]
) -> list[ScenarioFigures]:
    base_rounds = results.get(BASELINE)
    baseline = Baseline()
    if base_rounds:
        baseline = Baseline(
            rps=statistics.median(r.rps for r in base_rounds),
            cpu_us_per_request=_median([r.cpu_us_per_request for r in base_rounds]),
        )
    return [ScenarioFigures(s, results[s.name], baseline) for s in scenarios if results.get(s.name)]


def _target(s: Scenario) -> str:
    parts = []
    if s.target_ratio is not None:
        parts.append(f"≥ {s.target_ratio:.2f}")
    if s.max_p99_ms is not None:
        parts.append(f"p99 ≤ {s.max_p99_ms:g} ms")
    return ", ".join(parts) or "—"


def _fmt(value: float | None, spec: str) -> str:
    return "—" if value is None else format(value, spec)


def markdown(rows: Sequence[ScenarioFigures]) -> str:
    """The table; with a ``DB CPU µs/req`` column when PostgreSQL's backend CPU was measured.
    ``statements/req`` is counted on SQLite only: ``—`` on PostgreSQL."""
    db = any(r.db_cpu_s is not None for f in rows for r in f.rounds)
    head = [
        "| scenario | req/s (median) | p50 ms (median) | p99 ms (worst round) | ratio | target | result "
        f"| server CPU µs/req (ratio) | statements/req |{' DB CPU µs/req |' if db else ''} req/s per round |",
        f"|---|--:|--:|--:|--:|---|---|--:|--:|{'--:|' if db else ''}---|",
    ]
    body = []
    for f in rows:
        per_round = " / ".join(f"{r.rps:.0f}" for r in f.rounds)
        cpu = f"{_fmt(f.cpu_us_per_request, '.0f')} ({_fmt(f.cpu_ratio, '.2f')})"
        statements = _fmt(f.statements_per_request, ".1f")
        db_cpu = f" {_fmt(f.db_cpu_us_per_request, '.0f')} |" if db else ""
        body.append(
            f"| {f.scenario.name} | {f.rps:.0f} | {f.p50_ms:.2f} | {f.p99_ms:.2f} | {_fmt(f.ratio, '.2f')} "
            f"| {_target(f.scenario)} | {f.verdict} | {cpu} | {statements} |{db_cpu} {per_round} |"
        )
    return "\n".join(head + body)


LOW_CPU_SHARE = 0.7


def notes(rows: Sequence[ScenarioFigures]) -> list[str]:
    """Warnings under the table: slices where the server was not kept busy."""
    idle = [
        f"{f.scenario.name} r{i + 1} {r.server_cpu_share:.0%}"
        for f in rows
        for i, r in enumerate(f.rounds)
        if r.server_cpu_share is not None and r.server_cpu_share < LOW_CPU_SHARE
    ]
    if not idle:
        return []
    return [
        f"Note: the server used under {LOW_CPU_SHARE:.0%} of a core in {len(idle)} slice(s) "
        f"({', '.join(idle)}): it waited on other load on this machine, on I/O or on wrk; "
        "read those figures with care."
    ]


def document(
    meta: Mapping[str, Any], rows: Sequence[ScenarioFigures], errors: Sequence[str] = ()
) -> dict[str, Any]:
    by_name = {f.scenario.name: f for f in rows}
    base = by_name.get(BASELINE)
    return {
        "meta": dict(meta),
        "baseline_rps_median": None if base is None else round(base.rps, 1),
        "scenarios": {f.scenario.name: f.to_json(base.rounds if base else None) for f in rows},
        "errors": list(errors),
    }


def write_json(path: Path, doc: Mapping[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
