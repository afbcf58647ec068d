"""Fitting a population from what happened (livecore/simulation/fitting.py,
docs/simulation.md#fitting-a-population): the engine on planted per-player tallies (the segments found,
the same population every time, the refusals), the file it writes read back, and the round trip: a season
played by a known population fitted back from the simulation's store, each segment's share and rates
within the tolerances the docs state."""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta

import attrs
import pytest

from livecore.area import Area
from livecore.games import GameSettings
from livecore.live_events.season import poisson_uncapped
from livecore.players.rules import PeriodActivity
from livecore.players.season import SEASON as PLAYERS
from livecore.scope import Environment
from livecore.simulation import Simulation
from livecore.simulation.fields import Scale
from livecore.simulation.fitting import MIN_PER_SEGMENT, FittedPopulation, FittingError, fit_population
from livecore.simulation.part import (
    SKILL,
    SKILL_COUNT,
    Fit,
    FitPeriod,
    PopulationTable,
    Rate,
    SeasonPart,
    Tallies,
)
from livecore.simulation.population import Population, Segment, parse_population, write_population
from livecore.simulation.season import Season

START = datetime(2026, 3, 2, tzinfo=UTC)
DAYS = 10
WIDGETS = Rate("widgets", 0.5)


def _widget_rates(tallies: Tallies, period: FitPeriod) -> dict[str, float]:
    return {"widgets": tallies.sum("w") / tallies.sessions}


def _widget_features(tallies: Mapping[str, float], sessions: float) -> dict[str, tuple[float, float]]:
    return {"w": (tallies.get("w", 0.0), sessions)}


#: A part of a studio's area: a widget made at a session by its segment's chance.
PART = SeasonPart(
    rates=(WIDGETS,),
    fit=Fit(read=lambda tx, period: tx.widgets, rates=_widget_rates, features=_widget_features),
)


@attrs.define
class _Players:
    found: dict[str, PeriodActivity]

    def active_in(
        self, game_id: str, env: Environment, since: datetime, until: datetime
    ) -> dict[str, PeriodActivity]:
        return self.found


@attrs.define
class _Tx:
    """What the engine reads, planted: the players and their widgets and skill."""

    players: _Players
    widgets: dict[str, dict[str, float]]


def planted(groups: list[tuple[int, float, float, float]]) -> _Tx:
    """Players by group: (how many, sessions a day, widgets a session, skill). The sessions on record are
    the first, which opened the player's life and played nothing (as a season's registration), then
    those played, fewer on record, as sessions at random times less than 30 minutes apart merge there."""
    found: dict[str, PeriodActivity] = {}
    widgets: dict[str, dict[str, float]] = {}
    index = 0
    for count, per_day, per_session, skill in groups:
        for n in range(count):
            player_id = f"plr_{index:05d}"
            index += 1
            played = per_day * DAYS * (1 + 0.1 * ((n % 5) - 2) / 2)  # +-10% between players
            on_record = 1 + round(played * math.exp(-per_day / 48))
            found[player_id] = PeriodActivity(first_seen_at=START, sessions=on_record)
            widgets[player_id] = {"w": per_session * played, SKILL: skill * 4, SKILL_COUNT: 4}
    return _Tx(_Players(found), widgets)


def period(parts: tuple[SeasonPart, ...] = (PLAYERS, PART)) -> FitPeriod:
    return FitPeriod("gam_1", Environment.LIVE, START, START + timedelta(days=DAYS), GameSettings(), parts)


GROUPS = [(60, 0.5, 0.1, 0.3), (30, 6.0, 0.8, 0.8), (150, 2.0, 0.4, 0.5)]


def fitted(tx: _Tx, segments: int = 3) -> FittedPopulation:
    return fit_population(tx, period(), game="duel", segments=segments, first_session_plays=False)


def test_the_clusters_are_the_planted_segments_most_sessions_first() -> None:
    population = fitted(planted(GROUPS)).population
    found = [(s.name, s.share, s.rates["widgets"], s.score.mean) for s in population.segments]
    assert [name for name, *_ in found] == ["segment-1", "segment-2", "segment-3"]
    assert [share for _, share, *_ in found] == [0.125, 0.625, 0.25]
    assert [round(w, 2) for *_, w, _ in found] == [0.8, 0.4, 0.1]
    assert [round(skill, 2) for *_, skill in found] == [0.8, 0.5, 0.3]
    # The sessions played, from those on record.
    assert [s.sessions_per_day for s in population.segments] == pytest.approx(
        [6.0, 2.0, 0.5], rel=0.04
    )  # whole sessions


