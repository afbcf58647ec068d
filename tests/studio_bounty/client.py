"""The bounties area in the typed admin client: ``admin.bounties.note(game, external_id, text)``, built as
the built-in resources are (docs/client.md#your-own-resources)."""

from __future__ import annotations

from livecore.api.call import Call
from livecore_client.admin import AdminClient, AsyncAdminClient
from livecore_client.resources import (
    AsyncResource,
    SyncResource,
    async_method,
    resource,
    sync_method,
)
from livecore_client.resources.operators import AdminCalls
from tests.studio_bounty import ADMIN_NOTE, NoteRequest, NoteResponse


class BountyAdminCalls(AdminCalls):
    def _note(
        self, game: str, external_id: str, *, text: str, idempotency_key: str | None = None
    ) -> Call[NoteResponse]:
        """Note a bounty on a player (audited as ``bounties.note``)."""
        return Call(
            ADMIN_NOTE,
            NoteResponse,
            path=self._at(game, externalId=external_id),
            body=NoteRequest(text=text),
            idempotency_key=idempotency_key,
        )


class Bounties(SyncResource["BountyAdmin"], BountyAdminCalls):
    note = sync_method(BountyAdminCalls._note)


class AsyncBounties(AsyncResource["AsyncBountyAdmin"], BountyAdminCalls):
    note = async_method(BountyAdminCalls._note)


class BountyAdmin(AdminClient):
    bounties = resource(Bounties)


class AsyncBountyAdmin(AsyncAdminClient):
    bounties = resource(AsyncBounties)
