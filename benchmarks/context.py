"""What a scenario's ``setup(ctx)`` gets, and how scenario text is filled in from it."""

from __future__ import annotations

import asyncio
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import httpx
import orjson


class SetupError(RuntimeError):
    """A setup request did not succeed."""


@dataclass(frozen=True)
class SetupCall:
    """One request of :meth:`BenchContext.call_many` (the arguments of :meth:`BenchContext.call`)."""

    method: str
    path: str
    key: str | None = None
    json: Any = None
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass
class BenchContext:
    """One scenario's view of the running server.

    ``vars`` starts with the manifest's figures (``server_key``, ``client_key``, ``game_id``, ...);
    a setup may add its own (e.g. a player secret). Scenario paths, header values and bodies refer
    to them as ``${name}``; scenario Lua reads them as ``vars.name``. Each scenario gets its own copy,
    so setups of different scenarios cannot clash.
    """

    base_url: str
    client: httpx.Client
    vars: dict[str, str] = field(default_factory=dict)
    # Requests in flight in call_many (the harness sets it per store: see harness.setup_concurrency).
    concurrency: int = 8
    # The games the run spreads each scenario over (--games): this setup makes this game's share.
    games: int = 1

    def share(self, total: int, least: int = 1) -> int:
        """This game's part of ``total`` players (or pool items) spread over :attr:`games`: ``total`` in
        one game, else ``total / games`` rounded up (so the games hold at least ``total`` together), and
        never under ``least``."""
        return max(-(-total // self.games), least)

    def render(self, text: str) -> str:
        """Fill ``${name}`` from :attr:`vars`; an unknown name is an error, not an empty string."""
        try:
            return string.Template(text).substitute(self.vars)
        except KeyError as exc:
            raise KeyError(
                f"unknown variable ${{{exc.args[0]}}} in {text!r}; known: {sorted(self.vars)}"
            ) from None

    def call(
        self,
        method: str,
        path: str,
        *,
        key: str | None = None,
        json: Any = None,
        headers: dict[str, str] | None = None,
    ) -> Any:
        """Send one setup request and return its JSON body (``None`` when empty); non-2xx raises.

        ``key`` names a variable holding an API key (``"server_key"``), sent as a Bearer token.
        """
        sent = dict(headers or {})
        if key is not None:
            sent["Authorization"] = f"Bearer {self.vars[key]}"
        response = self.client.request(method, path, json=json, headers=sent)
        if not response.is_success:
            raise SetupError(f"{method} {path} -> {response.status_code}: {response.text[:500]}")
        return response.json() if response.content else None

    def call_many(self, calls: Iterable[SetupCall], *, concurrency: int | None = None) -> list[Any]:
        """Send many setup requests, ``concurrency`` (default :attr:`concurrency`) at a time, started in
        order; returns their JSON bodies in order. The first non-2xx answer raises (and the rest are not
        sent).

        For setups of thousands of requests: it uses aiohttp, whose client costs about a seventh of
        httpx's CPU per request (~140 vs ~900 µs measured here), CPU the server needs on 2 cores.
        """
        return asyncio.run(self._call_many(list(calls), concurrency or self.concurrency))

    async def _call_many(self, calls: list[SetupCall], concurrency: int) -> list[Any]:
        answers: list[Any] = [None] * len(calls)
        pending = iter(enumerate(calls))

        async def worker(session: aiohttp.ClientSession) -> None:
            for i, c in pending:  # one shared iterator: every worker takes the next call
                sent = dict(c.headers)
                if c.key is not None:
                    sent["Authorization"] = f"Bearer {self.vars[c.key]}"
                async with session.request(c.method, c.path, json=c.json, headers=sent) as response:
                    text = await response.text()
                    if not 200 <= response.status < 300:
                        raise SetupError(f"{c.method} {c.path} -> {response.status}: {text[:500]}")
                    answers[i] = orjson.loads(text) if text else None

        try:
            async with aiohttp.ClientSession(self.base_url) as session, asyncio.TaskGroup() as group:
                for _ in range(concurrency):
                    group.create_task(worker(session))
        except ExceptionGroup as errors:
            raise errors.exceptions[0] from None  # the first failure, not "1 sub-exception"
        return answers
