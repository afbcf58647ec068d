"""Placeholder payloads of the guilds area's webhook kinds, for sample deliveries
(:attr:`livecore.area.Area.samples`)."""

from __future__ import annotations

from typing import Any

from livecore.games import Entry, ResourceType
from livecore.guilds.rules import By, ByKind
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
from livecore.webhooks.payload import WebhookPayload
from livecore.webhooks.sample_values import ACTOR, FRIEND_EXTERNAL_ID, FRIEND_ID, PLAYER, SAMPLE_TS

_BY_PLAYER = By(ByKind.PLAYER, PLAYER["player_id"], PLAYER["external_player_id"]).to_wire()
_GUILD: dict[str, Any] = {"guild_id": "gld_sample0000000000000000000", "guild_name": "Sample Guild"}
_HELP_REQUEST: dict[str, Any] = {
    "request_id": "ghr_sample0000000000000000000",
    "type": "currency",
    "resource_key": "energy",
    "amount": 5,
}

SAMPLES: tuple[WebhookPayload, ...] = (
    GuildCreated(
        **_GUILD,
        by=_BY_PLAYER,
        join_type="open",
        country="FI",
        leader_player_id=PLAYER["player_id"],
        leader_external_player_id=PLAYER["external_player_id"],
        cost=(Entry(ResourceType.CURRENCY, "coins", 100),),
        costs_charged_by="platform",
        created_at=SAMPLE_TS,
    ),
    GuildUpdated(
        **_GUILD,
        by=By(ByKind.API_KEY, api_key_prefix=ACTOR["prefix"]).to_wire(),
        changes={"name": {"before": "Old Sample Guild", "after": "Sample Guild"}},
    ),
    GuildDisbanded(
        **_GUILD,
        by=By(ByKind.MEMBER, member_id="mem_sample0000000000000000000").to_wire(),
        reason="admin",
        disbanded_at=SAMPLE_TS,
    ),
    GuildMemberJoined(
        **_GUILD,
        by=_BY_PLAYER,
        **PLAYER,
        role="member",
        via="open",
        member_count=2,
        joined_at=SAMPLE_TS,
    ),
    GuildMemberLeft(
        **_GUILD,
        by=_BY_PLAYER,
        **PLAYER,
        reason="left",
        role="member",
        member_count=1,
        left_at=SAMPLE_TS,
    ),
    GuildRoleChanged(
        **_GUILD,
        by=By(ByKind.SYSTEM).to_wire(),
        **PLAYER,
        from_="co_leader",
        to="leader",
        reason="succession_leader_inactive",
        changed_at=SAMPLE_TS,
    ),
    GuildJoinRequested(
        **_GUILD,
        by=_BY_PLAYER,
        request_id="gjr_sample0000000000000000000",
        **PLAYER,
        message="sample request",
        requested_at=SAMPLE_TS,
    ),
    GuildHelpRequested(
        **_GUILD,
        by=_BY_PLAYER,
        request_id=_HELP_REQUEST["request_id"],
        **PLAYER,
        type=_HELP_REQUEST["type"],
        resource_key=_HELP_REQUEST["resource_key"],
        amount=_HELP_REQUEST["amount"],
        expires_at=SAMPLE_TS,
    ),
    GuildHelpDonated(
        **_GUILD,
        by=By(ByKind.PLAYER, FRIEND_ID, FRIEND_EXTERNAL_ID).to_wire(),
        request_id=_HELP_REQUEST["request_id"],
        donation_id="gdn_sample0000000000000000000",
        grant_id="00000000-0000-7000-8000-000000000005",
        reward_grant_id="00000000-0000-7000-8000-000000000006",
        donor_player_id=FRIEND_ID,
        donor_external_player_id=FRIEND_EXTERNAL_ID,
        recipient_player_id=PLAYER["player_id"],
        recipient_external_player_id=PLAYER["external_player_id"],
        type=_HELP_REQUEST["type"],
        resource_key=_HELP_REQUEST["resource_key"],
        amount=2,
        costs_donor=True,
        costs_charged_by="platform",
        amount_received=2,
        amount_requested=_HELP_REQUEST["amount"],
        filled=False,
        donated_at=SAMPLE_TS,
    ),
)
