"""The economy's part of a season's report (:class:`~livecore_server.simulate.section.ReportPart`): per
resource and day, what was minted and sunk by source kind, the net flow (minted minus sunk) and what the
players held; per segment, what a player minted, sank and held."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from livecore.economy.memory import EconomyTables
from livecore.economy.rules import LedgerEntry, Reason
from livecore.economy.season import SPENT, spent
from livecore.games import GameSettings, ResourceType
from livecore_server.simulate.section import (
    Column,
    Figures,
    Gathering,
    Label,
    ReportPart,
    Row,
    Table,
    Warning,
    keys,
    number,
    pct,
    percentiles,
    row,
    table,
    warning,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: Where a ledger entry that is not a grant's came from, by its reason; any other reason (one an area adds,
#: ``gift_cost``) is its own source.
SINK_OR_SOURCE: dict[Reason, str] = {
    Reason.SERVER_CREDIT: "studio_credit",
    Reason.SERVER_GRANT: "studio_credit",
    Reason.SERVER_DEBIT: "spend",
    Reason.SERVER_REVOKE: "spend",
    Reason.CLIENT_DEBIT: "spend",
    Reason.CLIENT_CONSUME: "spend",
    Reason.ENTRY_COST: "entry_cost",
    Reason.MIGRATION: "migration",
    Reason.OPERATOR_EDIT: "operator_edit",
}

#: The debits whose reason the caller writes (a wallet debit's ``reason``, kept as the entry's note): the
#: report names their sink as written (``shop``), and one written without a reason ``spend``.
WRITTEN_REASONS = frozenset({Reason.SERVER_DEBIT, Reason.CLIENT_DEBIT})


def source_of(entry: LedgerEntry) -> str:
    """The sink or source a ledger entry that is not a grant's is counted under."""
    if entry.reason in WRITTEN_REASONS and entry.note:
        return entry.note
    return SINK_OR_SOURCE.get(entry.reason, entry.reason.value)


#: One source minting more than this share of a resource is named.
DOMINANT_SOURCE = 0.6
#: A resource sinking less than this share of what is minted inflates.
LOW_SINK = 0.1
#: The subject of the page's chart of every resource's net flow, among the resources' (no resource's key
#: has a space).
NET = "net flow"


class _Ledger:
    """The ledger's entries walked once, in order: what each resource minted and sank per day by source
    kind, the players' balances with each day's percentiles, and the totals per segment. The economy's
    section and its figures per segment both read it. While a season plays, each day's entries are taken
    at the day's end and then dropped from the store (:func:`fold`): no rule reads a player's past
    entries, and they are most of what a long season would otherwise hold."""

    def __init__(self, at: Gathering) -> None:
        keys_ = list(at.settings.resources)
        self.minted: dict[str, list[dict[str, int]]] = {k: [{} for _ in range(at.days)] for k in keys_}
        self.sunk: dict[str, list[dict[str, int]]] = {k: [{} for _ in range(at.days)] for k in keys_}
        self.holdings: dict[str, list[dict[str, float]]] = {k: [] for k in keys_}
        self.balances: dict[str, dict[str, int]] = {k: {} for k in keys_}
        # resource -> segment -> minted, sunk; resource -> player id -> its segment and its last balance
        self.segment_minted: dict[str, dict[str, float]] = {}
        self.segment_sunk: dict[str, dict[str, float]] = {}
        self.held: dict[str, dict[str, tuple[str, int]]] = {}
        # resource -> per day: segment -> what its players held on average at the day's end
        self.segment_holdings: dict[str, list[dict[str, float | None]]] = {k: [] for k in keys_}
        self.day = 0
        self.day_end = at.start + timedelta(days=1)
        self.taken = 0  # entries of the store's list already walked

    def take(self, at: Gathering) -> list[LedgerEntry]:
        """Walk the store's entries not walked yet; answers the store's list."""
        entries = at.sim.store.tables_of(EconomyTables).entries
        sources = at.ledger_sources() if len(entries) > self.taken else {}
        for entry in itertools.islice(entries, self.taken, None):
            if entry.game_id != at.game_id or entry.resource_key not in self.minted:
                continue
            while entry.created_at >= self.day_end and self.day < at.days - 1:
                self._snapshot(at)
                self.day += 1
                self.day_end += timedelta(days=1)
            self.balances[entry.resource_key][entry.player_id] = entry.balance_after
            segment = at.segment(entry.player_id)
            if segment is not None:
                self.held.setdefault(entry.resource_key, {})[entry.player_id] = (segment, entry.balance_after)
            if entry.delta == 0:
                continue
            if entry.reason is Reason.GRANT:
                source = sources.get(entry.source_ref_id or "", "grant")
            else:
                source = source_of(entry)
            into = self.minted if entry.delta > 0 else self.sunk
            bucket = into[entry.resource_key][self.day]
            bucket[source] = bucket.get(source, 0) + abs(entry.delta)
            if segment is not None:
                by = (self.segment_minted if entry.delta > 0 else self.segment_sunk).setdefault(
                    entry.resource_key, {}
                )
                by[segment] = by.get(segment, 0) + abs(entry.delta)
        self.taken = len(entries)
        return entries

    def _snapshot(self, at: Gathering) -> None:
        """The day's end: the holdings' percentiles over every player, and each segment's mean."""
        _snapshot(self.balances, self.holdings, at.season.players)
        for key, days in self.segment_holdings.items():
            held: dict[str, float] = {}
            for segment, balance in self.held.get(key, {}).values():
                held[segment] = held.get(segment, 0) + balance
            days.append(at.per_player(held))

    def to_end(self, at: Gathering) -> None:
        """The season played: every entry walked, and the days left without entries snapshot."""
        self.take(at)
        while self.day < at.days:
            self._snapshot(at)
            self.day += 1


