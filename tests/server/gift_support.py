"""Games and helpers for the gifting API tests.

The manifest below is added to the shared test manifest (``tests/conftest.py``):

- ``space-race`` (studio-managed, gifting on, cooldown 86400, no daily limit, no claim expiry) gains
  ``ink`` (giftable but ``costs_sender``: refused in a studio-managed game), ``badge`` (giftable item, at
  most 3), ``gems`` (not giftable) and two test keys without tight rate limits;
- ``gala``: platform-managed, cooldown 1 hour, unclaimed gifts expire after 2 hours, no daily limit;
  ``gold`` costs the sender (at most 50), ``rose`` item (at most 5), ``xp`` uncapped, ``gems`` not giftable;
- ``quota``: platform-managed, cooldown 1 hour, daily limit 3; ``heart`` (at most 10), ``gold`` costs
  the sender;
- ``lapsed``: gifting on at first; :func:`disable_lapsed` re-applies the manifest with it off.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import attrs

from livecore.players.rules import ban
from tests.conftest import World, apply_test_manifest, start_world

FAST_KEYS = """
[games.{game}.api_keys.{prefix}client]
env = "test"
permission = "client_sdk"
rate_limits = {{ sdk_read = 100000, sdk_write = 100000 }}

[games.{game}.api_keys.{prefix}server]
env = "test"
permission = "server_integration"
rate_limits = {{ server_api = 100000 }}
"""

GIFT_GAMES = """
[games.space-race.resources.ink]
type = "currency"
giftable = true
costs_sender = true

[games.space-race.resources.badge]
type = "item"
giftable = true
max_per_gift = 3

[games.space-race.resources.gems]
type = "currency"

[games.gala]
name = "Gala"
economy = "platform"

[games.gala.gifting]
enabled = true
cooldown_seconds = 3600
claim_expiry_seconds = 7200

[games.gala.resources.gold]
type = "currency"
giftable = true
max_per_gift = 50
costs_sender = true

[games.gala.resources.rose]
type = "item"
giftable = true
max_per_gift = 5

[games.gala.resources.xp]
type = "currency"
giftable = true

[games.gala.resources.gems]
type = "currency"

[games.quota]
name = "Quota"
economy = "platform"

[games.quota.gifting]
enabled = true
cooldown_seconds = 3600
daily_send_limit = 3

[games.quota.resources.heart]
type = "currency"
giftable = true
max_per_gift = 10

[games.quota.resources.gold]
type = "currency"
giftable = true
costs_sender = true

[games.lapsed]
name = "Lapsed"

[games.lapsed.gifting]
enabled = {lapsed_enabled}

[games.lapsed.resources.coins]
type = "currency"
giftable = true
"""


def gift_manifest(*, lapsed_enabled: bool = True) -> str:
    keys = FAST_KEYS.format(game="space-race", prefix="gift-") + "".join(
        FAST_KEYS.format(game=g, prefix="") for g in ("gala", "quota", "lapsed")
    )
    return GIFT_GAMES.format(lapsed_enabled="true" if lapsed_enabled else "false") + keys


async def start_gift_world(db_url: str) -> World:
    return await start_world(db_url, manifest_extra=gift_manifest())


async def disable_lapsed(world: World) -> None:
    """Re-apply the manifest with the ``lapsed`` game's gifting switched off (as ``apply`` would)."""
    await asyncio.to_thread(apply_test_manifest, world.services, gift_manifest(lapsed_enabled=False))
    world.services.store.clear_caches()


