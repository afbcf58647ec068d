"""Player tools, purchases, spend and migration against a real server on 127.0.0.1: proves the client and
the server agree on the wire (paths, bodies, the ``windows``/``minAmountMinor``/``from`` queries, the
purchase cursor, every refusal code and its class, ``invalid_merge`` 422 included), which the mocked
tests cannot.

Two servers, each with a manual clock (never advanced here) and real SQLite: the conftest ``live_server``
(the test manifest's ``space-race``: studio-managed, coins only, no exchange rates, so only USD is
known) and this module's ``tool_games``, whose games declare exchange rates (EUR, JPY) and are each used
by one test only, so revenue figures are exact: ``shop`` and ``shop-async`` (platform-managed, coins and a
sword item) and ``hooks``, whose webhook endpoint is a receiver in this process that checks the
deliveries with ``construct_event`` and reads them typed.
"""

from __future__ import annotations

import contextlib
import itertools
import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import attrs
import pytest

from livecore_client import (
    AsyncSdkClient,
    AsyncServerClient,
    IdempotencyConflictError,
    InvalidMergeError,
    InvalidRequestError,
    PermissionDeniedError,
    PlayerBannedError,
    PlayerNotFoundError,
    SdkClient,
    ServerClient,
    UnknownCurrencyError,
    UnprocessableEntityError,
)
from livecore_client.models import (
    HoldingView,
    MigrateInventoryRow,
    MigratePlayerRow,
    MigrateWalletRow,
    ResourceType,
    RewardEntry,
    SpendWindow,
    ValidationStatusView,
)
from livecore_client.webhooks import (
    PlayerBanned,
    PlayerDeleted,
    PlayerMerged,
    PlayerUnbanned,
    PurchaseTracked,
    WebhookEvent,
    construct_event,
)
from livecore_server.embedded import serve_in_thread
from tests.conftest import START, LiveServer, apply_test_manifest, make_services, service_args
from tests.waiting import until_sync

LIMITS = "rate_limits = { sdk_read = 100000, sdk_write = 100000, server_api = 100000 }"
HOOK_KINDS = ["player.banned", "player.unbanned", "player.merged", "player.deleted", "purchase.tracked"]


def shop_game(key: str) -> str:
    return f"""
[games.{key}]
name = "{key}"
economy = "platform"

[games.{key}.exchange_rates]
EUR = 1.08
JPY = 0.0067

[games.{key}.resources.coins]
type = "currency"

[games.{key}.resources.sword]
type = "item"

[games.{key}.api_keys.client]
env = "test"
permission = "client_sdk"
{LIMITS}

[games.{key}.api_keys.server]
env = "test"
permission = "server_integration"
{LIMITS}
"""


def hooks_endpoint(url: str) -> str:
    kinds = ", ".join(f'"{k}"' for k in HOOK_KINDS)
    return f'\n[games.hooks.webhooks.backend]\nenv = "test"\nurl = "{url}"\nevents = [{kinds}]\n'


@attrs.define
class Inbox:
    """A webhook endpoint on 127.0.0.1 in its own thread: records (X-Signature, raw body) and answers 200."""

    deliveries: list[tuple[str | None, bytes]] = attrs.Factory(list)
    lock: threading.Lock = attrs.Factory(threading.Lock)

    def wait_for(self, count: int) -> list[tuple[str | None, bytes]]:
        def arrived() -> list[tuple[str | None, bytes]] | None:
            with self.lock:
                return list(self.deliveries) if len(self.deliveries) >= count else None

        got = until_sync(arrived, lambda: f"{count} deliveries, got {len(self.deliveries)}")
        assert got is not None
        return got


def _inbox_server(inbox: Inbox) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with inbox.lock:
                inbox.deliveries.append((self.headers.get("X-Signature"), body))
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return ThreadingHTTPServer(("127.0.0.1", 0), Handler)


@attrs.define
class ToolGames:
    base_url: str
    db: Path  # the server's SQLite file
    keys: dict[str, dict[str, str]]  # game -> key name -> secret
    webhook_secret: str
    inbox: Inbox


@pytest.fixture(scope="module")
def tool_games(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ToolGames]:
    """The conftest ``live_server`` recipe with this module's games and a webhook receiver."""
    inbox = Inbox()
    receiver = _inbox_server(inbox)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{receiver.server_address[1]}/hooks"
    try:
        db = tmp_path_factory.mktemp("tools-live") / "live.db"
        services = make_services(db)
        manifest = shop_game("shop") + shop_game("shop-async") + shop_game("hooks") + hooks_endpoint(url)
        applied = apply_test_manifest(services, manifest)
        services.close()  # the server opens its own
        games = ("shop", "shop-async", "hooks")
        keys = {g: {n: k["secret"] for n, k in applied["games"][g]["apiKeys"].items()} for g in games}
        secret = applied["games"]["hooks"]["webhooks"]["backend"]["secret"]
        with serve_in_thread(*service_args(db)) as served:
            yield ToolGames(served.base_url, db, keys, secret, inbox)
    finally:
        receiver.shutdown()
        receiver.server_close()


