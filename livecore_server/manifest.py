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
    [games.<key>]     name (required), economy = "studio" (default) | "platform"
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

Defaults come from :mod:`livecore.games` (the single source of the defaults).

Rules beyond types:

- Keys of ``studio``, ``games``, ``resources``, ``api_keys`` and ``webhooks`` match
  ``[a-z0-9][a-z0-9_-]{0,63}`` (the whole key; a trailing newline does not pass).
- ``name``: not blank.
- ``gifting.cooldown_seconds`` >= 0; ``gifting.daily_send_limit`` >= 1 (omit for unlimited);
  ``gifting.claim_expiry_seconds`` >= 1 (omit: gifts never expire); ``presence.ttl_seconds`` >= 1;
  ``friends.max_friends`` >= 1; ``resources.<key>.max_per_gift`` >= 1 (omit: no cap).
- Resource keys ``sessions`` and ``login_streak`` are reserved for system items and refused.
- ``costs_sender = true`` in a studio-managed game is accepted here; the gift route refuses such a gift at
  send time with ``gift_not_allowed`` (docs/reference/gifts.md#settings).
- ``rate_limits``: keys are the bucket names of docs/reference/conventions.md#rate-limits (``sdk_read``,
  ``sdk_write``, ``server_api``, ``admin``), values integers from 1 to 1,000,000 requests per minute. A bucket
  the key's permission never uses is accepted and has no effect.
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
- A TOML syntax error is reported at path ``manifest`` with tomllib's line and column; so is a file that
  cannot be read or is not UTF-8.
"""

from __future__ import annotations

import ast
import math
import os
import re
import tomllib
import typing
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

import attrs
import cattrs

from livecore.api.convert import field_errors, make_converter
from livecore.games import (
    Economy,
    FriendsSettings,
    GameSettings,
    GiftingSettings,
    PresenceSettings,
    Resource,
    ResourceType,
)
from livecore.ratelimit import BucketName
from livecore.scope import Environment, Permission
from livecore.webhooks.kinds import PAYLOAD_TYPES
from livecore_server.webhook_targets import is_loopback_host, url_refusal

__all__ = [
    "KEY_PATTERN",
    "RESERVED_RESOURCE_KEYS",
    "ApiKeyManifest",
    "GameManifest",
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
class WebhookManifest:
    """``[games.<key>.webhooks.<name>]``: ``events`` is ``("*",)`` for every kind."""

    env: Environment
    url: str
    events: tuple[str, ...]


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

    def settings(self) -> GameSettings:
        """The game's settings as the core reads them; resources keyed by resource key, USD always known."""
        return GameSettings(
            economy=self.economy,
            gifting=self.gifting,
            presence=self.presence,
            friends=self.friends,
            resources={key: res.to_resource(key) for key, res in self.resources.items()},
            exchange_rates={"USD": 1.0, **self.exchange_rates},
        )


@attrs.frozen
class Manifest:
    """The whole manifest: one studio and its games (in manifest order)."""

    studio: str
    games: dict[str, GameManifest] = attrs.field(factory=dict)
    exchange_rates: dict[str, float] = attrs.field(factory=dict)


# --- value rules (types, unknown fields and enums are the converter's) --------------------------------

Problems = dict[str, str]
Rule = Callable[[Any, str, Problems], None]


def _is_int(value: Any) -> bool:
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
            problems[f"{path}.{bucket}"] = f"must be between 1 and {RATE_LIMIT_MAX} requests per minute"


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


def _known_kinds(kinds: list[str], path: str, problems: Problems) -> None:
    """A kind the service never sends would subscribe the endpoint to nothing, silently."""
    unknown = [kind for kind in kinds if kind != "*" and kind not in PAYLOAD_TYPES]
    if unknown:
        problems[path] = (
            f"unknown event kind{'s' if len(unknown) > 1 else ''} {', '.join(unknown)};"
            f' known kinds: {", ".join(PAYLOAD_TYPES)}, or "*" for all'
        )


