"""The admin clients against the real server (the conftest ``live_server``, on each store): a GAME_ADMIN's
personal key, made as the portal makes it (a sign-in link redeemed into a session, then its CSRF token),
looks a player up, grants it by hand (the player sees the grant pending through ``SdkClient``), bans and
unbans it, is refused the dashboard-only actions, and finds all of it in the audit log. Proves the client
and the server agree on the admin wire, which the mocked tests cannot."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from livecore_client import (
    AdminClient,
    AsyncAdminClient,
    AsyncSdkClient,
    DashboardOnlyError,
    InsufficientQuantityError,
    InvalidRequestError,
    PlayerBannedError,
    PlayerNotFoundError,
    ResourceNotFoundError,
    SdkClient,
    ServerClient,
    WebhookEndpointNotFoundError,
)
from livecore_client.models import GrantStatus, MemberRole, OperatorAction, ResourceType, RewardEntry
from livecore_server.operators.access import CSRF_HEADER, SESSION_COOKIE
from tests.client.live_support import LiveGame, serve_game
from tests.conftest import BACKENDS, LiveServer, login_link

GAME = "space-race"
COINS = RewardEntry(type=ResourceType.CURRENCY, key="coins", amount=25)
_ids = itertools.count()


def personal_key(live: LiveServer | LiveGame, member: str) -> str:
    """A personal key ``member`` makes in the portal: a sign-in link redeemed into a session, then
    POST personal-keys with the session's cookie and CSRF token."""
    token = login_link(live.services, member)
    with httpx.Client(base_url=live.base_url) as http:
        # The link's button, from the portal's own page: a session cookie.
        pressed = http.post(f"/portal/login/{token}", headers={"Origin": live.base_url})
        assert pressed.status_code == 303, pressed.text
        session = http.cookies[SESSION_COOKIE]
        cookie = {"Cookie": f"{SESSION_COOKIE}={session}"}
        http.cookies.clear()
        me = http.get("/admin/v1/me", headers=cookie)
        assert me.status_code == 200, me.text
        made = http.post(
            "/admin/v1/studios/acme/personal-keys",
            headers={**cookie, CSRF_HEADER: me.json()["data"]["csrfToken"]},
            json={"expiresInDays": 30},
        )
    assert made.status_code == 201, made.text
    secret: str = made.json()["data"]["secret"]
    return secret


@pytest.fixture(scope="module")
def gina(live_server: LiveServer) -> str:
    """gina's (GAME_ADMIN) personal key on this module's server."""
    return personal_key(live_server, "gina")


def test_operator_looks_up_grants_bans_and_audits(live_server: LiveServer, gina: str) -> None:
    player = f"admin-live-{next(_ids)}"
    with (
        AdminClient(gina, studio="acme", base_url=live_server.base_url) as admin,
        SdkClient(live_server.keys["test-client"], base_url=live_server.base_url) as sdk,
    ):
        me = admin.members.me()
        assert (me.member.key, me.member.role, me.studio_key) == ("gina", MemberRole.GAME_ADMIN, "acme")
        assert me.key_id is not None and me.csrf_token is None  # a key sends no CSRF token
        assert GAME in [g.key for g in me.games]

        sdk.player_secret = sdk.players.register(player).player_secret
        found = admin.players.lookup(GAME, player, env="test")
        assert (found.profile.player.external_player_id, found.ban.banned) == (player, False)
        # No env: space-race has live keys too, so live, where the player is not; the error names test.
        with pytest.raises(PlayerNotFoundError) as missed:
            admin.players.lookup(GAME, player)
        assert missed.value.details == {"externalPlayerId": player, "existsIn": "test"}

        grant = admin.grants.create(GAME, player, [COINS], env="test", reason="support ticket 7").grant
        assert (grant.status, grant.source_kind) == (GrantStatus.PENDING, "admin")
        pending = sdk.grants.pending(player).grants
        assert [(g.grant_id, g.entries[0].amount) for g in pending] == [(grant.grant_id, 25)]

        banned = admin.players.ban(GAME, player, reason="chargeback", env="test")
        assert (banned.applied, banned.ban.banned, banned.ban.reason) == (True, True, "chargeback")
        with pytest.raises(PlayerBannedError):
            sdk.grants.claim(player, grant.grant_id)
        unbanned = admin.players.unban(GAME, player, env="test")
        assert (unbanned.applied, unbanned.ban.banned) == (True, False)
        assert sdk.grants.claim(player, grant.grant_id).grant.status is GrantStatus.CLAIMED

        entries = list(admin.audit.iter(game=GAME, target=f"player:{player}", page_size=2))
        # The registration is audited too, with the client key as its actor.
        assert [e.action for e in entries] == [
            "player.unban",
            "player.ban",
            "grant.manual_create",
            "player.register",
        ]
        assert {e.actor["kind"] for e in entries[:3]} == {"personal_key"}
        assert {e.actor["keyId"] for e in entries[:3]} == {me.key_id}
        assert entries[3].actor["kind"] == "api_key"
        assert entries[2].metadata["grantId"] == grant.grant_id
        page = admin.audit.list(action=OperatorAction.BAN, target=f"player:{player}")
        assert ([e.action for e in page.entries], page.next_before) == (["player.ban"], None)
        # The game's own audit route answers what the studio's answers narrowed to the game.
        by_game = admin.audit.game(GAME, target=f"player:{player}", limit=2)
        assert [e.id for e in by_game.entries] == [e.id for e in entries[:2]]
        rest = admin.audit.game(GAME, target=f"player:{player}", before=by_game.next_before)
        assert ([e.id for e in rest.entries], rest.next_before) == ([e.id for e in entries[2:]], None)
        assert [e.action for e in admin.players.lookup(GAME, player, env="test").audit] == [
            e.action for e in entries
        ]


