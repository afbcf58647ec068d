"""Guilds through the real app, on SQLite and PostgreSQL with the manual clock (docs/guilds.md,
docs/reference/guilds.md): founding and its cost (platform and studio games), the name rules, reads and
search, joining openly and by request, the member actions and their refusal order, profile edits by a
member and by the studio, leaving and succession, the studio's moderation and disband, lists and their
paging, help requests and donations with their grants, the hourly sweep of inactive leaders, and the
404s of another environment. The games are in ``tests/server/guild_support.py``; the clock starts at
2026-03-02T12:00:00.000Z.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest

from livecore.clock import format_ts
from tests.conftest import START
from tests.server.event_support import error
from tests.server.guild_support import Guilds, start_guild_world

T0 = format_ts(START)


@pytest.fixture
async def games(db_url: str) -> AsyncIterator[dict[str, Guilds]]:
    found = await start_guild_world(db_url)
    try:
        yield found
    finally:
        await found["clan"].world.client.close()


@pytest.fixture
def clan(games: dict[str, Guilds]) -> Guilds:
    return games["clan"]


def snapshot(g: Guilds) -> dict[str, list[Any]]:
    """Every row a guild route could write."""
    tables = (
        "guilds",
        "guild_stints",
        "guild_join_requests",
        "guild_help_requests",
        "guild_donations",
        "outbox",
        "grants",
        "ledger",
        "holdings",
    )
    # The outbox without its delivery bookkeeping, which the dispatcher updates in the background.
    columns = {"outbox": "seq, id, studio_id, game_id, env, kind, occurred_at, data"}
    return {t: sorted(g.world.rows(f"SELECT {columns.get(t, '*')} FROM {t}"), key=repr) for t in tables}


def members(guild: dict[str, Any]) -> list[tuple[str, str]]:
    """(external id, role) of each member, in joining order."""
    return [(m["externalPlayerId"], m["role"]) for m in guild["members"]]


def by_player(g: Guilds, who: str) -> dict[str, Any]:
    return {"kind": "player", "playerId": g.player_id(who), "externalPlayerId": who}


def by_key(g: Guilds, by: dict[str, Any]) -> bool:
    """Whether ``by`` names this game's test server key."""
    return by["kind"] == "api_key" and g.api_key(g.server_key).startswith(by["apiKeyPrefix"])


def roles(g: Guilds) -> list[tuple[str, str, str, str]]:
    """(who, from, to, reason) of each guild.role_changed so far."""
    return [
        (p["externalPlayerId"], p["from"], p["to"], p["reason"]) for p in g.payloads("guild.role_changed")
    ]


def left(g: Guilds) -> list[tuple[str, str, str]]:
    """(who, reason, role) of each guild.member_left so far."""
    return [(p["externalPlayerId"], p["reason"], p["role"]) for p in g.payloads("guild.member_left")]


async def refused(call: Any, status: int, code: str) -> None:
    got = await call
    assert (got[0], error(got[1])) == (status, code), got[1]


# --- founding -------------------------------------------------------------------------------------------


async def test_founding_in_a_platform_game_debits_the_cost_and_the_guild_reads_everywhere(
    clan: Guilds,
) -> None:
    g = clan
    await g.register("ann", "bob")
    await g.credit("ann", "coins", 150)

    # A founder short of the cost: 409, and nothing changes.
    before = snapshot(g)
    await refused(g.found("bob", "Star Pilots"), 409, "insufficient_balance")
    assert snapshot(g) == before

    status, body = await g.found(
        "ann", "  Star Pilots ", description="We fly.", badge="star.png", country="fr", metadata={"tier": 1}
    )
    assert status == 201, body
    guild = body["data"]["guild"]
    assert guild["guildId"].startswith("gld_")
    assert {k: v for k, v in guild.items() if k not in ("guildId", "members")} == {
        "name": "Star Pilots",  # trimmed
        "description": "We fly.",
        "badge": "star.png",
        "country": "FR",  # kept upper case
        "joinType": "open",
        "metadata": {"tier": 1},
        "memberCount": 1,
        "createdAt": T0,
        "disbandedAt": None,
    }
    [ann] = guild["members"]
    assert {k: ann[k] for k in ("externalPlayerId", "role", "joinedAt")} == {
        "externalPlayerId": "ann",
        "role": "leader",
        "joinedAt": T0,
    }
    assert ann["name"] and "avatar" in ann  # the anonymized identity when never set

    # The cost: 100 coins, ledger reason guild_create_cost.
    assert await g.balance("ann", "coins") == 50
    debit = g.ledger("ann", "coins")[-1]
    assert (debit.delta, debit.reason.value, debit.source_ref_id) == (
        -100,
        "guild_create_cost",
        guild["guildId"],
    )

    # guild.created, then guild.member_joined (via created), both by the founder.
    assert g.guild_kinds() == ["guild.created", "guild.member_joined"]
    [created] = g.payloads("guild.created")
    assert created["guildId"] == guild["guildId"] and created["guildName"] == "Star Pilots"
    assert (created["costsChargedBy"], created["cost"], created["joinType"], created["country"]) == (
        "platform",
        [{"type": "currency", "key": "coins", "amount": 100}],
        "open",
        "FR",
    )
    assert created["by"] == by_player(g, "ann")
    [joined] = g.payloads("guild.member_joined")
    assert (joined["externalPlayerId"], joined["role"], joined["via"], joined["memberCount"]) == (
        "ann",
        "leader",
        "created",
        1,
    )
    assert joined["by"] == by_player(g, "ann")

    # The client key alone reads it; the founder's own guild adds its role; a player in none reads null.
    status, body = await g.read(guild["guildId"])
    assert (status, body["data"]["guild"]) == (200, guild)
    assert await g.mine("ann") == {"guild": guild, "role": "leader"}
    assert await g.mine("bob") == {"guild": None}
    status, body = await g.search("?q=PILOT")
    assert (status, [x["guildId"] for x in body["data"]["guilds"]]) == (200, [guild["guildId"]])
    assert "members" not in body["data"]["guilds"][0]  # search hits are guild records
    detail = await g.detail(guild["guildId"])
    assert (members(detail), detail["pendingRequests"]) == ([("ann", "leader")], [])
    assert detail["history"] == [{"externalPlayerId": "ann", "joinedAt": T0, "leftAt": None, "reason": None}]

    # Founding again, or a taken name (any case), is refused; the name is checked before the cost.
    await g.credit("ann", "coins", 100)
    await refused(g.found("ann", "Another"), 409, "already_in_guild")
    await refused(g.found("bob", "star PILOTS"), 409, "guild_name_taken")
    assert await g.balance("bob", "coins") == 0


