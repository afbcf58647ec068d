"""Gift methods against a real server on 127.0.0.1: proves the client and the server agree on the wire
(paths, the send body with its ``idempotencyKey``, the ``pending``/``limit`` and ``direction`` queries,
the bare-array lists, 201 versus 200 on a send, every gift refusal code and its class), which the mocked
tests cannot.

Two servers, each with a manual clock and real SQLite: the conftest ``live_server`` (the test manifest's
``space-race``: gifting on, coins giftable up to 100, the default 24 h cooldown, no daily limit, gifts
never expire) for the main round trip, and this module's ``gift_games`` for the rules that game cannot
show: ``vault`` (platform-managed: a gift that costs the sender, a daily limit of 2, no cooldown, gifts
expiring after an hour), ``mint`` (studio-managed, where a costs-sender resource is refused) and
``quiet`` (gifting never enabled).
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import attrs
import httpx
import pytest

from livecore.clock import format_ts
from livecore_client import (
    AsyncSdkClient,
    AsyncServerClient,
    FriendCodeInvalidError,
    GiftAlreadyClaimedError,
    GiftAmountInvalidError,
    GiftCooldownError,
    GiftExpiredError,
    GiftingDisabledError,
    GiftInsufficientBalanceError,
    GiftLimitReachedError,
    GiftNotAllowedError,
    GiftNotFoundError,
    GiftNotFriendsError,
    IdempotencyConflictError,
    InvalidRequestError,
    PlayerNotFoundError,
    SdkClient,
    ServerClient,
)
from livecore_client.models import (
    GIFT_ROW,
    Direction,
    GiftCatalogResource,
    GiftHistoryDirection,
    GiftStatus,
    GiftView,
    GrantStatus,
    ResourceType,
)
from livecore_server.embedded import serve_in_thread
from tests.conftest import LiveServer, apply_test_manifest, make_services, service_args

LIMITS = "rate_limits = { sdk_read = 100000, sdk_write = 100000, server_api = 100000 }"
GAMES = f"""
[games.vault]
name = "Vault"
economy = "platform"

[games.vault.gifting]
enabled = true
cooldown_seconds = 0
daily_send_limit = 2
claim_expiry_seconds = 3600

[games.vault.resources.coins]
type = "currency"
giftable = true
max_per_gift = 100

[games.vault.resources.gems]
type = "currency"
giftable = true
max_per_gift = 50
costs_sender = true

[games.vault.resources.gold]
type = "currency"

[games.vault.api_keys.client]
env = "test"
permission = "client_sdk"
{LIMITS}

[games.vault.api_keys.server]
env = "test"
permission = "server_integration"
{LIMITS}

[games.mint]
name = "Mint"

[games.mint.gifting]
enabled = true

[games.mint.resources.coins]
type = "currency"
giftable = true

[games.mint.resources.potion]
type = "item"
giftable = true
max_per_gift = 3

[games.mint.resources.gold]
type = "currency"
giftable = true
costs_sender = true

[games.mint.api_keys.client]
env = "test"
permission = "client_sdk"
{LIMITS}

[games.quiet]
name = "Quiet"

[games.quiet.resources.coins]
type = "currency"
giftable = true

[games.quiet.api_keys.client]
env = "test"
permission = "client_sdk"
{LIMITS}

[games.quiet.api_keys.server]
env = "test"
permission = "server_integration"
{LIMITS}
"""


@attrs.define
class GiftGames:
    base_url: str
    keys: dict[str, dict[str, str]]  # game -> key name -> secret


@pytest.fixture(scope="module")
def gift_games(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GiftGames]:
    """The conftest ``live_server`` recipe with this module's games."""
    db = tmp_path_factory.mktemp("gifts-live") / "live.db"
    services = make_services(db)
    applied = apply_test_manifest(services, GAMES)
    services.close()  # the server opens its own
    keys = {
        game: {name: k["secret"] for name, k in applied["games"][game]["apiKeys"].items()}
        for game in ("vault", "mint", "quiet")
    }
    with serve_in_thread(*service_args(db)) as served:
        yield GiftGames(served.base_url, keys)


_ids = itertools.count()


def new_id(prefix: str = "gf") -> str:
    return f"{prefix}-{next(_ids)}-{secrets.token_hex(2)}"


