"""Every read of the guilds port is an index look-up, on SQLite and on PostgreSQL, as
tests/server/test_teams_query_plans.py checks for teams (and with test_boards_query_plans.py's helpers),
on a game of 100,000 guilds: no full scan, and no sort but where the index cannot give the order (a name
search's matches, a player's few guilds). The name search of three or more characters finds its guilds
through the name's trigram index on both (SQLite's full-text table ``guild_names``, PostgreSQL's
``guilds_name_trigrams``), as the players' name search does."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from datetime import timedelta
from typing import Any

import attrs
import pytest

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.games import ResourceType
from livecore.guilds.rules import (
    By,
    Donation,
    Guild,
    HelpRequest,
    HelpStatus,
    JoinRequest,
    JoinType,
    JoinVia,
    LeftReason,
    RequestStatus,
    Role,
    Stint,
    ended,
    new_stint,
)
from livecore.hashing import KeyedHasher
from livecore.players.commands import first_contact
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore_server.guilds.rows import GUILD, STINT
from livecore_server.players.rows import player_row
from livecore_server.players.sql import INSERT_PLAYER
from livecore_server.storage.sqlite import SqliteStore
from tests.core.events_machine import SETTINGS, T0
from tests.server.test_boards_query_plans import POSTGRES_SCAN, SQLITE_SCAN, _plans, store_with_game

SCOPE = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)
GUILDS = 100_000
PLAYERS = 300
FIRST = 30  # the guilds of the PLAYERS players come before
MANNED = 5_000
SIZE = 4
ANIMALS = (
    "otter",
    "badger",
    "heron",
    "lynx",
    "marten",
    "stoat",
    "weasel",
    "falcon",
    "raven",
    "crane",
    "ibis",
    "kestrel",
    "osprey",
    "puffin",
    "wren",
    "finch",
    "gecko",
    "iguana",
    "newt",
    "toad",
    "viper",
    "cobra",
    "adder",
    "python",
    "bison",
    "moose",
    "elk",
    "ibex",
    "yak",
    "llama",
    "alpaca",
    "camel",
    "walrus",
    "seal",
    "orca",
    "dolphin",
    "shark",
    "squid",
    "krill",
    "coral",
)
SORT = re.compile(r"Sort|TEMP B-TREE FOR ORDER BY")


def _name(n: int) -> str:
    return f"{ANIMALS[n % len(ANIMALS)].title()} {n:05d}"


def _filled(store: Any) -> Runtime:
    """GUILDS guilds (one in ten disbanded), and PLAYERS players, thirty in each of the first ten guilds
    (one its leader), each with two stints ended before (one in that guild), join requests pending and
    answered, help requests open, filled and expired, and donations; the next MANNED guilds have SIZE
    members each (the statistics of a game whose guilds have members)."""
    rt = Runtime(
        clock=ManualClock(T0 + timedelta(minutes=31)),
        rng=SeededRandomSource(4),
        hasher=KeyedHasher(b"q" * 32),
    )
    now = rt.clock.now()
    guilds = [
        Guild(
            id=f"gld_{n:06d}",
            game_id=SCOPE.game_id,
            env=SCOPE.env,
            name=_name(n),
            join_type=JoinType.OPEN if n % 3 else JoinType.REQUEST,
            created_at=now - timedelta(seconds=GUILDS - n),
            member_count=1,
            disbanded_at=now if n % 10 == 9 else None,
        )
        for n in range(GUILDS)
    ]

    def fill(tx: Any) -> None:
        tx.executemany(GUILD.insert.sql, [GUILD.params(g) for g in guilds])
        players = [first_contact(tx, rt, SCOPE, f"p{n}") for n in range(PLAYERS)]
        # The next MANNED guilds have SIZE members each, players of their own, the first their leader.
        manned = guilds[FIRST : FIRST + MANNED]
        members = [
            attrs.evolve(players[0], id=f"plr_m{n:06d}", external_id=f"m{n}", friend_code=None)
            for n in range(MANNED * SIZE)
        ]
        tx.executemany(INSERT_PLAYER.sql, [player_row(m) for m in members])
        stints = [
            new_stint(
                manned[n // SIZE],
                member,
                Role.MEMBER if n % SIZE else Role.LEADER,
                JoinVia.OPEN if n % SIZE else JoinVia.CREATED,
                By.player(member),
                manned[n // SIZE].created_at + timedelta(seconds=n % SIZE),
                rt.rng,
            )
            for n, member in enumerate(members)
        ]
        tx.executemany(STINT.insert.sql, [STINT.params(s) for s in stints])
        for n, player in enumerate(players):
            for k, guild in enumerate((guilds[n % 10], guilds[10 + n % 20], guilds[n % 10])):
                stint = Stint(
                    id=f"gms_{n:04d}{k}",
                    guild_id=guild.id,
                    game_id=guild.game_id,
                    env=guild.env,
                    player_id=player.id,
                    external_player_id=player.external_id,
                    role=Role.LEADER if n < 10 else Role.MEMBER,
                    via=JoinVia.CREATED,
                    joined_at=now - timedelta(days=3 - k),
                    joined_by=By.player(player),
                )
                tx.guilds.put_stint(stint if k == 2 else ended(stint, LeftReason.LEFT, stint.joined_by, now))
            for k, status in enumerate(
                (RequestStatus.PENDING, RequestStatus.DECLINED, RequestStatus.PENDING)
            ):
                tx.guilds.insert_request(
                    JoinRequest(
                        id=f"gjr_{n:04d}{k}",
                        guild_id=guilds[(n + k + 1) % PLAYERS].id,
                        game_id=SCOPE.game_id,
                        player_id=player.id,
                        external_player_id=player.external_id,
                        message=None,
                        created_at=now - timedelta(minutes=k),
                        status=status,
                    )
                )
            for k, (status, expires) in enumerate(
                ((HelpStatus.FILLED, 1), (HelpStatus.OPEN, -1), (HelpStatus.OPEN, 1))
            ):
                tx.guild_help.insert_help(
                    HelpRequest(
                        id=f"ghr_{n:04d}{k}",
                        guild_id=guilds[n % 10].id,
                        game_id=SCOPE.game_id,
                        player_id=player.id,
                        external_player_id=player.external_id,
                        type=ResourceType.CURRENCY,
                        resource_key="coins",
                        amount=5,
                        created_at=now - timedelta(hours=3 - k),
                        expires_at=now + timedelta(hours=expires),
                        status=status,
                    )
                )
        for n, player in enumerate(players):  # to requests all inserted
            for k in range(2):
                tx.guild_help.insert_donation(
                    Donation(
                        id=f"gdn_{n:04d}{k}",
                        request_id=f"ghr_{(n + 1) % PLAYERS:04d}2",
                        guild_id=guilds[(n + 1) % 10].id,
                        game_id=SCOPE.game_id,
                        donor_player_id=player.id,
                        donor_external_player_id=player.external_id,
                        amount=1,
                        grant_id=f"gr_{n:04d}{k}",
                        reward_grant_id=None,
                        donated_at=now - timedelta(minutes=k),
                    )
                )

    store.run(fill)
    if isinstance(store, SqliteStore):
        store.conn.execute("ANALYZE")
    else:
        # Statistics of every row's name rather than a random sample of them, so that the planner's estimate
        # of a rare text, and with it the plan, is the same in every run.
        store.run(lambda tx: tx.execute("ALTER TABLE guilds ALTER COLUMN name_key SET STATISTICS 10000"))
        store.run(lambda tx: tx.execute("ANALYZE"))
    return rt


def _search(
    tx: Any,
    text: str | None,
    player_id: str | None = None,
    *,
    disbanded: bool = False,
    limit: int = 20,
    offset: int = 20,
) -> list[Guild]:
    found: list[Guild] = tx.guilds.search(
        SCOPE.game_id,
        SCOPE.env,
        text=text,
        player_id=player_id,
        include_disbanded=disbanded,
        limit=limit,
        offset=offset,
    )
    return found


def _explained(store: Any, reads: Callable[[Any], None]) -> list[tuple[str, str]]:
    """Each statement ``reads`` runs, with its plan as the planner makes it (no method disabled)."""
    seen: list[tuple[str, Sequence[Any]]] = []
    with store.transaction() as tx:
        read = tx.read

        def recorded(statement: str, params: Sequence[Any] = ()) -> Any:
            seen.append((statement, params))
            return read(statement, params)

        tx.read = recorded
        try:
            reads(tx)
        finally:
            tx.read = read
        prefix = "EXPLAIN QUERY PLAN" if isinstance(store, SqliteStore) else "EXPLAIN"
        column = 3 if isinstance(store, SqliteStore) else 0
        return [(s, "\n".join(str(r[column]) for r in read(f"{prefix} {s}", p).fetchall())) for s, p in seen]


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def filled(request: pytest.FixtureRequest) -> Iterator[tuple[Any, Runtime]]:
    """One store of each kind, filled once for the module (its tests only read)."""
    for store in store_with_game(request.param, SETTINGS):
        yield store, _filled(store)


def test_every_read_of_the_guilds_ports_is_an_index_look_up(filled: tuple[Any, Runtime]) -> None:
    store, rt = filled
    now = rt.clock.now()

    def reads(tx: Any) -> None:
        ports = tx.guilds
        player = tx.players.get(SCOPE.game_id, "p12")
        stint = ports.current_stint(player.id)
        guild = ports.get(SCOPE.game_id, stint.guild_id)
        assert ports.by_name(SCOPE.game_id, SCOPE.env, guild.name_key) == guild
        assert len(_search(tx, None)) == len(_search(tx, None, disbanded=True)) == 20
        assert len(_search(tx, "a")) == len(_search(tx, "ot", disbanded=True)) == 20  # too short for trigrams
        ports.members(guild.id)
        ports.history(guild.id)
        assert len(ports.stints_of(player.id)) == 3
        assert len(ports.leaders_unseen_since(SCOPE.game_id, now, None, 10)) == 10
        ports.request(SCOPE.game_id, "gjr_00120")
        assert len(ports.pending_requests(guild.id)) == 2
        assert len(ports.pending_of(player.id)) == 2
        helped = tx.guild_help
        helped.help(SCOPE.game_id, "ghr_00122")
        assert len(helped.open_help(guild.id, now)) == 30
        assert helped.open_help_of(player.id).id == "ghr_00122"
        assert helped.last_help(guild.id, player.id).id == "ghr_00122"
        assert len(helped.donations("ghr_00122")) == 2

    plans = _plans(store, reads)
    scan = SQLITE_SCAN if isinstance(store, SqliteStore) else POSTGRES_SCAN
    checked = [(s, plan) for s, plan in plans if "guild" in s]
    assert len(checked) == 19
    for statement, plan in checked:
        assert not scan.search(plan), f"{statement}\n{plan}"


def test_the_guilds_of_a_player_are_found_by_its_stints(filled: tuple[Any, Runtime]) -> None:
    store, _ = filled

    def reads(tx: Any) -> None:
        player = tx.players.get(SCOPE.game_id, "p12")
        ever = [tx.guilds.get(SCOPE.game_id, g) for g in {s.guild_id for s in tx.guilds.stints_of(player.id)}]
        ever.sort(key=lambda g: (g.created_at, g.id), reverse=True)
        assert _search(tx, None, player.id, disbanded=True, limit=100, offset=0) == ever[:100]
        assert len(ever) == 2
        assert _search(tx, "000", player.id, offset=1) == [g for g in ever if not g.disbanded][1:]

    plans = [(s, plan) for s, plan in _explained(store, reads) if "FROM guilds g" in s]
    assert len(plans) == 2
    scan = SQLITE_SCAN if isinstance(store, SqliteStore) else POSTGRES_SCAN
    for statement, plan in plans:
        # The player's few guilds, sorted: not the game's guilds walked newest first.
        assert not scan.search(SORT.sub("", plan)), f"{statement}\n{plan}"
        assert "guild_stints_by_player" in plan and "newest" not in plan, f"{statement}\n{plan}"


@pytest.mark.parametrize(
    ("text", "matches"),
    [("12345", 1), ("otter 12", 25), ("HERON 0", 250), ("Yak 0", 250)],
)
def test_the_name_search_goes_through_the_trigram_index(
    filled: tuple[Any, Runtime], text: str, matches: int
) -> None:
    store, _ = filled

    def reads(tx: Any) -> None:
        found = _search(tx, text, disbanded=True, limit=100, offset=0)
        assert len(found) == min(matches, 100)
        assert all(text.casefold() in g.name_key for g in found)

    [(statement, plan)] = _explained(store, reads)
    if isinstance(store, SqliteStore):
        assert "guild_names" in statement and "VIRTUAL TABLE" in plan, plan
        assert not SQLITE_SCAN.search(SORT.sub("", plan)), f"{statement}\n{plan}"
    else:
        assert "Seq Scan" not in plan, plan
        # A rare text goes through the trigram index. When more guilds match than a page holds, walking
        # the game's guilds newest first until the page is full is as cheap, and which of the two the
        # planner picks depends on its sampled statistics: either is an index read.
        assert "guilds_name_trigrams" in plan or (matches > 100 and "guilds_newest" in plan), plan


def test_a_name_search_matching_most_guilds_still_reads_an_index(filled: tuple[Any, Runtime]) -> None:
    store, _ = filled

    def reads(tx: Any) -> None:
        assert len(_search(tx, "er 0")) == len(_search(tx, "o")) == 20

    plans = _explained(store, reads)
    assert len(plans) == 2
    for statement, plan in plans:
        assert "Seq Scan" not in plan and not SQLITE_SCAN.search(SORT.sub("", plan)), f"{statement}\n{plan}"


def test_reassign_rewrites_through_indexes(filled: tuple[Any, Runtime]) -> None:
    store, _ = filled
    written: list[tuple[str, Sequence[Any]]] = []
    with store.transaction() as tx:
        player = tx.players.get(SCOPE.game_id, "p12")
        write = tx.write

        def recorded(table: str, statement: str, params: Sequence[Any] = ()) -> None:
            written.append((statement, params))
            write(table, statement, params)

        tx.write = recorded
        try:
            tx.guilds.reassign(player.id, player)
            tx.guild_help.reassign(player.id, player)
        finally:
            tx.write = write
        explain = "EXPLAIN QUERY PLAN" if isinstance(store, SqliteStore) else "EXPLAIN"
        column = 3 if isinstance(store, SqliteStore) else 0
        plans = [
            (s, "\n".join(str(r[column]) for r in tx.read(f"{explain} {s}", p).fetchall()))
            for s, p in written
        ]
    assert len(plans) == 6
    scan = SQLITE_SCAN if isinstance(store, SqliteStore) else POSTGRES_SCAN
    for statement, plan in plans:
        assert not scan.search(plan), f"{statement}\n{plan}"
