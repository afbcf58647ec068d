"""An area's part of a simulated season (docs/simulation.md#playing-a-season), declared on its
:class:`~livecore.area.Area` (``season``) from its own package (``livecore/<area>/season.py``): the fields
it adds to a segment of the population file (:class:`Rate`, a chance per session or a count;
:class:`SegmentTable`, a table by key), the tables
it adds to the file (:class:`PopulationTable`: ``[events]``, ``[economy]``) and its driver, which plays a
member's session in the area. The season (:mod:`livecore.simulation.season`) and the population
(:mod:`livecore.simulation.population`) read the parts and name no area, so a studio's area takes part
the same way. This module imports nothing of the areas or of the season, so an area's ``area.py`` may
import its part."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

import attrs

from livecore.simulation.fields import CHANCE, Problems

if TYPE_CHECKING:
    from livecore.games import GameSettings
    from livecore.scope import Environment

T = TypeVar("T")
D = TypeVar("D", bound="Driver")


@attrs.frozen
class Rate:
    """A segment's field an area adds (``guilds = 0.3``): a chance from 0 to 1 (else a number, or with
    ``whole`` an integer, within ``bounds``), ``default`` where a segment leaves it out, and its value in
    each of the default segments by name (``defaults``)."""

    name: str
    default: float
    defaults: Mapping[str, float] = attrs.field(factory=dict)
    bounds: tuple[float, float] = CHANCE
    whole: bool = False


def _no_check(found: Any, settings: GameSettings, problems: Problems) -> None:
    pass


def _no_segment_check(found: Any, settings: GameSettings, path: str, problems: Problems) -> None:
    pass


@attrs.frozen
class SegmentTable:
    """A segment's field an area adds that is a table by key (``gift = { coins = 5 }``), by its ``name``:
    ``parse(raw, path, problems)`` reads it (its value, None where it has problems, each named by its
    path from ``path``); ``check(value, settings, path, problems)`` checks it against the game played
    (the keys it names must be declared there); ``write(value)`` gives it as a TOML inline table, which
    ``parse`` reads back. A segment that leaves it out has none (:meth:`Segment.table` answers None), and
    the area's driver plays as it does without it."""

    name: str
    parse: Callable[[Any, str, Problems], Any]
    write: Callable[[Any], str]
    check: Callable[[Any, GameSettings, str, Problems], None] = _no_segment_check


@attrs.frozen
class PopulationTable:
    """A table an area adds to the population file (``[events.<key>]``, ``[economy]``), by its ``name``:
    ``parse(raw, problems)`` reads it (its value; each problem named by its path, from the table's
    name), ``check(value, settings, problems)`` checks it against the game played (what it names must be
    declared there), and, for a comparison of two manifests, ``pin(value, base, other, parts)`` answers
    it with what the base game places written in (``value`` None where the file leaves the table out), so
    both manifests are played on the base's score ranges."""

    name: str
    parse: Callable[[Any, Problems], Any]
    check: Callable[[Any, GameSettings, Problems], None] = _no_check
    pin: Callable[[Any, GameSettings, GameSettings, Sequence[SeasonPart]], Any] | None = None
    #: How the table is fitted from what happened (docs/simulation.md#fitting-a-population):
    #: ``fit(tx, period, played)`` reads it through the area's store ports (:class:`Played`: the players
    #: fitted), None where the period cannot tell; ``write(value)`` gives the value as the file's TOML
    #: lines, its header first, which ``parse`` reads back. Neither, or both.
    fit: Callable[[Any, FitPeriod, Played], Any] | None = None
    write: Callable[[Any], list[str]] | None = None
    #: The table is one of the studio's (``[studio.<name>]``: what its backend does, its offers), not
    #: one of the file's own.
    studio: bool = False
    #: For a comparison of two populations, ``against(value, base)``: the other's value given the base's
    #: (both None where a file leaves the table out), what the two share written in (an offer's reference
    #: price: the base's price).
    against: Callable[[Any, Any], Any] | None = None