def _ledger(at: Gathering) -> _Ledger:
    return at.kept("economy.ledger", lambda: _Ledger(at))


def fold(at: Gathering) -> Callable[[], None]:
    """The day's entries taken; what drops them from the store once every part has folded."""
    ledger = _ledger(at)
    entries = ledger.take(at)

    def drop() -> None:
        del entries[: ledger.taken]
        ledger.taken = 0

    return drop


def gather(at: Gathering) -> dict[str, Any]:
    """Per resource and day: minted and sunk by source kind, the net flow (``net``: all that was minted
    minus all that was sunk), and the holdings' percentiles over every player at the day's end (a player
    holding none holds 0); the season's totals."""
    settings, days = at.settings, at.days
    ledger = _ledger(at)
    ledger.to_end(at)
    minted, sunk, holdings = ledger.minted, ledger.sunk, ledger.holdings
    spending = set(spent(at.season.population.table(SPENT)))  # looked up once per resource
    out: dict[str, Any] = {}
    for key in settings.resources:
        total_minted: dict[str, int] = {}
        total_sunk: dict[str, int] = {}
        for m in minted[key]:
            for s, v in m.items():
                total_minted[s] = total_minted.get(s, 0) + v
        for m in sunk[key]:
            for s, v in m.items():
                total_sunk[s] = total_sunk.get(s, 0) + v
        tenths = held_by_tenth(ledger.balances[key], at.season.players)
        out[key] = {
            "type": settings.resources[key].type.value,
            "spent_by_players": key in spending,
            # The share of what the players held at the end that each tenth of them held, the tenth
            # holding least first (None when nobody held any); the last is the top tenth's.
            "held_by_tenth": tenths,
            "top_10_share": None if tenths is None else tenths[-1],
            "minted": dict(sorted(total_minted.items())),
            "sunk": dict(sorted(total_sunk.items())),
            "net": sum(total_minted.values()) - sum(total_sunk.values()),
            "days": [
                {
                    "day": d + 1,
                    "minted": dict(sorted(minted[key][d].items())),
                    "sunk": dict(sorted(sunk[key][d].items())),
                    "net": sum(minted[key][d].values()) - sum(sunk[key][d].values()),
                    "holdings": holdings[key][d],
                    "holdings_by_segment": ledger.segment_holdings[key][d],
                }
                for d in range(days)
            ],
        }
    return out


def by_segment(at: Gathering) -> Figures:
    """Per resource some player of the season minted, sank or held: what a player of each segment
    minted and sank, on average, and the median of what its players held at the end (0 for one holding
    none)."""
    ledger = _ledger(at)
    ledger.to_end(at)
    out: dict[str, dict[str, float | None]] = {}
    for key in (k for k in at.settings.resources if k in ledger.held):
        balances: dict[str, list[float]] = {name: [] for name in at.segments}
        for segment, balance in ledger.held[key].values():
            balances[segment].append(balance)
        out[f"{key} minted per player"] = at.per_player(ledger.segment_minted.get(key, {}))
        out[f"{key} sunk per player"] = at.per_player(ledger.segment_sunk.get(key, {}))
        out[f"{key} held at the end (p50)"] = {
            name: percentiles(values + [0] * (at.segments[name] - len(values)), ps=(50,))["p50"]
            if at.segments[name]
            else None
            for name, values in balances.items()
        }
    return out


