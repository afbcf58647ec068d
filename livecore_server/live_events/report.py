"""The live events' part of a season's report (:class:`~livecore_server.simulate.section.ReportPart`): per
event window, its entrants, attempts, completion and milestone rates, scores and rank rewards; per
segment, the share of players who entered each event, their attempts and how often they completed."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from livecore.games import GameSettings, Order
from livecore.live_events.attempts import AttemptStatus
from livecore.live_events.memory import LiveEventTables
from livecore.live_events.rules import WindowStatus
from livecore.live_events.season import LiveEvents
from livecore.live_events.settings import EVENT_SETTINGS, EventSettings
from livecore_server.grants.report import grants_of
from livecore_server.simulate.section import (
    Column,
    Figures,
    Gathering,
    Label,
    ReportPart,
    Row,
    Table,
    Warning,
    get,
    iso,
    keys,
    mean,
    number,
    percentiles,
    row,
    share,
    table,
    warning,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: A milestone reached by fewer than this share of a window's entrants, on average, is out of reach.
RARE_MILESTONE = 0.01


def _windows(at: Gathering) -> list[Any]:
    """The played game's windows that opened during the season, by event and start."""
    live = at.sim.store.tables_of(LiveEventTables)
    return sorted(
        (
            w
            for (game, _), w in live.windows.items()
            if game == at.game_id and w.env is at.env and w.starts_at < at.end
        ),
        key=lambda w: (w.event_key, w.starts_at),
    )


class _Tally:
    """What each segment did in an event's windows: the players who entered one, the attempts, the
    windows entered (a player and a window) and those completed."""

    def __init__(self) -> None:
        self.entered: dict[str, dict[str, None]] = {}
        self.attempts: dict[str, float] = {}
        self.played: dict[str, float] = {}
        self.completed: dict[str, float] = {}

    def add(self, at: Gathering, attempts: list[Any]) -> None:
        """The attempts of one window."""
        done: dict[str, tuple[str, bool]] = {}  # player id -> its segment, whether it completed
        for attempt in attempts:
            segment = at.segment(attempt.player_id)
            if segment is None:
                continue
            self.attempts[segment] = self.attempts.get(segment, 0) + 1
            before = done.get(attempt.player_id, (segment, False))[1]
            done[attempt.player_id] = (segment, before or attempt.status is AttemptStatus.COMPLETED)
        for player_id, (segment, completes) in done.items():
            self.entered.setdefault(segment, {})[player_id] = None
            self.played[segment] = self.played.get(segment, 0) + 1
            self.completed[segment] = self.completed.get(segment, 0) + completes


class _Taken:
    """The windows read so far: each one's row of the section, by window id, and what each segment did,
    by event. While the season plays, a window is taken at the first day's end it is over (:func:`over`)
    with no attempt in progress, and its attempts are then dropped from the store (:func:`fold`): no rule
    reads them again but a player's history, and they are much of what a long season would otherwise
    hold. At the end the others are taken as they stand."""

    def __init__(self) -> None:
        self.rows: dict[str, dict[str, Any]] = {}
        self.tallies: dict[str, _Tally] = {}

    def take(self, at: Gathering, *, closed_only: bool) -> list[str]:
        """Take the windows not taken yet (``closed_only``: those over with no attempt in progress);
        answers their ids."""
        live = at.sim.store.tables_of(LiveEventTables)
        events = at.settings.of(EVENT_SETTINGS)
        running = {live.attempts[key].window_id for key in live.in_progress}
        due = [
            w
            for w in _windows(at)
            if w.id not in self.rows
            and w.event_key in events
            and (not closed_only or (over(w, at.end) and w.id not in running))
        ]
        if not due:
            return []
        wanted = {w.id for w in due}
        by_window: dict[str, list[Any]] = {}
        for (game, _), attempt in live.attempts.items():
            if game == at.game_id and attempt.window_id in wanted:
                by_window.setdefault(attempt.window_id, []).append(attempt)
        paid, paid_count = _rank_rewards(at, wanted)
        for window in due:
            attempts = by_window.get(window.id, [])
            self.rows[window.id] = _window_row(events[window.event_key], window, attempts, paid, paid_count)
            self.tallies.setdefault(window.event_key, _Tally()).add(at, attempts)
        return [w.id for w in due]