@attrs.frozen
class EventRate:
    """A kind of live event an area hosts (a lobby event, a team event): a session plays an open event
    of the kind (``kind(event)``, given its settings) by the segment's ``rate``, in place of its ``events``
    chance. The first area's kind an event is of counts."""

    rate: Rate
    kind: Callable[[Any], bool]
    #: The scores an event of the kind is also measured against (its bots' best score), which place the
    #: event's default score range (:func:`livecore.live_events.season.default_scale`).
    hints: Callable[[Any], Iterable[float]] = attrs.field(default=lambda event: ())
    #: The last seconds of an event's window in which a start is not played before the window closes (a
    #: lobby's fill time: the window closes first), which the chance is not fitted over.
    closing: Callable[[Any], float] = attrs.field(default=lambda event: 0.0)


@attrs.frozen
class StudioRates:
    """A table an area adds to the population's ``[studio]`` (``crates = { <crate> = 0.1 }``): how many of
    each thing the studio's backend sends a player per day it plays (within ``bounds``, whole numbers with
    ``whole``), by the thing's key, which must be one the game declares (``keys``, a ``noun`` each:
    ``crate``; a refusal lists the game's, unless ``listed`` is False); a population without the table
    sends ``default`` of each key, or nothing when ``default`` is None."""

    name: str
    noun: str
    keys: Callable[[GameSettings], Iterable[str]]
    default: float | None
    bounds: tuple[float, float] = (0.0, 100.0)
    whole: bool = False
    listed: bool = True
    #: How the table is fitted from what happened (docs/simulation.md#fitting-a-population):
    #: ``fit(tx, period, played)`` reads what the studio's backend sent the players fitted
    #: (:class:`Played`) through the area's store ports, by key, per day played; empty where it sent none.
    fit: Callable[[Any, FitPeriod, Played], Mapping[str, float]] | None = None


class Segment(Protocol):
    """A segment of the population, as a part reads it."""

    def rate(self, rate: Rate) -> float:
        """The segment's chance for ``rate``: as the file sets it, else its default."""
        ...

    def table(self, table: SegmentTable) -> Any:
        """The segment's value of a table field an area adds, None where the file leaves it out."""
        ...


class Member(Protocol):
    """A simulated player of a season, as a part sees it: its index among the players, its handle (a
    :class:`~livecore.simulation.SimPlayer`, whose areas' actions it calls), its segment and its skill."""

    @property
    def index(self) -> int: ...

    @property
    def handle(self) -> Any: ...

    @property
    def segment(self) -> Segment: ...

    @property
    def skill(self) -> float:
        """From 0 (worst) to 1 (best), drawn from its segment's ``score`` as the player is made."""
        ...

    @property
    def installed(self) -> int:
        """The day of the season it installed the game (0 the first): its install cohort."""
        ...


