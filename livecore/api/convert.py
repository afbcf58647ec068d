"""The wire converter: snake_case attributes <-> camelCase JSON, strict types, no unknown keys.

One cattrs converter for the whole contract. Structuring is strict where cattrs' defaults are lenient:
a string field refuses ``123``, an integer field refuses ``"1"``, ``1.5`` and ``true`` (and takes ``2.0``
as 2, as JSON Schema does), unknown keys are refused. :func:`structure` turns cattrs' errors into one 400
naming every offending field.

It also checks, for every request, what does not depend on the route (:mod:`livecore.limits`): no
string holds NUL (free-form objects included, keys too), a field whose declared rule is ``plain`` (names,
ids) holds no control or format character, and integers fit in signed 64 bits (free-form objects included,
whose numbers are finite too: :func:`~livecore.limits.json_problem`). A body's lengths and sizes
are the commands' to check, after the ban (:mod:`livecore.limits`); a query's are checked as it is read
(:func:`check_declared`).

Fields the contract marks "present only when ..." carry ``metadata={"omit_if_none": True}`` and are left out
of the JSON when ``None``.

A request field that may be left out, told apart from one sent as null (an edit: left out means "keep it as
it is"), is declared ``str | None | Absent = ABSENT``: the converter structures a given value as the type
without :class:`Absent`, and leaves the field out of the JSON it writes while it is ``ABSENT``.
"""

from __future__ import annotations

import ast
import enum
import functools
import re
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any, Final, TypeVar, cast

import attrs
import cattrs
from cattrs.cols import (
    homogenous_tuple_structure_factory,
    is_any_set,
    is_mapping,
    is_sequence,
    list_structure_factory,
    mapping_structure_factory,
)
from cattrs.fns import identity
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from livecore.api.parts import PARTS, holds_parts, parts_of
from livecore.clock import format_ts, parse_ts
from livecore.enums import Values
from livecore.errors import LivecoreError, invalid_request
from livecore.limits import (
    INT64_MAX,
    INT64_MIN,
    Count,
    Rule,
    Text,
    at,
    character_problem,
    count_of,
    json_problem,
    rule_of,
)

T = TypeVar("T")

OMIT_IF_NONE = {"omit_if_none": True}
# Field metadata: the default of a query parameter that the server decides per request, in words, for
# the reference (a default of None alone would read as "no default").
DEFAULT_IN_WORDS = "default_in_words"


class Absent(enum.Enum):
    """A request field left out (see the module docstring)."""

    ABSENT = "absent"


ABSENT: Final = Absent.ABSENT


def takes_absent(tp: Any) -> bool:
    """Whether a field of type ``tp`` may be left out as :data:`ABSENT`."""
    return typing.get_origin(tp) in (typing.Union, types.UnionType) and Absent in typing.get_args(tp)


def without_absent(tp: Any) -> Any:
    """``tp`` without :class:`Absent`: what a given value of the field is."""
    members = tuple(arg for arg in typing.get_args(tp) if arg is not Absent)
    return members[0] if len(members) == 1 else typing.Union[members]  # noqa: UP007 - a runtime tuple


