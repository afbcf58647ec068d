"""The gifts' part of a fitted population (docs/simulation.md#how-it-fits): ``gifts`` is fitted over
the sessions at which a player had a friend, less those a friend's cooldown refused, from the gifts sent
and the friendships as the stores read them (planted here); ``gift``, what a segment gifts, from the
resources and amounts of those gifts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import attrs
import pytest

from livecore.friends.rules import FirstFriend
from livecore.games import GameSettings, Resource, ResourceType
from livecore.gifts.rules import SentGifts
from livecore.gifts.season import GIFT, Gifted
from livecore.gifts.season import SEASON as GIFTS
from livecore.gifts.settings import GIFT_RESOURCE, GIFTING_SETTINGS, GiftingSettings, GiftResource
from livecore.players.rules import SESSION_GAP
from livecore.players.season import SEASON as PLAYERS
from livecore.scope import Environment
from livecore.simulation.part import FitPeriod, Tallies

START = datetime(2026, 3, 2, tzinfo=UTC)
DAY = timedelta(days=1)


class _Port:
    """A port whose reads answer what is planted, by name."""

    def __init__(self, **answers: Any) -> None:
        for name, answer in answers.items():
            setattr(self, name, lambda *_, answer=answer: answer)


class _Tx:
    def __init__(self, **ports: _Port) -> None:
        for name, port in ports.items():
            setattr(self, name, port)


def _period(cooldown: timedelta) -> FitPeriod:
    settings = GameSettings().with_sections(
        {GIFTING_SETTINGS: GiftingSettings(enabled=True, cooldown_seconds=int(cooldown.total_seconds()))}
    )
    return FitPeriod("gam_1", Environment.LIVE, START, START + 10 * DAY, settings, [PLAYERS, GIFTS])


def _read(cooldown: timedelta, sent: dict[str, int], befriended: dict[str, FirstFriend]) -> Any:
    """The part's read of ``sent`` gifts of 5 coins by player."""
    planted = {p: {"coins": SentGifts(n, 5 * n)} for p, n in sent.items()}
    tx = _Tx(gifts=_Port(sent=planted), friends=_Port(first_friends=befriended))
    assert GIFTS.fit is not None
    return GIFTS.fit.read(tx, _period(cooldown))


def test_a_players_days_with_a_friend_less_those_every_friend_was_held_by_its_gifts_cooldown() -> None:
    found = _read(
        DAY,
        {"asked": 4, "answered": 3, "first": 1, "gone": 2},
        {
            # Seen before the period, friends from before it: the whole period, less the time both its
            # friends were held, each by 4 gifts' day over 2 of 10 days: 0.2 each, 0.04 both.
            "asked": FirstFriend(START - 5 * DAY, START - DAY, answered=False, friends=2),
            # Answered a request on day 4: a session of its opened its 6 days with a friend, its 3 friends
            # each held by 3 gifts' day over 3 of 6 days.
            "answered": FirstFriend(START, START + 4 * DAY, answered=True, friends=3),
            # Answered at its first session, which a segment's sessions count already.
            "first": FirstFriend(START + DAY, START + DAY + SESSION_GAP / 2, answered=True, friends=1),
            # No gift sent.
            "quiet": FirstFriend(START, START + 9 * DAY, answered=False, friends=1),
        },
    )
    assert found == {
        "asked": pytest.approx({"sent": 4, "giftable": 9.6, "opened": 0.0, "observed": 10.0, **_coins(4)}),
        "answered": pytest.approx(
            {"sent": 3, "giftable": 6 - 6 / 6**3, "opened": 1.0, "observed": 10.0, **_coins(3)}
        ),
        "first": pytest.approx(
            {"sent": 1, "giftable": 8.0 - 1 / 96, "opened": 0.0, "observed": 9.0, **_coins(1)}
        ),
        "quiet": {"sent": 0, "giftable": 1.0, "opened": 0.0, "observed": 10.0},
        # Gifts sent, no friendship left on record: a friend from the period's start.
        "gone": {"sent": 2, "giftable": 10.0, "opened": 0.0, "observed": 10.0, **_coins(2)},
    }