def held_by_tenth(balances: dict[str, int], players: int) -> list[float] | None:
    """The share of all held that each tenth of the ``players`` holds (a player without a balance holds
    0), the tenth holding least first: ten shares adding up to 1, or None when nobody holds any. The
    players are cut into tenths as evenly as whole players allow."""
    values = sorted([*balances.values(), *[0] * max(0, players - len(balances))])
    total = sum(values)
    if total <= 0:
        return None
    cuts = [round(len(values) * i / 10) for i in range(11)]
    return [number(sum(values[cuts[i] : cuts[i + 1]]) / total) for i in range(10)]


def _snapshot(
    balances: dict[str, dict[str, int]], holdings: dict[str, list[dict[str, float]]], players: int
) -> None:
    for key, held in balances.items():
        values = list(held.values())
        values += [0] * max(0, players - len(values))
        holdings[key].append(percentiles(values))


def warnings(section: dict[str, Any], settings: GameSettings, label: Label) -> list[Warning]:
    """A source minting most of a resource, or all of it; a resource players spend that hardly sinks;
    currencies minted and none spent at all (no sink)."""
    out: list[Warning] = _unspent(section)
    for key, resource in section.items():
        minted = sum(resource["minted"].values())
        sunk = sum(resource["sunk"].values())
        if not minted:
            continue
        source, amount = max(resource["minted"].items(), key=lambda kv: (kv[1], kv[0]))
        if amount / minted > DOMINANT_SOURCE and len(resource["minted"]) > 1:
            out.append(
                warning(
                    "economy",
                    key,
                    f"{label(source).capitalize()} mint {pct(amount / minted)} of all {key} "
                    f"({amount:,} of {minted:,}): one reward source drives this resource.",
                )
            )
        elif len(resource["minted"]) == 1:
            out.append(
                warning("economy", key, f"All {key} ({minted:,}) comes from one source: {label(source)}.")
            )
        if resource["spent_by_players"] and sunk < LOW_SINK * minted:
            out.append(
                warning(
                    "economy",
                    key,
                    f"Only {pct(sunk / minted)} of the {key} minted is sunk ({sunk:,} of {minted:,}): "
                    "balances only grow.",
                )
            )
    return out


def _unspent(section: dict[str, Any]) -> list[Warning]:
    """One warning where the game's currencies were minted and nothing sank any of them."""
    currencies = {key: r for key, r in section.items() if r["type"] == ResourceType.CURRENCY.value}
    minted = sum(sum(r["minted"].values()) for r in currencies.values())
    if not minted or any(sum(r["sunk"].values()) for r in currencies.values()):
        return []
    return [
        warning(
            "economy",
            "currencies",
            f"No currency was spent ({minted:,} minted, none sunk): coins have no sink. Name what players"
            " spend ([economy] spend) or sell offers ([studio.offers]).",
        )
    ]


_METRICS: tuple[tuple[str, Callable[[dict[str, Any]], float]], ...] = (
    ("minted", lambda r: sum(r["minted"].values())),
    ("sunk", lambda r: sum(r["sunk"].values())),
    ("holdings p50 at the end", lambda r: r["days"][-1]["holdings"]["p50"]),
    ("holdings p90 at the end", lambda r: r["days"][-1]["holdings"]["p90"]),
)


def compare(base: dict[str, Any], other: dict[str, Any], label: Label) -> list[Row]:
    """Per resource: what was minted and sunk, each followed by what each source minted (``minted by
    gifts``) and each sink sank (``sunk by entry costs``), named as the report calls them (sources the
    report calls alike counted as one), and the holdings at the end. A source one configuration has and
    the other does not minted 0 there; a resource only one has, nothing there."""
    rows: list[Row] = []
    for key in keys(base, other):
        a, b = base.get(key), other.get(key)
        for metric, pick in _METRICS:
            rows.append(row("economy", key, metric, pick(a) if a else None, pick(b) if b else None))
            if metric in ("minted", "sunk"):
                rows += _by_source(key, metric, a, b, label)
    return rows


