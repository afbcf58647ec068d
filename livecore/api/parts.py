"""Fields an area adds to another area's wire record under their own wire names (a friend row's
``giftCooldownUntil``, the gifts'), so the record's area names none of them.

The record declares ``parts: dict[PartKey[Any], Any]`` where the added fields stand on the wire; the
adding area declares its fields as a record of its own with a :class:`PartKey`, and adds it to the host
record in its declaration (``Area(contributes=(WIRE_PART(Part(host, key)),))``,
:mod:`livecore.contributions`). On the wire the part's fields sit flat in the record's object, in
place of ``parts`` (:mod:`livecore.api.convert`), and the OpenAPI documents and the reference list them
there (:func:`wire_fields`); in Python the record reads each part with ``record.of(KEY)``. As a manifest
section's flat part does (:attr:`livecore.section.Section.flat`).
"""

from __future__ import annotations

import typing
from collections.abc import Sequence
from typing import Any

import attrs

from livecore.contributions import Point, served
from livecore.parts import PartKey

#: The field of a record the parts other areas add stand in.
PARTS = "parts"
#: The metadata of a wire record's ``parts`` field: ``parts: dict[PartKey[Any], Any] =
#: attrs.field(factory=dict, converter=by_key, hash=False, metadata=WIRE_PARTS)`` (a game's settings records
#: hold parts too, but as stored settings, not on the wire).
WIRE_PARTS = {"livecore.api.parts.host": True}


@attrs.frozen
class Part:
    """``key``'s fields added to the wire form of ``host`` (a record declaring ``parts``)."""

    host: type = attrs.field()
    key: PartKey[Any]

    @host.validator
    def _holds_parts(self, _: attrs.Attribute[type], host: type) -> None:
        if not holds_parts(host):
            raise TypeError(f"{host.__qualname__} declares no {PARTS} field for the parts other areas add")


WIRE_PART: Point[Part] = Point("wire.part")


def parts_of(host: type) -> tuple[PartKey[Any], ...]:
    """The parts the served areas add to ``host``, in the areas' order."""
    return tuple(part.key for part in served().of(WIRE_PART) if part.host is host)


def holds_parts(cls: type) -> bool:
    """Whether ``cls`` is a wire record other areas add parts to: its ``parts`` field has the metadata
    :data:`WIRE_PARTS`."""
    if not attrs.has(cls):
        return False
    field = attrs.fields_dict(cls).get(PARTS)
    return field is not None and WIRE_PARTS.items() <= field.metadata.items()


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
