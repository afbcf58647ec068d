"""A day of the demo's scheduled work: a 24 h advance of the manual clock, on SQLite and on PostgreSQL.

    python -m benchmarks.advance [--players 200] [--db sqlite|postgres|both] [--json PATH]

The demo manifest (``livecore_server/demo.toml``) is applied, then one ``livecore-server serve --clock
manual`` starts on it. ``--players`` players register and play through the routes, so that each job has
work: pairs of friends team up in the relay, everyone runs the time trial (a quarter leave a second
attempt open, to expire), starts a duel (lobbies of eight that fill with bots), sends a gift, gets a grant
that expires within the day, and joins a guild (one founder in ten) and asks it for help. Then ``POST
/server/v1/dev/clock/advance`` moves the clock 24 hours: 1,440 runs of the minute sweep, the hourly
sweeps, 24 duel windows closing with their lobbies, the time trial's and the relay's windows closing and
opening again, the attempts expiring.

Reported per store: the advance's wall time, the server's CPU time during it (and its PostgreSQL
backends', when PostgreSQL runs on this machine), and what a tick costs: each job's runs, transactions
and seconds as the server's ``GET /metrics`` counts them (docs/deployment.md#monitoring). With ``--db
both``, the ratio of PostgreSQL's time to SQLite's (the target: at most 2). Figures are reported, never
asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from benchmarks import postgres
from benchmarks.report import write_json
from benchmarks.server import (
    ServerProcess,
    apply_manifest,
    fresh_secret_key,
    manifest_vars,
    process_cpu_seconds,
    server_env,
)
from livecore.clock import format_ts

DEMO = Path(__file__).parent.parent / "livecore_server" / "demo.toml"
GAME = "space-race"
DAY = 86_400
TARGET_RATIO = 2.0
CONCURRENCY = 8
GUILD_EVERY = 10


class Players:
    """The demo game's routes, as a game client and its backend call them."""

    def __init__(self, http: httpx.AsyncClient, keys: dict[str, str]) -> None:
        self.http = http
        self.client_key = keys["demo-client_key"]
        self.server_key = keys["demo-server_key"]
        self.secrets: dict[str, str] = {}
        self.statuses: Counter[str] = Counter()
        self.limit = asyncio.Semaphore(CONCURRENCY)

    async def call(self, method: str, path: str, player: str | None = None, body: Any = None) -> Any:
        headers = {
            "Authorization": f"Bearer {self.server_key if path.startswith('/server/') else self.client_key}"
        }
        if player is not None and player in self.secrets:
            headers["X-Player-Secret"] = self.secrets[player]
        if method == "POST" and path.startswith("/server/"):
            headers["Idempotency-Key"] = body.get("idempotencyKey") or f"bench-{random.getrandbits(64):x}"
        async with self.limit:
            answer = await self.http.request(method, path, headers=headers, json=body)
        self.statuses[f"{method} {_template(path)} {answer.status_code}"] += 1
        return answer.json().get("data") if answer.content else None

    async def register(self, name: str) -> None:
        data = await self.call("POST", f"/sdk/v1/players/{name}/register")
        self.secrets[name] = data["playerSecret"]

    async def in_a_window(self) -> datetime:
        """The service's time once the time trial is open: it is shut from 23:00 to midnight UTC (open 23
        hours a day, demo.toml), so a run started then first moves the manual clock to the next day's
        window, where every player's start is accepted."""
        now = datetime.now(UTC)
        if now.hour < 23:
            return now
        opens = (now + timedelta(days=1)).replace(hour=0, minute=5, second=0, microsecond=0)
        answer = await self.http.post(
            "/server/v1/dev/clock/advance",
            json={"seconds": (opens - now).total_seconds()},
            headers={"Authorization": f"Bearer {self.server_key}", "Idempotency-Key": "bench-window"},
        )
        answer.raise_for_status()
        return opens

    def sdk(self, name: str, tail: str) -> str:
        return f"/sdk/v1/players/{name}/{tail}"


def _template(path: str) -> str:
    """``path`` with its players and ids left out, to count answers by route."""
    return "/".join(
        "{}" if part.startswith("pilot-") or (part != "v1" and any(c.isdigit() for c in part)) else part
        for part in path.split("/")
    )


