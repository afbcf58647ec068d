"""Two players become friends through a friend code, then see each other online.

What a game client does, with one :class:`~livecore_client.SdkClient` per player (each holds its own
player secret):

1. register the player and keep the secret it returns (once);
2. set a display name, so friends see "Bea" rather than an anonymized name;
3. share a friend code: Ada types in Bea's code, which sends Bea a friend request;
4. Bea lists her incoming requests and accepts Ada's;
5. both send a heartbeat (a real game sends one about every 30 seconds, with a status label);
6. each lists friends: presence shows who is online and what they are doing.

Friends are who a player can send gifts to, so the example ends with the pair "gifting-ready".

Run it against a server (only the client key is needed):

    livecore-server demo
    LIVECORE_CLIENT_KEY=lc_test_... python examples/friends.py

Against a server it needs only the plain install, the core and the clients
(docs/client.md#installing-only-the-client). Without ``LIVECORE_CLIENT_KEY`` it starts its own demo server
on a temporary SQLite file, which needs the server installed (the ``server`` extra); on the plain install it
says so in one line.
"""

from __future__ import annotations

import os
import secrets
from contextlib import ExitStack

from livecore_client import AlreadyFriendsError, SdkClient
from livecore_client.models import FriendRow


def describe(friend: FriendRow) -> str:
    presence = "online" if friend.online else "offline"
    status = f", {friend.status!r}" if friend.status else ""
    return f"{friend.display_identity.name} ({presence}{status})"


def run(base_url: str, client_key: str) -> None:
    run_id = secrets.token_hex(3)
    with ExitStack() as stack:

        def join(name: str) -> tuple[str, SdkClient]:
            """Register a player, keep its secret on its own client, and set its display name."""
            player = f"{name.lower()}-{run_id}"
            sdk = stack.enter_context(SdkClient(client_key, base_url=base_url))
            sdk.player_secret = sdk.players.register(player).player_secret
            sdk.players.set_identity(player, name=name)
            return player, sdk

        ada, ada_sdk = join("Ada")
        bea, bea_sdk = join("Bea")
        print(f"registered {ada} (Ada) and {bea} (Bea)")

        code = bea_sdk.friends.code(bea).friend_code
        print(f"Bea's friend code: {code}")

        sent = ada_sdk.friends.send_request(ada, friend_code=code)
        assert sent.request is not None  # "pending": Bea had not asked Ada first
        print(f"Ada sent a friend request by code: {sent.status}")

        [incoming] = bea_sdk.friends.requests(bea).incoming
        print(f"Bea has a request from {incoming.player.display_identity.name}")
        friend = bea_sdk.friends.accept_request(bea, incoming.request_id).friend
        print(f"Bea accepted: friends with {friend.display_identity.name}")

        try:
            ada_sdk.friends.send_request(ada, friend_code=code)
        except AlreadyFriendsError as exc:
            print(f"adding again is refused: {exc.code}")

        for name, player, sdk, status in (
            ("Ada", ada, ada_sdk, "in the hangar"),
            ("Bea", bea, bea_sdk, "racing"),
        ):
            presence = sdk.presence.heartbeat(player, status)
            print(f"{name} heartbeat: online={presence.online} status={presence.status!r}")

        ada_friends = ada_sdk.friends.list(ada).friends
        bea_friends = bea_sdk.friends.list(bea).friends
        print("Ada's friends:", ", ".join(describe(f) for f in ada_friends))
        print("Bea's friends:", ", ".join(describe(f) for f in bea_friends))

        ada_sees = [f.external_player_id for f in ada_friends]
        bea_sees = [f.external_player_id for f in bea_friends]
        if ada_sees != [bea] or bea_sees != [ada]:
            raise SystemExit(f"unexpected friend lists: Ada sees {ada_sees}, Bea sees {bea_sees}")
        print("Ada and Bea are friends: gifting-ready")


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
