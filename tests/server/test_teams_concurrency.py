"""Two roster PUTs seating one player on two teams of one window at once, on SQLite and PostgreSQL, each
through its own store opened on one database (as two server processes would): exactly one seats the
player, the other answers 409 ``locked_elsewhere``, never both (docs/teams.md#the-roster). On
PostgreSQL both transactions read (no seat) before either writes; the store's unique key on seated seats
fails the later one, which runs again and is refused. SQLite runs one write at a time (BEGIN IMMEDIATE),
so its PUTs queue; what it would do with a stale check is the last test: the unique key refuses it."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psycopg
import pytest

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.errors import LivecoreError
from livecore.games import Game, GameSettings
from livecore.hashing import KeyedHasher
from livecore.live_events.rules import window_id
from livecore.live_events.settings import EVENT_SETTINGS
from livecore.players.commands import first_contact
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore.teams import commands as tc
from livecore.teams.errors import LOCKED_ELSEWHERE
from livecore_server.storage.server_store import ServerStore
from livecore_server.storage.sqlite import SqliteStore
from tests.core.test_teams_commands import EVENTS, T0
from tests.server.concurrency_support import opened_twice

GAME = Game(
    "gam_1", "std_1", "g", "G", settings=GameSettings(sections={EVENT_SETTINGS: {"race": EVENTS["race"]}})
)
LIVE = Scope(studio_id="std_1", game_id="gam_1", env=Environment.LIVE)
WINDOW = window_id("gam_1", Environment.LIVE, "race", T0)


def _runtime(seed: int) -> Runtime:
    return Runtime(ManualClock(T0), SeededRandomSource(seed), KeyedHasher(b"k" * 32))


@pytest.fixture(params=["sqlite", "postgres"])
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[ServerStore, ServerStore]]:
    """One database opened twice, with the game and its players ada and bo."""
    with opened_twice(request.param, tmp_path, GAME) as (first, second):
        rt = _runtime(1)
        for name in ("ada", "bo"):
            first.run(lambda tx, name=name: first_contact(tx, rt, LIVE, name))
        yield first, second


def _seats(store: ServerStore) -> list[tuple[str, str]]:
    """(team key, external player id) of every seated seat of the window."""

    def read(tx: Any) -> list[tuple[str, str]]:
        out = []
        for team in tx.teams.of_window(WINDOW):
            out += [(team.key, m.external_player_id) for m in tx.teams.members(team.id) if m.seated]
        return sorted(out)

    return store.run(read, write=False)


def _race(
    stores: tuple[ServerStore, ServerStore], put: Callable[[Any, Runtime, str], tc.TeamRead], read_first: bool
) -> tuple[list[object], list[int]]:
    """Each store PUTs its own team (``red``, ``blue``) with ada, on a thread of its own; with
    ``read_first`` both transactions read ada's seat before either writes. Returns each PUT's answer
    (a TeamRead or its refusal) and how many times each transaction ran."""
    barrier = threading.Barrier(2, timeout=10)
    runs = [0, 0]

    def one(i: int) -> object:
        rt = _runtime(10 + i)

        def fn(tx: Any) -> tc.TeamRead:
            runs[i] += 1
            if read_first and runs[i] == 1:
                assert tx.teams.seat_in_window(WINDOW, tx.players.get("gam_1", "ada").id) is None
                barrier.wait()
            return put(tx, rt, ("red", "blue")[i])

        if not read_first:
            barrier.wait()
        try:
            return stores[i].run(fn)
        except LivecoreError as error:
            return error

    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(one, range(2)))
    return answers, runs


def _put_ada(tx: Any, rt: Runtime, team_key: str) -> tc.TeamRead:
    return tc.put_roster(tx, rt, LIVE, "race", team_key, ["ada"])


def test_two_puts_seating_one_player_on_two_teams_at_once_seat_it_once(stores) -> None:
    postgres = not isinstance(stores[0], SqliteStore)
    answers, runs = _race(stores, _put_ada, read_first=postgres)
    seated = [a for a in answers if isinstance(a, tc.TeamRead)]
    refused = [a for a in answers if isinstance(a, LivecoreError)]
    assert len(seated) == 1 and len(refused) == 1, answers
    assert (refused[0].code, refused[0].details) == (
        LOCKED_ELSEWHERE,
        {"externalPlayerIds": ["ada"]},
    )
    assert _seats(stores[1]) == [(seated[0].team.key, "ada")]
    if postgres:
        assert sum(runs) >= 3  # both read before either wrote: one lost at the store and ran again


def test_a_put_whose_check_missed_the_other_seat_fails_at_the_stores_unique_key(
    stores, monkeypatch: pytest.MonkeyPatch
) -> None:
    stores[0].run(lambda tx: _put_ada(tx, _runtime(2), "red"))
    monkeypatch.setattr(tc, "check_not_locked", lambda _ids: None)  # as a stale read would see it
    with (
        pytest.raises((psycopg.errors.UniqueViolation, sqlite3.IntegrityError)),
        stores[1].transaction() as tx,
    ):
        _put_ada(tx, _runtime(3), "blue")
        tx.teams.members("team_none")  # PostgreSQL answers the pipelined insert with this read
    assert _seats(stores[1]) == [("red", "ada")]
    assert [t.key for t in stores[1].run(lambda tx: tx.teams.of_window(WINDOW), write=False)] == ["red"]
