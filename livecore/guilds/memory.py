"""The guilds' ports in memory: the guilds (``tx.guilds``) and their help (``tx.guild_help``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import attrs

from livecore.clock import to_millis
from livecore.guilds.rules import (
    By,
    ByKind,
    Donation,
    Guild,
    HelpRequest,
    HelpStatus,
    HelpTallies,
    JoinRequest,
    Role,
    Stint,
    StintTallies,
    asks_again,
    name_key,
)
from livecore.guilds.store import GuildHelpStore, GuildStore
from livecore.memory.journal import AreaPort
from livecore.players.memory import PlayerTables
from livecore.players.rules import Player
from livecore.scope import Environment


@attrs.define
class GuildTables:
    """The guilds area's tables in memory."""

    guilds: dict[str, Guild] = attrs.field(factory=dict)
    # (game id, env, name key) -> the guild not disbanded of that name
    guild_names: dict[tuple[str, str, str], str] = attrs.field(factory=dict)
    stints: dict[str, Stint] = attrs.field(factory=dict)
    current_stints: dict[str, str] = attrs.field(factory=dict)  # player id -> the stint not ended
    # Each guild's stints (their ids), which every join and every look at a guild's members reads.
    guild_stints: dict[str, dict[str, None]] = attrs.field(factory=dict)
    join_requests: dict[str, JoinRequest] = attrs.field(factory=dict)
    help_requests: dict[str, HelpRequest] = attrs.field(factory=dict)
    # Each player's help requests (their ids), which every request for help looks up.
    player_help: dict[str, dict[str, None]] = attrs.field(factory=dict)
    donations: dict[str, Donation] = attrs.field(factory=dict)


_DAY_MS = 86_400_000


