"""Where a fitted play chance (``events``, ``lobbies``, ``teams``) parts from the one played: the demo
season played, its drivers' decisions counted, and the fit's terms set beside them, by segment played.

    python -m benchmarks.play_rates                  # the demo: 2,000 players, 7 days, seed 11
    python -m benchmarks.play_rates --players 500 --days 3
    python -m benchmarks.play_rates --manifest M.toml --population P.toml --start 2026-03-02T00:00:00+00:00

The demo manifest and its population (``livecore_server/demo.toml``, ``demo_population.toml``) are
played as ``simulate`` plays them, with the live events' driver counted as it goes: for each segment and
kind of event, the events open at a session, the session's decisions to play one (its chance drawn), and
what the decision's first start came to (an attempt, a start held for its lobby, a refusal by its code).
Then the store's plays (``attempts.tallies``) are read for the same players, and the chance is told
three ways: the decisions over the events open at a session (the chance played), the plays over the
sessions played times the events' open shares (the fit's estimator with the true sessions), and the
same over the sessions the fit takes the players to have played (from those on record). Last, the
population is fitted into three segments and its chances printed, as the docs' round trip reports them.
"""

from __future__ import annotations

import argparse
import functools
import math
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import attrs

from livecore.live_events.rules import slot_at
from livecore.live_events.season import EVENTS, LiveEvents, play_rate, read_plays
from livecore.players.rules import SESSION_GAP
from livecore.simulation import Simulation
from livecore.simulation.fitting import _sessions_per_day
from livecore.simulation.part import FitPeriod, Rate, Tallies
from livecore.simulation.population import parse_population
from livecore.simulation.season import Season

HERE = Path(__file__).resolve().parent.parent / "livecore_server"
START = datetime(2026, 1, 5, tzinfo=UTC)


class Counts:
    """The drivers' decisions, by (segment, rate name) -> what -> how many."""

    def __init__(self) -> None:
        self.by: dict[tuple[str, str], Counter[str]] = {}
        self.sessions: Counter[str] = Counter()

    def add(self, segment: str, rate: str, what: str) -> None:
        self.by.setdefault((segment, rate), Counter())[what] += 1


def _wrap(counts: Counts) -> None:
    """Wrap the driver's ``compete`` (a session's open events, and its decisions: the ``attempt`` it
    calls) and ``attempt`` (a decision's first start; the others are a play's next attempts, from
    ``_finish``, or a held lobby start played as its lobby starts)."""
    compete, attempt, finish = LiveEvents.compete, LiveEvents.attempt, LiveEvents._finish
    state = {"in": ""}
    due: dict[tuple[int, str], float] = {}  # (member, event) -> its last attempt's end due, in seconds
    last_session: dict[int, float] = {}

    def counted_compete(self: LiveEvents, member: Any) -> None:
        now = self.play.start + timedelta(seconds=self.play.elapsed)
        name = member.segment.name
        counts.sessions[name] += 1
        for event in self.events:
            if slot_at(event, now) is not None:
                counts.add(name, self.rates[event.key].name, "open")
        state["in"] = "compete"
        try:
            compete(self, member)
        finally:
            state["in"] = ""
            last_session[member.index] = self.play.elapsed

    def counted_finish(self: LiveEvents, *args: Any) -> None:
        state["in"] = "finish"
        try:
            finish(self, *args)
        finally:
            state["in"] = ""

    def counted_attempt(self: LiveEvents, member: Any, event: Any, left: int) -> None:
        name, rate = member.segment.name, self.rates[event.key].name
        path = state["in"]
        state["in"] = ""  # the attempts this one schedules are not decisions
        key = (member.index, event.key)
        before = self.tries.get(key)
        refusals = dict(_refusals(self))
        held = _held(self, member)
        now = self.play.elapsed
        try:
            attempt(self, member, event, left)
        finally:
            state["in"] = path
        if path == "finish":
            return
        what = "" if path == "compete" else "held play: "
        if path == "compete":
            counts.add(name, rate, "decided")
        after = self.tries.get(key)
        refused = [k for k, v in _refusals(self).items() if v != refusals.get(k, 0)]
        if after != before:
            merged = due.get(key, -1.0) > now
            due[key] = now + event.attempt_seconds
            counts.add(name, rate, what + ("started, merged into a play" if merged else "started"))
        elif refused:
            since = now - last_session.get(member.index, -1e9)
            late = " (session before < 30 min)" if since < 1800 else ""
            for code in refused:
                counts.add(name, rate, f"{what}refused {code}{late}")
        elif _held(self, member) != held:
            counts.add(name, rate, what + "held")
        else:
            counts.add(name, rate, what + "not started (max attempts here)")

    LiveEvents.compete = counted_compete  # type: ignore[method-assign]
    LiveEvents.attempt = counted_attempt  # type: ignore[method-assign]
    LiveEvents._finish = counted_finish  # type: ignore[method-assign, assignment]


