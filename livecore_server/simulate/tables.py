"""The report's tables (docs/simulation.md#csv-files): each part's (:attr:`ReportPart.tables`) and the
report's own (the segments, the refusals and the warnings; a comparison's differences and both runs'
warnings; a sweep's rows at each value), by name. The page draws them from here and
:func:`~livecore_server.simulate.render.write` writes each as ``<name>.csv``: one declaration each, so
the page and the files say the same."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from livecore_server.simulate.section import Column, ReportPart, Row, Table, Warning, table


def tables_of(report: Mapping[str, Any], parts: Sequence[ReportPart]) -> dict[str, Table]:
    """Every table of ``report``'s page, by name, in the page's order; a name two tables take is
    refused (``ValueError``): each is a file of its own."""
    if "sweep" in report:
        return {
            **({"limits": limits(report["limits"])} if "limits" in report else {}),
            "sweep": sweep(report["sweep"]),
            "warnings": warnings((None, w) for w in report["base"]["warnings"]),
        }
    if report.get("compare"):
        return {
            **({"limits": limits(report["limits"])} if "limits" in report else {}),
            "differences": differences(report["differences"], report["base"]["run"].get("seeds")),
            "warnings": warnings((name, w) for name in ("base", "other") for w in report[name]["warnings"]),
        }
    named: list[tuple[str, Table]] = [("segments", segments(report["segments"]))]
    if "spread" in report:
        named.append(("spread", spread(report["spread"], report["run"]["seeds"])))
    for part in parts:
        if part.tables is not None and part.key is not None and part.key in report:
            named += part.tables(report[part.key]).items()
    named += [
        ("refusals", refusals(report["refusals"])),
        ("warnings", warnings((None, w) for w in report["warnings"])),
    ]
    found: dict[str, Table] = {}
    for name, made in named:
        if name in found:
            raise ValueError(f"two tables of the report are named {name!r}")
        found[name] = made
    return found


def segments(section: Mapping[str, Any]) -> Table:
    """A row per figure (its section, its name), a column per segment: the players first."""
    names = list(section["players"])
    rows: list[list[Any]] = [["segments", "players", *section["players"].values()]]
    for key, figures in section["figures"].items():
        for figure, values in figures.items():
            rows.append([key, figure, *(values[n] for n in names)])
    return table([Column("Section", "text"), Column("Figure", "text"), *names], rows)


def refusals(counts: Mapping[str, int]) -> Table:
    """A row per action and error code the service refused (``<action>:<code>``)."""
    rows = []
    for name, times in counts.items():
        action, _, code = name.partition(":")
        rows.append([action, code, times])
    return table([Column("Action", "text"), Column("Code", "text"), "Times"], rows)


def warnings(found: Iterable[tuple[str | None, Warning]]) -> Table:
    """A row per warning; with the configuration each is of (a comparison's ``base``, ``other``) when
    they are named."""
    rows = [(of, w) for of, w in found]
    named = any(of is not None for of, _ in rows)
    columns = [Column("Area", "text"), Column("Subject", "text"), Column("Message", "text")]
    return table(
        [Column("Configuration", "text"), *columns] if named else columns,
        ([*([of] if named else []), w["area"], w["subject"], w["message"]] for of, w in rows),
    )


_FIGURE = (Column("Section", "text"), Column("Subject", "text"), Column("Metric", "text"))


def differences(rows: Sequence[Row], seeds: Sequence[int] | None) -> Table:
    """A row per headline figure of a comparison: base, other, the change and its share of the base (or
    why it has none); over several ``seeds``, the change of each seed, the level of the comparison's
    intervals, the interval of the share and of the change, the p-value and whether it is beyond the
    seeds' noise (its interval leaves out 0)."""
    per_seed = [f"Change, seed {seed}" for seed in seeds or ()]
    columns: list[Column | str] = [*_FIGURE, "Base", "Other", "Change", "Relative", Column("Note", "text")]
    columns += per_seed
    if seeds:
        columns += ["Level", "Interval low", "Interval high", "Change low", "Change high", "p"]
        columns.append(Column("Significant", "text"))
    return table(
        columns,
        (
            [
                r["section"],
                r["subject"],
                r["metric"],
                r["base"],
                r["other"],
                r["change"],
                r["relative"],
                r["note"],
                *(r["changes"] if seeds else ()),
                *(
                    [
                        r["level"],
                        *(r["interval"] or (None, None)),
                        *(r["change_interval"] or (None, None)),
                        r["p"],
                        r["significant"],
                    ]
                    if seeds
                    else ()
                ),
            ]
            for r in rows
        ),
    )


def limits(judged: Sequence[Mapping[str, Any]]) -> Table:
    """A row per limit ``--expect`` stated (of a sweep, per limit and value: the ``Value`` first): the
    limit as written, the row's relative change and its number in the other configuration, whether it
    was broken and why."""
    valued = any("value" in j for j in judged)
    return table(
        [
            *(["Value"] if valued else ()),
            Column("Limit", "text"),
            "Relative",
            "Other",
            Column("Broken", "text"),
            Column("Why", "text"),
        ],
        (
            [*([j["value"]] if valued else ()), j["limit"], j["relative"], j["other"], j["broken"], j["why"]]
            for j in judged
        ),
    )


def sweep(section: Mapping[str, Any]) -> Table:
    """A row per row of a sweep and value (docs/simulation.md#sweeps): the base's number and the value's
    (means over the seeds), the change, its share of the base (or why none), the level of the value's
    intervals, the interval of the share and of the change, the p-value and whether it is beyond the
    seeds' noise."""
    return table(
        [
            *_FIGURE,
            "Value",
            "Base",
            "Mean",
            "Change",
            "Relative",
            Column("Note", "text"),
            "Level",
            "Interval low",
            "Interval high",
            "Change low",
            "Change high",
            "p",
            Column("Significant", "text"),
        ],
        (
            [
                r["section"],
                r["subject"],
                r["metric"],
                a["value"],
                a["base"],
                a["other"],
                a["change"],
                a["relative"],
                a["note"],
                a["level"],
                *(a["interval"] or (None, None)),
                *(a["change_interval"] or (None, None)),
                a["p"],
                a["significant"],
            ]
            for r in section["rows"]
            for a in r["at"]
        ),
    )


def spread(rows: Sequence[Mapping[str, Any]], seeds: Sequence[int]) -> Table:
    """A row per headline figure over several ``seeds``: each seed's value, their mean, standard
    deviation, smallest and largest."""
    return table(
        [*_FIGURE, *(f"Seed {seed}" for seed in seeds), "Mean", "SD", "Min", "Max"],
        (
            [r["section"], r["subject"], r["metric"], *r["values"], r["mean"], r["sd"], r["min"], r["max"]]
            for r in rows
        ),
    )
