"""Player tools through the API on a real SQLite database: profile, ban and unban, the debug
flag and export. docs/reference/player-tools.md, with ``player.banned`` and
``player.unbanned``.

Merge is in ``test_merge_api.py``, erasure in ``test_erasure_api.py``. The game is ``arena`` of
``tests/server/player_tools_support.py``; the manual clock starts at 2026-03-02T12:00:00.000Z."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.server.player_tools_support import T0, Arena, error, idem, ok, start_arena

PROFILE_PLAYER_FIELDS = {"id", "externalPlayerId", "firstSeenAt", "lastSeenAt", "lastContextSnapshot"}
SUMMARY_FIELDS = {
    "attemptCount",
    "attemptsCompleted",
    "attemptsExpired",
    "grantsPending",
    "grantsClaimed",
    "lobbiesActive",
}


@pytest.fixture
async def arena(db_url: str) -> AsyncIterator[Arena]:
    a = await start_arena(db_url)
    try:
        yield a
    finally:
        await a.world.client.close()


def snapshot(a: Arena) -> dict[str, list[Any]]:
    """Every row a player-scoped write could touch."""
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
    )
    # The outbox without its delivery bookkeeping, which the dispatcher updates in the background.
    columns = {"outbox": "seq, id, studio_id, game_id, env, kind, occurred_at, data"}
    return {t: sorted(a.rows(f"SELECT {columns.get(t, '*')} FROM {t}"), key=repr) for t in tables}


# --- Profile ------------------------------------------------------------------------------------------


async def test_profile_names_the_player_its_recent_lists_and_summary_counters(arena: Arena) -> None:
    status, body, _ = await arena.world.call(
        "POST",
        "/sdk/v1/players/sam/register",
        key=arena.api_key("client"),
        json={"playerContext": {"device": "pixel-8", "locale": "fr-FR"}},
    )
    assert status == 201, body
    arena.secrets["sam"] = body["data"]["playerSecret"]
    grant = await arena.grant("sam")
    data = ok(await arena.profile("sam"))
    assert {"player", "attempts", "grants", "lobbies", "summary"} <= set(data)
    player = data["player"]
    assert set(player) >= PROFILE_PLAYER_FIELDS
    assert player["id"] == arena.player_id("sam") and player["id"].startswith("plr_")
    assert player["externalPlayerId"] == "sam"
    assert player["firstSeenAt"] == T0 and player["lastSeenAt"] == T0
    assert player["lastContextSnapshot"] == {"device": "pixel-8", "locale": "fr-FR"}
    assert data["attempts"] == [] and data["lobbies"] == []
    assert [g["grantId"] for g in data["grants"]] == [grant["grantId"]]
    # the grant record (docs/reference/grants.md#the-record), as the create answered it
    assert data["grants"][0] == grant
    assert set(data["summary"]) == SUMMARY_FIELDS
    assert data["summary"] == {
        "attemptCount": 0,
        "attemptsCompleted": 0,
        "attemptsExpired": 0,
        "grantsPending": 1,
        "grantsClaimed": 0,
        "lobbiesActive": 0,
    }


async def test_profile_last_seen_moves_with_activity_first_seen_does_not(arena: Arena) -> None:
    await arena.register("sam")
    arena.world.clock.advance(3600)
    ok(await arena.sdk("POST", "sam", "/presence", {"status": "lobby"}))
    player = ok(await arena.profile("sam"))["player"]
    assert player["firstSeenAt"] == T0
    assert player["lastSeenAt"] == "2026-03-02T13:00:00.000Z"


async def test_profile_summary_counts_grants_pending_and_claimed_right_after_each_change(
    arena: Arena,
) -> None:
    await arena.register("sam")
    first = await arena.grant("sam")
    second = await arena.grant("sam")
    summary = ok(await arena.profile("sam"))["summary"]
    assert (summary["grantsPending"], summary["grantsClaimed"]) == (2, 0)
    ok(await arena.claim_grant("sam", first["grantId"]))
    summary = ok(await arena.profile("sam"))["summary"]
    assert (summary["grantsPending"], summary["grantsClaimed"]) == (1, 1)
    ok(await arena.write("POST", f"/players/sam/grants/{second['grantId']}/ack"))
    summary = ok(await arena.profile("sam"))["summary"]
    assert (summary["grantsPending"], summary["grantsClaimed"]) == (0, 2)
    statuses = {g["grantId"]: g["status"] for g in ok(await arena.profile("sam"))["grants"]}
    assert statuses == {first["grantId"]: "claimed", second["grantId"]: "claimed"}


async def test_profile_limit_caps_the_grants_list_newest_first_while_the_summary_counts_all(
    arena: Arena,
) -> None:
    ids = []
    for _ in range(4):
        ids.append((await arena.grant("sam"))["grantId"])
        arena.world.clock.advance(60)
    data = ok(await arena.profile("sam", "?limit=2"))
    assert [g["grantId"] for g in data["grants"]] == [ids[3], ids[2]]
    assert data["summary"]["grantsPending"] == 4
    assert [g["grantId"] for g in ok(await arena.profile("sam", "?limit=1"))["grants"]] == [ids[3]]
    assert [g["grantId"] for g in ok(await arena.profile("sam"))["grants"]] == ids[::-1]  # default 50
    assert len(ok(await arena.profile("sam", "?limit=200"))["grants"]) == 4


async def test_profile_default_limit_is_50_grants(arena: Arena) -> None:
    first = await arena.grant("sam")
    await insert_grant_copies(arena, first["grantId"], 60)
    data = ok(await arena.profile("sam"))
    assert len(data["grants"]) == 50 and data["grants"][0]["grantId"] == first["grantId"]
    assert data["summary"]["grantsPending"] == 61
    assert len(ok(await arena.profile("sam", "?limit=200"))["grants"]) == 61


@pytest.mark.parametrize("limit", ["0", "201", "-1", "1000", "abc", ""])
async def test_profile_limit_outside_1_to_200_is_400_invalid_request(arena: Arena, limit: str) -> None:
    await arena.register("sam")
    status, body, _ = await arena.profile("sam", f"?limit={limit}")
    assert (status, body["error"]["code"]) == (400, "invalid_request")
    assert "limit" in body["error"]["details"]["fields"]


async def test_profile_of_an_unknown_player_is_404(arena: Arena) -> None:
    assert error(await arena.profile("ghost")) == (404, "player_not_found")


async def test_profile_with_a_client_key_is_403(arena: Arena) -> None:
    await arena.register("sam")
    answer = await arena.world.call("GET", "/server/v1/players/sam", key=arena.api_key("client"))
    assert error(answer) == (403, "permission_denied")


async def test_profile_of_a_player_of_the_other_environment_is_404(arena: Arena) -> None:
    await arena.register("sam")  # a test player
    status, body, _ = await arena.world.call(
        "POST", "/sdk/v1/players/lou/register", key=arena.api_key("live-client")
    )
    assert status == 201, body
    assert error(await arena.profile("sam", key="live-server")) == (404, "player_not_found")
    assert error(await arena.profile("lou")) == (404, "player_not_found")
    assert ok(await arena.profile("lou", key="live-server"))["player"]["externalPlayerId"] == "lou"


async def test_profile_of_a_player_of_another_game_is_404(arena: Arena) -> None:
    await arena.register("sam")
    answer = await arena.world.call(
        "GET", "/server/v1/players/sam", key=arena.world.other_keys["test-server"]
    )
    assert error(answer) == (404, "player_not_found")


# --- Ban and unban ----------------------------------------------------------------------------------


async def test_ban_applies_once_then_a_reban_refreshes_the_reason_keeps_banned_at_and_fires_nothing(
    arena: Arena,
) -> None:
    await arena.register("sam")
    first = ok(await arena.ban_api("sam", "botting"))
    assert first == {
        "applied": True,
        "ban": {"externalPlayerId": "sam", "banned": True, "reason": "botting", "bannedAt": T0},
    }
    arena.world.clock.advance(3600)
    again = ok(await arena.ban_api("sam", "chargeback fraud"))
    assert again["applied"] is False
    assert again["ban"]["reason"] == "chargeback fraud"
    assert again["ban"]["bannedAt"] == T0
    assert arena.kinds().count("player.banned") == 1
    assert ok(await arena.profile("sam"))["player"].get("banned", True) is True


async def test_player_banned_payload_names_the_player_reason_time_and_api_key_actor(arena: Arena) -> None:
    await arena.register("sam")
    ok(await arena.ban_api("sam", "botting"))
    (event,) = arena.events("player.banned")
    assert event.data == {
        "playerId": arena.player_id("sam"),
        "externalPlayerId": "sam",
        "reason": "botting",
        "bannedAt": T0,
        "actor": {"kind": "api_key", "prefix": event.data["actor"]["prefix"]},
    }
    prefix = event.data["actor"]["prefix"]
    secret = arena.api_key("server")
    assert secret.startswith(prefix) and len(prefix) < len(secret) // 2  # a prefix, never the key


@pytest.mark.parametrize(
    "body",
    [{}, {"reason": ""}, {"reason": "   "}, {"reason": None}, {"reason": 5}, {"reason": "x" * 501}, None],
    ids=["missing", "empty", "blank", "null", "number", "too-long", "no-body"],
)
async def test_ban_reason_is_required_and_not_blank(arena: Arena, body: Any) -> None:
    await arena.register("sam")
    status, answer, _ = await arena.write("POST", "/players/sam/ban", body)
    assert (status, answer["error"]["code"]) == (400, "invalid_request")
    assert arena.events("player.banned") == []
    ok(await arena.sdk("POST", "sam", "/presence"))  # not banned


async def test_ban_reason_is_trimmed(arena: Arena) -> None:
    await arena.register("sam")
    assert ok(await arena.ban_api("sam", "  botting  "))["ban"]["reason"] == "botting"


async def test_unban_lifts_a_ban_with_player_unbanned(arena: Arena) -> None:
    await arena.register("sam")
    ok(await arena.ban_api("sam"))
    arena.world.clock.advance(60)
    data = ok(await arena.unban_api("sam"))
    assert data["applied"] is True
    assert data["ban"]["banned"] is False
    (event,) = arena.events("player.unbanned")
    assert event.data == {
        "playerId": arena.player_id("sam"),
        "externalPlayerId": "sam",
        "unbannedAt": "2026-03-02T12:01:00.000Z",
        "actor": {"kind": "api_key", "prefix": arena.events("player.banned")[0].data["actor"]["prefix"]},
    }
    await arena.credit("sam", "coins", 5)
    assert ok(await arena.sdk("POST", "sam", "/wallet/coins/debit", {"amount": 2}))["balance"] == 3


async def test_unban_of_a_player_who_is_not_banned_is_applied_false_without_webhook(arena: Arena) -> None:
    await arena.register("sam")
    assert ok(await arena.unban_api("sam"))["applied"] is False
    ok(await arena.ban_api("sam"))
    ok(await arena.unban_api("sam"))
    again = ok(await arena.unban_api("sam"))
    assert again["applied"] is False and again["ban"]["banned"] is False
    assert arena.kinds().count("player.unbanned") == 1


async def test_a_ban_after_an_unban_is_a_new_transition_with_a_new_banned_at(arena: Arena) -> None:
    await arena.register("sam")
    ok(await arena.ban_api("sam", "first"))
    ok(await arena.unban_api("sam"))
    arena.world.clock.advance(120)
    data = ok(await arena.ban_api("sam", "second"))
    assert data["applied"] is True and data["ban"]["bannedAt"] == "2026-03-02T12:02:00.000Z"
    assert [e.data["reason"] for e in arena.events("player.banned")] == ["first", "second"]


async def test_ban_and_unban_of_an_unknown_or_other_environment_player_are_404(arena: Arena) -> None:
    await arena.register("sam")
    assert error(await arena.ban_api("ghost")) == (404, "player_not_found")
    assert error(await arena.unban_api("ghost")) == (404, "player_not_found")
    assert error(await arena.ban_api("sam", key="live-server")) == (404, "player_not_found")
    assert arena.events("player.banned") == []


async def test_ban_with_a_client_key_is_403(arena: Arena) -> None:
    await arena.register("sam")
    answer = await arena.world.call(
        "POST",
        "/server/v1/players/sam/ban",
        key=arena.api_key("client"),
        json={"reason": "x"},
        headers={"Idempotency-Key": idem()},
    )
    assert error(answer) == (403, "permission_denied")


async def test_ban_replay_with_the_same_key_answers_the_original_body(arena: Arena) -> None:
    await arena.register("sam")
    first = await arena.ban_api("sam", "botting", idem_key="ban-1")
    status, body, headers = await arena.ban_api("sam", "botting", idem_key="ban-1")
    assert (status, body) == (200, first[1])
    assert headers["Idempotent-Replay"] == "true"
    assert error(await arena.ban_api("sam", "other", idem_key="ban-1")) == (409, "idempotency_conflict")
    assert arena.kinds().count("player.banned") == 1


@pytest.fixture
async def banned(arena: Arena) -> dict[str, str]:
    """sam is friends with ann; bob asked sam to be friends; sam asked cat; sam blocked dan; ann sent sam a
    gift; sam holds a pending grant, 50 coins and 3 swords. Then sam is banned through the server API."""
    await arena.register("sam", "ann", "bob", "cat", "dan", "eve")
    await arena.befriend("sam", "ann")
    incoming = await arena.request("bob", "sam")
    outgoing = await arena.request("sam", "cat")
    await arena.block("sam", "dan")
    gift = await arena.sent_gift("ann", "sam", amount=2)
    grant = await arena.grant("sam")
    await arena.credit("sam", "coins", 50)
    await arena.give_items("sam", 3)
    ok(await arena.ban_api("sam", "botting"))
    return {"incoming": incoming, "outgoing": outgoing, "gift": gift["giftId"], "grant": grant["grantId"]}


PURCHASE = {
    "transactionId": "t-1",
    "store": "apple",
    "productId": "p",
    "productType": "consumable",
    "amountMinor": 99,
    "currency": "USD",
}
GIFT = {"type": "currency", "resourceKey": "coins", "amount": 1, "externalPlayerId": "ann"}
BANNED_WRITES = [
    ("register", "POST", "/register", None),
    ("register-force", "POST", "/register?force=true", None),
    ("set-identity", "PUT", "/identity", {"name": "Renamed"}),
    ("friend-request", "POST", "/friends/requests", {"externalPlayerId": "eve"}),
    ("accept-request", "POST", "/friends/requests/{incoming}/accept", None),
    ("decline-request", "POST", "/friends/requests/{incoming}/decline", None),
    ("cancel-request", "POST", "/friends/requests/{outgoing}/cancel", None),
    ("remove-friend", "DELETE", "/friends/ann", None),
    ("block", "POST", "/friends/blocks", {"externalPlayerId": "eve"}),
    ("unblock", "DELETE", "/friends/blocks/dan", None),
    ("heartbeat", "POST", "/presence", {"status": "playing"}),
    ("gift-send", "POST", "/friends/gifts", GIFT),
    ("gift-claim", "POST", "/friends/gifts/{gift}/claim", None),
    ("grant-claim", "POST", "/grants/{grant}/claim", None),
    ("wallet-debit", "POST", "/wallet/coins/debit", {"amount": 1}),
    ("inventory-consume", "POST", "/inventory/sword/consume", {"quantity": 1}),
    ("purchase-track", "POST", "/purchases", PURCHASE),
]


@pytest.mark.parametrize(
    ("method", "path", "body"), [w[1:] for w in BANNED_WRITES], ids=[w[0] for w in BANNED_WRITES]
)
async def test_a_banned_player_gets_403_player_banned_on_every_player_scoped_client_write(
    arena: Arena, banned: dict[str, str], method: str, path: str, body: Any
) -> None:
    before = snapshot(arena)
    full = f"/sdk/v1/players/sam{path.format(**banned)}"
    headers = {"Idempotency-Key": idem()}
    secret = None if "/register" in path else arena.secrets["sam"]
    answer = await arena.world.call(
        method, full, key=arena.api_key("client"), json=body, secret=secret, headers=headers
    )
    assert error(answer) == (403, "player_banned")
    assert snapshot(arena) == before


async def test_register_of_a_banned_player_never_registered_is_403_player_banned(arena: Arena) -> None:
    await arena.grant("newbie")  # first contact through the server API: no secret yet
    ok(await arena.ban_api("newbie"))
    answer = await arena.world.call("POST", "/sdk/v1/players/newbie/register", key=arena.api_key("client"))
    assert error(answer) == (403, "player_banned")
    assert "player.secret_set" not in arena.kinds()


BANNED_READS = [
    "/wallet",
    "/inventory",
    "/pending-grants",
    "/friends",
    "/friends/requests",
    "/friends/blocks",
    "/friends/code",
    "/friends/gifts/catalog",
    "/friends/gifts/inbox",
    "/friends/gifts/sent",
]


async def test_a_banned_player_can_still_read(arena: Arena, banned: dict[str, str]) -> None:
    for path in BANNED_READS:
        status, body, _ = await arena.sdk("GET", "sam", path)
        assert status == 200, (path, body)
    assert (await arena.wallet("sam"))["coins"] == 50
    assert banned["grant"] in [g["grantId"] for g in await arena.pending_grants("sam")]


async def test_a_banned_players_friends_and_the_server_api_can_still_act_on_them(
    arena: Arena, banned: dict[str, str]
) -> None:
    """Only the banned player's own client writes are refused."""
    ok(await arena.write("POST", "/players/sam/wallet/coins/debit", {"amount": 10}))
    assert (await arena.wallet("sam"))["coins"] == 40
    status, body, _ = await arena.sdk("DELETE", "ann", "/friends/sam")
    assert status == 200, body


