"""Operators' corrections of one player, through the real app on both stores
(docs/operators.md#country-override and #item-attributes): the country override and edits of an item's
attribute values; where they show, their audit entries (before and after, the member as actor), their refusals
(which change nothing), who may make them, and their portal forms.

Game ``arcade`` of tests/server/event_support.py (platform-managed; ``golf`` is open, segmented by
country), with an item ``sword`` whose catalog declares four attributes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.server.admin_support import STUDIO, admin, ok, refused, sign_in, snapshot
from tests.server.event_support import Arcade, start_event_world

ARCADE = f"{STUDIO}/games/arcade"
SWORD = """
[games.arcade.resources.sword]
type = "item"
parameters = { level = 1, color = "red", weight = 2.5, shiny = false }

[games.arcade.resources.charm]
type = "item"
parameters = { runes = [], sigil = {} }
"""
SWORD_DEFAULTS = {"level": 1, "color": "red", "weight": 2.5, "shiny": False}


@pytest.fixture
async def arcade(db_url: str) -> AsyncIterator[Arcade]:
    a = await start_event_world(db_url, events=SWORD)
    try:
        yield a
    finally:
        await a.world.client.close()


def country_path(who: str) -> str:
    return f"{ARCADE}/players/{who}/country?env=test"


def attributes_path(who: str, item: str = "sword") -> str:
    return f"{ARCADE}/players/{who}/inventory/{item}/attributes?env=test"


async def _grant_item(arcade: Arcade, who: str, item: str = "sword", quantity: int = 1) -> None:
    status, body, _ = await arcade.server(
        "POST", f"/players/{who}/inventory/{item}/grant", {"quantity": quantity}, idem=f"grant-{who}-{item}"
    )
    assert status == 200, body


async def _audit(arcade: Arcade, op: Any, action: str) -> list[dict[str, Any]]:
    data = ok(await admin(arcade.world, "GET", f"{ARCADE}/audit?action={action}", op))
    return list(reversed(data["entries"]))


async def _look_up(arcade: Arcade, op: Any, who: str) -> Any:
    return ok(await admin(arcade.world, "GET", f"{ARCADE}/players/{who}?env=test", op))


async def _entry_country(arcade: Arcade, board_id: str, who: str) -> Any:
    status, body, _ = await arcade.board(board_id)
    assert status == 200, body
    (entry,) = [e for e in body["data"]["entries"] if e["externalPlayerId"] == who]
    return entry["country"]


# --- the country override ---------------------------------------------------------------------------------


async def test_a_country_override_shows_everywhere_and_later_requests_do_not_replace_it(
    arcade: Arcade,
) -> None:
    """An operator's override wins over the resolved country in the look-up, the register answer,
    board entries and an attempt's country segment; a register or attempt start with a geo header moves
    only the resolved country; clearing shows the resolved country again."""
    world = arcade.world
    await arcade.register("ann")
    olga = await sign_in(world, "olga")
    first = await arcade.started("ann", "golf", headers={"CF-IPCountry": "DE"})
    await arcade.progressed("ann", first["attemptId"], {"strokes": 70}, event="golf", complete=True)
    assert await _entry_country(arcade, first["leaderboardId"], "ann") == "DE"

    done = ok(await admin(world, "PUT", country_path("ann"), olga, json={"country": "fr", "reason": "VPN"}))
    assert done == {
        "externalPlayerId": "ann",
        "applied": True,
        "country": {"country": "FR", "resolvedCountry": "DE", "countryOverride": "FR"},
    }
    found = await _look_up(arcade, olga, "ann")
    assert found["country"] == done["country"]
    assert found["profile"]["player"]["displayIdentity"]["country"] == "FR"
    # The entry on the board the player joined before shows the override too (read when shown).
    assert await _entry_country(arcade, first["leaderboardId"], "ann") == "FR"

    # A forced register from Britain: the answer shows the override; only the resolved country moves.
    status, body, _ = await world.call(
        "POST",
        "/sdk/v1/players/ann/register?force=true",
        key=arcade.api_key(arcade.client_key),
        headers={"CF-IPCountry": "GB"},
    )
    assert status == 201, body
    assert (body["data"]["country"], body["data"]["displayIdentity"]["country"]) == ("FR", "FR")
    arcade.secrets["ann"] = body["data"]["playerSecret"]
    # An attempt start from Britain, and with playerContext.country: the board is France's.
    second = await arcade.started("ann", "golf", headers={"CF-IPCountry": "GB"})
    await arcade.progressed("ann", second["attemptId"], {"strokes": 60}, event="golf", complete=True)
    status, body, _ = await arcade.board(second["leaderboardId"])
    assert body["data"]["leaderboard"]["segmentValues"] == {"country": "FR"}
    assert await _entry_country(arcade, second["leaderboardId"], "ann") == "FR"
    third = await arcade.started("ann", "golf", context={"country": "IT"})
    assert third["leaderboardId"] == second["leaderboardId"]
    assert (await _look_up(arcade, olga, "ann"))["country"] == {
        "country": "FR",
        "resolvedCountry": "IT",
        "countryOverride": "FR",
    }

    again = ok(await admin(world, "PUT", country_path("ann"), olga, json={"country": "FR"}))
    assert again["applied"] is False
    cleared = ok(await admin(world, "PUT", country_path("ann"), olga, json={"country": None}))
    assert (cleared["applied"], cleared["country"]) == (
        True,
        {"country": "IT", "resolvedCountry": "IT", "countryOverride": None},
    )
    assert await _entry_country(arcade, second["leaderboardId"], "ann") == "IT"

    olga_id = world.applied["members"]["olga"]["id"]
    entries = await _audit(arcade, olga, "player.country_override")
    assert [(e["target"], e["actor"], e["before"], e["after"]) for e in entries] == [
        (
            "player:ann",
            {"kind": "member", "memberId": olga_id},
            {"country": "DE", "countryOverride": None},
            {"country": "FR", "countryOverride": "FR"},
        ),
        (
            "player:ann",
            {"kind": "member", "memberId": olga_id},
            *[{"country": "FR", "countryOverride": "FR"}] * 2,
        ),
        (
            "player:ann",
            {"kind": "member", "memberId": olga_id},
            {"country": "FR", "countryOverride": "FR"},
            {"country": "IT", "countryOverride": None},
        ),
    ]
    assert [(e["metadata"]["applied"], e["metadata"]["reason"]) for e in entries] == [
        (True, "VPN"),
        (False, None),
        (True, None),
    ]
    assert entries[0]["metadata"]["env"] == "test"


@pytest.mark.parametrize(
    "body",
    [
        {"country": "FRA"},
        {"country": "F1"},
        {"country": ""},
        {"country": "ÉS"},
        {"country": 33},
        {},
        {"country": "FR", "reason": "r" * 201},
        {"country": "FR", "colour": "blue"},
    ],
)
async def test_a_country_that_is_not_a_country_code_is_400_naming_the_field_and_changes_nothing(
    arcade: Arcade, body: dict[str, Any]
) -> None:
    world = arcade.world
    await arcade.register("ann")
    olga = await sign_in(world, "olga")
    before = await snapshot(world)
    error = refused(await admin(world, "PUT", country_path("ann"), olga, json=body), 400, "invalid_request")
    field = "colour" if "colour" in body else "reason" if "reason" in body else "country"
    assert field in error["details"]["fields"], error
    assert await snapshot(world) == before


@pytest.mark.parametrize("country", ["XX", "ZZ", "EU", "UK", "xk", "AA"])
async def test_a_country_code_iso_3166_1_does_not_assign_is_400_and_changes_nothing(
    arcade: Arcade, country: str
) -> None:
    """Two letters are not enough: ``UK`` is reserved (the code is ``GB``), ``EU`` reserved for the
    union, ``XX``, ``ZZ``, ``XK`` and ``AA`` left to users."""
    world = arcade.world
    await arcade.register("ann")
    olga = await sign_in(world, "olga")
    before = await snapshot(world)
    error = refused(
        await admin(world, "PUT", country_path("ann"), olga, json={"country": country}),
        400,
        "invalid_request",
    )
    assert set(error["details"]["fields"]) == {"country"}, error
    assert await snapshot(world) == before
    done = ok(await admin(world, "PUT", country_path("ann"), olga, json={"country": "gb"}))
    assert done["country"]["countryOverride"] == "GB"


async def test_the_country_of_an_unknown_player_is_404_and_a_member_without_the_action_gets_403(
    arcade: Arcade,
) -> None:
    world = arcade.world
    await arcade.register("ann")
    olga, dev, vic = [await sign_in(world, m) for m in ("olga", "dev", "vic")]
    before = await snapshot(world)
    refused(
        await admin(world, "PUT", country_path("nobody"), olga, json={"country": "FR"}),
        404,
        "player_not_found",
    )
    for op in (dev, vic):
        error = refused(
            await admin(world, "PUT", country_path("ann"), op, json={"country": "FR"}),
            403,
            "permission_denied",
        )
        assert error["details"] == {"action": "player.country_override"}
    assert await snapshot(world) == before


# --- item attributes -----------------------------------------------------------------------------------


async def test_an_item_attribute_edit_sets_declared_values_key_by_key_audited_with_inventory_changed(
    arcade: Arcade,
) -> None:
    """Per-player values override the catalog's default; the edit is a ledger entry of delta 0
    (reason ``operator_edit``, the member its actor), audited before and after, and in this
    platform-managed game fires ``inventory.changed`` carrying the merged values."""
    world = arcade.world
    await arcade.register("ann")
    status, body, _ = await arcade.server(
        "POST", "/players/ann/inventory/sword/grant", {"quantity": 2, "parameters": {"level": 2}}, idem="g1"
    )
    assert status == 200, body
    debby = await sign_in(world, "debby")
    debby_id = world.applied["members"]["debby"]["id"]

    done = ok(
        await admin(
            world,
            "PATCH",
            attributes_path("ann"),
            debby,
            json={"attributes": {"color": "blue", "weight": 3}, "reason": "ticket 9"},
        )
    )
    merged = {**SWORD_DEFAULTS, "level": 2, "color": "blue", "weight": 3}
    assert {k: done[k] for k in ("key", "quantity", "delta", "parameters")} == {
        "key": "sword",
        "quantity": 2,
        "delta": 0,
        "parameters": merged,
    }
    status, body, _ = await arcade.sdk("GET", "ann", "/inventory")
    assert [i["parameters"] for i in body["data"]["items"] if i["key"] == "sword"] == [merged]
    found = await _look_up(arcade, debby, "ann")
    assert [(i["quantity"], i["parameters"]) for i in found["inventory"] if i["key"] == "sword"] == [
        (2, merged)
    ]

    (changed,) = [
        e.data
        for e in world.events()
        if e.kind == "inventory.changed" and e.data["entryId"] == done["entryId"]
    ]
    assert {
        k: changed[k]
        for k in ("externalPlayerId", "itemKey", "delta", "quantity", "parameters", "reason", "note", "actor")
    } == {
        "externalPlayerId": "ann",
        "itemKey": "sword",
        "delta": 0,
        "quantity": 2,
        "parameters": merged,
        "reason": "operator_edit",
        "note": "ticket 9",
        "actor": {"kind": "member", "memberId": debby_id},
    }
    (entry,) = await _audit(arcade, debby, "player.item_attributes_edit")
    assert (entry["target"], entry["actor"], entry["metadata"]) == (
        "player:ann",
        {"kind": "member", "memberId": debby_id},
        {"env": "test", "itemKey": "sword", "entryId": done["entryId"], "reason": "ticket 9"},
    )
    assert entry["before"] == {"attributes": {**SWORD_DEFAULTS, "level": 2}}
    assert entry["after"] == {"attributes": merged}
    # A second edit keeps what the first set.
    again = ok(
        await admin(world, "PATCH", attributes_path("ann"), debby, json={"attributes": {"shiny": True}})
    )
    assert again["parameters"] == {**merged, "shiny": True}


@pytest.mark.parametrize(
    ("path", "body", "status", "code", "fields"),
    [
        (
            "sword",
            {"attributes": {"level": "high", "glow": 1, "shiny": 1, "color": None, "weight": "2"}},
            400,
            "invalid_request",
            {
                "attributes.level",
                "attributes.glow",
                "attributes.shiny",
                "attributes.color",
                "attributes.weight",
            },
        ),
        ("sword", {"attributes": {"level": 2.5}}, 400, "invalid_request", {"attributes.level"}),
        ("sword", {"attributes": {}}, 400, "invalid_request", {"attributes"}),
        ("sword", {"attributes": {"color": "x" * 5000}}, 400, "invalid_request", {"attributes"}),
        ("sword", {"attributes": ["level"]}, 400, "invalid_request", {"attributes"}),
        ("sword", {"attributes": {"level": 2}, "reason": "r" * 201}, 400, "invalid_request", {"reason"}),
        ("badge", {"attributes": {"level": 2}}, 400, "invalid_request", {"attributes.level"}),
        ("axe", {"attributes": {"level": 2}}, 404, "resource_not_found", None),
        ("gems", {"attributes": {"level": 2}}, 404, "resource_not_found", None),
        ("sessions", {"attributes": {"level": 2}}, 409, "system_resource_locked", None),
    ],
)
async def test_an_edit_the_catalog_does_not_declare_is_refused_naming_each_field_and_changes_nothing(
    arcade: Arcade, path: str, body: Any, status: int, code: str, fields: set[str] | None
) -> None:
    world = arcade.world
    await arcade.register("ann")
    gina = await sign_in(world, "gina")
    before = await snapshot(world)
    error = refused(await admin(world, "PATCH", attributes_path("ann", path), gina, json=body), status, code)
    if fields is not None:
        assert set(error["details"]["fields"]) == fields, error
    assert await snapshot(world) == before


@pytest.mark.parametrize(
    ("attributes", "field"),
    [
        ({"level": 2**63}, "attributes.level"),
        ({"level": [2**63]}, "attributes.level[0]"),
        ({"level": 2**64 - 1}, "attributes.level"),
    ],
)
async def test_integers_in_an_attribute_edit_fit_in_signed_64_bits(
    arcade: Arcade, attributes: dict[str, Any], field: str
) -> None:
    world = arcade.world
    await arcade.register("ann")
    await _grant_item(arcade, "ann")
    gina = await sign_in(world, "gina")
    before = await snapshot(world)
    body = {"attributes": attributes}
    error = refused(
        await admin(world, "PATCH", attributes_path("ann"), gina, json=body), 400, "invalid_request"
    )
    assert error["details"]["fields"] == {field: "must fit in signed 64 bits"}
    assert await snapshot(world) == before
    largest = {"attributes": {"level": 2**63 - 1}}
    assert ok(await admin(world, "PATCH", attributes_path("ann"), gina, json=largest))["parameters"][
        "level"
    ] == (2**63 - 1)


async def test_an_attribute_edit_of_an_item_the_player_holds_none_of_is_409_and_writes_nothing(
    arcade: Arcade,
) -> None:
    """Never held, or held and all revoked: there is nothing to edit, and no ledger entry or holding is
    written."""
    world = arcade.world
    await arcade.register("ann")
    await arcade.register("bo")
    gina = await sign_in(world, "gina")
    await _grant_item(arcade, "bo")
    status, body, _ = await arcade.server(
        "POST", "/players/bo/inventory/sword/revoke", {"quantity": 1}, idem="r1"
    )
    assert status == 200, body
    before = await snapshot(world)
    body = {"attributes": {"level": 5}}
    for who in ("ann", "bo"):
        error = refused(
            await admin(world, "PATCH", attributes_path(who), gina, json=body), 409, "insufficient_quantity"
        )
        assert error["details"] == {"resource": "sword", "needed": 1, "have": 0}
    assert await snapshot(world) == before


async def test_an_attribute_edit_of_an_unknown_player_is_404_and_a_member_without_the_action_gets_403(
    arcade: Arcade,
) -> None:
    world = arcade.world
    await arcade.register("ann")
    olga, dev, vic = [await sign_in(world, m) for m in ("olga", "dev", "vic")]
    body = {"attributes": {"level": 5}}
    before = await snapshot(world)
    refused(await admin(world, "PATCH", attributes_path("nobody"), olga, json=body), 404, "player_not_found")
    for op in (dev, vic):
        error = refused(
            await admin(world, "PATCH", attributes_path("ann"), op, json=body), 403, "permission_denied"
        )
        assert error["details"] == {"action": "player.item_attributes_edit"}
    assert await snapshot(world) == before


# --- the portal's forms -------------------------------------------------------------------------------


async def _portal_post(arcade: Arcade, op: Any, path: str, form: dict[str, str]) -> Any:
    """A form posted from the portal's own page, as a browser sends it (its ``Origin`` included)."""
    client = arcade.world.client
    origin = str(client.make_url("/").origin())
    return await client.post(
        path,
        data={"csrf": op.csrf, **form},
        headers={**op.headers(csrf=False), "Origin": origin},
        allow_redirects=False,
    )