async def test_founding_in_a_studio_game_charges_nothing_and_says_so(games: dict[str, Guilds]) -> None:
    g = games["tribe"]
    await g.register("ann")
    status, body = await g.found("ann", "Free Folk", "request")
    assert status == 201, body
    assert body["data"]["guild"]["joinType"] == "request"
    assert g.ledger("ann", "coins") == []
    [created] = g.payloads("guild.created")
    assert (created["costsChargedBy"], created["cost"]) == (
        "studio",
        [{"type": "currency", "key": "coins", "amount": 100}],
    )


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("ab", "invalid_request"),  # too short
        ("x" * 25, "invalid_request"),  # too long
        ("   \t  ", "invalid_request"),  # only white space: too short once trimmed
        ("Star\x07Pilots", "invalid_request"),  # a control character
        ("Star\u200bPilots", "invalid_request"),  # a zero-width (format) character
        ("The BadWord Crew", "guild_name_rejected"),  # the filter, ignoring case
    ],
)
async def test_name_rules(clan: Guilds, name: str, code: str) -> None:
    g = clan
    await g.register("ann")
    await g.credit("ann", "coins", 100)
    before = snapshot(g)
    status, body = await g.found("ann", name)
    assert (status, error(body)) == (400, code)
    if code == "invalid_request":
        assert list(body["error"]["details"]["fields"]) == ["name"]
    assert snapshot(g) == before


async def test_other_profile_fields_are_checked(clan: Guilds) -> None:
    g = clan
    await g.register("ann")
    await g.credit("ann", "coins", 100)
    before = snapshot(g)
    for fields, field in [
        ({"country": "France"}, "country"),
        ({"description": "d" * 501}, "description"),
        ({"badge": ""}, "badge"),
        ({"metadata": {"pad": "x" * 4096}}, "metadata"),
        ({"joinType": "closed"}, "joinType"),
    ]:
        status, body, _ = await g.sdk(
            "POST", "ann", "/guilds", {"name": "Star Pilots", "joinType": "open", **fields}
        )
        assert (status, error(body), list(body["error"]["details"]["fields"])) == (
            400,
            "invalid_request",
            [field],
        )
    assert snapshot(g) == before


async def test_a_founding_is_idempotent_on_its_key(clan: Guilds) -> None:
    g = clan
    await g.register("ann")
    await g.credit("ann", "coins", 200)
    body = {"name": "Star Pilots", "joinType": "open"}
    status, first, _ = await g.sdk("POST", "ann", "/guilds", body, headers={"Idempotency-Key": "found-1"})
    assert status == 201, first
    status, again, headers = await g.sdk(
        "POST", "ann", "/guilds", body, headers={"Idempotency-Key": "found-1"}
    )
    assert (status, again, headers.get("Idempotent-Replay")) == (200, first, "true")
    assert (await g.balance("ann", "coins"), g.guild_kinds().count("guild.created")) == (100, 1)


# --- joining --------------------------------------------------------------------------------------------


async def test_joining_open_and_request_only_guilds(clan: Guilds) -> None:
    g = clan
    await g.register("ann", "bob", "cat", "dan", "eve", "fay")
    open_ = await g.founded("ann", "Star Pilots")
    owls = await g.founded("cat", "Night Owls", "request")
    larks = await g.founded("eve", "Morning Larks", "request")

    # An open guild seats the player at once.
    status, body = await g.join("bob", open_["guildId"])
    assert status == 200, body
    assert body["data"]["role"] == "member"
    assert members(body["data"]["guild"]) == [("ann", "leader"), ("bob", "member")]
    joined = g.payloads("guild.member_joined")[-1]
    assert (joined["externalPlayerId"], joined["via"], joined["memberCount"], joined["by"]) == (
        "bob",
        "open",
        2,
        by_player(g, "bob"),
    )
    await refused(g.join("bob", owls["guildId"]), 409, "already_in_guild")

    # A request-only guild records a request: 201, guild.join_requested; a second one to it is refused,
    # one to another guild is not.
    status, body = await g.join("dan", owls["guildId"], {"message": "Let me in"})
    assert status == 201, body
    request = body["data"]["request"]
    assert request["requestId"].startswith("gjr_")
    assert {k: v for k, v in request.items() if k != "requestId"} == {
        "guildId": owls["guildId"],
        "externalPlayerId": "dan",
        "message": "Let me in",
        "createdAt": g.now(),
    }
    assert set(body["data"]) == {"request"}
    [asked] = g.payloads("guild.join_requested")
    assert (asked["requestId"], asked["externalPlayerId"], asked["message"], asked["by"]) == (
        request["requestId"],
        "dan",
        "Let me in",
        by_player(g, "dan"),
    )
    await refused(g.join("dan", owls["guildId"]), 409, "join_request_pending")
    status, body = await g.join("dan", larks["guildId"])
    assert status == 201, body
    larks_request = body["data"]["request"]["requestId"]
    assert (await g.mine("dan"))["guild"] is None

    # The leader lists and accepts: dan joins (via request, by the leader); his other request goes.
    status, body = await g.own("cat", path="/requests")
    assert (status, body["data"]["requests"]) == (200, [request])
    status, body = await g.own("cat", "POST", f"/requests/{request['requestId']}/accept")
    assert (status, body["data"]) == (200, {"accepted": True})
    joined = g.payloads("guild.member_joined")[-1]
    assert (joined["externalPlayerId"], joined["via"], joined["by"]) == (
        "dan",
        "request",
        by_player(g, "cat"),
    )
    assert members((await g.mine("dan"))["guild"]) == [("cat", "leader"), ("dan", "member")]
    status, body = await g.own("eve", path="/requests")
    assert (status, body["data"]["requests"]) == (200, [])
    await refused(g.own("eve", "POST", f"/requests/{larks_request}/accept"), 404, "join_request_not_found")

    # A member may not see or answer requests; a player in no guild has none to see.
    await refused(g.own("dan", path="/requests"), 403, "guild_permission_denied")
    await refused(g.own("fay", path="/requests"), 404, "not_in_guild")

    # Decline: no webhook; a request answered once is not found again.
    status, body = await g.join("fay", owls["guildId"])
    fay_request = body["data"]["request"]["requestId"]
    kinds = g.guild_kinds()
    await refused(g.own("dan", "POST", f"/requests/{fay_request}/decline"), 403, "guild_permission_denied")
    status, body = await g.own("cat", "POST", f"/requests/{fay_request}/decline")
    assert (status, body["data"]) == (200, {"declined": True})
    assert g.guild_kinds() == kinds
    await refused(g.own("cat", "POST", f"/requests/{fay_request}/accept"), 404, "join_request_not_found")
    # A request to another guild, an unknown one and a malformed one: the join request's 404.
    status, body = await g.join("fay", larks["guildId"])
    for request_id in (body["data"]["request"]["requestId"], "gjr_" + "0" * 32, "x" * 300):
        await refused(g.own("cat", "POST", f"/requests/{request_id}/accept"), 404, "join_request_not_found")

    # Cancelling one's own request: no webhook; none pending is 404.
    status, body, _ = await g.sdk("DELETE", "fay", f"/guilds/{larks['guildId']}/join-request")
    assert (status, body["data"]) == (200, {"cancelled": True})
    assert g.guild_kinds() == [*kinds, "guild.join_requested"]
    status, body, _ = await g.sdk("DELETE", "fay", f"/guilds/{larks['guildId']}/join-request")
    assert (status, error(body)) == (404, "join_request_not_found")
    status, body = await g.own("eve", path="/requests")
    assert body["data"]["requests"] == []

    # Unknown and malformed guild ids.
    for guild_id in ("gld_" + "0" * 32, "x" * 300):
        await refused(g.join("fay", guild_id), 404, "guild_not_found")
        await refused(g.read(guild_id), 404, "guild_not_found")