async def test_after_unban_the_player_can_write_again(arena: Arena, banned: dict[str, str]) -> None:
    ok(await arena.unban_api("sam"))
    assert ok(await arena.claim_grant("sam", banned["grant"]))["grant"]["status"] == "claimed"
    ok(await arena.sdk("POST", "sam", "/presence"))


PLAYER_TOOL_WRITES = [
    ("ban", "POST", "/players/sam/ban", {"reason": "x"}),
    ("unban", "POST", "/players/sam/unban", None),
    ("debug-set", "POST", "/players/sam/debug", None),
    ("debug-clear", "DELETE", "/players/sam/debug", None),
    ("merge", "POST", "/players/sam/merge-into/tom", None),
    ("delete", "POST", "/players/sam/delete", None),
]


@pytest.mark.parametrize(
    ("method", "path", "body"), [w[1:] for w in PLAYER_TOOL_WRITES], ids=[w[0] for w in PLAYER_TOOL_WRITES]
)
async def test_every_player_tool_write_needs_an_idempotency_key(
    arena: Arena, method: str, path: str, body: Any
) -> None:
    await arena.register("sam", "tom")
    before = snapshot(arena)
    status, answer, _ = await arena.world.call(
        method, f"/server/v1{path}", key=arena.api_key("server"), json=body
    )
    assert (status, answer["error"]["code"]) == (400, "invalid_request")
    assert answer["error"]["details"]["fields"] == {"Idempotency-Key": "is required"}
    assert snapshot(arena) == before


