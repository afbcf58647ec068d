"""Limits on what a request may carry (docs/reference/conventions.md#limits), as rule objects.

Each limit is declared once, as one of these objects: next to the rule it belongs to (``identity.NAME``,
``presence.STATUS``, ...) or here when many fields share it (:data:`FREE_TEXT`, :data:`ID`,
:data:`FREE_FORM`). Three places read the same object:

- the core checks it (``rule.check(value, field)``) where the value enters a command, so an embedded
  simulation refuses what the server refuses, in the same order (a banned player's write is refused for
  the ban before its fields are looked at);
- a wire model names it in its field's metadata (``attrs.field(metadata=limited(NAME))``), and the OpenAPI
  documents and the reference publish it from there (:func:`rule_of`);
- the wire converter checks, as it reads any request and before anything else, what does not depend on
  the route: no string holds NUL, and the fields whose rule is ``plain`` (names and ids) hold no other
  control or format character (:func:`character_problem`); integers fit in signed 64 bits
  (:data:`INT64_MIN`, :data:`INT64_MAX`), in free-form objects too, whose numbers are finite
  (:func:`json_problem`).
"""

from __future__ import annotations

import functools
import math
import re
import sys
import unicodedata
from collections.abc import Sized
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, TypeVar

import attrs
import orjson

from livecore.clock import parse_ts
from livecore.errors import invalid_request

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
JSON_DEPTH_MAX = 32  # nesting of a request body, its top-level object included

# Control (Cc), format (Cf: zero-width, bidirectional marks and overrides) and surrogate (Cs) characters.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})
_ASCII_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def character_problem(value: str, *, plain: bool) -> str | None:
    """What is wrong with the characters of ``value``: NUL anywhere; with ``plain`` (names and ids), any
    control or format character. ``None`` when nothing is."""
    if "\x00" in value:
        return "must not contain NUL characters"
    if plain:
        if value.isascii():
            bad = _ASCII_CONTROL.search(value) is not None
        else:
            bad = any(unicodedata.category(c) in _REFUSED_CATEGORIES for c in value)
        if bad:
            return "must not contain control or format characters"
    return None


@functools.cache
def _refused_class(plain: bool) -> str:
    """The body of a regular-expression class of the characters :func:`character_problem` refuses: NUL,
    and with ``plain`` every control and format character of this interpreter's Unicode database.
    Surrogates are left out: no UTF-8 request carries one, and validators whose strings are UTF-8 (Rust's)
    refuse a pattern that names them. Code points of the Basic Multilingual Plane are written
    ``\\uXXXX``, which Python's ``re`` and ECMA-262 both read; the few above it as the characters
    themselves, which both read in a class (ECMA-262 with its ``u`` flag, as JSON Schema validators use
    it)."""
    if not plain:
        return "\\u0000"
    spans: list[tuple[int, int]] = []
    for code in range(sys.maxunicode + 1):
        if unicodedata.category(chr(code)) in _REFUSED_CATEGORIES - {"Cs"}:
            if spans and spans[-1][1] == code - 1:
                spans[-1] = (spans[-1][0], code)
            else:
                spans.append((code, code))

    def one(code: int) -> str:
        return f"\\u{code:04x}" if code <= 0xFFFF else chr(code)

    return "".join(one(a) if a == b else f"{one(a)}-{one(b)}" for a, b in spans)


def _refuse(field: str, problem: str) -> Exception:
    return invalid_request(f"{field} {problem}.", {field: problem})


def _characters(n: int) -> str:
    return f"{n:,} character" + ("" if n == 1 else "s")


