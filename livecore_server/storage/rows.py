"""Row <-> record conversions shared by the SQLite and PostgreSQL stores: both keep the same row layout
(timestamps as integer milliseconds, JSON as text), so a record is read and written one way.

Each record is read through its ``*_COLUMNS`` declaration (:class:`~livecore_server.storage.columns.Columns`):
the builder's parameters name the columns, so a read's SELECT list and its conversion are one piece of
code. The ``*_row`` functions give the values to write, in the order of the declaration's ``names``."""

from __future__ import annotations

from datetime import date
from typing import Any

import orjson

from livecore.clock import from_millis, to_millis
from livecore.crates.rules import CrateEntry
from livecore.economy.rules import Holding, LedgerEntry, Reason
from livecore.events import DomainEvent
from livecore.friends.presence import Presence
from livecore.friends.rules import FriendRequest
from livecore.games import Entry, EventSettings, Formation, LeaderboardSettings, Order, ResourceType
from livecore.gifts.rules import Gift, GiftStatus
from livecore.grants.rules import AckedBy, Grant, GrantEntry, GrantKind, GrantStatus, entry_payload
from livecore.guilds.rules import (
    By,
    DisbandReason,
    Donation,
    Guild,
    HelpRequest,
    HelpStatus,
    JoinRequest,
    JoinType,
    JoinVia,
    LeftReason,
    RequestStatus,
    Role,
    Stint,
)
from livecore.idempotency import StoredResponse
from livecore.leaderboards.rules import BoardPeriod, Division, PeriodStatus, SharedEntry
from livecore.live_events.attempts import Attempt, AttemptStatus
from livecore.live_events.boards import Board, BoardEntry, BoardStatus
from livecore.live_events.rules import Window, WindowStatus
from livecore.lobbies.rules import Lobby, LobbyStatus, PromotionReason, Seat, SeatSource
from livecore.names import fold
from livecore.players.identity import Identity
from livecore.players.platforms import ClientBuild
from livecore.players.rules import Activity, Ban, DebugFlag, Lifecycle, Player, PlayerCard
from livecore.purchases.rules import Purchase, ValidationStatus
from livecore.scope import Environment
from livecore.teams.rules import LeaveReason, PartnerInvite, Team, TeamMember
from livecore_server.storage.columns import Columns
from livecore_server.storage.records import settings_converter


def ms(value: Any) -> int | None:
    return None if value is None else to_millis(value)


def dt(ms: int | None) -> Any:
    return None if ms is None else from_millis(ms)


def player_row(p: Player) -> tuple[Any, ...]:
    a = p.activity
    return (
        p.id,
        p.game_id,
        p.env.value,
        p.external_id,
        to_millis(p.first_seen_at),
        to_millis(p.last_seen_at),
        p.anonymized.name,
        p.anonymized.avatar,
        p.display.name if p.display else None,
        p.display.avatar if p.display else None,
        p.resolved_country,
        p.secret_hash,
        p.secret_prefix,
        ms(p.registered_at),
        ms(p.secret_rotated_at),
        p.ban.reason if p.ban else None,
        ms(p.ban.banned_at) if p.ban else None,
        a.sessions,
        ms(a.last_active_at),
        a.streak,
        a.best_streak,
        a.streak_day.isoformat() if a.streak_day else None,
        orjson.dumps(p.context).decode(),
        p.friend_code,
        ms(p.presence.last_active_at),
        p.presence.status,
        # Retired rows are not searchable.
        fold((p.display or p.anonymized).name) if p.lifecycle is Lifecycle.ACTIVE else None,
        p.debug.reason if p.debug else None,
        ms(p.debug.flagged_at) if p.debug else None,
        p.lifecycle.value,
        p.merged_into,
        p.build.platform,
        p.build.app_version,
        p.country_override,
    )