@attrs.define
class Seen:
    """(method, path, status) of every answer, in order: typed results do not carry the status."""

    answers: list[tuple[str, str, int]] = attrs.Factory(list)

    def record(self, response: httpx.Response) -> None:
        request = response.request
        self.answers.append((request.method, request.url.path, response.status_code))

    def last_status(self, method: str, path_end: str) -> int:
        return next(s for m, p, s in reversed(self.answers) if m == method and p.endswith(path_end))


@attrs.define
class Member:
    """A registered player with its own client (its secret set on it)."""

    id: str
    sdk: SdkClient


@pytest.fixture
def seen() -> Seen:
    return Seen()


@pytest.fixture
def http(seen: Seen) -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10, event_hooks={"response": [seen.record]}) as client:
        yield client


def _joiner(
    base_url: str, key_of: Callable[[str], str], http: httpx.Client
) -> Iterator[Callable[..., Member]]:
    opened: list[SdkClient] = []

    def make(name: str, game: str = "") -> Member:
        external_id = new_id()
        sdk = SdkClient(key_of(game), base_url=base_url, http_client=http)
        opened.append(sdk)
        sdk.player_secret = sdk.players.register(external_id).player_secret
        sdk.players.set_identity(external_id, name=name)
        return Member(external_id, sdk)

    yield make
    for sdk in opened:
        sdk.close()


@pytest.fixture
def join(live_server: LiveServer, http: httpx.Client) -> Iterator[Callable[..., Member]]:
    """``join(name)``: a fresh player of ``space-race``."""
    yield from _joiner(live_server.base_url, lambda _: live_server.keys["test-client"], http)


@pytest.fixture
def join_game(gift_games: GiftGames, http: httpx.Client) -> Iterator[Callable[..., Member]]:
    """``join_game(name, game)``: a fresh player of one of this module's games."""
    yield from _joiner(gift_games.base_url, lambda game: gift_games.keys[game]["client"], http)


@pytest.fixture
def server(live_server: LiveServer, http: httpx.Client) -> Iterator[ServerClient]:
    with ServerClient(live_server.keys["test-server"], base_url=live_server.base_url, http_client=http) as c:
        yield c


@pytest.fixture
def server_of(gift_games: GiftGames, http: httpx.Client) -> Iterator[Callable[[str], ServerClient]]:
    opened: list[ServerClient] = []

    def make(game: str) -> ServerClient:
        client = ServerClient(gift_games.keys[game]["server"], base_url=gift_games.base_url, http_client=http)
        opened.append(client)
        return client

    yield make
    for client in opened:
        client.close()


def befriend(a: Member, b: Member) -> None:
    request = a.sdk.friends.send_request(a.id, external_player_id=b.id).request
    assert request is not None
    b.sdk.friends.accept_request(b.id, request.request_id)


def coins(sender: Member, to: Member, amount: int = 10, **kw: Any) -> GiftView:
    """Gift ``amount`` coins by external id; ``kw`` are send_gift's other keywords."""
    return sender.sdk.gifts.send(
        sender.id, type="currency", resource_key="coins", amount=amount, external_player_id=to.id, **kw
    ).gift


def balance(m: Member, key: str) -> int:
    return next(c.balance for c in m.sdk.wallet.get(m.id).currencies if c.key == key)


# --- The round trip (space-race) -------------------------------------------------------------------------


