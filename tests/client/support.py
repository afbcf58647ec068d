"""Helpers shared by the client tests that mock the HTTP layer with respx."""

from __future__ import annotations

import json
from typing import Any

import respx

BASE = "http://livecore.test"


def sent_json(route: respx.Route, index: int = -1) -> Any:
    return json.loads(route.calls[index].request.content)


def sent_key(route: respx.Route, index: int = -1) -> str:
    key: str = route.calls[index].request.headers["Idempotency-Key"]
    return key


class Sleeps(list[float]):
    """Records the delays the client would have slept, for both sync and async senders."""

    def sleep(self, seconds: float) -> None:
        self.append(seconds)

    async def async_sleep(self, seconds: float) -> None:
        self.append(seconds)


def pick(owner: Any, name: str) -> Any:
    """The method a dotted name (``"friends.list"``) names on a client, or on a client class."""
    resource, method = name.split(".")
    return getattr(getattr(owner, resource), method)


def builder(client: Any, name: str) -> Any:
    """The call builder behind a client's method (``"friends.list"``: ``client.friends._list``)."""
    resource, method = name.split(".")
    return getattr(getattr(client, resource), f"_{method}")
