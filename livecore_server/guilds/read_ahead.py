"""What the guilds area reads ahead of a donation (:data:`READ_AHEAD`, its ``ServerArea``'s), once the
players are read (:mod:`livecore_server.storage.read_ahead`): the donor's current stint and its guild,
the help request, the donor's holding of what it asks for and the player who asked, each of which the
donation otherwise read one round trip at a time. PostgreSQL reads a group's in the one round trip of its
reads ahead (:func:`_postgres`); SQLite, where a read costs no round trip, reads them as the donation
runs."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from livecore.guilds.reads import GuildDonateReads
from livecore_server.economy.rows import HOLDING_COLUMNS
from livecore_server.guilds.rows import GUILD_COLUMNS, HELP_COLUMNS, STINT_COLUMNS
from livecore_server.players.rows import PLAYER_COLUMNS
from livecore_server.storage.postgres_prefetch import key_read, maybe, one
from livecore_server.storage.read_ahead import Prefetched, ReadAhead, of_game

# The kinds of rows the guilds' ports read back from what was read ahead, by the arguments of its reads:
# a player's current stint by (player id, CURRENT), a guild and a help request by (game id, their id).
STINTS, GUILDS, HELP = "guild_stints", "guilds", "guild_help"
CURRENT = "current"
HOLDINGS = "holdings"  # the economy port's, by (player id, resource key)

DONATIONS = key_read(
    "game text, donor text, request text",
    f"SELECT k.game, k.request, p.id, {STINT_COLUMNS.qualified('m')}, {GUILD_COLUMNS.qualified('g')},"
    f" {HELP_COLUMNS.qualified('q')}, h.amount, h.parameters, {PLAYER_COLUMNS.qualified('a')}"
    " FROM {keys} "
    + one("p", "id", "players", "game_id = k.game AND external_id = k.donor")
    + " "
    # The donor's latest stint, through the index of a player's stints: by its current one
    # (``left_at IS NULL``), PostgreSQL planned on empty tables a scan of every member's stint instead.
    + maybe("m", STINT_COLUMNS.sql, "guild_stints", "player_id = p.id ORDER BY joined_at DESC, id DESC")
    + " "
    + maybe("g", GUILD_COLUMNS.sql, "guilds", "id = m.guild_id")
    + " "
    + maybe("q", HELP_COLUMNS.sql, "guild_help_requests", "id = k.request")
    + " "
    + maybe("h", "amount, parameters", "holdings", "player_id = p.id AND resource_key = q.resource_key")
    + " "
    + maybe("a", PLAYER_COLUMNS.sql, "players", "id = q.player_id"),
)


def _sqlite(tx: Any, found: Prefetched, declared: Sequence[Any]) -> None:
    """Nothing: on SQLite a read costs no round trip, and the donation reads as it runs."""


def _postgres(
    declared: Sequence[Any],
) -> tuple[list[tuple[str, Sequence[Any]]], Callable[[Prefetched, Iterator[list[Any]]], None]]:
    keys = sorted({(*d.donor, d.request_id) for d in declared if isinstance(d, GuildDonateReads)})

    def found_by(found: Prefetched, results: Iterator[list[Any]]) -> None:
        for game_id, request_id, player_id, *rest in next(results):
            stint, rest = STINT_COLUMNS.split_joined(rest)
            guild, rest = GUILD_COLUMNS.split_joined(rest)
            request, rest = HELP_COLUMNS.split_joined(rest)
            (amount, parameters), rest = rest[:2], rest[2:]
            asker, _ = PLAYER_COLUMNS.split_joined(rest)
            # No stint at all: none is current. The latest not ended: it is the current one (a player
            # has one at most). The latest ended: an earlier one may still be current only if both began
            # in one millisecond, so the port reads it as it runs.
            if stint is None or stint.left_at is None:
                found.of(STINTS)[player_id, CURRENT] = stint
            if stint is not None and stint.left_at is None:
                found.of(GUILDS)[game_id, stint.guild_id] = of_game(guild, game_id)
            request = of_game(request, game_id)
            found.of(HELP)[game_id, request_id] = request
            if request is None:
                continue
            found.of(HOLDINGS)[player_id, request.resource_key] = HOLDING_COLUMNS.of(
                (request.resource_key, amount, parameters)
            )
            if asker is not None:
                found.players.setdefault((asker.game_id, asker.external_id), asker)

    return [(DONATIONS.sql, DONATIONS.keys(keys))], found_by


#: The guilds area's reads ahead (its ``ServerArea.read_ahead``).
READ_AHEAD = ReadAhead(
    reads=(GuildDonateReads,),
    tables=frozenset({"guild_stints", "guilds", "guild_help_requests", "holdings"}),
    sqlite=_sqlite,
    postgres=_postgres,
)
