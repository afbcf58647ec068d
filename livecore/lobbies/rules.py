"""Lobbies: small rooms of one event window that fill, start, compete on their own board and close
(docs/lobbies.md).

A lobby event (``[games.<game>.events.<key>.lobby]``) seats each starting player in the oldest ``forming``
lobby of the open window and segment, or opens a new one. A lobby becomes ``active`` when its last seat is
taken (``capacity``), at its ``fill_by`` deadline (``timeout``: bots first take the empty seats when the
event says so), or at once when the studio's server pushes it (``external_push``); it closes with its
window. Each lobby has its own event board, on which its bots' scores grow from 0 at the start to their
drawn final score at the window's end.

The records are here; the rules follow them, then the transition table.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import attrs

from livecore.clock import from_millis, to_millis
from livecore.errors import CONFLICT
from livecore.games import Order
from livecore.ids import derived_id, new_id
from livecore.limits import Count, Range
from livecore.live_events.rosters import Seating, check_seated_elsewhere, check_seating
from livecore.live_events.rules import BOARD_ID_PREFIX, Window, canonical
from livecore.lobbies.settings import BotScore, LobbySettings, SuddenDeath, TriggerType
from livecore.players.identity import Identity, IdentityPool
from livecore.rand import RandomSource
from livecore.scope import Environment

# The id prefixes of the area's records, claimed in its declaration (``Area.id_prefixes``).
LOBBY_ID_PREFIX = "lob"
BOT_ID_PREFIX = "bot"  # a bot's seat in a lobby, and its entry on the lobby's board


# Bots take a lobby's empty seats in one transaction, and a push seats its players in one.
CAPACITY_MAX = 10_000
#: The seats of a lobby a server pushes.
PUSH_CAPACITY = Range(2, CAPACITY_MAX)
#: The players a server push seats.
PUSH_PLAYERS = Count(min_items=1, max_items=CAPACITY_MAX, unique=True)


class LobbyStatus(enum.StrEnum):
    FORMING = "forming"
    ACTIVE = "active"
    CLOSED = "closed"


class PromotionReason(enum.StrEnum):
    """Why a lobby became active (``promotionReason``)."""

    CAPACITY = "capacity"
    TIMEOUT = "timeout"
    EXTERNAL_PUSH = "external_push"


class SeatSource(enum.StrEnum):
    """How a seat was taken: a client's start (matchmaking), the studio's push, or a bot filling it."""

    MATCHMAKING = "matchmaking"
    SERVER_PUSH = "server_push"
    BOT = "bot"


@attrs.frozen
class Lobby:
    """One lobby. ``segment_key`` is the canonical text of ``segment_values`` (what matchmaking matches
    on); ``fill_by`` is set while forming and stays as it was; ``push_key`` is a pushed lobby's ``key``
    (its idempotency key, per game and environment). ``terminated_by`` is the label of the sudden-death
    trigger that ended its session, if one did."""

    id: str
    game_id: str
    env: Environment
    event_key: str
    event_id: str
    window_id: str
    board_id: str
    status: LobbyStatus
    capacity: int
    segment_values: dict[str, str | None]
    segment_key: str
    created_at: datetime
    ends_at: datetime
    fill_by: datetime | None = None
    participant_count: int = 0
    bot_count: int = 0
    started_at: datetime | None = None
    closed_at: datetime | None = None
    promotion_reason: PromotionReason | None = None
    metadata: dict[str, Any] | None = None
    push_key: str | None = None
    terminated_by: str | None = None

    @property
    def free_seats(self) -> int:
        return self.capacity - self.participant_count


@attrs.frozen
class Seat:
    """A taken seat. A player's: ``seat_id`` is the player's id, ``external_player_id`` its external id,
    and its identities are read from the player at read time. A bot's: ``seat_id`` is a ``bot_`` id, with
    the ``identity`` drawn from the identity pool and the ``final_score`` drawn when it was seated."""

    lobby_id: str
    window_id: str
    seat_id: str
    joined_at: datetime
    source: SeatSource
    external_player_id: str | None = None
    identity: Identity | None = None
    final_score: float | None = None
    # The seat's number in its lobby, from 0 in the order taken: a push seats its players at one instant,
    # in the order it names them, then its bots.
    position: int = 0

    @property
    def is_bot(self) -> bool:
        return self.source is SeatSource.BOT


# --- rules --------------------------------------------------------------------------------------------


def lobby_board_id(window: Window, lobby_id: str) -> str:
    """A lobby's own event board: named by its window and the lobby, as a window's boards are."""
    return derived_id(BOARD_ID_PREFIX, window.starts_at, window.id, "lobby", lobby_id)


def _lobby(
    window: Window,
    capacity: int,
    segment_values: dict[str, str | None],
    now: datetime,
    rng: RandomSource,
    fill_by: datetime | None,
    metadata: dict[str, Any] | None = None,
    push_key: str | None = None,
) -> Lobby:
    lobby_id = new_id(LOBBY_ID_PREFIX, now, rng)
    return Lobby(
        id=lobby_id,
        game_id=window.game_id,
        env=window.env,
        event_key=window.event_key,
        event_id=window.event_id,
        window_id=window.id,
        board_id=lobby_board_id(window, lobby_id),
        status=LobbyStatus.FORMING,
        capacity=capacity,
        segment_values=dict(segment_values),
        segment_key=canonical(segment_values),
        created_at=now,
        ends_at=window.ends_at,
        fill_by=fill_by,
        metadata=metadata,
        push_key=push_key,
    )


def new_lobby(
    window: Window,
    settings: LobbySettings,
    segment_values: dict[str, str | None],
    now: datetime,
    rng: RandomSource,
) -> Lobby:
    """A forming lobby opened by matchmaking: empty, ``fill_by`` its creation plus ``fill_seconds``."""
    fill_by = now + timedelta(seconds=settings.fill_seconds)
    return _lobby(window, settings.capacity, segment_values, now, rng, fill_by)


def pushed_lobby(
    window: Window,
    capacity: int,
    push_key: str,
    metadata: dict[str, Any] | None,
    now: datetime,
    rng: RandomSource,
) -> Lobby:
    """A lobby the studio's server pushes: forming and empty, without ``fill_by`` or segment values; the
    push seats its players (and bots) and then promotes it (:attr:`LobbyTrigger.PUSHED`) in the same step."""
    return _lobby(window, capacity, {}, now, rng, None, metadata, push_key)


def seat_player(lobby: Lobby, seat: Seat) -> tuple[Lobby, bool]:
    """Count ``seat`` (a player's or a bot's) in ``lobby``; also whether it took the last free seat. Raises
    ValueError for a seat of another lobby, a closed lobby or a full one (matchmaking never picks a full
    lobby: the seat that fills one promotes it)."""
    if seat.lobby_id != lobby.id:
        raise ValueError(f"seat of lobby {seat.lobby_id} offered to lobby {lobby.id}")
    if lobby.status is LobbyStatus.CLOSED:
        raise ValueError(f"lobby {lobby.id} is closed")
    if lobby.free_seats <= 0:
        raise ValueError(f"lobby {lobby.id} is full ({lobby.capacity} seats)")
    seated = attrs.evolve(
        lobby, participant_count=lobby.participant_count + 1, bot_count=lobby.bot_count + seat.is_bot
    )
    return seated, seated.free_seats == 0


def _whole(value: float) -> bool:
    return float(value).is_integer()


def draw_bot_score(score: BotScore, rng: RandomSource) -> float:
    """Uniform in [min, max]; uniform over the whole numbers from min to max when both bounds are whole."""
    u = rng.random()
    if _whole(score.min) and _whole(score.max):
        return float(min(score.max, score.min + math.floor(u * (score.max - score.min + 1))))
    return min(score.max, score.min + u * (score.max - score.min))


def bot_seats(
    lobby: Lobby, settings: LobbySettings, now: datetime, rng: RandomSource, pool: IdentityPool
) -> list[Seat]:
    """A bot seat for each of the lobby's empty seats, joined ``now``: a ``bot_`` id, the identity the
    game's pool composes from that id, and a final score drawn from ``settings.bot_score`` (0 without one:
    a push may ask for bots on an event that declares no score range)."""
    seats = []
    for position in range(lobby.participant_count, lobby.capacity):
        bot_id = new_id(BOT_ID_PREFIX, now, rng)
        final = draw_bot_score(settings.bot_score, rng) if settings.bot_score is not None else 0.0
        seats.append(
            Seat(
                lobby_id=lobby.id,
                window_id=lobby.window_id,
                seat_id=bot_id,
                joined_at=now,
                source=SeatSource.BOT,
                identity=pool.compose(lobby.game_id, bot_id),
                final_score=final,
                position=position,
            )
        )
    return seats


def bot_score_at(seat: Seat, started_at: datetime, ends_at: datetime, now: datetime) -> float:
    """A bot's score ``now``: linear from 0 at ``started_at`` to its final score at ``ends_at``, clamped
    outside; rounded down to a whole number when the final score is whole (a board of whole points)."""
    final = seat.final_score or 0.0
    if now <= started_at:
        return 0.0
    if now >= ends_at:
        return final
    score = final * ((now - started_at) / (ends_at - started_at))
    return float(math.floor(score)) if _whole(final) else min(score, final)


def bot_reached(seat: Seat, lobby: Lobby, now: datetime) -> tuple[float, datetime]:
    """A bot's score ``now`` (:func:`bot_score_at`) and when its line reached that score (for ties): the
    moment the whole number was crossed, the lobby's start for 0, ``now`` while a fractional score grows.
    The time is cut to the millisecond, as stored times and cursors are. Raises ValueError for a lobby
    that has not started (it has no bots on its board yet)."""
    if lobby.started_at is None:
        raise ValueError(f"lobby {lobby.id} has not started")
    started, ends = lobby.started_at, lobby.ends_at
    score = bot_score_at(seat, started, ends, now)
    reached = min(max(now, started), ends)
    final = seat.final_score or 0.0
    if _whole(final) and score != 0:
        # Exact in whole microseconds: the first instant at which final * elapsed / span >= score.
        span = (ends - started) // timedelta(microseconds=1)
        crossed = started + timedelta(microseconds=-(-span * int(score) // int(final)))
        reached = min(crossed, reached)
    elif score == 0:
        reached = started
    return score, from_millis(to_millis(reached))


#: A server push's seats: refusals 1 to 4 of ``livecore.live_events.rosters``.
PUSH_SEATING = Seating(
    players=PUSH_PLAYERS,
    room="a lobby of {seats} seats",
    bound="capacity ({seats})",
    elsewhere_code=CONFLICT,
    elsewhere="Already seated in another lobby of this window",
)


def check_push(external_player_ids: Sequence[str], capacity: int) -> None:
    """A server push's refusals, checked in this order (the first that applies answers), each 400
    ``invalid_request`` naming the field in ``details.fields``:

    1. ``externalPlayerIds`` is empty;
    2. ``externalPlayerIds`` names a player twice;
    3. more players than ``capacity`` (the request's, else the event's ``lobby.capacity``);
    4. ``capacity`` below 2 or above :data:`CAPACITY_MAX`.

    No window open now is refused next (409 ``event_not_open``), then players already seated in another
    lobby of the window, by :func:`check_not_seated` (it needs the store). 1 to 3 and the last are the
    refusals every list of a window's seats shares (``livecore.live_events.rosters``)."""
    check_seating(PUSH_SEATING, external_player_ids, capacity)
    PUSH_CAPACITY.check(capacity, "capacity")


