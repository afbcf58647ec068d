"""Player lists (friends, requests, blocks, search, suggestions, gifts) read a lean projection of each player
(``PlayerCard``) rather than whole player rows: a card must show exactly what the whole row shows, on
every store (docs/decisions/0022-player-cards-for-lists.md)."""

from __future__ import annotations

from typing import Any

from livecore.players.rules import PlayerCard
from livecore.scope import Environment
from livecore_server.players.presence import PRESENCE_BOARD
from livecore_server.storage.server_store import ServerTransaction
from tests.conftest import World

P = "/sdk/v1/players"


async def _request(world: World, secrets: dict[str, str], a: str, b: str) -> str:
    _, body, _ = await world.call(
        "POST",
        f"{P}/{a}/friends/requests",
        json={"externalPlayerId": b},
        key="test-client",
        secret=secrets[a],
    )
    return str(body["data"]["request"]["requestId"])


async def _befriend(world: World, secrets: dict[str, str], a: str, b: str) -> None:
    rid = await _request(world, secrets, a, b)
    status, _, _ = await world.call(
        "POST", f"{P}/{b}/friends/requests/{rid}/accept", key="test-client", secret=secrets[b]
    )
    assert status == 200


async def test_a_player_card_shows_what_the_whole_player_row_shows(world: World) -> None:
    names = ("ann", "bob", "cat", "dan", "eve", "fay")
    secrets = {name: await world.register(name) for name in names}
    # bob sets a display identity and beats; cat only beats with a status; dan is as registered.
    await world.call(
        "PUT",
        f"{P}/bob/identity",
        json={"name": "Bob", "avatar": "a/bob.png"},
        key="test-client",
        secret=secrets["bob"],
    )
    for who, status in (("bob", None), ("cat", "in a race")):
        await world.call(
            "POST",
            f"{P}/{who}/presence",
            json={"status": status} if status else {},
            key="test-client",
            secret=secrets[who],
        )
    await world.services.of(PRESENCE_BOARD).flush_async(
        world.services.store
    )  # stored, as the housekeeping does
    for friend in ("bob", "cat", "dan"):
        world.clock.advance(1)
        await _befriend(world, secrets, "ann", friend)
    world.clock.advance(1)
    await _request(world, secrets, "ann", "eve")
    world.clock.advance(1)
    await _request(world, secrets, "fay", "ann")
    await world.call(
        "POST",
        f"{P}/ann/friends/blocks",
        json={"externalPlayerId": "bob"},
        key="test-client",
        secret=secrets["ann"],
    )
    gift = {"externalPlayerId": "ann", "type": "currency", "resourceKey": "coins", "amount": 1}
    status, _, _ = await world.call(
        "POST", f"{P}/cat/friends/gifts", json=gift, key="test-client", secret=secrets["cat"]
    )
    assert status == 201
    ann = world.rows("SELECT id, game_id FROM players WHERE external_id = 'ann'")[0]

    def whole(tx: ServerTransaction, card: PlayerCard) -> PlayerCard:
        player = tx.players.by_id(card.id)
        assert player is not None
        return PlayerCard.of(player)

    def read(tx: ServerTransaction) -> dict[str, list[Any]]:
        return {
            "friends": [c for _, c in tx.friends.friend_cards(ann[0])],
            "requests": [c for _, c in tx.friends.list_requests(ann[0])],
            "blocks": [c for _, c in tx.friends.list_blocks(ann[0])],
            "search": tx.players.search_by_name(ann[1], Environment.TEST, "bob", 10),
            "active": tx.players.recently_active(ann[1], Environment.TEST, 10),
            "gifts": [g.counterparty for g in tx.gifts.page(ann[0], sent=False, claimable_at=None, limit=10)],
        }

    lists = world.services.store.run(read, write=False)
    assert [c.external_id for c in lists["friends"]] == ["cat", "dan"]
    assert [c.external_id for c in lists["requests"]] == ["eve", "fay"]
    assert [c.external_id for c in lists["blocks"]] == ["bob"]
    assert lists["blocks"][0].identity.name == "Bob" and lists["friends"][0].presence.status == "in a race"
    assert [c.external_id for c in lists["search"]] == ["bob"] and len(lists["active"]) == 6
    assert [c.external_id for c in lists["gifts"]] == ["cat"]
    for cards in lists.values():
        assert cards == world.services.store.run(lambda tx, cs=cards: [whole(tx, c) for c in cs], write=False)