def test_send_list_claim_round_trip(join: Callable[..., Member], server: ServerClient, seen: Seen) -> None:
    ada, bea = join("Ada"), join("Bea")
    befriend(ada, bea)

    catalog = ada.sdk.gifts.catalog(ada.id)
    assert (catalog.enabled, catalog.cooldown_seconds, catalog.daily_send_limit, catalog.sent_today) == (
        True,
        86400,
        None,
        0,
    )
    assert catalog.resources == [
        GiftCatalogResource(type=ResourceType.CURRENCY, key="coins", max_amount=100, costs_sender=False)
    ]

    gift = ada.sdk.gifts.send(
        ada.id,
        type="currency",
        resource_key="coins",
        amount=10,
        external_player_id=bea.id,
        message="good game",
        idempotency_key="ada-gift-1",
    ).gift
    assert seen.last_status("POST", "/friends/gifts") == 201
    assert (gift.direction, gift.status, gift.type, gift.resource_key, gift.amount, gift.message) == (
        Direction.OUTGOING,
        GiftStatus.PENDING,
        ResourceType.CURRENCY,
        "coins",
        10,
        "good game",
    )
    assert (gift.player.external_player_id, gift.player.display_identity.name) == (bea.id, "Bea")
    assert (gift.claimed_at, gift.expires_at, gift.grant_status) == (None, None, None)
    assert ada.sdk.gifts.catalog(ada.id).sent_today == 1

    # The friends list shows the per-friend cooldown
    # (docs/reference/friends-and-presence.md#gift-cooldown-on-friend-rows).
    [row] = ada.sdk.friends.list(ada.id).friends
    assert row.of(GIFT_ROW).gift_cooldown_until == gift.sent_at + timedelta(days=1)

    # Both lists, with and without the pending filter.
    [received] = bea.sdk.gifts.inbox(bea.id)
    assert (received.gift_id, received.direction, received.player.external_player_id) == (
        gift.gift_id,
        Direction.INCOMING,
        ada.id,
    )
    assert [g.gift_id for g in bea.sdk.gifts.inbox(bea.id, pending=True)] == [gift.gift_id]
    assert [g.gift_id for g in ada.sdk.gifts.sent(ada.id, pending=True, limit=5)] == [gift.gift_id]
    assert bea.sdk.gifts.sent(bea.id) == []
    assert ada.sdk.gifts.inbox(ada.id) == []

    # The delivering grant is an ordinary pending grant of the recipient.
    [grant] = bea.sdk.grants.pending(bea.id).grants
    assert (grant.grant_id, grant.source_kind, grant.source_ref_id) == (gift.grant_id, "gift", gift.gift_id)

    history = server.gifts.list(bea.id)
    assert history.direction is GiftHistoryDirection.RECEIVED
    assert [(g.gift_id, g.direction, g.grant_status) for g in history.gifts] == [
        (gift.gift_id, Direction.INCOMING, GrantStatus.PENDING)
    ]
    sent_history = server.gifts.list(ada.id, direction="sent", limit=1)
    assert [(g.gift_id, g.direction) for g in sent_history.gifts] == [(gift.gift_id, Direction.OUTGOING)]
    assert server.gifts.list(ada.id).gifts == []

    # Only the recipient claims.
    with pytest.raises(GiftNotFoundError) as not_yours:
        ada.sdk.gifts.claim(ada.id, gift.gift_id)
    assert (not_yours.value.status, not_yours.value.code) == (404, "gift_not_found")

    claimed = bea.sdk.gifts.claim(bea.id, gift.gift_id).gift
    assert (claimed.status, claimed.direction, claimed.amount) == (GiftStatus.CLAIMED, Direction.INCOMING, 10)
    assert claimed.claimed_at is not None
    with pytest.raises(GiftAlreadyClaimedError) as twice:
        bea.sdk.gifts.claim(bea.id, gift.gift_id)
    assert (twice.value.status, twice.value.code) == (409, "gift_already_claimed")
    with pytest.raises(GiftAlreadyClaimedError):  # nor through its grant
        bea.sdk.grants.claim(bea.id, gift.grant_id)

    assert bea.sdk.gifts.inbox(bea.id, pending=True) == []
    assert [(g.gift_id, g.status) for g in bea.sdk.gifts.inbox(bea.id)] == [
        (gift.gift_id, GiftStatus.CLAIMED)
    ]
    assert ada.sdk.gifts.sent(ada.id, pending=True) == []
    assert bea.sdk.grants.pending(bea.id).grants == []
    [after] = server.gifts.list(bea.id).gifts
    assert (after.status, after.grant_status, after.claimed_at) == (
        GiftStatus.CLAIMED,
        GrantStatus.CLAIMED,
        claimed.claimed_at,
    )

    # The same key answers the original gift (200), never the cooldown (docs/reference/gifts.md#sending) ...
    again = ada.sdk.gifts.send(
        ada.id,
        type="currency",
        resource_key="coins",
        amount=10,
        external_player_id=bea.id,
        message="good game",
        idempotency_key="ada-gift-1",
    ).gift
    assert seen.last_status("POST", "/friends/gifts") == 200
    assert again.gift_id == gift.gift_id
    # ... but the same key for another gift is a conflict,
    with pytest.raises(IdempotencyConflictError):
        coins(ada, bea, 11, message="good game", idempotency_key="ada-gift-1")
    # and a new gift to the same friend waits out the cooldown.
    with pytest.raises(GiftCooldownError) as cooling:
        coins(ada, bea, 5)
    error = cooling.value
    assert (error.status, error.code) == (409, "gift_cooldown")
    assert error.cooldown_until == gift.sent_at + timedelta(days=1)
    assert format_ts(gift.sent_at + timedelta(days=1)) in error.message
    assert ada.sdk.gifts.catalog(ada.id).sent_today == 1

    # Gifting another friend is not on this friend's cooldown; after a day this one is free again.
    cid = join("Cid")
    befriend(ada, cid)
    assert coins(ada, cid, 1).player.external_player_id == cid.id
    server.system.advance_clock(86400)
    [bea_row] = [r for r in ada.sdk.friends.list(ada.id).friends if r.external_player_id == bea.id]
    assert bea_row.of(GIFT_ROW).gift_cooldown_until is None
    by_code = ada.sdk.gifts.send(
        ada.id,
        type="currency",
        resource_key="coins",
        amount=100,
        friend_code=bea.sdk.friends.code(bea.id).friend_code,
    ).gift
    assert (by_code.player.external_player_id, by_code.amount) == (bea.id, 100)
    assert [g.gift_id for g in bea.sdk.gifts.inbox(bea.id)] == [by_code.gift_id, gift.gift_id]  # newest first
    assert [g.gift_id for g in bea.sdk.gifts.inbox(bea.id, limit=1)] == [by_code.gift_id]


