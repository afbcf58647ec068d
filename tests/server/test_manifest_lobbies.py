"""A lobby event's manifest tables (docs/lobbies.md#the-manifest): ``[games.X.events.Y.lobby]`` and
``[[games.X.events.Y.sudden_death]]``, their refusals field by field, and their round trip through the
stored settings JSON."""

from __future__ import annotations

import attrs
import orjson
import pytest

from livecore.games import GameSettings
from livecore.live_events.settings import EVENT_SETTINGS, EventSettings
from livecore.lobbies.settings import (
    LOBBY_SETTINGS,
    SUDDEN_DEATH_SETTINGS,
    BotScore,
    LobbySettings,
    Resolution,
    SuddenDeath,
    TriggerType,
)
from livecore.manifest import ManifestError
from livecore_server.manifest import parse_manifest
from livecore_server.storage.records import settings_converter

E = "games.g.events.e"
EVENT = f"""studio = "acme"

[games.g]
name = "G"

[{E}]
name = "E"
starts_at = "2026-12-01T00:00:00Z"
window_seconds = 3600
attempt_seconds = 600
score_metric = "score"
"""
# A lobby table with every field, on the event ``e``.
LOBBY = f"""
[{E}.lobby]
capacity = 8
fill_seconds = 60
fill_bots = true
bot_score = {{ min = 200, max = 900 }}
"""
TRIGGER = f"""
[[{E}.sudden_death]]
label = "first-to-1000"
type = "score_reached"
threshold = 1000
resolution = "freeze"
"""


def settings_of(text: str) -> EventSettings:
    return parse_manifest(text).games["g"].settings().of(EVENT_SETTINGS)["e"]


def problems_of(text: str) -> dict[str, str]:
    with pytest.raises(ManifestError) as caught:
        parse_manifest(text)
    return caught.value.problems


def test_decisions_lobby_example_becomes_event_settings() -> None:
    text = (
        EVENT
        + LOBBY
        + TRIGGER
        + TRIGGER.replace("first-to-1000", "ten-done")
        .replace("score_reached", "completed_count")
        .replace("1000\n", "10\n")
        .replace("freeze", "close")
    )
    settings = settings_of(text)
    assert settings.of(LOBBY_SETTINGS) == LobbySettings(
        capacity=8, fill_seconds=60, fill_bots=True, bot_score=BotScore(200.0, 900.0)
    )
    assert settings.of(SUDDEN_DEATH_SETTINGS) == (
        SuddenDeath("first-to-1000", TriggerType.SCORE_REACHED, 1000.0, Resolution.FREEZE),
        SuddenDeath("ten-done", TriggerType.COMPLETED_COUNT, 10.0, Resolution.CLOSE),
    )


def test_an_event_without_a_lobby_has_none_and_no_sudden_death() -> None:
    settings = settings_of(EVENT)
    assert (settings.of(LOBBY_SETTINGS), settings.of(SUDDEN_DEATH_SETTINGS)) == (None, ())


def test_lobby_defaults_without_bots() -> None:
    settings = settings_of(EVENT + f"[{E}.lobby]\ncapacity = 2\nfill_seconds = 1\n")
    assert settings.of(LOBBY_SETTINGS) == LobbySettings(capacity=2, fill_seconds=1)
    assert (settings.of(LOBBY_SETTINGS).fill_bots, settings.of(LOBBY_SETTINGS).bot_score) == (False, None)


def lobby(**fields: str) -> str:
    """The example lobby table with ``fields`` replaced (an empty value removes the field)."""
    lines = []
    for line in LOBBY.strip().splitlines():
        name = line.split("=")[0].strip()
        if name in fields:
            if fields[name]:
                lines.append(f"{name} = {fields[name]}")
        else:
            lines.append(line)
    return "\n" + "\n".join(lines) + "\n"


def trigger(**fields: str) -> str:
    text = TRIGGER
    for name, value in fields.items():
        text = "\n".join(
            f"{name} = {value}" if line.split("=")[0].strip() == name else line for line in text.splitlines()
        )
    return text + "\n"


