"""What an area's manifest section is, and the rules the sections share.

An area that takes part of a game's manifest (gifting, live events) declares its section once, as a
:class:`Section` in ``livecore/<area>/manifest.py``, and lists it in its :class:`livecore.area.Area`
(``manifest``); the parser (:mod:`livecore.manifest`) reads every registered area's sections, without
naming any. A section's module documents its own fields and rules; docs/reference/manifest-and-cli.md is
the user reference.

A section has three kinds of rules, each given the raw TOML value and checking only values of the right
type (types, unknown fields and enums are the converter's to name):

- field rules, by (record, field): ``(value, path, problems)``;
- table rules, by record: ``(table, path, problems)``, for several fields of one table together;
- for a section that is a table of named entries (``[games.<key>.events.<key>]``), a rule for each key;

and a check of the table it lives in (the game's, or an event's) with the whole game table beside it,
read-only: for what it names in the rest of its game (declared resources, shared boards, the economy).
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Callable, Mapping
from datetime import date, datetime, time
from typing import Any, TypeGuard

import attrs

from livecore.games import Entry, Milestone, RankBand, ResourceType, SettingsKey
from livecore.limits import AMOUNT, BOARD_NUMBER, FREE_FORM, Range, at, board_number_problem

Problems = dict[str, str]
#: ``(value, path, problems)``: a field's value, or a key of a table of named entries.
Rule = Callable[[Any, str, Problems], None]
#: ``(table, path, problems)``: several fields of one table together.
TableRule = Callable[[Mapping[str, Any], str, Problems], None]
#: ``(table, path, problems, game)``: the table a section lives in (the game's, or an event's), with the
#: whole game table beside it.
Check = Callable[[Mapping[str, Any], str, Problems, Mapping[str, Any]], None]


def _same(value: Any) -> Any:
    return value


#: The most a manifest or a population file may hold, in bytes of UTF-8: tomllib takes minutes and
#: gigabytes to read a file of tens of megabytes (a million resources: 47 MB, 138 s), while a manifest
#: declaring 20,000 resources, two lines each, is 0.9 MB.
TOML_BYTES_MAX = 4 * 1024 * 1024
#: The most parts a dotted key or a table header may have. tomllib keeps every prefix of a key as it reads
#: it, so a key of n parts costs memory in n squared (20,000 parts: 2.4 GB); no field of a manifest or a
#: population lies deeper than this, free-form objects (at most 32 levels) included.
KEY_PARTS_MAX = 64
_KEY_PART = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\\n]|\\.)*"|'[^'\n]*')"""
# A key where a key may start (a line's start, a table header, an inline table's opening or its comma)
# with more than KEY_PARTS_MAX parts. Read before tomllib, so that the nesting is never built.
_DEEP_KEY = re.compile(
    rf"(?:^|[{{,])[ \t]*\[{{0,2}}[ \t]*{_KEY_PART}(?:[ \t]*\.[ \t]*{_KEY_PART}){{{KEY_PARTS_MAX}}}",
    re.MULTILINE,
)


def read_toml(text: str) -> dict[str, Any]:
    """TOML text as its tables, for the manifest and the population files; ``ValueError`` saying what is
    wrong, which they report at their file's path. tomllib reads arrays and inline tables recursively: a
    file nesting them some hundreds deep exhausts the interpreter's stack, and is refused for it. A file
    over :data:`TOML_BYTES_MAX` or with a key of more than :data:`KEY_PARTS_MAX` parts is refused before
    tomllib reads it."""
    if len(text.encode("utf-8", "surrogatepass")) > TOML_BYTES_MAX:
        raise ValueError(f"is larger than {TOML_BYTES_MAX // (1024 * 1024)} MiB, the most a file may be")
    deep = _DEEP_KEY.search(text)
    if deep is not None:
        line = text.count("\n", 0, deep.start()) + 1
        raise ValueError(f"has a key of more than {KEY_PARTS_MAX} dotted parts (line {line})")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"is not valid TOML: {exc}") from None
    except RecursionError:
        raise ValueError("nests arrays or inline tables too deeply to be read") from None


