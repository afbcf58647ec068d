"""What a scenario's ``setup(ctx)`` gets, and how scenario text is filled in from it."""

from __future__ import annotations

import string
from dataclasses import dataclass, field
from typing import Any

import httpx


class SetupError(RuntimeError):
    """A setup request did not succeed."""


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