def test_dashboard_only_actions_are_refused_to_a_key(live_server: LiveServer, gina: str) -> None:
    with AdminClient(gina, studio="acme", base_url=live_server.base_url) as admin:
        with pytest.raises(DashboardOnlyError) as info:
            admin.api_keys.create(GAME, name="from-a-script", env="test", permission="server_integration")
        assert (info.value.status, info.value.code) == (403, "dashboard_only")
        with pytest.raises(DashboardOnlyError):
            admin.personal_keys.create(expires_in_days=30)
        with pytest.raises(DashboardOnlyError):  # a live endpoint; a test one a key may make
            admin.webhooks.create_endpoint(
                GAME, name="live-hook", env="live", url="https://hooks.acme.test/x", events=["player.banned"]
            )
        assert [k.name for k in admin.api_keys.list(GAME).keys if k.name == "from-a-script"] == []


def test_an_endpoints_secret_is_rotated_with_an_overlap(live_server: LiveServer, gina: str) -> None:
    name = f"rotating-{next(_ids)}"
    with AdminClient(gina, studio="acme", base_url=live_server.base_url) as admin:
        made = admin.webhooks.create_endpoint(
            GAME, name=name, env="test", url="https://hooks.acme.test/x", events=["player.banned"]
        )
        endpoint_id = made.endpoint.endpoint_id
        assert made.endpoint.previous_secret_expires_at is None
        rotated = admin.webhooks.rotate_secret(GAME, endpoint_id, overlap_seconds=3600)
        assert rotated.secret.startswith("whsec_") and rotated.secret != made.secret
        until = rotated.endpoint.previous_secret_expires_at
        assert until is not None
        (listed,) = [e for e in admin.webhooks.endpoints(GAME).endpoints if e.endpoint_id == endpoint_id]
        assert listed == rotated.endpoint
        with pytest.raises(InvalidRequestError) as bad:
            admin.webhooks.rotate_secret(GAME, endpoint_id, overlap_seconds=7 * 24 * 3600 + 1)
        assert "overlapSeconds" in bad.value.details["fields"]
        with pytest.raises(WebhookEndpointNotFoundError):
            admin.webhooks.rotate_secret(GAME, "whe_unknown")
        (entry,) = admin.audit.game(
            GAME, action="webhook.secret_rotate", target=f"webhook:{endpoint_id}"
        ).entries
        assert entry.metadata == {"overlapSeconds": 3600, "droppedPreviousSecret": False}