def test_send_refusals(join: Callable[..., Member]) -> None:
    ada, bea, stranger = join("Ada"), join("Bea"), join("Stranger")
    befriend(ada, bea)

    for target in (stranger, ada):  # a stranger, or yourself
        with pytest.raises(GiftNotFriendsError) as not_friends:
            coins(ada, target)
        assert (not_friends.value.status, not_friends.value.code) == (403, "not_friends")
    pending = join("Pending")
    ada.sdk.friends.send_request(ada.id, external_player_id=pending.id)
    with pytest.raises(GiftNotFriendsError):  # a request is not a friendship
        coins(ada, pending)

    for kind, key in (("currency", "gems"), ("item", "coins")):  # unknown, or the wrong type
        with pytest.raises(GiftNotAllowedError) as not_allowed:
            ada.sdk.gifts.send(ada.id, type=kind, resource_key=key, amount=1, external_player_id=bea.id)
        assert (not_allowed.value.status, not_allowed.value.code) == (403, "gift_not_allowed")

    for amount in (0, -1, 101):
        with pytest.raises(GiftAmountInvalidError) as bad_amount:
            coins(ada, bea, amount)
        assert (bad_amount.value.status, bad_amount.value.code) == (400, "gift_amount_invalid")
        assert bad_amount.value.details == {"amount": amount, "maxAmount": 100}

    with pytest.raises(InvalidRequestError):  # a message is at most 200 characters
        coins(ada, bea, message="x" * 201)
    with pytest.raises(PlayerNotFoundError):
        ada.sdk.gifts.send(
            ada.id, type="currency", resource_key="coins", amount=1, external_player_id="nobody"
        )
    unknown = "222222" if bea.sdk.friends.code(bea.id).friend_code != "222222" else "333333"
    with pytest.raises(FriendCodeInvalidError):
        ada.sdk.gifts.send(ada.id, type="currency", resource_key="coins", amount=1, friend_code=unknown)
    with pytest.raises(GiftNotFoundError):
        bea.sdk.gifts.claim(bea.id, "01956f2a-0000-7000-8000-000000000000")

    # None of the refusals sent anything or started a cooldown.
    assert ada.sdk.gifts.sent(ada.id) == []
    assert ada.sdk.gifts.catalog(ada.id).sent_today == 0
    assert coins(ada, bea, 100, message="x" * 200).message == "x" * 200


# --- Rules of the other games --------------------------------------------------------------------------


