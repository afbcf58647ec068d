"""Exactly once under concurrency (docs/reference/conventions.md#idempotency, docs/architecture.md,
"Concurrency"): three ``livecore-server serve`` processes on one PostgreSQL database take the same write
under one idempotency key at once, on every route that runs beside its game's other writes (register,
server grant, friend request, gift send, gift claim, crate open, the server's wallet credit, the player's
debit, an event's start and progress, a guild donation, a shared leaderboard's score), and apply it once:
one row, one ledger entry, and every other answer the replay of the first's.
The same holds with a key and its rotated successor mixed (the successor's requests are another
credential's: 409, never applied), and for the typed client's own retries beside a first attempt that
waits for its game.

Each scenario runs ``LIVECORE_STORM_TRIALS`` times (2 unless told; the figures in
docs/decisions/0033-a-games-writes-held-by-their-players-locks.md were measured with 25)."""

from __future__ import annotations

import asyncio
import json
import os
import threading
from collections.abc import AsyncIterator, Awaitable, Iterator
from typing import Any
from unittest import mock

import attrs
import httpx
import psycopg
import pytest
import pytest_asyncio

from livecore.grants.api import RewardEntry
from livecore_client import ServerClient
from livecore_client.errors import LivecoreClientError
from livecore_server.crypto import ENV_VAR
from livecore_server.storage.postgres import idempotency_lock
from livecore_server.storage.server_store import game_queue
from tests.server.test_scale_out import MANIFEST, _apply, _env, _ready, _rows, _serve, _stop
from tests.waiting import until

pytestmark = pytest.mark.asyncio(loop_scope="module")

TRIALS = int(os.environ.get("LIVECORE_STORM_TRIALS", "2"))
AT_ONCE = 20  # requests of one write, spread over the processes
PROCESSES = 3
DB_POOL = 4  # each process's connections (test_scale_out._serve)

CRATE = """
[games.arena.crates.chest]
table = [{ weight = 1, rewards = [{ type = "currency", key = "gold", amount = 50 }] }]

[games.arena.events.marathon]
name = "Marathon"
starts_at = "2026-01-01T00:00:00Z"
window_seconds = 315360000
attempt_seconds = 315360000
score_metric = "score"

[[games.arena.events.marathon.milestones]]
key = "halfway"
threshold = 50
rewards = [{ type = "currency", key = "gold", amount = 3 }]

[games.arena.leaderboards.season]
name = "Season"
aggregation = "sum"

[games.arena.guilds]
enabled = true

[games.arena.guilds.help]
resources = ["gold"]
max_amount = 50
"""