async def test_a_full_guild_refuses_a_join_and_an_acceptance(clan: Guilds) -> None:
    g = clan
    await g.register("ann", "bob", "cat", "dan", "eve", "fay")
    open_ = await g.founded("ann", "Star Pilots")
    owls = await g.founded("fay", "Night Owls", "request")
    status, body = await g.join("eve", owls["guildId"])
    eve_request = body["data"]["request"]["requestId"]
    await g.joined(open_["guildId"], "bob", "cat", "dan")
    before = snapshot(g)
    await refused(g.join("eve", open_["guildId"]), 409, "guild_full")
    assert snapshot(g) == before
    # Fill the request-only guild to the limit: three more members by request.
    for who in ("p1", "p2", "p3"):
        await g.register(who)
        status, body = await g.join(who, owls["guildId"])
        status, body = await g.own("fay", "POST", f"/requests/{body['data']['request']['requestId']}/accept")
        assert status == 200, body
    await refused(g.own("fay", "POST", f"/requests/{eve_request}/accept"), 409, "guild_full")
    await refused(g.join("bob", owls["guildId"]), 409, "already_in_guild")  # before the seat check
    # Full is checked before a pending request.
    await refused(g.join("eve", owls["guildId"]), 409, "guild_full")


# --- member actions -------------------------------------------------------------------------------------


async def test_member_actions_and_their_refusal_order(clan: Guilds) -> None:
    g = clan
    await g.register("ann", "bob", "cat", "dan", "eve")
    guild = await g.founded("ann", "Star Pilots")
    await g.joined(guild["guildId"], "bob", "cat", "dan")

    # 1. the caller's role; 2. itself; 3. not a member; 5. the role cannot move that way.
    before = snapshot(g)
    for who, action, target, status, code in [
        ("bob", "kick", "cat", 403, "guild_permission_denied"),
        ("bob", "kick", "nobody", 403, "guild_permission_denied"),  # the role before the target
        ("bob", "promote", "cat", 403, "guild_permission_denied"),
        ("ann", "kick", "ann", 400, "invalid_request"),
        ("ann", "demote", "ann", 400, "invalid_request"),
        ("ann", "promote", "nobody", 404, "guild_member_not_found"),
        ("ann", "kick", "eve", 404, "guild_member_not_found"),  # in no guild
        ("ann", "demote", "bob", 400, "invalid_request"),  # a member cannot be demoted
        ("eve", "kick", "bob", 404, "not_in_guild"),
    ]:
        got = await g.act(who, action, target)
        assert (got[0], error(got[1])) == (status, code), (who, action, target)
    await refused(g.own("ann", "POST", "/leader", {"externalPlayerId": "ann"}), 400, "invalid_request")
    assert snapshot(g) == before

    # Promote: {guild} with its members; guild.role_changed by the leader.
    status, body = await g.act("ann", "promote", "bob")
    assert status == 200, body
    assert members(body["data"]["guild"]) == [("ann", "leader"), ("bob", "co_leader"), ("cat", "member"),
                                              ("dan", "member")]  # fmt: skip
    [changed] = g.payloads("guild.role_changed")
    assert (
        changed["externalPlayerId"],
        changed["from"],
        changed["to"],
        changed["reason"],
        changed["by"],
    ) == (
        "bob",
        "member",
        "co_leader",
        "promoted",
        by_player(g, "ann"),
    )
    assert changed["playerId"] == g.player_id("bob")
    await refused(g.act("ann", "promote", "bob"), 400, "invalid_request")  # a co-leader already
    status, body = await g.act("ann", "promote", "cat")
    assert status == 200, body

    # A co-leader kicks members only: 4. a co-leader or the leader is 403, after 3.
    await refused(g.act("bob", "kick", "cat"), 403, "guild_permission_denied")
    await refused(g.act("bob", "kick", "ann"), 403, "guild_permission_denied")
    await refused(g.act("bob", "kick", "eve"), 404, "guild_member_not_found")
    await refused(g.act("bob", "kick", "bob"), 400, "invalid_request")
    await refused(g.act("bob", "demote", "cat"), 403, "guild_permission_denied")
    status, body = await g.act("bob", "kick", "dan")
    assert status == 200, body
    assert members(body["data"]["guild"]) == [("ann", "leader"), ("bob", "co_leader"), ("cat", "co_leader")]
    [gone] = g.payloads("guild.member_left")
    assert (gone["externalPlayerId"], gone["reason"], gone["role"], gone["memberCount"], gone["by"]) == (
        "dan",
        "kicked",
        "member",
        3,
        by_player(g, "bob"),
    )
    assert await g.mine("dan") == {"guild": None}

    # Demote, then hand the leadership on: the old leader stays as co-leader.
    status, body = await g.act("ann", "demote", "cat")
    assert members(body["data"]["guild"])[2] == ("cat", "member")
    await refused(
        g.own("bob", "POST", "/leader", {"externalPlayerId": "cat"}), 403, "guild_permission_denied"
    )
    await refused(g.own("ann", "POST", "/leader", {"externalPlayerId": "dan"}), 404, "guild_member_not_found")
    status, body = await g.own("ann", "POST", "/leader", {"externalPlayerId": "cat"})
    assert status == 200, body
    assert members(body["data"]["guild"]) == [("ann", "co_leader"), ("bob", "co_leader"), ("cat", "leader")]
    assert roles(g)[-2:] == [
        ("cat", "member", "leader", "leadership_transferred"),
        ("ann", "leader", "co_leader", "leadership_transferred"),
    ]
    assert {p["by"]["externalPlayerId"] for p in g.payloads("guild.role_changed")[-2:]} == {"ann"}
    assert (await g.mine("ann"))["role"] == "co_leader"

    # A kicked player may join again.
    await g.joined(guild["guildId"], "dan")


