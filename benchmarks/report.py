"""Figures per scenario over the rounds, the Markdown table and the JSON document."""

from __future__ import annotations

import dataclasses
import json
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.scenarios import BASELINE, Scenario
from benchmarks.twins import TARGET as TWIN_TARGET
from benchmarks.wrk import WrkResult


def _median(values: Sequence[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return statistics.median(known) if known and len(known) == len(values) else None


@dataclass(frozen=True)
class Baseline:
    """The baseline's medians in this run: what every ratio divides by."""

    rps: float | None = None
    cpu_us_per_request: float | None = None


# The results of a scenario's twin (benchmarks/twins/) are kept under its name and this suffix.
TWIN_SUFFIX = "@twin"


@dataclass(frozen=True)
class ScenarioFigures:
    scenario: Scenario
    rounds: Sequence[WrkResult]
    baseline: Baseline
    twin: Sequence[WrkResult] = ()  # its twin's rounds, alternating with its own (twins.TWINNED)

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
    def ratio_to_twin(self) -> float | None:
        """Median req/s over its twin's median req/s: livecore against the same rows written by hand."""
        twin = statistics.median(r.rps for r in self.twin) if self.twin else None
        return self.rps / twin if twin else None

    @property
    def twin_errored(self) -> bool:
        return any(r.failed for r in self.twin)

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
    def round_trips_per_request(self) -> float | None:
        return _median([r.round_trips_per_request for r in self.rounds])

    @property
    def writes(self) -> int | None:
        """Write transactions committed over the rounds (None where not counted)."""
        counted = [r.writes for r in self.rounds]
        return None if not counted or None in counted else sum(w or 0 for w in counted)

    @property
    def retries(self) -> int | None:
        """Write transactions run again over the rounds (None where not counted)."""
        counted = [r.retries for r in self.rounds]
        return None if not counted or None in counted else sum(t or 0 for t in counted)

    @property
    def retries_percent(self) -> float | None:
        """Retries per 100 writes committed, over all the rounds together (a rare event: pooled, not the
        median of the rounds); None where not counted or nothing written."""
        writes, retries = self.writes, self.retries
        return None if writes is None or retries is None or not writes else 100 * retries / writes

    @property
    def retried(self) -> dict[str, int]:
        """Retries by cause over the rounds."""
        out: dict[str, int] = {}
        for r in self.rounds:
            for cause, n in r.retried.items():
                out[cause] = out.get(cause, 0) + n
        return dict(sorted(out.items()))

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
        if self.twin:
            twin = self.ratio_to_twin
            out["twin"] = twin is not None and twin >= TWIN_TARGET
        return out

    @property
    def verdict(self) -> str:
        if self.errored or self.twin_errored:
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
            "round_trips_per_request_median": _round(self.round_trips_per_request, 2),
            "writes": self.writes,
            "retries": self.retries,
            "retries_percent": _round(self.retries_percent, 3),
            "retried": self.retried,
            "checks": self.checks(),
            "verdict": self.verdict,
            "errored": self.errored,
            "rounds": per_round,
            **self.twin_json(),
        }

    @property
    def twin_figures(self) -> ScenarioFigures | None:
        """The twin's rounds as a row of their own (``<name>@twin``, no target), or None."""
        if not self.twin:
            return None
        named = dataclasses.replace(
            self.scenario, name=self.scenario.name + TWIN_SUFFIX, target_ratio=None, max_p99_ms=None
        )
        return ScenarioFigures(named, self.twin, self.baseline)

    def twin_json(self) -> dict[str, Any]:
        """The twin's figures (none for a scenario without a twin)."""
        t = self.twin_figures
        if t is None:
            return {}
        return {
            "ratio_to_twin": _round(self.ratio_to_twin, 4),
            "twin_target_ratio": TWIN_TARGET,
            "twin": {
                "rps_median": round(t.rps, 1),
                "p99_ms_worst": round(t.p99_ms, 3),
                "ratio": _round(t.ratio, 4),
                "cpu_us_per_request_median": _round(t.cpu_us_per_request, 1),
                "statements_per_request_median": _round(t.statements_per_request, 1),
                "db_cpu_us_per_request_median": _round(t.db_cpu_us_per_request, 1),
                "errored": t.errored,
                "rounds": [
                    {"round": i + 1, **r.to_json(), "failed": r.failed} for i, r in enumerate(t.rounds)
                ],
            },
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
    return [
        ScenarioFigures(s, results[s.name], baseline, results.get(s.name + TWIN_SUFFIX, ()))
        for s in scenarios
        if results.get(s.name)
    ]


def _target(s: Scenario, twinned: bool = False) -> str:
    parts = []
    if s.target_ratio is not None:
        parts.append(f"≥ {s.target_ratio:.2f}")
    if s.max_p99_ms is not None:
        parts.append(f"p99 ≤ {s.max_p99_ms:g} ms")
    if twinned:
        parts.append(f"≥ {TWIN_TARGET:.2f} of twin")
    return ", ".join(parts) or "—"


def _fmt(value: float | None, spec: str) -> str:
    return "—" if value is None else format(value, spec)


def markdown(rows: Sequence[ScenarioFigures]) -> str:
    """The table; with ``DB CPU µs/req`` and ``round trips/req`` columns when PostgreSQL's backend CPU
    was measured, and ``retries %`` when the server counted its write transactions (PostgreSQL)."""
    db = any(r.db_cpu_s is not None for f in rows for r in f.rounds)
    retries = any(r.writes is not None for f in rows for r in f.rounds)
    head = [
        "| scenario | req/s (median) | p50 ms (median) | p99 ms (worst round) | ratio | vs twin | target |"
        " result | server CPU µs/req (ratio) | statements/req |"
        f"{' round trips/req | DB CPU µs/req |' if db else ''}{' retries % |' if retries else ''}"
        " req/s per round |",
        f"|---|--:|--:|--:|--:|--:|---|---|--:|--:|{'--:|--:|' if db else ''}{'--:|' if retries else ''}---|",
    ]
    body = []
    for f in rows:
        per_round = " / ".join(f"{r.rps:.0f}" for r in f.rounds)
        cpu = f"{_fmt(f.cpu_us_per_request, '.0f')} ({_fmt(f.cpu_ratio, '.2f')})"
        statements = _fmt(f.statements_per_request, ".1f")
        db_cpu = (
            f" {_fmt(f.round_trips_per_request, '.2f')} | {_fmt(f.db_cpu_us_per_request, '.0f')} |"
            if db
            else ""
        )
        retried = f" {_fmt(f.retries_percent, '.2f')} |" if retries else ""
        body.append(
            f"| {f.scenario.name} | {f.rps:.0f} | {f.p50_ms:.2f} | {f.p99_ms:.2f} | {_fmt(f.ratio, '.2f')} "
            f"| {_fmt(f.ratio_to_twin, '.2f')} | {_target(f.scenario, bool(f.twin))} | {f.verdict} | {cpu} "
            f"| {statements} |{db_cpu}{retried} {per_round} |"
        )
    return "\n".join(head + body + twin_rows(rows, retries))


def twin_rows(rows: Sequence[ScenarioFigures], retries: bool = False) -> list[str]:
    """Under the table's rows, each twin's own (``<scenario>@twin``): its req/s, p50, p99, ratio to bare,
    CPU and statements a request, which the "vs twin" column sets livecore's against."""
    out = []
    for f in rows:
        t = f.twin_figures
        if t is None:
            continue
        db = (
            f" {_fmt(t.round_trips_per_request, '.2f')} | {_fmt(t.db_cpu_us_per_request, '.0f')} |"
            if any(r.db_cpu_s is not None for g in rows for r in g.rounds)
            else ""
        )
        per_round = " / ".join(f"{r.rps:.0f}" for r in t.rounds)
        out.append(
            f"| {t.scenario.name} | {t.rps:.0f} | {t.p50_ms:.2f} | {t.p99_ms:.2f} | {_fmt(t.ratio, '.2f')} "
            f"| 1.00 | — | {'ERROR' if t.errored else '—'} | {_fmt(t.cpu_us_per_request, '.0f')} "
            f"| {_fmt(t.statements_per_request, '.1f')} |{db}{' — |' if retries else ''} {per_round} |"
        )
    return out


LOW_CPU_SHARE = 0.7


def notes(rows: Sequence[ScenarioFigures]) -> list[str]:
    """Warnings under the table: slices where the server was not kept busy."""
    idle = [
        f"{f.scenario.name} r{i + 1} {r.server_cpu_share:.0%}"
        for f in rows
        for i, r in enumerate(f.rounds)
        if r.server_cpu_share is not None and r.server_cpu_share < LOW_CPU_SHARE
    ]
    out = []
    if idle:
        out.append(
            f"Note: the server used under {LOW_CPU_SHARE:.0%} of a core in {len(idle)} slice(s) "
            f"({', '.join(idle)}): it waited on other load on this machine, on I/O or on wrk; "
            "read those figures with care."
        )
    proxy = [
        r.proxy_cpu_s / (r.duration_us / 1e6)
        for f in rows
        for r in f.rounds
        if r.proxy_cpu_s and r.duration_us
    ]
    if proxy:
        out.append(
            f"Note: the latency proxy (--db-latency-ms, its own process, not in the server CPU column) used "
            f"{statistics.median(proxy):.0%} of a core in the median slice, {max(proxy):.0%} at most."
        )
    return out


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
