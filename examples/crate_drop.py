"""A crate sent by the studio backend and opened by the player.

The demo game declares two crates in its manifest: ``bronze-chest`` (one draw: 50 coins or an energy
potion) and ``gem-box`` (three draws: 5 gems, 20 xp, or nothing). Here:

1. the studio backend sends Ada two gem boxes as one crate grant, keyed by its own reward id;
2. Ada's game shows her pending grants, and the crate is among them;
3. claiming it like a reward is refused: a crate is opened;
4. Ada opens it: the crate grant is claimed, six rows are drawn, and what they gave lands in a contents
   grant credited at once;
5. the game retries the open with the same idempotency key (say the answer was lost): the same contents
   come back, nothing is drawn again;
6. opening it once more, as a new request, is refused: the crate is opened already.

Run it against a server (both keys are needed):

    livecore-server demo
    LIVECORE_CLIENT_KEY=lc_test_... LIVECORE_SERVER_KEY=lc_test_... python examples/crate_drop.py

Against a server it needs only the plain install, the core and the clients
(docs/client.md#installing-only-the-client). Without the keys it starts its own demo server on a temporary
SQLite file, which needs the server installed (the ``server`` extra); on the plain install it says so in
one line.
"""

from __future__ import annotations

import os
import secrets

from livecore.grants.api import RewardEntry
from livecore_client import CrateMustBeOpenedError, GrantAlreadyClaimedError, SdkClient, ServerClient


def run(base_url: str, client_key: str, server_key: str) -> None:
    ada = f"ada-{secrets.token_hex(3)}"
    with (
        SdkClient(client_key, base_url=base_url) as sdk,
        ServerClient(server_key, base_url=base_url) as server,
    ):
        sdk.player_secret = sdk.players.register(ada).player_secret

        reward_id = f"weekly-chest:{ada}:week-12"
        crate = server.grants.create(
            ada,
            [RewardEntry(type="crate", key="gem-box", amount=2)],
            kind="crate",
            source_ref_id=reward_id,
            idempotency_key=reward_id,
        ).grant
        print(
            f"the studio sent {crate.entries[0].amount} {crate.entries[0].key}: {crate.kind}, {crate.status}"
        )

        pending = sdk.grants.pending(ada).grants
        print("Ada's pending grants:", [(g.kind.value, g.grant_id == crate.grant_id) for g in pending])

        try:
            sdk.grants.claim(ada, crate.grant_id)
        except CrateMustBeOpenedError as exc:
            print(f"claiming it like a reward: refused, {exc.code}")

        key = f"open-{crate.grant_id}"
        opened = sdk.grants.open_crate(ada, crate.grant_id, idempotency_key=key)
        drawn = ", ".join(f"{e.key} +{e.amount}" for e in opened.contents.entries) or "nothing"
        print(f"opened: the crate is {opened.crate.status}; it gave {drawn}")
        print(
            f"contents grant: {opened.contents.status}, sourceKind={opened.contents.source_kind}, "
            f"from the crate: {opened.contents.source_ref_id == crate.grant_id}"
        )

        again = sdk.grants.open_crate(ada, crate.grant_id, idempotency_key=key)
        print("the retried open answers the same contents:", again.contents == opened.contents)

        try:
            sdk.grants.open_crate(ada, crate.grant_id)
        except GrantAlreadyClaimedError as exc:
            print(f"opening it again: refused, {exc.code}")


def main() -> None:
    client_key, server_key = os.environ.get("LIVECORE_CLIENT_KEY"), os.environ.get("LIVECORE_SERVER_KEY")
    if client_key and server_key:
        run(os.environ.get("LIVECORE_URL", "http://127.0.0.1:8080"), client_key, server_key)
        return
    from livecore_server.entry import demo_of_its_own  # the branch above needs only the plain install

    with demo_of_its_own(__file__, "LIVECORE_CLIENT_KEY and LIVECORE_SERVER_KEY") as demo:
        run(demo.base_url, demo.client_key, demo.server_key)


if __name__ == "__main__":
    main()
