"""How a simulated player arrives, comes back and leaves (docs/simulation.md#the-behaviour-model).

**Installs.** A segment's players install the game over its ``installs_over`` first days of the season,
as many each day (0: every player is there as the season starts, a game already live).

**Coming back.** A segment that sets ``return_d1`` and ``return_d7`` has a return curve: a player plays
on its install day, and on its ``d``-th day since it installed comes back with the chance
:func:`return_chance` (``return_d1`` on day 1, ``return_d7`` on day 7, falling as a power of ``d`` between
and after them, as measured retention curves do). On a day it comes back it plays one session, and a
Poisson count of ``sessions_per_day - 1`` more. A segment that sets neither comes back every day, and
plays a Poisson count of ``sessions_per_day`` sessions a day (none on some days): the open-loop season.

**What the economy does to it.** Each member keeps a ``returning`` level, 1 as it starts.

- Each reward it gets (a grant or gift claimed, a crate opened, an offer bought) raises the level by its
  segment's ``reward_return``, up to :data:`MOST_RETURNING`.
- Each setback the economy deals it (an offer or an entry cost it could not afford, a match it lost: the
  areas name them) lowers it by ``setback_return``, down to 0. A refusal of an action is not one: a
  player does not try what its own state says is refused.
- A member whose level is below its segment's ``churn_below`` as a day ends has left the game, for the
  reason of its last setback: it plays no session again.
- Each day the level moves halfway back to 1 before the day's sessions are drawn: a reward or a setback
  weighs most on the next day and fades after it.

The level multiplies the return chance of a segment with a return curve (at most 1); without one, its
sessions are drawn at :data:`MOST_RETURNING` times its rate and each played by its level's share of
that (thinning a Poisson process). Either way the draws do not depend on the level, so the same seed
played on two configurations differs only where the levels do, and a comparison sees a small change in
how often players come back through less noise.

Every field is 0 when a segment leaves it out: every member there from the start, coming back every day,
whatever it gets. The default segments install over two weeks and have return curves within the ranges
published for mobile games (docs/simulation.md#the-default-population says which, and where from); how
players answer rewards and setbacks has no published figure, so they leave those fields at 0: a
population sets them to test what it assumes. They are the season's own fields of a segment, as
``sessions_per_day`` is; what an area adds to the model is its own (the offers' price and wealth
response: ``livecore/grants/offers.py``)."""

from __future__ import annotations

import math

from livecore.simulation.part import Rate, Segment

#: A segment's players install over this many first days of the season (0: all there at its start).
INSTALLS_OVER = Rate(
    "installs_over",
    0,
    defaults={"engaged": 14, "regular": 14, "casual": 14},
    bounds=(0, 3650),
    whole=True,
)
#: The chance a player comes back on the day after it installed.
RETURN_D1 = Rate("return_d1", 0.0, defaults={"engaged": 0.75, "regular": 0.45, "casual": 0.25})
#: The chance it comes back on its 7th day since it installed.
RETURN_D7 = Rate("return_d7", 0.0, defaults={"engaged": 0.55, "regular": 0.2, "casual": 0.07})
#: A reward raises a member's level by this much.
REWARD_RETURN = Rate("reward_return", 0.0)
#: A setback lowers a member's level by this much.
SETBACK_RETURN = Rate("setback_return", 0.0)
#: A member whose level is below this as a day ends leaves the game.
CHURN_BELOW = Rate("churn_below", 0.0)
#: The season's own behaviour fields of a segment.
RATES = (INSTALLS_OVER, RETURN_D1, RETURN_D7, REWARD_RETURN, SETBACK_RETURN, CHURN_BELOW)
#: The highest a member's level goes: twice its segment's sessions.
MOST_RETURNING = 2.0


def responds(segment: Segment) -> bool:
    """Whether the segment's players come back by what they got: a reward or a setback moves them."""
    return segment.rate(REWARD_RETURN) > 0 or segment.rate(SETBACK_RETURN) > 0


def decays(segment: Segment) -> bool:
    """Whether the segment has a return curve: its players come back less as days since install pass."""
    return segment.rate(RETURN_D1) > 0


def return_chance(since: int, d1: float, d7: float) -> float:
    """The chance a player comes back ``since`` days after it installed (1 or more): ``d1`` on day 1,
    ``d7`` on day 7, and ``d1 * since ** -k`` on any day, the power law through both (flat when they
    are equal)."""
    return d1 * math.pow(since, -math.log(d1 / d7) / math.log(7))


def installed_on(draw: float, installs_over: int, days: int) -> int:
    """The install day of a player from a uniform ``draw`` in [0, 1): even over the segment's
    ``installs_over`` first days, those of the season at most."""
    spread = min(installs_over, days)
    return int(draw * spread) if spread > 1 else 0


def curve_problem(d1: float, d7: float) -> str | None:
    """What is wrong with a segment's return curve (``return_d7`` given ``return_d1``), None if nothing:
    both are set or neither, and a player comes back no more on day 7 than on day 1."""
    if d1 <= 0 and d7 <= 0:
        return None
    if d1 <= 0:
        return "needs return_d1: a return curve is set by both its days"
    if d7 <= 0:
        return "is required with return_d1, above 0 (a return curve is set by both its days)"
    if d7 > d1:
        return f"must be at most return_d1 ({d1:g}): players come back less as days pass"
    return None


def rewarded(level: float, reward_return: float) -> float:
    """The level after a reward."""
    return min(MOST_RETURNING, level + reward_return)


def set_back(level: float, setback_return: float) -> float:
    """The level after a setback."""
    return max(0.0, level - setback_return)


def next_day(level: float) -> float:
    """The level as a new day begins: halfway back to 1."""
    return 1.0 + (level - 1.0) / 2


__all__ = [
    "CHURN_BELOW",
    "INSTALLS_OVER",
    "MOST_RETURNING",
    "RATES",
    "RETURN_D1",
    "RETURN_D7",
    "REWARD_RETURN",
    "SETBACK_RETURN",
    "curve_problem",
    "decays",
    "installed_on",
    "next_day",
    "responds",
    "return_chance",
    "rewarded",
    "set_back",
]
