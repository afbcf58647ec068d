"""The in-memory store: every port on plain dicts, for simulations and tests."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any, TypeVar

from livecore.area import Area, MemoryPort, Ports
from livecore.economy.memory import MemoryLedger
from livecore.economy.rules import Holding, LedgerEntry
from livecore.events import DomainEvent
from livecore.friends.memory import MemoryFriendGraph
from livecore.friends.rules import Block, FriendRequest, Friendship
from livecore.games import Game, Studio
from livecore.gifts.memory import MemoryGifts
from livecore.gifts.rules import Gift
from livecore.grants.memory import MemoryGrants
from livecore.grants.rules import Grant
from livecore.guilds.memory import MemoryGuilds
from livecore.guilds.rules import Donation, Guild, HelpRequest, JoinRequest, Stint
from livecore.idempotency import StoredResponse
from livecore.leaderboards.memory import MemoryLeaderboards
from livecore.leaderboards.rules import BoardPeriod, Division, SharedEntry
from livecore.live_events.attempts import Attempt
from livecore.live_events.boards import Board, BoardEntry, Contender
from livecore.live_events.memory.attempts import MemoryAttempts
from livecore.live_events.memory.boards import MemoryBoards
from livecore.live_events.memory.windows import MemoryWindows
from livecore.live_events.rules import Window
from livecore.lobbies.memory import MemoryLobbies
from livecore.lobbies.rules import Lobby, Seat
from livecore.memory.games import MemoryGames
from livecore.memory.idempotency import MemoryIdempotency
from livecore.memory.journal import Journal
from livecore.memory.outbox import MemoryOutbox
from livecore.player_tools.erasure import ErasureRecord
from livecore.player_tools.memory.erasures import MemoryErasures
from livecore.player_tools.memory.merges import MemoryMerges
from livecore.player_tools.memory.migrations import MemoryMigrationKeys
from livecore.player_tools.merge import MergeRecord
from livecore.players.memory import MemoryPlayers
from livecore.players.rules import Player
from livecore.purchases.memory import MemoryPurchases
from livecore.purchases.rules import Purchase
from livecore.store import Transaction
from livecore.teams.memory import MemoryTeams
from livecore.teams.rules import PartnerInvite, Team, TeamMember

E = TypeVar("E", BoardEntry, SharedEntry)


class MemoryStore:
    """The tables. Ports read and write them; nothing here applies a rule."""

    def __init__(self, areas: Iterable[Area] = ()) -> None:
        # The ports a studio's own areas add (tx.ports.<name>), and their tables, by area name.
        self.area_ports: dict[str, MemoryPort] = {n: f for a in areas for n, f in a.ports.items()}
        self.tables: dict[str, Any] = {}
        self.studios: dict[str, Studio] = {}
        self.games: dict[str, Game] = {}
        self.players: dict[tuple[str, str], Player] = {}
        self.outbox: list[DomainEvent] = []
        self.bursts: dict[str, tuple[int, datetime]] = {}  # debounce key -> (outbox index, first time)
        self.idempotency: dict[tuple[str, str], StoredResponse] = {}
        self.holdings: dict[tuple[str, str], Holding] = {}
        self.entries: list[LedgerEntry] = []
        self.grants: dict[tuple[str, str], Grant] = {}
        self.requests: dict[str, FriendRequest] = {}
        self.friendships: dict[tuple[str, str], Friendship] = {}
        self.blocks: dict[tuple[str, str], Block] = {}
        self.gifts: dict[str, Gift] = {}
        self.gift_keys: dict[tuple[str, str], str] = {}  # (sender id, idempotency key) -> gift id
        # sender id -> (sent_at, recipient id, gift id), in time order: the daily count by bisect.
        self.gifts_sent: dict[str, list[tuple[datetime, str, str]]] = {}
        self.last_gift: dict[tuple[str, str], datetime] = {}  # (sender, recipient) -> latest sent_at
        # (game id, env, original external id) and (game id, id hash) -> the latest record
        self.merges: dict[tuple[str, str, str], MergeRecord] = {}
        self.erasures: dict[tuple[str, str], ErasureRecord] = {}
        self.purchases: dict[tuple[str, str, str], Purchase] = {}  # (game id, env, transaction id)
        self.migration_keys: dict[tuple[str, str, str, str], str] = {}  # (game, env, kind, key) -> fp
        self.windows: dict[tuple[str, str], Window] = {}  # (game id, window id)
        self.attempts: dict[tuple[str, str], Attempt] = {}  # (game id, attempt id)
        # (player id, window id) -> the keys of that player's attempts in that window
        self.attempt_index: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {}
        self.boards: dict[str, Board] = {}
        self.board_entries: dict[tuple[str, str], BoardEntry] = {}  # (board id, player id)
        self.periods: dict[str, BoardPeriod] = {}
        self.divisions: dict[str, Division] = {}
        self.shared_entries: dict[tuple[str, str], SharedEntry] = {}  # (period id, player id)
        self.tiers: dict[tuple[str, str, str, str], int] = {}  # (game id, env, board key, player id)
        self.lobbies: dict[str, Lobby] = {}
        self.seats: dict[tuple[str, str], Seat] = {}  # (lobby id, seat id)
        self.window_seats: dict[tuple[str, str], str] = {}  # (window id, seat id) -> lobby id
        self.teams: dict[str, Team] = {}
        self.team_members: dict[str, TeamMember] = {}  # by seat id
        # (window id, player id) -> the player's seat that is not left in that window
        self.team_seats: dict[tuple[str, str], str] = {}
        self.invites: dict[str, PartnerInvite] = {}
        self.guilds: dict[str, Guild] = {}
        # (game id, env, name key) -> the guild not disbanded of that name
        self.guild_names: dict[tuple[str, str, str], str] = {}
        self.stints: dict[str, Stint] = {}
        self.current_stints: dict[str, str] = {}  # player id -> the stint not ended
        self.join_requests: dict[str, JoinRequest] = {}
        self.help_requests: dict[str, HelpRequest] = {}
        self.donations: dict[str, Donation] = {}

    def add_game(self, studio: Studio, game: Game) -> None:
        self.studios[studio.id] = studio
        self.games[game.id] = game

    def player_by_id(self, player_id: str) -> Player | None:
        return next((p for p in self.players.values() if p.id == player_id), None)

    def with_contenders(self, entries: list[E]) -> list[tuple[E, Contender]]:
        """Board entries with what a page shows of their players."""
        out = []
        for e in entries:
            player = self.player_by_id(e.player_id)
            assert player is not None  # an entry's player row is never deleted (erasure anonymizes it)
            out.append((e, Contender.of(player)))
        return out

    def transaction(self) -> _Transaction:
        return _Transaction(self)


class MemoryTransaction:
    """Every port over one store, writing through one journal."""

    __slots__ = (
        "attempts",
        "boards",
        "erasures",
        "friends",
        "games",
        "gifts",
        "grants",
        "guilds",
        "idempotency",
        "journal",
        "leaderboards",
        "ledger",
        "lobbies",
        "merges",
        "migrations",
        "outbox",
        "players",
        "ports",
        "purchases",
        "teams",
        "windows",
    )

    def __init__(self, store: MemoryStore) -> None:
        journal = self.journal = Journal()
        self.games = MemoryGames(store, journal)
        self.players = MemoryPlayers(store, journal)
        self.friends = MemoryFriendGraph(store, journal)
        self.ledger = MemoryLedger(store, journal)
        self.grants = MemoryGrants(store, journal)
        self.gifts = MemoryGifts(store, journal)
        self.purchases = MemoryPurchases(store, journal)
        self.merges = MemoryMerges(store, journal)
        self.erasures = MemoryErasures(store, journal)
        self.migrations = MemoryMigrationKeys(store, journal)
        self.outbox = MemoryOutbox(store, journal)
        self.idempotency = MemoryIdempotency(store, journal)
        self.windows = MemoryWindows(store, journal)
        self.attempts = MemoryAttempts(store, journal)
        self.boards = MemoryBoards(store, journal)
        self.leaderboards = MemoryLeaderboards(store, journal)
        self.lobbies = MemoryLobbies(store, journal)
        self.teams = MemoryTeams(store, journal)
        self.guilds = MemoryGuilds(store, journal)
        self.ports = Ports({name: port(store, journal) for name, port in store.area_ports.items()})

    def rollback(self) -> None:
        self.journal.rollback()


class _Transaction:
    """``with store.transaction() as tx``: rolls the transaction back when the block raises. A class
    rather than a generator-based context manager: simulations run one per command."""

    __slots__ = ("tx",)

    def __init__(self, store: MemoryStore) -> None:
        self.tx = MemoryTransaction(store)

    def __enter__(self) -> MemoryTransaction:
        return self.tx

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is not None:
            self.tx.rollback()


def _implements_the_port(tx: MemoryTransaction) -> Transaction:
    return tx  # mypy checks MemoryTransaction against the Protocol here
