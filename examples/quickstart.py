"""The typed clients against a running livecore server.

Start the demo server in one terminal (it prints two keys):

    livecore-server demo

then, in another:

    LIVECORE_CLIENT_KEY=lc_test_... LIVECORE_SERVER_KEY=lc_test_... python examples/quickstart.py

Against a server it needs only the plain install, the core and the clients
(docs/client.md#installing-only-the-client). Without the two variables it starts its own server on a
temporary SQLite file and uses that, so it also runs as written with nothing else set up; that needs the
server installed too (the ``server`` extra), and on the plain install it says so in one line.
"""

from __future__ import annotations

import os
import secrets

from livecore_client import PlayerAlreadyRegisteredError, SdkClient, ServerClient


def tour(base_url: str, client_key: str, server_key: str) -> None:
    player = f"player-{secrets.token_hex(3)}"
    with (
        SdkClient(client_key, base_url=base_url) as sdk,
        ServerClient(server_key, base_url=base_url) as server,
    ):
        print("ping:", server.system.ping().environment)
        reg = sdk.players.register(player, player_context={"country": "se"})
        print(f"registered {reg.external_player_id} as {reg.display_identity.name!r} ({reg.country})")
        try:
            sdk.players.register(player)
        except PlayerAlreadyRegisteredError as exc:
            print("second register refused:", exc.code)
        sdk.player_secret = reg.player_secret
        mine = sdk.players.set_identity(player, name="Stella", avatar="avatar_07")
        print("player set its own name:", mine.display_identity.name)
        theirs = server.players.set_identity(player, name="Stella (VIP)")
        print("studio backend renamed it:", theirs.display_identity.name)


def main() -> None:
    client_key = os.environ.get("LIVECORE_CLIENT_KEY")
    server_key = os.environ.get("LIVECORE_SERVER_KEY")
    if client_key and server_key:
        tour(os.environ.get("LIVECORE_URL", "http://127.0.0.1:8080"), client_key, server_key)
        return
    from livecore_server.entry import demo_of_its_own  # the branch above needs only the plain install

    with demo_of_its_own(__file__, "LIVECORE_CLIENT_KEY and LIVECORE_SERVER_KEY") as demo:
        tour(demo.base_url, demo.client_key, demo.server_key)


if __name__ == "__main__":
    main()
