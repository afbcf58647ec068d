"""Row <-> record conversions shared by the SQLite and PostgreSQL stores: both keep the same row layout
(timestamps as integer milliseconds, JSON as text), so a record is read and written one way."""

from __future__ import annotations

from collections.abc import Sequence
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
from livecore_server.storage.records import settings_converter


def ms(value: Any) -> int | None:
    return None if value is None else to_millis(value)


def dt(ms: int | None) -> Any:
    return None if ms is None else from_millis(ms)


PLAYER_COLUMNS = (
    "id, game_id, env, external_id, first_seen_at, last_seen_at, anon_name, anon_avatar, display_name,"
    " display_avatar, country, secret_hash, secret_prefix, registered_at, secret_rotated_at, ban_reason,"
    " banned_at, sessions, last_active_at, streak, best_streak, streak_day, context, friend_code,"
    " presence_at, presence_status, search_name, debug_reason, debug_at, lifecycle, merged_into, platform,"
    " app_version, country_override"
)


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


def player_of(r: tuple[Any, ...]) -> Player:
    return Player(
        id=r[0],
        game_id=r[1],
        env=Environment(r[2]),
        external_id=r[3],
        first_seen_at=from_millis(r[4]),
        last_seen_at=from_millis(r[5]),
        anonymized=Identity(name=r[6], avatar=r[7]),
        display=Identity(name=r[8], avatar=r[9]) if r[8] is not None else None,
        resolved_country=r[10],
        secret_hash=r[11],
        secret_prefix=r[12],
        registered_at=dt(r[13]),
        secret_rotated_at=dt(r[14]),
        ban=Ban(reason=r[15], banned_at=from_millis(r[16])) if r[16] is not None else None,
        activity=activity_of(r[17:22]),
        context=orjson.loads(r[22]),
        friend_code=r[23],
        presence=Presence(last_active_at=dt(r[24]), status=r[25]),
        # r[26] is the search name, derived from the identity
        debug=DebugFlag(reason=r[27], flagged_at=from_millis(r[28])) if r[28] is not None else None,
        lifecycle=Lifecycle(r[29]),
        merged_into=r[30],
        build=ClientBuild(platform=r[31], app_version=r[32]),
        country_override=r[33],
    )


ACTIVITY_COLUMNS = "sessions, last_active_at, streak, best_streak, streak_day"


def activity_of(r: Sequence[Any]) -> Activity:
    """An ``Activity`` from the ACTIVITY_COLUMNS of a row."""
    return Activity(
        sessions=r[0],
        last_active_at=dt(r[1]),
        streak=r[2],
        best_streak=r[3],
        streak_day=date.fromisoformat(r[4]) if r[4] else None,
    )


P_COLUMNS = ", ".join(f"p.{c.strip()}" for c in PLAYER_COLUMNS.split(","))

#: The country a player is shown with (``Player.country``), of the players row aliased ``p``: an
#: operator's override, else the resolved country.
SHOWN_COUNTRY = "COALESCE(p.country_override, p.country)"

# What a list row shows of a player (``PlayerCard``), of the players row aliased ``p``: the display
# identity when set, else the anonymized one, as ``PlayerCard.of`` picks it.
CARD_COLUMNS = (
    "p.id, p.external_id, COALESCE(p.display_name, p.anon_name),"
    f" CASE WHEN p.display_name IS NULL THEN p.anon_avatar ELSE p.display_avatar END, {SHOWN_COUNTRY},"
    " p.presence_at, p.presence_status"
)
CARD_WIDTH = 7


def card_of(r: Sequence[Any]) -> PlayerCard:
    """A ``PlayerCard`` from the CARD_COLUMNS of a row."""
    return PlayerCard(r[0], r[1], Identity(r[2], r[3]), r[4], Presence(dt(r[5]), r[6]))


def pair_key(a_id: str, b_id: str) -> str:
    return f"{min(a_id, b_id)}:{max(a_id, b_id)}"


def request_of(r: tuple[Any, ...]) -> FriendRequest:
    return FriendRequest(
        id=r[0], game_id=r[1], from_player_id=r[2], to_player_id=r[3], created_at=from_millis(r[4])
    )