# --- edits ----------------------------------------------------------------------------------------------


async def test_a_member_action_s_400_names_the_member_where_the_request_names_it(clan: Guilds) -> None:
    """schemathesis promoted a co-leader and got a 400 naming `externalPlayerId`, which the request does
    not have: kick, promote and demote name the member in the path (`memberExternalId`), a transfer in
    its body (`externalPlayerId`)."""
    g = clan
    await g.register("ann", "bob", "cat")
    guild = await g.founded("ann", "Star Pilots")
    await g.joined(guild["guildId"], "bob", "cat")
    assert (await g.act("ann", "promote", "bob"))[0] == 200
    for action, target, problem in [
        ("promote", "bob", "is a co_leader"),
        ("demote", "cat", "is a member"),
        ("kick", "ann", "is the caller"),
        ("demote", "ann", "is the caller"),
    ]:
        status, body = await g.act("ann", action, target)
        assert status == 400, (action, target, body)
        assert body["error"]["details"]["fields"] == {"memberExternalId": problem}, (action, target)
    status, body = await g.own("ann", "POST", "/leader", {"externalPlayerId": "ann"})
    assert status == 400, body
    assert body["error"]["details"]["fields"] == {"externalPlayerId": "is the caller"}


async def test_a_member_edit_changes_only_what_it_names(clan: Guilds) -> None:
    g = clan
    await g.register("ann", "bob", "cat", "dan")
    guild = await g.founded("ann", "Star Pilots", description="We fly.", badge="star.png", country="FR")
    other = await g.founded("dan", "Night Owls")
    await g.joined(guild["guildId"], "bob", "cat")
    await g.act("ann", "promote", "bob")

    status, body = await g.own("ann", "PATCH", json={"description": None, "joinType": "request"})
    assert status == 200, body
    edited = body["data"]["guild"]
    assert (
        edited["name"],
        edited["description"],
        edited["badge"],
        edited["country"],
        edited["joinType"],
    ) == (
        "Star Pilots",
        None,
        "star.png",
        "FR",
        "request",
    )
    assert members(edited) == [("ann", "leader"), ("bob", "co_leader"), ("cat", "member")]
    [updated] = g.payloads("guild.updated")
    assert updated["changes"] == {
        "description": {"before": "We fly.", "after": None},
        "joinType": {"before": "open", "after": "request"},
    }
    assert updated["by"] == by_player(g, "ann")

    # Nothing changed: no webhook.
    for unchanged in ({}, {"badge": "star.png"}):
        status, body = await g.own("bob", "PATCH", json=unchanged)
        assert (status, body["data"]["guild"]) == (200, edited)
    assert len(g.payloads("guild.updated")) == 1

    # A co-leader may change the case of the guild's own name; guild.updated carries the new name.
    status, body = await g.own("bob", "PATCH", json={"name": "STAR PILOTS"})
    assert (status, body["data"]["guild"]["name"]) == (200, "STAR PILOTS")
    assert g.payloads("guild.updated")[-1]["guildName"] == "STAR PILOTS"

    before = snapshot(g)
    for who, patch, status_, code in [
        ("cat", {"description": "x"}, 403, "guild_permission_denied"),
        ("ann", {"name": "Badword Pilots"}, 400, "guild_name_rejected"),
        ("ann", {"name": "night owls"}, 409, "guild_name_taken"),
        ("ann", {"name": " \u200b "}, 400, "invalid_request"),
        ("ann", {"name": None}, 400, "invalid_request"),
        ("ann", {"country": "XYZ"}, 400, "invalid_request"),
    ]:
        got = await g.own(who, "PATCH", json=patch)
        assert (got[0], error(got[1])) == (status_, code), patch
    assert snapshot(g) == before
    assert other["name"] == "Night Owls"


async def test_the_studio_edit_skips_the_filter_and_keeps_uniqueness(clan: Guilds) -> None:
    g = clan
    await g.register("ann", "dan")
    guild = await g.founded("ann", "Star Pilots", metadata={"tier": 1})
    await g.founded("dan", "Night Owls")
    path = f"/guilds/{guild['guildId']}"

    status, body, _ = await g.moderate(
        "PATCH", path, {"name": "Badword Pilots", "idempotencyKey": "edit-1"}, idem=""
    )
    assert status == 200, body
    detail = body["data"]["guild"]
    assert (detail["name"], detail["metadata"], members(detail)) == (
        "Badword Pilots",
        {"tier": 1},
        [("ann", "leader")],
    )
    assert detail["members"][0]["displayIdentity"]["name"]
    [updated] = g.payloads("guild.updated")
    assert updated["changes"] == {"name": {"before": "Star Pilots", "after": "Badword Pilots"}}
    assert by_key(g, updated["by"])

    # A replay answers the same and fires nothing more; the key with another body conflicts.
    status, again, headers = await g.moderate(
        "PATCH", path, {"name": "Badword Pilots", "idempotencyKey": "edit-1"}, idem=""
    )
    assert (status, again, headers.get("Idempotent-Replay")) == (200, body, "true")
    status, conflict, _ = await g.moderate(
        "PATCH", path, {"name": "Other", "idempotencyKey": "edit-1"}, idem=""
    )
    assert (status, error(conflict)) == (409, "idempotency_conflict")
    assert len(g.payloads("guild.updated")) == 1

    before = snapshot(g)
    status, body, _ = await g.moderate("PATCH", path, {"name": "NIGHT OWLS"})
    assert (status, error(body)) == (409, "guild_name_taken")
    status, body, _ = await g.moderate("PATCH", path, {"metadata": None}, idem="")
    assert (status, error(body), list(body["error"]["details"]["fields"])) == (
        400,
        "invalid_request",
        ["idempotencyKey"],
    )
    assert snapshot(g) == before
    status, body, _ = await g.moderate("PATCH", path, {"metadata": None})
    assert (status, body["data"]["guild"]["metadata"]) == (200, None)
    await refused_moderation(g, "PATCH", "/guilds/gld_" + "0" * 32, {"badge": "b"}, 404, "guild_not_found")


async def refused_moderation(g: Guilds, method: str, path: str, json: Any, status: int, code: str) -> None:
    got, body, _ = await g.moderate(method, path, json)
    assert (got, error(body)) == (status, code), body


# --- leaving and succession -----------------------------------------------------------------------------


