"""The operator routes' calls, as the admin client sends them (``admin.players``, ``admin.webhooks``, ...):
one builder per route (:mod:`livecore.api.call`), each naming the client's studio and the route's game
and records in its path. Roles, actions and an attempt's answer are named here as the client's models
name them (``MemberRole``, ``OperatorAction``, ``AdminAttemptResponse``), so the client's methods and
their table in docs/client.md read the same."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from livecore.api.admin import EnvQuery
from livecore.api.call import Call
from livecore.economy import admin as economy_admin
from livecore.economy.api import ItemAdjustResponse
from livecore.grants import admin as grants_admin
from livecore.grants.api import RewardEntry
from livecore.grants.rules import GrantKind
from livecore.live_events import admin as events_admin
from livecore.live_events.admin import AttemptResponse as AdminAttemptResponse
from livecore.operators import api
from livecore.operators.audit_actions import OperatorAction
from livecore.player_tools import admin as tools_admin
from livecore.player_tools.api import BanPlayerResponse, BanRequest
from livecore.players import admin as players_admin
from livecore.roles import Role as MemberRole
from livecore.scope import Environment, Permission
from livecore.webhooks.delivery import DeliveryStatus


class HoldsStudio(Protocol):
    """What an ``/admin/v1`` builder reads from whatever sends its calls: the studio it is bound to (its
    key or ``std_`` id)."""

    @property
    def studio(self) -> str: ...


class AdminCalls:
    """Base of the ``/admin/v1`` builders: every path starts with the sender's studio."""

    if TYPE_CHECKING:
        # For the type checker only: a resource's _client is its constructor's argument, and a property
        # here would hide it at run time.
        @property
        def _client(self) -> HoldsStudio: ...

    def _at(self, game: str | None = None, **params: str) -> dict[str, str]:
        path = {"studio": self._client.studio, **params}
        if game is not None:
            path["game"] = game
        return path


def env_of(env: Environment | str | None) -> Environment | None:
    """The environment to act in; None leaves the choice to the server: the one the game has API keys in,
    live when it has both (docs/operators.md#environments)."""
    return None if env is None else Environment(env)


class AdminMembersCalls(AdminCalls):
    """The ``/admin/v1`` calls about the key and the studio's members."""

    def _me(self) -> Call[api.MeResponse]:
        """Who the key acts for: the member, its studio and games, the key's id and ``read_only``."""
        return Call(api.ME, api.MeResponse)

    def _list(self) -> Call[api.MembersResponse]:
        """The studio's members and their roles."""
        return Call(api.MEMBERS, api.MembersResponse, path=self._at())