LEDGER_COLUMNS = (
    "id, player_id, game_id, resource_key, resource_type, delta, balance_after, reason, note, source_ref_id,"
    " actor, created_at"
)


def ledger_entry_of(r: tuple[Any, ...]) -> LedgerEntry:
    return LedgerEntry(
        id=r[0],
        player_id=r[1],
        game_id=r[2],
        resource_key=r[3],
        resource_type=ResourceType(r[4]),
        delta=r[5],
        balance_after=r[6],
        reason=Reason(r[7]),
        note=r[8],
        source_ref_id=r[9],
        actor=orjson.loads(r[10]),
        created_at=from_millis(r[11]),
    )


GRANT_COLUMNS = (
    "id, game_id, player_id, external_player_id, kind, status, entries, source_kind, source_ref_id, metadata,"
    " created_at, expires_at, claimed_at, acked_by"
)


def holding_of(key: str, r: tuple[Any, ...] | None) -> Holding:
    """A holding from its (amount, parameters) columns; no row holds nothing."""
    return Holding(key=key) if r is None else Holding(key=key, amount=r[0], parameters=orjson.loads(r[1]))


def stored_response_of(scope: str, key: str, r: tuple[Any, ...]) -> StoredResponse:
    """An idempotency record from its (fingerprint, status, body, created_at) columns."""
    return StoredResponse(
        scope=scope, key=key, fingerprint=r[0], status=r[1], body=bytes(r[2]), created_at=from_millis(r[3])
    )


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


def grant_of(r: tuple[Any, ...]) -> Grant:
    return Grant(
        id=r[0],
        game_id=r[1],
        player_id=r[2],
        external_player_id=r[3],
        kind=GrantKind(r[4]),
        status=GrantStatus(r[5]),
        entries=tuple(grant_entry_of(e) for e in orjson.loads(r[6])),
        source_kind=r[7],
        source_ref_id=r[8],
        metadata=orjson.loads(r[9]),
        created_at=from_millis(r[10]),
        expires_at=dt(r[11]),
        claimed_at=dt(r[12]),
        acked_by=AckedBy(r[13]) if r[13] else None,
    )


GIFT_COLUMNS = (
    "g.id, g.grant_id, g.game_id, g.sender_id, s.external_id, g.recipient_id, r.external_id, g.type,"
    " g.resource_key, g.amount, g.message, g.status, g.sent_at, g.expires_at, g.claimed_at, g.deducted,"
    " g.idempotency_key"
)
# Every gift read names both players' external ids (gift views and webhooks carry them).
GIFT_FROM = "FROM gifts g JOIN players s ON s.id = g.sender_id JOIN players r ON r.id = g.recipient_id"


def gift_of(r: tuple[Any, ...]) -> Gift:
    return Gift(
        id=r[0],
        grant_id=r[1],
        game_id=r[2],
        sender_id=r[3],
        sender_external_id=r[4],
        recipient_id=r[5],
        recipient_external_id=r[6],
        type=ResourceType(r[7]),
        resource_key=r[8],
        amount=r[9],
        message=r[10],
        status=GiftStatus(r[11]),
        sent_at=from_millis(r[12]),
        expires_at=dt(r[13]),
        claimed_at=dt(r[14]),
        deducted_from_sender=bool(r[15]),
        idempotency_key=r[16],
    )


PURCHASE_COLUMNS = (
    "u.id, u.game_id, u.env, u.player_id, p.external_id, u.transaction_id, u.store, u.product_id,"
    " u.product_type, u.amount_minor, u.currency, u.normalized_amount_minor, u.fx_rate,"
    " u.validation_status, u.purchased_at, u.tracked_at, u.metadata"
)
PURCHASE_FROM = "FROM purchases u JOIN players p ON p.id = u.player_id"