async def test_leaving_hands_the_lead_on_and_the_last_member_disbands(clan: Guilds) -> None:
    g = clan
    await g.register("ann", "bob", "cat", "dan", "eve")
    guild = await g.founded("ann", "Star Pilots")
    await g.joined(guild["guildId"], "bob", "cat", "dan")
    await g.act("ann", "promote", "cat")

    # The leader leaves: the co-leader takes over, though bob joined first.
    status, body = await g.own("ann", "POST", "/leave")
    assert (status, body["data"]) == (200, {"left": True})
    assert left(g) == [("ann", "left", "leader")]
    assert roles(g)[-1] == ("cat", "co_leader", "leader", "succession_leader_left")
    assert g.payloads("guild.role_changed")[-1]["by"] == by_player(g, "ann")
    # No co-leader: the member who joined first.
    await g.own("cat", "POST", "/leave")
    assert roles(g)[-1] == ("bob", "member", "leader", "succession_leader_left")
    await refused(g.own("cat", "POST", "/leave"), 404, "not_in_guild")

    await g.own("dan", "POST", "/leave")
    kinds = len(g.guild_kinds())
    await g.own("bob", "POST", "/leave")
    assert g.guild_kinds()[kinds:] == ["guild.member_left", "guild.disbanded"]
    [disbanded] = g.payloads("guild.disbanded")
    assert (disbanded["reason"], disbanded["disbandedAt"], disbanded["by"]) == (
        "last_member_left",
        g.now(),
        by_player(g, "bob"),
    )

    # Disbanded: still readable, joining it is refused, its name is free again.
    status, body = await g.read(guild["guildId"])
    assert status == 200
    read = body["data"]["guild"]
    assert (read["disbandedAt"], read["memberCount"], members(read)) == (g.now(), 0, [])
    await refused(g.join("eve", guild["guildId"]), 409, "guild_disbanded")
    status, body = await g.search()
    assert body["data"]["guilds"] == []
    again = await g.founded("eve", "Star Pilots")
    assert again["guildId"] != guild["guildId"]
    history = (await g.detail(guild["guildId"]))["history"]
    assert [(h["externalPlayerId"], h["reason"]) for h in history] == [
        ("ann", "left"),
        ("bob", "left"),
        ("cat", "left"),
        ("dan", "left"),
    ]


# --- the studio's moderation ----------------------------------------------------------------------------


async def test_the_studio_removes_hands_over_and_disbands(clan: Guilds) -> None:
    g = clan
    await g.register("ann", "bob", "cat", "dan")
    guild = await g.founded("ann", "Star Pilots", "request")
    gid = guild["guildId"]
    for who in ("bob", "cat"):
        status, body = await g.join(who, gid)
        await g.own("ann", "POST", f"/requests/{body['data']['request']['requestId']}/accept")
    status, body = await g.join("dan", gid, {"message": "hi"})
    dan_request = body["data"]["request"]

    detail = await g.detail(gid)
    assert members(detail) == [("ann", "leader"), ("bob", "member"), ("cat", "member")]
    assert detail["pendingRequests"] == [dan_request]

    # Removal: the member leaves (removed, by the key) and may come back.
    status, body, _ = await g.moderate("POST", f"/guilds/{gid}/members/bob/remove")
    assert status == 200, body
    assert members(body["data"]["guild"]) == [("ann", "leader"), ("cat", "member")]
    assert left(g) == [("bob", "removed", "member")]
    assert by_key(g, g.payloads("guild.member_left")[-1]["by"])
    await refused_moderation(
        g, "POST", f"/guilds/{gid}/members/bob/remove", None, 404, "guild_member_not_found"
    )
    status, body = await g.join("bob", gid)
    assert status == 201, body  # a request again, nothing blocks it: accepted, bob is back
    status, body = await g.own("ann", "POST", f"/requests/{body['data']['request']['requestId']}/accept")
    assert status == 200, body

    # Handover: the old leader becomes co-leader (operator, by the key); naming the leader changes nothing.
    status, body, _ = await g.moderate("POST", f"/guilds/{gid}/leader", {"externalPlayerId": "cat"})
    assert status == 200, body
    assert members(body["data"]["guild"]) == [("ann", "co_leader"), ("cat", "leader"), ("bob", "member")]
    assert roles(g) == [("cat", "member", "leader", "operator"), ("ann", "leader", "co_leader", "operator")]
    assert all(by_key(g, p["by"]) for p in g.payloads("guild.role_changed"))
    status, body, _ = await g.moderate("POST", f"/guilds/{gid}/leader", {"externalPlayerId": "cat"})
    assert status == 200 and len(roles(g)) == 2
    await refused_moderation(g, "POST", f"/guilds/{gid}/leader", {"externalPlayerId": "dan"}, 404,
                             "guild_member_not_found")  # fmt: skip
    status, body, _ = await g.moderate("POST", f"/guilds/{gid}/leader", {"externalPlayerId": "cat"}, idem="")
    assert (status, list(body["error"]["details"]["fields"])) == (400, ["idempotencyKey"])
    status, body, _ = await g.moderate("POST", f"/guilds/{gid}/disband", idem="")
    assert (status, list(body["error"]["details"]["fields"])) == (400, ["Idempotency-Key"])

    # Disband: each member leaves (disbanded), then guild.disbanded (admin), all by the key.
    kinds = len(g.guild_kinds())
    status, body, _ = await g.moderate("POST", f"/guilds/{gid}/disband", idem="disband-1")
    assert status == 200, body
    disbanded = body["data"]["guild"]
    assert (disbanded["disbandedAt"], disbanded["memberCount"], disbanded["members"]) == (g.now(), 0, [])
    assert disbanded["pendingRequests"] == []  # cancelled
    assert g.guild_kinds()[kinds:] == ["guild.member_left"] * 3 + ["guild.disbanded"]
    assert left(g)[-3:] == [
        ("ann", "disbanded", "co_leader"),
        ("cat", "disbanded", "leader"),
        ("bob", "disbanded", "member"),
    ]
    [end] = g.payloads("guild.disbanded")
    assert end["reason"] == "admin" and by_key(g, end["by"])
    assert [(h["externalPlayerId"], h["reason"]) for h in disbanded["history"]] == [
        ("ann", "disbanded"),
        ("bob", "removed"),
        ("cat", "disbanded"),
        ("bob", "disbanded"),
    ]
    # The replay answers the same; disbanding again answers the detail and fires nothing.
    status, again, headers = await g.moderate("POST", f"/guilds/{gid}/disband", idem="disband-1")
    assert (status, again, headers.get("Idempotent-Replay")) == (200, body, "true")
    kinds = len(g.guild_kinds())
    status, body, _ = await g.moderate("POST", f"/guilds/{gid}/disband")
    assert (status, body["data"]["guild"]) == (200, disbanded)
    assert len(g.guild_kinds()) == kinds
    # Any other change to a disbanded guild: 409.
    before = snapshot(g)
    await refused_moderation(g, "PATCH", f"/guilds/{gid}", {"badge": "b"}, 409, "guild_disbanded")
    await refused_moderation(g, "POST", f"/guilds/{gid}/members/ann/remove", None, 409, "guild_disbanded")
    await refused_moderation(g, "POST", f"/guilds/{gid}/leader", {"externalPlayerId": "ann"}, 409,
                             "guild_disbanded")  # fmt: skip
    assert snapshot(g) == before

    # A player's guild: the current one (none) and every stint, newest first.
    status, body, _ = await g.moderate("GET", "/players/ann/guild")
    assert status == 200, body
    stint = {
        "guildId": gid,
        "guildName": "Star Pilots",
        "role": "co_leader",
        "joinedAt": T0,
        "leftAt": g.now(),
        "reason": "disbanded",
    }
    assert body["data"] == {"guild": None, "stints": [stint]}
    new = await g.founded("ann", "Night Owls")
    status, body, _ = await g.moderate("GET", "/players/ann/guild")
    assert body["data"]["guild"]["guildId"] == new["guildId"] and "members" not in body["data"]["guild"]
    assert [(s["guildName"], s["role"], s["reason"]) for s in body["data"]["stints"]] == [
        ("Night Owls", "leader", None),
        ("Star Pilots", "co_leader", "disbanded"),
    ]
    await refused_moderation(g, "GET", "/players/nobody/guild", None, 404, "player_not_found")


