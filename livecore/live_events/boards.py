"""Event leaderboards (docs/events.md#boards).

A window has one board per combination of its event's segment values (none: one board); an attempt
joins the board of the values it started with. A player's entry is the best score of their attempts on
the board, in-progress and expired attempts counting with the score they reached. Order: better score
first (higher for ``desc``, lower for ``asc``), then who reached that score first, then the player id,
so ranks are 1, 2, 3, ... and no two entries share one.

Each change of an entry raises the board's ``version`` (the stream's event id). At its window's close a
board is ``finalized``: ranks freeze and the rank bands (``rank_rewards``) are paid as pending grants.

Pages: ``limit`` entries from the top, or after a ``cursor`` (keyset: the last entry's score, time and
player, bound to the board), or ``around`` a player: at most ``limit`` consecutive entries that include
the player, centred on it as far as the board allows.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import enum
from collections.abc import Callable
from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar

import attrs
import orjson

from livecore.clock import from_millis, to_millis
from livecore.errors import LivecoreError, invalid_request
from livecore.games import Order
from livecore.grants.bands import band_rewards as band_rewards  # what the boards' ranks earn, kept here
from livecore.grants.bands import paid_ranks as paid_ranks
from livecore.limits import ID, on_a_board
from livecore.live_events.errors import LEADERBOARD_NOT_FOUND
from livecore.players.identity import Identity
from livecore.players.rules import Player
from livecore.scope import Environment

DEFAULT_LIMIT = 50
STREAM_TOP = 50  # entries in the stream's ``ready``
FINALIZED_TOP = 10  # entries in ``leaderboard.finalized``


class BoardStatus(enum.StrEnum):
    OPEN = "open"
    FINALIZED = "finalized"


@attrs.frozen
class Board:
    id: str
    game_id: str
    env: Environment
    event_key: str
    event_id: str
    window_id: str
    order: Order
    closes_at: datetime
    segment_values: dict[str, str | None] = attrs.field(factory=dict)
    status: BoardStatus = BoardStatus.OPEN
    version: int = 0
    lobby_id: str | None = None
    finalized_at: datetime | None = None


@attrs.frozen
class BoardEntry:
    """A player's best score on a board, the attempt that holds it and when it was reached."""

    board_id: str
    player_id: str
    score: float = attrs.field(validator=on_a_board)
    reached_at: datetime
    attempt_id: str


@attrs.frozen
class Contender:
    """An entry's player as a board shows it: its ids and identities as they are at read time. Only
    these, not the whole player record: a page shows fifty of them. A lobby's bot is one too, with no
    external id and no country."""

    id: str
    external_id: str | None
    anonymized: Identity
    display: Identity | None
    country: str | None
    is_bot: bool = False

    @classmethod
    def of(cls, player: Player) -> Contender:
        return cls(player.id, player.external_id, player.anonymized, player.display, player.country)

    @property
    def player_external_id(self) -> str:
        """The external id where only a player can stand (a shared board, a webhook's list of players);
        raises ValueError for a bot."""
        if self.external_id is None:
            raise ValueError(f"{self.id} is a bot, not a player")
        return self.external_id


E = TypeVar("E", bound="Ranked")


@attrs.frozen
class Standing(Generic[E]):
    """An entry (an event board's or a shared board's) with its rank and its player."""

    rank: int
    entry: E
    player: Contender


@attrs.frozen
class BoardPage:
    """A page of an event's board as read: the board, its standings and the cursor of the next page."""

    board: Board
    standings: list[Standing[BoardEntry]]
    next_cursor: str | None


Key = tuple[float, datetime, str]  # an entry's place in board order (:func:`sort_key`)


@attrs.frozen
class Ranking(Generic[E]):
    """One list of entries in board order (an event's board, a period of a shared board or one of its
    divisions) as its store reads it: a page from the top or after a key, the entries just before a key,
    and how many come before a key."""

    order: Order
    page: Callable[[Key | None, int], list[tuple[E, Contender]]]
    page_before: Callable[[Key, int], list[tuple[E, Contender]]]
    count_ahead: Callable[[Key], int]


def listed(order: Order, rows: list[tuple[E, Contender]]) -> Ranking[E]:
    """A :class:`Ranking` over entries held whole in memory (a lobby's board: its players' stored
    entries and its bots' computed ones), put in board order here."""
    rows = sorted(rows, key=lambda row: sort_key(order, row[0]))
    keys = [sort_key(order, entry) for entry, _ in rows]

    def page(after: Key | None, n: int) -> list[tuple[E, Contender]]:
        start = 0 if after is None else bisect.bisect_right(keys, after)
        return rows[start : start + n]

    def page_before(key: Key, n: int) -> list[tuple[E, Contender]]:
        end = bisect.bisect_left(keys, key)
        return rows[max(0, end - n) : end]

    return Ranking(order, page, page_before, lambda key: bisect.bisect_left(keys, key))


