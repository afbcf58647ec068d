"""Opening a crate grant (docs/grants.md#crates): one write that claims the crate grant, draws its
contents (:func:`livecore.crates.rules.contents`) into a new grant, and claims that one at once."""

from __future__ import annotations

import attrs

from livecore.commands import Runtime, emit
from livecore.crates.rules import CONTENTS_SOURCE_KIND, CrateEntry, contents
from livecore.crates.webhooks import CrateOpened
from livecore.grants.commands import GrantsTx, get_grant, issue_grant, settle_loaded
from livecore.grants.rules import Grant, GrantKind, GrantTrigger, transition
from livecore.grants.webhooks import GrantClaimed
from livecore.players.commands import load_game
from livecore.players.rules import Player
from livecore.scope import Scope


@attrs.frozen
class Opened:
    """The crate grant, claimed, and the contents grant drawn from it, claimed too."""

    crate: Grant
    contents: Grant


def open_crate(tx: GrantsTx, rt: Runtime, scope: Scope, player: Player, grant_id: str) -> Opened:
    """The player opens one of its crate grants.

    Refusals (:func:`livecore.grants.rules.transition`, in order): another player's or an unknown grant 404
    ``grant_not_found``; a reward grant 409 ``not_a_crate``; claimed 409 ``grant_already_claimed``;
    expired 409 ``grant_expired``; a crate kind no longer in the manifest 404 ``resource_not_found``.

    Fires ``grant.claimed`` (the crate), ``grant.created`` and ``grant.claimed`` (the contents, with
    ``wallet.changed``/``inventory.changed`` between them in a platform-managed game), then
    ``crate.opened``."""
    crate = get_grant(tx, scope, player, grant_id)
    opened, _ = transition(crate, GrantTrigger.OPEN, rt.clock.now())
    if rt.checks.active:
        rt.checks.hook.before_open_crate(tx=tx, rt=rt, scope=scope, player=player, crate=crate)
    drawn = contents(load_game(tx, scope), [e for e in crate.entries if isinstance(e, CrateEntry)], rt.rng)
    tx.grants.update(opened)
    emit(tx, rt, scope, GrantClaimed.of(opened))
    box = issue_grant(
        tx,
        rt,
        scope,
        player,
        kind=GrantKind.REWARD,
        entries=drawn,
        expires_at=None,
        source_kind=CONTENTS_SOURCE_KIND,
        source_ref_id=opened.id,
    )
    deposited, _ = settle_loaded(tx, rt, scope, player, box, None, GrantTrigger.CLAIM)
    emit(tx, rt, scope, CrateOpened.of(opened, deposited))
    if rt.checks.active:
        rt.checks.hook.after_open_crate(
            tx=tx, rt=rt, scope=scope, player=player, crate=opened, contents=deposited
        )
    return Opened(crate=opened, contents=deposited)


__all__ = ["Opened", "open_crate"]