class MemoryGuilds(AreaPort[GuildTables]):
    __slots__ = ()
    TABLES = GuildTables

    def get(self, game_id: str, guild_id: str) -> Guild | None:
        guild = self._t.guilds.get(guild_id)
        return guild if guild is not None and guild.game_id == game_id else None

    def insert(self, guild: Guild) -> None:
        if guild.id in self._t.guilds:
            raise KeyError(f"guild {guild.id!r} exists")
        self._name(guild)
        self._tx.put(self._t.guilds, guild.id, guild)

    def update(self, guild: Guild) -> None:
        before = self._t.guilds.get(guild.id)
        if before is None:
            return
        # As the SQL stores' UPDATE: the id, game, environment and creation time stay as stored.
        after = attrs.evolve(guild, game_id=before.game_id, env=before.env, created_at=before.created_at)
        self._name(after, before)
        self._tx.put(self._t.guilds, after.id, after)

    def _name(self, guild: Guild, before: Guild | None = None) -> None:
        """Keep the SQL stores' unique (game_id, env, name_key) over the guilds not disbanded."""
        key = (guild.game_id, guild.env.value, guild.name_key)
        if not guild.disbanded and self._t.guild_names.get(key, guild.id) != guild.id:
            raise KeyError(f"a guild not disbanded is named {guild.name_key!r} in game {guild.game_id!r}")
        if before is not None and not before.disbanded:
            self._tx.drop(self._t.guild_names, (before.game_id, before.env.value, before.name_key))
        if not guild.disbanded:
            self._tx.put(self._t.guild_names, key, guild.id)

    def by_name(self, game_id: str, env: Environment, name_key: str) -> Guild | None:
        guild_id = self._t.guild_names.get((game_id, env.value, name_key))
        return None if guild_id is None else self._t.guilds[guild_id]

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
        needle = None if text is None else name_key(text)
        ever = None if player_id is None else {s.guild_id for s in self.stints_of(player_id)}
        found = [
            g
            for g in self._t.guilds.values()
            if g.game_id == game_id
            and g.env == env
            and (include_disbanded or not g.disbanded)
            and (needle is None or needle in g.name_key)
            and (ever is None or g.id in ever)
        ]
        found.sort(key=lambda g: (g.created_at, g.id), reverse=True)
        return found[offset : offset + limit]

    def put_stint(self, stint: Stint) -> None:
        # The SQL stores' unique player_id over the stints not ended.
        if stint.current and self._t.current_stints.get(stint.player_id, stint.id) != stint.id:
            raise KeyError(f"player {stint.player_id!r} is in a guild")
        before = self._t.stints.get(stint.id)
        if before is not None and before.current:
            self._tx.drop(self._t.current_stints, before.player_id)
        if stint.current:
            self._tx.put(self._t.current_stints, stint.player_id, stint.id)
        self._tx.put(self._t.stints, stint.id, stint)
        self._tx.put(self._t.guild_stints.setdefault(stint.guild_id, {}), stint.id, None)

    def current_stint(self, player_id: str) -> Stint | None:
        stint_id = self._t.current_stints.get(player_id)
        return None if stint_id is None else self._t.stints[stint_id]

    def members(self, guild_id: str) -> list[Stint]:
        return [s for s in self.history(guild_id) if s.current]

    def history(self, guild_id: str) -> list[Stint]:
        stints = self._t.stints
        mine = [stints[stint_id] for stint_id in self._t.guild_stints.get(guild_id, ())]
        return sorted(mine, key=lambda s: (s.joined_at, s.id))

    def stints_of(self, player_id: str) -> list[Stint]:
        mine = [s for s in self._t.stints.values() if s.player_id == player_id]
        return sorted(mine, key=lambda s: (s.joined_at, s.id), reverse=True)

    def leaders_unseen_since(
        self, game_id: str, cutoff: datetime, after: str | None, limit: int
    ) -> list[Stint]:
        leaders = sorted(
            (
                s
                for s in self._t.stints.values()
                if s.game_id == game_id
                and s.current
                and s.role is Role.LEADER
                and (after is None or s.id > after)
            ),
            key=lambda s: s.id,
        )
        seen = {p.id: p.last_seen_at for p in self._s.tables_of(PlayerTables).players.values()}
        return [s for s in leaders if s.player_id in seen and seen[s.player_id] <= cutoff][:limit]

    def insert_request(self, request: JoinRequest) -> None:
        self._tx.put(self._t.join_requests, request.id, request)

    def update_request(self, request: JoinRequest) -> None:
        # What answering a request changes, as the SQL stores' UPDATE writes it.
        before = self._t.join_requests.get(request.id)
        if before is not None:
            after = attrs.evolve(before, status=request.status, resolved_at=request.resolved_at)
            self._tx.put(self._t.join_requests, request.id, after)

    def request(self, game_id: str, request_id: str) -> JoinRequest | None:
        request = self._t.join_requests.get(request_id)
        return request if request is not None and request.game_id == game_id else None

    def pending_requests(self, guild_id: str) -> list[JoinRequest]:
        return self._pending(lambda r: r.guild_id == guild_id)

    def pending_of(self, player_id: str) -> list[JoinRequest]:
        return self._pending(lambda r: r.player_id == player_id)

    def _pending(self, mine: Callable[[JoinRequest], bool]) -> list[JoinRequest]:
        found = [r for r in self._t.join_requests.values() if r.pending and mine(r)]
        return sorted(found, key=lambda r: (r.created_at, r.id))

    def tallies(
        self, game_id: str, env: Environment, since: datetime, until: datetime
    ) -> dict[str, StintTallies]:
        # In milliseconds, as the SQL stores sum them, so the days are the same float.
        start, end = to_millis(since), to_millis(until)
        found: dict[str, list[int]] = {}  # player id -> stints joined, milliseconds in a guild
        for s in self._t.stints.values():
            joined = to_millis(s.joined_at)
            left = end if s.left_at is None else min(end, to_millis(s.left_at))
            if s.game_id != game_id or s.env != env or joined >= end or left <= start:
                continue
            tally = found.setdefault(s.player_id, [0, 0])
            tally[0] += joined >= start
            tally[1] += left - max(joined, start)
        return {p: StintTallies(joined, ms / _DAY_MS) for p, (joined, ms) in found.items()}

    def reassign(self, from_id: str, to: Player) -> None:
        # Who made a change in the guilds the player was in names it no more, as the rest does not.
        by_to = By.player(to)
        ever = {s.guild_id for s in self._t.stints.values() if s.player_id == from_id}
        for stint in [s for guild_id in ever for s in self.history(guild_id)]:
            joined_by = by_to if _names(stint.joined_by, from_id) else stint.joined_by
            left_by = by_to if _names(stint.left_by, from_id) else stint.left_by
            if (joined_by, left_by) != (stint.joined_by, stint.left_by):
                self.put_stint(attrs.evolve(stint, joined_by=joined_by, left_by=left_by))
        for stint in [s for s in self._t.stints.values() if s.player_id == from_id]:
            self.put_stint(attrs.evolve(stint, player_id=to.id, external_player_id=to.external_id))
        for request in [r for r in self._t.join_requests.values() if r.player_id == from_id]:
            moved = attrs.evolve(request, player_id=to.id, external_player_id=to.external_id)
            self._tx.put(self._t.join_requests, request.id, moved)