# --- Debug flag -------------------------------------------------------------------------------------


async def test_debug_flag_set_is_idempotent_and_applied_only_on_the_first(arena: Arena) -> None:
    await arena.register("sam")
    first = ok(await arena.write("POST", "/players/sam/debug", {"reason": "QA device"}))
    assert first == {
        "applied": True,
        "externalPlayerId": "sam",
        "debug": True,
        "reason": "QA device",
        "flaggedAt": T0,
    }
    arena.world.clock.advance(60)
    again = ok(await arena.write("POST", "/players/sam/debug", {"reason": "QA tablet"}))
    assert again["applied"] is False and again["debug"] is True
    assert again["flaggedAt"] == T0  # the flag is not set anew
    assert again["reason"] == "QA tablet"
    assert ok(await arena.profile("sam"))["player"].get("debug") is True


@pytest.mark.parametrize("body", [None, {}, {"reason": None}], ids=["no-body", "empty", "null"])
async def test_debug_reason_is_optional(arena: Arena, body: Any) -> None:
    await arena.register("sam")
    data = ok(await arena.write("POST", "/players/sam/debug", body))
    assert (data["applied"], data["debug"], data["reason"]) == (True, True, None)


async def test_debug_reason_over_500_characters_is_400(arena: Arena) -> None:
    await arena.register("sam")
    answer = await arena.write("POST", "/players/sam/debug", {"reason": "x" * 501})
    assert error(answer) == (400, "invalid_request")
    assert ok(await arena.profile("sam"))["player"].get("debug") is False


