"""The crate rules without a server (livecore/crates/rules.py, and the grant rules of
livecore/grants/rules.py that
crates add): the weighted draw, the merged contents, the limits of a crate grant, the refusal order of
opening and claiming by kind, and the wire forms of crate entries."""

from __future__ import annotations

import math
from collections import Counter
from datetime import UTC, datetime, timedelta

import attrs
import pytest

from livecore.api.convert import response_converter
from livecore.crates.errors import CRATE_MUST_BE_OPENED, NOT_A_CRATE
from livecore.crates.rules import (
    CRATE,
    MAX_DRAWS,
    CrateEntry,
    below_expected,
    check_crate_entries,
    contents,
    draw,
    expected,
)
from livecore.crates.settings import CRATE_SETTINGS, CrateRow, CrateSettings
from livecore.crates.webhooks import CrateOpened
from livecore.economy.errors import RESOURCE_NOT_FOUND
from livecore.errors import INVALID_REQUEST, Code, LivecoreError
from livecore.games import Economy, Entry, Game, GameSettings, Resource, ResourceType
from livecore.grants.api import RewardEntry
from livecore.grants.errors import GRANT_ALREADY_CLAIMED, GRANT_EXPIRED
from livecore.grants.rules import (
    EntryType,
    Grant,
    GrantKind,
    GrantStatus,
    GrantTrigger,
    transition,
    validate_entries,
)
from livecore.grants.webhooks import GrantCreated
from livecore.limits import MAX_AMOUNT
from livecore.rand import SeededRandomSource

T0 = datetime(2026, 5, 1, tzinfo=UTC)
COINS = Entry(ResourceType.CURRENCY, "coins", 50)
SWORD = Entry(ResourceType.ITEM, "sword", 1)
GOLD_SWORD = Entry(ResourceType.ITEM, "sword", 1, {"level": 5})
CHEST = CrateSettings(table=(CrateRow(70, (COINS,)), CrateRow(30, (SWORD,))), rolls=1)
BOX = CrateSettings(
    table=(CrateRow(6, (COINS,)), CrateRow(3, (SWORD, COINS)), CrateRow(1, ())),  # 1 in 10: nothing
    rolls=3,
)
GAME = Game(
    id="gam_1",
    studio_id="std_1",
    key="g",
    name="G",
    settings=GameSettings(
        economy=Economy.PLATFORM,
        resources={
            "coins": Resource("coins", ResourceType.CURRENCY),
            "sword": Resource("sword", ResourceType.ITEM),
        },
        sections={CRATE_SETTINGS: {"chest": CHEST, "box": BOX}},
    ),
)


class Fixed:
    """A random source that always answers ``value``."""

    def __init__(self, value: float) -> None:
        self.value = value

    def token_bytes(self, n: int) -> bytes:
        return bytes(n)

    def random(self) -> float:
        return self.value


def grant(kind: GrantKind = CRATE, status: GrantStatus = GrantStatus.PENDING, **kw: object) -> Grant:
    entries = (CrateEntry("chest", 1),) if kind is CRATE else (COINS,)
    return attrs.evolve(
        Grant(
            id="g1",
            player_id="plr_1",
            external_player_id="ann",
            game_id="gam_1",
            kind=kind,
            status=status,
            entries=entries,
            source_kind="api",
            source_ref_id=None,
            metadata={},
            created_at=T0,
        ),
        **kw,
    )


def refusal(trigger: GrantTrigger, g: Grant, now: datetime = T0) -> Code | None:
    try:
        transition(g, trigger, now)
    except LivecoreError as exc:
        return exc.code
    return None


# --- the draw -------------------------------------------------------------------------------------


def test_a_crate_is_expected_to_give_each_rows_rewards_by_its_chance_over_its_rolls() -> None:
    coins, sword = (ResourceType.CURRENCY, "coins"), (ResourceType.ITEM, "sword")
    assert expected(CHEST) == pytest.approx({coins: 0.7 * COINS.amount, sword: 0.3})
    assert expected(BOX) == pytest.approx({coins: 3 * 0.9 * COINS.amount, sword: 3 * 0.3})


