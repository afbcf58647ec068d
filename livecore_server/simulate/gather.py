"""What a played season did, read from the simulation (docs/simulation.md#the-report): its store's tables
(the ledger with each entry's reason, the grants with their source kinds, the windows, attempts, lobbies,
teams, shared boards, guilds and gifts) and, where a table does not keep it, its webhooks. Nothing here
counts alongside the commands: a report says what the service recorded.

:func:`gather` answers the report as plain data (dicts, lists, numbers and strings, in a fixed order), so
the JSON file is the same bytes for the same run; :mod:`livecore_server.simulate.render` draws it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from livecore.economy.memory import EconomyTables
from livecore.economy.rules import Reason
from livecore.games import EventSettings, GameSettings, Order
from livecore.gifts.memory import GiftTables
from livecore.gifts.rules import GiftStatus
from livecore.grants.memory import GrantTables
from livecore.grants.rules import GrantKind, GrantStatus
from livecore.guilds.memory import GuildTables
from livecore.guilds.rules import HelpStatus, help_status
from livecore.leaderboards.memory import LeaderboardTables
from livecore.leaderboards.rules import PeriodStatus, moves
from livecore.live_events.attempts import AttemptStatus
from livecore.live_events.memory import LiveEventTables
from livecore.lobbies.memory import LobbyTables
from livecore.lobbies.rules import PromotionReason
from livecore.simulation import Simulation
from livecore.simulation.season import Season
from livecore.teams.memory import TeamTables
from livecore_server.simulate.warnings import warnings_of

#: The percentiles a report gives of a distribution.
PERCENTILES = (10, 50, 90, 99)

#: Where a ledger entry that is not a grant's came from, by its reason.
SINK_OR_SOURCE: dict[Reason, str] = {
    Reason.SERVER_CREDIT: "studio_credit",
    Reason.SERVER_GRANT: "studio_credit",
    Reason.SERVER_DEBIT: "spend",
    Reason.SERVER_REVOKE: "spend",
    Reason.CLIENT_DEBIT: "spend",
    Reason.CLIENT_CONSUME: "spend",
    Reason.GIFT_COST: "gift_cost",
    Reason.ENTRY_COST: "entry_cost",
    Reason.GUILD_CREATE_COST: "guild_create_cost",
    Reason.GUILD_HELP_DONATION: "guild_help_donation",
    Reason.MIGRATION: "migration",
    Reason.OPERATOR_EDIT: "operator_edit",
}


def percentiles(values: Sequence[float], *, ps: Iterable[int] = PERCENTILES) -> dict[str, float]:
    """``p<n>`` (nearest rank), ``max`` and ``mean`` of ``values``; all 0 when there are none."""
    ordered = sorted(values)
    n = len(ordered)
    out: dict[str, float] = {}
    for p in ps:
        out[f"p{p}"] = number(ordered[max(0, math.ceil(p / 100 * n) - 1)]) if n else 0
    out["max"] = number(ordered[-1]) if n else 0
    out["mean"] = number(sum(ordered) / n) if n else 0
    return out


def number(value: float) -> float:
    """A number as a report writes it: whole numbers as integers, others to 4 significant decimals."""
    if float(value).is_integer():
        return int(value)
    return round(value, 4)


def _share(part: float, whole: float) -> float:
    return number(part / whole) if whole else 0


def _iso(when: datetime | None) -> str | None:
    return None if when is None else when.isoformat().replace("+00:00", "Z")


def gather(sim: Simulation, season: Season, *, run: dict[str, Any]) -> dict[str, Any]:
    """The report of ``season``, played on ``sim`` (whose clock is at the season's end). ``run`` says
    how it was made (the manifest's and the population's names, the seed): it leads the report."""
    return _Gatherer(sim, season).report(run)


class _Gatherer:
    def __init__(self, sim: Simulation, season: Season) -> None:
        self.sim = sim
        self.season = season
        self.settings: GameSettings = sim.game.settings
        self.game_id = sim.game.id
        self.env = sim.env
        self.start = season.start
        self.end = sim.now()
        self.days = season.days
        tables = sim.store.tables_of
        self.economy = tables(EconomyTables)
        self.grants = {g.id: g for (game, _), g in tables(GrantTables).grants.items() if game == self.game_id}
        self.live = tables(LiveEventTables)
        self.lobbies = tables(LobbyTables)
        self.teams = tables(TeamTables)
        self.boards = tables(LeaderboardTables)
        self.guilds = tables(GuildTables)
        self.gifts = tables(GiftTables)

    def _day(self, when: datetime) -> int:
        """The season's day of ``when`` (1 the first), within the season."""
        return min(self.days, max(1, int((when - self.start) / timedelta(days=1)) + 1))

    def report(self, run: dict[str, Any]) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for name in self.season.segment_of.values():
            counts[name] = counts.get(name, 0) + 1
        report: dict[str, Any] = {
            "run": {
                **run,
                "game": self.sim.game.key,
                "players": self.season.players,
                "days": self.days,
                "start": _iso(self.start),
                "end": _iso(self.end),
                "segments": [
                    {"name": s.name, "share": number(s.share), "players": counts.get(s.name, 0)}
                    for s in self.season.population.segments
                ],
            },
            "economy": self.economy_section(),
            "events": self.events_section(),
            "leaderboards": self.leaderboards_section(),
            "lobbies": self.lobbies_section(),
            "teams": self.teams_section(),
            "guilds": self.guilds_section(),
            "gifts": self.gifts_section(),
            "grants": self.grants_section(),
            "refusals": dict(sorted(self.season.refusals.items())),
        }
        report["warnings"] = warnings_of(report, self.settings)
        return report

    # --- the economy ---------------------------------------------------------------------------------

    def _source(self, reason: Reason, ref: str | None) -> str:
        if reason is Reason.GRANT:
            grant = self.grants.get(ref or "")
            return grant.source_kind if grant is not None else "grant"
        return SINK_OR_SOURCE.get(reason, reason.value)

    def economy_section(self) -> dict[str, Any]:
        """Per resource and day: minted and sunk by source kind, and the holdings' percentiles over every
        player at the day's end (a player holding none holds 0)."""
        keys = list(self.settings.resources)
        players = self.season.players
        minted = {k: [dict[str, int]() for _ in range(self.days)] for k in keys}
        sunk = {k: [dict[str, int]() for _ in range(self.days)] for k in keys}
        holdings: dict[str, list[dict[str, float]]] = {k: [] for k in keys}
        balances: dict[str, dict[str, int]] = {k: {} for k in keys}
        day_end = self.start + timedelta(days=1)
        day = 0
        for entry in self.economy.entries:
            if entry.game_id != self.game_id or entry.resource_key not in minted:
                continue
            while entry.created_at >= day_end and day < self.days - 1:
                self._snapshot(balances, holdings, players)
                day += 1
                day_end += timedelta(days=1)
            balances[entry.resource_key][entry.player_id] = entry.balance_after
            if entry.delta == 0:
                continue
            source = self._source(entry.reason, entry.source_ref_id)
            into = minted if entry.delta > 0 else sunk
            bucket = into[entry.resource_key][day]
            bucket[source] = bucket.get(source, 0) + abs(entry.delta)
        while day < self.days:
            self._snapshot(balances, holdings, players)
            day += 1
        spent = set(self.season.population.spent(self.settings))  # looked up once per resource
        out: dict[str, Any] = {}
        for key in keys:
            total_minted: dict[str, int] = {}
            total_sunk: dict[str, int] = {}
            for m in minted[key]:
                for s, v in m.items():
                    total_minted[s] = total_minted.get(s, 0) + v
            for m in sunk[key]:
                for s, v in m.items():
                    total_sunk[s] = total_sunk.get(s, 0) + v
            out[key] = {
                "type": self.settings.resources[key].type.value,
                "spent_by_players": key in spent,
                "minted": dict(sorted(total_minted.items())),
                "sunk": dict(sorted(total_sunk.items())),
                "days": [
                    {
                        "day": d + 1,
                        "minted": dict(sorted(minted[key][d].items())),
                        "sunk": dict(sorted(sunk[key][d].items())),
                        "holdings": holdings[key][d],
                    }
                    for d in range(self.days)
                ],
            }
        return out

    @staticmethod
    def _snapshot(
        balances: dict[str, dict[str, int]], holdings: dict[str, list[dict[str, float]]], players: int
    ) -> None:
        for key, held in balances.items():
            values = list(held.values())
            values += [0] * max(0, players - len(values))
            holdings[key].append(percentiles(values))

    # --- events --------------------------------------------------------------------------------------

    def events_section(self) -> dict[str, Any]:
        """Per event window: entrants, attempts, completion and milestone rates, score percentiles (each
        entrant's best), and the rank rewards its boards paid."""
        windows = sorted(
            (
                w
                for (game, _), w in self.live.windows.items()
                if game == self.game_id and w.env is self.env and w.starts_at < self.end
            ),
            key=lambda w: (w.event_key, w.starts_at),
        )
        by_window: dict[str, list[Any]] = {}
        for (game, _), attempt in self.live.attempts.items():
            if game == self.game_id:
                by_window.setdefault(attempt.window_id, []).append(attempt)
        board_window = {b.id: b.window_id for b in self.live.boards.values()}
        paid: dict[str, dict[str, int]] = {}
        paid_count: dict[str, int] = {}
        for grant in self.grants.values():
            if grant.source_kind == "event_rank":
                window_id = board_window.get(grant.source_ref_id or "")
                if window_id is not None:
                    paid_count[window_id] = paid_count.get(window_id, 0) + 1
                    into = paid.setdefault(window_id, {})
                    for entry in grant.rewards:
                        into[entry.key] = into.get(entry.key, 0) + entry.amount
        out: dict[str, Any] = {}
        for key, event in self.settings.events.items():
            rows = []
            for window in (w for w in windows if w.event_key == key):
                attempts = by_window.get(window.id, [])
                rows.append(self._window_row(event, window, attempts, paid, paid_count))
            entrants = [r["entrants"] for r in rows]
            out[key] = {
                "name": event.name,
                "kind": "lobby" if event.lobby else "team" if event.teams else "solo",
                "order": event.order.value,
                "milestones": {m.key: number(m.threshold) for m in event.milestones},
                "windows": rows,
                "summary": {
                    "windows": len(rows),
                    "entrants": percentiles(entrants, ps=(50, 90)),
                    "completion_rate": number(_mean([r["completion_rate"] for r in rows if r["entrants"]])),
                    "milestone_rates": {
                        m.key: number(_mean([r["milestone_rates"][m.key] for r in rows if r["entrants"]]))
                        for m in event.milestones
                    },
                    "rank_rewards_paid": sum(r["rank_rewards_paid"] for r in rows),
                },
            }
        return out

    def _window_row(
        self,
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
            "starts_at": _iso(window.starts_at),
            "ends_at": _iso(window.ends_at),
            "entrants": entrants,
            "attempts": len(attempts),
            "completion_rate": _share(len(completed), entrants),
            "milestone_rates": {m.key: _share(len(reached[m.key]), entrants) for m in event.milestones},
            "scores": percentiles(list(best.values())),
            "rank_rewards_paid": paid_count.get(window.id, 0),
            "rank_rewards": dict(sorted(paid.get(window.id, {}).items())),
        }

    # --- shared leaderboards -------------------------------------------------------------------------

    def leaderboards_section(self) -> dict[str, Any]:
        """Per shared board and period: its divisions' sizes by tier, promotions and relegations (by the
        board's rule, from each division's size), the rank rewards paid."""
        paid: dict[str, int] = {}
        for grant in self.grants.values():
            if grant.source_kind == "leaderboard_rank":
                paid[grant.source_ref_id or ""] = paid.get(grant.source_ref_id or "", 0) + 1
        divisions_of: dict[str, list[Any]] = {}
        for division in self.boards.divisions.values():
            divisions_of.setdefault(division.period_id, []).append(division)
        entries_of: dict[str, int] = {}
        for period_id, _ in self.boards.shared_entries:
            entries_of[period_id] = entries_of.get(period_id, 0) + 1
        out: dict[str, Any] = {}
        for key, board in self.settings.leaderboards.items():
            periods = sorted(
                (
                    p
                    for p in self.boards.periods.values()
                    if p.game_id == self.game_id
                    and p.env is self.env
                    and p.board_key == key
                    and (p.starts_at is None or p.starts_at < self.end)
                ),
                key=lambda p: p.starts_at or self.start,
            )
            rows = []
            for period in periods:
                divisions = sorted(divisions_of.get(period.id, []), key=lambda d: (d.tier, d.number))
                promoted = relegated = 0
                shown = []
                for division in divisions:
                    declared = period.settings.divisions
                    assert declared is not None
                    up, down = moves(declared, division.tier, division.members)
                    if period.status is PeriodStatus.FINALIZED:
                        promoted += up
                        relegated += down
                    shown.append(
                        {
                            "tier": declared.tiers[division.tier],
                            "number": division.number + 1,
                            "players": division.members,
                        }
                    )
                tiers: dict[str, dict[str, int]] = {}
                for d in shown:
                    tier = tiers.setdefault(
                        d["tier"], {"divisions": 0, "players": 0, "smallest": d["players"]}
                    )
                    tier["divisions"] += 1
                    tier["players"] += d["players"]
                    tier["smallest"] = min(tier["smallest"], d["players"])
                rows.append(
                    {
                        "period_id": period.id,
                        "starts_at": _iso(period.starts_at),
                        "ends_at": _iso(period.ends_at),
                        "status": period.status.value,
                        "entries": entries_of.get(period.id, 0),
                        "tiers": tiers,
                        "divisions": shown,
                        "promoted": promoted,
                        "relegated": relegated,
                        "rank_rewards_paid": paid.get(period.id, 0),
                    }
                )
            out[key] = {
                "name": board.name,
                "period": board.period.value,
                "tiers": list(board.divisions.tiers) if board.divisions else [],
                "division_size": board.divisions.size if board.divisions else None,
                "periods": rows,
            }
        return out

    # --- lobbies and teams ---------------------------------------------------------------------------

    def lobbies_section(self) -> dict[str, Any]:
        """Per lobby event: lobbies, time to fill (creation to start, for lobbies matchmaking formed),
        the share of seats bots took, how lobbies started, sudden deaths."""
        out: dict[str, Any] = {}
        for key, event in self.settings.events.items():
            if event.lobby is None:
                continue
            lobbies = sorted(
                (
                    lb
                    for lb in self.lobbies.lobbies.values()
                    if lb.game_id == self.game_id and lb.env is self.env and lb.event_key == key
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
                "capacity": event.lobby.capacity,
                "fill_seconds": event.lobby.fill_seconds,
                "lobbies": len(lobbies),
                "time_to_fill_seconds": percentiles(fills),
                "fill_histogram": _histogram(fills, _fill_bins(event.lobby.fill_seconds)),
                "seats": seats,
                "bot_seats": bots,
                "bot_seat_share": _share(bots, seats),
                "players_per_lobby": percentiles(humans, ps=(10, 50, 90)),
                "started_by": dict(sorted(reasons.items())),
                "sudden_deaths": sum(1 for lb in lobbies if lb.terminated_by is not None),
            }
        return out

    def teams_section(self) -> dict[str, Any]:
        """Per team event: teams, their sizes (seated members), goals reached, milestones unlocked and the
        rewards paid to members (team milestones and the team board's ranks)."""
        seated: dict[str, int] = {}
        for member in self.teams.team_members.values():
            if member.left_at is None:
                seated[member.team_id] = seated.get(member.team_id, 0) + 1
        out: dict[str, Any] = {}
        for key, event in self.settings.events.items():
            if event.teams is None:
                continue
            teams = [
                t
                for t in self.teams.teams.values()
                if t.game_id == self.game_id and t.env is self.env and t.event_key == key
            ]
            ids = {t.id: None for t in teams}
            sizes: dict[str, int] = {}
            for team in teams:
                n = str(seated.get(team.id, 0))
                sizes[n] = sizes.get(n, 0) + 1
            rewards: dict[str, dict[str, int]] = {"event_team_milestone": {}, "event_team_rank": {}}
            grants = dict.fromkeys(rewards, 0)
            for grant in self.grants.values():
                if grant.source_kind in rewards and grant.source_ref_id in ids:
                    grants[grant.source_kind] += 1
                    into = rewards[grant.source_kind]
                    for entry in grant.rewards:
                        into[entry.key] = into.get(entry.key, 0) + entry.amount
            unlocked: dict[str, int] = {m.key: 0 for m in event.teams.milestones}
            for team in teams:
                for m in team.milestones:
                    unlocked[m] = unlocked.get(m, 0) + 1
            out[key] = {
                "name": event.name,
                "formation": event.teams.formation.value,
                "size": event.teams.size,
                "teams": len(teams),
                "sizes": dict(sorted(sizes.items(), key=lambda kv: int(kv[0]))),
                "goal_completed": sum(1 for t in teams if t.completed_at is not None),
                "scores": percentiles([t.score for t in teams]),
                "milestones_unlocked": unlocked,
                "milestone_grants": grants["event_team_milestone"],
                "milestone_rewards": dict(sorted(rewards["event_team_milestone"].items())),
                "rank_grants": grants["event_team_rank"],
                "rank_rewards": dict(sorted(rewards["event_team_rank"].items())),
            }
        return out

    # --- guilds, gifts, grants -----------------------------------------------------------------------

    def guilds_section(self) -> dict[str, Any]:
        """Guilds at the end: how many, their sizes, and the help requests asked, filled, expired."""
        guilds = [g for g in self.guilds.guilds.values() if g.game_id == self.game_id and g.env is self.env]
        alive = [g for g in guilds if g.disbanded_at is None]
        sizes = [g.member_count for g in alive]
        ids = {g.id: None for g in guilds}
        help_: dict[str, int] = {s.value: 0 for s in HelpStatus}
        partly = 0
        for request in self.guilds.help_requests.values():
            if request.guild_id in ids:
                status = help_status(request, self.end)
                help_[status.value] += 1
                if status is HelpStatus.EXPIRED and request.donated:
                    partly += 1
        donations = sum(1 for d in self.guilds.donations.values() if d.guild_id in ids)
        cap = self.settings.guilds.max_members
        return {
            "enabled": self.settings.guilds.enabled,
            "max_members": cap,
            "guilds": len(alive),
            "disbanded": len(guilds) - len(alive),
            "members": sum(sizes),
            "sizes": percentiles(sizes, ps=(10, 50, 90)),
            "size_histogram": _histogram(sizes, _size_bins(cap)),
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

    def gifts_section(self) -> dict[str, Any]:
        """Gifts sent, claimed and expired (unclaimed past their expiry), in all and per day sent."""
        gifts = [g for g in self.gifts.gifts.values() if g.game_id == self.game_id]
        per_day = [{"day": d + 1, "sent": 0, "claimed": 0} for d in range(self.days)]
        by_resource: dict[str, dict[str, int]] = {}
        claimed = expired = 0
        for gift in gifts:
            per_day[self._day(gift.sent_at) - 1]["sent"] += 1
            row = by_resource.setdefault(gift.resource_key, {"gifts": 0, "amount": 0})
            row["gifts"] += 1
            row["amount"] += gift.amount
            if gift.status is GiftStatus.CLAIMED:
                claimed += 1
                assert gift.claimed_at is not None
                per_day[self._day(gift.claimed_at) - 1]["claimed"] += 1
            elif gift.expires_at is not None and gift.expires_at <= self.end:
                expired += 1
        return {
            "sent": len(gifts),
            "claimed": claimed,
            "expired": expired,
            "pending": len(gifts) - claimed - expired,
            "by_resource": dict(sorted(by_resource.items())),
            "days": per_day,
        }

    def grants_section(self) -> dict[str, Any]:
        """Grants still pending at the end (not expired), by source kind and kind; and those that expired."""
        pending: dict[str, int] = {}
        crates = 0
        expired: dict[str, int] = {}
        for grant in self.grants.values():
            if grant.status is GrantStatus.PENDING and (
                grant.expires_at is None or grant.expires_at > self.end
            ):
                pending[grant.source_kind] = pending.get(grant.source_kind, 0) + 1
                crates += grant.kind is GrantKind.CRATE
            elif grant.status is GrantStatus.EXPIRED or grant.status is GrantStatus.PENDING:
                expired[grant.source_kind] = expired.get(grant.source_kind, 0) + 1
        return {
            "issued": len(self.grants),
            "pending_at_end": sum(pending.values()),
            "pending_crates": crates,
            "pending_by_source": dict(sorted(pending.items())),
            "expired_by_source": dict(sorted(expired.items())),
        }


def _better(order: Order, score: float, than: float) -> bool:
    return score < than if order is Order.ASC else score > than


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _fill_bins(fill_seconds: int) -> list[float]:
    step = max(1, math.ceil(fill_seconds / 6))
    return [float(step * i) for i in range(7)]


def _size_bins(cap: int) -> list[float]:
    step = max(1, math.ceil(cap / 6))
    return [float(1 + step * i) for i in range(7)]


def _histogram(values: Sequence[float], edges: Sequence[float]) -> list[dict[str, Any]]:
    """Counts of ``values`` in ``[edges[i], edges[i+1])``, the last bin open above."""
    bins = [{"from": number(edges[i]), "count": 0} for i in range(len(edges))]
    for value in values:
        index = 0
        for i, edge in enumerate(edges):
            if value >= edge:
                index = i
        bins[index]["count"] += 1
    return bins