def _player(
    id: Any,
    game_id: Any,
    env: Any,
    external_id: Any,
    first_seen_at: Any,
    last_seen_at: Any,
    anon_name: Any,
    anon_avatar: Any,
    display_name: Any,
    display_avatar: Any,
    country: Any,
    secret_hash: Any,
    secret_prefix: Any,
    registered_at: Any,
    secret_rotated_at: Any,
    ban_reason: Any,
    banned_at: Any,
    sessions: Any,
    last_active_at: Any,
    streak: Any,
    best_streak: Any,
    streak_day: Any,
    context: Any,
    friend_code: Any,
    presence_at: Any,
    presence_status: Any,
    search_name: Any,
    debug_reason: Any,
    debug_at: Any,
    lifecycle: Any,
    merged_into: Any,
    platform: Any,
    app_version: Any,
    country_override: Any,
) -> Player:
    return Player(
        id=id,
        game_id=game_id,
        env=Environment(env),
        external_id=external_id,
        first_seen_at=from_millis(first_seen_at),
        last_seen_at=from_millis(last_seen_at),
        anonymized=Identity(name=anon_name, avatar=anon_avatar),
        display=Identity(name=display_name, avatar=display_avatar) if display_name is not None else None,
        resolved_country=country,
        secret_hash=secret_hash,
        secret_prefix=secret_prefix,
        registered_at=dt(registered_at),
        secret_rotated_at=dt(secret_rotated_at),
        ban=Ban(reason=ban_reason, banned_at=from_millis(banned_at)) if banned_at is not None else None,
        activity=_activity(sessions, last_active_at, streak, best_streak, streak_day),
        context=orjson.loads(context),
        friend_code=friend_code,
        presence=Presence(last_active_at=dt(presence_at), status=presence_status),
        # search_name is derived from the identity: nothing to read back
        debug=DebugFlag(reason=debug_reason, flagged_at=from_millis(debug_at))
        if debug_at is not None
        else None,
        lifecycle=Lifecycle(lifecycle),
        merged_into=merged_into,
        build=ClientBuild(platform=platform, app_version=app_version),
        country_override=country_override,
    )


PLAYER_COLUMNS = Columns(_player)


def _activity(sessions: Any, last_active_at: Any, streak: Any, best_streak: Any, streak_day: Any) -> Activity:
    return Activity(
        sessions=sessions,
        last_active_at=dt(last_active_at),
        streak=streak,
        best_streak=best_streak,
        streak_day=date.fromisoformat(streak_day) if streak_day else None,
    )


ACTIVITY_COLUMNS = Columns(_activity)


#: The country a player is shown with (``Player.country``), of the players row aliased ``p``: an
#: operator's override, else the resolved country.
SHOWN_COUNTRY = "COALESCE(p.country_override, p.country)"


# What a list row shows of a player (``PlayerCard``), of the players row aliased ``p``: the display
# identity when set, else the anonymized one, as ``PlayerCard.of`` picks it.
def _card(
    id: Any, external_id: Any, name: Any, avatar: Any, country: Any, presence_at: Any, presence_status: Any
) -> PlayerCard:
    return PlayerCard(
        id, external_id, Identity(name, avatar), country, Presence(dt(presence_at), presence_status)
    )


CARD_COLUMNS = Columns(
    _card,
    "p",
    name="COALESCE(p.display_name, p.anon_name)",
    avatar="CASE WHEN p.display_name IS NULL THEN p.anon_avatar ELSE p.display_avatar END",
    country=SHOWN_COUNTRY,
)


def pair_key(a_id: str, b_id: str) -> str:
    return f"{min(a_id, b_id)}:{max(a_id, b_id)}"


def _request(id: Any, game_id: Any, from_player_id: Any, to_player_id: Any, created_at: Any) -> FriendRequest:
    return FriendRequest(
        id=id,
        game_id=game_id,
        from_player_id=from_player_id,
        to_player_id=to_player_id,
        created_at=from_millis(created_at),
    )


REQUEST_COLUMNS = Columns(_request, "r")


def _ledger_entry(
    id: Any,
    player_id: Any,
    game_id: Any,
    resource_key: Any,
    resource_type: Any,
    delta: Any,
    balance_after: Any,
    reason: Any,
    note: Any,
    source_ref_id: Any,
    actor: Any,
    created_at: Any,
) -> LedgerEntry:
    return LedgerEntry(
        id=id,
        player_id=player_id,
        game_id=game_id,
        resource_key=resource_key,
        resource_type=ResourceType(resource_type),
        delta=delta,
        balance_after=balance_after,
        reason=Reason(reason),
        note=note,
        source_ref_id=source_ref_id,
        actor=orjson.loads(actor),
        created_at=from_millis(created_at),
    )


