"""A game run embedded: the manifest the server applies, the commands it runs, the jobs it schedules, on
the in-memory store and a manual clock (docs/simulation.md).

:class:`BaseSimulation` is the engine of the one object a script or a studio's test suite holds,
:class:`~livecore.simulation.Simulation`, and names no area. It reads a manifest with the core's parser
(the same refusals, field by field, as ``livecore-server apply``), keeps the studio's games in a
:class:`~livecore.memory.MemoryStore`, and drives the registered areas' scheduled work with a
:class:`~livecore.schedule.Schedule` as the clock moves. Players act through
:class:`~livecore.simulation.player.SimPlayer` handles, one call per action the SDK offers; a refusal is
raised as the exception class the typed client raises for its code (:mod:`livecore.exceptions`), so a
test reads the same against the simulation and against a server.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Self, TypeVar

from livecore import contributions, registry
from livecore.api.request import PathIds
from livecore.area import Area
from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.contributions import Contributions
from livecore.errors import LivecoreError
from livecore.events import DomainEvent
from livecore.exceptions import api_error
from livecore.games import Game, Studio
from livecore.hashing import KeyedHasher
from livecore.ids import Prefix, new_id
from livecore.manifest import Manifest, parse_manifest
from livecore.memory import MemoryStore
from livecore.rand import SeededRandomSource
from livecore.schedule import Schedule
from livecore.scope import Actor, Environment, Scope
from livecore.simulation.fitting import FittedPopulation, fit_population
from livecore.simulation.part import FitPeriod
from livecore.webhooks.event import WebhookEvent

T = TypeVar("T")

#: Where a simulation's clock starts when the caller names no instant: a fixed Monday, so a run that
#: does not say when it starts is still the same run every time.
DEFAULT_START = datetime(2026, 1, 5, tzinfo=UTC)
#: The time a simulation plays in: from the epoch the service counts its milliseconds from, to a year that
#: leaves every window, period and expiry a season schedules room before the calendar ends (year 9999).
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
LATEST = datetime(9000, 1, 1, tzinfo=UTC)

# The simulation's keys act as a game's test keys do: a client key for the players, a server key for the
# studio's backend.
_CLIENT = Actor("api_key", "sim_client")
_SERVER = Actor("api_key", "sim_server")


class BaseSimulation:
    """One studio's games, played embedded: the manifest, the store, the clock and the scheduled work,
    which know the areas through their registry only. :class:`~livecore.simulation.player.Simulation` adds
    the players and the studio's backend. Build it with :meth:`from_manifest`; ``game`` picks the game the
    players play (the manifest's only one, when it has one)."""

    def __init__(
        self,
        manifest: Manifest,
        *,
        game: str | None = None,
        seed: int = 0,
        start: datetime = DEFAULT_START,
        env: Environment = Environment.TEST,
        areas: Sequence[Area] = (),
    ) -> None:
        if not manifest.games:
            raise ValueError("the manifest declares no game")
        if game is None:
            if len(manifest.games) > 1:
                raise ValueError(f"name the game to play: one of {', '.join(manifest.games)}")
            game = next(iter(manifest.games))
        if game not in manifest.games:
            raise ValueError(f"the manifest declares no game {game!r}: one of {', '.join(manifest.games)}")
        if start.tzinfo is None:
            raise ValueError("start must be an aware datetime (UTC)")
        if not EARLIEST <= start < LATEST:
            raise ValueError(f"the start must be from {EARLIEST:%Y-%m-%d} to before {LATEST:%Y-%m-%d} (UTC)")
        self.manifest = manifest
        #: Where its clock started.
        self.started = start
        #: The areas it plays: the installed ones and then the studio's, which the process serves from now
        #: on (what is read without a runtime, a studio's grant kinds among them).
        self.areas = registry.areas(areas)
        contributions.serve(self.areas)
        self.clock = ManualClock(start)
        self.rt = Runtime(
            clock=self.clock,
            rng=SeededRandomSource(seed),
            # Player secrets are minted and checked as on a server; a simulation keeps them itself.
            hasher=KeyedHasher(f"simulation-{seed}".encode().ljust(32, b".")),
            checks=registry.checks(self.areas),
            contributions=Contributions(self.areas),
        )
        self.store = MemoryStore(areas)
        studio = Studio(id=new_id(Prefix.STUDIO, start, self.rt.rng), key=manifest.studio)
        self.games: dict[str, Game] = {}
        for key, declared in manifest.games.items():
            settings = declared.settings()
            made = Game(
                id=new_id(Prefix.GAME, start, self.rt.rng),
                studio_id=studio.id,
                key=key,
                name=declared.name,
                settings=settings,
                ever_enabled=registry.remembered_on(settings, self.areas),
            )
            self.store.add_game(studio, made)
            self.games[key] = made
        self.game = self.games[game]
        self.env = env
        self.scope = Scope(studio.id, self.game.id, env, _CLIENT)
        self.server_scope = Scope(studio.id, self.game.id, env, _SERVER)
        self.schedule = Schedule(self.store, self.rt, registry.jobs(self.areas))
        #: What its players' and its backend's calls run (livecore.simulation.calls).
        self.handlers = registry.handlers(self.areas)
        self.paths = PathIds(registry.record_ids(self.areas))
        #: Whether its players' and its backend's actions are read through their wire form, as a
        #: stranger's request is (400 naming each offending field): a season turns it off for the calls it
        #: makes itself, unless it is asked to check them (:mod:`livecore.simulation.calls`).
        self.checked = True
        # A server starting runs the work due by the state once (livecore_server.scheduler.catch_up): the
        # windows open at the start open then, before any player acts, and so they do here.
        self.schedule.run_due()

    @classmethod
    def from_manifest(
        cls,
        manifest: str | os.PathLike[str],
        *,
        game: str | None = None,
        seed: int = 0,
        start: datetime = DEFAULT_START,
        env: Environment = Environment.TEST,
        areas: Sequence[Area] = (),
    ) -> Self:
        """A simulation of the manifest: TOML text, or the path of a file holding it (the one read this
        package does, on the caller's word). Raises :class:`~livecore.manifest.ManifestError` naming
        every problem, as ``livecore-server apply`` does. ``areas``: the studio's own areas the manifest
        uses (``[plugins] areas``); ``seed`` makes every draw (ids, reward tables, bot scores) repeatable."""
        text = Path(manifest).read_text() if isinstance(manifest, os.PathLike) else manifest
        return cls(
            parse_manifest(text, areas=areas, allow_private_webhooks=True),
            game=game,
            seed=seed,
            start=start,
            env=env,
            areas=areas,
        )

    # --- time ------------------------------------------------------------------------------------

    def now(self) -> datetime:
        return self.clock.now()

    def advance(
        self,
        by: timedelta | None = None,
        *,
        days: float = 0,
        hours: float = 0,
        minutes: float = 0,
        seconds: float = 0,
    ) -> datetime:
        """Move the clock forward, running every scheduled job at the time it falls due, in time order, as
        the server's scheduler does: windows open and close (paying their rank rewards), attempts expire,
        lobbies fill with bots, shared leaderboards roll over, the sweeps run. Returns the new time."""
        step = (by or timedelta(0)) + timedelta(days=days, hours=hours, minutes=minutes, seconds=seconds)
        if step < timedelta(0):
            raise ValueError("a simulation's clock only moves forward")
        return self.schedule.advance(step)

    def advance_to(self, when: datetime) -> datetime:
        """Move the clock to ``when`` (not before now), running what falls due on the way."""
        return self.advance(when - self.clock.now())

    # --- what happened ---------------------------------------------------------------------------

    @property
    def webhooks(self) -> list[DomainEvent]:
        """Every webhook event emitted so far, in order, as a receiver would get them (a debounced kind
        once per burst, with its latest state), as the core's outbox records them (:meth:`received` reads
        them as a receiver does). ``event.kind`` names it and ``event.payload`` is the payload class the
        client's ``construct_event`` returns for it as ``data``."""
        return list(self.store.outbox)

    def webhooks_of(self, kind: str) -> list[DomainEvent]:
        """The events of one kind (``"gift.sent"``), in order."""
        return [e for e in self.store.outbox if e.kind == kind]

    def received(self, kind: str | None = None) -> list[WebhookEvent]:
        """The events emitted so far (of ``kind``, when given) as a receiver reads their first delivery:
        the :class:`~livecore.webhooks.event.WebhookEvent` that ``livecore_client.webhooks.construct_event``
        answers, ``event.event_name`` and its typed ``event.data`` named as the envelope names them, so a
        studio's handler of webhooks runs on a simulation's events as on its receiver's."""
        return [WebhookEvent.received(e) for e in self.store.outbox if kind is None or e.kind == kind]

    def fit_population(
        self,
        segments: int = 3,
        *,
        since: datetime | None = None,
        until: datetime | None = None,
        first_session_plays: bool = False,
        progress: Callable[[str, int, int], None] | None = None,
    ) -> FittedPopulation:
        """The population its game's players played, fitted from its store as ``livecore-server
        population`` fits one from a server's (:func:`livecore.simulation.fitting.fit_population`): from
        ``since`` (its start) to before ``until`` (now). ``first_session_plays``: whether a player's
        first session on record played; a simulated player's is its registration, at its making, which
        plays nothing (a :class:`~livecore.simulation.season.Season` makes a player as its install day
        starts). Its ``toml()`` is the file ``simulate --population`` reads."""
        period = FitPeriod(
            game_id=self.game.id,
            env=self.env,
            since=self.started if since is None else since,
            until=self.now() if until is None else until,
            settings=self.game.settings,
            parts=[area.season for area in self.areas if area.season is not None],
        )
        with self.store.transaction() as tx:
            return fit_population(
                tx,
                period,
                game=self.game.key,
                segments=segments,
                first_session_plays=first_session_plays,
                progress=progress,
            )

    # --- running commands ------------------------------------------------------------------------

    def run(self, op: Callable[[Any], T]) -> T:
        """``op`` in one transaction, as a request runs on the server: everything it writes, webhook
        events included, commits together, or nothing does and its refusal is raised as the client's
        exception class for the code. The transaction (a :class:`~livecore.memory.MemoryTransaction`)
        holds the ports of every area played; ``op`` is typed against those it uses, as a command is."""
        try:
            with self.store.transaction() as tx:
                return op(tx)
        except LivecoreError as err:
            raise api_error(err) from None
