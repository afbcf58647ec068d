"""Fields an area adds to another area's wire record under their own wire names (a friend row's
``giftCooldownUntil``, the gifts'), so the record's area names none of them.

The record declares ``parts: dict[PartKey[Any], Any]`` where the added fields stand on the wire; the
adding area declares its fields as a record of its own with a :class:`PartKey`, and adds it to the host
record at import (:func:`add_part`). On the wire the part's fields sit flat in the record's object, in
place of ``parts`` (:mod:`livecore.api.convert`), and the OpenAPI documents and the reference list them
there (:func:`wire_fields`); in Python the record reads each part with ``record.of(KEY)``. As a manifest
section's flat part does (:attr:`livecore.section.Section.flat`).
"""

from __future__ import annotations

import typing
from collections.abc import Mapping, Sequence
from typing import Any, Generic, TypeVar

import attrs

T_co = TypeVar("T_co", covariant=True)

#: The field of a record the parts other areas add stand in.
PARTS = "parts"


@attrs.frozen
class PartKey(Generic[T_co]):
    """Names the part one area adds to another's wire record: ``kind`` its record (whose fields are its
    wire fields), ``default`` its value in a record without it. Keys are equal by name."""

    name: str
    kind: Any = attrs.field(eq=False)
    default: T_co = attrs.field(eq=False)


_ADDED: dict[type, list[PartKey[Any]]] = {}


def add_part(host: type, key: PartKey[Any]) -> None:
    """Adds ``key``'s fields to the wire form of ``host`` (a record declaring ``parts``), after the
    parts added before it; adding it again changes nothing."""
    if not holds_parts(host):
        raise TypeError(f"{host.__qualname__} declares no {PARTS} field for the parts other areas add")
    added = _ADDED.setdefault(host, [])
    if key not in added:
        added.append(key)


def without_defaults(given: Mapping[PartKey[Any], Any]) -> dict[PartKey[Any], Any]:
    """The parts a record holds, leaving out those at their default: a record whose part is at its
    default is the same record as one without it (the wire has the same fields)."""
    return {key: value for key, value in given.items() if value != key.default}


def parts_of(host: type) -> tuple[PartKey[Any], ...]:
    """The parts added to ``host``, in the order they were added."""
    return tuple(_ADDED.get(host, ()))


def holds_parts(cls: type) -> bool:
    """Whether ``cls`` is a wire record other areas add parts to (its ``parts`` are keyed by
    :class:`PartKey`; a game's settings records hold theirs otherwise)."""
    if not attrs.has(cls) or PARTS not in attrs.fields_dict(cls):
        return False
    keys = typing.get_args(typing.get_type_hints(cls)[PARTS])
    return bool(keys) and typing.get_origin(keys[0]) is PartKey


def wire_fields(cls: type) -> Sequence[tuple[attrs.Attribute[Any], Any]]:
    """The fields of ``cls`` as the wire has them, each with its type: its own, with ``parts`` replaced by
    the fields of the parts added to it."""
    hints = typing.get_type_hints(cls)
    found: list[tuple[attrs.Attribute[Any], Any]] = []
    hosts = holds_parts(cls)
    for field in attrs.fields(cls):
        if field.name != PARTS or not hosts:
            found.append((field, hints[field.name]))
            continue
        for key in parts_of(cls):
            found.extend(wire_fields(key.kind))
    return found