def _unsent(db: Path) -> tuple[int, int]:
    """The server's events not yet fanned out to deliveries, and its deliveries not yet delivered."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        unfanned = conn.execute("SELECT count(*) FROM outbox WHERE NOT fanned_out").fetchone()[0]
        pending = conn.execute(
            "SELECT count(*) FROM webhook_deliveries WHERE status != 'delivered'"
        ).fetchone()
    return int(unfanned), int(pending[0])


_ids = itertools.count()


def new_id(prefix: str = "pt") -> str:
    return f"{prefix}-{next(_ids)}-{secrets.token_hex(3)}"


@attrs.define
class Member:
    """A registered player with its own client (its secret set on it)."""

    id: str
    sdk: SdkClient


def _joiner(base_url: str, key: str) -> Iterator[Callable[[], Member]]:
    opened: list[SdkClient] = []

    def make() -> Member:
        external_id = new_id()
        sdk = SdkClient(key, base_url=base_url)
        opened.append(sdk)
        sdk.player_secret = sdk.players.register(external_id).player_secret
        return Member(external_id, sdk)

    yield make
    for sdk in opened:
        sdk.close()


@pytest.fixture
def join(live_server: LiveServer) -> Iterator[Callable[[], Member]]:
    """``join()``: a fresh registered player of ``space-race``."""
    yield from _joiner(live_server.base_url, live_server.keys["test-client"])


@pytest.fixture
def server(live_server: LiveServer) -> Iterator[ServerClient]:
    with ServerClient(live_server.keys["test-server"], base_url=live_server.base_url) as client:
        yield client


def buy(transaction_id: str, amount_minor: int = 499, currency: str = "USD", **kw: Any) -> dict[str, Any]:
    """track_purchase's keywords for one purchase."""
    return {
        "transaction_id": transaction_id,
        "store": kw.pop("store", "app_store"),
        "product_id": kw.pop("product_id", "coins.500"),
        "product_type": kw.pop("product_type", "consumable"),
        "amount_minor": amount_minor,
        "currency": currency,
        **kw,
    }


def wallet_of(server: ServerClient, external_id: str) -> dict[str, int]:
    return {h.key: h.amount for h in server.players.export(external_id).wallet}


# --- Ban, debug, profile (space-race) -----------------------------------------------------------------


def test_ban_refuses_client_writes_until_unban(join: Callable[[], Member], server: ServerClient) -> None:
    ada = join()
    banned = server.players.ban(ada.id, reason="chargeback fraud")
    assert banned.applied is True
    assert (banned.ban.external_player_id, banned.ban.banned, banned.ban.reason) == (
        ada.id,
        True,
        "chargeback fraud",
    )
    assert banned.ban.banned_at is not None
    assert server.players.profile(ada.id).player.banned is True

    # Player-scoped client writes are refused; reads still work
    # (docs/reference/player-tools.md#ban-and-unban).
    with pytest.raises(PlayerBannedError) as refused:
        ada.sdk.purchases.track(ada.id, **buy(new_id("tx")))
    assert (refused.value.status, refused.value.code) == (403, "player_banned")
    with pytest.raises(PlayerBannedError):
        ada.sdk.presence.heartbeat(ada.id)
    assert ada.sdk.wallet.get(ada.id).currencies[0].key == "coins"
    # The studio backend can still record a purchase for the player.
    assert server.purchases.track(ada.id, **buy(new_id("tx"))).purchase_count == 1

    # Banning again refreshes the reason quietly: no transition.
    again = server.players.ban(ada.id, reason="and more")
    assert (again.applied, again.ban.reason, again.ban.banned_at) == (False, "and more", banned.ban.banned_at)

    lifted = server.players.unban(ada.id)
    assert (lifted.applied, lifted.ban.banned, lifted.ban.reason, lifted.ban.banned_at) == (
        True,
        False,
        None,
        None,
    )
    assert server.players.unban(ada.id).applied is False
    assert ada.sdk.presence.heartbeat(ada.id).online is True
    assert server.players.profile(ada.id).player.banned is False


def test_ban_refusals_and_replay(join: Callable[[], Member], server: ServerClient) -> None:
    ada = join()
    for reason in ("", "   ", "x" * 501):
        with pytest.raises(InvalidRequestError):
            server.players.ban(ada.id, reason=reason)
    for call in (
        lambda: server.players.ban("nobody-here", reason="x"),
        lambda: server.players.unban("nobody-here"),
    ):
        with pytest.raises(PlayerNotFoundError):
            call()
    # The same key and body answers the original; the same key with another body is a conflict.
    first = server.players.ban(ada.id, reason="spam", idempotency_key=f"ban-{ada.id}")
    replay = server.players.ban(ada.id, reason="spam", idempotency_key=f"ban-{ada.id}")
    assert (first.applied, replay.applied) == (True, True)
    with pytest.raises(IdempotencyConflictError):
        server.players.ban(ada.id, reason="other", idempotency_key=f"ban-{ada.id}")