def purchase_of(r: tuple[Any, ...]) -> Purchase:
    return Purchase(
        id=r[0],
        game_id=r[1],
        env=Environment(r[2]),
        player_id=r[3],
        external_player_id=r[4],
        transaction_id=r[5],
        store=r[6],
        product_id=r[7],
        product_type=r[8],
        amount_minor=r[9],
        currency=r[10],
        normalized_amount_minor=r[11],
        fx_rate=r[12],
        validation_status=ValidationStatus(r[13]),
        purchased_at=from_millis(r[14]),
        tracked_at=from_millis(r[15]),
        metadata=orjson.loads(r[16]),
    )


OUTBOX_COLUMNS = "id, kind, studio_id, game_id, env, occurred_at, data, debounce_key"


def outbox_event(r: tuple[Any, ...]) -> DomainEvent:
    return DomainEvent(
        id=r[0],
        kind=r[1],
        studio_id=r[2],
        game_id=r[3],
        env=Environment(r[4]),
        occurred_at=from_millis(r[5]),
        payload=orjson.loads(r[6]),
        debounce_key=r[7],
    )


WINDOW_COLUMNS = (
    "id, game_id, env, event_key, event_id, starts_at, ends_at, status, settings, opened_at, closed_at"
)


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


def window_of(r: tuple[Any, ...]) -> Window:
    return Window(
        id=r[0],
        game_id=r[1],
        env=Environment(r[2]),
        event_key=r[3],
        event_id=r[4],
        starts_at=from_millis(r[5]),
        ends_at=from_millis(r[6]),
        status=WindowStatus(r[7]),
        settings=settings_converter.structure(orjson.loads(r[8]), EventSettings),
        opened_at=from_millis(r[9]),
        closed_at=dt(r[10]),
    )


BOARD_COLUMNS = (
    "id, game_id, env, event_key, event_id, window_id, sort_order, closes_at, segment_values, status,"
    " version, lobby_id, finalized_at"
)


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


def board_of(r: tuple[Any, ...]) -> Board:
    return Board(
        id=r[0],
        game_id=r[1],
        env=Environment(r[2]),
        event_key=r[3],
        event_id=r[4],
        window_id=r[5],
        order=Order(r[6]),
        closes_at=from_millis(r[7]),
        segment_values=orjson.loads(r[8]),
        status=BoardStatus(r[9]),
        version=r[10],
        lobby_id=r[11],
        finalized_at=dt(r[12]),
    )


ATTEMPT_COLUMNS = (
    "id, game_id, env, player_id, external_player_id, event_key, event_id, window_id, board_id, status,"
    " started_at, ends_at, attempt_count, segment_values, metrics, score, score_at, completed_at,"
    " milestones, flagged, lobby_id, frozen_at"
)


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


def attempt_of(r: tuple[Any, ...]) -> Attempt:
    return Attempt(
        id=r[0],
        game_id=r[1],
        env=Environment(r[2]),
        player_id=r[3],
        external_player_id=r[4],
        event_key=r[5],
        event_id=r[6],
        window_id=r[7],
        board_id=r[8],
        status=AttemptStatus(r[9]),
        started_at=from_millis(r[10]),
        ends_at=from_millis(r[11]),
        attempt_count=r[12],
        segment_values=orjson.loads(r[13]),
        metrics=orjson.loads(r[14]),
        score=r[15],
        score_at=dt(r[16]),
        completed_at=dt(r[17]),
        milestones=tuple(orjson.loads(r[18])),
        flagged=bool(r[19]),
        lobby_id=r[20],
        frozen_at=dt(r[21]),
    )


ENTRY_COLUMNS = "board_id, player_id, score, reached_at, attempt_id"


def entry_of(r: tuple[Any, ...]) -> BoardEntry:
    return BoardEntry(
        board_id=r[0], player_id=r[1], score=r[2], reached_at=from_millis(r[3]), attempt_id=r[4]
    )


PERIOD_COLUMNS = (
    "id, game_id, env, board_key, starts_at, ends_at, status, settings, finalized_through, finalized_at"
)


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


def period_of(r: tuple[Any, ...]) -> BoardPeriod:
    return BoardPeriod(
        id=r[0],
        game_id=r[1],
        env=Environment(r[2]),
        board_key=r[3],
        starts_at=dt(r[4]),
        ends_at=dt(r[5]),
        status=PeriodStatus(r[6]),
        settings=settings_converter.structure(orjson.loads(r[7]), LeaderboardSettings),
        finalized_through=r[8],
        finalized_at=dt(r[9]),
    )


