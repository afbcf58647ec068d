"""Shared-leaderboard methods against a real server on 127.0.0.1, on SQLite and PostgreSQL: proves the
clients and the server agree on the wire (the read's query and its answer, the score body with its
idempotency key, rollover-now and past periods, division placement and promotion, rank grants, an event
feeding a board, the scheduler's rollover at a boundary, every refusal and its class), which the mocked
tests cannot.

The module's game ``ladder`` starts at the manual clock's start (Monday 2026-03-02 12:00 UTC). Each test
has its own board, so none sees another's scores: ``weekly`` (sum), ``pages`` (best), ``league`` (best,
divisions of 2 in bronze and silver), ``forever`` (all-time), ``fed`` (fed by the event ``trial``) and
``daily``, rolled by the scheduler in the module's last test, which moves the clock past midnight.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Iterator
from datetime import timedelta

import httpx
import pytest

from livecore_client import (
    AsyncSdkClient,
    AsyncServerClient,
    IdempotencyConflictError,
    InvalidRequestError,
    LeaderboardNotFoundError,
    PermissionDeniedError,
    PlayerNotFoundError,
    SdkClient,
    ServerClient,
)
from livecore_client.models import GrantView, LeaderboardResponse, Order, Period
from tests.client.live_support import LiveGame, serve_game
from tests.conftest import BACKENDS, START
from tests.waiting import until_sync

LIMITS = "rate_limits = { sdk_read = 100000, sdk_write = 100000, server_api = 100000 }"
COINS = '{ type = "currency", key = "coins", amount = 10 }'
MONDAY = START.replace(hour=0)  # START is a Monday noon
NEXT_MONDAY = MONDAY + timedelta(days=7)

GAMES = f"""
[games.ladder]
name = "Ladder"
economy = "platform"

[games.ladder.resources.coins]
type = "currency"

[games.ladder.leaderboards.weekly]
name = "Weekly XP"
period = "weekly"
aggregation = "sum"

[games.ladder.leaderboards.pages]
name = "Pages"
period = "weekly"
aggregation = "best"

[games.ladder.leaderboards.league]
name = "League"
period = "weekly"
aggregation = "best"
divisions = {{ size = 2, tiers = ["bronze", "silver"], promote = 1, relegate = 1 }}

[[games.ladder.leaderboards.league.rank_rewards]]
from = 1
to = 1
rewards = [{COINS}]

[games.ladder.leaderboards.forever]
name = "Forever"
order = "asc"
period = "all_time"
aggregation = "latest"

[games.ladder.leaderboards.fed]
name = "Fed"
period = "weekly"

[games.ladder.leaderboards.daily]
name = "Daily"
period = "daily"

[games.ladder.events.trial]
name = "Trial"
starts_at = "2026-03-02T12:00:00Z"
window_seconds = 3600
attempt_seconds = 600
score_metric = "score"
feeds = ["fed"]

[games.ladder.api_keys.client]
env = "test"
permission = "client_sdk"
{LIMITS}

[games.ladder.api_keys.server]
env = "test"
permission = "server_integration"
{LIMITS}

[games.ladder.api_keys.live-server]
env = "live"
permission = "server_integration"
{LIMITS}
"""


Ladder = LiveGame


@pytest.fixture(scope="module", params=BACKENDS)
def ladder(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ladder]:
    """This module's game served on each store in turn."""
    yield from serve_game(request, tmp_path_factory, GAMES, "ladder")


_ids = itertools.count()


def fresh(prefix: str) -> str:
    """An external id no other test (nor the other store's run) uses."""
    return f"{prefix}-{next(_ids)}-{secrets.token_hex(2)}"


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10) as client:
        yield client


@pytest.fixture
def server(ladder: Ladder, http: httpx.Client) -> Iterator[ServerClient]:
    with ServerClient(ladder.keys["server"], base_url=ladder.base_url, http_client=http) as client:
        yield client


@pytest.fixture
def sdk(ladder: Ladder, http: httpx.Client) -> Iterator[SdkClient]:
    with SdkClient(ladder.keys["client"], base_url=ladder.base_url, http_client=http) as client:
        yield client


