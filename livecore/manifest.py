"""The TOML manifest (docs/reference/manifest-and-cli.md#manifest): parse and validate its text into frozen
records, purely (no file, no database), so the server and the embedded core read one manifest alike.

The server reads a manifest's file and persists the result (``livecore-server apply`` and ``demo``,
:mod:`livecore_server.manifest`). A manifest is all or nothing: any problem raises :class:`ManifestError`,
whose ``problems`` maps each offending field path (``games.space-race.api_keys.ci-client.env``) to what is
wrong, and every problem is reported at once, not just the first.

Each area brings its own section of a game (:class:`livecore.section.Section`, declared in
``livecore/<area>/manifest.py`` with its fields and rules and listed in the area's
:attr:`livecore.area.Area.manifest`); the parser reads the registered areas' sections, naming none. A
studio's own area takes ``[games.<key>.areas.<name>]``, checked by its :attr:`livecore.area.Area.settings`
with the whole game table beside it, as a built-in section's check is (a resource it names must be declared).

Shape (unknown fields are refused at every depth; types are strict: a string is not an integer, ``1.5``
and ``true`` are not integers)::

    studio = "<key>"                                  required
    [exchange_rates]  <CUR> = <USD per unit>          optional, applies to every game
    [members.<key>]   email, role = "OWNER" | "ADMIN" | "GAME_ADMIN" | "GAME_DEVELOPER" | "GAME_DEBUGGER" |
                      "VIEWER" (both required): the studio's operators (docs/operators.md)
    [plugins]         areas = ["<package>", ...]: the studio's own areas (docs/extending.md)
    [games.<key>]     name (required), economy = "studio" (default) | "platform",
                      platforms = ["<key>", ...] (the game's own platform keys, beside the built-in ones)
      .<section>         each registered area's section, documented in its module
                         (``livecore/<area>/manifest.py``; the list: docs/reference/manifest-and-cli.md)
      .api_keys.<name>   env = "test" | "live" (required),
                         permission = "client_sdk" | "server_integration" (required),
                         rate_limits = { <bucket> = <per minute> } (optional)
      .webhooks.<name>   env, url, events (all required)
      .exchange_rates    <CUR> = <USD per unit>       optional, per game, overrides the top level per currency
      .areas.<name>      a studio's area's section, checked by that area against the whole game

Defaults come from the areas' settings records (``livecore/<area>/settings.py``, the single source of the
defaults).

Rules beyond types (each area's section module lists its own):

- Keys of ``studio``, ``games``, ``members``, ``api_keys``, ``webhooks`` and of every table of named
  entries match ``[a-z0-9][a-z0-9_-]{0,63}`` (the whole key; a trailing newline does not pass).
- ``name``: not blank.
- ``rate_limits``: keys are the bucket names of docs/reference/conventions.md#rate-limits (``sdk_read``,
  ``sdk_write``, ``server_api``, ``admin``), values integers from 1 to 1,000,000 requests per minute. A bucket
  the key's permission never uses is accepted and has no effect. ``open_streams`` (1 to 1,000,000) is the
  most event-board streams the key holds open at once (livecore_server/stream_slots.py).
- Webhook ``url``: ``https://`` with a host, or ``http://`` only for a loopback host (``localhost``,
  ``127.0.0.0/8``, ``[::1]``) (docs/reference/webhooks.md#endpoints-and-routing), whatever the endpoint's
  environment; no whitespace, a valid port. Its host passes the address policy of
  :mod:`livecore.webhooks.targets` as far as the URL shows it: never a link-local or metadata
  address or name, a private address only with ``allow_private_webhooks``.
- Webhook ``events``: a non-empty list of non-empty strings without repeats; ``"*"`` (every kind) only alone.
  Each kind must be one the service sends (the installed areas' kinds, docs/reference/webhooks.md#kinds),
  or one of a studio's area the manifest may use; the refusal lists the known kinds.
- ``exchange_rates`` (docs/reference/economy.md#purchases): currency codes are 3 upper-case letters, rates
  finite and > 0. USD is always known (1.0) and may be omitted; declaring it with any other value is refused.
  The top-level table applies to every game; a game's own ``[games.<key>.exchange_rates]`` overrides it
  currency by currency. ``GameManifest.exchange_rates`` holds the effective (merged) rates, without USD;
  ``settings()`` adds USD.
- Reward and cost entries anywhere (``type``, ``key``, ``amount``, ``parameters``) name a resource the game
  declares with that type (never a system item: ``sessions``, ``login_streak``), ``amount`` 1 to 10^12;
  ``parameters`` only on items, and never on a cost. An item's ``parameters`` (its resource's and an
  entry's) follow the API's limits on a free-form object (:data:`livecore.limits.FREE_FORM`). Milestones
  and rank bands (``from``, ``to``: ranks from 1 to 10,000, ``to`` >= ``from``) list at least one reward
  (:mod:`livecore.section`).
- A TOML syntax error is reported at path ``manifest`` with tomllib's line and column; so are arrays or
  inline tables nested too deeply to be read, and (by the server) a file that cannot be read or is not
  UTF-8.
"""