def over(window: Any, now: datetime) -> bool:
    """A window closed, an attempt's time past its end: a player of the season reports an attempt
    within its time, so none reports one of this window again (a report on one dropped would be refused as not
    found, where the service answers that it is no longer in progress)."""
    ends = window.ends_at + timedelta(seconds=window.settings.attempt_seconds)
    return window.status is WindowStatus.CLOSED and ends <= now


def _taken(at: Gathering, *, closed_only: bool = False) -> _Taken:
    """What the part has read, every window taken unless ``closed_only``."""
    taken = at.kept("events.windows", _Taken)
    taken.take(at, closed_only=closed_only)
    return taken


def fold(at: Gathering) -> Callable[[], None]:
    """The windows over since the last fold taken; what drops their attempts from the store."""
    taken = at.kept("events.windows", _Taken)
    windows = taken.take(at, closed_only=True)
    return lambda: at.sim.store.tables_of(LiveEventTables).forget_attempts(windows)


def _rank_rewards(at: Gathering, windows: set[str]) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
    """What the rank rewards of those windows' boards paid, by window: by resource, and how many."""
    live = at.sim.store.tables_of(LiveEventTables)
    board_window = {b.id: b.window_id for b in live.boards.values() if b.window_id in windows}
    paid: dict[str, dict[str, int]] = {}
    paid_count: dict[str, int] = {}
    for grant in grants_of(at).values():
        if grant.source_kind == "event_rank":
            window_id = board_window.get(grant.source_ref_id or "")
            if window_id is not None:
                paid_count[window_id] = paid_count.get(window_id, 0) + 1
                into = paid.setdefault(window_id, {})
                for entry in grant.rewards:
                    into[entry.key] = into.get(entry.key, 0) + entry.amount
    return paid, paid_count


def gather(at: Gathering) -> dict[str, Any]:
    """Per event window: entrants, attempts, completion and milestone rates, score percentiles (each
    entrant's best), and the rank rewards its boards paid."""
    windows = _windows(at)
    taken = _taken(at)
    unaffordable = at.season.driver(LiveEvents).unaffordable
    out: dict[str, Any] = {}
    for key, event in at.settings.of(EVENT_SETTINGS).items():
        rows = [taken.rows[w.id] for w in windows if w.event_key == key]
        entrants = [r["entrants"] for r in rows]
        out[key] = {
            "name": event.name,
            "kind": "lobby" if event.holds("lobby") else "team" if event.holds("teams") else "solo",
            "order": event.order.value,
            "milestones": {m.key: number(m.threshold) for m in event.milestones},
            "windows": rows,
            "summary": {
                "windows": len(rows),
                "entrants": percentiles(entrants, ps=(50, 90)),
                "completion_rate": number(mean([r["completion_rate"] for r in rows if r["entrants"]])),
                "milestone_rates": {
                    m.key: number(mean([r["milestone_rates"][m.key] for r in rows if r["entrants"]]))
                    for m in event.milestones
                },
                "rank_rewards_paid": sum(r["rank_rewards_paid"] for r in rows),
                # The starts its entry cost kept from playing: a player holding less starts none.
                "entry_cost_unaffordable": unaffordable.get(key, 0),
            },
        }
    return out


def _window_row(
    event: EventSettings,
    window: Any,
    attempts: list[Any],
    paid: dict[str, dict[str, int]],
    paid_count: dict[str, int],
) -> dict[str, Any]:
    best: dict[str, float] = {}
    completed: dict[str, None] = {}
    reached: dict[str, dict[str, None]] = {m.key: {} for m in event.milestones}
    for attempt in attempts:
        if attempt.status is AttemptStatus.COMPLETED:
            completed[attempt.player_id] = None
        for key in attempt.milestones:
            reached.setdefault(key, {})[attempt.player_id] = None
        if attempt.score is not None:
            held = best.get(attempt.player_id)
            if held is None or _better(event.order, attempt.score, held):
                best[attempt.player_id] = attempt.score
    entrants = len({a.player_id: None for a in attempts})
    return {
        "window_id": window.id,
        "starts_at": iso(window.starts_at),
        "ends_at": iso(window.ends_at),
        "entrants": entrants,
        "attempts": len(attempts),
        "completion_rate": share(len(completed), entrants),
        "milestone_rates": {m.key: share(len(reached[m.key]), entrants) for m in event.milestones},
        "scores": percentiles(list(best.values())),
        "rank_rewards_paid": paid_count.get(window.id, 0),
        "rank_rewards": dict(sorted(paid.get(window.id, {}).items())),
    }


