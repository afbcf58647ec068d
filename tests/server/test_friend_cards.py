"""The friends list reads a lean projection of each friend (``FriendCard``) rather than whole player
rows: it must show exactly what the whole row shows, on every store (docs/architecture.md)."""

from __future__ import annotations

from typing import Any

from livecore.friends import FriendCard
from livecore_server.storage.server_store import ServerTransaction
from tests.conftest import World


async def _befriend(world: World, secrets: dict[str, str], a: str, b: str) -> None:
    _, body, _ = await world.call(
        "POST",
        f"/sdk/v1/players/{a}/friends/requests",
        json={"externalPlayerId": b},
        key="test-client",
        secret=secrets[a],
    )
    rid = body["data"]["request"]["requestId"]
    status, _, _ = await world.call(
        "POST", f"/sdk/v1/players/{b}/friends/requests/{rid}/accept", key="test-client", secret=secrets[b]
    )
    assert status == 200


async def test_a_friend_card_shows_what_the_whole_player_row_shows(world: World) -> None:
    secrets = {name: await world.register(name) for name in ("ann", "bob", "cat", "dan")}
    # bob sets a display identity and beats; cat only beats with a status; dan is as registered.
    await world.call(
        "PUT",
        "/sdk/v1/players/bob/identity",
        json={"name": "Bob", "avatar": "a/bob.png"},
        key="test-client",
        secret=secrets["bob"],
    )
    for who, status in (("bob", None), ("cat", "in a race")):
        await world.call(
            "POST",
            f"/sdk/v1/players/{who}/presence",
            json={"status": status} if status else {},
            key="test-client",
            secret=secrets[who],
        )
    await world.services.presence.flush_async(world.services.store)  # stored, as the housekeeping does
    for friend in ("bob", "cat", "dan"):
        world.clock.advance(1)
        await _befriend(world, secrets, "ann", friend)
    ann = world.rows("SELECT id FROM players WHERE external_id = 'ann'")[0][0]

    def read(tx: ServerTransaction) -> tuple[Any, Any]:
        return tx.friends.friend_cards(ann), tx.friends.list_friends(ann)

    cards, whole = world.services.store.run(read, write=False)
    assert [c.external_id for _, c in cards] == ["bob", "cat", "dan"]
    assert cards == [(f, FriendCard.of(p)) for f, p in whole]
    assert cards[0][1].identity.name == "Bob" and cards[1][1].presence.status == "in a race"
