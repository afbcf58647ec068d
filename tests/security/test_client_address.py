"""The client's address behind a proxy (``serve --client-address-header``, docs/operators.md#lock-outs,
livecore_server/lockouts.py): every line of the header read as one list whose last value is the address,
a value that is not an IP address never a bucket (the connection's peer pays for it), one address one
bucket whatever its spelling, and the audit log trusting the address the lock-outs trust."""

from __future__ import annotations

import asyncio
from typing import Any
from unittest import mock

import httpx2
import pytest
from aiohttp.test_utils import make_mocked_request
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from multidict import CIMultiDict

from livecore_server.lockouts import client_address
from tests.conftest import World
from tests.security.cli_support import run, world_env
from tests.security.raw_http import exchange, request
from tests.server.admin_support import personal_key

PING = "/server/v1/ping"
UNKNOWN = "lc_test_" + "x" * 40  # the shape of a key, and nobody's
HEADER = "X-Forwarded-For"


@pytest.fixture
def world_config() -> dict[str, Any]:
    return {"client_address_header": HEADER, "auth_failures_per_minute": 3}


def counted(world: World) -> list[str]:
    """The addresses with failed authentications counted, as the database names them."""
    rows = world.rows("SELECT subject FROM rate_buckets WHERE bucket = 'auth_failure' ORDER BY subject")
    return [subject for (subject,) in rows]


async def ping(world: World, *lines: str, key: str = UNKNOWN) -> int:
    """A ping with ``key``, the header sent as one line per value of ``lines``."""
    headers = CIMultiDict([("Authorization", f"Bearer {world.keys.get(key, key)}")])
    for line in lines:
        headers.add(HEADER, line)
    async with world.client.get(PING, headers=headers) as resp:
        return resp.status


async def test_several_lines_of_the_header_are_one_list_whose_last_value_is_the_address(world: World) -> None:
    # A client writes a line of its own ahead of the proxy's, another address each time: it is not
    # counted apart from the address the proxy appended...
    for n in range(3):
        assert await ping(world, f"198.51.100.{n}", "203.0.113.9") == 401
    assert await ping(world, "198.51.100.99", "203.0.113.9", key="test-server") == 429
    # ...and lines with lists of their own are one list too.
    assert await ping(world, "198.51.100.7, 192.0.2.1", "192.0.2.2, 203.0.113.9", key="test-server") == 429
    # Nor does it lock out the address it wrote: that one was never counted.
    assert counted(world) == ["addr:203.0.113.9"]
    assert await ping(world, "198.51.100.0", key="test-server") == 200


@pytest.mark.usefixtures("no_error_logged")
@pytest.mark.parametrize(
    "value",
    [
        b"garbage",
        b"x" * 8000,
        b"1.2.3.\xe9",  # not UTF-8
        b"1.2.3.4.5",
        b"unknown",  # what RFC 7239 lets a proxy write
        b"203.0.113.9, ::1%",
        b"",
    ],
    ids=["garbage", "8000-characters", "not-utf-8", "five-parts", "unknown", "last-not-an-address", "empty"],
)
async def test_a_value_that_is_not_an_address_is_never_a_bucket_the_peer_pays_for_it(
    world: World, value: bytes
) -> None:
    raw = request("GET", PING, {"Authorization": f"Bearer {UNKNOWN}", HEADER: value})
    for _ in range(3):
        answer = await exchange(world, raw)
        assert (answer.status, answer.error["code"]) == (401, "invalid_api_key")
    answer = await exchange(world, raw)
    assert (answer.status, answer.error["code"]) == (429, "rate_limited")
    assert counted(world) == ["addr:127.0.0.1"]
    # Clients whose address the proxy wrote are not slowed.
    assert await ping(world, "203.0.113.10", key="test-server") == 200


async def test_one_address_is_one_bucket_whatever_its_spelling(world: World) -> None:
    spellings = {
        "::1": ["::1", "0:0:0:0:0:0:0:1", "[::1]", 'for="[0::1]:443";proto=https'],
        "2001:db8::1": ["2001:DB8::1", "2001:db8:0:0::1", 'for="[2001:db8::1]:443"', "[2001:db8::0:1]:8443"],
        "203.0.113.9": ["203.0.113.9", "::ffff:203.0.113.9", "203.0.113.9:5000", "For=[::ffff:cb00:7109]"],
    }
    for spelt in spellings.values():
        for spelling in spelt[:3]:
            assert await ping(world, spelling) == 401
        assert await ping(world, spelt[3], key="test-server") == 429
    assert counted(world) == [f"addr:{a}" for a in sorted(spellings)]

    db, env = world.services.config.db, world_env(world)
    listed = await asyncio.to_thread(run, "lockouts", "list", "--db", db, env=env)
    assert listed.exit_code == 0, listed.output
    assert sorted(line.split()[0] for line in listed.stdout.splitlines()) == sorted(spellings)
    # The command takes any spelling of the address too.
    cleared = await asyncio.to_thread(run, "lockouts", "clear", "0:0:0:0:0:0:0:1", "--db", db, env=env)
    assert (cleared.exit_code, cleared.stdout.strip()) == (0, "cleared"), cleared.output
    assert counted(world) == ["addr:2001:db8::1", "addr:203.0.113.9"]


def test_the_peer_is_normalised_as_the_header_is() -> None:
    transport = mock.Mock()
    transport.get_extra_info.side_effect = lambda name, default=None: (
        ("::ffff:192.0.2.4", 50000, 0, 0) if name == "peername" else default
    )
    req = make_mocked_request("GET", PING, transport=transport)
    assert client_address(req, None) == "192.0.2.4"
    assert client_address(req, HEADER) == "192.0.2.4"


async def test_the_audit_log_trusts_the_address_the_lock_outs_trust(world: World) -> None:
    proxied = {HEADER: "198.51.100.7, ::ffff:203.0.113.9"}
    status, body, _ = await world.call(
        "POST", "/sdk/v1/players/p1/register", key="test-client", headers=proxied
    )
    assert status == 201, body
    key = (await personal_key(world, "gina")).key
    assert key is not None
    grant = {
        "game": "space-race",
        "env": "test",
        "externalPlayerId": "p1",
        "entries": [{"type": "currency", "key": "coins", "amount": 25}],
        "reason": "sorry",
    }
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}", **proxied}) as http,
        streamable_http_client(str(world.client.make_url("/mcp")), http_client=http) as (read, write),
        ClientSession(read, write) as client,
    ):
        await client.initialize()
        assert not (await client.call_tool("grants_create", grant)).is_error
    entries = world.rows(
        "SELECT action, ip FROM audit_log WHERE action IN ('player.register', 'grant.manual_create')"
        " ORDER BY seq"
    )
    assert entries == [("player.register", "203.0.113.9"), ("grant.manual_create", "203.0.113.9")]
