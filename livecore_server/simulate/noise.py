"""Telling a change from noise (``livecore-server simulate --seeds``, docs/simulation.md#several-seeds).

One seed is one draw of the players: two manifests played on it meet the same players at first, but as
soon as one thing differs (a reward, a threshold) the players' paths part, and numbers the change cannot
touch move too. So a comparison plays several seeds and asks, of each headline number, whether its change
stands out of the seed-to-seed noise.

Each number is tested by Student's paired t-test, two-sided: each seed plays both manifests, so the change
of a seed (other minus base) already removes what that seed's players bring, and the changes are what is
tested (is their mean nonzero?). Its p-value is exact for the whole degrees of freedom a count of seeds
gives (no scipy), and it holds for few seeds, where a normal approximation would call noise a change.
A number that is never below 0 and has a share (its base above 0 on every seed, its other above 0 on
average) is tested on the scale its changes act on, that of multiples (:func:`log_ratio`): the log of
the ratio of its means, whose interval, turned back into a share, never falls below -100%; any other on
its change (:func:`difference`).

A comparison asks this of every headline number at once, some fifty: at 95% each, two or three numbers
the change cannot touch would be marked by chance in every comparison. So the numbers marked are chosen
together, by the Benjamini-Hochberg procedure: of the numbers a comparison marks, no more than
:data:`FALSE_DISCOVERY_RATE` are noise on average, and where nothing changed, nothing is marked but
once in twenty comparisons. The intervals a comparison shows are at the level that choice holds each
number to (:func:`level`, Benjamini and Yekutieli's false coverage rate intervals): a number is marked
exactly when its interval leaves out 0, so the mark and the interval never disagree.

Nothing here knows a report: these are numbers in, numbers out, None where a seed has no such number.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

import attrs

#: The share of a comparison's marked numbers that may be noise, on average.
FALSE_DISCOVERY_RATE = 0.05


def t_p_value(t: float, df: int) -> float:
    """The chance that Student's t with ``df`` (at least 1) degrees of freedom lies as far from 0 as
    ``t`` or farther, either way: 1 - A(t|df), A by the finite series of Abramowitz and Stegun 26.7.3
    (odd ``df``) and 26.7.4 (even), in powers of cos(theta), theta = atan(|t| / sqrt(df))."""
    if df < 1:
        raise ValueError("a t-test needs at least one degree of freedom (two values)")
    theta = math.atan(abs(t) / math.sqrt(df))
    cos2 = math.cos(theta) ** 2
    term = 1.0 if df % 2 == 0 else math.cos(theta)
    series = term
    for k in range(2 + df % 2, df - 1, 2):
        term *= cos2 * (k - 1) / k
        series += term
    if df % 2 == 0:
        within = math.sin(theta) * series
    elif df == 1:
        within = 2 * theta / math.pi
    else:
        within = 2 / math.pi * (theta + math.sin(theta) * series)
    return min(1.0, max(0.0, 1.0 - within))


@attrs.frozen
class Estimate:
    """A number's change over ``n`` seeds on the scale it is tested on: its ``centre`` and the standard
    error of it, Student's t on n - 1 degrees of freedom."""

    centre: float
    se: float
    n: int

    @property
    def t(self) -> float:
        """How many standard errors the centre lies from 0: 0 for a centre of 0, infinite for a nonzero
        one with no noise at all (the same change on every seed)."""
        if self.centre == 0:
            return 0.0
        return math.copysign(math.inf, self.centre) if self.se == 0 else self.centre / self.se

    @property
    def p(self) -> float:
        """The two-sided p-value: 1 for a centre of 0, 0 for a nonzero one with no noise."""
        return 0.0 if math.isinf(self.t) else t_p_value(self.t, self.n - 1)

    def interval(self, level: float = 0.95) -> tuple[float, float]:
        """The ``level`` confidence interval of the centre: plus or minus ``t_critical * se``. It leaves
        out 0 exactly when :attr:`p` is below 1 - ``level``."""
        half = 0.0 if self.se == 0 else t_critical(self.n - 1, level) * self.se
        return self.centre - half, self.centre + half


def difference(changes: Sequence[float | None]) -> Estimate | None:
    """The mean of the per-seed ``changes`` (other minus base, one per seed) and its standard error,
    sd / sqrt(n): the paired t-test. None with one seed, where nothing estimates the noise, or where a
    seed has no such number (None among the changes)."""
    if len(changes) < 2 or any(c is None for c in changes):
        return None
    found = [float(c) for c in changes if c is not None]
    return Estimate(statistics.fmean(found), statistics.stdev(found) / math.sqrt(len(found)), len(found))


