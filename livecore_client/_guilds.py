"""The body of a guild profile edit, which the player's and the studio's edits share.

Each field is left out (:data:`~livecore_client.models.ABSENT`, the default: kept as it is) or given;
``None`` clears ``description``, ``badge``, ``country`` and ``metadata``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from livecore.api.convert import ABSENT, Absent
from livecore.guilds.api import EditGuildRequest
from livecore.guilds.rules import JoinType

_Edit = TypeVar("_Edit", bound=EditGuildRequest)


def profile_edit(
    model: type[_Edit],
    *,
    name: str | Absent,
    description: str | Absent | None,
    badge: str | Absent | None,
    country: str | Absent | None,
    join_type: JoinType | str | Absent,
    metadata: Mapping[str, Any] | Absent | None,
) -> _Edit:
    """``model`` with the fields given; ``ValueError`` (before any request) for a ``join_type`` that is not
    one."""
    return model(
        name=name,
        description=description,
        badge=badge,
        country=country,
        join_type=join_type if join_type is ABSENT else JoinType(join_type),
        metadata=metadata if metadata is ABSENT or metadata is None else dict(metadata),
    )
