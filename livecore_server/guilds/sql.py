"""The guilds' ports in SQL, for SQLite and PostgreSQL: the guilds (``tx.guilds``) and their help
(``tx.guild_help``). Each read is one range of one index (schema.py's
``guilds_*``, ``guild_stints_*``, ``guild_join_requests_*``, ``guild_help_*`` and ``guild_donations_*``),
but two searches, which sort what they find: by name, three characters or more, through the name's
trigram index (SQLite's full-text table ``guild_names``, PostgreSQL's ``guilds_name_trigrams``), and by
player, through the player's stints. A second guild not disbanded of one name, or a second current stint
of one player, breaks a unique index and fails the transaction with the database's integrity error."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, ClassVar, cast

from livecore.clock import to_millis
from livecore.guilds.rules import (
    By,
    Donation,
    Guild,
    HelpRequest,
    HelpTallies,
    JoinRequest,
    Stint,
    StintTallies,
    name_key,
)
from livecore.players.rules import Player
from livecore.scope import Environment
from livecore_server.guilds.read_ahead import CURRENT, GUILDS, HELP, STINTS
from livecore_server.guilds.rows import (
    DONATION,
    DONATION_COLUMNS,
    GUILD,
    GUILD_COLUMNS,
    HELP_COLUMNS,
    HELP_REQUEST,
    JOIN_REQUEST,
    JOIN_REQUEST_COLUMNS,
    STINT,
    STINT_COLUMNS,
    by_json,
)
from livecore_server.players.sql import like_escape
from livecore_server.storage.read_ahead import MISSING
from livecore_server.storage.rows import ms
from livecore_server.storage.sqlport import Dialects, SqlPort

G_COLUMNS = GUILD_COLUMNS.qualified("g")
S_COLUMNS = STINT_COLUMNS.qualified("s")

# What an update writes: every column but the id, game, environment and creation time.
_UPDATED = tuple(
    i for i, n in enumerate(GUILD.insert.columns) if n not in ("id", "game_id", "env", "created_at")
)
UPDATE_GUILD = (
    f"UPDATE guilds SET {', '.join(f'{GUILD.insert.columns[i]} = ?' for i in _UPDATED)} WHERE id = ?"
)

# A player's stints of a period: those that started in it, and the time in a guild, each stint from its
# joining or the period's start to its leaving or the period's end (the parameters, in milliseconds: the
# start, the end twice, the start twice; then the game, the environment, the end and the start).
_STINT_TALLIES = (
    "SELECT player_id, SUM(CASE WHEN joined_at >= ? THEN 1 ELSE 0 END),"
    " SUM(CASE WHEN left_at IS NULL OR left_at > ? THEN ? ELSE left_at END"
    " - CASE WHEN joined_at < ? THEN ? ELSE joined_at END)"
    " FROM guild_stints WHERE game_id = ? AND env = ? AND joined_at < ? AND (left_at IS NULL OR left_at > ?)"
    " GROUP BY player_id"
)
# A player's help of a period, in one grouped read: its requests, each blocking it from its asking to when
# it may ask again (:func:`livecore.guilds.rules.asks_again`), and its donations (the parameters, in
# milliseconds: the start, the end twice, the start twice; the cooldown twice, the game, the end and the
# start; then the game, the start and the end).
_HELP_TALLIES = (
    "SELECT player_id, SUM(asked), SUM(given), SUM(blocked) FROM ("
    " SELECT player_id, CASE WHEN created_at >= ? THEN 1 ELSE 0 END AS asked, 0 AS given,"
    " CASE WHEN again > ? THEN ? ELSE again END - CASE WHEN created_at < ? THEN ? ELSE created_at END"
    " AS blocked"
    " FROM (SELECT player_id, created_at,"
    " CASE WHEN status = 'closed' THEN closed_at"
    " WHEN COALESCE(closed_at, expires_at) > created_at + ? THEN COALESCE(closed_at, expires_at)"
    " ELSE created_at + ? END AS again"
    " FROM guild_help_requests WHERE game_id = ? AND created_at < ?) r"
    " WHERE again > ?"
    " UNION ALL"
    " SELECT donor_player_id, 0, 1, 0 FROM guild_donations"
    " WHERE game_id = ? AND donated_at >= ? AND donated_at < ?"
    ") t GROUP BY player_id"
)
_DAY_MS = 86_400_000

# Search text this long or longer goes through the name's trigram index; shorter text has no trigram, and
# is matched walking the newest-first index (a short text matches most names: the page fills early).
TRIGRAM = 3


class SqlGuilds(SqlPort):
    __slots__ = ()

    # The player id in a ``by`` column's JSON (None unless it names a player).
    _BY_PLAYER: ClassVar[str]

    def get(self, game_id: str, guild_id: str) -> Guild | None:
        ahead = self.db.ahead(GUILDS, (game_id, guild_id))
        if ahead is not MISSING:
            return cast(Guild | None, ahead)
        row = self.db.read(
            f"SELECT {GUILD_COLUMNS.sql} FROM guilds WHERE id = ? AND game_id = ?", (guild_id, game_id)
        ).fetchone()
        return None if row is None else GUILD_COLUMNS.of(row)

    def insert(self, guild: Guild) -> None:
        self.db.insert(GUILD.insert, GUILD.params(guild))

    def update(self, guild: Guild) -> None:
        row = GUILD.params(guild)
        self.db.write("guilds", UPDATE_GUILD, (*(row[i] for i in _UPDATED), guild.id))

    def by_name(self, game_id: str, env: Environment, name_key: str) -> Guild | None:
        row = self.db.read(
            f"SELECT {GUILD_COLUMNS.sql} FROM guilds"
            " WHERE game_id = ? AND env = ? AND name_key = ? AND disbanded_at IS NULL",
            (game_id, env.value, name_key),
        ).fetchone()
        return None if row is None else GUILD_COLUMNS.of(row)

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
        source = "guilds g"
        where = ["g.game_id = ?", "g.env = ?"]
        params: list[Any] = [game_id, env.value]
        if not include_disbanded:
            where.append("g.disbanded_at IS NULL")
        if player_id is not None:
            # The few guilds the player was ever in, by its stints; the name (if any) is read on each.
            where.append("g.id IN (SELECT guild_id FROM guild_stints WHERE player_id = ?)")
            params.append(player_id)
        if text is not None:
            needle = name_key(text)
            if player_id is None and len(needle) >= TRIGRAM:
                source, condition, values = self._containing(needle)
            else:
                condition, values = self._contains(needle)
            where.append(condition)
            params += values
        rows = self.db.read(
            f"SELECT {G_COLUMNS} FROM {source} WHERE {' AND '.join(where)}"
            " ORDER BY g.created_at DESC, g.id DESC LIMIT ? OFFSET ?",
            (*params, limit, offset),
        )
        return [GUILD_COLUMNS.of(r) for r in rows]

    def _contains(self, needle: str) -> tuple[str, list[Any]]:
        """A condition that ``g.name_key`` contains ``needle``, read on each row, and its parameters."""
        raise NotImplementedError

    def _containing(self, needle: str) -> tuple[str, str, list[Any]]:
        """The guilds ``g`` whose ``name_key`` contains ``needle`` (three characters or more) through the
        trigram index: the FROM clause, a condition and its parameters."""
        raise NotImplementedError

    def put_stint(self, stint: Stint) -> None:
        self.db.insert(STINT.insert, STINT.params(stint))

    def current_stint(self, player_id: str) -> Stint | None:
        ahead = self.db.ahead(STINTS, (player_id, CURRENT))
        if ahead is not MISSING:
            return cast(Stint | None, ahead)
        row = self.db.read(
            f"SELECT {STINT_COLUMNS.sql} FROM guild_stints WHERE player_id = ? AND left_at IS NULL",
            (player_id,),
        ).fetchone()
        return None if row is None else STINT_COLUMNS.of(row)

    def members(self, guild_id: str) -> list[Stint]:
        rows = self.db.read(
            f"SELECT {STINT_COLUMNS.sql} FROM guild_stints WHERE guild_id = ? AND left_at IS NULL"
            " ORDER BY joined_at, id",
            (guild_id,),
        )
        return [STINT_COLUMNS.of(r) for r in rows]

    def history(self, guild_id: str) -> list[Stint]:
        rows = self.db.read(
            f"SELECT {STINT_COLUMNS.sql} FROM guild_stints WHERE guild_id = ? ORDER BY joined_at, id",
            (guild_id,),
        )
        return [STINT_COLUMNS.of(r) for r in rows]

    def stints_of(self, player_id: str) -> list[Stint]:
        rows = self.db.read(
            f"SELECT {STINT_COLUMNS.sql} FROM guild_stints WHERE player_id = ?"
            " ORDER BY joined_at DESC, id DESC",
            (player_id,),
        )
        return [STINT_COLUMNS.of(r) for r in rows]

    def leaders_unseen_since(
        self, game_id: str, cutoff: datetime, after: str | None, limit: int
    ) -> list[Stint]:
        keyset = "" if after is None else " AND s.id > ?"
        rows = self.db.read(
            f"SELECT {S_COLUMNS} FROM guild_stints s JOIN players p ON p.id = s.player_id"
            " WHERE s.game_id = ? AND s.left_at IS NULL AND s.role = 'leader' AND p.last_seen_at <= ?"
            f"{keyset} ORDER BY s.id LIMIT ?",
            (game_id, to_millis(cutoff), *(() if after is None else (after,)), limit),
        )
        return [STINT_COLUMNS.of(r) for r in rows]

    def insert_request(self, request: JoinRequest) -> None:
        self.db.insert(JOIN_REQUEST.insert, JOIN_REQUEST.params(request))

    def update_request(self, request: JoinRequest) -> None:
        # What answering, cancelling or superseding a request changes.
        self.db.write(
            "guild_join_requests",
            "UPDATE guild_join_requests SET status = ?, resolved_at = ? WHERE id = ?",
            (request.status.value, ms(request.resolved_at), request.id),
        )

    def request(self, game_id: str, request_id: str) -> JoinRequest | None:
        row = self.db.read(
            f"SELECT {JOIN_REQUEST_COLUMNS.sql} FROM guild_join_requests WHERE id = ? AND game_id = ?",
            (request_id, game_id),
        ).fetchone()
        return None if row is None else JOIN_REQUEST_COLUMNS.of(row)

    def pending_requests(self, guild_id: str) -> list[JoinRequest]:
        rows = self.db.read(
            f"SELECT {JOIN_REQUEST_COLUMNS.sql} FROM guild_join_requests"
            " WHERE guild_id = ? AND status = 'pending' ORDER BY created_at, id",
            (guild_id,),
        )
        return [JOIN_REQUEST_COLUMNS.of(r) for r in rows]

    def pending_of(self, player_id: str) -> list[JoinRequest]:
        rows = self.db.read(
            f"SELECT {JOIN_REQUEST_COLUMNS.sql} FROM guild_join_requests"
            " WHERE player_id = ? AND status = 'pending' ORDER BY created_at, id",
            (player_id,),
        )
        return [JOIN_REQUEST_COLUMNS.of(r) for r in rows]

    def tallies(
        self, game_id: str, env: Environment, since: datetime, until: datetime
    ) -> dict[str, StintTallies]:
        start, end = to_millis(since), to_millis(until)
        rows = self.db.read(_STINT_TALLIES, (start, end, end, start, start, game_id, env.value, end, start))
        return {p: StintTallies(int(joined), int(ms) / _DAY_MS) for p, joined, ms in rows}

    def reassign(self, from_id: str, to: Player) -> None:
        # Who made a change in the guilds the player was in (a kick, a promotion, its own joining) names it
        # no more: ``by`` holds an external id, which an erasure must not leave behind.
        for column in ("joined_by", "left_by"):
            self.db.write(
                "guild_stints",
                f"UPDATE guild_stints SET {column} = ? WHERE guild_id IN"
                " (SELECT guild_id FROM guild_stints WHERE player_id = ?)"
                f" AND {self._BY_PLAYER.format(column=column)} = ?",
                (by_json(By.player(to)), from_id, from_id),
            )
        self.db.write(
            "guild_stints",
            "UPDATE guild_stints SET player_id = ?, external_player_id = ? WHERE player_id = ?",
            (to.id, to.external_id, from_id),
        )
        self.db.write(
            "guild_join_requests",
            "UPDATE guild_join_requests SET player_id = ?, external_player_id = ? WHERE player_id = ?",
            (to.id, to.external_id, from_id),
        )


class SqlGuildHelp(SqlPort):
    """The guilds' help port in SQL: help requests and their donations."""

    __slots__ = ()

    def insert_help(self, request: HelpRequest) -> None:
        self.db.insert(HELP_REQUEST.insert, HELP_REQUEST.params(request))

    def update_help(self, request: HelpRequest) -> None:
        # What a donation or its player's leaving changes: that request, and nothing else read ahead.
        with self.db.exactly(lambda p: p.forget(HELP, (request.game_id, request.id))):
            self.db.write(
                "guild_help_requests",
                "UPDATE guild_help_requests SET donated = ?, status = ?, closed_at = ? WHERE id = ?",
                (request.donated, request.status.value, ms(request.closed_at), request.id),
            )

    def help(self, game_id: str, request_id: str) -> HelpRequest | None:
        ahead = self.db.ahead(HELP, (game_id, request_id))
        if ahead is not MISSING:
            return cast(HelpRequest | None, ahead)
        row = self.db.read(
            f"SELECT {HELP_COLUMNS.sql} FROM guild_help_requests WHERE id = ? AND game_id = ?",
            (request_id, game_id),
        ).fetchone()
        return None if row is None else HELP_COLUMNS.of(row)

    def open_help(self, guild_id: str, now: datetime) -> list[HelpRequest]:
        rows = self.db.read(
            f"SELECT {HELP_COLUMNS.sql} FROM guild_help_requests"
            " WHERE guild_id = ? AND status = 'open' AND expires_at > ? ORDER BY created_at DESC, id DESC",
            (guild_id, to_millis(now)),
        )
        return [HELP_COLUMNS.of(r) for r in rows]

    def open_help_of(self, player_id: str) -> HelpRequest | None:
        # One open request per player is the rule, but one past its expiry stays stored open beside the
        # next: the newest answers.
        row = self.db.read(
            f"SELECT {HELP_COLUMNS.sql} FROM guild_help_requests WHERE player_id = ? AND status = 'open'"
            " ORDER BY created_at DESC, id DESC LIMIT 1",
            (player_id,),
        ).fetchone()
        return None if row is None else HELP_COLUMNS.of(row)

    def last_help(self, guild_id: str, player_id: str) -> HelpRequest | None:
        row = self.db.read(
            f"SELECT {HELP_COLUMNS.sql} FROM guild_help_requests WHERE player_id = ? AND guild_id = ?"
            " ORDER BY created_at DESC, id DESC LIMIT 1",
            (player_id, guild_id),
        ).fetchone()
        return None if row is None else HELP_COLUMNS.of(row)

    def insert_donation(self, donation: Donation) -> None:
        self.db.insert(DONATION.insert, DONATION.params(donation))

    def donations(self, request_id: str) -> list[Donation]:
        rows = self.db.read(
            f"SELECT {DONATION_COLUMNS.sql} FROM guild_donations WHERE request_id = ?"
            " ORDER BY donated_at, id",
            (request_id,),
        )
        return [DONATION_COLUMNS.of(r) for r in rows]

    def tallies(
        self, game_id: str, since: datetime, until: datetime, cooldown: timedelta
    ) -> dict[str, HelpTallies]:
        start, end, wait = to_millis(since), to_millis(until), cooldown // timedelta(milliseconds=1)
        params = (start, end, end, start, start, wait, wait, game_id, end, start, game_id, start, end)
        return {
            p: HelpTallies(int(asked), int(given), int(ms) / _DAY_MS)
            for p, asked, given, ms in self.db.read(_HELP_TALLIES, params)
        }

    def reassign(self, from_id: str, to: Player) -> None:
        self.db.write(
            "guild_help_requests",
            "UPDATE guild_help_requests SET player_id = ?, external_player_id = ? WHERE player_id = ?",
            (to.id, to.external_id, from_id),
        )
        self.db.write(
            "guild_donations",
            "UPDATE guild_donations SET donor_player_id = ?, donor_external_player_id = ?"
            " WHERE donor_player_id = ?",
            (to.id, to.external_id, from_id),
        )