async def test_debug_flag_clear_is_idempotent_and_applied_only_when_flagged(arena: Arena) -> None:
    await arena.register("sam")
    never = ok(await arena.write("DELETE", "/players/sam/debug"))
    assert (never["applied"], never["debug"]) == (False, False)
    ok(await arena.write("POST", "/players/sam/debug"))
    cleared = ok(await arena.write("DELETE", "/players/sam/debug"))
    assert cleared == {
        "applied": True,
        "externalPlayerId": "sam",
        "debug": False,
        "reason": None,
        "flaggedAt": None,
    }
    again = ok(await arena.write("DELETE", "/players/sam/debug"))
    assert (again["applied"], again["debug"]) == (False, False)
    reflagged = ok(await arena.write("POST", "/players/sam/debug"))
    assert reflagged["applied"] is True


async def test_debug_flag_fires_no_webhook_and_leaves_the_player_playing(arena: Arena) -> None:
    await arena.register("sam")
    before = arena.kinds()
    ok(await arena.write("POST", "/players/sam/debug", {"reason": "qa"}))
    ok(await arena.write("DELETE", "/players/sam/debug"))
    assert arena.kinds() == before
    ok(await arena.write("POST", "/players/sam/debug"))
    ok(await arena.sdk("POST", "sam", "/presence"))


