"""The lobby wire types (docs/events.md#lobbies): the lobby view, the push request's limits and the
push route's own idempotency."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import attrs
import pytest

from livecore.api.convert import structure, unstructure
from livecore.api.route import Idempotency, Route, Surface
from livecore.errors import LivecoreError
from livecore.idempotency import KEY
from livecore.limits import FREE_FORM, ID, Count, Range, count_of, rule_of
from livecore.live_events.api import EventView
from livecore.live_events.commands.live_events import EventListing
from livecore.live_events.rules import EventState
from livecore.live_events.settings import EventSettings
from livecore.lobbies import api as lobbies
from livecore.lobbies.rules import CAPACITY_MAX, Lobby, LobbyStatus, PromotionReason, Seat, SeatSource
from livecore.lobbies.settings import LOBBY_SETTINGS, LobbySettings
from livecore.players.identity import Identity
from livecore.players.rules import Player
from livecore.scope import Environment

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def _player(player_id: str, external_id: str, display: Identity | None) -> Player:
    return Player(
        id=player_id,
        game_id="gam_1",
        env=Environment.TEST,
        external_id=external_id,
        anonymized=Identity("Lucky Fox 12", "fox.png"),
        display=display,
        resolved_country="FR",
        first_seen_at=T0,
        last_seen_at=T0,
    )


LOBBY = Lobby(
    id="lob_1",
    game_id="gam_1",
    env=Environment.TEST,
    event_key="duel",
    event_id="evt_1",
    window_id="win_1",
    board_id="brd_1",
    status=LobbyStatus.ACTIVE,
    capacity=4,
    segment_values={},
    segment_key="{}",
    created_at=T0,
    ends_at=T0 + timedelta(hours=1),
    fill_by=T0 + timedelta(minutes=1),
    participant_count=3,
    bot_count=1,
    started_at=T0 + timedelta(minutes=1),
    promotion_reason=PromotionReason.TIMEOUT,
)


def test_the_lobby_view_has_exactly_the_lobby_fields_and_participants_in_seat_order() -> None:
    named = _player("ply_a", "ann", Identity("Ann", "a.png"))
    unnamed = _player("ply_b", "bob", None)
    seats = [
        Seat("lob_1", "win_1", "ply_b", T0, SeatSource.MATCHMAKING, external_player_id="bob"),
        Seat("lob_1", "win_1", "ply_a", T0 + timedelta(seconds=1), SeatSource.MATCHMAKING, "ann"),
        Seat(
            "lob_1",
            "win_1",
            "bot_1",
            T0 + timedelta(minutes=1),
            SeatSource.BOT,
            identity=Identity("Brave Owl 07", "owl.png", "DE"),
            final_score=300,
        ),
    ]
    wire = unstructure(lobbies.LobbyView.of(LOBBY, seats, {"ply_a": named, "ply_b": unnamed}))
    assert set(wire) == {
        "lobbyId",
        "eventKey",
        "windowId",
        "leaderboardId",
        "status",
        "capacity",
        "participantCount",
        "botCount",
        "participants",
        "fillBy",
        "startedAt",
        "endsAt",
        "closedAt",
        "promotionReason",
        "metadata",
    }
    assert (wire["lobbyId"], wire["leaderboardId"], wire["status"]) == ("lob_1", "brd_1", "active")
    assert (wire["closedAt"], wire["metadata"], wire["promotionReason"]) == (None, None, "timeout")
    assert wire["participants"] == [
        # Never named: the anonymized identity.
        {
            "externalPlayerId": "bob",
            "displayIdentity": {"name": "Lucky Fox 12", "avatar": "fox.png", "country": "FR"},
            "isBot": False,
            "joinedAt": "2026-03-02T12:00:00.000Z",
        },
        {
            "externalPlayerId": "ann",
            "displayIdentity": {"name": "Ann", "avatar": "a.png", "country": "FR"},
            "isBot": False,
            "joinedAt": "2026-03-02T12:00:01.000Z",
        },
        {
            "externalPlayerId": None,
            "displayIdentity": {"name": "Brave Owl 07", "avatar": "owl.png", "country": "DE"},
            "isBot": True,
            "joinedAt": "2026-03-02T12:01:00.000Z",
        },
    ]


def test_a_participants_identity_and_external_id_are_the_players_at_read_time() -> None:
    seat = Seat("lob_1", "win_1", "ply_a", T0, SeatSource.SERVER_PUSH, external_player_id="ann")
    renamed = _player("ply_a", "__deleted_x__", Identity("Later", None))
    wire = unstructure(lobbies.LobbyView.of(LOBBY, [seat], {"ply_a": renamed}))
    (participant,) = wire["participants"]
    assert participant["externalPlayerId"] == "__deleted_x__"
    assert participant["displayIdentity"]["name"] == "Later"


def test_the_push_request_needs_its_key_and_players_and_declares_its_limits() -> None:
    body = structure({"key": "k1", "externalPlayerIds": ["a", "b"]}, lobbies.LobbyPushRequest)
    assert (body.capacity, body.fill_bots, body.metadata) == (None, False, None)
    for missing in ({"externalPlayerIds": ["a"]}, {"key": "k1"}):
        with pytest.raises(LivecoreError):
            structure(missing, lobbies.LobbyPushRequest)
    # The limits the command checks (livecore.limits) and the documents publish.
    fields = attrs.fields_dict(lobbies.LobbyPushRequest)
    assert rule_of(fields["key"]) is KEY
    assert rule_of(fields["external_player_ids"]) is ID
    assert count_of(fields["external_player_ids"]) == Count(min_items=1, max_items=CAPACITY_MAX, unique=True)
    assert rule_of(fields["capacity"]) == Range(2, CAPACITY_MAX)
    assert rule_of(fields["metadata"]) is FREE_FORM


def test_the_push_is_idempotent_on_its_body_key_and_takes_no_idempotency_key() -> None:
    assert lobbies.SERVER_PUSH.idempotent_on == "key"
    assert lobbies.SERVER_PUSH.idempotency is Idempotency.NONE
    assert lobbies.SERVER_PUSH.is_write and lobbies.SERVER_PUSH.status == 201
    with pytest.raises(ValueError, match="takes no idempotency key"):
        Route(
            name="x",
            surface=Surface.SERVER,
            method="POST",
            path="/x",
            summary="x",
            idempotency=Idempotency.REQUIRED,
            idempotent_on="key",
        )


def test_the_events_list_flags_a_lobby_event() -> None:
    plain = EventSettings(
        key="race", name="Race", starts_at=T0, window_seconds=3600, attempt_seconds=60, score_metric="s"
    )
    duel = EventSettings(
        key="duel",
        name="Duel",
        starts_at=T0,
        window_seconds=3600,
        attempt_seconds=60,
        score_metric="s",
        parts={LOBBY_SETTINGS: LobbySettings(capacity=4, fill_seconds=60)},
    )
    flags = [
        EventView.of(
            EventListing(
                event=e,
                id="evt",
                state=EventState.OPEN,
                window=None,
                next_window_starts_at=None,
                attempts=None,
            )
        ).lobby
        for e in (plain, duel)
    ]
    assert flags == [False, True]
