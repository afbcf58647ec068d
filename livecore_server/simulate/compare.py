"""A report's headline numbers, each area's part giving its rows: two reports side by side
(``livecore-server simulate --compare``: the same seeded population played on two manifests, the
headline numbers of each and how they differ), and with several seeds (``--seeds``) each number's spread
over the seeds, or its change over the seeds paired and whether it stands out of their noise
(:mod:`livecore_server.simulate.noise`)."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any, TypeVar

from livecore_server.simulate import noise
from livecore_server.simulate.gather import segment_rows
from livecore_server.simulate.section import ReportPart, Row, labeller, number, row

T = TypeVar("T")

#: A headline number's name: its section, subject and metric.
Key = tuple[str, str, str]


def differences(base: dict[str, Any], other: dict[str, Any], parts: Sequence[ReportPart]) -> list[Row]:
    """The headline numbers of both reports, row by row (``base``, ``other``, ``change`` = other - base;
    None where one configuration has no such thing): each part's, in the parts' order, then each
    segment's figures (:func:`~livecore_server.simulate.gather.segment_rows`), then the warnings."""
    label = labeller(parts)
    rows: list[Row] = []
    for part in parts:
        if part.key is not None and (part.key in base or part.key in other):
            a, b = base.get(part.key), other.get(part.key)
            rows += (
                part.compare(a, b) if part.labelled_compare is None else part.labelled_compare(a, b, label)
            )
    rows += segment_rows(base.get("segments"), other.get("segments"))
    rows.append(row("warnings", "", "warnings", len(base["warnings"]), len(other["warnings"])))
    return rows


def _by_key(seeds: Sequence[Sequence[tuple[Key, T]]]) -> dict[Key, list[T | None]]:
    """Each seed's items by their name, None where a seed has no such item: in the first seed's order,
    an item it lacks after the item another seed gives before it."""
    found: dict[Key, list[T | None]] = {}
    order: list[Key] = []
    for seed, items in enumerate(seeds):
        before: Key | None = None
        for key, item in items:
            if key not in found:
                found[key] = [None] * len(seeds)
                if before is None:
                    order.insert(0, key)
                elif before == order[-1]:
                    order.append(key)
                else:
                    order.insert(order.index(before) + 1, key)
            found[key][seed] = item
            before = key
    return {key: found[key] for key in order}


def _rows_by_key(seeds: Sequence[Sequence[Row]]) -> dict[Key, list[Row | None]]:
    """Each seed's rows by their name (:func:`_by_key`), a seed without a row the others have given
    the row's ``absent`` number in both configurations where it says one (:func:`~.section.row`)."""
    named = _by_key([[((r["section"], r["subject"], r["metric"]), r) for r in seed] for seed in seeds])
    for (section, subject, metric), found in named.items():
        absent = next((r.get("absent") for r in found if r is not None), None)
        if absent is not None:
            named[section, subject, metric] = [
                row(section, subject, metric, absent, absent) if r is None else r for r in found
            ]
    return named


def _summary(values: Sequence[Any]) -> dict[str, Any]:
    """:func:`noise.summary` as a report writes it: the mean and sd to 4 decimals (:func:`number`), but
    one value as it was."""
    found = noise.summary(values)
    several = sum(v is not None for v in values) > 1
    return {
        **found,
        "mean": number(found["mean"]) if several and found["mean"] is not None else found["mean"],
        "sd": None if found["sd"] is None else number(found["sd"]),
    }


def spread(reports: Sequence[dict[str, Any]], parts: Sequence[ReportPart]) -> list[dict[str, Any]]:
    """Each headline number (the rows of each report compared with itself, so a spread and a comparison
    name the same numbers) over the seeds' ``reports`` (in the seeds' order): its
    ``values`` (None where a seed's report has no such number; a source that minted nothing on a seed,
    0 there: :func:`_rows_by_key`), their ``mean``, ``sd`` (the sample's; None
    with one value), ``min`` and ``max``."""
    named = _rows_by_key([differences(r, r, parts) for r in reports])
    out = []
    for (s, subject, m), rows in named.items():
        values = [None if r is None else r["base"] for r in rows]
        out.append({"section": s, "subject": subject, "metric": m, "values": values, **_summary(values)})
    return out