def rank_grants(server: ServerClient, who: str) -> list[GrantView]:
    return [g for g in server.players.profile(who).grants if g.source_kind == "leaderboard_rank"]


def previous_page(sdk: SdkClient, key: str, around: str | None = None) -> LeaderboardResponse | None:
    """The latest finalized period's page, or None while no period has finished."""
    try:
        return sdk.leaderboards.get(key, previous=True, around=around)
    except InvalidRequestError:
        return None


def ranks(page_entries: list[object]) -> list[tuple[int, str | None, float]]:
    return [(e.rank, e.external_player_id, e.score) for e in page_entries]  # type: ignore[attr-defined]


# --- Scores and reads -----------------------------------------------------------------------------------


def test_scores_sum_into_the_weekly_period_and_identities_are_read_at_read_time(
    server: ServerClient, sdk: SdkClient
) -> None:
    ada, bo = fresh("ada"), fresh("bo")
    first = server.leaderboards.submit_score("weekly", ada, 40).entry  # first contact creates ada
    assert (first.rank, first.external_player_id, first.score) == (1, ada, 40)
    server.leaderboards.submit_score("weekly", bo, 55)
    assert server.leaderboards.submit_score("weekly", ada, 30).entry.score == 70  # sum
    server.players.set_identity(ada, name="Ada")

    page = sdk.leaderboards.get("weekly")
    board = page.leaderboard
    assert (board.key, board.name, board.order, board.period, board.division) == (
        "weekly",
        "Weekly XP",
        Order.DESC,
        Period.WEEKLY,
        None,
    )
    assert board.period_id.startswith("lbp_")
    assert (board.period_starts_at, board.period_ends_at) == (MONDAY, NEXT_MONDAY)
    assert ranks(page.entries) == [(1, ada, 70), (2, bo, 55)]
    assert page.entries[0].name == "Ada"  # set after the scores
    assert page.next_cursor is None


def test_a_repeated_submission_counts_once_and_a_changed_one_conflicts(
    server: ServerClient, sdk: SdkClient
) -> None:
    cy = fresh("cy")
    key = f"run-1:{cy}"
    assert server.leaderboards.submit_score("weekly", cy, 25, idempotency_key=key).entry.score == 25
    assert server.leaderboards.submit_score("weekly", cy, 25, idempotency_key=key).entry.score == 25  # not 50
    with pytest.raises(IdempotencyConflictError):
        server.leaderboards.submit_score("weekly", cy, 26, idempotency_key=key)
    [mine] = [e for e in sdk.leaderboards.get("weekly", around=cy).entries if e.external_player_id == cy]
    assert mine.score == 25


def test_pages_walk_by_cursor_and_around_centres_on_the_player(server: ServerClient, sdk: SdkClient) -> None:
    players = [fresh(f"p{i}") for i in range(5)]
    for i, who in enumerate(players):
        server.leaderboards.submit_score("pages", who, 100 - 10 * i)
        server.leaderboards.submit_score("pages", who, 1)  # best: the lower score changes nothing
    seen: list[tuple[int, str | None, float]] = []
    cursor = None
    while True:
        page = sdk.leaderboards.get("pages", limit=2, cursor=cursor)
        seen += ranks(page.entries)
        cursor = page.next_cursor
        if cursor is None:
            break
    assert seen == [(i + 1, who, 100 - 10 * i) for i, who in enumerate(players)]
    around = sdk.leaderboards.get("pages", limit=3, around=players[2])
    assert [e.external_player_id for e in around.entries] == players[1:4]
    assert [e.rank for e in around.entries] == [2, 3, 4]


