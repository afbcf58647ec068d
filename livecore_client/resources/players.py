"""Players: registration and identity (``sdk.players``, ``server.players``, with the studio's
player tools), and the operators' player edits (``admin.players``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from livecore.operators import api
from livecore.player_tools.api import (
    PLAYER_BAN,
    PLAYER_DEBUG_CLEAR,
    PLAYER_DEBUG_SET,
    PLAYER_DELETE,
    PLAYER_EXPORT,
    PLAYER_MERGE,
    PLAYER_PROFILE,
    PLAYER_UNBAN,
)
from livecore.players.api import REGISTER, SDK_SET_IDENTITY, SERVER_SET_IDENTITY

from .. import models as m
from .._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method
from .._surfaces import AdminSurface, AsyncAdminSurface, AsyncSdkSurface, SdkSurface
from .._transport import Call
from ..models import Environment, ErasureReasonView
from ._base import AdminCalls, SdkCalls, ServerCalls, env_of

__all__ = [
    "AdminPlayers",
    "AsyncAdminPlayers",
    "AsyncPlayers",
    "AsyncServerPlayers",
    "Players",
    "ServerPlayers",
]


class _PlayersCalls(SdkCalls):
    """The ``/sdk/v1`` player calls."""

    def _register(
        self,
        external_id: str,
        *,
        force: bool = False,
        player_context: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.RegisterResponse]:
        """Register ``external_id`` and mint its player secret, returned once in ``player_secret``.

        ``force=True`` rotates the secret of an already registered player (test keys only); without it
        a second registration raises :class:`~livecore_client.errors.PlayerAlreadyRegisteredError`.
        ``player_context={"country": "FR"}`` overrides the geo-resolved country.
        """
        return Call(
            REGISTER,
            m.RegisterResponse,
            path={"externalId": external_id},
            # Sent only when set: the default needs no query string and a live key must never see force.
            query=m.RegisterQuery(force=True) if force else None,
            body=None if player_context is None else m.RegisterRequest(player_context=dict(player_context)),
            idempotency_key=idempotency_key,
        )

    def _set_identity(
        self,
        external_id: str,
        *,
        name: str,
        avatar: str | None = None,
        player_secret: str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.IdentityResponse]:
        """Set the player's own display identity; ``player_secret`` defaults to the client's."""
        return Call(
            SDK_SET_IDENTITY,
            m.IdentityResponse,
            path={"externalId": external_id},
            body=m.SetIdentityRequest(name=name, avatar=avatar),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )


class Players(SyncResource[SdkSurface], _PlayersCalls):
    """``sdk.players``: the ``/sdk/v1`` player calls."""

    register = sync_method(_PlayersCalls._register)
    set_identity = sync_method(_PlayersCalls._set_identity)


class AsyncPlayers(AsyncResource[AsyncSdkSurface], _PlayersCalls):
    """The methods of :class:`Players`, awaited."""

    register = async_method(_PlayersCalls._register)
    set_identity = async_method(_PlayersCalls._set_identity)


class _ServerPlayersCalls(ServerCalls):
    """The ``/server/v1`` player calls."""

    def _set_identity(
        self, external_id: str, *, name: str, avatar: str | None = None, idempotency_key: str | None = None
    ) -> Call[m.IdentityResponse]:
        """Set a player's display identity from the studio backend."""
        return Call(
            SERVER_SET_IDENTITY,
            m.IdentityResponse,
            path={"externalId": external_id},
            body=m.SetIdentityRequest(name=name, avatar=avatar),
            idempotency_key=idempotency_key,
        )

    def _profile(self, external_id: str, *, limit: int | None = None) -> Call[m.PlayerProfileResponse]:
        """A player's profile: the record (with ``banned``, ``debug`` and ``lifecycle``), the most recent
        ``grants`` (and ``attempts`` and ``lobbies``), and the ``summary`` counters. ``limit`` caps each
        list; it defaults to 50 and must be from 1 to 200 (else
        :class:`~livecore_client.errors.InvalidRequestError`). Raises
        :class:`~livecore_client.errors.PlayerNotFoundError` for an unknown player.
        """
        query = m.ProfileQuery() if limit is None else m.ProfileQuery(limit=limit)
        return Call(PLAYER_PROFILE, m.PlayerProfileResponse, path={"externalId": external_id}, query=query)

    def _ban(
        self, external_id: str, *, reason: str, idempotency_key: str | None = None
    ) -> Call[m.BanPlayerResponse]:
        """Ban a player (soft): their player-scoped client writes and registration raise
        :class:`~livecore_client.errors.PlayerBannedError`; reads keep working. ``reason`` (1 to 500
        characters) is required.

        ``applied`` is true only on the transition (which fires ``player.banned``); banning a banned
        player refreshes the reason quietly and answers ``applied=False``. ``ban`` is the state after.
        """
        return Call(
            PLAYER_BAN,
            m.BanPlayerResponse,
            path={"externalId": external_id},
            body=m.BanRequest(reason=reason),
            idempotency_key=idempotency_key,
        )

    def _unban(self, external_id: str, *, idempotency_key: str | None = None) -> Call[m.BanPlayerResponse]:
        """Lift a ban. ``applied`` is true only when the player was banned (which fires
        ``player.unbanned``); unbanning a player who is not banned answers ``applied=False``."""
        return Call(
            PLAYER_UNBAN,
            m.BanPlayerResponse,
            path={"externalId": external_id},
            idempotency_key=idempotency_key,
        )

    def _flag_debug(
        self, external_id: str, *, reason: str | None = None, idempotency_key: str | None = None
    ) -> Call[m.DebugPlayerResponse]:
        """Flag a debug (test or staff) account: it is left out of revenue reporting
        (:meth:`purchases.spend_players`, :meth:`purchases.revenue_summary`), retroactively, while its own
        :meth:`purchases.player_spend` keeps counting. ``reason`` is optional (at most 500 characters).
        Idempotent: ``applied`` is false when the player was already flagged."""
        return Call(
            PLAYER_DEBUG_SET,
            m.DebugPlayerResponse,
            path={"externalId": external_id},
            body=None if reason is None else m.DebugRequest(reason=reason),
            idempotency_key=idempotency_key,
        )

    def _unflag_debug(
        self, external_id: str, *, idempotency_key: str | None = None
    ) -> Call[m.DebugPlayerResponse]:
        """Remove the debug flag, retroactively: the player's purchases count in revenue reporting
        again. Idempotent: ``applied`` is false when the player was not flagged."""
        return Call(
            PLAYER_DEBUG_CLEAR,
            m.DebugPlayerResponse,
            path={"externalId": external_id},
            idempotency_key=idempotency_key,
        )

    def _merge(
        self, from_external_id: str, to_external_id: str, *, idempotency_key: str | None = None
    ) -> Call[m.MergePlayerResponse]:
        """Fold player ``from_external_id`` into ``to_external_id``: grants, gifts, purchases, friends
        and the wallet and inventory ledgers move to the target (balances of the same key are summed).
        The source's row stays under the placeholder ``anonymized_external_player_id`` and its
        original id becomes free. Fires ``player.merged``.

        ``status`` is ``"merged"``, or ``"no_op_already_merged"`` when the source was already merged
        into this same target (a safe replay). Raises
        :class:`~livecore_client.errors.PlayerNotFoundError` when either player never existed and
        :class:`~livecore_client.errors.InvalidMergeError` (422) for the same player twice, a source
        merged elsewhere or erased, or a banned, merged or erased target.
        """
        return Call(
            PLAYER_MERGE,
            m.MergePlayerResponse,
            path={"fromExternalId": from_external_id, "toExternalId": to_external_id},
            idempotency_key=idempotency_key,
        )

    def _delete(
        self,
        external_id: str,
        *,
        reason: ErasureReasonView | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.DeletePlayerResponse]:
        """Erase a player: ``player.deleted`` fires with the original id, then the row is anonymized in
        place under ``anonymized_external_id``; financial records (purchases, ledgers) are kept.
        ``reason`` is ``"gdpr_erasure"`` (the service's default), ``"studio_request"`` or ``"test"``
        (or :class:`~livecore_client.models.ErasureReasonView`); ``ValueError`` (before any request)
        for another value.

        Idempotent: ``status`` is ``"deleted"``, or begins with ``no_op_`` for a player already erased
        or one that never existed (``anonymized_external_id`` may then be ``None``).
        """
        body = None if reason is None else m.DeletePlayerRequest(reason=ErasureReasonView(reason))
        return Call(
            PLAYER_DELETE,
            m.DeletePlayerResponse,
            path={"externalId": external_id},
            body=body,
            idempotency_key=idempotency_key,
        )

    def _export(self, external_id: str) -> Call[m.ExportPlayerResponse]:
        """Everything held about a player (a data-access request): the player record, grants, inventory
        and wallet holdings, purchases, attempts and lobby memberships, each list capped at 1,000 rows.
        Raises :class:`~livecore_client.errors.PlayerNotFoundError` for an unknown player."""
        return Call(PLAYER_EXPORT, m.ExportPlayerResponse, path={"externalId": external_id})