def test_debug_flag_round_trip(join: Callable[[], Member], server: ServerClient) -> None:
    ada = join()
    flagged = server.players.flag_debug(ada.id)
    assert (flagged.applied, flagged.external_player_id, flagged.debug, flagged.reason) == (
        True,
        ada.id,
        True,
        None,
    )
    assert flagged.flagged_at is not None
    again = server.players.flag_debug(ada.id, reason="QA device")
    assert (again.applied, again.debug) == (False, True)
    assert server.players.profile(ada.id).player.debug is True
    assert server.purchases.player_spend(ada.id).debug is True

    cleared = server.players.unflag_debug(ada.id)
    assert (cleared.applied, cleared.debug, cleared.reason, cleared.flagged_at) == (True, False, None, None)
    assert server.players.unflag_debug(ada.id).applied is False
    assert server.players.export(ada.id).player.debug is False

    with pytest.raises(InvalidRequestError):
        server.players.flag_debug(ada.id, reason="x" * 501)
    with pytest.raises(PlayerNotFoundError):
        server.players.flag_debug("nobody-here")
    with pytest.raises(PlayerNotFoundError):
        server.players.unflag_debug("nobody-here")


def test_profile_lists_grants_and_counts(join: Callable[[], Member], server: ServerClient) -> None:
    ada = join()
    empty = server.players.profile(ada.id)
    assert (empty.player.external_player_id, empty.player.lifecycle, empty.grants) == (ada.id, "active", [])
    assert empty.summary.grants_pending == 0
    entries = [RewardEntry(type=ResourceType.CURRENCY, key="coins", amount=5)]
    grants = [server.grants.create(ada.id, entries).grant for _ in range(3)]
    ada.sdk.grants.claim(ada.id, grants[0].grant_id)

    profile = server.players.profile(ada.id)
    assert {g.grant_id for g in profile.grants} == {g.grant_id for g in grants}
    assert (profile.summary.grants_pending, profile.summary.grants_claimed) == (2, 1)
    assert (profile.attempts, profile.lobbies, profile.summary.attempt_count) == ([], [], 0)
    assert profile.player.display_identity.name
    assert len(server.players.profile(ada.id, limit=1).grants) == 1
    assert len(server.players.profile(ada.id, limit=200).grants) == 3

    for limit in (0, 201):
        with pytest.raises(InvalidRequestError):
            server.players.profile(ada.id, limit=limit)
    with pytest.raises(PlayerNotFoundError):
        server.players.profile("nobody-here")


def test_player_tools_need_a_server_key_of_the_players_environment(
    join: Callable[[], Member], live_server: LiveServer
) -> None:
    ada = join()
    base = live_server.base_url
    with ServerClient(live_server.keys["test-client"], base_url=base) as wrong_permission:
        for call in (
            lambda: wrong_permission.players.profile(ada.id),
            lambda: wrong_permission.players.ban(ada.id, reason="x"),
            lambda: wrong_permission.purchases.spend_players(),
        ):
            # a client key gets 403 (docs/reference/player-tools.md)
            with pytest.raises(PermissionDeniedError) as denied:
                call()
            assert (denied.value.status, denied.value.code) == (403, "permission_denied")
    with ServerClient(live_server.keys["live-server"], base_url=base) as other_env:
        # the other environment's player (docs/reference/conventions.md#surfaces-and-credentials)
        with pytest.raises(PlayerNotFoundError):
            other_env.players.profile(ada.id)
        with pytest.raises(PlayerNotFoundError):
            other_env.players.ban(ada.id, reason="x")


# --- Purchases without exchange rates (space-race) -------------------------------------------------------


def test_track_purchase_server_and_sdk(join: Callable[[], Member], server: ServerClient) -> None:
    ada = join()
    tx1, tx2 = new_id("tx"), new_id("tx")

    tracked = ada.sdk.purchases.track(ada.id, **buy(tx1, 499, metadata={"sku": "a"}))
    assert tracked.purchase.validation_status is ValidationStatusView.UNVERIFIED  # the client never verifies
    assert (
        tracked.purchase.amount_minor,
        tracked.purchase.normalized_amount_minor,
        tracked.purchase.fx_rate,
    ) == (
        499,
        499,
        1.0,
    )
    assert (tracked.purchase.metadata, tracked.lifetime_amount_minor, tracked.purchase_count) == (
        {"sku": "a"},
        499,
        1,
    )

    verified = server.purchases.track(ada.id, **buy(tx2, 1999, "usd", validation_status="verified"))
    assert (verified.purchase.validation_status, verified.purchase.currency) == (
        ValidationStatusView.VERIFIED,
        "USD",
    )
    assert (verified.lifetime_amount_minor, verified.purchase_count) == (2498, 2)

    # Idempotent on transactionId, from either route; another purchase under the same id conflicts.
    replay = server.purchases.track(ada.id, **buy(tx1, 499))
    assert (replay.purchase.purchase_id, replay.purchase_count) == (tracked.purchase.purchase_id, 2)
    assert (
        ada.sdk.purchases.track(ada.id, **buy(tx1, 499)).purchase.purchase_id == tracked.purchase.purchase_id
    )
    with pytest.raises(IdempotencyConflictError) as conflict:
        ada.sdk.purchases.track(ada.id, **buy(tx1, 500))
    assert conflict.value.details == {"transactionId": tx1}

    # No exchange rate on file: nothing is recorded.
    with pytest.raises(UnknownCurrencyError) as unknown:
        server.purchases.track(ada.id, **buy(new_id("tx"), 999, "EUR"))
    assert (unknown.value.status, unknown.value.code, unknown.value.details) == (
        400,
        "unknown_currency",
        {"currency": "EUR"},
    )
    assert isinstance(unknown.value, InvalidRequestError)
    with pytest.raises(UnknownCurrencyError):
        ada.sdk.purchases.track(ada.id, **buy(new_id("tx"), 999, "GBP"))
    assert server.purchases.player_spend(ada.id).purchase_count == 2

    with pytest.raises(InvalidRequestError):
        server.purchases.track(ada.id, **buy(new_id("tx"), -1))
    with pytest.raises(InvalidRequestError):
        server.purchases.track(ada.id, **buy(new_id("tx"), purchased_at=START + timedelta(days=1)))
    with pytest.raises(PlayerNotFoundError):
        server.purchases.track("nobody-here", **buy(new_id("tx")))


