"""The scenario registry: what the harness measures. Add a scenario with one ``register(Scenario(...))``.

A scenario is data: one HTTP request that wrk repeats for a slice. Text fields (path, header values,
body) may contain

* ``${name}``: filled once from the context variables before the rounds (``${server_key}``,
  ``${client_key}``, ``${game_id}``, ``${studio_id}``, plus whatever the scenario's ``setup`` adds);
* ``{{unique}}`` (:data:`UNIQUE`): filled by wrk with a new id on every request (the same id
  everywhere in one request), for unique paths, ``Idempotency-Key`` headers and body fields.

For anything else, ``lua`` holds Lua that wrk loads after the request fields are set; it may define
``request()`` (see wrk's SCRIPTING), call ``unique_id()`` and read ``vars.<name>``.
See ``benchmarks/README.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import orjson

from benchmarks.context import BenchContext

UNIQUE = "{{unique}}"
BASELINE = "baseline"


@dataclass(frozen=True)
class Scenario:
    name: str
    path: str
    method: str = "GET"
    headers: Mapping[str, str] = field(default_factory=dict)
    body: str | None = None
    # Lua loaded after the request fields; may define request(), use unique_id() and vars.
    lua: str | None = None
    # Run once before the rounds (after the manifest is applied), e.g. to create players over HTTP.
    setup: Callable[[BenchContext], None] | None = None
    # PASS when median req/s / baseline median req/s >= target_ratio.
    target_ratio: float | None = None
    # PASS only when no round's p99 is above this.
    max_p99_ms: float | None = None
    description: str = ""

    @property
    def has_target(self) -> bool:
        return self.target_ratio is not None or self.max_p99_ms is not None


SCENARIOS: dict[str, Scenario] = {}


def register(scenario: Scenario) -> Scenario:
    if scenario.name in SCENARIOS:
        raise ValueError(f"scenario {scenario.name!r} is registered twice")
    SCENARIOS[scenario.name] = scenario
    return scenario


def server_auth() -> dict[str, str]:
    return {"Authorization": "Bearer ${server_key}"}


def client_auth() -> dict[str, str]:
    return {"Authorization": "Bearer ${client_key}"}


def unique_write(headers: Mapping[str, str]) -> dict[str, str]:
    """``headers`` plus a fresh ``Idempotency-Key`` on every request."""
    return {**headers, "Idempotency-Key": UNIQUE}


def register_player(ctx: BenchContext, external_id: str) -> str:
    """Setup helper: register a player over HTTP with the client key; returns its player secret
    (sent as ``X-Player-Secret`` by player-authenticated SDK routes)."""
    body = ctx.call("POST", f"/sdk/v1/players/{external_id}/register", key="client_key")
    return str(body["data"]["playerSecret"])


# --- Scenarios --------------------------------------------------------------------------------------

register(
    Scenario(
        name=BASELINE,
        path="/bench/baseline",
        description="Bare aiohttp handler returning ~200 bytes of JSON (no middleware): the yardstick.",
    )
)

register(
    Scenario(
        name="server_ping",
        path="/server/v1/ping",
        headers=server_auth(),
        target_ratio=0.80,
        description="Authenticated no-op server route through the whole middleware stack.",
    )
)

register(
    Scenario(
        name="sdk_register",
        method="POST",
        path=f"/sdk/v1/players/bench-{UNIQUE}/register",
        headers=unique_write(client_auth()),
        description="Write example: registers a new player per request (unique path and Idempotency-Key).",
    )
)


# --- Issue #4: grants ------------------------------------------------------------------------------

GRANT_ENTRIES = (
    '[{"type": "currency", "key": "coins", "amount": 10}, {"type": "item", "key": "sword", "amount": 1}]'
)


def _grantee(ctx: BenchContext) -> None:
    register_player(ctx, "bench-grantee")


def _replayed_grant(ctx: BenchContext) -> None:
    register_player(ctx, "bench-replay")
    ctx.call(
        "POST",
        "/server/v1/players/bench-replay/grants",
        key="server_key",
        json={"idempotencyKey": "bench-replay-1", "entries": orjson.loads(GRANT_ENTRIES)},
    )


register(
    Scenario(
        name="server_grant",
        method="POST",
        path="/server/v1/players/bench-grantee/grants",
        headers={**server_auth(), "Content-Type": "application/json"},
        body=f'{{"idempotencyKey": "{UNIQUE}", "entries": {GRANT_ENTRIES}}}',
        setup=_grantee,
        target_ratio=0.20,
        max_p99_ms=100,
        description="Server grant create: a new grant (and its grant.created event) per request.",
    )
)

register(
    Scenario(
        name="server_grant_replay",
        method="POST",
        path="/server/v1/players/bench-replay/grants",
        headers={**server_auth(), "Content-Type": "application/json"},
        body=f'{{"idempotencyKey": "bench-replay-1", "entries": {GRANT_ENTRIES}}}',
        setup=_replayed_grant,
        target_ratio=0.40,
        max_p99_ms=100,
        description="The same grant request again: answered from the idempotency record.",
    )
)


# --- Issue #5: friends and presence ------------------------------------------------------------------

HEARTBEATERS = 200
FRIENDS_EACH = 50


def _heartbeaters(ctx: BenchContext) -> None:
    """Many players, each with a secret; the Lua below picks one at random per request."""
    pool = []
    for i in range(HEARTBEATERS):
        name = f"bench-hb-{i}"
        pool.append(f"{name}:{register_player(ctx, name)}")
    ctx.vars["pool"] = ",".join(pool)


PICK_PLAYER_LUA = """
local players = {}
for entry in string.gmatch(vars.pool, "[^,]+") do
   local name, secret = string.match(entry, "([^:]+):(.+)")
   table.insert(players, {name = name, secret = secret})
