"""A comparison's rows per source and per segment (docs/simulation.md#comparing-two-manifests): what each
source minted and each sink sank of each resource, next to the totals, and each segment's figures; each
with its relative change and interval over the seeds, marked only where the change moved it."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from livecore_server.economy.report import compare as economy_rows
from livecore_server.simulate.compare import by_evidence, paired
from livecore_server.simulate.gather import segment_rows
from livecore_server.simulate.limits import parse
from livecore_server.simulate.section import row
from tests.server.test_simulate_seeds import DEMO, RICHER, report, run

Key = tuple[str, str, str]


def by_name(rows: list[dict[str, Any]]) -> dict[Key, dict[str, Any]]:
    return {(r["section"], r["subject"], r["metric"]): r for r in rows}


def new_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows per source or sink, and per segment."""
    return [r for r in rows if r["section"] == "segments" or " by " in r["metric"]]


def _resource(minted: dict[str, int], sunk: dict[str, int]) -> dict[str, Any]:
    held = {"p50": 0, "p90": 0}
    return {"minted": minted, "sunk": sunk, "days": [{"holdings": held}]}


LABELS = {"event_completion": "completions", "gift": "gifts", "studio_credit": "studio credits"}


def label(source: str) -> str:
    return LABELS.get(source, source)


def test_each_source_and_sink_has_a_row_named_as_the_report_calls_it_after_its_total() -> None:
    base = {"coins": _resource({"event_completion": 10, "gift": 4}, {"shop": 3})}
    other = {"coins": _resource({"event_completion": 30, "studio_credit": 2}, {"shop": 3})}
    rows = economy_rows(base, other, label)
    assert [(r["metric"], r["base"], r["other"], r["change"]) for r in rows] == [
        ("minted", 14, 32, 18),
        ("minted by completions", 10, 30, 20),
        # A source one configuration lacks minted nothing there.
        ("minted by gifts", 4, 0, -4),
        ("minted by studio credits", 0, 2, 2),
        ("sunk", 3, 3, 0),
        ("sunk by shop", 3, 3, 0),
        ("holdings p50 at the end", 0, 0, 0),
        ("holdings p90 at the end", 0, 0, 0),
    ]


def test_sources_the_report_calls_alike_are_one_row() -> None:
    base = {"coins": _resource({"gift": 4, "gifts": 1}, {})}
    rows = economy_rows(base, base, label)
    assert [(r["metric"], r["base"]) for r in rows if " by " in r["metric"]] == [("minted by gifts", 5)]


def test_a_resource_only_one_configuration_has_has_no_number_in_the_other() -> None:
    rows = economy_rows({}, {"gems": _resource({"gift": 4}, {})}, label)
    found = by_name(rows)["economy", "gems", "minted by gifts"]
    assert (found["base"], found["other"], found["change"]) == (None, 4, None)


def test_a_source_a_seed_never_saw_minted_nothing_on_that_seed() -> None:
    """A seed where no source of the kind minted (in either configuration) has no such row: the row
    counts 0 there on both sides, so its change is tested over every seed, not left without a p-value."""
    seen = [row("economy", "coins", "minted by gifts", 4, 4, absent=0)]
    never: list[dict[str, Any]] = []
    found = paired([seen, never, seen])
    assert [(r["changes"], r["p"], r["significant"]) for r in found] == [([0, 0, 0], 1.0, False)]
    assert found[0]["base"] == pytest.approx(8 / 3, abs=1e-4)
    # A row with no such number elsewhere (a total) is still unknown on a seed without it.
    plain = paired([[row("economy", "coins", "minted", 4, 4)], []])
    assert plain[0]["changes"] == [0, None] and plain[0]["significant"] is None


def test_a_row_missing_on_the_first_seed_stands_where_the_seed_having_it_puts_it() -> None:
    first = [row("economy", "coins", "minted", 1, 1), row("warnings", "", "warnings", 0, 0)]
    second = [row("economy", "coins", "minted", 1, 1)]
    second += [
        row("economy", "coins", "minted by gifts", 1, 1, absent=0),
        row("warnings", "", "warnings", 0, 0),
    ]
    found = paired([first, second])
    assert [r["metric"] for r in found] == ["minted", "minted by gifts", "warnings"]


def test_each_segment_shared_has_a_row_per_figure() -> None:
    base = {
        "players": {"engaged": 2, "casual": 3},
        "figures": {"economy": {"coins minted per player": {"engaged": 10, "casual": 1}}},
    }
    other = {
        "players": {"engaged": 2, "casual": 3, "whales": 1},
        "figures": {
            "economy": {"coins minted per player": {"engaged": 12, "casual": 1, "whales": 99}},
            "events": {"duel: completion rate": {"engaged": 0.5, "casual": None, "whales": 1}},
        },
    }
    rows = segment_rows(base, other)
    assert [(r["subject"], r["metric"], r["base"], r["other"], r["change"]) for r in rows] == [
        ("engaged", "economy: coins minted per player", 10, 12, 2),
        ("casual", "economy: coins minted per player", 1, 1, 0),
        # An event only the other played: no number in the base; none in either, no row.
        ("engaged", "events: duel: completion rate", None, 0.5, None),
    ]