def _by_source(
    key: str, way: str, a: dict[str, Any] | None, b: dict[str, Any] | None, label: Label
) -> list[Row]:
    """A resource's rows of what each source minted (``way`` ``minted``) or each sink sank (``sunk``),
    the base's sources first."""
    named_a = _labelled(a[way], label) if a else {}
    named_b = _labelled(b[way], label) if b else {}
    return [
        row(
            "economy",
            key,
            f"{way} by {name}",
            named_a.get(name, 0) if a else None,
            named_b.get(name, 0) if b else None,
            absent=0,
        )
        for name in keys(named_a, named_b)
    ]


def _labelled(amounts: dict[str, int], label: Label) -> dict[str, int]:
    """``amounts`` by source kind, by what the report calls each."""
    found: dict[str, int] = {}
    for source, amount in amounts.items():
        found[label(source)] = found.get(label(source), 0) + amount
    return found


def moved(resource: dict[str, Any]) -> bool:
    """Whether anything of a resource was minted, sunk or held: the page draws a chart of those only, and
    names the others in one line (a manifest may declare thousands no player touches, and a chart costs a
    fifth of a second)."""
    return bool(resource["minted"] or resource["sunk"]) or any(d["holdings"]["max"] for d in resource["days"])


def charts(section: dict[str, Any], label: Label) -> dict[str, str | None]:
    """A chart of each resource moved (None where a sentence says it: :func:`_chart`), and one of their
    net flows (:data:`NET`) over two days or more."""
    moving = {k: r for k, r in section.items() if moved(r)}
    colours = source_colours(moving)
    drawn = {k: _chart(k, r, label, colours) for k, r in moving.items()}
    if moving and len(next(iter(moving.values()))["days"]) > 1:
        drawn[NET] = _net_chart(moving)
    return drawn


def compare_charts(base: dict[str, Any], other: dict[str, Any], label: Label) -> dict[str, str]:
    return {
        k: _compare_chart(k, base[k], other[k])
        for k in base
        if k in other and (moved(base[k]) or moved(other[k]))
    }


def tables(section: dict[str, Any]) -> dict[str, Table]:
    """Of the resources moved: their net flow per day (``economy.net``), every source and sink across
    them (``economy.summary``: a row per source, what it minted and sank of each resource), and each
    one's totals by source (``economy.<key>``) and its days (``economy.<key>.daily``)."""
    moving = {k: r for k, r in section.items() if moved(r)}
    if not moving:
        return {}
    days = [d["day"] for d in next(iter(moving.values()))["days"]]
    out = {
        "economy.net": table(
            ["Day", *(f"{k} net" for k in moving)],
            ([day, *(r["days"][i]["net"] for r in moving.values())] for i, day in enumerate(days)),
        )
    }
    # The sources first, then the sinks, each in the order the resources first name it.
    every = list(dict.fromkeys(s for way in ("minted", "sunk") for r in moving.values() for s in r[way]))
    out["economy.summary"] = table(
        [Column("Source", "source"), *(f"{k} {way}" for k in moving for way in ("minted", "sunk"))],
        ([s, *(r[way].get(s) for r in moving.values() for way in ("minted", "sunk"))] for s in every),
    )
    for key, resource in moving.items():
        sources = keys(resource["minted"], resource["sunk"])
        out[f"economy.{key}"] = table(
            [Column("Source", "source"), "Minted", "Sunk"],
            ([s, resource["minted"].get(s), resource["sunk"].get(s)] for s in sources),
        )
        out[f"economy.{key}.daily"] = table(
            ["Day", "Minted", "Sunk", "Net", *(f"Held {p}" for p in HELD)],
            (
                [
                    d["day"],
                    sum(d["minted"].values()),
                    sum(d["sunk"].values()),
                    d["net"],
                    *(d["holdings"][p] for p in HELD),
                ]
                for d in resource["days"]
            ),
        )
    return out


#: The holdings' percentiles a resource's table of its days gives.
HELD = ("p10", "p50", "p90", "p99", "max", "mean")


