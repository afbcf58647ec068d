"""A game with every per-player limit, served by one app on SQLite and by two on PostgreSQL, for the races of
tests/server/test_write_limits_concurrency.py.

``vault`` is platform-managed, so every limit debits a real balance:

- ``gold`` (giftable, at most 100 a gift), ``energy`` (the guilds' help resource), ``gems`` (the event's
  entry cost), ``coins`` (crate contents and the donor's reward) and the ``sword`` item;
- gifting: a cooldown of an hour per friend, at most 3 gifts a day per sender;
- the ``chest`` crate always holds 50 coins and a sword;
- guilds of up to 50 members; help with up to 5 ``energy``, the donor rewarded with 2 coins;
- the ``trial`` event: one window of an hour, open at the world's start (``tests/conftest.py``'s
  ``START``), at most 3 attempts a player, each costing 5 gems;
- the ``arena`` lobby event: lobbies of 4, open with ``trial``'s window, each start costing 5 gems;
- the ``weekly`` shared leaderboard: scores summed, divisions of 3 in two tiers.

On PostgreSQL a second app opens the same database, as a second ``livecore-server serve`` process would,
and requests go to each app in turn. Their manual clocks both stand at ``START`` and are never moved: two
processes whose service times differed would disagree on cooldowns and expiries for reasons that are not
the races'. On SQLite one app serves (one server process per file: docs/deployment.md).
"""

from __future__ import annotations

import uuid
from collections import Counter
from typing import Any

import attrs
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from livecore_server.services import SERVICES, Services
from tests.conftest import World, make_app, start_world
from tests.server.gift_support import FAST_KEYS
from tests.server.guild_support import Guilds

VAULT = """
[games.vault]
name = "Vault"
economy = "platform"

[games.vault.gifting]
enabled = true
cooldown_seconds = 3600
daily_send_limit = 3

[games.vault.resources.gold]
type = "currency"
giftable = true
max_per_gift = 100

[games.vault.resources.energy]
type = "currency"

[games.vault.resources.gems]
type = "currency"

[games.vault.resources.coins]
type = "currency"

[games.vault.resources.sword]
type = "item"

[games.vault.crates.chest]
table = [
  { weight = 1, rewards = [
    { type = "currency", key = "coins", amount = 50 },
    { type = "item", key = "sword", amount = 1 },
  ] },
]

[games.vault.guilds]
enabled = true
max_members = 50

[games.vault.guilds.help]
resources = ["energy"]
max_amount = 5
expiry_seconds = 3600
cooldown_seconds = 7200
donor_reward = [{ type = "currency", key = "coins", amount = 2 }]

[games.vault.events.trial]
name = "Trial"
starts_at = "2026-03-02T12:00:00Z"
window_seconds = 3600
attempt_seconds = 600
max_attempts = 3
score_metric = "score"
entry_cost = [{ type = "currency", key = "gems", amount = 5 }]

[games.vault.events.arena]
name = "Arena"
starts_at = "2026-03-02T12:00:00Z"
window_seconds = 3600
attempt_seconds = 600
score_metric = "score"
entry_cost = [{ type = "currency", key = "gems", amount = 5 }]

[games.vault.events.arena.lobby]
capacity = 4
fill_seconds = 60

[games.vault.leaderboards.weekly]
name = "Weekly"
period = "weekly"
aggregation = "sum"
divisions = { size = 3, tiers = ["bronze", "silver"], promote = 1, relegate = 1 }
""" + FAST_KEYS.format(game="vault", prefix="")

# Connections of each app's PostgreSQL pool: enough for several transactions of each app at once.
# Buffered key usage and last-seen times are written once a test is over (``flush_every`` is longer than
# any test): such a write racing the requests would be counted among their retries.
CONFIG: dict[str, Any] = {"pool_size": 4, "flush_every": 600.0}

# The first app's seed is tests/conftest.py's default (7).
SECOND_SEED = 8

Answer = tuple[int, Any, Any]