def relative(base: Any, change: Any) -> float | None:
    """``change`` as a share of ``base`` (0.1 for +10%): None where either is missing, or the base is 0,
    where no share says how big a change is."""
    if base is None or change is None or base == 0:
        return None
    return float(change) / float(base)


def _mean_or_none(values: Sequence[float | None]) -> float | None:
    """The mean of the seeds' shares, to 4 decimals: None unless every seed has one."""
    if not values or any(v is None for v in values):
        return None
    return number(statistics.fmean(v for v in values if v is not None))


def paired(rows: Sequence[Sequence[Row]]) -> list[Row]:
    """The rows of several seeds' comparisons (:func:`differences`, one list per seed, in the seeds'
    order) as one: ``base``, ``other`` and ``change`` the means over the seeds (``change`` that of the
    per-seed changes), ``changes`` per seed, ``p`` (the paired t-test's p-value, :func:`noise.p_value`)
    and ``significant`` (:func:`noise.marked`, the rows' p-values taken together); both None with one
    seed, or where a seed lacks the number. How big the change is: ``relative``, the mean over the seeds
    of each seed's change as a share of its base (:func:`relative`, 0.1 for +10%), and ``ci95``, the 95%
    confidence interval of that mean (:func:`noise.interval`, ``[low, high]``; None with one seed); both
    None where a seed's base is 0 or missing."""
    named = _rows_by_key(rows)
    out: list[Row] = []
    p_values: list[float | None] = []
    for (section, subject, metric), seeds in named.items():
        changes = [None if r is None else r["change"] for r in seeds]
        p = noise.p_value(changes)
        p_values.append(p)
        relatives = [None if r is None else relative(r["base"], r["change"]) for r in seeds]
        ci95 = noise.interval(relatives)
        out.append(
            {
                "section": section,
                "subject": subject,
                "metric": metric,
                "base": _summary([None if r is None else r["base"] for r in seeds])["mean"],
                "other": _summary([None if r is None else r["other"] for r in seeds])["mean"],
                "change": _summary(changes)["mean"],
                "changes": changes,
                "p": None if p is None else float(f"{p:.4g}"),
                "relative": _mean_or_none(relatives),
                "ci95": None if ci95 is None else [number(ci95[0]), number(ci95[1])],
            }
        )
    for found, significant in zip(out, noise.marked(p_values), strict=True):
        found["significant"] = significant
    return out


def by_size(rows: Sequence[Row]) -> tuple[list[Row], list[Row]]:
    """A comparison's rows as its page lists them: those that moved, those beyond the seeds' noise first
    (a designer reads what the change did before what chance did), each the largest relative change
    first (then those without one, the largest change first), and apart those that did not move on any
    seed."""
    moved = [r for r in rows if any(c not in (0, None) for c in r["changes"])]
    still = [r for r in rows if not any(c not in (0, None) for c in r["changes"])]
    moved.sort(
        key=lambda r: (
            r["significant"] is False,
            r["relative"] is None,
            -abs(r["relative"] or 0),
            -abs(r["change"] or 0),
        )
    )
    return moved, still


def comparison(
    bases: Sequence[dict[str, Any]], others: Sequence[dict[str, Any]], parts: Sequence[ReportPart]
) -> dict[str, Any]:
    """The comparison report of one or several seeds (``bases[i]`` and ``others[i]`` played on the same
    seed): the first seed's two reports whole, and the differences over the seeds (:func:`paired`)."""
    rows = [differences(b, o, parts) for b, o in zip(bases, others, strict=True)]
    return {"compare": True, "base": bases[0], "other": others[0], "differences": paired(rows)}
