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
      gift = { coins = 5 }            what a gift is of: each resource (giftable in the game) and its
                                      amount a gift (1 to its max_per_gift; a fraction plays the whole
                                      amounts either side of it at that mean); with several, each as
                                      { amount = 5, share = 0.75 }: a gift is of a resource by its share
                                      (above 0 to 1, default 1) over the segment's shares' sum. Default:
                                      none, a gift is of any giftable resource, 1 to its max_per_gift
      guilds = 0.3                    chance a session outside a guild joins or founds one; inside one,
                                      the chance it asks its guild for help, and donates to a request
      crates = 0.8                    chance a session opens the crates the player holds
      spend = 0.2                     chance a session spends currency
      spend_share = 0.5               the share of each currency's balance a spend takes (0 to 1)
      claims = 0.9                    chance a session claims the player's pending gifts and grants
      reward_return = 0               how a player comes back by what it got (docs/simulation.md#the-
      setback_return = 0              behaviour-model): a reward raises, a setback lowers its sessions;
      churn_below = 0                 below this level as a day ends, it leaves the game
      price_response = 0              an offer's chance times (reference / price) to this power (0 to 10)
      wealth_response = 0             and times (balance / price) to this power (0 to 10)

    [events.<key>]                    an event's score range; default: from the manifest (below)
      worst = 0                       the score of a player of skill 0
      best = 1000                     the score of a player of skill 1 (below worst on an ``asc`` event)

    [leaderboards.<key>]              a shared board no event feeds: the studio's backend submits a
      worst = 0                       score for the player at each session it plays its events, on this
      best = 1000                     range (default 0 to 1,000, reversed on an ``asc`` board)

    [economy]
      spend = ["coins"]               the currencies players spend by their spend chance (default: none;
                                      the players spend on the offers and the costs the game prices)

    [studio]                          what the studio's backend does
      crates = { <crate> = 0.1 }      crates it sends a player per day the player plays; default: 0.1 of
                                      each crate the manifest declares
      login_credit = { <currency> = 20 }  currency it credits a player at its first session of a day

    [studio.offers.<key>]             what the studio's shop sells (livecore/grants/offers.py)
      price = { coins = 100 }         one currency and its amount
      gives = [{ type = "crate", key = "bronze-chest", amount = 1 }]  one grant's entries
      buy = 0.05                      a session's chance to buy it, at reference (default: its price)

A segment's ``share``, ``sessions_per_day``, ``score`` and the ``reward_return``, ``setback_return`` and
``churn_below`` of the behaviour model (:mod:`livecore.simulation.behaviour`) are the population's own;
the rest are the areas' (``price_response``, ``wealth_response`` and ``[studio.offers]`` the grants').
The ``events`` and ``attempts_per_session`` fields of a segment and ``[events]`` are the live
events' (``livecore/live_events/season.py``), ``[leaderboards]`` the shared boards', ``spend``,
``spend_share``, ``[economy]`` and ``[studio] login_credit`` the economy's, ``claims`` the grants'; the
``lobbies``, ``teams``, ``friends``, ``gifts``, ``gift``, ``guilds`` and ``crates`` fields and ``[studio]
crates`` are those areas'. Each area adds them with its part of a season (its
:attr:`~livecore.area.Area.season`, :mod:`livecore.simulation.part`): a number
(:class:`~livecore.simulation.part.Rate`), or a table by key
(:class:`~livecore.simulation.part.SegmentTable`, ``gift``: the area parses it, writes it back and checks
it against the game), as a studio's area may add its own; this module names none of them.

Numbers are finite (a chance from 0 to 1); integers are whole (``1.0`` and ``true`` are not integers).
:func:`write_population` writes a population as text this module reads back (a fitted one:
:mod:`livecore.simulation.fitting`).
:func:`check_population` checks a population against the game it plays: the events, the keys of an
area's ``[studio]`` tables (crates, currencies credited), the currencies it names and the keys of a
segment's tables (the resources it gifts, giftable) must be declared there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from livecore import registry
from livecore.area import Area
from livecore.errors import FileProblems
from livecore.games import GameSettings
from livecore.section import read_toml
from livecore.simulation import behaviour
from livecore.simulation.fields import CHANCE, Problems, Scale, key, table, unknown, value, written
from livecore.simulation.part import PopulationTable, Rate, SeasonPart, SegmentTable, StudioRates


