"""The report's warnings (docs/simulation.md#warnings): plain sentences where a number looks wrong for a
live game, each read from the gathered report, so the JSON and the page say the same."""

from __future__ import annotations

from typing import Any

from livecore.games import GameSettings
from livecore_server.simulate.labels import SOURCE_LABELS

#: One source minting more than this share of a resource is named.
DOMINANT_SOURCE = 0.6
#: A resource sinking less than this share of what is minted inflates.
LOW_SINK = 0.1
#: A milestone reached by fewer than this share of a window's entrants, on average, is out of reach.
RARE_MILESTONE = 0.01
#: Lobbies whose seats bots took more than this share of were filled mostly by bots.
BOT_SHARE = 0.5
#: Gifts expiring, help requests expiring, grants left pending: more than this share is named.
EXPIRED_GIFTS = 0.2
EXPIRED_HELP = 0.5
PENDING_GRANTS = 0.25


def _pct(share: float) -> str:
    return f"{share * 100:.0f}%"


def _warning(area: str, subject: str, message: str) -> dict[str, str]:
    return {"area": area, "subject": subject, "message": message}


def warnings_of(report: dict[str, Any], settings: GameSettings) -> list[dict[str, str]]:
    """Every warning the report's numbers call for, area by area, in a fixed order."""
    out: list[dict[str, str]] = []
    for key, resource in report["economy"].items():
        minted = sum(resource["minted"].values())
        sunk = sum(resource["sunk"].values())
        if minted:
            source, amount = max(resource["minted"].items(), key=lambda kv: (kv[1], kv[0]))
            if amount / minted > DOMINANT_SOURCE and len(resource["minted"]) > 1:
                label = SOURCE_LABELS.get(source, source)
                out.append(
                    _warning(
                        "economy",
                        key,
                        f"{label.capitalize()} mint {_pct(amount / minted)} of all {key} "
                        f"({amount:,} of {minted:,}): one reward source drives this resource.",
                    )
                )
            elif len(resource["minted"]) == 1:
                label = SOURCE_LABELS.get(source, source)
                out.append(
                    _warning("economy", key, f"All {key} ({minted:,}) comes from one source: {label}.")
                )
            if resource["spent_by_players"] and sunk < LOW_SINK * minted:
                out.append(
                    _warning(
                        "economy",
                        key,
                        f"Only {_pct(sunk / minted)} of the {key} minted is sunk ({sunk:,} of {minted:,}): "
                        "balances only grow.",
                    )
                )
    for key, event in report["events"].items():
        summary = event["summary"]
        if not summary["windows"]:
            continue
        played = any(w["entrants"] for w in event["windows"])
        if not played:
            out.append(
                _warning("events", key, f"Nobody entered {event['name']} in {summary['windows']} windows.")
            )
            continue
        for milestone, rate in summary["milestone_rates"].items():
            if rate == 0:
                out.append(
                    _warning(
                        "events",
                        key,
                        f"Nobody reaches the milestone {milestone!r} of {event['name']} "
                        f"(threshold {event['milestones'][milestone]:,}).",
                    )
                )
            elif rate < RARE_MILESTONE:
                out.append(
                    _warning(
                        "events",
                        key,
                        f"Almost nobody reaches the milestone {milestone!r} of {event['name']}: "
                        f"{rate * 100:.2f}% of entrants per window.",
                    )
                )
        bands = settings.events[key].rank_rewards
        if bands and event["kind"] != "lobby":
            widest = max(b.last for b in bands)
            typical = summary["entrants"]["p50"]
            if typical and typical < widest:
                out.append(
                    _warning(
                        "events",
                        key,
                        f"{event['name']} pays ranks down to {widest}, but half its windows have "
                        f"{typical:,} entrants or fewer: its lower rank rewards are rarely paid.",
                    )
                )
    for key, board in report["leaderboards"].items():
        empty = [
            (period["starts_at"], d)
            for period in board["periods"]
            for d in period["divisions"]
            if d["players"] == 0
        ]
        if empty:
            when, d = empty[0]
            more = f" (and {len(empty) - 1} more)" if len(empty) > 1 else ""
            out.append(
                _warning(
                    "leaderboards",
                    key,
                    f"{board['name']}: division {d['tier']} #{d['number']} of the period from {when[:10]} is "
                    f"empty{more}.",
                )
            )
        declared = settings.leaderboards[key].divisions
        if declared is not None:
            small = [
                (period["starts_at"], d)
                for period in board["periods"]
                for d in period["divisions"]
                if 0 < d["players"] < declared.promote + declared.relegate
            ]
            if small:
                when, d = small[0]
                more = f" (and {len(small) - 1} more)" if len(small) > 1 else ""
                out.append(
                    _warning(
                        "leaderboards",
                        key,
                        f"{board['name']}: division {d['tier']} #{d['number']} of the period from "
                        f"{when[:10]} has {d['players']} players, fewer than it promotes and relegates "
                        f"({declared.promote} + {declared.relegate}){more}.",
                    )
                )
        tiers = board["tiers"]
        for tier in tiers[1:]:
            if board["periods"] and not any(
                d["tier"] == tier and d["players"] for p in board["periods"] for d in p["divisions"]
            ):
                out.append(_warning("leaderboards", key, f"{board['name']}: nobody ever plays in {tier}."))
    for key, lobby in report["lobbies"].items():
        if lobby["seats"] and lobby["bot_seat_share"] > BOT_SHARE:
            out.append(
                _warning(
                    "lobbies",
                    key,
                    f"{lobby['name']}: bots took {_pct(lobby['bot_seat_share'])} of the seats; its lobbies "
                    "are filled mostly by bots.",
                )
            )
        never = lobby["started_by"].get("never_started", 0)
        if never:
            out.append(
                _warning(
                    "lobbies",
                    key,
                    f"{lobby['name']}: {never} lobbies closed with their window before they started.",
                )
            )
    for key, team in report["teams"].items():
        if team["teams"]:
            for milestone, count in team["milestones_unlocked"].items():
                if count == 0:
                    out.append(
                        _warning(
                            "teams", key, f"No team of {team['name']} unlocks the milestone {milestone!r}."
                        )
                    )
    guilds = report["guilds"]
    asked = guilds["help_requests"]["asked"]
    if asked and guilds["help_requests"]["expired"] / asked > EXPIRED_HELP:
        out.append(
            _warning(
                "guilds",
                "help",
                f"{_pct(guilds['help_requests']['expired'] / asked)} of guild help requests expire unfilled.",
            )
        )
    gifts = report["gifts"]
    if gifts["sent"] and gifts["expired"] / gifts["sent"] > EXPIRED_GIFTS:
        out.append(
            _warning(
                "gifts", "expired", f"{_pct(gifts['expired'] / gifts['sent'])} of gifts expire unclaimed."
            )
        )
    grants = report["grants"]
    if grants["issued"] and grants["pending_at_end"] / grants["issued"] > PENDING_GRANTS:
        share = _pct(grants["pending_at_end"] / grants["issued"])
        out.append(_warning("grants", "pending", f"{share} of grants are still pending at the end."))
    unaffordable = sum(
        n for name, n in report["refusals"].items() if name.endswith(":insufficient_entry_cost")
    )
    if unaffordable:
        out.append(
            _warning(
                "events",
                "entry_cost",
                f"Players could not pay an event's entry cost {unaffordable:,} times.",
            )
        )
    return out
