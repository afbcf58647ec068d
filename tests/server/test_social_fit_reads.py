"""The reads the social areas' rates are fitted from (docs/simulation.md#how-it-fits), on every store
(memory, SQLite, PostgreSQL), as tests/server/test_postgres_store.py checks the other ports (and with its
fixtures): the same calls answer the same. The friend requests a player sent in its first day of
requests, pending or accepted, for the players first seen in a period."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import attrs

from livecore.friends import commands as friends_cmd
from livecore.players.commands import first_contact
from livecore.scope import Environment
from tests.server import test_postgres_store as twins
from tests.server.test_postgres_store import Twin, players

# Its fixtures, by the names the tests take: the stores (and PostgreSQL's check, autouse).
_postgres, twin, events = twins._postgres, twins.twin, twins.events

HOUR = 3_600


def _add(twin: Twin, sender: str, to: str) -> Any:
    """``sender`` asks ``to`` (or accepts its request, when ``to`` asked first)."""
    return twin.do(
        lambda tx, rt: friends_cmd.add(
            tx, rt, twin.scope, twin.game(tx), twin.player(tx, sender), twin.player(tx, to)
        )
    )


def _accept(twin: Twin, who: str, request_id: str) -> None:
    twin.do(
        lambda tx, rt: friends_cmd.accept(tx, rt, twin.scope, twin.game(tx), twin.player(tx, who), request_id)
    )


def _decline(twin: Twin, who: str, request_id: str) -> None:
    twin.do(lambda tx, _rt: friends_cmd.decline(tx, twin.scope, twin.player(tx, who), request_id))


def test_the_requests_a_newcomer_sent_in_its_first_day_of_requests_read_alike_on_every_store(
    events: Twin,
) -> None:
    twin = events
    game_id, env = twin.scope.game_id, Environment.TEST
    t0 = twin.runtimes[0].clock.now()
    players(twin, "old")  # first seen before the period
    twin.advance(HOUR)
    players(twin, "a", "b", "c", "d", "e")  # first seen at t1
    live = attrs.evolve(twin.scope, env=Environment.LIVE)
    twin.do(lambda tx, rt: first_contact(tx, rt, live, "z"))  # another environment's
    since = t0 + timedelta(minutes=30)

    _add(twin, "a", "b")  # accepted by b's own add: the friendship records that a asked
    _add(twin, "b", "a")
    _add(twin, "a", "c")  # pending
    declined = _add(twin, "a", "e").request
    _decline(twin, "e", declined.id)  # a declined request leaves no record
    _add(twin, "old", "d")
    twin.advance(2 * HOUR)  # t1 + 2h: d's first request, two hours after its sighting
    _accept(twin, "c", _add(twin, "d", "c").request.id)
    _add(twin, "d", "e")
    twin.advance(23 * HOUR + 59 * 60)  # a day less a minute after d's first request
    _add(twin, "e", "d")  # answers d's request: d asked
    _add(twin, "d", "old")  # answers old's request: old asked
    _add(twin, "d", "b")
    twin.advance(2 * 60)
    _add(twin, "d", "a")  # more than a day after d's first request

    names = {twin.read(lambda tx, n=n: twin.player(tx, n).id): n for n in ("old", *"abcde")}

    def read(start: datetime, hours: float, of: Environment = env) -> dict[str, int]:
        until = start + timedelta(hours=hours)
        found = twin.read(lambda tx: tx.friends.first_day_requests(game_id, of, start, until))
        return {names.get(player_id, "?"): sent for player_id, sent in found.items()}

    # a: b (accepted), c (pending). d: c (accepted), e (accepted by e's add), b (pending); not a, more
    # than a day after its first. b, c and e asked nobody.
    assert read(since, 48) == {"a": 2, "b": 0, "c": 0, "d": 3, "e": 0}
    # What was sent from the period's end on is not read: d's request to b.
    assert read(since, 26) == {"a": 2, "b": 0, "c": 0, "d": 2, "e": 0}
    # Only the players first seen a day before the period's end at the latest: none here.
    assert read(since, 24.5) == {}
    # A player first seen before the period is not read; from its sighting on, it is.
    assert read(t0, 72) == {"old": 1, "a": 2, "b": 0, "c": 0, "d": 3, "e": 0}
    assert read(t0, 72, Environment.LIVE) == {"?": 0}
