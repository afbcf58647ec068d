"""An event's team table (docs/teams.md#the-manifest): ``[games.X.events.Y.teams]``, its refusals field by
field, and its round trip through the stored settings JSON."""

from __future__ import annotations

import orjson
import pytest

from livecore.games import Entry, GameSettings, Milestone, RankBand, ResourceType
from livecore.live_events.settings import EVENT_SETTINGS, EventSettings
from livecore.manifest import ManifestError
from livecore.teams.rules import TEAM_SIZE_MAX
from livecore.teams.settings import TEAM_SETTINGS, Formation, OnComplete, OnLeave, TeamSettings
from livecore_server.manifest import parse_manifest
from livecore_server.storage.records import settings_converter

E = "games.g.events.e"
T = f"{E}.teams"
EVENT = f"""studio = "acme"

[games.g]
name = "G"

[games.g.resources.coins]
type = "currency"

[{E}]
name = "E"
starts_at = "2026-12-01T00:00:00Z"
window_seconds = 3600
attempt_seconds = 600
score_metric = "score"
"""
COINS = '[{ type = "currency", key = "coins", amount = 5 }]'
GEMS = '[{ type = "currency", key = "gems", amount = 5 }]'
NO_COINS = '[{ type = "currency", key = "coins", amount = 0 }]'
BAND = f"{{ from = 1, to = 3, rewards = {COINS} }}"
# A team table with every field, on the event ``e``: field -> TOML value.
EXAMPLE = {
    "formation": '"external"',
    "size": "4",
    "goal": "5000",
    "on_leave": '"keep_contribution"',
    "on_complete": '"continue"',
    "board": "true",
    "milestones": '[{ key = "half", threshold = 2500, rewards = '
    '[{ type = "currency", key = "coins", amount = 50 }] }]',
}


def settings_of(text: str) -> EventSettings:
    return parse_manifest(text).games["g"].settings().of(EVENT_SETTINGS)["e"]


def problems_of(text: str) -> dict[str, str]:
    with pytest.raises(ManifestError) as caught:
        parse_manifest(text)
    return caught.value.problems


def teams(**fields: str) -> str:
    """The example team table with ``fields`` replaced or added (an empty value removes the field)."""
    table = {**EXAMPLE, **fields}
    return f"\n[{T}]\n" + "".join(f"{name} = {value}\n" for name, value in table.items() if value)


TEAMS = teams()


def test_decisions_teams_example_becomes_event_settings() -> None:
    assert settings_of(EVENT + TEAMS).of(TEAM_SETTINGS) == TeamSettings(
        formation=Formation.EXTERNAL,
        size=4,
        goal=5000.0,
        on_leave=OnLeave.KEEP_CONTRIBUTION,
        on_complete=OnComplete.CONTINUE,
        board=True,
        milestones=(Milestone("half", 2500.0, (Entry(ResourceType.CURRENCY, "coins", 50),)),),
    )


def test_an_event_without_teams_has_none() -> None:
    assert settings_of(EVENT).of(TEAM_SETTINGS) is None


def test_team_defaults() -> None:
    settings = settings_of(EVENT + f'[{T}]\nformation = "partner"\nsize = 2\n').of(TEAM_SETTINGS)
    assert settings == TeamSettings(formation=Formation.PARTNER, size=2)
    assert settings.goal is None
    assert (settings.on_leave, settings.on_complete) == (OnLeave.KEEP_CONTRIBUTION, OnComplete.CONTINUE)
    assert (settings.board, settings.milestones, settings.rank_rewards) == (False, (), ())


def test_team_rank_rewards_are_an_events_rank_bands() -> None:
    text = EVENT + teams(rank_rewards=f"[{BAND}]")
    teams_ = settings_of(text).of(TEAM_SETTINGS)
    assert teams_ is not None
    assert teams_.rank_rewards == (RankBand(1, 3, (Entry(ResourceType.CURRENCY, "coins", 5),)),)


def milestone(key: str = "m", threshold: str = "100", rewards: str = COINS) -> str:
    return f'{{ key = "{key}", threshold = {threshold}, rewards = {rewards} }}'