def _coins(gifts: int) -> dict[str, float]:
    """The tallies of ``gifts`` gifts of 5 coins."""
    return {"gifts:coins": gifts, "amount:coins": 5 * gifts}


def test_the_cooldown_holds_no_more_than_the_days_with_a_friend() -> None:
    found = _read(7 * DAY, {"p": 3}, {"p": FirstFriend(START, START + 8 * DAY, answered=False, friends=1)})
    assert found["p"]["giftable"] == 0.0


def test_gifts_is_the_gifts_over_the_sessions_that_could_gift() -> None:
    assert GIFTS.fit is not None
    rates = GIFTS.fit.rates
    period = _period(DAY)
    # Two sessions a day over 8 days that could gift, and one session that opened them: 17 sessions.
    sums = {"sent": 6.0, "giftable": 8.0, "opened": 1.0, "observed": 20.0}
    assert rates(Tallies(players=2, sessions=40.0, days=20.0, sums=sums), period) == {"gifts": 6 / 17}
    # No player of the segment could gift: left out (its default applies).
    none = {"sent": 0.0, "giftable": 0.0, "opened": 0.0}
    assert rates(Tallies(players=2, sessions=40.0, days=20.0, sums=none), period) == {}
    assert rates(Tallies(players=2, sessions=40.0, days=20.0, sums={}), period) == {}


def test_a_players_feature_is_its_gifts_over_its_sessions_that_could_gift() -> None:
    assert GIFTS.fit is not None and GIFTS.fit.features is not None
    features = GIFTS.fit.features
    tallies = {"sent": 3.0, "giftable": 5.0, "opened": 1.0, "observed": 10.0}
    assert features(tallies, 20.0) == {"sent": (3.0, 11.0)}
    assert features({}, 20.0) == {"sent": (0.0, 0.0)}


def _giftable(*resources: tuple[str, int | None]) -> FitPeriod:
    """A period of a game whose giftable resources are ``resources`` (key, max_per_gift), and xp not."""
    declared = {
        key: Resource(
            key, ResourceType.CURRENCY, {GIFT_RESOURCE: GiftResource(giftable=True, max_per_gift=most)}
        )
        for key, most in resources
    }
    declared["xp"] = Resource("xp", ResourceType.CURRENCY)
    return attrs.evolve(_period(DAY), settings=attrs.evolve(_period(DAY).settings, resources=declared))


def _gift(sums: dict[str, float], period: FitPeriod) -> Any:
    assert GIFTS.fit is not None and GIFTS.fit.tables is not None
    return GIFTS.fit.tables(Tallies(players=2, sessions=40.0, days=20.0, sums=sums), period).get(GIFT.name)


def test_a_segment_that_only_gifted_five_coins_gifts_five_coins() -> None:
    period = _giftable(("coins", 100), ("gems", 10))
    assert _gift({"sent": 6.0, **_coins(6)}, period) == {"coins": Gifted(5.0, 1.0)}


def test_a_segment_gifts_each_resource_by_its_share_of_the_gifts_at_their_mean_amount() -> None:
    period = _giftable(("coins", 100), ("gems", 10))
    sums = {"gifts:coins": 3.0, "amount:coins": 20.0, "gifts:gems": 1.0, "amount:gems": 2.0}
    assert _gift(sums, period) == {"coins": Gifted(6.6667, 0.75), "gems": Gifted(2.0, 0.25)}


def test_an_amount_is_kept_within_max_per_gift_and_what_is_not_giftable_is_left_out() -> None:
    period = _giftable(("gems", 10))
    sums = {"gifts:gems": 2.0, "amount:gems": 30.0, "gifts:xp": 1.0, "amount:xp": 1.0}
    assert _gift(sums, period) == {"gems": Gifted(10.0, 1.0)}
    # A segment that gifted nothing the game has giftable goes without: any giftable resource.
    assert _gift({"gifts:xp": 1.0, "amount:xp": 1.0}, period) is None
    assert _gift({}, period) is None
