"""A report's headline numbers, each area's part giving its rows: two reports side by side
(``livecore-server simulate --compare``: the same seeded population played on two manifests, the
headline numbers of each and how they differ), and with several seeds (``--seeds``) each number's spread
over the seeds, or its change over the seeds paired and whether it stands out of their noise
(:mod:`livecore_server.simulate.noise`)."""

from __future__ import annotations

import math
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
    """``change`` as a share of ``base`` (0.1 for +10%): None where either is missing, or the base is not
    above 0, where no share says how big a change is."""
    if base is None or change is None or base <= 0:
        return None
    return float(change) / float(base)


def _shown(value: float) -> float:
    """A share or a bound as a comparison writes it (:func:`number`), but one between -1 and 1 to 4
    significant digits: none but 0 is written 0, so the sign of every bound is the one the mark was
    decided by."""
    return number(value) if abs(value) >= 1 else float(f"{value:.4g}")


#: The largest ratio an interval's end is told as: beyond a million times the base, an end says nothing a
#: designer can use (a few seeds' intervals reach there: with two, Student's t of one degree of freedom at
#: the comparison's level is in the thousands), and beyond about e^709 a float cannot hold it.
MOST_RATIO = 1e6


def _share(log_ratio: float) -> float:
    """An interval's end on the ratio's scale as a share: infinite past :data:`MOST_RATIO`, no bound."""
    return math.inf if log_ratio > math.log(MOST_RATIO) else math.expm1(log_ratio)


def _end(value: float) -> float | None:
    """An interval's end as a comparison writes it (:func:`_shown`): null where it has no bound."""
    return None if math.isinf(value) else _shown(value)


#: What a row says in place of a relative change where its base cannot carry one (:func:`_note`).
NEW, SMALL = "new", "base too small"


def _note(bases: Sequence[float], others: Sequence[float]) -> str | None:
    """Why a row whose numbers every seed has gives no relative change: ``new`` where its base is 0 on
    every seed and the other configuration has some, ``base too small`` where its base is 0 (or below)
    on some seed but not all (a figure that did not occur at all on a seed is too rare for a share of
    it to mean anything). None where the base is above 0 on every seed, or nothing moved from 0."""
    if all(b > 0 for b in bases):
        return None
    if all(b == 0 for b in bases):
        return NEW if any(o != 0 for o in others) else None
    return SMALL


def _bounded(found: tuple[float, float], base: float, non_negative: bool) -> tuple[float, float]:
    """The interval of a row's mean change, its low end raised to -``base`` for a row no seed gives a
    negative number in either configuration: such a figure cannot fall by more than all of it (-100%).
    The raise never moves 0 in or out: it acts only on a low end below -``base`` <= 0."""
    return (max(found[0], -base), found[1]) if non_negative else found


def _estimate(
    whole: tuple[list[float], list[float]] | None, note: str | None, changes: Sequence[float | None]
) -> tuple[noise.Estimate | None, bool]:
    """The test of a row (:mod:`~livecore_server.simulate.noise`), and whether it is on the ratio's
    scale: the log of the ratio of the means where the row is never below 0 and has a share (no
    ``note``, the other's mean above 0), else the change itself."""
    if whole is not None and note is None:
        ratio = noise.log_ratio(*whole)
        if ratio is not None:
            return ratio, True
    return noise.difference(changes), False


def paired(rows: Sequence[Sequence[Row]]) -> list[Row]:
    """The rows of several seeds' comparisons (:func:`differences`, one list per seed, in the seeds'
    order) as one (docs/simulation.md#several-seeds): ``base``, ``other`` and ``change`` the means over
    the seeds (``change`` that of the per-seed changes), ``changes`` per seed, and how big the change is:
    ``relative``, the mean change as a share of the mean base (0.1 for +10%), where the base is above 0
    on every seed; else ``note`` says why not (:func:`_note`).

    One rule marks a row and draws its interval. Each row is tested (:func:`_estimate`; ``p`` its
    p-value), the rows' p-values taken together set the comparison's ``level`` (:func:`noise.level`),
    ``interval`` is the relative change's interval at that level (by the same t) and ``change_interval``
    the change's, and ``significant`` says they leave out 0. On the ratio's scale the interval is that of
    the log of the ratio turned back into shares; on the change's it is the change's, as shares of the
    mean base (none without a share), and stops at -100% for a row never below 0 (:func:`_bounded`).
    ``p``, ``level``, the intervals and ``significant`` are None with one seed, or where a seed lacks the
    number."""
    named = _rows_by_key(rows)
    tested = []
    for key, seeds in named.items():
        changes = [None if r is None else r["change"] for r in seeds]
        bases = [None if r is None else r["base"] for r in seeds]
        others = [None if r is None else r["other"] for r in seeds]
        whole = _whole(bases, others)
        note = None if whole is None else _note(*whole)
        tested.append((key, changes, bases, others, whole, note, *_estimate(whole, note, changes)))
    level = noise.level([None if t is None else t.p for *_, t, _ in tested])
    out: list[Row] = []
    for (section, subject, metric), changes, bases, others, whole, note, test, on_ratio in tested:
        base = None if whole is None else statistics.fmean(whole[0])
        share = None if note is not None else relative(base, _summary(changes)["mean"])
        shares = within = None
        if test is not None and level is not None and whole is not None and base is not None:
            low, high = test.interval(level)
            if on_ratio:
                shares = _share(low), _share(high)
                within = shares[0] * base, shares[1] * base
            else:
                within = _bounded((low, high), base, min(*whole[0], *whole[1]) >= 0)
                shares = None if share is None else (within[0] / base, within[1] / base)
        out.append(
            {
                "section": section,
                "subject": subject,
                "metric": metric,
                "base": _summary(bases)["mean"],
                "other": _summary(others)["mean"],
                "change": _summary(changes)["mean"],
                "changes": changes,
                "p": None if test is None else float(f"{test.p:.4g}"),
                "level": None if within is None or level is None else _shown(level),
                "change_interval": None if within is None else [_end(v) for v in within],
                "relative": None if share is None else _shown(share),
                "interval": None if shares is None else [_end(v) for v in shares],
                "note": note,
                "significant": None if within is None else within[0] > 0 or within[1] < 0,
            }
        )
    return out


def _whole(
    bases: Sequence[float | None], others: Sequence[float | None]
) -> tuple[list[float], list[float]] | None:
    """A row's base and other numbers on every seed, or None where a seed lacks one."""
    if any(v is None for v in (*bases, *others)):
        return None
    return [float(b) for b in bases if b is not None], [float(o) for o in others if o is not None]


def by_evidence(rows: Sequence[Row]) -> tuple[list[Row], list[Row]]:
    """A comparison's rows as its page lists them: those that moved, those beyond the seeds' noise first
    (a designer reads what the change did before what chance did), each the strongest evidence first
    (the smallest p-value: the most standard errors from no change, however small the change), then,
    where it ties or there is none (one seed), the largest relative change first, and those without one
    the largest change first; and apart those that did not move on any seed."""
    moved = [r for r in rows if any(c not in (0, None) for c in r["changes"])]
    still = [r for r in rows if not any(c not in (0, None) for c in r["changes"])]
    moved.sort(
        key=lambda r: (
            r["significant"] is False,
            math.inf if r["p"] is None else r["p"],
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
