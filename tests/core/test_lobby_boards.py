"""A lobby's board on the in-memory store: its bots are computed at read time from their seats (never
stored), ranked with the players' stored entries in pages, around a player, in a player's standing and
at finalize, where rank rewards go to players only."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import attrs
import pytest

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.games import Economy, Entry, Game, GameSettings, Order, RankBand, Resource, ResourceType, Studio
from livecore.grants.memory import GrantTables
from livecore.hashing import KeyedHasher
from livecore.live_events.boards import Board, BoardEntry, entry_fields
from livecore.live_events.commands.boards import finalize_board, read_board, standing_of
from livecore.live_events.settings import EVENT_SETTINGS, EventSettings
from livecore.lobbies.boards import bot_contender, bot_entry
from livecore.lobbies.rules import Lobby, LobbyStatus, PromotionReason, Seat, SeatSource
from livecore.memory import MemoryStore
from livecore.players.commands import register
from livecore.players.identity import DEFAULT_POOL
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope

T0 = datetime(2026, 12, 1, tzinfo=UTC)
END = T0 + timedelta(hours=1)
SCOPE = Scope(studio_id="std_1", game_id="gam_1", env=Environment.LIVE)
GEMS = Resource("gems", ResourceType.CURRENCY)
EVENT = EventSettings("duel", "Duel", T0, window_seconds=3600, attempt_seconds=600, score_metric="score")
BOARD = Board(
    "brd_lobby", "gam_1", Environment.LIVE, "duel", "ev_1", "win_1", Order.DESC, END, lobby_id="lob_1"
)
LOBBY = Lobby(
    id="lob_1",
    game_id="gam_1",
    env=Environment.LIVE,
    event_key="duel",
    event_id="ev_1",
    window_id="win_1",
    board_id=BOARD.id,
    status=LobbyStatus.ACTIVE,
    capacity=5,
    segment_values={},
    segment_key="{}",
    created_at=T0,
    ends_at=END,
    participant_count=5,
    bot_count=3,
    started_at=T0,
    promotion_reason=PromotionReason.TIMEOUT,
)
# Final scores: at half time (T0 + 30 min) bot_a has 300 (ann's score, reached later), bot_b 60, bot_c 450.
FINALS = {"bot_a": 600.0, "bot_b": 120.0, "bot_c": 900.0}


def bot(seat_id: str) -> Seat:
    return Seat(
        "lob_1",
        "win_1",
        seat_id,
        T0,
        SeatSource.BOT,
        identity=DEFAULT_POOL.compose("gam_1", seat_id),
        final_score=FINALS[seat_id],
    )


class World:
    def __init__(self, lobby: Lobby = LOBBY) -> None:
        self.store = MemoryStore()
        settings = GameSettings(
            economy=Economy.PLATFORM, resources={"gems": GEMS}, sections={EVENT_SETTINGS: {"duel": EVENT}}
        )
        self.store.add_game(Studio("std_1", "s"), Game("gam_1", "std_1", "g", "G", settings=settings))
        self.clock = ManualClock(T0)
        self.rt = Runtime(self.clock, SeededRandomSource(7), KeyedHasher(b"k" * 32))
        self.ids: dict[str, str] = {}
        with self.store.transaction() as tx:
            tx.boards.insert(BOARD)
            tx.lobbies.insert(lobby)
            for name, score, at in (("ann", 300.0, 10), ("bob", 100.0, 5)):
                player = register(tx, self.rt, SCOPE, name).player
                self.ids[name] = player.id
                tx.lobbies.add_seat(
                    Seat("lob_1", "win_1", player.id, T0, SeatSource.MATCHMAKING, external_player_id=name)
                )
                entry = BoardEntry(BOARD.id, player.id, score, T0 + timedelta(minutes=at), f"att_{name}")
                tx.boards.put_entry(BOARD, entry)
            for seat_id in FINALS:
                tx.lobbies.add_seat(bot(seat_id))

    def at(self, minutes: float) -> None:
        self.clock.set(T0 + timedelta(minutes=minutes))

    def names(self, **query: object) -> list[tuple[int, str, float]]:
        with self.store.transaction() as tx:
            page = read_board(tx, self.rt, SCOPE, BOARD.id, **query)  # type: ignore[arg-type]
        return [(s.rank, s.player.external_id or s.player.id, s.entry.score) for s in page.standings]


@pytest.fixture
def world() -> World:
    return World()


def test_a_bots_entry_is_its_score_on_its_line_reached_when_the_line_crossed_that_score() -> None:
    now = T0 + timedelta(minutes=30, seconds=20)  # bot_a: 600 * 1820 / 3600 = 303.3
    entry = bot_entry(bot("bot_a"), BOARD, LOBBY, now)
    assert entry == BoardEntry(BOARD.id, "bot_a", 303.0, T0 + timedelta(seconds=1818), "bot_a")
    assert bot_entry(bot("bot_a"), BOARD, LOBBY, T0 - timedelta(minutes=1)).reached_at == T0
    assert bot_entry(bot("bot_a"), BOARD, LOBBY, END + timedelta(days=1)).reached_at == END


def test_a_bots_time_is_cut_to_the_millisecond_as_stored_times_are() -> None:
    start = T0 + timedelta(microseconds=1500)
    lobby = attrs.evolve(LOBBY, started_at=start)
    entry = bot_entry(bot("bot_a"), BOARD, lobby, start + timedelta(seconds=7, microseconds=1))
    assert entry.score == 1 and entry.reached_at.microsecond % 1000 == 0
    assert entry.reached_at <= start + timedelta(seconds=7)  # 600 * 6 s / 3600 s crosses 1


def test_a_lobby_not_started_has_no_bot_entry() -> None:
    with pytest.raises(ValueError, match="not started"):
        bot_entry(bot("bot_a"), BOARD, attrs.evolve(LOBBY, started_at=None), T0)
    world = World(attrs.evolve(LOBBY, started_at=None, status=LobbyStatus.FORMING))
    assert world.names() == [(1, "ann", 300), (2, "bob", 100)]


def test_bots_are_ranked_with_the_players_at_the_clocks_now(world: World) -> None:
    world.at(0)  # every bot at 0, reached at the start: after the players, by seat id
    assert world.names() == [
        (1, "ann", 300),
        (2, "bob", 100),
        (3, "bot_a", 0),
        (4, "bot_b", 0),
        (5, "bot_c", 0),
    ]
    world.at(30)  # bot_a reaches ann's 300 later than she did: she stays ahead
    assert world.names() == [
        (1, "bot_c", 450),
        (2, "ann", 300),
        (3, "bot_a", 300),
        (4, "bob", 100),
        (5, "bot_b", 60),
    ]
    world.at(90)  # past the window's end: the final scores
    assert world.names() == [
        (1, "bot_c", 900),
        (2, "bot_a", 600),
        (3, "ann", 300),
        (4, "bot_b", 120),
        (5, "bob", 100),
    ]


def test_a_lobby_board_pages_by_cursor_through_players_and_bots(world: World) -> None:
    world.at(30)
    seen: list[tuple[int, str, float]] = []
    cursor = None
    with world.store.transaction() as tx:
        while True:
            page = read_board(tx, world.rt, SCOPE, BOARD.id, limit=2, cursor=cursor)
            seen += [(s.rank, s.player.external_id or s.player.id, s.entry.score) for s in page.standings]
            if page.next_cursor is None:
                break
            cursor = page.next_cursor
    assert seen == world.names()
    assert [rank for rank, _, _ in seen] == [1, 2, 3, 4, 5]


def test_around_a_player_between_bots_counts_the_bots(world: World) -> None:
    world.at(30)
    assert world.names(limit=3, around="bob") == [(3, "bot_a", 300), (4, "bob", 100), (5, "bot_b", 60)]


def test_a_players_standing_counts_the_bots_ahead_of_it_now(world: World) -> None:
    for minutes, rank in ((0, 1), (30, 2), (90, 3)):
        world.at(minutes)
        with world.store.transaction() as tx:
            standing = standing_of(tx, world.rt, BOARD, world.ids["ann"])
        assert standing is not None and (standing.rank, standing.entry.score) == (rank, 300)


def test_a_bot_shows_as_a_bot_without_external_id_or_country(world: World) -> None:
    world.at(30)
    with world.store.transaction() as tx:
        page = read_board(tx, world.rt, SCOPE, BOARD.id)
    shown = {s.player.id: entry_fields(s) for s in page.standings}
    identity = DEFAULT_POOL.compose("gam_1", "bot_c")
    assert shown["bot_c"]["is_bot"] and shown["bot_c"]["external_player_id"] is None
    assert (shown["bot_c"]["name"], shown["bot_c"]["country"]) == (identity.name, None)
    assert not shown[world.ids["ann"]]["is_bot"] and shown[world.ids["ann"]]["external_player_id"] == "ann"
    with pytest.raises(ValueError, match="bot"):
        _ = bot_contender(bot("bot_c")).player_external_id


def test_finalize_pays_the_rank_bands_to_players_only_and_bots_keep_their_ranks(world: World) -> None:
    gem = Entry(ResourceType.CURRENCY, "gems", 1)
    bands = (RankBand(1, 2, (gem,)), RankBand(3, 3, (gem, gem)), RankBand(4, 5, (gem,)))
    event = EventSettings(
        "duel", "Duel", T0, window_seconds=3600, attempt_seconds=600, score_metric="score", rank_rewards=bands
    )
    world.at(60)  # the order of the window's end: bot_c, bot_a, ann, bot_b, bob
    with world.store.transaction() as tx:
        finalize_board(tx, world.rt, SCOPE, BOARD, event)
    grants = sorted(
        (g.player_id, g.metadata["rank"], len(g.entries))
        for g in world.store.tables_of(GrantTables).grants.values()
    )
    assert grants == sorted([(world.ids["ann"], 3, 2), (world.ids["bob"], 5, 1)])
    finalized = world.store.outbox[-1]
    assert finalized.kind == "leaderboard.finalized"
    assert finalized.data["entryCount"] == 5
    assert [(e["rank"], e["externalPlayerId"]) for e in finalized.data["top"]] == [(3, "ann"), (5, "bob")]