# --- Migration (space-race) --------------------------------------------------------------------------


def test_migrate_players_wallet_and_inventory(server: ServerClient) -> None:
    ada, bob = new_id("legacy"), new_id("legacy")
    first_seen = START - timedelta(days=400)
    rows: list[Any] = [
        MigratePlayerRow(
            external_player_id=ada,
            idempotency_key=f"players:{ada}",
            name="Ada Legacy",
            country="SE",
            first_seen_at=first_seen,
        ),
        {"external_player_id": bob, "idempotency_key": f"players:{bob}"},
    ]
    outcome = server.migration.players(rows)
    assert (outcome.applied, outcome.replayed, outcome.failed, outcome.failures) == (2, 0, 0, [])
    exported = server.players.export(ada).player
    assert (exported.display_identity.name, exported.country, exported.first_seen_at) == (
        "Ada Legacy",
        "SE",
        first_seen,
    )
    # A re-run of the same rows changes nothing; a row key reused for other content fails alone.
    assert server.migration.players(rows).replayed == 2
    mixed = server.migration.players(
        [
            {"external_player_id": ada, "idempotency_key": f"players:{ada}", "name": "Someone Else"},
            {"external_player_id": new_id("legacy"), "idempotency_key": new_id("k"), "name": "Cid"},
            {"external_player_id": new_id("legacy"), "idempotency_key": new_id("k"), "name": " "},
        ]
    )
    assert (mixed.applied, mixed.replayed, mixed.failed) == (1, 0, 2)
    assert [(f.index, f.code) for f in mixed.failures] == [
        (0, "idempotency_conflict"),
        (2, "invalid_request"),
    ]
    assert mixed.failures[0].idempotency_key == f"players:{ada}"

    wallet = server.migration.wallet(
        [
            MigrateWalletRow(
                external_player_id=ada, idempotency_key=f"wallet:{ada}", economy_key="coins", amount=250
            ),
            {
                "external_player_id": bob,
                "idempotency_key": f"wallet:{bob}",
                "economy_key": "gems",
                "amount": 1,
            },
        ]
    )
    assert (wallet.applied, wallet.failed) == (1, 1)
    [failure] = wallet.failures
    assert (failure.index, failure.idempotency_key, failure.code) == (
        1,
        f"wallet:{bob}",
        "resource_not_found",
    )
    assert wallet_of(server, ada) == {"coins": 250}

    # The game declares no item: the row fails and is reported; the call itself succeeds.
    items = server.migration.inventory(
        [
            MigrateInventoryRow(
                external_player_id=ada, idempotency_key=f"inv:{ada}", item_key="sword", quantity=1
            )
        ]
    )
    assert (items.applied, items.failed, items.failures[0].code) == (0, 1, "resource_not_found")

    with pytest.raises(InvalidRequestError):  # a key twice in one call refuses the whole call
        server.migration.players(
            [
                {"external_player_id": new_id("legacy"), "idempotency_key": "dup"},
                {"external_player_id": new_id("legacy"), "idempotency_key": "dup"},
            ]
        )
    too_many = [{"external_player_id": f"x{i}", "idempotency_key": f"x{i}"} for i in range(1001)]
    with pytest.raises(InvalidRequestError):
        server.migration.players(too_many)


# --- Merge, erasure, export (space-race) -------------------------------------------------------------


def test_merge_players(join: Callable[[], Member], server: ServerClient) -> None:
    ada, bob = join(), join()
    server.wallet.credit(ada.id, "coins", 10)
    server.wallet.credit(bob.id, "coins", 32)
    server.purchases.track(bob.id, **buy(new_id("tx"), 299))
    grant = server.grants.create(
        bob.id, [RewardEntry(type=ResourceType.CURRENCY, key="coins", amount=1)]
    ).grant

    merged = server.players.merge(bob.id, ada.id)
    assert (merged.status, merged.from_external_player_id, merged.to_external_player_id) == (
        "merged",
        bob.id,
        ada.id,
    )
    assert merged.anonymized_external_player_id.startswith("__merged_")
    assert merged.merged_at is not None

    assert wallet_of(server, ada.id) == {"coins": 42}  # summed on the shared key
    spend = server.purchases.player_spend(ada.id)
    assert (spend.lifetime_amount_minor, spend.purchase_count) == (299, 1)
    assert [g.grant_id for g in server.players.profile(ada.id).grants] == [grant.grant_id]
    with pytest.raises(PlayerNotFoundError):  # the source's original id no longer names a player
        server.players.profile(bob.id)

    # A replay answers the same merge.
    replay = server.players.merge(bob.id, ada.id)
    assert (replay.status, replay.anonymized_external_player_id, replay.merged_at) == (
        "no_op_already_merged",
        merged.anonymized_external_player_id,
        merged.merged_at,
    )


