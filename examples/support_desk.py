"""A support agent's script: a player writes in that a reward never arrived.

With a personal key (made in the portal's Personal keys page: it acts as you, with your role at most),
the script:

1. looks the player up: profile, wallet, pending grants, bans;
2. grants the missing reward by hand (the player's game then sees it among its pending grants);
3. shows the audit log's entry for that grant: who did it, when, from where, and why.

Run it with your key against your server:

    LIVECORE_URL=https://ops.example.com LIVECORE_PERSONAL_KEY=svc_pk_... LIVECORE_STUDIO=acme \\
        LIVECORE_GAME=space-race LIVECORE_PLAYER=alice python examples/support_desk.py

``LIVECORE_ENV=test`` or ``live`` names the environment; unset, the server acts in the one the game has API
keys in (live when it has both).

With a key it needs only the clients (``pip install livecore``). Without one it starts its own demo
server, signs in the demo studio's owner with the sign-in link the demo prints (as a browser would: press
the link's button, then make a personal key in the portal), and helps a demo player of its own; that needs
the server installed (``pip install "livecore[server]"``).
"""

from __future__ import annotations

import os
import secrets

import httpx

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


def personal_key_from_link(link: str) -> str:
    """What a member does in a browser, done with httpx: open the sign-in link and press its button
    (a session cookie; a browser sends the page's ``Origin``, which the portal checks), then make a
    personal key in the portal (with the session's CSRF token)."""
    base = link.split("/portal/", 1)[0]
    with httpx.Client(base_url=base, follow_redirects=True) as browser:
        browser.post(link.removeprefix(base), headers={"Origin": base}).raise_for_status()
        csrf = browser.get("/admin/v1/me").json()["data"]["csrfToken"]
        made = browser.post(
            "/admin/v1/studios/demo/personal-keys",
            json={"expiresInDays": 7},
            headers={"X-CSRF-Token": csrf},
        )
        made.raise_for_status()
        key: str = made.json()["data"]["secret"]
        return key


def main() -> None:
    key = os.environ.get("LIVECORE_PERSONAL_KEY")
    if key:
        run(
            os.environ["LIVECORE_URL"],
            key,
            os.environ["LIVECORE_STUDIO"],
            os.environ["LIVECORE_GAME"],
            os.environ["LIVECORE_PLAYER"],
            os.environ.get("LIVECORE_ENV"),  # unset: the environment the game has API keys in
        )
        return
    from livecore_server.embedded import demo_server  # livecore[server]; the branch above needs only livecore

    with demo_server() as demo:
        player = f"ada-{secrets.token_hex(3)}"
        with SdkClient(demo.client_key, base_url=demo.base_url) as sdk:
            secret = sdk.players.register(player).player_secret
            # No environment named: the demo's game has only test keys, so the server acts in test.
            run(demo.base_url, personal_key_from_link(demo.owner_link), "demo", "space-race", player, None)
            pending = sdk.grants.pending(player, player_secret=secret).grants
            source = pending[0].source_kind
            print(f"{player}'s game now shows {len(pending)} pending grant(s), source {source}")


if __name__ == "__main__":
    main()
