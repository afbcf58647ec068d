"""A season played by a population (docs/simulation.md#playing-a-season): :class:`Season` makes the
players of a :class:`~livecore.simulation.population.Population` and plays them against a
:class:`~livecore.simulation.Simulation`'s game, day after day, through the simulation's actions.

Each day every player draws its sessions at random times at its segment's ``sessions_per_day`` (a Poisson
count a day, as a game's players' are and as the fitting takes them). A session opens as a client
launches, with the player's presence heartbeat (so its sessions are counted as on a server: a new one
after 30 minutes of silence); on the player's first day, it asks for friends; on a day's first session the
studio's backend credits ``login_credit`` and sends crates; then the player answers what waits for it
(friend requests, partner invites), claims its gifts and grants, opens its crates, plays each open event
by its segment's chances (teaming up first on a team event, waiting for its lobby on a lobby event) and
has its shared boards' scores submitted, takes its turn in the areas (a gift sent to a friend, the guilds'
joins and help), and spends. All of it is the areas' own: each area that declares a part of a season (its
:attr:`~livecore.area.Area.season`, from the area's package: ``livecore/<area>/season.py``) plays its
steps of a session (:class:`~livecore.simulation.part.Driver`: ``launch``, ``first_session``,
``studio_day``, ``answer``, ``collect``, ``use``, ``compete``, ``session``, ``spend``), each step in the
areas' order, and this module names no area. What is left here is the engine: the ticks, the sessions, the
clock, the scheduled work, the webhooks dispatched to the drivers that read them, and the steps.

Time moves in ticks (``tick``, 10 seconds by default): every action falls on a tick, and the clock moves
to each tick that has one, running the scheduled work that falls due on the way (windows, lobbies'
fills, rollovers, the hourly sweeps). A job a part runs itself (its ``runs``: the grant expiry sweep, a
minute sweep) is left out of the schedule; the part's driver runs it at an hour (its ``hour`` step, taken
at each hour of the season).

What the drivers keep is what the players know (their friends, their pending grants from
``grant.created`` webhooks, the guilds they saw); what happened is in the simulation (its webhooks and its
store), where a report reads it. Every draw comes from seeded ``random.Random`` streams: the population and
the sessions from streams of their own, so two manifests played with one seed meet the same players at the
same times.
"""

from __future__ import annotations

import gc
import heapq
import math
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any, TypeVar

from livecore.events import DEBOUNCE
from livecore.exceptions import LivecoreAPIError
from livecore.schedule import run_job
from livecore.simulation import behaviour
from livecore.simulation.part import Driver, Member, PopulationTable, SeasonPart, StudioRates
from livecore.simulation.player import SimPlayer, Simulation
from livecore.simulation.population import Population, Segment, check_population
from livecore.simulation.world import LATEST

T = TypeVar("T")
D = TypeVar("D", bound=Driver)

#: The steps the areas' drivers take (:class:`~livecore.simulation.part.Driver`), in a session's order.
STEPS = (
    "launch",
    "first_session",
    "studio_day",
    "answer",
    "granted",
    "collect",
    "claim",
    "use",
    "held",
    "before_event",
    "compete",
    "session",
    "spend",
    "hour",
)
_HOUR = 3600
_DAY = 86_400


class _Member:
    """One simulated player: what the areas' drivers see of it, the last day it played, and how it comes
    back (:mod:`~livecore.simulation.behaviour`: its ``returning`` level, and whether it has left)."""

    __slots__ = (
        "days_played",
        "handle",
        "index",
        "installed",
        "last_day",
        "left",
        "left_for",
        "met",
        "returning",
        "segment",
        "sessions",
        "setback",
        "skill",
    )

    def __init__(
        self, index: int, handle: SimPlayer | None, segment: Segment, skill: float, installed: int = 0
    ) -> None:
        self.index = index
        self.handle = handle  # None until it installs: it registers on its install day
        self.segment = segment
        self.skill = skill
        self.installed = installed
        self.last_day = -1
        self.sessions = 0
        self.days_played: list[int] = []
        self.returning = 1.0
        self.left = False
        self.setback: str | None = None  # the reason of its last setback
        self.met: set[str] | None = None  # the reasons of the setbacks it met, None: none
        self.left_for: str | None = None  # the reason it left the game for


