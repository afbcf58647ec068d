"""A player's country from the client address, offline, when no CDN geo header names it
(docs/players.md#country).

Through the real app (both stores) with a stub lookup, since the test client always connects from
127.0.0.1 and the server trusts no forwarding header; the shipped lookup on known public addresses at the
unit level, and on the test client's loopback address through the app.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from livecore_server import cli, cli_serve
from livecore_server.config import Config
from livecore_server.geo import no_country, offline_country
from tests.conftest import World, start_world


class StubLookup:
    """Answers one country for every address and remembers the addresses it was asked about."""

    def __init__(self, country: str) -> None:
        self.country = country
        self.asked: list[str] = []

    def __call__(self, address: str) -> str | None:
        self.asked.append(address)
        return self.country


@pytest.fixture
def lookup() -> StubLookup:
    return StubLookup("fr")


@pytest.fixture
def world_config(lookup: StubLookup) -> dict[str, Any]:
    return {"country_of": lookup}


async def register(world: World, external_id: str, **kw: Any) -> dict[str, Any]:
    status, body, _ = await world.call(
        "POST", f"/sdk/v1/players/{external_id}/register", key="test-client", **kw
    )
    assert status == 201, body
    data: dict[str, Any] = body["data"]
    return data


async def test_register_without_geo_header_asks_the_lookup_for_the_client_address(
    world: World, lookup: StubLookup
) -> None:
    data = await register(world, "alice")
    assert lookup.asked == ["127.0.0.1"]
    assert data["country"] == "FR"  # normalized like a header's value
    assert data["anonymizedIdentity"]["country"] == "FR"


async def test_register_with_geo_header_does_not_ask_the_lookup(world: World, lookup: StubLookup) -> None:
    data = await register(world, "alice", headers={"CF-IPCountry": "DE"})
    assert lookup.asked == []
    assert data["country"] == "DE"


async def test_register_player_context_country_wins_over_the_address(world: World) -> None:
    data = await register(world, "alice", json={"playerContext": {"country": "br"}})
    assert data["country"] == "BR"


async def test_register_from_loopback_has_no_country_with_the_shipped_lookup(db_url: str) -> None:
    world = await start_world(db_url)
    try:
        assert world.services.config.country_of is offline_country
        data = await register(world, "alice")
        assert data["country"] is None
    finally:
        await world.client.close()


# Addresses whose block the registries assigned long ago and that the shipped data places so: public
# resolvers, a registry's own servers, a root server, a documented example of the package.
@pytest.mark.parametrize(
    ("address", "country"),
    [
        ("8.8.8.8", "US"),
        ("2001:4860:4860::8888", "US"),
        ("193.0.6.139", "NL"),
        ("2001:67c:2e8:22::c100:68b", "NL"),
        ("202.12.27.33", "JP"),
        ("1.0.16.1", "JP"),
        ("::ffff:193.0.6.139", "NL"),
    ],
)
def test_offline_lookup_of_a_public_address(address: str, country: str) -> None:
    assert offline_country(address) == country


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "::1",
        "::ffff:127.0.0.1",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.0.1",
        "100.64.0.1",
        "169.254.169.254",
        "fe80::1",
        "fd00::1",
        "0.0.0.0",
        "192.0.2.1",
        "2001:db8::1",
        "",
        "not an address",
    ],
)
def test_offline_lookup_of_a_non_public_address_has_no_country(address: str) -> None:
    assert offline_country(address) is None


def test_serve_no_ip_country_turns_the_lookup_off(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    built: list[Config] = []
    monkeypatch.setattr(cli_serve, "_serve", lambda config, *_, **__: built.append(config))
    monkeypatch.delenv("LIVECORE_IP_COUNTRY", raising=False)
    (tmp_path / "t.db").touch()  # serve runs only on a database that exists
    for args, env, expected in [
        ((), None, offline_country),
        (("--no-ip-country",), None, no_country),
        ((), {"LIVECORE_IP_COUNTRY": "0"}, no_country),
    ]:
        result = CliRunner().invoke(cli.main, ["serve", "--db", str(tmp_path / "t.db"), *args], env=env)
        assert result.exit_code == 0, result.output
        assert built.pop().country_of is expected


@pytest.mark.parametrize(
    ("kw", "why"),
    [
        ({"headers": {"CF-IPCountry": "XX"}}, "a CDN's unknown"),
        ({"headers": {"CF-IPCountry": "T1"}}, "a CDN's Tor"),
        ({"json": {"playerContext": {"country": "eu"}}}, "reserved, not a country"),
        ({"json": {"playerContext": {"country": "UK"}}}, "reserved: the code is GB"),
    ],
)
async def test_a_resolved_code_iso_3166_1_does_not_assign_is_no_country(
    world: World, kw: dict[str, Any], why: str
) -> None:
    data = await register(world, "alice", **kw)
    assert (data["country"], data["anonymizedIdentity"]["country"]) == (None, None), why
