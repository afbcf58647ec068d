"""The grant actions of a simulated player (``sdk.grants``): pending grants, claims (opening a crate grant is
the crates' action, :mod:`livecore.crates.simulation`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from livecore.grants.api import CreateGrantRequest, GrantListResponse, GrantResponse, GrantView, RewardEntry
from livecore.grants.commands import GrantsTx, create_grant, settle
from livecore.grants.rules import PENDING_LIMIT, GrantKind, GrantTrigger, kind_of
from livecore.simulation.actions import SIMULATED_KEY, Actions, ServerActions, body, external_id_of

if TYPE_CHECKING:
    from livecore.simulation.handle import Handle


class Grants(Actions):
    def pending(self) -> GrantListResponse:
        """The player's pending grants, oldest first."""
        now = self._sim.clock.now()
        return self._read(
            lambda tx, me: GrantListResponse(
                grants=[GrantView.of(g) for g in tx.grants.pending(me.id, now, PENDING_LIMIT)]
            )
        )

    def claim(self, grant_id: str) -> GrantResponse:
        """Claim a pending reward grant: its entries are credited (platform-managed games)."""
        sim = self._sim
        return self._write(
            lambda tx, me: GrantResponse(
                grant=GrantView.of(settle(tx, sim.rt, sim.scope, me, grant_id, GrantTrigger.CLAIM))
            )
        )

    def claim_all(self) -> list[GrantResponse]:
        """Claim every pending grant of a kind that is claimed (crates stay to be opened)."""
        claimed = [g for g in self.pending().grants if GrantTrigger.CLAIM in kind_of(g.kind).triggers]
        return [self.claim(g.grant_id) for g in claimed]


class ServerGrants(ServerActions):
    def create(
        self,
        external_id: Handle | str,
        entries: Sequence[RewardEntry | Mapping[str, Any]],
        *,
        kind: GrantKind | str = GrantKind.REWARD,
        expires_at: datetime | None = None,
        source_kind: str | None = None,
        source_ref_id: str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> GrantResponse:
        """The studio's backend grants the player ``entries`` (the client's ``RewardEntry``, or its JSON
        form: ``{"type": "currency", "key": "coins", "amount": 10}``; crates in a crate grant), to claim or
        open."""
        sim = self._sim
        asked = body(
            CreateGrantRequest,
            idempotency_key=SIMULATED_KEY,
            entries=list(entries),
            kind=kind,
            expires_at=expires_at,
            source_kind=source_kind,
            source_ref_id=source_ref_id,
            metadata=metadata,
        )

        def op(tx: GrantsTx) -> GrantResponse:
            grant = create_grant(
                tx,
                sim.rt,
                sim.server_scope,
                external_id_of(external_id) or "",
                kind=asked.kind,
                entries=[e.to_entry(f"entries[{i}].parameters") for i, e in enumerate(asked.entries)],
                expires_at=asked.expires_at,
                source_kind=asked.source_kind.value,
                source_ref_id=asked.source_ref_id,
                metadata=asked.metadata,
            )
            return GrantResponse(grant=GrantView.of(grant))

        return self._run(op)