DIVISION_COLUMNS = "id, period_id, tier, number, members"


def division_of(r: tuple[Any, ...]) -> Division:
    return Division(id=r[0], period_id=r[1], tier=r[2], number=r[3], members=r[4])


SHARED_ENTRY_COLUMNS = "period_id, player_id, score, reached_at, division_id"


def shared_entry_of(r: tuple[Any, ...]) -> SharedEntry:
    return SharedEntry(
        period_id=r[0], player_id=r[1], score=r[2], reached_at=from_millis(r[3]), division_id=r[4]
    )


LOBBY_COLUMNS = (
    "id, game_id, env, event_key, event_id, window_id, board_id, status, capacity, segment_values,"
    " segment_key, created_at, ends_at, fill_by, participant_count, bot_count, started_at, closed_at,"
    " promotion_reason, metadata, push_key, terminated_by"
)


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


def lobby_of(r: tuple[Any, ...]) -> Lobby:
    return Lobby(
        id=r[0],
        game_id=r[1],
        env=Environment(r[2]),
        event_key=r[3],
        event_id=r[4],
        window_id=r[5],
        board_id=r[6],
        status=LobbyStatus(r[7]),
        capacity=r[8],
        segment_values=orjson.loads(r[9]),
        segment_key=r[10],
        created_at=from_millis(r[11]),
        ends_at=from_millis(r[12]),
        fill_by=dt(r[13]),
        participant_count=r[14],
        bot_count=r[15],
        started_at=dt(r[16]),
        closed_at=dt(r[17]),
        promotion_reason=None if r[18] is None else PromotionReason(r[18]),
        metadata=None if r[19] is None else orjson.loads(r[19]),
        push_key=r[20],
        terminated_by=r[21],
    )


SEAT_COLUMNS = (
    "lobby_id, window_id, seat_id, joined_at, source, external_player_id, identity_name, identity_avatar,"
    " final_score, seat_position"
)


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


def seat_of(r: tuple[Any, ...]) -> Seat:
    return Seat(
        lobby_id=r[0],
        window_id=r[1],
        seat_id=r[2],
        joined_at=from_millis(r[3]),
        source=SeatSource(r[4]),
        external_player_id=r[5],
        identity=None if r[6] is None else Identity(name=r[6], avatar=r[7]),
        final_score=r[8],
        position=r[9],
    )


TEAM_COLUMNS = (
    "id, game_id, env, event_key, event_id, window_id, key, name, formation, goal, created_at, attributes,"
    " member_count, score, rank_key, completed_at, milestones, final_rank, finalized_at"
)


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


def team_of(r: tuple[Any, ...]) -> Team:
    return Team(
        id=r[0],
        game_id=r[1],
        env=Environment(r[2]),
        event_key=r[3],
        event_id=r[4],
        window_id=r[5],
        key=r[6],
        name=r[7],
        formation=Formation(r[8]),
        goal=r[9],
        created_at=from_millis(r[10]),
        attributes=None if r[11] is None else orjson.loads(r[11]),
        member_count=r[12],
        score=r[13],
        completed_at=dt(r[15]),
        milestones=tuple(orjson.loads(r[16])),
        final_rank=r[17],
        finalized_at=dt(r[18]),
    )


TEAM_MEMBER_COLUMNS = (
    "seat_id, team_id, window_id, player_id, external_player_id, joined_at, contribution, left_at,"
    " left_reason"
)


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


def team_member_of(r: tuple[Any, ...]) -> TeamMember:
    return TeamMember(
        seat_id=r[0],
        team_id=r[1],
        window_id=r[2],
        player_id=r[3],
        external_player_id=r[4],
        joined_at=from_millis(r[5]),
        contribution=r[6],
        left_at=dt(r[7]),
        left_reason=None if r[8] is None else LeaveReason(r[8]),
    )


INVITE_COLUMNS = (
    "id, game_id, env, event_key, window_id, from_player_id, from_external_id, to_player_id, to_external_id,"
    " created_at, expires_at, accepted_at, team_id"
)


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


