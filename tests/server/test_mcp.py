"""``/mcp`` of the reference server (livecore_server/operators/mcp_tools.py) through the test server on
127.0.0.1, spoken to with the ``mcp`` package's own client: the credential first (401 in the error
envelope), each principal's tools, and calls that run the admin routes, audited as the personal key's
``via: "mcp"``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

import httpx
import httpx2
import orjson
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from livecore.operators import api as admin
from livecore.operators.rules import DASHBOARD_ONLY
from livecore_server.operators.access import SESSION_COOKIE
from livecore_server.operators.mcp_tools import tool_name
from tests.conftest import World
from tests.server.admin_support import admin as admin_call
from tests.server.admin_support import personal_key, sign_in

READS = {
    "whoami",
    "members",
    "players_lookup",
    "webhooks_list",
    "webhooks_deliveries",
    "api_keys_list",
    "personal_keys_list",
    "audit",
    "game_audit",
}
GAME_ADMIN_WRITES = {
    "players_ban",
    "players_unban",
    "players_set_country",
    "players_edit_item_attributes",
    "players_rotate_secret",
    "grants_create",
    "grants_force_claim",
    "attempts_force_complete",
    "attempts_retry_reward_roll",
    "webhooks_create",
    "webhooks_unpause",
    "webhooks_send_sample",
    "webhooks_rotate_secret",
    "deliveries_replay",
}
# What the dashboard-only routes' tools would be named, were there any.
DASHBOARD_TOOLS = {tool_name(route) for route in admin.ROUTES if route.action in DASHBOARD_ONLY}
COINS = [{"type": "currency", "key": "coins", "amount": 25}]


async def key_of(world: World, member: str, **body: Any) -> str:
    """The secret of a personal key ``member`` made in the portal."""
    key = (await personal_key(world, member, **body)).key
    assert key is not None
    return key


def url(world: World) -> str:
    return str(world.client.make_url("/mcp"))


@asynccontextmanager
async def mcp_session(world: World, key: str) -> AsyncIterator[ClientSession]:
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}) as http,
        streamable_http_client(url(world), http_client=http) as (read, write),
        ClientSession(read, write) as client,
    ):
        await client.initialize()
        yield client


async def tool_names(world: World, key: str) -> set[str]:
    async with mcp_session(world, key) as client:
        return {tool.name for tool in (await client.list_tools()).tools}


async def refused(world: World, key: str) -> None:
    """The package's client gets no session with ``key``: the server's 401 is its error."""
    with pytest.raises(ExceptionGroup) as info:
        await tool_names(world, key)
    assert info.group_contains(MCPError, match="Server returned an error response")


def only_text(result: Any) -> str:
    [content] = result.content
    assert content.type == "text"
    return str(content.text)


async def test_without_a_valid_personal_key_it_is_401_in_the_envelope_before_anything_else(
    world: World,
) -> None:
    expired = await key_of(world, "dev", expiresInDays=7)
    session = (await sign_in(world, "gina")).session
    assert session is not None
    world.clock.advance(timedelta(days=7, seconds=1).total_seconds())
    credentials = {
        "no key": {},
        "a wrong key": {"Authorization": "Bearer svc_pk_" + "x" * 43},
        "not a bearer": {"Authorization": f"Basic {expired}"},
        "an API key": {"Authorization": f"Bearer {world.keys['test-server']}"},
        "an expired personal key": {"Authorization": f"Bearer {expired}"},
        "a portal session": {"Cookie": f"{SESSION_COOKIE}={session}"},
    }
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "whoami", "arguments": {}}}
    async with httpx.AsyncClient() as http:
        for case, headers in credentials.items():
            # A well-formed call, and a body nothing else would accept: the credential answers first.
            for body in (orjson.dumps(call), b"\x00not json"):
                answer = await http.post(url(world), content=body, headers=headers)
                assert answer.status_code == 401, case
                assert answer.headers["Content-Type"].startswith("application/json"), case
                error = answer.json()["error"]
                assert error["code"] == "invalid_api_key", case
                assert set(error) == {"code", "message"}, case
            assert (await http.get(url(world), headers=headers)).status_code == 401, case

        # With a key, a GET (no standalone stream) is a 405 in the envelope too.
        good = await key_of(world, "gina")
        answer = await http.get(url(world), headers={"Authorization": f"Bearer {good}"})
    assert (answer.status_code, answer.headers["Allow"]) == (405, "POST")
    assert answer.json()["error"]["code"] == "method_not_allowed"
    assert "RateLimit-Remaining" in answer.headers

    # The package's client is refused as well.
    await refused(world, expired)


async def test_each_key_lists_the_tools_its_roles_allow_and_never_a_dashboard_only_one(world: World) -> None:
    gina = await key_of(world, "gina")
    async with mcp_session(world, gina) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(tools) == READS | GAME_ADMIN_WRITES
    assert len(DASHBOARD_TOOLS) == 5 and not set(tools) & DASHBOARD_TOOLS
    assert {
        name for name, tool in tools.items() if tool.annotations and tool.annotations.read_only_hint
    } == READS
    grant = tools["grants_create"]
    assert "grant.manual_create" in (grant.description or "")
    schema = grant.input_schema
    assert set(schema["required"]) == {"game", "externalPlayerId", "entries"}
    assert "studio" not in schema["properties"]
    assert schema["properties"]["env"]["enum"] == ["test", "live"]
    assert schema["properties"]["entries"]["items"]["required"] == ["type", "key", "amount"]

    vic = await key_of(world, "vic")  # a VIEWER
    assert await tool_names(world, vic) == READS
    debby = await key_of(world, "debby")  # a GAME_DEBUGGER: no manual grant, no webhooks
    assert await tool_names(world, debby) == READS | {
        "players_ban",
        "players_unban",
        "players_set_country",
        "players_edit_item_attributes",
        "grants_force_claim",
        "attempts_force_complete",
        "attempts_retry_reward_roll",
    }
    # A read-only GAME_ADMIN key (it revokes gina's key above), and one carrying a lower role.
    assert await tool_names(world, await key_of(world, "gina", readOnly=True)) == READS
    assert await tool_names(world, await key_of(world, "gina", role="VIEWER")) == READS
    await refused(world, gina)  # revoked by the keys made after it


async def test_a_game_admin_looks_up_a_player_and_grants_through_mcp_audited_as_the_key(world: World) -> None:
    await world.register("p1")
    gina = await key_of(world, "gina")
    async with mcp_session(world, gina) as client:
        me = (await client.call_tool("whoami", {})).structured_content
        looked = await client.call_tool(
            "players_lookup", {"game": "space-race", "externalId": "p1", "env": "test"}
        )
        granted = await client.call_tool(
            "grants_create",
            {
                "game": "space-race",
                "env": "test",
                "externalPlayerId": "p1",
                "entries": COINS,
                "reason": "sorry",
            },
        )
        audit = await client.call_tool(
            "audit", {"game": "space-race", "action": "grant.manual_create", "limit": 5}
        )
        again = await client.call_tool(
            "players_lookup", {"game": "space-race", "externalId": "p1", "env": "test"}
        )

    assert me is not None
    assert (me["via"], me["readOnly"], me["member"]["key"], me["csrfToken"]) == ("mcp", False, "gina", None)
    assert not looked.is_error
    profile = looked.structured_content
    assert profile is not None and profile == orjson.loads(only_text(looked))
    assert profile["ban"] == {"externalPlayerId": "p1", "banned": False, "reason": None, "bannedAt": None}
    assert profile["profile"]["grants"] == []

    assert not granted.is_error, only_text(granted)
    grant = (granted.structured_content or {})["grant"]
    assert (grant["externalPlayerId"], grant["status"], grant["entries"]) == ("p1", "pending", COINS)
    assert isinstance(grant["createdAt"], str) and grant["createdAt"].endswith("Z")
    [created] = [e for e in world.events() if e.kind == "grant.created"]
    assert created.payload["grantId"] == grant["grantId"]

    [entry] = (audit.structured_content or {})["entries"]
    assert entry["action"] == "grant.manual_create"
    assert entry["target"] == "player:p1"
    assert entry["actor"] == {
        "kind": "personal_key",
        "memberId": me["member"]["memberId"],
        "keyId": me["keyId"],
        "via": "mcp",
    }
    assert entry["metadata"] == {
        "env": "test",
        "grantId": grant["grantId"],
        "kind": "reward",
        "reason": "sorry",
    }
    assert entry["ip"] == "127.0.0.1"
    # The look-up shows the grant and the audit entry too.
    later = again.structured_content or {}
    assert [g["grantId"] for g in later["profile"]["grants"]] == [grant["grantId"]]
    # (newest first: the grant, then the player's registration)
    assert [(e["id"], e["action"]) for e in later["audit"]] == [
        (entry["id"], "grant.manual_create"),
        (later["audit"][1]["id"], "player.register"),
    ]


async def test_refusals_come_back_as_tool_errors_with_their_code(world: World) -> None:
    await world.register("p1")
    gina = await key_of(world, "gina")
    async with mcp_session(world, gina) as client:
        ghost = await client.call_tool(
            "players_lookup", {"game": "space-race", "externalId": "ghost", "env": "test"}
        )
        live = await client.call_tool("players_lookup", {"game": "space-race", "externalId": "p1"})
        no_game = await client.call_tool("players_lookup", {"game": "nope", "externalId": "p1"})
        invalid = await client.call_tool(
            "grants_create", {"game": "space-race", "externalPlayerId": "p1", "entries": []}
        )
        unknown = await client.call_tool("whoami", {"studio": "other"})
        live_hook = await client.call_tool(
            "webhooks_create",
            {
                "game": "space-race",
                "name": "h",
                "env": "live",
                "url": "https://example.test/h",
                "events": ["grant.created"],
            },
        )
    assert ghost.is_error and only_text(ghost) == "player_not_found: No player 'ghost' in test."
    # space-race has live keys too, so no environment named is live, and p1 is a test player.
    assert live.is_error and only_text(live) == (
        "player_not_found: No player 'p1' in live. A player with this id exists in test."
    )
    assert no_game.is_error and only_text(no_game).startswith("not_found: ")
    assert invalid.is_error and only_text(invalid).startswith("invalid_request: ")
    assert unknown.is_error and only_text(unknown).startswith("invalid_request: Unknown argument: studio")
    assert live_hook.is_error and only_text(live_hook).startswith("dashboard_only: ")
    assert [e for e in world.events() if e.kind == "grant.created"] == []

    vic = await key_of(world, "vic")
    async with mcp_session(world, vic) as client:
        with pytest.raises(MCPError, match="Unknown tool: grants_create"):
            await client.call_tool(
                "grants_create", {"game": "space-race", "externalPlayerId": "p1", "entries": COINS}
            )
    audited = world.rows("SELECT action FROM audit_log")
    assert ("grant.manual_create",) not in audited


async def test_a_key_rotates_a_test_endpoints_secret_and_is_refused_a_live_ones(world: World) -> None:
    """A rotation's answer shows the new secret, as the admin API's does; a live endpoint's secret is
    dashboard-only (docs/webhooks.md#rolling-the-signing-secret)."""
    dev = await sign_in(world, "dev")
    ids: dict[str, str] = {}
    for env in ("test", "live"):
        hook = {"name": f"h-{env}", "env": env, "url": "https://example.test/h", "events": ["*"]}
        made = await admin_call(
            world, "POST", "/admin/v1/studios/acme/games/space-race/webhooks", dev, json=hook
        )
        assert made[0] == 201, made[1]
        ids[env] = made[1]["data"]["endpoint"]["endpointId"]
    async with mcp_session(world, await key_of(world, "dev")) as client:
        rotated = await client.call_tool(
            "webhooks_rotate_secret", {"game": "space-race", "endpointId": ids["test"], "overlapSeconds": 0}
        )
        live = await client.call_tool(
            "webhooks_rotate_secret", {"game": "space-race", "endpointId": ids["live"]}
        )
    assert not rotated.is_error
    answer = orjson.loads(only_text(rotated))
    assert answer["secret"].startswith("whsec_") and answer["endpoint"]["previousSecretExpiresAt"] is None
    assert live.is_error and only_text(live).startswith("dashboard_only: ")
    actors = world.rows("SELECT target, actor FROM audit_log WHERE action = 'webhook.secret_rotate'")
    assert [
        (target, orjson.loads(bytes(actor) if isinstance(actor, memoryview) else actor)["via"])
        for target, actor in actors
    ] == [(f"webhook:{ids['test']}", "mcp")]
