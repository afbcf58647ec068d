"""Studios and games with their settings (the manifest: docs/reference/manifest-and-cli.md#manifest; defaults:
docs/reference/conventions.md#limits).

Settings are plain frozen records: the server reads them from the manifest, a simulation builds them in
code. Defaults here are the single source of the defaults the manifest documents.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

import attrs

from livecore.api.convert import OMIT_IF_NONE
from livecore.players.identity import DEFAULT_POOL, IdentityPool


class Economy(enum.StrEnum):
    STUDIO = "studio"
    PLATFORM = "platform"


class ResourceType(enum.StrEnum):
    CURRENCY = "currency"
    ITEM = "item"


@attrs.frozen
class Resource:
    key: str
    type: ResourceType
    giftable: bool = False
    max_per_gift: int | None = None
    costs_sender: bool = False
    # Items only: per-instance attributes every player's item starts with (overridable per player).
    parameters: dict[str, Any] = attrs.field(factory=dict)


@attrs.frozen
class Entry:
    """One reward or cost: a resource and an amount; ``parameters`` only for items (left out of the wire
    form when absent)."""

    type: ResourceType
    key: str
    amount: int
    parameters: dict[str, Any] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)


class Order(enum.StrEnum):
    """Which scores are better: ``desc`` higher (points), ``asc`` lower (a time)."""

    DESC = "desc"
    ASC = "asc"


class CheckKind(enum.StrEnum):
    MAX_RATE = "max_rate"  # the metric's increase per second of attempt time
    MAX_VALUE = "max_value"


class Verdict(enum.StrEnum):
    REJECT = "reject"  # 422, nothing applied, no webhook
    FLAG = "flag"  # applied, the attempt is flagged, event.attempt_flagged


@attrs.frozen
class Milestone:
    key: str
    threshold: float
    rewards: tuple[Entry, ...] = ()


@attrs.frozen
class RankBand:
    """Ranks ``first`` to ``last`` (inclusive) of a finalized board earn ``rewards``."""

    first: int
    last: int
    rewards: tuple[Entry, ...]


@attrs.frozen
class AntiCheat:
    key: str
    kind: CheckKind
    metric: str
    limit: float
    verdict: Verdict


@attrs.frozen
class BotScore:
    """The range a bot's final score is drawn from, uniformly (whole numbers when both bounds are)."""

    min: float
    max: float


@attrs.frozen
class LobbySettings:
    """``[games.<game>.events.<key>.lobby]``: the event is played in lobbies of ``capacity`` seats; a forming
    lobby starts ``fill_seconds`` after its creation at the latest, bots first taking the empty seats when
    ``fill_bots`` (each with a final score drawn from ``bot_score``)."""

    capacity: int
    fill_seconds: int
    fill_bots: bool = False
    bot_score: BotScore | None = None


class TriggerType(enum.StrEnum):
    SCORE_REACHED = "score_reached"  # any participant's score reaches the threshold
    COMPLETED_COUNT = "completed_count"  # the lobby's completed attempts reach the threshold


class Resolution(enum.StrEnum):
    FREEZE = "freeze"  # still-active attempts take no more progress; their scores stand
    CLOSE = "close"  # the lobby closes and its board finalizes early


@attrs.frozen
class SuddenDeath:
    """One ``[[games.<game>.events.<key>.sudden_death]]`` trigger of a lobby event."""

    label: str
    type: TriggerType
    threshold: float
    resolution: Resolution


class Formation(enum.StrEnum):
    EXTERNAL = "external"  # the studio's server sets each team's roster (PUT)
    PARTNER = "partner"  # players pair up by invitation: a team of two


class OnLeave(enum.StrEnum):
    KEEP_CONTRIBUTION = "keep_contribution"  # a member who leaves still counts in the team's score
    REMOVE_CONTRIBUTION = "remove_contribution"  # the team's score loses what the member contributed


class OnComplete(enum.StrEnum):
    CONTINUE = "continue"
    STOP_CONTRIBUTIONS = "stop_contributions"  # the team's score and milestones freeze at the goal


@attrs.frozen
class TeamSettings:
    """``[games.<game>.events.<key>.teams]``: players play the event's windows as teams of at most ``size``
    members, whose score is the sum of their members' contributions (docs/teams.md)."""

    formation: Formation
    size: int
    goal: float | None = None
    on_leave: OnLeave = OnLeave.KEEP_CONTRIBUTION
    on_complete: OnComplete = OnComplete.CONTINUE
    board: bool = False
    milestones: tuple[Milestone, ...] = ()
    rank_rewards: tuple[RankBand, ...] = ()


