"""The live events' part of a simulated season (docs/simulation.md#playing-a-season): a segment's
``events`` chance and its ``attempts_per_session``, the population's ``[events]`` score ranges, and a
session's play of the open events. A session plays each open event by its kind's chance (a lobby event's
``lobbies``, a team event's ``teams``: :class:`~livecore.simulation.part.EventRate`), else by its
``events`` chance, making its attempts one after the other, as many as the window still allows. An attempt
takes part of its event's attempt time and, by the segment's ``completes`` chance, reports its score (the
player's skill placed on the event's score range) when it ends; else the player abandons it, with the rest
of its session's play of the event, and the attempt expires as the rules say.

A player tries only what it knows it may: it starts no play of an event while its own is on (an attempt
running, a start held for its lobby), reports no attempt that is over (its time run out, or its lobby
closed early), and starts no attempt whose entry cost it cannot pay, which is a setback
(:data:`ENTRY_COST_UNAFFORDABLE`).

Other areas' drivers take part in an attempt: ``before_event`` (teaming up first), ``held`` (a start held
while its lobby forms, played later through :meth:`LiveEvents.attempt`)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from livecore.economy.memory import EconomyTables
from livecore.games import GameSettings, Order
from livecore.live_events.api import AttemptResponse
from livecore.live_events.attempts import AttemptStatus, AttemptTally, ScoreSpread, effective_status
from livecore.live_events.memory import LiveEventTables
from livecore.live_events.rules import next_start, slot_at, windows_between
from livecore.live_events.settings import EVENT_SETTINGS, CheckKind, EventSettings
from livecore.simulation.fields import Problems, Scale, check_scales, scales, write_scales
from livecore.simulation.part import (
    SKILL,
    SKILL_COUNT,
    Driver,
    EventRate,
    Fit,
    FitPeriod,
    Member,
    Play,
    Played,
    PopulationTable,
    Rate,
    SeasonPart,
    Tallies,
)

#: A session's chance to play each open event (but those of a kind with a chance of its own); the
#: studio's backend submits a shared board's score by it too.
EVENTS = Rate("events", 0.8, {"engaged": 0.9, "regular": 0.8, "casual": 0.6})
#: The attempts a session makes at each event it plays.
ATTEMPTS = Rate("attempts_per_session", 1, {"engaged": 2}, bounds=(1, 20), whole=True)
#: The chance a started attempt is played to its end and reported complete; else it is abandoned, with
#: the rest of the session's play of the event, and left to expire.
COMPLETES = Rate("completes", 1.0, {"engaged": 0.95, "regular": 0.9, "casual": 0.8})
#: The setback of a player who would start an attempt and holds less than the event's entry cost.
ENTRY_COST_UNAFFORDABLE = "entry_cost_unaffordable"
#: An attempt lasts this share of its event's attempt time, drawn uniformly.
ATTEMPT_SHARE = (0.4, 0.9)
#: How far an attempt's score strays from its player's skill (a share of the event's range).
ATTEMPT_NOISE = 0.05


def kinds_of(parts: Iterable[SeasonPart]) -> list[EventRate]:
    """The kinds of live event the parts host, in the areas' order."""
    return [kind for part in parts for kind in part.events]


def rate_of(event: EventSettings, kinds: Iterable[EventRate]) -> Rate:
    """The chance a session plays the event by: that of the first kind of event it is of (a lobby event,
    a team event), else the segment's ``events`` chance."""
    return next((kind.rate for kind in kinds if kind.kind(event)), EVENTS)


def default_scale(event: EventSettings, kinds: Iterable[EventRate]) -> Scale:
    """An event's score range read from its manifest, when the population sets none: its reference
    score is the median (the lower one of an even count) of what the event measures scores against (its
    milestones' thresholds, its target, and what the ``kinds`` of event it is of add: its bots' best
    score, a sudden death's score, a team's goal shared by its members), else 1,000. On a ``desc`` event
    skill 0 scores 0 and skill 1 scores 1.5 times the reference (at most an anti-cheat ``max_value``
    limit); on an ``asc`` one (a time) skill 1 scores half the reference and skill 0 twice it."""
    hints: list[float] = [m.threshold for m in event.milestones]
    if event.target is not None:
        hints.append(event.target)
    for kind in kinds:
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