# (what follows the event table, the one path refused, a fragment of its message)
REFUSALS = [
    (teams(formation='"guild"'), f"{T}.formation", "external, partner"),
    (teams(formation=""), f"{T}.formation", "required"),
    (teams(on_leave='"forget"'), f"{T}.on_leave", "keep_contribution, remove_contribution"),
    (teams(on_complete='"halt"'), f"{T}.on_complete", "continue, stop_contributions"),
    (teams(size="1"), f"{T}.size", f"from 2 to {TEAM_SIZE_MAX}"),
    (teams(size=str(TEAM_SIZE_MAX + 1)), f"{T}.size", f"from 2 to {TEAM_SIZE_MAX}"),
    (teams(size=""), f"{T}.size", "required"),
    (teams(size="2.5"), f"{T}.size", "integer"),
    (teams(formation='"partner"', size="3"), f"{T}.size", "a partner team is a pair"),
    (teams(goal="0"), f"{T}.goal", "greater than 0"),
    (teams(goal="-5"), f"{T}.goal", "greater than 0"),
    (teams(goal="inf"), f"{T}.goal", "finite"),
    (teams(goal="nan"), f"{T}.goal", "finite"),
    (teams(goal='"5000"'), f"{T}.goal", "number"),
    (teams(goal="", milestones="[]", on_complete='"stop_contributions"'), f"{T}.goal", "required with"),
    (teams(board="1"), f"{T}.board", "bool"),
    (
        teams(milestones=f"[{milestone('a')}, {milestone('a', '200')}]"),
        f"{T}.milestones[1].key",
        "milestones[0]",
    ),
    (teams(milestones=f"[{milestone(threshold='0')}]"), f"{T}.milestones[0].threshold", "greater than 0"),
    (teams(milestones=f"[{milestone(threshold='-1')}]"), f"{T}.milestones[0].threshold", "greater than 0"),
    (teams(milestones=f"[{milestone(threshold='inf')}]"), f"{T}.milestones[0].threshold", "finite"),
    (
        teams(on_complete='"stop_contributions"', milestones=f"[{milestone(threshold='5001')}]"),
        f"{T}.milestones[0].threshold",
        "at most the goal (5000)",
    ),
    (teams(milestones=f"[{milestone(rewards='[]')}]"), f"{T}.milestones[0].rewards", "at least one reward"),
    (teams(milestones='[{ key = "m", threshold = 1 }]'), f"{T}.milestones[0].rewards", "at least one reward"),
    (teams(milestones=f"[{milestone(key='Not A Key')}]"), f"{T}.milestones[0].key", "lower-case"),
    (
        teams(milestones=f"[{milestone(rewards=GEMS)}]"),
        f"{T}.milestones[0].rewards[0].key",
        "no currency named gems",
    ),
    (
        teams(milestones=f"[{milestone(rewards=NO_COINS)}]"),
        f"{T}.milestones[0].rewards[0].amount",
        "from 1 to 1,000,000,000,000",
    ),
    (
        teams(rank_rewards=f"[{{ from = 3, to = 1, rewards = {COINS} }}]"),
        f"{T}.rank_rewards[0].to",
        "at least from (3)",
    ),
    (
        teams(rank_rewards=f"[{{ from = 1, to = 10001, rewards = {COINS} }}]"),
        f"{T}.rank_rewards[0].to",
        "rank from 1 to 10000",
    ),
    (
        teams(rank_rewards=f"[{BAND}, {{ from = 3, to = 4, rewards = {COINS} }}]"),
        f"{T}.rank_rewards[1]",
        "overlap rank_rewards[0]",
    ),
    (
        teams(rank_rewards="[{ from = 1, to = 3, rewards = [] }]"),
        f"{T}.rank_rewards[0].rewards",
        "at least one",
    ),
    (
        teams(board="false", rank_rewards=f"[{BAND}]"),
        f"{T}.rank_rewards",
        "needs board = true",
    ),
    (
        teams(board="", rank_rewards=f"[{BAND}]"),
        f"{T}.rank_rewards",
        "needs board = true",
    ),
    (TEAMS + "captain = true\n", f"{T}.captain", "not a known field"),
    ("teams = 3\n", f"{T}", "must be a table"),
    (TEAMS + f"[{E}.lobby]\ncapacity = 8\nfill_seconds = 60\n", f"{T}", "lobbies or in teams, not both"),
]


@pytest.mark.parametrize(("tail", "path", "fragment"), REFUSALS)
def test_teams_refused_with_exact_path(tail: str, path: str, fragment: str) -> None:
    problems = problems_of(EVENT + tail)
    assert list(problems) == [path], problems
    assert fragment in problems[path]


def test_teams_on_an_asc_event_are_refused() -> None:
    text = EVENT.replace('score_metric = "score"', 'score_metric = "score"\norder = "asc"') + TEAMS
    problems = problems_of(text)
    assert list(problems) == [T], problems
    assert 'only an order = "desc" event has teams' in problems[T]


def test_every_team_problem_is_reported_at_once() -> None:
    text = EVENT + teams(
        size="0",
        goal="-1",
        milestones=f"[{milestone(threshold='0')}]",
        board="false",
        rank_rewards=f"[{BAND}]",
    )
    assert set(problems_of(text)) == {
        f"{T}.size",
        f"{T}.goal",
        f"{T}.milestones[0].threshold",
        f"{T}.rank_rewards",
    }


@pytest.mark.parametrize(
    "tail",
    [
        teams(size="2"),
        teams(size=str(TEAM_SIZE_MAX)),
        teams(formation='"partner"', size="2"),
        teams(goal="0.5", milestones=f"[{milestone(threshold='0.25')}]"),
        teams(goal=""),
        teams(on_complete='"stop_contributions"', milestones=f"[{milestone(threshold='5000')}]"),
        teams(on_leave='"remove_contribution"'),
        teams(milestones=""),
        teams(board="true", rank_rewards=f"[{{ from = 1, to = 10000, rewards = {COINS} }}]"),
    ],
)
def test_boundary_team_values_are_accepted(tail: str) -> None:
    assert settings_of(EVENT + tail).of(TEAM_SETTINGS) is not None


def test_team_settings_round_trip_through_the_stored_settings_json() -> None:
    text = EVENT + teams(
        on_leave='"remove_contribution"',
        on_complete='"stop_contributions"',
        rank_rewards=f"[{BAND}]",
    )
    settings = parse_manifest(text).games["g"].settings()
    stored = orjson.loads(orjson.dumps(settings_converter.unstructure(settings)))

    assert stored["events"]["e"]["teams"]["on_complete"] == "stop_contributions"
    back = settings_converter.structure(stored, GameSettings)
    assert back == settings
    teams_ = back.of(EVENT_SETTINGS)["e"].of(TEAM_SETTINGS)
    assert teams_ is not None
    assert isinstance(teams_.milestones, tuple)
    assert teams_.formation is Formation.EXTERNAL


def test_settings_stored_before_teams_still_load() -> None:
    """A window or a game stored before teams existed has no ``teams``: it reads as an event without."""
    settings = parse_manifest(EVENT).games["g"].settings()
    stored = orjson.loads(orjson.dumps(settings_converter.unstructure(settings)))
    stored["events"]["e"].pop("teams", None)

    event = settings_converter.structure(stored, GameSettings).of(EVENT_SETTINGS)["e"]
    assert event.of(TEAM_SETTINGS) is None