def test_merge_refusals(join: Callable[[], Member], server: ServerClient) -> None:
    ada, bob, cid, dan = join(), join(), join(), join()
    with pytest.raises(InvalidMergeError) as same:
        server.players.merge(ada.id, ada.id)
    assert (same.value.status, same.value.code) == (422, "invalid_merge")
    assert isinstance(same.value, UnprocessableEntityError)

    server.players.ban(bob.id, reason="fraud")
    with pytest.raises(InvalidMergeError):  # a banned target
        server.players.merge(ada.id, bob.id)

    erased = server.players.delete(cid.id, reason="test").anonymized_external_id
    assert erased is not None
    with pytest.raises(InvalidMergeError):  # an erased target, named by its placeholder
        server.players.merge(ada.id, erased)

    server.players.merge(dan.id, ada.id)
    with pytest.raises(InvalidMergeError):  # the source was merged into another player
        server.players.merge(dan.id, join().id)

    with pytest.raises(PlayerNotFoundError) as missing:
        server.players.merge("nobody-here", ada.id)
    assert missing.value.details == {"externalPlayerId": "nobody-here"}
    with pytest.raises(PlayerNotFoundError):
        server.players.merge(ada.id, "nobody-here")
    # Nothing moved: ada is still there, untouched.
    assert server.players.profile(ada.id).player.lifecycle == "active"


def test_export_then_delete(join: Callable[[], Member], server: ServerClient) -> None:
    ada = join()
    ada.sdk.players.set_identity(ada.id, name="Ada Export")
    server.wallet.credit(ada.id, "coins", 7)
    tracked = server.purchases.track(ada.id, **buy(new_id("tx"), 199))
    server.grants.create(ada.id, [RewardEntry(type=ResourceType.CURRENCY, key="coins", amount=1)])

    bundle = server.players.export(ada.id)
    player = bundle.player
    assert (player.external_player_id, player.display_identity.name, player.lifecycle) == (
        ada.id,
        "Ada Export",
        "active",
    )
    assert player.registered_at is not None
    assert player.anonymized_identity.name != "Ada Export"
    assert bundle.wallet == [HoldingView(key="coins", amount=7)]
    assert bundle.inventory == []
    assert [p.purchase_id for p in bundle.purchases] == [tracked.purchase.purchase_id]
    assert len(bundle.grants) == 1
    assert (bundle.attempts, bundle.lobby_memberships) == ([], [])

    deleted = server.players.delete(ada.id, reason="studio_request")
    assert deleted.status == "deleted"
    assert deleted.anonymized_external_id is not None
    assert deleted.anonymized_external_id.startswith("__deleted_")
    again = server.players.delete(ada.id)
    assert again.status.startswith("no_op_")
    assert again.anonymized_external_id == deleted.anonymized_external_id
    for gone in (server.players.export, server.players.profile):
        with pytest.raises(PlayerNotFoundError):
            gone(ada.id)

    # The anonymized row keeps no identity but the financial records stay (docs/reference/player-tools.md).
    kept = server.players.export(deleted.anonymized_external_id)
    assert kept.player.lifecycle == "deleted"
    assert kept.player.display_identity.name != "Ada Export"
    assert [p.purchase_id for p in kept.purchases] == [tracked.purchase.purchase_id]

    never = server.players.delete(new_id("never"), reason="gdpr_erasure")
    assert never.status.startswith("no_op_")
    with pytest.raises(PlayerNotFoundError):
        server.players.export("nobody-here")
    with pytest.raises(ValueError, match="ErasureReasonView"):
        server.players.delete(new_id(), reason="whim")


# --- Purchases, spend and revenue with exchange rates (shop) ---------------------------------------------