class PopulationError(FileProblems):
    """The population was refused: ``problems`` maps each offending field path
    (``segments.whales.share``) to what is wrong, every problem at once."""


@attrs.frozen
class Skill:
    """A segment's skill: each player draws its own from a normal distribution of ``mean`` and ``sd``
    (kept between 0 and 1), and each attempt lands near it (the docs' model)."""

    mean: float = 0.5
    sd: float = 0.15


@attrs.frozen
class Segment:
    """``[segments.<name>]``: one kind of player (the module's docstring lists each field); ``rates``
    holds the fields the areas add (:class:`~livecore.simulation.part.Rate`) that the segment sets, and
    ``tables`` those that are tables by key (:class:`~livecore.simulation.part.SegmentTable`), each by
    name."""

    name: str
    share: float
    sessions_per_day: float = 1.0
    score: Skill = Skill()
    rates: Mapping[str, float] = attrs.field(factory=dict)
    tables: Mapping[str, Any] = attrs.field(factory=dict)

    def rate(self, rate: Rate) -> float:
        """The segment's chance for a field an area adds: as set, else the field's default."""
        return self.rates.get(rate.name, rate.default)

    def table(self, table: SegmentTable) -> Any:
        """The segment's value of a table field an area adds, None where it leaves it out."""
        return self.tables.get(table.name)


def _parts(areas: Sequence[Area] | None) -> list[SeasonPart]:
    """The season parts of the areas played; None: of the installed areas."""
    played = registry.installed() if areas is None else areas
    return [area.season for area in played if area.season is not None]


def _rates(areas: Sequence[Area] | None) -> dict[str, Rate]:
    """The segment fields the season's behaviour model and the areas add, by name."""
    added = [rate for part in _parts(areas) for rate in part.rates]
    return {rate.name: rate for rate in (*behaviour.RATES, *added)}


def _segment_tables(areas: Sequence[Area] | None) -> dict[str, SegmentTable]:
    """The segment fields the areas add that are tables by key, by name."""
    return {t.name: t for part in _parts(areas) for t in part.segment_tables}


def _tables(areas: Sequence[Area] | None) -> dict[str, StudioRates]:
    """The ``[studio]`` tables the areas add, by name."""
    return {t.name: t for part in _parts(areas) for t in part.studio}


def _population_tables(areas: Sequence[Area] | None) -> dict[str, PopulationTable]:
    """The population's tables the areas add, by name."""
    return {t.name: t for part in _parts(areas) for t in part.tables}


def _defaults(segment: Segment, areas: Sequence[Area] | None = None) -> Segment:
    """A default segment with the areas' values for it written in."""
    rates = _rates(areas).values()
    found = {r.name: r.defaults[segment.name] for r in rates if segment.name in r.defaults}
    return attrs.evolve(segment, rates=found)


@attrs.frozen
class Studio:
    """``[studio]``: the tables the areas add (:class:`~livecore.simulation.part.StudioRates`: what the
    studio's backend gives a player per day it plays, ``login_credit``, ``crates``) that the population
    sets, by name."""

    rates: dict[str, dict[str, float]] = attrs.field(factory=dict)


_BASE_SEGMENTS = (
    Segment(name="engaged", share=0.15, sessions_per_day=3.0, score=Skill(0.65, 0.15)),
    Segment(name="regular", share=0.45, sessions_per_day=1.2, score=Skill(0.5, 0.15)),
    Segment(name="casual", share=0.4, sessions_per_day=0.35, score=Skill(0.35, 0.15)),
)
#: The segments of a population that declares none: a few engaged players, many regular ones, and casual
#: ones who come back now and then.
DEFAULT_SEGMENTS: tuple[Segment, ...] = tuple(_defaults(segment) for segment in _BASE_SEGMENTS)