class Play(Protocol):
    """A season being played, as a part's driver uses it."""

    @property
    def rng(self) -> random.Random:
        """The season's behaviour stream: every draw of a session comes from it, in order."""
        ...

    @property
    def settings(self) -> GameSettings: ...

    @property
    def start(self) -> datetime: ...

    @property
    def days(self) -> int:
        """Days the season plays from its start."""
        ...

    @property
    def elapsed(self) -> int:
        """Seconds since the season's start."""
        ...

    def act(self, action: str, call: Callable[..., T], *args: Any, **kwargs: Any) -> T | None:
        """``call(*args, **kwargs)``; a refusal is counted under ``<action>:<code>`` and answers None."""
        ...

    def member(self, index: int) -> Member:
        """The member of that index."""
        ...

    def rewarded(self, member: Member) -> None:
        """The member got a reward (a grant claimed, a crate opened, an offer bought): it comes back more,
        by its segment's ``reward_return`` (:mod:`livecore.simulation.behaviour`)."""
        ...

    def set_back(self, member: Member, reason: str) -> None:
        """The member met a setback of the economy (an offer it could not afford, an entry cost it could
        not pay, a match it lost): it comes back less, by its segment's ``setback_return``. ``reason``
        names it on the report (``offer_unaffordable``); a member who leaves the game leaves for the
        reason of its last setback (:mod:`livecore.simulation.behaviour`). A refusal of an action is
        not a setback: a player does not try what its own state says is refused."""
        ...

    def member_of(self, player_id: str) -> Member | None:
        """The member whose player has that id (its handle's ``id``), None for a player of no member."""
        ...

    @property
    def members(self) -> Sequence[Member]:
        """Every member, by index."""
        ...

    @property
    def installed(self) -> Sequence[Member]:
        """The members who have installed by now (a member's ``handle`` is registered from its install
        day): the players another player may meet."""
        ...

    def later(self, action: Callable[..., None], *args: Any) -> None:
        """Run ``action(*args)`` at the current tick, after what is already due then."""
        ...

    def at(self, when: float, action: Callable[..., None], *args: Any) -> None:
        """Run ``action(*args)`` at the first tick from ``when`` seconds since the season's start, after
        what is already due then."""
        ...

    @property
    def store(self) -> Any:
        """The simulation's store: what happened, in its tables."""
        ...

    @property
    def server(self) -> Any:
        """The studio's backend: the simulation's server actions (``SimServer``)."""
        ...

    def sent(self, table: StudioRates) -> Mapping[str, float]:
        """The population's ``[studio]`` table of an area, else its defaults for the game."""
        ...

    def table(self, table: PopulationTable) -> Any:
        """The population's value of a table an area adds, None where the file leaves it out."""
        ...

    def run(self, job: str) -> None:
        """Run the simulation's scheduled job of that name now (one a part :attr:`~SeasonPart.runs`), if
        the game's areas have it."""
        ...

    @property
    def parts(self) -> Sequence[SeasonPart]:
        """The parts of the areas played, in the areas' order."""
        ...

    def driver(self, kind: type[D]) -> D:
        """The season's driver of that class (an area's driver another area's may call on)."""
        ...

    def drivers(self, step: str) -> Sequence[Driver]:
        """The drivers that take a step of :class:`Driver` (``"held"``), in the areas' order."""
        ...


class Driver:
    """An area's driver in one season: what a member does in the area, at the steps of a session (the
    season's docstring lists them), and at each hour. Each step does nothing unless the area's driver says
    otherwise. The season takes the steps ``launch``, ``first_session``, ``studio_day``, ``answer``,
    ``collect``, ``use``, ``compete``, ``session`` and ``spend``, in that order, and ``hour``; the others
    are taken by the driver of the area they belong to (``granted`` and ``claim`` by the grants', ``held``
    and ``before_event`` by the live events'), through :meth:`Play.drivers`."""

    #: The webhook kinds :meth:`webhook` is given, as the season reads them.
    reads: frozenset[str] = frozenset()

    def webhook(self, kind: str, payload: Any) -> None:
        """A webhook of a kind it :attr:`reads` (a window opened), as the season reads it."""

    def hour(self) -> None:
        """At each hour of the season, after what falls due then: the scheduled work the area's driver
        runs itself (the grants' expiry sweep, when a grant has come due)."""

    def launch(self, member: Member) -> None:
        """At the start of every session, before anything else: what the client does as it launches
        (its presence heartbeat, which opens a session on record as it does on a server)."""

    def first_session(self, member: Member) -> None:
        """At the member's first session of the season, before anything else: what it does once (asks
        for friends)."""

    def studio_day(self, member: Member) -> None:
        """At the member's first session of a day: what the studio's backend gives it of the area (its
        credit, its crates)."""

    def answer(self, member: Member) -> None:
        """After the studio's day: what the member answers that waits for it (friend requests)."""

    def granted(self, member: Member, grant: Any) -> bool:
        """A pending grant of the member (a ``grant.created`` payload) not claimed otherwise: True when
        the area's driver keeps it (a crate, opened rather than claimed), else the member claims it."""
        return False

    def collect(self, member: Member) -> None:
        """After answering, before using: what the member collects of what it holds (the grants': by its
        segment's ``claims`` chance, what the areas' drivers :meth:`claim`, then its pending grants)."""

    def claim(self, member: Member) -> None:
        """As the member claims what it holds (under its segment's ``claims`` chance), before its
        pending grants: what it claims of the area (its gifts)."""

    def use(self, member: Member) -> None:
        """After collecting, before the events: what the member uses of what it holds (opens its
        crates)."""

    def held(self, member: Member, event: Any, started: Any) -> bool:
        """The member's start of an attempt at ``event`` answered ``started``: True when it is a start
        the area holds (a forming lobby's), which the driver plays later, else it is an attempt."""
        return False

    def before_event(self, member: Member, event: Any) -> None:
        """Before the member plays an open event (its settings) it chose to play: teaming up first."""

    def compete(self, member: Member) -> None:
        """After using: what the member plays to score (the open live events, the shared boards)."""

    def session(self, member: Member) -> None:
        """After competing and before spending: what the member does in the area."""

    def spend(self, member: Member) -> None:
        """The session's last step: what the member spends."""