def invite_of(r: tuple[Any, ...]) -> PartnerInvite:
    return PartnerInvite(
        id=r[0],
        game_id=r[1],
        env=Environment(r[2]),
        event_key=r[3],
        window_id=r[4],
        from_player_id=r[5],
        from_external_id=r[6],
        to_player_id=r[7],
        to_external_id=r[8],
        created_at=from_millis(r[9]),
        expires_at=from_millis(r[10]),
        accepted_at=dt(r[11]),
        team_id=r[12],
    )


GUILD_COLUMNS = (
    "id, game_id, env, name, name_key, join_type, created_at, description, badge, country, metadata,"
    " member_count, disbanded_at, disband_reason"
)


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


def guild_of(r: tuple[Any, ...]) -> Guild:
    return Guild(
        id=r[0],
        game_id=r[1],
        env=Environment(r[2]),
        name=r[3],
        join_type=JoinType(r[5]),
        created_at=from_millis(r[6]),
        description=r[7],
        badge=r[8],
        country=r[9],
        metadata=None if r[10] is None else orjson.loads(r[10]),
        member_count=r[11],
        disbanded_at=dt(r[12]),
        disband_reason=None if r[13] is None else DisbandReason(r[13]),
    )


def by_json(by: By | None) -> str | None:
    """Who made a stint start or end, as the webhooks' ``by`` (JSON)."""
    return None if by is None else orjson.dumps(by.to_wire()).decode()


def by_of(text: str | None) -> By | None:
    return None if text is None else By.from_wire(orjson.loads(text))


STINT_COLUMNS = (
    "id, guild_id, game_id, env, player_id, external_player_id, role, via, joined_at, joined_by, left_at,"
    " left_reason, left_by"
)


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


def stint_of(r: tuple[Any, ...]) -> Stint:
    return Stint(
        id=r[0],
        guild_id=r[1],
        game_id=r[2],
        env=Environment(r[3]),
        player_id=r[4],
        external_player_id=r[5],
        role=Role(r[6]),
        via=JoinVia(r[7]),
        joined_at=from_millis(r[8]),
        joined_by=By.from_wire(orjson.loads(r[9])),
        left_at=dt(r[10]),
        left_reason=None if r[11] is None else LeftReason(r[11]),
        left_by=by_of(r[12]),
    )


JOIN_REQUEST_COLUMNS = (
    "id, guild_id, game_id, player_id, external_player_id, message, created_at, status, resolved_at"
)


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


def join_request_of(r: tuple[Any, ...]) -> JoinRequest:
    return JoinRequest(
        id=r[0],
        guild_id=r[1],
        game_id=r[2],
        player_id=r[3],
        external_player_id=r[4],
        message=r[5],
        created_at=from_millis(r[6]),
        status=RequestStatus(r[7]),
        resolved_at=dt(r[8]),
    )


HELP_COLUMNS = (
    "id, guild_id, game_id, player_id, external_player_id, type, resource_key, amount, created_at,"
    " expires_at, donated, status, closed_at"
)


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


def help_of(r: tuple[Any, ...]) -> HelpRequest:
    return HelpRequest(
        id=r[0],
        guild_id=r[1],
        game_id=r[2],
        player_id=r[3],
        external_player_id=r[4],
        type=ResourceType(r[5]),
        resource_key=r[6],
        amount=r[7],
        created_at=from_millis(r[8]),
        expires_at=from_millis(r[9]),
        donated=r[10],
        status=HelpStatus(r[11]),
        closed_at=dt(r[12]),
    )


DONATION_COLUMNS = (
    "id, request_id, guild_id, game_id, donor_player_id, donor_external_player_id, amount, grant_id,"
    " reward_grant_id, donated_at"
)


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


def donation_of(r: tuple[Any, ...]) -> Donation:
    return Donation(
        id=r[0],
        request_id=r[1],
        guild_id=r[2],
        game_id=r[3],
        donor_player_id=r[4],
        donor_external_player_id=r[5],
        amount=r[6],
        grant_id=r[7],
        reward_grant_id=r[8],
        donated_at=from_millis(r[9]),
    )