LEDGER_COLUMNS = Columns(_ledger_entry)


def _holding(resource_key: Any, amount: Any, parameters: Any) -> Holding:
    # A key nobody holds comes back with NULLs where a read joins the holdings (LEFT JOIN): it holds nothing.
    return (
        Holding(key=resource_key)
        if amount is None
        else Holding(resource_key, amount, orjson.loads(parameters))
    )


HOLDING_COLUMNS = Columns(_holding)


def _stored_response(
    scope: Any, key: Any, fingerprint: Any, status: Any, body: Any, created_at: Any
) -> StoredResponse:
    return StoredResponse(
        scope=scope,
        key=key,
        fingerprint=fingerprint,
        status=status,
        body=bytes(body),
        created_at=from_millis(created_at),
    )


STORED_RESPONSE_COLUMNS = Columns(_stored_response)


def grant_row(g: Grant) -> tuple[Any, ...]:
    return (
        g.id,
        g.game_id,
        g.player_id,
        g.external_player_id,
        g.kind.value,
        g.status.value,
        orjson.dumps([entry_payload(e) for e in g.entries]).decode(),
        g.source_kind,
        g.source_ref_id,
        orjson.dumps(g.metadata).decode(),
        to_millis(g.created_at),
        ms(g.expires_at),
        ms(g.claimed_at),
        g.acked_by.value if g.acked_by else None,
    )


def grant_entry_of(e: dict[str, Any]) -> GrantEntry:
    if e["type"] == "crate":
        return CrateEntry(key=e["key"], amount=e["amount"])
    return Entry(
        type=ResourceType(e["type"]), key=e["key"], amount=e["amount"], parameters=e.get("parameters")
    )


def _grant(
    id: Any,
    game_id: Any,
    player_id: Any,
    external_player_id: Any,
    kind: Any,
    status: Any,
    entries: Any,
    source_kind: Any,
    source_ref_id: Any,
    metadata: Any,
    created_at: Any,
    expires_at: Any,
    claimed_at: Any,
    acked_by: Any,
) -> Grant:
    return Grant(
        id=id,
        game_id=game_id,
        player_id=player_id,
        external_player_id=external_player_id,
        kind=GrantKind(kind),
        status=GrantStatus(status),
        entries=tuple(grant_entry_of(e) for e in orjson.loads(entries)),
        source_kind=source_kind,
        source_ref_id=source_ref_id,
        metadata=orjson.loads(metadata),
        created_at=from_millis(created_at),
        expires_at=dt(expires_at),
        claimed_at=dt(claimed_at),
        acked_by=AckedBy(acked_by) if acked_by else None,
    )


GRANT_COLUMNS = Columns(_grant)


# Every gift read names both players' external ids (gift views and webhooks carry them).
GIFT_FROM = "FROM gifts g JOIN players s ON s.id = g.sender_id JOIN players r ON r.id = g.recipient_id"


def _gift(
    id: Any,
    grant_id: Any,
    game_id: Any,
    sender_id: Any,
    sender_external_id: Any,
    recipient_id: Any,
    recipient_external_id: Any,
    type: Any,
    resource_key: Any,
    amount: Any,
    message: Any,
    status: Any,
    sent_at: Any,
    expires_at: Any,
    claimed_at: Any,
    deducted: Any,
    idempotency_key: Any,
) -> Gift:
    return Gift(
        id=id,
        grant_id=grant_id,
        game_id=game_id,
        sender_id=sender_id,
        sender_external_id=sender_external_id,
        recipient_id=recipient_id,
        recipient_external_id=recipient_external_id,
        type=ResourceType(type),
        resource_key=resource_key,
        amount=amount,
        message=message,
        status=GiftStatus(status),
        sent_at=from_millis(sent_at),
        expires_at=dt(expires_at),
        claimed_at=dt(claimed_at),
        deducted_from_sender=bool(deducted),
        idempotency_key=idempotency_key,
    )


GIFT_COLUMNS = Columns(_gift, "g", sender_external_id="s.external_id", recipient_external_id="r.external_id")


PURCHASE_FROM = "FROM purchases u JOIN players p ON p.id = u.player_id"


