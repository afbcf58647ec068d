"""A studio backend that grants a reward and acks it after crediting it.

In a studio-managed economy the balances live in the studio's own database. The backend pays a season
reward by creating a grant (so the platform has the record, webhooks fire and support can see it),
crediting the grant's entries in its own database, then acking the grant so the game client does not
offer it to claim again.

The job must survive being run twice (a timeout, a retried queue message, a crash between two steps):

- the grant's idempotency key is derived from the studio's own reward id, so a second create answers the
  same grant instead of making another;
- the studio's database records which grant ids it credited, so crediting the same grant again does
  nothing;
- acks are idempotent.

Run it against a server (only the server key is needed):

    livecore-server demo
    LIVECORE_SERVER_KEY=lc_test_... python examples/studio_backend_grants.py

Against a server it needs only the plain install, the core and the clients
(docs/client.md#installing-only-the-client). Without ``LIVECORE_SERVER_KEY`` it starts its own demo server
on a temporary SQLite file, which needs the server installed (the ``server`` extra); on the plain install it
says so in one line.
"""

from __future__ import annotations

import os
import secrets
from collections import Counter

from livecore.games import ResourceType
from livecore.grants.api import GrantView, RewardEntry
from livecore_client import ServerClient

SEASON_REWARD = [
    RewardEntry(type=ResourceType.CURRENCY, key="coins", amount=100),
    RewardEntry(type=ResourceType.ITEM, key="energy-potion", amount=2),
]


class StudioDatabase:
    """Stands in for the studio's own database. A real one would add the amounts and record the grant
    id in one transaction, with the grant id as a unique key."""

    def __init__(self) -> None:
        self.balances: dict[str, Counter[str]] = {}
        self.credited_grants: set[str] = set()

    def credit(self, grant: GrantView) -> bool:
        """Credit the grant's entries once; ``False`` when this grant was already credited."""
        if grant.grant_id in self.credited_grants:
            return False
        wallet = self.balances.setdefault(grant.external_player_id, Counter())
        for entry in grant.entries:
            wallet[entry.key] += entry.amount
        self.credited_grants.add(grant.grant_id)
        return True


def pay_season_reward(server: ServerClient, db: StudioDatabase, player: str, season: int) -> GrantView:
    """Create the grant, credit it in the studio database, then ack it. Safe to run again."""
    reward_id = f"season-reward:{player}:{season}"
    grant = server.grants.create(
        player,
        SEASON_REWARD,
        source_ref_id=reward_id,
        metadata={"season": season},
        idempotency_key=reward_id,
    ).grant
    # A replayed create answers the original response, so its status may be stale ("pending").
    print(f"grant {grant.grant_id} for {reward_id}: {grant.status}")

    if db.credit(grant):
        entries = ", ".join(f"{e.key} +{e.amount}" for e in grant.entries)
        print(f"credited in the studio database: {entries}")
    else:
        print("already credited in the studio database: skipped")

    acked = server.grants.ack(player, grant.grant_id, idempotency_key=f"ack:{grant.grant_id}").grant
    print(f"acked: status={acked.status} ackedBy={acked.acked_by}")
    return grant


def run(base_url: str, server_key: str) -> None:
    player = f"player-{secrets.token_hex(3)}"
    db = StudioDatabase()
    with ServerClient(server_key, base_url=base_url) as server:
        print("ping:", server.system.ping().environment)
        first = pay_season_reward(server, db, player, season=3)
        print("-- the same job runs again (say the worker timed out and its message was redelivered) --")
        second = pay_season_reward(server, db, player, season=3)
        print("retried create returned the same grant:", second.grant_id == first.grant_id)
    balances = " ".join(f"{key}={amount}" for key, amount in sorted(db.balances[player].items()))
    print(f"studio balances for {player}: {balances}")


def main() -> None:
    server_key = os.environ.get("LIVECORE_SERVER_KEY")
    if server_key:
        run(os.environ.get("LIVECORE_URL", "http://127.0.0.1:8080"), server_key)
        return
    from livecore_server.entry import demo_of_its_own  # the branch above needs only the plain install

    with demo_of_its_own(__file__, "LIVECORE_SERVER_KEY") as demo:
        run(demo.base_url, demo.server_key)


if __name__ == "__main__":
    main()