#: The tallies a part's :attr:`Fit.read` may give a player that place its skill (the population's
#: ``score``): the sum of its scores placed on their ranges (0 worst, 1 best), and how many there were.
SKILL = "skill"
SKILL_COUNT = "skilled"
#: The start of what records a sale of the studio's offers (:mod:`livecore.grants.offers`): its debit's
#: note and its grant's ``source_ref_id`` are ``offer:<key>``. The offers are fitted from them, and the
#: spends and the crates the studio's backend sent are fitted without them, so a season played from the
#: fit does not sell them twice.
OFFER = "offer:"


@attrs.frozen
class FitPeriod:
    """What a population is fitted on (:mod:`livecore.simulation.fitting`): a game's players of one
    environment from ``since`` to before ``until``, the game's settings and the parts of the areas played
    (what a part's fit reads to place a score or to tell an event's kind); and, once fitted (before the
    parts' reads), the population's tables by name (:attr:`PopulationTable.fit`: the score ranges a
    part places a score on)."""

    game_id: str
    env: Environment
    since: datetime
    until: datetime
    settings: GameSettings
    parts: Sequence[SeasonPart]
    tables: Mapping[str, Any] = attrs.field(factory=dict)
    reads: dict[str, Any] = attrs.field(factory=dict, eq=False, repr=False)

    def shared(self, name: str, read: Callable[[], T]) -> T:
        """``read()``'s answer, read once for the parts that fit from the same read (the live events'
        and the kinds of event other areas host, each from the attempts), by ``name``."""
        if name not in self.reads:
            self.reads[name] = read()
        return cast(T, self.reads[name])

    @property
    def days(self) -> float:
        return (self.until - self.since).total_seconds() / 86_400


@attrs.frozen
class Played:
    """The players a population is fitted on, as a table's fit reads them: how many, and the days they
    played in the period, summed over them. A day played is one with a session; the record tells how many
    sessions, not on what days, so a player's sessions are taken to come at random times, as a season's
    do: ``n`` of them over ``d`` days leave a day without one by ``(1 - 1/d)^n``. ``sessions``: the
    sessions they played in the period, summed (each player's told from those on record as a segment's
    ``sessions_per_day`` is); 0 where the caller does not tell."""

    players: int
    days_played: float
    sessions: float = 0.0


@attrs.frozen
class Tallies:
    """A fitted segment's players, as a part's :attr:`Fit.rates` reads them: how many, the sessions
    they played (estimated from those on record: two sessions less than 30 minutes apart are one on
    record), the days they were observed (summed over them) and the sums of their tallies (what the
    part's :attr:`Fit.read` gave them), by name."""

    players: int
    sessions: float
    days: float
    sums: Mapping[str, float]

    def sum(self, name: str) -> float:
        return self.sums.get(name, 0.0)


