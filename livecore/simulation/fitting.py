"""Fitting a population from what happened (docs/simulation.md#fitting-a-population): the segments of
a game's players over a period, each with its share and rates, read through the store ports, so a season
is simulated with the players a game has rather than with guessed ones.

:func:`fit_population` reads the players active in the period (their sessions on record) and each
area's tallies of the period (its part's :attr:`~livecore.simulation.part.SeasonPart.fit`: aggregates by
player, one read each), makes each player's features (its sessions a day, its skill, the rates per
session the parts add), standardizes them, finds ``segments`` clusters by k-means from a fixed-seed
k-means++ start, and fits each segment: its share, its ``sessions_per_day`` (from the sessions on record,
two of which less than 30 minutes apart are one), its ``score`` (the skill the parts' scores place) and
the rates (and the tables by key) each part tells from its summed tallies. The segments are named
``segment-1`` to ``segment-N``, the most sessions a day first.

It is pure: it reads a transaction and writes nothing; the same records and arguments give the same
population (players are taken in the order of their ids, every draw from a fixed seed). Only aggregates
leave it: no player id, name or address is in a :class:`FittedPopulation`. This module names no area: a
studio's area whose part declares a fit is fitted the same way.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from datetime import datetime, time, timedelta
from typing import Any

import attrs

from livecore.errors import FileProblems
from livecore.scope import Environment
from livecore.simulation.part import (
    SKILL,
    SKILL_COUNT,
    Fit,
    FitPeriod,
    Played,
    SeasonPart,
    Sessions,
    Tallies,
)
from livecore.simulation.population import Population, Segment, Skill, Studio, write_population

#: The fewest players a segment is fitted on: fewer tell its rates apart from chance.
MIN_PER_SEGMENT = 20
#: The most segments fitted.
MAX_SEGMENTS = 12
#: The players the clusters are found on, at most (a deterministic sample); every player is then placed.
SAMPLE = 20_000
#: How far a player's rate is drawn towards the players' overall rate: as if it had this many more
#: sessions (plays) at that rate.
SHRINK = 5.0
#: The least return chance a fitted curve keeps, where no player came back on its day.
LEAST_RETURN = 0.001
#: The k-means rounds, at most (it stops sooner once no player changes cluster).
ROUNDS = 60
#: The k-means++ starts k-means runs from; the clusters nearest their players are kept.
STARTS = 4
_DAY = 86_400.0
_MIN_DAYS = 1 / 24  # a player first seen in the period's last hour is observed an hour


class FittingError(FileProblems):
    """The population could not be fitted: ``problems`` maps each offending argument (``period``,
    ``segments``) to what is wrong, as :class:`~livecore.simulation.population.PopulationError` does."""


@attrs.frozen
class FittedPopulation:
    """A fitted population, with what it was fitted on: the game (its key), the environment, the period,
    how many players. :meth:`toml` writes the file ``simulate --population`` reads."""

    population: Population
    game: str
    env: Environment
    since: datetime
    until: datetime
    players: int
    #: What a reader of the file should know, each one line: fewer segments fitted than asked for, a
    #: segment that plays nothing (:meth:`~livecore.simulation.population.Population.idle`).
    warnings: tuple[str, ...] = ()

    def header(self) -> list[str]:
        """The file's comment lines: what it was fitted on, by what, and its warnings."""
        return [
            "A population fitted by livecore from a game's recorded history (docs/simulation.md).",
            f"game: {self.game} ({self.env.value})",
            f"period: {self.since.isoformat()} to {self.until.isoformat()}",
            f"players: {self.players}, segments: {len(self.population.segments)}",
            *(f"warning: {w}" for w in self.warnings),
        ]

    def toml(self) -> str:
        """The population as TOML text (:func:`~livecore.simulation.population.write_population`)."""
        return write_population(self.population, self.header())


