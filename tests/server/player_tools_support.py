"""A game and helpers for the player-tools API tests: profile, ban, debug flag, merge, erasure
and export.

``arena`` is added to the shared test manifest (``tests/conftest.py``): platform-managed (so the wallet and
inventory are the service's ledgers), gifting on with the default 24-hour cooldown and no daily limit;
``coins`` (giftable, at most 100 per gift, minted), ``gems`` (not giftable) and ``sword`` (an item with
default parameters ``level = 1, color = "grey"``). Its test keys ``client`` and ``server`` have rate
limits high enough for long scenarios; ``live-client`` and ``live-server`` are its live keys.
"""

from __future__ import annotations

import uuid
from typing import Any

import attrs

from tests.conftest import World, start_world
from tests.server.gift_support import FAST_KEYS, Game

ARENA = """
[games.arena]
name = "Arena"
economy = "platform"

[games.arena.gifting]
enabled = true

[games.arena.resources.coins]
type = "currency"
giftable = true
max_per_gift = 100

[games.arena.resources.gems]
type = "currency"

[games.arena.resources.sword]
type = "item"
parameters = { level = 1, color = "grey" }

[games.arena.api_keys.live-client]
env = "live"
permission = "client_sdk"

[games.arena.api_keys.live-server]
env = "live"
permission = "server_integration"
""" + FAST_KEYS.format(game="arena", prefix="")

T0 = "2026-03-02T12:00:00.000Z"

MERGED_ID = r"__merged_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}__"
DELETED_ID = r"__deleted_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}__"


def idem() -> str:
    return str(uuid.uuid4())


def error(answer: tuple[int, Any, Any]) -> tuple[int, str]:
    status, body, _ = answer
    assert isinstance(body, dict) and "error" in body, body
    return status, body["error"]["code"]


def ok(answer: tuple[int, Any, Any], status: int = 200) -> Any:
    got, body, _ = answer
    assert got == status, body
    return body["data"]


@attrs.define
class Arena(Game):
    """The ``arena`` game, acting through its test keys (or, with ``key=``, another of its keys)."""

    async def write(
        self, method: str, path: str, json: Any = None, *, key: str | None = None, idem_key: str | None = None
    ) -> tuple[int, Any, Any]:
        """A server write under a fresh (or the given) ``Idempotency-Key``."""
        return await self.world.call(
            method,
            f"/server/v1{path}",
            key=self.api_key(key or self.server_key),
            json=json,
            headers={"Idempotency-Key": idem_key or idem()},
        )

    async def read(self, path: str, *, key: str | None = None) -> tuple[int, Any, Any]:
        return await self.world.call("GET", f"/server/v1{path}", key=self.api_key(key or self.server_key))

    # --- the player tools ------------------------------------------------------------------------
    async def profile(self, who: str, query: str = "", *, key: str | None = None) -> tuple[int, Any, Any]:
        return await self.read(f"/players/{who}{query}", key=key)

    async def ban_api(self, who: str, reason: Any = "cheating", **kw: Any) -> tuple[int, Any, Any]:
        return await self.write("POST", f"/players/{who}/ban", {"reason": reason}, **kw)

    async def unban_api(self, who: str, **kw: Any) -> tuple[int, Any, Any]:
        return await self.write("POST", f"/players/{who}/unban", **kw)

    async def merge(self, source: str, target: str, **kw: Any) -> tuple[int, Any, Any]:
        return await self.write("POST", f"/players/{source}/merge-into/{target}", **kw)

    async def erase(self, who: str, body: Any = None, **kw: Any) -> tuple[int, Any, Any]:
        return await self.write("POST", f"/players/{who}/delete", body, **kw)

    async def export(self, who: str, *, key: str | None = None) -> tuple[int, Any, Any]:
        return await self.read(f"/players/{who}/export", key=key)

    async def exported(self, who: str) -> dict[str, Any]:
        data: dict[str, Any] = ok(await self.export(who))
        return data

    # --- economy and records ---------------------------------------------------------------------
    async def grant(self, who: str, amount: int = 5, **extra: Any) -> dict[str, Any]:
        body = {"idempotencyKey": idem(), "entries": [{"type": "currency", "key": "coins", "amount": amount}]}
        grant: dict[str, Any] = ok(
            await self.server("POST", f"/players/{who}/grants", {**body, **extra}), 201
        )["grant"]
        return grant

    async def give_items(self, who: str, quantity: int, parameters: dict[str, Any] | None = None) -> None:
        body: dict[str, Any] = {"quantity": quantity, "idempotencyKey": idem()}
        if parameters is not None:
            body["parameters"] = parameters
        ok(await self.server("POST", f"/players/{who}/inventory/sword/grant", body))

    async def purchase(self, who: str, transaction_id: str, amount_minor: int = 499) -> dict[str, Any]:
        body = {
            "transactionId": transaction_id,
            "store": "apple",
            "productId": "gem_pack",
            "productType": "consumable",
            "amountMinor": amount_minor,
            "currency": "USD",
        }
        purchase: dict[str, Any] = ok(await self.write("POST", f"/players/{who}/purchases", body))["purchase"]
        return purchase

    async def wallet(self, who: str) -> dict[str, int]:
        status, body, _ = await self.sdk("GET", who, "/wallet")
        assert status == 200, body
        return {c["key"]: c["balance"] for c in body["data"]["currencies"]}

    async def items(self, who: str) -> dict[str, dict[str, Any]]:
        status, body, _ = await self.sdk("GET", who, "/inventory")
        assert status == 200, body
        return {i["key"]: i for i in body["data"]["items"] if not i.get("system")}

    # --- the friend graph, as the studio backend reads it ----------------------------------------
    async def friend_ids(self, who: str) -> set[str]:
        data = ok(await self.read(f"/players/{who}/friends"))
        return {row["externalPlayerId"] for row in data["friends"]}

    async def request_ids(self, who: str) -> tuple[set[str], set[str]]:
        """(incoming from, outgoing to) as external ids."""
        data = ok(await self.read(f"/players/{who}/friends/requests"))
        return (
            {r["player"]["externalPlayerId"] for r in data["incoming"]},
            {r["player"]["externalPlayerId"] for r in data["outgoing"]},
        )

    async def blocked_ids(self, who: str) -> set[str]:
        data = ok(await self.read(f"/players/{who}/blocks"))
        return {row["externalPlayerId"] for row in data["blocks"]}

    async def request(self, sender: str, target: str) -> str:
        status, body, _ = await self.sdk("POST", sender, "/friends/requests", {"externalPlayerId": target})
        assert status == 201, body
        return str(body["data"]["request"]["requestId"])

    async def block(self, blocker: str, blocked: str) -> None:
        status, body, _ = await self.sdk("POST", blocker, "/friends/blocks", {"externalPlayerId": blocked})
        assert status == 201, body

    # --- direct reads of the store ---------------------------------------------------------------
    def rows(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        return self.world.rows(sql, params)

    def player_row(self, player_id: str) -> Any:
        return self.world.services.store.run(lambda tx: tx.players.by_id(player_id), write=False)


async def start_arena(db_url: str) -> Arena:
    world: World = await start_world(db_url, manifest_extra=ARENA)
    return Arena(world, "arena")