def test_a_limit_addresses_a_source_and_a_segment() -> None:
    source = parse("economy.coins.minted by gifts < +10%")
    assert (source.section, source.subject, source.metric) == ("economy", "coins", "minted by gifts")
    segment = parse("segments.casual.events: time-trial: completion rate >= -5%")
    assert (segment.section, segment.subject, segment.metric) == (
        "segments",
        "casual",
        "events: time-trial: completion rate",
    )


@pytest.fixture(scope="module")
def richer(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo against the copy paying 50 times the time trial's completion coins, on 3 seeds, with
    limits on two source rows."""
    tmp = tmp_path_factory.mktemp("rows")
    limits = ["economy.coins.minted by gifts < +10%", "economy.coins.minted by completions > +1000%"]
    expect = [arg for limit in limits for arg in ("--expect", limit)]
    result = run(tmp, "rich", "--seed", "9", "--seeds", "3", *expect, other=RICHER)
    assert result.exit_code == 0, result.output
    return tmp


def test_a_row_named_after_a_source_moves_when_only_that_source_changes(richer: Path) -> None:
    found = report(richer, "rich")
    rows = by_name(found["differences"])
    completions = rows["economy", "coins", "minted by completions"]
    gifts = rows["economy", "coins", "minted by gifts"]
    assert all(c > 10_000 for c in completions["changes"])
    # Only the time trial's completions pay coins: fifty times as much is 49 times more, on every seed.
    assert completions["relative"] == 49 and completions["interval"] == [49, 49]
    assert gifts["changes"] == [0, 0, 0] and gifts["relative"] == 0 and gifts["interval"] == [0, 0]
    assert gifts["significant"] is False
    assert [(j["limit"], j["broken"]) for j in found["limits"]] == [
        ("economy.coins.minted by gifts < +10%", False),
        ("economy.coins.minted by completions > +1000%", False),
    ]
    # Each resource's sources and sinks are found among its rows, every one each configuration names (in
    # its first seed, which the report's `base` and `other` are; another seed may name more).
    base, other = found["base"]["economy"]["coins"], found["other"]["economy"]["coins"]
    named = {m for (s, subject, m) in rows if s == "economy" and subject == "coins" and " by " in m}
    assert len(named) >= len(base["minted"] | other["minted"]) + len(base["sunk"] | other["sunk"])


def test_the_segments_rows_say_who_the_change_reached(richer: Path) -> None:
    found = report(richer, "rich")
    rows = by_name(found["differences"])
    figures = found["base"]["segments"]["figures"]
    every = {
        ("segments", segment, f"{section}: {figure}", value is not None)
        for section, named in figures.items()
        for figure, values in named.items()
        for segment, value in values.items()
    }
    got = {name for name in rows if name[0] == "segments"}
    # The first seed's figures with a value, and perhaps some another seed has a value for.
    assert {name[:3] for name in every if name[3]} <= got <= {name[:3] for name in every}
    engaged = rows["segments", "engaged", "economy: coins minted per player"]
    assert all(c > 0 for c in engaged["changes"]) and engaged["relative"] > 1


def test_the_new_rows_are_written_with_their_relative_change_and_interval(richer: Path) -> None:
    rows = new_rows(report(richer, "rich")["differences"])
    written = by_name(
        [
            {**r, "section": r["Section"], "subject": r["Subject"], "metric": r["Metric"]}
            for r in csv.DictReader((richer / "rich" / "differences.csv").open(encoding="utf-8"))
        ]
    )
    assert rows
    for r in rows:
        cells = written[r["section"], r["subject"], r["metric"]]
        assert cells["Relative"] == ("" if r["relative"] is None else json.dumps(r["relative"]))
        low = "" if r["interval"] is None else json.dumps(r["interval"][0])
        assert cells["Interval low"] == low and cells["p"] == ("" if r["p"] is None else json.dumps(r["p"]))


def test_the_new_rows_that_did_not_move_are_folded_and_the_others_sorted(richer: Path) -> None:
    rows = report(richer, "rich")["differences"]
    moved, still = by_evidence(rows)
    # Those beyond the seeds' noise first, the strongest evidence first: the completions' coins, 50 times
    # as many on every seed, a change with no noise at all.
    marked = [r["significant"] for r in moved]
    assert marked == sorted(marked, reverse=True)
    assert (moved[0]["section"], moved[0]["subject"], moved[0]["metric"]) == (
        "economy",
        "coins",
        "minted by completions",
    )
    assert moved[0]["p"] == 0 and moved[0]["significant"] is True
    noted = [r["p"] for r in moved if r["significant"]]
    assert noted == sorted(noted)
    assert ("economy", "coins", "minted by gifts") in [
        (r["section"], r["subject"], r["metric"]) for r in still
    ]
    page = (richer / "rich" / "report.html").read_text()
    assert f"<summary>{len(still)} rows did not move</summary>" in page


def test_a_manifest_against_itself_marks_no_source_and_no_segment(tmp_path: Path) -> None:
    result = run(tmp_path, "aa", "--seed", "1", "--seeds", "3", other=DEMO)
    assert result.exit_code == 0, result.output
    rows = new_rows(report(tmp_path, "aa")["differences"])
    assert any(r["section"] == "segments" for r in rows) and any(" by " in r["metric"] for r in rows)
    # A figure neither side has in a seed (a segment that played no attempt there) changes by None.
    assert all(set(r["changes"]) <= {0, None} and r["significant"] is not True for r in rows)
    assert all(r["relative"] in (0, None) for r in rows)