class ServerPlayers(SyncResource[SyncClient], _ServerPlayersCalls):
    """``server.players``: the ``/server/v1`` player calls."""

    set_identity = sync_method(_ServerPlayersCalls._set_identity)
    profile = sync_method(_ServerPlayersCalls._profile)
    ban = sync_method(_ServerPlayersCalls._ban)
    unban = sync_method(_ServerPlayersCalls._unban)
    flag_debug = sync_method(_ServerPlayersCalls._flag_debug)
    unflag_debug = sync_method(_ServerPlayersCalls._unflag_debug)
    merge = sync_method(_ServerPlayersCalls._merge)
    delete = sync_method(_ServerPlayersCalls._delete)
    export = sync_method(_ServerPlayersCalls._export)


class AsyncServerPlayers(AsyncResource[AsyncClient], _ServerPlayersCalls):
    """The methods of :class:`ServerPlayers`, awaited."""

    set_identity = async_method(_ServerPlayersCalls._set_identity)
    profile = async_method(_ServerPlayersCalls._profile)
    ban = async_method(_ServerPlayersCalls._ban)
    unban = async_method(_ServerPlayersCalls._unban)
    flag_debug = async_method(_ServerPlayersCalls._flag_debug)
    unflag_debug = async_method(_ServerPlayersCalls._unflag_debug)
    merge = async_method(_ServerPlayersCalls._merge)
    delete = async_method(_ServerPlayersCalls._delete)
    export = async_method(_ServerPlayersCalls._export)


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