@functools.cache
def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _strict_str(value: Any, _: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("must be a string")
    return value


def _request_str(value: Any, type_: Any) -> str:
    text = _strict_str(value, type_)
    if "\x00" in text:
        raise ValueError(_NUL)
    return text


def _strict_int(value: Any, _: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("must be an integer")
    return value


def _request_int(value: Any, type_: Any) -> int:
    if isinstance(value, float) and value.is_integer():
        # JSON has one kind of number, and JSON Schema counts 2.0 as the integer 2: so does a request. The
        # parser reads an integer past 64 bits as a float, rounded: -2^63 - 1 arrives as -2.0^63, so a
        # float of that size is past the bound whatever it rounds to.
        if abs(value) >= 2**63:
            raise ValueError("must fit in signed 64 bits")
        value = int(value)
    number = _strict_int(value, type_)
    if not INT64_MIN <= number <= INT64_MAX:
        raise ValueError("must fit in signed 64 bits")
    return number


def _strict_float(value: Any, _: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError("must be a number")
    return float(value)


def whole(value: float) -> float:
    """A number as the wire writes it: a whole one without a fraction (``100``, not ``100.0``), so a
    client reads back the score it wrote; JSON does not tell the two apart."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


def _strict_bool(value: Any, _: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError("must be a boolean")
    return value


def _strict_dict(value: Any, _: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TypeError("must be an object")
    return value


def _request_dict(value: Any, type_: Any) -> dict[str, Any]:
    found = _strict_dict(value, type_)
    if _holds_nul(found):
        raise ValueError(_NUL)
    wrong = json_problem(found)
    if wrong is not None:
        raise _Inside(*wrong)
    return found


class _Inside(ValueError):
    """A problem inside a free-form object, ``where`` being its path from the object (``level``,
    ``tags[2]``), so that the 400 names that path rather than the whole field."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(problem)
        self.where = where


_NUL = "must not contain NUL characters"


def _holds_nul(value: Any) -> bool:
    """Whether a JSON value (a free-form object's) holds NUL in any string, its keys included."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any("\x00" in k or _holds_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_holds_nul(v) for v in value)
    return False


def _plain(hook: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``hook`` followed by the character rule of names and ids, on the value or on each item of a list."""

    def structure(value: Any, type_: Any) -> Any:
        out = hook(value, type_)
        for text in out if isinstance(out, list) else (out,):
            if isinstance(text, str):
                problem = character_problem(text, plain=True)
                if problem is not None:
                    raise ValueError(problem)
        return out

    return structure


def _array(hook: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``hook`` (cattrs' own, for a list, tuple or set type) refusing anything but a JSON array."""

    def structure(value: Any, type_: Any) -> Any:
        if not isinstance(value, list):
            raise TypeError("must be an array")
        return hook(value, type_)

    return structure


def _is_array(tp: Any) -> bool:
    return is_sequence(tp) or is_any_set(tp)


def _object(hook: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``hook`` (cattrs' own, for a mapping type) refusing anything but a JSON object."""

    def structure(value: Any, type_: Any) -> Any:
        if not isinstance(value, dict):
            raise TypeError("must be an object")
        return hook(value, type_)

    return structure


def _array_hook(tp: Any, conv: cattrs.Converter) -> Callable[[Any, Any], Any]:
    """The hook of a list, tuple or set type: cattrs' own (with its per-item error paths) behind
    :func:`_array`."""
    if typing.get_origin(tp) is tuple:
        return _array(homogenous_tuple_structure_factory(tp, conv))
    if is_any_set(tp):
        as_list = list_structure_factory(list[typing.get_args(tp)[0]], conv)  # type: ignore[arg-type,misc]
        return _array(lambda value, _: set(as_list(value, list)))
    return _array(list_structure_factory(tp, conv))


def _structure_ts(value: Any, _: Any) -> datetime:
    if not isinstance(value, str):
        raise TypeError("must be a timestamp string")
    return parse_ts(value)


def _structure_enum(value: Any, cls: type[enum.Enum] | type[Values]) -> enum.Enum | Values:
    try:
        return cls(value)
    except ValueError:
        members = cls.listed() if issubclass(cls, Values) else cls
        allowed = ", ".join(str(m.value) for m in members)
        raise ValueError(f"must be one of {allowed}") from None


def make_converter(*, camel_case: bool = True, forbid_extra_keys: bool = True) -> cattrs.Converter:
    """The strict wire converter. ``camel_case=False`` keeps attribute names (the TOML manifest);
    ``forbid_extra_keys=False`` gives the lenient reader clients use for responses, since the contract
    (docs/reference/conventions.md#versioning-and-deprecation) lets new optional fields land in v1 without
    notice. Only the strict one, which reads requests, checks their form (:mod:`livecore.limits`): what a
    response or a stored record holds is read as it is."""
    rename = camel if camel_case else (lambda name: name)
    form = forbid_extra_keys
    conv = cattrs.Converter(forbid_extra_keys=forbid_extra_keys)
    conv.register_structure_hook(str, _request_str if form else _strict_str)
    conv.register_structure_hook(int, _request_int if form else _strict_int)
    conv.register_structure_hook(float, _strict_float)
    conv.register_structure_hook(bool, _strict_bool)
    # StrEnum explicitly: it comes before ``str`` in a StrEnum's MRO, ``Enum`` comes after.
    conv.register_structure_hook(enum.StrEnum, _structure_enum)
    conv.register_structure_hook(enum.Enum, _structure_enum)
    conv.register_structure_hook(Values, _structure_enum)
    # Lists, tuples, sets and mappings as cattrs reads them, but from a JSON array or object only (cattrs
    # takes any iterable: a string would be read as a list of its characters). Registered before the
    # free-form object's hook, which a later registration would override.
    conv.register_structure_hook_factory(_is_array, lambda t: _array_hook(t, conv))
    conv.register_structure_hook_factory(is_mapping, lambda t: _object(mapping_structure_factory(t, conv)))
    conv.register_structure_hook_func(lambda t: t == dict[str, Any], _request_dict if form else _strict_dict)
    conv.register_structure_hook(datetime, _structure_ts)
    conv.register_structure_hook_func(takes_absent, lambda v, t: conv.structure(v, without_absent(t)))
    conv.register_unstructure_hook(datetime, format_ts)
    conv.register_unstructure_hook(float, whole)

    def passes_through(t: Any) -> bool:
        # ``str | None`` and the like: the value is its own wire form, None included. Said so, the
        # generated functions read the field as it is instead of calling cattrs' optional wrapper for it,
        # once per field of every row of every answer.
        args = typing.get_args(t)
        if typing.get_origin(t) not in (typing.Union, types.UnionType) or type(None) not in args:
            return False
        rest = [a for a in args if a is not type(None)]
        return len(rest) == 1 and conv.get_unstructure_hook(rest[0]) == identity

    conv.register_unstructure_hook_func(passes_through, identity)

    def structure_factory(cls: type[Any]) -> Any:
        hints = typing.get_type_hints(cls)
        added = holds_parts(cls)
        overrides: dict[str, Any] = {}
        for f in attrs.fields(cls):
            rule = rule_of(f)
            plain = form and isinstance(rule, Text) and rule.plain
            hook = _plain(conv.get_structure_hook(hints[f.name])) if plain else None
            skip = added and f.name == PARTS
            overrides[f.name] = override(rename=rename(f.name), struct_hook=hook, omit=skip)
        base = make_dict_structure_fn(cls, conv, _cattrs_forbid_extra_keys=forbid_extra_keys, **overrides)
        if not added:
            return base

        def structure(value: Any, type_: Any) -> Any:
            """The record's own fields, then each part added to it from its fields beside them."""
            if not isinstance(value, dict):
                return base(value, type_)
            named = {key: [rename(f.name) for f in attrs.fields(key.kind)] for key in parts_of(cls)}
            taken = {name for names in named.values() for name in names}
            own = base({name: v for name, v in value.items() if name not in taken}, type_)
            parts = {
                key: conv.structure({name: value[name] for name in names if name in value}, key.kind)
                for key, names in named.items()
            }
            return attrs.evolve(own, parts=parts)

        return structure

    def unstructure_factory(cls: type[Any]) -> Any:
        fields = attrs.fields(cls)
        hints = typing.get_type_hints(cls)
        added = holds_parts(cls)
        # A field left out when None whose default is None is left out by the generated function itself
        # (omit_if_default): no second pass over every answer's dict, which showed on every list row.
        inline = {f.name for f in fields if f.metadata.get("omit_if_none") and f.default is None}
        overrides: dict[str, Any] = {
            f.name: override(
                rename=rename(f.name), omit_if_default=f.name in inline, omit=added and f.name == PARTS
            )
            for f in fields
        }
        base = make_dict_unstructure_fn(cls, conv, **overrides)
        omit = {rename(f.name) for f in fields if f.metadata.get("omit_if_none") and f.name not in inline}
        absent = {f.name: rename(f.name) for f in fields if takes_absent(hints[f.name])}
        if not omit and not absent and not added:
            return base
        names = [f.name for f in fields]
        after = [rename(name) for name in names[names.index(PARTS) + 1 :]] if added else []
        # Each part's key with its unstructure function, looked up once the areas have added their parts.
        part_hooks: list[tuple[Any, Any]] = []

        def unstructure(value: Any) -> dict[str, Any]:
            out: dict[str, Any] = base(value)
            for key in omit:
                if out.get(key) is None:
                    out.pop(key, None)
            for attr, key in absent.items():
                if getattr(value, attr) is ABSENT:
                    del out[key]
            if added:
                # The parts' fields stand where the record declares its parts: before the fields after it.
                keys = parts_of(cls)
                if len(part_hooks) != len(keys):
                    part_hooks[:] = [(key, conv.get_unstructure_hook(key.kind)) for key in keys]
                tail = [(name, out.pop(name)) for name in after if name in out]
                parts = value.parts
                for key, hook in part_hooks:
                    out.update(hook(parts.get(key, key.default)))
                out.update(tail)
            return out

        return unstructure

    conv.register_structure_hook_factory(attrs.has, structure_factory)
    conv.register_unstructure_hook_factory(attrs.has, unstructure_factory)
    return conv


converter = make_converter()
response_converter = make_converter(forbid_extra_keys=False)


_EXTRA = "\x00extra:"
_AT = "\x00at:"  # then the path inside the field of an :class:`_Inside` problem


def _format_error(exc: BaseException, type_: Any) -> str:
    if isinstance(exc, KeyError):
        return "is required"
    if isinstance(exc, cattrs.ForbiddenExtraKeysError):
        return _EXTRA + ",".join(sorted(exc.extra_fields))
    if isinstance(exc, _Inside) and exc.where:
        return f"{exc}{_AT}{exc.where}"
    if isinstance(exc, TypeError | ValueError) and str(exc).startswith("must"):
        return str(exc)
    if type_ is not None:
        return f"must be of type {getattr(type_, '__name__', type_)}"
    return str(exc)


_SEGMENT = re.compile(r"""\.(\w+)|\[(\d+)\]|\[('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\]""")


def _wire_path(path: str, rename: Callable[[str], str]) -> str:
    """cattrs paths (``$.items[1].rate_limits['sdk_read']``) as wire paths (``items[1].rateLimits.sdk_read``):
    attribute names are renamed, list indexes kept, mapping keys written as they are."""
    out = ""
    for attr, index, key in _SEGMENT.findall(path.removeprefix("$")):
        if attr:
            out += f".{rename(attr)}"
        elif index:
            out += f"[{index}]"
        else:
            out += f".{ast.literal_eval(key)}"
    return out.lstrip(".")


def field_errors(exc: BaseException, *, camel_case: bool = True) -> dict[str, str]:
    """Every offending field of a cattrs validation error, by its path (``items[1].amount``)."""
    rename = camel if camel_case else (lambda name: name)
    fields: dict[str, str] = {}
    for message in cattrs.transform_error(exc, path="$", format_exception=_format_error):
        text, _, where = message.rpartition(" @ ")
        path = _wire_path(where, rename)
        text, _, inside = text.partition(_AT)
        path = at(path, inside)
        if text.startswith(_EXTRA):
            for key in text.removeprefix(_EXTRA).split(","):
                fields[f"{path}.{key}" if path else key] = "is not a known field"
        else:
            fields[path or "body"] = text
    return fields


def structure(data: Any, cls: type[T]) -> T:
    """Structure ``data`` into ``cls`` or raise a 400 whose details name every offending field."""
    if not isinstance(data, dict):
        raise invalid_request("The request body must be a JSON object.", {"body": "must be an object"})
    try:
        return converter.structure(data, cls)
    except cattrs.BaseValidationError as exc:
        fields = field_errors(exc)
    except (ValueError, TypeError) as exc:
        fields = {"body": str(exc)}
    raise invalid_request(f"The request is invalid: {', '.join(sorted(fields))}.", fields)


def unstructure(value: Any) -> Any:
    return converter.unstructure(value)


def _query_value(raw: list[str], type_: Any, name: str) -> Any:
    """Query strings carry text; coerce by the declared field type
    (docs/reference/friends-and-presence.md#progression: lists may be comma-separated or repeated)."""
    base = _strip_optional(type_)
    if base is bool:
        value = raw[-1].lower()
        if value not in ("true", "false"):
            raise invalid_request(f"{name} must be true or false.", {name: "must be true or false"})
        return value == "true"
    if base is int:
        try:
            return int(raw[-1])
        except ValueError:
            raise invalid_request(f"{name} must be an integer.", {name: "must be an integer"}) from None
    if getattr(base, "__origin__", None) in (list, tuple):
        # An empty item ("a,,b", ",", and an empty value, which reads as one empty item as the OpenAPI
        # documents serialize a list) is refused; the empty list is the parameter left out.
        parts = [part for item in raw for part in item.split(",")]
        if "" in parts:
            raise invalid_request(f"{name} has an empty item.", {name: "has an empty item"})
        if base.__args__[0] is int:
            return [_query_value([part], int, name) for part in parts]
        return parts
    return raw[-1]


def _strip_optional(type_: Any) -> Any:
    args = [a for a in getattr(type_, "__args__", ()) if a is not type(None)]
    if type(None) in getattr(type_, "__args__", ()) and len(args) == 1:
        return args[0]
    return type_


@functools.cache
def _query_fields(cls: type) -> dict[str, Any]:
    """Wire name -> declared type of a query model (resolving annotations is slow: once per class)."""
    hints = typing.get_type_hints(cls)
    return {camel(f.name): hints[f.name] for f in attrs.fields(cast(Any, cls))}


def structure_query(params: Mapping[str, list[str]], cls: type[T]) -> T:
    """Structure query parameters (name -> every value given) into ``cls``; unknown names are a 400."""
    fields = _query_fields(cast(type, cls))
    unknown = sorted(set(params) - set(fields))
    if unknown:
        raise invalid_request(
            f"Unknown query parameter: {', '.join(unknown)}.",
            {n: "is not a known parameter" for n in unknown},
        )
    values = {wire: _query_value(params[wire], t, wire) for wire, t in fields.items() if wire in params}
    return check_declared(structure(values, cls), values)


def check_declared(query: T, given: Iterable[str]) -> T:
    """``query`` once the limits its ``given`` fields (by wire name) declare hold (:mod:`livecore.limits`):
    a query's bounds are the route's to check, before its handler, so that every bound its document
    publishes is the bound the service keeps. A default needs no check. Every offending field is named in
    one 400, as :func:`structure` names them."""
    asked = set(given)
    problems: dict[str, str] = {}
    for wire, (rule, count, name) in _declared(cast(type, type(query))).items():
        value = getattr(query, name)
        if wire not in asked or value is None:
            continue
        try:
            if count is not None:
                count.check(value, wire)
            for item in value if isinstance(value, list) else (value,):
                if rule is not None:
                    rule.check(item, wire)
        except LivecoreError as err:
            problems.update((err.details or {}).get("fields", {}))
    if problems:
        raise invalid_request(f"The request is invalid: {', '.join(sorted(problems))}.", problems)
    return query


@functools.cache
def _declared(cls: type) -> dict[str, tuple[Rule | None, Count | None, str]]:
    """Wire name -> the rule, the count and the attribute name of each limited field of ``cls``."""
    return {
        camel(f.name): (rule_of(f), count_of(f), f.name)
        for f in attrs.fields(cast(Any, cls))
        if rule_of(f) is not None or count_of(f) is not None
    }


def unstructure_query(value: Any) -> dict[str, str]:
    """The client side of :func:`structure_query`: omit ``None``, booleans as true/false, lists joined."""
    out: dict[str, str] = {}
    for key, item in converter.unstructure(value).items():
        if item is None:
            continue
        if isinstance(item, bool):
            out[key] = "true" if item else "false"
        elif isinstance(item, list | tuple):
            if item:  # an empty list is the parameter left out (:func:`_query_value`)
                out[key] = ",".join(str(v) for v in item)
        else:
            out[key] = str(item)
    return out