async def _player_page(arcade: Arcade, op: Any, who: str) -> str:
    resp = await arcade.world.client.get(
        "/portal/games/arcade/players", params={"id": who, "env": "test"}, headers=op.headers()
    )
    html = await resp.text()
    assert resp.status == 200, html
    return html


async def test_the_player_page_sets_and_clears_the_country_override(arcade: Arcade) -> None:
    world = arcade.world
    await arcade.register("ann")
    olga = await sign_in(world, "olga")
    assert 'id="country-form"' in await _player_page(arcade, olga, "ann")
    resp = await _portal_post(
        arcade, olga, "/portal/games/arcade/players/ann/country?env=test", {"country": "se"}
    )
    assert resp.status == 303, await resp.text()
    assert "done=country" in resp.headers["Location"]
    html = await _player_page(arcade, olga, "ann")
    assert 'id="country-override">SE<' in html
    assert (await _look_up(arcade, olga, "ann"))["country"]["countryOverride"] == "SE"
    resp = await _portal_post(
        arcade, olga, "/portal/games/arcade/players/ann/country?env=test", {"country": "Sweden"}
    )
    assert resp.status == 400 and "invalid_request" in await resp.text()
    resp = await _portal_post(
        arcade, olga, "/portal/games/arcade/players/ann/country?env=test", {"country": ""}
    )
    assert resp.status == 303, await resp.text()
    assert (await _look_up(arcade, olga, "ann"))["country"]["countryOverride"] is None
    # A member who may not take the action is offered no form.
    vic = await sign_in(world, "vic")
    assert 'id="country-form"' not in await _player_page(arcade, vic, "ann")