from __future__ import annotations

import ast
import contextvars
import functools
import math
import re
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, override

from livecore import registry
from livecore.api.convert import field_errors, make_converter
from livecore.area import Area
from livecore.errors import FileProblems
from livecore.games import Economy, GameSettings, RankBand, SettingsKey
from livecore.platforms import PLATFORM
from livecore.ratelimit import BucketName
from livecore.roles import Role
from livecore.scope import Environment, Permission
from livecore.section import (
    FLAT,
    HOLDS,
    KEY_PATTERN,
    RESERVED_RESOURCE_KEYS,
    SHARED,
    TOML_NAMES,
    Check,
    Problems,
    Rule,
    Section,
    distinct,
    is_int,
    key,
    not_blank,
    read_toml,
)
from livecore.webhooks.targets import is_loopback_host, url_refusal

__all__ = [
    "KEY_PATTERN",
    "RESERVED_RESOURCE_KEYS",
    "ApiKeyManifest",
    "AreaLoader",
    "GameManifest",
    "Manifest",
    "ManifestError",
    "MemberManifest",
    "PluginsManifest",
    "WebhookManifest",
    "parse_manifest",
    "webhook_problems",
]

V = TypeVar("V")

# A plain check, not RFC 5322: one @, no spaces, a dot in the domain. Members sign in by link or SSO.
EMAIL_PATTERN = re.compile(r"(?=.{3,254}\Z)[^@\s]+@[^@\s]+\.[^@\s]+")
RATE_LIMIT_MAX = 1_000_000
_CURRENCY = re.compile(r"[A-Z]{3}")

#: The area of a package ``[plugins] areas`` names, or why it cannot be loaded (the server imports it).
AreaLoader = Callable[[str], Area | str]


class ManifestError(FileProblems):
    """The manifest was refused; nothing from it may be applied."""