class AdminPlayersCalls(AdminCalls):
    """The ``/admin/v1`` player calls."""

    def _lookup(
        self,
        game: str,
        external_id: str,
        *,
        env: Environment | str | None = None,
        limit: int | None = None,
    ) -> Call[api.PlayerLookupResponse]:
        """Everything about one player: profile, ban, friends, wallet, inventory, recent grants, the
        audit entries naming the player and webhook deliveries (``limit`` per list, 20 by default, 1 to
        200). Raises :class:`~livecore_client.errors.PlayerNotFoundError`."""
        query = api.LookupQuery(env=env_of(env))
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(
            api.PLAYER_LOOKUP,
            api.PlayerLookupResponse,
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
    ) -> Call[BanPlayerResponse]:
        """Ban a player; ``applied`` is true only on the transition (which fires ``player.banned``)."""
        return Call(
            tools_admin.PLAYER_BAN,
            BanPlayerResponse,
            path=self._at(game, externalId=external_id),
            query=EnvQuery(env=env_of(env)),
            body=BanRequest(reason=reason),
            idempotency_key=idempotency_key,
        )

    def _unban(
        self,
        game: str,
        external_id: str,
        *,
        env: Environment | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[BanPlayerResponse]:
        """Lift a player's ban; ``applied=False`` when the player was not banned."""
        return Call(
            tools_admin.PLAYER_UNBAN,
            BanPlayerResponse,
            path=self._at(game, externalId=external_id),
            query=EnvQuery(env=env_of(env)),
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
    ) -> Call[tools_admin.SetCountryResponse]:
        """Show and play the player in ``country`` (an ISO 3166-1 alpha-2 code) whatever its requests
        resolve to, or with ``None`` clear the override (the resolved country shows again); ``applied``
        is false when the override was already so. Raises :class:`~livecore_client.errors.InvalidRequestError`
        for a code that is not a country's."""
        return Call(
            tools_admin.SET_COUNTRY,
            tools_admin.SetCountryResponse,
            path=self._at(game, externalId=external_id),
            query=EnvQuery(env=env_of(env)),
            body=tools_admin.SetCountryRequest(country=country, reason=reason),
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
    ) -> Call[ItemAdjustResponse]:
        """Set the player's values of item ``item_key``'s attributes, key by key (the others keep theirs);
        each must be an attribute the catalog declares for the item, of its default's type, else
        :class:`~livecore_client.errors.InvalidRequestError` naming ``attributes.<key>``. Answers the item
        with its merged ``parameters`` (``delta`` 0)."""
        return Call(
            economy_admin.EDIT_ITEM_ATTRIBUTES,
            ItemAdjustResponse,
            path=self._at(game, externalId=external_id, itemKey=item_key),
            query=EnvQuery(env=env_of(env)),
            body=economy_admin.EditItemAttributesRequest(attributes=dict(attributes), reason=reason),
            idempotency_key=idempotency_key,
        )

    def _rotate_secret(
        self,
        game: str,
        external_id: str,
        *,
        env: Environment | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[players_admin.RotateSecretResponse]:
        """Mint a new player secret (shown once: hand it to the player's client); the old one stops
        working."""
        return Call(
            players_admin.ROTATE_SECRET,
            players_admin.RotateSecretResponse,
            path=self._at(game, externalId=external_id),
            query=EnvQuery(env=env_of(env)),
            idempotency_key=idempotency_key,
        )


class AdminGrantsCalls(AdminCalls):
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
    ) -> Call[grants_admin.AdminGrantResponse]:
        """A manual grant: a pending grant of ``entries`` for the player (created on first contact),
        ``source_kind`` ``admin``. Raises :class:`~livecore_client.errors.ResourceNotFoundError` for an
        unknown currency, item or crate."""
        return Call(
            grants_admin.MANUAL_GRANT,
            grants_admin.AdminGrantResponse,
            path=self._at(game),
            query=EnvQuery(env=env_of(env)),
            body=grants_admin.ManualGrantRequest(
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
    ) -> Call[grants_admin.AdminGrantResponse]:
        """Claim a stuck grant whatever its status, credited once. Raises
        :class:`~livecore_client.errors.GrantNotFoundError` and
        :class:`~livecore_client.errors.CrateMustBeOpenedError`."""
        return Call(
            grants_admin.FORCE_CLAIM,
            grants_admin.AdminGrantResponse,
            path=self._at(game, grantId=grant_id),
            query=EnvQuery(env=env_of(env)),
            body=None if reason is None else grants_admin.ReasonRequest(reason=reason),
            idempotency_key=idempotency_key,
        )


class AdminLiveEventsCalls(AdminCalls):
    """The ``/admin/v1`` attempt calls."""

    def _force_complete_attempt(
        self,
        game: str,
        attempt_id: str,
        *,
        reason: str,
        score: float | None = None,
        env: Environment | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[AdminAttemptResponse]:
        """Complete an attempt in progress, its score replaced by ``score`` when given; no rewards are
        rolled. Raises :class:`~livecore_client.errors.AttemptNotFoundError` and
        :class:`~livecore_client.errors.AttemptNotInProgressError`."""
        return Call(
            events_admin.FORCE_COMPLETE,
            AdminAttemptResponse,
            path=self._at(game, attemptId=attempt_id),
            query=EnvQuery(env=env_of(env)),
            body=events_admin.ForceCompleteRequest(reason=reason, score=score),
            idempotency_key=idempotency_key,
        )

    def _retry_reward_roll(
        self,
        game: str,
        attempt_id: str,
        *,
        env: Environment | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[events_admin.RetryRewardRollResponse]:
        """Grant a completed attempt's milestone and completion rewards. Raises
        :class:`~livecore_client.errors.RewardsAlreadyGrantedError` when it has them already and
        :class:`~livecore_client.errors.AttemptInProgressError`."""
        return Call(
            events_admin.RETRY_REWARD_ROLL,
            events_admin.RetryRewardRollResponse,
            path=self._at(game, attemptId=attempt_id),
            query=EnvQuery(env=env_of(env)),
            idempotency_key=idempotency_key,
        )


class AdminWebhooksCalls(AdminCalls):
    """The ``/admin/v1`` webhook calls."""

    def _endpoints(self, game: str) -> Call[api.EndpointsResponse]:
        """The game's webhook endpoints (never their secrets)."""
        return Call(api.WEBHOOKS, api.EndpointsResponse, path=self._at(game))

    def _create_endpoint(
        self,
        game: str,
        *,
        name: str,
        env: Environment | str,
        url: str,
        events: Sequence[str],
        idempotency_key: str | None = None,
    ) -> Call[api.CreateEndpointResponse]:
        """Create a webhook endpoint receiving ``events`` (a single string is one kind); its signing
        ``secret`` is shown once. A live endpoint is dashboard-only:
        :class:`~livecore_client.errors.DashboardOnlyError`."""
        kinds = [events] if isinstance(events, str) else list(events)
        return Call(
            api.WEBHOOK_CREATE,
            api.CreateEndpointResponse,
            path=self._at(game),
            body=api.CreateEndpointRequest(name=name, env=Environment(env), url=url, events=kinds),
            idempotency_key=idempotency_key,
        )

    def _deliveries(
        self,
        game: str,
        endpoint_id: str,
        *,
        status: DeliveryStatus | str | None = None,
        limit: int | None = None,
    ) -> Call[api.DeliveriesResponse]:
        """An endpoint's deliveries, newest first, of ``status`` when given (``limit`` 50 by default, 1
        to 200). Raises :class:`~livecore_client.errors.WebhookEndpointNotFoundError`."""
        query = api.DeliveriesQuery(status=None if status is None else DeliveryStatus(status))
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(
            api.WEBHOOK_DELIVERIES,
            api.DeliveriesResponse,
            path=self._at(game, endpointId=endpoint_id),
            query=query,
        )

    def _unpause_endpoint(
        self, game: str, endpoint_id: str, *, idempotency_key: str | None = None
    ) -> Call[api.EndpointResponse]:
        """Resume a paused endpoint (``applied=False`` when it was not paused); its held deliveries go
        out oldest first."""
        return Call(
            api.WEBHOOK_UNPAUSE,
            api.EndpointResponse,
            path=self._at(game, endpointId=endpoint_id),
            idempotency_key=idempotency_key,
        )

    def _send_sample(
        self, game: str, endpoint_id: str, *, kind: str | None = None, idempotency_key: str | None = None
    ) -> Call[api.SendSampleResponse]:
        """Send a sample event of ``kind`` (or a placeholder) to the endpoint through the signed
        pipeline, marked ``X-Svc-Webhook-Test: 1``."""
        return Call(
            api.WEBHOOK_SEND_SAMPLE,
            api.SendSampleResponse,
            path=self._at(game, endpointId=endpoint_id),
            body=None if kind is None else api.SendSampleRequest(kind=kind),
            idempotency_key=idempotency_key,
        )

    def _rotate_secret(
        self,
        game: str,
        endpoint_id: str,
        *,
        overlap_seconds: int | None = None,
        idempotency_key: str | None = None,
    ) -> Call[api.CreateEndpointResponse]:
        """Mint a new signing ``secret`` for the endpoint, shown once. The old secret signs every delivery
        beside it for ``overlap_seconds`` (0 to 604800; 86400 by default; 0 stops it at once), until
        ``endpoint.previous_secret_expires_at``. A live endpoint is dashboard-only:
        :class:`~livecore_client.errors.DashboardOnlyError`."""
        return Call(
            api.WEBHOOK_ROTATE_SECRET,
            api.CreateEndpointResponse,
            path=self._at(game, endpointId=endpoint_id),
            body=None
            if overlap_seconds is None
            else api.RotateEndpointSecretRequest(overlap_seconds=overlap_seconds),
            idempotency_key=idempotency_key,
        )

    def _replay_delivery(
        self, game: str, delivery_id: str, *, idempotency_key: str | None = None
    ) -> Call[api.ReplayResponse]:
        """Send a delivered or failed delivery's event again, as a new delivery. Raises
        :class:`~livecore_client.errors.DeliveryNotFoundError` and, for a pending one,
        :class:`~livecore_client.errors.ConflictError`."""
        return Call(
            api.DELIVERY_REPLAY,
            api.ReplayResponse,
            path=self._at(game, deliveryId=delivery_id),
            idempotency_key=idempotency_key,
        )


class AdminApiKeysCalls(AdminCalls):
    """The ``/admin/v1`` API key calls."""

    def _list(self, game: str) -> Call[api.ApiKeysResponse]:
        """The game's API keys (never their secrets)."""
        return Call(api.API_KEYS, api.ApiKeysResponse, path=self._at(game))

    def _create(
        self,
        game: str,
        *,
        name: str,
        env: Environment | str,
        permission: Permission | str,
        idempotency_key: str | None = None,
    ) -> Call[api.ApiKeySecretResponse]:
        """Create an API key (its secret shown once). Dashboard-only: a personal key raises
        :class:`~livecore_client.errors.DashboardOnlyError`."""
        return Call(
            api.API_KEY_CREATE,
            api.ApiKeySecretResponse,
            path=self._at(game),
            body=api.CreateApiKeyRequest(name=name, env=Environment(env), permission=Permission(permission)),
            idempotency_key=idempotency_key,
        )

    def _rotate(
        self, game: str, key_id: str, *, idempotency_key: str | None = None
    ) -> Call[api.ApiKeySecretResponse]:
        """Mint an API key's successor; the old one retires after 60 days. Dashboard-only."""
        return Call(
            api.API_KEY_ROTATE,
            api.ApiKeySecretResponse,
            path=self._at(game, keyId=key_id),
            idempotency_key=idempotency_key,
        )

    def _revoke(
        self, game: str, key_id: str, *, idempotency_key: str | None = None
    ) -> Call[api.ApiKeyResponse]:
        """Revoke an API key at once. Dashboard-only."""
        return Call(
            api.API_KEY_REVOKE,
            api.ApiKeyResponse,
            path=self._at(game, keyId=key_id),
            idempotency_key=idempotency_key,
        )


class AdminPersonalKeysCalls(AdminCalls):
    """The ``/admin/v1`` personal key calls."""

    def _list(self) -> Call[api.PersonalKeysResponse]:
        """Personal keys: the member's own; every member's for owners and admins."""
        return Call(api.PERSONAL_KEYS, api.PersonalKeysResponse, path=self._at())

    def _create(
        self,
        *,
        expires_in_days: int,
        read_only: bool = False,
        role: MemberRole | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[api.PersonalKeySecretResponse]:
        """Make the member's personal key (7 to 365 days; the one before is revoked). Dashboard-only:
        a personal key raises :class:`~livecore_client.errors.DashboardOnlyError`."""
        return Call(
            api.PERSONAL_KEY_CREATE,
            api.PersonalKeySecretResponse,
            path=self._at(),
            body=api.CreatePersonalKeyRequest(
                expires_in_days=expires_in_days,
                read_only=read_only,
                role=None if role is None else MemberRole(role),
            ),
            idempotency_key=idempotency_key,
        )

    def _revoke(self, key_id: str, *, idempotency_key: str | None = None) -> Call[api.PersonalKeyResponse]:
        """Revoke a personal key. Dashboard-only."""
        return Call(
            api.PERSONAL_KEY_REVOKE,
            api.PersonalKeyResponse,
            path=self._at(keyId=key_id),
            idempotency_key=idempotency_key,
        )


class AdminAuditCalls(AdminCalls):
    """The ``/admin/v1`` audit calls."""

    def _list(
        self,
        *,
        game: str | None = None,
        action: OperatorAction | str | None = None,
        target: str | None = None,
        member: str | None = None,
        before: int | None = None,
        limit: int | None = None,
    ) -> Call[api.AuditResponse]:
        """One page of the studio's audit log, newest first, narrowed to a ``game`` (key or id), an
        ``action`` (``"player.ban"``), a ``target`` (``"player:<id>"``) or a ``member`` id. Pass the
        page's ``next_before`` as ``before`` for the next one (``None`` on the last);
        :meth:`iter` walks them all. ``limit`` 50 by default, 1 to 200."""
        query = api.AuditQuery(
            game=game,
            action=None if action is None else str(action),
            target=target,
            member=member,
            before=before,
        )
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(api.AUDIT, api.AuditResponse, path=self._at(), query=query)

    def _game(
        self,
        game: str,
        *,
        action: OperatorAction | str | None = None,
        target: str | None = None,
        member: str | None = None,
        before: int | None = None,
        limit: int | None = None,
    ) -> Call[api.AuditResponse]:
        """One page of one game's audit log (``game`` a key or id), newest first, filtered and paged as
        :meth:`list`. Raises :class:`~livecore_client.errors.NotFoundError` for a game the studio does
        not have."""
        query = api.GameAuditQuery(
            action=None if action is None else str(action), target=target, member=member, before=before
        )
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(api.GAME_AUDIT, api.AuditResponse, path=self._at(game), query=query)