def test_refusals_raise_their_classes(
    ladder: Ladder, server: ServerClient, sdk: SdkClient, http: httpx.Client
) -> None:
    with pytest.raises(LeaderboardNotFoundError):
        sdk.leaderboards.get("nope")
    with pytest.raises(LeaderboardNotFoundError):
        server.leaderboards.submit_score("nope", fresh("x"), 1)
    with pytest.raises(LeaderboardNotFoundError):
        server.leaderboards.rollover_now("nope")
    for out_of_range in (2**53, -(2**53)):
        with pytest.raises(InvalidRequestError):
            server.leaderboards.submit_score("forever", fresh("x"), out_of_range)
    with pytest.raises(PlayerNotFoundError):
        sdk.leaderboards.get("forever", around=fresh("ghost"))
    with pytest.raises(InvalidRequestError):
        sdk.leaderboards.get("forever", cursor="forged")
    with pytest.raises(InvalidRequestError):
        sdk.leaderboards.get("forever", division="div_0195c0de000070008000000000000002")  # no divisions
    with pytest.raises(InvalidRequestError):
        sdk.leaderboards.get("forever", previous=True)  # an all-time board never finishes a period
    with pytest.raises(InvalidRequestError):
        sdk.leaderboards.get("forever", period="lbp_0195c0de000070008000000000000001")
    with pytest.raises(InvalidRequestError):
        sdk.leaderboards.get("forever", limit=201)
    live = ServerClient(ladder.keys["live-server"], base_url=ladder.base_url, http_client=http)
    with live, pytest.raises(PermissionDeniedError):
        live.leaderboards.rollover_now("weekly")


def test_an_all_time_board_never_rolls_over(server: ServerClient, sdk: SdkClient) -> None:
    dee = fresh("dee")
    server.leaderboards.submit_score("forever", dee, 9)
    server.leaderboards.submit_score("forever", dee, 12)  # latest
    page = sdk.leaderboards.get("forever", around=dee)
    assert (page.leaderboard.period, page.leaderboard.period_starts_at, page.leaderboard.period_ends_at) == (
        Period.ALL_TIME,
        None,
        None,
    )
    assert [(e.external_player_id, e.score) for e in page.entries if e.external_player_id == dee] == [
        (dee, 12)
    ]
    done = server.leaderboards.rollover_now("forever")
    assert (done.rolled_over, done.period_id) == (False, None)
    assert sdk.leaderboards.get("forever").leaderboard.period_id == page.leaderboard.period_id


# --- Divisions, rollover-now, past periods and rank grants ----------------------------------------------


def test_a_league_rolls_over_now_pays_each_division_and_promotes_player_by_player(
    ladder: Ladder, server: ServerClient, sdk: SdkClient, http: httpx.Client
) -> None:
    a, b, c, d = (fresh(n) for n in "abcd")
    for who, score in ((a, 10), (b, 40), (c, 30), (d, 20)):
        server.leaderboards.submit_score("league", who, score)
    # Divisions of two in the order players arrive: a and b, then c and d, all in bronze.
    first = sdk.leaderboards.get("league", around=a)
    second = sdk.leaderboards.get("league", around=d)
    assert first.leaderboard.division is not None and second.leaderboard.division is not None
    assert first.leaderboard.division.tier == second.leaderboard.division.tier == "bronze"
    assert first.leaderboard.division.id != second.leaderboard.division.id
    assert first.leaderboard.division.id.startswith("div_")
    assert ranks(first.entries) == [(1, b, 40), (2, a, 10)]
    assert ranks(second.entries) == [(1, c, 30), (2, d, 20)]
    # Without around or division: the first division of the highest tier.
    assert sdk.leaderboards.get("league").leaderboard.division == first.leaderboard.division
    assert sdk.leaderboards.get("league", division=second.leaderboard.division.id).entries == second.entries

    done = server.leaderboards.rollover_now("league")
    assert done.rolled_over and done.period_id == first.leaderboard.period_id

    # The finished period stays readable, by id and as the previous one.
    past = until_sync(lambda: previous_page(sdk, "league", around=c), "the finalized period")
    assert past.leaderboard.period_id == done.period_id
    assert ranks(past.entries) == [(1, c, 30), (2, d, 20)]
    by_id = sdk.leaderboards.get("league", period=done.period_id, division=first.leaderboard.division.id)
    assert ranks(by_id.entries) == [(1, b, 40), (2, a, 10)]

    # Rank 1 of each division: one pending grant, sourced from the period; rank 2 none.
    for winner, division in ((b, first.leaderboard.division), (c, second.leaderboard.division)):
        [grant] = until_sync(lambda winner=winner: rank_grants(server, winner), f"{winner}'s rank grant")
        assert (grant.source_ref_id, grant.metadata["rank"], grant.metadata["divisionId"]) == (
            done.period_id,
            1,
            division.id,
        )
        assert [(e.key, e.amount) for e in grant.entries] == [("coins", 10)]
    assert rank_grants(server, a) == rank_grants(server, d) == []

    # The next period, opened now: b and c were promoted (promote = min(1, 2 // 2)); a and d stay in
    # bronze, the lowest tier, which relegates nobody.
    for who in (a, b, c, d):
        server.leaderboards.submit_score("league", who, 5)
    current = sdk.leaderboards.get("league", around=b).leaderboard
    assert current.period_id != done.period_id
    assert current.period_starts_at is not None and MONDAY < current.period_starts_at < NEXT_MONDAY
    assert current.period_ends_at == NEXT_MONDAY
    tiers = {who: sdk.leaderboards.get("league", around=who).leaderboard.division for who in (a, b, c, d)}
    assert {who: t.tier for who, t in tiers.items() if t is not None} == {
        a: "bronze",
        b: "silver",
        c: "silver",
        d: "bronze",
    }