# --- lists ----------------------------------------------------------------------------------------------


async def test_search_and_list_pages(clan: Guilds) -> None:
    g = clan
    await g.register("ann", "bob", "cat")
    first = await g.founded("ann", "Star Pilots")
    await g.advance(60)
    second = await g.founded("bob", "Night Owls")
    await g.joined(first["guildId"], "cat")
    await g.own("cat", "POST", "/leave")
    await g.advance(60)
    third = await g.founded("cat", "Pilots Club")
    ids = {g_["name"]: g_["guildId"] for g_ in (first, second, third)}
    status, body, _ = await g.moderate("POST", f"/guilds/{ids['Night Owls']}/disband")
    assert status == 200, body

    async def names(query: str = "") -> list[str]:
        status, body = await g.search(query)
        assert status == 200, body
        return [x["name"] for x in body["data"]["guilds"]]

    assert await names() == ["Pilots Club", "Star Pilots"]  # newest first, no disbanded one
    assert await names("?q=pIlOt") == ["Pilots Club", "Star Pilots"]
    assert await names("?q=club") == ["Pilots Club"]
    assert await names("?q=owls") == []
    assert await names("?q=b") == ["Pilots Club"]  # shorter than a trigram
    assert await names("?q=") == ["Pilots Club", "Star Pilots"]
    assert await names("?q=%25") == await names("?q=_") == []  # LIKE's wildcards match themselves only
    assert await names("?limit=1") == ["Pilots Club"]
    assert await names("?limit=1&offset=1") == ["Star Pilots"]
    assert await names("?offset=2") == []

    async def page(query: str = "") -> tuple[list[str], int | None]:
        status, body, _ = await g.moderate("GET", f"/guilds{query}")
        assert status == 200, body
        return [x["name"] for x in body["data"]["guilds"]], body["data"]["nextOffset"]

    assert await page() == (["Pilots Club", "Star Pilots"], None)
    assert await page("?includeDisbanded=true") == (["Pilots Club", "Night Owls", "Star Pilots"], None)
    assert await page("?includeDisbanded=true&limit=2") == (["Pilots Club", "Night Owls"], 2)
    assert await page("?includeDisbanded=true&limit=2&offset=2") == (["Star Pilots"], None)
    assert await page("?includeDisbanded=true&q=OWL") == (["Night Owls"], None)
    # Every guild the player was ever in: cat founded one and left another.
    assert await page("?player=cat") == (["Pilots Club", "Star Pilots"], None)
    assert await page("?player=bob") == ([], None)  # its guild is disbanded
    assert await page("?player=bob&includeDisbanded=true") == (["Night Owls"], None)
    assert await page("?player=nobody") == ([], None)

    for query, field in [
        ("?limit=0", "limit"),
        ("?limit=101", "limit"),
        ("?offset=-1", "offset"),
        ("?q=" + "x" * 25, "q"),  # longer than any name
        ("?limit=ten", "limit"),
        ("?colour=red", "colour"),
    ]:
        status, body = await g.search(query)
        assert (status, error(body), list(body["error"]["details"]["fields"])) == (
            400,
            "invalid_request",
            [field],
        )
        status, body, _ = await g.moderate("GET", f"/guilds{query}")
        assert (status, error(body), list(body["error"]["details"]["fields"])) == (
            400,
            "invalid_request",
            [field],
        )
    status, body, _ = await g.moderate("GET", "/guilds?includeDisbanded=yes")
    assert (status, list(body["error"]["details"]["fields"])) == (400, ["includeDisbanded"])
    assert await names("?limit=100") == ["Pilots Club", "Star Pilots"]


# --- help -----------------------------------------------------------------------------------------------