# --- models -------------------------------------------------------------------------------------------


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
class GameManifest:
    """``[games.<key>]``. ``exchange_rates`` is effective: the top-level table merged with the game's own.
    ``sections`` holds each area's section by its key, read as an attribute too (``game.gifting``)."""

    name: str
    economy: Economy = Economy.STUDIO
    api_keys: dict[str, ApiKeyManifest] = attrs.field(factory=dict)
    webhooks: dict[str, WebhookManifest] = attrs.field(factory=dict)
    exchange_rates: dict[str, float] = attrs.field(factory=dict)
    platforms: tuple[str, ...] = ()
    areas: dict[str, dict[str, Any]] = attrs.field(factory=dict)
    sections: dict[str, Any] = attrs.field(factory=dict)
    #: The registered sections by key: how each becomes the game's settings (:attr:`Section.settings`), and
    #: under which key of theirs (:attr:`Section.holds`).
    declared: Mapping[str, Section] = attrs.field(factory=dict, eq=False, repr=False)

    def __getattr__(self, name: str) -> Any:
        sections = object.__getattribute__(self, "sections") if not name.startswith("_") else {}
        if name in sections:
            return sections[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def settings(self) -> GameSettings:
        """The game's settings as the core reads them: each section as its area converts it, under its area's
        key (a section without one is a field of the game's own: its resources), USD always known."""
        held: dict[SettingsKey[Any], Any] = {}
        own: dict[str, Any] = {}
        for key_, value in self.sections.items():
            section = self.declared[key_]
            if section.holds is None:
                own[key_] = section.settings(value)
            else:
                held[section.holds] = section.settings(value)
        return GameSettings(
            economy=self.economy,
            exchange_rates={"USD": 1.0, **self.exchange_rates},
            platforms=self.platforms,
            areas=self.areas,
            sections=held,
            **own,
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


# --- value rules of the manifest's own fields --------------------------------------------------------


def _email(value: Any, path: str, problems: Problems) -> None:
    if isinstance(value, str) and not EMAIL_PATTERN.fullmatch(value):
        problems[path] = "must be an email address (name@domain), at most 254 characters"


def _rate_limits(value: Any, path: str, problems: Problems) -> None:
    for bucket, limit in value.items():
        if is_int(limit) and not 1 <= limit <= RATE_LIMIT_MAX:
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


def _platforms(value: Any, path: str, problems: Problems) -> None:
    """The game's own platform keys: each one a key the SDK could send (livecore.platforms.PLATFORM),
    none twice."""
    first_at = distinct(value, path, problems, "platform")
    for key_, i in first_at.items():
        problem = PLATFORM.problem(key_)
        if problem is not None:
            problems[f"{path}[{i}]"] = problem
        elif key_ != key_.strip():
            problems[f"{path}[{i}]"] = "must not have surrounding whitespace: the SDK's header cannot send it"


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
    """The address policy (livecore.webhooks.targets) on each webhook URL whose syntax passed: what the URL
    shows of its target. Needs the operator's choice on private addresses, which the field rules do not
    see."""
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


# The studio's areas the manifest being parsed may use, by name (parse_manifest sets them): their webhook
# kinds and their sections are known only from them.
_STUDIO_AREAS: contextvars.ContextVar[Mapping[str, Area]] = contextvars.ContextVar(
    "studio_areas", default=types.MappingProxyType({})
)


def _known_kinds(kinds: list[str], path: str, problems: Problems) -> None:
    """A kind the service never sends would subscribe the endpoint to nothing, silently."""
    studio_kinds = registry.webhook_kinds(tuple(_STUDIO_AREAS.get().values()))
    known = [*registry.webhook_kinds(registry.installed()), *sorted(studio_kinds)]
    unknown = [kind for kind in kinds if kind != "*" and kind not in known]
    if unknown:
        problems[path] = (
            f"unknown event kind{'s' if len(unknown) > 1 else ''} {', '.join(unknown)};"
            f' known kinds: {", ".join(known)}, or "*" for all'
        )


# --- the grammar: the records and rules the registered areas' sections make ------------------------


def _studio_sections(game: Mapping[str, Any], path: str, problems: Problems, _: Mapping[str, Any]) -> None:
    """Each ``areas.<name>`` section of a game names a studio's area the manifest may use and passes that
    area's own check of it (:data:`livecore.area.SettingsCheck`), given the game's table as a built-in
    section's check is, in the same walk: every problem is named in one run, and the embedded simulation
    and ``apply`` refuse alike."""
    sections = game.get("areas")
    known = _STUDIO_AREAS.get()
    for name, section in sections.items() if isinstance(sections, dict) else ():
        where = f"{path}.areas.{name}"
        found = known.get(name)
        if found is None:
            problems[where] = "names no area of [plugins] areas, of --area or of an installed package"
        elif found.settings is not None and isinstance(section, dict):  # else the converter names it
            for field, message in found.settings(section, game).items():
                problems[f"{where}.{field}" if field else where] = message


def _as_check(rule: Callable[[Mapping[str, Any], str, Problems], None]) -> Check:
    """A table rule, run as a check (it does not look at the rest of the game)."""
    return lambda table, path, problems, _: rule(table, path, problems)


@attrs.frozen(eq=False)
class _Grammar:
    """What the parser reads a manifest with: the records the raw TOML structures into (a game's built
    from the sections), their converter, and every value rule by record."""

    sections: tuple[Section, ...]
    game: type
    manifest: type
    converter: cattrs.Converter
    fields: dict[tuple[type, str], Rule]
    keys: dict[tuple[type, str], Rule]
    tables: dict[type, list[Check]]

    def check(
        self, cls: type, raw: Mapping[str, Any], path: str, problems: Problems, game: Mapping[str, Any]
    ) -> None:
        """Walk the raw TOML beside the record ``cls``: tables where tables belong, then the value rules."""
        if cls is self.game:
            game = raw
        for field in attrs.fields(cls):
            name = _by_record(TOML_NAMES, cls, field.name) or field.name
            if name not in raw:
                continue
            value, where = raw[name], f"{path}.{name}" if path else name
            hint = _optional_table(_hints(cls).get(field.name, field.type))
            origin, args = typing.get_origin(hint), typing.get_args(hint)
            if origin is tuple:
                if not isinstance(value, list):
                    _replace(problems, where, "must be a list")
                    continue
                if attrs.has(args[0]):
                    for i, item in enumerate(value):
                        if isinstance(item, dict):
                            self.check(args[0], item, f"{where}[{i}]", problems, game)
                        else:
                            problems[f"{where}[{i}]"] = "must be a table"
            elif attrs.has(hint) or origin is dict:
                if not isinstance(value, dict):
                    problems[where] = "must be a table"
                    continue
                if attrs.has(hint):
                    self.check(hint, value, where, problems, game)
                elif attrs.has(args[1]):
                    key_rule = _by_record(self.keys, cls, field.name)
                    for key_, entry in value.items():
                        if key_rule:
                            key_rule(key_, f"{where}.{key_}", problems)
                        if isinstance(entry, dict):
                            self.check(args[1], entry, f"{where}.{key_}", problems, game)
                        else:
                            problems[f"{where}.{key_}"] = "must be a table"
            rule = _by_record(self.fields, cls, field.name) or self.fields.get(
                (field.metadata.get(FLAT), field.name)
            )
            if rule:
                rule(value, where, problems)
        flat = {field.metadata[FLAT] for field in attrs.fields(cls) if FLAT in field.metadata}
        for record in (*reversed(cls.__mro__), *sorted(flat, key=lambda part: part.__qualname__)):
            for table_rule in self.tables.get(record, ()):
                table_rule(raw, path, problems, game)

    def record(self, raw: Any) -> Manifest:
        """The parsed manifest as its records, each game's sections by key."""
        declared = {section.key: section for section in self.sections}
        games = {
            key_: GameManifest(
                name=game.name,
                economy=game.economy,
                api_keys=game.api_keys,
                webhooks=game.webhooks,
                exchange_rates={**raw.exchange_rates, **game.exchange_rates},
                platforms=game.platforms,
                areas=game.areas,
                sections={section.key: getattr(game, section.key) for section in self.sections},
                declared=declared,
            )
            for key_, game in raw.games.items()
        }
        return Manifest(
            studio=raw.studio,
            games=games,
            exchange_rates=raw.exchange_rates,
            members=raw.members,
            plugins=raw.plugins,
        )


@functools.cache
def _grammar(sections: tuple[Section, ...]) -> _Grammar:
    """The grammar of a game made of ``sections`` (the game's own, then those within another's record)."""
    own = tuple(section for section in sections if section.within is None)
    records = {section.key: _with_parts(section, sections) for section in own}
    game = attrs.make_class(
        "GameManifest",
        {
            "name": attrs.field(type=str),
            "economy": attrs.field(type=Economy, default=Economy.STUDIO),
            **{s.key: attrs.field(type=records[s.key], factory=s.default or dict) for s in own},
            "api_keys": attrs.field(type=dict[str, ApiKeyManifest], factory=dict),
            "webhooks": attrs.field(type=dict[str, WebhookManifest], factory=dict),
            "exchange_rates": attrs.field(type=dict[str, float], factory=dict),
            "platforms": attrs.field(type=tuple[str, ...], default=()),
            "areas": attrs.field(type=dict[str, dict[str, Any]], factory=dict),
        },
        frozen=True,
    )
    manifest = attrs.make_class(
        "Manifest",
        {
            "studio": attrs.field(type=str),
            "games": attrs.field(type=dict[str, game], factory=dict),  # type: ignore[valid-type]
            "exchange_rates": attrs.field(type=dict[str, float], factory=dict),
            "members": attrs.field(type=dict[str, MemberManifest], factory=dict),
            "plugins": attrs.field(type=PluginsManifest, factory=PluginsManifest),
        },
        frozen=True,
    )
    converter = make_converter(camel_case=False)
    for section in sections:
        for type_, hook in section.structure.items():
            converter.register_structure_hook(type_, hook)
    converter.register_structure_hook(
        RankBand,
        make_dict_structure_fn(
            RankBand,
            converter,
            _cattrs_forbid_extra_keys=True,
            first=override(rename=TOML_NAMES[RankBand, "first"]),
            last=override(rename=TOML_NAMES[RankBand, "last"]),
        ),
    )
    fields: dict[tuple[type, str], Rule] = {
        (manifest, "studio"): key,
        (manifest, "exchange_rates"): _exchange_rates,
        (MemberManifest, "email"): _email,
        (game, "name"): not_blank,
        (game, "exchange_rates"): _exchange_rates,
        (game, "platforms"): _platforms,
        (ApiKeyManifest, "rate_limits"): _rate_limits,
        (WebhookManifest, "url"): _url,
        (WebhookManifest, "events"): _events,
        **SHARED.fields,
    }
    keys: dict[tuple[type, str], Rule] = {
        (manifest, "games"): key,
        (manifest, "members"): key,
        (game, "api_keys"): key,
        (game, "webhooks"): key,
    }
    tables: dict[type, list[Check]] = {cls: [_as_check(rule)] for cls, rule in SHARED.tables.items()}
    holder = {section.key: _entry_record(section.record) for section in own}
    for section in sections:
        fields.update(section.rules.fields)
        for cls, rule in section.rules.tables.items():
            tables.setdefault(cls, []).append(_as_check(rule))
        if section.key_rule is not None:
            keys[holder[section.within] if section.within else game, section.key] = section.key_rule
    for section in sections:  # a table's checks of what its sections name run after its own rules
        if section.check is not None:
            tables.setdefault(holder[section.within] if section.within else game, []).append(section.check)
    tables.setdefault(game, []).append(_studio_sections)
    return _Grammar(own, game, manifest, converter, fields, keys, tables)


def _with_parts(section: Section, sections: tuple[Section, ...]) -> Any:
    """``section``'s record, its table (or each named entry's) extended with a field for each section
    ``within`` it (an event's ``lobby``), or with each field of a flat one (a resource's ``giftable``),
    which its record reads into its settings' parts (:func:`livecore.section.own_and_parts`)."""
    parts: dict[str, Any] = {}
    for s in sections:
        if s.within != section.key or s.holds is None:
            continue
        if not s.flat:
            parts[s.key] = attrs.field(type=s.record, default=s.holds.default, metadata={HOLDS: s.holds})
            continue
        hints = typing.get_type_hints(s.record)
        for field in attrs.fields(s.record):
            parts[field.name] = attrs.field(
                type=hints[field.name], default=field.default, metadata={HOLDS: s.holds, FLAT: s.record}
            )
    entry = _entry_record(section.record)
    if not parts:
        return section.record
    built = attrs.make_class(entry.__name__, parts, bases=(entry,), frozen=True)
    return dict[str, built] if typing.get_origin(section.record) is dict else built  # type: ignore[valid-type]


def _entry_record(record: Any) -> Any:
    """The record a section's table is read into, or each named entry's (``dict[str, EventManifest]``): the
    table a section ``within`` it lives in."""
    return typing.get_args(record)[1] if typing.get_origin(record) is dict else record


def _by_record(rules: Mapping[tuple[type, str], V], cls: type, field: str) -> V | None:
    """What ``rules`` hold for ``field`` of ``cls``, or of the record it extends (an event's table with the
    parts other areas add)."""
    return next((rules[record, field] for record in cls.__mro__ if (record, field) in rules), None)


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    """A record's field types (a record built from the sections has them in its fields already)."""
    return typing.get_type_hints(cls)


def _optional_table(hint: Any) -> Any:
    """``Divisions | None`` is checked as ``Divisions`` when given (left out, it is None)."""
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) in (typing.Union, types.UnionType) and len(args) == 1 and attrs.has(args[0]):
        return args[0]
    return hint


def _replace(problems: Problems, path: str, message: str) -> None:
    """``message`` about ``path`` replaces the converter's wording for it and for what it holds (cattrs
    reads a string or a table as a list of its characters or keys)."""
    for known in [p for p in problems if p.startswith((f"{path}[", f"{path}."))]:
        del problems[known]
    problems[path] = message


# --- parsing ------------------------------------------------------------------------------------------

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
        lambda m: m.group(1) + TOML_NAMES.get((RankBand, m.group(2)), m.group(2)), path
    )


