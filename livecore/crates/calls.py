"""The crate route's call, as the typed clients send it (``sdk.grants.open_crate``) and a simulation runs
it (``ada.grants.open_crate``): its builder (:mod:`livecore.api.call`), which joins the grants' calls
on the grants resource."""

from __future__ import annotations

from livecore.api.call import Call, SdkCalls
from livecore.crates import api


class CratesCalls(SdkCalls):
    """The ``/sdk/v1`` crate calls."""

    def _open_crate(
        self,
        external_id: str,
        grant_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[api.OpenCrateResponse]:
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
            api.SDK_OPEN_CRATE,
            api.OpenCrateResponse,
            path={"externalId": external_id, "grantId": grant_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )
