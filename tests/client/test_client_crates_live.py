"""Crates against a real server on 127.0.0.1: the server client sends a crate grant, the SDK client opens it,
and the two agree with the server on the wire (paths, bodies, idempotency, error codes)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from livecore.grants.api import RewardEntry
from livecore.grants.rules import AckedBy, EntryType, GrantKind, GrantStatus
from livecore_client import (
    AsyncSdkClient,
    CrateMustBeOpenedError,
    GrantAlreadyClaimedError,
    NotACrateError,
    ResourceNotFoundError,
    SdkClient,
    ServerClient,
)
from livecore_server.embedded import serve_in_thread
from tests.conftest import apply_test_manifest, make_services, service_args
from tests.server.economy_support import BAZAAR, CRATES

CHEST = [RewardEntry(type="crate", key="chest", amount=2)]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    """A server with the platform-managed ``bazaar`` game and its crates (a manual clock, real SQLite)."""
    db = tmp_path_factory.mktemp("crates-live") / "live.db"
    services = make_services(db)
    applied = apply_test_manifest(services, BAZAAR + CRATES)
    services.close()
    keys = {name: k["secret"] for name, k in applied["games"]["bazaar"]["apiKeys"].items()}
    with serve_in_thread(*service_args(db)) as s:
        yield s.base_url, keys


_ids = itertools.count()


@pytest.fixture
def player() -> str:
    return f"crates-{next(_ids)}"


@pytest.fixture
def server(served: tuple[str, dict[str, str]]) -> Iterator[ServerClient]:
    base_url, keys = served
    with ServerClient(keys["server"], base_url=base_url) as client:
        yield client


@pytest.fixture
def sdk(served: tuple[str, dict[str, str]], player: str) -> Iterator[SdkClient]:
    base_url, keys = served
    with SdkClient(keys["client"], base_url=base_url) as client:
        client.player_secret = client.players.register(player).player_secret
        yield client


def test_a_crate_sent_by_the_server_is_opened_by_the_player(
    sdk: SdkClient, server: ServerClient, player: str
) -> None:
    crate = server.grants.create(player, CHEST, kind=GrantKind("crate"), idempotency_key=f"{player}-c").grant
    assert crate.kind is GrantKind("crate") and crate.entries == CHEST
    assert [g.grant_id for g in sdk.grants.pending(player).grants] == [crate.grant_id]

    opened = sdk.grants.open_crate(player, crate.grant_id)
    assert (opened.crate.status, opened.crate.acked_by) == (GrantStatus.CLAIMED, AckedBy.CLIENT)
    # Every chest gives 50 coins and a level-3 sword: two chests, merged.
    assert opened.contents.entries == [
        RewardEntry(type=EntryType.CURRENCY, key="coins", amount=100),
        RewardEntry(type=EntryType.ITEM, key="sword", amount=2, parameters={"level": 3}),
    ]
    assert opened.contents.source_ref_id == crate.grant_id
    assert next(c.balance for c in sdk.wallet.get(player).currencies if c.key == "coins") == 100
    assert sdk.grants.pending(player).grants == []


def test_a_retried_open_replays_the_same_contents(sdk: SdkClient, server: ServerClient, player: str) -> None:
    pouch = [RewardEntry(type="crate", key="pouch", amount=5)]
    crate = server.grants.create(player, pouch, kind="crate").grant
    first = sdk.grants.open_crate(player, crate.grant_id, idempotency_key="open-once")
    assert sdk.grants.open_crate(player, crate.grant_id, idempotency_key="open-once") == first
    with pytest.raises(GrantAlreadyClaimedError):
        sdk.grants.open_crate(player, crate.grant_id)


def test_a_crate_is_not_claimed_nor_acked(sdk: SdkClient, server: ServerClient, player: str) -> None:
    crate = server.grants.create(player, CHEST, kind="crate").grant
    with pytest.raises(CrateMustBeOpenedError):
        sdk.grants.claim(player, crate.grant_id)
    with pytest.raises(CrateMustBeOpenedError):
        server.grants.ack(player, crate.grant_id)
    assert sdk.grants.open_crate(player, crate.grant_id).crate.status is GrantStatus.CLAIMED


def test_a_reward_grant_is_not_a_crate(sdk: SdkClient, server: ServerClient, player: str) -> None:
    reward = server.grants.create(player, [RewardEntry(type="currency", key="coins", amount=1)]).grant
    with pytest.raises(NotACrateError):
        sdk.grants.open_crate(player, reward.grant_id)


def test_an_unknown_crate_is_refused_at_create(server: ServerClient, player: str) -> None:
    with pytest.raises(ResourceNotFoundError) as info:
        server.grants.create(player, [RewardEntry(type="crate", key="mystery", amount=1)], kind="crate")
    assert info.value.details == {"crateKey": "mystery", "entry": 0}


async def test_the_async_client_opens_a_crate(
    served: tuple[str, dict[str, str]], server: ServerClient, player: str
) -> None:
    base_url, keys = served
    async with AsyncSdkClient(keys["client"], base_url=base_url) as sdk:
        sdk.player_secret = (await sdk.players.register(player)).player_secret
        crate = server.grants.create(player, CHEST, kind="crate").grant
        opened = await sdk.grants.open_crate(player, crate.grant_id)
        assert opened.contents.entries[0].amount == 100