@attrs.define
class Storm:
    url: str
    bases: list[str]
    keys: dict[str, str]
    env: dict[str, str]
    http: httpx.AsyncClient
    secrets: dict[str, str] = attrs.Factory(dict)

    @property
    def game_id(self) -> str:
        return str(self.rows("SELECT id FROM games WHERE key = 'arena'")[0][0])

    def rows(self, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return _rows(self.url, query, params)

    def post(
        self,
        i: int,
        path: str,
        body: Any = None,
        *,
        key: str,
        idem: str,
        who: str | None = None,
        in_body: bool = True,
    ) -> Awaitable[httpx.Response]:
        headers = {"Authorization": f"Bearer {key}", "Idempotency-Key": idem}
        if isinstance(body, dict) and in_body:
            body = {**body, "idempotencyKey": idem}  # the body field, on the routes that require it
        if who is not None:
            headers["X-Player-Secret"] = self.secrets[who]
        return self.http.post(f"{self.bases[i % len(self.bases)]}{path}", json=body, headers=headers)

    async def made(self, i: int, path: str, body: Any = None, *, who: str, idem: str, status: int) -> Any:
        """One write of ``who``'s own client, sent once to process ``i`` to set a storm up: its answer's
        data, once it answered ``status``."""
        r = await self.post(i, path, body, key=self.keys["client"], idem=idem, who=who, in_body=False)
        assert r.status_code == status, r.text
        return r.json()["data"]

    async def at_once(self, requests: list[Awaitable[httpx.Response]]) -> list[httpx.Response]:
        """Send ``requests`` at once, and hold them at their game's lock, as a write that holds the game
        alone would, until every process has as many waiting as it runs at a time: then they all go."""
        game = game_queue(self.game_id)
        holder = await asyncio.to_thread(psycopg.connect, self.url, autocommit=True)
        try:
            holder.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", (game,))
            sent = asyncio.gather(*requests)
            waiting = min(len(requests), PROCESSES * DB_POOL)
            await until(lambda: _locks(self.url, game, waiting=True) >= waiting, "the requests to wait")
        finally:
            holder.close()
        return list(await sent)

    async def storm(
        self,
        path: str,
        body: Any = None,
        *,
        idem: str,
        key: str = "server",
        who: str | None = None,
        in_body: bool = True,
    ) -> list[httpx.Response]:
        """The same request ``AT_ONCE`` times at once, round the processes (``in_body``: its key in the
        body too, on the routes whose body has the field)."""
        secret = self.keys[key]
        return await self.at_once(
            [
                self.post(i, path, body, key=secret, idem=idem, who=who, in_body=in_body)
                for i in range(AT_ONCE)
            ]
        )

    async def register(self, name: str) -> None:
        r = await self.post(0, f"/sdk/v1/players/{name}/register", key=self.keys["client"], idem=f"r-{name}")
        assert r.status_code == 201, r.text
        self.secrets[name] = r.json()["data"]["playerSecret"]

    async def balance(self, who: str) -> int:
        r = await self.http.get(
            f"{self.bases[0]}/sdk/v1/players/{who}/wallet",
            headers={"Authorization": f"Bearer {self.keys['client']}", "X-Player-Secret": self.secrets[who]},
        )
        assert r.status_code == 200, r.text
        return int(next((c["balance"] for c in r.json()["data"]["currencies"] if c["key"] == "gold"), 0))


@pytest.fixture(scope="module")
def storm_url() -> Iterator[str]:
    from tests.postgres_support import drop_schema, new_schema

    url, schema = new_schema()
    try:
        yield url
    finally:
        drop_schema(schema)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def storm(storm_url: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Storm]:
    """Three processes for the module's tests, each test on players and keys of its own: starting three
    servers costs more than the storms."""
    pg_url, tmp_path = storm_url, tmp_path_factory.mktemp("storm")
    env = _env()  # one server key for every process
    manifest = tmp_path / "storm.toml"
    manifest.write_text(MANIFEST.replace("{url}", "http://127.0.0.1:9/unused") + CRATE)
    keys = await asyncio.to_thread(_apply, pg_url, env, manifest)
    procs = []
    logs = [tmp_path / f"server{i}.log" for i in range(PROCESSES)]
    bases = []
    try:
        for log in logs:
            base, proc = _serve(pg_url, env, log)
            bases.append(base)
            procs.append(proc)
        await asyncio.gather(
            *(_ready(b, p, log, within=90) for b, p, log in zip(bases, procs, logs, strict=True))
        )
        async with httpx.AsyncClient(timeout=60) as http:
            yield Storm(pg_url, bases, keys, env, http)
    finally:
        await asyncio.to_thread(_stop, procs)


def once(answers: list[httpx.Response]) -> Any:
    """One answer applied the write and every other is its replay: the data they share."""
    assert all(r.status_code < 300 for r in answers), [r.text for r in answers if r.status_code >= 300]
    fresh = [r for r in answers if r.headers.get("Idempotent-Replay") != "true"]
    assert len(fresh) == 1, [r.status_code for r in answers]
    assert {r.status_code for r in answers if r not in fresh} == {200}
    assert len({json.dumps(r.json()["data"], sort_keys=True) for r in answers}) == 1
    return fresh[0].json()["data"]


async def test_one_key_sent_at_once_to_three_processes_applies_once_on_every_concurrent_route(
    storm: Storm,
) -> None:
    s = storm
    for t in range(TRIALS):
        # Registrations: four players at once under one key, each replayed its own secret.
        names = [f"r{t}-{i}" for i in range(4)]
        answers = await s.at_once(
            [
                s.post(i, f"/sdk/v1/players/{names[i % 4]}/register", key=s.keys["client"], idem=f"reg-{t}")
                for i in range(AT_ONCE)
            ]
        )
        for name in names:
            mine = [r for r in answers if f"/players/{name}/" in str(r.url)]
            assert once(mine)["externalPlayerId"] == name
        assert s.rows("SELECT count(*) FROM players WHERE external_id = ANY(%s)", (names,)) == [(len(names),)]

        # Server grants, to a player who exists: a first contact's insert would make the racers wait for
        # the first's commit on the players' unique key, and hide a missing idempotency lock.
        await s.register(f"g{t}")
        grant = {"entries": [{"type": "currency", "key": "gold", "amount": 7}]}
        data = once(await s.storm(f"/server/v1/players/g{t}/grants", grant, idem=f"grant-{t}"))
        granted = s.rows(
            "SELECT g.id FROM grants g JOIN players p ON p.id = g.player_id WHERE p.external_id = %s",
            (f"g{t}",),
        )
        assert granted == [(data["grant"]["grantId"],)]

        # A gift send, then its claim.
        sender, friend = f"s{t}", f"f{t}"
        for name in (sender, friend):
            await s.register(name)
        asked = once(
            await s.storm(
                f"/sdk/v1/players/{sender}/friends/requests",
                {"externalPlayerId": friend},
                idem=f"ask-{t}",
                key="client",
                who=sender,
            )
        )
        request_id = asked["request"]["requestId"]
        assert s.rows("SELECT id FROM friend_requests WHERE id = %s", (request_id,)) == [(request_id,)]
        r = await s.post(
            1,
            f"/sdk/v1/players/{friend}/friends/requests/{request_id}/accept",
            key=s.keys["client"],
            idem=f"yes-{t}",
            who=friend,
        )
        assert r.status_code == 200, r.text
        gift = {"type": "currency", "resourceKey": "gold", "amount": 9, "externalPlayerId": friend}
        sent = once(
            await s.storm(
                f"/sdk/v1/players/{sender}/friends/gifts", gift, idem=f"send-{t}", key="client", who=sender
            )
        )
        assert s.rows(
            "SELECT count(*) FROM gifts g JOIN players p ON p.id = g.sender_id WHERE p.external_id = %s",
            (sender,),
        ) == [(1,)]
        gift_id = sent["gift"]["giftId"]
        once(
            await s.storm(
                f"/sdk/v1/players/{friend}/friends/gifts/{gift_id}/claim",
                idem=f"claim-{t}",
                key="client",
                who=friend,
            )
        )
        assert await s.balance(friend) == 9

        # A crate open.
        opener = f"o{t}"
        await s.register(opener)
        crate = {"kind": "crate", "entries": [{"type": "crate", "key": "chest", "amount": 1}]}
        r = await s.post(0, f"/server/v1/players/{opener}/grants", crate, key=s.keys["server"], idem=f"c-{t}")
        assert r.status_code == 201, r.text
        crate_id = r.json()["data"]["grant"]["grantId"]
        once(
            await s.storm(
                f"/sdk/v1/players/{opener}/crates/{crate_id}/open", idem=f"open-{t}", key="client", who=opener
            )
        )
        assert await s.balance(opener) == 50

        # The server's wallet credit, then the player's own debit.
        payer = f"w{t}"
        await s.register(payer)
        once(await s.storm(f"/server/v1/players/{payer}/wallet/gold/credit", {"amount": 12}, idem=f"cr-{t}"))
        once(
            await s.storm(
                f"/sdk/v1/players/{payer}/wallet/gold/debit",
                {"amount": 5},
                idem=f"db-{t}",
                key="client",
                who=payer,
            )
        )
        assert await s.balance(payer) == 7
        assert s.rows(
            "SELECT count(*) FROM ledger l JOIN players p ON p.id = l.player_id WHERE p.external_id = %s",
            (payer,),
        ) == [(2,)]

        # An event's start, then its progress past a milestone.
        runner = f"e{t}"
        await s.register(runner)
        attempt = once(
            await s.storm(
                f"/sdk/v1/players/{runner}/events/marathon/start",
                idem=f"go-{t}",
                key="client",
                who=runner,
                in_body=False,
            )
        )["attempt"]
        assert s.rows(
            "SELECT a.id FROM attempts a JOIN players p ON p.id = a.player_id WHERE p.external_id = %s",
            (runner,),
        ) == [(attempt["attemptId"],)]
        progressed = once(
            await s.storm(
                f"/sdk/v1/players/{runner}/events/marathon/attempts/{attempt['attemptId']}/progress",
                {"metrics": {"score": 70}},
                idem=f"run-{t}",
                key="client",
                who=runner,
                in_body=False,
            )
        )
        assert len(progressed["milestonesGranted"]) == 1
        assert s.rows(
            "SELECT count(*) FROM grants g JOIN players p ON p.id = g.player_id"
            " WHERE p.external_id = %s AND g.source_kind = 'event_milestone'",
            (runner,),
        ) == [(1,)]

        # A donation to a guild member's help request.
        asker, donor = f"h{t}", f"d{t}"
        for name in (asker, donor):
            await s.register(name)
        guild = {"name": f"Guild {t}", "joinType": "open"}
        founded = await s.made(
            0, f"/sdk/v1/players/{asker}/guilds", guild, who=asker, idem=f"f-{t}", status=201
        )
        guild_id = founded["guild"]["guildId"]
        await s.made(
            1, f"/sdk/v1/players/{donor}/guilds/{guild_id}/join", who=donor, idem=f"j-{t}", status=200
        )
        ask = {"type": "currency", "resourceKey": "gold", "amount": 10}
        asked_help = await s.made(
            0, f"/sdk/v1/players/{asker}/guild/help-requests", ask, who=asker, idem=f"h-{t}", status=201
        )
        help_id = asked_help["helpRequest"]["requestId"]
        once(await s.storm(f"/server/v1/players/{donor}/wallet/gold/credit", {"amount": 8}, idem=f"dc-{t}"))
        once(
            await s.storm(
                f"/sdk/v1/players/{donor}/guild/help-requests/{help_id}/donate",
                {"amount": 3},
                idem=f"give-{t}",
                key="client",
                who=donor,
                in_body=False,
            )
        )
        assert await s.balance(donor) == 5
        assert s.rows("SELECT donated FROM guild_help_requests WHERE id = %s", (help_id,)) == [(3,)]

        # A score submitted to a shared board whose scores add up.
        scorer = f"b{t}"
        await s.register(scorer)
        score = {"externalPlayerId": scorer, "score": 4}
        submitted = once(await s.storm("/server/v1/leaderboards/season/scores", score, idem=f"score-{t}"))
        assert submitted["entry"]["score"] == 4
        assert s.rows(
            "SELECT e.score FROM shared_entries e JOIN players p ON p.id = e.player_id"
            " WHERE p.external_id = %s",
            (scorer,),
        ) == [(4,)]


async def test_a_key_and_its_rotated_successor_sent_at_once_grant_once(storm: Storm) -> None:
    s = storm
    old = s.keys["server"]
    s.keys["successor"] = await asyncio.to_thread(_rotate, s, "server")
    grant = {"entries": [{"type": "currency", "key": "gold", "amount": 3}]}
    for t in range(TRIALS):
        await s.register(f"m{t}")
        path = f"/server/v1/players/m{t}/grants"
        answers = await s.at_once(
            [
                s.post(i, path, grant, key=old if i % 2 else s.keys["successor"], idem=f"mixed-{t}")
                for i in range(AT_ONCE)
            ]
        )
        # The first to commit decides whose answer it is; the other credential's requests are 409s.
        conflicts = [r for r in answers if r.status_code == 409]
        assert {r.json()["error"]["code"] for r in conflicts} == {"idempotency_conflict"}
        assert len(conflicts) == AT_ONCE // 2, [r.status_code for r in answers]
        data = once([r for r in answers if r.status_code != 409])
        assert s.rows(
            "SELECT g.id FROM grants g JOIN players p ON p.id = g.player_id WHERE p.external_id = %s",
            (f"m{t}",),
        ) == [(data["grant"]["grantId"],)]


def _rotate(s: Storm, name: str) -> str:
    """Rotate the API key ``name`` as the admin route does, on the processes' server key; the successor's
    secret. The old key keeps working through its grace period."""
    from livecore_server.operators.apply import rotate_key
    from tests.conftest import make_services

    with mock.patch.dict(os.environ, {ENV_VAR: s.env[ENV_VAR]}):
        services = make_services(s.url, manual=False)
    try:
        return str(rotate_key(services.store, services.runtime, s.game_id, name)["secret"])
    finally:
        services.close()


def _locks(url: str, name: str, *, waiting: bool) -> int:
    """Sessions holding (or, ``waiting``, waiting for) the advisory lock on ``name``'s hash."""
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted = %s"
            " AND ((classid::bigint << 32) | objid::bigint) = hashtextextended(%s, 0)",
            (not waiting, name),
        ).fetchone()
    return int(row[0]) if row else 0


