"""The lobbies' part of a season's report (:class:`~livecore_server.simulate.section.ReportPart`): per
lobby event, its lobbies, how long they took to fill, who took the seats and how they started."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from livecore.games import GameSettings
from livecore.live_events.memory import LiveEventTables
from livecore.live_events.settings import EVENT_SETTINGS
from livecore.lobbies.memory import LobbyTables
from livecore.lobbies.rules import PromotionReason
from livecore.lobbies.settings import LOBBY_SETTINGS
from livecore_server.live_events.report import over
from livecore_server.simulate.section import (
    Column,
    Gathering,
    Label,
    ReportPart,
    Row,
    Table,
    Warning,
    get,
    histogram,
    keys,
    pct,
    percentiles,
    row,
    share,
    table,
    warning,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: Lobbies whose seats bots took more than this share of were filled mostly by bots.
BOT_SHARE = 0.5


def fold(at: Gathering) -> Callable[[], None]:
    """What drops the seats of the lobbies whose window is over (as
    :func:`~livecore_server.live_events.report.over` says), as the season plays: the section reads the
    lobbies, never their seats, and no rule reads them again but a player's history."""
    live = at.sim.store.tables_of(LiveEventTables)
    done = at.kept("lobbies.windows_dropped", set[str])
    windows = [
        w.id
        for (game, _), w in live.windows.items()
        if game == at.game_id and w.id not in done and over(w, at.end)
    ]
    tables = at.sim.store.tables_of(LobbyTables)

    def drop() -> None:
        tables.forget_seats([lobby for w in windows for lobby in tables.window_lobbies.get(w, ())])
        done.update(windows)

    return drop


def gather(at: Gathering) -> dict[str, Any]:
    """Per lobby event: lobbies, time to fill (creation to start, for lobbies matchmaking formed), the
    share of seats bots took, how lobbies started, sudden deaths."""
    every = at.sim.store.tables_of(LobbyTables).lobbies
    out: dict[str, Any] = {}
    for key, event in at.settings.of(EVENT_SETTINGS).items():
        lobby = event.of(LOBBY_SETTINGS)
        if lobby is None:
            continue
        lobbies = sorted(
            (
                lb
                for lb in every.values()
                if lb.game_id == at.game_id and lb.env is at.env and lb.event_key == key
            ),
            key=lambda lb: (lb.created_at, lb.id),
        )
        fills = [
            (lb.started_at - lb.created_at).total_seconds()
            for lb in lobbies
            if lb.started_at is not None and lb.promotion_reason is not PromotionReason.EXTERNAL_PUSH
        ]
        seats = sum(lb.participant_count for lb in lobbies)
        bots = sum(lb.bot_count for lb in lobbies)
        reasons: dict[str, int] = {}
        for lb in lobbies:
            reason = lb.promotion_reason.value if lb.promotion_reason else "never_started"
            reasons[reason] = reasons.get(reason, 0) + 1
        humans = [lb.participant_count - lb.bot_count for lb in lobbies]
        out[key] = {
            "name": event.name,
            "capacity": lobby.capacity,
            "fill_seconds": lobby.fill_seconds,
            "lobbies": len(lobbies),
            "time_to_fill_seconds": percentiles(fills),
            "fill_histogram": histogram(fills, _fill_bins(lobby.fill_seconds)),
            "seats": seats,
            "bot_seats": bots,
            "bot_seat_share": share(bots, seats),
            "players_per_lobby": percentiles(humans, ps=(10, 50, 90)),
            "started_by": dict(sorted(reasons.items())),
            "sudden_deaths": sum(1 for lb in lobbies if lb.terminated_by is not None),
        }
    return out


def _fill_bins(fill_seconds: int) -> list[float]:
    step = max(1, math.ceil(fill_seconds / 6))
    return [float(step * i) for i in range(7)]


