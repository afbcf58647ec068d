"""Economy and grant methods against a real server on 127.0.0.1: proves the client and the server agree on
the wire (paths, camelCase bodies, idempotency keys, error codes), which the mocked tests cannot.

The module's own server carries the test manifest plus a platform-managed game, ``bazaar``; the test
manifest's ``space-race`` is studio-managed.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterator
from datetime import timedelta

import attrs
import httpx
import pytest

from livecore.economy.api import CurrencyBalance, ItemHolding
from livecore.games import ResourceType
from livecore.grants.api import GrantSourceKind, RewardEntry
from livecore.grants.rules import AckedBy, GrantKind, GrantStatus
from livecore_client import (
    AsyncSdkClient,
    AsyncServerClient,
    GrantAlreadyClaimedError,
    GrantExpiredError,
    GrantNotFoundError,
    IdempotencyConflictError,
    InsufficientBalanceError,
    InsufficientQuantityError,
    InvalidRequestError,
    ResourceNotFoundError,
    SdkClient,
    ServerClient,
    StudioManagedEconomyError,
    SystemResourceLockedError,
)
from livecore_server.embedded import serve_in_thread
from tests.conftest import apply_test_manifest, make_services, service_args
from tests.server.economy_support import BAZAAR

COINS_AND_SWORD = [
    RewardEntry(type=ResourceType.CURRENCY, key="coins", amount=50),
    RewardEntry(type=ResourceType.ITEM, key="sword", amount=1, parameters={"level": 4}),
]


@attrs.define
class EconServer:
    base_url: str
    keys: dict[str, str]  # bazaar keys: client, server
    studio_keys: dict[str, str]  # space-race (studio-managed) keys


@pytest.fixture(scope="module")
def econ_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EconServer]:
    """The conftest ``live_server`` recipe with the bazaar game added (a manual clock, real SQLite)."""
    db = tmp_path_factory.mktemp("econ-live") / "live.db"
    services = make_services(db)
    applied = apply_test_manifest(services, BAZAAR)
    services.close()  # the server opens its own

    def keys(game: str) -> dict[str, str]:
        return {name: k["secret"] for name, k in applied["games"][game]["apiKeys"].items()}

    with serve_in_thread(*service_args(db)) as served:
        yield EconServer(served.base_url, keys("bazaar"), keys("space-race"))


_ids = itertools.count()


@pytest.fixture
def player() -> str:
    """A fresh external id per test: the server is shared by the whole module."""
    return f"econ-{next(_ids)}"


@pytest.fixture
def statuses() -> list[int]:
    """HTTP statuses the server client saw, in order (the typed result does not carry them)."""
    return []


@pytest.fixture
def server(econ_server: EconServer, statuses: list[int]) -> Iterator[ServerClient]:
    def record(response: httpx.Response) -> None:
        statuses.append(response.status_code)

    with (
        httpx.Client(timeout=10, event_hooks={"response": [record]}) as http,
        ServerClient(econ_server.keys["server"], base_url=econ_server.base_url, http_client=http) as client,
    ):
        yield client


@pytest.fixture
def sdk(econ_server: EconServer, player: str) -> Iterator[SdkClient]:
    """A client key with ``player`` registered and its secret set on the client."""
    with SdkClient(econ_server.keys["client"], base_url=econ_server.base_url) as client:
        client.player_secret = client.players.register(player).player_secret
        yield client


def balance(sdk: SdkClient, player: str, key: str = "coins") -> int:
    return next(c.balance for c in sdk.wallet.get(player).currencies if c.key == key)


def holding(sdk: SdkClient, player: str, key: str = "sword") -> ItemHolding:
    return next(i for i in sdk.inventory.get(player).items if i.key == key)


# --- Wallet ---------------------------------------------------------------------------------------


def test_credit_then_debit_then_insufficient_balance(
    sdk: SdkClient, server: ServerClient, player: str
) -> None:
    assert sdk.wallet.get(player).currencies == [
        CurrencyBalance(key="coins", balance=0),
        CurrencyBalance(key="gems", balance=0),
    ]
    credited = server.wallet.credit(player, "coins", 50, reason="welcome", source_ref_id="w-1")
    assert (credited.key, credited.balance, credited.delta) == ("coins", 50, 50)
    assert credited.entry_id

    spent = sdk.wallet.debit(player, "coins", 20, reason="shop", source_ref_id="order-1")
    assert (spent.balance, spent.delta) == (30, -20)
    assert balance(sdk, player) == 30

    with pytest.raises(InsufficientBalanceError) as info:
        sdk.wallet.debit(player, "coins", 31)
    assert (info.value.status, info.value.code) == (409, "insufficient_balance")
    assert balance(sdk, player) == 30  # nothing taken

    assert server.wallet.debit(player, "coins", 30).balance == 0
    with pytest.raises(InsufficientBalanceError):
        server.wallet.debit(player, "coins", 1)
    assert balance(sdk, player) == 0


def test_debit_replay_applies_once(sdk: SdkClient, server: ServerClient, player: str) -> None:
    server.wallet.credit(player, "gems", 10, idempotency_key=f"{player}:gems")
    # A replayed credit (same key and body) is the same ledger entry, not a second 10 gems.
    again = server.wallet.credit(player, "gems", 10, idempotency_key=f"{player}:gems")
    assert again.balance == 10

    first = sdk.wallet.debit(player, "gems", 4, idempotency_key="spend-1")
    replay = sdk.wallet.debit(player, "gems", 4, idempotency_key="spend-1")
    assert replay == first
    assert balance(sdk, player, "gems") == 6
    with pytest.raises(IdempotencyConflictError):
        sdk.wallet.debit(player, "gems", 5, idempotency_key="spend-1")


def test_unknown_and_system_resources(sdk: SdkClient, server: ServerClient, player: str) -> None:
    with pytest.raises(ResourceNotFoundError) as info:
        server.wallet.credit(player, "gold", 1)
    assert (info.value.status, info.value.code) == (404, "resource_not_found")
    with pytest.raises(ResourceNotFoundError):
        sdk.wallet.debit(player, "gold", 1)

    with pytest.raises(SystemResourceLockedError) as locked:
        server.inventory.grant(player, "sessions", 1)
    assert (locked.value.status, locked.value.code) == (409, "system_resource_locked")
    with pytest.raises(SystemResourceLockedError):
        sdk.inventory.consume(player, "sessions", 1)
    with pytest.raises(SystemResourceLockedError):
        server.grants.create(player, [RewardEntry(type=ResourceType.ITEM, key="login_streak", amount=1)])


# --- Inventory ------------------------------------------------------------------------------------


def test_item_grant_with_parameters_then_consume(sdk: SdkClient, server: ServerClient, player: str) -> None:
    assert holding(sdk, player) == ItemHolding(
        key="sword", quantity=0, parameters={"level": 1, "color": "grey"}
    )

    granted = server.inventory.grant(player, "sword", 3, reason="quest", parameters={"level": 3})
    assert (granted.quantity, granted.delta) == (3, 3)
    assert granted.parameters == {"level": 3, "color": "grey"}  # the catalog's, overridden key by key

    inventory = sdk.inventory.get(player).items
    assert ItemHolding(key="sword", quantity=3, parameters={"level": 3, "color": "grey"}) in inventory
    assert {i.key for i in inventory if i.system} == {"sessions", "login_streak"}

    used = sdk.inventory.consume(player, "sword", 2, reason="broke")
    assert (used.quantity, used.delta) == (1, -2)
    with pytest.raises(InsufficientQuantityError) as info:
        sdk.inventory.consume(player, "sword", 2)
    assert (info.value.status, info.value.code) == (409, "insufficient_quantity")

    assert server.inventory.revoke(player, "sword", 1, reason="refund").quantity == 0
    with pytest.raises(InsufficientQuantityError):
        server.inventory.revoke(player, "sword", 1)
    assert holding(sdk, player).quantity == 0


# --- Grants ---------------------------------------------------------------------------------------


def test_grant_created_listed_claimed_and_credited(
    sdk: SdkClient, server: ServerClient, player: str, statuses: list[int]
) -> None:
    created = server.grants.create(
        player,
        COINS_AND_SWORD,
        source_ref_id="season-3",
        metadata={"season": 3},
        idempotency_key=f"season-reward:{player}:3",
    ).grant
    assert statuses == [201]
    assert (created.status, created.kind, created.source_kind) == (
        GrantStatus.PENDING,
        GrantKind.REWARD,
        "api",
    )
    assert created.external_player_id == player
    assert created.entries == COINS_AND_SWORD
    assert (created.source_ref_id, created.metadata) == ("season-3", {"season": 3})
    uuid.UUID(created.grant_id)  # docs/reference/conventions.md: a UUID

    [pending] = sdk.grants.pending(player).grants
    assert pending == created

    claimed = sdk.grants.claim(player, created.grant_id).grant
    assert (claimed.status, claimed.acked_by) == (GrantStatus.CLAIMED, AckedBy.CLIENT)
    assert claimed.claimed_at is not None
    assert balance(sdk, player) == 50
    assert holding(sdk, player) == ItemHolding(
        key="sword", quantity=1, parameters={"level": 4, "color": "grey"}
    )

    with pytest.raises(GrantAlreadyClaimedError) as info:
        sdk.grants.claim(player, created.grant_id)
    assert (info.value.status, info.value.code) == (409, "grant_already_claimed")
    assert sdk.grants.pending(player).grants == []
    assert balance(sdk, player) == 50  # credited once


def test_create_grant_replay_returns_the_same_grant(
    sdk: SdkClient, server: ServerClient, player: str, statuses: list[int]
) -> None:
    key = f"season-reward:{player}:4"
    first = server.grants.create(player, COINS_AND_SWORD, kind=GrantKind.REWARD, idempotency_key=key).grant
    replay = server.grants.create(player, COINS_AND_SWORD, kind=GrantKind.REWARD, idempotency_key=key).grant
    assert replay == first
    assert statuses == [201, 200]  # docs/reference/conventions.md#idempotency: a replay of a 201 answers 200
    assert [g.grant_id for g in sdk.grants.pending(player).grants] == [first.grant_id]

    with pytest.raises(IdempotencyConflictError):
        server.grants.create(player, COINS_AND_SWORD[:1], idempotency_key=key)

    other = server.grants.create(player, COINS_AND_SWORD, source_kind=GrantSourceKind.ADMIN).grant
    assert other.grant_id != first.grant_id  # a fresh random key per call
    assert other.source_kind == "admin"


def test_ack_is_idempotent(sdk: SdkClient, server: ServerClient, player: str) -> None:
    grant = server.grants.create(player, COINS_AND_SWORD[:1]).grant
    acked = server.grants.ack(player, grant.grant_id, idempotency_key=f"ack:{grant.grant_id}").grant
    assert (acked.status, acked.acked_by) == (GrantStatus.CLAIMED, AckedBy.SERVER_API)
    assert server.grants.ack(player, grant.grant_id, idempotency_key=f"ack:{grant.grant_id}").grant == acked
    assert server.grants.ack(player, grant.grant_id).grant == acked  # another key: answered as it is

    assert sdk.grants.pending(player).grants == []
    with pytest.raises(GrantAlreadyClaimedError):
        sdk.grants.claim(player, grant.grant_id)


def test_unknown_grant(sdk: SdkClient, server: ServerClient, player: str) -> None:
    unknown = str(uuid.uuid4())
    with pytest.raises(GrantNotFoundError) as info:
        sdk.grants.claim(player, unknown)
    assert (info.value.status, info.value.code) == (404, "grant_not_found")
    with pytest.raises(GrantNotFoundError):
        server.grants.ack(player, unknown)


def test_grant_validation(server: ServerClient, player: str) -> None:
    with pytest.raises(ResourceNotFoundError):
        server.grants.create(player, [RewardEntry(type=ResourceType.CURRENCY, key="gold", amount=1)])
    with pytest.raises(InvalidRequestError) as info:
        server.grants.create(player, [])
    assert info.value.details is not None


def test_expired_grant(sdk: SdkClient, server: ServerClient, player: str) -> None:
    now = server.system.advance_clock(1).now  # the module's server runs a manual clock
    grant = server.grants.create(player, COINS_AND_SWORD[:1], expires_at=now + timedelta(minutes=1)).grant
    assert grant.expires_at == now + timedelta(minutes=1)
    server.system.advance_clock(120)
    with pytest.raises(GrantExpiredError) as info:
        sdk.grants.claim(player, grant.grant_id)
    assert (info.value.status, info.value.code) == (409, "grant_expired")
    with pytest.raises(GrantExpiredError):
        server.grants.ack(player, grant.grant_id)
    assert balance(sdk, player) == 0


# --- Studio-managed game --------------------------------------------------------------------------


def test_studio_managed_game_refuses_client_spend(econ_server: EconServer, player: str) -> None:
    with SdkClient(econ_server.studio_keys["test-client"], base_url=econ_server.base_url) as sdk:
        sdk.player_secret = sdk.players.register(player).player_secret
        with pytest.raises(StudioManagedEconomyError) as info:
            sdk.wallet.debit(player, "coins", 1)
        assert (info.value.status, info.value.code) == (409, "studio_managed_economy")
        assert sdk.wallet.get(player).currencies == [CurrencyBalance(key="coins", balance=0)]


# --- Async ----------------------------------------------------------------------------------------


async def test_async_grant_flow(econ_server: EconServer, player: str) -> None:
    async with (
        AsyncSdkClient(econ_server.keys["client"], base_url=econ_server.base_url) as sdk,
        AsyncServerClient(econ_server.keys["server"], base_url=econ_server.base_url) as server,
    ):
        sdk.player_secret = (await sdk.players.register(player)).player_secret
        await server.wallet.credit(player, "coins", 5)
        grant = (await server.grants.create(player, COINS_AND_SWORD, idempotency_key=f"async:{player}")).grant
        assert [g.grant_id for g in (await sdk.grants.pending(player)).grants] == [grant.grant_id]
        assert (await sdk.grants.claim(player, grant.grant_id)).grant.status is GrantStatus.CLAIMED
        assert (await sdk.wallet.debit(player, "coins", 55)).balance == 0
        assert (await sdk.inventory.consume(player, "sword", 1)).quantity == 0
        with pytest.raises(GrantAlreadyClaimedError):
            await sdk.grants.claim(player, grant.grant_id)
        wallet = await sdk.wallet.get(player)
        inventory = await sdk.inventory.get(player)
        assert wallet.currencies[0] == CurrencyBalance(key="coins", balance=0)
        assert inventory.items[0].key == "sword"