async def test_debug_flag_of_an_unknown_or_other_environment_player_is_404(arena: Arena) -> None:
    await arena.register("sam")
    assert error(await arena.write("POST", "/players/ghost/debug")) == (404, "player_not_found")
    assert error(await arena.write("DELETE", "/players/ghost/debug")) == (404, "player_not_found")
    assert error(await arena.write("POST", "/players/sam/debug", key="live-server")) == (
        404,
        "player_not_found",
    )


# --- Export -----------------------------------------------------------------------------------------

EXPORT_FIELDS = {"player", "attempts", "grants", "inventory", "wallet", "lobbyMemberships"}


async def test_export_bundles_the_player_row_grants_snapshots_and_memberships(arena: Arena) -> None:
    status, body, _ = await arena.world.call(
        "POST",
        "/sdk/v1/players/sam/register",
        key=arena.api_key("client"),
        json={"playerContext": {"country": "FR", "device": "pixel-8"}},
    )
    assert status == 201, body
    arena.secrets["sam"] = body["data"]["playerSecret"]
    ok(await arena.sdk("PUT", "sam", "/identity", {"name": "Sam Spade", "avatar": "hat"}))
    first = await arena.grant("sam", 3)
    arena.world.clock.advance(60)
    second = await arena.grant("sam", 4)
    await arena.credit("sam", "gems", 7)
    await arena.credit("sam", "coins", 11)
    await arena.give_items("sam", 2, {"level": 9})
    purchase = await arena.purchase("sam", "tx-1")
    data = await arena.exported("sam")
    assert set(data) >= EXPORT_FIELDS
    player = data["player"]
    assert player["id"] == arena.player_id("sam") and player["externalPlayerId"] == "sam"
    assert player["firstSeenAt"] == T0
    assert player["displayIdentity"]["name"] == "Sam Spade"
    assert player["country"] == "FR"
    assert player["context"] == {"country": "FR", "device": "pixel-8"}
    assert player["lifecycle"] == "active"
    assert [g["grantId"] for g in data["grants"]] == [second["grantId"], first["grantId"]]  # newest first
    assert data["grants"][1] == first
    assert data["wallet"] == [{"key": "coins", "amount": 11}, {"key": "gems", "amount": 7}]
    # The player's own item parameters (the resource's defaults are not the player's data).
    assert [(i["key"], i["amount"], i["parameters"]["level"]) for i in data["inventory"]] == [("sword", 2, 9)]
    assert data["attempts"] == [] and data["lobbyMemberships"] == []
    assert data.get("purchases") == [purchase]


