"""A known population played through the real server, for ``livecore-server population`` to fit back
(tests/server/test_cli_population.py).

The game ``duel`` (platform-managed, a ``coins`` currency, one event ``race`` open all day every day,
scored by ``score`` against a target of 1,000) is added to the shared test manifest; its players play in
the live environment through its keys, and the manual clock moves through the dev route with the test
server key, running the scheduled work on the way, as a studio's test harness drives a server.

Each player of a segment registers at the season's start and plays its first session there (once the
players are friends), then draws its other sessions over the days at random times from its
``sessions_per_day``, on ten-minute ticks: the first session opens its life on record, and the rate draws
those after it. A session opens with the presence heartbeat, as a client does; on the player's first
session of a day the studio's backend credits it ``CREDIT`` coins; it plays the event by its ``events``
chance, ``attempts`` attempts one after the other, each scored near its skill (a score placed on the
event's default range, 0 to 1,500); sends a coin to one of its two friends (a ring of the players made at
the start) by its ``gifts`` chance; buys the studio's gem pack by ``OFFER_BUY`` when it holds its price
(a debit of ``OFFER_PRICE`` coins with the reason ``offer:gems``, then the studio's backend grants
``OFFER_GEMS`` gems with that ``sourceRefId``, as livecore/grants/offers.py sells an offer); and spends by
its ``spend`` chance the ``spend_share`` of its coins. Nothing is drawn but from the seed: the same seed
plays the same history (the shop's draws from a stream of their own, so the rest is drawn as without it).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from datetime import timedelta

import attrs

from tests.conftest import START, World

GAME = "duel"
CREDIT = 1000
#: The studio's gem pack: its reason, its price in coins, the gems it gives, a session's chance to buy it.
#: Its price is a hundredth of a day's credit, so a session is seldom short of it (3 were of 1,281): one
#: short buys nothing, which the fit reads as a lower chance.
OFFER = "offer:gems"
OFFER_PRICE = 10
OFFER_GEMS = 5
OFFER_BUY = 0.1
#: A score's noise around the player's skill, attempt by attempt.
NOISE = 0.05
#: The event's default range (livecore.live_events.season.default_scale): 1.5 times its target.
BEST = 1500

DUEL = """
[games.duel]
name = "Duel"
economy = "platform"

[games.duel.gifting]
enabled = true
cooldown_seconds = 60
daily_send_limit = 50

[games.duel.resources.coins]
type = "currency"
giftable = true

[games.duel.resources.gems]
type = "currency"

[games.duel.events.race]
name = "Race"
starts_at = "2026-03-01T00:00:00Z"
window_seconds = 86400
repeat_every_seconds = 86400
attempt_seconds = 300
score_metric = "score"
target = 1000

[games.duel.api_keys.client]
env = "live"
permission = "client_sdk"
rate_limits = { sdk_read = 100000, sdk_write = 100000 }

