"""Lobby commands (docs/lobbies.md; rules: ``livecore.lobbies.rules``): a start's seat on a lobby event, the
studio's push, the promotion at ``fill_by``, closing with the window, and sudden death.

Every step is one transaction, and a lobby's seat count and status change together with its seats. Two
starts never take one seat twice: a start reads its segment's oldest forming lobby holding the segment's
matchmaking until it commits (the SQL store runs starts beside each other otherwise), and a lobby is
promoted or closed once (the sweeps and pushes hold their game alone). A player's second seat in one window
is refused by the store's unique key.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

import attrs

from livecore.clock import format_ts
from livecore.commands import Runtime, emit
from livecore.errors import IDEMPOTENCY_CONFLICT, NOT_FOUND, LivecoreError, invalid_request
from livecore.games import Game
from livecore.live_events.attempts import Attempt, AttemptStatus, effective_status
from livecore.live_events.boards import Board, BoardStatus
from livecore.live_events.commands.attempts import AttemptsTx, expire
from livecore.live_events.commands.boards import finalize_board
from livecore.live_events.commands.steps import Held, Room
from livecore.live_events.commands.windows import current_window
from livecore.live_events.errors import EVENT_NOT_OPEN, LOBBY_FORMING
from livecore.live_events.rules import Window, canonical, event_settings
from livecore.live_events.settings import EventSettings
from livecore.lobbies.errors import LOBBY_NOT_FOUND
from livecore.lobbies.forming import LobbyForming
from livecore.lobbies.rules import (
    Lobby,
    LobbyStatus,
    LobbyTrigger,
    Seat,
    SeatSource,
    bot_seats,
    check_not_seated,
    check_push,
    fired_trigger,
    new_lobby,
    pushed_lobby,
    seat_player,
    transition,
)
from livecore.lobbies.settings import (
    LOBBY_SETTINGS,
    SUDDEN_DEATH_SETTINGS,
    LobbySettings,
    Resolution,
    SuddenDeath,
)
from livecore.lobbies.store import HasLobbies
from livecore.lobbies.webhooks import (
    LobbyBotFilled,
    LobbyClosed,
    LobbyCreated,
    LobbyFillTimeout,
    LobbyPlayerJoined,
    LobbyStarted,
    SessionFrozen,
    SessionTerminated,
)
from livecore.players.commands import find_player, first_contact, load_game
from livecore.players.identity import DEFAULT_POOL
from livecore.players.rules import Player
from livecore.scope import SYSTEM, Environment, Scope

FILL_BATCH = 100  # lobbies read at once by the fill_by sweep; each is then promoted in its own step


class LobbiesTx(AttemptsTx, HasLobbies, Protocol):
    """The ports these commands use."""


def _system_scope(game: Game, env: Environment) -> Scope:
    return Scope(studio_id=game.studio_id, game_id=game.id, env=env, actor=SYSTEM)


def lobby_settings(event: EventSettings) -> LobbySettings:
    lobby = event.of(LOBBY_SETTINGS)
    if lobby is None:
        raise invalid_request(f"{event.key!r} is not a lobby event.", {"eventKey": "not a lobby event"})
    return lobby


def get_lobby(tx: HasLobbies, scope: Scope, lobby_id: str) -> Lobby:
    """The lobby of the scope's game and environment; 404 ``lobby_not_found`` otherwise."""
    lobby = tx.lobbies.get(scope.game_id, lobby_id)
    if lobby is None or lobby.env is not scope.env:
        raise LivecoreError(LOBBY_NOT_FOUND, "Lobby not found.", {"lobbyId": lobby_id})
    return lobby


def _open(tx: LobbiesTx, rt: Runtime, scope: Scope, window: Window, lobby: Lobby) -> Lobby:
    """Record a new lobby and its own board (``lobby.created``)."""
    tx.lobbies.insert(lobby)
    tx.boards.insert(
        Board(
            id=lobby.board_id,
            game_id=window.game_id,
            env=window.env,
            event_key=window.event_key,
            event_id=window.event_id,
            window_id=window.id,
            order=window.settings.order,
            closes_at=window.ends_at,
            segment_values=lobby.segment_values,
            lobby_id=lobby.id,
        )
    )
    emit(tx, rt, scope, LobbyCreated.of(lobby))
    return lobby


def _seat(tx: LobbiesTx, rt: Runtime, scope: Scope, lobby: Lobby, seat: Seat) -> tuple[Lobby, bool]:
    """Take a player's seat (``lobby.player_joined``); also whether it was the last free one."""
    tx.lobbies.add_seat(seat)
    lobby, full = seat_player(lobby, seat)
    emit(tx, rt, scope, LobbyPlayerJoined.of(lobby, seat))
    return lobby, full


