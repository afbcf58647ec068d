"""The grant routes' calls, as the typed clients send them (``sdk.grants``, ``server.grants``) and a
simulation runs them (``ada.grants``, ``sim.server.grants``): one builder per route
(:mod:`livecore.api.call`). Opening a crate grant is the crates' call (:mod:`livecore.crates.calls`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from livecore.api.call import Call, SdkCalls, ServerCalls, new_idempotency_key
from livecore.grants import api
from livecore.grants.api import GrantSourceKind, RewardEntry
from livecore.grants.rules import GrantKind


class GrantsCalls(SdkCalls):
    """The ``/sdk/v1`` grant calls."""

    def _pending(self, external_id: str, *, player_secret: str | None = None) -> Call[api.GrantListResponse]:
        """The grants waiting for this player to claim, oldest first."""
        return Call(
            api.SDK_PENDING_GRANTS,
            api.GrantListResponse,
            path={"externalId": external_id},
            player_secret=self._secret(player_secret),
        )

    def _claim(
        self,
        external_id: str,
        grant_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[api.GrantResponse]:
        """Claim a pending grant: its entries are credited now and the grant comes back ``claimed``.

        Raises :class:`~livecore_client.errors.GrantAlreadyClaimedError` for a grant claimed before (by
        another call, a server ack or an operator), :class:`~livecore_client.errors.GrantExpiredError`
        past its ``expires_at`` and :class:`~livecore_client.errors.GrantNotFoundError` for an unknown id.
        The grant that delivers a gift is claimed under the gift's rule instead:
        :class:`~livecore_client.errors.GiftAlreadyClaimedError` and
        :class:`~livecore_client.errors.GiftExpiredError` (410). A crate grant is opened, not claimed:
        :class:`~livecore_client.errors.CrateMustBeOpenedError` (use :meth:`open_crate`).
        """
        return Call(
            api.SDK_CLAIM_GRANT,
            api.GrantResponse,
            path={"externalId": external_id, "grantId": grant_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )


class ServerGrantsCalls(ServerCalls):
    """The ``/server/v1`` grant calls."""

    def _create(
        self,
        external_id: str,
        entries: Sequence[RewardEntry],
        *,
        kind: GrantKind | str = GrantKind.REWARD,
        expires_at: datetime | None = None,
        source_kind: GrantSourceKind = GrantSourceKind.API,
        source_ref_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> Call[api.GrantResponse]:
        """Create a pending grant of ``entries`` for the player (created on first contact).

        Derive ``idempotency_key`` from your own reward id (``f"season-reward:{player}:{season}"``): a
        repeated create with the same key and body answers the original grant instead of a second one.
        Without one, a random key is made once per call and reused by its retries. The player receives
        the grant through ``grants.pending``/``grants.claim``, or your backend credits it and calls
        :meth:`ack`.

        ``kind="crate"`` sends crates, which the player opens (``sdk.grants.open_crate``): its entries are
        ``RewardEntry(type="crate", key=<a crate of the manifest>, amount=<how many>)``. An unknown crate
        raises :class:`~livecore_client.errors.ResourceNotFoundError`; mixing crate and reward entries, or
        more than 1,000 draws in all, :class:`~livecore_client.errors.InvalidRequestError`.
        """
        # The body field is required by the model, so the key is made here, once, before any retry: a
        # random 16-byte key, as the clients stamp every other write (livecore_client._transport).
        key = new_idempotency_key() if idempotency_key is None else idempotency_key
        return Call(
            api.SERVER_CREATE_GRANT,
            api.GrantResponse,
            path={"externalId": external_id},
            body=api.CreateGrantRequest(
                idempotency_key=key,
                entries=list(entries),
                kind=GrantKind(kind),
                expires_at=expires_at,
                source_kind=source_kind,
                source_ref_id=source_ref_id,
                metadata=None if metadata is None else dict(metadata),
            ),
            idempotency_key=key,
        )

    def _ack(
        self, external_id: str, grant_id: str, *, idempotency_key: str | None = None
    ) -> Call[api.GrantResponse]:
        """Mark a grant claimed by your backend (``acked_by="server_api"``) after crediting it yourself.

        Idempotent: acking a grant that is already claimed answers it as it is.
        """
        return Call(
            api.SERVER_ACK_GRANT,
            api.GrantResponse,
            path={"externalId": external_id, "grantId": grant_id},
            idempotency_key=idempotency_key,
        )