[games.duel.api_keys.server]
env = "live"
permission = "server_integration"
rate_limits = { server_api = 100000 }
"""


@attrs.frozen
class Segment:
    name: str
    share: float
    sessions_per_day: float
    skill: float
    skill_sd: float
    events: float
    attempts: int
    spend: float
    spend_share: float
    gifts: float


#: Two well-separated segments.
KNOWN = (
    Segment("keen", 0.3, 4.0, 0.75, 0.08, events=0.9, attempts=3, spend=0.5, spend_share=0.7, gifts=0.6),
    Segment("light", 0.7, 0.8, 0.35, 0.08, events=0.5, attempts=1, spend=0.1, spend_share=0.3, gifts=0.15),
)


@attrs.define
class _Player:
    name: str
    segment: Segment
    skill: float
    secret: str = ""
    coins: int = 0
    credited_day: int = -1
    friends: list[str] = attrs.Factory(list)


def _poisson(rng: random.Random, mean: float) -> int:
    limit, count, product = math.exp(-mean), 0, rng.random()
    while product > limit:
        count += 1
        product *= rng.random()
    return count


class Driver:
    """Plays ``players`` players of ``segments`` for ``days`` days through ``world``'s server."""

    def __init__(
        self, world: World, segments: Sequence[Segment] = KNOWN, *, players: int, days: int, seed: int = 1
    ) -> None:
        self.world, self.days = world, days
        self.rng = random.Random(seed)
        self.shop = random.Random(f"shop:{seed}")
        self.sessions = 0  # played
        self.sales = 0  # of the gem pack
        self.players: list[_Player] = []
        self.spends = 0
        for segment in segments:
            for _ in range(round(players * segment.share)):
                skill = min(1.0, max(0.0, self.rng.gauss(segment.skill, segment.skill_sd)))
                self.players.append(_Player(f"p{len(self.players):04d}", segment, skill))
        game = world.applied["games"][GAME]
        self.client = game["apiKeys"]["client"]["secret"]
        self.server = game["apiKeys"]["server"]["secret"]

    async def play(self) -> None:
        """The whole season: every player's launch at the start, then each tick's sessions; the clock
        ends ``days`` days after the start (the buffered activity written)."""
        for player in self.players:
            status, body, _ = await self.world.call(
                "POST", f"/sdk/v1/players/{player.name}/register", key=self.client
            )
            assert status == 201, body
            player.secret = body["data"]["playerSecret"]
        await self.befriend()
        for player in self.players:
            await self.session(player, 0)  # the install's first launch, the life's first session
        ticks: dict[int, list[_Player]] = {}
        per_day = 24 * 6
        for player in self.players:
            count = _poisson(self.rng, player.segment.sessions_per_day * self.days)
            for _ in range(count):
                ticks.setdefault(self.rng.randrange(1, per_day * self.days), []).append(player)
        at = 0
        for tick in sorted(ticks):
            await self.advance((tick - at) * 600)
            at = tick
            for player in ticks[tick]:
                await self.session(player, tick // per_day)
        await self.advance((per_day * self.days - at) * 600)
        assert self.world.clock.now() == START + timedelta(days=self.days)

    async def befriend(self) -> None:
        """Friends in a ring of the players in a drawn order: each has two."""
        ring = list(self.players)
        self.rng.shuffle(ring)
        for one, other in zip(ring, ring[1:] + ring[:1], strict=True):
            asked = await self.sdk(one, "/friends/requests", {"externalPlayerId": other.name})
            request_id = asked["request"]["requestId"]  # type: ignore[index]
            await self.sdk(other, f"/friends/requests/{request_id}/accept", None)
            one.friends.append(other.name)
            other.friends.append(one.name)

    async def advance(self, seconds: int) -> None:
        if seconds > 0:
            status, body, _ = await self.world.call(
                "POST", "/server/v1/dev/clock/advance", json={"seconds": seconds}
            )
            assert status == 200, body

    async def sdk(self, player: _Player, path: str, json: object) -> object:
        status, body, _ = await self.world.call(
            "POST", f"/sdk/v1/players/{player.name}{path}", key=self.client, json=json, secret=player.secret
        )
        assert status in (200, 201), (path, body)
        return body["data"]

    async def session(self, player: _Player, day: int) -> None:
        rng, segment = self.rng, player.segment
        self.sessions += 1
        await self.sdk(player, "/presence", {"status": "playing"})
        if player.credited_day != day:
            player.credited_day = day
            status, body, _ = await self.world.call(
                "POST",
                f"/server/v1/players/{player.name}/wallet/coins/credit",
                key=self.server,
                json={"amount": CREDIT, "idempotencyKey": f"credit-{player.name}-{day}"},
            )
            assert status == 200, body
            player.coins += CREDIT
        if rng.random() < segment.events:
            for _ in range(segment.attempts):
                started = await self.sdk(player, "/events/race/start", None)
                attempt = started["attempt"]["attemptId"]  # type: ignore[index]
                skill = min(1.0, max(0.0, rng.gauss(player.skill, NOISE)))
                metrics = {"score": round(skill * BEST)}
                await self.sdk(
                    player,
                    f"/events/race/attempts/{attempt}/progress",
                    {"metrics": metrics, "complete": True},
                )
        if rng.random() < segment.gifts:
            gift = {"type": "currency", "resourceKey": "coins", "amount": 1}
            to = rng.choice(player.friends)
            status, body, _ = await self.world.call(
                "POST",
                f"/sdk/v1/players/{player.name}/friends/gifts",
                key=self.client,
                json={**gift, "externalPlayerId": to},
                secret=player.secret,
            )
            # Two sessions of a tick (one on record) may pick one friend twice: the second waits out
            # the cooldown, refused, as a client's would be.
            assert status == 201 or body["error"]["code"] == "gift_cooldown", body
        if self.shop.random() < OFFER_BUY and player.coins >= OFFER_PRICE:
            await self.sell(player)
        if rng.random() < segment.spend:
            amount = int(player.coins * segment.spend_share)
            if amount > 0:
                self.spends += 1
                body = {"amount": amount, "reason": "spend", "idempotencyKey": f"spend-{self.spends}"}
                await self.sdk(player, "/wallet/coins/debit", body)
                player.coins -= amount

    async def sell(self, player: _Player) -> None:
        """The gem pack's sale: the player's debit of its price, then the studio backend's grant."""
        self.sales += 1
        key = f"sale-{self.sales}"
        await self.sdk(
            player, "/wallet/coins/debit", {"amount": OFFER_PRICE, "reason": OFFER, "idempotencyKey": key}
        )
        player.coins -= OFFER_PRICE
        gems = {"type": "currency", "key": "gems", "amount": OFFER_GEMS}
        status, body, _ = await self.world.call(
            "POST",
            f"/server/v1/players/{player.name}/grants",
            key=self.server,
            json={"entries": [gems], "sourceRefId": OFFER, "idempotencyKey": key},
        )
        assert status == 201, body
