"""Games and helpers for the guild API tests (docs/guilds.md).

The manifest below is added to the shared test manifest (``tests/conftest.py``), whose ``space-race``
has guilds off:

- ``clan``: platform-managed; guilds of at most 4 members; founding costs 100 coins; ``badword`` is
  filtered; a leader unseen for a day hands on; help with ``energy`` (a currency) or ``potion`` (an
  item), at most 5, open an hour, one request per two hours, the donor rewarded with 2 coins. Test keys
  without tight rate limits, and a live client and server key;
- ``tribe``: studio-managed, the same founding cost and help with ``energy`` (nothing is debited);
- ``quiet``: guilds on, free, no help requests.
"""

from __future__ import annotations

import uuid
from typing import Any

import attrs

from livecore.clock import format_ts
from tests.conftest import World, start_world
from tests.server.gift_support import FAST_KEYS, Game

GUILD_GAMES = """
[games.clan]
name = "Clan"
economy = "platform"

[games.clan.resources.coins]
type = "currency"

[games.clan.resources.energy]
type = "currency"

[games.clan.resources.potion]
type = "item"

[games.clan.guilds]
enabled = true
max_members = 4
create_cost = [{ type = "currency", key = "coins", amount = 100 }]
name_filter = ["badword", "Bad  Word"]
leader_inactive_days = 1

[games.clan.guilds.help]
resources = ["energy", "potion"]
max_amount = 5
expiry_seconds = 3600
cooldown_seconds = 7200
donor_reward = [{ type = "currency", key = "coins", amount = 2 }]

[games.clan.api_keys.live-client]
env = "live"
permission = "client_sdk"

[games.clan.api_keys.live-server]
env = "live"
permission = "server_integration"

[games.tribe]
name = "Tribe"

[games.tribe.resources.coins]
type = "currency"

[games.tribe.resources.energy]
type = "currency"

[games.tribe.guilds]
enabled = true
create_cost = [{ type = "currency", key = "coins", amount = 100 }]

[games.tribe.guilds.help]
resources = ["energy"]
max_amount = 5
donor_reward = [{ type = "currency", key = "coins", amount = 2 }]

[games.quiet]
name = "Quiet"

[games.quiet.guilds]
enabled = true
"""


def guild_manifest() -> str:
    return GUILD_GAMES + "".join(FAST_KEYS.format(game=g, prefix="") for g in ("clan", "tribe", "quiet"))


@attrs.define
class Guilds(Game):
    """One game of the guild world, acting through its test keys; players by external id."""

    async def found(self, who: str, name: str, join_type: str = "open", **fields: Any) -> tuple[int, Any]:
        status, body, _ = await self.sdk(
            "POST", who, "/guilds", {"name": name, "joinType": join_type, **fields}
        )
        return status, body

    async def founded(self, who: str, name: str, join_type: str = "open", **fields: Any) -> dict[str, Any]:
        """Found a guild that must be founded (its founder credited with the cost first); its view."""
        await self.credit(who, "coins", 100)
        status, body = await self.found(who, name, join_type, **fields)
        assert status == 201, body
        guild: dict[str, Any] = body["data"]["guild"]
        return guild

    def tick(self) -> None:
        """A second passes. Members are listed in joining order, ties by their random stint ids: each join
        takes a second of its own so that the order is the order of the calls."""
        self.world.clock.advance(1)

    def now(self) -> str:
        return format_ts(self.world.clock.now())

    async def join(self, who: str, guild_id: str, json: Any = None) -> tuple[int, Any]:
        self.tick()
        status, body, _ = await self.sdk("POST", who, f"/guilds/{guild_id}/join", json)
        return status, body

    async def joined(self, guild_id: str, *names: str) -> None:
        """Players who must join an open guild at once."""
        for name in names:
            status, body = await self.join(name, guild_id)
            assert status == 200, body

    async def own(self, who: str, method: str = "GET", path: str = "", json: Any = None) -> tuple[int, Any]:
        """A call on the player's own guild, ``{P}/guild{path}``."""
        status, body, _ = await self.sdk(method, who, f"/guild{path}", json)
        return status, body

    async def mine(self, who: str) -> dict[str, Any]:
        status, body = await self.own(who)
        assert status == 200, body
        data: dict[str, Any] = body["data"]
        return data

    async def act(self, who: str, action: str, target: str) -> tuple[int, Any]:
        """``kick``, ``promote`` or ``demote`` ``target``."""
        return await self.own(who, "POST", f"/members/{target}/{action}")

    async def read(self, guild_id: str, *, key: str | None = None) -> tuple[int, Any]:
        """The client read of one guild, with the client key alone."""
        status, body, _ = await self.world.call(
            "GET", f"/sdk/v1/guilds/{guild_id}", key=key or self.api_key(self.client_key)
        )
        return status, body

    async def search(self, query: str = "", *, key: str | None = None) -> tuple[int, Any]:
        status, body, _ = await self.world.call(
            "GET", f"/sdk/v1/guilds{query}", key=key or self.api_key(self.client_key)
        )
        return status, body

    async def moderate(
        self, method: str, path: str, json: Any = None, *, idem: str | None = None, key: str | None = None
    ) -> tuple[int, Any, Any]:
        """A server call (writes with a fresh idempotency key unless ``idem``); ``key``: another key."""
        if idem is None and method != "GET":
            idem = str(uuid.uuid4())
        headers = {"Idempotency-Key": idem} if idem else None
        return await self.world.call(
            method,
            f"/server/v1{path}",
            key=key or self.api_key(self.server_key),
            json=json,
            headers=headers,
        )

    async def detail(self, guild_id: str) -> dict[str, Any]:
        status, body, _ = await self.moderate("GET", f"/guilds/{guild_id}")
        assert status == 200, body
        guild: dict[str, Any] = body["data"]["guild"]
        return guild

    async def ask(self, who: str, key: str, amount: int, type_: str = "currency") -> tuple[int, Any]:
        """Ask the player's guild for help."""
        body = {"type": type_, "resourceKey": key, "amount": amount}
        return await self.own(who, "POST", "/help-requests", body)

    async def donate(self, who: str, request_id: str, amount: int) -> tuple[int, Any]:
        return await self.own(who, "POST", f"/help-requests/{request_id}/donate", {"amount": amount})

    async def give_item(self, who: str, key: str, quantity: int) -> None:
        status, body, _ = await self.server(
            "POST", f"/players/{who}/inventory/{key}/grant", {"quantity": quantity}, idem=str(uuid.uuid4())
        )
        assert status == 200, body

    async def heartbeat(self, who: str) -> None:
        status, body, _ = await self.sdk("POST", who, "/presence")
        assert status == 200, body

    def payloads(self, kind: str) -> list[dict[str, Any]]:
        return [e.data for e in self.events(kind)]

    def guild_kinds(self) -> list[str]:
        return [k for k in self.kinds() if k.startswith("guild.")]


async def start_guild_world(db_url: str, **config: Any) -> dict[str, Guilds]:
    world: World = await start_world(db_url, manifest_extra=guild_manifest(), **config)
    return {
        **{name: Guilds(world, name) for name in ("clan", "tribe", "quiet")},
        "space-race": Guilds(world, "space-race", client_key="test-client", server_key="test-server"),
    }
