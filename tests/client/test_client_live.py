"""The clients against the real server (the ``live_server`` fixture): proves the client and the server
agree on the wire, which the mocked tests cannot."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from livecore_client import (
    AsyncSdkClient,
    AsyncServerClient,
    AuthenticationError,
    IdempotencyConflictError,
    InvalidRequestError,
    PermissionDeniedError,
    PlayerAlreadyRegisteredError,
    PlayerSecretInvalidError,
    RateLimitError,
    SdkClient,
    ServerClient,
)
from tests.waiting import until_sync

_ids = itertools.count()


@pytest.fixture
def external_id() -> str:
    """A fresh player per test: the live server is shared by the whole module."""
    return f"player-{next(_ids)}"


@pytest.fixture
def sdk(live_server: Any) -> Iterator[SdkClient]:
    with SdkClient(live_server.keys["test-client"], base_url=live_server.base_url) as client:
        yield client


@pytest.fixture
def server(live_server: Any) -> Iterator[ServerClient]:
    with ServerClient(live_server.keys["test-server"], base_url=live_server.base_url) as client:
        yield client


def test_register_then_set_identity(sdk: SdkClient, external_id: str) -> None:
    registered = sdk.players.register(external_id, player_context={"country": "FR"})
    assert registered.external_player_id == external_id
    assert registered.country == "FR"

    sdk.player_secret = registered.player_secret
    result = sdk.players.set_identity(external_id, name="Otter", avatar="otter.png")
    assert (result.display_identity.name, result.display_identity.avatar) == ("Otter", "otter.png")


def test_register_errors_and_force(sdk: SdkClient, external_id: str) -> None:
    first = sdk.players.register(external_id)
    with pytest.raises(PlayerAlreadyRegisteredError) as info:
        sdk.players.register(external_id)
    assert (info.value.status, info.value.code) == (409, "player_already_registered")

    rotated = sdk.players.register(external_id, force=True)  # test key: rotates in place
    assert rotated.player_secret != first.player_secret
    with pytest.raises(PlayerSecretInvalidError):
        sdk.players.set_identity(external_id, name="Otter", player_secret=first.player_secret)


def test_live_key_refuses_force(live_server: Any, external_id: str) -> None:
    with (
        SdkClient(live_server.keys["live-client"], base_url=live_server.base_url) as live,
        pytest.raises(PermissionDeniedError) as info,
    ):
        live.players.register(external_id, force=True)
    assert info.value.code == "permission_denied"


def test_idempotent_replay_and_conflict(sdk: SdkClient, external_id: str) -> None:
    secret = sdk.players.register(external_id).player_secret
    first = sdk.players.set_identity(external_id, name="Otter", player_secret=secret, idempotency_key="k-1")
    again = sdk.players.set_identity(external_id, name="Otter", player_secret=secret, idempotency_key="k-1")
    assert again == first
    with pytest.raises(IdempotencyConflictError):
        sdk.players.set_identity(external_id, name="Badger", player_secret=secret, idempotency_key="k-1")


def test_server_calls(server: ServerClient, sdk: SdkClient, external_id: str) -> None:
    ping = server.system.ping()
    assert ping.ok
    assert ping.environment == "test"
    assert server.system.health().status

    sdk.players.register(external_id)
    assert (
        server.players.set_identity(external_id, name="Named By Backend").display_identity.name
        == "Named By Backend"
    )

    before = server.system.advance_clock(1).now
    assert (server.system.advance_clock(60).now - before).total_seconds() == 60


def test_validation_error_names_the_field(server: ServerClient, sdk: SdkClient, external_id: str) -> None:
    sdk.players.register(external_id)
    with pytest.raises(InvalidRequestError) as info:
        server.players.set_identity(external_id, name="x" * 33)
    assert info.value.details is not None


def test_wrong_keys(live_server: Any) -> None:
    with (
        ServerClient("lc_not_a_key", base_url=live_server.base_url) as bad,
        pytest.raises(AuthenticationError),
    ):
        bad.system.ping()
    with (
        ServerClient(live_server.keys["test-client"], base_url=live_server.base_url) as client_key,
        pytest.raises(PermissionDeniedError),
    ):
        client_key.system.ping()


def test_rate_limit_surfaces_retry_after(live_server: Any) -> None:
    base_url = live_server.base_url
    with ServerClient(live_server.keys["tight-server"], base_url=base_url, max_retries=0) as tight:
        for _ in range(3):  # the manifest gives this key 3 server calls a minute
            tight.system.ping()
        with pytest.raises(RateLimitError) as info:
            tight.system.ping()
    assert info.value.retry_after is not None
    assert info.value.retry_after > 0


async def test_async_clients(live_server: Any, external_id: str) -> None:
    async with (
        AsyncSdkClient(live_server.keys["test-client"], base_url=live_server.base_url) as sdk,
        AsyncServerClient(live_server.keys["test-server"], base_url=live_server.base_url) as server,
    ):
        registered = await sdk.players.register(external_id)
        sdk.player_secret = registered.player_secret
        assert (
            await sdk.players.set_identity(external_id, name="Async Otter")
        ).display_identity.name == "Async Otter"
        assert (await server.system.ping()).ok
        with pytest.raises(PlayerAlreadyRegisteredError):
            await sdk.players.register(external_id)


def test_the_look_up_shows_the_platform_and_app_version_the_client_reports(
    live_server: Any, server: ServerClient, external_id: str
) -> None:
    key, url = live_server.keys["test-client"], live_server.base_url
    with SdkClient(key, base_url=url, platform="ios", app_version="1.4.2") as phone:
        secret = phone.players.register(external_id).player_secret
    # Registration keeps them with the new player.
    player = server.players.profile(external_id).player
    assert (player.platform, player.platform_registered, player.app_version) == ("ios", True, "1.4.2")
    # A later request reports another build: written with the presence board's next flush.
    with SdkClient(key, base_url=url, platform="Steam Deck", app_version="1.5.0") as deck:
        deck.friends.list(external_id, player_secret=secret)

    def shown() -> tuple[str | None, bool, str | None]:
        p = server.players.profile(external_id).player
        return p.platform, p.platform_registered, p.app_version

    until_sync(lambda: shown() == ("Steam Deck", False, "1.5.0"), lambda: f"the new build, not {shown()}")


async def test_the_async_client_reports_the_platform_and_app_version(
    live_server: Any, external_id: str
) -> None:
    key, url = live_server.keys["test-client"], live_server.base_url
    async with AsyncSdkClient(key, base_url=url, platform="web", app_version="9") as client:
        await client.players.register(external_id)
    async with AsyncServerClient(live_server.keys["test-server"], base_url=url) as server:
        player = (await server.players.export(external_id)).player
    assert (player.platform, player.platform_registered, player.app_version) == ("web", True, "9")
