"""The TOML manifest (docs/reference/manifest-and-cli.md#manifest): parse and validate it into frozen records,
purely (no database).

``livecore-server apply`` and ``demo`` read a manifest with :func:`load_manifest` / :func:`parse_manifest`
and persist the result. A manifest is all or nothing: any problem raises :class:`ManifestError`, whose
``problems`` maps each offending field path (``games.space-race.api_keys.ci-client.env``) to what is wrong,
and every problem is reported at once, not just the first.

Shape (unknown fields are refused at every depth; types are strict: a string is not an integer, ``1.5``
and ``true`` are not integers)::

    studio = "<key>"                                  required
    [exchange_rates]  <CUR> = <USD per unit>          optional, applies to every game
    [members.<key>]   email, role = "OWNER" | "ADMIN" | "GAME_ADMIN" | "GAME_DEVELOPER" | "GAME_DEBUGGER" |
                      "VIEWER" (both required): the studio's operators (docs/operators.md)
    [games.<key>]     name (required), economy = "studio" (default) | "platform",
                      platforms = ["<key>", ...] (the game's own platform keys, beside the built-in ones)
      .gifting        enabled = false, cooldown_seconds = 86400, daily_send_limit, claim_expiry_seconds
      .presence       ttl_seconds = 90
      .friends        max_friends = 500
      .resources.<key>   type = "currency" | "item" (required), giftable = false, max_per_gift,
                         costs_sender = false
      .api_keys.<name>   env = "test" | "live" (required),
                         permission = "client_sdk" | "server_integration" (required),
                         rate_limits = { <bucket> = <per minute> } (optional)
      .webhooks.<name>   env, url, events (all required)
      .exchange_rates    <CUR> = <USD per unit>       optional, per game, overrides the top level per currency
      .events.<key>      a live event (docs/events.md): name, starts_at, window_seconds, attempt_seconds,
                         score_metric (all required), repeat_every_seconds, max_attempts, order = "desc" |
                         "asc", target, segments, entry_cost, completion_rewards, feeds
        [[.milestones]]     key, threshold, rewards (all required)
        [[.rank_rewards]]   from, to, rewards (all required)
        [[.anti_cheat]]     key, kind = "max_rate" | "max_value", metric, limit, verdict = "reject" | "flag"
                            (all required)
        .lobby              capacity, fill_seconds (both required), fill_bots = false,
                            bot_score = { min, max } (both required)
        [[.sudden_death]]   label, type = "score_reached" | "completed_count", threshold,
                            resolution = "freeze" | "close" (all required)
        .teams              formation = "external" | "partner", size (both required), goal,
                            on_leave = "keep_contribution" | "remove_contribution",
                            on_complete = "continue" | "stop_contributions", board = false
          [[.milestones]]     key, threshold, rewards (all required)
          [[.rank_rewards]]   from, to, rewards (all required)
      .leaderboards.<key>  a shared leaderboard (docs/leaderboards.md): name (required), order = "desc" |
                         "asc", period = "all_time" | "daily" | "weekly" | "monthly", aggregation = "sum" |
                         "best" | "latest", divisions = { size, tiers, promote, relegate } (all required)
        [[.rank_rewards]]   from, to, rewards (all required)
      .guilds            guilds (docs/guilds.md): enabled = false, max_members = 50, create_cost,
                         name_filter, leader_inactive_days = 14, help = { resources, max_amount (both
                         required), expiry_seconds = 86400, cooldown_seconds = 28800, donor_reward }
                         (left out: no help requests)
      .crates.<key>      a crate (docs/grants.md#crates): table (required: a list of { weight, rewards },
                         both required; rewards may be []), rolls = 1

Defaults come from :mod:`livecore.games` (the single source of the defaults).

Rules beyond types:

- Keys of ``studio``, ``games``, ``resources``, ``api_keys`` and ``webhooks`` match
  ``[a-z0-9][a-z0-9_-]{0,63}`` (the whole key; a trailing newline does not pass).
- ``name``: not blank.
- ``gifting.cooldown_seconds`` >= 0; ``gifting.daily_send_limit`` >= 1 (omit for unlimited);
  ``gifting.claim_expiry_seconds`` >= 1 (omit: gifts never expire); ``presence.ttl_seconds`` >= 1;
  ``friends.max_friends`` >= 1; ``resources.<key>.max_per_gift`` 1 to 10^12 (omit: no cap).
- Resource keys ``sessions`` and ``login_streak`` are reserved for system items and refused.
- ``costs_sender = true`` in a studio-managed game is accepted here; the gift route refuses such a gift at
  send time with ``gift_not_allowed`` (docs/reference/gifts.md#settings).
- ``rate_limits``: keys are the bucket names of docs/reference/conventions.md#rate-limits (``sdk_read``,
  ``sdk_write``, ``server_api``, ``admin``), values integers from 1 to 1,000,000 requests per minute. A bucket
  the key's permission never uses is accepted and has no effect. ``open_streams`` (1 to 1,000,000) is the
  most event-board streams the key holds open at once (livecore_server/stream_slots.py).
- Webhook ``url``: ``https://`` with a host, or ``http://`` only for a loopback host (``localhost``,
  ``127.0.0.0/8``, ``[::1]``) (docs/reference/webhooks.md#endpoints-and-routing), whatever the endpoint's
  environment; no whitespace, a valid port. Its host passes the address policy of
  :mod:`livecore_server.webhook_targets` as far as the URL shows it: never a link-local or metadata
  address or name, a private address only with ``allow_private_webhooks``.
- Webhook ``events``: a non-empty list of non-empty strings without repeats; ``"*"`` (every kind) only alone.
  Each kind must be one the service sends (``livecore.webhooks.kinds``, docs/reference/webhooks.md#kinds);
  the refusal lists the known kinds.
- ``exchange_rates`` (docs/reference/economy.md#purchases): currency codes are 3 upper-case letters, rates
  finite and > 0. USD is always known (1.0) and may be omitted; declaring it with any other value is refused.
  The top-level table applies to every game; a game's own ``[games.<key>.exchange_rates]`` overrides it
  currency by currency. ``GameManifest.exchange_rates`` holds the effective (merged) rates, without USD;
  ``settings()`` adds USD.
- Events (``[games.<key>.events.<key>]``), checked field by field (list items by index:
  ``games.g.events.e.milestones[1].key``):

  - the event key matches the key pattern; ``name`` is not blank;
  - ``starts_at``: a quoted RFC 3339 timestamp with a time zone (``"2026-12-01T00:00:00Z"``, or an offset,
    converted to UTC) or a TOML offset date-time (``2026-12-01T00:00:00Z`` unquoted); a local date-time
    without a zone is refused as ambiguous; exact to the millisecond (the stored form), from 1970 to before
    the year 9000;
  - ``window_seconds``, ``attempt_seconds`` and ``repeat_every_seconds`` from 1 to 315,360,000 (10 years);
    ``repeat_every_seconds`` at least ``window_seconds`` (an event's windows never overlap; equal: back to
    back, always open). ``attempt_seconds`` may exceed ``window_seconds``: an attempt never runs past its
    window's end, so a long one simply lasts until the window closes;
  - ``max_attempts`` >= 1 (omit: unlimited); ``score_metric``, and each anti-cheat ``metric``, match the
    key pattern (they are the metric names a progress write may carry); ``target``, milestone
    ``threshold``s within +-(2^53 - 1) (the bound of every number that reaches a board, as on the routes);
    an anti-cheat ``limit`` within it and > 0;
  - ``segments``: ``playerContext`` keys (the game's own names, so any case), each 1 to 64 characters
    without control characters or surrounding whitespace, none twice;
  - reward and cost entries (``entry_cost``, ``completion_rewards``, each milestone's and rank band's
    ``rewards``): ``type``, ``key`` and ``amount`` 1 to 10^12, naming a resource this game declares with that
    type (never a system item: ``sessions``, ``login_streak``); ``parameters`` only on items, and never on a
    cost;
  - ``entry_cost`` only in a platform-managed game (``economy = "platform"``): a studio-managed game keeps
    balances the service never sees;
  - milestones: keys unique within the event, ``rewards`` at least one entry;
  - rank bands: ``from`` and ``to`` ranks from 1 to 10,000 (a window's close pays every covered rank in one
    transaction), ``to`` >= ``from``, no two bands holding one rank, ``rewards`` at least one entry;
  - anti-cheat checks: keys unique within the event;
  - ``feeds``: each a shared leaderboard declared in the same game, none twice;
  - ``lobby`` (docs/lobbies.md): ``capacity`` from 2 to 10,000 (bots fill a lobby in one transaction),
    ``fill_seconds`` from 1 to 315,360,000; ``bot_score`` ``min`` and ``max`` within +-(2^53 - 1), not
    negative (a bot's score grows from 0), ``min`` at most ``max``; ``fill_bots = true`` needs a
    ``bot_score``;
  - ``sudden_death`` only on a lobby event; labels match the key pattern, none twice; ``threshold`` within
    +-(2^53 - 1) and > 0;
  - ``teams`` (docs/teams.md): not on a lobby event (an event is played in lobbies or in teams), nor on an
    ``order = "asc"`` event (a team's score is a sum that grows towards its goal; where lower is better,
    a member's better score would pull the team away from it); ``size`` from 2 to 1,000 (a team
    milestone pays every seated member in the progress write that crosses it), and exactly 2 for
    ``formation = "partner"`` (a partner team is a pair); ``goal`` within +-(2^53 - 1) and > 0, required by
    ``on_complete = "stop_contributions"``; team milestones as an event's, with ``threshold`` > 0 (a team
    starts at 0) and, with ``stop_contributions``, at most the goal (the score freezes there); team rank
    bands as an event's, only with ``board = true`` (they pay the team board's ranks).

  An event left out of a later manifest leaves the game's settings: it opens no new window, and what it
  recorded (windows, attempts, boards, grants) stays (:mod:`livecore.live_events.rules`).
- Shared leaderboards (``[games.<key>.leaderboards.<key>]``), checked field by field:

  - the board key matches the key pattern; ``name`` is not blank;
  - ``divisions``: ``size`` from 2 to 10,000 (a rollover pays and moves a division in one step);
    ``tiers`` a non-empty list of keys (the key pattern), none twice, from the lowest to the highest;
    ``promote`` and ``relegate`` >= 0 and ``promote + relegate`` at most ``size``;
  - rank bands and their rewards as for events (ranks within the board, or within each division).

  A board left out of a later manifest takes no more scores (``leaderboard_not_found``); a period it had
  open still rolls over at its end with the settings it opened with, and what it recorded stays.
- Guilds (``[games.<key>.guilds]``), checked field by field:

  - ``max_members`` from 1 to 1,000 (disbanding a guild ends every member's stint in one transaction);
    ``leader_inactive_days`` from 1 to 3,650 (10 years, so the sweep's cutoff stays a valid date);
  - ``create_cost`` entries as an event's ``entry_cost`` (declared resources of that type, ``amount`` 1 to
    10^12, no ``parameters``), in either economy: a studio-managed game reports the cost as charged by the
    studio;
  - ``name_filter``: entries not blank (a blank entry would match every name, or none);
  - ``help.resources``: at least one, each a resource key this game declares (not a system item), none
    twice; ``help.max_amount`` 1 to 10^12; ``help.expiry_seconds`` from 1 and ``help.cooldown_seconds``
    from 0, both to 315,360,000 (10 years); ``help.donor_reward`` entries as an event's rewards.
- Crates (``[games.<key>.crates.<key>]``): the crate key matches the key pattern; ``table`` holds 1 to 100
  rows; a row's ``weight`` is a whole number from 1 to 1,000,000; ``rolls`` from 1 to 100; ``rewards``
  entries as an event's rewards (declared resources of that type, ``amount`` 1 to 10^12, ``parameters`` only
  on items); an empty ``rewards`` is a row that gives nothing.
- A TOML syntax error is reported at path ``manifest`` with tomllib's line and column; so is a file that
  cannot be read or is not UTF-8.
"""

