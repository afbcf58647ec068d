"""Erasing a player through the API on a real SQLite database: docs/reference/player-tools.md (erasure), 3.8
(erase), 4.3 (delete), 6.2 player.deleted; docs/reference/conventions.md#idempotency,
docs/reference/player-tools.md#erasure.

The game is ``arena`` of ``tests/server/player_tools_support.py``. The erased player registers as
``annie-7f3a`` with a display name, a country and a context, so that any trace of them is easy to find.
The manual clock starts at 2026-03-02T12:00:00.000Z."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.server.player_tools_support import DELETED_ID, T0, Arena, error, ok, start_arena

ANNIE = "annie-7f3a"
REAL_NAME = "Annie Realname"


@pytest.fixture
async def arena(db_url: str) -> AsyncIterator[Arena]:
    a = await start_arena(db_url)
    try:
        yield a
    finally:
        await a.world.client.close()


async def register_annie(arena: Arena, who: str = ANNIE, name: str = REAL_NAME) -> None:
    status, body, _ = await arena.world.call(
        "POST",
        f"/sdk/v1/players/{who}/register",
        key=arena.api_key("client"),
        json={"playerContext": {"country": "FR", "device": "pixel-8", "email": "annie@example.com"}},
    )
    assert status == 201, body
    arena.secrets[who] = body["data"]["playerSecret"]
    ok(await arena.sdk("PUT", who, "/identity", {"name": name, "avatar": "selfie.png"}))


async def erased(arena: Arena, who: str = ANNIE, body: Any = None) -> str:
    data = ok(await arena.erase(who, body))
    assert data["status"] == "deleted", data
    placeholder: str = data["anonymizedExternalId"]
    assert re.fullmatch(DELETED_ID, placeholder)
    return placeholder


# The outbox without its delivery bookkeeping, which the dispatcher updates in the background.
DUMP_COLUMNS = {"outbox": "seq, id, studio_id, game_id, env, kind, occurred_at, data"}


def table_dump(arena: Arena, table: str) -> str:
    """Every row of a table as text, in a stable order (PostgreSQL returns updated rows in no fixed order;
    its JSON columns read back as bytes, shown here as their text)."""
    rows = arena.rows(f"SELECT {DUMP_COLUMNS.get(table, '*')} FROM {table}")
    text = [tuple(v.decode() if isinstance(v, bytes) else v for v in row) for row in rows]
    return repr(sorted(text, key=repr))


# --- player.deleted ---------------------------------------------------------------------------------


async def test_player_deleted_fires_first_with_the_original_id_reason_and_placeholder(arena: Arena) -> None:
    await register_annie(arena)
    await arena.register("bob")
    await arena.befriend(ANNIE, "bob")
    player_id = arena.player_id(ANNIE)
    before = len(arena.events())
    placeholder = await erased(arena, body={"reason": "studio_request"})
    new = arena.events()[before:]
    assert new[0].kind == "player.deleted"
    assert new[0].data == {
        "playerId": player_id,
        "externalPlayerId": ANNIE,
        "reason": "studio_request",
        "anonymizedExternalId": placeholder,
    }
    assert [e.kind for e in new].count("player.deleted") == 1


# --- What is removed --------------------------------------------------------------------------------


async def test_the_erased_row_is_anonymized_in_place(arena: Arena) -> None:
    await register_annie(arena)
    player_id = arena.player_id(ANNIE)
    ok(await arena.sdk("POST", ANNIE, "/presence", {"status": "in Paris"}))
    placeholder = await erased(arena)
    assert error(await arena.profile(ANNIE)) == (404, "player_not_found")
    player = (await arena.exported(placeholder))["player"]
    assert player["id"] == player_id and player["externalPlayerId"] == placeholder
    assert player["lifecycle"] == "deleted"
    assert player["country"] is None and player["context"] == {}
    assert player["friendCode"] is None
    for identity in (player["displayIdentity"], player["anonymizedIdentity"]):
        assert identity["name"] != REAL_NAME and identity["avatar"] != "selfie.png"
        assert identity["country"] is None
    profile = ok(await arena.profile(placeholder))["player"]
    assert profile["lastContextSnapshot"] == {}
    assert REAL_NAME not in table_dump(arena, "players") and "annie@example.com" not in table_dump(
        arena, "players"
    )
    assert "in Paris" not in table_dump(arena, "players")


async def test_erasure_removes_friendships_requests_and_blocks_either_way(arena: Arena) -> None:
    await register_annie(arena)
    await arena.register("bob", "cat", "dan", "eve", "fay")
    await arena.befriend(ANNIE, "bob")
    await arena.request(ANNIE, "cat")
    await arena.request("dan", ANNIE)
    await arena.block(ANNIE, "eve")
    await arena.block("fay", ANNIE)
    player_id = arena.player_id(ANNIE)
    await erased(arena)
    assert await arena.friend_ids("bob") == set()
    assert await arena.friends("bob") == {}  # the friend's own list no longer shows them
    assert await arena.request_ids("cat") == (set(), set())
    assert await arena.request_ids("dan") == (set(), set())
    assert await arena.blocked_ids("fay") == set()
    for table, columns in (
        ("friendships", ("player_id", "friend_id")),
        ("friend_requests", ("from_player_id", "to_player_id")),
        ("blocks", ("blocker_id", "blocked_id")),
    ):
        count = arena.rows(f"SELECT COUNT(*) FROM {table} WHERE ? IN ({', '.join(columns)})", player_id)
        assert count == [(0,)], table
    # eve, once blocked, can befriend whoever now holds the id.
    await arena.register(ANNIE)
    await arena.befriend("eve", ANNIE)


async def test_erasure_clears_gift_messages_written_and_received_but_keeps_the_gifts(arena: Arena) -> None:
    await register_annie(arena)
    await arena.register("bob")
    await arena.befriend(ANNIE, "bob")
    sent = await arena.sent_gift(ANNIE, "bob", amount=3, message="love, Annie from Paris")
    received = await arena.sent_gift("bob", ANNIE, amount=4, message="happy birthday Annie")
    placeholder = await erased(arena)
    inbox = await arena.listing("bob", "inbox")
    assert [(g["giftId"], g["message"], g["player"]["externalPlayerId"]) for g in inbox] == [
        (sent["giftId"], None, placeholder)
    ]
    outbox = await arena.listing("bob", "sent")
    assert [(g["giftId"], g["message"]) for g in outbox] == [(received["giftId"], None)]
    assert arena.rows("SELECT COUNT(*) FROM gifts WHERE message IS NOT NULL") == [(0,)]
    # The gift keeps its value: bob still claims what the erased player sent.
    ok(await arena.claim("bob", sent["giftId"]))
    assert (await arena.wallet("bob"))["coins"] == 3


async def test_erasure_leaves_other_players_gift_messages_alone(arena: Arena) -> None:
    await register_annie(arena)
    await arena.register("bob", "cat")
    await arena.befriend("bob", "cat", ANNIE)
    await arena.sent_gift("bob", "cat", message="for cat")
    await erased(arena)
    assert [g["message"] for g in await arena.listing("cat", "inbox")] == ["for cat"]


async def test_erasure_removes_the_ban_reason_but_keeps_a_debug_flag(arena: Arena) -> None:
    await register_annie(arena)
    ok(await arena.ban_api(ANNIE, "harassed Bob Smith"))
    ok(await arena.write("POST", f"/players/{ANNIE}/debug", {"reason": "QA"}))
    placeholder = await erased(arena)
    player = (await arena.exported(placeholder))["player"]
    assert player["banReason"] is None
    assert player["debug"] is True
    assert "Bob Smith" not in table_dump(arena, "players")


# --- What is kept -----------------------------------------------------------------------------------


async def test_erasure_keeps_ledgers_grants_and_purchases_on_the_anonymous_row(arena: Arena) -> None:
    await register_annie(arena)
    await arena.credit(ANNIE, "coins", 40)
    ok(await arena.sdk("POST", ANNIE, "/wallet/coins/debit", {"amount": 15}))
    await arena.give_items(ANNIE, 2)
    grant = await arena.grant(ANNIE)
    purchase = await arena.purchase(ANNIE, "tx-annie", 999)
    player_id = arena.player_id(ANNIE)
    ledger_before = arena.rows("SELECT * FROM ledger WHERE player_id = ? ORDER BY seq", player_id)
    placeholder = await erased(arena)
    assert arena.rows("SELECT * FROM ledger WHERE player_id = ? ORDER BY seq", player_id) == ledger_before
    data = await arena.exported(placeholder)
    assert data["wallet"] == [{"key": "coins", "amount": 25}]
    assert [(i["key"], i["amount"]) for i in data["inventory"]] == [("sword", 2)]
    assert [g["grantId"] for g in data["grants"]] == [grant["grantId"]]
    assert [p["purchaseId"] for p in data["purchases"]] == [purchase["purchaseId"]]
    assert data["purchases"][0]["externalPlayerId"] == placeholder
    spend = ok(await arena.read(f"/players/{placeholder}/spend"))
    assert spend["lifetimeAmountMinor"] == 999


async def test_an_erased_players_grants_carry_the_placeholder_not_the_original_id(arena: Arena) -> None:
    await register_annie(arena)
    await arena.grant(ANNIE)
    placeholder = await erased(arena)
    grants = (await arena.exported(placeholder))["grants"]
    assert [g["externalPlayerId"] for g in grants] == [placeholder]
    assert [g["externalPlayerId"] for g in ok(await arena.profile(placeholder))["grants"]] == [placeholder]
    assert ANNIE not in table_dump(arena, "grants")


# --- Idempotency and statuses -----------------------------------------------------------------------


async def test_erasing_again_answers_no_op_already_deleted_and_changes_nothing(arena: Arena) -> None:
    await register_annie(arena)
    placeholder = await erased(arena)
    before = [table_dump(arena, t) for t in ("players", "outbox", "erasures")]
    data = ok(await arena.erase(ANNIE))
    assert data["status"] == "no_op_already_deleted"
    assert data["anonymizedExternalId"] in (placeholder, None)
    by_placeholder = ok(await arena.erase(placeholder))
    assert by_placeholder["status"] == "no_op_already_deleted"
    assert [table_dump(arena, t) for t in ("players", "outbox", "erasures")] == before
    assert arena.kinds().count("player.deleted") == 1


async def test_erasure_replay_with_the_same_key_answers_the_original_body(arena: Arena) -> None:
    await register_annie(arena)
    first = await arena.erase(ANNIE, idem_key="e-1")
    status, body, headers = await arena.erase(ANNIE, idem_key="e-1")
    assert (status, body) == (200, first[1]) and body["data"]["status"] == "deleted"
    assert headers["Idempotent-Replay"] == "true"
    assert arena.kinds().count("player.deleted") == 1


async def test_erasure_of_a_never_seen_player_is_no_op_not_found(arena: Arena) -> None:
    before = [table_dump(arena, t) for t in ("players", "outbox", "erasures")]
    data = ok(await arena.erase("ghost"))
    assert data == {"status": "no_op_not_found", "anonymizedExternalId": None}
    assert [table_dump(arena, t) for t in ("players", "outbox", "erasures")] == before


async def test_erasure_by_a_key_of_the_other_environment_does_not_touch_the_player(arena: Arena) -> None:
    await register_annie(arena)
    data = ok(await arena.erase(ANNIE, key="live-server"))
    assert data["status"] == "no_op_not_found"
    assert ok(await arena.profile(ANNIE))["player"]["externalPlayerId"] == ANNIE
    assert arena.events("player.deleted") == []


@pytest.mark.parametrize("reason", ["gdpr_erasure", "studio_request", "test"])
async def test_erasure_reason_is_carried_by_player_deleted(arena: Arena, reason: str) -> None:
    await register_annie(arena)
    await erased(arena, body={"reason": reason})
    assert [e.data["reason"] for e in arena.events("player.deleted")] == [reason]
    assert arena.rows("SELECT reason FROM erasures") == [(reason,)]


@pytest.mark.parametrize("body", [None, {}], ids=["no-body", "empty-body"])
async def test_erasure_reason_defaults_to_gdpr_erasure(arena: Arena, body: Any) -> None:
    await register_annie(arena)
    await erased(arena, body=body)
    assert [e.data["reason"] for e in arena.events("player.deleted")] == ["gdpr_erasure"]


@pytest.mark.parametrize(
    "body",
    [{"reason": "because"}, {"reason": "GDPR_ERASURE"}, {"reason": ""}, {"reason": 1}, {"reason": None}],
    ids=["unknown", "upper-case", "empty", "number", "null"],
)
async def test_erasure_reason_outside_the_enum_is_400_and_erases_nothing(arena: Arena, body: Any) -> None:
    await register_annie(arena)
    status, answer, _ = await arena.erase(ANNIE, body)
    assert (status, answer["error"]["code"]) == (400, "invalid_request")
    assert "reason" in answer["error"]["details"]["fields"]
    assert ok(await arena.profile(ANNIE))["player"]["externalPlayerId"] == ANNIE
    assert arena.events("player.deleted") == []


async def test_erasure_with_a_client_key_is_403(arena: Arena) -> None:
    await register_annie(arena)
    answer = await arena.world.call(
        "POST",
        f"/server/v1/players/{ANNIE}/delete",
        key=arena.api_key("client"),
        headers={"Idempotency-Key": "k"},
    )
    assert error(answer) == (403, "permission_denied")


# --- Afterwards -------------------------------------------------------------------------------------


async def test_the_original_external_id_is_free_for_a_new_player_after_erasure(arena: Arena) -> None:
    await register_annie(arena)
    await arena.credit(ANNIE, "coins", 9)
    old_id = arena.player_id(ANNIE)
    await erased(arena)
    await arena.register(ANNIE)
    assert arena.player_id(ANNIE) != old_id
    assert (await arena.wallet(ANNIE))["coins"] == 0
    player = (await arena.exported(ANNIE))["player"]
    assert player["lifecycle"] == "active" and player["firstSeenAt"] == T0


async def test_the_erased_players_old_secret_no_longer_authenticates(arena: Arena) -> None:
    await register_annie(arena)
    old = arena.secrets[ANNIE]
    placeholder = await erased(arena)
    for who in (ANNIE, placeholder):
        answer = await arena.world.call(
            "GET", f"/sdk/v1/players/{who}/wallet", key=arena.api_key("client"), secret=old
        )
        assert error(answer) == (401, "player_secret_invalid")


async def test_a_new_player_under_an_erased_id_can_be_erased_too(arena: Arena) -> None:
    await register_annie(arena)
    await erased(arena)
    await register_annie(arena, name="Annie Second")
    second = arena.player_id(ANNIE)
    placeholder = await erased(arena, body={"reason": "test"})
    assert (await arena.exported(placeholder))["player"]["id"] == second
    assert arena.kinds().count("player.deleted") == 2
    assert ok(await arena.erase(ANNIE))["status"] == "no_op_already_deleted"


async def test_the_erasure_record_stores_no_original_id_in_clear(arena: Arena) -> None:
    await register_annie(arena)
    await erased(arena)
    rows = arena.rows("SELECT * FROM erasures")
    assert len(rows) == 1
    assert ANNIE not in repr(rows)
    assert arena.rows("SELECT COUNT(*) FROM players WHERE external_id = ?", ANNIE) == [(0,)]
    assert ANNIE not in table_dump(arena, "players")


async def test_erasing_a_merge_target_leaves_no_trace_of_the_account_it_absorbed(arena: Arena) -> None:
    """A merge folds two accounts of one person; erasing the survivor must not leave the absorbed
    account's id, name, country or context readable in clear."""
    await register_annie(arena, who="annie-old", name="Annie Oldname")
    await register_annie(arena)
    merge = ok(await arena.merge("annie-old", ANNIE))
    await erased(arena)
    assert "Annie Oldname" not in table_dump(arena, "players")
    assert "annie@example.com" not in table_dump(arena, "players")
    assert "annie-old" not in table_dump(arena, "merges")
    kept = (await arena.exported(merge["anonymizedExternalPlayerId"]))["player"]
    assert kept["displayIdentity"]["name"] != "Annie Oldname" and kept["country"] is None


