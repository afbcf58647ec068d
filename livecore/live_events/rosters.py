"""Who may take the seats of an event window: the refusals a lobby's server push
(``livecore.lobbies.rules``) and a team's roster PUT (``livecore.teams.rules``) share, in one order.

A player holds at most one lobby seat and one team seat per window. A list that seats players (the push's
players, the studio's roster, both ``externalPlayerIds``) is refused, the first that applies answering:

1. it is empty, where the list must seat someone (a push; an empty roster is allowed, it empties the
   team): 400 ``invalid_request``;
2. it names a player twice: 400 ``invalid_request``;
3. it names more players than the seats: 400 ``invalid_request``;
4. a player it names already holds a seat elsewhere in the window (another lobby, another team): 409, with
   the area's code, ``details.externalPlayerIds`` naming them.

Refusals 1 to 3 read the request alone (:func:`check_seating`); 4 needs the store, so each area checks it
(:func:`check_seated_elsewhere`) once it has found the window and the players, and checks its own refusals
between (a push's capacity bounds, the window, the players found).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import attrs

from livecore.errors import Code, LivecoreError, invalid_request
from livecore.limits import Count


@attrs.frozen
class Seating:
    """What an area's refusals say. ``room`` and ``bound`` are templates of ``{seats}``: refusal 3's
    message says the players do not fit in ``room``, its field detail allows at most ``bound`` players;
    refusal 4 answers ``elsewhere_code`` with ``elsewhere`` followed by the players' external ids."""

    players: Count  # the wire field's count: whether it may be empty, and that it names no one twice
    room: str
    bound: str
    elsewhere_code: Code
    elsewhere: str


def check_seating(seating: Seating, external_ids: Sequence[str], seats: int) -> None:
    """Refusals 1 to 3 (module docstring), each naming ``externalPlayerIds`` in ``details.fields``."""
    if len(external_ids) < seating.players.min_items:
        raise invalid_request(
            "externalPlayerIds must name at least one player.", {"externalPlayerIds": "must not be empty"}
        )
    repeated = [x for x, n in Counter(external_ids).items() if n > 1]
    if repeated and seating.players.unique:
        raise invalid_request(
            f"externalPlayerIds names {repeated[0]} more than once.",
            {"externalPlayerIds": f"repeats {', '.join(repeated)}"},
        )
    if len(external_ids) > seats:
        raise invalid_request(
            f"{len(external_ids)} players do not fit in {seating.room.format(seats=seats)}.",
            {"externalPlayerIds": f"at most {seating.bound.format(seats=seats)} players"},
        )


def check_seated_elsewhere(seating: Seating, seated_external_ids: Sequence[str]) -> None:
    """Refusal 4 (module docstring): ``seated_external_ids`` are the listed players holding a seat
    elsewhere in the window; nothing changes."""
    if seated_external_ids:
        raise LivecoreError(
            seating.elsewhere_code,
            f"{seating.elsewhere}: {', '.join(seated_external_ids)}.",
            {"externalPlayerIds": list(seated_external_ids)},
        )


__all__ = ["Seating", "check_seated_elsewhere", "check_seating"]