def _fill_with_bots(
    tx: LobbiesTx, rt: Runtime, scope: Scope, game: Game, lobby: Lobby, settings: LobbySettings
) -> Lobby:
    """Bots take the empty seats (``lobby.bot_filled``, once; nothing when no seat is free)."""
    bots = bot_seats(lobby, settings, rt.clock.now(), rt.rng, DEFAULT_POOL)
    for bot in bots:
        tx.lobbies.add_seat(bot)
        lobby, _ = seat_player(lobby, bot)
    if bots:
        emit(tx, rt, scope, LobbyBotFilled.of(lobby, tuple(bots)))
    return lobby


def _promote(tx: LobbiesTx, rt: Runtime, scope: Scope, lobby: Lobby, trigger: LobbyTrigger) -> Lobby:
    """The lobby becomes active (``lobby.started``; on a timeout also ``lobby.fill_timeout``)."""
    lobby = transition(lobby, trigger, rt.clock.now())
    tx.lobbies.update(lobby)
    emit(tx, rt, scope, LobbyStarted.of(lobby))
    if trigger is LobbyTrigger.FILL_TIMEOUT:
        emit(tx, rt, scope, LobbyFillTimeout.of(lobby))
    return lobby


def seat_for_start(
    tx: LobbiesTx, rt: Runtime, scope: Scope, window: Window, player: Player, values: dict[str, str | None]
) -> Lobby:
    """The lobby a start on a lobby event plays in: the player's own in this window, else a seat taken
    now in the oldest forming lobby of its segment with a free seat, else in a new one. The seat that
    fills a lobby starts it (``capacity``)."""
    seat = tx.lobbies.seat_in_window(window.id, player.id)
    if seat is not None:
        found = tx.lobbies.get(window.game_id, seat.lobby_id)
        assert found is not None  # a seat's lobby is never deleted
        return found
    settings = lobby_settings(window.settings)
    now = rt.clock.now()
    lobby = tx.lobbies.oldest_forming(window.id, canonical(values))
    if lobby is None:
        lobby = _open(tx, rt, scope, window, new_lobby(window, settings, values, now, rt.rng))
    seat = Seat(
        lobby.id,
        window.id,
        player.id,
        now,
        SeatSource.MATCHMAKING,
        player.external_id,
        position=lobby.participant_count,
    )
    lobby, full = _seat(tx, rt, scope, lobby, seat)
    if full:
        return _promote(tx, rt, scope, lobby, LobbyTrigger.FILLED)
    tx.lobbies.update(lobby)
    return lobby


def seat_start(
    tx: LobbiesTx, rt: Runtime, scope: Scope, window: Window, player: Player, values: dict[str, str | None]
) -> Room | Held[Lobby] | None:
    """A start on a lobby event, before anything is charged (live events' start step): the player's seat
    (:func:`seat_for_start`). While its lobby forms the start is held (202 ``lobby_forming``); a lobby
    whose session ended refuses it (409 ``event_not_open``, ``details.lobbyId``); an active one plays it
    on the lobby's board. None on an event without lobbies."""
    if window.settings.of(LOBBY_SETTINGS) is None:
        return None
    lobby = seat_for_start(tx, rt, scope, window, player, values)
    if lobby.status is LobbyStatus.FORMING:
        return Held(forming(lobby), lobby, LobbyForming.of(lobby))
    if lobby.status is LobbyStatus.CLOSED or lobby.terminated_by is not None:
        raise LivecoreError(
            EVENT_NOT_OPEN,
            "Your lobby's session of this window has ended.",
            {"eventKey": window.event_key, "lobbyId": lobby.id},
        )
    return Room(lobby.id, lobby.board_id)


def forming(lobby: Lobby) -> LivecoreError:
    """What a start answers while its lobby forms: 202 ``lobby_forming`` (nothing is charged)."""
    return LivecoreError(
        LOBBY_FORMING,
        "The lobby is still forming; start again once it is active.",
        {
            "lobbyId": lobby.id,
            "participantCount": lobby.participant_count,
            "capacity": lobby.capacity,
            "fillBy": format_ts(lobby.fill_by) if lobby.fill_by is not None else None,
        },
    )


# --- the studio's push ---------------------------------------------------------------------------------


@attrs.frozen
class Pushed:
    lobby: Lobby
    created: bool  # False: the same key answered with the lobby it made before


def _pushed_players(tx: LobbiesTx, lobby: Lobby) -> list[str]:
    """The external ids a push seated, sorted: its seats share one ``joined_at``, so the store lists them
    by player id, not in the request's order."""
    return sorted(s.external_player_id or "" for s in tx.lobbies.seats(lobby.id) if not s.is_bot)