def score(play: Play, member: Member, scale: Scale) -> int:
    """A score of the member's on ``scale``: near its skill (:data:`ATTEMPT_NOISE`), one draw."""
    skill = min(1.0, max(0.0, play.rng.gauss(member.skill, ATTEMPT_NOISE)))
    return round(scale.score(skill))


def _parse(raw: Any, problems: Problems) -> dict[str, Scale]:
    return scales(raw, "events", problems)


def _check(found: dict[str, Scale], settings: GameSettings, problems: Problems) -> None:
    events = settings.of(EVENT_SETTINGS)
    check_scales(found, events, "events", problems, one="an event", listed="events", own="event")


def _pin(
    found: dict[str, Scale] | None, base: GameSettings, other: GameSettings, parts: Sequence[SeasonPart]
) -> dict[str, Scale]:
    """The base's range of each event the other has too (of the same order), the population's first."""
    found = found or {}
    kinds = kinds_of(parts)
    theirs = other.of(EVENT_SETTINGS)
    pinned = {
        key: found.get(key) or default_scale(event, kinds)
        for key, event in base.of(EVENT_SETTINGS).items()
        if key in theirs and theirs[key].order is event.order
    }
    return {**pinned, **found}


def _fit_ranges(tx: Any, period: FitPeriod, played: Played) -> dict[str, Scale] | None:
    """Each event's score range, the one its scores were played on as far as they tell (the skills are
    then placed on it, :func:`read_plays`; written in, the file plays a skill at the score it was read
    from, whatever manifest it is played with).

    Its width: an attempt strays from its player's skill by :data:`ATTEMPT_NOISE` of the range, so the
    range is as wide as the spread of a player's scores about its own mean makes it (pooled over the
    players). Where it lies: a skill is one number across the events, so only one event's range can be
    placed freely. The event scored most often is centred on its players' mean scores, between the
    lowest and the highest (their :data:`_EDGE` outliers at each end left out): a season's skills are
    kept between 0 and 1, so its players' scores reach the ends of the range they were played on. Every
    other event is placed where the players it shares with that one score at the skill their scores there
    place (centred on its mean score where it shares none). A range is moved up to start at 0 where it
    would reach below. An event no player scored twice at keeps its default range
    (:func:`default_scale`)."""
    kinds = kinds_of(period.parts)
    events = period.settings.of(EVENT_SETTINGS)
    tallies = _tallies(tx, period)
    spreads = ScoreSpread.of(tallies)
    widths = {
        key: math.sqrt(spread.within / spread.freedom) / ATTEMPT_NOISE
        for key, spread in spreads.items()
        if key in events and spread.freedom > 0 and spread.within > 0
    }
    ranges = {key: default_scale(event, kinds) for key, event in events.items() if key not in widths}
    if widths:
        first = max(widths, key=lambda key: (spreads[key].scored, key))
        means = sorted(t.score_sum / t.scored for (_, key), t in tallies.items() if key == first and t.scored)
        edge = int(len(means) * _EDGE)
        middle = (means[edge] + means[-1 - edge]) / 2
        ranges[first] = _placed(events[first], middle, widths[first], skill=0.5)
        skills = {
            player_id: _skill_at(ranges[first], tally.score_sum / tally.scored)
            for (player_id, key), tally in tallies.items()
            if key == first and tally.scored
        }
        for key, width in widths.items():
            if key == first:
                continue
            shared = [
                (tally.score_sum / tally.scored, skills[player_id], tally.scored)
                for (player_id, event_key), tally in tallies.items()
                if event_key == key and tally.scored and player_id in skills
            ]
            if shared:
                count = sum(n for *_, n in shared)
                mean = sum(score * n for score, _, n in shared) / count
                skill = sum(skill * n for _, skill, n in shared) / count
            else:
                mean, skill = spreads[key].total / spreads[key].scored, 0.5
            ranges[key] = _placed(events[key], mean, width, skill=skill)
    return {key: ranges[key] for key in events if key in ranges} or None


