"""Every per-player limit holds under many writers at once, through the real app on SQLite and on PostgreSQL,
where two apps share one database as two server processes would (tests/server/limits_support.py) and requests
alternate between them.

What is raced, each by 2 to 40 requests in flight together: debits of one balance, by the server and by the
player (docs/reference/economy.md#the-ledger: never below zero); gift sends past the daily limit
(docs/reference/gifts.md#sending: 409 ``gift_limit_reached``); a friend request and its reverse
(docs/reference/friends-and-presence.md: one friendship); one gift claimed by its gift and by its grant
(409 ``gift_already_claimed``, one credit); donations to one help request, and one donor's donations past its
balance (DECISIONS 12: 409 ``help_request_closed``, ``insufficient_balance``); one purchase's transaction id
reported by two players (docs/reference/economy.md#purchases: tracked once, 409 ``idempotency_conflict`` to
the other); one crate opened many times (DECISIONS 13: 409 ``grant_already_claimed``, its contents granted
once); starts of an event past its maximum attempts (DECISIONS 8: 409 ``attempt_in_progress``,
``max_attempts_reached``, the entry cost charged once an attempt). Each test asserts the exact count of
successes and of each refusal code, and the stored state: balances, ledger entries, gifts, grants, donations,
attempts, events; first starts on a lobby event past a lobby's seats (DECISIONS 10: 202 ``lobby_forming``
until the seat that fills it); and scores submitted to one shared board with divisions by players never
seen before (docs/leaderboards.md: one period, each player in one division of at most its size).

Why: a game's writes on PostgreSQL need not wait for each other, within a process or across processes, unless
they touch the same player, gift, help request or grant; these races are where a write that read before
another committed could pass a limit. A store that runs a game's writes one at a time passes them trivially;
one that runs them at once must still pass them. The last test races writers on different players only and
asserts that none of them failed or ran again on PostgreSQL (the store's ``write_counts.retried``): waiting on
each other is only for writes that share a row. Each PostgreSQL test reports its stores' writes and retries
(by exception class): printed (``-s``, ``-rP``) and a ``retried`` user property of its report."""

from __future__ import annotations

import asyncio
import re
import uuid
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.server.limits_support import Answer, Servers, Vault, outcome, start_servers


@pytest.fixture
async def servers(db_url: str, request: pytest.FixtureRequest) -> AsyncIterator[Servers]:
    world = await start_servers(db_url)
    try:
        yield world
        if world.on_postgres and all(hasattr(s.store, "write_counts") for s in world.served):
            retried = dict(world.retried())
            request.node.user_properties.append(("retried", retried))
            print(f"{request.node.name}: committed {world.committed()}, retried {retried}")
    finally:
        await world.close()


@pytest.fixture
def vault(servers: Servers) -> Vault:
    return Vault(servers, "vault")


def idem() -> str:
    return str(uuid.uuid4())


async def registered(vault: Vault, *names: str) -> None:
    await asyncio.gather(*(vault.register(name) for name in names))


def tally(answers: list[Answer]) -> Counter[tuple[int, str]]:
    return Counter(outcome(a) for a in answers)