from __future__ import annotations

import ast
import contextlib
import contextvars
import math
import os
import re
import tomllib
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from importlib import resources
from typing import Any, TypeGuard
from urllib.parse import urlsplit

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, override

from livecore import areas as core_areas
from livecore.api.convert import field_errors, make_converter
from livecore.area import Area
from livecore.clock import parse_ts
from livecore.crates.rules import ROLLS, TABLE, WEIGHT
from livecore.economy.rules import AMOUNT
from livecore.games import (
    Aggregation,
    AntiCheat,
    BotScore,
    CrateRow,
    CrateSettings,
    Divisions,
    Economy,
    Entry,
    EventSettings,
    Formation,
    FriendsSettings,
    GameSettings,
    GiftingSettings,
    GuildSettings,
    HelpSettings,
    LeaderboardSettings,
    LobbySettings,
    Milestone,
    OnComplete,
    Order,
    Period,
    PresenceSettings,
    RankBand,
    Resource,
    ResourceType,
    SuddenDeath,
    TeamSettings,
)
from livecore.limits import BOARD_NUMBER, Range, board_number_problem, character_problem
from livecore.lobbies.rules import CAPACITY_MAX
from livecore.operators.rules import Role
from livecore.players.platforms import PLATFORM
from livecore.ratelimit import BucketName
from livecore.scope import Environment, Permission
from livecore.teams.rules import TEAM_SIZE_MAX
from livecore.webhooks.kinds import PAYLOAD_TYPES
from livecore_server.webhook_targets import is_loopback_host, url_refusal

__all__ = [
    "KEY_PATTERN",
    "RESERVED_RESOURCE_KEYS",
    "ApiKeyManifest",
    "EventManifest",
    "GameManifest",
    "LeaderboardManifest",
    "Manifest",
    "ManifestError",
    "ResourceManifest",
    "WebhookManifest",
    "demo_manifest",
    "demo_manifest_text",
    "load_manifest",
    "parse_manifest",
]