def by_segment(at: Gathering) -> Figures:
    """Per event a window of which opened: the share of each segment's players who entered it (made an
    attempt), its attempts per player, and its completion rate: of the windows its players entered (a
    player and a window), the share they completed an attempt in (None where none entered)."""
    windows = _windows(at)
    taken = _taken(at)
    out: dict[str, dict[str, float | None]] = {}
    for key in at.settings.of(EVENT_SETTINGS):
        if not any(w.event_key == key for w in windows):
            continue
        tally = taken.tallies.get(key, _Tally())
        out[f"{key}: share who entered"] = at.per_player({s: len(p) for s, p in tally.entered.items()})
        out[f"{key}: attempts per player"] = at.per_player(tally.attempts)
        out[f"{key}: completion rate"] = {
            name: share(tally.completed.get(name, 0), tally.played[name]) if tally.played.get(name) else None
            for name in at.segments
        }
    return out


def _better(order: Order, score: float, than: float) -> bool:
    return score < than if order is Order.ASC else score > than


def warnings(section: dict[str, Any], settings: GameSettings, label: Label) -> list[Warning]:
    """An event nobody entered, a milestone nobody (or almost nobody) reaches, rank rewards paid deeper
    than most windows have entrants, an entry cost players could not pay."""
    out: list[Warning] = []
    for key, event in section.items():
        summary = event["summary"]
        if summary.get("entry_cost_unaffordable"):
            out.append(
                warning(
                    "events",
                    key,
                    f"Players could not pay {event['name']}'s entry cost"
                    f" {summary['entry_cost_unaffordable']:,} times, and started no attempt.",
                )
            )
        if not summary["windows"]:
            continue
        played = any(w["entrants"] for w in event["windows"])
        if not played:
            out.append(
                warning("events", key, f"Nobody entered {event['name']} in {summary['windows']} windows.")
            )
            continue
        for milestone, rate in summary["milestone_rates"].items():
            if rate == 0:
                out.append(
                    warning(
                        "events",
                        key,
                        f"Nobody reaches the milestone {milestone!r} of {event['name']} "
                        f"(threshold {event['milestones'][milestone]:,}).",
                    )
                )
            elif rate < RARE_MILESTONE:
                out.append(
                    warning(
                        "events",
                        key,
                        f"Almost nobody reaches the milestone {milestone!r} of {event['name']}: "
                        f"{rate * 100:.2f}% of entrants per window.",
                    )
                )
        bands = settings.of(EVENT_SETTINGS)[key].rank_rewards
        if bands and event["kind"] != "lobby":
            widest = max(b.last for b in bands)
            typical = summary["entrants"]["p50"]
            if typical and typical < widest:
                out.append(
                    warning(
                        "events",
                        key,
                        f"{event['name']} pays ranks down to {widest}, but half its windows have "
                        f"{typical:,} entrants or fewer: its lower rank rewards are rarely paid.",
                    )
                )
    return out


def refusal_warnings(refusals: Mapping[str, int]) -> list[Warning]:
    """Players who could not pay an event's entry cost."""
    unaffordable = sum(n for name, n in refusals.items() if name.endswith(":insufficient_entry_cost"))
    if not unaffordable:
        return []
    return [
        warning(
            "events",
            "entry_cost",
            f"Players could not pay an event's entry cost {unaffordable:,} times.",
        )
    ]


def compare(base: dict[str, Any], other: dict[str, Any]) -> list[Row]:
    rows: list[Row] = []
    for key in keys(base, other):
        a, b = base.get(key), other.get(key)
        rows.append(row("events", key, "windows", get(a, "summary", "windows"), get(b, "summary", "windows")))
        rows.append(
            row(
                "events",
                key,
                "entrants per window (p50)",
                get(a, "summary", "entrants", "p50"),
                get(b, "summary", "entrants", "p50"),
            )
        )
        rows.append(
            row(
                "events",
                key,
                "completion rate",
                get(a, "summary", "completion_rate"),
                get(b, "summary", "completion_rate"),
            )
        )
        milestones = keys(
            get(a, "summary", "milestone_rates") or {}, get(b, "summary", "milestone_rates") or {}
        )
        for m in milestones:
            rows.append(
                row(
                    "events",
                    key,
                    f"milestone {m} rate",
                    get(a, "summary", "milestone_rates", m),
                    get(b, "summary", "milestone_rates", m),
                )
            )
        rows.append(
            row(
                "events",
                key,
                "rank reward grants",
                get(a, "summary", "rank_rewards_paid"),
                get(b, "summary", "rank_rewards_paid"),
            )
        )
    return rows