async def test_async_client_on_the_same_wire(live_server: LiveServer, gina: str) -> None:
    player = f"admin-live-{next(_ids)}"
    async with (
        AsyncAdminClient(gina, studio="acme", base_url=live_server.base_url) as admin,
        AsyncSdkClient(live_server.keys["test-client"], base_url=live_server.base_url) as sdk,
    ):
        secret = (await sdk.players.register(player)).player_secret
        grant = (await admin.grants.create(GAME, player, [COINS], env="test")).grant
        claimed = (await admin.grants.force_claim(GAME, grant.grant_id, reason="stuck", env="test")).grant
        assert (claimed.grant_id, claimed.status) == (grant.grant_id, GrantStatus.CLAIMED)
        assert (await sdk.grants.pending(player, player_secret=secret)).grants == []
        with pytest.raises(WebhookEndpointNotFoundError):
            await admin.webhooks.deliveries(GAME, "whe_unknown")
        hook = await admin.webhooks.create_endpoint(
            GAME, name=f"async-{player}", env="test", url="https://hooks.acme.test/y", events=["*"]
        )
        # Without an overlap named, the old secret signs for 24 hours more; 0 stops it at once.
        rolled = await admin.webhooks.rotate_secret(GAME, hook.endpoint.endpoint_id)
        assert rolled.endpoint.previous_secret_expires_at is not None
        stopped = await admin.webhooks.rotate_secret(GAME, hook.endpoint.endpoint_id, overlap_seconds=0)
        assert stopped.endpoint.previous_secret_expires_at is None
        assert len({hook.secret, rolled.secret, stopped.secret}) == 3
        actions: list[Any] = [
            e.action async for e in admin.audit.iter(game=GAME, target=f"player:{player}", page_size=1)
        ]
        # A force-claim names the grant, not the player.
        assert actions == ["grant.manual_create", "player.register"]
        forced = [
            e
            async for e in admin.audit.iter(
                action="grant.manual_force_claim", target=f"grant:{grant.grant_id}"
            )
        ]
        assert [e.metadata["externalPlayerId"] for e in forced] == [player]


# An item whose catalog declares attributes, in a platform-managed game of the test studio.
FORGE = """
[games.forge]
name = "Forge"
economy = "platform"

[games.forge.resources.sword]
type = "item"
parameters = { level = 1, color = "red" }

[games.forge.api_keys.test-client]
env = "test"
permission = "client_sdk"

[games.forge.api_keys.test-server]
env = "test"
permission = "server_integration"
"""


@pytest.fixture(scope="module", params=BACKENDS)
def forge(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveGame]:
    yield from serve_game(request, tmp_path_factory, FORGE, "forge")


def test_operator_overrides_a_players_country_and_edits_an_items_attributes(forge: LiveGame) -> None:
    """The typed methods on the wire: the override shows in the register answer and the look-up and is
    cleared with None; an attribute edit answers the merged values and refuses an undeclared attribute
    naming it."""
    key = personal_key(forge, "debby")
    with (
        AdminClient(key, studio="acme", base_url=forge.base_url) as admin,
        SdkClient(forge.keys["test-client"], base_url=forge.base_url) as sdk,
    ):
        sdk.player_secret = sdk.players.register("ada").player_secret
        done = admin.players.set_country("forge", "ada", "se", reason="ticket 12")
        assert (done.applied, done.country.country, done.country.country_override) == (True, "SE", "SE")
        assert admin.players.lookup("forge", "ada").country == done.country
        again = sdk.players.register("ada", force=True)  # a new secret; the answer shows the override
        assert again.country == "SE"
        sdk.player_secret = again.player_secret
        cleared = admin.players.set_country("forge", "ada", None)
        assert (cleared.applied, cleared.country.country_override) == (True, None)
        with pytest.raises(InvalidRequestError) as bad_country:
            admin.players.set_country("forge", "ada", "Sweden")
        assert "country" in bad_country.value.details["fields"]

        with pytest.raises(InsufficientQuantityError):  # ada holds no sword yet: nothing to edit
            admin.players.edit_item_attributes("forge", "ada", "sword", {"level": 3})
        with ServerClient(forge.keys["test-server"], base_url=forge.base_url) as server:
            server.inventory.grant("ada", "sword", 1)
        edited = admin.players.edit_item_attributes("forge", "ada", "sword", {"level": 3}, reason="ticket 13")
        assert (edited.key, edited.delta, edited.parameters) == ("sword", 0, {"level": 3, "color": "red"})
        inventory = {i.key: i.parameters for i in sdk.inventory.get("ada").items if not i.system}
        assert inventory == {"sword": {"level": 3, "color": "red"}}
        with pytest.raises(InvalidRequestError) as bad_attribute:
            admin.players.edit_item_attributes("forge", "ada", "sword", {"glow": True, "level": "3"})
        assert set(bad_attribute.value.details["fields"]) == {"attributes.glow", "attributes.level"}
        with pytest.raises(ResourceNotFoundError):
            admin.players.edit_item_attributes("forge", "ada", "shield", {"level": 3})
        entries = admin.audit.game("forge", target="player:ada").entries
        assert [e.action for e in entries if e.action != "player.register"] == [
            OperatorAction.EDIT_ITEM_ATTRIBUTES,
            OperatorAction.SET_COUNTRY,
            OperatorAction.SET_COUNTRY,
        ]