KEY_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
# A plain check, not RFC 5322: one @, no spaces, a dot in the domain. Members sign in by link or SSO.
EMAIL_PATTERN = re.compile(r"(?=.{3,254}\Z)[^@\s]+@[^@\s]+\.[^@\s]+")
RESERVED_RESOURCE_KEYS = frozenset({"sessions", "login_streak"})
RATE_LIMIT_MAX = 1_000_000
_CURRENCY = re.compile(r"[A-Z]{3}")
_DEMO_RESOURCE = "demo.toml"


class ManifestError(ValueError):
    """The manifest was refused; nothing from it may be applied."""

    def __init__(self, problems: Mapping[str, str]) -> None:
        self.problems: dict[str, str] = dict(sorted(problems.items()))
        super().__init__(str(self))

    def __str__(self) -> str:
        return "\n".join(f"{path}: {message}" for path, message in self.problems.items())


# --- models -------------------------------------------------------------------------------------------


@attrs.frozen
class ResourceManifest:
    """``[games.<key>.resources.<key>]``; defaults agree with :class:`livecore.games.Resource`."""

    type: ResourceType
    giftable: bool = False
    max_per_gift: int | None = None
    costs_sender: bool = False
    parameters: dict[str, Any] = attrs.field(factory=dict)

    def to_resource(self, key: str) -> Resource:
        return Resource(
            key=key,
            type=self.type,
            giftable=self.giftable,
            max_per_gift=self.max_per_gift,
            costs_sender=self.costs_sender,
            parameters=dict(self.parameters),
        )


@attrs.frozen
class ApiKeyManifest:
    """``[games.<key>.api_keys.<name>]``: ``rate_limits`` overrides the per-minute limits
    (docs/reference/conventions.md#rate-limits) for this key."""

    env: Environment
    permission: Permission
    rate_limits: dict[BucketName, int] = attrs.field(factory=dict)


@attrs.frozen
class MemberManifest:
    """``[members.<key>]``: a member of the studio, who signs in to the portal (docs/operators.md)."""

    email: str
    role: Role


@attrs.frozen
class WebhookManifest:
    """``[games.<key>.webhooks.<name>]``: ``events`` is ``("*",)`` for every kind."""

    env: Environment
    url: str
    events: tuple[str, ...]


@attrs.frozen
class EventManifest:
    """``[games.<key>.events.<key>]``, with its ``[[...milestones]]``, ``[[...rank_rewards]]``,
    ``[[...anti_cheat]]``, ``[...lobby]``, ``[[...sudden_death]]`` and ``[...teams]``; fields and defaults are
    :class:`livecore.games.EventSettings`' (a rank band's ``first``/``last`` are ``from``/``to`` in TOML)."""

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

    def to_settings(self, key: str) -> EventSettings:
        return EventSettings(key=key, **attrs.asdict(self, recurse=False))


@attrs.frozen
class LeaderboardManifest:
    """``[games.<key>.leaderboards.<key>]``, with its ``[[...rank_rewards]]``; fields and defaults are
    :class:`livecore.games.LeaderboardSettings`'."""

    name: str
    order: Order = Order.DESC
    period: Period = Period.ALL_TIME
    aggregation: Aggregation = Aggregation.SUM
    divisions: Divisions | None = None
    rank_rewards: tuple[RankBand, ...] = ()

    def to_settings(self, key: str) -> LeaderboardSettings:
        return LeaderboardSettings(key=key, **attrs.asdict(self, recurse=False))


@attrs.frozen
class GameManifest:
    """``[games.<key>]``. ``exchange_rates`` is effective: the top-level table merged with the game's own."""

    name: str
    economy: Economy = Economy.STUDIO
    gifting: GiftingSettings = attrs.field(factory=GiftingSettings)
    presence: PresenceSettings = attrs.field(factory=PresenceSettings)
    friends: FriendsSettings = attrs.field(factory=FriendsSettings)
    resources: dict[str, ResourceManifest] = attrs.field(factory=dict)
    api_keys: dict[str, ApiKeyManifest] = attrs.field(factory=dict)
    webhooks: dict[str, WebhookManifest] = attrs.field(factory=dict)
    exchange_rates: dict[str, float] = attrs.field(factory=dict)
    events: dict[str, EventManifest] = attrs.field(factory=dict)
    leaderboards: dict[str, LeaderboardManifest] = attrs.field(factory=dict)
    guilds: GuildSettings = attrs.field(factory=GuildSettings)
    crates: dict[str, CrateSettings] = attrs.field(factory=dict)
    platforms: tuple[str, ...] = ()
    areas: dict[str, dict[str, Any]] = attrs.field(factory=dict)

    def settings(self) -> GameSettings:
        """The game's settings as the core reads them; resources, events and leaderboards keyed by their
        keys, USD always known."""
        return GameSettings(
            economy=self.economy,
            gifting=self.gifting,
            presence=self.presence,
            friends=self.friends,
            resources={key: res.to_resource(key) for key, res in self.resources.items()},
            exchange_rates={"USD": 1.0, **self.exchange_rates},
            events={key: event.to_settings(key) for key, event in self.events.items()},
            leaderboards={key: board.to_settings(key) for key, board in self.leaderboards.items()},
            guilds=self.guilds,
            crates=self.crates,
            platforms=self.platforms,
            areas=self.areas,
        )


@attrs.frozen
class PluginsManifest:
    """``[plugins]``: a studio's own areas the server serves, by package name (docs/extending.md)."""

    areas: tuple[str, ...] = ()


@attrs.frozen
class Manifest:
    """The whole manifest: one studio and its games (in manifest order)."""

    studio: str
    games: dict[str, GameManifest] = attrs.field(factory=dict)
    exchange_rates: dict[str, float] = attrs.field(factory=dict)
    members: dict[str, MemberManifest] = attrs.field(factory=dict)
    plugins: PluginsManifest = attrs.field(factory=PluginsManifest)


# --- value rules (types, unknown fields and enums are the converter's) --------------------------------

Problems = dict[str, str]
Rule = Callable[[Any, str, Problems], None]


def _is_int(value: Any) -> typing.TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _at_least(minimum: int) -> Rule:
    def rule(value: Any, path: str, problems: Problems) -> None:
        if _is_int(value) and value < minimum:
            problems[path] = f"must be at least {minimum}"

    return rule


def _key(value: Any, path: str, problems: Problems) -> None:
    if isinstance(value, str) and not KEY_PATTERN.fullmatch(value):
        problems[path] = (
            "must be 1 to 64 characters: lower-case letters, digits, '-' and '_',"
            " starting with a letter or digit"
        )


def _email(value: Any, path: str, problems: Problems) -> None:
    if isinstance(value, str) and not EMAIL_PATTERN.fullmatch(value):
        problems[path] = "must be an email address (name@domain), at most 254 characters"


def _not_blank(value: Any, path: str, problems: Problems) -> None:
    if isinstance(value, str) and not value.strip():
        problems[path] = "must not be empty"


def _resource_key(value: Any, path: str, problems: Problems) -> None:
    if value in RESERVED_RESOURCE_KEYS:
        problems[path] = "is reserved for a system item"
    else:
        _key(value, path, problems)


def _rate_limits(value: Any, path: str, problems: Problems) -> None:
    for bucket, limit in value.items():
        if _is_int(limit) and not 1 <= limit <= RATE_LIMIT_MAX:
            what = "open streams" if bucket == BucketName.OPEN_STREAMS else "requests per minute"
            problems[f"{path}.{bucket}"] = f"must be between 1 and {RATE_LIMIT_MAX} {what}"