@attrs.frozen
class Text:
    """A string's rule. ``trim``: lengths count after trimming white space, and the trimmed value is the one
    kept. ``plain``: a name or an id, so no control or format character either (NUL never, in any
    string)."""

    min_length: int = 0
    max_length: int | None = None
    trim: bool = False
    plain: bool = False
    # A regular expression the whole value matches (in the syntax Python's ``re`` and ECMA-262 share),
    # and what it means in words: ``form=("[A-Za-z]{3}", "three letters")``.
    form: tuple[str, str] | None = None

    def length_text(self) -> str:
        if self.max_length is None:
            text = f"at least {_characters(self.min_length)}"
        elif self.min_length == self.max_length:
            text = f"exactly {_characters(self.max_length)}"
        elif self.min_length:
            text = f"{self.min_length:,} to {_characters(self.max_length)}"
        else:
            text = f"at most {_characters(self.max_length)}"
        return text + (" after trimming" if self.trim else "")

    def describe(self) -> str:
        """The rule in words, as the reference and the OpenAPI documents give it."""
        if self.form is not None:
            return self.form[1]
        text = self.length_text()
        return text + "; no control or format characters" if self.plain else text

    def pattern(self) -> str:
        """The rule's characters as a JSON Schema ``pattern``: none that :func:`character_problem`
        refuses and, for a trimmed value that may not be empty, one that is not white space. Anchored
        with a lookahead for the end rather than ``$``, which Python's ``re`` also matches before a
        final newline (a control character)."""
        end = "(?![\\s\\S])"
        if self.form is not None:
            return f"^(?:{self.form[0]}){end}"
        refused = _refused_class(self.plain)
        if self.trim and self.min_length:
            return f"^[^{refused}]*[^{refused}\\s][^{refused}]*{end}"
        return f"^[^{refused}]*{end}"

    def problem(self, value: str) -> str | None:
        bad = character_problem(value, plain=self.plain)
        if bad is not None:
            return bad
        if self.form is not None and re.fullmatch(self.form[0], value) is None:
            return f"must be {self.form[1]}"
        length = len(value.strip() if self.trim else value)
        too_long = self.max_length is not None and length > self.max_length
        return f"must be {self.length_text()}" if too_long or length < self.min_length else None

    def check(self, value: str, field: str) -> str:
        """``value`` (trimmed, with ``trim``), or a 400 ``invalid_request`` naming ``field``."""
        problem = self.problem(value)
        if problem is not None:
            raise _refuse(field, problem)
        return value.strip() if self.trim else value

    def check_optional(self, value: str | None, field: str) -> str | None:
        return None if value is None else self.check(value, field)


TOO_DEEP = f"must not nest deeper than {JSON_DEPTH_MAX} levels"
NOT_FINITE = "must be a finite number"
NOT_INT64 = "must fit in signed 64 bits"


