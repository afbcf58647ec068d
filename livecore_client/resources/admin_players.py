"""The operators' player calls: ``admin.players``, the lookup, ban and unban, the country override, an
item's attributes and a new player secret."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from livecore.api.call import Call
from livecore.operators import api

from .. import models as m
from .._client import AsyncResource, SyncResource, async_method, sync_method
from .._surfaces import AdminSurface, AsyncAdminSurface
from ..models import Environment
from ._base import AdminCalls, env_of

__all__ = ["AdminPlayers", "AsyncAdminPlayers"]


class _AdminPlayersCalls(AdminCalls):
    """The ``/admin/v1`` player calls."""

    def _lookup(
        self,
        game: str,
        external_id: str,
        *,
        env: Environment | str | None = None,
        limit: int | None = None,
    ) -> Call[m.PlayerLookupResponse]:
        """Everything about one player: profile, ban, friends, wallet, inventory, recent grants, the
        audit entries naming the player and webhook deliveries (``limit`` per list, 20 by default, 1 to
        200). Raises :class:`~livecore_client.errors.PlayerNotFoundError`."""
        query = m.LookupQuery(env=env_of(env))
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(
            api.PLAYER_LOOKUP,
            m.PlayerLookupResponse,
            path=self._at(game, externalId=external_id),
            query=query,
        )

    def _ban(
        self,
        game: str,
        external_id: str,
        *,
        reason: str,
        env: Environment | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.BanPlayerResponse]:
        """Ban a player; ``applied`` is true only on the transition (which fires ``player.banned``)."""
        return Call(
            api.PLAYER_BAN,
            m.BanPlayerResponse,
            path=self._at(game, externalId=external_id),
            query=m.EnvQuery(env=env_of(env)),
            body=m.BanRequest(reason=reason),
            idempotency_key=idempotency_key,
        )

    def _unban(
        self,
        game: str,
        external_id: str,
        *,
        env: Environment | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.BanPlayerResponse]:
        """Lift a player's ban; ``applied=False`` when the player was not banned."""
        return Call(
            api.PLAYER_UNBAN,
            m.BanPlayerResponse,
            path=self._at(game, externalId=external_id),
            query=m.EnvQuery(env=env_of(env)),
            idempotency_key=idempotency_key,
        )

    def _set_country(
        self,
        game: str,
        external_id: str,
        country: str | None,
        *,
        reason: str | None = None,
        env: Environment | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.SetCountryResponse]:
        """Show and play the player in ``country`` (an ISO 3166-1 alpha-2 code) whatever its requests
        resolve to, or with ``None`` clear the override (the resolved country shows again); ``applied``
        is false when the override was already so. Raises :class:`~livecore_client.errors.InvalidRequestError`
        for a code that is not a country's."""
        return Call(
            api.SET_COUNTRY,
            m.SetCountryResponse,
            path=self._at(game, externalId=external_id),
            query=m.EnvQuery(env=env_of(env)),
            body=m.SetCountryRequest(country=country, reason=reason),
            idempotency_key=idempotency_key,
        )

    def _edit_item_attributes(
        self,
        game: str,
        external_id: str,
        item_key: str,
        attributes: Mapping[str, Any],
        *,
        reason: str | None = None,
        env: Environment | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.ItemAdjustResponse]:
        """Set the player's values of item ``item_key``'s attributes, key by key (the others keep theirs);
        each must be an attribute the catalog declares for the item, of its default's type, else
        :class:`~livecore_client.errors.InvalidRequestError` naming ``attributes.<key>``. Answers the item
        with its merged ``parameters`` (``delta`` 0)."""
        return Call(
            api.EDIT_ITEM_ATTRIBUTES,
            m.ItemAdjustResponse,
            path=self._at(game, externalId=external_id, itemKey=item_key),
            query=m.EnvQuery(env=env_of(env)),
            body=m.EditItemAttributesRequest(attributes=dict(attributes), reason=reason),
            idempotency_key=idempotency_key,
        )

    def _rotate_secret(
        self,
        game: str,
        external_id: str,
        *,
        env: Environment | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.RotateSecretResponse]:
        """Mint a new player secret (shown once: hand it to the player's client); the old one stops
        working."""
        return Call(
            api.ROTATE_SECRET,
            m.RotateSecretResponse,
            path=self._at(game, externalId=external_id),
            query=m.EnvQuery(env=env_of(env)),
            idempotency_key=idempotency_key,
        )


class AdminPlayers(SyncResource[AdminSurface], _AdminPlayersCalls):
    """``admin.players``: the ``/admin/v1`` player calls."""

    lookup = sync_method(_AdminPlayersCalls._lookup)
    ban = sync_method(_AdminPlayersCalls._ban)
    unban = sync_method(_AdminPlayersCalls._unban)
    set_country = sync_method(_AdminPlayersCalls._set_country)
    edit_item_attributes = sync_method(_AdminPlayersCalls._edit_item_attributes)
    rotate_secret = sync_method(_AdminPlayersCalls._rotate_secret)


class AsyncAdminPlayers(AsyncResource[AsyncAdminSurface], _AdminPlayersCalls):
    """The methods of :class:`AdminPlayers`, awaited."""

    lookup = async_method(_AdminPlayersCalls._lookup)
    ban = async_method(_AdminPlayersCalls._ban)
    unban = async_method(_AdminPlayersCalls._unban)
    set_country = async_method(_AdminPlayersCalls._set_country)
    edit_item_attributes = async_method(_AdminPlayersCalls._edit_item_attributes)
    rotate_secret = async_method(_AdminPlayersCalls._rotate_secret)
