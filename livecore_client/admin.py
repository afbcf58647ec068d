"""Clients for the operators' admin API ``/admin/v1``: :class:`AdminClient` and :class:`AsyncAdminClient`.

For a studio's scripts, acting as a member with the member's personal key (``svc_pk_...``, made in the
portal; docs/client.md#admin-client). What the key may do is what the member's role (and the key's own
role, when lower) allows; dashboard-only actions (API keys, personal keys, live webhook endpoints) raise
:class:`~livecore_client.errors.DashboardOnlyError`. Every write is audited, with the key as its actor.

The client is bound to one studio (its key or ``std_`` id); game-scoped methods take ``game`` (a key or a
``gam_`` id) first, and those naming a player, a grant or an attempt act in ``env``: when it is not
given, the server acts in the environment the game has API keys in (live when it has both). Every write
sends an idempotency key, made once per call and reused by its retries, or the ``idempotency_key`` given.

Adding a route: one ``_name`` builder in :class:`_AdminCalls`, one line in each client; the only
hand-written pair is ``iter_audit``, which walks ``audit`` page by page.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any

import attrs
import httpx

from livecore.operators import api
from livecore.operators.rules import PERSONAL_KEY_PREFIX

from . import models as m
from ._client import (
    DEFAULT_BASE_URL,
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    AsyncClient,
    SyncClient,
    async_method,
    sync_method,
)
from ._transport import Call, RetryPolicy
from .models import (
    DeliveryStatus,
    Environment,
    GrantKind,
    MemberRole,
    OperatorAction,
    Permission,
    RewardEntry,
)

__all__ = ["AdminClient", "AsyncAdminClient"]


def _check(personal_key: str, studio: str) -> None:
    if not personal_key.startswith(PERSONAL_KEY_PREFIX):
        # An API key here would only be refused with 401 invalid_api_key: say why before the network.
        raise ValueError(f"the admin clients take a member's personal key ({PERSONAL_KEY_PREFIX}...)")
    if not studio:
        raise ValueError("studio must not be empty")


def _env(env: Environment | str | None) -> Environment | None:
    """The environment to act in; None leaves the choice to the server: the one the game has API keys in,
    live when it has both (docs/operators.md#environments)."""
    return None if env is None else Environment(env)


class _AdminCalls:
    """The ``/admin/v1`` calls, written once for both clients."""

    studio: str  # the studio's key or id, set by the client's constructor

    def _at(self, game: str | None = None, **params: str) -> dict[str, str]:
        path = {"studio": self.studio, **params}
        if game is not None:
            path["game"] = game
        return path

    # --- Who and where ------------------------------------------------------------------------------

    def _me(self) -> Call[m.MeResponse]:
        """Who the key acts for: the member, its studio and games, the key's id and ``read_only``."""
        return Call(api.ME, m.MeResponse)

    def _members(self) -> Call[m.MembersResponse]:
        """The studio's members and their roles."""
        return Call(api.MEMBERS, m.MembersResponse, path=self._at())

    # --- Players ------------------------------------------------------------------------------------

    def _lookup_player(
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
        query = m.LookupQuery(env=_env(env))
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(
            api.PLAYER_LOOKUP,
            m.PlayerLookupResponse,
            path=self._at(game, externalId=external_id),
            query=query,
        )

    def _ban_player(
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
            query=m.EnvQuery(env=_env(env)),
            body=m.BanRequest(reason=reason),
            idempotency_key=idempotency_key,
        )

    def _unban_player(
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
            query=m.EnvQuery(env=_env(env)),
            idempotency_key=idempotency_key,
        )

    def _set_player_country(
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
            query=m.EnvQuery(env=_env(env)),
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
            query=m.EnvQuery(env=_env(env)),
            body=m.EditItemAttributesRequest(attributes=dict(attributes), reason=reason),
            idempotency_key=idempotency_key,
        )

    def _rotate_player_secret(
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
            query=m.EnvQuery(env=_env(env)),
            idempotency_key=idempotency_key,
        )

    # --- Grants and attempts ------------------------------------------------------------------------

    def _create_grant(
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
            query=m.EnvQuery(env=_env(env)),
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

    def _force_claim_grant(
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
            query=m.EnvQuery(env=_env(env)),
            body=None if reason is None else m.ReasonRequest(reason=reason),
            idempotency_key=idempotency_key,
        )

    def _force_complete_attempt(
        self,
        game: str,
        attempt_id: str,
        *,
        reason: str,
        score: float | None = None,
        env: Environment | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.AdminAttemptResponse]:
        """Complete an attempt in progress, its score replaced by ``score`` when given; no rewards are
        rolled. Raises :class:`~livecore_client.errors.AttemptNotFoundError` and
        :class:`~livecore_client.errors.AttemptNotInProgressError`."""
        return Call(
            api.FORCE_COMPLETE,
            m.AdminAttemptResponse,
            path=self._at(game, attemptId=attempt_id),
            query=m.EnvQuery(env=_env(env)),
            body=m.ForceCompleteRequest(reason=reason, score=score),
            idempotency_key=idempotency_key,
        )

    def _retry_reward_roll(
        self,
        game: str,
        attempt_id: str,
        *,
        env: Environment | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.RetryRewardRollResponse]:
        """Grant a completed attempt's milestone and completion rewards. Raises
        :class:`~livecore_client.errors.RewardsAlreadyGrantedError` when it has them already and
        :class:`~livecore_client.errors.AttemptInProgressError`."""
        return Call(
            api.RETRY_REWARD_ROLL,
            m.RetryRewardRollResponse,
            path=self._at(game, attemptId=attempt_id),
            query=m.EnvQuery(env=_env(env)),
            idempotency_key=idempotency_key,
        )

    # --- Webhooks -----------------------------------------------------------------------------------

    def _webhook_endpoints(self, game: str) -> Call[m.EndpointsResponse]:
        """The game's webhook endpoints (never their secrets)."""
        return Call(api.WEBHOOKS, m.EndpointsResponse, path=self._at(game))

    def _create_webhook_endpoint(
        self,
        game: str,
        *,
        name: str,
        env: Environment | str,
        url: str,
        events: Sequence[str],
        idempotency_key: str | None = None,
    ) -> Call[m.CreateEndpointResponse]:
        """Create a webhook endpoint receiving ``events`` (a single string is one kind); its signing
        ``secret`` is shown once. A live endpoint is dashboard-only:
        :class:`~livecore_client.errors.DashboardOnlyError`."""
        kinds = [events] if isinstance(events, str) else list(events)
        return Call(
            api.WEBHOOK_CREATE,
            m.CreateEndpointResponse,
            path=self._at(game),
            body=m.CreateEndpointRequest(name=name, env=Environment(env), url=url, events=kinds),
            idempotency_key=idempotency_key,
        )

    def _webhook_deliveries(
        self,
        game: str,
        endpoint_id: str,
        *,
        status: DeliveryStatus | str | None = None,
        limit: int | None = None,
    ) -> Call[m.DeliveriesResponse]:
        """An endpoint's deliveries, newest first, of ``status`` when given (``limit`` 50 by default, 1
        to 200). Raises :class:`~livecore_client.errors.WebhookEndpointNotFoundError`."""
        query = m.DeliveriesQuery(status=None if status is None else DeliveryStatus(status))
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(
            api.WEBHOOK_DELIVERIES,
            m.DeliveriesResponse,
            path=self._at(game, endpointId=endpoint_id),
            query=query,
        )

    def _unpause_webhook_endpoint(
        self, game: str, endpoint_id: str, *, idempotency_key: str | None = None
    ) -> Call[m.EndpointResponse]:
        """Resume a paused endpoint (``applied=False`` when it was not paused); its held deliveries go
        out oldest first."""
        return Call(
            api.WEBHOOK_UNPAUSE,
            m.EndpointResponse,
            path=self._at(game, endpointId=endpoint_id),
            idempotency_key=idempotency_key,
        )

    def _send_sample_webhook(
        self, game: str, endpoint_id: str, *, kind: str | None = None, idempotency_key: str | None = None
    ) -> Call[m.SendSampleResponse]:
        """Send a sample event of ``kind`` (or a placeholder) to the endpoint through the signed
        pipeline, marked ``X-Svc-Webhook-Test: 1``."""
        return Call(
            api.WEBHOOK_SEND_SAMPLE,
            m.SendSampleResponse,
            path=self._at(game, endpointId=endpoint_id),
            body=None if kind is None else m.SendSampleRequest(kind=kind),
            idempotency_key=idempotency_key,
        )

    def _replay_delivery(
        self, game: str, delivery_id: str, *, idempotency_key: str | None = None
    ) -> Call[m.ReplayResponse]:
        """Send a delivered or failed delivery's event again, as a new delivery. Raises
        :class:`~livecore_client.errors.DeliveryNotFoundError` and, for a pending one,
        :class:`~livecore_client.errors.ConflictError`."""
        return Call(
            api.DELIVERY_REPLAY,
            m.ReplayResponse,
            path=self._at(game, deliveryId=delivery_id),
            idempotency_key=idempotency_key,
        )

    # --- API keys (writes are dashboard-only) -------------------------------------------------------

    def _api_keys(self, game: str) -> Call[m.ApiKeysResponse]:
        """The game's API keys (never their secrets)."""
        return Call(api.API_KEYS, m.ApiKeysResponse, path=self._at(game))

    def _create_api_key(
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

    def _rotate_api_key(
        self, game: str, key_id: str, *, idempotency_key: str | None = None
    ) -> Call[m.ApiKeySecretResponse]:
        """Mint an API key's successor; the old one retires after 60 days. Dashboard-only."""
        return Call(
            api.API_KEY_ROTATE,
            m.ApiKeySecretResponse,
            path=self._at(game, keyId=key_id),
            idempotency_key=idempotency_key,
        )

    def _revoke_api_key(
        self, game: str, key_id: str, *, idempotency_key: str | None = None
    ) -> Call[m.ApiKeyResponse]:
        """Revoke an API key at once. Dashboard-only."""
        return Call(
            api.API_KEY_REVOKE,
            m.ApiKeyResponse,
            path=self._at(game, keyId=key_id),
            idempotency_key=idempotency_key,
        )

    # --- Personal keys (writes are dashboard-only) --------------------------------------------------

    def _personal_keys(self) -> Call[m.PersonalKeysResponse]:
        """Personal keys: the member's own; every member's for owners and admins."""
        return Call(api.PERSONAL_KEYS, m.PersonalKeysResponse, path=self._at())

    def _create_personal_key(
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

    def _revoke_personal_key(
        self, key_id: str, *, idempotency_key: str | None = None
    ) -> Call[m.PersonalKeyResponse]:
        """Revoke a personal key. Dashboard-only."""
        return Call(
            api.PERSONAL_KEY_REVOKE,
            m.PersonalKeyResponse,
            path=self._at(keyId=key_id),
            idempotency_key=idempotency_key,
        )

    # --- Audit --------------------------------------------------------------------------------------

    def _audit(
        self,
        *,
        game: str | None = None,
        action: OperatorAction | str | None = None,
        target: str | None = None,
        member: str | None = None,
        before: int | None = None,
        limit: int | None = None,
    ) -> Call[m.AuditResponse]:
        """One page of the studio's audit log, newest first, narrowed to a ``game`` (key or id), an
        ``action`` (``"player.ban"``), a ``target`` (``"player:<id>"``) or a ``member`` id. Pass the
        page's ``next_before`` as ``before`` for the next one (``None`` on the last);
        :meth:`iter_audit` walks them all. ``limit`` 50 by default, 1 to 200."""
        query = m.AuditQuery(
            game=game,
            action=None if action is None else str(action),
            target=target,
            member=member,
            before=before,
        )
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(api.AUDIT, m.AuditResponse, path=self._at(), query=query)

    def _game_audit(
        self,
        game: str,
        *,
        action: OperatorAction | str | None = None,
        target: str | None = None,
        member: str | None = None,
        before: int | None = None,
        limit: int | None = None,
    ) -> Call[m.AuditResponse]:
        """One page of one game's audit log (``game`` a key or id), newest first, filtered and paged as
        :meth:`audit`. Raises :class:`~livecore_client.errors.NotFoundError` for a game the studio does
        not have."""
        query = m.GameAuditQuery(
            action=None if action is None else str(action), target=target, member=member, before=before
        )
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(api.GAME_AUDIT, m.AuditResponse, path=self._at(game), query=query)


class AdminClient(SyncClient, _AdminCalls):
    """Blocking client for ``/admin/v1`` with a member's personal key, bound to ``studio`` (key or id).
    ``timeout`` applies only to the HTTP client it creates itself."""

    def __init__(
        self,
        personal_key: str,
        *,
        studio: str,
        base_url: str = DEFAULT_BASE_URL,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: httpx.Client | None = None,
        retry_policy: RetryPolicy | None = None,
    ) -> None:
        _check(personal_key, studio)
        super().__init__(
            personal_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            http_client=http_client,
            retry_policy=retry_policy,
        )
        self.studio = studio

    me = sync_method(_AdminCalls._me)
    members = sync_method(_AdminCalls._members)
    lookup_player = sync_method(_AdminCalls._lookup_player)
    ban_player = sync_method(_AdminCalls._ban_player)
    unban_player = sync_method(_AdminCalls._unban_player)
    set_player_country = sync_method(_AdminCalls._set_player_country)
    edit_item_attributes = sync_method(_AdminCalls._edit_item_attributes)
    rotate_player_secret = sync_method(_AdminCalls._rotate_player_secret)
    create_grant = sync_method(_AdminCalls._create_grant)
    force_claim_grant = sync_method(_AdminCalls._force_claim_grant)
    force_complete_attempt = sync_method(_AdminCalls._force_complete_attempt)
    retry_reward_roll = sync_method(_AdminCalls._retry_reward_roll)
    webhook_endpoints = sync_method(_AdminCalls._webhook_endpoints)
    create_webhook_endpoint = sync_method(_AdminCalls._create_webhook_endpoint)
    webhook_deliveries = sync_method(_AdminCalls._webhook_deliveries)
    unpause_webhook_endpoint = sync_method(_AdminCalls._unpause_webhook_endpoint)
    send_sample_webhook = sync_method(_AdminCalls._send_sample_webhook)
    replay_delivery = sync_method(_AdminCalls._replay_delivery)
    api_keys = sync_method(_AdminCalls._api_keys)
    create_api_key = sync_method(_AdminCalls._create_api_key)
    rotate_api_key = sync_method(_AdminCalls._rotate_api_key)
    revoke_api_key = sync_method(_AdminCalls._revoke_api_key)
    personal_keys = sync_method(_AdminCalls._personal_keys)
    create_personal_key = sync_method(_AdminCalls._create_personal_key)
    revoke_personal_key = sync_method(_AdminCalls._revoke_personal_key)
    audit = sync_method(_AdminCalls._audit)
    game_audit = sync_method(_AdminCalls._game_audit)

    def iter_audit(
        self,
        *,
        game: str | None = None,
        action: OperatorAction | str | None = None,
        target: str | None = None,
        member: str | None = None,
        page_size: int | None = None,
    ) -> Iterator[m.AuditEntryView]:
        """Every audit entry matching the filters, newest first, fetching pages of ``page_size``
        (default 50) as the iteration reaches them by following ``next_before``."""
        before: int | None = None
        while True:
            page = self.audit(
                game=game, action=action, target=target, member=member, before=before, limit=page_size
            )
            yield from page.entries
            # A keyset handed back unchanged would repeat this page for ever: stop instead.
            if page.next_before is None or page.next_before == before:
                return
            before = page.next_before


class AsyncAdminClient(AsyncClient, _AdminCalls):
    """Asyncio client for ``/admin/v1``; the same methods as :class:`AdminClient`, awaited."""

    def __init__(
        self,
        personal_key: str,
        *,
        studio: str,
        base_url: str = DEFAULT_BASE_URL,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: httpx.AsyncClient | None = None,
        retry_policy: RetryPolicy | None = None,
    ) -> None:
        _check(personal_key, studio)
        super().__init__(
            personal_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            http_client=http_client,
            retry_policy=retry_policy,
        )
        self.studio = studio

    me = async_method(_AdminCalls._me)
    members = async_method(_AdminCalls._members)
    lookup_player = async_method(_AdminCalls._lookup_player)
    ban_player = async_method(_AdminCalls._ban_player)
    unban_player = async_method(_AdminCalls._unban_player)
    set_player_country = async_method(_AdminCalls._set_player_country)
    edit_item_attributes = async_method(_AdminCalls._edit_item_attributes)
    rotate_player_secret = async_method(_AdminCalls._rotate_player_secret)
    create_grant = async_method(_AdminCalls._create_grant)
    force_claim_grant = async_method(_AdminCalls._force_claim_grant)
    force_complete_attempt = async_method(_AdminCalls._force_complete_attempt)
    retry_reward_roll = async_method(_AdminCalls._retry_reward_roll)
    webhook_endpoints = async_method(_AdminCalls._webhook_endpoints)
    create_webhook_endpoint = async_method(_AdminCalls._create_webhook_endpoint)
    webhook_deliveries = async_method(_AdminCalls._webhook_deliveries)
    unpause_webhook_endpoint = async_method(_AdminCalls._unpause_webhook_endpoint)
    send_sample_webhook = async_method(_AdminCalls._send_sample_webhook)
    replay_delivery = async_method(_AdminCalls._replay_delivery)
    api_keys = async_method(_AdminCalls._api_keys)
    create_api_key = async_method(_AdminCalls._create_api_key)
    rotate_api_key = async_method(_AdminCalls._rotate_api_key)
    revoke_api_key = async_method(_AdminCalls._revoke_api_key)
    personal_keys = async_method(_AdminCalls._personal_keys)
    create_personal_key = async_method(_AdminCalls._create_personal_key)
    revoke_personal_key = async_method(_AdminCalls._revoke_personal_key)
    audit = async_method(_AdminCalls._audit)
    game_audit = async_method(_AdminCalls._game_audit)

    async def iter_audit(
        self,
        *,
        game: str | None = None,
        action: OperatorAction | str | None = None,
        target: str | None = None,
        member: str | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[m.AuditEntryView]:
        """Every audit entry matching the filters, newest first, fetching pages of ``page_size``
        (default 50) as the iteration reaches them by following ``next_before`` (``async for``)."""
        before: int | None = None
        while True:
            page = await self.audit(
                game=game, action=action, target=target, member=member, before=before, limit=page_size
            )
            for entry in page.entries:
                yield entry
            # A keyset handed back unchanged would repeat this page for ever: stop instead.
            if page.next_before is None or page.next_before == before:
                return
            before = page.next_before
