"""How the guilds' ``guilds`` chance is fitted (livecore/guilds/season.py, docs/simulation.md#how-it-fits):
the chance under which the joins (by ``p`` a session outside a guild) and the asks (by ``p²`` a session
in a guild able to ask) seen are likeliest; the round trip is tests/core/test_simulation_fitting.py's."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import attrs
import pytest

from livecore.games import GameSettings
from livecore.guilds.season import SEASON, likeliest
from livecore.guilds.settings import GUILD_SETTINGS, GuildSettings, HelpSettings
from livecore.scope import Environment
from livecore.simulation.part import FitPeriod, Tallies

START = datetime(2026, 3, 2, tzinfo=UTC)


def test_the_joins_alone_or_the_asks_alone_give_their_chance() -> None:
    assert likeliest(30, 100, 0, 0) == pytest.approx(0.3)
    assert likeliest(0, 0, 36, 100) == pytest.approx(0.6)  # an ask's chance is p²


def test_both_give_a_chance_between_theirs_nearer_the_one_that_tells_more() -> None:
    even = likeliest(30, 100, 36, 100)
    assert even is not None and 0.3 < even < 0.6
    more_asks = likeliest(30, 100, 360, 1_000)
    assert more_asks is not None and even < more_asks < 0.6
    assert likeliest(3, 10, 36, 100) == pytest.approx(0.58, abs=0.01)  # a few joins weigh little


def test_no_trial_tells_nothing_no_success_is_nought_and_no_miss_is_one() -> None:
    assert likeliest(0, 0, 0, 0) is None
    assert likeliest(0, 50, 0, 50) == 0.0
    assert likeliest(5, 5, 0, 0) == 1.0


def _period(guilds: GuildSettings) -> FitPeriod:
    settings = GameSettings().with_sections({GUILD_SETTINGS: guilds})
    return FitPeriod("gam_1", Environment.LIVE, START, START + timedelta(days=7), settings, (SEASON,))


def test_a_segment_is_fitted_from_its_sessions_outside_and_in_a_guild_able_to_ask() -> None:
    # 10 players of 2 sessions a day for 7 days: 28 days outside a guild (56 sessions, 14 joins: 0.25),
    # 42 in one, 10 of them blocked (64 sessions able to ask, 4 asks: 0.25 = 0.0625 ** 0.5).
    tallies = Tallies(
        players=10,
        sessions=140,
        days=70,
        sums={"joined": 14, "guild_days": 42, "asked": 4, "blocked_days": 10},
    )
    helped = GuildSettings(enabled=True, help=HelpSettings(resources=("coins",), max_amount=5))
    assert SEASON.fit is not None
    assert SEASON.fit.rates(tallies, _period(helped)) == {"guilds": pytest.approx(0.25)}
    # Guilds off: nothing to tell, the default applies.
    assert SEASON.fit.rates(tallies, _period(attrs.evolve(helped, enabled=False))) == {}
