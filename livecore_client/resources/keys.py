"""API keys and personal keys, listed (their writes are dashboard-only): ``admin.api_keys``,
``admin.personal_keys``."""

from __future__ import annotations

from livecore.api.call import Call
from livecore.operators import api

from .. import models as m
from .._client import AsyncResource, SyncResource, async_method, sync_method
from .._surfaces import AdminSurface, AsyncAdminSurface
from ..models import Environment, MemberRole, Permission
from ._base import AdminCalls

__all__ = ["AdminApiKeys", "AdminPersonalKeys", "AsyncAdminApiKeys", "AsyncAdminPersonalKeys"]


class _AdminApiKeysCalls(AdminCalls):
    """The ``/admin/v1`` API key calls."""

    def _list(self, game: str) -> Call[m.ApiKeysResponse]:
        """The game's API keys (never their secrets)."""
        return Call(api.API_KEYS, m.ApiKeysResponse, path=self._at(game))

    def _create(
        self,
        game: str,
        *,
        name: str,
        env: Environment | str,
        permission: Permission | str,
        idempotency_key: str | None = None,
    ) -> Call[m.ApiKeySecretResponse]:
        """Create an API key (its secret shown once). Dashboard-only: a personal key raises
        :class:`~livecore_client.errors.DashboardOnlyError`."""
        return Call(
            api.API_KEY_CREATE,
            m.ApiKeySecretResponse,
            path=self._at(game),
            body=m.CreateApiKeyRequest(name=name, env=Environment(env), permission=Permission(permission)),
            idempotency_key=idempotency_key,
        )

    def _rotate(
        self, game: str, key_id: str, *, idempotency_key: str | None = None
    ) -> Call[m.ApiKeySecretResponse]:
        """Mint an API key's successor; the old one retires after 60 days. Dashboard-only."""
        return Call(
            api.API_KEY_ROTATE,
            m.ApiKeySecretResponse,
            path=self._at(game, keyId=key_id),
            idempotency_key=idempotency_key,
        )

    def _revoke(
        self, game: str, key_id: str, *, idempotency_key: str | None = None
    ) -> Call[m.ApiKeyResponse]:
        """Revoke an API key at once. Dashboard-only."""
        return Call(
            api.API_KEY_REVOKE,
            m.ApiKeyResponse,
            path=self._at(game, keyId=key_id),
            idempotency_key=idempotency_key,
        )


class AdminApiKeys(SyncResource[AdminSurface], _AdminApiKeysCalls):
    """``admin.api_keys``: the ``/admin/v1`` API key calls."""

    list = sync_method(_AdminApiKeysCalls._list)
    create = sync_method(_AdminApiKeysCalls._create)
    rotate = sync_method(_AdminApiKeysCalls._rotate)
    revoke = sync_method(_AdminApiKeysCalls._revoke)


class AsyncAdminApiKeys(AsyncResource[AsyncAdminSurface], _AdminApiKeysCalls):
    """The methods of :class:`AdminApiKeys`, awaited."""

    list = async_method(_AdminApiKeysCalls._list)
    create = async_method(_AdminApiKeysCalls._create)
    rotate = async_method(_AdminApiKeysCalls._rotate)
    revoke = async_method(_AdminApiKeysCalls._revoke)


class _AdminPersonalKeysCalls(AdminCalls):
    """The ``/admin/v1`` personal key calls."""

    def _list(self) -> Call[m.PersonalKeysResponse]:
        """Personal keys: the member's own; every member's for owners and admins."""
        return Call(api.PERSONAL_KEYS, m.PersonalKeysResponse, path=self._at())

    def _create(
        self,
        *,
        expires_in_days: int,
        read_only: bool = False,
        role: MemberRole | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.PersonalKeySecretResponse]:
        """Make the member's personal key (7 to 365 days; the one before is revoked). Dashboard-only:
        a personal key raises :class:`~livecore_client.errors.DashboardOnlyError`."""
        return Call(
            api.PERSONAL_KEY_CREATE,
            m.PersonalKeySecretResponse,
            path=self._at(),
            body=m.CreatePersonalKeyRequest(
                expires_in_days=expires_in_days,
                read_only=read_only,
                role=None if role is None else MemberRole(role),
            ),
            idempotency_key=idempotency_key,
        )

    def _revoke(self, key_id: str, *, idempotency_key: str | None = None) -> Call[m.PersonalKeyResponse]:
        """Revoke a personal key. Dashboard-only."""
        return Call(
            api.PERSONAL_KEY_REVOKE,
            m.PersonalKeyResponse,
            path=self._at(keyId=key_id),
            idempotency_key=idempotency_key,
        )


class AdminPersonalKeys(SyncResource[AdminSurface], _AdminPersonalKeysCalls):
    """``admin.personal_keys``: the ``/admin/v1`` personal key calls."""

    list = sync_method(_AdminPersonalKeysCalls._list)
    create = sync_method(_AdminPersonalKeysCalls._create)
    revoke = sync_method(_AdminPersonalKeysCalls._revoke)


class AsyncAdminPersonalKeys(AsyncResource[AsyncAdminSurface], _AdminPersonalKeysCalls):
    """The methods of :class:`AdminPersonalKeys`, awaited."""

    list = async_method(_AdminPersonalKeysCalls._list)
    create = async_method(_AdminPersonalKeysCalls._create)
    revoke = async_method(_AdminPersonalKeysCalls._revoke)