def check_not_seated(seated_external_ids: Sequence[str]) -> None:
    """A pushed player already holds a seat in another lobby of the window: 409 ``conflict``, refusal 4 of
    :func:`~livecore.live_events.rosters.check_seated_elsewhere`. ``conflict`` rather than
    ``invalid_request``: the request is well formed, it is the players' current state that refuses it,
    as for the other state conflicts answered with the generic 409."""
    check_seated_elsewhere(PUSH_SEATING, seated_external_ids)


def fired_trigger(
    triggers: Sequence[SuddenDeath], scores: Sequence[float], completed: int, order: Order = Order.DESC
) -> SuddenDeath | None:
    """The first trigger, in manifest order, whose condition holds: ``score_reached`` when any score is at
    least as good as the threshold (>= on a ``desc`` board; <= on an ``asc`` board, where lower is better,
    e.g. a time under the threshold); ``completed_count`` when ``completed`` attempts reach the threshold.
    ``scores`` are the participants' recorded scores on the lobby's board."""
    for trigger in triggers:
        if trigger.type is TriggerType.COMPLETED_COUNT:
            if completed >= trigger.threshold:
                return trigger
        elif order is Order.DESC:
            if any(score >= trigger.threshold for score in scores):
                return trigger
        elif any(score <= trigger.threshold for score in scores):
            return trigger
    return None