async def play(base_url: str, keys: dict[str, str], count: int, rng: random.Random) -> dict[str, Any]:
    """``count`` players who each leave the day's jobs something to do; the routes' answers by status."""
    names = [f"pilot-{i:05d}" for i in range(count)]
    pairs = [(names[i], names[i + 1]) for i in range(0, count - 1, 2)]
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:
        p = Players(http, keys)
        now = await p.in_a_window()
        await asyncio.gather(*(p.register(n) for n in names))
        # Friends by asking each other (the second request accepts the first).
        for first, second in ((0, 1), (1, 0)):
            await asyncio.gather(
                *(
                    p.call(
                        "POST",
                        p.sdk(pair[first], "friends/requests"),
                        pair[first],
                        {"externalPlayerId": pair[second]},
                    )
                    for pair in pairs
                )
            )
        invites = await asyncio.gather(
            *(
                p.call("POST", p.sdk(a, "events/relay/partner-invites"), a, {"externalPlayerId": b})
                for a, b in pairs
            )
        )
        await asyncio.gather(
            *(
                p.call(
                    "POST", p.sdk(b, f"events/relay/partner-invites/{invite['invite']['inviteId']}/accept"), b
                )
                for (_, b), invite in zip(pairs, invites, strict=True)
                if invite and "invite" in invite
            )
        )
        expires = format_ts(now + timedelta(hours=2))

        async def one(i: int, name: str) -> None:
            for event, metrics in (
                ("time-trial", {"lap_ms": rng.randint(45_000, 110_000), "top_speed": rng.randint(250, 390)}),
                ("relay", {"distance": rng.randint(1_000, 6_000)}),
            ):
                started = await p.call("POST", p.sdk(name, f"events/{event}/start"), name)
                if started and "attempt" in started:
                    attempt = started["attempt"]["attemptId"]
                    await p.call(
                        "POST",
                        p.sdk(name, f"events/{event}/attempts/{attempt}/progress"),
                        name,
                        {"metrics": metrics, "complete": True},
                    )
            if i % 4 == 0:
                await p.call("POST", p.sdk(name, "events/time-trial/start"), name)  # left open: expires
            await p.call("POST", p.sdk(name, "events/duel/start"), name)
            friend = names[i ^ 1] if (i ^ 1) < count else None
            if friend is not None:
                await p.call(
                    "POST",
                    p.sdk(name, "friends/gifts"),
                    name,
                    {"type": "currency", "resourceKey": "coins", "amount": 5, "externalPlayerId": friend},
                )
            await p.call(
                "POST",
                f"/server/v1/players/{name}/grants",
                None,
                {
                    "idempotencyKey": f"grant-{name}",
                    "entries": [{"type": "currency", "key": "coins", "amount": 5}],
                    "expiresAt": expires,
                },
            )

        await asyncio.gather(*(one(i, n) for i, n in enumerate(names)))
        founded = await asyncio.gather(
            *(
                p.call("POST", p.sdk(n, "guilds"), n, {"name": f"Squadron {i:05d}", "joinType": "open"})
                for i, n in enumerate(names)
                if i % GUILD_EVERY == 0
            )
        )
        guilds = [g["guild"]["guildId"] for g in founded if g]

        async def member(i: int, name: str) -> None:
            if i % GUILD_EVERY and guilds:
                await p.call(
                    "POST", p.sdk(name, f"guilds/{guilds[(i // GUILD_EVERY) % len(guilds)]}/join"), name
                )
            await p.call(
                "POST",
                p.sdk(name, "guild/help-requests"),
                name,
                {"type": "item", "resourceKey": "energy-potion", "amount": 1},
            )

        await asyncio.gather(*(member(i, n) for i, n in enumerate(names)))
        return dict(sorted(p.statuses.items()))


def job_counters(text: str) -> dict[str, dict[str, float]]:
    """The scheduler's counters of ``GET /metrics``, by job."""
    out: dict[str, dict[str, float]] = {}
    for line in text.splitlines():
        if not line.startswith("livecore_scheduled_"):
            continue
        name, value = line.rsplit(" ", 1)
        metric, _, label = name.partition("{")
        job = label.split('"')[1]
        out.setdefault(job, {})[metric.removeprefix("livecore_scheduled_").removesuffix("_total")] = float(
            value
        )
    return out