def json_problem(value: Any, depth: int = 1) -> tuple[str, str] | None:
    """Where and what is wrong with a JSON value a request or the manifest carries, ``value`` being at
    nesting ``depth`` (1: it is the top): a number that is not finite (JSON has no NaN or infinity, so a
    client could not read it back), an integer outside signed 64 bits (no store or client holds it), or
    arrays and objects nested deeper than :data:`JSON_DEPTH_MAX` (named as ``value`` itself). Where is a
    path from ``value`` (``level``, ``tags[2]``; ``""`` for ``value`` itself, see :func:`at`); ``None``
    when nothing is wrong. Recursive: the depth limit bounds it."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return None
    if isinstance(value, int):
        return None if INT64_MIN <= value <= INT64_MAX else ("", NOT_INT64)
    if isinstance(value, float):
        return None if math.isfinite(value) else ("", NOT_FINITE)
    if isinstance(value, dict | list):
        if depth > JSON_DEPTH_MAX:
            return "", TOO_DEEP
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            found = json_problem(item, depth + 1)
            if found is not None:
                where, problem = found
                if where == "" and problem == TOO_DEEP:
                    return found  # the whole value is too deep, not one of its members
                return at(f"[{key}]" if isinstance(key, int) else str(key), where), problem
    return None


def at(field: str, where: str) -> str:
    """The wire path of ``where`` (a path :func:`json_problem` gives) inside ``field``."""
    if not where:
        return field
    return f"{field}{where}" if where.startswith("[") else f"{field}.{where}"


@attrs.frozen
class FreeForm:
    """A free-form JSON object the service stores as given: at most ``max_bytes`` as compact JSON (UTF-8),
    and a value :func:`json_problem` finds nothing wrong with."""

    max_bytes: int

    def describe(self) -> str:
        return f"at most {self.max_bytes // 1024} KiB as compact JSON"

    def problem(self, value: dict[str, Any]) -> tuple[str, str] | None:
        """Where and what is wrong with ``value`` (as :func:`json_problem` says it); ``None`` when
        nothing is."""
        found = json_problem(value)
        if found is None and len(orjson.dumps(value)) > self.max_bytes:
            return "", f"must be {self.describe()}"
        return found

    def check(self, value: dict[str, Any] | None, field: str) -> dict[str, Any] | None:
        """``value``, or a 400 ``invalid_request`` naming ``field`` or the path inside it at fault."""
        found = None if value is None else self.problem(value)
        if found is not None:
            where, problem = found
            raise _refuse(at(field, where), problem)
        return value


_Number = TypeVar("_Number", int, float)


@attrs.frozen
class Range:
    """A number's bounds, both included."""

    minimum: int
    maximum: int

    def describe(self) -> str:
        return f"{self.minimum:,} to {self.maximum:,}"

    def check(self, value: _Number, field: str) -> _Number:
        if not self.minimum <= value <= self.maximum:
            raise _refuse(field, f"must be from {self.describe()}")
        return value


@attrs.frozen
class Count:
    """How many items a list may hold."""

    min_items: int = 0
    max_items: int | None = None
    unique: bool = False  # no item twice (the check is the list's owner's, in its order of refusals)

    def describe(self) -> str:
        if self.max_items is None:
            text = f"at least {self.min_items:,}"
        elif self.min_items:
            text = f"{self.min_items:,} to {self.max_items:,}"
        else:
            text = f"at most {self.max_items:,}"
        return text + ", none twice" if self.unique else text

    def check(self, items: Sized, field: str) -> None:
        too_many = self.max_items is not None and len(items) > self.max_items
        if too_many or len(items) < self.min_items:
            raise _refuse(field, f"must have {self.describe()} items")


_LAST_MS = time(23, 59, 59, 999_000)


@attrs.frozen
class Moment:
    """A point in time a query names: a date (``2026-11-25``, a whole UTC day) or an RFC 3339 timestamp
    with its offset (``2026-11-25T10:00:00Z``)."""

    def describe(self) -> str:
        return "a date (YYYY-MM-DD) or an RFC 3339 timestamp"

    def parse(self, value: str, field: str, *, end: bool = False) -> datetime:
        """The instant ``value`` names: a date's first millisecond, or with ``end`` its last."""
        try:
            if len(value) == 10:
                return datetime.combine(date.fromisoformat(value), _LAST_MS if end else time(), UTC)
            return parse_ts(value)
        except (ValueError, OverflowError):
            raise _refuse(field, "must be a date or a timestamp") from None

    def check(self, value: str, field: str) -> str:
        self.parse(value, field)
        return value


#: A date or a timestamp a query names.
MOMENT = Moment()

Rule = Text | FreeForm | Range | Moment

_RULE = "limit"
_ITEMS = "items"


def limited(rule: Rule | None = None, *, count: Count | None = None) -> dict[str, Any]:
    """Field metadata naming the field's rule (for a list: the rule of each item; for a mapping: of each
    value) and, for a list or a mapping, how many items or keys it may hold:
    ``attrs.field(default=None, metadata=limited(FREE_TEXT))``."""
    out: dict[str, Any] = {}
    if rule is not None:
        out[_RULE] = rule
    if count is not None:
        out[_ITEMS] = count
    return out


