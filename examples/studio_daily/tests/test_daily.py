"""studio_daily's own suite, as a studio writes it with the scaffold (livecore_server.testing): the area
served on SQLite and PostgreSQL, and embedded in a Simulation, from one manifest."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from livecore.exceptions import LivecoreAPIError
from livecore.manifest import ManifestError
from livecore.players.actor import acting
from livecore_server.manifest import parse_manifest
from livecore_server.testing import served
from studio_daily import AREA, CLAIM, claim
from studio_daily.typed import Simulation

MANIFEST = """
studio = "acme"

[plugins]
areas = ["studio_daily"]

[games.g]
name = "G"

[games.g.gifting]
enabled = true

[games.g.resources.gold]
type = "currency"
giftable = true
max_per_gift = 100

[games.g.resources.gems]
type = "currency"
giftable = true
max_per_gift = 10

[games.g.areas.daily]
resource = "gems"
amount = 5

[games.g.api_keys.client]
env = "test"
permission = "client_sdk"

[games.g.api_keys.server]
env = "test"
permission = "server_integration"
"""
CLAIM_PATH = "/sdk/v1/players/{}/daily/claim"
LAST_MINUTE = datetime(2026, 3, 2, 23, 59, tzinfo=UTC)


# --- served ---------------------------------------------------------------------------------------------


def test_a_claim_grants_the_days_bonus_once_a_day(livecore_db: str) -> None:
    with served(MANIFEST, db=livecore_db, start=LAST_MINUTE) as server:
        secret = server.register("ada")
        status, body = server.call("POST", CLAIM_PATH.format("ada"), secret=secret)
        assert status == 200, body
        grant = body["data"]["grant"]
        assert grant["status"] == "pending" and grant["sourceKind"] == "daily_bonus"
        assert grant["entries"] == [{"type": "currency", "key": "gems", "amount": 5}]
        status, body = server.call("POST", CLAIM_PATH.format("ada"), secret=secret)
        assert (status, body["error"]["code"]) == (409, "daily_already_claimed")
        server.advance(60)  # the next day (UTC)
        assert server.call("POST", CLAIM_PATH.format("ada"), secret=secret)[0] == 200


def test_a_banned_player_is_refused_with_no_check_of_the_areas_own(livecore_db: str) -> None:
    with served(MANIFEST, db=livecore_db) as server:
        secret = server.register("ada")
        server.ban("ada")
        status, body = server.call("POST", CLAIM_PATH.format("ada"), secret=secret)
        assert (status, body["error"]["code"]) == (403, "player_banned")
        status, body = server.call("GET", "/sdk/v1/players/ada/pending-grants", secret=secret)
        assert status == 200 and body["data"]["grants"] == []


def test_the_bonus_may_not_be_gifted(livecore_db: str) -> None:
    with served(MANIFEST, db=livecore_db) as server:
        ada, bea = server.register("ada"), server.register("bea")
        status, body = server.call(
            "POST", "/sdk/v1/players/ada/friends/requests", secret=ada, json={"externalPlayerId": "bea"}
        )
        assert status in (200, 201), body
        request_id = body["data"]["request"]["requestId"]
        accept = f"/sdk/v1/players/bea/friends/requests/{request_id}/accept"
        assert server.call("POST", accept, secret=bea)[0] == 200
        gift = {"type": "currency", "amount": 1, "externalPlayerId": "bea"}
        status, body = server.call(
            "POST", "/sdk/v1/players/ada/friends/gifts", secret=ada, json={**gift, "resourceKey": "gems"}
        )
        assert (status, body["error"]["code"]) == (409, "daily_not_giftable")
        status, body = server.call(
            "POST", "/sdk/v1/players/ada/friends/gifts", secret=ada, json={**gift, "resourceKey": "gold"}
        )
        assert status == 201, body


def test_apply_refuses_a_bonus_resource_the_game_does_not_declare() -> None:
    with pytest.raises(ManifestError) as refused:
        parse_manifest(MANIFEST.replace('resource = "gems"', 'resource = "silver"'))
    assert list(refused.value.problems) == ["games.g.areas.daily.resource"]


# --- embedded -------------------------------------------------------------------------------------------


def test_embedded_a_claim_grants_the_bonus_and_a_banned_player_is_refused() -> None:
    sim = Simulation.from_manifest(MANIFEST, areas=[AREA])
    ada = sim.player("ada")
    granted = ada.daily.claim().grant  # typed: studio_daily.typed, generated from the area
    assert [(e.key, e.amount) for e in granted.entries] == [("gems", 5)]
    with pytest.raises(LivecoreAPIError) as again:
        ada.daily.claim()
    assert again.value.code == "daily_already_claimed"
    sim.server.players.ban("ada", reason="cheating")
    sim.advance(days=1)
    with pytest.raises(LivecoreAPIError) as refused:
        ada.daily.claim()
    assert refused.value.code == "player_banned"


def test_embedded_the_command_called_directly_admits_its_player_as_the_route_does() -> None:
    sim = Simulation.from_manifest(MANIFEST, areas=[AREA])
    sim.player("ada")
    sim.server.players.ban("ada", reason="cheating")
    with pytest.raises(LivecoreAPIError) as refused:
        sim.run(lambda tx: claim(tx, sim.rt, sim.scope, acting(tx, sim.scope, CLAIM, "ada")))
    assert refused.value.code == "player_banned"


def test_embedded_the_bonus_may_not_be_gifted() -> None:
    sim = Simulation.from_manifest(MANIFEST, areas=[AREA])
    ada, bea = sim.player("ada"), sim.player("bea")
    asked = ada.friends.send_request(external_player_id=bea)
    assert asked.request is not None
    bea.friends.accept_request(asked.request.request_id)
    with pytest.raises(LivecoreAPIError) as refused:
        ada.gifts.send(type="currency", resource_key="gems", amount=1, external_player_id=bea)
    assert refused.value.code == "daily_not_giftable"


def test_embedded_the_manifest_is_refused_as_apply_refuses_it() -> None:
    with pytest.raises(ManifestError) as refused:
        Simulation.from_manifest(MANIFEST.replace('resource = "gems"', 'resource = "silver"'), areas=[AREA])
    assert list(refused.value.problems) == ["games.g.areas.daily.resource"]