# --- wallet debits --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("amount", "requests", "won"), [(6, 2, 1), (1, 40, 10), (3, 12, 3)])
async def test_concurrent_debits_of_one_balance_never_overdraw(
    vault: Vault, amount: int, requests: int, won: int
) -> None:
    await registered(vault, "ann", "bob")
    await vault.credit("ann", "gold", 10)
    await vault.credit("bob", "gold", requests)
    # Half the debits are the server's, half the player's own; bob's, on a balance that covers them all,
    # race beside ann's.
    anns = [vault.debit("ann", "gold", amount, by_server=i % 2 == 0, idem=idem()) for i in range(requests)]
    bobs = [vault.debit("bob", "gold", 1, by_server=i % 2 == 1, idem=idem()) for i in range(requests)]
    answers = await asyncio.gather(*anns, *bobs)
    ann, bob = answers[:requests], answers[requests:]

    assert tally(ann) == {(200, "ok"): won, (409, "insufficient_balance"): requests - won}
    assert tally(bob) == {(200, "ok"): requests}
    for status, body, _ in ann:
        if status == 409:
            details = body["error"]["details"]
            assert details["resource"] == "gold" and details["needed"] == amount
            assert 0 <= details["have"] < amount
    left = 10 - won * amount
    assert await vault.balance("ann", "gold") == left and await vault.balance("bob", "gold") == 0
    debits = [e for e in vault.ledger("ann", "gold") if e.delta < 0]
    assert len(debits) == won and all(e.delta == -amount for e in debits)
    # Each debit saw the one before it: the balances after them step down from 10 without a gap.
    assert sorted(e.balance_after for e in debits) == [left + k * amount for k in range(won)]
    assert Counter(e.reason.value for e in debits) == Counter(
        "server_debit" if i % 2 == 0 else "client_debit" for i, a in enumerate(ann) if a[0] == 200
    )
    assert sorted(a[1]["data"]["balance"] for a in ann if a[0] == 200) == sorted(
        e.balance_after for e in debits
    )


# --- purchases ------------------------------------------------------------------------------------------


def purchase(transaction_id: str) -> dict[str, Any]:
    return {
        "transactionId": transaction_id,
        "store": "apple",
        "productId": "gems_100",
        "productType": "consumable",
        "amountMinor": 499,
        "currency": "USD",
    }


async def test_one_transaction_id_reported_by_two_players_at_once_is_tracked_once(vault: Vault) -> None:
    await registered(vault, "ann", "bob")
    body = purchase("tx-race")
    anns = [vault.sdk("POST", "ann", "/purchases", body) for _ in range(10)]
    bobs = [vault.server("POST", "/players/bob/purchases", body, idem=idem()) for _ in range(10)]
    answers = await asyncio.gather(*anns, *bobs)

    ((tracked_for,),) = vault.world.rows(
        "SELECT p.external_id FROM purchases u JOIN players p ON p.id = u.player_id"
        " WHERE u.transaction_id = 'tx-race'",
        (),
    )
    won, lost = (answers[:10], answers[10:]) if tracked_for == "ann" else (answers[10:], answers[:10])
    # The player who tracked it first gets it once and replays after; the other, the conflict.
    assert tally(won) == {(200, "ok"): 10}
    assert Counter(a[2].get("Idempotent-Replay") for a in won) == {None: 1, "true": 9}
    assert tally(lost) == {(409, "idempotency_conflict"): 10}
    assert len(vault.events("purchase.tracked")) == 1
    assert {a[1]["data"]["purchaseCount"] for a in won} == {1}


# --- gifts ----------------------------------------------------------------------------------------------


async def test_concurrent_gift_sends_stop_at_the_daily_limit(vault: Vault) -> None:
    friends = [f"f{i:02d}" for i in range(12)]
    await registered(vault, "ann", *friends)
    await vault.befriend("ann", *friends)
    answers = await asyncio.gather(*(vault.send("ann", f, resource="gold", amount=2) for f in friends))

    assert tally(answers) == {(201, "ok"): 3, (409, "gift_limit_reached"): 9}
    assert vault.count("gifts") == 3 and len(vault.events("gift.sent")) == 3
    assert (await vault.catalog("ann"))["sentToday"] == 3
    winners = [f for f, a in zip(friends, answers, strict=True) if a[0] == 201]
    for friend in friends:
        assert len(await vault.pending_grants(friend)) == (friend in winners)


async def test_a_gift_claimed_many_times_at_once_credits_once(vault: Vault) -> None:
    await registered(vault, "ann", "bob")
    await vault.befriend("ann", "bob")
    gift = await vault.sent_gift("ann", "bob", resource="gold", amount=25)
    claims = [vault.claim("bob", gift["giftId"]) for _ in range(10)]
    claims += [vault.claim_grant("bob", gift["grantId"]) for _ in range(10)]
    answers = await asyncio.gather(*claims)

    assert tally(answers) == {(200, "ok"): 1, (409, "gift_already_claimed"): 19}
    assert await vault.balance("bob", "gold") == 25
    (credit,) = vault.ledger("bob", "gold")
    assert (credit.delta, credit.balance_after) == (25, 25)
    assert len(vault.events("gift.claimed")) == 1 and len(vault.events("grant.claimed")) == 1
    assert vault.count("grants", "status = 'claimed'") == 1