class Season:
    """``players`` players of ``population`` playing ``sim``'s game for ``days`` days from its clock's
    time, every draw from ``seed``. :meth:`play` plays it; ``refusals`` then counts the actions the
    service refused, by ``<action>:<code>``, ``segment_of`` names each player's segment,
    ``players_by_day`` counts the members who played each day and :attr:`left` those who left the game.

    ``forget_webhooks``: the season reads each webhook as it comes; with this, the store then drops them
    (:meth:`~livecore.memory.MemoryStore.forget_outbox`, once it holds ``forget_after``), so a long season
    holds its tables but not its millions of webhooks (``sim.webhooks`` keeps the latest only).

    ``check``: read the season's own calls through their wire form, as the server reads a request, and
    check that it gives back the models the builders made (:mod:`livecore.simulation.calls`); without it
    the handlers read those models, which the tests and ``simulate --check`` keep honest."""

    #: With ``forget_webhooks``, the outbox is trimmed once it holds this many events.
    forget_after = 10_000
    #: How many players :meth:`play` makes between two ``on_players`` calls.
    players_step = 10_000

    def __init__(
        self,
        sim: Simulation,
        population: Population,
        *,
        players: int,
        days: int,
        seed: int = 0,
        tick: timedelta = timedelta(seconds=10),
        forget_webhooks: bool = False,
        check: bool = False,
    ) -> None:
        if players < 1 or days < 1:
            raise ValueError("a season has at least one player and one day")
        if sim.now() + timedelta(days=days) > LATEST:
            raise ValueError(
                f"a season must end by {LATEST:%Y-%m-%d} (UTC): start it earlier or play fewer days"
            )
        if tick < timedelta(seconds=1) or _DAY % int(tick.total_seconds()):
            raise ValueError("the tick is a whole number of seconds dividing a day")
        check_population(population, sim.game.settings, sim.areas)
        self.sim = sim
        self.population = population
        self.players = players
        self.days = days
        self.seed = seed
        self.tick = int(tick.total_seconds())
        self.forget_webhooks = forget_webhooks
        self.check = check
        self.start = sim.now()
        self.settings = sim.game.settings
        self.refusals: dict[str, int] = {}
        #: The setbacks the players met, by reason (``offer_unaffordable``).
        self.setbacks: dict[str, int] = {}
        self.segment_of: dict[str, str] = {}
        #: How many members played each day played (a session or more).
        self.players_by_day: list[int] = []
        self._rng = random.Random(f"{seed}:behaviour")
        self._members: list[_Member] = []
        self._installs: dict[int, list[_Member]] = {}  # the members still to install, by install day
        self._installed: list[_Member] = []  # those installed, in the order they did
        self._by_player_id: dict[str, _Member] = {}
        self._queue: list[tuple[int, int, Callable[..., None], tuple[Any, ...]]] = []
        self._seq = 0
        self._playing: _Member | None = None  # the member whose session is being played
        self._now = 0  # seconds since the season's start
        self._played = 0  # days played
        # Webhooks read so far: none, so the windows the simulation opened as it started count too.
        self._seen = 0
        self._jobs = {job.name: job for job in sim.schedule.jobs}
        self._parts = [area.season for area in sim.areas if area.season is not None]
        # The areas' drivers, made last and in order: a driver may read what the season has set up, and
        # the drivers made before it.
        self._drivers: list[Driver] = []
        for part in self._parts:
            if part.driver is not None:
                self._drivers.append(part.driver(self))
        # Each step's drivers: those that take it (a step is run for each player in each session).
        self._steps = {
            step: [d for d in self._drivers if getattr(type(d), step) is not getattr(Driver, step)]
            for step in STEPS
        }
        self._readers: dict[str, list[Driver]] = {}  # webhook kind -> the drivers that read it
        for driver in self._drivers:
            for kind in driver.reads:
                self._readers.setdefault(kind, []).append(driver)

    # --- playing ------------------------------------------------------------------------------------

    def play(
        self,
        on_day: Callable[[int], None] | None = None,
        on_players: Callable[[int], None] | None = None,
        *,
        days: int | None = None,
    ) -> None:
        """Play the next ``days`` days, every day left by default: a notebook may play three, look at the
        store, and go on (``play(days=3)``, then ``play()``), and a season played in steps is the one
        played at once. ``on_day(day)`` is called after each day (0 the first), as a progress callback;
        the first call makes the players first, calling ``on_players(made)`` every :attr:`players_step`
        players (a million players take minutes to make). :attr:`played` counts the days played.

        Python's cycle collector is paused while it plays and run over each day's new objects at the
        day's end: a season keeps millions of records, which hold no cycles, and the collector would
        otherwise walk them again and again as they pile up (a quarter of a season's time)."""
        left = self.days - self._played
        if not left:
            raise ValueError(f"every day of the season is played ({self.days})")
        if days is not None and not 1 <= days <= left:
            raise ValueError(f"play 1 to {left} days: the season has {left} left")
        collecting = gc.isenabled()
        gc.disable()
        try:
            if not self._members:  # the first call
                with self._own_calls():
                    self._begin(on_players)
            for _ in range(left if days is None else days):
                with self._own_calls():
                    self._play_day(self._played)
                self._played += 1
                if on_day is not None:
                    on_day(self._played - 1)
        finally:
            if collecting:
                gc.enable()

    @contextmanager
    def _own_calls(self) -> Iterator[None]:
        """The calls the season makes read through their wire form only when it is to ``check`` them
        (:mod:`livecore.simulation.calls`); the caller's, between its days, as the caller left them."""
        checked = self.sim.checked
        self.sim.checked = self.check
        try:
            yield
        finally:
            self.sim.checked = checked

    @property
    def played(self) -> int:
        """How many of the season's days are played."""
        return self._played

    def _begin(self, on_players: Callable[[int], None] | None) -> None:
        sim = self.sim
        # The jobs the parts run themselves are left out (the module docstring); the others stay.
        run = {name for part in self._parts for name in part.runs}
        sim.schedule.only(j.name for j in sim.schedule.jobs if j.every is not None and j.name not in run)
        self._make_players(on_players)

    def _play_day(self, day: int) -> None:
        self.players_by_day.append(0)
        self._plan_day(day)
        if self._steps["hour"]:
            for hour in range(1, 25):
                self._push(day * _DAY + hour * _HOUR, self._hour, ())
        end = (day + 1) * _DAY
        while self._queue and self._queue[0][0] <= end:
            when, _, action, args = heapq.heappop(self._queue)
            self._move(when)
            action(*args)
            self._read_webhooks()
        self._move(end)
        gc.collect(1)  # the day's cycles (refusals' tracebacks); what survives is never walked again

    def _push(self, when: int, action: Callable[..., None], args: tuple[Any, ...]) -> None:
        self._seq += 1
        heapq.heappush(self._queue, (when, self._seq, action, args))

    def _move(self, when: int) -> None:
        if when > self._now:
            self._now = when
            self.sim.advance_to(self.start + timedelta(seconds=when))
            self._read_webhooks()

    def _at_tick(self, seconds: float) -> int:
        return math.ceil(seconds / self.tick) * self.tick

    @property
    def rng(self) -> random.Random:
        """The behaviour stream: every draw of a session comes from it, in order."""
        return self._rng

    @property
    def elapsed(self) -> int:
        """Seconds since the season's start."""
        return self._now

    @property
    def server(self) -> Any:
        """The studio's backend: the simulation's server actions."""
        return self.sim.server

    def sent(self, table: StudioRates) -> dict[str, float]:
        """The population's ``[studio]`` table of an area, else its defaults for the game."""
        return self.population.sent(table, self.settings)

    @property
    def members(self) -> list[_Member]:
        """Every member, by index."""
        return self._members

    @property
    def installed(self) -> list[_Member]:
        """The members who have installed by now, in the order they did (by index within a day): the
        players another player may meet."""
        return self._installed

    def later(self, action: Callable[..., None], *args: Any) -> None:
        """Run ``action(*args)`` at the current tick, after what is already due then."""
        self._push(self._now, action, args)

    def at(self, when: float, action: Callable[..., None], *args: Any) -> None:
        """Run ``action(*args)`` at the first tick from ``when`` seconds since the start, after what is
        already due then."""
        self._push(self._at_tick(when), action, args)

    @property
    def store(self) -> Any:
        """The simulation's store."""
        return self.sim.store

    def table(self, table: PopulationTable) -> Any:
        """The population's value of a table an area adds, None where the file leaves it out."""
        return self.population.table(table)

    @property
    def parts(self) -> list[SeasonPart]:
        """The parts of the areas played, in the areas' order."""
        return self._parts

    def driver(self, kind: type[D]) -> D:
        """The season's driver of that class."""
        return next(d for d in self._drivers if isinstance(d, kind))

    def drivers(self, step: str) -> list[Driver]:
        """The drivers that take a step, in the areas' order."""
        return self._steps[step]

    def member(self, index: int) -> _Member:
        """The member of that index."""
        return self._members[index]

    def member_of(self, player_id: str) -> _Member | None:
        """The member whose player has that id, None for a player of no member."""
        return self._by_player_id.get(player_id)

    def run(self, job: str) -> None:
        """Run the simulation's scheduled job of that name now, if the game's areas have it."""
        found = self._jobs.get(job)
        if found is not None:
            run_job(self.sim.store, self.sim.rt, found)

    def act(self, action: str, call: Callable[..., T], *args: Any, **kwargs: Any) -> T | None:
        """``call(*args, **kwargs)``; a refusal is counted under ``<action>:<code>`` and answers None."""
        try:
            return call(*args, **kwargs)
        except LivecoreAPIError as refused:
            name = f"{action}:{refused.code}"
            self.refusals[name] = self.refusals.get(name, 0) + 1
            return None

    def rewarded(self, member: Member) -> None:
        """The member got a reward: it comes back more (its segment's ``reward_return``)."""
        found = self._members[member.index]
        found.returning = behaviour.rewarded(found.returning, found.segment.rate(behaviour.REWARD_RETURN))

    def set_back(self, member: Member, reason: str) -> None:
        """The member met a setback of the economy, named by ``reason``: it comes back less (its segment's
        ``setback_return``), and :attr:`setbacks` counts it."""
        found = self._members[member.index]
        found.returning = behaviour.set_back(found.returning, found.segment.rate(behaviour.SETBACK_RETURN))
        found.setback = reason
        if found.met is None:
            found.met = set()
        found.met.add(reason)
        self.setbacks[reason] = self.setbacks.get(reason, 0) + 1

    @property
    def left(self) -> int:
        """How many members have left the game (:mod:`~livecore.simulation.behaviour`)."""
        return sum(member.left for member in self._members)

    @property
    def left_for(self) -> dict[str, int]:
        """The members who left the game, by the reason of their last setback."""
        found: dict[str, int] = {}
        for member in self._members:
            if member.left and member.left_for is not None:
                found[member.left_for] = found.get(member.left_for, 0) + 1
        return dict(sorted(found.items()))

    # --- the population ------------------------------------------------------------------------------

    def _make_players(self, on_players: Callable[[int], None] | None = None) -> None:
        rng = random.Random(f"{self.seed}:population")
        # The install days from a stream of their own: a population whose players are all there from the
        # start meets the same players, of the same skills, as before installs were drawn.
        installs = random.Random(f"{self.seed}:installs")
        segments = self.population.segments
        counts = _apportion([s.share for s in segments], self.players)
        order = [s for s, n in zip(segments, counts, strict=True) for _ in range(n)]
        rng.shuffle(order)
        width = len(str(self.players - 1))
        for index, segment in enumerate(order):
            external_id = f"p{index:0{width}d}"
            skill = min(1.0, max(0.0, rng.gauss(segment.score.mean, segment.score.sd)))
            over = int(segment.rate(behaviour.INSTALLS_OVER))
            installed = behaviour.installed_on(installs.random(), over, self.days)
            member = _Member(index, None, segment, skill, installed)
            self._members.append(member)
            self._installs.setdefault(installed, []).append(member)
            self.segment_of[external_id] = segment.name
            if on_players is not None and (index + 1) % self.players_step == 0:
                on_players(self.players_step)
        if on_players is not None and self.players % self.players_step:
            on_players(self.players % self.players_step)
        self._install(0)

    def _install(self, day: int) -> None:
        """Register the members who install on that day, as their clients do on a server: the player's
        record and its ``player.registered`` webhook date from its install day, and the other members
        meet it from then on (:attr:`installed`)."""
        width = len(str(self.players - 1))
        for member in self._installs.pop(day, ()):
            handle = self.sim.player(f"p{member.index:0{width}d}")
            member.handle = handle
            self._by_player_id[handle.id] = member
            self._installed.append(member)
        self._read_webhooks()

    def _plan_day(self, day: int) -> None:
        if day:
            self._install(day)
        rng = random.Random(f"{self.seed}:day:{day}")
        for member in self._members:
            segment = member.segment
            if segment.sessions_per_day <= 0 or day < member.installed:
                continue
            if behaviour.responds(segment):
                if not member.left and member.returning < segment.rate(behaviour.CHURN_BELOW):
                    member.left = True
                    member.left_for = member.setback
                member.returning = behaviour.next_day(member.returning)
            if behaviour.decays(segment):
                self._plan_returning(member, day, rng)
            else:
                self._plan_every_day(member, day, rng)

    def _plan_every_day(self, member: _Member, day: int, rng: random.Random) -> None:
        """A member of a segment with no return curve: a Poisson count of sessions every day."""
        segment = member.segment
        rate = segment.sessions_per_day
        keep = None  # the share of the drawn sessions played: all of them
        if behaviour.responds(segment):
            # Its sessions are drawn at the most it may play, each played by its level's share of
            # that: the draws are the same whatever the level, so two configurations of one seed
            # differ by what their levels do, not by draws that moved (common random numbers).
            rate *= behaviour.MOST_RETURNING
            keep = 0.0 if member.left else member.returning / behaviour.MOST_RETURNING
        # Sessions at random times, as a player's come: each the next after a wait drawn at the
        # rate, so a day holds a Poisson count of them (none on some days, more on others).
        at = rng.expovariate(rate / _DAY)
        while at < _DAY:
            if keep is None or rng.random() < keep:
                self._plan_session(member, day, at)
            at += rng.expovariate(rate / _DAY)

    def _plan_returning(self, member: _Member, day: int, rng: random.Random) -> None:
        """A member of a segment with a return curve: on its install day, and on a later day by its
        return chance times its level, one session and a Poisson count of ``sessions_per_day - 1``
        more. Every draw is made whether it comes back or not (common random numbers)."""
        segment = member.segment
        since = day - member.installed
        chance = 1.0
        if since:
            d1, d7 = segment.rate(behaviour.RETURN_D1), segment.rate(behaviour.RETURN_D7)
            chance = behaviour.return_chance(since, d1, d7) * member.returning
        comes = not member.left and rng.random() < chance
        times = [rng.random() * _DAY]
        more = segment.sessions_per_day - 1
        if more > 0:
            at = rng.expovariate(more / _DAY)
            while at < _DAY:
                times.append(at)
                at += rng.expovariate(more / _DAY)
        if comes:
            for at in times:
                self._plan_session(member, day, at)

    def _plan_session(self, member: _Member, day: int, at: float) -> None:
        when = day * _DAY + min(self._at_tick(int(at)), _DAY - self.tick)
        self._push(when, self._session, (member, day))

    # --- what the webhooks tell the players ----------------------------------------------------------

    def _read_webhooks(self) -> None:
        store = self.sim.store
        outbox = store.outbox
        while self._seen < len(outbox):
            event = outbox[self._seen]
            self._seen += 1
            kind = event.kind
            if kind in self._readers:
                for driver in self._readers[kind]:
                    driver.webhook(kind, event.payload)
        if self.forget_webhooks and len(outbox) > self.forget_after:
            # Every event was read: the store may drop them, but for the bursts still open.
            self._seen -= store.forget_outbox(self.sim.now() - DEBOUNCE)

    def _hour(self) -> None:
        for driver in self._steps["hour"]:
            driver.hour()

    # --- a session -----------------------------------------------------------------------------------

    def _session(self, member: _Member, day: int) -> None:
        self._playing = member
        try:
            self._steps_of(member, day)
        finally:
            self._playing = None

    def _steps_of(self, member: _Member, day: int) -> None:
        steps = self._steps
        member.sessions += 1
        for driver in steps["launch"]:
            driver.launch(member)
        if member.last_day < 0:
            for driver in steps["first_session"]:
                driver.first_session(member)
        if member.last_day < day:
            member.last_day = day
            member.days_played.append(day)
            self.players_by_day[day] += 1
            for driver in steps["studio_day"]:
                driver.studio_day(member)
        for driver in steps["answer"]:
            driver.answer(member)
        for driver in steps["collect"]:
            driver.collect(member)
        for driver in steps["use"]:
            driver.use(member)
        for driver in steps["compete"]:
            driver.compete(member)
        for driver in steps["session"]:
            driver.session(member)
        for driver in steps["spend"]:
            driver.spend(member)


def _apportion(shares: list[float], total: int) -> list[int]:
    """``total`` split by ``shares`` (summing to 1), the remainder to the largest fractions first."""
    exact = [s * total for s in shares]
    counts = [int(x) for x in exact]
    by_fraction = sorted(range(len(shares)), key=lambda i: (-(exact[i] - counts[i]), i))
    for i in by_fraction[: total - sum(counts)]:
        counts[i] += 1
    return counts


__all__ = ["Season"]
