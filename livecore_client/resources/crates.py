"""Crates: opening a crate grant, ``sdk.grants.open_crate``. The crates' call joins the grants' on the
grants resource (:class:`Grants`, which the SDK clients bind as ``grants``)."""

from __future__ import annotations

from livecore.api.call import Call
from livecore.crates.api import SDK_OPEN_CRATE

from .. import models as m
from .._client import async_method, sync_method
from . import grants
from ._base import SdkCalls

__all__ = ["AsyncGrants", "Grants"]


class _CratesCalls(SdkCalls):
    """The ``/sdk/v1`` crate calls."""

    def _open_crate(
        self,
        external_id: str,
        grant_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.OpenCrateResponse]:
        """Open a pending crate grant: its table is drawn, and the answer holds the crate grant (now
        ``claimed``) and the contents grant, created and claimed at once (its entries are what was drawn).

        Pass ``idempotency_key`` so that a retry answers the same contents instead of an error. Raises
        :class:`~livecore_client.errors.GrantNotFoundError` for another player's or an unknown grant,
        :class:`~livecore_client.errors.NotACrateError` for a reward grant,
        :class:`~livecore_client.errors.GrantAlreadyClaimedError` for a crate opened before,
        :class:`~livecore_client.errors.GrantExpiredError` past its ``expires_at``,
        :class:`~livecore_client.errors.ResourceNotFoundError` when its crate was removed from the manifest,
        and :class:`~livecore_client.errors.PlayerBannedError` for a banned player.
        """
        return Call(
            SDK_OPEN_CRATE,
            m.OpenCrateResponse,
            path={"externalId": external_id, "grantId": grant_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )


class Grants(grants.Grants, _CratesCalls):
    """``sdk.grants``: the ``/sdk/v1`` grant calls, and opening a crate grant."""

    open_crate = sync_method(_CratesCalls._open_crate)


class AsyncGrants(grants.AsyncGrants, _CratesCalls):
    """The methods of :class:`Grants`, awaited."""

    open_crate = async_method(_CratesCalls._open_crate)