async def test_export_lists_are_capped_at_1000_rows_newest_first(arena: Arena) -> None:
    newest = await arena.grant("sam")
    await insert_grant_copies(arena, newest["grantId"], 1005)
    purchase = await arena.purchase("sam", "tx-newest")
    await insert_purchase_copies(arena, purchase["purchaseId"], 1005)
    data = await arena.exported("sam")
    assert len(data["grants"]) == 1000
    assert data["grants"][0]["grantId"] == newest["grantId"]
    created = [g["createdAt"] for g in data["grants"]]
    assert created == sorted(created, reverse=True)
    assert len(data["purchases"]) == 1000
    assert data["purchases"][0]["purchaseId"] == purchase["purchaseId"]
    bought = [p["purchasedAt"] for p in data["purchases"]]
    assert bought == sorted(bought, reverse=True)


async def test_export_of_a_player_with_nothing_has_empty_lists(arena: Arena) -> None:
    await arena.register("sam")
    data = await arena.exported("sam")
    assert data["grants"] == [] and data["wallet"] == [] and data["inventory"] == []
    assert data["player"]["banned"] is False and data["player"]["friendCode"] is None


async def test_export_of_an_unknown_or_other_environment_player_is_404(arena: Arena) -> None:
    await arena.register("sam")
    assert error(await arena.export("ghost")) == (404, "player_not_found")
    assert error(await arena.export("sam", key="live-server")) == (404, "player_not_found")