# --- The anonymous row is a tombstone ---------------------------------------------------------------


async def test_an_erased_row_cannot_be_registered_again_under_its_placeholder(arena: Arena) -> None:
    """The anonymous row still holds the retained wallet; nobody may sign into it and spend it."""
    await register_annie(arena)
    await arena.credit(ANNIE, "coins", 40)
    player_id = arena.player_id(ANNIE)
    placeholder = await erased(arena)
    status, body, _ = await arena.world.call(
        "POST", f"/sdk/v1/players/{placeholder}/register", key=arena.api_key("client")
    )
    assert status // 100 == 4, body
    assert arena.player_row(player_id).secret_hash is None
    assert (await arena.exported(placeholder))["wallet"] == [{"key": "coins", "amount": 40}]


async def test_an_erased_player_is_left_out_of_search(arena: Arena) -> None:
    await register_annie(arena)
    await arena.register("bob")
    placeholder = await erased(arena)
    for q in ("Annie", "Deleted", "del"):
        hits = ok(await arena.sdk("GET", "bob", f"/friends/search?q={q}"))
        assert placeholder not in [h["externalPlayerId"] for h in hits], q


async def test_an_erased_player_cannot_be_sent_a_friend_request(arena: Arena) -> None:
    await register_annie(arena)
    await arena.register("bob")
    player_id = arena.player_id(ANNIE)
    placeholder = await erased(arena)
    status, body, _ = await arena.sdk("POST", "bob", "/friends/requests", {"externalPlayerId": placeholder})
    assert status // 100 == 4, body
    count = arena.rows(
        "SELECT COUNT(*) FROM friend_requests WHERE ? IN (from_player_id, to_player_id)", player_id
    )
    assert count == [(0,)]