def _refusals(events: LiveEvents) -> dict[str, int]:
    """The season's refusals so far (every start's, by action and code)."""
    season = events.play
    assert isinstance(season, Season)
    return season.refusals


def _held(events: LiveEvents, member: Any) -> int:
    """The member's starts held in forming lobbies."""
    lobbies = [d for d in events.play.drivers("held")]
    return sum(
        1 for d in lobbies for seated in getattr(d, "waiting", {}).values() for m, _ in seated if m is member
    )


def run(
    players: int,
    days: int,
    seed: int,
    *,
    manifest: Path = HERE / "demo.toml",
    population_file: Path = HERE / "demo_population.toml",
    start: datetime = START,
    segments: int = 3,
) -> None:
    counts = Counts()
    _wrap(counts)
    population = parse_population(population_file.read_text())
    sim = Simulation.from_manifest(manifest, seed=seed, start=start)
    season = Season(sim, population, players=players, days=days, seed=seed, forget_webhooks=True)
    season.play()
    print("refusals (every start):", dict(sorted(season.refusals.items())))
    period = FitPeriod(
        game_id=sim.game.id,
        env=sim.env,
        since=sim.started,
        until=sim.now(),
        settings=sim.game.settings,
        parts=[a.season for a in sim.areas if a.season is not None],
    )
    segment_of = {m.handle.id: m.segment.name for m in season.members}
    with sim.store.transaction() as tx:
        active = tx.players.active_in(period.game_id, period.env, period.since, period.until)
        rates = (EVENTS, *(kind.rate for part in period.parts for kind in part.events))
        read = {rate.name: read_plays(tx, period, rate) for rate in rates}
    for segment in population.segments:
        name = segment.name
        mine = [m for m in season.members if m.segment.name == name]
        life = len(mine) * period.days
        on_record = sum(max(0, active[m.handle.id].sessions - 1) for m in mine if m.handle.id in active)
        fitted = _sessions_per_day(on_record / life, SESSION_GAP / timedelta(days=1)) * life
        played = counts.sessions[name]
        print(
            f"\n{name}: sessions played {played}, on record {on_record},"
            f" fitted {fitted:.0f} ({fitted / played - 1:+.2%})"
        )
        for rate in rates:
            sums: Counter[str] = Counter()
            for player_id, tallies in read[rate.name].items():
                if segment_of[player_id] == name:
                    sums.update(tallies)
            c = counts.by.get((name, rate.name), Counter())
            fit = functools.partial(_fit, period, rate, Tallies(len(mine), 0.0, life, sums))
            outcomes = ", ".join(f"{k} {v}" for k, v in sorted(c.items()) if k not in {"open", "decided"})
            print(
                f"  {rate.name} {segment.rate(rate)}: decided/open {c['decided'] / max(c['open'], 1):.4f};"
                f" plays {sums['plays']:.0f} ({sums['plays'] / max(c['decided'], 1) - 1:+.2%} of the"
                f" decisions); fit on the sessions played {fit(played, True):.4f}"
                f" (no busy time {fit(played, False):.4f}), on those fitted {fit(fitted, True):.4f}"
                f"\n    the decisions' first starts: {outcomes}"
            )
    print(f"\nfitted, {segments} segments:")
    for s in sim.fit_population(segments).population.segments:
        shown = {k: v for k, v in s.rates.items() if k in {r.name for r in rates}}
        print(f"  {s.name}: share {s.share}, sessions_per_day {s.sessions_per_day}, {shown}")


def _fit(period: FitPeriod, rate: Rate, tallies: Tallies, sessions: float, busy: bool) -> float:
    """The fit's chance from a segment's tallies over ``sessions``, its plays' busy time left out unless
    ``busy``."""
    sums = {**tallies.sums, "busy": tallies.sum("busy") if busy else 0.0}
    told = attrs.evolve(tallies, sessions=sessions, sums=sums)
    return play_rate(told, period, rate).get(rate.name, math.nan)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--manifest", type=Path, default=HERE / "demo.toml")
    parser.add_argument("--population", type=Path, default=HERE / "demo_population.toml")
    parser.add_argument("--start", type=datetime.fromisoformat, default=START)
    parser.add_argument("--segments", type=int, default=3)
    args = parser.parse_args()
    run(
        args.players,
        args.days,
        args.seed,
        manifest=args.manifest,
        population_file=args.population,
        start=args.start,
        segments=args.segments,
    )


if __name__ == "__main__":
    main()