def test_purchases_spend_and_revenue(tool_games: ToolGames) -> None:
    keys = tool_games.keys["shop"]
    with (
        ServerClient(keys["server"], base_url=tool_games.base_url) as server,
        SdkClient(keys["client"], base_url=tool_games.base_url) as sdk,
    ):
        ada, bob, qa = new_id("shop"), new_id("shop"), new_id("shop")
        secret = sdk.players.register(ada).player_secret
        sdk.players.register(bob)
        sdk.players.register(qa)

        old = server.purchases.track(
            ada,
            **buy(new_id("tx"), 999, "EUR", product_id="gems.100", purchased_at=START - timedelta(days=40)),
        )
        assert (old.purchase.normalized_amount_minor, old.purchase.fx_rate, old.purchase.currency) == (
            1079,
            1.08,
            "EUR",
        )
        recent = server.purchases.track(
            ada,
            **buy(new_id("tx"), 500, "JPY", product_id="coins.500", purchased_at=START - timedelta(days=3)),
            validation_status="verified",
        )
        assert recent.purchase.normalized_amount_minor == 335  # yen have no minor unit: 500 * 0.0067 * 100
        now = sdk.purchases.track(ada, **buy(new_id("tx"), 199, product_id="coins.500"), player_secret=secret)
        assert (now.purchase.purchased_at, now.lifetime_amount_minor, now.purchase_count) == (START, 1613, 3)
        server.purchases.track(bob, **buy(new_id("tx"), 5000, product_id="vip"))
        server.purchases.track(qa, **buy(new_id("tx"), 100000, product_id="vip"))
        assert server.players.flag_debug(qa, reason="store review account").applied

        # Pages, newest first, following the cursor.
        first = server.purchases.list(ada, limit=2)
        assert [p.purchase_id for p in first.purchases] == [
            now.purchase.purchase_id,
            recent.purchase.purchase_id,
        ]
        assert first.next_cursor is not None
        last = server.purchases.list(ada, limit=2, cursor=first.next_cursor)
        assert ([p.purchase_id for p in last.purchases], last.next_cursor) == (
            [old.purchase.purchase_id],
            None,
        )
        assert [p.purchase_id for p in server.purchases.iter(ada, page_size=1)] == [
            now.purchase.purchase_id,
            recent.purchase.purchase_id,
            old.purchase.purchase_id,
        ]
        with pytest.raises(InvalidRequestError):
            server.purchases.list(ada, cursor="not-a-cursor")

        spend = server.purchases.player_spend(ada, windows=[7, 30, 90])
        assert (spend.lifetime_amount_minor, spend.purchase_count, spend.debug) == (1613, 3, False)
        assert (spend.first_purchase_at, spend.last_purchase_at) == (START - timedelta(days=40), START)
        assert spend.windows == [SpendWindow(7, 534, 2), SpendWindow(30, 534, 2), SpendWindow(90, 1613, 3)]
        assert server.purchases.player_spend(ada).windows == []
        # A debug account's own spend keeps counting.
        assert server.purchases.player_spend(qa).lifetime_amount_minor == 100000

        # Revenue reporting leaves the debug account out, retroactively.
        spenders = server.purchases.spend_players(min_amount_minor=1000)
        assert [(s.external_player_id, s.amount_minor, s.purchase_count) for s in spenders.players] == [
            (bob, 5000, 1),
            (ada, 1613, 3),
        ]
        assert (spenders.min_amount_minor, spenders.window_days, spenders.limit, spenders.offset) == (
            1000,
            None,
            50,
            0,
        )
        assert [
            s.external_player_id for s in server.purchases.spend_players(min_amount_minor=1613).players
        ] == [
            bob,
            ada,
        ]
        assert [
            s.external_player_id for s in server.purchases.spend_players(min_amount_minor=1614).players
        ] == [bob]
        windowed = server.purchases.spend_players(window_days=7, limit=1, offset=1)
        assert [(s.external_player_id, s.amount_minor) for s in windowed.players] == [(ada, 534)]
        assert (windowed.window_days, windowed.limit, windowed.offset) == (7, 1, 1)

        summary = server.purchases.revenue_summary()  # the last 30 days
        assert (summary.from_, summary.to) == (START - timedelta(days=30), START)
        assert (summary.gross_amount_minor, summary.purchase_count, summary.paying_players) == (5534, 3, 2)
        assert summary.arppu_minor == 2767
        assert [(p.product_id, p.amount_minor, p.purchase_count) for p in summary.per_product] == [
            ("vip", 5000, 1),
            ("coins.500", 534, 2),
        ]
        assert [(d.date, d.amount_minor) for d in summary.per_day] == [
            ((START - timedelta(days=3)).date().isoformat(), 335),
            (START.date().isoformat(), 5199),
        ]
        day = server.purchases.revenue_summary(
            from_=START.date() - timedelta(days=40), to=START.date() - timedelta(days=40)
        )
        assert (day.gross_amount_minor, day.paying_players, day.per_product[0].product_id) == (
            1079,
            1,
            "gems.100",
        )
        span = server.purchases.revenue_summary(from_=START - timedelta(days=3), to=START - timedelta(days=1))
        assert (span.gross_amount_minor, span.purchase_count) == (335, 1)
        nobody = server.purchases.revenue_summary(from_="2020-01-01", to="2020-01-31")
        assert (nobody.gross_amount_minor, nobody.paying_players, nobody.arppu_minor) == (0, 0, None)

        assert server.players.unflag_debug(qa).applied  # retroactively counted again
        assert server.purchases.revenue_summary().gross_amount_minor == 105534
        assert server.purchases.spend_players().players[0].external_player_id == qa

        for bad in (
            lambda: server.purchases.revenue_summary(from_=START.date(), to=START.date() - timedelta(days=1)),
            lambda: server.purchases.revenue_summary(from_="last tuesday"),
            lambda: server.purchases.spend_players(min_amount_minor=-1),
            lambda: server.purchases.spend_players(window_days=0),
            lambda: server.purchases.player_spend(ada, windows=[0]),
            lambda: server.purchases.player_spend(ada, windows=list(range(1, 10))),
        ):
            with pytest.raises(InvalidRequestError):
                bad()


# --- Webhooks, delivered and read typed (hooks) -----------------------------------------------------------


