"""The guilds' part of a season's report (:class:`~livecore_server.simulate.section.ReportPart`): the
guilds at the end, their sizes, and the help requests asked, filled and expired; per segment, the share
of players in a guild at the end."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from livecore.games import GameSettings
from livecore.guilds.memory import GuildTables
from livecore.guilds.rules import HelpStatus, help_status
from livecore.guilds.settings import GUILD_SETTINGS
from livecore_server.simulate.section import (
    Figures,
    Gathering,
    Label,
    ReportPart,
    Row,
    Table,
    Warning,
    get,
    histogram,
    pct,
    percentiles,
    row,
    table,
    warning,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: Help requests expiring unfilled: more than this share of those asked is named.
EXPIRED_HELP = 0.5


def gather(at: Gathering) -> dict[str, Any]:
    """Guilds at the end: how many, their sizes, and the help requests asked, filled, expired."""
    tables = at.sim.store.tables_of(GuildTables)
    settings = at.settings.of(GUILD_SETTINGS)
    guilds = [g for g in tables.guilds.values() if g.game_id == at.game_id and g.env is at.env]
    alive = [g for g in guilds if g.disbanded_at is None]
    sizes = [g.member_count for g in alive]
    ids = {g.id: None for g in guilds}
    help_: dict[str, int] = {s.value: 0 for s in HelpStatus}
    partly = 0
    for request in tables.help_requests.values():
        if request.guild_id in ids:
            status = help_status(request, at.end)
            help_[status.value] += 1
            if status is HelpStatus.EXPIRED and request.donated:
                partly += 1
    donations = sum(1 for d in tables.donations.values() if d.guild_id in ids)
    cap = settings.max_members
    return {
        "enabled": settings.enabled,
        "max_members": cap,
        "guilds": len(alive),
        "disbanded": len(guilds) - len(alive),
        "members": sum(sizes),
        "sizes": percentiles(sizes, ps=(10, 50, 90)),
        "size_histogram": histogram(sizes, _size_bins(cap)),
        "full": sum(1 for s in sizes if s >= cap),
        "help_requests": {
            "asked": sum(help_.values()),
            "filled": help_[HelpStatus.FILLED.value],
            "expired": help_[HelpStatus.EXPIRED.value],
            "expired_partly_filled": partly,
            "open": help_[HelpStatus.OPEN.value],
            "closed": help_[HelpStatus.CLOSED.value],
            "donations": donations,
        },
    }


def _size_bins(cap: int) -> list[float]:
    """Up to seven bins from 1 member to the cap (none beyond it: no guild is larger)."""
    step = max(1, math.ceil(cap / 6))
    return [float(edge) for edge in range(1, cap + 1, step)]


def warnings(section: dict[str, Any], settings: GameSettings, label: Label) -> list[Warning]:
    asked = section["help_requests"]["asked"]
    if asked and section["help_requests"]["expired"] / asked > EXPIRED_HELP:
        share = pct(section["help_requests"]["expired"] / asked)
        return [warning("guilds", "help", f"{share} of guild help requests expire unfilled.")]
    return []


def compare(base: dict[str, Any], other: dict[str, Any]) -> list[Row]:
    return [
        row("guilds", "", metric, get(base, *path), get(other, *path))
        for metric, path in (
            ("guilds", ("guilds",)),
            ("members", ("members",)),
            ("help requests filled", ("help_requests", "filled")),
            ("help requests expired", ("help_requests", "expired")),
        )
    ]


def by_segment(at: Gathering) -> Figures:
    """The share of each segment's players in a guild at the end (none when the game's guilds are off)."""
    if not at.settings.of(GUILD_SETTINGS).enabled:
        return {}
    tables = at.sim.store.tables_of(GuildTables)
    members: dict[str, float] = {}
    for player_id, stint_id in tables.current_stints.items():
        stint = tables.stints[stint_id]
        segment = at.segment(player_id)
        if stint.game_id == at.game_id and stint.env is at.env and segment is not None:
            members[segment] = members.get(segment, 0) + 1
    return {"share in a guild at the end": at.per_player(members)}


def chart(section: dict[str, Any], label: Label) -> str | None:
    """Guilds by size (none when the game's guilds are off, or when every guild falls in one bin of the
    histogram: the page says it)."""
    from livecore_server.simulate import charts as c

    bins = section["size_histogram"]
    if not section["enabled"] or not c.worth_bars([b["count"] for b in bins]):
        return None

    def draw(fig: Figure) -> None:
        ax = fig.subplots()
        ends = [b["from"] - 1 for b in bins[1:]] + [section["max_members"]]
        ranges = [
            str(b["from"]) if b["from"] == end else f"{b['from']}-{end}"
            for b, end in zip(bins, ends, strict=True)
        ]
        ax.bar(ranges, [b["count"] for b in bins], color=c.PALETTE[2])
        c.title(ax, "guilds by members")
        ax.set_xlabel("members")

    return c.svg("guilds", draw, size=(4.0, 2.4))


#: The columns of the help requests, after the guilds'.
_HELP = ("Help asked", "Filled", "Expired", "Open", "Donations")


def tables(section: dict[str, Any]) -> dict[str, Table]:
    """The guilds at the end and their help requests (``guilds``), when the game's guilds are on."""
    if not section["enabled"]:
        return {}
    h = section["help_requests"]
    return {
        "guilds": table(
            [*("Guilds", "Members", "Size p50", "p90", "Full"), *_HELP],
            [
                [
                    section["guilds"],
                    section["members"],
                    section["sizes"]["p50"],
                    section["sizes"]["p90"],
                    section["full"],
                    h["asked"],
                    h["filled"],
                    h["expired"],
                    h["open"],
                    h["donations"],
                ]
            ],
        )
    }


REPORT = ReportPart(
    key="guilds",
    page="livecore_server.guilds:templates/report.html",
    place=60,
    gather=gather,
    warnings=warnings,
    compare=compare,
    charts=chart,
    tables=tables,
    by_segment=by_segment,
    labels={
        "guild_help": "guild help received",
        "guild_help_reward": "guild donor rewards",
        "guild_create_cost": "guild founding costs",
        "guild_help_donation": "guild donations",
    },
)