def _exchange_rates(value: Any, path: str, problems: Problems) -> None:
    for code, rate in value.items():
        where = f"{path}.{code}"
        if not _CURRENCY.fullmatch(code):
            problems[where] = "must be a currency code of 3 upper-case letters (ISO 4217)"
        elif isinstance(rate, bool) or not isinstance(rate, int | float):
            continue  # the converter names the type
        elif not (math.isfinite(rate) and rate > 0):
            problems[where] = "must be a finite number greater than 0 (USD per unit)"
        elif code == "USD" and rate != 1:
            problems[where] = "USD is always 1.0; omit it or set it to 1.0"


def _url(value: Any, path: str, problems: Problems) -> None:
    if not isinstance(value, str):
        return
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018  (raises ValueError on a bad port)
    except ValueError:
        problems[path] = "must be a valid URL"
        return
    scheme, host = parts.scheme.lower(), parts.hostname or ""
    if any(ch.isspace() for ch in value):
        problems[path] = "must not contain whitespace"
    elif scheme not in ("https", "http") or not host:
        problems[path] = "must be an https:// URL with a host"
    elif scheme == "http" and not is_loopback_host(host):
        problems[path] = "must use https:// (http:// only for localhost, 127.0.0.0/8 or [::1])"


def webhook_problems(url: str, events: list[str], *, allow_private: bool) -> Problems:
    """What is wrong with a webhook endpoint's ``url`` and ``events``: the manifest's rules, for the admin
    API's endpoint creation too."""
    problems: Problems = {}
    _url(url, "url", problems)
    refusal = None if "url" in problems else url_refusal(url, allow_private=allow_private)
    if refusal is not None:
        problems["url"] = refusal
    _events(events, "events", problems)
    return problems


def _webhook_targets(data: Mapping[str, Any], allow_private: bool, problems: Problems) -> None:
    """The address policy (livecore_server.webhook_targets) on each webhook URL whose syntax passed: what
    the URL shows of its target. Needs the operator's choice on private addresses, which the field rules
    do not see."""
    games = data.get("games")
    for game_key, game in games.items() if isinstance(games, dict) else ():
        hooks = game.get("webhooks") if isinstance(game, dict) else None
        for name, hook in hooks.items() if isinstance(hooks, dict) else ():
            url, path = (
                hook.get("url") if isinstance(hook, dict) else None,
                f"games.{game_key}.webhooks.{name}.url",
            )
            if isinstance(url, str) and path not in problems:
                reason = url_refusal(url, allow_private=allow_private)
                if reason is not None:
                    problems[path] = f"refused: {reason}"


def _events(value: Any, path: str, problems: Problems) -> None:
    if not isinstance(value, list):
        problems[path] = 'must be a list of event kinds, or ["*"]'
        return
    kinds = [kind for kind in value if isinstance(kind, str)]  # the converter names other types
    if not value:
        problems[path] = 'must not be empty: list event kinds, or ["*"] for all'
    elif any(not kind.strip() for kind in kinds):
        problems[path] = "must not contain an empty kind"
    elif "*" in kinds and len(value) > 1:
        problems[path] = '"*" must be the only entry'
    elif len(set(kinds)) != len(kinds):
        problems[path] = "must not list a kind more than once"
    else:
        _known_kinds(kinds, path, problems)


# The webhook kinds of the studio's areas the manifest being parsed may use (parse_manifest sets them).
_AREA_KINDS: contextvars.ContextVar[frozenset[str]] = contextvars.ContextVar(
    "area_kinds", default=frozenset()
)


def _known_kinds(kinds: list[str], path: str, problems: Problems) -> None:
    """A kind the service never sends would subscribe the endpoint to nothing, silently."""
    known = [*PAYLOAD_TYPES, *sorted(_AREA_KINDS.get())]
    unknown = [kind for kind in kinds if kind != "*" and kind not in known]
    if unknown:
        problems[path] = (
            f"unknown event kind{'s' if len(unknown) > 1 else ''} {', '.join(unknown)};"
            f' known kinds: {", ".join(known)}, or "*" for all'
        )


# --- live events ---------------------------------------------------------------------------------------

# A window, a repeat or an attempt lasts at most 10 years, and the first window starts from 1970 (UUIDv7
# time) to before the year 9000: every window's times stay within datetime's range.
SECONDS_MAX = 10 * 365 * 86_400
STARTS_AT_RANGE = (datetime(1970, 1, 1, tzinfo=UTC), datetime(9000, 1, 1, tzinfo=UTC))
# A window's close pays every rank a band covers in its one transaction.
PAID_RANKS_MAX = 10_000
SEGMENT_MAX_CHARS = 64
_RFC3339 = re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})")
_TIMESTAMP = "must be an RFC 3339 timestamp with a time zone, e.g. 2026-12-01T00:00:00Z"


def _timestamp(value: Any, _: Any) -> datetime:
    """A quoted RFC 3339 string or a TOML offset date-time; a local (naive) one is ambiguous."""
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ValueError(f"{_TIMESTAMP} (this one has no time zone: add Z for UTC)")
        stamp = value.astimezone(UTC)
    elif isinstance(value, str) and _RFC3339.fullmatch(value):
        try:
            stamp = parse_ts(value.upper().replace(" ", "T"))
        except ValueError:
            raise ValueError(f"{_TIMESTAMP} (this one is not a valid date or time)") from None
    else:
        raise ValueError(_TIMESTAMP)
    if stamp.microsecond % 1000:
        raise ValueError("must be exact to the millisecond")
    first, end = STARTS_AT_RANGE
    if not first <= stamp < end:
        raise ValueError("must be from 1970-01-01T00:00:00Z to before the year 9000")
    return stamp


def _seconds(minimum: int) -> Rule:
    def rule(value: Any, path: str, problems: Problems) -> None:
        if _is_int(value) and not minimum <= value <= SECONDS_MAX:
            problems[path] = f"must be from {minimum} to {SECONDS_MAX} seconds (10 years)"

    return rule


def _is_number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _finite(value: Any, path: str, problems: Problems) -> None:
    """A number that reaches a board: the bound every route holds it to (:data:`BOARD_NUMBER`)."""
    problem = board_number_problem(value) if _is_number(value) else None
    if problem is not None:
        problems[path] = problem


def _positive(value: Any, path: str, problems: Problems) -> None:
    """As :func:`_finite`, and greater than 0."""
    if _is_number(value) and (board_number_problem(value) is not None or not value > 0):
        problems[path] = f"must be a finite number greater than 0, at most {BOARD_NUMBER.maximum:,}"


def _rank(value: Any, path: str, problems: Problems) -> None:
    if _is_int(value) and not 1 <= value <= PAID_RANKS_MAX:
        problems[path] = f"must be a rank from 1 to {PAID_RANKS_MAX}"


