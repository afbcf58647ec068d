"""The gifts' part of a simulated season (docs/simulation.md#playing-a-season): a segment's ``gifts``, the
gifts a session sends to friends (a friend the player knows of, from the friends' driver; what its
segment's ``gift`` says it gifts, else any giftable resource, an amount up to its ``max_per_gift``), and
the claim of the gifts a player received, as it claims its grants. A gift's grant is claimed as the gift,
not as a pending grant.

``gifts`` up to 1 is a session's chance to send one gift; above it, the mean count a session sends (2.5:
two, and a third by half the time), each to another friend. A player sends only what it knows the rules
allow: to a friend it has not gifted within the game's ``cooldown_seconds``, and no more in a UTC day than
its ``daily_send_limit`` (it stops there); it claims no gift past its expiry."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

import attrs

from livecore.friends.season import FriendsDriver
from livecore.games import GameSettings, Resource
from livecore.gifts.rules import GIFT_SOURCE_KIND
from livecore.gifts.settings import GIFT_RESOURCE, GIFTING_SETTINGS
from livecore.limits import MAX_AMOUNT
from livecore.simulation.fields import CHANCE, Problems, key, table, unknown, value, written
from livecore.simulation.part import (
    Driver,
    Fit,
    FitPeriod,
    Member,
    Play,
    Rate,
    SeasonPart,
    SegmentTable,
    Tallies,
)

#: A session's gifts: up to 1, its chance to send one; above, the mean count it sends (:func:`count`).
GIFTS = Rate("gifts", 0.3, {"engaged": 0.5, "regular": 0.3, "casual": 0.1}, bounds=(0.0, 20.0))

_DAY = 86_400.0
_AMOUNT = (1.0, float(MAX_AMOUNT))


@attrs.frozen
class Gifted:
    """What a segment gifts of one resource (``gift = { coins = 5 }``): ``amount`` a gift (a number: a
    fractional one is played as the whole amounts either side of it, so a gift's mean is the amount) and
    its ``share``, how often a gift is of it, relative to the segment's other resources' (a gift is of a
    resource by its share over their sum)."""

    amount: float
    share: float = 1.0

    def drawn(self, rng: random.Random) -> int:
        """A gift's amount: the whole part, and one more by the fraction's chance (no draw when whole)."""
        whole = math.floor(self.amount)
        return whole + 1 if self.amount > whole and rng.random() < self.amount - whole else whole


def count(gifts: float, rng: random.Random) -> int:
    """The gifts a session sends, of mean ``gifts``: its whole part, and one more by the fraction's chance
    (so up to 1 it is the chance of one gift)."""
    whole = math.floor(gifts)
    return whole + 1 if rng.random() < gifts - whole else whole


def _giftable(settings: GameSettings) -> list[Resource]:
    """The game's giftable resources, in its order."""
    return [r for r in settings.resources.values() if r.of(GIFT_RESOURCE).giftable]


def _parse_gift(raw: Any, path: str, problems: Problems) -> dict[str, Gifted] | None:
    found = table(raw, path, problems)
    if found is None:
        return None
    if not found:
        problems[path] = "must name a giftable resource (`gifts = 0` sends none)"
        return None
    before = len(problems)
    out: dict[str, Gifted] = {}
    for name, given in found.items():
        gifted = _gifted(name, given, f"{path}.{name}", problems)
        if gifted is not None:
            out[name] = gifted
    return out if len(problems) == before else None


def _gifted(name: str, given: Any, path: str, problems: Problems) -> Gifted | None:
    """A resource of ``gift``: an amount, or ``{ amount, share }``."""
    if not key(name, path, problems):
        return None
    if not isinstance(given, dict):
        return Gifted(float(given)) if _amount(given, path, problems) else None
    unknown(given, {"amount", "share"}, path, problems)
    if "amount" not in given:
        problems[f"{path}.amount"] = "is required"
        return None
    share = given.get("share", 1.0)
    amount_ok = _amount(given["amount"], f"{path}.amount", problems)
    share_ok = value(share, "number", CHANCE, f"{path}.share", problems)
    if share_ok and share == 0:
        problems[f"{path}.share"] = "must be above 0 (leave the resource out to gift none of it)"
        share_ok = False
    return Gifted(float(given["amount"]), float(share)) if amount_ok and share_ok else None


def _amount(found: Any, path: str, problems: Problems) -> bool:
    """Whether ``found`` is an amount a gift: a number from 1 to the most one change moves."""
    if value(found, "number", _AMOUNT, path, problems):
        return True
    problems[path] = f"must be a number from 1 to {MAX_AMOUNT:,}"
    return False


def _check_gift(found: Mapping[str, Gifted], settings: GameSettings, path: str, problems: Problems) -> None:
    """Each resource named must be giftable in the game, its amount at most its ``max_per_gift``."""
    declared = {r.key: r.of(GIFT_RESOURCE) for r in _giftable(settings)}
    for name, gifted in found.items():
        if name not in declared:
            known = ", ".join(sorted(declared)) or "none"
            problems[f"{path}.{name}"] = (
                f"is not a giftable resource of the game (its giftable resources: {known})"
            )
            continue
        most = declared[name].max_per_gift
        if most is not None and gifted.amount > most:
            problems[f"{path}.{name}"] = (
                f"gifts {gifted.amount:g} a gift, over the resource's max_per_gift ({most:,})"
            )


def _write_gift(found: Mapping[str, Gifted]) -> str:
    def one(gifted: Gifted) -> str:
        amount = written(gifted.amount, gifted.amount.is_integer())
        if gifted.share == 1.0:
            return amount
        return f"{{ amount = {amount}, share = {written(gifted.share)} }}"

    return "{ " + ", ".join(f"{name} = {one(gifted)}" for name, gifted in found.items()) + " }"


#: What a segment gifts: each resource by key, its amount a gift and how often a gift is of it
#: (:class:`Gifted`). Without it a gift is of any giftable resource, 1 to its ``max_per_gift`` (10 where
#: it has none).
GIFT = SegmentTable("gift", parse=_parse_gift, write=_write_gift, check=_check_gift)


class _Gifts(Driver):
    """The gifts each player was sent and has not claimed yet, and what each knows of its own gifts sent:
    when it last gifted each friend, and how many it sent on its latest UTC day."""

    def __init__(self, play: Play) -> None:
        self.play = play
        self.friends = play.driver(FriendsDriver)
        self.giftable = _giftable(play.settings)
        self.settings = play.settings.of(GIFTING_SETTINGS)
        # member index -> (gift id, when it expires in season seconds, None: never) sent to it, unclaimed
        self.received: dict[int, list[tuple[str, float | None]]] = {}
        self.gifted: dict[tuple[int, int], int] = {}  # (sender, friend) -> when it last gifted it
        self.today: dict[int, tuple[date, int]] = {}  # member index -> (a UTC day, gifts sent on it)

    def claim(self, member: Member) -> None:
        now = self.play.elapsed
        for gift_id, expires in self.received.pop(member.index, ()):
            if expires is not None and now >= expires:
                continue  # expired: the rules refuse its claim
            if self.play.act("gifts.claim", member.handle.gifts.claim, gift_id) is not None:
                self.play.rewarded(member)

    def session(self, member: Member) -> None:
        play, rng = self.play, self.play.rng
        friends = self.friends.friends_of(member)
        if not (friends and self.giftable):
            return
        for _ in range(count(member.segment.rate(GIFTS), rng)):
            ready = self._ready(member, friends)
            if not ready or not self._send(member, play.member(rng.choice(ready))):
                return

    def _ready(self, member: Member, friends: Mapping[int, None]) -> list[int]:
        """The friends the member may gift now, as it knows: none once it sent its day's limit, else those
        it has not gifted within the cooldown."""
        limit = self.settings.daily_send_limit
        day, sent = self.today.get(member.index, (None, 0))
        if limit is not None and day == self._day() and sent >= limit:
            return []
        since = self.play.elapsed - self.settings.cooldown_seconds
        return [f for f in friends if self.gifted.get((member.index, f), since) <= since]

    def _day(self) -> date:
        return (self.play.start + timedelta(seconds=self.play.elapsed)).date()

    def _send(self, member: Member, friend: Member) -> bool:
        """A gift of what the member's segment gifts sent to ``friend``; whether it was sent."""
        play, rng = self.play, self.play.rng
        gift: Mapping[str, Gifted] | None = member.segment.table(GIFT)
        if gift is None:
            resource = rng.choice(self.giftable)
            amount = rng.randint(1, resource.of(GIFT_RESOURCE).max_per_gift or 10)
        else:
            chosen = rng.choices(list(gift), [g.share for g in gift.values()])[0]
            resource, amount = play.settings.resources[chosen], gift[chosen].drawn(rng)
        sent = play.act(
            "gifts.send",
            member.handle.gifts.send,
            type=resource.type,
            resource_key=resource.key,
            amount=amount,
            external_player_id=friend.handle,
        )
        if sent is None:
            return False
        self.gifted[member.index, friend.index] = play.elapsed
        day, count = self.today.get(member.index, (None, 0))
        today = self._day()
        self.today[member.index] = (today, count + 1 if day == today else 1)
        expires = sent.gift.expires_at
        at = None if expires is None else (expires - play.start).total_seconds()
        self.received.setdefault(friend.index, []).append((sent.gift.gift_id, at))
        return True


def _read(tx: Any, period: FitPeriod) -> dict[str, dict[str, float]]:
    """Each player with a friend in the period: the gifts it sent, the days it was observed, the days its
    sessions could gift (``giftable``) and whether a session of its opened them (``opened``); and each
    resource it gifted, its gifts (``gifts:<key>``) and their amounts summed (``amount:<key>``).

    A session gifts only with a friend, so those days run from the player's first friendship (or the
    period's start) to the period's end; a player who never had one tells nothing of its chance and is
    left out. A friendship the player answered began at a session of its, which could gift (a session
    answers before it gifts) and which the sessions a day over those days leave out (they are drawn at
    random, the opening one is not); one begun at the player's first session (within a session's gap of
    its first sighting) is not added, as a segment's sessions count that one already. Each gift holds its
    friend on cooldown, and a session gifts only a friend off cooldown: so the days that could gift are
    less those every friend was held, each friend held the cooldown over the player's friends for each
    gift, the friends taken as held apart (one friend: exactly). A player
    who sent gifts with no friendship left on record (ended since) is taken to have had a friend from
    the period's start."""
    by_resource = tx.gifts.sent(period.game_id, period.since, period.until)
    sent = {player_id: sum(s.gifts for s in found.values()) for player_id, found in by_resource.items()}
    befriended = tx.friends.first_friends(period.game_id, period.env, period.until)
    cooldown = period.settings.of(GIFTING_SETTINGS).cooldown_seconds / _DAY
    gap = next((p.sessions.gap for p in period.parts if p.sessions is not None), timedelta())
    out: dict[str, dict[str, float]] = {}
    for player_id, found in befriended.items():
        gifts = sent.get(player_id, 0)
        friended = _days(period.until - max(found.since, period.since))
        share = min(1.0, cooldown * gifts / (found.friends * friended)) if friended > 0 else 0.0
        held = friended * share**found.friends
        opened = found.answered and found.since >= max(period.since, found.seen + gap)
        out[player_id] = {
            "sent": gifts,
            "giftable": friended - held,
            "opened": float(opened),
            "observed": _days(period.until - max(found.seen, period.since)),
        }
    days = _days(period.until - period.since)
    for player_id, gifts in sent.items():
        if player_id not in out:
            out[player_id] = {"sent": gifts, "giftable": days, "opened": 0.0, "observed": days}
    for player_id, found in by_resource.items():
        for resource_key, of in found.items():
            out[player_id][f"gifts:{resource_key}"] = of.gifts
            out[player_id][f"amount:{resource_key}"] = of.amount
    return out


def _days(span: timedelta) -> float:
    return max(0.0, span.total_seconds() / _DAY)


def _rates(tallies: Tallies, period: FitPeriod) -> dict[str, float]:
    """``gifts``: the gifts sent over the sessions that could gift (a mean count, a chance where at most
    one): the segment's sessions a day over the days its players could gift, and the sessions that opened
    them; left out where none could."""
    if tallies.days <= 0:
        return {}
    sessions = tallies.sessions / tallies.days * tallies.sum("giftable") + tallies.sum("opened")
    return {GIFTS.name: tallies.sum("sent") / sessions} if sessions > 0 else {}


def _tables(tallies: Tallies, period: FitPeriod) -> dict[str, dict[str, Gifted]]:
    """``gift``: each resource the segment's players gifted that the game still has giftable, its amount
    a gift (their mean, within 1 and its ``max_per_gift``) and its share of those gifts; left out where
    they gifted none."""
    declared = {r.key: r.of(GIFT_RESOURCE) for r in _giftable(period.settings)}
    counts = {k: n for k in declared if (n := tallies.sum(f"gifts:{k}")) > 0}
    total = sum(counts.values())
    found: dict[str, Gifted] = {}
    for resource_key, gifts in counts.items():
        most = declared[resource_key].max_per_gift
        amount = min(most or MAX_AMOUNT, max(1.0, tallies.sum(f"amount:{resource_key}") / gifts))
        share = 1.0 if len(counts) == 1 else round(gifts / total, 4)
        if share > 0:
            found[resource_key] = Gifted(round(amount, 4), share)
    return {GIFT.name: found} if found else {}


def _features(tallies: Mapping[str, float], sessions: float) -> dict[str, tuple[float, float]]:
    """The gifts sent over the player's sessions that could gift: its sessions, by the share of its days
    observed that could gift, and the session that opened them."""
    observed = tallies.get("observed", 0.0)
    share = tallies.get("giftable", 0.0) / observed if observed > 0 else 0.0
    return {"sent": (tallies.get("sent", 0.0), sessions * share + tallies.get("opened", 0.0))}


SEASON = SeasonPart(
    rates=(GIFTS,),
    segment_tables=(GIFT,),
    driver=_Gifts,
    claimed=(GIFT_SOURCE_KIND,),
    fit=Fit(read=_read, rates=_rates, features=_features, tables=_tables),
)
