"""The population file of a simulated season (livecore/simulation/population.py, docs/simulation.md#the-
population): its defaults, each field's refusal by its path, and its check against the game."""

from __future__ import annotations

import pytest

from livecore import registry
from livecore.crates.season import SENT as CRATES_SENT
from livecore.economy.season import LOGIN_CREDIT, SPENT
from livecore.grants.season import CLAIMS
from livecore.leaderboards.season import RANGES as BOARD_RANGES
from livecore.live_events.season import ATTEMPTS, RANGES, default_scale, kinds_of
from livecore.live_events.settings import EVENT_SETTINGS
from livecore.manifest import parse_manifest
from livecore.simulation.population import (
    DEFAULT_SEGMENTS,
    Population,
    PopulationError,
    Scale,
    Skill,
    check_population,
    parse_population,
)
from tests.season_support import POPULATION, SEASON


def refused(text: str) -> dict[str, str]:
    with pytest.raises(PopulationError) as caught:
        parse_population(text)
    return caught.value.problems


def one_segment(field: str) -> str:
    return f"[segments.all]\nshare = 1.0\n{field}\n"


def test_an_empty_file_is_the_default_population() -> None:
    population = parse_population("")
    assert population == Population()
    assert population.segments == DEFAULT_SEGMENTS
    assert sum(s.share for s in DEFAULT_SEGMENTS) == pytest.approx(1.0)


def test_a_segment_takes_every_field_and_defaults_the_rest() -> None:
    population = parse_population(POPULATION)
    settings = parse_manifest(SEASON).games["arena"].settings()
    keen, casual = population.segments
    assert (keen.name, keen.share, keen.sessions_per_day, keen.rate(ATTEMPTS)) == ("keen", 0.4, 3.0, 2)
    assert keen.score == Skill(0.7, 0.1)
    assert casual.score == Skill(0.4, 0.15)
    assert casual.rate(CLAIMS) == 0.9
    assert population.sent(LOGIN_CREDIT, settings) == {"coins": 20}
    assert population.sent(CRATES_SENT, settings) == {"chest": 0.5}
    assert parse_population("").sent(LOGIN_CREDIT, settings) == {}


NUMBER_FIELDS = [
    ("sessions_per_day", "49", "must be a number from 0 to 48"),
    ("events", "1.5", "must be a number from 0 to 1"),
    ("lobbies", "-0.1", "must be a number from 0 to 1"),
    ("teams", '"often"', "must be a number from 0 to 1"),
    ("gifts", "true", "must be a number from 0 to 20"),
    ("gifts", "21", "must be a number from 0 to 20"),
    ("completes", "1.5", "must be a number from 0 to 1"),
    ("guilds", "nan", "must be a number from 0 to 1"),
    ("crates", "2", "must be a number from 0 to 1"),
    ("spend", "inf", "must be a number from 0 to 1"),
    ("spend_share", "1.01", "must be a number from 0 to 1"),
    ("claims", "[0.5]", "must be a number from 0 to 1"),
    ("attempts_per_session", "1.0", "must be an integer from 1 to 20"),
    ("attempts_per_session", "0", "must be an integer from 1 to 20"),
    ("friends", "501", "must be an integer from 0 to 500"),
    ("friends", "true", "must be an integer from 0 to 500"),
]


@pytest.mark.parametrize(("field", "value", "message"), NUMBER_FIELDS)
def test_each_segment_field_is_refused_by_its_path(field: str, value: str, message: str) -> None:
    assert refused(one_segment(f"{field} = {value}")) == {f"segments.all.{field}": message}


def test_the_share_is_required_in_range_and_the_shares_sum_to_one() -> None:
    assert refused("[segments.all]\nsessions_per_day = 1") == {"segments.all.share": "is required"}
    assert refused("[segments.all]\nshare = 1.5") == {"segments.all.share": "must be a number from 0 to 1"}
    text = "[segments.a]\nshare = 0.5\n[segments.b]\nshare = 0.4\n"
    assert refused(text) == {"segments": "the shares must sum to 1 (they sum to 0.9)"}


def test_the_score_is_a_table_of_a_mean_and_a_spread() -> None:
    assert refused(one_segment("score = 0.5")) == {"segments.all.score": "must be a table"}
    assert refused(one_segment("score = { mean = 1.2, sd = -1 }")) == {
        "segments.all.score.mean": "must be a number from 0 to 1",
        "segments.all.score.sd": "must be a number from 0 to 1",
    }
    assert refused(one_segment("score = { median = 0.5 }")) == {
        "segments.all.score.median": "is not a known field"
    }


def test_names_shapes_and_unknown_fields() -> None:
    assert refused("[segments.Whales]\nshare = 1.0") == {
        "segments.Whales": "must be a key: lower-case letters, digits, '-' and '_', at most 64"
    }
    assert refused("segments = 3") == {"segments": "must be a table"}
    assert refused("[segments]") == {"segments": "must declare at least one segment"}
    assert refused("segments = { all = 1 }") == {"segments.all": "must be a table"}
    assert refused(one_segment("whales = true")) == {"segments.all.whales": "is not a known field"}
    assert refused("players = 10") == {"players": "is not a known field"}


def test_every_problem_is_reported_at_once() -> None:
    text = "[segments.a]\nshare = 2\ngifts = 30\n[studio]\ncrates = { chest = -1 }\n"
    text += "login_credit = { coins = 0 }\n"
    problems = refused(text)
    assert set(problems) == {
        "segments.a.share",
        "segments.a.gifts",
        "studio.crates.chest",
        "studio.login_credit.coins",
    }


