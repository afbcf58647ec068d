"""What the report calls each source of a resource, for the page, its charts and its warnings alike."""

from __future__ import annotations

#: What each source kind is called in a report: a grant's ``sourceKind``, or the name gather.py gives a
#: ledger reason (``SINK_OR_SOURCE``).
SOURCE_LABELS: dict[str, str] = {
    "event_rank": "event rank rewards",
    "leaderboard_rank": "league rank rewards",
    "event_team_rank": "team rank rewards",
    "event_milestone": "milestones",
    "event_team_milestone": "team milestones",
    "event_completion": "completions",
    "gift": "gifts",
    "crate": "crates",
    "guild_help": "guild help received",
    "guild_help_reward": "guild donor rewards",
    "api": "studio grants",
    "studio_credit": "studio credits",
    "spend": "spending",
    "gift_cost": "gift costs",
    "entry_cost": "entry costs",
    "guild_create_cost": "guild founding costs",
    "guild_help_donation": "guild donations",
}
