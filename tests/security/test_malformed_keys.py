"""Malformed credentials are refused by their shape (prefix, length, alphabet) before they are hashed or
anything is asked of the database: API keys (401 ``invalid_api_key``) and player secrets (401
``player_secret_invalid``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from livecore.hashing import KeyedHasher
from livecore.ids import new_secret
from livecore.rand import SeededRandomSource
from livecore_server.keys import api_key_shaped
from livecore_server.players.secrets import player_secret_shaped
from livecore_server.players.sql import PostgresPlayers, SqlPlayers
from livecore_server.storage.sql.keys import SqlKeys
from tests.conftest import World

BODY = "A" * 43
MALFORMED_KEYS = [
    "lc_test_short",  # length
    f"lc_test_{BODY}A",  # length
    f"lc_test_{BODY[:-1]}!",  # alphabet
    f"lc_test_{BODY[:-1]}\u00e9",  # alphabet, beyond ASCII
    f"lc_prod_{BODY}",  # environment
    f"sk_test_{BODY}",  # prefix
    f"ps_{BODY}",  # a player secret is no API key
    "x" * 8000,
]
MALFORMED_SECRETS = ["ps_x", f"ps_{BODY}A", f"ps_{BODY[:-1]}=", f"pk_{BODY}", f"lc_test_{BODY}", ""]


class Asked:
    """Counts the hashes and the database look-ups of keys and players made while requests are answered
    (on worker threads too: list appends are atomic)."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def spy(*args: Any, **kwargs: Any) -> Any:
            self.calls.append(name)
            return fn(*args, **kwargs)

        return spy


@pytest.fixture
def world_config() -> dict[str, Any]:
    """A verified key stays cached for the whole test, however slow the machine: what the spies count is
    what the malformed values cost, not a key read again when its second in the cache is up."""
    return {"key_cache_ttl": 3600.0}


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> Asked:
    spy = Asked()
    monkeypatch.setattr(KeyedHasher, "hash", spy.wrap("hash", KeyedHasher.hash))
    monkeypatch.setattr(SqlKeys, "by_hash", spy.wrap("key look-up", SqlKeys.by_hash))
    for cls in (SqlPlayers, PostgresPlayers):
        monkeypatch.setattr(cls, "get", spy.wrap("player read", cls.get))
    return spy


def test_the_shapes_are_those_the_service_mints() -> None:
    rng = SeededRandomSource(1)
    for _ in range(200):
        assert api_key_shaped(new_secret(rng, prefix="lc_test_"))
        assert api_key_shaped(new_secret(rng, prefix="lc_live_"))
        assert player_secret_shaped(new_secret(rng, prefix="ps_"))
    assert not player_secret_shaped(None)


async def test_malformed_api_keys_are_refused_before_a_hash_or_a_lookup(world: World, asked: Asked) -> None:
    world.services.key_cache.clear()
    for key in MALFORMED_KEYS:
        assert not api_key_shaped(key)
        status, body, _ = await world.call("GET", "/server/v1/ping", key=key)
        assert (status, body["error"]["code"]) == (401, "invalid_api_key"), key
    assert asked.calls == []
    # The spies see a well-formed key that is nobody's: it is hashed and looked up.
    status, _, _ = await world.call("GET", "/server/v1/ping", key=f"lc_test_{BODY}")
    assert status == 401
    assert asked.calls == ["hash", "key look-up"]


async def test_malformed_player_secrets_are_refused_before_the_player_is_read(
    world: World, asked: Asked
) -> None:
    await world.register("alice")
    asked.calls.clear()  # the key is cached from here on
    for secret in MALFORMED_SECRETS:
        for method, path in (
            ("GET", "/sdk/v1/players/alice/wallet"),
            ("POST", "/sdk/v1/players/alice/presence"),
        ):
            status, body, _ = await world.call(method, path, key="test-client", secret=secret, json={})
            assert (status, body["error"]["code"]) == (401, "player_secret_invalid"), (secret, path)
    assert asked.calls == []
    # The spies see a well-formed secret that is not alice's: the player is read and the secret hashed.
    status, _, _ = await world.call(
        "GET", "/sdk/v1/players/alice/wallet", key="test-client", secret=f"ps_{BODY}"
    )
    assert status == 401
    assert set(asked.calls) == {"player read", "hash"}