def write_toml(data: Mapping[str, Any]) -> str:
    """TOML text :func:`read_toml` reads back as ``data`` (the tables tomllib reads: tables, arrays,
    texts, numbers, booleans, dates and times), each top-level key on a line of its own and every table
    under it inline: what a program writes to change a field of a file and read it again, not for people
    (its comments and layout are not kept)."""
    return "".join(f"{_toml_key(key)} = {_toml_value(value)}\n" for key, value in data.items())


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _toml_text(key)


def _toml_text(text: str) -> str:
    # JSON's escapes are TOML's; TOML refuses DEL unescaped, which JSON leaves as it is.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _toml_text(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return ("-inf" if value < 0 else "inf") if math.isinf(value) else repr(value)
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, Mapping):
        pairs = ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items())
        return f"{{ {pairs} }}" if pairs else "{}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"TOML has no value of type {type(value).__name__}")


@attrs.frozen
class Rules:
    """Value rules by the record they apply to (see the module's docstring)."""

    fields: Mapping[tuple[type, str], Rule] = attrs.field(factory=dict)
    tables: Mapping[type, TableRule] = attrs.field(factory=dict)


@attrs.frozen(eq=False)
class Section:
    """One area's section of a game's manifest.

    - ``key``: its table's key, under ``[games.<key>]``, or under the tables of the section ``within``;
    - ``record``: what its table is read into (``GiftingSettings``, ``dict[str, EventManifest]``; for a
      section within another's, the type of its field in that table: ``LobbySettings | None``);
    - ``default``: its value when the table is left out (a section within another's: its key's default);
    - ``settings``: its value as the game's settings hold it;
    - ``holds``: the key of the game's settings it is held under (its area's
      :class:`livecore.games.SettingsKey`, read with :meth:`livecore.games.GameSettings.of`), or for a
      section within another's, the key of the part of that table's settings it is held under (an event's
      lobby: ``EventSettings.of``); None for the game's own ``resources``, a field of
      :class:`livecore.games.GameSettings`;
    - ``structure``: how the converter reads a type only its records hold (an event's ``datetime``);
    - ``rules``: its value rules; ``key_rule``: the rule for each key of a table of named entries;
    - ``check``: its check of the table it lives in, with the whole game table (read-only);
    - ``flat``: a section within another's whose fields sit in that table itself;
    - ``remembered``: a game's section whose ``enabled`` the game remembers once it was on.
    """

    key: str
    record: Any = None
    default: Callable[[], Any] | None = None
    settings: Callable[[Any], Any] = _same
    holds: SettingsKey[Any] | None = None
    #: The key of the section whose table (or each of whose named entries) holds this one (``"events"``: a
    #: part of each event's table); None: the game's table. By key, so that the area extending another's
    #: table need not import it: the area owning the table declares the field.
    within: str | None = None
    structure: Mapping[type, Callable[[Any, Any], Any]] = attrs.field(factory=dict)
    rules: Rules = attrs.field(factory=Rules)
    key_rule: Rule | None = None
    check: Check | None = None
    #: For a section ``within`` another's: its fields sit directly in that table (a resource's
    #: ``giftable``), not in a table of their own under ``key``; ``record`` is the part they are read into.
    flat: bool = False
    #: For a game's section with an ``enabled`` switch (gifting): once an applied manifest turned it on,
    #: the game keeps its key in :attr:`livecore.games.Game.ever_enabled`, stored in the games table's
    #: ``<key>_ever_enabled`` column (the area's migration adds it).
    remembered: bool = False


#: The metadata key of the field a section ``within`` another's adds to that table's record: its
#: :attr:`Section.holds`, the key of the part of the table's settings it becomes.
HOLDS = "livecore.section.holds"
#: Beside :data:`HOLDS`, on each field a :attr:`Section.flat` section adds: the part record it is a field of.
FLAT = "livecore.section.flat"


def own_and_parts(table: Any) -> tuple[dict[str, Any], dict[SettingsKey[Any], Any]]:
    """A table's record (an event's, a resource's) as its own fields and the parts other areas add, by
    their keys: a nested part is one field, a flat part's fields are gathered into its record."""
    own: dict[str, Any] = {}
    parts: dict[SettingsKey[Any], Any] = {}
    flat: dict[SettingsKey[Any], tuple[type, dict[str, Any]]] = {}
    for field in attrs.fields(type(table)):
        value = getattr(table, field.name)
        if FLAT in field.metadata:
            flat.setdefault(field.metadata[HOLDS], (field.metadata[FLAT], {}))[1][field.name] = value
        elif HOLDS in field.metadata:
            parts[field.metadata[HOLDS]] = value
        else:
            own[field.name] = value
    parts.update({key: record(**values) for key, (record, values) in flat.items()})
    return own, parts


