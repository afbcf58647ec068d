"""A population of simulated players (docs/simulation.md#the-population): who plays a season, how often
and how well, and what else they do. Parsed from TOML text, purely (no file), with every problem named by
its field path, as the manifest's are (:class:`PopulationError`, like
:class:`~livecore.manifest.ManifestError`).

Shape (every field optional; unknown fields are refused at every depth)::

    [segments.<name>]                 one or more; none declared: the three default segments
      share = 0.5                     the segment's share of the players (the shares sum to 1)
      sessions_per_day = 1.0          sessions a player of the segment plays a day, on average (0 to 48)
      events = 0.8                    chance a session plays each open event (neither lobbies nor teams)
      attempts_per_session = 1        attempts a session makes at each event it plays (1 to 20)
      score = { mean = 0.5, sd = 0.15 }  skill, as a share of the event's score range (0 worst, 1 best)
      lobbies = 0.5                   chance a session plays each open lobby event
      teams = 0.5                     chance a session plays each open team event (teaming up first)
      friends = 5                     friends a player looks for on its first day (0 to 500)
      gifts = 0.3                     chance a session sends a gift to a friend
      guilds = 0.3                    chance a session outside a guild joins or founds one; inside one,
                                      the chance it asks its guild for help, and donates to a request
      crates = 0.8                    chance a session opens the crates the player holds
      spend = 0.2                     chance a session spends currency
      spend_share = 0.5               the share of each currency's balance a spend takes (0 to 1)
      claims = 0.9                    chance a session claims the player's pending gifts and grants

    [events.<key>]                    an event's score range; default: from the manifest (below)
      worst = 0                       the score of a player of skill 0
      best = 1000                     the score of a player of skill 1 (below worst on an ``asc`` event)

    [leaderboards.<key>]              a shared board no event feeds: the studio's backend submits a
      worst = 0                       score for the player at each session it plays its events, on this
      best = 1000                     range (default 0 to 1,000, reversed on an ``asc`` board)

    [economy]
      spend = ["coins"]               the currencies players spend (default: every currency the game
                                      declares; leave out a progression currency such as xp)

    [studio]                          what the studio's backend does
      crates = { <crate> = 0.1 }      crates it sends a player per day the player plays; default: 0.1 of
                                      each crate the manifest declares
      login_credit = { <currency> = 20 }  currency it credits a player at its first session of a day

The ``lobbies``, ``teams``, ``gifts``, ``guilds`` and ``crates`` fields of a segment and ``[studio]
crates`` are added by those areas (their :attr:`~livecore.area.Area.season`,
:mod:`livecore.simulation.part`), as a studio's area may add its own; this module names none of them.

Numbers are finite (a chance from 0 to 1); integers are whole (``1.0`` and ``true`` are not integers).
:func:`check_population` checks a population against the game it plays: the events, the keys of an
area's ``[studio]`` table (crates) and the currencies it names must be declared there.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from livecore import areas as core_areas
from livecore.area import Area
from livecore.games import GameSettings, Order, ResourceType
from livecore.leaderboards.settings import LEADERBOARD_SETTINGS, LeaderboardSettings
from livecore.live_events.settings import EVENT_SETTINGS, CheckKind, EventSettings
from livecore.section import KEY_PATTERN, is_int, is_number, read_toml
from livecore.simulation.part import Rate, StudioRates

Problems = dict[str, str]


class PopulationError(ValueError):
    """The population was refused: ``problems`` maps each offending field path
    (``segments.whales.share``) to what is wrong, every problem at once."""

    def __init__(self, problems: Mapping[str, str]) -> None:
        self.problems: dict[str, str] = dict(sorted(problems.items()))
        super().__init__(str(self))

    def __str__(self) -> str:
        return "\n".join(f"{path}: {message}" for path, message in self.problems.items())


@attrs.frozen
class Skill:
    """A segment's skill: each player draws its own from a normal distribution of ``mean`` and ``sd``
    (kept between 0 and 1), and each attempt lands near it (the docs' model)."""

    mean: float = 0.5
    sd: float = 0.15


@attrs.frozen
class Segment:
    """``[segments.<name>]``: one kind of player (the module's docstring lists each field); ``rates``
    holds the fields the areas add (:class:`~livecore.simulation.part.Rate`) that the segment sets."""

    name: str
    share: float
    sessions_per_day: float = 1.0
    events: float = 0.8
    attempts_per_session: int = 1
    score: Skill = Skill()
    friends: int = 5
    spend: float = 0.2
    spend_share: float = 0.5
    claims: float = 0.9
    rates: Mapping[str, float] = attrs.field(factory=dict)

    def rate(self, rate: Rate) -> float:
        """The segment's chance for a field an area adds: as set, else the field's default."""
        return self.rates.get(rate.name, rate.default)


def _rates(areas: Sequence[Area]) -> dict[str, Rate]:
    """The segment fields the areas add, by name."""
    return {rate.name: rate for area in areas if area.season is not None for rate in area.season.rates}


def _tables(areas: Sequence[Area]) -> dict[str, StudioRates]:
    """The ``[studio]`` tables the areas add, by name."""
    return {t.name: t for area in areas if area.season is not None for t in area.season.studio}


def _defaults(segment: Segment, areas: Sequence[Area] = core_areas.BUILT_IN) -> Segment:
    """A default segment with the areas' values for it written in."""
    rates = _rates(areas).values()
    found = {r.name: r.defaults[segment.name] for r in rates if segment.name in r.defaults}
    return attrs.evolve(segment, rates=found)


@attrs.frozen
class Scale:
    """``[events.<key>]``: the scores of a player of skill 0 (``worst``) and of skill 1 (``best``)."""

    worst: float
    best: float

    def score(self, skill: float) -> float:
        return self.worst + skill * (self.best - self.worst)


@attrs.frozen
class Studio:
    """``[studio]``: the currency the studio's backend credits at a day's first session, and the tables
    the areas add (:class:`~livecore.simulation.part.StudioRates`: what it sends a player per day it plays,
    ``crates``) that the population sets, by name."""

    login_credit: dict[str, int] = attrs.field(factory=dict)
    rates: dict[str, dict[str, float]] = attrs.field(factory=dict)


_BASE_SEGMENTS = (
    Segment(
        name="engaged",
        share=0.15,
        sessions_per_day=3.0,
        events=0.9,
        attempts_per_session=2,
        score=Skill(0.65, 0.15),
        friends=12,
        spend=0.4,
        claims=0.98,
    ),
    Segment(
        name="regular",
        share=0.45,
        sessions_per_day=1.2,
        events=0.8,
        score=Skill(0.5, 0.15),
        friends=6,
        spend=0.2,
        claims=0.9,
    ),
    Segment(
        name="casual",
        share=0.4,
        sessions_per_day=0.35,
        events=0.6,
        score=Skill(0.35, 0.15),
        friends=2,
        spend=0.1,
        claims=0.7,
    ),
)
#: The segments of a population that declares none: a few engaged players, many regular ones, and casual
#: ones who come back now and then.
DEFAULT_SEGMENTS: tuple[Segment, ...] = tuple(_defaults(segment) for segment in _BASE_SEGMENTS)


@attrs.frozen
class Population:
    """A parsed population: its segments (the shares summing to 1), the events' score ranges it sets,
    and what the studio's backend does."""

    segments: tuple[Segment, ...] = DEFAULT_SEGMENTS
    events: dict[str, Scale] = attrs.field(factory=dict)
    leaderboards: dict[str, Scale] = attrs.field(factory=dict)
    studio: Studio = Studio()
    spend: tuple[str, ...] | None = None

    def scale(self, event: EventSettings) -> Scale:
        """The event's score range: the population's, else :func:`default_scale`."""
        return self.events.get(event.key) or default_scale(event)

    def board_scale(self, board: LeaderboardSettings) -> Scale:
        """A shared board's score range: the population's, else 0 to 1,000 (1,000 to 0 when ``asc``)."""
        found = self.leaderboards.get(board.key)
        if found is not None:
            return found
        return Scale(1000.0, 0.0) if board.order is Order.ASC else Scale(0.0, 1000.0)

    def pinned(self, base: GameSettings, other: GameSettings) -> Population:
        """This population with the score ranges of ``base``'s events and boards written in, for those
        ``other`` has too (of the same order): two manifests compared with one population place one
        skill at one score, though the second's milestones (from which a default range is read) differ."""
        events = {
            key: self.scale(event)
            for key, event in base.of(EVENT_SETTINGS).items()
            if key in other.of(EVENT_SETTINGS) and other.of(EVENT_SETTINGS)[key].order is event.order
        }
        boards = {
            key: self.board_scale(board)
            for key, board in base.of(LEADERBOARD_SETTINGS).items()
            if key in other.of(LEADERBOARD_SETTINGS)
            and other.of(LEADERBOARD_SETTINGS)[key].order is board.order
        }
        return attrs.evolve(
            self, events={**events, **self.events}, leaderboards={**boards, **self.leaderboards}
        )

    def spent(self, settings: GameSettings) -> list[str]:
        """The currencies players spend: ``[economy] spend``, else every currency of the game."""
        if self.spend is not None:
            return list(self.spend)
        return [k for k, r in settings.resources.items() if r.type is ResourceType.CURRENCY]

    def sent(self, table: StudioRates, settings: GameSettings) -> dict[str, float]:
        """What the studio sends a player per day it plays of an area's ``[studio]`` table, by key: the
        population's, else the table's default of each key the game declares."""
        found = self.studio.rates.get(table.name)
        if found is not None:
            return dict(found)
        return dict.fromkeys(sorted(table.keys(settings)), table.default)


def default_scale(event: EventSettings, areas: Sequence[Area] = core_areas.BUILT_IN) -> Scale:
    """An event's score range read from its manifest, when the population sets none: its reference
    score is the median (the lower one of an even count) of what the event measures scores against (its
    milestones' thresholds, its target, and what the kinds of event the ``areas`` host add: its bots'
    best score, a sudden death's score, a team's goal shared by its members), else 1,000. On a ``desc``
    event skill 0 scores 0 and skill 1 scores 1.5 times the reference (at most an anti-cheat
    ``max_value`` limit); on an ``asc`` one (a time) skill 1 scores half the reference and skill 0 twice
    it."""
    hints: list[float] = [m.threshold for m in event.milestones]
    if event.target is not None:
        hints.append(event.target)
    for area in areas:
        for kind in area.season.events if area.season is not None else ():
            if kind.kind(event):
                hints += kind.hints(event)
    hints.sort()
    reference = (hints[(len(hints) - 1) // 2] if hints else 0.0) or 1000.0
    if event.order is Order.ASC:
        return Scale(worst=2 * reference, best=reference / 2)
    best = 1.5 * reference
    for check in event.anti_cheat:
        if check.kind is CheckKind.MAX_VALUE and check.metric == event.score_metric:
            best = min(best, check.limit)
    return Scale(worst=0.0, best=best)


# --- parsing ------------------------------------------------------------------------------------------

_CHANCE = (0.0, 1.0)
# Each segment field: (its check, its bounds), in the order the docstring lists them.
_SEGMENT_FIELDS: dict[str, tuple[str, tuple[float, float]]] = {
    "share": ("number", (0.0, 1.0)),
    "sessions_per_day": ("number", (0.0, 48.0)),
    "events": ("number", _CHANCE),
    "attempts_per_session": ("int", (1, 20)),
    "friends": ("int", (0, 500)),
    "spend": ("number", _CHANCE),
    "spend_share": ("number", _CHANCE),
    "claims": ("number", _CHANCE),
}
_SEGMENT_KNOWN = {*_SEGMENT_FIELDS, "score"}


def _describe(kind: str, bounds: tuple[float, float]) -> str:
    low, high = bounds
    noun = "an integer" if kind == "int" else "a number"
    fmt: Callable[[float], str] = (lambda v: f"{v:g}") if kind == "number" else (lambda v: f"{int(v):,}")
    return f"must be {noun} from {fmt(low)} to {fmt(high)}"


def _value(value: Any, kind: str, bounds: tuple[float, float], path: str, problems: Problems) -> bool:
    ok = is_int(value) if kind == "int" else is_number(value) and math.isfinite(value)
    if not ok or not bounds[0] <= value <= bounds[1]:
        problems[path] = _describe(kind, bounds)
        return False
    return True


def _table(value: Any, path: str, problems: Problems) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        problems[path] = "must be a table"
        return None
    return value


def _unknown(
    table: Mapping[str, Any], known: set[str] | dict[str, Any], path: str, problems: Problems
) -> None:
    for name in table:
        if name not in known:
            problems[f"{path}.{name}"] = "is not a known field"


def _key(name: str, path: str, problems: Problems) -> bool:
    if not KEY_PATTERN.fullmatch(name):
        problems[path] = "must be a key: lower-case letters, digits, '-' and '_', at most 64"
        return False
    return True


def _segment(name: str, raw: Any, path: str, problems: Problems, rates: Mapping[str, Rate]) -> Segment | None:
    table = _table(raw, path, problems)
    if table is None or not _key(name, path, problems):
        return None
    _unknown(table, {*_SEGMENT_KNOWN, *rates}, path, problems)
    fields: dict[str, Any] = {}
    added: dict[str, float] = {}
    ok = True
    if "share" not in table:
        problems[f"{path}.share"] = "is required"
        ok = False
    for field, (kind, bounds) in _SEGMENT_FIELDS.items():
        if field in table:
            value = table[field]
            if _value(value, kind, bounds, f"{path}.{field}", problems):
                fields[field] = float(value) if kind == "number" else value
            else:
                ok = False
    for field in rates:
        if field in table and field not in _SEGMENT_KNOWN:
            if _value(table[field], "number", _CHANCE, f"{path}.{field}", problems):
                added[field] = float(table[field])
            else:
                ok = False
    if "score" in table:
        score = _table(table["score"], f"{path}.score", problems)
        if score is None:
            ok = False
        else:
            _unknown(score, {"mean", "sd"}, f"{path}.score", problems)
            parts = {"mean": 0.5, "sd": 0.15}
            for part, bounds in (("mean", _CHANCE), ("sd", (0.0, 1.0))):
                if part in score:
                    if _value(score[part], "number", bounds, f"{path}.score.{part}", problems):
                        parts[part] = float(score[part])
                    else:
                        ok = False
            fields["score"] = Skill(**parts)
    return Segment(name=name, **fields, rates=added) if ok else None


def _scale(name: str, raw: Any, path: str, problems: Problems) -> Scale | None:
    table = _table(raw, path, problems)
    if table is None or not _key(name, path, problems):
        return None
    _unknown(table, {"worst", "best"}, path, problems)
    found: dict[str, float] = {}
    for field in ("worst", "best"):
        if field not in table:
            problems[f"{path}.{field}"] = "is required"
        elif not (is_number(table[field]) and math.isfinite(table[field])):
            problems[f"{path}.{field}"] = "must be a finite number"
        else:
            found[field] = float(table[field])
    if len(found) < 2:
        return None
    if found["worst"] == found["best"]:
        problems[f"{path}.best"] = "must differ from worst"
        return None
    return Scale(**found)


def _amounts(
    raw: Any, kind: str, bounds: tuple[float, float], path: str, problems: Problems
) -> dict[str, Any] | None:
    table = _table(raw, path, problems)
    if table is None:
        return None
    out: dict[str, Any] = {}
    for name, value in table.items():
        if _key(name, f"{path}.{name}", problems) and _value(value, kind, bounds, f"{path}.{name}", problems):
            out[name] = float(value) if kind == "number" else value
    return out if len(out) == len(table) else None


def _studio(raw: Any, problems: Problems, tables: Mapping[str, StudioRates]) -> Studio | None:
    table = _table(raw, "studio", problems)
    if table is None:
        return None
    _unknown(table, {*tables, "login_credit"}, "studio", problems)
    rates: dict[str, dict[str, float]] = {}
    for name in tables:
        if name in table and name != "login_credit":
            found_rates = _amounts(table[name], "number", (0.0, 100.0), f"studio.{name}", problems)
            if found_rates is None:
                return None
            rates[name] = found_rates
    credit: dict[str, int] = {}
    if "login_credit" in table:
        found = _amounts(table["login_credit"], "int", (1, 10**12), "studio.login_credit", problems)
        if found is None:
            return None
        credit = found
    return Studio(login_credit=credit, rates=rates)


def _economy(raw: Any, problems: Problems) -> tuple[str, ...] | None:
    table = _table(raw, "economy", problems)
    if table is None:
        return None
    _unknown(table, {"spend"}, "economy", problems)
    if "spend" not in table:
        return None
    keys = table["spend"]
    if not isinstance(keys, list) or not all(isinstance(k, str) and KEY_PATTERN.fullmatch(k) for k in keys):
        problems["economy.spend"] = "must be a list of currency keys"
        return None
    if len(set(keys)) != len(keys):
        problems["economy.spend"] = "must not name a currency twice"
        return None
    return tuple(keys)


def parse_population(text: str, areas: Sequence[Area] = core_areas.BUILT_IN) -> Population:
    """Parse population TOML text (the module's docstring); raise :class:`PopulationError` naming every
    problem. Empty text is the default population. ``areas``: the areas played (the built-in ones, and a
    studio's after them), whose segment fields and ``[studio]`` tables
    (:attr:`~livecore.area.Area.season`) the file may set."""
    try:
        data = read_toml(text)
    except ValueError as exc:
        raise PopulationError({"population": str(exc)}) from None
    problems: Problems = {}
    _unknown(data, {"segments", "events", "leaderboards", "economy", "studio"}, "", problems)
    problems = {k.lstrip("."): v for k, v in problems.items()}
    segments: list[Segment] = []
    rates = _rates(areas)
    if "segments" in data:
        table = _table(data["segments"], "segments", problems)
        if table is not None and not table:
            problems["segments"] = "must declare at least one segment"
        for name, raw in (table or {}).items():
            segment = _segment(name, raw, f"segments.{name}", problems, rates)
            if segment is not None:
                segments.append(segment)
        if table and len(segments) == len(table):
            total = sum(s.share for s in segments)
            if abs(total - 1.0) > 1e-6:
                problems["segments"] = f"the shares must sum to 1 (they sum to {total:g})"
    ranges: dict[str, dict[str, Scale]] = {"events": {}, "leaderboards": {}}
    for table_name, found in ranges.items():
        if table_name in data:
            for name, raw in (_table(data[table_name], table_name, problems) or {}).items():
                scale = _scale(name, raw, f"{table_name}.{name}", problems)
                if scale is not None:
                    found[name] = scale
    studio = Studio()
    if "studio" in data:
        studio = _studio(data["studio"], problems, _tables(areas)) or studio
    spend = _economy(data["economy"], problems) if "economy" in data else None
    if problems:
        raise PopulationError(problems)
    return Population(
        segments=tuple(segments) or tuple(_defaults(segment, areas) for segment in _BASE_SEGMENTS),
        events=ranges["events"],
        leaderboards=ranges["leaderboards"],
        studio=studio,
        spend=spend,
    )


def check_population(
    population: Population, settings: GameSettings, areas: Sequence[Area] = core_areas.BUILT_IN
) -> None:
    """Refuse (:class:`PopulationError`) a population naming what the game does not declare: an event,
    what an area's ``[studio]`` table sends (a crate), a currency the studio credits; and an event range
    whose best is not the better end by the event's order. ``areas``: the areas played."""
    problems: Problems = {}
    for key, scale in population.events.items():
        event = settings.of(EVENT_SETTINGS).get(key)
        if event is None:
            known = ", ".join(sorted(settings.of(EVENT_SETTINGS))) or "none"
            problems[f"events.{key}"] = f"is not an event of the game (its events: {known})"
        elif (scale.best < scale.worst) != (event.order is Order.ASC):
            better = "below" if event.order is Order.ASC else "above"
            problems[f"events.{key}.best"] = (
                f"must be {better} worst: the event's order is {event.order.value}"
            )
    for key, scale in population.leaderboards.items():
        board = settings.of(LEADERBOARD_SETTINGS).get(key)
        if board is None:
            known = ", ".join(sorted(settings.of(LEADERBOARD_SETTINGS))) or "none"
            problems[f"leaderboards.{key}"] = f"is not a shared leaderboard of the game (its boards: {known})"
        elif (scale.best < scale.worst) != (board.order is Order.ASC):
            better = "below" if board.order is Order.ASC else "above"
            problems[f"leaderboards.{key}.best"] = (
                f"must be {better} worst: the board's order is {board.order.value}"
            )
    tables = _tables(areas)
    for name, rates in population.studio.rates.items():
        declared = set(tables[name].keys(settings)) if name in tables else set()
        noun = tables[name].noun if name in tables else name
        for key in rates:
            if key not in declared:
                known = ", ".join(sorted(declared)) or "none"
                problems[f"studio.{name}.{key}"] = f"is not a {noun} of the game (its {noun}s: {known})"
    for key in population.spend or ():
        found = settings.resources.get(key)
        if found is None or found.type is not ResourceType.CURRENCY:
            problems["economy.spend"] = f"{key!r} is not a currency of the game"
    for key in population.studio.login_credit:
        found = settings.resources.get(key)
        if found is None or found.type is not ResourceType.CURRENCY:
            problems[f"studio.login_credit.{key}"] = "is not a currency of the game"
    if problems:
        raise PopulationError(problems)
