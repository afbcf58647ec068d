"""Telling a change from noise (``livecore-server simulate --seeds``, docs/simulation.md#several-seeds).

One seed is one draw of the players: two manifests played on it meet the same players at first, but as
soon as one thing differs (a reward, a threshold) the players' paths part, and numbers the change cannot
touch move too. So a comparison plays several seeds and asks, of each headline number, whether its change
stands out of the seed-to-seed noise.

The test is Student's paired t-test, two-sided, at 95%: each seed plays both manifests, so the change of a
seed (other minus base) already removes what that seed's players bring, and the changes are what is
tested (is their mean nonzero?). It needs no more than the changes themselves and a table of critical
values (no scipy); it holds for few seeds (the t distribution widens the bar: with 3 seeds, 2 degrees of
freedom, the mean change must be 4.3 standard errors from zero), where a normal approximation would
call noise a change.

Nothing here knows a report: these are numbers in, numbers out, None where a seed has no such number.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

#: Student's t, two-sided at 95% (the 97.5th percentile), by degrees of freedom: 1 to 30, then a few
#: beyond. A number of degrees of freedom between two listed uses the smaller's (the larger, so the
#: stricter, value); beyond the last, the normal distribution's 1.96.
T_CRITICAL_95: dict[int, float] = {
    1: 12.706,
    2: 4.303,
    3: 3.182,
    4: 2.776,
    5: 2.571,
    6: 2.447,
    7: 2.365,
    8: 2.306,
    9: 2.262,
    10: 2.228,
    11: 2.201,
    12: 2.179,
    13: 2.160,
    14: 2.145,
    15: 2.131,
    16: 2.120,
    17: 2.110,
    18: 2.101,
    19: 2.093,
    20: 2.086,
    21: 2.080,
    22: 2.074,
    23: 2.069,
    24: 2.064,
    25: 2.060,
    26: 2.056,
    27: 2.052,
    28: 2.048,
    29: 2.045,
    30: 2.042,
    40: 2.021,
    60: 2.000,
    80: 1.990,
    100: 1.984,
}
#: Beyond the table: the normal distribution's.
Z_95 = 1.96


def critical(df: int) -> float:
    """The value ``|t|`` must exceed, two-sided at 95%, with ``df`` (at least 1) degrees of freedom."""
    if df < 1:
        raise ValueError("a t-test needs at least one degree of freedom (two values)")
    if df > max(T_CRITICAL_95):
        return Z_95
    return T_CRITICAL_95[max(d for d in T_CRITICAL_95 if d <= df)]


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


def significant(changes: Sequence[float | None]) -> bool | None:
    """Whether the per-seed ``changes`` of a number (other minus base, one per seed, paired) show a change
    beyond the noise: a paired two-sided t-test at 95% on them, ``|mean| / (sd / sqrt(n))`` above the
    critical value for n - 1 degrees of freedom.

    - None (nothing to say) with one seed, where nothing estimates the noise, or where a seed has no such
      number (None among the changes);
    - False when the mean change is 0: a manifest compared with itself changes nothing on any seed;
    - True when every seed changed it by the same nonzero amount (sd 0: no noise at all)."""
    if len(changes) < 2 or any(c is None for c in changes):
        return None
    found = [float(c) for c in changes if c is not None]
    centre = statistics.fmean(found)
    if centre == 0:
        return False
    spread = statistics.stdev(found)
    if spread == 0:
        return True
    t = centre / (spread / math.sqrt(len(found)))
    return abs(t) > critical(len(found) - 1)