def test_gift_that_costs_the_sender(
    join_game: Callable[..., Member], server_of: Callable[[str], ServerClient]
) -> None:
    server = server_of("vault")
    ada, bea = join_game("Ada", "vault"), join_game("Bea", "vault")
    befriend(ada, bea)
    server.wallet.credit(ada.id, "gems", 30)

    with pytest.raises(GiftInsufficientBalanceError) as short:
        ada.sdk.gifts.send(ada.id, type="currency", resource_key="gems", amount=40, external_player_id=bea.id)
    assert (short.value.status, short.value.code) == (409, "gift_insufficient_balance")
    assert short.value.details == {"resource": "gems", "needed": 40, "have": 30}
    assert balance(ada, "gems") == 30  # nothing taken

    gift = ada.sdk.gifts.send(
        ada.id, type="currency", resource_key="gems", amount=20, external_player_id=bea.id
    ).gift
    assert balance(ada, "gems") == 10  # taken at send
    assert balance(bea, "gems") == 0  # credited only at claim
    bea.sdk.gifts.claim(bea.id, gift.gift_id)
    assert balance(bea, "gems") == 20

    # A minted gift takes nothing from the sender.
    minted = coins(ada, bea, 7)
    assert balance(ada, "coins") == 0
    [pending] = bea.sdk.gifts.inbox(bea.id, pending=True)
    assert pending.gift_id == minted.gift_id
    bea.sdk.grants.claim(bea.id, pending.grant_id)  # the grant route pays out identically
    assert balance(bea, "coins") == 7
    # The gift followed its grant.
    assert [g.status for g in bea.sdk.gifts.inbox(bea.id)] == [GiftStatus.CLAIMED, GiftStatus.CLAIMED]


def test_daily_send_limit(join_game: Callable[..., Member]) -> None:
    ada, bea, cid = (join_game(name, "vault") for name in ("Ada", "Bea", "Cid"))
    befriend(ada, bea)
    befriend(ada, cid)
    catalog = ada.sdk.gifts.catalog(ada.id)
    assert (catalog.cooldown_seconds, catalog.daily_send_limit, catalog.sent_today) == (0, 2, 0)
    assert [(r.key, r.max_amount, r.costs_sender) for r in catalog.resources] == [
        ("coins", 100, False),
        ("gems", 50, True),
    ]
    coins(ada, bea, 1)
    coins(ada, bea, 1)  # no cooldown in this game
    with pytest.raises(GiftLimitReachedError) as limit:
        coins(ada, cid, 1)
    assert (limit.value.status, limit.value.code) == (409, "gift_limit_reached")
    assert ada.sdk.gifts.catalog(ada.id).sent_today == 2
    assert coins(bea, ada, 1).amount == 1  # the limit is the sender's


def test_expired_gift_cannot_be_claimed(
    join_game: Callable[..., Member], server_of: Callable[[str], ServerClient]
) -> None:
    server = server_of("vault")
    ada, bea = join_game("Ada", "vault"), join_game("Bea", "vault")
    befriend(ada, bea)
    gift = ada.sdk.gifts.send(
        ada.id, type="currency", resource_key="coins", amount=3, external_player_id=bea.id
    ).gift
    assert gift.expires_at == gift.sent_at + timedelta(hours=1)

    server.system.advance_clock(3601)
    assert bea.sdk.gifts.inbox(bea.id, pending=True) == []
    assert ada.sdk.gifts.sent(ada.id, pending=True) == []
    [listed] = bea.sdk.gifts.inbox(bea.id)
    # the contract has two statuses
    assert (listed.gift_id, listed.status) == (gift.gift_id, GiftStatus.PENDING)
    with pytest.raises(GiftExpiredError) as expired:
        bea.sdk.gifts.claim(bea.id, gift.gift_id)
    assert (expired.value.status, expired.value.code) == (410, "gift_expired")
    with pytest.raises(GiftExpiredError):
        bea.sdk.grants.claim(bea.id, gift.grant_id)
    [history] = server.gifts.list(bea.id).gifts
    assert (history.status, history.grant_status) == (GiftStatus.PENDING, GrantStatus.EXPIRED)
    assert balance(bea, "coins") == 0


def test_studio_managed_game_refuses_costs_sender(join_game: Callable[..., Member]) -> None:
    ada, bea = join_game("Ada", "mint"), join_game("Bea", "mint")
    befriend(ada, bea)
    catalog = ada.sdk.gifts.catalog(ada.id)
    assert [(r.type, r.key, r.max_amount) for r in catalog.resources] == [
        (ResourceType.CURRENCY, "coins", catalog.resources[0].max_amount),
        (ResourceType.ITEM, "potion", 3),
    ]  # gold costs the sender: not giftable where the platform holds no balances
    with pytest.raises(GiftNotAllowedError):
        ada.sdk.gifts.send(ada.id, type="currency", resource_key="gold", amount=1, external_player_id=bea.id)
    potion = ada.sdk.gifts.send(
        ada.id, type="item", resource_key="potion", amount=3, external_player_id=bea.id
    )
    assert (potion.gift.type, potion.gift.amount) == (ResourceType.ITEM, 3)
    with pytest.raises(GiftAmountInvalidError):
        ada.sdk.gifts.send(
            ada.id, type=ResourceType.ITEM, resource_key="potion", amount=4, external_player_id=bea.id
        )