def _platforms(value: Any, path: str, problems: Problems) -> None:
    """The game's own platform keys: each one a key the SDK could send (livecore.players.platforms.PLATFORM),
    none twice."""
    first_at = _distinct(value, path, problems, "platform")
    for key, i in first_at.items():
        problem = PLATFORM.problem(key)
        if problem is not None:
            problems[f"{path}[{i}]"] = problem
        elif key != key.strip():
            problems[f"{path}[{i}]"] = "must not have surrounding whitespace: the SDK's header cannot send it"


def _segments(value: Any, path: str, problems: Problems) -> None:
    """Keys of ``playerContext``: whatever the game sends, so not held to the manifest's key pattern."""
    seen: set[str] = set()
    for i, key in enumerate(value if isinstance(value, list) else ()):
        if not isinstance(key, str):
            continue  # the converter names the type
        problem = character_problem(key, plain=True)
        if not key.strip() or key != key.strip():
            problems[f"{path}[{i}]"] = "must be a playerContext key, without surrounding whitespace"
        elif len(key) > SEGMENT_MAX_CHARS:
            problems[f"{path}[{i}]"] = f"must be at most {SEGMENT_MAX_CHARS} characters"
        elif problem is not None:
            problems[f"{path}[{i}]"] = problem
        elif key in seen:
            problems[f"{path}[{i}]"] = f"repeats the segment {key}"
        seen.add(key)


def _feeds(event: Mapping[str, Any], where: str, boards: Mapping[str, Any], problems: Problems) -> None:
    """An event feeds shared boards of its own game, each once (a second feed would count a score twice)."""
    feeds = event.get("feeds")
    seen: set[str] = set()
    for i, name in enumerate(feeds if isinstance(feeds, list) else ()):
        if not isinstance(name, str):
            continue  # the converter names the type
        if name not in boards:
            problems[f"{where}.feeds[{i}]"] = f"no shared leaderboard named {name} is declared in this game"
        elif name in seen:
            problems[f"{where}.feeds[{i}]"] = f"repeats the leaderboard {name}"
        seen.add(name)