def _purchase(
    id: Any,
    game_id: Any,
    env: Any,
    player_id: Any,
    external_player_id: Any,
    transaction_id: Any,
    store: Any,
    product_id: Any,
    product_type: Any,
    amount_minor: Any,
    currency: Any,
    normalized_amount_minor: Any,
    fx_rate: Any,
    validation_status: Any,
    purchased_at: Any,
    tracked_at: Any,
    metadata: Any,
) -> Purchase:
    return Purchase(
        id=id,
        game_id=game_id,
        env=Environment(env),
        player_id=player_id,
        external_player_id=external_player_id,
        transaction_id=transaction_id,
        store=store,
        product_id=product_id,
        product_type=product_type,
        amount_minor=amount_minor,
        currency=currency,
        normalized_amount_minor=normalized_amount_minor,
        fx_rate=fx_rate,
        validation_status=ValidationStatus(validation_status),
        purchased_at=from_millis(purchased_at),
        tracked_at=from_millis(tracked_at),
        metadata=orjson.loads(metadata),
    )


PURCHASE_COLUMNS = Columns(_purchase, "u", external_player_id="p.external_id")


def _outbox_event(
    id: Any, kind: Any, studio_id: Any, game_id: Any, env: Any, occurred_at: Any, data: Any, debounce_key: Any
) -> DomainEvent:
    return DomainEvent(
        id=id,
        kind=kind,
        studio_id=studio_id,
        game_id=game_id,
        env=Environment(env),
        occurred_at=from_millis(occurred_at),
        payload=orjson.loads(data),
        debounce_key=debounce_key,
    )


OUTBOX_COLUMNS = Columns(_outbox_event)


def window_row(w: Window) -> tuple[Any, ...]:
    return (
        w.id,
        w.game_id,
        w.env.value,
        w.event_key,
        w.event_id,
        to_millis(w.starts_at),
        to_millis(w.ends_at),
        w.status.value,
        orjson.dumps(settings_converter.unstructure(w.settings)).decode(),
        to_millis(w.opened_at),
        ms(w.closed_at),
    )


def _window(
    id: Any,
    game_id: Any,
    env: Any,
    event_key: Any,
    event_id: Any,
    starts_at: Any,
    ends_at: Any,
    status: Any,
    settings: Any,
    opened_at: Any,
    closed_at: Any,
) -> Window:
    return Window(
        id=id,
        game_id=game_id,
        env=Environment(env),
        event_key=event_key,
        event_id=event_id,
        starts_at=from_millis(starts_at),
        ends_at=from_millis(ends_at),
        status=WindowStatus(status),
        settings=settings_converter.structure(orjson.loads(settings), EventSettings),
        opened_at=from_millis(opened_at),
        closed_at=dt(closed_at),
    )


WINDOW_COLUMNS = Columns(_window)


def board_row(b: Board) -> tuple[Any, ...]:
    return (
        b.id,
        b.game_id,
        b.env.value,
        b.event_key,
        b.event_id,
        b.window_id,
        b.order.value,
        to_millis(b.closes_at),
        orjson.dumps(b.segment_values).decode(),
        b.status.value,
        b.version,
        b.lobby_id,
        ms(b.finalized_at),
    )


def _board(
    id: Any,
    game_id: Any,
    env: Any,
    event_key: Any,
    event_id: Any,
    window_id: Any,
    sort_order: Any,
    closes_at: Any,
    segment_values: Any,
    status: Any,
    version: Any,
    lobby_id: Any,
    finalized_at: Any,
) -> Board:
    return Board(
        id=id,
        game_id=game_id,
        env=Environment(env),
        event_key=event_key,
        event_id=event_id,
        window_id=window_id,
        order=Order(sort_order),
        closes_at=from_millis(closes_at),
        segment_values=orjson.loads(segment_values),
        status=BoardStatus(status),
        version=version,
        lobby_id=lobby_id,
        finalized_at=dt(finalized_at),
    )


BOARD_COLUMNS = Columns(_board)


def attempt_row(a: Attempt) -> tuple[Any, ...]:
    return (
        a.id,
        a.game_id,
        a.env.value,
        a.player_id,
        a.external_player_id,
        a.event_key,
        a.event_id,
        a.window_id,
        a.board_id,
        a.status.value,
        to_millis(a.started_at),
        to_millis(a.ends_at),
        a.attempt_count,
        orjson.dumps(a.segment_values).decode(),
        orjson.dumps(a.metrics).decode(),
        a.score,
        ms(a.score_at),
        ms(a.completed_at),
        orjson.dumps(a.milestones).decode(),
        a.flagged,  # a bool: 1/0 on SQLite, a boolean on PostgreSQL
        a.lobby_id,
        ms(a.frozen_at),
    )