@attrs.frozen
class Fit:
    """How an area's rates are fitted from what happened (docs/simulation.md#fitting-a-population),
    next to how its driver plays them.

    ``read(tx, period)`` reads the area's tallies of the period through its store ports (aggregates, one read
    each, grouped by player): player id -> tally name -> number; a player it leaves out has none.
    ``rates(tallies, period)`` turns a segment's summed tallies (:class:`Tallies`) into the values of the
    part's :class:`Rate` fields, by name (a rate it cannot tell is left out, so its default applies);
    ``tables(tallies, period)``, optional, the same for the part's :class:`SegmentTable` fields (a table it
    cannot tell is left out, so the segment goes without). ``features(tallies, sessions)``, optional, gives
    what a player's tallies (and its sessions played) add to the features its segment is found by, by name:
    each a rate as a ``(count, per)`` pair (gifts sent, sessions), on the scale of a chance (a rate a session,
    the attempts a play beyond the first), which tells one kind of player from another. The engine takes it as
    is (not standardized, so a rate that does not differ between players does not weigh as much as one that
    does), drawn towards the players' overall rate where ``per`` is small (a player of two sessions shows
    little)."""

    read: Callable[[Any, FitPeriod], Mapping[str, Mapping[str, float]]]
    rates: Callable[[Tallies, FitPeriod], Mapping[str, float]]
    features: Callable[[Mapping[str, float], float], Mapping[str, tuple[float, float]]] | None = None
    tables: Callable[[Tallies, FitPeriod], Mapping[str, Any]] | None = None


@attrs.frozen
class OnRecord:
    """A player's sessions as they are on record: when it was first seen, its sessions (the period's and
    those before it), and the days it played since it was first seen, bit ``d`` for its ``d``-th UTC day
    (0 the day it was first seen; None where they were not recorded from that day)."""

    first_seen: datetime
    sessions: int
    days: int | None = None


@attrs.frozen
class Sessions:
    """How the players' sessions are on record, declared by the area that counts them (the players'):
    ``read(tx, period)`` reads the players a population is fitted on, through its store port (one read):
    player id -> :class:`OnRecord`; two sessions less than ``gap`` apart are one on record, and a player's
    days played are recorded for its ``days_kept`` first days."""

    read: Callable[[Any, FitPeriod], Mapping[str, OnRecord]]
    gap: timedelta
    days_kept: int = 0


@attrs.frozen
class SeasonPart:
    """An area's part of a season: its segment fields (:class:`Rate`, and those that are tables by key,
    :class:`SegmentTable`), the kinds of live event it hosts, its ``[studio]`` tables, the population's tables
    it adds, its driver (made once per season; the drivers' steps run in the areas' order), the source kinds
    of the grants its driver or the service claims otherwise than as a pending grant (a gift's grant is
    claimed as the gift), and the names of the scheduled jobs its driver runs itself (:meth:`Play.run`), which
    the schedule then leaves out (the grants' minute sweep, run hourly when a grant has come due); and how its
    rates are fitted from what happened (:class:`Fit`), None when they are not; and, for the area that counts
    the players' sessions, how they are on record (:class:`Sessions`)."""

    rates: tuple[Rate, ...] = ()
    events: tuple[EventRate, ...] = ()
    studio: tuple[StudioRates, ...] = ()
    tables: tuple[PopulationTable, ...] = ()
    driver: Callable[[Play], Driver] | None = None
    claimed: tuple[str, ...] = ()
    runs: tuple[str, ...] = ()
    fit: Fit | None = None
    sessions: Sessions | None = None
    segment_tables: tuple[SegmentTable, ...] = ()


__all__ = [
    "SKILL",
    "SKILL_COUNT",
    "Driver",
    "EventRate",
    "Fit",
    "FitPeriod",
    "Member",
    "Play",
    "Played",
    "PopulationTable",
    "Rate",
    "SeasonPart",
    "Segment",
    "SegmentTable",
    "Sessions",
    "StudioRates",
    "Tallies",
]
