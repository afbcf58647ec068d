"""The guild payloads built from their records (``livecore/guilds/webhooks.py``): each kind's wire JSON
exactly, ``guildId``, ``guildName`` and ``by`` first on every kind, ``by`` in each of its four forms,
``guild.member_joined`` with exactly its documented names, ``from`` on the wire for ``guild.role_changed``;
and the records of another guild or another moment refused."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import attrs
import orjson
import pytest

from livecore.games import Entry, ResourceType
from livecore.guilds.rules import (
    SYSTEM_BY,
    By,
    ByKind,
    DisbandReason,
    Donation,
    Guild,
    HelpRequest,
    JoinRequest,
    JoinType,
    JoinVia,
    LeftReason,
    Profile,
    RequestStatus,
    Role,
    RoleReason,
    Stint,
    donated,
    edited,
    ended,
)
from livecore.guilds.webhooks import (
    GuildCreated,
    GuildDisbanded,
    GuildHelpDonated,
    GuildHelpRequested,
    GuildJoinRequested,
    GuildMemberJoined,
    GuildMemberLeft,
    GuildRoleChanged,
    GuildUpdated,
)
from livecore.scope import Environment
from livecore.webhooks.payload import WebhookPayload

AT = datetime(2026, 3, 2, 12, 0, 0, 250999, tzinfo=UTC)
LATER = datetime(2026, 3, 2, 13, 0, tzinfo=UTC)
ADA = By(ByKind.PLAYER, player_id="plr_1", external_player_id="ada")
KEY = By(ByKind.API_KEY, api_key_prefix="lc_live_ab12")
HEAD = b'{"guildId":"gld_1","guildName":"Night Owls",'
BY_ADA = b'"by":{"kind":"player","playerId":"plr_1","externalPlayerId":"ada"},'

GUILD = Guild(
    id="gld_1",
    game_id="gam_1",
    env=Environment.LIVE,
    name="Night Owls",
    join_type=JoinType.REQUEST,
    created_at=AT,
    country="FI",
    member_count=3,
)
LEADER = Stint(
    id="gms_1",
    guild_id="gld_1",
    game_id="gam_1",
    env=Environment.LIVE,
    player_id="plr_1",
    external_player_id="ada",
    role=Role.LEADER,
    via=JoinVia.CREATED,
    joined_at=AT,
    joined_by=ADA,
)
BOB = attrs.evolve(
    LEADER,
    id="gms_2",
    player_id="plr_2",
    external_player_id="bob",
    role=Role.CO_LEADER,
    via=JoinVia.REQUEST,
)
JOIN_REQUEST = JoinRequest(
    id="gjr_1",
    guild_id="gld_1",
    game_id="gam_1",
    player_id="plr_3",
    external_player_id="cy",
    message="let me in",
    created_at=AT,
)
HELP = HelpRequest(
    id="ghr_1",
    guild_id="gld_1",
    game_id="gam_1",
    player_id="plr_2",
    external_player_id="bob",
    type=ResourceType.CURRENCY,
    resource_key="energy",
    amount=5,
    created_at=AT,
    expires_at=AT + timedelta(days=1),
)
DONATION = Donation(
    id="gdn_1",
    request_id="ghr_1",
    guild_id="gld_1",
    game_id="gam_1",
    donor_player_id="plr_1",
    donor_external_player_id="ada",
    amount=2,
    grant_id="grt_1",
    reward_grant_id="grt_2",
    donated_at=LATER,
)
COST = (Entry(ResourceType.CURRENCY, "coins", 100),)


def wire(payload: WebhookPayload) -> bytes:
    return orjson.dumps(payload.to_wire())


def test_guild_created_names_the_leader_the_cost_and_who_charges_it() -> None:
    assert wire(GuildCreated.of(GUILD, LEADER, COST, "platform", ADA)) == HEAD + BY_ADA + (
        b'"joinType":"request","country":"FI","leaderPlayerId":"plr_1","leaderExternalPlayerId":"ada",'
        b'"cost":[{"type":"currency","key":"coins","amount":100}],"costsChargedBy":"platform",'
        b'"createdAt":"2026-03-02T12:00:00.250Z"}'
    )


def test_a_free_guild_in_a_studio_game_has_an_empty_cost_charged_by_the_studio() -> None:
    data = GuildCreated.of(attrs.evolve(GUILD, country=None), LEADER, (), "studio", ADA).to_wire()
    assert (data["cost"], data["costsChargedBy"], data["country"]) == ([], "studio", None)


def test_guild_created_refuses_another_guild_a_non_leader_and_an_unknown_charger() -> None:
    with pytest.raises(ValueError, match="another guild"):
        GuildCreated.of(GUILD, attrs.evolve(LEADER, guild_id="gld_9"), COST, "platform", ADA)
    with pytest.raises(ValueError, match="not the leader"):
        GuildCreated.of(GUILD, BOB, COST, "platform", ADA)
    with pytest.raises(ValueError, match="studios"):
        GuildCreated.of(GUILD, LEADER, COST, "studios", ADA)


def test_guild_updated_carries_the_new_name_and_only_the_changed_fields() -> None:
    after, changes = edited(GUILD, Profile(name="Dawn Owls", join_type=JoinType.OPEN, country="FI"))
    assert wire(GuildUpdated.of(after, changes, KEY)) == (
        b'{"guildId":"gld_1","guildName":"Dawn Owls","by":{"kind":"api_key","apiKeyPrefix":"lc_live_ab12"},'
        b'"changes":{"name":{"before":"Night Owls","after":"Dawn Owls"},'
        b'"joinType":{"before":"request","after":"open"}}}'
    )


def test_guild_updated_refuses_no_change_the_guild_before_the_edit_and_other_fields() -> None:
    after, changes = edited(GUILD, Profile(name="Dawn Owls"))
    with pytest.raises(ValueError, match="changed nothing"):
        GuildUpdated.of(after, {}, KEY)
    with pytest.raises(ValueError, match="as the edit left it"):
        GuildUpdated.of(GUILD, changes, KEY)
    with pytest.raises(ValueError, match="not profile fields: join_type"):
        GuildUpdated.of(after, {"join_type": {"before": "request", "after": "open"}}, KEY)


def test_guild_disbanded_says_why_and_when() -> None:
    gone = attrs.evolve(GUILD, member_count=0, disbanded_at=LATER, disband_reason=DisbandReason.ADMIN)
    member = By(ByKind.MEMBER, member_id="mem_1")
    assert wire(GuildDisbanded.of(gone, member)) == HEAD + (
        b'"by":{"kind":"member","memberId":"mem_1"},"reason":"admin","disbandedAt":"2026-03-02T13:00:00.000Z"}'
    )
    with pytest.raises(ValueError, match="no disband reason"):
        GuildDisbanded.of(GUILD, member)


def test_guild_member_joined_has_exactly_the_spec_names_and_counts_the_new_member() -> None:
    assert wire(GuildMemberJoined.of(GUILD, BOB, ADA)) == HEAD + BY_ADA + (
        b'"playerId":"plr_2","externalPlayerId":"bob","role":"co_leader","via":"request","memberCount":3,'
        b'"joinedAt":"2026-03-02T12:00:00.250Z"}'
    )
    assert list(GuildMemberJoined.of(GUILD, BOB, ADA).to_wire()) == [
        "guildId",
        "guildName",
        "by",
        "playerId",
        "externalPlayerId",
        "role",
        "via",
        "memberCount",
        "joinedAt",
    ]


def test_a_member_who_left_does_not_join_and_a_stint_of_another_guild_is_refused() -> None:
    with pytest.raises(ValueError, match="member_left"):
        GuildMemberJoined.of(GUILD, ended(BOB, LeftReason.LEFT, ADA, LATER), ADA)
    with pytest.raises(ValueError, match="another guild"):
        GuildMemberJoined.of(GUILD, attrs.evolve(BOB, guild_id="gld_9"), ADA)
    with pytest.raises(ValueError, match="another guild"):
        GuildMemberLeft.of(
            GUILD, ended(attrs.evolve(BOB, guild_id="gld_9"), LeftReason.LEFT, ADA, LATER), ADA
        )


def test_guild_member_left_gives_the_reason_the_role_it_had_and_the_count_without_it() -> None:
    after = attrs.evolve(GUILD, member_count=2)
    kicked = ended(BOB, LeftReason.KICKED, ADA, LATER)
    assert wire(GuildMemberLeft.of(after, kicked, ADA)) == HEAD + BY_ADA + (
        b'"playerId":"plr_2","externalPlayerId":"bob","reason":"kicked","role":"co_leader","memberCount":2,'
        b'"leftAt":"2026-03-02T13:00:00.000Z"}'
    )


def test_a_current_stint_has_not_left() -> None:
    with pytest.raises(ValueError, match="current member has not left"):
        GuildMemberLeft.of(GUILD, BOB, ADA)


def test_guild_role_changed_writes_from_and_to() -> None:
    promoted = attrs.evolve(BOB, role=Role.LEADER)
    payload = GuildRoleChanged.of(
        GUILD, promoted, Role.CO_LEADER, RoleReason.SUCCESSION_LEADER_LEFT, ADA, LATER
    )
    assert wire(payload) == HEAD + BY_ADA + (
        b'"playerId":"plr_2","externalPlayerId":"bob","from":"co_leader","to":"leader",'
        b'"reason":"succession_leader_left","changedAt":"2026-03-02T13:00:00.000Z"}'
    )
    swept = GuildRoleChanged.of(
        GUILD,
        attrs.evolve(LEADER, role=Role.MEMBER),
        Role.LEADER,
        RoleReason.SUCCESSION_LEADER_INACTIVE,
        SYSTEM_BY,
        LATER,
    ).to_wire()
    assert (swept["by"], swept["from"], swept["to"]) == ({"kind": "system"}, "leader", "member")


def test_a_role_that_stayed_or_a_member_who_left_is_refused() -> None:
    with pytest.raises(ValueError, match="stayed co_leader"):
        GuildRoleChanged.of(GUILD, BOB, Role.CO_LEADER, RoleReason.PROMOTED, ADA, LATER)
    gone = ended(attrs.evolve(BOB, role=Role.MEMBER), LeftReason.LEFT, ADA, LATER)
    with pytest.raises(ValueError, match="who left"):
        GuildRoleChanged.of(GUILD, gone, Role.CO_LEADER, RoleReason.DEMOTED, ADA, LATER)


def test_guild_join_requested_carries_the_request() -> None:
    cy = By(ByKind.PLAYER, player_id="plr_3", external_player_id="cy")
    assert wire(GuildJoinRequested.of(GUILD, JOIN_REQUEST, cy)) == HEAD + (
        b'"by":{"kind":"player","playerId":"plr_3","externalPlayerId":"cy"},"requestId":"gjr_1",'
        b'"playerId":"plr_3","externalPlayerId":"cy","message":"let me in",'
        b'"requestedAt":"2026-03-02T12:00:00.250Z"}'
    )
    with pytest.raises(ValueError, match="is declined"):
        GuildJoinRequested.of(GUILD, attrs.evolve(JOIN_REQUEST, status=RequestStatus.DECLINED), cy)
    with pytest.raises(ValueError, match="another guild"):
        GuildJoinRequested.of(GUILD, attrs.evolve(JOIN_REQUEST, guild_id="gld_9"), cy)


def test_guild_help_requested_carries_the_request_id_and_expiry() -> None:
    bob = By(ByKind.PLAYER, player_id="plr_2", external_player_id="bob")
    assert wire(GuildHelpRequested.of(GUILD, HELP, bob)) == HEAD + (
        b'"by":{"kind":"player","playerId":"plr_2","externalPlayerId":"bob"},"requestId":"ghr_1",'
        b'"playerId":"plr_2","externalPlayerId":"bob","type":"currency","resourceKey":"energy","amount":5,'
        b'"expiresAt":"2026-03-03T12:00:00.250Z"}'
    )
    with pytest.raises(ValueError, match="another guild"):
        GuildHelpRequested.of(GUILD, attrs.evolve(HELP, guild_id="gld_9"), bob)


def test_guild_help_donated_counts_what_the_request_received_with_this_donation() -> None:
    before = attrs.evolve(HELP, donated=1)
    after = donated(before, DONATION.amount, LATER)
    assert wire(GuildHelpDonated.of(GUILD, after, DONATION, "studio", ADA)) == HEAD + BY_ADA + (
        b'"requestId":"ghr_1","donationId":"gdn_1","grantId":"grt_1","rewardGrantId":"grt_2",'
        b'"donorPlayerId":"plr_1","donorExternalPlayerId":"ada","recipientPlayerId":"plr_2",'
        b'"recipientExternalPlayerId":"bob","type":"currency","resourceKey":"energy","amount":2,'
        b'"costsDonor":true,"costsChargedBy":"studio","amountReceived":3,"amountRequested":5,"filled":false,'
        b'"donatedAt":"2026-03-02T13:00:00.000Z"}'
    )


def test_the_donation_that_fills_a_request_says_so_and_no_donor_reward_is_null() -> None:
    last = attrs.evolve(DONATION, amount=5, reward_grant_id=None)
    data = GuildHelpDonated.of(GUILD, donated(HELP, 5, LATER), last, "platform", ADA).to_wire()
    assert (data["filled"], data["amountReceived"], data["rewardGrantId"], data["costsDonor"]) == (
        True,
        5,
        None,
        True,
    )


def test_guild_help_donated_refuses_the_request_before_the_donation_or_another_one() -> None:
    with pytest.raises(ValueError, match="before the donation"):
        GuildHelpDonated.of(GUILD, HELP, DONATION, "platform", ADA)
    after = donated(HELP, DONATION.amount, LATER)
    with pytest.raises(ValueError, match="another help request"):
        GuildHelpDonated.of(GUILD, attrs.evolve(after, id="ghr_9"), DONATION, "platform", ADA)
    with pytest.raises(ValueError, match="another guild"):
        GuildHelpDonated.of(GUILD, attrs.evolve(after, guild_id="gld_9"), DONATION, "platform", ADA)
