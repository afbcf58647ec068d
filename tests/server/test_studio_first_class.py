"""A studio's area gets what a built-in one gets (tests/studio_bounty): its webhook kind read typed by the
clients (``construct_event(..., areas=[AREA])``), its typed manifest section on its reference page, a
check after a built-in command in the command's transaction (refusing rolls the whole write back), and an
admin route of its own action, admitted by role and audited, served through the real app and embedded."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from livecore.api.reference import studio_page
from livecore.exceptions import ConflictError
from livecore.simulation import Simulation
from livecore.webhooks.signing import signature_header
from livecore_client.webhooks import construct_event
from livecore_server.manifest import parse_manifest
from livecore_server.operators.apply import apply_manifest
from tests.conftest import TEST_MANIFEST, Receiver, World, start_world, webhook_manifest
from tests.server.admin_support import GAME, admin, ok, personal_key, refused, sign_in
from tests.studio_bounty import AREA, BOUNTIES, BountyPosted, BountySettings, NoteResponse

SECTION = """
[games.space-race.bounties]
enabled = true
reward = 7
"""
NOTE = f"{GAME}/bounties/ada/notes"
PACKAGE = "tests.studio_bounty"


async def _served(db: str, extra: str = "", *, every_event: bool = True) -> World:
    """A world serving the area (``serve --area``), its manifest applied with the area's section."""
    world = await start_world(db, areas=(PACKAGE,), every_event=every_event)
    services = world.services
    manifest = parse_manifest(TEST_MANIFEST + SECTION + extra, areas=(PACKAGE,))
    await asyncio.to_thread(apply_manifest, services.store, services.keys, services.runtime, manifest)
    return world


@pytest.fixture
async def bw(db_url: str) -> AsyncIterator[World]:
    world = await _served(db_url)
    try:
        yield world
    finally:
        await world.client.close()


async def test_the_after_check_emits_the_areas_webhook_with_the_registration(bw: World) -> None:
    await bw.register("ada")
    posted = [e for e in bw.events() if e.kind == "bounty.posted"]
    assert [e.payload["externalPlayerId"] for e in posted] == ["ada"]


async def test_an_after_check_that_refuses_rolls_the_registration_back(bw: World) -> None:
    status, body, _ = await bw.call("POST", "/sdk/v1/players/unlucky/register", key="test-client")
    assert (status, body["error"]["code"]) == (409, "bounty_refused")
    assert bw.rows("SELECT COUNT(*) FROM players WHERE external_id = 'unlucky'") == [(0,)]
    assert not [e for e in bw.events() if e.kind in ("bounty.posted", "player.registered")]


async def test_the_clients_read_the_areas_delivered_payload_typed(db_url: str, receiver: Receiver) -> None:
    hooks = webhook_manifest(bounties=("test", receiver.url, '["bounty.posted"]'))
    world = await _served(db_url, hooks, every_event=False)
    try:
        await world.register("ada")
        await world.dispatcher.drain_due()
        [received] = await receiver.wait_for(1)
        secret = "whsec_test_" + "a" * 32
        header = signature_header(secret, int(time.time()), received.body)
        event = construct_event(received.body, header, secret, areas=[AREA])
        assert event.data == BountyPosted(external_player_id="ada", reward=7)
        assert isinstance(construct_event(received.body, header, secret).data, dict)
    finally:
        await world.client.close()


async def test_the_admin_route_is_admitted_by_role_and_audited(bw: World) -> None:
    debugger = await sign_in(bw, "debby")
    answer = ok(await admin(bw, "POST", NOTE, debugger, json={"text": "found it"}))
    assert answer == {"player": "ada", "text": "found it"}
    viewer = await sign_in(bw, "vic")
    refused(await admin(bw, "POST", NOTE, viewer, json={"text": "no"}), 403, "permission_denied")
    entries = ok(await admin(bw, "GET", f"{GAME}/audit?action=bounties.note", debugger))["entries"]
    assert [(e["action"], e["target"], e["metadata"]["route"]) for e in entries] == [
        ("bounties.note", "ada", "admin.bounties.note")
    ]