# --- shared value rules --------------------------------------------------------------------------------

KEY_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
RESERVED_RESOURCE_KEYS = frozenset({"sessions", "login_streak"})
# A window, a repeat, an attempt or a wait lasts at most 10 years: every time computed from one stays within
# datetime's range.
SECONDS_MAX = 10 * 365 * 86_400
# A window's close pays every rank a band covers in its one transaction.
PAID_RANKS_MAX = 10_000


def is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def at_least(minimum: int) -> Rule:
    def rule(value: Any, path: str, problems: Problems) -> None:
        if is_int(value) and value < minimum:
            problems[path] = f"must be at least {minimum}"

    return rule


def key(value: Any, path: str, problems: Problems) -> None:
    if isinstance(value, str) and not KEY_PATTERN.fullmatch(value):
        problems[path] = (
            "must be 1 to 64 characters: lower-case letters, digits, '-' and '_',"
            " starting with a letter or digit"
        )


def not_blank(value: Any, path: str, problems: Problems) -> None:
    if isinstance(value, str) and not value.strip():
        problems[path] = "must not be empty"


def seconds(minimum: int) -> Rule:
    def rule(value: Any, path: str, problems: Problems) -> None:
        if is_int(value) and not minimum <= value <= SECONDS_MAX:
            problems[path] = f"must be from {minimum} to {SECONDS_MAX} seconds (10 years)"

    return rule


def within(bounds: Range, noun: str) -> Rule:
    def rule(value: Any, path: str, problems: Problems) -> None:
        if is_int(value) and not bounds.minimum <= value <= bounds.maximum:
            problems[path] = f"must be a whole number from {bounds.describe()}{noun}"

    return rule


def finite(value: Any, path: str, problems: Problems) -> None:
    """A number that reaches a board: the bound every route holds it to (:data:`BOARD_NUMBER`)."""
    problem = board_number_problem(value) if is_number(value) else None
    if problem is not None:
        problems[path] = problem


def positive(value: Any, path: str, problems: Problems) -> None:
    """As :func:`finite`, and greater than 0."""
    if is_number(value) and (board_number_problem(value) is not None or not value > 0):
        problems[path] = f"must be a finite number greater than 0, at most {BOARD_NUMBER.maximum:,}"


def rank(value: Any, path: str, problems: Problems) -> None:
    if is_int(value) and not 1 <= value <= PAID_RANKS_MAX:
        problems[path] = f"must be a rank from 1 to {PAID_RANKS_MAX}"


def distinct(value: Any, path: str, problems: Problems, noun: str) -> dict[str, int]:
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


def items(raw: Mapping[str, Any], field: str) -> list[tuple[int, dict[str, Any]]]:
    """The tables of an array of tables, with their indexes (other items are the converter's to name)."""
    found = raw.get(field)
    return [
        (i, item) for i, item in enumerate(found if isinstance(found, list) else ()) if isinstance(item, dict)
    ]


def unique_keys(
    raw: Mapping[str, Any], field: str, path: str, problems: Problems, *, by: str = "key"
) -> None:
    first_at: dict[str, int] = {}
    for i, item in items(raw, field):
        found = item.get(by)
        if not isinstance(found, str):
            continue
        if found in first_at:
            problems[f"{path}.{field}[{i}].{by}"] = f"repeats the {by} of {field}[{first_at[found]}]"
        else:
            first_at[found] = i


