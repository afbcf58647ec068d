"""The gifts' part of a fitted population (docs/simulation.md#how-it-fits): ``gifts`` is fitted over
the sessions at which a player had a friend, less those a friend's cooldown refused, from the gifts sent
and the friendships as the stores read them (planted here)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from livecore.friends.rules import FirstFriend
from livecore.games import GameSettings
from livecore.gifts.season import SEASON as GIFTS
from livecore.gifts.settings import GIFTING_SETTINGS, GiftingSettings
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
    tx = _Tx(gifts=_Port(sent_counts=sent), friends=_Port(first_friends=befriended))
    assert GIFTS.fit is not None
    return GIFTS.fit.read(tx, _period(cooldown))


def test_a_players_days_with_a_friend_less_each_gifts_cooldown_over_its_friends() -> None:
    found = _read(
        DAY,
        {"asked": 4, "answered": 3, "first": 1, "gone": 2},
        {
            # Seen before the period, friends from before it: the whole period, less 4 gifts' day over 2.
            "asked": FirstFriend(START - 5 * DAY, START - DAY, answered=False, friends=2),
            # Answered a request on day 4: a session of its opened its 6 days with a friend.
            "answered": FirstFriend(START, START + 4 * DAY, answered=True, friends=3),
            # Answered at its first session, which a segment's sessions count already.
            "first": FirstFriend(START + DAY, START + DAY + SESSION_GAP / 2, answered=True, friends=1),
            # No gift sent.
            "quiet": FirstFriend(START, START + 9 * DAY, answered=False, friends=1),
        },
    )
    assert found == {
        "asked": {"sent": 4, "giftable": 8.0, "opened": 0.0, "observed": 10.0},
        "answered": {"sent": 3, "giftable": 5.0, "opened": 1.0, "observed": 10.0},
        "first": pytest.approx({"sent": 1, "giftable": 8.0 - 1 / 96, "opened": 0.0, "observed": 9.0}),
        "quiet": {"sent": 0, "giftable": 1.0, "opened": 0.0, "observed": 10.0},
        # Gifts sent, no friendship left on record: a friend from the period's start.
        "gone": {"sent": 2, "giftable": 10.0, "opened": 0.0, "observed": 10.0},
    }


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