def _rewards_required(raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    """A milestone or a rank band that pays nothing is a mistake."""
    rewards = raw.get("rewards")
    if rewards is None or rewards == []:
        problems[f"{path}.rewards"] = "must list at least one reward entry"


def _rank_band(raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    first, last = raw.get("from"), raw.get("to")
    if _is_int(first) and _is_int(last) and last < first and f"{path}.to" not in problems:
        problems[f"{path}.to"] = f"must be at least from ({first})"
    _rewards_required(raw, path, problems)


def _items(raw: Mapping[str, Any], field: str) -> list[tuple[int, dict[str, Any]]]:
    """The tables of an array of tables, with their indexes (other items are the converter's to name)."""
    found = raw.get(field)
    return [
        (i, item) for i, item in enumerate(found if isinstance(found, list) else ()) if isinstance(item, dict)
    ]


def _unique_keys(
    raw: Mapping[str, Any], field: str, path: str, problems: Problems, *, by: str = "key"
) -> None:
    first_at: dict[str, int] = {}
    for i, item in _items(raw, field):
        key = item.get(by)
        if not isinstance(key, str):
            continue
        if key in first_at:
            problems[f"{path}.{field}[{i}].{by}"] = f"repeats the {by} of {field}[{first_at[key]}]"
        else:
            first_at[key] = i


def _no_overlap(raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    """``band_rewards`` pays the first band holding a rank: two bands holding one rank are a mistake."""
    bands: list[tuple[int, int, int]] = []
    for i, band in _items(raw, "rank_rewards"):
        first, last = band.get("from"), band.get("to")
        if not (_is_int(first) and _is_int(last) and 1 <= first <= last):
            continue
        for j, other_first, other_last in bands:
            if first <= other_last and other_first <= last:
                problems[f"{path}.rank_rewards[{i}]"] = (
                    f"ranks {first} to {last} overlap rank_rewards[{j}] (ranks {other_first} to {other_last})"
                )
                break
        bands.append((i, first, last))


def _event(raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    window, repeat = raw.get("window_seconds"), raw.get("repeat_every_seconds")
    where = f"{path}.repeat_every_seconds"
    if _is_int(window) and _is_int(repeat) and repeat < window and where not in problems:
        problems[where] = f"must be at least window_seconds ({window}): an event's windows never overlap"
    _unique_keys(raw, "milestones", path, problems)
    _unique_keys(raw, "anti_cheat", path, problems)
    _unique_keys(raw, "sudden_death", path, problems, by="label")
    _no_overlap(raw, path, problems)
    if raw.get("sudden_death") and "lobby" not in raw:
        problems[f"{path}.sudden_death"] = "only a lobby event (a [...lobby] table) has sudden-death triggers"
    if "teams" in raw and "lobby" in raw:
        problems[f"{path}.teams"] = "an event is played in lobbies or in teams, not both: remove one table"
    elif "teams" in raw and raw.get("order") == Order.ASC.value:
        problems[f"{path}.teams"] = (
            'only an order = "desc" event has teams: a team\'s score is a sum that grows towards its goal'
        )


EntryList = tuple[str, str, Any]  # (path, list field, the raw list)
# The lists of cost entries: they carry no parameters.
_COSTS = frozenset({"entry_cost", "create_cost"})


def _entries(event: Mapping[str, Any], path: str) -> list[EntryList]:
    """Every list of reward or cost entries of an event (its teams' included) or a shared leaderboard."""
    lists = [(f"{path}.{name}", name, event.get(name)) for name in ("entry_cost", "completion_rewards")]
    teams = event.get("teams")
    for table, where in ((event, path), (teams if isinstance(teams, dict) else {}, f"{path}.teams")):
        for field in ("milestones", "rank_rewards"):
            lists += [
                (f"{where}.{field}[{i}].rewards", "rewards", item.get("rewards"))
                for i, item in _items(table, field)
            ]
    return lists


def _guild_entries(guilds: Mapping[str, Any], path: str) -> list[EntryList]:
    """The guilds' founding cost and the help donor's reward."""
    help_ = guilds.get("help")
    lists = [(f"{path}.create_cost", "create_cost", guilds.get("create_cost"))]
    if isinstance(help_, dict):
        lists.append((f"{path}.help.donor_reward", "donor_reward", help_.get("donor_reward")))
    return lists


def _crate_entries(crates: Mapping[str, Any], path: str) -> list[EntryList]:
    """The rewards of every row of every crate's table."""
    return [
        (f"{path}.{key}.table[{i}].rewards", "rewards", row.get("rewards"))
        for key, crate in crates.items()
        if isinstance(crate, dict)
        for i, row in _items(crate, "table")
    ]


def _entry_refusal(entry: Mapping[str, Any], resources_: Mapping[str, Any]) -> str | None:
    key, kind = entry.get("key"), entry.get("type")
    if not isinstance(key, str) or kind not in tuple(ResourceType):
        return None  # the converter names the type
    if key in RESERVED_RESOURCE_KEYS:
        return f"{key} is a system item: rewards and costs name the game's declared resources"
    declared = resources_.get(key)
    if not isinstance(declared, dict):
        return f"no {kind} named {key} is declared in this game's resources"
    if declared.get("type") != kind:
        return f"{key} is declared with type {declared.get('type')}, not {kind}"
    return None


def _entry_references(lists: list[EntryList], resources_: Mapping[str, Any], problems: Problems) -> None:
    """Each entry names a resource the game declares with its type; a cost carries no parameters."""
    for where, field, entries in lists:
        for i, entry in enumerate(entries if isinstance(entries, list) else ()):
            if not isinstance(entry, dict):
                continue  # the converter names the type
            refusal = _entry_refusal(entry, resources_)
            if refusal is not None:
                problems[f"{where}[{i}].key"] = refusal
            elif field in _COSTS and "parameters" in entry:
                problems[f"{where}[{i}].parameters"] = "a cost carries no parameters"


def _help_resources(
    guilds: Mapping[str, Any], path: str, resources_: Mapping[str, Any], problems: Problems
) -> None:
    """What members may ask for: resources the game declares (a help request names the type beside the key,
    and must match the declaration)."""
    help_ = guilds.get("help")
    keys = help_.get("resources") if isinstance(help_, dict) else None
    for i, key in enumerate(keys if isinstance(keys, list) else ()):
        where = f"{path}.help.resources[{i}]"
        if not isinstance(key, str) or where in problems:
            continue  # the converter names the type; a repeat is named already
        if key in RESERVED_RESOURCE_KEYS:
            problems[where] = f"{key} is a system item: members ask for the game's declared resources"
        elif not isinstance(resources_.get(key), dict):
            problems[where] = f"no resource named {key} is declared in this game's resources"


def _game_references(raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    """What events, shared leaderboards and guilds name in the rest of their game: declared resources of the
    right type, declared boards to feed, and an economy that can charge an entry cost (a studio-managed
    game keeps balances the service never sees)."""
    events, declared, boards = raw.get("events"), raw.get("resources"), raw.get("leaderboards")
    resources_ = declared if isinstance(declared, dict) else {}
    boards_ = boards if isinstance(boards, dict) else {}
    for key, board in boards_.items():
        if isinstance(board, dict):
            _entry_references(_entries(board, f"{path}.leaderboards.{key}"), resources_, problems)
    for key, event in events.items() if isinstance(events, dict) else ():
        if not isinstance(event, dict):
            continue
        where = f"{path}.events.{key}"
        if event.get("entry_cost") and raw.get("economy", Economy.STUDIO.value) == Economy.STUDIO.value:
            problems[f"{where}.entry_cost"] = (
                'only a platform-managed game (economy = "platform") charges an entry cost'
            )
        _feeds(event, where, boards_, problems)
        _entry_references(_entries(event, where), resources_, problems)
    guilds = raw.get("guilds")
    if isinstance(guilds, dict):
        _entry_references(_guild_entries(guilds, f"{path}.guilds"), resources_, problems)
        _help_resources(guilds, f"{path}.guilds", resources_, problems)
    crates = raw.get("crates")
    if isinstance(crates, dict):
        _entry_references(_crate_entries(crates, f"{path}.crates"), resources_, problems)


def _capacity(value: Any, path: str, problems: Problems) -> None:
    if _is_int(value) and not 2 <= value <= CAPACITY_MAX:
        problems[path] = f"must be from 2 to {CAPACITY_MAX} seats"


def _bot_bound(value: Any, path: str, problems: Problems) -> None:
    if _is_number(value) and (board_number_problem(value) is not None or value < 0):
        problems[path] = (
            "must be a finite number, not negative (a bot's score grows from 0), "
            f"at most {BOARD_NUMBER.maximum:,}"
        )


def _bot_score(raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    low: Any = raw.get("min")
    high: Any = raw.get("max")
    if _is_number(low) and _is_number(high) and low > high and f"{path}.max" not in problems:
        problems[f"{path}.max"] = f"must be at least min ({low})"


def _lobby(raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    if raw.get("fill_bots") is True and "bot_score" not in raw:
        problems[f"{path}.bot_score"] = (
            "is required when fill_bots = true: each bot's final score is drawn from it"
        )


def _team_size(value: Any, path: str, problems: Problems) -> None:
    if _is_int(value) and not 2 <= value <= TEAM_SIZE_MAX:
        problems[path] = f"must be from 2 to {TEAM_SIZE_MAX} members"


def _teams(raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    size, goal = raw.get("size"), raw.get("goal")
    stops = raw.get("on_complete") == OnComplete.STOP_CONTRIBUTIONS.value
    if raw.get("formation") == Formation.PARTNER.value and _is_int(size) and size != 2:
        problems.setdefault(f"{path}.size", 'must be 2 with formation = "partner": a partner team is a pair')
    if stops and "goal" not in raw:
        problems[f"{path}.goal"] = (
            'is required with on_complete = "stop_contributions": the team\'s score freezes at it'
        )
    for i, milestone in _items(raw, "milestones"):
        where, threshold = f"{path}.milestones[{i}].threshold", milestone.get("threshold")
        _positive(threshold, where, problems)  # a team's score starts at 0
        if (
            stops
            and _is_number(threshold)
            and _is_number(goal)
            and threshold > goal
            and where not in problems
        ):
            problems[where] = f"must be at most the goal ({goal}): the team's score freezes there"
    _unique_keys(raw, "milestones", path, problems)
    _no_overlap(raw, path, problems)
    if raw.get("rank_rewards") and raw.get("board") is not True:
        problems[f"{path}.rank_rewards"] = "pays the team board's ranks: needs board = true"


# --- shared leaderboards -------------------------------------------------------------------------------

# A rollover pays and moves each division in one step.
DIVISION_SIZE_MAX = 10_000


def _division_size(value: Any, path: str, problems: Problems) -> None:
    if _is_int(value) and not 2 <= value <= DIVISION_SIZE_MAX:
        problems[path] = f"must be from 2 to {DIVISION_SIZE_MAX} players"


def _distinct(value: Any, path: str, problems: Problems, noun: str) -> dict[str, int]:
    """The strings of a list, each with the index where it first appears; each repeat is a problem."""
    first_at: dict[str, int] = {}
    field = path.rsplit(".", 1)[-1]
    for i, item in enumerate(value if isinstance(value, list) else ()):
        if not isinstance(item, str):
            continue  # the converter names the type
        if item in first_at:
            problems[f"{path}[{i}]"] = f"repeats the {noun} of {field}[{first_at[item]}]"
        else:
            first_at[item] = i
    return first_at


def _tiers(value: Any, path: str, problems: Problems) -> None:
    if value == []:
        problems[path] = "must list at least one tier, from the lowest to the highest"
        return
    for tier, i in _distinct(value, path, problems, "tier").items():
        _key(tier, f"{path}[{i}]", problems)


def _divisions(raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    size, promote, relegate = raw.get("size"), raw.get("promote"), raw.get("relegate")
    if not (_is_int(size) and _is_int(promote) and _is_int(relegate)) or promote < 0 or relegate < 0:
        return
    if promote + relegate > size and f"{path}.size" not in problems:
        problems[f"{path}.promote"] = (
            f"promote + relegate ({promote} + {relegate}) must be at most the division size ({size})"
        )


def _leaderboard(raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    _no_overlap(raw, path, problems)


# --- guilds ---------------------------------------------------------------------------------------------

# Disbanding a guild ends every member's stint in one transaction.
GUILD_MEMBERS_MAX = 1_000
# The inactivity sweep's cutoff (now less leader_inactive_days) stays a valid date.
INACTIVE_DAYS_MAX = SECONDS_MAX // 86_400


def _max_members(value: Any, path: str, problems: Problems) -> None:
    if _is_int(value) and not 1 <= value <= GUILD_MEMBERS_MAX:
        problems[path] = f"must be from 1 to {GUILD_MEMBERS_MAX} members"


def _inactive_days(value: Any, path: str, problems: Problems) -> None:
    if _is_int(value) and not 1 <= value <= INACTIVE_DAYS_MAX:
        problems[path] = f"must be from 1 to {INACTIVE_DAYS_MAX} days (10 years)"


def _name_filter(value: Any, path: str, problems: Problems) -> None:
    for i, word in enumerate(value if isinstance(value, list) else ()):
        if isinstance(word, str) and not word.strip():
            problems[f"{path}[{i}]"] = "must not be blank: a blank entry would refuse every name, or none"


def _help_resource_keys(value: Any, path: str, problems: Problems) -> None:
    """At least one key, none twice; that each is declared is :func:`_help_resources`' to check."""
    if value == []:
        problems[path] = "must list at least one resource key members may ask for"
    else:
        _distinct(value, path, problems, "resource")


# --- crates ---------------------------------------------------------------------------------------------


def _within(bounds: Range, noun: str) -> Rule:
    def rule(value: Any, path: str, problems: Problems) -> None:
        if _is_int(value) and not bounds.minimum <= value <= bounds.maximum:
            problems[path] = f"must be a whole number from {bounds.describe()}{noun}"

    return rule


def _table_rows(value: Any, path: str, problems: Problems) -> None:
    if isinstance(value, list) and not (TABLE.min_items <= len(value) <= (TABLE.max_items or len(value))):
        problems[path] = f"must hold {TABLE.describe()} rows: a crate draws from its table"


# Rules per (model, field). A field rule sees the raw TOML value and checks only values of the right type.
_FIELD_RULES: dict[tuple[type, str], Rule] = {
    (Manifest, "studio"): _key,
    (Manifest, "exchange_rates"): _exchange_rates,
    (MemberManifest, "email"): _email,
    (GameManifest, "name"): _not_blank,
    (GameManifest, "exchange_rates"): _exchange_rates,
    (GameManifest, "platforms"): _platforms,
    (GiftingSettings, "cooldown_seconds"): _at_least(0),
    (GiftingSettings, "daily_send_limit"): _at_least(1),
    (GiftingSettings, "claim_expiry_seconds"): _at_least(1),
    (PresenceSettings, "ttl_seconds"): _at_least(1),
    (FriendsSettings, "max_friends"): _at_least(1),
    (ResourceManifest, "max_per_gift"): _within(AMOUNT, ""),
    (ApiKeyManifest, "rate_limits"): _rate_limits,
    (WebhookManifest, "url"): _url,
    (WebhookManifest, "events"): _events,
    (EventManifest, "name"): _not_blank,
    (EventManifest, "window_seconds"): _seconds(1),
    (EventManifest, "repeat_every_seconds"): _seconds(1),
    (EventManifest, "attempt_seconds"): _seconds(1),
    (EventManifest, "max_attempts"): _at_least(1),
    (EventManifest, "score_metric"): _key,
    (EventManifest, "target"): _finite,
    (EventManifest, "segments"): _segments,
    (LeaderboardManifest, "name"): _not_blank,
    (Divisions, "size"): _division_size,
    (Divisions, "tiers"): _tiers,
    (Divisions, "promote"): _at_least(0),
    (Divisions, "relegate"): _at_least(0),
    (Milestone, "key"): _key,
    (Milestone, "threshold"): _finite,
    (RankBand, "first"): _rank,
    (RankBand, "last"): _rank,
    (AntiCheat, "key"): _key,
    (AntiCheat, "metric"): _key,
    (AntiCheat, "limit"): _positive,
    (LobbySettings, "capacity"): _capacity,
    (LobbySettings, "fill_seconds"): _seconds(1),
    (BotScore, "min"): _bot_bound,
    (BotScore, "max"): _bot_bound,
    (SuddenDeath, "label"): _key,
    (SuddenDeath, "threshold"): _positive,
    (TeamSettings, "size"): _team_size,
    (TeamSettings, "goal"): _positive,
    (GuildSettings, "max_members"): _max_members,
    (GuildSettings, "name_filter"): _name_filter,
    (GuildSettings, "leader_inactive_days"): _inactive_days,
    (HelpSettings, "resources"): _help_resource_keys,
    (HelpSettings, "max_amount"): _within(AMOUNT, ""),
    (HelpSettings, "expiry_seconds"): _seconds(1),
    (HelpSettings, "cooldown_seconds"): _seconds(0),
    (CrateSettings, "rolls"): _within(ROLLS, " draws per crate"),
    (CrateSettings, "table"): _table_rows,
    (CrateRow, "weight"): _within(WEIGHT, ""),
    (Entry, "amount"): _within(AMOUNT, ""),
}
# Rules for the keys of a table of named entries.
_KEY_RULES: dict[tuple[type, str], Rule] = {
    (Manifest, "games"): _key,
    (Manifest, "members"): _key,
    (GameManifest, "resources"): _resource_key,
    (GameManifest, "api_keys"): _key,
    (GameManifest, "webhooks"): _key,
    (GameManifest, "events"): _key,
    (GameManifest, "leaderboards"): _key,
    (GameManifest, "crates"): _key,
}


def _parameters_only_for_items(raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    if raw.get("parameters") and raw.get("type") != "item":
        problems[f"{path}.parameters" if path else "parameters"] = "only items carry parameters"


# Rules that look at a whole table (several of its fields together).
_TABLE_RULES: dict[type, Callable[[Mapping[str, Any], str, Problems], None]] = {
    ResourceManifest: _parameters_only_for_items,
    Entry: _parameters_only_for_items,
    GameManifest: _game_references,
    EventManifest: _event,
    LeaderboardManifest: _leaderboard,
    Divisions: _divisions,
    Milestone: _rewards_required,
    RankBand: _rank_band,
    LobbySettings: _lobby,
    BotScore: _bot_score,
    TeamSettings: _teams,
}
# TOML names that are not the attribute's: a rank band's ``from`` and ``to`` (Python keywords).
_TOML_NAMES: dict[tuple[type, str], str] = {(RankBand, "first"): "from", (RankBand, "last"): "to"}


def _optional_table(hint: Any) -> Any:
    """``Divisions | None`` is checked as ``Divisions`` when given (left out, it is None)."""
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) in (typing.Union, types.UnionType) and len(args) == 1 and attrs.has(args[0]):
        return args[0]
    return hint


def _check(cls: type, raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    """Walk the raw TOML beside the model ``cls``: tables where tables belong, then the value rules."""
    hints = typing.get_type_hints(cls)
    for field in attrs.fields(cls):
        name = _TOML_NAMES.get((cls, field.name), field.name)
        if name not in raw:
            continue
        value, where = raw[name], f"{path}.{name}" if path else name
        hint = _optional_table(hints[field.name])
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin is tuple:
            if not isinstance(value, list):
                _replace(problems, where, "must be a list")
                continue
            if attrs.has(args[0]):
                for i, item in enumerate(value):
                    if isinstance(item, dict):
                        _check(args[0], item, f"{where}[{i}]", problems)
                    else:
                        problems[f"{where}[{i}]"] = "must be a table"
        elif attrs.has(hint) or origin is dict:
            if not isinstance(value, dict):
                problems[where] = "must be a table"
                continue
            if attrs.has(hint):
                _check(hint, value, where, problems)
            elif attrs.has(args[1]):
                key_rule = _KEY_RULES.get((cls, field.name))
                for key, entry in value.items():
                    if key_rule:
                        key_rule(key, f"{where}.{key}", problems)
                    if isinstance(entry, dict):
                        _check(args[1], entry, f"{where}.{key}", problems)
                    else:
                        problems[f"{where}.{key}"] = "must be a table"
        rule = _FIELD_RULES.get((cls, field.name))
        if rule:
            rule(value, where, problems)
    table_rule = _TABLE_RULES.get(cls)
    if table_rule:
        table_rule(raw, path, problems)


def _replace(problems: Problems, path: str, message: str) -> None:
    """``message`` about ``path`` replaces the converter's wording for it and for what it holds (cattrs
    reads a string or a table as a list of its characters or keys)."""
    for known in [p for p in problems if p.startswith((f"{path}[", f"{path}."))]:
        del problems[known]
    problems[path] = message


# --- parsing ------------------------------------------------------------------------------------------

_converter = make_converter(camel_case=False)
_converter.register_structure_hook(datetime, _timestamp)
_converter.register_structure_hook(
    RankBand,
    make_dict_structure_fn(
        RankBand,
        _converter,
        _cattrs_forbid_extra_keys=True,
        first=override(rename=_TOML_NAMES[RankBand, "first"]),
        last=override(rename=_TOML_NAMES[RankBand, "last"]),
    ),
)
_MAPPING_KEY = re.compile(r"""\[('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\]""")


_RANK_BAND_FIELD = re.compile(r"(\.rank_rewards\[\d+\]\.)(\w+)$")
_UNKNOWN = "is not a known field"


def _dotted(path: str, message: str) -> str:
    """cattrs names mapping entries ``games['space-race']``; the manifest's paths are ``games.space-race``.
    cattrs names a field by its attribute, so a rank band's ``first`` becomes ``from`` (its TOML name);
    an unknown key is named as it was written."""
    path = _MAPPING_KEY.sub(lambda m: "." + str(ast.literal_eval(m.group(1))), path)
    if message == _UNKNOWN:
        return path
    return _RANK_BAND_FIELD.sub(
        lambda m: m.group(1) + _TOML_NAMES.get((RankBand, m.group(2)), m.group(2)), path
    )


def _with_effective_rates(manifest: Manifest) -> Manifest:
    games = {
        key: attrs.evolve(game, exchange_rates={**manifest.exchange_rates, **game.exchange_rates})
        for key, game in manifest.games.items()
    }
    return attrs.evolve(manifest, games=games)


def _studio_areas(data: Mapping[str, Any], served: Sequence[str], problems: Problems) -> dict[str, Area]:
    """The studio's areas the manifest may use, by area name: those ``[plugins] areas`` names (each must
    load: its problem is reported under ``plugins.areas[i]``), those the server is told to serve besides
    (``serve --area``, ``LIVECORE_AREAS``: ``served``) and those installed by entry point. Read from the
    raw data, so the webhook rules know the areas' kinds even when other fields fail."""
    from livecore_server import plugins

    known: dict[str, Area] = {}
    named = data.get("plugins", {}).get("areas", []) if isinstance(data.get("plugins"), dict) else []
    for i, name in enumerate(named if isinstance(named, list) else []):
        if not isinstance(name, str):
            continue  # the converter reports its type
        try:
            area = plugins.load_area(name).area
        except plugins.PluginError as exc:
            problems[f"plugins.areas[{i}]"] = str(exc)
            continue
        known[area.name] = area
    for name in (*served, *plugins.installed()):
        # One that does not load is the server's refusal to start (serve names it), not the manifest's.
        with contextlib.suppress(plugins.PluginError):
            area = plugins.load_area(name).area
            known.setdefault(area.name, area)
    return known


def _area_sections(manifest: Manifest, known: Mapping[str, Area], problems: Problems) -> None:
    """Each game's ``areas.<name>`` section names a known area and passes that area's own check of it."""
    for key, game in manifest.games.items():
        for name, section in game.areas.items():
            where = f"games.{key}.areas.{name}"
            found = known.get(name)
            if found is None:
                problems[where] = "names no area of [plugins] areas, of --area or of an installed package"
            elif found.settings is not None:
                for field, message in found.settings(section).items():
                    problems[f"{where}.{field}" if field else where] = message


def parse_manifest(text: str, *, allow_private_webhooks: bool = False, areas: Sequence[str] = ()) -> Manifest:
    """Parse and validate manifest text; raise :class:`ManifestError` naming every problem.
    ``allow_private_webhooks``: webhook URLs may name private addresses (``apply
    --allow-private-webhooks``). ``areas``: the studio's areas the server serves besides those the
    manifest names (``apply --area``), whose sections and webhook kinds the manifest may use."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError({"manifest": f"is not valid TOML: {exc}"}) from None
    problems: Problems = {}
    manifest: Manifest | None = None
    try:
        manifest = _converter.structure(data, Manifest)
    except cattrs.BaseValidationError as exc:
        for path, message in field_errors(exc, camel_case=False).items():
            problems[_dotted(path, message)] = message
    # The value rules run even when types failed, so one run reports everything; their shape messages
    # ("must be a table") replace the converter's wording for the same path.
    known = _studio_areas(data, areas, problems)
    kinds = _AREA_KINDS.set(frozenset(core_areas.webhook_kinds(tuple(known.values()))))
    try:
        _check(Manifest, data, "", problems)
    finally:
        _AREA_KINDS.reset(kinds)
    _webhook_targets(data, allow_private_webhooks, problems)
    if manifest is not None:
        _area_sections(manifest, known, problems)
    if problems or manifest is None:
        raise ManifestError(problems or {"manifest": "is invalid"})
    return _with_effective_rates(manifest)


def load_manifest(
    path: str | os.PathLike[str], *, allow_private_webhooks: bool = False, areas: Sequence[str] = ()
) -> Manifest:
    """Read a manifest file (UTF-8 TOML) and parse it; an unreadable file is a :class:`ManifestError` too."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError({"manifest": f"cannot be read from {os.fspath(path)}: {exc}"}) from None
    return parse_manifest(text, allow_private_webhooks=allow_private_webhooks, areas=areas)


def demo_manifest_text() -> str:
    """The built-in demo manifest (``livecore-server demo``), as TOML text."""
    return resources.files("livecore_server").joinpath(_DEMO_RESOURCE).read_text(encoding="utf-8")


def demo_manifest() -> Manifest:
    """The built-in demo manifest, parsed."""
    return parse_manifest(demo_manifest_text())
