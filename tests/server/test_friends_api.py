"""Friends and presence through the API: every rule of
docs/reference/friends-and-presence.md#requests-and-friendships."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from livecore.players.rules import ban
from livecore_server.players.presence import PRESENCE_BOARD
from livecore_server.registry import storage
from livecore_server.storage.server_store import open_store
from tests.conftest import START, World, start_world


async def sdk(
    world: World, method: str, path: str, secret: str, json: Any = None, **kw: Any
) -> tuple[int, Any, Any]:
    return await world.call(method, f"/sdk/v1{path}", key="test-client", json=json, secret=secret, **kw)


@pytest.fixture
async def trio(world: World) -> dict[str, str]:
    return {name: await world.register(name) for name in ("ann", "bob", "cat")}


async def code_of(world: World, name: str, secret: str) -> str:
    status, body, _ = await sdk(world, "GET", f"/players/{name}/friends/code", secret)
    assert status == 200
    return str(body["data"]["friendCode"])


async def befriend(world: World, trio: dict[str, str], a: str, b: str) -> None:
    _, body, _ = await sdk(world, "POST", f"/players/{a}/friends/requests", trio[a], {"externalPlayerId": b})
    request_id = body["data"]["request"]["requestId"]
    status, _, _ = await sdk(world, "POST", f"/players/{b}/friends/requests/{request_id}/accept", trio[b])
    assert status == 200


async def test_friend_code_is_six_pinned_characters_stable_and_case_insensitive(
    world: World, trio: dict[str, str]
) -> None:
    code = await code_of(world, "ann", trio["ann"])
    assert len(code) == 6 and all(c in "ABCDEFGHJKLMNPQRSTUVWXYZ23456789" for c in code)
    assert await code_of(world, "ann", trio["ann"]) == code
    status, body, _ = await sdk(
        world, "POST", "/players/bob/friends/requests", trio["bob"], {"friendCode": code.lower()}
    )
    assert status == 201
    assert body["data"]["request"]["player"]["externalPlayerId"] == "ann"


async def test_send_then_accept_with_webhooks(world: World, trio: dict[str, str]) -> None:
    status, body, _ = await sdk(
        world, "POST", "/players/ann/friends/requests", trio["ann"], {"externalPlayerId": "bob"}
    )
    assert status == 201
    assert body["data"]["status"] == "pending"
    request = body["data"]["request"]
    assert request["requestId"].startswith("frq_") and request["direction"] == "outgoing"
    sent = [e for e in world.events() if e.kind == "friend.request_sent"]
    assert len(sent) == 1
    assert (
        sent[0].data["requesterExternalPlayerId"] == "ann" and sent[0].data["targetExternalPlayerId"] == "bob"
    )
    _, lists, _ = await sdk(world, "GET", "/players/bob/friends/requests", trio["bob"])
    assert [r["requestId"] for r in lists["data"]["incoming"]] == [request["requestId"]]
    assert lists["data"]["outgoing"] == []
    status, body, _ = await sdk(
        world, "POST", f"/players/bob/friends/requests/{request['requestId']}/accept", trio["bob"]
    )
    assert status == 200
    friend = body["data"]["friend"]
    assert friend["externalPlayerId"] == "ann" and friend["friendsSince"] == "2026-03-02T12:00:00.000Z"
    assert "giftCooldownUntil" not in friend and "progression" not in friend
    (accepted,) = [e for e in world.events() if e.kind == "friend.request_accepted"]
    assert accepted.data["externalPlayerId"] == "bob" and accepted.data["friendExternalPlayerId"] == "ann"
    assert accepted.data["reciprocal"] is False
    for me, other in (("ann", "bob"), ("bob", "ann")):
        _, body, _ = await sdk(world, "GET", f"/players/{me}/friends", trio[me])
        assert [f["externalPlayerId"] for f in body["data"]["friends"]] == [other]


async def test_reciprocal_add_accepts_at_once(world: World, trio: dict[str, str]) -> None:
    await sdk(world, "POST", "/players/ann/friends/requests", trio["ann"], {"externalPlayerId": "bob"})
    status, body, _ = await sdk(
        world, "POST", "/players/bob/friends/requests", trio["bob"], {"externalPlayerId": "ann"}
    )
    assert status == 200
    assert body["data"]["status"] == "accepted"
    assert body["data"]["friend"]["externalPlayerId"] == "ann"
    kinds = world.event_kinds()
    assert kinds.count("friend.request_sent") == 1
    (accepted,) = [e for e in world.events() if e.kind == "friend.request_accepted"]
    assert accepted.data["reciprocal"] is True and accepted.data["externalPlayerId"] == "bob"


async def test_adding_again_answers_the_same_request(world: World, trio: dict[str, str]) -> None:
    _, first, _ = await sdk(
        world, "POST", "/players/ann/friends/requests", trio["ann"], {"externalPlayerId": "bob"}
    )
    _, again, _ = await sdk(
        world, "POST", "/players/ann/friends/requests", trio["ann"], {"externalPlayerId": "bob"}
    )
    assert again["data"]["request"]["requestId"] == first["data"]["request"]["requestId"]
    assert world.event_kinds().count("friend.request_sent") == 1


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"externalPlayerId": "ann"}, 400, "cannot_friend_self"),
        ({"friendCode": "ZZZZZZ"}, 404, "friend_code_invalid"),
        ({"friendCode": "bad!"}, 404, "friend_code_invalid"),
        ({"externalPlayerId": "nobody"}, 404, "player_not_found"),
        ({}, 400, "invalid_request"),
        ({"externalPlayerId": "bob", "friendCode": "ABCDEF"}, 400, "invalid_request"),
        ({"externalPlayerId": 5}, 400, "invalid_request"),
        ({"externalPlayerId": "bob", "extra": 1}, 400, "invalid_request"),
    ],
)
async def test_send_refusals_change_nothing(
    world: World, trio: dict[str, str], body: dict, status: int, code: str
) -> None:  # type: ignore[type-arg]
    got, answer, _ = await sdk(world, "POST", "/players/ann/friends/requests", trio["ann"], body)
    assert (got, answer["error"]["code"]) == (status, code)
    assert "friend.request_sent" not in world.event_kinds()


async def test_already_friends_is_409(world: World, trio: dict[str, str]) -> None:
    await befriend(world, trio, "ann", "bob")
    status, body, _ = await sdk(
        world, "POST", "/players/ann/friends/requests", trio["ann"], {"externalPlayerId": "bob"}
    )
    assert (status, body["error"]["code"]) == (409, "already_friends")


async def test_only_the_right_side_answers_a_request(world: World, trio: dict[str, str]) -> None:
    _, body, _ = await sdk(
        world, "POST", "/players/ann/friends/requests", trio["ann"], {"externalPlayerId": "bob"}
    )
    rid = body["data"]["request"]["requestId"]
    for who, action in (
        ("ann", "accept"),
        ("ann", "decline"),
        ("bob", "cancel"),
        ("cat", "accept"),
        ("cat", "cancel"),
    ):
        status, answer, _ = await sdk(
            world, "POST", f"/players/{who}/friends/requests/{rid}/{action}", trio[who]
        )
        assert (status, answer["error"]["code"]) == (404, "friend_request_not_found"), (who, action)
    status, answer, _ = await sdk(world, "POST", f"/players/bob/friends/requests/{rid}/decline", trio["bob"])
    assert status == 200 and answer["data"] == {"requestId": rid, "status": "declined"}
    _, body, _ = await sdk(
        world, "POST", "/players/ann/friends/requests", trio["ann"], {"externalPlayerId": "bob"}
    )
    rid2 = body["data"]["request"]["requestId"]
    status, answer, _ = await sdk(world, "POST", f"/players/ann/friends/requests/{rid2}/cancel", trio["ann"])
    assert status == 200 and answer["data"] == {"requestId": rid2, "status": "cancelled"}
    _, lists, _ = await sdk(world, "GET", "/players/bob/friends/requests", trio["bob"])
    assert lists["data"] == {"incoming": [], "outgoing": []}


async def test_remove_fires_friend_removed(world: World, trio: dict[str, str]) -> None:
    await befriend(world, trio, "ann", "bob")
    status, body, _ = await sdk(world, "DELETE", "/players/ann/friends/bob", trio["ann"])
    assert (status, body["data"]) == (200, {"removed": True})
    (removed,) = [e for e in world.events() if e.kind == "friend.removed"]
    assert removed.data["reason"] == "removed" and removed.data["friendExternalPlayerId"] == "bob"
    status, body, _ = await sdk(world, "DELETE", "/players/ann/friends/bob", trio["ann"])
    assert (status, body["error"]["code"]) == (404, "not_friends_yet")


async def test_block_breaks_friendship_and_requests_and_hides(world: World, trio: dict[str, str]) -> None:
    await befriend(world, trio, "ann", "bob")
    await sdk(world, "POST", "/players/cat/friends/requests", trio["cat"], {"externalPlayerId": "ann"})
    status, body, _ = await sdk(
        world, "POST", "/players/ann/friends/blocks", trio["ann"], {"externalPlayerId": "bob"}
    )
    assert status == 201
    assert body["data"]["block"]["externalPlayerId"] == "bob" and "blockedAt" in body["data"]["block"]
    (removed,) = [e for e in world.events() if e.kind == "friend.removed"]
    assert removed.data["reason"] == "blocked"
    world.clock.advance(0.001)  # blocks list oldest first; in one millisecond the order is the ids'
    await sdk(world, "POST", "/players/ann/friends/blocks", trio["ann"], {"externalPlayerId": "cat"})
    _, lists, _ = await sdk(world, "GET", "/players/ann/friends/requests", trio["ann"])
    assert lists["data"] == {"incoming": [], "outgoing": []}
    for me, other in (("bob", "ann"), ("ann", "bob")):
        status, body, _ = await sdk(
            world, "POST", f"/players/{me}/friends/requests", trio[me], {"externalPlayerId": other}
        )
        assert (status, body["error"]["code"]) == (403, "player_blocked")
    _, hits, _ = await sdk(world, "GET", "/players/bob/friends/search?q=ann", trio["bob"])
    assert hits["data"] == []
    _, blocks, _ = await sdk(world, "GET", "/players/ann/friends/blocks", trio["ann"])
    assert [b["externalPlayerId"] for b in blocks["data"]["blocks"]] == ["bob", "cat"]
    status, body, _ = await sdk(world, "DELETE", "/players/ann/friends/blocks/bob", trio["ann"])
    assert (status, body["data"]) == (200, {"unblocked": True})
    status, body, _ = await sdk(world, "DELETE", "/players/bob/friends/blocks/ann", trio["bob"])
    assert (status, body["error"]["code"]) == (404, "not_blocked")
    status, _, _ = await sdk(
        world, "POST", "/players/bob/friends/requests", trio["bob"], {"externalPlayerId": "ann"}
    )
    assert status == 201


TINY = """
[games.tiny]
name = "Tiny"
[games.tiny.friends]
max_friends = 1
[games.tiny.api_keys.client]
env = "test"
permission = "client_sdk"
"""


async def test_friend_limit_on_send_and_accept(db_url: str) -> None:
    world = await start_world(db_url, manifest_extra=TINY)
    key = world.applied["games"]["tiny"]["apiKeys"]["client"]["secret"]
    try:
        secrets = {n: await world.register(n, key=key) for n in ("a", "b", "c")}

        async def call(method: str, path: str, who: str, json: Any = None) -> tuple[int, Any, Any]:
            return await world.call(
                method, f"/sdk/v1/players/{who}{path}", key=key, json=json, secret=secrets[who]
            )

        _, ab, _ = await call("POST", "/friends/requests", "a", {"externalPlayerId": "b"})
        _, cb, _ = await call("POST", "/friends/requests", "c", {"externalPlayerId": "b"})
        assert (await call("POST", f"/friends/requests/{ab['data']['request']['requestId']}/accept", "b"))[
            0
        ] == 200
        status, answer, _ = await call(
            "POST", f"/friends/requests/{cb['data']['request']['requestId']}/accept", "b"
        )
        assert (status, answer["error"]["code"]) == (409, "friend_limit_reached")  # checked again on accept
        status, answer, _ = await call("POST", "/friends/requests", "c", {"externalPlayerId": "a"})
        assert (status, answer["error"]["code"]) == (409, "friend_limit_reached")  # checked on send
    finally:
        await world.client.close()


async def test_heartbeat_presence_ttl_and_status(world: World, trio: dict[str, str]) -> None:
    await befriend(world, trio, "ann", "bob")
    status, body, _ = await sdk(world, "POST", "/players/bob/presence", trio["bob"], {"status": "in a match"})
    assert status == 200
    assert body["data"] == {
        "online": True,
        "lastActiveAt": "2026-03-02T12:00:00.000Z",
        "status": "in a match",
    }
    _, body, _ = await sdk(world, "GET", "/players/ann/friends", trio["ann"])
    row = body["data"]["friends"][0]
    assert (row["online"], row["status"]) == (True, "in a match")
    _, body, _ = await sdk(world, "POST", "/players/bob/presence", trio["bob"], {"status": None})
    assert body["data"]["online"] is True and body["data"]["status"] is None
    world.clock.advance(90)  # docs/reference/friends-and-presence.md: 90 s TTL
    _, body, _ = await sdk(world, "GET", "/players/ann/friends", trio["ann"])
    row = body["data"]["friends"][0]
    assert row["online"] is False and row["lastActiveAt"] == "2026-03-02T12:00:00.000Z"
    status, body, _ = await sdk(world, "POST", "/players/bob/presence", trio["bob"], {"status": "x" * 65})
    assert status == 400 and "status" in body["error"]["details"]["fields"]


async def test_search_by_name_with_relationship(world: World, trio: dict[str, str]) -> None:
    for name, display in (("ann", "Annika"), ("bob", "Bobby Ann"), ("cat", "Cathy")):
        await sdk(world, "PUT", f"/players/{name}/identity", trio[name], {"name": display})
    await sdk(world, "POST", "/players/ann/friends/requests", trio["ann"], {"externalPlayerId": "bob"})
    status, body, _ = await sdk(world, "GET", "/players/cat/friends/search?q=ANN", trio["cat"])
    assert status == 200
    assert [(h["externalPlayerId"], h["relationship"]) for h in body["data"]] == [
        ("ann", "none"),
        ("bob", "none"),
    ]
    _, body, _ = await sdk(world, "GET", "/players/bob/friends/search?q=ann", trio["bob"])
    assert [(h["externalPlayerId"], h["relationship"]) for h in body["data"]] == [("ann", "request_incoming")]
    for q in ("", "x" * 33):
        status, body, _ = await sdk(world, "GET", f"/players/bob/friends/search?q={q}", trio["bob"])
        assert status == 400


async def test_suggestions_exclude_ties_and_clamp_the_limit(world: World, trio: dict[str, str]) -> None:
    others = {n: await world.register(n) for n in ("d1", "d2", "d3")}
    await befriend(world, trio, "ann", "bob")
    await sdk(world, "POST", "/players/ann/friends/blocks", trio["ann"], {"externalPlayerId": "cat"})
    await sdk(world, "POST", "/players/d1/friends/requests", others["d1"], {"externalPlayerId": "ann"})
    status, body, _ = await sdk(world, "GET", "/players/ann/friends/suggestions?limit=100", trio["ann"])
    assert status == 200
    names = {s["externalPlayerId"] for s in body["data"]["suggestions"]}
    assert names == {"d2", "d3"}
    _, body, _ = await sdk(world, "GET", "/players/ann/friends/suggestions?limit=0", trio["ann"])
    assert len(body["data"]["suggestions"]) == 1  # clamped to 1


async def test_progression_on_rows(world: World, trio: dict[str, str]) -> None:
    await befriend(world, trio, "ann", "bob")
    await world.call(
        "POST", "/server/v1/players/bob/wallet/coins/credit", json={"amount": 7, "idempotencyKey": "c"}
    )
    status, body, _ = await sdk(world, "GET", "/players/ann/friends?progression=coins,sessions", trio["ann"])
    assert status == 200
    assert body["data"]["friends"][0]["progression"] == {"coins": 7, "sessions": 1}
    _, body, _ = await sdk(
        world, "GET", "/players/ann/friends/code?progression=coins&progression=login_streak", trio["ann"]
    )
    assert body["data"]["progression"] == {"coins": 0, "login_streak": 1}
    keys = ",".join(f"k{i}" for i in range(9))
    status, body, _ = await sdk(world, "GET", f"/players/ann/friends?progression={keys}", trio["ann"])
    assert status == 400 and "progression" in body["error"]["details"]["fields"]


async def test_another_players_secret_cannot_act(world: World, trio: dict[str, str]) -> None:
    status, body, _ = await sdk(
        world, "POST", "/players/ann/friends/requests", trio["bob"], {"externalPlayerId": "cat"}
    )
    assert (status, body["error"]["code"]) == (401, "player_secret_invalid")
    assert "friend.request_sent" not in world.event_kinds()


async def test_banned_player_cannot_write_but_can_read(world: World, trio: dict[str, str]) -> None:
    game_id = world.applied["games"]["space-race"]["id"]
    await world.services.store.run_async(
        lambda tx: tx.players.update(ban(tx.players.get(game_id, "ann"), "x", START)[0])
    )
    status, body, _ = await sdk(
        world, "POST", "/players/ann/friends/requests", trio["ann"], {"externalPlayerId": "bob"}
    )
    assert (status, body["error"]["code"]) == (403, "player_banned")
    status, _, _ = await sdk(world, "GET", "/players/ann/friends", trio["ann"])
    assert status == 200


async def test_server_reads(world: World, trio: dict[str, str]) -> None:
    await befriend(world, trio, "ann", "bob")
    await sdk(world, "POST", "/players/cat/friends/requests", trio["cat"], {"externalPlayerId": "ann"})
    await sdk(world, "POST", "/players/ann/friends/blocks", trio["ann"], {"externalPlayerId": "cat"})
    status, body, _ = await world.call("GET", "/server/v1/players/ann/friends")
    assert status == 200 and [f["externalPlayerId"] for f in body["data"]["friends"]] == ["bob"]
    status, body, _ = await world.call("GET", "/server/v1/players/ann/friends/requests")
    assert status == 200 and body["data"] == {"incoming": [], "outgoing": []}
    status, body, _ = await world.call("GET", "/server/v1/players/ann/blocks")
    assert status == 200 and [b["externalPlayerId"] for b in body["data"]["blocks"]] == ["cat"]
    status, body, _ = await world.call("GET", "/server/v1/players/nobody/friends")
    assert (status, body["error"]["code"]) == (404, "player_not_found")


@pytest.fixture
async def quiet_world(db_url: str) -> AsyncIterator[World]:
    """A world whose housekeeping does not flush presence while a test runs (it would every second on
    PostgreSQL): what is written, and when, is up to the test."""
    w = await start_world(db_url, flush_every=3600.0)
    try:
        yield w
    finally:
        await w.client.close()


@pytest.fixture
async def quiet_trio(quiet_world: World) -> dict[str, str]:
    return {name: await quiet_world.register(name) for name in ("ann", "bob", "cat")}


PRESENCE_ROW = (
    "SELECT presence_at, presence_status, sessions FROM players WHERE game_id = ? AND external_id = ?"
)


def _row(world: World, name: str) -> tuple[Any, ...]:
    game_id = world.applied["games"]["space-race"]["id"]
    (row,) = world.rows(PRESENCE_ROW, (game_id, name))
    return row


async def test_heartbeats_are_held_in_memory_and_flushed(
    quiet_world: World, quiet_trio: dict[str, str]
) -> None:
    world, trio = quiet_world, quiet_trio
    await befriend(world, trio, "ann", "bob")
    world.clock.advance(60)  # same session: nothing durable changes
    await sdk(world, "POST", "/players/bob/presence", trio["bob"], {"status": "afk"})
    assert _row(world, "bob")[:2] == (None, None)  # not written yet...
    _, body, _ = await sdk(world, "GET", "/players/ann/friends", trio["ann"])
    assert body["data"]["friends"][0]["status"] == "afk"  # ...but visible at once
    assert await world.services.of(PRESENCE_BOARD).flush_async(world.services.store) == 1
    presence_at, status, _ = _row(world, "bob")
    assert status == "afk" and presence_at is not None


async def test_a_heartbeat_that_opens_a_session_is_written_at_once(
    quiet_world: World, quiet_trio: dict[str, str]
) -> None:
    world, trio = quiet_world, quiet_trio
    assert _row(world, "bob")[2] == 1  # register opened the first session
    world.clock.advance(31 * 60)  # 30 minutes of silence: the next activity opens a session
    await sdk(world, "POST", "/players/bob/presence", trio["bob"], {"status": None})
    assert _row(world, "bob")[2] == 2


async def test_closing_the_server_flushes_presence(quiet_world: World, quiet_trio: dict[str, str]) -> None:
    world, trio = quiet_world, quiet_trio
    world.clock.advance(5)
    await sdk(world, "POST", "/players/bob/presence", trio["bob"], {"status": "bye"})
    assert _row(world, "bob")[1] is None  # held in memory until now
    await asyncio.to_thread(world.services.close)  # what the app's cleanup does on SIGTERM
    # The world's store is closed: read what it left behind through a store of its own.
    store = open_store(world.services.config.db, areas=storage())
    try:
        game_id = world.applied["games"]["space-race"]["id"]
        rows = store.run(
            lambda tx: [tuple(r) for r in tx.execute(PRESENCE_ROW, (game_id, "bob"))], write=False
        )
    finally:
        store.close()
    assert rows[0][1] == "bye"