@attrs.define
class _Player:
    life_days: float  # from first seen to the period's end
    days: float  # observed in the period
    sessions: int  # on record after the first, which opened its life
    opened: int  # 1 where its first session is in the period and played in it
    tallies: list[dict[str, float]]  # each fitted part's, in the parts' order
    first_seen: datetime
    played: int | None  # the days it played since first seen, a bit a day (OnRecord.days)
    skill: float = 0.0  # the scores placed on their ranges, summed over the parts
    skilled: float = 0.0  # how many


def _skill(player: _Player) -> float | None:
    return None if player.skilled <= 0 else min(1.0, max(0.0, player.skill / player.skilled))


def _fits(parts: Sequence[SeasonPart]) -> list[tuple[SeasonPart, Fit]]:
    return [(part, part.fit) for part in parts if part.fit is not None]


def fit_population(
    tx: Any,
    period: FitPeriod,
    *,
    game: str,
    segments: int = 3,
    first_session_plays: bool = True,
    progress: Callable[[str, int, int], None] | None = None,
) -> FittedPopulation:
    """Fit ``segments`` segments to the players of ``period`` read through ``tx`` (a transaction with the
    ports the parts read: the part that counts the sessions, :class:`~livecore.simulation.part.Sessions`,
    and those that fit their rates), raising :class:`FittingError` for a period with
    no player; a period with too few players for the segments (:data:`MIN_PER_SEGMENT` each) is fitted
    into fewer, and says so in :attr:`FittedPopulation.warnings`, as it says of a segment fitted to play
    no session (its players seen in one session each: :func:`_idle`). ``game``: the game's key, for the
    header. ``first_session_plays``: whether a player's first session on record played (a
    server's: a player is first seen as it first plays) or only opened its life (an embedded season
    registers every player at its start, and plays later). ``progress(step, done, total)`` is called as
    each step ends: ``players``, ``tables``, each fitted part's read, ``clusters``, ``segments``."""
    problems: dict[str, str] = {}
    if not 1 <= segments <= MAX_SEGMENTS:
        problems["segments"] = f"must be from 1 to {MAX_SEGMENTS} (got {segments})"
    if period.until <= period.since:
        problems["period"] = "must end after it starts"
    counted = next((part.sessions for part in period.parts if part.sessions is not None), None)
    if counted is None:
        problems["period"] = "no area played counts the players' sessions"
    if problems:
        raise FittingError(problems)
    assert counted is not None
    fits = _fits(period.parts)
    total = len(fits) + 4
    step = 0

    def done(name: str) -> None:
        nonlocal step
        step += 1
        if progress is not None:
            progress(name, step, total)

    players = _players(tx, period, counted, first_session_plays, len(fits))
    done("players")
    if not players:
        raise FittingError(
            {
                "period": f"no player of the game ({period.env.value}) was active from"
                f" {period.since.isoformat()} to {period.until.isoformat()}"
            }
        )
    asked, segments = segments, _fewer(len(players), segments)
    gap = counted.gap.total_seconds() / _DAY
    tables, studio = _tables(tx, period, [players[i] for i in sorted(players)], gap)
    period = attrs.evolve(period, tables=tables)
    done("tables")
    for index, (_, fit) in enumerate(fits):
        for player_id, tallies in fit.read(tx, period).items():
            found = players.get(player_id)
            if found is not None:
                found.tallies[index] = dict(tallies)
                found.skill += tallies.get(SKILL, 0.0)
                found.skilled += tallies.get(SKILL_COUNT, 0.0)
        done(f"part-{index + 1}")
    ids = sorted(players)
    rows = [players[i] for i in ids]
    features = _features(rows, fits)
    clusters = _cluster(features, segments)
    done("clusters")
    launch = _launch(rows, period, counted)
    population = _population(rows, clusters, segments, period, fits, gap, launch)
    population = attrs.evolve(population, tables=tables, studio=Studio(studio))
    done("segments")
    warnings = [_too_few(len(rows), asked, segments), _idle(population), _no_curve(population, launch)]
    return FittedPopulation(
        population,
        game,
        period.env,
        period.since,
        period.until,
        len(rows),
        tuple(w for w in warnings if w is not None),
    )