async def test_help_requests_and_donations_in_a_platform_game(clan: Guilds) -> None:
    g = clan
    g.world.only_hourly_jobs()
    await g.register("ann", "bob", "cat", "dan")
    guild = await g.founded("ann", "Star Pilots")
    await g.joined(guild["guildId"], "bob", "cat")

    # Asking: what may be asked for, at most max_amount; a player in no guild has none.
    before = snapshot(g)
    for who, key, amount, type_, status_, code in [
        ("bob", "coins", 1, "currency", 400, "invalid_request"),  # not offered
        ("bob", "energy", 1, "item", 400, "invalid_request"),  # not its type
        ("bob", "energy", 6, "currency", 400, "invalid_request"),
        ("bob", "energy", 0, "currency", 400, "invalid_request"),
        ("dan", "energy", 1, "currency", 404, "not_in_guild"),
    ]:
        await refused(g.ask(who, key, amount, type_), status_, code)
    assert snapshot(g) == before

    asked_at = g.world.clock.now()
    status, body = await g.ask("bob", "energy", 3)
    assert status == 201, body
    asked = body["data"]["helpRequest"]
    assert asked["requestId"].startswith("ghr_")
    assert {k: v for k, v in asked.items() if k != "requestId"} == {
        "externalPlayerId": "bob",
        "type": "currency",
        "resourceKey": "energy",
        "amount": 3,
        "donated": 0,
        "expiresAt": format_ts(asked_at + timedelta(hours=1)),
        "status": "open",
    }
    [requested] = g.payloads("guild.help_requested")
    assert (requested["requestId"], requested["externalPlayerId"], requested["amount"], requested["by"]) == (
        asked["requestId"],
        "bob",
        3,
        by_player(g, "bob"),
    )
    await refused(g.ask("bob", "potion", 1, "item"), 409, "help_request_open")
    status, body = await g.own("cat", path="/help-requests")
    assert (status, body["data"]["helpRequests"]) == (200, [asked])

    # Donating, refusals in order: not found; one's own; (closed, below); the amount; the balance.
    rid = asked["requestId"]
    before = snapshot(g)
    for who, request_id, amount, status_, code in [
        ("ann", "ghr_" + "0" * 32, 1, 404, "help_request_not_found"),
        ("ann", "x" * 300, 1, 404, "help_request_not_found"),
        ("dan", rid, 1, 404, "not_in_guild"),
        ("bob", rid, 1, 400, "invalid_request"),
        ("ann", rid, 4, 400, "invalid_request"),  # more than it lacks
        ("ann", rid, 0, 400, "invalid_request"),
        ("ann", rid, 2, 409, "insufficient_balance"),  # ann holds no energy
    ]:
        got = await g.donate(who, request_id, amount)
        assert (got[0], error(got[1])) == (status_, code), (who, request_id, amount)
    assert snapshot(g) == before

    await g.credit("ann", "energy", 10)
    coins = await g.balance("ann", "coins")
    kinds = len(g.kinds())
    status, body = await g.donate("ann", rid, 2)
    assert status == 200, body
    donation, after = body["data"]["donation"], body["data"]["helpRequest"]
    assert donation["donationId"].startswith("gdn_")
    assert (donation["requestId"], donation["amount"], after["donated"], after["status"]) == (
        rid,
        2,
        2,
        "open",
    )
    # The donor's debit, the requester's pending grant, the donor's pending reward.
    assert (await g.balance("ann", "energy"), await g.balance("ann", "coins")) == (8, coins)
    debit = g.ledger("ann", "energy")[-1]
    assert (debit.delta, debit.reason.value, debit.source_ref_id) == (-2, "guild_help_donation", rid)
    [grant] = await g.pending_grants("bob")
    assert (grant["grantId"], grant["sourceKind"], grant["sourceRefId"], grant["entries"]) == (
        donation["grantId"],
        "guild_help",
        rid,
        [{"type": "currency", "key": "energy", "amount": 2}],
    )
    [reward] = await g.pending_grants("ann")
    assert (reward["grantId"], reward["sourceKind"], reward["entries"]) == (
        donation["rewardGrantId"],
        "guild_help_reward",
        [{"type": "currency", "key": "coins", "amount": 2}],
    )
    assert sorted(g.kinds()[kinds:]) == [
        "grant.created",
        "grant.created",
        "guild.help_donated",
        "wallet.changed",
    ]
    [gave] = g.payloads("guild.help_donated")
    assert {k: gave[k] for k in DONATED} == {
        "requestId": rid,
        "donationId": donation["donationId"],
        "grantId": donation["grantId"],
        "rewardGrantId": donation["rewardGrantId"],
        "donorExternalPlayerId": "ann",
        "recipientExternalPlayerId": "bob",
        "amount": 2,
        "amountReceived": 2,
        "amountRequested": 3,
        "filled": False,
        "costsDonor": True,
        "costsChargedBy": "platform",
        "by": by_player(g, "ann"),
    }

    # The last unit fills it; a closed request is 409 whatever the amount.
    await g.credit("cat", "energy", 5)
    status, body = await g.donate("cat", rid, 1)
    assert status == 200, body
    assert (body["data"]["helpRequest"]["status"], body["data"]["helpRequest"]["donated"]) == ("filled", 3)
    assert g.payloads("guild.help_donated")[-1]["filled"] is True
    for amount in (1, 100):
        await refused(g.donate("ann", rid, amount), 409, "help_request_closed")
    status, body = await g.own("cat", path="/help-requests")
    assert body["data"]["helpRequests"] == []

    # The cooldown runs from the request's creation, per player and guild.
    status, body = await g.ask("bob", "energy", 1)
    assert (status, error(body), body["error"]["details"]["retryAt"]) == (
        409,
        "help_cooldown",
        format_ts(asked_at + timedelta(hours=2)),
    )

    # Items too: a donor short of the item is insufficient_balance.
    status, body = await g.ask("cat", "potion", 2, "item")
    assert status == 201, body
    potion = body["data"]["helpRequest"]["requestId"]
    await refused(g.donate("ann", potion, 1), 409, "insufficient_balance")
    await g.give_item("ann", "potion", 1)
    status, body = await g.donate("ann", potion, 1)
    assert status == 200, body
    assert g.holding("ann", "potion") == 0

    # An hour on, cat's request has expired: read so, listed no more, refused as closed, no webhook.
    kinds = len(g.kinds())
    await g.advance(3600)
    status, body = await g.own("bob", path="/help-requests")
    assert body["data"]["helpRequests"] == []
    status, body = await g.donate("bob", potion, 1)
    assert (status, error(body), body["error"]["details"]["status"]) == (
        409,
        "help_request_closed",
        "expired",
    )
    assert [k for k in g.kinds()[kinds:] if k.startswith("guild.")] == []
    # An expired request is open no more; its player asks again once the cooldown has passed.
    await refused(g.ask("cat", "potion", 1, "item"), 409, "help_cooldown")
    await g.advance(3600)
    status, body = await g.ask("bob", "energy", 1)
    assert status == 201, body
    bobs = body["data"]["helpRequest"]["requestId"]

    # Leaving closes the player's open request.
    await g.own("bob", "POST", "/leave")
    status, body = await g.own("ann", path="/help-requests")
    assert body["data"]["helpRequests"] == []
    status, body = await g.donate("ann", bobs, 1)
    assert (status, error(body), body["error"]["details"]["status"]) == (409, "help_request_closed", "closed")


DONATED = (
    "requestId",
    "donationId",
    "grantId",
    "rewardGrantId",
    "donorExternalPlayerId",
    "recipientExternalPlayerId",
    "amount",
    "amountReceived",
    "amountRequested",
    "filled",
    "costsDonor",
    "costsChargedBy",
    "by",
)