def read_ranked(
    ranking: Ranking[E], limit: int, after: Key | None = None, mine: tuple[E, Contender] | None = None
) -> tuple[list[Standing[E]], bool]:
    """A page of ``limit`` standings and whether more follow it: around ``mine`` when given (placed as
    :func:`around_offset` says, read by keyset on either side of it so that nothing walks the list down
    to the player), else after the key ``after``, else from the top."""
    if mine is not None:
        key = sort_key(ranking.order, mine[0])
        half = (limit - 1) // 2
        ahead = ranking.page_before(key, half)
        room = limit - 1 - len(ahead)
        behind = ranking.page(key, room + 1)  # one more than the page takes: whether more follow
        more = len(behind) > room
        behind = behind[:room]
        if len(ahead) == half and len(behind) < limit - 1 - half:
            ahead = ranking.page_before(key, limit - 1 - len(behind))  # near the bottom: it starts earlier
        rows = [*ahead, mine, *behind]
        first = ranking.count_ahead(key) - len(ahead) + 1
    else:
        rows = ranking.page(after, limit + 1)
        more = len(rows) > limit
        rows = rows[:limit]
        first = (
            1 if after is None or not rows else ranking.count_ahead(sort_key(ranking.order, rows[0][0])) + 1
        )
    return [Standing(first + i, entry, player) for i, (entry, player) in enumerate(rows)], more


class Ranked(Protocol):
    """What orders an entry on any board, an event's or a shared one."""

    @property
    def score(self) -> float: ...

    @property
    def reached_at(self) -> datetime: ...

    @property
    def player_id(self) -> str: ...


def sort_key(order: Order, entry: Ranked) -> tuple[float, datetime, str]:
    score = -entry.score if order is Order.DESC else entry.score
    return (score, entry.reached_at, entry.player_id)


def replaces(order: Order, current: BoardEntry | None, score: float) -> bool:
    """A new score becomes the player's entry when it is better than the entry (or there is none)."""
    if current is None:
        return True
    return score > current.score if order is Order.DESC else score < current.score


def check_open(board: Board) -> None:
    if board.status is not BoardStatus.OPEN:
        raise ValueError(f"board {board.id} is {board.status.value}")


def finalized(board: Board, now: datetime) -> Board:
    return attrs.evolve(board, status=BoardStatus.FINALIZED, finalized_at=now)


def not_found(board_id: str) -> LivecoreError:
    return LivecoreError(LEADERBOARD_NOT_FOUND, "No such event leaderboard.", {"leaderboardId": board_id})


def cursor_of(list_id: str, entry: Ranked) -> str:
    """A keyset cursor after ``entry``, bound to the list it pages (a board, or a shared board's period
    and division)."""
    raw = orjson.dumps([list_id, entry.score, to_millis(entry.reached_at), entry.player_id])
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def parse_cursor(list_id: str, cursor: str) -> tuple[float, datetime, str]:
    """The entry a cursor names; 400 for a malformed cursor or one from another list."""
    try:
        raw = orjson.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        board_id, score, reached_ms, player_id = raw
        ok = (
            board_id == list_id
            and isinstance(score, int | float)
            and not isinstance(score, bool)
            and isinstance(reached_ms, int)
            and isinstance(player_id, str)
            and ID.problem(player_id) is None  # a forged id never reaches the store (no NUL in SQL text)
        )
        # A forged time or score out of datetime's or float's range is malformed too, not a 500.
        key = (float(score), from_millis(reached_ms), player_id) if ok else None
    except (ValueError, TypeError, OverflowError, binascii.Error, orjson.JSONDecodeError):
        key = None
    if key is None:
        raise invalid_request("Invalid cursor.", {"cursor": "malformed, or from another leaderboard"})
    return key


def around_start(position: int, limit: int) -> int:
    """The first offset of ``limit`` consecutive entries centred on the entry at ``position`` (0-based);
    with an even ``limit`` the extra entry comes after the player."""
    return max(0, position - (limit - 1) // 2)


def around_offset(position: int, total: int, limit: int) -> int:
    """:func:`around_start`, moved up as far as needed for the page to stay full on a board of ``total``
    entries."""
    return max(0, min(around_start(position, limit), total - limit))


def key_after(order: Order, after: tuple[float, datetime, str]) -> tuple[float, datetime, str]:
    score, reached_at, player_id = after
    return (-score if order is Order.DESC else score, reached_at, player_id)


def page_filter(
    order: Order, entries: list[BoardEntry], after: tuple[float, datetime, str] | None
) -> list[BoardEntry]:
    """The entries after a cursor's, in board order (the memory store's and the reference's reading)."""
    ranked = sorted(entries, key=lambda e: sort_key(order, e))
    if after is None:
        return ranked
    bound = key_after(order, after)
    return [e for e in ranked if sort_key(order, e) > bound]


def entry_fields(standing: Standing[Any]) -> dict[str, Any]:
    """The fields every reading of an entry shows, the wire's and the webhooks' alike."""
    player, entry = standing.player, standing.entry
    display = player.display or player.anonymized
    return {
        "rank": standing.rank,
        "external_player_id": player.external_id,
        "name": display.name,
        "avatar": display.avatar,
        "anonymized_name": player.anonymized.name,
        "anonymized_avatar": player.anonymized.avatar,
        "country": player.country,
        "score": entry.score,
        "updated_at": entry.reached_at,
        "is_bot": player.is_bot,
    }