def no_overlap(raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    """``band_rewards`` pays the first band holding a rank: two bands holding one rank are a mistake."""
    bands: list[tuple[int, int, int]] = []
    for i, band in items(raw, "rank_rewards"):
        first, last = band.get("from"), band.get("to")
        if not (is_int(first) and is_int(last) and 1 <= first <= last):
            continue
        for j, other_first, other_last in bands:
            if first <= other_last and other_first <= last:
                problems[f"{path}.rank_rewards[{i}]"] = (
                    f"ranks {first} to {last} overlap rank_rewards[{j}] (ranks {other_first} to {other_last})"
                )
                break
        bands.append((i, first, last))


def _rewards_required(raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    """A milestone or a rank band that pays nothing is a mistake."""
    rewards = raw.get("rewards")
    if rewards is None or rewards == []:
        problems[f"{path}.rewards"] = "must list at least one reward entry"


def _rank_band(raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    first, last = raw.get("from"), raw.get("to")
    if is_int(first) and is_int(last) and last < first and f"{path}.to" not in problems:
        problems[f"{path}.to"] = f"must be at least from ({first})"
    _rewards_required(raw, path, problems)


def free_form(value: Any, path: str, problems: Problems) -> None:
    """An item's ``parameters``, which a grant carries to the player as given: held to the API's limits
    on a free-form object (:data:`~livecore.limits.FREE_FORM`), so that no manifest stores what no request
    may (a NaN, an infinity, a string past the size, nesting past the depth), named by its path inside."""
    found = FREE_FORM.problem(value) if isinstance(value, dict) else None
    if found is not None:
        where, problem = found
        problems[at(path, where)] = problem


def parameters_only_for_items(raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    if raw.get("parameters") and raw.get("type") != "item":
        problems[f"{path}.parameters" if path else "parameters"] = "only items carry parameters"


#: The rules of the records several sections hold: reward and cost entries, milestones, rank bands.
SHARED = Rules(
    fields={
        (Entry, "amount"): within(AMOUNT, ""),
        (Entry, "parameters"): free_form,
        (Milestone, "key"): key,
        (Milestone, "threshold"): finite,
        (RankBand, "first"): rank,
        (RankBand, "last"): rank,
    },
    tables={Entry: parameters_only_for_items, Milestone: _rewards_required, RankBand: _rank_band},
)
# TOML names that are not the attribute's: a rank band's ``from`` and ``to`` (Python keywords).
TOML_NAMES: dict[tuple[type, str], str] = {(RankBand, "first"): "from", (RankBand, "last"): "to"}


# --- entries naming the game's resources -----------------------------------------------------------------

#: One list of reward or cost entries: (its path, whether it is a cost, the raw list).
EntryList = tuple[str, bool, Any]


def reward_lists(table: Mapping[str, Any], path: str) -> list[EntryList]:
    """The rewards of a table's milestones and rank bands."""
    return [
        (f"{path}.{field}[{i}].rewards", False, item.get("rewards"))
        for field in ("milestones", "rank_rewards")
        for i, item in items(table, field)
    ]


def declared_resources(game: Mapping[str, Any]) -> Mapping[str, Any]:
    """The raw ``[games.<key>.resources]`` table (empty when it is not a table)."""
    found = game.get("resources")
    return found if isinstance(found, dict) else {}


def resource_refusal(key_: str, game: Mapping[str, Any], kind: str | None = None) -> str | None:
    """Why ``key_`` names no resource ``game`` (its raw table) declares, of type ``kind`` when given; None
    when it does. Every section naming a resource is held to it: a built-in area's reward and cost entries,
    what guild members may ask for, and a studio's area's settings (:attr:`livecore.area.Area.settings`,
    docs/extending.md)."""
    if key_ in RESERVED_RESOURCE_KEYS:
        return f"{key_} is a system item, not one of the game's declared resources"
    declared = declared_resources(game).get(key_)
    if not isinstance(declared, dict):
        return f"no {kind or 'resource'} named {key_} is declared in this game's resources"
    if kind is not None and declared.get("type") != kind:
        return f"{key_} is declared with type {declared.get('type')}, not {kind}"
    return None


def _entry_refusal(entry: Mapping[str, Any], game: Mapping[str, Any]) -> str | None:
    key_, kind = entry.get("key"), entry.get("type")
    if not isinstance(key_, str) or kind not in tuple(ResourceType):
        return None  # the converter names the type
    return resource_refusal(key_, game, kind)


def entry_references(lists: list[EntryList], game: Mapping[str, Any], problems: Problems) -> None:
    """Each entry names a resource the game declares with its type; a cost carries no parameters."""
    for where, cost, entries in lists:
        for i, entry in enumerate(entries if isinstance(entries, list) else ()):
            if not isinstance(entry, dict):
                continue  # the converter names the type
            refusal = _entry_refusal(entry, game)
            if refusal is not None:
                problems[f"{where}[{i}].key"] = refusal
            elif cost and "parameters" in entry:
                problems[f"{where}[{i}].parameters"] = "a cost carries no parameters"
