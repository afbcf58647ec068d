"""Telling a change from noise (``livecore-server simulate --seeds``, docs/simulation.md#several-seeds).

One seed is one draw of the players: two manifests played on it meet the same players at first, but as
soon as one thing differs (a reward, a threshold) the players' paths part, and numbers the change cannot
touch move too. So a comparison plays several seeds and asks, of each headline number, whether its change
stands out of the seed-to-seed noise.

Each number is tested by Student's paired t-test, two-sided: each seed plays both manifests, so the change
of a seed (other minus base) already removes what that seed's players bring, and the changes are what is
tested (is their mean nonzero?). Its p-value is exact for the whole degrees of freedom a count of seeds
gives (no scipy), and it holds for few seeds, where a normal approximation would call noise a change.

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


def t_statistic(changes: Sequence[float | None]) -> float | None:
    """Student's t of the per-seed ``changes`` of a number: mean / (sd / sqrt(n)), how many standard
    errors the mean change lies from 0 (signed). None with one seed or a seed without such a number
    (None among the changes); 0 when the mean change is 0; infinite when every seed changed it by the
    same nonzero amount (sd 0: no noise at all)."""
    if len(changes) < 2 or any(c is None for c in changes):
        return None
    found = [float(c) for c in changes if c is not None]
    centre = statistics.fmean(found)
    if centre == 0:
        return 0.0
    spread = statistics.stdev(found)
    if spread == 0:
        return math.copysign(math.inf, centre)
    return centre / (spread / math.sqrt(len(found)))


def p_value(changes: Sequence[float | None]) -> float | None:
    """The paired two-sided t-test's p-value of the per-seed ``changes`` of a number (other minus base,
    one per seed): :func:`t_statistic` on n - 1 degrees of freedom.

    - None (nothing to say) with one seed, where nothing estimates the noise, or where a seed has no such
      number (None among the changes);
    - 1 when the mean change is 0: a manifest compared with itself changes nothing on any seed;
    - 0 when every seed changed it by the same nonzero amount (sd 0: no noise at all)."""
    t = t_statistic(changes)
    if t is None:
        return None
    return 0.0 if math.isinf(t) else t_p_value(t, len(changes) - 1)


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
    """The ``level`` confidence interval of the mean of ``values`` (one per seed), by Student's t: mean
    plus or minus ``t_critical * sd / sqrt(n)``. None with one value, where nothing estimates the noise,
    or where a seed has no such number."""
    if len(values) < 2 or any(v is None for v in values):
        return None
    found = [float(v) for v in values if v is not None]
    centre = statistics.fmean(found)
    half = t_critical(len(found) - 1, level) * statistics.stdev(found) / math.sqrt(len(found))
    return centre - half, centre + half


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