class MemoryGuildHelp(AreaPort[GuildTables]):
    __slots__ = ()
    TABLES = GuildTables

    def insert_help(self, request: HelpRequest) -> None:
        self._tx.put(self._t.help_requests, request.id, request)
        self._tx.put(self._t.player_help.setdefault(request.player_id, {}), request.id, None)

    def _help_of(self, player_id: str) -> list[HelpRequest]:
        requests = self._t.help_requests
        return [requests[i] for i in self._t.player_help.get(player_id, {})]

    def update_help(self, request: HelpRequest) -> None:
        # What donations and closing change, as the SQL stores' UPDATE writes it.
        before = self._t.help_requests.get(request.id)
        if before is not None:
            after = attrs.evolve(
                before, donated=request.donated, status=request.status, closed_at=request.closed_at
            )
            self._tx.put(self._t.help_requests, request.id, after)

    def help(self, game_id: str, request_id: str) -> HelpRequest | None:
        request = self._t.help_requests.get(request_id)
        return request if request is not None and request.game_id == game_id else None

    def open_help(self, guild_id: str, now: datetime) -> list[HelpRequest]:
        found = [
            r
            for r in self._t.help_requests.values()
            if r.guild_id == guild_id and r.status is HelpStatus.OPEN and r.expires_at > now
        ]
        return sorted(found, key=lambda r: (r.created_at, r.id), reverse=True)

    def open_help_of(self, player_id: str) -> HelpRequest | None:
        found = [r for r in self._help_of(player_id) if r.status is HelpStatus.OPEN]
        return max(found, key=lambda r: (r.created_at, r.id), default=None)

    def last_help(self, guild_id: str, player_id: str) -> HelpRequest | None:
        found = [r for r in self._help_of(player_id) if r.guild_id == guild_id]
        return max(found, key=lambda r: (r.created_at, r.id), default=None)

    def insert_donation(self, donation: Donation) -> None:
        self._tx.put(self._t.donations, donation.id, donation)

    def donations(self, request_id: str) -> list[Donation]:
        found = [d for d in self._t.donations.values() if d.request_id == request_id]
        return sorted(found, key=lambda d: (d.donated_at, d.id))

    def tallies(
        self, game_id: str, since: datetime, until: datetime, cooldown: timedelta
    ) -> dict[str, HelpTallies]:
        # In milliseconds, as the SQL stores sum them, so the days are the same float.
        start, end = to_millis(since), to_millis(until)
        found: dict[str, list[int]] = {}  # player id -> asked, donations, milliseconds blocked
        for r in self._t.help_requests.values():
            made, again = to_millis(r.created_at), to_millis(asks_again(r, cooldown))
            if r.game_id != game_id or made >= end or again <= start:
                continue
            tally = found.setdefault(r.player_id, [0, 0, 0])
            tally[0] += made >= start
            tally[2] += min(again, end) - max(made, start)
        for d in self._t.donations.values():
            if d.game_id == game_id and start <= to_millis(d.donated_at) < end:
                found.setdefault(d.donor_player_id, [0, 0, 0])[1] += 1
        return {p: HelpTallies(asked, given, ms / _DAY_MS) for p, (asked, given, ms) in found.items()}

    def reassign(self, from_id: str, to: Player) -> None:
        for help_ in [r for r in self._t.help_requests.values() if r.player_id == from_id]:
            moved = attrs.evolve(help_, player_id=to.id, external_player_id=to.external_id)
            self._tx.put(self._t.help_requests, help_.id, moved)
            self._tx.drop(self._t.player_help.get(from_id, {}), help_.id)
            self._tx.put(self._t.player_help.setdefault(to.id, {}), help_.id, None)
        for donation in [d for d in self._t.donations.values() if d.donor_player_id == from_id]:
            given = attrs.evolve(donation, donor_player_id=to.id, donor_external_player_id=to.external_id)
            self._tx.put(self._t.donations, donation.id, given)


def _names(by: By | None, player_id: str) -> bool:
    return by is not None and by.kind is ByKind.PLAYER and by.player_id == player_id


def _implements_the_port(port: MemoryGuilds) -> GuildStore:
    return port  # mypy checks the class against the area's port here


def _implements_the_help_port(port: MemoryGuildHelp) -> GuildHelpStore:
    return port
