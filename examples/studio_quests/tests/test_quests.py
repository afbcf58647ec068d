"""studio_quests' own suite, with the scaffold (livecore_server.testing): the area served on SQLite and
PostgreSQL, and embedded; what every player route needs (a registered player, its secret, no ban on a
write) the runtime applies, the area declares none of it."""

from __future__ import annotations

import pytest

from livecore.exceptions import LivecoreAPIError
from livecore.players.actor import acting
from livecore.simulation import Simulation
from livecore_server.testing import served
from studio_quests import api, commands
from studio_quests.area import AREA

MANIFEST = """
studio = "acme"

[plugins]
areas = ["studio_quests"]

[games.g]
name = "G"

[games.g.resources.gold]
type = "currency"

[games.g.areas.quests]
reward_resource = "gold"
reward_amount = 50

[games.g.api_keys.client]
env = "test"
permission = "client_sdk"

[games.g.api_keys.server]
env = "test"
permission = "server_integration"
"""
CHECK_IN = "/sdk/v1/players/ada/quests/check-in"


def test_a_check_in_is_granted_then_refused_the_same_day(livecore_db: str) -> None:
    with served(MANIFEST, db=livecore_db) as server:
        secret = server.register("ada")
        status, body = server.call("POST", CHECK_IN, secret=secret)
        assert status == 200, body
        assert body["data"]["grant"]["entries"] == [{"type": "currency", "key": "gold", "amount": 50}]
        status, body = server.call("POST", CHECK_IN, secret=secret)
        assert (status, body["error"]["code"]) == (409, "quest_already_checked_in")


def test_served_a_banned_player_is_refused_and_still_reads(livecore_db: str) -> None:
    with served(MANIFEST, db=livecore_db) as server:
        secret = server.register("ada")
        server.ban("ada")
        status, body = server.call("POST", CHECK_IN, secret=secret)
        assert (status, body["error"]["code"]) == (403, "player_banned")
        status, body = server.call("GET", "/sdk/v1/players/ada/quests", secret=secret)
        assert status == 200 and body["data"]["quest"]["totalCheckIns"] == 0


def test_embedded_a_banned_player_is_refused_and_still_reads() -> None:
    sim = Simulation.from_manifest(MANIFEST, areas=[AREA])
    ada = sim.player("ada")
    sim.server.players.ban("ada", reason="cheating")
    with pytest.raises(LivecoreAPIError) as refused:
        ada.quests.check_in()
    assert refused.value.code == "player_banned"
    assert ada.quests.get().quest.total_check_ins == 0
    assert sim.server.quests.get("ada").quest.total_check_ins == 0


def test_embedded_a_command_called_for_a_banned_player_is_refused_as_its_route_is() -> None:
    sim = Simulation.from_manifest(MANIFEST, areas=[AREA])
    sim.player("ada")
    sim.server.players.ban("ada", reason="cheating")
    with pytest.raises(LivecoreAPIError) as refused:
        sim.run(
            lambda tx: commands.check_in(
                tx, sim.rt, sim.scope, acting(tx, sim.scope, api.SDK_CHECK_IN, "ada")
            )
        )
    assert refused.value.code == "player_banned"
