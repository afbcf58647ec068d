"""The guilds' part of a season's report (:class:`~livecore_server.simulate.section.ReportPart`): the
guilds at the end, their sizes, and the help requests asked, filled and expired."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from livecore.games import GameSettings
from livecore.guilds.memory import GuildTables
from livecore.guilds.rules import HelpStatus, help_status
from livecore.guilds.settings import GUILD_SETTINGS
from livecore_server.simulate.section import (
    Gathering,
    Label,
    ReportPart,
    Row,
    Warning,
    get,
    histogram,
    pct,
    percentiles,
    row,
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
    step = max(1, math.ceil(cap / 6))
    return [float(1 + step * i) for i in range(7)]


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


def chart(section: dict[str, Any], label: Label) -> str | None:
    """Guilds by size (none when the game's guilds are off)."""
    if not section["enabled"]:
        return None
    from livecore_server.simulate import charts as c

    def draw(fig: Figure) -> None:
        ax = fig.subplots()
        bins = section["size_histogram"]
        ax.bar([f"{b['from']}+" for b in bins], [b["count"] for b in bins], color=c.PALETTE[2])
        ax.set_title("guilds by members")
        ax.set_xlabel("members")

    return c.svg("guilds", draw, size=(4.0, 2.4))


REPORT = ReportPart(
    key="guilds",
    page="livecore_server.guilds:templates/report.html",
    place=60,
    gather=gather,
    warnings=warnings,
    compare=compare,
    charts=chart,
    labels={
        "guild_help": "guild help received",
        "guild_help_reward": "guild donor rewards",
        "guild_create_cost": "guild founding costs",
        "guild_help_donation": "guild donations",
    },
)