end
request = function()
   local p = players[math.random(#players)]
   wrk.headers["X-Player-Secret"] = p.secret
   return wrk.format(nil, string.format(wrk.path, p.name))
end
"""


def _hub_with_friends(ctx: BenchContext) -> None:
    """A player with 50 friends (who heartbeat once, so rows carry presence)."""
    hub = register_player(ctx, "bench-hub")
    ctx.vars["hub_secret"] = hub
    for i in range(FRIENDS_EACH):
        name = f"bench-friend-{i}"
        secret = register_player(ctx, name)
        sent = ctx.call(
            "POST",
            "/sdk/v1/players/bench-hub/friends/requests",
            key="client_key",
            json={"externalPlayerId": name},
            headers={"X-Player-Secret": hub},
        )
        ctx.call(
            "POST",
            f"/sdk/v1/players/{name}/friends/requests/{sent['data']['request']['requestId']}/accept",
            key="client_key",
            headers={"X-Player-Secret": secret},
        )
        ctx.call(
            "POST",
            f"/sdk/v1/players/{name}/presence",
            key="client_key",
            json={"status": "in lobby"},
            headers={"X-Player-Secret": secret},
        )


register(
    Scenario(
        name="heartbeat",
        method="POST",
        path="/sdk/v1/players/%s/presence",
        headers={**client_auth(), "Content-Type": "application/json"},
        body='{"status": "in a match"}',
        lua=PICK_PLAYER_LUA,
        setup=_heartbeaters,
        target_ratio=0.50,
        max_p99_ms=15,
        description="Presence heartbeats from 200 players chosen at random.",
    )
)

register(
    Scenario(
        name="list_friends",
        path="/sdk/v1/players/bench-hub/friends",
        headers={**client_auth(), "X-Player-Secret": "${hub_secret}"},
        setup=_hub_with_friends,
        target_ratio=0.30,
        max_p99_ms=15,
        description="A player lists its 50 friends with presence.",
    )
)