@attrs.define
class Servers(World):
    """The world's app and, on PostgreSQL, a second app on its database; each request goes to the next
    app in turn. Reads of the store (``rows``, ``events``) go through the first app's store."""

    clients: list[TestClient[web.Request, web.Application]] = attrs.Factory(list)
    served: list[Services] = attrs.Factory(list)
    turn: int = 0

    async def call(
        self,
        method: str,
        path: str,
        *,
        key: str | None = "test-server",
        json: Any = None,
        headers: dict[str, str] | None = None,
        secret: str | None = None,
        **kw: Any,
    ) -> Answer:
        client = self.clients[self.turn % len(self.clients)]
        self.turn += 1
        h = dict(headers or {})
        if key is not None:
            h["Authorization"] = f"Bearer {self.keys.get(key, key)}"
        if secret is not None:
            h["X-Player-Secret"] = secret
        resp = await client.request(method, path, json=json, headers=h, **kw)
        body = await resp.json() if resp.content_type == "application/json" else await resp.text()
        return resp.status, body, resp.headers

    async def close(self) -> None:
        for client in reversed(self.clients):
            await client.close()

    def write_counts(self) -> list[Any]:
        """Each PostgreSQL store's ``write_counts`` (``committed``, and ``retried`` by exception class)."""
        # An attribute of PostgresStore only, not of the ServerStore protocol.
        stores: list[Any] = [s.store for s in self.served]
        return [store.write_counts for store in stores]

    def retried(self) -> Counter[str]:
        """Retries of every app's store so far, by the exception class that caused them."""
        total: Counter[str] = Counter()
        for counts in self.write_counts():
            total.update(counts.retried)
        return total

    def committed(self) -> int:
        return sum(int(counts.committed) for counts in self.write_counts())


async def start_servers(db_url: str) -> Servers:
    """The vault world: one app on SQLite, two on one PostgreSQL database."""
    world = await start_world(db_url, manifest_extra=VAULT, **CONFIG)
    clients = [world.client]
    services = [world.services]
    try:
        if world.on_postgres:
            # Made after the manifest is applied and its kept endpoints written: it starts as a process
            # started later would, reading the games from the database. Its random source has a seed of
            # its own: two processes drawing the same ids would collide on them.
            second = TestClient(TestServer(make_app(db_url, seed=SECOND_SEED, **CONFIG)))
            await second.start_server()
            clients.append(second)
            services.append(second.app[SERVICES])
    except BaseException:
        await world.client.close()
        raise
    return Servers(
        services=world.services,
        client=world.client,
        keys=world.keys,
        other_keys=world.other_keys,
        applied=world.applied,
        clients=clients,
        served=services,
    )


def outcome(answer: Answer) -> tuple[int, str]:
    """(status, error code or ``ok``) of an answer."""
    status, body, _ = answer
    return status, body["error"]["code"] if status >= 400 else "ok"


@attrs.define
class Vault(Guilds):
    """The ``vault`` game, acting through its test keys (every helper of the gift and guild games)."""

    async def debit(self, who: str, key: str, amount: int, *, by_server: bool, idem: str) -> Answer:
        """Take ``amount`` of ``key`` from ``who``: the server's debit, or the player's own."""
        if by_server:
            return await self.server(
                "POST", f"/players/{who}/wallet/{key}/debit", {"amount": amount}, idem=idem
            )
        return await self.sdk("POST", who, f"/wallet/{key}/debit", {"amount": amount, "idempotencyKey": idem})

    async def grant(self, who: str, idem: str, *entries: dict[str, Any], kind: str = "reward") -> Answer:
        body = {"idempotencyKey": idem, "kind": kind, "entries": list(entries)}
        return await self.server("POST", f"/players/{who}/grants", body)

    async def open_crate(self, who: str, grant_id: str) -> Answer:
        return await self.sdk("POST", who, f"/crates/{grant_id}/open")

    async def start(self, who: str, event: str = "trial") -> Answer:
        return await self.sdk("POST", who, f"/events/{event}/start")

    async def complete(self, who: str, attempt_id: str, score: int, event: str = "trial") -> Answer:
        return await self.sdk(
            "POST",
            who,
            f"/events/{event}/attempts/{attempt_id}/progress",
            {"metrics": {"score": score}, "complete": True},
        )

    async def submit(self, who: str, score: int, board: str = "weekly") -> Answer:
        """The studio's score for ``who`` (a player made on first contact)."""
        body = {"externalPlayerId": who, "score": score, "idempotencyKey": str(uuid.uuid4())}
        return await self.server("POST", f"/leaderboards/{board}/scores", body)

    async def quantity(self, who: str, key: str) -> int:
        status, body, _ = await self.sdk("GET", who, "/inventory")
        assert status == 200, body
        return next((i["quantity"] for i in body["data"]["items"] if i["key"] == key), 0)

    def count(self, table: str, where: str = "", params: tuple[Any, ...] = ()) -> int:
        """Rows of ``table`` of this game (``where``: more conditions, ``?`` placeholders)."""
        condition = f" AND {where}" if where else ""
        rows = self.world.rows(
            f"SELECT COUNT(*) FROM {table} WHERE game_id = ?{condition}", (self.id, *params)
        )
        return int(rows[0][0])