@attrs.frozen
class EventSettings:
    """One ``[games.<game>.events.<key>]`` of the manifest (docs/events.md#the-manifest): its schedule, its
    attempts' rules, its board and its rewards. A window keeps the settings it opened with."""

    key: str
    name: str
    starts_at: datetime
    window_seconds: int
    attempt_seconds: int
    score_metric: str
    repeat_every_seconds: int | None = None
    max_attempts: int | None = None
    order: Order = Order.DESC
    target: float | None = None
    segments: tuple[str, ...] = ()
    entry_cost: tuple[Entry, ...] = ()
    completion_rewards: tuple[Entry, ...] = ()
    feeds: tuple[str, ...] = ()
    milestones: tuple[Milestone, ...] = ()
    rank_rewards: tuple[RankBand, ...] = ()
    anti_cheat: tuple[AntiCheat, ...] = ()
    lobby: LobbySettings | None = None
    sudden_death: tuple[SuddenDeath, ...] = ()
    teams: TeamSettings | None = None

    def metrics(self) -> frozenset[str]:
        """The metric names a progress write may carry: the score's and those the checks read."""
        return frozenset((self.score_metric, *(c.metric for c in self.anti_cheat)))


class Period(enum.StrEnum):
    ALL_TIME = "all_time"
    DAILY = "daily"
    WEEKLY = "weekly"
    MONTHLY = "monthly"


class Aggregation(enum.StrEnum):
    SUM = "sum"
    BEST = "best"
    LATEST = "latest"


@attrs.frozen
class Divisions:
    """``tiers`` from the lowest to the highest."""

    size: int
    tiers: tuple[str, ...]
    promote: int
    relegate: int


@attrs.frozen
class LeaderboardSettings:
    """One ``[games.<game>.leaderboards.<key>]`` of the manifest (docs/leaderboards.md): a shared board that
    lives across events, in periods. A period keeps the settings it opened with."""

    key: str
    name: str
    order: Order = Order.DESC
    period: Period = Period.ALL_TIME
    aggregation: Aggregation = Aggregation.SUM
    divisions: Divisions | None = None
    rank_rewards: tuple[RankBand, ...] = ()


@attrs.frozen
class GiftingSettings:
    enabled: bool = False
    cooldown_seconds: int = 86_400
    daily_send_limit: int | None = None
    claim_expiry_seconds: int | None = None


@attrs.frozen
class PresenceSettings:
    ttl_seconds: int = 90


@attrs.frozen
class FriendsSettings:
    max_friends: int = 500


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


@attrs.frozen
class CrateRow:
    """One row of a crate's reward table: drawn with probability ``weight`` over the table's total
    weight, it gives every one of ``rewards``."""

    weight: int
    rewards: tuple[Entry, ...]


@attrs.frozen
class CrateSettings:
    """``[games.<game>.crates.<key>]`` (docs/grants.md#crates): opening one crate draws ``rolls`` rows
    of ``table``, with replacement."""

    table: tuple[CrateRow, ...]
    rolls: int = 1


@attrs.frozen
class GameSettings:
    economy: Economy = Economy.STUDIO
    gifting: GiftingSettings = GiftingSettings()
    presence: PresenceSettings = PresenceSettings()
    friends: FriendsSettings = FriendsSettings()
    resources: dict[str, Resource] = attrs.field(factory=dict)
    exchange_rates: dict[str, float] = attrs.field(factory=dict)
    events: dict[str, EventSettings] = attrs.field(factory=dict)
    leaderboards: dict[str, LeaderboardSettings] = attrs.field(factory=dict)
    guilds: GuildSettings = GuildSettings()
    crates: dict[str, CrateSettings] = attrs.field(factory=dict)
    # The game's own platform keys, beside the built-in ones (livecore.players.platforms).
    platforms: tuple[str, ...] = ()
    # A studio's own areas' sections (``[games.<key>.areas.<name>]``), as the manifest gives them, each
    # checked by its area (livecore.area.Area.settings) and read by its commands.
    areas: dict[str, dict[str, Any]] = attrs.field(factory=dict)


@attrs.frozen
class Studio:
    id: str
    key: str


@attrs.frozen
class Game:
    id: str
    studio_id: str
    key: str
    name: str
    settings: GameSettings = GameSettings()
    identity_pool: IdentityPool = DEFAULT_POOL
    # Set once any applied manifest enabled gifting: the server gift history answers from then on.
    gifting_ever_enabled: bool = False
