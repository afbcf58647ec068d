"""The read the gifts' rate is fitted from (docs/simulation.md#how-it-fits), on every store (memory,
SQLite, PostgreSQL), as tests/server/test_postgres_store.py checks the other ports (and with its
fixtures): the same calls answer the same. Each player's first friendship on record, whether it answered
it, and its friends, for the players of a game and environment."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import attrs

from livecore.friends import commands as friends_cmd
from livecore.friends.rules import FirstFriend
from livecore.players.commands import first_contact
from livecore.scope import Environment, Scope
from tests.server import test_postgres_store as twins
from tests.server.test_postgres_store import Twin, players

# Its fixtures, by the names the tests take: the stores (and PostgreSQL's check, autouse).
_postgres, twin, events = twins._postgres, twins.twin, twins.events

HOUR = 3_600


def _add(twin: Twin, sender: str, to: str, scope: Scope | None = None) -> Any:
    """``sender`` asks ``to`` (or accepts its request, when ``to`` asked first)."""
    at = twin.scope if scope is None else scope
    return twin.do(
        lambda tx, rt: friends_cmd.add(
            tx, rt, at, twin.game(tx), twin.player(tx, sender), twin.player(tx, to)
        )
    )


def _remove(twin: Twin, who: str, other: str) -> None:
    twin.do(
        lambda tx, rt: friends_cmd.remove(tx, rt, twin.scope, twin.player(tx, who), twin.player(tx, other))
    )


def test_each_players_first_friendship_and_its_friends_read_alike_on_every_store(events: Twin) -> None:
    twin = events
    game_id, env = twin.scope.game_id, Environment.TEST
    t0 = twin.runtimes[0].clock.now()
    players(twin, "old")  # first seen an hour before the others
    twin.advance(HOUR)
    t1 = t0 + timedelta(hours=1)
    players(twin, "a", "b", "c", "d", "e", "f")
    live = attrs.evolve(twin.scope, env=Environment.LIVE)
    for name in ("y", "z"):
        twin.do(lambda tx, rt, name=name: first_contact(tx, rt, live, name))
    _add(twin, "y", "z", live)
    _add(twin, "z", "y", live)  # another environment's friendship

    _add(twin, "a", "b")
    _add(twin, "b", "a")  # b answers a's request: a friendship at t1, which a asked for
    _add(twin, "c", "d")  # pending: no friendship
    twin.advance(2 * HOUR)  # t1 + 2h
    _add(twin, "old", "e")
    _add(twin, "e", "old")
    _add(twin, "c", "a")
    _add(twin, "a", "c")  # a answers c's request: its second friend, c's first, which c asked for
    twin.advance(HOUR)  # t1 + 3h
    _add(twin, "f", "b")
    _add(twin, "b", "f")
    _remove(twin, "b", "a")  # b's friendship with a ends, and leaves no record

    names = {twin.read(lambda tx, n=n: twin.player(tx, n).id): n for n in ("old", *"abcdef", "y", "z")}

    def read(until: datetime, of: Environment = env) -> dict[str, FirstFriend]:
        found = twin.read(lambda tx: tx.friends.first_friends(game_id, of, until))
        return {names.get(player_id, "?"): first for player_id, first in found.items()}

    two, three = t1 + timedelta(hours=2), t1 + timedelta(hours=3)
    everyone = read(t1 + timedelta(days=1))
    assert everyone == {
        "a": FirstFriend(t1, two, answered=True, friends=1),  # its friendship with b ended
        "b": FirstFriend(t1, three, answered=True, friends=1),
        "c": FirstFriend(t1, two, answered=False, friends=1),
        "e": FirstFriend(t1, two, answered=True, friends=1),
        "f": FirstFriend(t1, three, answered=False, friends=1),
        "old": FirstFriend(t0, two, answered=False, friends=1),
    }
    # The friendships begun from ``until`` on are not read.
    assert read(three) == {k: everyone[k] for k in ("a", "c", "e", "old")}
    assert read(two) == {}
    assert read(t1 + timedelta(days=1), Environment.LIVE) == {
        "y": FirstFriend(t1, t1, answered=False, friends=1),
        "z": FirstFriend(t1, t1, answered=True, friends=1),
    }


def test_a_players_friends_are_counted_from_its_first_friendship_on(events: Twin) -> None:
    twin = events
    game_id, env = twin.scope.game_id, Environment.TEST
    t0 = twin.runtimes[0].clock.now()
    players(twin, "a", "b", "c", "d")
    _add(twin, "b", "a")
    _add(twin, "a", "b")  # a answers b's request
    twin.advance(HOUR)
    _add(twin, "a", "c")
    _add(twin, "c", "a")  # a asked c
    _add(twin, "a", "d")
    _add(twin, "d", "a")
    a = twin.read(lambda tx: twin.player(tx, "a").id)

    def of_a(until: datetime) -> FirstFriend:
        return twin.read(lambda tx: tx.friends.first_friends(game_id, env, until))[a]

    assert of_a(t0 + timedelta(hours=2)) == FirstFriend(t0, t0, answered=True, friends=3)
    assert of_a(t0 + timedelta(minutes=30)) == FirstFriend(t0, t0, answered=True, friends=1)