@attrs.frozen
class Population:
    """A parsed population: its segments (the shares summing to 1), what the studio's backend does, and
    the values of the tables the areas add that the file sets (:meth:`table`), by name."""

    segments: tuple[Segment, ...] = DEFAULT_SEGMENTS
    studio: Studio = Studio()
    tables: Mapping[str, Any] = attrs.field(factory=dict)

    def table(self, table: PopulationTable) -> Any:
        """The value of a table an area adds, None where the file leaves it out."""
        return self.tables.get(table.name)

    def idle(self) -> str | None:
        """What of this population plays no session in a season, in one line: its segments of no player
        (``share = 0``) or of no session (``sessions_per_day = 0``), and whether that is every player;
        None where every segment plays. A population fitted on too little history is one (each player
        seen in one session): a comparison with it would be every row 0 against the other's."""
        idle = [s for s in self.segments if s.share <= 0 or s.sessions_per_day <= 0]
        if not idle:
            return None
        named = ", ".join(
            f"segments.{s.name}.{'share' if s.share <= 0 else 'sessions_per_day'} = 0" for s in idle
        )
        if len(idle) == len(self.segments):
            return (
                f"no segment plays a session ({named}): a season with this population plays nothing,"
                " and a comparison with it is every row 0 against the other's"
            )
        those = "those segments play" if len(idle) > 1 else "that segment plays"
        return f"{named}: {those} no session in a season"

    def pinned(
        self, base: GameSettings, other: GameSettings, areas: Sequence[Area] | None = None
    ) -> Population:
        """This population with what ``base`` places written into the areas' tables that pin it (the
        score ranges of its events and boards that ``other`` has too, of the same order): two manifests
        compared with one population place one skill at one score, though the second's milestones (from
        which a default range is read) differ. ``areas``: the areas played."""
        parts = _parts(areas)
        tables = dict(self.tables)
        for name, found in _population_tables(areas).items():
            if found.pin is not None:
                tables[name] = found.pin(self.tables.get(name), base, other, parts)
        return attrs.evolve(self, tables=tables)

    def against(self, base: Population, areas: Sequence[Area] | None = None) -> Population:
        """This population, compared with ``base``, with what the two share written into the areas'
        tables that say so (:attr:`PopulationTable.against`: an offer's reference price, the base's
        price), so a price changed in this file is measured against the base's."""
        tables = dict(self.tables)
        for name, found in _population_tables(areas).items():
            if found.against is not None:
                value = found.against(self.tables.get(name), base.tables.get(name))
                if value is None:
                    tables.pop(name, None)
                else:
                    tables[name] = value
        return attrs.evolve(self, tables=tables)

    def sent(self, table: StudioRates, settings: GameSettings) -> dict[str, float]:
        """What the studio sends a player per day it plays of an area's ``[studio]`` table, by key: the
        population's, else the table's default of each key the game declares (none without a default)."""
        found = self.studio.rates.get(table.name)
        if found is not None:
            return dict(found)
        if table.default is None:
            return {}
        return dict.fromkeys(sorted(table.keys(settings)), table.default)


# --- parsing ------------------------------------------------------------------------------------------

# Each segment field: (its check, its bounds), in the order the docstring lists them.
_SEGMENT_FIELDS: dict[str, tuple[str, tuple[float, float]]] = {
    "share": ("number", (0.0, 1.0)),
    "sessions_per_day": ("number", (0.0, 48.0)),
}
_SEGMENT_KNOWN = {*_SEGMENT_FIELDS, "score"}