def test_the_same_records_fit_the_same_population() -> None:
    first = fitted(planted(GROUPS)).toml()
    # The players read in another order: the same file.
    shuffled = planted(GROUPS)
    shuffled.players.found = dict(reversed(list(shuffled.players.found.items())))
    assert fitted(shuffled).toml() == first == fitted(planted(GROUPS)).toml()


def test_the_file_reads_back_as_the_population_and_names_no_player() -> None:
    result = fitted(planted(GROUPS))
    text = result.toml()
    assert text.startswith("# A population fitted by livecore")
    assert "# game: duel (live)" in text and "# players: 240, segments: 3" in text
    assert "# period: 2026-03-02T00:00:00+00:00 to 2026-03-12T00:00:00+00:00" in text
    assert "plr_" not in text
    assert (
        parse_population(text, [Area(name="widgets", summary="Widgets.", page="widgets.md", season=PART)])
        == result.population
    )


def test_write_then_parse_is_the_population() -> None:
    for population in (Population(), parse_population(_TEXT)):
        assert parse_population(write_population(population)) == population


_TEXT = """
[segments.few]
share = 0.25
sessions_per_day = 2.5
score = { mean = 0.7, sd = 0.1 }
attempts_per_session = 3
gifts = 0.125

[segments.many]
share = 0.75
friends = 4

[studio]
crates = { chest = 0.25 }
login_credit = { coins = 20 }
"""


_TABLES = """
[events.race]
worst = 0.0
best = 10.5

[events.lap]
worst = 90000.0
best = 45000.0

[economy]
spend = ["coins", "gems"]
"""


def test_the_areas_tables_are_written_and_read_back() -> None:
    population = parse_population(_TEXT + _TABLES)
    text = write_population(population)
    assert parse_population(text) == population
    assert "[events.lap]\nworst = 90000.0\nbest = 45000.0" in text
    assert 'spend = ["coins", "gems"]' in text


def test_a_table_no_area_can_write_is_refused() -> None:
    unwritten = PopulationTable("widget_table", lambda raw, problems: raw)
    area = Area(name="widgets", summary="Widgets.", page="widgets.md", season=SeasonPart(tables=(unwritten,)))
    population = parse_population("[widget_table]\nsize = 3", [area])
    with pytest.raises(ValueError, match="these tables cannot be written: widget_table"):
        write_population(population, areas=[area])


def test_a_period_with_no_player_is_refused_by_its_field() -> None:
    with pytest.raises(FittingError) as caught:
        fitted(_Tx(_Players({}), {}))
    assert list(caught.value.problems) == ["period"]
    assert "no player of the game (live) was active from 2026-03-02" in str(caught.value)


def test_too_few_players_for_the_segments_fit_fewer_with_a_warning() -> None:
    tx = planted([(2 * MIN_PER_SEGMENT + 5, 1.0, 0.5, 0.5)])
    fewer = fitted(tx, segments=3)
    assert len(fewer.population.segments) == 2
    warning = (
        f"{2 * MIN_PER_SEGMENT + 5} players were active in the period: 2 segments fitted instead of 3"
        f" ({MIN_PER_SEGMENT} players a segment); a longer period or more players fit more"
    )
    assert fewer.warnings == (warning,)
    assert f"# warning: {warning}" in fewer.toml()
    assert fitted(tx, segments=2).warnings == ()


def test_fewer_players_than_a_segment_fit_one_with_a_warning() -> None:
    handful = fitted(planted([(3, 1.0, 0.5, 0.5)]))
    assert [s.share for s in handful.population.segments] == [1.0]
    assert handful.warnings == (
        f"3 players were active in the period: 1 segment fitted instead of 3, on fewer than {MIN_PER_SEGMENT}"
        " players: chance sways its rates; a longer period or more players fit more",
    )
    assert len(fitted(planted([(3, 1.0, 0.5, 0.5)]), segments=1).warnings) == 1


def test_players_seen_in_one_session_each_fit_a_segment_that_plays_nothing_with_a_warning() -> None:
    # A newcomer's first history on a server: each player played once, the session it was first seen in,
    # so no session a day is told after it.
    once = {f"plr_{n:05d}": PeriodActivity(first_seen_at=START, sessions=1) for n in range(6)}
    handful = fit_population(_Tx(_Players(once), {}), period(), game="duel", first_session_plays=True)
    assert [s.sessions_per_day for s in handful.population.segments] == [0.0]
    idle = handful.population.idle()
    assert idle is not None and idle.startswith("no segment plays a session (segments.segment-1.sessions")
    warning = f"{idle}; the period holds too little history: a longer period or more players fit more"
    assert handful.warnings[1:] == (warning,)
    assert f"# warning: {warning}" in handful.toml()
    # Players who came back: no such warning.
    assert all("plays a session" not in w for w in fitted(planted([(3, 1.0, 0.5, 0.5)])).warnings)