def tick_costs(before: dict[str, dict[str, float]], after: dict[str, dict[str, float]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for job, figures in sorted(after.items()):
        spent = {k: v - before.get(job, {}).get(k, 0.0) for k, v in figures.items()}
        runs = spent.get("runs", 0.0)
        out[job] = {
            "runs": int(runs),
            "transactions": int(spent.get("transactions", 0.0)),
            "seconds": round(spent.get("seconds", 0.0), 3),
            "msPerRun": round(1000 * spent.get("seconds", 0.0) / runs, 3) if runs else None,
        }
    return out


async def advance(
    base_url: str, keys: dict[str, str], pid: int, backends: postgres.BackendCpu | None
) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {keys['demo-server_key']}", "Idempotency-Key": "bench-advance"}
    async with httpx.AsyncClient(base_url=base_url, timeout=httpx.Timeout(10, read=3600)) as http:
        metrics_before = job_counters((await http.get("/metrics")).text)
        cpu_before = process_cpu_seconds(pid)
        pg_before = backends.snapshot() if backends else None
        started = time.monotonic()
        answer = await http.post("/server/v1/dev/clock/advance", json={"seconds": DAY}, headers=headers)
        seconds = time.monotonic() - started
        cpu_after = process_cpu_seconds(pid)
        pg_after = backends.snapshot() if backends else None
        metrics_after = job_counters((await http.get("/metrics")).text)
    answer.raise_for_status()
    return {
        "advanceSeconds": round(seconds, 3),
        "serverCpuSeconds": None
        if cpu_before is None or cpu_after is None
        else round(cpu_after - cpu_before, 3),
        "postgresCpuSeconds": _rounded(postgres.BackendCpu.spent(pg_before, pg_after)),
        "jobs": tick_costs(metrics_before, metrics_after),
    }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def unlimited(manifest: str) -> str:
    """The demo manifest with its keys' rate limits out of the way: the players here play at once."""
    for permission, buckets in (
        ("client_sdk", "sdk_read = 1000000, sdk_write = 1000000"),
        ("server_integration", "server_api = 1000000"),
    ):
        line = f'permission = "{permission}"'
        if manifest.count(line) != 1:
            raise ValueError(f"the demo manifest has no single {line!r}")
        manifest = manifest.replace(line, f"{line}\nrate_limits = {{ {buckets} }}")
    return manifest


def run(players: int, db_kind: str, seed: int = 0) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="lc-advance-") as tmp, contextlib.ExitStack() as stack:
        env = server_env({"LIVECORE_SECRET_KEY": fresh_secret_key()})
        if db_kind == "postgres":
            db: str = stack.enter_context(postgres.BenchDatabase(postgres.default_server())).url
        else:
            db = str(Path(tmp) / "bench.db")
        manifest = Path(tmp) / "demo.toml"
        manifest.write_text(unlimited(DEMO.read_text()))
        keys = manifest_vars(apply_manifest(manifest, db, env), game=GAME)
        with ServerProcess(db, Path(tmp) / "server.log", env, extra_args=["--clock", "manual"]) as server:
            started = time.monotonic()
            statuses = asyncio.run(play(server.base_url, keys, players, random.Random(seed)))
            played = time.monotonic() - started
            backends = stack.enter_context(postgres.BackendCpu(db)) if db_kind == "postgres" else None
            result = asyncio.run(advance(server.base_url, keys, server.pids[0], backends))
        return {
            "db": db_kind,
            "players": players,
            "playSeconds": round(played, 3),
            "statuses": statuses,
            **result,
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.advance", description=__doc__)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--db", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    kinds = ("sqlite", "postgres") if args.db == "both" else (args.db,)
    runs = {kind: run(args.players, kind) for kind in kinds}
    result: dict[str, Any] = {"players": args.players, "runs": runs}
    if len(runs) == 2:
        result["ratio"] = round(runs["postgres"]["advanceSeconds"] / runs["sqlite"]["advanceSeconds"], 2)
        result["targetRatio"] = TARGET_RATIO
    print(json.dumps(result, indent=2))
    if args.json is not None:
        write_json(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
