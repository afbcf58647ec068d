"""Guilds' settings: ``[games.<key>.guilds]`` (docs/guilds.md), read from the manifest by
:data:`livecore.guilds.manifest.GUILDS`, held in a game's settings under :data:`GUILD_SETTINGS`.
"""

from __future__ import annotations

import attrs

from livecore.games import Entry, SettingsKey


@attrs.frozen
class HelpSettings:
    """``[games.<game>.guilds.help]``: members may ask their guild for up to ``max_amount`` of one of
    ``resources`` (declared resource keys), once per ``cooldown_seconds`` per guild; a request stays open
    ``expiry_seconds``; each donation earns its donor ``donor_reward``."""

    resources: tuple[str, ...]
    max_amount: int
    expiry_seconds: int = 86_400
    cooldown_seconds: int = 28_800
    donor_reward: tuple[Entry, ...] = ()


@attrs.frozen
class GuildSettings:
    """``[games.<game>.guilds]`` (docs/guilds.md): guilds of at most ``max_members``; founding one costs
    ``create_cost`` (debited in a platform-managed game); player-chosen names may not contain a
    ``name_filter`` entry (case-insensitive); a leader unseen for ``leader_inactive_days`` hands on; no
    ``help``: no help requests."""

    enabled: bool = False
    max_members: int = 50
    create_cost: tuple[Entry, ...] = ()
    name_filter: tuple[str, ...] = ()
    leader_inactive_days: int = 14
    help: HelpSettings | None = None


GUILD_SETTINGS: SettingsKey[GuildSettings] = SettingsKey("guilds", GuildSettings, GuildSettings())
