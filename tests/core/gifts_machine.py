"""A hypothesis state machine over the gift commands against a simple model, for any store.

Each step's outcome (applied, or the refusal code) must be the model's, which encodes the documented
refusal order of ``livecore.gifts.rules``. Invariants: balances equal the model's and never go
below zero; coins are conserved (balances + coins inside unclaimed gifts + coins of gifts that expired
unclaimed = what was minted); a gift is claimed exactly when its grant is; no two gifts of one sender
to one friend inside the cooldown; nobody sends more than the daily limit in a UTC day.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import attrs
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.economy.commands import change
from livecore.economy.rules import Reason, resource
from livecore.errors import LivecoreError
from livecore.games import Economy, GameSettings, Resource, ResourceType
from livecore.gifts import commands as cmd
from livecore.gifts.rules import GiftStatus, SendRequest, day_start
from livecore.gifts.settings import GIFT_RESOURCE, GIFTING_SETTINGS, GiftingSettings, GiftResource
from livecore.grants.commands import expire_grants, settle
from livecore.grants.rules import GrantStatus, GrantTrigger
from livecore.hashing import KeyedHasher
from livecore.players.commands import first_contact, load_game
from livecore.rand import SeededRandomSource
from livecore.scope import Scope

PLAYERS = ("a", "b", "c", "d")
FRIENDS = {frozenset(p) for p in (("a", "b"), ("b", "c"), ("c", "d"), ("a", "c"))}
START_COINS = 10
COOLDOWN = 3_600
DAILY_LIMIT = 3
EXPIRY = 7_200
MAX = {"coins": 5, "gems": 3}
# A platform-managed game: coins cost the sender, gems are minted.
SETTINGS = GameSettings(
    economy=Economy.PLATFORM,
    sections={
        GIFTING_SETTINGS: GiftingSettings(
            enabled=True, cooldown_seconds=COOLDOWN, daily_send_limit=DAILY_LIMIT, claim_expiry_seconds=EXPIRY
        )
    },
    resources={
        "coins": Resource(
            "coins",
            ResourceType.CURRENCY,
            parts={GIFT_RESOURCE: GiftResource(giftable=True, max_per_gift=5, costs_sender=True)},
        ),
        "gems": Resource(
            "gems", ResourceType.CURRENCY, parts={GIFT_RESOURCE: GiftResource(giftable=True, max_per_gift=3)}
        ),
    },
)
# The same settings as a manifest, for stores configured by ``apply``.
MANIFEST_GAME = f"""
economy = "platform"
[games.g.gifting]
enabled = true
cooldown_seconds = {COOLDOWN}
daily_send_limit = {DAILY_LIMIT}
claim_expiry_seconds = {EXPIRY}
[games.g.resources.coins]
type = "currency"
giftable = true
max_per_gift = 5
costs_sender = true
[games.g.resources.gems]
type = "currency"
giftable = true
max_per_gift = 3
"""

StoreFactory = Callable[[], tuple[Any, Scope]]  # a store with a game configured as SETTINGS


@attrs.define
class ModelGift:
    id: str
    grant_id: str
    sender: str
    recipient: str
    key: str
    amount: int
    sent_at: datetime
    idem: str | None
    claimed: bool = False


def make_machine(factory: StoreFactory) -> type[RuleBasedStateMachine]:
    class GiftsMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.store, self.scope = factory()
            self.clock = ManualClock(datetime(2026, 3, 2, 22, 0, tzinfo=UTC))
            self.rt = Runtime(clock=self.clock, rng=SeededRandomSource(9), hasher=KeyedHasher(b"g" * 32))
            self.balances = {p: {"coins": START_COINS, "gems": 0} for p in PLAYERS}
            self.gifts: list[ModelGift] = []
            with self.store.transaction() as tx:
                game = load_game(tx, self.scope)
                for p in PLAYERS:
                    player = first_contact(tx, self.rt, self.scope, p)
                    coins = resource(game, "coins")
                    change(tx, self.rt, self.scope, game, player, coins, START_COINS, Reason.SERVER_CREDIT)
                ids = {p: tx.players.get(self.scope.game_id, p).id for p in PLAYERS}
                for pair in FRIENDS:
                    x, y = sorted(pair)
                    tx.friends.insert_friendship(ids[x], ids[y], self.clock.now())

        def run(self, fn: Callable[[Any], Any]) -> tuple[Any, str | None]:
            try:
                with self.store.transaction() as tx:
                    return fn(tx), None
            except LivecoreError as exc:
                return None, exc.code.value

        def player(self, tx: Any, p: str) -> Any:
            return tx.players.get(self.scope.game_id, p)

        def expired(self, g: ModelGift) -> bool:
            return not g.claimed and self.clock.now() >= g.sent_at + timedelta(seconds=EXPIRY)

        # --- the model's answer to a send -------------------------------------------------------
        def expected_send(
            self, x: str, y: str, key: str, amount: int, idem: str | None
        ) -> str | ModelGift | None:
            now = self.clock.now()
            earlier = next(
                (g for g in self.gifts if g.sender == x and idem is not None and g.idem == idem), None
            )
            if earlier is not None:
                same = (earlier.recipient, earlier.key, earlier.amount) == (y, key, amount)
                return earlier if same else "idempotency_conflict"
            if x == y or frozenset((x, y)) not in FRIENDS:
                return "not_friends"
            if not 1 <= amount <= MAX[key]:
                return "gift_amount_invalid"
            cooldown = now - timedelta(seconds=COOLDOWN)
            if any(g.sender == x and g.recipient == y and g.sent_at > cooldown for g in self.gifts):
                return "gift_cooldown"
            if sum(1 for g in self.gifts if g.sender == x and g.sent_at >= day_start(now)) >= DAILY_LIMIT:
                return "gift_limit_reached"
            if key == "coins" and self.balances[x]["coins"] < amount:
                return "gift_insufficient_balance"
            return None

        # --- rules -------------------------------------------------------------------------------
        @rule(
            x=st.sampled_from(PLAYERS),
            y=st.sampled_from(PLAYERS),
            key=st.sampled_from(("coins", "gems")),
            amount=st.integers(-1, 6),
            idem=st.sampled_from((None, None, "k1", "k2")),
        )
        def send(self, x: str, y: str, key: str, amount: int, idem: str | None) -> None:
            expected = self.expected_send(x, y, key, amount, idem)
            request = SendRequest(ResourceType.CURRENCY, key, amount, idempotency_key=idem)

            def act(tx: Any) -> Any:
                game = load_game(tx, self.scope)
                return cmd.send(
                    tx, self.rt, self.scope, game, self.player(tx, x), self.player(tx, y), request
                )

            sent, code = self.run(act)
            if isinstance(expected, str):
                assert code == expected, (code, expected)
                return
            assert code is None, code
            if isinstance(expected, ModelGift):
                assert sent.replayed and sent.gift.id == expected.id
                return
            assert not sent.replayed
            self.gifts.append(
                ModelGift(sent.gift.id, sent.gift.grant_id, x, y, key, amount, self.clock.now(), idem)
            )
            if key == "coins":
                self.balances[x]["coins"] -= amount

        @precondition(lambda self: bool(self.gifts))
        @rule(data=st.data(), by_recipient=st.booleans(), through_grant=st.booleans())
        def claim(self, data: st.DataObject, by_recipient: bool, through_grant: bool) -> None:
            g = data.draw(st.sampled_from(self.gifts))
            who = g.recipient if by_recipient else g.sender
            if not by_recipient:
                expected: str | None = "grant_not_found" if through_grant else "gift_not_found"
            elif g.claimed:
                expected = "gift_already_claimed"
            elif self.expired(g):
                expected = "gift_expired"
            else:
                expected = None

            def act(tx: Any) -> Any:
                player = self.player(tx, who)
                if through_grant:
                    return settle(tx, self.rt, self.scope, player, g.grant_id, GrantTrigger.CLAIM)
                return cmd.claim(tx, self.rt, self.scope, player, g.id)

            _, code = self.run(act)
            assert code == expected, (code, expected)
            if expected is None:
                g.claimed = True
                self.balances[g.recipient][g.key] += g.amount

        @rule(seconds=st.sampled_from((60, 1_800, 3_600, 7_200, 30_000, 86_400)))
        def advance(self, seconds: int) -> None:
            self.clock.advance(seconds)

        @rule()
        def sweep(self) -> None:
            self.run(lambda tx: expire_grants(tx, self.rt))

        # --- invariants --------------------------------------------------------------------------
        @invariant()
        def balances_match_and_never_go_negative(self) -> None:
            with self.store.transaction() as tx:
                for p in PLAYERS:
                    pid = self.player(tx, p).id
                    for key in ("coins", "gems"):
                        held = tx.ledger.holding(pid, key).amount
                        assert held == self.balances[p][key] >= 0, (p, key, held)
                        assert sum(e.delta for e in tx.ledger.entries(pid, key)) == held

        @invariant()
        def coins_are_conserved(self) -> None:
            held = sum(b["coins"] for b in self.balances.values())
            inside = sum(g.amount for g in self.gifts if g.key == "coins" and not g.claimed)
            assert held + inside == START_COINS * len(PLAYERS)

        @invariant()
        def a_gift_is_claimed_exactly_when_its_grant_is(self) -> None:
            with self.store.transaction() as tx:
                for g in self.gifts:
                    gift = tx.gifts.get(self.scope.game_id, g.id)
                    grant = tx.grants.get(self.scope.game_id, g.grant_id)
                    assert (gift.status is GiftStatus.CLAIMED) == g.claimed
                    assert (grant.status is GrantStatus.CLAIMED) == g.claimed

        @invariant()
        def cooldown_and_daily_limit_hold(self) -> None:
            by_pair: dict[tuple[str, str], list[datetime]] = {}
            by_day: dict[tuple[str, Any], int] = {}
            for g in self.gifts:
                by_pair.setdefault((g.sender, g.recipient), []).append(g.sent_at)
                day = (g.sender, g.sent_at.date())
                by_day[day] = by_day.get(day, 0) + 1
            for times in by_pair.values():
                assert all(b - a >= timedelta(seconds=COOLDOWN) for a, b in itertools.pairwise(times))
            assert all(n <= DAILY_LIMIT for n in by_day.values())

    return GiftsMachine
