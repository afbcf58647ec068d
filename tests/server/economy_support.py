"""A platform-managed game for the economy and grant API tests."""

from __future__ import annotations

from typing import Any

import attrs

from tests.conftest import World, start_world

BAZAAR = """
[games.bazaar]
name = "Bazaar"
economy = "platform"

[games.bazaar.resources.coins]
type = "currency"

[games.bazaar.resources.gems]
type = "currency"

[games.bazaar.resources.sword]
type = "item"
parameters = { level = 1, color = "grey" }

[games.bazaar.api_keys.client]
env = "test"
permission = "client_sdk"

[games.bazaar.api_keys.server]
env = "test"
permission = "server_integration"

[games.bazaar.api_keys.live-server]
env = "live"
permission = "server_integration"
"""

# Every chest gives 50 coins and a level-3 sword; a pouch gives 5 gems or nothing, twice.
CRATES = """
[games.bazaar.crates.chest]
table = [
  { weight = 1, rewards = [
    { type = "currency", key = "coins", amount = 50 },
    { type = "item", key = "sword", amount = 1, parameters = { level = 3 } },
  ] },
]

[games.bazaar.crates.pouch]
rolls = 2
table = [
  { weight = 1, rewards = [{ type = "currency", key = "gems", amount = 5 }] },
  { weight = 1, rewards = [] },
]
"""


@attrs.define
class Econ:
    world: World

    @property
    def game_id(self) -> str:
        return str(self.world.applied["games"]["bazaar"]["id"])

    def key(self, name: str) -> str:
        return str(self.world.applied["games"]["bazaar"]["apiKeys"][name]["secret"])

    async def register(self, external_id: str) -> str:
        return await self.world.register(external_id, key=self.key("client"))

    async def server(
        self, method: str, path: str, json: Any = None, *, idem: str | None = None, key: str = "server"
    ):  # type: ignore[no-untyped-def]
        headers = {"Idempotency-Key": idem} if idem else None
        return await self.world.call(
            method, f"/server/v1{path}", key=self.key(key), json=json, headers=headers
        )

    async def sdk(self, method: str, path: str, secret: str, json: Any = None):  # type: ignore[no-untyped-def]
        return await self.world.call(
            method, f"/sdk/v1{path}", key=self.key("client"), json=json, secret=secret
        )

    def kinds(self) -> list[str]:
        return [e.kind for e in self.world.events() if e.game_id == self.game_id]

    def events(self, kind: str) -> list[Any]:
        return [e for e in self.world.events() if e.kind == kind and e.game_id == self.game_id]


async def start_econ(db_url: str) -> Econ:
    return Econ(await start_world(db_url, manifest_extra=BAZAAR))