def test_a_segment_count_or_a_period_out_of_range_is_refused() -> None:
    tx = planted(GROUPS)
    with pytest.raises(FittingError, match="segments: must be from 1 to 12"):
        fitted(tx, segments=0)
    backwards = attrs.evolve(period(), until=START)
    with pytest.raises(FittingError, match="period: must end after it starts"):
        fit_population(tx, backwards, game="duel")


def test_a_game_whose_areas_count_no_sessions_is_refused() -> None:
    with pytest.raises(FittingError, match="period: no area played counts the players' sessions"):
        fit_population(planted(GROUPS), period((PART,)), game="duel")


def test_progress_is_reported_step_by_step() -> None:
    steps: list[tuple[str, int, int]] = []
    fit_population(
        planted(GROUPS),
        period(),
        game="duel",
        progress=lambda step, done, total: steps.append((step, done, total)),
    )
    assert steps == [
        ("players", 1, 5),
        ("tables", 2, 5),
        ("part-1", 3, 5),
        ("clusters", 4, 5),
        ("segments", 5, 5),
    ]


# --- the round trip ----------------------------------------------------------------------------------

ROUND_TRIP = """
studio = "acme"

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
max_per_gift = 5

[games.duel.events.race]
name = "Race"
starts_at = "2026-03-02T00:00:00Z"
window_seconds = 86400
repeat_every_seconds = 86400
attempt_seconds = 300
score_metric = "score"

[[games.duel.events.race.milestones]]
key = "done"
threshold = 1000
rewards = [{ type = "currency", key = "coins", amount = 1 }]

[games.duel.crates.chest]
rolls = 1
table = [{ weight = 1, rewards = [{ type = "currency", key = "coins", amount = 10 }] }]

[games.duel.guilds]
enabled = true
max_members = 20

[games.duel.guilds.help]
resources = ["coins"]
max_amount = 5
"""

#: Two well-separated segments (the fields not fitted are set alike, so they do not tell them apart).
KNOWN = """
[segments.keen]
share = 0.3
sessions_per_day = 4.0
score = { mean = 0.75, sd = 0.08 }
events = 0.9
attempts_per_session = 3
gifts = 0.6
spend = 0.5
spend_share = 0.7
claims = 0.95
crates = 0.9
guilds = 0.6
friends = 8

[segments.light]
share = 0.7
sessions_per_day = 0.8
score = { mean = 0.35, sd = 0.08 }
events = 0.5
attempts_per_session = 1
gifts = 0.15
spend = 0.1
spend_share = 0.3
claims = 0.5
crates = 0.4
guilds = 0.2
friends = 8

[economy]
spend = ["coins"]

[studio]
login_credit = { coins = 20 }
crates = { chest = 0.5 }
"""

#: How far a fitted value may be from the one played (docs/simulation.md#fitting-a-population): the
#: share and the skill nearly exactly; a chance a few points off (a spend's whole amounts, a chance read
#: from how long something waited for a session; ``gifts``, over the sessions with a friend, counts the
#: rest of the day a friendship began in as holding sessions at random).
TOLERANCES: dict[str, float] = {
    "range": 0.1,  # relative
    "crates_sent": 0.05,
    "share": 0.02,
    "sessions_per_day": 0.1,  # relative
    "score.mean": 0.02,
    "score.sd": 0.02,
    "events": 0.05,
    "gifts": 0.05,
    "spend": 0.04,
    "spend_share": 0.05,
    "claims": 0.05,
    "crates": 0.05,
    "guilds": 0.05,
}
#: The race's score range the known population played on: its default (its milestone's 1,000 the
#: reference, :func:`livecore.live_events.season.default_scale`).
PLAYED_RANGE = Scale(worst=0.0, best=1500.0)
#: The help requests' cooldown (the guilds' default), which the asks' figure reads.
COOLDOWN = timedelta(hours=8)
#: How far a season played by the fitted population may be from the known one's, in each figure
#: (relative): the figures a report compares.
FIGURES = 0.08