def test_rollover_now_of_an_empty_period_changes_nothing(server: ServerClient, sdk: SdkClient) -> None:
    # ``daily`` has no score yet (its scheduler test comes last).
    before = sdk.leaderboards.get("daily").leaderboard.period_id
    done = server.leaderboards.rollover_now("daily")
    assert (done.rolled_over, done.period_id) == (False, None)
    assert sdk.leaderboards.get("daily").leaderboard.period_id == before


# --- An event feeding a board ---------------------------------------------------------------------------


def test_an_attempt_feeds_its_score_when_it_finishes(
    ladder: Ladder, sdk: SdkClient, http: httpx.Client
) -> None:
    eve = fresh("eve")
    with SdkClient(ladder.keys["client"], base_url=ladder.base_url, http_client=http) as client:
        client.player_secret = client.players.register(eve).player_secret
        attempt = client.live_events.start_attempt(eve, "trial").attempt
        client.live_events.report_progress(eve, "trial", attempt.attempt_id, {"score": 64})
        assert all(
            e.external_player_id != eve for e in sdk.leaderboards.get("fed").entries
        )  # not before it ends
        client.live_events.report_progress(eve, "trial", attempt.attempt_id, {"score": 80}, complete=True)
    [entry] = [e for e in sdk.leaderboards.get("fed").entries if e.external_player_id == eve]
    assert entry.score == 80


async def test_async_submit_read_and_rollover(ladder: Ladder) -> None:
    fay = fresh("fay")
    async with (
        AsyncServerClient(ladder.keys["server"], base_url=ladder.base_url) as server,
        AsyncSdkClient(ladder.keys["client"], base_url=ladder.base_url) as sdk,
    ):
        assert (await server.leaderboards.submit_score("pages", fay, 7)).entry.external_player_id == fay
        page = await sdk.leaderboards.get("pages", around=fay)
        assert fay in [e.external_player_id for e in page.entries]
        assert (await server.leaderboards.rollover_now("forever")).rolled_over is False


# --- The scheduler (the module's last test: it moves the clock) -----------------------------------------


def test_the_scheduler_rolls_the_daily_board_at_midnight(
    ladder: Ladder, server: ServerClient, sdk: SdkClient
) -> None:
    gus = fresh("gus")
    server.leaderboards.submit_score("daily", gus, 3)
    today = sdk.leaderboards.get("daily").leaderboard
    assert (today.period_starts_at, today.period_ends_at) == (MONDAY, MONDAY + timedelta(days=1))
    # Past Tuesday 00:00. Half a day runs every periodic job at each of its due times on the way, which
    # on a busy machine takes longer than the usual 10 s timeout.
    with ServerClient(ladder.keys["server"], base_url=ladder.base_url, timeout=120) as patient:
        patient.system.advance_clock(12 * 3600 + 1)
    past = until_sync(lambda: previous_page(sdk, "daily"), "the scheduler's rollover")
    assert past.leaderboard.period_id == today.period_id
    assert ranks(past.entries) == [(1, gus, 3)]
    tuesday = sdk.leaderboards.get("daily").leaderboard
    assert tuesday.period_starts_at == MONDAY + timedelta(days=1)
    assert sdk.leaderboards.get("daily").entries == []