async def test_export_with_a_client_key_is_403(arena: Arena) -> None:
    await arena.register("sam")
    answer = await arena.world.call("GET", "/server/v1/players/sam/export", key=arena.api_key("client"))
    assert error(answer) == (403, "permission_denied")


# --- helpers ----------------------------------------------------------------------------------------


async def insert_grant_copies(arena: Arena, grant_id: str, count: int) -> None:
    """``count`` older copies of a grant, straight into the store (one second apart, older and older)."""
    await arena.world.services.store.run_async(
        lambda tx: tx.executemany(
            "INSERT INTO grants (id, game_id, player_id, external_player_id, kind, status, entries,"
            " source_kind, source_ref_id, metadata, created_at, expires_at, claimed_at, acked_by)"
            " SELECT ?, game_id, player_id, external_player_id, kind, status, entries, source_kind,"
            " source_ref_id, metadata, created_at - ?, NULL, NULL, NULL FROM grants WHERE id = ?",
            [(f"00000000-0000-4000-8000-{i:012d}", i * 1000, grant_id) for i in range(1, count + 1)],
        )
    )


async def insert_purchase_copies(arena: Arena, purchase_id: str, count: int) -> None:
    """``count`` older copies of a purchase (one second apart, older and older)."""
    await arena.world.services.store.run_async(
        lambda tx: tx.executemany(
            "INSERT INTO purchases (id, game_id, env, player_id, transaction_id, store, product_id,"
            " product_type, amount_minor, currency, normalized_amount_minor, fx_rate, validation_status,"
            " purchased_at, tracked_at, metadata)"
            " SELECT ?, game_id, env, player_id, ?, store, product_id, product_type, amount_minor, currency,"
            " normalized_amount_minor, fx_rate, validation_status, purchased_at - ?, tracked_at, metadata"
            " FROM purchases WHERE id = ?",
            [(f"pur_copy{i:06d}", f"tx-copy-{i:06d}", i * 1000, purchase_id) for i in range(1, count + 1)],
        )
    )