# --- guild help -----------------------------------------------------------------------------------------


async def help_request(vault: Vault, donors: list[str], energy: int) -> str:
    """A guild of ``lead`` and ``donors`` (each holding ``energy``), and lead's open request for 5 energy."""
    await registered(vault, "lead", *donors)
    status, body = await vault.found("lead", "Vaulters")
    assert status == 201, body
    guild_id = body["data"]["guild"]["guildId"]
    for donor in donors:
        status, body, _ = await vault.sdk("POST", donor, f"/guilds/{guild_id}/join")
        assert status == 200, body
        await vault.credit(donor, "energy", energy)
    status, body = await vault.ask("lead", "energy", 5)
    assert status == 201, body
    return str(body["data"]["helpRequest"]["requestId"])


async def donate(vault: Vault, who: str, request_id: str) -> Answer:
    return await vault.sdk("POST", who, f"/guild/help-requests/{request_id}/donate", {"amount": 1})


def help_state(vault: Vault, request_id: str) -> tuple[int, str, int, int]:
    """The request's donated amount and status, its donations' count and total."""
    ((donated, status),) = vault.world.rows(
        "SELECT donated, status FROM guild_help_requests WHERE id = ?", (request_id,)
    )
    ((count, total),) = vault.world.rows(
        "SELECT COUNT(*), COALESCE(SUM(amount), 0) FROM guild_donations WHERE request_id = ?", (request_id,)
    )
    return int(donated), str(status), int(count), int(total)


def grant_holders(vault: Vault, source_kind: str) -> Counter[str]:
    rows = vault.world.rows(
        "SELECT external_player_id FROM grants WHERE game_id = ? AND source_kind = ?", (vault.id, source_kind)
    )
    return Counter(str(r[0]) for r in rows)


async def test_concurrent_donations_never_fill_a_help_request_past_its_amount(vault: Vault) -> None:
    donors = [f"d{i:02d}" for i in range(12)]
    request_id = await help_request(vault, donors, energy=1)
    answers = await asyncio.gather(*(donate(vault, d, request_id) for d in donors))

    assert tally(answers) == {(200, "ok"): 5, (409, "help_request_closed"): 7}
    assert help_state(vault, request_id) == (5, "filled", 5, 5)
    winners = {d for d, a in zip(donors, answers, strict=True) if a[0] == 200}
    assert sorted(a[1]["data"]["helpRequest"]["donated"] for a in answers if a[0] == 200) == [1, 2, 3, 4, 5]
    # Each winner debited once and rewarded once; the requester granted once a donation.
    for donor in donors:
        assert await vault.balance(donor, "energy") == (0 if donor in winners else 1)
        assert len([e for e in vault.ledger(donor, "energy") if e.delta < 0]) == (donor in winners)
    assert grant_holders(vault, "guild_help") == {"lead": 5}
    assert grant_holders(vault, "guild_help_reward") == dict.fromkeys(winners, 1)
    assert len(vault.events("guild.help_donated")) == 5


async def test_concurrent_donations_of_one_donor_never_overdraw_it(vault: Vault) -> None:
    request_id = await help_request(vault, ["dan"], energy=3)
    answers = await asyncio.gather(*(donate(vault, "dan", request_id) for _ in range(10)))

    assert tally(answers) == {(200, "ok"): 3, (409, "insufficient_balance"): 7}
    assert help_state(vault, request_id) == (3, "open", 3, 3)
    assert await vault.balance("dan", "energy") == 0
    debits = [e for e in vault.ledger("dan", "energy") if e.delta < 0]
    assert sorted(e.balance_after for e in debits) == [0, 1, 2]
    assert grant_holders(vault, "guild_help") == {"lead": 3}
    assert grant_holders(vault, "guild_help_reward") == {"dan": 3}


# --- crates ---------------------------------------------------------------------------------------------


