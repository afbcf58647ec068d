"""Two friends exchange gifts: send, see the cooldown, claim from the inbox.

What a game client does, with one :class:`~livecore_client.SdkClient` per player:

1. Ada and Bea register and become friends (each adds the other: the second add accepts at once);
2. Ada reads the gift catalog: what may be sent, how much, and her cooldown and daily limit;
3. Ada sends Bea 25 coins with a message; the gift is pending until Bea claims it;
4. a retry of that same send (same idempotency key, e.g. after a dropped connection) answers the same gift;
5. a new gift to Bea is refused while the cooldown runs, and Ada's friends list shows until when;
6. Bea's inbox shows the gift; she claims it, and the coins are credited to her now;
7. Bea sends Ada an energy potion back.

Run it against a server (only the client key is needed):

    livecore-server demo
    LIVECORE_CLIENT_KEY=lc_test_... python examples/gifts.py

Against a server it needs only the plain install, the core and the clients
(docs/client.md#installing-only-the-client). Without ``LIVECORE_CLIENT_KEY`` it starts its own demo server
on a temporary SQLite file, which needs the server installed (the ``server`` extra); on the plain install it
says so in one line.
"""

from __future__ import annotations

import os
import secrets
from contextlib import ExitStack

from livecore_client import GiftCooldownError, SdkClient
from livecore_client.models import GIFT_ROW


def run(base_url: str, client_key: str) -> None:
    run_id = secrets.token_hex(3)
    with ExitStack() as stack:

        def join(name: str) -> tuple[str, SdkClient]:
            player = f"{name.lower()}-{run_id}"
            sdk = stack.enter_context(SdkClient(client_key, base_url=base_url))
            sdk.player_secret = sdk.players.register(player).player_secret
            sdk.players.set_identity(player, name=name)
            return player, sdk

        ada, ada_sdk = join("Ada")
        bea, bea_sdk = join("Bea")
        ada_sdk.friends.send_request(ada, external_player_id=bea)
        print("Bea adds Ada back:", bea_sdk.friends.send_request(bea, external_player_id=ada).status)

        catalog = ada_sdk.gifts.catalog(ada)
        giftable = ", ".join(f"{r.key} (up to {r.max_amount})" for r in catalog.resources)
        print(f"giftable: {giftable}")
        print(f"cooldown per friend: {catalog.cooldown_seconds} s, daily limit: {catalog.daily_send_limit}")

        key = f"ada-coins-{run_id}"
        gift = ada_sdk.gifts.send(
            ada,
            external_player_id=bea,
            type="currency",
            resource_key="coins",
            amount=25,
            message="good luck in the race!",
            idempotency_key=key,
        ).gift
        print(f"Ada sent {gift.amount} {gift.resource_key}: {gift.status}")
        again = ada_sdk.gifts.send(
            ada,
            external_player_id=bea,
            type="currency",
            resource_key="coins",
            amount=25,
            message="good luck in the race!",
            idempotency_key=key,
        ).gift
        print("the retried send answers the same gift:", again.gift_id == gift.gift_id)

        try:
            ada_sdk.gifts.send(ada, external_player_id=bea, type="currency", resource_key="gems", amount=1)
        except GiftCooldownError as exc:
            print(f"another gift to Bea now: {exc.code}")
            [row] = ada_sdk.friends.list(ada).friends
            until = row.of(GIFT_ROW).gift_cooldown_until
            print("the friends list shows the same time:", until == exc.cooldown_until)
        print("Ada sent today:", ada_sdk.gifts.catalog(ada).sent_today)

        [incoming] = bea_sdk.gifts.inbox(bea, pending=True)
        sender = incoming.player.display_identity.name
        print(f"Bea's inbox: {incoming.amount} {incoming.resource_key} from {sender}")
        print(f"  message: {incoming.message!r}")
        claimed = bea_sdk.gifts.claim(bea, incoming.gift_id).gift
        print(f"Bea claimed it: {claimed.status}")
        print("pending gifts left:", len(bea_sdk.gifts.inbox(bea, pending=True)))

        back = bea_sdk.gifts.send(
            bea, external_player_id=ada, type="item", resource_key="energy-potion", amount=1
        )
        print(f"Bea sent Ada {back.gift.amount} {back.gift.resource_key}")


def main() -> None:
    client_key = os.environ.get("LIVECORE_CLIENT_KEY")
    if client_key:
        run(os.environ.get("LIVECORE_URL", "http://127.0.0.1:8080"), client_key)
        return
    from livecore_server.entry import demo_of_its_own  # the branch above needs only the plain install

    with demo_of_its_own(__file__, "LIVECORE_CLIENT_KEY") as demo:
        run(demo.base_url, demo.client_key)


if __name__ == "__main__":
    main()
