"""The guild wire types (docs/reference/guilds.md): an edit tells a field left out from one sent as null,
through the converter, the core's profile and the OpenAPI documents; the views' shapes; the routes' own
not-found codes for ``requestId``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from livecore.api.convert import ABSENT, structure, unstructure
from livecore.api.openapi import build_documents
from livecore.api.route import Surface
from livecore.errors import INVALID_REQUEST, LivecoreError
from livecore.games import ResourceType
from livecore.guilds import api
from livecore.guilds.errors import HELP_REQUEST_NOT_FOUND, JOIN_REQUEST_NOT_FOUND
from livecore.guilds.rules import (
    KEEP,
    By,
    Guild,
    HelpRequest,
    HelpStatus,
    JoinType,
    JoinVia,
    LeftReason,
    Profile,
    Role,
    Stint,
    edited,
)
from livecore.players.identity import Identity
from livecore.players.rules import Player
from livecore.scope import Environment
from tests.installed import ALL

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)

GUILD = Guild(
    id="gld_1",
    game_id="gam_1",
    env=Environment.TEST,
    name="Star Pilots",
    join_type=JoinType.OPEN,
    created_at=T0,
    description="We fly.",
    badge="star.png",
    country="FR",
    metadata={"tier": 2},
    member_count=2,
)


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


def _stint(stint_id: str, player: Player, role: Role, joined: datetime, **left: Any) -> Stint:
    return Stint(
        id=stint_id,
        guild_id=GUILD.id,
        game_id="gam_1",
        env=Environment.TEST,
        player_id=player.id,
        external_player_id=player.external_id,
        role=role,
        via=JoinVia.OPEN,
        joined_at=joined,
        joined_by=By.player(player),
        **left,
    )


# --- an edit: left out is not null ----------------------------------------------------------------------


def test_an_edit_keeps_what_it_leaves_out_and_clears_what_it_sends_as_null() -> None:
    body = structure({"description": None, "joinType": "request"}, api.EditGuildRequest)
    assert body.name is ABSENT and body.badge is ABSENT and body.metadata is ABSENT
    profile = body.profile()
    assert profile == Profile(description=None, join_type=JoinType.REQUEST)
    assert (profile.name, profile.badge, profile.country, profile.metadata) == (KEEP, KEEP, KEEP, KEEP)
    after, changes = edited(GUILD, profile.checked())
    assert (after.name, after.description, after.badge, after.join_type) == (
        "Star Pilots",
        None,
        "star.png",
        JoinType.REQUEST,
    )
    assert changes == {
        "description": {"before": "We fly.", "after": None},
        "joinType": {"before": "open", "after": "request"},
    }


def test_an_empty_edit_keeps_everything() -> None:
    profile = structure({}, api.EditGuildRequest).profile()
    assert profile == Profile()
    assert edited(GUILD, profile.checked()) == (GUILD, {})


@pytest.mark.parametrize(
    ("body", "field", "problem"),
    [
        ({"name": None}, "name", "must be a string"),
        ({"joinType": None}, "joinType", "must be one of open, request"),
        ({"name": "Zero\u200bWidth"}, "name", "must not contain control or format characters"),
        ({"badge": 7}, "badge", "must be a string"),
        ({"metadata": []}, "metadata", "must be an object"),
        ({"colour": "red"}, "colour", "is not a known field"),
    ],
)
def test_an_edit_refuses_null_where_it_is_no_value_and_keeps_the_wire_rules(
    body: dict[str, Any], field: str, problem: str
) -> None:
    with pytest.raises(LivecoreError) as refused:
        structure(body, api.EditGuildRequest)
    assert refused.value.code is INVALID_REQUEST
    assert refused.value.details == {"fields": {field: problem}}


def test_a_client_writes_an_edit_without_the_fields_it_leaves_out() -> None:
    assert unstructure(api.EditGuildRequest(name="New", badge=None)) == {"name": "New", "badge": None}
    assert unstructure(api.ServerEditGuildRequest(idempotency_key="k")) == {"idempotencyKey": "k"}


def test_the_documents_show_edit_fields_optional_without_a_default() -> None:
    docs = build_documents(ALL, version="test")
    for surface, model in ((Surface.SDK, "EditGuildRequest"), (Surface.SERVER, "ServerEditGuildRequest")):
        schema = docs[surface]["components"]["schemas"][model]
        assert "required" not in schema
        props = schema["properties"]
        assert not any("default" in props[name] for name in ("name", "description", "joinType"))
        assert props["name"]["type"] == "string"
        assert props["description"]["type"] == ["string", "null"]
        assert props["joinType"] == {
            "type": "string",
            "enum": ["open", "request"],
            "description": "left out: kept as it is",
        }
        assert props["metadata"]["type"] == ["object", "null"]


def test_a_founding_body_needs_a_name_and_a_join_type() -> None:
    with pytest.raises(LivecoreError) as refused:
        structure({"description": "x"}, api.CreateGuildRequest)
    assert refused.value.details == {"fields": {"name": "is required", "joinType": "is required"}}
    body = structure({"name": "Star Pilots", "joinType": "open", "country": "fr"}, api.CreateGuildRequest)
    assert body.profile() == Profile(
        name="Star Pilots", join_type=JoinType.OPEN, description=None, badge=None, country="fr", metadata=None
    )


# --- the views ------------------------------------------------------------------------------------------


def test_a_guild_with_members_shows_each_members_display_name_in_joining_order() -> None:
    ann = _player("plr_a", "ann", Identity("Ann", "ann.png"))
    bob = _player("plr_b", "bob", None)
    members = [_stint("gms_1", ann, Role.LEADER, T0), _stint("gms_2", bob, Role.MEMBER, T0 + timedelta(1))]
    view = api.GuildWithMembersView.with_members(GUILD, members, {p.id: p for p in (ann, bob)})
    wire = unstructure(view)
    assert {k: v for k, v in wire.items() if k != "members"} == unstructure(api.GuildView.of(GUILD))
    assert wire["members"] == [
        {"externalPlayerId": "ann", "name": "Ann", "avatar": "ann.png", "role": "leader",
         "joinedAt": "2026-03-02T12:00:00.000Z"},
        {"externalPlayerId": "bob", "name": "Lucky Fox 12", "avatar": "fox.png", "role": "member",
         "joinedAt": "2026-03-03T12:00:00.000Z"},
    ]  # fmt: skip


def test_the_detail_shows_identities_requests_and_every_stint() -> None:
    ann = _player("plr_a", "ann", Identity("Ann", None))
    bob = _player("plr_b", "bob", None)
    leader = _stint("gms_1", ann, Role.LEADER, T0)
    gone = _stint(
        "gms_2",
        bob,
        Role.CO_LEADER,
        T0,
        left_at=T0 + timedelta(hours=1),
        left_reason=LeftReason.KICKED,
        left_by=By.player(ann),
    )
    view = unstructure(api.GuildDetailView.detail(GUILD, [leader], {ann.id: ann}, [], [leader, gone]))
    assert view["members"] == [
        {
            "externalPlayerId": "ann",
            "displayIdentity": {"name": "Ann", "avatar": None, "country": "FR"},
            "role": "leader",
            "joinedAt": "2026-03-02T12:00:00.000Z",
        }
    ]
    assert view["pendingRequests"] == []
    assert view["history"] == [
        {"externalPlayerId": "ann", "joinedAt": "2026-03-02T12:00:00.000Z", "leftAt": None, "reason": None},
        {"externalPlayerId": "bob", "joinedAt": "2026-03-02T12:00:00.000Z",
         "leftAt": "2026-03-02T13:00:00.000Z", "reason": "kicked"},
    ]  # fmt: skip


def test_a_help_requests_status_is_read_at_the_time_asked() -> None:
    request = HelpRequest(
        id="ghr_1",
        guild_id=GUILD.id,
        game_id="gam_1",
        player_id="plr_a",
        external_player_id="ann",
        type=ResourceType.CURRENCY,
        resource_key="energy",
        amount=5,
        created_at=T0,
        expires_at=T0 + timedelta(hours=1),
        donated=2,
    )
    before = api.HelpRequestView.of(request, T0 + timedelta(minutes=59))
    after = api.HelpRequestView.of(request, T0 + timedelta(hours=1))
    assert (before.status, after.status) == (HelpStatus.OPEN, HelpStatus.EXPIRED)
    assert unstructure(after) == {
        "requestId": "ghr_1",
        "externalPlayerId": "ann",
        "type": "currency",
        "resourceKey": "energy",
        "amount": 5,
        "donated": 2,
        "expiresAt": "2026-03-02T13:00:00.000Z",
        "status": "expired",
    }


def test_own_guild_and_join_answers_leave_out_what_they_do_not_carry() -> None:
    assert unstructure(api.OwnGuildResponse(guild=None)) == {"guild": None}
    assert set(unstructure(api.JoinResponse(request=None))) == set()


def test_request_ids_answer_the_not_found_code_of_their_route() -> None:
    codes = {route.name: dict(route.record_ids).get("requestId") for route in api.ROUTES}
    assert codes["guilds.requests.accept"] is JOIN_REQUEST_NOT_FOUND
    assert codes["guilds.requests.decline"] is JOIN_REQUEST_NOT_FOUND
    assert codes["guilds.help.donate"] is HELP_REQUEST_NOT_FOUND
