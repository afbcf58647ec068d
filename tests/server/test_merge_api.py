"""Merging one player into another through the API on a real SQLite database:
docs/reference/player-tools.md#merge (merge-into), 6.2 player.merged, 7 (422 invalid merge);
docs/reference/conventions.md#idempotency, docs/reference/player-tools.md#merge (merge).

The game is ``arena`` of ``tests/server/player_tools_support.py`` (platform-managed, gifting on). In most
tests ``sam`` is merged into ``tom``. The manual clock starts at 2026-03-02T12:00:00.000Z."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.server.player_tools_support import MERGED_ID, T0, Arena, error, idem, ok, start_arena


@pytest.fixture
async def arena(db_url: str) -> AsyncIterator[Arena]:
    a = await start_arena(db_url)
    try:
        yield a
    finally:
        await a.world.client.close()


def snapshot(a: Arena) -> dict[str, list[Any]]:
    """Every row a merge could touch."""
    tables = (
        "players",
        "outbox",
        "gifts",
        "grants",
        "ledger",
        "holdings",
        "friendships",
        "friend_requests",
        "blocks",
        "purchases",
        "merges",
    )
    # The outbox without its delivery bookkeeping, which the dispatcher updates in the background.
    columns = {"outbox": "seq, id, studio_id, game_id, env, kind, occurred_at, data"}
    return {t: sorted(a.rows(f"SELECT {columns.get(t, '*')} FROM {t}"), key=repr) for t in tables}


async def merged(a: Arena, source: str = "sam", target: str = "tom") -> dict[str, Any]:
    data: dict[str, Any] = ok(await a.merge(source, target))
    assert data["status"] == "merged"
    return data


# --- What moves ---------------------------------------------------------------------------------------


async def test_merge_reassigns_grants_to_the_target_who_can_claim_them(arena: Arena) -> None:
    await arena.register("sam", "tom")
    pending = await arena.grant("sam", 5)
    claimed = await arena.grant("sam", 6)
    ok(await arena.claim_grant("sam", claimed["grantId"]))
    own = await arena.grant("tom", 7)
    await merged(arena)
    profile = ok(await arena.profile("tom"))
    assert {g["grantId"] for g in profile["grants"]} == {
        pending["grantId"],
        claimed["grantId"],
        own["grantId"],
    }
    assert {g["externalPlayerId"] for g in profile["grants"]} == {"tom"}
    assert (profile["summary"]["grantsPending"], profile["summary"]["grantsClaimed"]) == (2, 1)
    assert {g["grantId"] for g in await arena.pending_grants("tom")} == {pending["grantId"], own["grantId"]}
    assert ok(await arena.claim_grant("tom", pending["grantId"]))["grant"]["externalPlayerId"] == "tom"
    assert (await arena.wallet("tom"))["coins"] == 5 + 6 + 0  # sam's claimed 6 came along in the ledger


async def test_merge_reassigns_gifts_sent_and_received(arena: Arena) -> None:
    await arena.register("sam", "tom", "ann", "bob")
    await arena.befriend("sam", "ann", "bob")
    sent = await arena.sent_gift("sam", "ann", amount=3, message="from sam")
    received = await arena.sent_gift("bob", "sam", amount=4, message="to sam")
    await merged(arena)
    inbox = await arena.listing("ann", "inbox")
    assert [(g["giftId"], g["player"]["externalPlayerId"]) for g in inbox] == [(sent["giftId"], "tom")]
    assert [g["giftId"] for g in await arena.listing("tom", "sent")] == [sent["giftId"]]
    assert [g["giftId"] for g in await arena.listing("tom", "inbox")] == [received["giftId"]]
    bobs = await arena.listing("bob", "sent")
    assert [(g["giftId"], g["player"]["externalPlayerId"]) for g in bobs] == [(received["giftId"], "tom")]
    history = ok(await arena.read("/players/tom/gifts?direction=sent"))
    assert [g["giftId"] for g in history["gifts"]] == [sent["giftId"]]
    # The target claims the gift the source received, and is credited.
    claimed = ok(await arena.claim("tom", received["giftId"]))["gift"]
    assert claimed["status"] == "claimed"
    assert (await arena.wallet("tom"))["coins"] == 4
    assert arena.events("gift.claimed")[0].data["recipientExternalPlayerId"] == "tom"


async def test_merge_reassigns_purchases_and_the_lifetime_spend_follows(arena: Arena) -> None:
    await arena.register("sam", "tom")
    mine = await arena.purchase("sam", "tx-sam", 499)
    theirs = await arena.purchase("tom", "tx-tom", 199)
    await merged(arena)
    rows = ok(await arena.read("/players/tom/purchases"))["purchases"]
    assert {p["purchaseId"] for p in rows} == {mine["purchaseId"], theirs["purchaseId"]}
    assert {p["externalPlayerId"] for p in rows} == {"tom"}
    spend = ok(await arena.read("/players/tom/spend"))
    assert spend["lifetimeAmountMinor"] == 698 and spend["purchaseCount"] == 2
    exported = await arena.exported("tom")
    assert {p["purchaseId"] for p in exported["purchases"]} == {mine["purchaseId"], theirs["purchaseId"]}


async def test_merge_moves_friendships_deduplicated_and_never_a_self_friendship(arena: Arena) -> None:
    """sam is friends with ann (since T0), bob and tom; tom is friends with bob and cat."""
    await arena.register("sam", "tom", "ann", "bob", "cat")
    await arena.befriend("sam", "ann")
    arena.world.clock.advance(60)
    await arena.befriend("sam", "bob", "tom")
    await arena.befriend("tom", "bob", "cat")
    await merged(arena)
    assert await arena.friend_ids("tom") == {"ann", "bob", "cat"}
    assert await arena.friend_ids("ann") == {"tom"}
    bob_rows = ok(await arena.read("/players/bob/friends"))["friends"]
    assert [r["externalPlayerId"] for r in bob_rows] == ["tom"]  # once, not twice
    tom_rows = ok(await arena.read("/players/tom/friends"))["friends"]
    assert len(tom_rows) == 3
    assert next(r for r in tom_rows if r["externalPlayerId"] == "ann")["friendsSince"] == T0
    assert arena.rows("SELECT COUNT(*) FROM friendships WHERE player_id = friend_id") == [(0,)]
    source_id = arena.rows("SELECT from_player_id FROM merges")[0][0]
    assert arena.rows("SELECT COUNT(*) FROM friendships WHERE ? IN (player_id, friend_id)", source_id) == [
        (0,)
    ]
    # The friendships work: the target can gift a friend it took over.
    await arena.sent_gift("tom", "ann")


async def test_merge_moves_pending_requests_except_between_the_two_or_to_players_the_target_knows(
    arena: Arena,
) -> None:
    """sam asked dan, eve asked sam, sam asked tom, sam asked cat (tom's friend)."""
    await arena.register("sam", "tom", "cat", "dan", "eve")
    await arena.befriend("tom", "cat")
    to_dan = await arena.request("sam", "dan")
    await arena.request("eve", "sam")
    await arena.request("sam", "tom")
    await arena.request("sam", "cat")
    await merged(arena)
    assert await arena.request_ids("tom") == ({"eve"}, {"dan"})
    assert await arena.request_ids("dan") == ({"tom"}, set())
    assert await arena.request_ids("eve") == (set(), {"tom"})
    assert await arena.request_ids("cat") == (set(), set())
    assert await arena.friend_ids("cat") == {"tom"}
    # The moved request keeps its id: dan accepts it and is friends with tom.
    ok(await arena.sdk("POST", "dan", f"/friends/requests/{to_dan}/accept"))
    assert await arena.friend_ids("tom") == {"cat", "dan"}


async def test_merge_moves_blocks_either_way_except_between_the_two(arena: Arena) -> None:
    await arena.register("sam", "tom", "fay", "gil")
    await arena.block("sam", "fay")
    await arena.block("gil", "sam")
    await arena.block("sam", "tom")
    await merged(arena)
    assert await arena.blocked_ids("tom") == {"fay"}
    assert await arena.blocked_ids("gil") == {"tom"}
    assert arena.rows("SELECT COUNT(*) FROM blocks WHERE blocker_id = blocked_id") == [(0,)]
    # The moved blocks hold: fay cannot befriend tom, tom cannot befriend gil.
    answer = await arena.sdk("POST", "fay", "/friends/requests", {"externalPlayerId": "tom"})
    assert error(answer) == (403, "player_blocked")
    answer = await arena.sdk("POST", "tom", "/friends/requests", {"externalPlayerId": "gil"})
    assert error(answer) == (403, "player_blocked")


async def test_merge_does_not_move_a_friendship_with_a_player_the_target_blocked(arena: Arena) -> None:
    await arena.register("sam", "tom", "ann")
    await arena.befriend("sam", "ann")
    await arena.block("tom", "ann")
    await merged(arena)
    assert await arena.friend_ids("tom") == set()
    assert await arena.friend_ids("ann") == set()
    assert await arena.blocked_ids("tom") == {"ann"}


async def test_merge_sums_wallet_balances_per_key_and_moves_every_ledger_entry(arena: Arena) -> None:
    await arena.register("sam", "tom")
    await arena.credit("sam", "coins", 30)
    await arena.credit("sam", "gems", 5)
    ok(await arena.sdk("POST", "sam", "/wallet/coins/debit", {"amount": 10}))
    await arena.credit("tom", "coins", 70)
    sam_entries = {e.id for e in arena.ledger("sam", "coins")} | {e.id for e in arena.ledger("sam", "gems")}
    tom_entries = {e.id for e in arena.ledger("tom", "coins")}
    total_before = await arena.wallet("sam"), await arena.wallet("tom")
    await merged(arena)
    wallet = await arena.wallet("tom")
    assert wallet == {"coins": 20 + 70, "gems": 5}
    assert wallet["coins"] == total_before[0]["coins"] + total_before[1]["coins"]
    coins, gems = arena.ledger("tom", "coins"), arena.ledger("tom", "gems")
    assert {e.id for e in coins} | {e.id for e in gems} == sam_entries | tom_entries
    assert sum(e.delta for e in coins) == wallet["coins"]
    assert sum(e.delta for e in gems) == wallet["gems"]
    exported = await arena.exported("tom")
    assert exported["wallet"] == [{"key": "coins", "amount": 90}, {"key": "gems", "amount": 5}]
    # The summed balance is spendable as one.
    assert ok(await arena.sdk("POST", "tom", "/wallet/coins/debit", {"amount": 90}))["balance"] == 0


async def test_merge_sums_item_quantities_and_the_targets_parameters_win(arena: Arena) -> None:
    await arena.register("sam", "tom")
    await arena.give_items("sam", 2, {"level": 3, "color": "gold"})
    await arena.give_items("tom", 1, {"color": "red"})
    await merged(arena)
    sword = (await arena.items("tom"))["sword"]
    assert sword["quantity"] == 3
    assert sword["parameters"] == {"level": 3, "color": "red"}
    assert sum(e.delta for e in arena.ledger("tom", "sword")) == 3


async def test_merge_moves_holdings_the_target_never_had_as_they_were(arena: Arena) -> None:
    await arena.register("sam", "tom")
    await arena.give_items("sam", 4, {"level": 7})
    await merged(arena)
    sword = (await arena.items("tom"))["sword"]
    assert (sword["quantity"], sword["parameters"]["level"]) == (4, 7)


# --- The source afterwards --------------------------------------------------------------------------


async def test_merged_source_id_becomes_a_placeholder_and_the_original_id_is_free(arena: Arena) -> None:
    await arena.register("sam", "tom")
    await arena.credit("sam", "coins", 5)
    source_id = arena.player_id("sam")
    data = await merged(arena)
    assert data["fromExternalPlayerId"] == "sam" and data["toExternalPlayerId"] == "tom"
    assert data["mergedAt"] == T0
    placeholder = data["anonymizedExternalPlayerId"]
    assert re.fullmatch(MERGED_ID, placeholder)
    assert error(await arena.profile("sam")) == (404, "player_not_found")
    kept = ok(await arena.profile(placeholder))["player"]
    assert kept["id"] == source_id and kept.get("lifecycle") == "merged"
    # A new player may now take the original id; it starts empty.
    await arena.register("sam")
    assert arena.player_id("sam") != source_id
    assert (await arena.wallet("sam"))["coins"] == 0
    assert await arena.friend_ids("sam") == set()
    assert (await arena.wallet("tom"))["coins"] == 5


async def test_merged_source_old_secret_no_longer_authenticates(arena: Arena) -> None:
    await arena.register("sam", "tom")
    old = arena.secrets["sam"]
    placeholder = (await merged(arena))["anonymizedExternalPlayerId"]
    for who in ("sam", placeholder):
        answer = await arena.world.call(
            "GET", f"/sdk/v1/players/{who}/wallet", key=arena.api_key("client"), secret=old
        )
        assert error(answer) == (401, "player_secret_invalid")
    await arena.register("sam")  # a new player under the original id has its own secret
    answer = await arena.world.call(
        "GET", "/sdk/v1/players/sam/wallet", key=arena.api_key("client"), secret=old
    )
    assert error(answer) == (401, "player_secret_invalid")
    ok(await arena.sdk("GET", "tom", "/wallet"))  # the target's own secret is untouched


async def test_player_merged_payload_names_both_players_the_placeholder_and_the_actor(arena: Arena) -> None:
    await arena.register("sam", "tom")
    source_id, target_id = arena.player_id("sam"), arena.player_id("tom")
    arena.world.clock.advance(90)
    data = await merged(arena)
    (event,) = arena.events("player.merged")
    prefix = event.data["actor"]["prefix"]
    assert event.data == {
        "fromPlayerId": source_id,
        "fromExternalPlayerId": "sam",
        "toPlayerId": target_id,
        "toExternalPlayerId": "tom",
        "anonymizedExternalPlayerId": data["anonymizedExternalPlayerId"],
        "mergedAt": "2026-03-02T12:01:30.000Z",
        "actor": {"kind": "api_key", "prefix": prefix},
    }
    assert arena.api_key("server").startswith(prefix) and len(prefix) < len(arena.api_key("server"))


# --- Replays ----------------------------------------------------------------------------------------


async def test_merge_replay_with_a_new_key_answers_no_op_already_merged_and_changes_nothing(
    arena: Arena,
) -> None:
    await arena.register("sam", "tom")
    await arena.credit("sam", "coins", 5)
    await arena.credit("tom", "coins", 5)
    first = await merged(arena)
    before = snapshot(arena)
    status, body, headers = await arena.merge("sam", "tom")
    assert status == 200 and "Idempotent-Replay" not in headers
    assert body["data"] == {**first, "status": "no_op_already_merged"}
    assert snapshot(arena) == before
    assert (await arena.wallet("tom"))["coins"] == 10
    assert arena.kinds().count("player.merged") == 1


async def test_merge_replay_with_the_same_key_answers_the_original_body(arena: Arena) -> None:
    await arena.register("sam", "tom")
    first = await arena.merge("sam", "tom", idem_key="m-1")
    status, body, headers = await arena.merge("sam", "tom", idem_key="m-1")
    assert (status, body) == (200, first[1]) and body["data"]["status"] == "merged"
    assert headers["Idempotent-Replay"] == "true"
    assert arena.kinds().count("player.merged") == 1


# --- Refusals -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("source", "target"), [("ghost", "tom"), ("sam", "ghost"), ("ghost", "phantom")])
async def test_merge_is_404_when_either_player_never_existed(arena: Arena, source: str, target: str) -> None:
    await arena.register("sam", "tom")
    before = snapshot(arena)
    assert error(await arena.merge(source, target)) == (404, "player_not_found")
    assert snapshot(arena) == before


async def test_merge_of_players_of_the_other_environment_is_404(arena: Arena) -> None:
    await arena.register("sam", "tom")
    before = snapshot(arena)
    assert error(await arena.merge("sam", "tom", key="live-server")) == (404, "player_not_found")
    assert snapshot(arena) == before


async def test_merge_with_a_client_key_is_403(arena: Arena) -> None:
    await arena.register("sam", "tom")
    answer = await arena.world.call(
        "POST",
        "/server/v1/players/sam/merge-into/tom",
        key=arena.api_key("client"),
        headers={"Idempotency-Key": idem()},
    )
    assert error(answer) == (403, "permission_denied")


async def refuse(arena: Arena, source: str, target: str) -> None:
    """The merge is refused with 422 ``invalid_merge`` and nothing changes (all-or-nothing)."""
    before = snapshot(arena)
    kinds = arena.kinds()
    assert error(await arena.merge(source, target)) == (422, "invalid_merge")
    assert snapshot(arena) == before
    assert arena.kinds() == kinds


async def rich(arena: Arena, *names: str) -> None:
    """Players with something of everything, so that a partial merge would show."""
    await arena.register(*names)
    for name in names:
        await arena.credit(name, "coins", 10)
        await arena.give_items(name, 1)
        await arena.grant(name)
        await arena.purchase(name, f"tx-{name}")


async def test_merge_of_a_player_into_itself_is_422(arena: Arena) -> None:
    await rich(arena, "sam")
    await refuse(arena, "sam", "sam")


async def test_merge_into_a_banned_target_is_422_and_changes_nothing(arena: Arena) -> None:
    await rich(arena, "sam", "tom", "ann")
    await arena.befriend("sam", "ann")
    ok(await arena.ban_api("tom"))
    await refuse(arena, "sam", "tom")
    ok(await arena.unban_api("tom"))
    await merged(arena)  # once unbanned, the same merge goes through


async def test_merge_into_an_erased_target_named_by_its_placeholder_is_422(arena: Arena) -> None:
    await rich(arena, "sam", "tom")
    placeholder = ok(await arena.erase("tom"))["anonymizedExternalId"]
    await refuse(arena, "sam", placeholder)


async def test_merge_into_an_erased_target_named_by_its_original_id_is_422(arena: Arena) -> None:
    """docs/reference/player-tools.md#merge: 404 only when a player never existed; an erased target is 422."""
    await rich(arena, "sam", "tom")
    ok(await arena.erase("tom"))
    await refuse(arena, "sam", "tom")


async def test_merge_of_a_source_already_merged_elsewhere_is_422(arena: Arena) -> None:
    await rich(arena, "sam", "tom", "ann")
    await merged(arena, "sam", "tom")
    await refuse(arena, "sam", "ann")


async def test_merge_of_a_merged_source_named_by_its_placeholder_is_422(arena: Arena) -> None:
    await rich(arena, "sam", "tom", "ann")
    placeholder = (await merged(arena, "sam", "tom"))["anonymizedExternalPlayerId"]
    await refuse(arena, placeholder, "ann")
    await refuse(arena, placeholder, "tom")


async def test_merge_into_a_target_that_was_merged_away_named_by_its_placeholder_is_422(
    arena: Arena,
) -> None:
    await rich(arena, "sam", "tom", "ann")
    placeholder = (await merged(arena, "tom", "ann"))["anonymizedExternalPlayerId"]
    await refuse(arena, "sam", placeholder)


async def test_merge_into_a_target_that_was_merged_away_named_by_its_original_id_is_422(
    arena: Arena,
) -> None:
    """merge.py: a merged target is 422 (it existed); the contract (docs/reference/player-tools.md#merge)
    keeps 404 for players that never did."""
    await rich(arena, "sam", "tom", "ann")
    await merged(arena, "tom", "ann")
    await refuse(arena, "sam", "tom")


async def test_merge_of_an_erased_source_named_by_its_original_id_is_422(arena: Arena) -> None:
    """merge.py: an erased source is 422 (it existed); 404 is for players that never did."""
    await rich(arena, "sam", "tom")
    ok(await arena.erase("sam"))
    await refuse(arena, "sam", "tom")


async def test_merge_of_an_erased_source_named_by_its_placeholder_is_422(arena: Arena) -> None:
    await rich(arena, "sam", "tom")
    placeholder = ok(await arena.erase("sam"))["anonymizedExternalId"]
    await refuse(arena, placeholder, "tom")


async def test_a_merge_that_fails_midway_leaves_nothing_behind(
    arena: Arena, monkeypatch: pytest.MonkeyPatch
) -> None:
    """All-or-nothing: the last store write of the merge fails after everything else was moved."""
    from livecore_server.player_tools.sql.merges import SqlMerges

    await rich(arena, "sam", "tom", "ann")
    await arena.befriend("sam", "ann")
    await arena.sent_gift("sam", "ann")

    def fail(self: SqlMerges, record: Any) -> None:
        raise RuntimeError("disk full")

    # Both stores share the merges port's statements, so this fails the merge on either.
    monkeypatch.setattr(SqlMerges, "insert", fail)
    before = snapshot(arena)
    status, _, _ = await arena.merge("sam", "tom")
    assert status == 500
    assert snapshot(arena) == before
    monkeypatch.undo()
    await merged(arena)


async def test_a_new_player_under_a_merged_id_can_be_merged_too(arena: Arena) -> None:
    """The original id is free after a merge (docs/reference/player-tools.md#merge); the new player under it
    is a player like any."""
    await rich(arena, "sam", "tom", "ann")
    await merged(arena, "sam", "tom")
    await arena.register("sam")
    await arena.credit("sam", "coins", 3)
    data = ok(await arena.merge("sam", "ann"))
    assert data["status"] == "merged"
    assert (await arena.wallet("ann"))["coins"] == 13


async def test_merge_records_are_scoped_to_the_environment(arena: Arena) -> None:
    """A test-environment merge of ``sam`` says nothing about a live ``sam`` that never existed."""
    await arena.register("sam", "tom")
    await merged(arena, "sam", "tom")
    status, body, _ = await arena.world.call(
        "POST", "/sdk/v1/players/lou/register", key=arena.api_key("live-client")
    )
    assert status == 201, body
    assert error(await arena.merge("sam", "lou", key="live-server")) == (404, "player_not_found")


# --- The placeholder row is a tombstone -------------------------------------------------------------


async def test_a_merged_source_cannot_be_registered_again_under_its_placeholder(arena: Arena) -> None:
    """The placeholder row keeps no secret; registering it must not bring it back to life."""
    await arena.register("sam", "tom")
    placeholder = (await merged(arena))["anonymizedExternalPlayerId"]
    secrets_set = arena.kinds().count("player.secret_set")
    status, body, _ = await arena.world.call(
        "POST", f"/sdk/v1/players/{placeholder}/register", key=arena.api_key("client")
    )
    assert status // 100 == 4, body
    source_id = arena.rows("SELECT from_player_id FROM merges")[0][0]
    assert arena.player_row(source_id).secret_hash is None
    assert arena.kinds().count("player.secret_set") == secrets_set


async def test_a_merged_source_is_left_out_of_search_and_suggestions(arena: Arena) -> None:
    await arena.register("sam", "tom", "ann")
    ok(await arena.sdk("PUT", "sam", "/identity", {"name": "Samwise Gamgee"}))
    ok(await arena.sdk("POST", "sam", "/presence"))
    placeholder = (await merged(arena))["anonymizedExternalPlayerId"]
    hits = ok(await arena.sdk("GET", "ann", "/friends/search?q=Samwise"))
    assert [h["externalPlayerId"] for h in hits] == []
    suggestions = ok(await arena.sdk("GET", "ann", "/friends/suggestions?limit=25"))["suggestions"]
    assert placeholder not in [s["externalPlayerId"] for s in suggestions]


async def test_a_merged_source_cannot_be_sent_a_friend_request(arena: Arena) -> None:
    await arena.register("sam", "tom", "ann")
    placeholder = (await merged(arena))["anonymizedExternalPlayerId"]
    source_id = arena.rows("SELECT from_player_id FROM merges")[0][0]
    status, body, _ = await arena.sdk("POST", "ann", "/friends/requests", {"externalPlayerId": placeholder})
    assert status // 100 == 4, body
    count = arena.rows(
        "SELECT COUNT(*) FROM friend_requests WHERE ? IN (from_player_id, to_player_id)", source_id
    )
    assert count == [(0,)]
