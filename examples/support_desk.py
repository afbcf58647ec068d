"""A support agent's script: a player writes in that a reward never arrived.

With a personal key (it acts as you, with your role at most), the script:

1. looks the player up: profile, wallet, pending grants, bans;
2. grants the missing reward by hand (the player's game then sees it among its pending grants);
3. shows the audit log's entry for that grant: who did it, when, from where, and why.

Against the running demo, with the variables it prints and a personal key of its owner (made on the
server's machine, in the demo's directory; the portal's Personal keys page makes one too):

    export LIVECORE_PERSONAL_KEY=$(livecore-server members personal-key owner)
    python examples/support_desk.py

It helps a player of its own there, registered with ``LIVECORE_CLIENT_KEY``, and then shows the grant
from the player's side. Against your server, name the studio, the game and the player:

    LIVECORE_URL=https://ops.example.com LIVECORE_PERSONAL_KEY=svc_pk_... LIVECORE_STUDIO=acme \\
        LIVECORE_GAME=space-race LIVECORE_PLAYER=alice python examples/support_desk.py

``LIVECORE_STUDIO`` and ``LIVECORE_GAME`` default to the demo's (``demo``, ``space-race``).
``LIVECORE_ENV=test`` or ``live`` names the environment; unset, the server acts in the one the game has
API keys in (live when it has both).

With a key it needs only the plain install (the core and the clients). Without one it starts a demo
server of its own, with a key of its owner, which needs the server installed (``livecore[server]``); on
the plain install it says so in one line.
"""

from __future__ import annotations

import os
import secrets

from livecore.grants.api import RewardEntry
from livecore_client import AdminClient, SdkClient


def run(base_url: str, personal_key: str, studio: str, game: str, player: str, env: str | None) -> None:
    with AdminClient(personal_key, studio=studio, base_url=base_url) as admin:
        me = admin.members.me()
        print(f"signed in as {me.member.email} ({me.member.role.value}) in studio {me.studio_key}")

        found = admin.players.lookup(game, player, env=env)
        profile = found.profile
        print(
            f"{profile.player.external_player_id}: {profile.player.display_identity.name},"
            f" banned={found.ban.banned}, grants pending={profile.summary.grants_pending}"
        )
        print("wallet:", {c.key: c.balance for c in found.wallet})

        ticket = f"ticket-{secrets.token_hex(2)}"
        made = admin.grants.create(
            game,
            player,
            [RewardEntry(type="currency", key="coins", amount=100)],
            reason=f"{ticket}: weekly chest never arrived",
            env=env,
        ).grant
        print(f"granted by hand: {made.entries[0].amount} {made.entries[0].key}, {made.status.value}")

        entry = admin.audit.list(game=game, action="grant.manual_create", target=f"player:{player}").entries[
            0
        ]
        print(f"audit: {entry.action} on {entry.target} by {entry.actor['kind']} from {entry.ip}")
        print(f"       reason: {entry.metadata['reason']}")


def help_a_new_player(base_url: str, client_key: str, personal_key: str, studio: str, game: str) -> None:
    """A player of its own registered with the game's client key, helped, and its game's view after."""
    player = f"ada-{secrets.token_hex(3)}"
    with SdkClient(client_key, base_url=base_url) as sdk:
        secret = sdk.players.register(player).player_secret
        # No environment named: the demo's game has only test keys, so the server acts in test.
        run(base_url, personal_key, studio, game, player, None)
        pending = sdk.grants.pending(player, player_secret=secret).grants
        print(f"{player}'s game now shows {len(pending)} pending grant(s), source {pending[0].source_kind}")


def main() -> None:
    key = os.environ.get("LIVECORE_PERSONAL_KEY")
    if key:
        url = os.environ.get("LIVECORE_URL", "http://127.0.0.1:8080")
        studio = os.environ.get("LIVECORE_STUDIO", "demo")
        game = os.environ.get("LIVECORE_GAME", "space-race")
        player, client_key = os.environ.get("LIVECORE_PLAYER"), os.environ.get("LIVECORE_CLIENT_KEY")
        if player:
            # LIVECORE_ENV unset: the environment the game has API keys in.
            run(url, key, studio, game, player, os.environ.get("LIVECORE_ENV"))
        elif client_key:
            help_a_new_player(url, client_key, key, studio, game)
        else:
            raise SystemExit(
                "Error: support_desk.py needs LIVECORE_PLAYER (the player to help) or LIVECORE_CLIENT_KEY"
                " (to register one of its own; the demo prints it)"
            )
        return
    from livecore_server.entry import demo_of_its_own  # the branch above needs only the plain install

    needs = "LIVECORE_PERSONAL_KEY, LIVECORE_URL and LIVECORE_CLIENT_KEY"
    where = "`livecore-server demo` prints the last two, `livecore-server members personal-key owner` the key"
    with demo_of_its_own(__file__, needs, where) as demo:
        help_a_new_player(demo.base_url, demo.client_key, demo.owner_key, "demo", "space-race")


if __name__ == "__main__":
    main()
