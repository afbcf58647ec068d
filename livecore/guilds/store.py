"""The guilds' ports: guilds by (game_id, guild id), members' stints and join requests
(:class:`GuildStore`, ``tx.guilds``); help requests and their donations (:class:`GuildHelpStore`,
``tx.guild_help``), an aggregate of their own."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Protocol

from livecore.guilds.rules import (
    Donation,
    Guild,
    HelpRequest,
    HelpTallies,
    JoinRequest,
    Stint,
    StintTallies,
)
from livecore.players.rules import Player
from livecore.scope import Environment


class GuildStore(Protocol):
    def get(self, game_id: str, guild_id: str) -> Guild | None: ...

    def insert(self, guild: Guild) -> None:
        """A second guild not disbanded with the same ``name_key`` in one game and environment breaks the
        store's unique key (an integrity error of its own)."""
        ...

    def update(self, guild: Guild) -> None:
        """Write every field but the id, game, environment and creation time; the same unique key holds."""
        ...

    def by_name(self, game_id: str, env: Environment, name_key: str) -> Guild | None:
        """The guild not disbanded whose ``name_key`` is ``name_key``."""
        ...

    def search(
        self,
        game_id: str,
        env: Environment,
        *,
        text: str | None,
        player_id: str | None,
        include_disbanded: bool,
        limit: int,
        offset: int,
    ) -> list[Guild]:
        """Guilds newest first (``created_at`` descending, then id descending): those whose ``name_key``
        contains ``text.casefold()`` when ``text`` is given, and those ``player_id`` ever had a stint in when
        it is given; disbanded ones only with ``include_disbanded``."""
        ...

    def put_stint(self, stint: Stint) -> None:
        """Insert or replace a stint (by id). A player holds at most one current stint: the store refuses a
        second (an integrity error of its own)."""
        ...

    def current_stint(self, player_id: str) -> Stint | None: ...

    def members(self, guild_id: str) -> list[Stint]:
        """The guild's current stints, in joining order (``joined_at``, then id)."""
        ...

    def history(self, guild_id: str) -> list[Stint]:
        """Every stint of the guild, current ones included, in joining order (``joined_at``, then id)."""
        ...

    def stints_of(self, player_id: str) -> list[Stint]:
        """Every stint of the player, newest first (``joined_at`` descending, then id descending)."""
        ...

    def leaders_unseen_since(
        self, game_id: str, cutoff: datetime, after: str | None, limit: int
    ) -> list[Stint]:
        """Current leader stints of the game's guilds whose player's ``last_seen_at`` is at or before
        ``cutoff``, by stint id, those after the stint id ``after`` when given (at most ``limit``)."""
        ...

    def insert_request(self, request: JoinRequest) -> None: ...

    def update_request(self, request: JoinRequest) -> None: ...

    def request(self, game_id: str, request_id: str) -> JoinRequest | None: ...

    def pending_requests(self, guild_id: str) -> list[JoinRequest]:
        """The guild's pending join requests, oldest first (``created_at``, then id)."""
        ...

    def pending_of(self, player_id: str) -> list[JoinRequest]:
        """The player's pending join requests, to any guild, oldest first."""
        ...

    def tallies(
        self, game_id: str, env: Environment, since: datetime, until: datetime
    ) -> dict[str, StintTallies]:
        """Player id -> its stints in the game and environment from ``since`` to before ``until``, in
        aggregate (those that started in the period, the days in a guild in it), for each player with a
        stint in the period, in one read."""
        ...

    def reassign(self, from_id: str, to: Player) -> None:
        """Every stint and join request of ``from_id`` becomes ``to``'s, external ids included: a merge, or
        an erasure (``to`` is then the same row under its placeholder). The command ends the source's
        current stint and resolves its pending requests first, so no unique key is broken."""
        ...


class HasGuilds(Protocol):
    """A transaction that reaches the guilds port."""

    @property
    def guilds(self) -> GuildStore: ...


class GuildHelpStore(Protocol):
    def insert_help(self, request: HelpRequest) -> None: ...

    def update_help(self, request: HelpRequest) -> None: ...

    def help(self, game_id: str, request_id: str) -> HelpRequest | None: ...

    def open_help(self, guild_id: str, now: datetime) -> list[HelpRequest]:
        """The guild's help requests stored ``open`` whose ``expires_at`` is after ``now``, newest first
        (``created_at`` descending, then id descending)."""
        ...

    def open_help_of(self, player_id: str) -> HelpRequest | None:
        """The player's newest help request stored ``open`` (expired or not), if any: a request that
        expired stays stored ``open``, so an older one may be too."""
        ...

    def last_help(self, guild_id: str, player_id: str) -> HelpRequest | None:
        """The player's latest help request to the guild (by ``created_at``, then id), any status."""
        ...

    def insert_donation(self, donation: Donation) -> None: ...

    def donations(self, request_id: str) -> list[Donation]:
        """The request's donations, oldest first (``donated_at``, then id)."""
        ...

    def tallies(
        self, game_id: str, since: datetime, until: datetime, cooldown: timedelta
    ) -> dict[str, HelpTallies]:
        """Player id -> its help in the game from ``since`` to before ``until``, in aggregate (its
        requests and donations in the period, the days of it it could not ask again, a request's
        ``cooldown`` counted), for each player that asked or donated or could not ask in the period, in
        one read."""
        ...

    def reassign(self, from_id: str, to: Player) -> None:
        """Every help request and donation of ``from_id`` becomes ``to``'s, external ids included: a merge,
        or an erasure (``to`` is then the same row under its placeholder)."""
        ...


class HasGuildHelp(Protocol):
    """A transaction that reaches the guilds' help port."""

    @property
    def guild_help(self) -> GuildHelpStore: ...