def _attempt(
    id: Any,
    game_id: Any,
    env: Any,
    player_id: Any,
    external_player_id: Any,
    event_key: Any,
    event_id: Any,
    window_id: Any,
    board_id: Any,
    status: Any,
    started_at: Any,
    ends_at: Any,
    attempt_count: Any,
    segment_values: Any,
    metrics: Any,
    score: Any,
    score_at: Any,
    completed_at: Any,
    milestones: Any,
    flagged: Any,
    lobby_id: Any,
    frozen_at: Any,
) -> Attempt:
    return Attempt(
        id=id,
        game_id=game_id,
        env=Environment(env),
        player_id=player_id,
        external_player_id=external_player_id,
        event_key=event_key,
        event_id=event_id,
        window_id=window_id,
        board_id=board_id,
        status=AttemptStatus(status),
        started_at=from_millis(started_at),
        ends_at=from_millis(ends_at),
        attempt_count=attempt_count,
        segment_values=orjson.loads(segment_values),
        metrics=orjson.loads(metrics),
        score=score,
        score_at=dt(score_at),
        completed_at=dt(completed_at),
        milestones=tuple(orjson.loads(milestones)),
        flagged=bool(flagged),
        lobby_id=lobby_id,
        frozen_at=dt(frozen_at),
    )


ATTEMPT_COLUMNS = Columns(_attempt)


def _entry(board_id: Any, player_id: Any, score: Any, reached_at: Any, attempt_id: Any) -> BoardEntry:
    return BoardEntry(
        board_id=board_id,
        player_id=player_id,
        score=score,
        reached_at=from_millis(reached_at),
        attempt_id=attempt_id,
    )


ENTRY_COLUMNS = Columns(_entry)


def period_row(p: BoardPeriod) -> tuple[Any, ...]:
    return (
        p.id,
        p.game_id,
        p.env.value,
        p.board_key,
        ms(p.starts_at),
        ms(p.ends_at),
        p.status.value,
        orjson.dumps(settings_converter.unstructure(p.settings)).decode(),
        p.finalized_through,
        ms(p.finalized_at),
    )


def _period(
    id: Any,
    game_id: Any,
    env: Any,
    board_key: Any,
    starts_at: Any,
    ends_at: Any,
    status: Any,
    settings: Any,
    finalized_through: Any,
    finalized_at: Any,
) -> BoardPeriod:
    return BoardPeriod(
        id=id,
        game_id=game_id,
        env=Environment(env),
        board_key=board_key,
        starts_at=dt(starts_at),
        ends_at=dt(ends_at),
        status=PeriodStatus(status),
        settings=settings_converter.structure(orjson.loads(settings), LeaderboardSettings),
        finalized_through=finalized_through,
        finalized_at=dt(finalized_at),
    )


PERIOD_COLUMNS = Columns(_period)


def _division(id: Any, period_id: Any, tier: Any, number: Any, members: Any) -> Division:
    return Division(id=id, period_id=period_id, tier=tier, number=number, members=members)


DIVISION_COLUMNS = Columns(_division)


def _shared_entry(
    period_id: Any, player_id: Any, score: Any, reached_at: Any, division_id: Any
) -> SharedEntry:
    return SharedEntry(
        period_id=period_id,
        player_id=player_id,
        score=score,
        reached_at=from_millis(reached_at),
        division_id=division_id,
    )


SHARED_ENTRY_COLUMNS = Columns(_shared_entry)


def lobby_row(lobby: Lobby) -> tuple[Any, ...]:
    return (
        lobby.id,
        lobby.game_id,
        lobby.env.value,
        lobby.event_key,
        lobby.event_id,
        lobby.window_id,
        lobby.board_id,
        lobby.status.value,
        lobby.capacity,
        orjson.dumps(lobby.segment_values).decode(),
        lobby.segment_key,
        to_millis(lobby.created_at),
        to_millis(lobby.ends_at),
        ms(lobby.fill_by),
        lobby.participant_count,
        lobby.bot_count,
        ms(lobby.started_at),
        ms(lobby.closed_at),
        None if lobby.promotion_reason is None else lobby.promotion_reason.value,
        None if lobby.metadata is None else orjson.dumps(lobby.metadata).decode(),
        lobby.push_key,
        lobby.terminated_by,
    )