def entered(event: dict[str, Any]) -> bool:
    """Whether anyone entered a window of the event: the page draws and tabulates those only, and says
    of the others in one line that nobody did."""
    return any(w["entrants"] for w in event["windows"])


def charts(section: dict[str, Any], label: Label) -> dict[str, str | None]:
    return {k: _chart(k, e) for k, e in section.items() if entered(e)}


def tables(section: dict[str, Any]) -> dict[str, Table]:
    """Of each event someone entered: its summary (``events.<key>``) and its windows
    (``events.<key>.windows``)."""
    out: dict[str, Table] = {}
    for key, event in section.items():
        if not entered(event):
            continue
        milestones = list(event["milestones"])
        summary = event["summary"]
        out[f"events.{key}"] = table(
            [
                "Windows",
                "Entrants p50",
                "Entrants p90",
                Column("Completion", "share"),
                *(Column(f"Milestone {m}", "share") for m in milestones),
                "Rank reward grants",
            ],
            [
                [
                    summary["windows"],
                    summary["entrants"]["p50"],
                    summary["entrants"]["p90"],
                    summary["completion_rate"],
                    *(summary["milestone_rates"][m] for m in milestones),
                    summary["rank_rewards_paid"],
                ]
            ],
        )
        out[f"events.{key}.windows"] = table(
            [
                Column("Starts", "text"),
                "Entrants",
                "Attempts",
                Column("Completion", "share"),
                *(Column(m, "share") for m in milestones),
                "Score p10",
                "p50",
                "p90",
                "Rank grants",
            ],
            (
                [
                    w["starts_at"],
                    w["entrants"],
                    w["attempts"],
                    w["completion_rate"],
                    *(w["milestone_rates"][m] for m in milestones),
                    w["scores"]["p10"],
                    w["scores"]["p50"],
                    w["scores"]["p90"],
                    w["rank_rewards_paid"],
                ]
                for w in event["windows"]
            ),
        )
    return out


def compare_charts(base: dict[str, Any], other: dict[str, Any], label: Label) -> dict[str, str]:
    return {
        k: _compare_chart(k, base[k], other[k])
        for k in base
        if k in other
        and base[k]["windows"]
        and other[k]["windows"]
        and (entered(base[k]) or entered(other[k]))
    }


#: An event with more windows than this is drawn per day, not per window: 336 hourly windows as a line
#: are noise, 14 days are a trend.
MANY_WINDOWS = 60