class SqliteGuilds(SqlGuilds):
    __slots__ = ()
    _BY_PLAYER = "json_extract({column}, '$.playerId')"  # ->> needs SQLite 3.38

    def _contains(self, needle: str) -> tuple[str, list[Any]]:
        return "instr(g.name_key, ?) > 0", [needle]

    def _containing(self, needle: str) -> tuple[str, str, list[Any]]:
        # Trigram index (FTS5): any substring of three or more characters. It folds case again, the same
        # way on both sides, which keeps the match exact on casefolded text.
        phrase = '"' + needle.replace('"', '""') + '"'
        return "guild_names n JOIN guilds g ON g.rowid = n.rowid", "guild_names MATCH ?", [phrase]


class PostgresGuilds(SqlGuilds):
    __slots__ = ()
    _BY_PLAYER = "{column} ->> 'playerId'"

    def _contains(self, needle: str) -> tuple[str, list[Any]]:
        return "g.name_key LIKE ?", [f"%{like_escape(needle)}%"]

    def _containing(self, needle: str) -> tuple[str, str, list[Any]]:
        # LIKE, through the trigram index when there is one (name_key is casefolded: no ILIKE).
        condition, params = self._contains(needle)
        return "guilds g", condition, params


SQL_PORTS: dict[str, Callable[[Any], object] | Dialects] = {
    "guilds": Dialects(SqlGuilds, sqlite=SqliteGuilds, postgres=PostgresGuilds),
    "guild_help": SqlGuildHelp,
}