def _lobby(
    id: Any,
    game_id: Any,
    env: Any,
    event_key: Any,
    event_id: Any,
    window_id: Any,
    board_id: Any,
    status: Any,
    capacity: Any,
    segment_values: Any,
    segment_key: Any,
    created_at: Any,
    ends_at: Any,
    fill_by: Any,
    participant_count: Any,
    bot_count: Any,
    started_at: Any,
    closed_at: Any,
    promotion_reason: Any,
    metadata: Any,
    push_key: Any,
    terminated_by: Any,
) -> Lobby:
    return Lobby(
        id=id,
        game_id=game_id,
        env=Environment(env),
        event_key=event_key,
        event_id=event_id,
        window_id=window_id,
        board_id=board_id,
        status=LobbyStatus(status),
        capacity=capacity,
        segment_values=orjson.loads(segment_values),
        segment_key=segment_key,
        created_at=from_millis(created_at),
        ends_at=from_millis(ends_at),
        fill_by=dt(fill_by),
        participant_count=participant_count,
        bot_count=bot_count,
        started_at=dt(started_at),
        closed_at=dt(closed_at),
        promotion_reason=None if promotion_reason is None else PromotionReason(promotion_reason),
        metadata=None if metadata is None else orjson.loads(metadata),
        push_key=push_key,
        terminated_by=terminated_by,
    )


LOBBY_COLUMNS = Columns(_lobby)


def seat_row(s: Seat) -> tuple[Any, ...]:
    # A seat's identity is a bot's, drawn from the pool: a name and an avatar (no country).
    identity = s.identity
    return (
        s.lobby_id,
        s.window_id,
        s.seat_id,
        to_millis(s.joined_at),
        s.source.value,
        s.external_player_id,
        None if identity is None else identity.name,
        None if identity is None else identity.avatar,
        s.final_score,
        s.position,
    )


def _seat(
    lobby_id: Any,
    window_id: Any,
    seat_id: Any,
    joined_at: Any,
    source: Any,
    external_player_id: Any,
    identity_name: Any,
    identity_avatar: Any,
    final_score: Any,
    seat_position: Any,
) -> Seat:
    return Seat(
        lobby_id=lobby_id,
        window_id=window_id,
        seat_id=seat_id,
        joined_at=from_millis(joined_at),
        source=SeatSource(source),
        external_player_id=external_player_id,
        identity=None if identity_name is None else Identity(name=identity_name, avatar=identity_avatar),
        final_score=final_score,
        position=seat_position,
    )


SEAT_COLUMNS = Columns(_seat)


def team_row(t: Team) -> tuple[Any, ...]:
    # ``rank_key`` is the score negated: the team board's order (best first) is one ascending index.
    return (
        t.id,
        t.game_id,
        t.env.value,
        t.event_key,
        t.event_id,
        t.window_id,
        t.key,
        t.name,
        t.formation.value,
        t.goal,
        to_millis(t.created_at),
        None if t.attributes is None else orjson.dumps(t.attributes).decode(),
        t.member_count,
        t.score,
        -t.score,
        ms(t.completed_at),
        orjson.dumps(t.milestones).decode(),
        t.final_rank,
        ms(t.finalized_at),
    )


def _team(
    id: Any,
    game_id: Any,
    env: Any,
    event_key: Any,
    event_id: Any,
    window_id: Any,
    key: Any,
    name: Any,
    formation: Any,
    goal: Any,
    created_at: Any,
    attributes: Any,
    member_count: Any,
    score: Any,
    rank_key: Any,
    completed_at: Any,
    milestones: Any,
    final_rank: Any,
    finalized_at: Any,
) -> Team:
    return Team(
        id=id,
        game_id=game_id,
        env=Environment(env),
        event_key=event_key,
        event_id=event_id,
        window_id=window_id,
        key=key,
        name=name,
        formation=Formation(formation),
        goal=goal,
        created_at=from_millis(created_at),
        attributes=None if attributes is None else orjson.loads(attributes),
        member_count=member_count,
        score=score,
        completed_at=dt(completed_at),
        milestones=tuple(orjson.loads(milestones)),
        final_rank=final_rank,
        finalized_at=dt(finalized_at),
    )


