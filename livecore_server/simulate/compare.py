"""Two reports side by side (``livecore-server simulate --compare``): the same seeded population played on
two manifests, the headline numbers of each and how they differ."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from livecore_server.simulate.gather import number


def _row(section: str, subject: str, metric: str, base: float | None, other: float | None) -> dict[str, Any]:
    change: float | None = None
    if base is not None and other is not None:
        change = number(other - base)
    return {
        "section": section,
        "subject": subject,
        "metric": metric,
        "base": base,
        "other": other,
        "change": change,
    }


def _get(report: dict[str, Any] | None, *path: str) -> Any:
    value: Any = report
    for part in path:
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def _keys(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    return [*a, *(k for k in b if k not in a)]


_ECONOMY: tuple[tuple[str, Callable[[dict[str, Any]], float]], ...] = (
    ("minted", lambda r: sum(r["minted"].values())),
    ("sunk", lambda r: sum(r["sunk"].values())),
    ("holdings p50 at the end", lambda r: r["days"][-1]["holdings"]["p50"]),
    ("holdings p90 at the end", lambda r: r["days"][-1]["holdings"]["p90"]),
)


def differences(base: dict[str, Any], other: dict[str, Any]) -> list[dict[str, Any]]:
    """The headline numbers of both reports, row by row (``base``, ``other``, ``change`` = other - base;
    None where one configuration has no such thing)."""
    rows: list[dict[str, Any]] = []
    for key in _keys(base["economy"], other["economy"]):
        a, b = base["economy"].get(key), other["economy"].get(key)
        for metric, pick in _ECONOMY:
            rows.append(_row("economy", key, metric, pick(a) if a else None, pick(b) if b else None))
    for key in _keys(base["events"], other["events"]):
        a, b = base["events"].get(key), other["events"].get(key)
        rows.append(
            _row("events", key, "windows", _get(a, "summary", "windows"), _get(b, "summary", "windows"))
        )
        rows.append(
            _row(
                "events",
                key,
                "entrants per window (p50)",
                _get(a, "summary", "entrants", "p50"),
                _get(b, "summary", "entrants", "p50"),
            )
        )
        rows.append(
            _row(
                "events",
                key,
                "completion rate",
                _get(a, "summary", "completion_rate"),
                _get(b, "summary", "completion_rate"),
            )
        )
        milestones = _keys(
            _get(a, "summary", "milestone_rates") or {}, _get(b, "summary", "milestone_rates") or {}
        )
        for m in milestones:
            rows.append(
                _row(
                    "events",
                    key,
                    f"milestone {m} rate",
                    _get(a, "summary", "milestone_rates", m),
                    _get(b, "summary", "milestone_rates", m),
                )
            )
        rows.append(
            _row(
                "events",
                key,
                "rank reward grants",
                _get(a, "summary", "rank_rewards_paid"),
                _get(b, "summary", "rank_rewards_paid"),
            )
        )
    for key in _keys(base["leaderboards"], other["leaderboards"]):
        a, b = base["leaderboards"].get(key), other["leaderboards"].get(key)

        def total(board: dict[str, Any] | None, field: str) -> int | None:
            return None if board is None else sum(p[field] for p in board["periods"])

        def divisions(board: dict[str, Any] | None) -> int | None:
            return None if board is None else sum(len(p["divisions"]) for p in board["periods"])

        rows.append(_row("leaderboards", key, "entries", total(a, "entries"), total(b, "entries")))
        rows.append(_row("leaderboards", key, "divisions", divisions(a), divisions(b)))
        rows.append(_row("leaderboards", key, "promoted", total(a, "promoted"), total(b, "promoted")))
        rows.append(_row("leaderboards", key, "relegated", total(a, "relegated"), total(b, "relegated")))
    for key in _keys(base["lobbies"], other["lobbies"]):
        a, b = base["lobbies"].get(key), other["lobbies"].get(key)
        rows.append(_row("lobbies", key, "lobbies", _get(a, "lobbies"), _get(b, "lobbies")))
        for p in ("p50", "p90"):
            rows.append(
                _row(
                    "lobbies",
                    key,
                    f"time to fill {p} (s)",
                    _get(a, "time_to_fill_seconds", p),
                    _get(b, "time_to_fill_seconds", p),
                )
            )
        rows.append(
            _row("lobbies", key, "bot seat share", _get(a, "bot_seat_share"), _get(b, "bot_seat_share"))
        )
    for key in _keys(base["teams"], other["teams"]):
        a, b = base["teams"].get(key), other["teams"].get(key)
        rows.append(_row("teams", key, "teams", _get(a, "teams"), _get(b, "teams")))
        rows.append(
            _row("teams", key, "goals completed", _get(a, "goal_completed"), _get(b, "goal_completed"))
        )
        rows.append(
            _row("teams", key, "milestone grants", _get(a, "milestone_grants"), _get(b, "milestone_grants"))
        )
    for metric, path in (
        ("guilds", ("guilds", "guilds")),
        ("members", ("guilds", "members")),
        ("help requests filled", ("guilds", "help_requests", "filled")),
        ("help requests expired", ("guilds", "help_requests", "expired")),
    ):
        rows.append(_row("guilds", "", metric, _get(base, *path), _get(other, *path)))
    for metric in ("sent", "claimed", "expired"):
        rows.append(_row("gifts", "", metric, base["gifts"][metric], other["gifts"][metric]))
    rows.append(
        _row(
            "grants",
            "",
            "pending at the end",
            base["grants"]["pending_at_end"],
            other["grants"]["pending_at_end"],
        )
    )
    rows.append(_row("warnings", "", "warnings", len(base["warnings"]), len(other["warnings"])))
    return rows


def comparison(base: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """The comparison report: both reports whole, and their differences."""
    return {"compare": True, "base": base, "other": other, "differences": differences(base, other)}