def test_webhooks_arrive_signed_and_typed(tool_games: ToolGames) -> None:
    keys = tool_games.keys["hooks"]
    with (
        ServerClient(keys["server"], base_url=tool_games.base_url) as server,
        SdkClient(keys["client"], base_url=tool_games.base_url) as sdk,
    ):
        ada, bob = new_id("hook"), new_id("hook")
        sdk.players.register(ada)
        sdk.players.register(bob)
        server.players.ban(ada, reason="testing hooks")
        server.players.ban(ada, reason="no transition, no webhook")
        server.players.unban(ada)
        server.players.unban(ada)  # not banned: no webhook
        tx = new_id("tx")
        tracked = server.purchases.track(bob, **buy(tx, 999, "EUR", metadata={"campaign": "spring"}))
        server.purchases.track(bob, **buy(tx, 999, "EUR", metadata={"campaign": "spring"}))  # a replay: none
        merged = server.players.merge(bob, ada)
        server.players.merge(bob, ada)  # no_op: none
        deleted = server.players.delete(ada, reason="test")
        server.players.delete(ada)  # no_op: none

    tool_games.inbox.wait_for(5)
    # Until the server has sent everything it will: every event fanned out, every delivery answered.
    until_sync(
        lambda: _unsent(tool_games.db) == (0, 0), lambda: f"(unfanned, pending) {_unsent(tool_games.db)}"
    )
    deliveries = tool_games.inbox.wait_for(5)
    events: list[WebhookEvent] = [
        construct_event(body, header, tool_games.webhook_secret)
        for header, body in tool_games.inbox.deliveries
    ]
    assert len(deliveries) == len(events) == 5
    by_kind = {e.event_name: e.data for e in events}
    assert sorted(by_kind) == sorted(HOOK_KINDS)

    banned = by_kind["player.banned"]
    assert isinstance(banned, PlayerBanned)
    assert (banned.external_player_id, banned.reason, banned.actor["kind"]) == (
        ada,
        "testing hooks",
        "api_key",
    )
    assert banned.player_id.startswith("plr_")
    assert keys["server"].startswith(banned.actor["prefix"])
    unbanned = by_kind["player.unbanned"]
    assert isinstance(unbanned, PlayerUnbanned)
    assert (unbanned.player_id, unbanned.external_player_id, unbanned.actor) == (
        banned.player_id,
        ada,
        banned.actor,
    )
    purchase = by_kind["purchase.tracked"]
    assert isinstance(purchase, PurchaseTracked)
    assert (purchase.purchase_id, purchase.external_player_id, purchase.transaction_id) == (
        tracked.purchase.purchase_id,
        bob,
        tx,
    )
    assert (purchase.amount_minor, purchase.currency, purchase.normalized_amount_minor, purchase.fx_rate) == (
        999,
        "EUR",
        1079,
        1.08,
    )
    assert (purchase.validation_status, purchase.lifetime_amount_minor, purchase.purchase_count) == (
        "unverified",
        1079,
        1,
    )
    assert (purchase.purchased_at, purchase.metadata) == (
        tracked.purchase.purchased_at,
        {"campaign": "spring"},
    )
    merge = by_kind["player.merged"]
    assert isinstance(merge, PlayerMerged)
    assert (merge.from_external_player_id, merge.to_external_player_id, merge.to_player_id) == (
        bob,
        ada,
        banned.player_id,
    )
    assert (merge.anonymized_external_player_id, merge.merged_at) == (
        merged.anonymized_external_player_id,
        merged.merged_at,
    )
    assert merge.from_player_id == purchase.player_id
    erased = by_kind["player.deleted"]
    assert isinstance(erased, PlayerDeleted)
    # Sent before anonymization: the original id, and the placeholder the row now carries.
    assert (erased.player_id, erased.external_player_id, erased.reason, erased.anonymized_external_id) == (
        banned.player_id,
        ada,
        "test",
        deleted.anonymized_external_id,
    )


# --- Reused external ids and erased targets ------------------------------------------------------------


@pytest.fixture
def strict_server(live_server: LiveServer) -> Iterator[ServerClient]:
    """No retries, so a 500 fails at once instead of being retried with backoff."""
    with ServerClient(live_server.keys["test-server"], base_url=live_server.base_url, max_retries=0) as c:
        yield c


def _register(live_server: LiveServer, external_id: str) -> None:
    with SdkClient(live_server.keys["test-client"], base_url=live_server.base_url) as sdk:
        sdk.players.register(external_id)


def test_merge_of_a_reused_external_id(
    live_server: LiveServer, join: Callable[[], Member], strict_server: ServerClient
) -> None:
    ada, bob, reused = join(), join(), new_id("reused")
    _register(live_server, reused)
    assert strict_server.players.merge(reused, ada.id).status == "merged"
    # the original id became free (docs/reference/player-tools.md); a new player takes it
    _register(live_server, reused)
    assert strict_server.players.merge(reused, bob.id).status == "merged"


def test_erasure_of_a_reused_external_id(live_server: LiveServer, strict_server: ServerClient) -> None:
    reused = new_id("reused")
    _register(live_server, reused)
    assert strict_server.players.delete(reused, reason="test").status == "deleted"
    _register(live_server, reused)
    assert strict_server.players.delete(reused, reason="test").status == "deleted"