async def test_the_player_page_edits_an_items_attributes_with_their_declared_types(arcade: Arcade) -> None:
    world = arcade.world
    await arcade.register("ann")
    gina = await sign_in(world, "gina")
    # An item the player holds none of has no form: there is nothing to edit.
    assert 'id="attributes-sword"' not in await _player_page(arcade, gina, "ann")
    await _grant_item(arcade, "ann")
    html = await _player_page(arcade, gina, "ann")
    assert 'id="attributes-sword"' in html and 'name="attr.level" value="1"' in html
    assert 'id="attributes-charm"' not in html
    form = {"attr.level": "4", "attr.color": "red", "attr.weight": "2.5", "attr.shiny": "true"}
    resp = await _portal_post(
        arcade, gina, "/portal/games/arcade/players/ann/items/sword/attributes?env=test", form
    )
    assert resp.status == 303, await resp.text()
    found = await _look_up(arcade, gina, "ann")
    assert [i["parameters"] for i in found["inventory"] if i["key"] == "sword"] == [
        {**SWORD_DEFAULTS, "level": 4, "shiny": True}
    ]
    # Only what changed is sent: the audit entry's after shows the values, its metadata the item.
    (entry,) = await _audit(arcade, gina, "player.item_attributes_edit")
    assert entry["metadata"]["itemKey"] == "sword"
    resp = await _portal_post(
        arcade,
        gina,
        "/portal/games/arcade/players/ann/items/sword/attributes?env=test",
        {"attr.level": "four"},
    )
    html = await resp.text()
    assert resp.status == 400 and "invalid_request" in html
    debby = await sign_in(world, "debby")
    assert 'id="attributes-sword"' in await _player_page(arcade, debby, "ann")
    dev = await sign_in(world, "dev")
    assert 'id="attributes-sword"' not in await _player_page(arcade, dev, "ann")