@attrs.define
class Game:
    """One game of the gift world, acting through its test keys; players by external id."""

    world: World
    key: str
    client_key: str = "client"
    server_key: str = "server"
    secrets: dict[str, str] = attrs.Factory(dict)

    @property
    def id(self) -> str:
        return str(self.world.applied["games"][self.key]["id"])

    def api_key(self, name: str) -> str:
        return str(self.world.applied["games"][self.key]["apiKeys"][name]["secret"])

    # --- requests --------------------------------------------------------------------------------
    async def register(self, *names: str) -> None:
        for name in names:
            self.secrets[name] = await self.world.register(name, key=self.api_key(self.client_key))

    async def sdk(
        self, method: str, who: str, path: str = "", json: Any = None, **kw: Any
    ) -> tuple[int, Any, Any]:
        """A player-scoped client call: ``path`` is relative to ``/sdk/v1/players/{who}``."""
        return await self.world.call(
            method,
            f"/sdk/v1/players/{who}{path}",
            key=self.api_key(self.client_key),
            json=json,
            secret=self.secrets[who],
            **kw,
        )

    async def server(
        self, method: str, path: str, json: Any = None, *, idem: str | None = None, **kw: Any
    ) -> tuple[int, Any, Any]:
        headers = {"Idempotency-Key": idem} if idem else None
        return await self.world.call(
            method, f"/server/v1{path}", key=self.api_key(self.server_key), json=json, headers=headers, **kw
        )

    async def befriend(self, a: str, *others: str) -> None:
        for b in others:
            status, body, _ = await self.sdk("POST", a, "/friends/requests", {"externalPlayerId": b})
            assert status == 201, body
            request_id = body["data"]["request"]["requestId"]
            status, body, _ = await self.sdk("POST", b, f"/friends/requests/{request_id}/accept")
            assert status == 200, body

    async def code(self, who: str) -> str:
        status, body, _ = await self.sdk("GET", who, "/friends/code")
        assert status == 200, body
        return str(body["data"]["friendCode"])

    async def send(
        self,
        sender: str,
        to: str | None = None,
        *,
        resource: str = "coins",
        amount: int = 1,
        type: str = "currency",
        **extra: Any,
    ) -> tuple[int, Any, Any]:
        body: dict[str, Any] = {"type": type, "resourceKey": resource, "amount": amount}
        if to is not None:
            body["externalPlayerId"] = to
        body.update(extra)
        return await self.sdk("POST", sender, "/friends/gifts", body)

    async def sent_gift(self, sender: str, to: str, **kw: Any) -> dict[str, Any]:
        """Send a gift that must succeed; its wire view."""
        status, body, _ = await self.send(sender, to, **kw)
        assert status == 201, body
        gift: dict[str, Any] = body["data"]["gift"]
        return gift

    async def claim(self, who: str, gift_id: str) -> tuple[int, Any, Any]:
        return await self.sdk("POST", who, f"/friends/gifts/{gift_id}/claim")

    async def claim_grant(self, who: str, grant_id: str) -> tuple[int, Any, Any]:
        return await self.sdk("POST", who, f"/grants/{grant_id}/claim")

    async def listing(self, who: str, box: str, query: str = "") -> list[dict[str, Any]]:
        status, body, _ = await self.sdk("GET", who, f"/friends/gifts/{box}{query}")
        assert status == 200, body
        rows: list[dict[str, Any]] = body["data"]
        return rows

    async def catalog(self, who: str) -> dict[str, Any]:
        status, body, _ = await self.sdk("GET", who, "/friends/gifts/catalog")
        assert status == 200, body
        data: dict[str, Any] = body["data"]
        return data

    async def friends(self, who: str) -> dict[str, dict[str, Any]]:
        status, body, _ = await self.sdk("GET", who, "/friends")
        assert status == 200, body
        return {row["externalPlayerId"]: row for row in body["data"]["friends"]}

    async def history(self, who: str, query: str = "") -> tuple[int, Any, Any]:
        return await self.server("GET", f"/players/{who}/gifts{query}")

    async def pending_grants(self, who: str) -> list[dict[str, Any]]:
        status, body, _ = await self.sdk("GET", who, "/pending-grants")
        assert status == 200, body
        grants: list[dict[str, Any]] = body["data"]["grants"]
        return grants

    async def credit(self, who: str, key: str, amount: int) -> None:
        status, body, _ = await self.server(
            "POST", f"/players/{who}/wallet/{key}/credit", {"amount": amount}, idem=str(uuid.uuid4())
        )
        assert status == 200, body

    async def balance(self, who: str, key: str) -> int:
        status, body, _ = await self.sdk("GET", who, "/wallet")
        assert status == 200, body
        return next((c["balance"] for c in body["data"]["currencies"] if c["key"] == key), 0)

    async def advance(self, seconds: float) -> str:
        """Move the manual clock through the dev route, running the scheduled work that comes due."""
        status, body, _ = await self.world.call(
            "POST",
            "/server/v1/dev/clock/advance",
            key=self.api_key(self.server_key),
            json={"seconds": seconds},
        )
        assert status == 200, body
        return str(body["data"]["now"])

    # --- direct reads of the store ---------------------------------------------------------------
    def events(self, kind: str | None = None) -> list[Any]:
        return [e for e in self.world.events() if e.game_id == self.id and kind in (None, e.kind)]

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events()]

    def player_id(self, who: str) -> str:
        player = self.world.services.store.run(lambda tx: tx.players.get(self.id, who), write=False)
        assert player is not None
        return str(player.id)

    async def ban(self, who: str) -> None:
        """Ban a player in the store (the server ban route is not part of this feature's tests)."""
        now = self.world.clock.now()
        await self.world.services.store.run_async(
            lambda tx: tx.players.update(ban(tx.players.get(self.id, who), "test", now)[0])
        )

    def ledger(self, who: str, key: str) -> list[Any]:
        pid = self.player_id(who)
        return list(self.world.services.store.run(lambda tx: tx.ledger.entries(pid, key), write=False))

    def holding(self, who: str, key: str) -> int:
        pid = self.player_id(who)
        return int(self.world.services.store.run(lambda tx: tx.ledger.holding(pid, key).amount, write=False))

    def footprint(self) -> tuple[int, ...]:
        """Rows a send could leave behind in this game: gifts, grants, outbox events, ledger entries."""

        def count(tx: Any) -> tuple[int, ...]:
            return tuple(
                tx.execute(f"SELECT COUNT(*) FROM {table} WHERE game_id = ?", (self.id,)).fetchone()[0]
                for table in ("gifts", "grants", "outbox", "ledger")
            )

        result: tuple[int, ...] = self.world.services.store.run(count, write=False)
        return result


def games(world: World) -> dict[str, Game]:
    return {
        "space-race": Game(world, "space-race", client_key="gift-client", server_key="gift-server"),
        "other-game": Game(world, "other-game", client_key="test-client", server_key="test-server"),
        **{name: Game(world, name) for name in ("gala", "quota", "lapsed")},
    }


GIFT_FIELDS = {
    "giftId",
    "grantId",
    "direction",
    "player",
    "type",
    "resourceKey",
    "amount",
    "message",
    "status",
    "sentAt",
    "claimedAt",
    "expiresAt",
}
PARTIES = {
    "giftId",
    "grantId",
    "senderPlayerId",
    "senderExternalPlayerId",
    "recipientPlayerId",
    "recipientExternalPlayerId",
    "type",
    "resourceKey",
    "amount",
}
GIFT_SENT_FIELDS = PARTIES | {"deductedFromSender", "message", "sentAt", "expiresAt"}
GIFT_CLAIMED_FIELDS = PARTIES | {"claimedAt"}
