"""The store port: what commands need from storage, one ``typing.Protocol`` per aggregate.

Commands run inside one :class:`Transaction`; everything they write, including the events they emit,
commits together or not at all. A transaction reaches each aggregate's port by an attribute
(``tx.players``, ``tx.gifts``, ...), and a command is typed against only the ports it uses: its own
protocol combines the ``Has...`` holders it needs, and :class:`Transaction` combines them all.
``livecore.memory`` implements every port in memory (simulation and tests); ``livecore_server.storage``
implements them on SQLite and PostgreSQL, so the same command code runs embedded and in the server.

Records go in and out whole (frozen attrs values); a store never applies a rule of its own.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Protocol

from livecore.economy.store import HasLedger, Ledger
from livecore.friends.store import FriendGraph, HasFriends
from livecore.gifts.store import GiftStore, HasGifts
from livecore.grants.store import GrantStore, HasGrants
from livecore.guilds.store import GuildHelpStore, GuildStore, HasGuildHelp, HasGuilds
from livecore.leaderboards.store import HasLeaderboards, LeaderboardStore
from livecore.live_events.store.attempts import AttemptStore, HasAttempts
from livecore.live_events.store.boards import BoardStore, HasBoards
from livecore.live_events.store.windows import HasWindows, WindowStore
from livecore.lobbies.store import HasLobbies, LobbyStore
from livecore.player_tools.store.erasures import ErasureStore, HasErasures
from livecore.player_tools.store.merges import HasMerges, MergeStore
from livecore.player_tools.store.migrations import HasMigrations, MigrationKeys
from livecore.players.store import HasPlayers, PlayerStore
from livecore.purchases.store import HasPurchases, PurchaseStore
from livecore.store.games import GameStore, HasGames
from livecore.store.idempotency import HasIdempotency, IdempotencyStore
from livecore.store.outbox import HasOutbox, Outbox
from livecore.teams.store import HasTeams, TeamStore

__all__ = [
    "AttemptStore",
    "BoardStore",
    "ErasureStore",
    "FriendGraph",
    "GameStore",
    "GiftStore",
    "GrantStore",
    "GuildHelpStore",
    "GuildStore",
    "HasAttempts",
    "HasBoards",
    "HasErasures",
    "HasFriends",
    "HasGames",
    "HasGifts",
    "HasGrants",
    "HasGuildHelp",
    "HasGuilds",
    "HasIdempotency",
    "HasLeaderboards",
    "HasLedger",
    "HasLobbies",
    "HasMerges",
    "HasMigrations",
    "HasOutbox",
    "HasPlayers",
    "HasPurchases",
    "HasTeams",
    "HasWindows",
    "IdempotencyStore",
    "LeaderboardStore",
    "Ledger",
    "LobbyStore",
    "MergeStore",
    "MigrationKeys",
    "Outbox",
    "PlayerStore",
    "PurchaseStore",
    "Store",
    "TeamStore",
    "Transaction",
    "WindowStore",
]


class Transaction(
    HasGames,
    HasPlayers,
    HasFriends,
    HasLedger,
    HasGrants,
    HasGifts,
    HasPurchases,
    HasMerges,
    HasErasures,
    HasMigrations,
    HasOutbox,
    HasIdempotency,
    HasWindows,
    HasAttempts,
    HasBoards,
    HasLeaderboards,
    HasLobbies,
    HasTeams,
    HasGuilds,
    HasGuildHelp,
    Protocol,
):
    """Every port of the core, in one unit of work."""


class Store(Protocol):
    def transaction(self) -> AbstractContextManager[Transaction]: ...
