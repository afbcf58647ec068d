"""The base of every webhook payload: one frozen attrs class per kind, declared once in this package.

Each class names its kind in ``KIND`` and its fields in snake_case, in the order they go on the wire.
The wire converter turns an instance into the ``data`` object of the envelope: camelCase keys in field
order, timestamps as ``YYYY-MM-DDTHH:MM:SS.sssZ``, ``None`` as ``null`` (a field marked
``OMIT_IF_NONE`` is left out instead). The emitting commands build these classes, and
``livecore_client.webhooks.construct_event`` returns them.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

import attrs

from livecore.api.convert import converter

T = TypeVar("T")


def known(value: T | None, what: str) -> T:
    """A field the kind's moment always has (a started lobby's ``startedAt``): missing, the caller passed
    the record of another moment."""
    if value is None:
        raise ValueError(f"no {what} at this moment")
    return value


@attrs.frozen
class WebhookPayload:
    """Base of the typed payloads; ``isinstance(event.data, PlayerRegistered)`` picks a kind."""

    KIND: ClassVar[str]

    def to_wire(self) -> dict[str, Any]:
        """The envelope's ``data`` object for this payload."""
        data: dict[str, Any] = converter.unstructure(self)
        return data