async def test_donating_in_a_studio_game_debits_nothing(games: dict[str, Guilds]) -> None:
    g = games["tribe"]
    await g.register("ann", "bob")
    status, body = await g.found("ann", "Free Folk")
    assert status == 201, body
    await g.joined(body["data"]["guild"]["guildId"], "bob")
    status, body = await g.ask("bob", "energy", 5)
    assert status == 201, body
    status, body = await g.donate("ann", body["data"]["helpRequest"]["requestId"], 5)
    assert status == 200, body
    assert body["data"]["helpRequest"]["status"] == "filled"
    assert g.ledger("ann", "energy") == []
    [gave] = g.payloads("guild.help_donated")
    assert (gave["costsChargedBy"], gave["costsDonor"], gave["filled"]) == ("studio", True, True)
    assert [x["sourceKind"] for x in await g.pending_grants("bob")] == ["guild_help"]
    assert [x["sourceKind"] for x in await g.pending_grants("ann")] == ["guild_help_reward"]


async def test_a_game_without_help_refuses_help_requests(games: dict[str, Guilds]) -> None:
    g = games["quiet"]
    await g.register("ann")
    status, body = await g.found("ann", "Quiet Ones")
    assert status == 201, body  # free
    await refused(g.ask("ann", "coins", 1), 400, "invalid_request")


# --- the hourly sweep of inactive leaders ---------------------------------------------------------------


async def test_the_sweep_hands_an_inactive_leaders_guild_to_the_first_successor_seen(clan: Guilds) -> None:
    g = clan
    g.world.only_hourly_jobs()
    await g.register("ann", "bob", "cat", "dan", "eve")
    guild = await g.founded("ann", "Star Pilots")
    await g.joined(guild["guildId"], "bob", "cat")
    await g.act("ann", "promote", "cat")
    quiet = await g.founded("dan", "Night Owls")
    await g.joined(quiet["guildId"], "eve")

    # A day passes: nobody is inactive yet at its last hour; bob is seen.
    await g.advance(23 * 3600)
    await g.heartbeat("bob")
    assert roles(g) == [("cat", "member", "co_leader", "promoted")]
    # At a day, ann is inactive: cat (the co-leader) was not seen since, bob was and takes the lead; ann
    # becomes a member. dan's guild has nobody seen: nothing changes.
    await g.advance(3600)
    assert roles(g)[1:] == [
        ("bob", "member", "leader", "succession_leader_inactive"),
        ("ann", "leader", "member", "succession_leader_inactive"),
    ]
    assert all(p["by"] == {"kind": "system"} for p in g.payloads("guild.role_changed")[1:])
    assert members(await g.detail(guild["guildId"])) == [
        ("ann", "member"),
        ("bob", "leader"),
        ("cat", "co_leader"),
    ]
    assert members(await g.detail(quiet["guildId"])) == [("dan", "leader"), ("eve", "member")]
    # Later sweeps change nothing more.
    await g.advance(2 * 3600)
    assert len(roles(g)) == 3


# --- merge, erasure, ban --------------------------------------------------------------------------------


async def test_a_merge_seats_the_target_and_an_erasure_ends_the_membership(clan: Guilds) -> None:
    g = clan
    await g.register("ann", "bob", "cat", "zed")
    guild = await g.founded("ann", "Star Pilots")
    await g.joined(guild["guildId"], "bob", "cat")

    # The leader merged into a player in no guild: the target takes the seat and the lead.
    g.tick()  # its seat is the newest: a second after cat's
    status, body, _ = await g.moderate("POST", "/players/ann/merge-into/zed")
    assert status == 200, body
    assert left(g) == [("ann", "merged", "leader")]
    joined = g.payloads("guild.member_joined")[-1]
    assert (joined["externalPlayerId"], joined["via"], joined["role"]) == ("zed", "merge", "leader")
    assert by_key(g, joined["by"]) and by_key(g, g.payloads("guild.member_left")[-1]["by"])
    assert members(await g.detail(guild["guildId"])) == [
        ("bob", "member"),
        ("cat", "member"),
        ("zed", "leader"),
    ]
    assert (await g.mine("zed"))["role"] == "leader"

    # An erased member leaves (erased).
    status, body, _ = await g.moderate("POST", "/players/bob/delete")
    assert status == 200, body
    assert left(g)[-1][1:] == ("erased", "member")
    assert members(await g.detail(guild["guildId"])) == [("cat", "member"), ("zed", "leader")]


async def test_a_banned_player_reads_its_guild_but_changes_nothing(clan: Guilds) -> None:
    g = clan
    await g.register("ann", "bob")
    guild = await g.founded("ann", "Star Pilots")
    await g.joined(guild["guildId"], "bob")
    status, body, _ = await g.moderate("POST", "/players/bob/ban", {"reason": "cheating"})
    assert status == 200, body
    before = snapshot(g)
    for call in (g.own("bob", "POST", "/leave"), g.found("bob", "Night Owls"), g.ask("bob", "energy", 1)):
        await refused(call, 403, "player_banned")
    assert snapshot(g) == before
    assert (await g.mine("bob"))["role"] == "member"


# --- guilds off, another environment --------------------------------------------------------------------


async def test_guilds_off_answer_403_and_another_environment_404(games: dict[str, Guilds]) -> None:
    off, g = games["space-race"], games["clan"]
    await off.register("ann")
    for call in (
        off.found("ann", "Star Pilots"),
        off.own("ann"),
        off.search(),
        off.read("gld_" + "0" * 32),
    ):
        await refused(call, 403, "guilds_disabled")
    for method, path in (
        ("GET", "/guilds"),
        ("GET", "/players/ann/guild"),
        ("POST", "/guilds/gld_1/disband"),
    ):
        await refused_moderation(off, method, path, None, 403, "guilds_disabled")

    await g.register("ann")
    guild = await g.founded("ann", "Star Pilots")
    gid = guild["guildId"]
    live_client, live_server = g.api_key("live-client"), g.api_key("live-server")
    await refused(g.read(gid, key=live_client), 404, "guild_not_found")
    status, body = await g.search(key=live_client)
    assert (status, body["data"]["guilds"]) == (200, [])
    for method, path, json in (
        ("GET", f"/guilds/{gid}", None),
        ("PATCH", f"/guilds/{gid}", {"badge": "b"}),
        ("POST", f"/guilds/{gid}/disband", None),
        ("POST", f"/guilds/{gid}/members/ann/remove", None),
    ):
        got, body, _ = await g.moderate(method, path, json, key=live_server)
        assert (got, error(body)) == (404, "guild_not_found"), path
    got, body, _ = await g.moderate("GET", "/guilds", key=live_server)
    assert (got, body["data"]) == (200, {"guilds": [], "nextOffset": None})
    got, body, _ = await g.moderate("GET", "/players/ann/guild", key=live_server)
    assert (got, error(body)) == (404, "player_not_found")
    assert (await g.detail(gid))["disbandedAt"] is None  # the other environment's disband changed nothing