def test_merge_into_an_erased_target_named_by_its_original_id(
    join: Callable[[], Member], strict_server: ServerClient
) -> None:
    # docs/reference/player-tools.md: 422 for an erased target; 404 only for a player that never existed.
    ada, gone = join(), join()
    strict_server.players.delete(gone.id, reason="test")
    with pytest.raises(InvalidMergeError):
        strict_server.players.merge(ada.id, gone.id)


# --- Async ---------------------------------------------------------------------------------------------


async def test_async_player_tools(live_server: LiveServer) -> None:
    base = live_server.base_url
    ada, bob = new_id("async"), new_id("async")
    async with (
        AsyncSdkClient(live_server.keys["test-client"], base_url=base) as sdk,
        AsyncServerClient(live_server.keys["test-server"], base_url=base) as server,
    ):
        sdk.player_secret = (await sdk.players.register(ada)).player_secret
        await sdk.players.register(bob)
        assert (await server.players.profile(ada, limit=5)).player.external_player_id == ada

        assert (await server.players.ban(ada, reason="async ban")).applied is True
        with pytest.raises(PlayerBannedError):
            await sdk.purchases.track(ada, **buy(new_id("tx")))
        assert (await server.players.unban(ada)).applied is True
        tracked = await sdk.purchases.track(ada, **buy(new_id("tx"), 250))
        assert tracked.purchase.validation_status is ValidationStatusView.UNVERIFIED
        with pytest.raises(UnknownCurrencyError):
            await server.purchases.track(ada, **buy(new_id("tx"), 250, "CHF"))

        assert (await server.players.flag_debug(ada, reason="async qa")).reason == "async qa"
        assert (await server.purchases.player_spend(ada, windows=[1])).windows == [SpendWindow(1, 250, 1)]
        assert (await server.players.unflag_debug(ada)).debug is False

        outcome = await server.migration.players(
            [MigratePlayerRow(external_player_id=new_id("legacy"), idempotency_key=new_id("k"), name="Async")]
        )
        assert outcome.applied == 1
        wallet = await server.migration.wallet(
            [{"external_player_id": bob, "idempotency_key": new_id("w"), "economy_key": "coins", "amount": 9}]
        )
        assert wallet.applied == 1

        with pytest.raises(InvalidMergeError):
            await server.players.merge(ada, ada)
        merged = await server.players.merge(bob, ada)
        assert merged.status == "merged"
        exported = await server.players.export(ada)
        assert exported.wallet == [HoldingView(key="coins", amount=9)]
        assert [p.purchase_id for p in exported.purchases] == [tracked.purchase.purchase_id]

        deleted = await server.players.delete(ada, reason="test")
        assert deleted.status == "deleted"
        with pytest.raises(PlayerNotFoundError):
            await server.players.export(ada)


async def test_async_purchases_and_revenue(tool_games: ToolGames) -> None:
    keys = tool_games.keys["shop-async"]
    base = tool_games.base_url
    ada = new_id("async-shop")
    async with (
        AsyncSdkClient(keys["client"], base_url=base) as sdk,
        AsyncServerClient(keys["server"], base_url=base) as server,
    ):
        sdk.player_secret = (await sdk.players.register(ada)).player_secret
        ids = []
        for days_ago in (2, 1, 0):
            tracked = await server.purchases.track(
                ada, **buy(new_id("tx"), 1000, "EUR", purchased_at=START - timedelta(days=days_ago))
            )
            ids.append(tracked.purchase.purchase_id)
        from_sdk = await sdk.purchases.track(ada, **buy(new_id("tx"), 92))
        assert from_sdk.lifetime_amount_minor == 3332

        page = await server.purchases.list(ada, limit=3)
        assert page.next_cursor is not None
        rest = await server.purchases.list(ada, limit=3, cursor=page.next_cursor)
        assert rest.next_cursor is None
        walked = [p.purchase_id async for p in server.purchases.iter(ada, page_size=2)]
        assert walked == [p.purchase_id for p in page.purchases + rest.purchases]
        assert set(walked) == {*ids, from_sdk.purchase.purchase_id}
        assert walked[-2:] == [ids[1], ids[0]]  # newest first

        spend = await server.purchases.player_spend(ada, windows=(2,))
        assert (spend.lifetime_amount_minor, spend.windows) == (3332, [SpendWindow(2, 2252, 3)])
        spenders = await server.purchases.spend_players(min_amount_minor=3332)
        assert [s.external_player_id for s in spenders.players] == [ada]
        summary = await server.purchases.revenue_summary(from_=START.date())  # that UTC day until now
        assert (summary.gross_amount_minor, summary.purchase_count, summary.arppu_minor) == (1172, 2, 1172)
        assert summary.per_day[0].date == START.date().isoformat()
        whole = await server.purchases.revenue_summary(from_=START - timedelta(days=2), to=START)
        assert (whole.gross_amount_minor, whole.paying_players) == (3332, 1)
        with pytest.raises(ValueError, match="timezone-aware"):
            await server.purchases.revenue_summary(to=datetime(2026, 3, 2))