# Rules per (model, field). A field rule sees the raw TOML value and checks only values of the right type.
_FIELD_RULES: dict[tuple[type, str], Rule] = {
    (Manifest, "studio"): _key,
    (Manifest, "exchange_rates"): _exchange_rates,
    (GameManifest, "name"): _not_blank,
    (GameManifest, "exchange_rates"): _exchange_rates,
    (GiftingSettings, "cooldown_seconds"): _at_least(0),
    (GiftingSettings, "daily_send_limit"): _at_least(1),
    (GiftingSettings, "claim_expiry_seconds"): _at_least(1),
    (PresenceSettings, "ttl_seconds"): _at_least(1),
    (FriendsSettings, "max_friends"): _at_least(1),
    (ResourceManifest, "max_per_gift"): _at_least(1),
    (ApiKeyManifest, "rate_limits"): _rate_limits,
    (WebhookManifest, "url"): _url,
    (WebhookManifest, "events"): _events,
}
# Rules for the keys of a table of named entries.
_KEY_RULES: dict[tuple[type, str], Rule] = {
    (Manifest, "games"): _key,
    (GameManifest, "resources"): _resource_key,
    (GameManifest, "api_keys"): _key,
    (GameManifest, "webhooks"): _key,
}


def _parameters_only_for_items(raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    if raw.get("parameters") and raw.get("type") != "item":
        problems[f"{path}.parameters" if path else "parameters"] = "only items carry parameters"


# Rules that look at a whole table (several of its fields together).
_TABLE_RULES: dict[type, Callable[[Mapping[str, Any], str, Problems], None]] = {
    ResourceManifest: _parameters_only_for_items,
}


def _check(cls: type, raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    """Walk the raw TOML beside the model ``cls``: tables where tables belong, then the value rules."""
    hints = typing.get_type_hints(cls)
    for field in attrs.fields(cls):
        if field.name not in raw:
            continue
        value, where = raw[field.name], f"{path}.{field.name}" if path else field.name
        hint = hints[field.name]
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if attrs.has(hint) or origin is dict:
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


# --- parsing ------------------------------------------------------------------------------------------

_converter = make_converter(camel_case=False)
_MAPPING_KEY = re.compile(r"""\[('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\]""")


def _dotted(path: str) -> str:
    """cattrs names mapping entries ``games['space-race']``; the manifest's paths are ``games.space-race``."""
    return _MAPPING_KEY.sub(lambda m: "." + str(ast.literal_eval(m.group(1))), path)


def _with_effective_rates(manifest: Manifest) -> Manifest:
    games = {
        key: attrs.evolve(game, exchange_rates={**manifest.exchange_rates, **game.exchange_rates})
        for key, game in manifest.games.items()
    }
    return attrs.evolve(manifest, games=games)


def parse_manifest(text: str, *, allow_private_webhooks: bool = False) -> Manifest:
    """Parse and validate manifest text; raise :class:`ManifestError` naming every problem.
    ``allow_private_webhooks``: webhook URLs may name private addresses (``apply
    --allow-private-webhooks``)."""
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
            problems[_dotted(path)] = message
    # The value rules run even when types failed, so one run reports everything; their shape messages
    # ("must be a table") replace the converter's wording for the same path.
    _check(Manifest, data, "", problems)
    _webhook_targets(data, allow_private_webhooks, problems)
    if problems or manifest is None:
        raise ManifestError(problems or {"manifest": "is invalid"})
    return _with_effective_rates(manifest)


def load_manifest(path: str | os.PathLike[str], *, allow_private_webhooks: bool = False) -> Manifest:
    """Read a manifest file (UTF-8 TOML) and parse it; an unreadable file is a :class:`ManifestError` too."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError({"manifest": f"cannot be read from {os.fspath(path)}: {exc}"}) from None
    return parse_manifest(text, allow_private_webhooks=allow_private_webhooks)


def demo_manifest_text() -> str:
    """The built-in demo manifest (``livecore-server demo``), as TOML text."""
    return resources.files("livecore_server").joinpath(_DEMO_RESOURCE).read_text(encoding="utf-8")


def demo_manifest() -> Manifest:
    """The built-in demo manifest, parsed."""
    return parse_manifest(demo_manifest_text())