@pytest.mark.slow
def test_a_season_played_by_a_known_population_is_fitted_back_within_tolerances() -> None:
    sim = Simulation.from_manifest(ROUND_TRIP, start=START, seed=3)
    known = parse_population(KNOWN)
    Season(sim, known, players=600, days=7, seed=3).play()
    result = sim.fit_population(2)
    assert result.players == 600 and result.since == START and result.until == START + timedelta(days=7)
    fitted = result.population
    # The race's scores were played on its default range, 0 to 1,500 (its milestone's 1,000 the
    # reference): the fitted range is as wide, as the spread of a player's scores tells.
    scale = fitted.tables["events"]["race"]
    assert abs((scale.best - scale.worst) - PLAYED_RANGE.best) <= TOLERANCES["range"] * PLAYED_RANGE.best
    for played, found in zip(known.segments, fitted.segments, strict=True):
        _within(played, found, scale)
    # What the studio's backend did: 20 coins a day played, a chest on half of them.
    assert fitted.studio.rates["login_credit"] == {"coins": 20}
    assert abs(fitted.studio.rates["crates"]["chest"] - 0.5) <= TOLERANCES["crates_sent"]
    assert fitted.tables["economy"] == ("coins",)
    again = parse_population(result.toml())
    assert again == fitted
    # Played again by what was fitted, the season's figures are the known population's.
    replay = Simulation.from_manifest(ROUND_TRIP, start=START, seed=3)
    Season(replay, again, players=600, days=7, seed=3).play()
    first, second = _figures(sim), _figures(replay)
    for name, value in first.items():
        assert abs(second[name] - value) <= FIGURES * value, (name, first, second)


def _figures(sim: Simulation) -> dict[str, float]:
    """A season's totals: sessions on record, attempts, gifts sent, spends, grants claimed, crates
    opened, guilds joined or founded, help requests asked."""
    since, until = START, START + timedelta(days=7)
    game, env = sim.game.id, sim.env
    with sim.store.transaction() as tx:
        return {
            "sessions": sum(a.sessions for a in tx.players.active_in(game, env, since, until).values()),
            "attempts": sum(t.attempts for t in tx.attempts.tallies(game, env, since, until).values()),
            "gifts": sum(s.gifts for f in tx.gifts.sent(game, since, until).values() for s in f.values()),
            "spends": sum(d.moments for d in tx.ledger.debits(game, ["client_debit"], since, until).values()),
            "claims": sum(w.taken for w in tx.grants.waits(game, "reward", since, until).values()),
            "crates": sum(w.taken for w in tx.grants.waits(game, "crate", since, until).values()),
            "joins": sum(s.joined for s in tx.guilds.tallies(game, env, since, until).values()),
            "asks": sum(h.asked for h in tx.guild_help.tallies(game, since, until, COOLDOWN).values()),
        }


def _within(played: Segment, found: Segment, scale: Scale) -> None:
    """The segment fitted back within :data:`TOLERANCES`; its skill compared as the scores it plays (the
    fitted skill on the fitted range ``scale``, the played one on the range it was played on), as a
    share of the played range."""
    name = played.name
    assert abs(found.share - played.share) <= TOLERANCES["share"], name
    spd = played.sessions_per_day
    assert abs(found.sessions_per_day - spd) <= TOLERANCES["sessions_per_day"] * spd, name
    width = PLAYED_RANGE.best - PLAYED_RANGE.worst
    mean = scale.score(found.score.mean) - PLAYED_RANGE.score(played.score.mean)
    assert abs(mean) <= TOLERANCES["score.mean"] * width, name
    spread = found.score.sd * abs(scale.best - scale.worst) - played.score.sd * width
    assert abs(spread) <= TOLERANCES["score.sd"] * width, name
    assert found.rates["attempts_per_session"] == played.rates["attempts_per_session"], name
    for rate in ("events", "gifts", "spend", "spend_share", "claims", "crates", "guilds"):
        assert abs(found.rates[rate] - played.rates[rate]) <= TOLERANCES[rate], (name, rate, found.rates)


@pytest.mark.parametrize("decided", [0.2, 1.0, 2.5, 4.0])
def test_the_plays_a_window_decided_are_told_from_those_its_attempts_allowed(decided: float) -> None:
    """A window allows three plays (``max_attempts``): a Poisson count of decisions of mean ``decided``
    records ``E[min(N, 3)]`` plays, which is inverted back to the decisions."""
    recorded = sum(min(n, 3) * math.exp(-decided) * decided**n / math.factorial(n) for n in range(80))
    assert recorded < decided
    assert poisson_uncapped(recorded, 3) == pytest.approx(decided, rel=1e-6)
