"""How a simulated player comes back (docs/simulation.md#the-behaviour-model): what it got in its sessions
moves how often it plays. Each member keeps a ``returning`` level, 1 as it starts: its sessions a day are
its segment's ``sessions_per_day`` times that level.

- Each reward it gets (a grant or gift claimed, a crate opened, an offer bought) raises the level by its
  segment's ``reward_return``, up to :data:`MOST_RETURNING`.
- Each setback (an action of its session refused, an offer it wanted and could not afford) lowers it by
  ``setback_return``, down to 0.
- A member whose level is below its segment's ``churn_below`` as a day ends has left the game: it plays
  no session again.
- Each day the level moves halfway back to 1 before the day's sessions are drawn: a reward or a setback
  weighs most on the next day and fades after it.

The three fields are 0 by default, which is the open-loop season: the level stays 1, every member plays
to the season's end, and every draw is the one it was without them. A segment that sets ``reward_return``
or ``setback_return`` has its sessions drawn at :data:`MOST_RETURNING` times its rate and each played by
its level's share of that (thinning a Poisson process): the draws do not depend on the level, so the same
seed played on two configurations differs only where the levels do, and a comparison sees a small change
in how often players come back through less noise. They are the season's own fields of
a segment, as ``sessions_per_day`` is; what an area adds to the model is its own (the offers' price and
wealth response: ``livecore/grants/offers.py``)."""

from __future__ import annotations

from livecore.simulation.part import Rate, Segment

#: A reward raises a member's level by this much.
REWARD_RETURN = Rate("reward_return", 0.0)
#: A setback lowers a member's level by this much.
SETBACK_RETURN = Rate("setback_return", 0.0)
#: A member whose level is below this as a day ends leaves the game.
CHURN_BELOW = Rate("churn_below", 0.0)
#: The season's own behaviour fields of a segment.
RATES = (REWARD_RETURN, SETBACK_RETURN, CHURN_BELOW)
#: The highest a member's level goes: twice its segment's sessions.
MOST_RETURNING = 2.0


def responds(segment: Segment) -> bool:
    """Whether the segment's players come back by what they got: a reward or a setback moves them."""
    return segment.rate(REWARD_RETURN) > 0 or segment.rate(SETBACK_RETURN) > 0


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
    "MOST_RETURNING",
    "RATES",
    "REWARD_RETURN",
    "SETBACK_RETURN",
    "next_day",
    "responds",
    "rewarded",
    "set_back",
]