def _studio_areas(
    data: Mapping[str, Any], load_area: AreaLoader | None, areas: Sequence[Area], problems: Problems
) -> dict[str, Area]:
    """The studio's areas the manifest may use, by area name: those ``[plugins] areas`` names (each must
    load: its problem is reported under ``plugins.areas[i]``), then ``areas``. Read from the raw data, so
    the webhook rules know the areas' kinds even when other fields fail."""
    known: dict[str, Area] = {}
    plugins = data.get("plugins")
    named = plugins.get("areas", []) if isinstance(plugins, dict) and load_area is not None else []
    for i, name in enumerate(named if isinstance(named, list) else []):
        if not isinstance(name, str) or load_area is None:
            continue  # the converter reports its type
        area = load_area(name)
        if isinstance(area, str):
            problems[f"plugins.areas[{i}]"] = area
            continue
        known[area.name] = area
    for area in areas:
        known.setdefault(area.name, area)
    return known


def parse_manifest(
    text: str,
    *,
    allow_private_webhooks: bool = False,
    load_area: AreaLoader | None = None,
    areas: Sequence[Area] = (),
) -> Manifest:
    """Parse and validate manifest text; raise :class:`ManifestError` naming every problem.
    ``allow_private_webhooks``: webhook URLs may name private addresses (``apply
    --allow-private-webhooks``). ``load_area``: loads the studio's areas ``[plugins] areas`` names (left
    out, they are not loaded); ``areas``: the studio's areas the manifest may use besides. A studio's
    area's ``[games.<key>.areas.<name>]`` sections and webhook kinds are known only from those."""
    try:
        data = read_toml(text)
    except ValueError as exc:
        raise ManifestError({"manifest": str(exc)}) from None
    problems: Problems = {}
    studio = _studio_areas(data, load_area, areas, problems)
    if problems:
        # An area named that does not load leaves its sections and webhook kinds unknown, so the rest of the
        # manifest would be refused for what follows from it (its section, a kind of it a webhook names)
        # and the cause would sit among those: it is told alone, as serve tells it.
        raise ManifestError(problems)
    # A studio's area's sections are read as the built-in ones are, beside them: one grammar of every
    # area the manifest may use (an area's sections claim their keys as it registers).
    try:
        every = registry.areas(studio.values())
    except registry.AreaConflict as exc:
        problems["plugins.areas"] = str(exc)
        every = registry.installed()
    grammar = _grammar(registry.sections(every))
    raw: Any = None
    try:
        raw = grammar.converter.structure(data, grammar.manifest)
    except cattrs.BaseValidationError as exc:
        for path, message in field_errors(exc, camel_case=False).items():
            problems[_dotted(path, message)] = message
    # The value rules run even when types failed, so one run reports everything; their shape messages
    # ("must be a table") replace the converter's wording for the same path.
    studio_areas = _STUDIO_AREAS.set(studio)
    try:
        grammar.check(grammar.manifest, data, "", problems, {})
    finally:
        _STUDIO_AREAS.reset(studio_areas)
    _webhook_targets(data, allow_private_webhooks, problems)
    manifest = None if raw is None else grammar.record(raw)
    if problems or manifest is None:
        raise ManifestError(problems or {"manifest": "is invalid"})
    return manifest