def source_colours(section: dict[str, Any]) -> dict[str, str]:
    """The colour of each source and sink kind across every resource's chart: the page's colour of its
    name (:func:`~livecore_server.simulate.charts.colours`), the names given theirs in sorted order, so
    that one name is one colour on the whole page (a sink drawn hatched) and no two names share one;
    then each segment's, for its holdings (:func:`held_by`)."""
    from livecore_server.simulate import charts as c

    colours = c.colours()
    names = {s for resource in section.values() for way in ("minted", "sunk") for s in resource[way]}
    colours.assign(names)
    segments = {
        s for resource in section.values() for s in resource["days"][0].get("holdings_by_segment", {})
    }
    colours.assign(held_by(s) for s in segments)
    return {name: colours(name) for name in sorted(names | {held_by(s) for s in segments})}


def held_by(segment: str) -> str:
    """The name a segment's holdings take a colour by, apart from any source kind's."""
    return f"held by segment {segment}"


def _chart(key: str, resource: dict[str, Any], label: Label, colours: dict[str, str]) -> str | None:
    """Minted (up) and sunk (down) per day by source kind, and the holdings' percentiles at each day's
    end, grey and dashed, with a legend of their own; over one day, what each source minted or sank (none
    when one source did it all: the table says it)."""
    from livecore_server.simulate import charts as c

    rows = resource["days"]
    minted = sorted(resource["minted"], key=lambda s: -resource["minted"][s])
    sunk = sorted(resource["sunk"], key=lambda s: -resource["sunk"][s])
    if len(rows) == 1:
        amounts = [resource["minted"][s] for s in minted] + [-resource["sunk"][s] for s in sunk]
        if not c.worth_bars(amounts):
            return None
        return _day_chart(key, minted, sunk, amounts, label)

    tenths = resource.get("held_by_tenth")
    segments = list(rows[0].get("holdings_by_segment", {}))
    held_lines = len(HELD_LINES) + len(segments)
    flow_columns, held_columns = (3, 2) if tenths is None else (3, 1)

    def draw(fig: Figure) -> None:
        if tenths is None:
            flows, held = fig.subplots(1, 2, width_ratios=(3, 2))
        else:
            flows, held, spread = fig.subplots(1, 3, width_ratios=(3, 2, 2))
            spread.bar(range(1, 11), [100 * t for t in tenths], color=c.HELD[1])
            c.title(spread, f"{key}: held by each tenth, top {pct(tenths[-1])}")
            spread.set_xlabel("tenth of players (least first)")
            spread.set_ylabel("% of all held")
            c.whole(spread)
        days = c.days(rows)
        base = [0.0] * len(days)
        for source in minted:
            values = [r["minted"].get(source, 0) for r in rows]
            flows.bar(days, values, bottom=base, color=colours[source], label=f"+ {label(source)}")
            base = [b + v for b, v in zip(base, values, strict=True)]
        base = [0.0] * len(days)
        for source in sunk:
            values = [-r["sunk"].get(source, 0) for r in rows]
            flows.bar(
                days, values, bottom=base, color=colours[source], hatch="//", label=f"- {label(source)}"
            )
            base = [b + v for b, v in zip(base, values, strict=True)]
        flows.axhline(0, color="#555555", linewidth=0.8)
        c.title(flows, f"{key}: minted (+) and sunk (-) per day")
        flows.set_xlabel("day")
        mark = c.marker(len(days))
        for (p, name), colour, style in zip(HELD_LINES, c.HELD, c.HELD_STYLES, strict=True):
            held.plot(
                days, [r["holdings"][p] for r in rows], linestyle=style, marker=mark, color=colour, label=name
            )
        for segment in segments:
            held.plot(
                days,
                [math.nan if (v := r["holdings_by_segment"][segment]) is None else v for r in rows],
                "-.",
                marker=mark,
                color=colours[held_by(segment)],
                label=f"held: mean, {segment}",
            )
        c.title(held, f"{key}: holdings at day's end")
        held.set_xlabel("day")
        c.from_zero(held)
        c.whole(flows, held)
        c.legend_below(fig, flows, columns=flow_columns)
        c.legend_below(fig, held, columns=held_columns, at=held.get_position().x0)

    legend = max(
        -(-(len(resource["minted"]) + len(resource["sunk"])) // flow_columns), -(-held_lines // held_columns)
    )
    width = 8.0 if tenths is None else 10.5
    return c.svg(f"economy-{key}", draw, size=(width, 3.0 + 0.2 * legend), legend_rows=legend)


#: The holdings' lines of a resource's chart, by percentile, and what its legend calls each.
HELD_LINES = (("p50", "held: p50"), ("p90", "held: p90"), ("p99", "held: p99"), ("mean", "held: mean"))


def _day_chart(key: str, minted: list[str], sunk: list[str], amounts: list[float], label: Label) -> str:
    """A season of one day: what each source minted (right) or sank (left), one bar each."""
    from livecore_server.simulate import charts as c

    names = [f"+ {label(s)}" for s in minted] + [f"- {label(s)}" for s in sunk]

    def draw(fig: Figure) -> None:
        ax = fig.subplots()
        colours = [c.GAIN if a > 0 else c.LOSS for a in amounts]
        ax.barh(range(len(names)), amounts, color=colours)
        ax.set_yticks(range(len(names)), names)
        ax.invert_yaxis()  # the first source on top
        ax.axvline(0, color="#555555", linewidth=0.8)
        c.title(ax, f"{key} on the season's day: minted (+) and sunk (-) by source")

    # Room on the left for the sources' names, as long as the longest.
    width, height = 8.0, 1.0 + 0.25 * len(names)
    return c.svg(f"economy-{key}", draw, size=(width, height), left=0.3 + 0.075 * max(map(len, names)))


def _net_chart(section: dict[str, Any]) -> str:
    """Each resource's net flow per day (minted minus sunk), above zero or below, and its running sum
    (the line: what the players gained since the season began), one small chart each."""
    from livecore_server.simulate import charts as c

    columns = 1 if len(section) == 1 else 2
    rows = -(-len(section) // columns)

    def draw(fig: Figure) -> None:
        axes = list(fig.subplots(rows, columns, squeeze=False).flat)
        for ax, (key, resource) in zip(axes, section.items(), strict=False):
            days = c.days(resource["days"])
            net = [d["net"] for d in resource["days"]]
            ax.bar(days, net, color=[c.GAIN if n >= 0 else c.LOSS for n in net], label="net of the day")
            ax.plot(days, list(itertools.accumulate(net)), "-", color="#333333", label="cumulative")
            ax.axhline(0, color="#555555", linewidth=0.8)
            c.title(ax, f"{key}: net per day, and cumulative")
            ax.set_xlabel("day")
            c.whole(ax)
        for ax in axes[len(section) :]:  # the grid's cells left over
            ax.set_visible(False)

    return c.svg("economy-net", draw, size=(8.0, 0.3 + 2.1 * rows), hspace=0.8)


def _compare_chart(key: str, base: dict[str, Any], other: dict[str, Any]) -> str:
    """One resource in both configurations: minted and sunk per day, median and p90 holdings (grey)."""
    from livecore_server.simulate import charts as c

    def draw(fig: Figure) -> None:
        flows, held = fig.subplots(1, 2)
        rows_a, rows_b = base["days"], other["days"]
        days = c.days(rows_a)
        c.overlay(
            flows,
            days,
            [sum(r["minted"].values()) for r in rows_a],
            [sum(r["minted"].values()) for r in rows_b],
            c.PALETTE[0],
            "minted",
        )
        c.overlay(
            flows,
            days,
            [sum(r["sunk"].values()) for r in rows_a],
            [sum(r["sunk"].values()) for r in rows_b],
            c.PALETTE[3],
            "sunk",
        )
        c.title(flows, f"{key}: minted and sunk per day")
        flows.set_xlabel("day")
        for p, colour in (("p50", c.HELD[0]), ("p90", c.HELD[2])):
            c.overlay(
                held, days, [r["holdings"][p] for r in rows_a], [r["holdings"][p] for r in rows_b], colour, p
            )
        c.title(held, f"{key}: holdings")
        held.set_xlabel("day")
        c.from_zero(flows, held)
        c.whole(flows, held)
        c.legend_below(fig, flows, held)

    return c.svg(f"compare-economy-{key}", draw, size=(8.0, 3.4), legend_rows=2)


REPORT = ReportPart(
    key="economy",
    place=10,
    page="livecore_server.economy:templates/report.html",
    compare_page="livecore_server.economy:templates/compare.html",
    gather=gather,
    warnings=warnings,
    labelled_compare=compare,
    charts=charts,
    compare_charts=compare_charts,
    tables=tables,
    by_segment=by_segment,
    fold=fold,
    labels={"studio_credit": "studio credits", "spend": "spending"},
)
