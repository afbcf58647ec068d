"""A designer's limits on a comparison (``simulate --compare OTHER --expect "economy.coins.minted < +10%"``,
docs/simulation.md#limits): each names a compared row, ``section.subject.metric`` (the subject may be
empty: ``gifts..sent``), and bounds either its relative change (a bound in percent: the row's
``relative``, the mean change as a share of the mean base) or its number in the other configuration (a
bound without one: the row's ``other``, the mean over the seeds; ``players..players who left <= 0``).

A limit is broken when the figure passes its bound, and also when the row has no such figure (a
relative limit on a row whose base is 0 on a seed): a limit that cannot be judged is not kept. A limit
naming no row of the comparison is not broken but wrong (:func:`unknown`): it names the rows nearest."""

from __future__ import annotations

import difflib
import operator
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from livecore_server.simulate.compare import NEW, SMALL
from livecore_server.simulate.section import number

_OPERATORS: dict[str, Callable[[float, float], bool]] = {
    "<=": operator.le,
    ">=": operator.ge,
    "<": operator.lt,
    ">": operator.gt,
}
#: Why a row has no relative change, by its ``note``.
_NO_SHARE = {NEW: "its base is 0 on every seed", SMALL: "its base is 0 on some seed"}
_LIMIT = re.compile(
    r"(?P<section>[^.\s]+)\.(?P<subject>[^.]*)\.(?P<metric>.+?)\s*(?P<op><=|>=|<|>)\s*"
    r"(?P<bound>[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)(?P<percent>%?)"
)


@attrs.frozen
class Limit:
    """``section.subject.metric OP BOUND`` as written (``text``): a relative limit (``BOUND%``, its bound
    a share, 0.1 for +10%) or an absolute one (``relative`` False, its bound a number of the row)."""

    text: str
    section: str
    subject: str
    metric: str
    op: str
    bound: float
    relative: bool = True

    @property
    def name(self) -> str:
        return f"{self.section}.{self.subject}.{self.metric}"

    def keeps(self, value: float) -> bool:
        return _OPERATORS[self.op](value, self.bound)


def parse(text: str) -> Limit:
    """The limit ``text`` says, or ValueError saying what a limit looks like."""
    found = _LIMIT.fullmatch(text.strip())
    if found is None:
        raise ValueError(
            f"{text!r} is not a limit: write section.subject.metric, one of < <= > >=, and a change in"
            ' percent or a number, as in "economy.coins.minted < +10%" or "players..players who left <= 0"'
        )
    relative = bool(found["percent"])
    return Limit(
        text=text.strip(),
        section=found["section"],
        subject=found["subject"],
        metric=found["metric"].strip(),
        op=found["op"],
        bound=float(found["bound"]) / 100 if relative else float(found["bound"]),
        relative=relative,
    )


def name_of(row: Mapping[str, Any]) -> str:
    return f"{row['section']}.{row['subject']}.{row['metric']}"


def nearest(name: str, names: Sequence[str]) -> str:
    """Why no row is ``name``, with the row ``names`` nearest it (difflib), if any is near."""
    near = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    return f"no row is named {name}" + (f": did you mean {' or '.join(near)}?" if near else "")


def unknown(limits: Sequence[Limit], rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """A line for each limit naming no row of the comparison, with the row names nearest it, as in
    ``economy.coin.minted < +10%: no row is named economy.coin.minted: did you mean
    economy.coins.minted?``."""
    names = [name_of(r) for r in rows]
    return [f"{limit.text}: {nearest(limit.name, names)}" for limit in limits if limit.name not in names]


def judged(limits: Sequence[Limit], rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each limit against the comparison's ``rows``: ``limit`` (as written), ``relative`` and ``other``
    (the row's, or None), ``broken``, and ``why`` a broken one is (None for a kept one)."""
    by_name = {name_of(r): r for r in rows}
    out = []
    for limit in limits:
        row = by_name.get(limit.name)
        relative = None if row is None else row.get("relative")
        other = None if row is None else row.get("other")
        value = relative if limit.relative else other
        if row is None:
            why: str | None = nearest(limit.name, list(by_name))
        elif value is None and limit.relative:
            why = (
                f"no relative change: {_NO_SHARE.get(row.get('note') or '', 'its base is missing on a seed')}"
            )
        elif value is None:
            why = "no number in the other configuration on some seed"
        elif not limit.keeps(value):
            why = f"changed by {_percent(value)}" if limit.relative else f"is {number(value)}"
        else:
            why = None
        out.append(
            {"limit": limit.text, "relative": relative, "other": other, "broken": why is not None, "why": why}
        )
    return out


def _percent(share: float) -> str:
    return ("+" if share > 0 else "") + f"{number(share * 100):g}%"