def _fewer(players: int, segments: int) -> int:
    """The segments ``players`` can be fitted into, at most ``segments``: :data:`MIN_PER_SEGMENT` players
    each, and one however few they are (a newcomer's first history is a handful of players)."""
    return max(1, min(segments, players // MIN_PER_SEGMENT))


def _too_few(players: int, asked: int, fitted: int) -> str | None:
    """The warning of a history too small for the segments asked for, None where it is not."""
    if players >= asked * MIN_PER_SEGMENT:
        return None
    instead = "" if fitted == asked else f" instead of {asked}"
    told = (
        f"{fitted} segment{'s' if fitted > 1 else ''} fitted{instead} ({MIN_PER_SEGMENT} players a segment)"
        if players >= MIN_PER_SEGMENT
        else f"1 segment fitted{instead}, on fewer than {MIN_PER_SEGMENT} players: chance sways its rates"
    )
    return f"{players} players were active in the period: {told}; a longer period or more players fit more"


def _idle(population: Population) -> str | None:
    """The warning of segments fitted to play nothing (:meth:`Population.idle`): their players were seen in
    one session each, or too few to be a share of the players."""
    idle = population.idle()
    if idle is None:
        return None
    return f"{idle}; the period holds too little history: a longer period or more players fit more"


def _tables(
    tx: Any, period: FitPeriod, rows: Sequence[_Player], gap: float
) -> tuple[dict[str, Any], dict[str, dict[str, float]]]:
    """The population's tables and ``[studio]`` tables the parts fit, by name; a table the period cannot
    tell is left out. The players' sessions are those they played, each player's as a segment's
    ``sessions_per_day`` is told from those on record (:func:`_sessions_per_day`)."""
    sessions = sum(_sessions_per_day(_rate(p), gap) * p.days + p.opened for p in rows)
    played = Played(len(rows), sum(_days_played(p) for p in rows), sessions)
    tables: dict[str, Any] = {}
    studio: dict[str, dict[str, float]] = {}
    for part in period.parts:
        for table in part.tables:
            if table.fit is not None and (value := table.fit(tx, period, played)) is not None:
                tables[table.name] = value
        for sent in part.studio:
            if sent.fit is not None and (rates := sent.fit(tx, period, played)):
                studio[sent.name] = {
                    key: _kept(rate, sent.bounds, sent.whole) for key, rate in sorted(rates.items())
                }
    return tables, studio


def _days_played(player: _Player) -> float:
    """The days the player played in the period (:class:`~livecore.simulation.part.Played`): ``n``
    sessions at random times over ``d`` days leave a day without one by ``(1 - 1/d)^n``; a player
    observed a day or less played on one."""
    sessions = _played(player)
    if player.days <= 1:
        return min(1.0, sessions)
    return player.days * -math.expm1(sessions * math.log1p(-1 / player.days))


def _players(
    tx: Any, period: FitPeriod, counted: Sessions, first_session_plays: bool, parts: int
) -> dict[str, _Player]:
    """The players active in the period. A player's first session on record opens its life: its rate
    draws the sessions after it over that life (counted, the first would add a session over the life, a
    whole one a day to a player seen for a day). Where the first session played, it is one of the
    period's sessions its tallies are divided by all the same."""
    out: dict[str, _Player] = {}
    for player_id, record in counted.read(tx, period).items():
        seen, on_record = record.first_seen, record.sessions
        life = max(_MIN_DAYS, (period.until - seen).total_seconds() / _DAY)
        days = max(_MIN_DAYS, (period.until - max(seen, period.since)).total_seconds() / _DAY)
        opened = int(first_session_plays and on_record > 0 and seen >= period.since)
        tallies: list[dict[str, float]] = [{} for _ in range(parts)]
        out[player_id] = _Player(life, days, max(0, on_record - 1), opened, tallies, seen, record.days)
    return out


def _played(player: _Player) -> float:
    """The sessions the player played in the period: those its rate drew there, and its first."""
    return _rate(player) * player.days + player.opened


def _rate(player: _Player) -> float:
    return min(48.0, player.sessions / player.life_days)


def _features(rows: Sequence[_Player], fits: Sequence[tuple[SeasonPart, Fit]]) -> list[list[float]]:
    """Each player's features, each on about the scale of a chance, so that none outweighs the others by
    its unit: its sessions a day (on a log scale: a whale's dozens and a casual's fraction are told apart
    alike), its skill (the mean where it has none), and the parts' rates, each drawn towards the players'
    overall rate by :data:`SHRINK` of its ``per`` (a few sessions show little). They are not
    standardized: a rate that hardly differs between players (noise) would weigh as much as one that
    tells them apart."""
    columns: list[list[float]] = [[math.log1p(_rate(p)) for p in rows]]
    skills = [_skill(p) for p in rows]
    known = [s for s in skills if s is not None]
    if known:
        mean = sum(known) / len(known)
        columns.append([mean if s is None else s for s in skills])
    for index, (_, fit) in enumerate(fits):
        if fit.features is None:
            continue
        added = [fit.features(p.tallies[index], _played(p)) for p in rows]
        for name in sorted({n for a in added for n in a}):
            pairs = [a.get(name, (0.0, 0.0)) for a in added]
            per = sum(p for _, p in pairs)
            overall = sum(c for c, _ in pairs) / per if per > 0 else 0.0
            columns.append([(c + SHRINK * overall) / (p + SHRINK) for c, p in pairs])
    return [list(row) for row in zip(*columns, strict=True)]


def _distance(a: Sequence[float], b: Sequence[float]) -> float:
    """The squared distance of two points."""
    return math.dist(a, b) ** 2


def _nearest(point: Sequence[float], centers: Sequence[Sequence[float]]) -> int:
    """The index of the center nearest the point (the first of those as near)."""
    return min(range(len(centers)), key=lambda index: math.dist(point, centers[index]))


def _cluster(points: Sequence[Sequence[float]], k: int) -> list[int]:
    """Each point's cluster, by k-means on a deterministic sample of at most :data:`SAMPLE` points: run
    from :data:`STARTS` k-means++ starts, each drawn from a fixed seed, the clusters nearest their
    points kept (k-means ends at the nearest clusters of where it started, which one start can miss by
    far); then every point to its nearest center."""
    rng = random.Random(f"fitting:{k}")
    indexes = list(range(len(points)))
    sample = sorted(rng.sample(indexes, SAMPLE)) if len(points) > SAMPLE else indexes
    chosen = [points[i] for i in sample]
    best: tuple[float, list[list[float]]] | None = None
    for start in range(STARTS):
        centers = _k_means(chosen, _start(chosen, k, random.Random(f"fitting:{k}:{start}")))
        spread = sum(_distance(p, centers[_nearest(p, centers)]) for p in chosen)
        if best is None or spread < best[0]:
            best = (spread, centers)
    assert best is not None
    return [_nearest(p, best[1]) for p in points]


def _start(chosen: Sequence[Sequence[float]], k: int, rng: random.Random) -> list[list[float]]:
    """k-means++: a first center drawn at random, each next one drawn by its squared distance to the
    nearest center drawn."""
    centers = [list(chosen[rng.randrange(len(chosen))])]
    nearest = [_distance(p, centers[0]) for p in chosen]
    while len(centers) < k:
        reach = sum(nearest)
        if reach <= 0:
            centers.append(list(chosen[rng.randrange(len(chosen))]))
            continue
        pick, walked = rng.random() * reach, 0.0
        at = len(chosen) - 1
        for index, d in enumerate(nearest):
            walked += d
            if walked >= pick:
                at = index
                break
        centers.append(list(chosen[at]))
        nearest = [min(n, _distance(p, centers[-1])) for n, p in zip(nearest, chosen, strict=True)]
    return centers


def _k_means(chosen: Sequence[Sequence[float]], centers: list[list[float]]) -> list[list[float]]:
    """The centers k-means moves ``centers`` to: each to the mean of its points, until none changes
    cluster (at most :data:`ROUNDS` rounds)."""
    assigned: list[int] = []
    for _ in range(ROUNDS):
        again = [_nearest(p, centers) for p in chosen]
        if again == assigned:
            break
        assigned = again
        for index in range(len(centers)):
            members = [p for p, c in zip(chosen, assigned, strict=True) if c == index]
            if members:
                centers[index] = [sum(column) / len(members) for column in zip(*members, strict=True)]
    return centers


def _sessions_per_day(observed: float, gap: float) -> float:
    """The sessions a day played, from those on record a day: sessions at random times, a session less
    than ``gap`` days after another is not one on record (a rate ``r`` shows ``r * exp(-r * gap)``)."""
    if observed * gap * math.e >= 1:
        return 48.0  # past what the record can tell apart
    played = observed
    for _ in range(100):
        played = observed * math.exp(played * gap)
    return min(48.0, played)


def _shares(counts: Sequence[int]) -> list[float]:
    """Each segment's share, rounded, summing to 1 (the rounding's remainder on the largest)."""
    total = sum(counts)
    shares = [round(c / total, 4) for c in counts]
    largest = max(range(len(shares)), key=lambda i: (shares[i], -i))
    shares[largest] = round(shares[largest] + 1 - sum(shares), 4)
    return shares


def _population(
    rows: Sequence[_Player],
    clusters: Sequence[int],
    k: int,
    period: FitPeriod,
    fits: Sequence[tuple[SeasonPart, Fit]],
    gap: float,
    launch: _Launch | None,
) -> Population:
    groups = [[p for p, c in zip(rows, clusters, strict=True) if c == index] for index in range(k)]
    groups = [g for g in groups if g]

    def observed(group: Sequence[_Player]) -> float:
        return sum(p.sessions for p in group) / sum(p.life_days for p in group)

    groups.sort(key=observed, reverse=True)
    shares = _shares([len(g) for g in groups])
    fitted: list[Segment] = []
    for number, (group, share) in enumerate(zip(groups, shares, strict=True), start=1):
        per_day = _sessions_per_day(observed(group), gap)
        days = sum(p.days for p in group)
        sessions = per_day * days + sum(p.opened for p in group)
        rates: dict[str, float] = {}
        curve = None if launch is None else _curve(group, period, launch, gap)
        if curve is not None:
            rates.update(curve.rates)
        tables: dict[str, Any] = {}
        for index, (part, fit) in enumerate(fits):
            sums: dict[str, float] = {}
            for player in group:
                for name, amount in player.tallies[index].items():
                    sums[name] = sums.get(name, 0.0) + amount
            tallies = Tallies(players=len(group), sessions=sessions, days=days, sums=sums)
            declared = {rate.name: rate for rate in part.rates}
            for name, found in fit.rates(tallies, period).items():
                rate = declared[name]
                rates[name] = _kept(found, rate.bounds, rate.whole)
            if fit.tables is not None:
                tables.update(fit.tables(tallies, period))
        fitted.append(
            Segment(
                name=f"segment-{number}",
                share=share,
                sessions_per_day=round(per_day, 4) if curve is None else curve.sessions_per_day,
                score=_score(group),
                rates=rates,
                tables=tables,
            )
        )
    return Population(segments=tuple(fitted))


@attrs.frozen
class _Launch:
    """A period that holds the game's launch: most of its players were first seen in it. Its installs
    spread over ``installs_over`` days, and a player's days are recorded for ``days_kept`` days."""

    installs_over: int
    days_kept: int


def _launch(rows: Sequence[_Player], period: FitPeriod, counted: Sessions) -> _Launch | None:
    """The launch the period holds, None where it holds none: more than half its players were first seen
    in it, and their days played are on record. Only then are players' returns by days since install a
    return curve: a game long live has steady players, who come back whatever the days since."""
    installed = [p.first_seen for p in rows if p.first_seen >= period.since and p.played is not None]
    if counted.days_kept <= 0 or len(installed) * 2 <= len(rows):
        return None
    # Its install days, the first's to the last's.
    spread = (max(installed).date() - min(installed).date()).days + 1
    return _Launch(installs_over=spread, days_kept=counted.days_kept)


@attrs.frozen
class _Curve:
    """A segment's return curve, as the season's behaviour fields (docs/simulation.md#the-behaviour-model),
    and its sessions a day played, which a curve draws on each day a player comes back."""

    rates: dict[str, float]
    sessions_per_day: float


def _curve(group: Sequence[_Player], period: FitPeriod, launch: _Launch, gap: float) -> _Curve | None:
    """The segment's return curve from its players installed in the period: the share of those whose
    first and seventh days since install had ended by the period's end that played on each, None where
    fewer than :data:`MIN_PER_SEGMENT` tell either. A share of 0 is kept at :data:`LEAST_RETURN` (a
    curve is a power law through both days), and day 7's at most day 1's."""
    installed = [p for p in group if p.played is not None and p.first_seen >= period.since]

    def returned(day: int) -> float | None:
        ended = [p for p in installed if _ended(p.first_seen, day, period.until)]
        if len(ended) < MIN_PER_SEGMENT:
            return None
        return sum(1 for p in ended if p.played is not None and p.played >> day & 1) / len(ended)

    d1, d7 = returned(1), returned(7)
    if d1 is None or d7 is None:
        return None
    d1 = max(LEAST_RETURN, d1)
    d7 = min(d1, max(LEAST_RETURN, d7))
    kept = [p for p in installed if p.life_days <= launch.days_kept]
    days_played = sum(bin(p.played or 0).count("1") for p in kept)
    if not days_played:
        return None
    # Every session on record opened a day played or came after one; those of one day less than the gap
    # apart are one on record, as a day's sessions beyond its first are told (_sessions_per_day).
    on_record = sum(p.sessions + p.opened for p in kept) / days_played
    return _Curve(
        rates={
            "installs_over": launch.installs_over,
            "return_d1": round(d1, 4),
            "return_d7": round(d7, 4),
        },
        sessions_per_day=round(1 + _sessions_per_day(max(0.0, on_record - 1), gap), 4),
    )


def _ended(first_seen: datetime, day: int, until: datetime) -> bool:
    """Whether the ``day``-th UTC day since ``first_seen`` (0 its own) had ended by ``until``."""
    first = datetime.combine(first_seen.date(), time(), first_seen.tzinfo)
    return first + timedelta(days=day + 1) <= until


def _no_curve(population: Population, launch: _Launch | None) -> str | None:
    """The warning of a launch's segments fitted without a return curve (too few of their players had
    their seventh day end in the period)."""
    if launch is None:
        return None
    flat = [s.name for s in population.segments if "return_d1" not in s.rates]
    if not flat:
        return None
    return (
        f"segments {', '.join(flat)} have no return curve: fewer than {MIN_PER_SEGMENT} of their players"
        " installed in the period had their seventh day end in it; they come back every day"
    )


def _kept(value: float, bounds: tuple[float, float], whole: bool) -> float:
    """A fitted value as the file keeps it: within its field's bounds, whole or to 4 decimals."""
    low, high = bounds
    kept = min(high, max(low, value))
    return round(kept) if whole else round(kept, 4)


def _score(group: Sequence[_Player]) -> Skill:
    """The segment's skill: the mean and the spread of its players' skills (each the mean of what its
    scores place), the default where none scored."""
    skills = [s for p in group if (s := _skill(p)) is not None]
    if not skills:
        return Skill()
    mean = sum(skills) / len(skills)
    sd = math.sqrt(sum((s - mean) ** 2 for s in skills) / len(skills))
    return Skill(mean=round(mean, 4), sd=round(min(1.0, sd), 4))


__all__ = [
    "MIN_PER_SEGMENT",
    "FittedPopulation",
    "FittingError",
    "fit_population",
]