#: The share of the players at each end of the most scored event's scores left out as outliers where
#: its range is placed (:func:`_fit_ranges`).
_EDGE = 0.01


def _placed(event: EventSettings, mean: float, width: float, *, skill: float) -> Scale:
    """The range ``width`` wide, by the event's order, that places the score ``mean`` at ``skill``; moved
    up to start at 0 where it would reach below."""
    toward = -1.0 if event.order is Order.ASC else 1.0
    worst = mean - toward * skill * width
    best = worst + toward * width
    shift = max(0.0, -min(worst, best))
    return Scale(worst=round(worst + shift, 4), best=round(best + shift, 4))


def _skill_at(scale: Scale, score: float) -> float:
    """The skill ``scale`` places a score at: the range inverted."""
    return (score - scale.worst) / (scale.best - scale.worst)


def _write_ranges(found: dict[str, Scale]) -> list[str]:
    return write_scales("events", found)


#: ``[events.<key>]``: an event's score range (``worst``, ``best``); default: :func:`default_scale`.
RANGES = PopulationTable("events", _parse, _check, _pin, fit=_fit_ranges, write=_write_ranges)


#: The most event windows a season opens, every event's together. Each window is opened, closed and
#: reported whatever its players do, about a millisecond each (docs/simulation.md, "Playing a season"):
#: 200 events of one-second windows would open 17 million a day.
WINDOWS_MAX = 20_000