async def test_the_typed_admin_client_calls_the_areas_route_with_a_personal_key(bw: World) -> None:
    from livecore_client.errors import PermissionDeniedError
    from tests.studio_bounty.client import AsyncBountyAdmin

    base = str(bw.client.make_url("")).rstrip("/")
    debugger = await personal_key(bw, "debby")
    assert debugger.key is not None
    async with AsyncBountyAdmin(debugger.key, studio="acme", base_url=base) as client:
        noted = await client.bounties.note("space-race", "ada", text="seen")
        assert noted == NoteResponse(player="ada", text="seen")
        [entry] = [e async for e in client.audit.iter(action="bounties.note")]
        assert entry.target == "ada" and entry.actor["kind"] == "personal_key"
    read_only = await personal_key(bw, "olga", readOnly=True)
    assert read_only.key is not None
    async with AsyncBountyAdmin(read_only.key, studio="acme", base_url=base) as client:
        with pytest.raises(PermissionDeniedError):
            await client.bounties.note("space-race", "ada", text="no")


async def test_the_admin_route_is_in_the_admin_document(bw: World) -> None:
    status, doc, _ = await bw.call("GET", "/admin/v1/openapi.json", key=None)
    assert status == 200
    op = doc["paths"]["/admin/v1/studios/{studio}/games/{game}/bounties/{externalId}/notes"]["post"]
    assert op["x-operator-action"] == "bounties.note"
    assert "`GAME_DEBUGGER`" in op["description"] or "game_debugger" in op["description"].lower()


def test_the_reference_page_shows_the_typed_section() -> None:
    page = studio_page([AREA])
    assert "## Manifest sections" in page
    assert "Its table: `[games.<key>.bounties]`." in page
    assert "| `reward` | integer | no | `1` |" in page
    assert "- `after_register` (area `bounties`)" in page


MANIFEST = """
studio = "acme"

[games.g]
name = "G"

[games.g.bounties]
enabled = true
reward = 3
"""


def test_embedded_the_section_the_after_check_and_the_webhook() -> None:
    sim = Simulation.from_manifest(MANIFEST, areas=[AREA])
    assert sim.game.settings.of(BOUNTIES) == BountySettings(enabled=True, reward=3)
    sim.player("ada")
    [posted] = sim.webhooks_of("bounty.posted")
    assert posted.payload == BountyPosted(external_player_id="ada", reward=3)
    with pytest.raises(ConflictError) as refusal:
        sim.player("unlucky")
    assert refusal.value.code == "bounty_refused"
    assert len(sim.webhooks_of("player.registered")) == 1


def test_the_areas_admin_route_is_an_mcp_tool_for_the_roles_its_action_allows() -> None:
    from livecore.operators.rules import Operator, Via
    from livecore.roles import Role
    from livecore_server.operators.mcp_tools import McpCaller, build_tools, tools_for
    from tests.studio_bounty import SERVER_AREA

    tools = build_tools(SERVER_AREA.served)
    assert [t.tool.name for t in tools] == ["bounties_note"]
    assert "audited as `bounties.note`" in tools[0].tool.description
    assert "GAME_DEBUGGER" in tools[0].tool.description

    def caller(role: Role) -> McpCaller:
        operator = Operator(member_id="m", studio_id="s", role=role, via=Via.MCP, key_id="k")
        return McpCaller(operator=operator, services=None, remote=None)  # type: ignore[arg-type]

    assert [t.name for t in tools_for(tools, caller(Role.GAME_DEBUGGER))] == ["bounties_note"]
    assert tools_for(tools, caller(Role.VIEWER)) == []


THREADED = """
studio = "acme"

[games.g]
name = "G"

[games.g.bounties]
enabled = true
reward = 2

[games.g.api_keys.client]
env = "test"
permission = "client_sdk"

[games.g.api_keys.server]
env = "test"
permission = "server_integration"
"""


def test_served_in_a_thread_the_section_and_the_after_check_apply(db_url: str) -> None:
    from livecore_server.testing import served

    with served(THREADED, db=db_url, areas=[PACKAGE]) as server:
        server.register("ada")
        status, body = server.call("POST", "/sdk/v1/players/unlucky/register")
        assert (status, body["error"]["code"]) == (409, "bounty_refused")
        games = server.services.store.run(lambda tx: tx.games.every(), write=False)
        assert [g.settings.of(BOUNTIES) for g in games] == [BountySettings(enabled=True, reward=2)]