def per_day(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Windows as days, by the day each starts on (UTC): the day's entrants summed, its completion and
    milestone rates and its score percentiles the means of its windows' weighted by their entrants (a
    day's own percentiles are not kept); a day nobody entered has no rates, nor scores (NaN: a gap in
    its lines)."""
    days: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        days.setdefault(r["starts_at"][:10], []).append(r)

    def weighted(windows: list[dict[str, Any]], value: Any) -> float:
        entrants = sum(w["entrants"] for w in windows)
        return sum(value(w) * w["entrants"] for w in windows) / entrants if entrants else math.nan

    out = []
    for windows in days.values():
        milestones = windows[0]["milestone_rates"]
        played = [w for w in windows if w["entrants"]]
        out.append(
            {
                "entrants": sum(w["entrants"] for w in windows),
                "completion_rate": weighted(windows, lambda w: w["completion_rate"]),
                "milestone_rates": {
                    m: weighted(windows, lambda w, m=m: w["milestone_rates"][m]) for m in milestones
                },
                "scores": {p: weighted(played, lambda w, p=p: w["scores"][p]) for p in ("p10", "p50", "p90")},
            }
        )
    return out


def _chart(key: str, data: dict[str, Any]) -> str | None:
    """Per window (per day past :data:`MANY_WINDOWS`, :func:`per_day`): entrants; completion and
    milestone rates; the entrants' best scores (p10 to p90). None for one window, a point each: its
    table says it."""
    from livecore_server.simulate import charts as c

    rows = data["windows"]
    if len(rows) < 2:
        return None
    unit = "window"
    if len(rows) > MANY_WINDOWS:
        rows, unit = per_day(rows), "day"

    def draw(fig: Figure) -> None:
        crowd, rates, scores = fig.subplots(1, 3)
        x = list(range(1, len(rows) + 1))
        mark = c.marker(len(rows))
        crowd.plot(x, [r["entrants"] for r in rows], marker=mark, color=c.PALETTE[0])
        c.from_zero(crowd)
        c.title(crowd, f"entrants per {unit}")
        crowd.set_xlabel(unit)
        rates.plot(
            x, [r["completion_rate"] for r in rows], marker=mark, color=c.PALETTE[0], label="completed"
        )
        for i, milestone in enumerate(data["milestones"]):
            rates.plot(
                x,
                [r["milestone_rates"][milestone] for r in rows],
                marker=mark,
                color=c.nth(i + 1),
                label=f"milestone {milestone}",
            )
        rates.set_ylim(0, 1.05)
        c.title(rates, "share of entrants")
        rates.set_xlabel(unit)
        low = [r["scores"]["p10"] for r in rows]
        high = [r["scores"]["p90"] for r in rows]
        scores.fill_between(x, low, high, color=c.PALETTE[5], alpha=0.4, label="p10 to p90")
        scores.plot(x, [r["scores"]["p50"] for r in rows], marker=mark, color=c.PALETTE[0], label="p50")
        for i, (milestone, threshold) in enumerate(data["milestones"].items()):
            scores.axhline(threshold, color=c.nth(i + 1), linestyle=":", label=milestone)
        if data["order"] == "asc":
            scores.invert_yaxis()
        c.title(scores, "best score, p10 to p90" + (" (lower is better)" if data["order"] == "asc" else ""))
        scores.set_xlabel(unit)
        c.whole(crowd, rates, scores)
        c.legend_below(fig, rates, scores)

    legend = -(-(2 + 2 * len(data["milestones"]) + 2) // 4)
    return c.svg(f"event-{key}", draw, size=(9.0, 2.8 + 0.2 * legend), legend_rows=legend)


def _compare_chart(key: str, base: dict[str, Any], other: dict[str, Any]) -> str:
    """One event in both configurations: entrants and completion rate per window."""
    from livecore_server.simulate import charts as c

    def draw(fig: Figure) -> None:
        crowd, rates = fig.subplots(1, 2)
        a, b = base["windows"], other["windows"]
        n = min(len(a), len(b))
        x = list(range(1, n + 1))
        c.overlay(
            crowd, x, [r["entrants"] for r in a[:n]], [r["entrants"] for r in b[:n]], c.PALETTE[0], "entrants"
        )
        c.from_zero(crowd)
        c.title(crowd, f"{base['name']}: entrants per window")
        c.overlay(
            rates,
            x,
            [r["completion_rate"] for r in a[:n]],
            [r["completion_rate"] for r in b[:n]],
            c.PALETTE[0],
            "completed",
        )
        for i, milestone in enumerate(m for m in base["milestones"] if m in other["milestones"]):
            c.overlay(
                rates,
                x,
                [r["milestone_rates"][milestone] for r in a[:n]],
                [r["milestone_rates"][milestone] for r in b[:n]],
                c.nth(i + 1),
                milestone,
            )
        rates.set_ylim(0, 1.05)
        c.title(rates, "share of entrants")
        c.whole(crowd, rates)
        c.legend_below(fig, crowd, rates)

    rows = -(-(4 + 2 * len(base["milestones"])) // 4)
    return c.svg(f"compare-event-{key}", draw, size=(8.0, 2.8 + 0.2 * rows), legend_rows=rows)


REPORT = ReportPart(
    key="events",
    place=20,
    page="livecore_server.live_events:templates/report.html",
    compare_page="livecore_server.live_events:templates/compare.html",
    gather=gather,
    warnings=warnings,
    refusal_warnings=refusal_warnings,
    compare=compare,
    charts=charts,
    compare_charts=compare_charts,
    tables=tables,
    by_segment=by_segment,
    fold=fold,
    labels={
        "event_rank": "event rank rewards",
        "event_milestone": "milestones",
        "event_completion": "completions",
        "entry_cost": "entry costs",
    },
)