class LiveEvents(Driver):
    """The open events a session plays, the attempts each player made in each event's window (a player
    knows how many it has left there: the events list says so) and each player's play of an event still
    on (it knows its attempt's end, and whether it waits for its lobby)."""

    def __init__(self, play: Play) -> None:
        self.play = play
        self.events = list(play.settings.of(EVENT_SETTINGS).values())
        end = play.start + timedelta(days=play.days)
        windows = sum(windows_between(event, play.start, end) for event in self.events)
        if windows > WINDOWS_MAX:
            raise ValueError(
                f"a season plays at most {WINDOWS_MAX:,} event windows, and the events open {windows:,}"
                f" in {play.days} days: play fewer days, or declare fewer or longer windows"
            )
        kinds = kinds_of(play.parts)
        ranges: dict[str, Scale] = play.table(RANGES) or {}
        self.scales = {e.key: ranges.get(e.key) or default_scale(e, kinds) for e in self.events}
        self.rates = {e.key: rate_of(e, kinds) for e in self.events}
        self.tries: dict[tuple[int, str], tuple[datetime, int]] = {}  # -> (its window's start, attempts)
        # (member index, event key) -> (its window's start, when its play is over): None while its start
        # is held for a lobby, which plays it later.
        self.busy: dict[tuple[int, str], tuple[datetime, datetime | None]] = {}
        # (member index, event key) -> the start of the window another area ended its play in.
        self.over: dict[tuple[int, str], datetime] = {}
        self.holdings = play.store.tables_of(EconomyTables).holdings
        self.unaffordable: dict[str, int] = {}  # event key -> the starts its entry cost kept from playing
        self.attempts = play.store.tables_of(LiveEventTables).attempts

    def _now(self) -> datetime:
        return self.play.start + timedelta(seconds=self.play.elapsed)

    def compete(self, member: Member) -> None:
        play = self.play
        rng, seg = play.rng, member.segment
        now = self._now()
        for event in self.events:
            slot = slot_at(event, now)
            if slot is None or self._playing(member, event, slot.starts_at, now):
                continue
            if rng.random() >= seg.rate(self.rates[event.key]):
                continue
            for driver in play.drivers("before_event"):
                driver.before_event(member, event)
            self.attempt(member, event, int(seg.rate(ATTEMPTS)))

    def _playing(self, member: Member, event: EventSettings, window: datetime, now: datetime) -> bool:
        """Whether the member's play of the event is still on in this window, or another area ended it
        there: a start would be refused (an attempt in progress, its lobby's session over) or seat it
        again."""
        if self.over.get((member.index, event.key)) == window:
            return True
        found = self.busy.get((member.index, event.key))
        if found is None or found[0] != window:
            return False
        over = found[1]
        return over is None or now < over

    def ended(self, member: Member, event: EventSettings, at: datetime) -> None:
        """Another area ended the member's play of the event in the window open at ``at`` (its lobby's
        session closed): the rules refuse its starts there, and it makes none."""
        slot = slot_at(event, at)
        if slot is not None:
            self.over[member.index, event.key] = slot.starts_at

    def affords(self, member: Member, event: EventSettings) -> bool:
        """Whether the member holds the event's entry cost (its balance as its wallet shows it)."""
        for entry in event.entry_cost:
            held = self.holdings.get((member.handle.id, entry.key))
            if (held.amount if held is not None else 0) < entry.amount:
                return False
        return True

    def attempt(self, member: Member, event: EventSettings, left: int) -> None:
        """The member starts an attempt at an open event and plays it, then ``left - 1`` more."""
        play = self.play
        now = self._now()
        slot = slot_at(event, now)
        if slot is None:
            return
        if self.over.get((member.index, event.key)) == slot.starts_at:
            return  # another area ended its play there: the rules refuse a start
        window, tried = self.tries.get((member.index, event.key), (slot.starts_at, 0))
        tried = tried if window == slot.starts_at else 0
        if event.max_attempts is not None and tried >= event.max_attempts:
            return
        if not self.affords(member, event):
            play.set_back(member, ENTRY_COST_UNAFFORDABLE)
            self.unaffordable[event.key] = self.unaffordable.get(event.key, 0) + 1
            return
        started = play.act("events.start", member.handle.live_events.start_attempt, event.key)
        if started is None:
            return
        if any(driver.held(member, event, started) for driver in play.drivers("held")):
            self.busy[member.index, event.key] = (slot.starts_at, None)
            return
        assert isinstance(started, AttemptResponse)
        self.tries[member.index, event.key] = (slot.starts_at, tried + 1)
        self.busy[member.index, event.key] = (slot.starts_at, started.attempt.ends_at)
        low, high = ATTEMPT_SHARE
        took = event.attempt_seconds * play.rng.uniform(low, high)
        completes = member.segment.rate(COMPLETES)
        if completes < 1 and play.rng.random() >= completes:
            return  # abandoned: it expires at its end, as the rules say
        play.at(play.elapsed + took, self._finish, member, event, started.attempt.attempt_id, left - 1)

    def _finish(self, member: Member, event: EventSettings, attempt_id: str, left: int) -> None:
        attempt = self.attempts.get((member.handle.sim.game.id, attempt_id))
        if attempt is None or effective_status(attempt, self._now()) is not AttemptStatus.IN_PROGRESS:
            return  # over before its play: its time ran out, or its lobby closed early
        metrics = {event.score_metric: score(self.play, member, self.scales[event.key])}
        report = member.handle.live_events.report_progress
        self.play.act("events.progress", report, event.key, attempt_id, metrics, complete=True)
        if left > 0:
            self.attempt(member, event, left)


# --- fitting ------------------------------------------------------------------------------------------

_DAY = 86_400


def played_by(rate: Rate, period: FitPeriod) -> dict[str, EventSettings]:
    """The events a session plays by ``rate`` (:func:`rate_of`): by ``events``, those of no kind another
    area hosts."""
    kinds = kinds_of(period.parts)
    events = period.settings.of(EVENT_SETTINGS)
    return {key: e for key, e in events.items() if rate_of(e, kinds) == rate}


def _tallies(tx: Any, period: FitPeriod) -> Mapping[tuple[str, str], AttemptTally]:
    """The period's attempts tallied by (player id, event key): read once however many fits use them."""
    return period.shared(
        "attempts.tallies",
        lambda: tx.attempts.tallies(period.game_id, period.env, period.since, period.until),
    )