def log_ratio(bases: Sequence[float], others: Sequence[float]) -> Estimate | None:
    """log(mean other / mean base) over the seeds and its standard error by the delta method, sd(z) /
    sqrt(n) with z = other / mean other - base / mean base per seed (paired: what a seed's players bring
    to both cancels). A change by the same multiple on every seed has no noise; a mean change of 0 is a
    centre of 0. None with one seed, or unless both means are above 0 and no number is below 0."""
    if len(bases) < 2 or min(*bases, *others) < 0:
        return None
    base, other = statistics.fmean(bases), statistics.fmean(others)
    if base <= 0 or other <= 0:
        return None
    z = [o / other - b / base for b, o in zip(bases, others, strict=True)]
    return Estimate(math.log(other / base), statistics.stdev(z) / math.sqrt(len(z)), len(z))


def p_value(changes: Sequence[float | None]) -> float | None:
    """The paired two-sided t-test's p-value of the per-seed ``changes`` of a number (:func:`difference`):

    - None (nothing to say) with one seed, where nothing estimates the noise, or where a seed has no such
      number (None among the changes);
    - 1 when the mean change is 0: a manifest compared with itself changes nothing on any seed;
    - 0 when every seed changed it by the same nonzero amount (sd 0: no noise at all)."""
    found = difference(changes)
    return None if found is None else found.p


def t_critical(df: int, level: float = 0.95) -> float:
    """The ``t`` within which Student's t with ``df`` degrees of freedom lies with chance ``level``, either
    way (2.776 for 4 and 0.95): :func:`t_p_value` solved for ``t`` by bisection, as it falls with ``t``."""
    beyond = 1 - level
    low, high = 0.0, 1.0
    while t_p_value(high, df) > beyond:
        high *= 2
    for _ in range(60):
        middle = (low + high) / 2
        low, high = (middle, high) if t_p_value(middle, df) > beyond else (low, middle)
    return high


def interval(values: Sequence[float | None], level: float = 0.95) -> tuple[float, float] | None:
    """The ``level`` confidence interval of the mean of ``values`` (one per seed), by Student's t
    (:func:`difference`): None with one value, or where a seed has no such number."""
    found = difference(values)
    return None if found is None else found.interval(level)


def _kept(p_values: Sequence[float | None], rate: float) -> tuple[int, int]:
    """How many of the ``p_values`` Benjamini-Hochberg marks (k), and of how many present (m): with the
    m p-values in rising order, k is the largest rank whose p-value is at most k / m * ``rate``, and the
    k marked are those whose p-value is at most k / m * ``rate`` (no other is: its rank would be larger)."""
    present = sorted(p for p in p_values if p is not None)
    count = len(present)
    kept = max((rank for rank, p in enumerate(present, start=1) if p <= rank / count * rate), default=0)
    return kept, count


def level(p_values: Sequence[float | None], rate: float = FALSE_DISCOVERY_RATE) -> float | None:
    """The confidence level of a comparison's intervals, 1 - max(k, 1) / m * ``rate`` (k of the m
    ``p_values`` marked, by :func:`_kept`): the bar a marked p-value passes, so a number's interval at this
    level, by the same t, leaves out 0 exactly when the number is marked. With none marked, the level
    is 1 - ``rate`` / m, which no p-value passed. None without a p-value."""
    kept, count = _kept(p_values, rate)
    return None if count == 0 else 1 - max(kept, 1) / count * rate


def summary(values: Sequence[float | None]) -> dict[str, float | None]:
    """``mean``, ``sd``, ``min`` and ``max`` of the ``values`` present (a seed without such a number gives
    None): all None when none is, and ``sd`` None with fewer than two, where nothing estimates the spread.
    The standard deviation is the sample's (n - 1 in the denominator): the seeds played are a sample of
    those one could play."""
    found = [v for v in values if v is not None]
    if not found:
        return {"mean": None, "sd": None, "min": None, "max": None}
    return {
        "mean": found[0] if len(found) == 1 else statistics.fmean(found),
        "sd": statistics.stdev(found) if len(found) > 1 else None,
        "min": min(found),
        "max": max(found),
    }