def _segment(
    name: str,
    raw: Any,
    path: str,
    problems: Problems,
    rates: Mapping[str, Rate],
    tables: Mapping[str, SegmentTable],
) -> Segment | None:
    found = table(raw, path, problems)
    if found is None or not key(name, path, problems):
        return None
    unknown(found, {*_SEGMENT_KNOWN, *rates, *tables}, path, problems)
    fields: dict[str, Any] = {}
    added: dict[str, float] = {}
    tabled: dict[str, Any] = {}
    ok = True
    if "share" not in found:
        problems[f"{path}.share"] = "is required"
        ok = False
    for field, (kind, bounds) in _SEGMENT_FIELDS.items():
        if field in found:
            given = found[field]
            if value(given, kind, bounds, f"{path}.{field}", problems):
                fields[field] = float(given) if kind == "number" else given
            else:
                ok = False
    for field, rate in rates.items():
        if field in found and field not in _SEGMENT_KNOWN:
            kind = "int" if rate.whole else "number"
            if value(found[field], kind, rate.bounds, f"{path}.{field}", problems):
                added[field] = found[field] if rate.whole else float(found[field])
            else:
                ok = False
    for field, added_table in tables.items():
        if field in found and field not in _SEGMENT_KNOWN:
            parsed = added_table.parse(found[field], f"{path}.{field}", problems)
            if parsed is None:
                ok = False
            else:
                tabled[field] = parsed
    if "score" in found:
        score = table(found["score"], f"{path}.score", problems)
        if score is None:
            ok = False
        else:
            unknown(score, {"mean", "sd"}, f"{path}.score", problems)
            parts = {"mean": 0.5, "sd": 0.15}
            for part, bounds in (("mean", CHANCE), ("sd", (0.0, 1.0))):
                if part in score:
                    if value(score[part], "number", bounds, f"{path}.score.{part}", problems):
                        parts[part] = float(score[part])
                    else:
                        ok = False
            fields["score"] = Skill(**parts)
    curve = behaviour.curve_problem(
        added.get(behaviour.RETURN_D1.name, 0.0), added.get(behaviour.RETURN_D7.name, 0.0)
    )
    if curve is not None:
        problems[f"{path}.{behaviour.RETURN_D7.name}"] = curve
        ok = False
    return Segment(name=name, **fields, rates=added, tables=tabled) if ok else None


def _amounts(
    raw: Any, kind: str, bounds: tuple[float, float], path: str, problems: Problems
) -> dict[str, Any] | None:
    found = table(raw, path, problems)
    if found is None:
        return None
    out: dict[str, Any] = {}
    for name, given in found.items():
        if key(name, f"{path}.{name}", problems) and value(given, kind, bounds, f"{path}.{name}", problems):
            out[name] = float(given) if kind == "number" else given
    return out if len(out) == len(found) else None


def _studio(
    raw: Any, problems: Problems, tables: Mapping[str, StudioRates], studio_tables: set[str]
) -> Studio | None:
    found = table(raw, "studio", problems)
    if found is None:
        return None
    unknown(found, {*tables, *studio_tables}, "studio", problems)
    rates: dict[str, dict[str, float]] = {}
    ok = True
    for name, added in tables.items():
        if name in found:
            kind = "int" if added.whole else "number"
            found_rates = _amounts(found[name], kind, added.bounds, f"studio.{name}", problems)
            if found_rates is None:
                ok = False
            else:
                rates[name] = found_rates
    return Studio(rates=rates) if ok else None


def parse_population(text: str, areas: Sequence[Area] | None = None) -> Population:
    """Parse population TOML text (the module's docstring); raise :class:`PopulationError` naming every
    problem. Empty text is the default population. ``areas``: the areas played (the built-in ones, and a
    studio's after them), whose segment fields, ``[studio]`` tables and tables
    (:attr:`~livecore.area.Area.season`) the file may set."""
    try:
        data = read_toml(text)
    except ValueError as exc:
        raise PopulationError({"population": str(exc)}) from None
    problems: Problems = {}
    added = _population_tables(areas)
    unknown(data, {"segments", "studio", *(n for n, t in added.items() if not t.studio)}, "", problems)
    problems = {k.lstrip("."): v for k, v in problems.items()}
    segments: list[Segment] = []
    rates, segment_tables = _rates(areas), _segment_tables(areas)
    if "segments" in data:
        found = table(data["segments"], "segments", problems)
        if found is not None and not found:
            problems["segments"] = "must declare at least one segment"
        for name, raw in (found or {}).items():
            segment = _segment(name, raw, f"segments.{name}", problems, rates, segment_tables)
            if segment is not None:
                segments.append(segment)
        if found and len(segments) == len(found):
            total = sum(s.share for s in segments)
            if abs(total - 1.0) > 1e-6:
                problems["segments"] = f"the shares must sum to 1 (they sum to {total:g})"
    tables: dict[str, Any] = {}
    studio_section = data.get("studio")
    for name, added_table in added.items():
        holder = studio_section if added_table.studio else data
        if isinstance(holder, dict) and name in holder:
            parsed = added_table.parse(holder[name], problems)
            if parsed is not None:
                tables[name] = parsed
    studio = Studio()
    if "studio" in data:
        in_studio = {name for name, t in added.items() if t.studio}
        studio = _studio(data["studio"], problems, _tables(areas), in_studio) or studio
    if problems:
        raise PopulationError(problems)
    return Population(
        segments=tuple(segments) or tuple(_defaults(segment, areas) for segment in _BASE_SEGMENTS),
        studio=studio,
        tables=tables,
    )