def push(
    tx: LobbiesTx,
    rt: Runtime,
    scope: Scope,
    game_id: str,
    event_key: str,
    key: str,
    external_player_ids: Sequence[str],
    *,
    capacity: int | None = None,
    fill_bots: bool = False,
    metadata: dict[str, Any] | None = None,
) -> Pushed:
    """The studio's server seats these players in a new lobby of the event's open window, active at once
    (``external_push``), players created on first contact. Idempotent on ``key`` per game and
    environment (docs/lobbies.md#server-push)."""
    if game_id != scope.game_id:
        raise LivecoreError(NOT_FOUND, "Game not found.", {"gameId": game_id})
    game = load_game(tx, scope)
    event = event_settings(game, event_key)
    settings = lobby_settings(event)
    seats = settings.capacity if capacity is None else capacity
    # A push the route refuses is refused whatever its key: a replay answers only a well-formed request.
    check_push(external_player_ids, seats)
    earlier = tx.lobbies.by_push_key(game.id, scope.env, key)
    if earlier is not None:
        if earlier.event_key != event_key or _pushed_players(tx, earlier) != sorted(external_player_ids):
            raise LivecoreError(
                IDEMPOTENCY_CONFLICT,
                "This key made a lobby of other players.",
                {"key": key, "lobbyId": earlier.id},
            )
        return Pushed(earlier, created=False)
    window = current_window(tx, rt, scope, game, event)
    if window is None:
        raise LivecoreError(
            EVENT_NOT_OPEN, f"No window of {event_key!r} is open now.", {"eventKey": event_key}
        )
    players = [
        find_player(tx, scope, external_id) or first_contact(tx, rt, scope, external_id)
        for external_id in external_player_ids
    ]
    check_not_seated([p.external_id for p in players if tx.lobbies.seat_in_window(window.id, p.id)])
    now = rt.clock.now()
    lobby = _open(tx, rt, scope, window, pushed_lobby(window, seats, key, metadata, now, rt.rng))
    for player in players:
        seat = Seat(
            lobby.id,
            window.id,
            player.id,
            now,
            SeatSource.SERVER_PUSH,
            player.external_id,
            position=lobby.participant_count,
        )
        lobby, _ = _seat(tx, rt, scope, lobby, seat)
    if fill_bots:
        lobby = _fill_with_bots(tx, rt, scope, game, lobby, settings)
    return Pushed(_promote(tx, rt, scope, lobby, LobbyTrigger.PUSHED), created=True)


# --- scheduled work -----------------------------------------------------------------------------------


def fill_lobby(tx: LobbiesTx, rt: Runtime, game_id: str, lobby_id: str) -> bool:
    """A forming lobby whose ``fill_by`` has come starts (``timeout``), bots first taking the empty seats
    when its event says so; False when it is not due (promoted or closed already)."""
    lobby = tx.lobbies.get(game_id, lobby_id)
    now = rt.clock.now()
    if (
        lobby is None
        or lobby.status is not LobbyStatus.FORMING
        or lobby.fill_by is None
        or now < lobby.fill_by
    ):
        return False
    game = tx.games.get(game_id)
    window = tx.windows.get(game_id, lobby.window_id)
    assert game is not None and window is not None  # games are never deleted; a lobby's window is recorded
    scope = _system_scope(game, lobby.env)
    settings = lobby_settings(window.settings)
    if settings.fill_bots:
        lobby = _fill_with_bots(tx, rt, scope, game, lobby, settings)
    _promote(tx, rt, scope, lobby, LobbyTrigger.FILL_TIMEOUT)
    return True


def lobbies_to_fill(tx: HasLobbies, rt: Runtime, limit: int = FILL_BATCH) -> list[Lobby]:
    return tx.lobbies.due_to_fill(rt.clock.now(), limit)


def next_fill(tx: HasLobbies) -> datetime | None:
    return tx.lobbies.next_fill_by()


def close_lobbies(tx: LobbiesTx, rt: Runtime, scope: Scope, window: Window) -> None:
    """The window ends: each of its lobbies still forming or active closes (``lobby.closed``)."""
    for lobby in tx.lobbies.of_window(window.id):
        closed = transition(lobby, LobbyTrigger.WINDOW_END, rt.clock.now())
        tx.lobbies.update(closed)
        emit(tx, rt, scope, LobbyClosed.of(closed))


# --- sudden death -------------------------------------------------------------------------------------