@pytest.mark.parametrize("table", ["events", "leaderboards"])
def test_a_score_range_names_its_worst_and_best(table: str) -> None:
    assert refused(f"[{table}.sprint]\nworst = 0") == {f"{table}.sprint.best": "is required"}
    assert refused(f'[{table}.sprint]\nworst = "low"\nbest = 10') == {
        f"{table}.sprint.worst": "must be a finite number"
    }
    assert refused(f"[{table}.sprint]\nworst = 5\nbest = 5") == {
        f"{table}.sprint.best": "must differ from worst"
    }
    assert refused(f"[{table}.sprint]\nworst = 0\nbest = 5\nmedian = 2") == {
        f"{table}.sprint.median": "is not a known field"
    }
    assert refused(f"{table} = 1") == {table: "must be a table"}
    found = parse_population(f"[{table}.sprint]\nworst = 0\nbest = 5")
    assert found.table(RANGES if table == "events" else BOARD_RANGES) == {"sprint": Scale(0.0, 5.0)}


def test_the_studio_section() -> None:
    assert refused("studio = 1") == {"studio": "must be a table"}
    assert refused("[studio]\ncrates = { chest = -1 }") == {
        "studio.crates.chest": "must be a number from 0 to 100"
    }
    assert refused("[studio]\ncrates = 1") == {"studio.crates": "must be a table"}
    assert refused("[studio]\nlogin_credit = { coins = 1.5 }") == {
        "studio.login_credit.coins": "must be an integer from 1 to 1,000,000,000,000"
    }
    assert refused("[studio]\nbudget = 1") == {"studio.budget": "is not a known field"}


def test_the_currencies_players_spend() -> None:
    assert parse_population('[economy]\nspend = ["coins"]').table(SPENT) == ("coins",)
    assert parse_population("").table(SPENT) is None
    assert refused('[economy]\nspend = "coins"') == {"economy.spend": "must be a list of currency keys"}
    assert refused('[economy]\nspend = ["coins", "coins"]') == {
        "economy.spend": "must not name a currency twice"
    }
    assert refused("[economy]\nsink = []") == {"economy.sink": "is not a known field"}
    assert refused("economy = []") == {"economy": "must be a table"}


def test_a_syntax_error_names_the_population() -> None:
    problems = refused("[segments.all\n")
    assert list(problems) == ["population"]
    assert problems["population"].startswith("is not valid TOML")


def test_the_population_is_checked_against_the_game() -> None:
    settings = parse_manifest(SEASON).games["arena"].settings()
    check_population(parse_population(POPULATION), settings)
    text = """
[events.marathon]
worst = 0
best = 1
[events.sprint]
worst = 10
best = 0
[leaderboards.weekly]
worst = 0
best = 1
[economy]
spend = ["coins", "potion"]
[studio]
crates = { barrel = 1 }
login_credit = { potion = 1, gold = 2 }
"""
    with pytest.raises(PopulationError) as caught:
        check_population(parse_population(text), settings)
    assert caught.value.problems == {
        "events.marathon": "is not an event of the game (its events: duel, raid, relay, sprint)",
        "economy.spend": "'potion' is not a currency of the game",
        "events.sprint.best": "must be above worst: the event's order is desc",
        "leaderboards.weekly": "is not a shared leaderboard of the game (its boards: daily)",
        "studio.crates.barrel": "is not a crate of the game (its crates: chest)",
        "studio.login_credit.gold": "is not a currency of the game",
        "studio.login_credit.potion": "is not a currency of the game",
    }


def test_an_events_default_range_comes_from_what_it_measures_scores_against() -> None:
    events = parse_manifest(SEASON).games["arena"].settings().of(EVENT_SETTINGS)
    kinds = kinds_of(area.season for area in registry.installed() if area.season is not None)
    # Two milestones (500 and 100,000): the lower median is the reference; the far one stays far.
    assert default_scale(events["sprint"], kinds) == Scale(0.0, 750.0)
    assert default_scale(events["duel"], kinds) == Scale(0.0, 900.0)  # its bots' best score, 600
    assert default_scale(events["relay"], kinds) == Scale(0.0, 1125.0)  # its goal shared by two
    timed = parse_manifest(
        SEASON.replace('score_metric = "score"', 'score_metric = "score"\norder = "asc"', 1)
    ).games["arena"]
    assert default_scale(timed.settings().of(EVENT_SETTINGS)["sprint"], kinds) == Scale(1000.0, 250.0)


def test_a_segment_of_no_session_or_no_player_is_told_idle_in_one_line() -> None:
    assert Population().idle() is None
    some = parse_population(
        "[segments.keen]\nshare = 0.5\nsessions_per_day = 2\n"
        "[segments.gone]\nshare = 0.5\nsessions_per_day = 0\n"
        "[segments.none]\nshare = 0\n"
    )
    assert some.idle() == (
        "segments.gone.sessions_per_day = 0, segments.none.share = 0: those segments play no session in a"
        " season"
    )
    assert parse_population(one_segment("sessions_per_day = 0")).idle() == (
        "no segment plays a session (segments.all.sessions_per_day = 0): a season with this population"
        " plays nothing, and a comparison with it is every row 0 against the other's"
    )