# --- writing ------------------------------------------------------------------------------------------


def write_population(
    population: Population, header: Sequence[str] = (), areas: Sequence[Area] | None = None
) -> str:
    """Population TOML text :func:`parse_population` reads back as ``population``: ``header`` first, as
    comment lines, then its segments (every field it sets), the tables the areas add (``[events]``,
    ``[economy]``), each by its table's ``write``, and its ``[studio]`` tables. A table no area played can
    write is refused (``ValueError``). ``areas``: the areas played, whose fields tell an integer from a
    number."""
    added, segment_tables = _population_tables(areas), _segment_tables(areas)
    unwritten = sorted(n for n in population.tables if n not in added or added[n].write is None)
    unwritten += sorted({n for s in population.segments for n in s.tables if n not in segment_tables})
    if unwritten:
        raise ValueError(f"these tables cannot be written: {', '.join(unwritten)}")
    rates = _rates(areas)
    lines = [f"# {line}".rstrip() for line in header]
    for segment in population.segments:
        lines += ["", f"[segments.{segment.name}]", f"share = {written(segment.share)}"]
        lines.append(f"sessions_per_day = {written(segment.sessions_per_day)}")
        skill = segment.score
        lines.append(f"score = {{ mean = {written(skill.mean)}, sd = {written(skill.sd)} }}")
        for name, found in segment.rates.items():
            lines.append(f"{name} = {written(found, name in rates and rates[name].whole)}")
        for name, tabled in segment.tables.items():
            lines.append(f"{name} = {segment_tables[name].write(tabled)}")
    # The studio's own tables (``[studio.offers.<key>]``) follow ``[studio]``'s plain fields.
    for studio in (False, True):
        for name, fitted in population.tables.items():
            write = added[name].write
            assert write is not None
            if added[name].studio is studio:
                lines += ["", *write(fitted)]
        if not studio and population.studio.rates:
            tables = _tables(areas)
            lines += ["", "[studio]"]
            for name, sent in population.studio.rates.items():
                whole = name in tables and tables[name].whole
                pairs = ", ".join(f"{key} = {written(amount, whole)}" for key, amount in sent.items())
                lines.append(f"{name} = {{ {pairs} }}")
    return "\n".join(lines).lstrip("\n") + "\n"


def check_population(
    population: Population, settings: GameSettings, areas: Sequence[Area] | None = None
) -> None:
    """Refuse (:class:`PopulationError`) a population naming what the game does not declare: what the areas'
    tables name (an event, a shared board, a currency spent), what an area's ``[studio]`` table gives (a
    crate, a currency credited), what a segment's table field names (a resource it gifts); and a score range
    whose best is not the better end by its event's or board's order. ``areas``: the areas played."""
    problems: Problems = {}
    for name, added in _population_tables(areas).items():
        if name in population.tables:
            added.check(population.tables[name], settings, problems)
    segment_tables = _segment_tables(areas)
    for segment in population.segments:
        for name, tabled in segment.tables.items():
            if name in segment_tables:
                segment_tables[name].check(tabled, settings, f"segments.{segment.name}.{name}", problems)
    tables = _tables(areas)
    for name, rates in population.studio.rates.items():
        declared = set(tables[name].keys(settings)) if name in tables else set()
        noun = tables[name].noun if name in tables else name
        listed = tables[name].listed if name in tables else True
        for rate_key in rates:
            if rate_key not in declared:
                known = f" (its {noun}s: {', '.join(sorted(declared)) or 'none'})" if listed else ""
                problems[f"studio.{name}.{rate_key}"] = f"is not a {noun} of the game{known}"
    if problems:
        raise PopulationError(problems)


__all__ = [
    "DEFAULT_SEGMENTS",
    "Population",
    "PopulationError",
    "Scale",
    "Segment",
    "Skill",
    "Studio",
    "check_population",
    "parse_population",
    "write_population",
]