def sudden_death(tx: LobbiesTx, rt: Runtime, scope: Scope, lobby_id: str, event: EventSettings) -> None:
    """After a write to an attempt of the lobby: the first of the event's triggers that holds ends the
    lobby's session, once (``session.terminated``). ``freeze``: each attempt still in progress takes no
    more progress (``session.frozen`` each), its score standing. ``close``: the lobby closes now, as at
    its window's end: its attempts in progress expire and its board is finalized."""
    lobby = tx.lobbies.get(scope.game_id, lobby_id)
    if not event.of(SUDDEN_DEATH_SETTINGS) or lobby is None or lobby.status is not LobbyStatus.ACTIVE:
        return
    if lobby.terminated_by is not None:
        return
    attempts = tx.attempts.of_room(lobby.id)
    now = rt.clock.now()
    scores = [a.score for a in attempts if a.score is not None]
    completed = sum(1 for a in attempts if a.status is AttemptStatus.COMPLETED)
    trigger = fired_trigger(event.of(SUDDEN_DEATH_SETTINGS), scores, completed, event.order)
    if trigger is None:
        return
    running = [
        a
        for a in attempts
        if a.status is AttemptStatus.IN_PROGRESS and effective_status(a, now) is AttemptStatus.IN_PROGRESS
    ]
    if trigger.resolution is Resolution.FREEZE:
        _freeze(tx, rt, scope, attrs.evolve(lobby, terminated_by=trigger.label), trigger, running)
    else:
        _close_early(tx, rt, scope, lobby, trigger, running, event)


def after_progress(
    tx: LobbiesTx, rt: Runtime, scope: Scope, event: EventSettings, attempt: Attempt
) -> Attempt:
    """After a progress write to an attempt in a lobby (live events' progress step): sudden death
    (:func:`sudden_death`); the attempt as it left it (frozen or expired)."""
    if attempt.lobby_id is None:
        return attempt
    sudden_death(tx, rt, scope, attempt.lobby_id, event)
    return tx.attempts.get(scope.game_id, attempt.id) or attempt


def _freeze(
    tx: LobbiesTx, rt: Runtime, scope: Scope, lobby: Lobby, trigger: SuddenDeath, running: list[Any]
) -> None:
    now = rt.clock.now()
    tx.lobbies.update(lobby)
    emit(tx, rt, scope, SessionTerminated.of(lobby, trigger, len(running), now))
    for attempt in running:
        frozen = attrs.evolve(attempt, frozen_at=now)
        tx.attempts.update(frozen)
        emit(tx, rt, scope, SessionFrozen.of(frozen, lobby, now))


def _close_early(
    tx: LobbiesTx,
    rt: Runtime,
    scope: Scope,
    lobby: Lobby,
    trigger: SuddenDeath,
    running: list[Any],
    event: EventSettings,
) -> None:
    now = rt.clock.now()
    closed = transition(lobby, LobbyTrigger.SUDDEN_DEATH, now, terminated_by=trigger.label)
    tx.lobbies.update(closed)
    emit(tx, rt, scope, SessionTerminated.of(closed, trigger, 0, now))
    for attempt in running:
        expire(tx, rt, scope, attempt)
    board = tx.boards.get(scope.game_id, closed.board_id)
    if board is not None and board.status is BoardStatus.OPEN:
        finalize_board(tx, rt, scope, board, event)
    emit(tx, rt, scope, LobbyClosed.of(closed))


# --- reads --------------------------------------------------------------------------------------------


@attrs.frozen
class LobbyRead:
    """A lobby with its seats and the players seated (for their identities at read time)."""

    lobby: Lobby
    seats: list[Seat]
    players: dict[str, Player]


def read_lobby(tx: LobbiesTx, scope: Scope, lobby_id: str, game_id: str | None = None) -> LobbyRead:
    """A lobby of the scope's game and environment (``game_id``: the server route's, which must be the
    key's own game); 404 ``lobby_not_found`` otherwise."""
    if game_id is not None and game_id != scope.game_id:
        raise LivecoreError(NOT_FOUND, "Game not found.", {"gameId": game_id})
    lobby = get_lobby(tx, scope, lobby_id)
    return lobby_read(tx, lobby)


def lobby_read(tx: LobbiesTx, lobby: Lobby) -> LobbyRead:
    seats = tx.lobbies.seats(lobby.id)
    players = {}
    for seat in seats:
        if not seat.is_bot:
            player = tx.players.by_id(seat.seat_id)
            assert player is not None  # a seat's player row is never deleted (erasure anonymizes it)
            players[seat.seat_id] = player
    return LobbyRead(lobby, seats, players)


__all__ = [
    "LobbiesTx",
    "LobbyRead",
    "Pushed",
    "after_progress",
    "close_lobbies",
    "fill_lobby",
    "forming",
    "get_lobby",
    "lobbies_to_fill",
    "lobby_read",
    "lobby_settings",
    "next_fill",
    "push",
    "read_lobby",
    "seat_for_start",
    "seat_start",
    "sudden_death",
]