def warnings(section: dict[str, Any], settings: GameSettings, label: Label) -> list[Warning]:
    """Lobbies filled mostly by bots; lobbies that closed with their window before they started."""
    out: list[Warning] = []
    for key, lobby in section.items():
        if lobby["seats"] and lobby["bot_seat_share"] > BOT_SHARE:
            out.append(
                warning(
                    "lobbies",
                    key,
                    f"{lobby['name']}: bots took {pct(lobby['bot_seat_share'])} of the seats; its lobbies "
                    "are filled mostly by bots.",
                )
            )
        never = lobby["started_by"].get("never_started", 0)
        if never:
            out.append(
                warning(
                    "lobbies",
                    key,
                    f"{lobby['name']}: {never} lobbies closed with their window before they started.",
                )
            )
    return out


def compare(base: dict[str, Any], other: dict[str, Any]) -> list[Row]:
    rows: list[Row] = []
    for key in keys(base, other):
        a, b = base.get(key), other.get(key)
        rows.append(row("lobbies", key, "lobbies", get(a, "lobbies"), get(b, "lobbies")))
        for p in ("p50", "p90"):
            rows.append(
                row(
                    "lobbies",
                    key,
                    f"time to fill {p} (s)",
                    get(a, "time_to_fill_seconds", p),
                    get(b, "time_to_fill_seconds", p),
                )
            )
        rows.append(row("lobbies", key, "bot seat share", get(a, "bot_seat_share"), get(b, "bot_seat_share")))
    return rows


def charts(section: dict[str, Any], label: Label) -> dict[str, str | None]:
    return {k: _chart(k, lobby) for k, lobby in section.items()}


#: How a lobby starts, as ``started_by`` counts them, and the table's column of each (the same columns in
#: every report).
STARTS = {
    PromotionReason.CAPACITY.value: "Started full",
    PromotionReason.TIMEOUT.value: "Started at fill time",
    PromotionReason.EXTERNAL_PUSH.value: "Started by a push",
    "never_started": "Never started",
}


def tables(section: dict[str, Any]) -> dict[str, Table]:
    """Of each lobby event: its lobbies, how long they took to fill, who took the seats and how they
    started (``lobbies.<key>``)."""
    return {
        f"lobbies.{key}": table(
            [
                "Lobbies",
                "Fill p50 (s)",
                "p90",
                "p99",
                Column("Bot seats", "share"),
                "Players per lobby p50",
                *STARTS.values(),
                "Sudden deaths",
            ],
            [
                [
                    lobby["lobbies"],
                    lobby["time_to_fill_seconds"]["p50"],
                    lobby["time_to_fill_seconds"]["p90"],
                    lobby["time_to_fill_seconds"]["p99"],
                    lobby["bot_seat_share"],
                    lobby["players_per_lobby"]["p50"],
                    *(lobby["started_by"].get(s, 0) for s in STARTS),
                    lobby["sudden_deaths"],
                ]
            ],
        )
        for key, lobby in section.items()
    }


def _chart(key: str, data: dict[str, Any]) -> str | None:
    """Time to fill (histogram) and who took the seats: each drawn when two or more of its bars have a
    value (the page says the other in a sentence); None when neither is."""
    from livecore_server.simulate import charts as c

    bins = data["fill_histogram"]
    fills = [b["count"] for b in bins]
    seated = [data["seats"] - data["bot_seats"], data["bot_seats"]]
    show_fills, show_seats = c.worth_bars(fills), c.worth_bars(seated)
    panels = show_fills + show_seats
    if not panels:
        return None

    def draw(fig: Figure) -> None:
        axes = list(fig.subplots(1, panels, width_ratios=(3, 1)[:panels], squeeze=False).flat)
        if show_fills:
            fill = axes.pop(0)
            fill.bar([f"{b['from']}s+" for b in bins], fills, color=c.PALETTE[0])
            c.title(fill, "time to fill (lobbies)")
        if show_seats:
            seats = axes.pop(0)
            seats.bar(["players", "bots"], seated, color=[c.PALETTE[0], c.PALETTE[3]])
            c.title(seats, "who took the seats")

    return c.svg(f"lobby-{key}", draw, size=(8.0 if panels == 2 else 4.0, 2.6))


REPORT = ReportPart(
    key="lobbies",
    page="livecore_server.lobbies:templates/report.html",
    place=40,
    gather=gather,
    warnings=warnings,
    compare=compare,
    charts=charts,
    tables=tables,
    fold=fold,
)
