"""Guild races on SQLite and PostgreSQL, each through its own store opened on one database (as two server
processes would; docs/guilds.md): two players taking a guild's last seat at once, exactly one joins and the
other answers 409 ``guild_full``; two founders taking one name at once (in another case), exactly one
guild is founded and the other answers 409 ``guild_name_taken``. On PostgreSQL both transactions read
before either writes: the seat's race is settled by SERIALIZABLE (the later writer of the guild's row
fails, runs again and is refused), the name's by the unique index on live names (the later insert fails,
runs again and is refused). SQLite runs one write at a time (BEGIN IMMEDIATE), so its writes queue; what
it would do with a stale name check is the last test: the unique index refuses it."""

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
from livecore.guilds import commands as gc
from livecore.guilds.errors import GUILD_FULL, GUILD_NAME_TAKEN
from livecore.guilds.rules import JoinType, Profile, name_key
from livecore.guilds.settings import GUILD_SETTINGS, GuildSettings
from livecore.hashing import KeyedHasher
from livecore.players.commands import first_contact, get_player
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore_server.storage.server_store import ServerStore
from livecore_server.storage.sqlite import SqliteStore
from tests.core.test_guilds_commands import T0
from tests.server.concurrency_support import opened_twice

GAME = Game(
    "gam_1",
    "std_1",
    "g",
    "G",
    settings=GameSettings(sections={GUILD_SETTINGS: GuildSettings(enabled=True, max_members=2)}),
)
SCOPE = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)
PLAYERS = ("ada", "bo", "cy")


def _runtime(seed: int) -> Runtime:
    return Runtime(ManualClock(T0), SeededRandomSource(seed), KeyedHasher(b"k" * 32))


@pytest.fixture(params=["sqlite", "postgres"])
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[ServerStore, ServerStore]]:
    """One database opened twice, with the game and its players ada, bo and cy."""
    with opened_twice(request.param, tmp_path, GAME) as (first, second):
        rt = _runtime(1)
        for name in PLAYERS:
            first.run(lambda tx, name=name: first_contact(tx, rt, SCOPE, name))
        yield first, second


Command = Callable[[Any, Runtime, str], Any]  # (tx, runtime, the racer's player) -> the answer


def _race(
    stores: tuple[ServerStore, ServerStore],
    racers: tuple[str, str],
    command: Command,
    look: Callable[[Any], object],
    read_first: bool,
) -> tuple[list[object], list[int]]:
    """Each racer runs ``command`` through its own store, on a thread of its own; with ``read_first``
    both transactions ``look`` before either writes. Each command's answer (or refusal), and how many
    times each transaction ran."""
    barrier = threading.Barrier(2, timeout=10)
    runs = [0, 0]

    def one(i: int) -> object:
        rt = _runtime(10 + i)

        def fn(tx: Any) -> Any:
            runs[i] += 1
            if read_first and runs[i] == 1:
                look(tx)
                barrier.wait()
            return command(tx, rt, racers[i])

        if not read_first:
            barrier.wait()
        try:
            return stores[i].run(fn)
        except LivecoreError as error:
            return error

    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(one, range(2)))
    return answers, runs


def _outcome(answers: list[object]) -> tuple[list[Any], list[LivecoreError]]:
    done = [a for a in answers if not isinstance(a, LivecoreError)]
    refused = [a for a in answers if isinstance(a, LivecoreError)]
    assert len(done) == 1 and len(refused) == 1, answers
    return done, refused


def _found(tx: Any, rt: Runtime, who: str, name: str) -> gc.OwnGuild:
    return gc.create(tx, rt, SCOPE, get_player(tx, SCOPE, who), Profile(name=name, join_type=JoinType.OPEN))


def test_two_players_taking_the_last_seat_at_once_one_joins_the_other_finds_it_full(stores) -> None:
    postgres = not isinstance(stores[0], SqliteStore)
    guild_id = stores[0].run(lambda tx: _found(tx, _runtime(2), "ada", "Wolves")).read.guild.id

    def join(tx: Any, rt: Runtime, who: str) -> gc.Joined:
        return gc.join(tx, rt, SCOPE, get_player(tx, SCOPE, who), guild_id)

    def look(tx: Any) -> None:
        assert tx.guilds.get("gam_1", guild_id).member_count == 1  # a seat is free, as both see it

    answers, runs = _race(stores, ("bo", "cy"), join, look, read_first=postgres)
    joined, refused = _outcome(answers)
    assert (refused[0].code, refused[0].details) == (
        GUILD_FULL,
        {"guildId": guild_id, "maxMembers": 2},
    )
    members = stores[1].run(lambda tx: tx.guilds.members(guild_id), write=False)
    seated = {m.external_player_id for m in joined[0].own.read.members}  # one clock: ids order the ties
    assert {m.external_player_id for m in members} == seated and len(seated) == 2 and "ada" in seated
    assert stores[1].run(lambda tx: tx.guilds.get("gam_1", guild_id), write=False).member_count == 2
    if postgres:
        assert sum(runs) >= 3  # both read before either wrote: one lost at the store and ran again


def test_two_founders_taking_one_name_at_once_found_one_guild(stores) -> None:
    postgres = not isinstance(stores[0], SqliteStore)
    names = {"ada": "Wolves", "bo": "WOLVES"}

    def found(tx: Any, rt: Runtime, who: str) -> gc.OwnGuild:
        return _found(tx, rt, who, names[who])

    def look(tx: Any) -> None:
        assert (
            tx.guilds.by_name("gam_1", Environment.TEST, name_key("Wolves")) is None
        )  # free, as both see it

    answers, runs = _race(stores, ("ada", "bo"), found, look, read_first=postgres)
    founded, refused = _outcome(answers)
    assert refused[0].code is GUILD_NAME_TAKEN
    guilds = stores[1].run(
        lambda tx: tx.guilds.search(
            "gam_1", Environment.TEST, text=None, player_id=None, include_disbanded=True, limit=10, offset=0
        ),
        write=False,
    )
    assert [g.id for g in guilds] == [founded[0].read.guild.id]
    if postgres:
        assert sum(runs) >= 3


def test_a_founding_whose_check_missed_the_other_guild_fails_at_the_stores_unique_index(
    stores, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = stores[0].run(lambda tx: _found(tx, _runtime(2), "ada", "Wolves")).read.guild
    monkeypatch.setattr(gc, "check_name_free", lambda *_: None)  # as a stale read would see it
    with (
        pytest.raises((psycopg.errors.UniqueViolation, sqlite3.IntegrityError)),
        stores[1].transaction() as tx,
    ):
        _found(tx, _runtime(3), "bo", "wOLVES")
        tx.guilds.members("gld_none")  # PostgreSQL answers the pipelined insert with this read
    guilds = stores[1].run(
        lambda tx: tx.guilds.search(
            "gam_1", Environment.TEST, text=None, player_id=None, include_disbanded=True, limit=10, offset=0
        ),
        write=False,
    )
    assert [g.id for g in guilds] == [first.id]