async def test_a_crate_opened_many_times_at_once_is_opened_and_paid_once(vault: Vault) -> None:
    await registered(vault, "ann")
    status, body, _ = await vault.grant(
        "ann", idem(), {"type": "crate", "key": "chest", "amount": 1}, kind="crate"
    )
    assert status == 201, body
    crate_id = body["data"]["grant"]["grantId"]
    answers = await asyncio.gather(*(vault.open_crate("ann", crate_id) for _ in range(20)))

    assert tally(answers) == {(200, "ok"): 1, (409, "grant_already_claimed"): 19}
    (opened,) = [a[1]["data"] for a in answers if a[0] == 200]
    assert opened["crate"]["status"] == "claimed" and opened["contents"]["status"] == "claimed"
    contents = vault.world.rows(
        "SELECT id, status FROM grants WHERE game_id = ? AND source_kind = 'crate' AND source_ref_id = ?",
        (vault.id, crate_id),
    )
    assert contents == [(opened["contents"]["grantId"], "claimed")]
    assert await vault.balance("ann", "coins") == 50 and await vault.quantity("ann", "sword") == 1
    assert len(vault.ledger("ann", "coins")) == 1 and len(vault.ledger("ann", "sword")) == 1
    assert len(vault.events("crate.opened")) == 1


# --- event attempts -------------------------------------------------------------------------------------


async def test_concurrent_event_starts_never_pass_max_attempts(vault: Vault) -> None:
    await registered(vault, "ann")
    await vault.credit("ann", "gems", 3 * 5 + 4)
    started: list[dict[str, Any]] = []
    current: str | None = None
    # Each round: 8 starts at once, racing the completion of the attempt in progress (if any). At most one
    # start wins a round; the others find an attempt in progress, or the maximum reached. Once a round
    # starts nothing and leaves nothing in progress with three started, the maximum is reached.
    for _ in range(12):
        calls = [vault.start("ann") for _ in range(8)]
        if current is not None:
            calls.append(vault.complete("ann", current, score=10))
        answers = await asyncio.gather(*calls)
        if current is not None:
            completed = answers.pop()
            assert completed[0] == 200, completed[1]
        assert set(tally(answers)) <= {
            (201, "ok"),
            (409, "attempt_in_progress"),
            (409, "max_attempts_reached"),
        }
        won = [a[1]["data"]["attempt"] for a in answers if a[0] == 201]
        assert len(won) <= 1
        started += won
        current = won[0]["attemptId"] if won else None
        if current is None and len(started) == 3:
            break
    assert [a["attemptCount"] for a in started] == [1, 2, 3]

    answers = await asyncio.gather(*(vault.start("ann") for _ in range(8)))
    assert tally(answers) == {(409, "max_attempts_reached"): 8}
    assert vault.count("attempts") == 3
    assert (
        vault.world.rows("SELECT status FROM attempts WHERE game_id = ?", (vault.id,)) == [("completed",)] * 3
    )
    assert await vault.balance("ann", "gems") == 4
    assert len([e for e in vault.ledger("ann", "gems") if e.delta < 0]) == 3
    assert len(vault.events("entry_cost.charged")) == 3 and len(vault.events("event.attempt_started")) == 3


