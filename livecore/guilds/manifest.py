"""Guilds' section of a game's manifest: ``[games.<key>.guilds]`` (docs/guilds.md,
docs/reference/manifest-and-cli.md#manifest)::

    .guilds    enabled = false, max_members = 50, create_cost, name_filter, leader_inactive_days = 14,
               help = { resources, max_amount (both required), expiry_seconds = 86400,
               cooldown_seconds = 28800, donor_reward } (left out: no help requests)

Checked field by field:

- ``max_members`` from 1 to 1,000 (disbanding a guild ends every member's stint in one transaction);
  ``leader_inactive_days`` from 1 to 3,650 (10 years, so the sweep's cutoff stays a valid date);
- ``create_cost`` entries as an event's ``entry_cost`` (declared resources of that type, ``amount`` 1 to
  10^12, no ``parameters``), in either economy: a studio-managed game reports the cost as charged by the
  studio;
- ``name_filter``: entries not blank (a blank entry would match every name, or none);
- ``help.resources``: at least one, each a resource key this game declares (not a system item), none
  twice; ``help.max_amount`` 1 to 10^12; ``help.expiry_seconds`` from 1 and ``help.cooldown_seconds``
  from 0, both to 315,360,000 (10 years); ``help.donor_reward`` entries as an event's rewards.

Defaults are :class:`livecore.guilds.settings.GuildSettings`'.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from livecore.guilds.settings import GUILD_SETTINGS, GuildSettings, HelpSettings
from livecore.limits import AMOUNT
from livecore.section import (
    SECONDS_MAX,
    EntryList,
    Problems,
    Rules,
    Section,
    distinct,
    entry_references,
    is_int,
    resource_refusal,
    seconds,
    within,
)

# Disbanding a guild ends every member's stint in one transaction.
GUILD_MEMBERS_MAX = 1_000
# The inactivity sweep's cutoff (now less leader_inactive_days) stays a valid date.
INACTIVE_DAYS_MAX = SECONDS_MAX // 86_400


def _max_members(value: Any, path: str, problems: Problems) -> None:
    if is_int(value) and not 1 <= value <= GUILD_MEMBERS_MAX:
        problems[path] = f"must be from 1 to {GUILD_MEMBERS_MAX} members"


def _inactive_days(value: Any, path: str, problems: Problems) -> None:
    if is_int(value) and not 1 <= value <= INACTIVE_DAYS_MAX:
        problems[path] = f"must be from 1 to {INACTIVE_DAYS_MAX} days (10 years)"


def _name_filter(value: Any, path: str, problems: Problems) -> None:
    for i, word in enumerate(value if isinstance(value, list) else ()):
        if isinstance(word, str) and not word.strip():
            problems[f"{path}[{i}]"] = "must not be blank: a blank entry would refuse every name, or none"


def _help_resource_keys(value: Any, path: str, problems: Problems) -> None:
    """At least one key, none twice; that each is declared is :func:`_references`' to check."""
    if value == []:
        problems[path] = "must list at least one resource key members may ask for"
    else:
        distinct(value, path, problems, "resource")


def _help_resources(
    guilds: Mapping[str, Any], path: str, game: Mapping[str, Any], problems: Problems
) -> None:
    """What members may ask for: resources the game declares (a help request names the type beside the key,
    and must match the declaration)."""
    help_ = guilds.get("help")
    keys = help_.get("resources") if isinstance(help_, dict) else None
    for i, key in enumerate(keys if isinstance(keys, list) else ()):
        where = f"{path}.help.resources[{i}]"
        if not isinstance(key, str) or where in problems:
            continue  # the converter names the type; a repeat is named already
        refusal = resource_refusal(key, game)
        if refusal is not None:
            problems[where] = refusal


def _references(game: Mapping[str, Any], path: str, problems: Problems, _: Mapping[str, Any]) -> None:
    """The founding cost and the help donor's reward name the game's declared resources, and so does what
    members may ask for."""
    guilds = game.get("guilds")
    if not isinstance(guilds, dict):
        return
    where = f"{path}.guilds"
    help_ = guilds.get("help")
    lists: list[EntryList] = [(f"{where}.create_cost", True, guilds.get("create_cost"))]
    if isinstance(help_, dict):
        lists.append((f"{where}.help.donor_reward", False, help_.get("donor_reward")))
    entry_references(lists, game, problems)
    _help_resources(guilds, where, game, problems)


GUILDS = Section(
    key="guilds",
    record=GuildSettings,
    default=GuildSettings,
    holds=GUILD_SETTINGS,
    rules=Rules(
        fields={
            (GuildSettings, "max_members"): _max_members,
            (GuildSettings, "name_filter"): _name_filter,
            (GuildSettings, "leader_inactive_days"): _inactive_days,
            (HelpSettings, "resources"): _help_resource_keys,
            (HelpSettings, "max_amount"): within(AMOUNT, ""),
            (HelpSettings, "expiry_seconds"): seconds(1),
            (HelpSettings, "cooldown_seconds"): seconds(0),
        }
    ),
    check=_references,
)
