"""The purchase rules (livecore.purchases.rules) and the purchase command on the in-memory store."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import attrs
import pytest

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.errors import IDEMPOTENCY_CONFLICT, INVALID_REQUEST, LivecoreError
from livecore.games import Game, GameSettings, Studio
from livecore.hashing import KeyedHasher
from livecore.memory import MemoryStore
from livecore.player_tools.commands.moderation import clear_debug, set_debug
from livecore.players.commands import first_contact
from livecore.purchases.commands import track
from livecore.purchases.errors import UNKNOWN_CURRENCY
from livecore.purchases.memory import PurchaseTables
from livecore.purchases.rules import (
    EXPONENTS,
    FUTURE_TOLERANCE,
    MAX_AMOUNT_MINOR,
    MAX_WINDOW_DAYS,
    MAX_WINDOWS,
    DayRevenue,
    PlayerSpend,
    ProductRevenue,
    Purchase,
    PurchaseRequest,
    RevenueSummary,
    ValidationStatus,
    Window,
    arppu,
    check_currency,
    check_replay,
    check_request,
    check_windows,
    normalize,
    player_spend,
    same_purchase,
    spenders,
    summarize,
    usd_rate,
    window_start,
)
from livecore.purchases.webhooks import PurchaseTracked
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
MS = timedelta(milliseconds=1)
RATES = {"EUR": 1.08, "JPY": 0.0067, "KWD": 3.25, "GBP": 1.27}


def request(**overrides: object) -> PurchaseRequest:
    base: dict[str, object] = {
        "transaction_id": "tx-1",
        "store": "apple",
        "product_id": "gems_100",
        "product_type": "consumable",
        "amount_minor": 499,
        "currency": "USD",
    }
    return PurchaseRequest(**{**base, **overrides})  # type: ignore[arg-type]


def purchase(
    n: int,
    *,
    player: str = "p1",
    amount: int = 100,
    at: datetime = NOW,
    product: str = "gems_100",
) -> Purchase:
    return Purchase(
        id=f"pur_{n:04d}",
        game_id="gam_1",
        env=Environment.TEST,
        player_id=f"plr_{player}",
        external_player_id=player,
        transaction_id=f"tx-{n}",
        store="apple",
        product_id=product,
        product_type="consumable",
        amount_minor=amount,
        currency="USD",
        normalized_amount_minor=amount,
        fx_rate=1.0,
        validation_status=ValidationStatus.UNVERIFIED,
        purchased_at=at,
        tracked_at=at,
    )


def field_of(exc: pytest.ExceptionInfo[LivecoreError]) -> set[str]:
    assert exc.value.code is INVALID_REQUEST
    assert exc.value.details is not None
    return set(exc.value.details["fields"])


# --- Normalisation -----------------------------------------------------------------------------------


def test_usd_is_always_known_at_rate_one_and_passes_through() -> None:
    assert usd_rate("USD", {}) == 1.0
    assert normalize(499, "USD", 1.0) == 499
    assert normalize(0, "USD", 1.0) == 0
    assert normalize(MAX_AMOUNT_MINOR, "USD", 1.0) == MAX_AMOUNT_MINOR


def test_two_decimal_currency_is_exact_decimal_arithmetic() -> None:
    # 10.00 EUR at 1.08 is exactly 10.80 USD (in floats 1000 * 1.08 is 1080.0000000000002).
    assert normalize(1000, "EUR", 1.08) == 1080
    # 9.99 EUR * 1.08 = 10.7892 USD -> 1078.92 cents -> 1079.
    assert normalize(999, "EUR", 1.08) == 1079
    assert normalize(1, "EUR", 1.08) == 1  # 1.08 cents
    assert normalize(123_456_789, "GBP", 1.27) == 156_790_122  # 156790122.03


def test_zero_decimal_currency_has_no_minor_unit() -> None:
    assert EXPONENTS["JPY"] == 0
    # 1000 yen at 0.0067 USD per yen = 6.70 USD.
    assert normalize(1000, "JPY", 0.0067) == 670
    # 120 yen = 0.804 USD = 80.4 cents -> 80.
    assert normalize(120, "JPY", 0.0067) == 80
    assert EXPONENTS["KRW"] == 0


def test_three_decimal_currency_counts_thousandths() -> None:
    assert EXPONENTS["KWD"] == 3
    # 1.000 KWD (1000 fils) at 3.25 USD = 325 cents.
    assert normalize(1000, "KWD", 3.25) == 325
    # 1.234 KWD * 3.25 = 4.0105 USD = 401.05 cents -> 401.
    assert normalize(1234, "KWD", 3.25) == 401
    assert EXPONENTS["BHD"] == 3 and EXPONENTS["OMR"] == 3


def test_rounding_is_half_to_even_on_exact_halves() -> None:
    # Exact halves of a cent, by decimal arithmetic: to the even neighbour.
    assert normalize(15, "EUR", 1.1) == 16  # 16.5 -> 16
    assert normalize(25, "EUR", 1.1) == 28  # 27.5 -> 28 (float: 27.500000000000004)
    assert normalize(5, "JPY", 0.001) == 0  # 0.5 -> 0
    assert normalize(15, "JPY", 0.001) == 2  # 1.5 -> 2
    assert normalize(25, "JPY", 0.001) == 2  # 2.5 -> 2
    assert normalize(35, "JPY", 0.001) == 4  # 3.5 -> 4
    assert normalize(5, "KWD", 1.0) == 0  # 0.005 KWD = 0.5 cent -> 0
    assert normalize(15, "KWD", 1.0) == 2  # 1.5 -> 2
    # Just off the half goes the near way.
    assert normalize(1001, "EUR", 0.0005) == 1  # 0.5005 -> 1


def test_unknown_currency_has_its_own_code_and_names_the_currency() -> None:
    with pytest.raises(LivecoreError) as exc:
        usd_rate("CHF", RATES)
    assert exc.value.code is UNKNOWN_CURRENCY
    assert exc.value.details == {"currency": "CHF"}
    assert usd_rate("EUR", RATES) == 1.08
    assert usd_rate("JPY", RATES) == 0.0067


@pytest.mark.parametrize("code", ["usd", "Eur", "jpY"])
def test_currency_codes_are_upper_cased(code: str) -> None:
    assert check_currency(code) == code.upper()


@pytest.mark.parametrize("code", ["", "US", "USDX", "U$D", "12A", "ÄBC", "US ", " US", "\u0391\u0392\u0393"])
def test_currency_code_must_be_three_ascii_letters(code: str) -> None:
    with pytest.raises(LivecoreError) as exc:
        check_currency(code)
    assert field_of(exc) == {"currency"}


# --- Request checks ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "wire"),
    [
        ("transaction_id", "transactionId"),
        ("store", "store"),
        ("product_id", "productId"),
        ("product_type", "productType"),
    ],
)
def test_blank_or_oversized_text_fields_are_refused_by_wire_name(field: str, wire: str) -> None:
    for value in ("", "   ", "\t", "x" * 201):
        with pytest.raises(LivecoreError) as exc:
            check_request(request(**{field: value}), NOW)
        assert field_of(exc) == {wire}
    assert getattr(check_request(request(**{field: "x" * 200}), NOW), field) == "x" * 200


def test_amount_must_be_from_zero_to_the_cap() -> None:
    for bad in (-1, MAX_AMOUNT_MINOR + 1):
        with pytest.raises(LivecoreError) as exc:
            check_request(request(amount_minor=bad), NOW)
        assert field_of(exc) == {"amountMinor"}
    assert check_request(request(amount_minor=0), NOW).amount_minor == 0
    assert check_request(request(amount_minor=MAX_AMOUNT_MINOR), NOW).amount_minor == MAX_AMOUNT_MINOR


def test_purchased_at_may_run_a_little_ahead_but_not_into_the_future() -> None:
    assert check_request(request(purchased_at=NOW + FUTURE_TOLERANCE), NOW).purchased_at is not None
    assert check_request(request(purchased_at=NOW - timedelta(days=400)), NOW).purchased_at is not None
    with pytest.raises(LivecoreError) as exc:
        check_request(request(purchased_at=NOW + FUTURE_TOLERANCE + MS), NOW)
    assert field_of(exc) == {"purchasedAt"}


def test_check_request_upper_cases_and_validates_the_currency() -> None:
    assert check_request(request(currency="eur"), NOW).currency == "EUR"
    with pytest.raises(LivecoreError) as exc:
        check_request(request(currency="euro"), NOW)
    assert field_of(exc) == {"currency"}


# --- Replays -----------------------------------------------------------------------------------------


def stored_from(req: PurchaseRequest, player_id: str = "plr_p1") -> Purchase:
    return attrs.evolve(
        purchase(1),
        player_id=player_id,
        transaction_id=req.transaction_id,
        store=req.store,
        product_id=req.product_id,
        product_type=req.product_type,
        amount_minor=req.amount_minor,
        currency=req.currency,
    )


def test_the_same_purchase_again_is_a_replay_answering_the_stored_one() -> None:
    req = request()
    stored = stored_from(req)
    assert same_purchase(stored, "plr_p1", req)
    assert check_replay(stored, "plr_p1", req) is stored
    # Metadata and purchasedAt are not what identifies a purchase.
    assert check_replay(stored, "plr_p1", attrs.evolve(req, metadata={"x": 1})) is stored


@pytest.mark.parametrize(
    ("player_id", "change"),
    [
        ("plr_p2", {}),
        ("plr_p1", {"store": "google"}),
        ("plr_p1", {"product_id": "gems_500"}),
        ("plr_p1", {"amount_minor": 500}),
        ("plr_p1", {"currency": "EUR"}),
    ],
)
def test_a_different_purchase_with_the_same_transaction_id_conflicts(
    player_id: str, change: dict[str, object]
) -> None:
    req = request()
    stored = stored_from(req)
    with pytest.raises(LivecoreError) as exc:
        check_replay(stored, player_id, attrs.evolve(req, **change))  # type: ignore[misc]
    assert exc.value.code is IDEMPOTENCY_CONFLICT
    assert exc.value.details == {"transactionId": "tx-1"}


# --- Windows and ARPPU -------------------------------------------------------------------------------


def test_windows_are_day_counts_within_bounds() -> None:
    assert check_windows([7, 30]) == (7, 30)
    assert check_windows([]) == ()
    assert check_windows([1, MAX_WINDOW_DAYS]) == (1, MAX_WINDOW_DAYS)
    assert check_windows(range(1, MAX_WINDOWS + 1)) == tuple(range(1, MAX_WINDOWS + 1))
    for bad in ([0], [-7], [MAX_WINDOW_DAYS + 1], list(range(1, MAX_WINDOWS + 2))):
        with pytest.raises(LivecoreError) as exc:
            check_windows(bad)
        assert field_of(exc) == {"windows"}


def test_window_start_is_days_before_now() -> None:
    assert window_start(NOW, 7) == NOW - timedelta(days=7)


def test_arppu_is_null_without_payers_and_rounds_half_up() -> None:
    assert arppu(0, 0) is None
    assert arppu(100, 1) == 100
    assert arppu(100, 3) == 33  # 33.33
    assert arppu(200, 3) == 67  # 66.67
    assert arppu(5, 2) == 3  # 2.5 -> 3 (half up, not half even)
    assert arppu(1, 2) == 1  # 0.5 -> 1
    assert arppu(9, 2) == 5  # 4.5 -> 5
    assert arppu(0, 4) == 0
    summary = RevenueSummary(5, 2, 2, (), ())
    assert summary.arppu_minor == 3
    assert RevenueSummary(0, 0, 0, (), ()).arppu_minor is None


# --- Aggregations ------------------------------------------------------------------------------------


def test_player_spend_of_nobody_is_zero_with_zero_windows() -> None:
    assert player_spend([], NOW, (7, 30)) == PlayerSpend(
        0, 0, None, None, (Window(7, 0, 0), Window(30, 0, 0))
    )


def test_player_spend_windows_start_exclusive_and_include_now() -> None:
    rows = [
        purchase(1, amount=1, at=NOW - timedelta(days=7)),  # exactly on the 7-day start: out
        purchase(2, amount=10, at=NOW - timedelta(days=7) + MS),  # just inside
        purchase(3, amount=100, at=NOW),  # now: inside
        purchase(4, amount=1000, at=NOW - timedelta(days=30)),  # on the 30-day start: out
        purchase(5, amount=10000, at=NOW - timedelta(days=29)),
    ]
    spend = player_spend(rows, NOW, (7, 30))
    assert spend.lifetime_amount_minor == 11111
    assert spend.purchase_count == 5
    assert spend.first_purchase_at == NOW - timedelta(days=30)
    assert spend.last_purchase_at == NOW
    assert spend.windows == (Window(7, 110, 2), Window(30, 10111, 4))


def test_spenders_threshold_inclusive_since_exclusive_highest_first() -> None:
    since = NOW - timedelta(days=7)
    rows = [
        purchase(1, player="ann", amount=500),
        purchase(2, player="ann", amount=500, at=NOW - timedelta(days=1)),
        purchase(3, player="bob", amount=999),
        purchase(4, player="bob", amount=5000, at=since),  # on the start: not counted
        purchase(5, player="cat", amount=1000),
        purchase(6, player="dan", amount=1000, at=NOW - timedelta(hours=2)),
    ]
    found = spenders(rows, 1000, since)
    assert [(s.external_player_id, s.amount_minor, s.purchase_count) for s in found] == [
        ("ann", 1000, 2),
        ("cat", 1000, 1),
        ("dan", 1000, 1),
    ]
    assert found[0].last_purchase_at == NOW and found[0].player_id == "plr_ann"
    lifetime = spenders(rows, 1000, None)
    assert [(s.external_player_id, s.amount_minor) for s in lifetime] == [
        ("bob", 5999),
        ("ann", 1000),
        ("cat", 1000),
        ("dan", 1000),
    ]
    assert lifetime[0].last_purchase_at == NOW
    assert spenders(rows, 0, None) == spenders(rows, 1, None)
    assert spenders(rows, 6000, None) == []


def test_summarize_includes_both_ends_and_breaks_down_by_product_and_utc_day() -> None:
    start = datetime(2026, 3, 1, tzinfo=UTC)
    end = datetime(2026, 3, 2, 23, 59, 59, 999000, tzinfo=UTC)
    rows = [
        purchase(1, player="ann", amount=1, at=start - MS),  # before: out
        purchase(2, player="ann", amount=100, at=start, product="a"),  # on the start: in
        purchase(3, player="bob", amount=300, at=datetime(2026, 3, 1, 23, 59, 59, 999000, tzinfo=UTC)),
        purchase(4, player="bob", amount=200, at=datetime(2026, 3, 2, tzinfo=UTC), product="a"),
        purchase(5, player="cat", amount=50, at=end, product="c"),  # on the end: in
        purchase(6, player="dan", amount=7, at=end + MS),  # after: out
    ]
    s = summarize(rows, start, end)
    assert (s.gross_amount_minor, s.purchase_count, s.paying_players) == (650, 4, 3)
    assert s.arppu_minor == 217  # 216.67
    assert s.per_product == (
        ProductRevenue("a", 300, 2),
        ProductRevenue("gems_100", 300, 1),  # ties: product id order
        ProductRevenue("c", 50, 1),
    )
    assert s.per_day == (DayRevenue(date(2026, 3, 1), 400, 2), DayRevenue(date(2026, 3, 2), 250, 2))


def test_summarize_of_nothing_has_null_arppu() -> None:
    s = summarize([purchase(1, at=NOW)], NOW + MS, NOW + timedelta(days=1))
    assert s == RevenueSummary(0, 0, 0, (), ())
    assert s.arppu_minor is None


def test_tracked_payload_has_every_spec_field() -> None:
    p = attrs.evolve(purchase(1), metadata={"campaign": "spring"})
    payload = PurchaseTracked.of(p, PlayerSpend(1234, 3, NOW, NOW)).to_wire()
    assert set(payload) == {
        "purchaseId",
        "playerId",
        "externalPlayerId",
        "transactionId",
        "store",
        "productId",
        "productType",
        "amountMinor",
        "currency",
        "normalizedAmountMinor",
        "fxRate",
        "validationStatus",
        "purchasedAt",
        "lifetimeAmountMinor",
        "purchaseCount",
        "metadata",
    }
    assert payload["lifetimeAmountMinor"] == 1234 and payload["purchaseCount"] == 3
    assert payload["validationStatus"] == "unverified"
    assert payload["purchasedAt"] == "2026-03-02T12:00:00.000Z"
    assert payload["metadata"] == {"campaign": "spring"}


# --- The command on the in-memory store --------------------------------------------------------------

TEST = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)
LIVE = Scope(studio_id="std_1", game_id="gam_1", env=Environment.LIVE)


@attrs.define
class Sim:
    store: MemoryStore
    rt: Runtime
    clock: ManualClock

    def track(self, external_id: str, scope: Scope = TEST, **overrides: object):  # type: ignore[no-untyped-def]
        with self.store.transaction() as tx:
            player = first_contact(tx, self.rt, scope, external_id, announce=False)
            return track(tx, self.rt, scope, player, request(**overrides))

    def kinds(self) -> list[str]:
        return [e.kind for e in self.store.outbox]


@pytest.fixture
def sim() -> Sim:
    store = MemoryStore()
    settings = GameSettings(exchange_rates=dict(RATES))
    store.add_game(
        Studio(id="std_1", key="acme"),
        Game(id="gam_1", studio_id="std_1", key="g", name="G", settings=settings),
    )
    clock = ManualClock(NOW)
    return Sim(store, Runtime(clock=clock, rng=SeededRandomSource(3), hasher=KeyedHasher(b"k" * 32)), clock)


def test_track_normalises_stores_and_fires_once(sim: Sim) -> None:
    done = sim.track("ann", amount_minor=1000, currency="eur", metadata={"a": 1})
    assert not done.replayed
    p = done.purchase
    assert (p.currency, p.amount_minor, p.normalized_amount_minor, p.fx_rate) == ("EUR", 1000, 1080, 1.08)
    assert p.purchased_at == NOW and p.tracked_at == NOW
    assert p.validation_status is ValidationStatus.UNVERIFIED
    assert (done.spend.lifetime_amount_minor, done.spend.purchase_count) == (1080, 1)
    assert sim.kinds() == ["purchase.tracked"]
    assert sim.store.outbox[0].data["normalizedAmountMinor"] == 1080
    sim.clock.advance(60)
    again = sim.track("ann", amount_minor=1000, currency="EUR")
    assert again.replayed and again.purchase == p
    assert again.spend.purchase_count == 1
    assert sim.kinds() == ["purchase.tracked"]


def test_track_conflict_and_unknown_currency_leave_nothing(sim: Sim) -> None:
    sim.track("ann")
    with pytest.raises(LivecoreError) as exc:
        sim.track("bob")
    assert exc.value.code is IDEMPOTENCY_CONFLICT
    with pytest.raises(LivecoreError) as exc:
        sim.track("ann", transaction_id="tx-2", currency="CHF")
    assert exc.value.code is UNKNOWN_CURRENCY
    assert len(sim.store.tables_of(PurchaseTables).purchases) == 1
    assert sim.kinds() == ["purchase.tracked"]


def test_debug_players_leave_revenue_reporting_retroactively_but_keep_their_own_spend(sim: Sim) -> None:
    sim.track("ann", transaction_id="t1", amount_minor=1000)
    sim.track("bob", transaction_id="t2", amount_minor=300)
    sim.track("bob", transaction_id="t3", amount_minor=300)
    sim.track("liv", LIVE, transaction_id="t4", amount_minor=9999)  # the other environment
    start, end = NOW - timedelta(days=1), NOW

    def report() -> tuple[list[tuple[str, int]], RevenueSummary]:
        with sim.store.transaction() as tx:
            found = tx.purchases.spenders("gam_1", Environment.TEST, 0, None, 50, 0)
            return [(s.external_player_id, s.amount_minor) for s in found], tx.purchases.revenue(
                "gam_1", Environment.TEST, start, end
            )

    found, summary = report()
    assert found == [("ann", 1000), ("bob", 600)]
    assert (summary.gross_amount_minor, summary.purchase_count, summary.paying_players) == (1600, 3, 2)
    with sim.store.transaction() as tx:
        set_debug(tx, sim.rt, tx.players.get("gam_1", "ann"), "qa")  # type: ignore[arg-type]
    found, summary = report()
    assert found == [("bob", 600)]
    assert (summary.gross_amount_minor, summary.purchase_count, summary.paying_players) == (600, 2, 1)
    assert summary.arppu_minor == 600
    with sim.store.transaction() as tx:
        ann = tx.players.get("gam_1", "ann")
        assert ann is not None
        assert tx.purchases.player_spend(ann.id, NOW, (7,)).lifetime_amount_minor == 1000
        # The debug player's spend keeps updating.
    sim.track("ann", transaction_id="t5", amount_minor=1)
    with sim.store.transaction() as tx:
        ann = tx.players.get("gam_1", "ann")
        assert ann is not None
        assert tx.purchases.player_spend(ann.id, NOW, (7,)).windows == (Window(7, 1001, 2),)
        clear_debug(tx, ann)
    found, summary = report()
    assert found == [("ann", 1001), ("bob", 600)]
    assert summary.gross_amount_minor == 1601


def test_memory_store_lists_newest_first_with_a_keyset(sim: Sim) -> None:
    for i in range(5):
        sim.track("ann", transaction_id=f"t{i}", purchased_at=NOW - timedelta(hours=5 - i))
    with sim.store.transaction() as tx:
        ann = tx.players.get("gam_1", "ann")
        assert ann is not None
        first = tx.purchases.page(ann.id, None, 2)
        assert [p.transaction_id for p in first] == ["t4", "t3"]
        rest = tx.purchases.page(ann.id, (first[-1].purchased_at, first[-1].id), 10)
        assert [p.transaction_id for p in rest] == ["t2", "t1", "t0"]