# (what follows the event table, the one path refused, a fragment of its message)
REFUSALS = [
    (lobby(capacity="1"), f"{E}.lobby.capacity", "from 2 to 10000"),
    (lobby(capacity="10001"), f"{E}.lobby.capacity", "from 2 to 10000"),
    (lobby(capacity='"8"'), f"{E}.lobby.capacity", "integer"),
    (lobby(capacity=""), f"{E}.lobby.capacity", "required"),
    (lobby(fill_seconds="0"), f"{E}.lobby.fill_seconds", "from 1 to"),
    (lobby(fill_seconds=""), f"{E}.lobby.fill_seconds", "required"),
    (lobby(bot_score="{ min = 900, max = 200 }"), f"{E}.lobby.bot_score.max", "at least min (900)"),
    (lobby(bot_score="{ min = -1, max = 200 }"), f"{E}.lobby.bot_score.min", "not negative"),
    (lobby(bot_score="{ min = 1, max = inf }"), f"{E}.lobby.bot_score.max", "finite"),
    (lobby(bot_score="{ min = 1 }"), f"{E}.lobby.bot_score.max", "required"),
    (lobby(bot_score=""), f"{E}.lobby.bot_score", "required when fill_bots = true"),
    (lobby(bot_score="5"), f"{E}.lobby.bot_score", "must be a table"),
    (LOBBY + "bots = 1\n", f"{E}.lobby.bots", "not a known field"),
    ("lobby = 3\n", f"{E}.lobby", "must be a table"),
    (LOBBY + trigger(type='"score"'), f"{E}.sudden_death[0].type", "score_reached, completed_count"),
    (LOBBY + trigger(resolution='"stop"'), f"{E}.sudden_death[0].resolution", "freeze, close"),
    (LOBBY + trigger(threshold="0"), f"{E}.sudden_death[0].threshold", "greater than 0"),
    (LOBBY + trigger(threshold="-5"), f"{E}.sudden_death[0].threshold", "greater than 0"),
    (LOBBY + trigger(threshold="nan"), f"{E}.sudden_death[0].threshold", "finite"),
    (LOBBY + trigger(threshold="inf"), f"{E}.sudden_death[0].threshold", "finite"),
    (LOBBY + trigger(threshold='"1"'), f"{E}.sudden_death[0].threshold", "number"),
    (LOBBY + trigger(label='"Not A Key"'), f"{E}.sudden_death[0].label", "lower-case"),
    (LOBBY + TRIGGER + trigger(type='"completed_count"'), f"{E}.sudden_death[1].label", "sudden_death[0]"),
    (TRIGGER, f"{E}.sudden_death", "only a lobby event"),
]


@pytest.mark.parametrize(("tail", "path", "fragment"), REFUSALS)
def test_lobby_refused_with_exact_path(tail: str, path: str, fragment: str) -> None:
    problems = problems_of(EVENT + tail)
    assert list(problems) == [path], problems
    assert fragment in problems[path]


def test_every_lobby_problem_is_reported_at_once() -> None:
    text = EVENT + lobby(capacity="1", fill_seconds="0", bot_score="") + trigger(threshold="0")
    assert set(problems_of(text)) == {
        f"{E}.lobby.capacity",
        f"{E}.lobby.fill_seconds",
        f"{E}.lobby.bot_score",
        f"{E}.sudden_death[0].threshold",
    }


@pytest.mark.parametrize(
    "tail",
    [
        lobby(capacity="10000"),
        lobby(bot_score="{ min = 0, max = 0 }"),
        lobby(bot_score="{ min = 0.5, max = 0.75 }"),
        lobby(fill_bots="false", bot_score=""),
        LOBBY + trigger(threshold="0.001"),
    ],
)
def test_boundary_lobby_values_are_accepted(tail: str) -> None:
    assert settings_of(EVENT + tail).of(LOBBY_SETTINGS) is not None


def test_lobby_settings_round_trip_through_the_stored_settings_json() -> None:
    settings = parse_manifest(EVENT + LOBBY + TRIGGER).games["g"].settings()
    stored = orjson.loads(orjson.dumps(settings_converter.unstructure(settings)))

    assert stored["events"]["e"]["lobby"]["bot_score"] == {"min": 200, "max": 900}
    back = settings_converter.structure(stored, GameSettings)
    assert back == settings
    assert isinstance(back.of(EVENT_SETTINGS)["e"].of(SUDDEN_DEATH_SETTINGS), tuple)
    assert back.of(EVENT_SETTINGS)["e"].of(SUDDEN_DEATH_SETTINGS)[0].type is TriggerType.SCORE_REACHED


def test_settings_stored_before_lobbies_still_load() -> None:
    """A window or a game stored before lobbies existed has neither field: it reads as no lobby."""
    settings = parse_manifest(EVENT).games["g"].settings()
    stored = orjson.loads(orjson.dumps(settings_converter.unstructure(settings)))
    del stored["events"]["e"]["lobby"], stored["events"]["e"]["sudden_death"]

    event = settings_converter.structure(stored, GameSettings).of(EVENT_SETTINGS)["e"]
    assert event == attrs.evolve(settings.of(EVENT_SETTINGS)["e"])
    assert (event.of(LOBBY_SETTINGS), event.of(SUDDEN_DEATH_SETTINGS)) == (None, ())
