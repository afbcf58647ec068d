"""A designer's limits on a comparison (``simulate --compare OTHER --expect "economy.coins.minted < +10%"``,
docs/simulation.md#limits): each names a compared row, ``section.subject.metric`` (the subject may be
empty: ``gifts..sent``), and bounds its relative change (the row's ``relative``, the seeds' mean share of
the base). A limit is broken when the change passes its bound, and also when the comparison has no such row
or no relative change for it (a base of 0 on some seed): a limit that cannot be judged is not kept."""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from livecore_server.simulate.section import number

_OPERATORS: dict[str, Callable[[float, float], bool]] = {
    "<=": operator.le,
    ">=": operator.ge,
    "<": operator.lt,
    ">": operator.gt,
}
_LIMIT = re.compile(
    r"(?P<section>[^.\s]+)\.(?P<subject>[^.]*)\.(?P<metric>.+?)\s*(?P<op><=|>=|<|>)\s*"
    r"(?P<bound>[+-]?\d+(?:\.\d+)?)%"
)


@attrs.frozen
class Limit:
    """``section.subject.metric OP BOUND%`` as written (``text``), its bound a share (0.1 for +10%)."""

    text: str
    section: str
    subject: str
    metric: str
    op: str
    bound: float

    def keeps(self, relative: float) -> bool:
        return _OPERATORS[self.op](relative, self.bound)


def parse(text: str) -> Limit:
    """The limit ``text`` says, or ValueError saying what a limit looks like."""
    found = _LIMIT.fullmatch(text.strip())
    if found is None:
        raise ValueError(
            f"{text!r} is not a limit: write section.subject.metric, one of < <= > >=, and a change in"
            ' percent, as in "economy.coins.minted < +10%"'
        )
    return Limit(
        text=text.strip(),
        section=found["section"],
        subject=found["subject"],
        metric=found["metric"].strip(),
        op=found["op"],
        bound=float(found["bound"]) / 100,
    )


def judged(limits: Sequence[Limit], rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each limit against the comparison's ``rows``: ``limit`` (as written), ``relative`` (the row's, or
    None), ``broken``, and ``why`` a broken one is (None for a kept one)."""
    by_name = {(r["section"], r["subject"], r["metric"]): r for r in rows}
    out = []
    for limit in limits:
        row = by_name.get((limit.section, limit.subject, limit.metric))
        relative = None if row is None else row.get("relative")
        if row is None:
            why: str | None = "the comparison has no such row"
        elif relative is None:
            why = "no relative change: its base is 0 or missing on a seed"
        elif not limit.keeps(relative):
            why = f"changed by {_percent(relative)}"
        else:
            why = None
        out.append({"limit": limit.text, "relative": relative, "broken": why is not None, "why": why})
    return out


def _percent(share: float) -> str:
    return ("+" if share > 0 else "") + f"{number(share * 100):g}%"
