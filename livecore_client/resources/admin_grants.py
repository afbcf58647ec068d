"""The operators' grant calls: ``admin.grants``, the manual grant and the force-claim of a stuck grant."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from livecore.api.call import Call
from livecore.operators import api

from .. import models as m
from .._client import AsyncResource, SyncResource, async_method, sync_method
from .._surfaces import AdminSurface, AsyncAdminSurface
from ..models import Environment, GrantKind, RewardEntry
from ._base import AdminCalls, env_of

__all__ = ["AdminGrants", "AsyncAdminGrants"]


class _AdminGrantsCalls(AdminCalls):
    """The ``/admin/v1`` grant calls."""

    def _create(
        self,
        game: str,
        external_id: str,
        entries: Sequence[RewardEntry],
        *,
        kind: GrantKind | str = GrantKind.REWARD,
        expires_at: datetime | None = None,
        reason: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        env: Environment | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.AdminGrantResponse]:
        """A manual grant: a pending grant of ``entries`` for the player (created on first contact),
        ``source_kind`` ``admin``. Raises :class:`~livecore_client.errors.ResourceNotFoundError` for an
        unknown currency, item or crate."""
        return Call(
            api.MANUAL_GRANT,
            m.AdminGrantResponse,
            path=self._at(game),
            query=m.EnvQuery(env=env_of(env)),
            body=m.ManualGrantRequest(
                external_player_id=external_id,
                entries=list(entries),
                kind=GrantKind(kind),
                expires_at=expires_at,
                reason=reason,
                metadata=None if metadata is None else dict(metadata),
            ),
            idempotency_key=idempotency_key,
        )

    def _force_claim(
        self,
        game: str,
        grant_id: str,
        *,
        reason: str | None = None,
        env: Environment | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.AdminGrantResponse]:
        """Claim a stuck grant whatever its status, credited once. Raises
        :class:`~livecore_client.errors.GrantNotFoundError` and
        :class:`~livecore_client.errors.CrateMustBeOpenedError`."""
        return Call(
            api.FORCE_CLAIM,
            m.AdminGrantResponse,
            path=self._at(game, grantId=grant_id),
            query=m.EnvQuery(env=env_of(env)),
            body=None if reason is None else m.ReasonRequest(reason=reason),
            idempotency_key=idempotency_key,
        )


class AdminGrants(SyncResource[AdminSurface], _AdminGrantsCalls):
    """``admin.grants``: the ``/admin/v1`` grant calls."""

    create = sync_method(_AdminGrantsCalls._create)
    force_claim = sync_method(_AdminGrantsCalls._force_claim)


class AsyncAdminGrants(AsyncResource[AsyncAdminSurface], _AdminGrantsCalls):
    """The methods of :class:`AdminGrants`, awaited."""

    create = async_method(_AdminGrantsCalls._create)
    force_claim = async_method(_AdminGrantsCalls._force_claim)