async def test_concurrent_progress_on_one_board_takes_one_version_each_and_ranks_exactly(
    vault: Vault,
) -> None:
    """Progress writes of many players on one event board at once, each holding only its player on
    PostgreSQL: the board's row is counted up by each in turn, so the board ends one version up per
    better score, its rank pages count every entry, and every rank is the entry's place."""
    racers = [f"p{i:02d}" for i in range(16)]
    await registered(vault, *racers)
    await asyncio.gather(*(vault.credit(r, "gems", 5) for r in racers))
    started = await asyncio.gather(*(vault.start(r) for r in racers))
    assert tally(started) == {(201, "ok"): 16}
    attempts = [a[1]["data"]["attempt"] for a in started]
    (board_id,) = {a["leaderboardId"] for a in attempts}
    ((before,),) = vault.world.rows("SELECT version FROM boards WHERE id = ?", (board_id,))
    scores = [10 * i + 3 for i in range(len(racers))]
    answers = await asyncio.gather(
        *(
            vault.sdk(
                "POST", r, f"/events/trial/attempts/{a['attemptId']}/progress", {"metrics": {"score": s}}
            )
            for r, a, s in zip(racers, attempts, scores, strict=True)
        )
    )

    assert tally(answers) == {(200, "ok"): 16}
    assert vault.world.rows("SELECT version FROM boards WHERE id = ?", (board_id,)) == [(before + 16,)]
    assert (
        vault.world.rows("SELECT COUNT(*) FROM board_entries WHERE board_id = ?", (board_id,))
        == vault.world.rows("SELECT SUM(entries) FROM board_pages WHERE list_id = ?", (board_id,))
        == [(16,)]
    )
    status, body, _ = await vault.world.call(
        "GET", f"/sdk/v1/event-leaderboards/{board_id}?limit=50", key=vault.api_key(vault.client_key)
    )
    assert status == 200, body
    page = body["data"]
    best_first = [r for _, r in sorted(zip(scores, racers, strict=True), reverse=True)]
    assert [(e["rank"], e["externalPlayerId"]) for e in page["entries"]] == list(enumerate(best_first, 1))
    assert len(vault.events("event.progress_updated")) == 16


async def test_a_friend_request_and_its_reverse_at_once_make_one_friendship(vault: Vault) -> None:
    """Ten pairs of players each ask the other at once, each request holding both players on PostgreSQL:
    one of each pair's requests is sent (201 ``pending``) and the other accepts it (200 ``accepted``, the
    reciprocal add), so each pair ends friends once, with no request left between them."""
    pairs = [(f"fa{i}", f"fb{i}") for i in range(10)]
    await registered(vault, *(p for pair in pairs for p in pair))
    asks = [vault.sdk("POST", a, "/friends/requests", {"externalPlayerId": b}) for a, b in pairs]
    asks += [vault.sdk("POST", b, "/friends/requests", {"externalPlayerId": a}) for a, b in pairs]
    answers = await asyncio.gather(*asks)

    assert tally(answers) == {(201, "ok"): 10, (200, "ok"): 10}
    assert sorted(a[1]["data"]["status"] for a in answers) == ["accepted"] * 10 + ["pending"] * 10
    assert vault.count("friend_requests") == 0
    friendships = vault.world.rows(
        "SELECT COUNT(*) FROM friendships f JOIN players p ON p.id = f.player_id WHERE p.game_id = ?",
        (vault.id,),
    )
    assert friendships == [(20,)]  # one row each way
    assert len(vault.events("friend.request_accepted")) == 10


async def test_concurrent_lobby_starts_never_seat_a_lobby_past_its_capacity(vault: Vault) -> None:
    """Ten players' first starts on a lobby event of four seats, at once, each holding only its player on
    PostgreSQL (the segment's matchmaking held from the read of its oldest forming lobby to the commit):
    every player sits once, no lobby holds more than four, the start that takes a lobby's last seat starts
    it and plays (201, its entry cost charged), the others wait for theirs (202 ``lobby_forming``, nothing
    charged)."""
    starters = [f"l{i}" for i in range(10)]
    await registered(vault, *starters)
    await asyncio.gather(*(vault.credit(s, "gems", 5) for s in starters))
    answers = await asyncio.gather(*(vault.start(s, "arena") for s in starters))

    assert tally(answers) == {(201, "ok"): 2, (202, "ok"): 8}
    assert {a[1]["error"]["code"] for a in answers if a[0] == 202} == {"lobby_forming"}
    lobbies = vault.world.rows(
        "SELECT l.status, l.participant_count, COUNT(s.seat_id) FROM lobbies l"
        " JOIN lobby_seats s ON s.lobby_id = l.id WHERE l.game_id = ? GROUP BY l.id, l.status,"
        " l.participant_count ORDER BY l.participant_count DESC, l.status",
        (vault.id,),
    )
    assert lobbies == [("active", 4, 4), ("active", 4, 4), ("forming", 2, 2)]
    assert vault.count("attempts") == 2
    charged = [s for s in starters if len([e for e in vault.ledger(s, "gems") if e.delta < 0]) == 1]
    assert len(charged) == 2 and len(vault.events("entry_cost.charged")) == 2
    assert len(vault.events("lobby.started")) == 2 and len(vault.events("lobby.created")) == 3


