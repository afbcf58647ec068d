"""Event leaderboards through the real app, on SQLite and PostgreSQL: board order (desc and asc, equal
scores by who reached them first, one rank each), pages by ``limit``, ``cursor`` and ``around``, and
their refusals (tests/server/event_support.py has the game)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.server.event_support import SPRINT_OPENS, Arcade, error, start_event_world

PLAYERS = ("p1", "p2", "p3", "p4", "p5", "p6", "p7")
SCORES = (400, 700, 400, 100, 900, 250, 700)


@pytest.fixture
async def arcade(db_url: str) -> AsyncIterator[Arcade]:
    game = await start_event_world(db_url)
    try:
        yield game
    finally:
        await game.world.client.close()


async def ranked_board(g: Arcade) -> str:
    """Seven players on one sprint board, each score reached one second after the one before."""
    await g.register(*PLAYERS)
    for who in PLAYERS:
        await g.credit(who, "gems", 5)
    await g.advance_to(SPRINT_OPENS)
    board = ""
    for who, score in zip(PLAYERS, SCORES, strict=True):
        attempt = await g.started(who)
        board = attempt["leaderboardId"]
        await g.progressed(who, attempt["attemptId"], {"score": score})
        await g.advance(1)
    return board


# In board order: better score first, equal scores by who reached them first.
ORDER = [
    (1, "p5", 900),
    (2, "p2", 700),
    (3, "p7", 700),
    (4, "p1", 400),
    (5, "p3", 400),
    (6, "p6", 250),
    (7, "p4", 100),
]


async def test_a_board_ranks_better_scores_first_and_equal_scores_by_who_reached_them_first(
    arcade: Arcade,
) -> None:
    g = arcade
    board = await ranked_board(g)
    status, body, _ = await g.board(board)
    assert status == 200
    data = body["data"]
    assert [(e["rank"], e["externalPlayerId"], e["score"]) for e in data["entries"]] == ORDER
    assert data["nextCursor"] is None
    view = data["leaderboard"]
    assert (view["id"], view["eventKey"], view["status"], view["lobbyId"], view["segmentValues"]) == (
        board,
        "sprint",
        "open",
        None,
        {},
    )
    entry = data["entries"][0]
    assert set(entry) == {
        "rank",
        "externalPlayerId",
        "name",
        "avatar",
        "anonymizedName",
        "anonymizedAvatar",
        "country",
        "score",
        "updatedAt",
        "isBot",
    }
    assert entry["isBot"] is False and entry["name"]

    # A better score moves a player up; a worse one leaves the entry as it was.
    attempt = (await g.listed("p4", secret=g.secrets["p4"]))["sprint"]["attempts"][0]
    await g.progressed("p4", attempt["attemptId"], {"score": 800})
    await g.progressed("p4", attempt["attemptId"], {"score": 50})
    assert (await g.entries(board))[:3] == [(1, "p5", 900), (2, "p4", 800), (3, "p2", 700)]


async def test_an_asc_board_ranks_the_lowest_score_first(arcade: Arcade) -> None:
    g = arcade
    await g.register("ann", "bob", "cat")
    board = ""
    for who, strokes in (("ann", 72), ("bob", 68), ("cat", 80)):
        attempt = await g.started(who, "golf", context={"country": "GB"})
        board = attempt["leaderboardId"]
        await g.progressed(who, attempt["attemptId"], {"strokes": strokes}, event="golf")
    assert await g.entries(board) == [(1, "bob", 68), (2, "ann", 72), (3, "cat", 80)]


async def test_pages_follow_the_cursor_to_the_end(arcade: Arcade) -> None:
    g = arcade
    board = await ranked_board(g)
    seen = []
    query = "?limit=3"
    pages = 0
    while True:
        status, body, _ = await g.board(board, query)
        assert status == 200, body
        pages += 1
        seen += [(e["rank"], e["externalPlayerId"], e["score"]) for e in body["data"]["entries"]]
        cursor = body["data"]["nextCursor"]
        if cursor is None:
            break
        query = f"?limit=3&cursor={cursor}"
    assert (seen, pages) == (ORDER, 3)
    assert len(await g.entries(board, "?limit=1")) == 1
    status, body, _ = await g.board(board, "?limit=7")
    assert body["data"]["nextCursor"] is None


async def test_around_gives_the_entries_centred_on_the_player_as_far_as_the_board_allows(
    arcade: Arcade,
) -> None:
    g = arcade
    board = await ranked_board(g)
    assert await g.entries(board, "?around=p1&limit=3") == ORDER[2:5]
    assert await g.entries(board, "?around=p5&limit=3") == ORDER[0:3]  # the top: no room above
    assert await g.entries(board, "?around=p4&limit=4") == ORDER[3:7]  # the bottom
    assert await g.entries(board, "?around=p1") == ORDER
    # A player without an entry gets the top; an unknown one is a 404.
    await g.register("zed")
    assert await g.entries(board, "?around=zed&limit=2") == ORDER[:2]
    status, body, _ = await g.board(board, "?around=nobody")
    assert (status, error(body)) == (404, "player_not_found")


async def test_bad_limits_and_cursors_are_400_and_unknown_boards_404(arcade: Arcade) -> None:
    g = arcade
    board = await ranked_board(g)
    status, body, _ = await g.board(board, "?limit=2")
    cursor = body["data"]["nextCursor"]
    for query in (
        "?limit=0",
        "?limit=201",
        "?limit=ten",
        "?cursor=not-a-cursor",
        f"?cursor={cursor}&around=p1",
    ):
        status, body, _ = await g.board(board, query)
        assert (status, error(body)) == (400, "invalid_request"), query

    # A cursor of another board.
    await g.register("ann")
    other = (await g.started("ann", "golf"))["leaderboardId"]
    status, body, _ = await g.board(other, f"?cursor={cursor}")
    assert (status, error(body)) == (400, "invalid_request")

    # Unknown, malformed, another game's or another environment's board: 404.
    status, body, _ = await g.board("lb_unknown")
    assert (status, error(body)) == (404, "leaderboard_not_found")
    status, body, _ = await g.board("no such board")
    assert (status, error(body)) == (404, "leaderboard_not_found")
    status, body, _ = await g.board(board, key=g.world.keys["test-client"])  # space-race's client key
    assert (status, error(body)) == (404, "leaderboard_not_found")
    status, body, _ = await g.board(board, key=g.api_key("live-client"))
    assert (status, error(body)) == (404, "leaderboard_not_found")