async def test_the_clients_own_retries_beside_a_slow_first_attempt_grant_once(storm: Storm) -> None:
    for t in range(TRIALS):
        await _retried_beside_a_slow_first_attempt(storm, f"late{t}", f"reward-{t}")


async def _retried_beside_a_slow_first_attempt(s: Storm, player: str, key: str) -> None:
    await s.register(player)
    game = game_queue(s.game_id)
    entries = [RewardEntry(type="currency", key="gold", amount=42)]
    # A write that holds the game alone (any queued write does) keeps the grant waiting past the client's
    # one-second timeout, so the client sends it again, twice, beside the first attempt.
    holder = await asyncio.to_thread(psycopg.connect, s.url, autocommit=True)
    holder.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", (game,))
    answered: list[str] = []  # the grant the client's last attempt answered, if it was not too late

    def create() -> None:
        client = ServerClient(s.keys["server"], base_url=s.bases[0], timeout=1, max_retries=2)
        try:
            answered.append(client.grants.create(player, entries, idempotency_key=key).grant.grant_id)
        except LivecoreClientError:
            pass  # every attempt timed out: the studio retries later, below
        finally:
            client.close()

    thread = threading.Thread(target=create)
    thread.start()
    try:
        await until(lambda: _locks(s.url, game, waiting=True) >= 3, "the client's three attempts to wait")
    finally:
        holder.close()
    await asyncio.to_thread(thread.join)
    key_lock = idempotency_lock(f"{s.game_id}:test:POST /server/v1/players/{player}/grants", key)
    await until(
        lambda: sum(_locks(s.url, name, waiting=w) for name in (game, key_lock) for w in (True, False)) == 0,
        "the three attempts to end",
    )
    # The studio's later retry, with the key it chose, answers the one grant made.
    client = ServerClient(s.keys["server"], base_url=s.bases[1])
    try:
        again = await asyncio.to_thread(client.grants.create, player, entries, idempotency_key=key)
    finally:
        client.close()
    assert s.rows(
        "SELECT g.id FROM grants g JOIN players p ON p.id = g.player_id WHERE p.external_id = %s", (player,)
    ) == [(again.grant.grant_id,)]
    assert answered in ([], [again.grant.grant_id])