@pytest.mark.parametrize(
    ("item", "form", "field"),
    [
        ("sword", {"attr.weight": "NaN"}, "attributes.weight"),
        ("sword", {"attr.weight": "Infinity"}, "attributes.weight"),
        ("sword", {"attr.weight": "1e400"}, "attributes.weight"),
        ("sword", {"attr.level": str(2**70)}, "attributes.level"),
        ("sword", {"attr.level": "9" * 4000}, "attributes.level"),
        ("charm", {"attr.sigil": '{"a": NaN}'}, "attributes.sigil.a"),
        ("charm", {"attr.runes": "[1, -Infinity]"}, "attributes.runes[1]"),
        ("charm", {"attr.runes": "[" * 50 + "]" * 50}, "body"),
    ],
)
async def test_the_portals_attribute_form_refuses_what_the_admin_api_refuses_and_changes_nothing(
    arcade: Arcade, item: str, form: dict[str, str], field: str
) -> None:
    """The form runs the admin API's checks: numbers finite, integers within signed 64 bits, nesting
    within 32 levels (a value is never stored as null, nor a 500)."""
    world = arcade.world
    await arcade.register("ann")
    await _grant_item(arcade, "ann", item)
    gina = await sign_in(world, "gina")
    before = await snapshot(world)
    resp = await _portal_post(
        arcade, gina, f"/portal/games/arcade/players/ann/items/{item}/attributes?env=test", form
    )
    html = await resp.text()
    assert resp.status == 400 and "invalid_request" in html, html[-600:]
    assert field in html, html[-600:]
    assert await snapshot(world) == before