def test_contents_are_below_expected_when_the_rewards_average_under_half_their_means() -> None:
    means = expected(CHEST)  # coins 0.7 x amount, a sword 0.3
    coins, sword = (ResourceType.CURRENCY, "coins"), (ResourceType.ITEM, "sword")
    assert not below_expected(means, {coins: COINS.amount})  # coins 1/0.7, no sword: 0.71 on average
    assert below_expected(means, {coins: COINS.amount // 2})  # 0.36 on average
    assert not below_expected(means, {sword: 1})  # a sword 1/0.3: 1.67 on average
    assert below_expected(means, {})
    assert not below_expected({}, {})  # a crate that gives nothing disappoints nobody


def test_a_fixed_seed_opens_the_same_contents_every_time() -> None:
    crates = [CrateEntry("box", 5), CrateEntry("chest", 3)]
    first = contents(GAME, crates, SeededRandomSource(42))
    assert contents(GAME, crates, SeededRandomSource(42)) == first
    # Another seed draws otherwise (the contents depend on the source, not on a constant).
    assert any(contents(GAME, crates, SeededRandomSource(seed)) != first for seed in range(5))


def test_weights_hold_over_100000_draws() -> None:
    """Each row's share of 100,000 draws is within 5 standard deviations of the binomial (n p (1 - p))**0.5
    of its expected count n * weight / total; with a fixed seed the test cannot flake, and a draw that
    ignored weights (a third each) would be thousands of deviations off."""
    table = (CrateRow(70, (COINS,)), CrateRow(25, (SWORD,)), CrateRow(5, ()))
    n, total = 100_000, 100
    rng = SeededRandomSource(2026)
    counts = Counter(id(draw(table, rng)) for _ in range(n))
    for row in table:
        p = row.weight / total
        tolerance = 5 * math.sqrt(n * p * (1 - p))
        assert abs(counts[id(row)] - n * p) <= tolerance, (row.weight, counts[id(row)])


def test_the_lowest_and_highest_random_values_pick_the_first_and_last_rows() -> None:
    table = (CrateRow(1, (COINS,)), CrateRow(1_000_000, (SWORD,)), CrateRow(1, ()))
    assert draw(table, Fixed(0.0)) is table[0]
    assert draw(table, Fixed(0.9999999999999999)) is table[-1]
    assert draw(table, Fixed(0.5)) is table[1]


def test_contents_draw_rolls_times_each_crate_and_merge_equal_rewards() -> None:
    # 0.0 always picks BOX's first row (coins): 2 boxes x 3 rolls = six draws of 50 coins, one entry.
    assert contents(GAME, [CrateEntry("box", 2)], Fixed(0.0)) == (attrs.evolve(COINS, amount=300),)


def test_merged_contents_keep_the_order_first_drawn() -> None:
    # 0.65 picks BOX's second row (sword then coins) each time: one sword entry, one coins entry.
    got = contents(GAME, [CrateEntry("box", 1)], Fixed(0.65))
    assert got == (attrs.evolve(SWORD, amount=3), attrs.evolve(COINS, amount=150))


def test_rewards_with_other_parameters_are_not_merged() -> None:
    game = attrs.evolve(
        GAME,
        settings=attrs.evolve(
            GAME.settings.with_sections(
                {CRATE_SETTINGS: {"c": CrateSettings(table=(CrateRow(1, (SWORD, GOLD_SWORD, SWORD)),))}}
            ),
        ),
    )
    assert contents(game, [CrateEntry("c", 1)], Fixed(0.0)) == (attrs.evolve(SWORD, amount=2), GOLD_SWORD)


def test_a_merged_reward_never_exceeds_the_most_one_change_may_carry() -> None:
    huge = Entry(ResourceType.CURRENCY, "coins", MAX_AMOUNT // 2 + 1)
    game = attrs.evolve(
        GAME,
        settings=attrs.evolve(
            GAME.settings.with_sections(
                {CRATE_SETTINGS: {"c": CrateSettings(table=(CrateRow(1, (huge,)),))}}
            ),
        ),
    )
    got = contents(game, [CrateEntry("c", 3)], Fixed(0.0))
    assert got == (huge, huge, huge) and all(e.amount <= MAX_AMOUNT for e in got)


def test_a_row_with_no_rewards_gives_nothing() -> None:
    assert contents(GAME, [CrateEntry("box", 4)], Fixed(0.95)) == ()


def test_contents_of_a_crate_no_longer_declared_is_resource_not_found() -> None:
    with pytest.raises(LivecoreError) as caught:
        contents(GAME, [CrateEntry("gone", 1)], Fixed(0.0))
    assert caught.value.code is RESOURCE_NOT_FOUND
    assert caught.value.details == {"crateKey": "gone"}


# --- a crate grant's entries ----------------------------------------------------------------------


def test_an_unknown_crate_is_resource_not_found_naming_the_entry() -> None:
    with pytest.raises(LivecoreError) as caught:
        check_crate_entries(GAME, [CrateEntry("chest", 1), CrateEntry("nope", 1)])
    assert caught.value.code is RESOURCE_NOT_FOUND
    assert caught.value.details == {"crateKey": "nope", "entry": 1}


def test_a_crate_grant_draws_at_most_max_draws_times() -> None:
    # box draws 3 times a crate, chest once: 333 boxes and one chest are exactly the limit.
    assert MAX_DRAWS == 1000
    check_crate_entries(GAME, [CrateEntry("box", 333), CrateEntry("chest", 1)])
    with pytest.raises(LivecoreError) as caught:
        check_crate_entries(GAME, [CrateEntry("box", 333), CrateEntry("chest", 2)])
    assert caught.value.code is INVALID_REQUEST


def test_a_crate_entry_in_a_reward_grant_is_refused() -> None:
    with pytest.raises(LivecoreError) as caught:
        validate_entries(GAME, GrantKind.REWARD, [COINS, CrateEntry("chest", 1)])
    assert caught.value.code is INVALID_REQUEST
    assert caught.value.details is not None and "entries[1].type" in caught.value.details["fields"]


def test_a_reward_entry_in_a_crate_grant_is_refused() -> None:
    with pytest.raises(LivecoreError) as caught:
        validate_entries(GAME, GrantKind("crate"), [CrateEntry("chest", 1), COINS])
    assert caught.value.code is INVALID_REQUEST
    assert caught.value.details is not None and "entries[1].type" in caught.value.details["fields"]


def test_a_crate_grants_entries_are_checked_as_crates() -> None:
    assert validate_entries(GAME, GrantKind("crate"), [CrateEntry("chest", 2)]) == (CrateEntry("chest", 2),)


# --- opening and claiming, by kind then by status -------------------------------------------------


@pytest.mark.parametrize("trigger", [GrantTrigger.CLAIM, GrantTrigger.ACK, GrantTrigger.FORCE_CLAIM])
@pytest.mark.parametrize("status", list(GrantStatus))
def test_a_crate_grant_is_never_claimed_only_opened(trigger: GrantTrigger, status: GrantStatus) -> None:
    assert refusal(trigger, grant(status=status)) is CRATE_MUST_BE_OPENED


@pytest.mark.parametrize("status", list(GrantStatus))
def test_opening_a_reward_grant_is_not_a_crate_whatever_its_status(status: GrantStatus) -> None:
    assert refusal(GrantTrigger.OPEN, grant(GrantKind.REWARD, status)) is NOT_A_CRATE


def test_opening_a_pending_crate_claims_it_for_the_client() -> None:
    opened, changed = transition(grant(), GrantTrigger.OPEN, T0)
    assert changed and opened.status is GrantStatus.CLAIMED
    assert opened.claimed_at == T0 and opened.acked_by is not None and opened.acked_by.value == "client"


def test_opening_an_opened_crate_is_grant_already_claimed() -> None:
    assert refusal(GrantTrigger.OPEN, grant(status=GrantStatus.CLAIMED)) is GRANT_ALREADY_CLAIMED


def test_opening_a_crate_past_its_expiry_is_grant_expired() -> None:
    due = grant(expires_at=T0 + timedelta(hours=1))
    assert refusal(GrantTrigger.OPEN, due, T0 + timedelta(hours=1)) is GRANT_EXPIRED
    assert refusal(GrantTrigger.OPEN, grant(status=GrantStatus.EXPIRED)) is GRANT_EXPIRED


def test_the_expiry_sweep_expires_a_crate_grant() -> None:
    expired, changed = transition(grant(), GrantTrigger.EXPIRE, T0)
    assert changed and expired.status is GrantStatus.EXPIRED


def test_a_crate_grant_credits_nothing_by_itself() -> None:
    assert grant().rewards == () and grant(GrantKind.REWARD).rewards == (COINS,)


# --- the wire -------------------------------------------------------------------------------------


def test_a_crate_entry_travels_as_type_crate() -> None:
    wire = RewardEntry.of(CrateEntry("chest", 2))
    assert wire.type is EntryType("crate")
    assert response_converter.unstructure(wire) == {"type": "crate", "key": "chest", "amount": 2}
    assert wire.to_entry() == CrateEntry("chest", 2)


def test_a_reward_entry_round_trips_with_a_resource_type() -> None:
    wire = RewardEntry(type=ResourceType.ITEM, key="sword", amount=1, parameters={"level": 5})
    assert wire.type is EntryType.ITEM
    assert wire.to_entry() == GOLD_SWORD and RewardEntry.of(GOLD_SWORD) == wire


def test_parameters_on_a_crate_entry_are_refused() -> None:
    with pytest.raises(LivecoreError) as caught:
        RewardEntry(type="crate", key="chest", amount=1, parameters={"a": 1}).to_entry(
            "entries[0].parameters"
        )
    assert caught.value.code is INVALID_REQUEST
    assert caught.value.details == {"fields": {"entries[0].parameters": "items only"}}


def test_the_crate_opened_payload_reads_back_with_crate_and_reward_entries() -> None:
    crate, _ = transition(grant(), GrantTrigger.OPEN, T0)
    box = grant(GrantKind.REWARD, GrantStatus.CLAIMED, id="g2", entries=(COINS, GOLD_SWORD))
    payload = CrateOpened.of(crate, box)
    wire = payload.to_wire()
    assert wire["crates"] == [{"key": "chest", "amount": 1, "type": "crate"}]
    assert wire["contentsGrantId"] == "g2" and wire["grantId"] == "g1"
    assert response_converter.structure(wire, CrateOpened) == payload


def test_a_crate_grants_grant_created_payload_reads_back_with_crate_entries() -> None:
    payload = GrantCreated.of(grant())
    back = response_converter.structure(payload.to_wire(), GrantCreated)
    assert back == payload and isinstance(back.entries[0], CrateEntry)