def read_plays(tx: Any, period: FitPeriod, rate: Rate) -> dict[str, dict[str, float]]:
    """Each player's attempts and plays at the events played by ``rate`` (:func:`played_by`), the days
    its plays were due to take (``busy``), and its skill: each scored attempt's score placed on its
    event's fitted range (:func:`_fit_ranges`; else its default, :func:`default_scale`), inverted. The
    attempts are read once for every kind of event."""
    played = played_by(rate, period)
    if not played:
        return {}  # no event of the kind: the attempts need no read
    kinds = kinds_of(period.parts)
    fitted: dict[str, Scale] = period.tables.get(RANGES.name) or {}
    scales = {key: fitted.get(key) or default_scale(event, kinds) for key, event in played.items()}
    tallies = _tallies(tx, period)
    out: dict[str, dict[str, float]] = {}
    for (player_id, key), tally in tallies.items():
        if key not in played:
            continue
        mine = out.setdefault(player_id, {})
        mine["attempts"] = mine.get("attempts", 0.0) + tally.attempts
        mine["plays"] = mine.get("plays", 0.0) + tally.plays
        mine["scored"] = mine.get("scored", 0.0) + tally.scored
        mine[f"plays@{key}"] = tally.plays
        mine["busy"] = mine.get("busy", 0.0) + tally.busy / _DAY
        scale = scales[key]
        if tally.scored and scale.best != scale.worst:
            placed = (tally.score_sum - tally.scored * scale.worst) / (scale.best - scale.worst)
            mine[SKILL] = mine.get(SKILL, 0.0) + placed
            mine[SKILL_COUNT] = mine.get(SKILL_COUNT, 0.0) + tally.scored
    return out


def open_share(event: EventSettings, since: datetime, until: datetime, *, closing: float = 0.0) -> float:
    """The share of the period a session could start a play of the event in: the time its windows are
    open in it, each less its last ``closing`` seconds."""
    if until <= since:
        return 0.0
    seconds = 0.0
    at: datetime | None = since
    while at is not None and at < until:
        slot, after = slot_at(event, at), next_start(event, at)
        if slot is not None:
            ends = min(slot.ends_at - timedelta(seconds=closing), until, after or until)
            seconds += max(0.0, (ends - at).total_seconds())
        at = after
    return seconds / (until - since).total_seconds()


def closing(event: EventSettings, kinds: Iterable[EventRate]) -> float:
    """The last seconds of the event's windows a start is not played in: its kind's
    (:attr:`~livecore.simulation.part.EventRate.closing`, a lobby's fill time), else none."""
    return next((kind.closing(event) for kind in kinds if kind.kind(event)), 0.0)


def play_rate(tallies: Tallies, period: FitPeriod, rate: Rate) -> dict[str, float]:
    """``rate``: the plays a session made at the events played by it (:func:`read_plays`), over those
    it could start there: the events open at a session (their shares of the period open), less the
    sessions that came while the player's play of an event was due (its ``busy`` days at the
    segment's sessions a day). Such a session's start is refused (an attempt in progress) or joins the
    play, and a season played from the fit refuses and joins as many: counted, they would fit the chance
    low by the share of the time a play takes. Left out when none is open."""
    kinds = kinds_of(period.parts)
    shares = {
        key: open_share(e, period.since, period.until, closing=closing(e, kinds))
        for key, e in played_by(rate, period).items()
    }
    open_events = sum(shares.values())
    if tallies.sessions <= 0 or tallies.days <= 0 or open_events <= 0:
        return {}
    busy = tallies.sum("busy") * tallies.sessions / tallies.days
    could = tallies.sessions * open_events - busy
    plays = sum(_decided(tallies, period, key, share) for key, share in shares.items())
    return {rate.name: plays / could} if could > 0 else {}