async def test_concurrent_submissions_to_one_board_open_one_period_and_place_every_newcomer_once(
    vault: Vault,
) -> None:
    """Three scores each of 16 players never seen before, all at once, to a board with divisions of 3: each
    holding only its player on PostgreSQL, the first scores race to open the week's period (one opens it,
    holding its game alone) and to place their players (the period's row held from the newest division to
    the commit), so there is one period, every player sits in exactly one division, no division holds more
    than 3, every sum is whole, and the rank pages count every entry."""
    players = [f"n{i:02d}" for i in range(16)]
    scores = {p: [i + 1, 10 * (i + 1), 100 * (i + 1)] for i, p in enumerate(players)}
    answers = await asyncio.gather(*(vault.submit(p, s) for p in players for s in scores[p]))

    assert tally(answers) == {(200, "ok"): 48}
    periods = vault.world.rows(
        "SELECT id FROM board_periods WHERE game_id = ? AND board_key = 'weekly'", (vault.id,)
    )
    assert len(periods) == 1
    ((period_id,),) = periods
    entries = vault.world.rows(
        "SELECT p.external_id, e.score, e.division_id FROM shared_entries e"
        " JOIN players p ON p.id = e.player_id WHERE e.period_id = ?",
        (period_id,),
    )
    assert {who: score for who, score, _ in entries} == {p: sum(s) for p, s in scores.items()}
    placed = Counter(division for _, _, division in entries)
    divisions = dict(vault.world.rows("SELECT id, members FROM divisions WHERE period_id = ?", (period_id,)))
    assert divisions == dict(placed)
    assert sorted(divisions.values()) == [1, 3, 3, 3, 3, 3]
    paged = vault.world.rows("SELECT SUM(entries) FROM shared_pages WHERE list_id = ?", (period_id,))
    assert paged == [(16,)]


# --- writers on different players -----------------------------------------------------------------------


async def test_writers_on_different_players_all_succeed_and_never_retry(
    vault: Vault, servers: Servers
) -> None:
    """40 gift sends between 40 pairs of friends and 40 server grants to 40 other players, all at once in
    one game: no two of them share a player, so every one succeeds the first time it runs. Needs the
    PostgreSQL store's ``write_counts``."""
    n = 40
    senders = [f"s{i:02d}" for i in range(n)]
    friends = [f"r{i:02d}" for i in range(n)]
    grantees = [f"g{i:02d}" for i in range(n)]
    await registered(vault, *senders, *friends, *grantees)
    await asyncio.gather(*(vault.befriend(s, f) for s, f in zip(senders, friends, strict=True)))
    if servers.on_postgres:
        committed, retried = servers.committed(), servers.retried()

    sends = [vault.send(s, f, resource="gold", amount=3) for s, f in zip(senders, friends, strict=True)]
    coins = {"type": "currency", "key": "coins", "amount": 7}
    grants = [vault.grant(g, idem(), coins) for g in grantees]
    answers = await asyncio.gather(*sends, *grants)

    assert tally(answers) == {(201, "ok"): 2 * n}
    assert vault.count("gifts") == n
    assert grant_holders(vault, "api") == dict.fromkeys(grantees, 1)
    if servers.on_postgres:
        assert servers.committed() > committed
        assert servers.retried() - retried == Counter(), "writes on different players ran again"
        # What each process says of its writes on /metrics (docs/deployment.md#monitoring).
        # The process's own background writes (buffered key use, heartbeats) may commit while the answer
        # is on its way: the figure lies between the counts before and after it.
        for client, counts in zip(servers.clients, servers.write_counts(), strict=True):
            before = counts.committed
            metrics = await (await client.get("/metrics")).text()
            shown = re.search(r"\nlivecore_writes_total (\d+)\n", metrics)
            assert shown is not None, metrics
            assert before <= int(shown.group(1)) <= counts.committed
            assert "# TYPE livecore_write_retries_total counter\n" in metrics
