"""Bulk migration through the API on real SQLite (docs/reference/player-tools.md#migration,
docs/reference/conventions.md#limits)."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from typing import Any

import pytest

from livecore.clock import format_ts
from tests.conftest import START
from tests.server.economy_support import Econ, start_econ

_keys = itertools.count()


@pytest.fixture
async def econ(db_url: str) -> AsyncIterator[Econ]:
    e = await start_econ(db_url)
    try:
        yield e
    finally:
        await e.world.client.close()


async def migrate(econ: Econ, kind: str, rows: list[dict[str, Any]], **extra: Any) -> tuple[int, Any]:
    status, got, _ = await econ.server(
        "POST", f"/migrate/{kind}", {"rows": rows, **extra}, idem=f"call-{next(_keys)}"
    )
    return status, got


async def outcome(econ: Econ, kind: str, rows: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    status, got = await migrate(econ, kind, rows, **extra)
    assert status == 200, got
    data: dict[str, Any] = got["data"]
    assert set(data) == {"applied", "replayed", "failed", "failures"}
    assert data["failed"] == len(data["failures"])
    return data


def player_row(pid: str, key: str | None = None, **fields: Any) -> dict[str, Any]:
    return {"externalPlayerId": pid, "idempotencyKey": key or f"player-{pid}", **fields}


def wallet_row(pid: str, amount: int, key: str | None = None, economy: str = "coins") -> dict[str, Any]:
    return {
        "externalPlayerId": pid,
        "idempotencyKey": key or f"wallet-{pid}-{economy}",
        "economyKey": economy,
        "amount": amount,
    }


def item_row(
    pid: str, quantity: int, key: str | None = None, item: str = "sword", **fields: Any
) -> dict[str, Any]:
    return {
        "externalPlayerId": pid,
        "idempotencyKey": key or f"item-{pid}-{item}",
        "itemKey": item,
        "quantity": quantity,
        **fields,
    }


async def export(econ: Econ, pid: str) -> dict[str, Any]:
    status, got, _ = await econ.server("GET", f"/players/{pid}/export")
    assert status == 200, got
    data: dict[str, Any] = got["data"]
    return data


async def exists(econ: Econ, pid: str) -> bool:
    status, _, _ = await econ.server("GET", f"/players/{pid}")
    assert status in (200, 404)
    return status == 200


def balances(data: dict[str, Any]) -> dict[str, int]:
    return {h["key"]: h["amount"] for h in data["wallet"]}


# --- Players -----------------------------------------------------------------------------------------


async def test_player_rows_create_players_with_identity_country_and_first_seen(econ: Econ) -> None:
    data = await outcome(
        econ,
        "players",
        [
            player_row(
                "ann",
                name="Ann",
                avatar="https://cdn/a.png",
                country="fr",
                firstSeenAt="2024-05-01T08:00:00Z",
            ),
            player_row("bob"),
        ],
    )
    assert data == {"applied": 2, "replayed": 0, "failed": 0, "failures": []}
    ann = (await export(econ, "ann"))["player"]
    assert ann["displayIdentity"] == {"name": "Ann", "avatar": "https://cdn/a.png", "country": "FR"}
    assert ann["country"] == "FR"
    assert ann["firstSeenAt"] == "2024-05-01T08:00:00.000Z"
    assert ann["registeredAt"] is None  # imported, not registered: no secret yet
    bob = (await export(econ, "bob"))["player"]
    assert bob["firstSeenAt"] == format_ts(START)
    assert bob["displayIdentity"] == bob["anonymizedIdentity"]
    # An imported player registers later from the client and gets its secret.
    secret = await econ.register("ann")
    status, got, _ = await econ.sdk("GET", "/players/ann/wallet", secret)
    assert status == 200, got


async def test_player_rows_update_an_existing_player(econ: Econ) -> None:
    await econ.register("ann")
    before = (await export(econ, "ann"))["player"]
    data = await outcome(
        econ,
        "players",
        [player_row("ann", name="Annie", country="de", firstSeenAt="2023-01-01T00:00:00.000Z")],
    )
    assert data["applied"] == 1
    after = (await export(econ, "ann"))["player"]
    assert after["id"] == before["id"]
    assert after["displayIdentity"]["name"] == "Annie"
    assert after["country"] == "DE"
    assert after["firstSeenAt"] == "2023-01-01T00:00:00.000Z"
    assert after["anonymizedIdentity"]["name"] == before["anonymizedIdentity"]["name"]
    assert after["registeredAt"] == before["registeredAt"]


async def test_no_webhooks_by_default(econ: Econ) -> None:
    await outcome(econ, "players", [player_row("ann", name="Ann")])
    await outcome(econ, "wallet", [wallet_row("ann", 50), wallet_row("bob", 7)])
    await outcome(econ, "inventory", [item_row("cat", 2, parameters={"level": 3})])
    assert econ.kinds() == []
    assert balances(await export(econ, "bob")) == {"coins": 7}


async def test_emit_webhooks_true_emits_them(econ: Econ) -> None:
    await outcome(
        econ,
        "players",
        [player_row("ann", name="Ann", firstSeenAt="2024-01-01T00:00:00Z")],
        emitWebhooks=True,
    )
    assert econ.kinds() == ["player.registered"]
    (registered,) = econ.events("player.registered")
    assert registered.data["externalPlayerId"] == "ann"
    assert registered.data["firstSeenAt"] == "2024-01-01T00:00:00.000Z"
    await outcome(econ, "wallet", [wallet_row("ann", 50), wallet_row("bob", 7)], emitWebhooks=True)
    assert econ.kinds()[1:] == ["wallet.changed", "player.registered", "wallet.changed"]
    changed = econ.events("wallet.changed")
    assert [(e.data["economyKey"], e.data["delta"], e.data["balance"]) for e in changed] == [
        ("coins", 50, 50),
        ("coins", 7, 7),
    ]
    await outcome(econ, "inventory", [item_row("ann", 2)], emitWebhooks=True)
    assert econ.kinds()[-1] == "inventory.changed"
    # emitWebhooks false is the default spelled out.
    await outcome(econ, "wallet", [wallet_row("cat", 1)], emitWebhooks=False)
    assert "cat" not in [e.data.get("externalPlayerId") for e in econ.world.events()]


# --- Wallet and inventory ----------------------------------------------------------------------------


async def test_wallet_rows_credit_and_auto_create_players(econ: Econ) -> None:
    data = await outcome(
        econ,
        "wallet",
        [
            wallet_row("ann", 100),
            wallet_row("ann", 5, economy="gems"),
            wallet_row("bob", 0),  # ensures the player only
        ],
    )
    assert data == {"applied": 3, "replayed": 0, "failed": 0, "failures": []}
    assert balances(await export(econ, "ann")) == {"coins": 100, "gems": 5}
    assert await exists(econ, "bob")
    assert balances(await export(econ, "bob")).get("coins", 0) == 0
    secret = await econ.register("ann")
    status, got, _ = await econ.sdk("GET", "/players/ann/wallet", secret)
    assert status == 200, got
    assert got["data"]["currencies"] == [{"key": "coins", "balance": 100}, {"key": "gems", "balance": 5}]
    # Migration credits are ledger entries with their own reason.
    player = econ.world.services.store.run(lambda tx: tx.players.get(econ.game_id, "ann"), write=False)
    ledger = econ.world.services.store.run(lambda tx: tx.ledger.entries(player.id, "coins"), write=False)
    assert [(e.delta, e.balance_after, e.reason.value) for e in ledger] == [(100, 100, "migration")]


async def test_wallet_rows_add_to_an_existing_balance(econ: Econ) -> None:
    await econ.register("ann")
    status, got, _ = await econ.server(
        "POST", "/players/ann/wallet/coins/credit", {"amount": 10, "idempotencyKey": "c1"}
    )
    assert status == 200, got
    await outcome(econ, "wallet", [wallet_row("ann", 90)])
    assert balances(await export(econ, "ann")) == {"coins": 100}


async def test_inventory_rows_add_items_with_parameters_on_the_players_item(econ: Econ) -> None:
    data = await outcome(
        econ,
        "inventory",
        [
            item_row("ann", 2, parameters={"level": 7}),
            item_row("bob", 1, key="bob-sword"),
        ],
    )
    assert data["applied"] == 2
    secret = await econ.register("ann")
    status, got, _ = await econ.sdk("GET", "/players/ann/inventory", secret)
    assert status == 200, got
    (sword,) = [i for i in got["data"]["items"] if i["key"] == "sword"]
    assert sword["quantity"] == 2
    assert sword["parameters"] == {"level": 7, "color": "grey"}  # the override over the catalog default
    secret = await econ.register("bob")
    _, got, _ = await econ.sdk("GET", "/players/bob/inventory", secret)
    (sword,) = [i for i in got["data"]["items"] if i["key"] == "sword"]
    assert sword["parameters"] == {"level": 1, "color": "grey"}


# --- The outcome: bad rows fail alone ----------------------------------------------------------------


async def test_bad_rows_fail_alone_and_the_rest_apply(econ: Econ) -> None:
    data = await outcome(
        econ,
        "wallet",
        [
            wallet_row("ann", 10),
            wallet_row("bob", 10, economy="diamonds"),  # unknown resource
            wallet_row("cat", -1),  # negative amount
            wallet_row("dan", 10, economy="sword"),  # an item is not a currency
            wallet_row("eve", 10),
        ],
    )
    assert (data["applied"], data["replayed"], data["failed"]) == (2, 0, 3)
    assert [(f["index"], f["idempotencyKey"], f["code"]) for f in data["failures"]] == [
        (1, "wallet-bob-diamonds", "resource_not_found"),
        (2, "wallet-cat-coins", "invalid_request"),
        (3, "wallet-dan-sword", "resource_not_found"),
    ]
    assert all(isinstance(f["message"], str) and f["message"] for f in data["failures"])
    assert balances(await export(econ, "ann")) == {"coins": 10}
    assert balances(await export(econ, "eve")) == {"coins": 10}
    # A failed row leaves nothing behind, not even its player.
    for pid in ("bob", "cat", "dan"):
        assert not await exists(econ, pid)


async def test_bad_player_rows_fail_alone(econ: Econ) -> None:
    data = await outcome(
        econ,
        "players",
        [
            player_row("ann", name="Ann"),
            player_row("bob", name="   "),  # blank after trimming
            player_row("cat", name="x" * 33),  # too long
            player_row("dan", avatar="a" * 513),  # avatar too long
            player_row("eve", firstSeenAt="2027-01-01T00:00:00Z"),  # in the future
            player_row("fay", name="Fay"),
        ],
    )
    assert (data["applied"], data["failed"]) == (2, 4)
    assert [(f["index"], f["code"]) for f in data["failures"]] == [
        (1, "invalid_request"),
        (2, "invalid_request"),
        (3, "invalid_request"),
        (4, "invalid_request"),
    ]
    assert [await exists(econ, p) for p in ("ann", "bob", "cat", "dan", "eve", "fay")] == [
        True,
        False,
        False,
        False,
        False,
        True,
    ]


async def test_bad_inventory_rows_fail_alone(econ: Econ) -> None:
    data = await outcome(
        econ,
        "inventory",
        [
            item_row("ann", 1),
            item_row("bob", 1, item="coins"),  # a currency is not an item
            item_row("cat", -3),
            item_row("dan", 1, item="sessions"),  # system item
        ],
    )
    assert (data["applied"], data["failed"]) == (1, 3)
    assert [(f["index"], f["code"]) for f in data["failures"]] == [
        (1, "resource_not_found"),
        (2, "invalid_request"),
        (3, "system_resource_locked"),
    ]


async def test_a_row_for_a_player_of_the_other_environment_fails_alone(econ: Econ) -> None:
    status, got = await migrate(econ, "players", [player_row("liv")])
    assert status == 200
    live_key = "live-server"
    status, got, _ = await econ.server(
        "POST",
        "/migrate/wallet",
        {"rows": [wallet_row("liv", 5), wallet_row("new-live", 5)]},
        idem="live-call",
        key=live_key,
    )
    assert status == 200, got
    assert (got["data"]["applied"], got["data"]["failed"]) == (1, 1)
    assert got["data"]["failures"][0]["index"] == 0
    assert got["data"]["failures"][0]["code"] == "player_not_found"
    assert balances(await export(econ, "liv")) == {}


# --- Idempotency of rows -----------------------------------------------------------------------------


async def test_replaying_rows_changes_nothing(econ: Econ) -> None:
    rows = [wallet_row("ann", 100), wallet_row("bob", 20)]
    assert (await outcome(econ, "wallet", rows))["applied"] == 2
    again = await outcome(econ, "wallet", [*rows, wallet_row("cat", 3)])
    assert again == {"applied": 1, "replayed": 2, "failed": 0, "failures": []}
    assert balances(await export(econ, "ann")) == {"coins": 100}
    players = [player_row("dan", name="Dan")]
    await outcome(econ, "players", players)
    assert await outcome(econ, "players", players) == {
        "applied": 0,
        "replayed": 1,
        "failed": 0,
        "failures": [],
    }


async def test_same_key_with_other_content_is_an_idempotency_conflict(econ: Econ) -> None:
    await outcome(econ, "wallet", [wallet_row("ann", 100, key="k1")])
    data = await outcome(econ, "wallet", [wallet_row("ann", 200, key="k1"), wallet_row("bob", 1)])
    assert (data["applied"], data["replayed"], data["failed"]) == (1, 0, 1)
    assert data["failures"][0]["index"] == 0
    assert data["failures"][0]["idempotencyKey"] == "k1"
    assert data["failures"][0]["code"] == "idempotency_conflict"
    assert balances(await export(econ, "ann")) == {"coins": 100}
    await outcome(econ, "players", [player_row("cat", key="p1", name="Cat")])
    data = await outcome(econ, "players", [player_row("cat", key="p1", name="Kat")])
    assert data["failures"][0]["code"] == "idempotency_conflict"
    assert (await export(econ, "cat"))["player"]["displayIdentity"]["name"] == "Cat"


async def test_keys_are_separate_per_kind_of_migration(econ: Econ) -> None:
    await outcome(econ, "players", [player_row("ann", key="same")])
    data = await outcome(econ, "wallet", [wallet_row("ann", 5, key="same")])
    assert data["applied"] == 1
    data = await outcome(econ, "inventory", [item_row("ann", 1, key="same")])
    assert data["applied"] == 1


async def test_a_failed_row_can_be_fixed_and_sent_again_with_its_key(econ: Econ) -> None:
    data = await outcome(econ, "wallet", [wallet_row("ann", -5, key="k1")])
    assert data["failed"] == 1
    data = await outcome(econ, "wallet", [wallet_row("ann", 5, key="k1")])
    assert data == {"applied": 1, "replayed": 0, "failed": 0, "failures": []}
    assert balances(await export(econ, "ann")) == {"coins": 5}


async def test_a_row_replay_ignores_the_key_order_of_parameters(econ: Econ) -> None:
    """JSON objects are unordered: the same parameters sent again in another key order are the same row."""
    await outcome(econ, "inventory", [item_row("ann", 1, key="i1", parameters={"level": 2, "color": "red"})])
    data = await outcome(
        econ, "inventory", [item_row("ann", 1, key="i1", parameters={"color": "red", "level": 2})]
    )
    assert data == {"applied": 0, "replayed": 1, "failed": 0, "failures": []}


async def test_a_replayed_call_with_the_same_request_key_answers_the_original_outcome(econ: Econ) -> None:
    body = {"rows": [wallet_row("ann", 5)]}
    status, first, _ = await econ.server("POST", "/migrate/wallet", body, idem="whole-call")
    assert status == 200
    status, second, headers = await econ.server("POST", "/migrate/wallet", body, idem="whole-call")
    assert status == 200 and headers.get("Idempotent-Replay") == "true"
    assert second == first
    assert balances(await export(econ, "ann")) == {"coins": 5}


# --- Whole-call refusals -----------------------------------------------------------------------------


async def test_more_than_1000_rows_is_400_and_applies_nothing(econ: Econ) -> None:
    rows = [player_row(f"p{i}") for i in range(1001)]
    status, got = await migrate(econ, "players", rows)
    assert (status, got["error"]["code"]) == (400, "invalid_request")
    assert not await exists(econ, "p0")
    status, got = await migrate(econ, "wallet", [wallet_row(f"p{i}", 1) for i in range(1001)])
    assert (status, got["error"]["code"]) == (400, "invalid_request")
    status, got = await migrate(econ, "inventory", [item_row(f"p{i}", 1) for i in range(1001)])
    assert (status, got["error"]["code"]) == (400, "invalid_request")
    assert not await exists(econ, "p0")


async def test_exactly_1000_rows_apply(econ: Econ) -> None:
    data = await outcome(econ, "players", [player_row(f"p{i}") for i in range(1000)])
    assert data["applied"] == 1000
    assert await exists(econ, "p999")


async def test_a_key_twice_in_one_call_is_400_and_applies_nothing(econ: Econ) -> None:
    status, got = await migrate(
        econ, "wallet", [wallet_row("ann", 1, key="dup"), wallet_row("bob", 2, key="dup")]
    )
    assert (status, got["error"]["code"]) == (400, "invalid_request")
    assert not await exists(econ, "ann")
    assert not await exists(econ, "bob")


@pytest.mark.parametrize(
    "rows",
    [
        [{"externalPlayerId": "ann"}],  # no key
        [{"idempotencyKey": "k"}],  # no player
        [{"externalPlayerId": "", "idempotencyKey": "k"}],
        [{"externalPlayerId": "ann", "idempotencyKey": ""}],
        [{"externalPlayerId": "ann", "idempotencyKey": "k", "nickname": "x"}],  # unknown field
        "not a list",
    ],
)
async def test_malformed_calls_are_400(econ: Econ, rows: Any) -> None:
    status, got = await migrate(econ, "players", rows)
    assert (status, got["error"]["code"]) == (400, "invalid_request")


async def test_migration_needs_a_server_key_and_a_request_key(econ: Econ) -> None:
    status, got, _ = await econ.server("POST", "/migrate/players", {"rows": [player_row("ann")]})
    assert (status, got["error"]["code"]) == (400, "invalid_request")
    status, got, _ = await econ.world.call(
        "POST",
        "/server/v1/migrate/players",
        key=econ.key("client"),
        json={"rows": [player_row("ann")]},
        headers={"Idempotency-Key": "x"},
    )
    assert status == 403, got
    assert not await exists(econ, "ann")


async def test_an_empty_call_applies_nothing(econ: Econ) -> None:
    assert await outcome(econ, "players", []) == {"applied": 0, "replayed": 0, "failed": 0, "failures": []}


async def test_a_player_row_sets_only_the_fields_it_gives(econ: Econ) -> None:
    """livecore.player_tools.migration: "a player that exists gets the given fields set": a row with a name
    only keeps
    the avatar and country the player already has."""
    await econ.register("ann")
    status, got, _ = await econ.server(
        "PUT", "/players/ann/identity", {"name": "Ann", "avatar": "https://cdn/a.png"}, idem="id-1"
    )
    assert status == 200, got
    await outcome(econ, "players", [player_row("ann", country="fr")])
    await outcome(econ, "players", [player_row("ann", key="again", name="Annie")])
    player = (await export(econ, "ann"))["player"]
    assert player["displayIdentity"] == {"name": "Annie", "avatar": "https://cdn/a.png", "country": "FR"}
    assert player["country"] == "FR"