def _decided(tallies: Tallies, period: FitPeriod, key: str, share: float) -> float:
    """The plays of the event a segment's players decided on: those on record where its windows allow as
    many attempts as they want. Where they allow ``max_attempts``, a window holds at most ``k`` plays of
    the segment's attempts a play, and the plays decided in a window (a Poisson count of its sessions'
    decisions: sessions at random times) are told from the plays on record, ``E[min(N, k)]`` inverted."""
    recorded = tallies.sum(f"plays@{key}")
    event = period.settings.of(EVENT_SETTINGS)[key]
    windows = tallies.days * share * _DAY / event.window_seconds  # (player, window) pairs observed
    plays, attempts = tallies.sum("plays"), tallies.sum("attempts")
    if event.max_attempts is None or recorded <= 0 or windows <= 0 or plays <= 0:
        return recorded
    most = math.ceil(event.max_attempts / max(1, round(attempts / plays)))
    return poisson_uncapped(recorded / windows, most) * windows


def poisson_uncapped(mean: float, most: int) -> float:
    """The mean ``λ`` of a Poisson count ``N`` whose ``min(N, most)`` has mean ``mean``."""
    if mean >= most * 0.999:
        return mean  # past what a capped count can tell apart

    def capped(rate: float) -> float:
        term, below, total = math.exp(-rate), 0.0, 0.0
        for n in range(most):  # E[min(N, k)] = sum over j < k of P(N > j)
            below += term
            total += 1 - below
            term *= rate / (n + 1)
        return total

    low, high = mean, mean * 2 + most
    for _ in range(60):
        middle = (low + high) / 2
        low, high = (middle, high) if capped(middle) < mean else (low, middle)
    return (low + high) / 2


def _plays(tallies: Mapping[str, float], sessions: float) -> dict[str, tuple[float, float]]:
    """The plays a session."""
    return {"plays": (tallies.get("plays", 0.0), sessions)}


def fit_plays(rate: Rate) -> Fit:
    """The fit of a kind of event's ``rate`` (a lobby event's ``lobbies``, a team event's ``teams``), as
    the ``events`` chance is fitted: its players' plays at the events of the kind (:func:`read_plays`,
    their skill too), over their sessions and the events open (:func:`play_rate`); its feature, the
    plays a session."""

    def read(tx: Any, period: FitPeriod) -> dict[str, dict[str, float]]:
        return read_plays(tx, period, rate)

    def rates(tallies: Tallies, period: FitPeriod) -> dict[str, float]:
        return play_rate(tallies, period, rate)

    return Fit(read=read, rates=rates, features=_plays)


def _read(tx: Any, period: FitPeriod) -> dict[str, dict[str, float]]:
    return read_plays(tx, period, EVENTS)


def _rates(tallies: Tallies, period: FitPeriod) -> dict[str, float]:
    """``completes``: the attempts scored over those started (an abandoned attempt reports no score);
    ``attempts_per_session``: the attempts a play (a session's run at an event) sets out to make, told
    from those it made (:func:`planned`); ``events``: as :func:`play_rate` fits it."""
    plays, attempts = tallies.sum("plays"), tallies.sum("attempts")
    rates: dict[str, float] = {}
    if plays and attempts:
        completes = min(1.0, tallies.sum("scored") / attempts)
        rates = {COMPLETES.name: completes, ATTEMPTS.name: planned(attempts / plays, completes)}
    return {**rates, **play_rate(tallies, period, EVENTS)}


def planned(made: float, completes: float) -> float:
    """The attempts ``k`` a play sets out to make, given the mean it made: an abandoned attempt ends its
    play, so a play makes ``1 + p + ... + p^(k-1)`` of them at ``completes`` ``p``, inverted (at most
    the field's bound where no ``k`` makes as many)."""
    most = ATTEMPTS.bounds[1]
    if completes >= 1:
        return made
    if completes <= 0 or made * (1 - completes) >= 1:
        return most
    return min(most, math.log(1 - made * (1 - completes)) / math.log(completes))


def _features(tallies: Mapping[str, float], sessions: float) -> dict[str, tuple[float, float]]:
    """The plays a session, and the attempts a play beyond its first."""
    plays = tallies.get("plays", 0.0)
    return {**_plays(tallies, sessions), "attempts": (tallies.get("attempts", 0.0) - plays, plays)}


SEASON = SeasonPart(
    rates=(EVENTS, ATTEMPTS, COMPLETES),
    tables=(RANGES,),
    driver=LiveEvents,
    fit=Fit(read=_read, rates=_rates, features=_features),
)