def rule_of(field: attrs.Attribute[Any]) -> Rule | None:
    rule: Rule | None = field.metadata.get(_RULE)
    return rule


def count_of(field: attrs.Attribute[Any]) -> Count | None:
    count: Count | None = field.metadata.get(_ITEMS)
    return count


#: Any string of a request that names no rule: no NUL.
ANY_TEXT = Text()
#: Free-form text the service stores (``reason``, notes, ``sourceRefId``), unless a field says otherwise.
FREE_TEXT = Text(max_length=200)
#: Ids and keys: external player ids, record ids, economy keys, a purchase's store fields.
ID = Text(min_length=1, max_length=200, plain=True)
#: Free-form objects the service stores as given (``playerContext``, ``metadata``, item ``parameters``).
FREE_FORM = FreeForm(max_bytes=4096)
#: Any integer of a request.
INT64 = Range(INT64_MIN, INT64_MAX)
#: The most one change of a resource moves: far above any real grant, far below integer trouble.
MAX_AMOUNT = 1_000_000_000_000
#: An amount in a reward, grant, crate, gift or donation entry, on every route and in the manifest.
AMOUNT = Range(1, MAX_AMOUNT)
#: An integer that may not be negative (a floor on an amount).
NOT_NEGATIVE = Range(0, INT64_MAX)
#: How many rows a page of a list holds (``limit``), where the list says no other bound.
PAGE = Range(1, 200)
#: Where a page of a list starts (``offset``): at most 2^62, so that offset plus limit fits in 64 bits.
OFFSET = Range(0, 2**62)
#: The largest whole number a JSON double (so every client) and a database float hold exactly.
SAFE_INTEGER_MAX = 2**53 - 1
#: Every number that reaches a score, a metric, a threshold or a board, on every route and in the
#: manifest: finite (a NaN or an infinity fails the range) and within +-(2^53 - 1).
BOARD_NUMBER = Range(-SAFE_INTEGER_MAX, SAFE_INTEGER_MAX)


def saturate(value: float) -> float:
    """A board's sum or total kept within :data:`BOARD_NUMBER`: it stops at the bound rather than grow
    past what a client reads exactly (or, summed on, to an infinity a board could not rank)."""
    return max(-SAFE_INTEGER_MAX, min(SAFE_INTEGER_MAX, value))


def on_a_board(_: object, attribute: attrs.Attribute[Any], value: float | None) -> None:
    """An attrs validator of a record's score: no board ever holds a number outside
    :data:`BOARD_NUMBER`. Requests are refused before they reach one; this makes a slip a failed write
    rather than a stored score no client can read."""
    if value is not None and board_number_problem(value) is not None:
        raise ValueError(f"{attribute.name} {value!r} is outside the board bound")


def board_number_problem(value: object) -> str | None:
    """What is wrong with a number that reaches a board (a boolean is not a number); ``None`` when
    nothing is."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "must be a number"
    if not BOARD_NUMBER.minimum <= value <= BOARD_NUMBER.maximum:  # NaN compares false: refused too
        return f"must be a finite number from {BOARD_NUMBER.describe()}"
    return None


def check_board_number(value: float, field: str) -> float:
    """``value`` as :func:`board_number_problem` allows it, or a 400 ``invalid_request`` naming ``field``."""
    problem = board_number_problem(value)
    if problem is not None:
        raise _refuse(field, problem)
    return value


def duration(value: timedelta) -> str:
    """``value`` in the largest whole unit that fits it, for the reference's limits table (``"15 min"``,
    ``"30 days"``; days only from two days on, so a day reads ``"24 h"``)."""
    total = int(value.total_seconds())
    if total % 86_400 == 0 and total >= 2 * 86_400:
        return f"{total // 86_400} days"
    for unit, size in (("h", 3600), ("min", 60)):
        if total % size == 0 and total >= size:
            return f"{total // size} {unit}"
    return f"{total} s"
