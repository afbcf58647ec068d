"""Wallet and inventory through the API (docs/reference/economy.md#resources)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from livecore.players.rules import ban
from tests.conftest import START
from tests.server.economy_support import Econ, start_econ


@pytest.fixture
async def econ(db_url: str) -> AsyncIterator[Econ]:
    e = await start_econ(db_url)
    try:
        yield e
    finally:
        await e.world.client.close()


async def credit(
    econ: Econ, player: str, amount: int, idem: str, key: str = "coins"
) -> tuple[int, dict, object]:  # type: ignore[type-arg]
    return await econ.server(
        "POST", f"/players/{player}/wallet/{key}/credit", {"amount": amount, "idempotencyKey": idem}
    )


async def test_wallet_lists_every_currency_from_zero(econ: Econ) -> None:
    secret = await econ.register("ann")
    status, body, _ = await econ.sdk("GET", "/players/ann/wallet", secret)
    assert status == 200
    assert body["data"] == {"currencies": [{"key": "coins", "balance": 0}, {"key": "gems", "balance": 0}]}


async def test_server_credit_then_client_debit_with_ledger_and_webhooks(econ: Econ) -> None:
    secret = await econ.register("ann")
    status, body, _ = await econ.server(
        "POST",
        "/players/ann/wallet/coins/credit",
        {"amount": 50, "reason": "welcome", "sourceRefId": "w1", "idempotencyKey": "c1"},
    )
    assert status == 200
    assert body["data"]["key"] == "coins" and body["data"]["balance"] == 50 and body["data"]["delta"] == 50
    status, body, _ = await econ.sdk("POST", "/players/ann/wallet/coins/debit", secret, {"amount": 20})
    assert (status, body["data"]["balance"], body["data"]["delta"]) == (200, 30, -20)
    (c, d) = econ.events("wallet.changed")
    assert c.data["economyKey"] == "coins" and c.data["delta"] == 50 and c.data["balance"] == 50
    assert (
        c.data["reason"] == "server_credit" and c.data["note"] == "welcome" and c.data["sourceRefId"] == "w1"
    )
    assert c.data["actor"]["kind"] == "api_key"
    assert d.data["reason"] == "client_debit" and d.data["balance"] == 30
    player = econ.world.services.store.run(lambda tx: tx.players.get(econ.game_id, "ann"), write=False)
    ledger = econ.world.services.store.run(lambda tx: tx.ledger.entries(player.id, "coins"), write=False)
    assert [e.delta for e in ledger] == [50, -20]
    assert [e.balance_after for e in ledger] == [50, 30]


async def test_debit_beyond_balance_is_409_and_changes_nothing(econ: Econ) -> None:
    secret = await econ.register("ann")
    await credit(econ, "ann", 5, "c1")
    before = econ.kinds()
    status, body, _ = await econ.sdk("POST", "/players/ann/wallet/coins/debit", secret, {"amount": 6})
    assert (status, body["error"]["code"]) == (409, "insufficient_balance")
    assert body["error"]["details"] == {"resource": "coins", "needed": 6, "have": 5}
    status, body, _ = await econ.server(
        "POST", "/players/ann/wallet/coins/debit", {"amount": 6, "idempotencyKey": "d1"}
    )
    assert (status, body["error"]["code"]) == (409, "insufficient_balance")
    assert econ.kinds() == before
    _, body, _ = await econ.sdk("GET", "/players/ann/wallet", secret)
    assert body["data"]["currencies"][0]["balance"] == 5


async def test_items_with_parameters_grant_consume_revoke(econ: Econ) -> None:
    secret = await econ.register("ann")
    status, body, _ = await econ.server(
        "POST",
        "/players/ann/inventory/sword/grant",
        {"quantity": 2, "parameters": {"level": 3}, "idempotencyKey": "g1"},
    )
    assert status == 200
    assert body["data"]["quantity"] == 2
    assert body["data"]["parameters"] == {
        "level": 3,
        "color": "grey",
    }  # catalog default, overridden per player
    status, body, _ = await econ.sdk("GET", "/players/ann/inventory", secret)
    items = {i["key"]: i for i in body["data"]["items"]}
    assert items["sword"] == {
        "key": "sword",
        "quantity": 2,
        "parameters": {"level": 3, "color": "grey"},
        "system": False,
    }
    assert (
        items["sessions"]["system"] is True and items["sessions"]["quantity"] == 1
    )  # register opened a session
    assert items["login_streak"]["quantity"] == 1
    status, body, _ = await econ.sdk("POST", "/players/ann/inventory/sword/consume", secret, {"quantity": 1})
    assert (status, body["data"]["quantity"]) == (200, 1)
    status, body, _ = await econ.server(
        "POST", "/players/ann/inventory/sword/revoke", {"quantity": 2, "idempotencyKey": "r1"}
    )
    assert (status, body["error"]["code"]) == (409, "insufficient_quantity")
    status, body, _ = await econ.server(
        "POST", "/players/ann/inventory/sword/revoke", {"quantity": 1, "idempotencyKey": "r2"}
    )
    assert (status, body["data"]["quantity"]) == (200, 0)
    (event,) = [e for e in econ.events("inventory.changed") if e.data["delta"] == 2]
    assert event.data["itemKey"] == "sword" and event.data["parameters"] == {"level": 3, "color": "grey"}


async def test_parameters_only_when_granting(econ: Econ) -> None:
    secret = await econ.register("ann")
    status, body, _ = await econ.sdk(
        "POST", "/players/ann/inventory/sword/consume", secret, {"quantity": 1, "parameters": {"a": 1}}
    )
    assert status == 400
    assert "parameters" in body["error"]["details"]["fields"]


async def test_unknown_or_wrong_type_resource_is_404(econ: Econ) -> None:
    secret = await econ.register("ann")
    for path in ("/players/ann/wallet/diamonds/debit", "/players/ann/wallet/sword/debit"):
        status, body, _ = await econ.sdk("POST", path, secret, {"amount": 1})
        assert (status, body["error"]["code"]) == (404, "resource_not_found"), path
    status, body, _ = await econ.server(
        "POST", "/players/ann/inventory/coins/grant", {"quantity": 1, "idempotencyKey": "x"}
    )
    assert (status, body["error"]["code"]) == (404, "resource_not_found")


@pytest.mark.parametrize("key", ["sessions", "login_streak"])
async def test_system_items_are_locked(econ: Econ, key: str) -> None:
    secret = await econ.register("ann")
    status, body, _ = await econ.server(
        "POST", f"/players/ann/inventory/{key}/grant", {"quantity": 1, "idempotencyKey": "s"}
    )
    assert (status, body["error"]["code"]) == (409, "system_resource_locked")
    status, body, _ = await econ.sdk("POST", f"/players/ann/inventory/{key}/consume", secret, {"quantity": 1})
    assert (status, body["error"]["code"]) == (409, "system_resource_locked")
    status, body, _ = await econ.server(
        "POST", f"/players/ann/wallet/{key}/credit", {"amount": 1, "idempotencyKey": "w"}
    )
    assert (status, body["error"]["code"]) == (409, "system_resource_locked")


async def test_studio_managed_game_refuses_client_spend_and_fires_no_balance_webhooks(econ: Econ) -> None:
    world = econ.world
    secret = await world.register("sam")  # space-race: studio-managed
    status, body, _ = await world.call(
        "POST", "/server/v1/players/sam/wallet/coins/credit", json={"amount": 9, "idempotencyKey": "k"}
    )
    assert (status, body["data"]["balance"]) == (200, 9)  # the platform's record of what it granted
    status, body, _ = await world.call(
        "POST", "/sdk/v1/players/sam/wallet/coins/debit", key="test-client", json={"amount": 1}, secret=secret
    )
    assert (status, body["error"]["code"]) == (409, "studio_managed_economy")
    assert "wallet.changed" not in world.event_kinds()


async def test_banned_player_cannot_spend_but_can_read(econ: Econ) -> None:
    secret = await econ.register("ann")
    await credit(econ, "ann", 5, "c1")
    await econ.world.services.store.run_async(
        lambda tx: tx.players.update(ban(tx.players.get(econ.game_id, "ann"), "x", START)[0])
    )
    status, body, _ = await econ.sdk("POST", "/players/ann/wallet/coins/debit", secret, {"amount": 1})
    assert (status, body["error"]["code"]) == (403, "player_banned")
    status, _, _ = await econ.sdk("GET", "/players/ann/wallet", secret)
    assert status == 200


@pytest.mark.parametrize("amount", [0, -1, 1.5, "3", 10**13, True])
async def test_amount_must_be_a_positive_whole_number(econ: Econ, amount: object) -> None:
    await econ.register("ann")
    status, body, _ = await credit(econ, "ann", amount, "c")  # type: ignore[arg-type]
    assert status == 400
    assert "amount" in body["error"]["details"]["fields"]


async def test_server_adjust_is_idempotent(econ: Econ) -> None:
    await econ.register("ann")
    first = await credit(econ, "ann", 7, "same")
    again = await credit(econ, "ann", 7, "same")
    assert again[0] == 200 and again[1] == first[1]
    assert again[2]["Idempotent-Replay"] == "true"  # type: ignore[index]
    status, body, _ = await credit(econ, "ann", 8, "same")
    assert (status, body["error"]["code"]) == (409, "idempotency_conflict")
    assert len(econ.events("wallet.changed")) == 1


async def test_adjusting_an_unknown_player_is_404(econ: Econ) -> None:
    status, body, _ = await credit(econ, "ghost", 1, "g")
    assert (status, body["error"]["code"]) == (404, "player_not_found")


async def test_concurrent_debits_never_overdraw(econ: Econ) -> None:
    secret = await econ.register("ann")
    await credit(econ, "ann", 10, "c1")
    results = await asyncio.gather(
        *(econ.sdk("POST", "/players/ann/wallet/coins/debit", secret, {"amount": 1}) for _ in range(30)),
        *(
            econ.server("POST", "/players/ann/wallet/coins/debit", {"amount": 1, "idempotencyKey": f"d{i}"})
            for i in range(10)
        ),
    )
    ok = [r for r in results if r[0] == 200]
    refused = [r for r in results if r[0] == 409]
    assert len(ok) == 10 and len(refused) == 30
    assert all(r[1]["error"]["code"] == "insufficient_balance" for r in refused)
    _, body, _ = await econ.sdk("GET", "/players/ann/wallet", secret)
    assert body["data"]["currencies"][0]["balance"] == 0