def test_gifting_disabled(join_game: Callable[..., Member], server_of: Callable[[str], ServerClient]) -> None:
    ada, bea = join_game("Ada", "quiet"), join_game("Bea", "quiet")
    befriend(ada, bea)
    with pytest.raises(GiftingDisabledError) as disabled:
        coins(ada, bea)
    assert (disabled.value.status, disabled.value.code) == (403, "gifting_disabled")
    catalog = ada.sdk.gifts.catalog(ada.id)
    assert (catalog.enabled, catalog.resources, catalog.sent_today) == (False, [], 0)
    assert ada.sdk.gifts.inbox(ada.id) == []
    with pytest.raises(GiftingDisabledError) as history:  # never enabled (docs/reference/gifts.md#lists)
        server_of("quiet").gifts.list(ada.id)
    assert history.value.status == 403


def test_server_history_refusals(server: ServerClient, join: Callable[..., Member]) -> None:
    with pytest.raises(PlayerNotFoundError):
        server.gifts.list("nobody-at-all")
    ada = join("Ada")
    for limit in (0, 201):
        with pytest.raises(InvalidRequestError):
            server.gifts.list(ada.id, limit=limit)
    assert server.gifts.list(ada.id, direction=GiftHistoryDirection.SENT, limit=200).gifts == []


# --- Async ---------------------------------------------------------------------------------------------


async def test_async_clients_round_trip(live_server: LiveServer) -> None:
    key, base = live_server.keys["test-client"], live_server.base_url
    ada_id, bea_id = new_id("gf-async"), new_id("gf-async")
    async with (
        AsyncSdkClient(key, base_url=base) as ada,
        AsyncSdkClient(key, base_url=base) as bea,
        AsyncServerClient(live_server.keys["test-server"], base_url=base) as server,
    ):
        ada.player_secret = (await ada.players.register(ada_id)).player_secret
        bea.player_secret = (await bea.players.register(bea_id)).player_secret
        with pytest.raises(GiftNotFriendsError):
            await ada.gifts.send(
                ada_id, type="currency", resource_key="coins", amount=1, external_player_id=bea_id
            )
        sent = await ada.friends.send_request(ada_id, external_player_id=bea_id)
        assert sent.request is not None
        await bea.friends.accept_request(bea_id, sent.request.request_id)

        assert (await ada.gifts.catalog(ada_id)).sent_today == 0
        code = (await bea.friends.code(bea_id)).friend_code
        gift = (
            await ada.gifts.send(
                ada_id,
                type=ResourceType.CURRENCY,
                resource_key="coins",
                amount=2,
                friend_code=code,
                message="hi",
            )
        ).gift
        assert (gift.player.external_player_id, gift.message) == (bea_id, "hi")
        assert [g.gift_id for g in await ada.gifts.sent(ada_id, pending=True)] == [gift.gift_id]
        [waiting] = await bea.gifts.inbox(bea_id, pending=True, limit=10)
        assert waiting.gift_id == gift.gift_id
        assert [g.grant_status for g in (await server.gifts.list(bea_id)).gifts] == [GrantStatus.PENDING]

        claimed = (await bea.gifts.claim(bea_id, gift.gift_id)).gift
        assert claimed.status is GiftStatus.CLAIMED
        with pytest.raises(GiftAlreadyClaimedError):
            await bea.gifts.claim(bea_id, gift.gift_id)
        assert await bea.gifts.inbox(bea_id, pending=True) == []
        with pytest.raises(GiftCooldownError) as cooling:
            await ada.gifts.send(
                ada_id, type="currency", resource_key="coins", amount=1, external_player_id=bea_id
            )
        assert cooling.value.cooldown_until == gift.sent_at + timedelta(days=1)
        history = await server.gifts.list(ada_id, direction="sent")
        assert [(g.gift_id, g.status, g.grant_status) for g in history.gifts] == [
            (gift.gift_id, GiftStatus.CLAIMED, GrantStatus.CLAIMED)
        ]
