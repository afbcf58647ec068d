"""Which environment an operator acts in when the request names none (the one the game has API keys
in, live when it has both), and a look-up that misses in one environment saying whether the other has
the player: on the admin API and on the portal's look-up page (docs/operators.md#environments)."""

from __future__ import annotations

import pytest

from livecore.operators.rules import default_environment
from livecore.scope import Environment
from tests.conftest import World
from tests.server.admin_support import STUDIO, admin, ok, refused, sign_in

# The test manifest: space-race has test and live keys, other-game only test keys.
SPACE_RACE = f"{STUDIO}/games/space-race"
OTHER_GAME = f"{STUDIO}/games/other-game"


@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        ({Environment.TEST}, Environment.TEST),
        ({Environment.LIVE}, Environment.LIVE),
        ({Environment.TEST, Environment.LIVE}, Environment.LIVE),
        (set(), Environment.LIVE),
    ],
    ids=["test-only", "live-only", "both", "none"],
)
def test_the_default_environment_is_the_one_the_game_has_keys_in(
    keys: set[Environment], expected: Environment
) -> None:
    assert default_environment(keys) is expected


async def test_a_look_up_naming_no_environment_acts_in_the_one_the_game_has_keys_in(world: World) -> None:
    op = await sign_in(world, "olga")
    status, body, _ = await world.call(
        "POST", "/sdk/v1/players/tess/register", key=world.other_keys["test-client"]
    )
    assert status == 201, body
    found = ok(await admin(world, "GET", f"{OTHER_GAME}/players/tess", op))
    assert found["profile"]["player"]["externalPlayerId"] == "tess"
    # A write naming no environment acts there too: the ban lands on the test player.
    ok(await admin(world, "POST", f"{OTHER_GAME}/players/tess/ban", op, json={"reason": "testing"}))
    assert ok(await admin(world, "GET", f"{OTHER_GAME}/players/tess?env=test", op))["ban"]["banned"]


async def test_a_player_not_found_in_one_environment_says_it_exists_in_the_other(world: World) -> None:
    op = await sign_in(world, "olga")
    await world.register("ann")  # a test key: ann is a test player
    # space-race has live keys too: no environment named is live, where ann is not.
    error = refused(await admin(world, "GET", f"{SPACE_RACE}/players/ann", op), 404, "player_not_found")
    assert error["details"] == {"externalPlayerId": "ann", "existsIn": "test"}
    assert "exists in test" in error["message"]
    # Nobody anywhere: no hint.
    error = refused(await admin(world, "GET", f"{SPACE_RACE}/players/nobody", op), 404, "player_not_found")
    assert error["details"] == {"externalPlayerId": "nobody"}
    assert "exists in" not in error["message"]


async def test_the_other_environment_hint_stays_within_the_game(world: World) -> None:
    op = await sign_in(world, "olga")
    await world.register("ann")  # space-race, test
    error = refused(await admin(world, "GET", f"{OTHER_GAME}/players/ann", op), 404, "player_not_found")
    assert "existsIn" not in error["details"]


async def test_the_portal_look_up_defaults_to_the_environment_with_keys_and_links_to_the_other(
    world: World,
) -> None:
    op = await sign_in(world, "olga")
    await world.register("ann")
    resp = await world.client.get(
        "/portal/games/space-race/players", params={"id": "ann"}, headers=op.headers()
    )
    html = await resp.text()
    assert resp.status == 200, html
    assert 'id="not-found"' in html and "exists in test" in html
    assert 'id="other-env" href="?id=ann&amp;env=test"' in html
    # The game with only test keys looks its players up in test without being told.
    status, body, _ = await world.call(
        "POST", "/sdk/v1/players/tess/register", key=world.other_keys["test-client"]
    )
    assert status == 201, body
    resp = await world.client.get(
        "/portal/games/other-game/players", params={"id": "tess"}, headers=op.headers()
    )
    html = await resp.text()
    assert resp.status == 200 and 'id="not-found"' not in html
    assert '<option value="test" selected>' in html