TEAM_COLUMNS = Columns(_team)


def team_member_row(m: TeamMember) -> tuple[Any, ...]:
    return (
        m.seat_id,
        m.team_id,
        m.window_id,
        m.player_id,
        m.external_player_id,
        to_millis(m.joined_at),
        m.contribution,
        ms(m.left_at),
        None if m.left_reason is None else m.left_reason.value,
    )


def _team_member(
    seat_id: Any,
    team_id: Any,
    window_id: Any,
    player_id: Any,
    external_player_id: Any,
    joined_at: Any,
    contribution: Any,
    left_at: Any,
    left_reason: Any,
) -> TeamMember:
    return TeamMember(
        seat_id=seat_id,
        team_id=team_id,
        window_id=window_id,
        player_id=player_id,
        external_player_id=external_player_id,
        joined_at=from_millis(joined_at),
        contribution=contribution,
        left_at=dt(left_at),
        left_reason=None if left_reason is None else LeaveReason(left_reason),
    )


TEAM_MEMBER_COLUMNS = Columns(_team_member)


def invite_row(i: PartnerInvite) -> tuple[Any, ...]:
    return (
        i.id,
        i.game_id,
        i.env.value,
        i.event_key,
        i.window_id,
        i.from_player_id,
        i.from_external_id,
        i.to_player_id,
        i.to_external_id,
        to_millis(i.created_at),
        to_millis(i.expires_at),
        ms(i.accepted_at),
        i.team_id,
    )


def _invite(
    id: Any,
    game_id: Any,
    env: Any,
    event_key: Any,
    window_id: Any,
    from_player_id: Any,
    from_external_id: Any,
    to_player_id: Any,
    to_external_id: Any,
    created_at: Any,
    expires_at: Any,
    accepted_at: Any,
    team_id: Any,
) -> PartnerInvite:
    return PartnerInvite(
        id=id,
        game_id=game_id,
        env=Environment(env),
        event_key=event_key,
        window_id=window_id,
        from_player_id=from_player_id,
        from_external_id=from_external_id,
        to_player_id=to_player_id,
        to_external_id=to_external_id,
        created_at=from_millis(created_at),
        expires_at=from_millis(expires_at),
        accepted_at=dt(accepted_at),
        team_id=team_id,
    )


INVITE_COLUMNS = Columns(_invite)


def guild_row(g: Guild) -> tuple[Any, ...]:
    return (
        g.id,
        g.game_id,
        g.env.value,
        g.name,
        g.name_key,
        g.join_type.value,
        to_millis(g.created_at),
        g.description,
        g.badge,
        g.country,
        None if g.metadata is None else orjson.dumps(g.metadata).decode(),
        g.member_count,
        ms(g.disbanded_at),
        None if g.disband_reason is None else g.disband_reason.value,
    )


def _guild(
    id: Any,
    game_id: Any,
    env: Any,
    name: Any,
    name_key: Any,
    join_type: Any,
    created_at: Any,
    description: Any,
    badge: Any,
    country: Any,
    metadata: Any,
    member_count: Any,
    disbanded_at: Any,
    disband_reason: Any,
) -> Guild:
    return Guild(
        id=id,
        game_id=game_id,
        env=Environment(env),
        name=name,
        join_type=JoinType(join_type),
        created_at=from_millis(created_at),
        description=description,
        badge=badge,
        country=country,
        metadata=None if metadata is None else orjson.loads(metadata),
        member_count=member_count,
        disbanded_at=dt(disbanded_at),
        disband_reason=None if disband_reason is None else DisbandReason(disband_reason),
    )


GUILD_COLUMNS = Columns(_guild)


def by_json(by: By | None) -> str | None:
    """Who made a stint start or end, as the webhooks' ``by`` (JSON)."""
    return None if by is None else orjson.dumps(by.to_wire()).decode()


def by_of(text: str | None) -> By | None:
    return None if text is None else By.from_wire(orjson.loads(text))