# --- transitions --------------------------------------------------------------------------------------


class LobbyTrigger(enum.Enum):
    FILLED = "filled"  # the last seat taken
    FILL_TIMEOUT = "fill_timeout"  # fill_by reached
    PUSHED = "pushed"  # the studio's server pushed the lobby
    WINDOW_END = "window_end"
    SUDDEN_DEATH = "sudden_death"  # a trigger with the ``close`` resolution fired


# (status, trigger) -> next status (docs/lobbies.md#lifecycle); anything else is not a lobby's move.
TRANSITIONS: dict[tuple[LobbyStatus, LobbyTrigger], LobbyStatus] = {
    (LobbyStatus.FORMING, LobbyTrigger.FILLED): LobbyStatus.ACTIVE,
    (LobbyStatus.FORMING, LobbyTrigger.FILL_TIMEOUT): LobbyStatus.ACTIVE,
    (LobbyStatus.FORMING, LobbyTrigger.PUSHED): LobbyStatus.ACTIVE,
    (LobbyStatus.FORMING, LobbyTrigger.WINDOW_END): LobbyStatus.CLOSED,
    (LobbyStatus.FORMING, LobbyTrigger.SUDDEN_DEATH): LobbyStatus.CLOSED,
    (LobbyStatus.ACTIVE, LobbyTrigger.WINDOW_END): LobbyStatus.CLOSED,
    (LobbyStatus.ACTIVE, LobbyTrigger.SUDDEN_DEATH): LobbyStatus.CLOSED,
}
PROMOTIONS: dict[LobbyTrigger, PromotionReason] = {
    LobbyTrigger.FILLED: PromotionReason.CAPACITY,
    LobbyTrigger.FILL_TIMEOUT: PromotionReason.TIMEOUT,
    LobbyTrigger.PUSHED: PromotionReason.EXTERNAL_PUSH,
}


def transition(
    lobby: Lobby, trigger: LobbyTrigger, now: datetime, *, terminated_by: str | None = None
) -> Lobby:
    """``lobby`` after ``trigger`` at ``now``: a promotion sets ``started_at`` and ``promotion_reason``, a
    close ``closed_at``; a sudden-death close records the trigger's label (``terminated_by``, required).
    Raises ValueError on a move :data:`TRANSITIONS` lacks."""
    status = TRANSITIONS.get((lobby.status, trigger))
    if status is None:
        raise ValueError(f"a {lobby.status.value} lobby has no {trigger.value} transition")
    if (trigger is LobbyTrigger.SUDDEN_DEATH) != (terminated_by is not None):
        raise ValueError("terminated_by is the label of the sudden-death trigger, and only for it")
    if status is LobbyStatus.ACTIVE:
        return attrs.evolve(lobby, status=status, started_at=now, promotion_reason=PROMOTIONS[trigger])
    return attrs.evolve(
        lobby, status=status, closed_at=now, terminated_by=terminated_by or lobby.terminated_by
    )