def stint_row(s: Stint) -> tuple[Any, ...]:
    return (
        s.id,
        s.guild_id,
        s.game_id,
        s.env.value,
        s.player_id,
        s.external_player_id,
        s.role.value,
        s.via.value,
        to_millis(s.joined_at),
        by_json(s.joined_by),
        ms(s.left_at),
        None if s.left_reason is None else s.left_reason.value,
        by_json(s.left_by),
    )


def _stint(
    id: Any,
    guild_id: Any,
    game_id: Any,
    env: Any,
    player_id: Any,
    external_player_id: Any,
    role: Any,
    via: Any,
    joined_at: Any,
    joined_by: Any,
    left_at: Any,
    left_reason: Any,
    left_by: Any,
) -> Stint:
    return Stint(
        id=id,
        guild_id=guild_id,
        game_id=game_id,
        env=Environment(env),
        player_id=player_id,
        external_player_id=external_player_id,
        role=Role(role),
        via=JoinVia(via),
        joined_at=from_millis(joined_at),
        joined_by=By.from_wire(orjson.loads(joined_by)),
        left_at=dt(left_at),
        left_reason=None if left_reason is None else LeftReason(left_reason),
        left_by=by_of(left_by),
    )


STINT_COLUMNS = Columns(_stint)


def join_request_row(j: JoinRequest) -> tuple[Any, ...]:
    return (
        j.id,
        j.guild_id,
        j.game_id,
        j.player_id,
        j.external_player_id,
        j.message,
        to_millis(j.created_at),
        j.status.value,
        ms(j.resolved_at),
    )


def _join_request(
    id: Any,
    guild_id: Any,
    game_id: Any,
    player_id: Any,
    external_player_id: Any,
    message: Any,
    created_at: Any,
    status: Any,
    resolved_at: Any,
) -> JoinRequest:
    return JoinRequest(
        id=id,
        guild_id=guild_id,
        game_id=game_id,
        player_id=player_id,
        external_player_id=external_player_id,
        message=message,
        created_at=from_millis(created_at),
        status=RequestStatus(status),
        resolved_at=dt(resolved_at),
    )


JOIN_REQUEST_COLUMNS = Columns(_join_request)


def help_row(h: HelpRequest) -> tuple[Any, ...]:
    return (
        h.id,
        h.guild_id,
        h.game_id,
        h.player_id,
        h.external_player_id,
        h.type.value,
        h.resource_key,
        h.amount,
        to_millis(h.created_at),
        to_millis(h.expires_at),
        h.donated,
        h.status.value,
        ms(h.closed_at),
    )


def _help(
    id: Any,
    guild_id: Any,
    game_id: Any,
    player_id: Any,
    external_player_id: Any,
    type: Any,
    resource_key: Any,
    amount: Any,
    created_at: Any,
    expires_at: Any,
    donated: Any,
    status: Any,
    closed_at: Any,
) -> HelpRequest:
    return HelpRequest(
        id=id,
        guild_id=guild_id,
        game_id=game_id,
        player_id=player_id,
        external_player_id=external_player_id,
        type=ResourceType(type),
        resource_key=resource_key,
        amount=amount,
        created_at=from_millis(created_at),
        expires_at=from_millis(expires_at),
        donated=donated,
        status=HelpStatus(status),
        closed_at=dt(closed_at),
    )


HELP_COLUMNS = Columns(_help)


def donation_row(d: Donation) -> tuple[Any, ...]:
    return (
        d.id,
        d.request_id,
        d.guild_id,
        d.game_id,
        d.donor_player_id,
        d.donor_external_player_id,
        d.amount,
        d.grant_id,
        d.reward_grant_id,
        to_millis(d.donated_at),
    )


def _donation(
    id: Any,
    request_id: Any,
    guild_id: Any,
    game_id: Any,
    donor_player_id: Any,
    donor_external_player_id: Any,
    amount: Any,
    grant_id: Any,
    reward_grant_id: Any,
    donated_at: Any,
) -> Donation:
    return Donation(
        id=id,
        request_id=request_id,
        guild_id=guild_id,
        game_id=game_id,
        donor_player_id=donor_player_id,
        donor_external_player_id=donor_external_player_id,
        amount=amount,
        grant_id=grant_id,
        reward_grant_id=reward_grant_id,
        donated_at=from_millis(donated_at),
    )


DONATION_COLUMNS = Columns(_donation)
