"""Live-event methods against a real server on 127.0.0.1, on SQLite and PostgreSQL: proves the clients and
the server agree on the wire (the optional player secret of the events list, the start and progress
bodies, 201 on a start, the board's query, every refusal code and its class, the stream read as typed
events through to ``closed``, end-now), which the mocked tests cannot.

The module's game ``arena`` (platform-managed, gems to enter) has four events around the manual clock's
start (12:00): ``sprint`` open now and shared by most tests (never ended here), ``finale`` and ``relay``
open now and each ended by the one test that streams it, ``later`` scheduled, ``past`` ended, ``duo``
a lobby event of two seats open now, ``squad`` a studio team event open now (teams of 3, a team board,
milestone ``half`` at 200; ended by the last test of the module) and ``pair`` a partner team event open
now.
"""

from __future__ import annotations

import contextlib
import itertools
import secrets
from collections.abc import AsyncIterator, Callable, Iterator

import attrs
import httpx
import pytest

from livecore_client import (
    AlreadyOnTeamError,
    AntiCheatRejectedError,
    AsyncSdkClient,
    AsyncServerClient,
    AttemptInProgressError,
    AttemptNotFoundError,
    AttemptNotInProgressError,
    EventNotFoundError,
    EventNotOpenError,
    GiftNotFriendsError,
    IdempotencyConflictError,
    InsufficientEntryCostError,
    InvalidRequestError,
    InviteNotFoundError,
    InvitePendingError,
    LeaderboardNotFoundError,
    LobbyNotFoundError,
    LockedElsewhereError,
    MaxAttemptsReachedError,
    PermissionDeniedError,
    PlayerNotFoundError,
    PlayerSecretInvalidError,
    SdkClient,
    ServerClient,
    TeamNotFoundError,
)
from livecore_client.models import (
    AttemptResponse,
    AttemptStatus,
    BoardStatus,
    EventState,
    Formation,
    LobbyForming,
    LobbyStatus,
    PromotionReason,
    StreamClosed,
    StreamReady,
    StreamScoreUpdate,
)
from tests.client.live_support import LiveGame, serve_game
from tests.conftest import BACKENDS, START

LIMITS = "rate_limits = { sdk_read = 100000, sdk_write = 100000, server_api = 100000 }"
COINS = '{ type = "currency", key = "coins", amount = 10 }'


def _event(key: str, starts_at: str, **extra: str) -> str:
    lines = "\n".join(f"{name} = {value}" for name, value in extra.items())
    return f"""
[games.arena.events.{key}]
name = "{key.title()}"
starts_at = "{starts_at}"
window_seconds = 3600
attempt_seconds = 600
score_metric = "score"
{lines}
"""


GAMES = f"""
[games.arena]
name = "Arena"
economy = "platform"

[games.arena.resources.coins]
type = "currency"

[games.arena.resources.gems]
type = "currency"

{
    _event(
        "sprint",
        "2026-03-02T12:00:00Z",
        repeat_every_seconds="86400",
        max_attempts="2",
        target="1000",
        entry_cost='[{ type = "currency", key = "gems", amount = 5 }]',
        completion_rewards=f"[{COINS}]",
    )
}
[[games.arena.events.sprint.milestones]]
key = "bronze"
threshold = 100
rewards = [{COINS}]

[[games.arena.events.sprint.anti_cheat]]
key = "score-cap"
kind = "max_value"
metric = "score"
limit = 5000
verdict = "reject"

[[games.arena.events.sprint.anti_cheat]]
key = "lap-rate"
kind = "max_rate"
metric = "laps"
limit = 10
verdict = "flag"
{_event("finale", "2026-03-02T11:30:00Z", order='"asc"')}
[[games.arena.events.finale.rank_rewards]]
from = 1
to = 1
rewards = [{COINS}]
{_event("relay", "2026-03-02T11:45:00Z")}
{_event("duo", "2026-03-02T12:00:00Z")}
[games.arena.events.duo.lobby]
capacity = 2
fill_seconds = 60
{_event("squad", "2026-03-02T12:00:00Z")}
[games.arena.events.squad.teams]
formation = "external"
size = 3
goal = 1000
board = true
milestones = [{{ key = "half", threshold = 200, rewards = [{COINS}] }}]
rank_rewards = [{{ from = 1, to = 1, rewards = [{COINS}] }}]
{_event("pair", "2026-03-02T12:00:00Z")}
[games.arena.events.pair.teams]
formation = "partner"
size = 2
{_event("later", "2026-03-05T12:00:00Z")}
{_event("past", "2026-02-01T12:00:00Z")}
[games.arena.api_keys.client]
env = "test"
permission = "client_sdk"
{LIMITS}

[games.arena.api_keys.server]
env = "test"
permission = "server_integration"
{LIMITS}

[games.arena.api_keys.live-server]
env = "live"
permission = "server_integration"
{LIMITS}
"""


Arena = LiveGame


@pytest.fixture(scope="module", params=BACKENDS)
def arena(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Arena]:
    """This module's game served on each store in turn."""
    yield from serve_game(request, tmp_path_factory, GAMES, "arena")


_ids = itertools.count()


@attrs.define
class Member:
    """A registered player with its own client (its secret set on it)."""

    id: str
    sdk: SdkClient


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10) as client:
        yield client


@pytest.fixture
def server(arena: Arena, http: httpx.Client) -> Iterator[ServerClient]:
    with ServerClient(arena.keys["server"], base_url=arena.base_url, http_client=http) as client:
        yield client


@pytest.fixture
def join(arena: Arena, http: httpx.Client, server: ServerClient) -> Iterator[Callable[..., Member]]:
    """``join(name, gems=10)``: a fresh registered player of ``arena``, given ``gems`` by the backend."""
    opened: list[SdkClient] = []

    def make(name: str, gems: int = 10) -> Member:
        external_id = f"ev-{next(_ids)}-{secrets.token_hex(2)}"
        sdk = SdkClient(arena.keys["client"], base_url=arena.base_url, http_client=http)
        opened.append(sdk)
        sdk.player_secret = sdk.players.register(external_id).player_secret
        sdk.players.set_identity(external_id, name=name)
        if gems:
            server.wallet.credit(external_id, "gems", gems)
        return Member(external_id, sdk)

    yield make
    for sdk in opened:
        sdk.close()


def gems(member: Member) -> int:
    [balance] = [c.balance for c in member.sdk.wallet.get(member.id).currencies if c.key == "gems"]
    return balance


# --- The events list ------------------------------------------------------------------------------------


def test_events_list_with_and_without_the_secret(join: Callable[..., Member]) -> None:
    ada = join("Ada")
    anonymous = {e.key: e for e in ada.sdk.live_events.list(ada.id, with_attempts=False).events}
    assert list(anonymous) == [
        "duo",
        "finale",
        "later",
        "pair",
        "past",
        "relay",
        "sprint",
        "squad",
    ]  # key order
    assert anonymous["duo"].lobby and not anonymous["sprint"].lobby
    sprint = anonymous["sprint"]
    assert (sprint.state, sprint.max_attempts, sprint.target, sprint.attempts) == (
        EventState.OPEN,
        2,
        1000,
        None,
    )
    assert sprint.window is not None and sprint.window.starts_at == START
    assert sprint.id.startswith("ev_") and sprint.window.id.startswith("win_")
    assert [(c.key, c.amount) for c in sprint.entry_cost] == [("gems", 5)]
    later, past = anonymous["later"], anonymous["past"]
    assert (later.state, later.window, later.next_window_starts_at) == (
        EventState.SCHEDULED,
        None,
        START.replace(day=5),
    )
    assert (past.state, past.window, past.next_window_starts_at, past.entry_cost) == (
        EventState.ENDED,
        None,
        None,
        [],
    )

    mine = {e.key: e for e in ada.sdk.live_events.list(ada.id).events}
    assert mine["sprint"].attempts == []
    attempt = ada.sdk.live_events.start_attempt(ada.id, "sprint").attempt
    mine = {e.key: e for e in ada.sdk.live_events.list(ada.id).events}
    assert [a.attempt_id for a in mine["sprint"].attempts or []] == [attempt.attempt_id]
    assert mine["later"].attempts == []

    with pytest.raises(PlayerSecretInvalidError):
        ada.sdk.live_events.list(ada.id, player_secret="ps_" + "x" * 43)


# --- Start, progress, board -----------------------------------------------------------------------------


def test_a_paid_attempt_from_start_to_completion(join: Callable[..., Member], http: httpx.Client) -> None:
    bo = join("Bo", gems=10)
    attempt = bo.sdk.live_events.start_attempt(bo.id, "sprint", player_context={"country": "SE"}).attempt
    assert (attempt.status, attempt.score, attempt.attempt_count, attempt.event_key) == (
        AttemptStatus.IN_PROGRESS,
        None,
        1,
        "sprint",
    )
    assert attempt.attempt_id.startswith("att_") and attempt.leaderboard_id.startswith("lb_")
    assert attempt.ends_at == attempt.started_at.replace(minute=10)
    assert gems(bo) == 5

    # Crossing the milestone grants it at once; a lap count too fast for the time is applied, flagged.
    done = bo.sdk.live_events.report_progress(bo.id, "sprint", attempt.attempt_id, {"score": 150, "laps": 40})
    assert (done.attempt.score, done.attempt.metrics, done.attempt.milestones, done.attempt.flagged) == (
        150,
        {"score": 150, "laps": 40},
        ["bronze"],
        True,
    )
    [grant] = done.milestones_granted
    assert (grant.source_kind, grant.source_ref_id, grant.metadata["milestoneKey"]) == (
        "event_milestone",
        attempt.attempt_id,
        "bronze",
    )
    # A worse score is kept in metrics but never lowers the attempt's best.
    lower = bo.sdk.live_events.report_progress(bo.id, "sprint", attempt.attempt_id, {"score": 120}).attempt
    assert (lower.score, lower.metrics["score"], lower.metrics["laps"]) == (150, 120, 40)

    finished = bo.sdk.live_events.report_progress(
        bo.id, "sprint", attempt.attempt_id, {"score": 160}, complete=True
    ).attempt
    assert (finished.status, finished.completed_at is not None) == (AttemptStatus.COMPLETED, True)
    pending = bo.sdk.grants.pending(bo.id).grants
    assert sorted(g.source_kind for g in pending) == ["event_completion", "event_milestone"]

    # The same start key answers the same attempt and pays nothing again.
    again = bo.sdk.live_events.start_attempt(bo.id, "sprint", idempotency_key="bo-second")
    replay = bo.sdk.live_events.start_attempt(bo.id, "sprint", idempotency_key="bo-second")
    assert replay.attempt.attempt_id == again.attempt.attempt_id
    assert again.attempt.attempt_count == 2
    assert gems(bo) == 0


def test_board_pages_cursor_and_around(join: Callable[..., Member], server: ServerClient) -> None:
    players = [join(name) for name in ("Cy", "Dee", "Eli", "Fox")]
    board_id = ""
    for score, member in zip((300, 500, 400, 500), players, strict=True):
        attempt = member.sdk.live_events.start_attempt(member.id, "relay").attempt
        board_id = attempt.leaderboard_id
        member.sdk.live_events.report_progress(member.id, "relay", attempt.attempt_id, {"score": score})
        server.system.advance_clock(1)  # the manual clock: each score reached a second after the one before
    sdk = players[0].sdk

    page = sdk.live_events.leaderboard(board_id)
    # Dee reached 500 before Fox: equal scores keep the order they were reached in.
    assert [(e.rank, e.name, e.score) for e in page.entries] == [
        (1, "Dee", 500),
        (2, "Fox", 500),
        (3, "Eli", 400),
        (4, "Cy", 300),
    ]
    assert (page.leaderboard.status, page.leaderboard.event_key, page.next_cursor) == (
        BoardStatus.OPEN,
        "relay",
        None,
    )

    first = sdk.live_events.leaderboard(board_id, limit=3)
    assert [e.rank for e in first.entries] == [1, 2, 3] and first.next_cursor is not None
    rest = sdk.live_events.leaderboard(board_id, limit=3, cursor=first.next_cursor)
    assert ([(e.rank, e.name) for e in rest.entries], rest.next_cursor) == ([(4, "Cy")], None)

    # around: centred on the player, as far as the board's ends allow.
    around = sdk.live_events.leaderboard(board_id, limit=3, around=players[2].id)
    assert [(e.rank, e.name) for e in around.entries] == [(2, "Fox"), (3, "Eli"), (4, "Cy")]
    top = sdk.live_events.leaderboard(board_id, limit=3, around=players[1].id)
    assert [e.name for e in top.entries] == ["Dee", "Fox", "Eli"]
    with pytest.raises(PlayerNotFoundError):
        sdk.live_events.leaderboard(board_id, around="nobody-at-all")
    with pytest.raises(InvalidRequestError):
        sdk.live_events.leaderboard(board_id, cursor="not-a-cursor")
    with pytest.raises(LeaderboardNotFoundError):
        sdk.live_events.leaderboard("lb_" + "0" * 32)


# --- Refusals, one class per code ----------------------------------------------------------------------


def test_start_refusals(join: Callable[..., Member]) -> None:
    poor, cy = join("Poor", gems=0), join("Cy", gems=20)
    with pytest.raises(EventNotFoundError):
        cy.sdk.live_events.start_attempt(cy.id, "nope")
    with pytest.raises(EventNotOpenError):
        cy.sdk.live_events.start_attempt(cy.id, "later")
    with pytest.raises(InsufficientEntryCostError) as cost:
        poor.sdk.live_events.start_attempt(poor.id, "sprint")
    assert cost.value.details is not None and cost.value.details["needed"] == 5

    first = cy.sdk.live_events.start_attempt(cy.id, "sprint").attempt
    with pytest.raises(AttemptInProgressError) as busy:
        cy.sdk.live_events.start_attempt(cy.id, "sprint")
    assert busy.value.attempt_id == first.attempt_id
    cy.sdk.live_events.report_progress(cy.id, "sprint", first.attempt_id, {"score": 1}, complete=True)
    second = cy.sdk.live_events.start_attempt(cy.id, "sprint").attempt
    cy.sdk.live_events.report_progress(cy.id, "sprint", second.attempt_id, {"score": 2}, complete=True)
    with pytest.raises(MaxAttemptsReachedError):
        cy.sdk.live_events.start_attempt(cy.id, "sprint")


def test_progress_refusals(join: Callable[..., Member]) -> None:
    dee, eli = join("Dee"), join("Eli")
    attempt = dee.sdk.live_events.start_attempt(dee.id, "sprint").attempt
    with pytest.raises(AttemptNotFoundError):  # another player's attempt
        eli.sdk.live_events.report_progress(eli.id, "sprint", attempt.attempt_id, {"score": 1})
    with pytest.raises(InvalidRequestError) as unknown:
        dee.sdk.live_events.report_progress(dee.id, "sprint", attempt.attempt_id, {"speed": 1})
    assert "metrics.speed" in (unknown.value.details or {}).get("fields", {})
    with pytest.raises(AntiCheatRejectedError) as cheat:
        dee.sdk.live_events.report_progress(dee.id, "sprint", attempt.attempt_id, {"score": 9000})
    assert cheat.value.validator == "score-cap"
    assert dee.sdk.live_events.report_progress(
        dee.id, "sprint", attempt.attempt_id, {"score": 1000}
    ).attempt.status is (
        AttemptStatus.COMPLETED  # the target completes it
    )
    with pytest.raises(AttemptNotInProgressError):
        dee.sdk.live_events.report_progress(dee.id, "sprint", attempt.attempt_id, {"score": 1})


def test_end_now_refusals(server: ServerClient, arena: Arena, http: httpx.Client) -> None:
    assert server.live_events.end_now("later").closed_windows == []
    with pytest.raises(EventNotFoundError):
        server.live_events.end_now("nope")
    live = ServerClient(arena.keys["live-server"], base_url=arena.base_url, http_client=http)
    with live, pytest.raises(PermissionDeniedError):
        live.live_events.end_now("sprint")


# --- The stream -----------------------------------------------------------------------------------------


def test_stream_from_ready_to_closed(join: Callable[..., Member], server: ServerClient, arena: Arena) -> None:
    fast, slow = join("Fast"), join("Slow")
    attempts = {m.id: m.sdk.live_events.start_attempt(m.id, "finale").attempt for m in (fast, slow)}
    board_id = attempts[fast.id].leaderboard_id
    slow.sdk.live_events.report_progress(slow.id, "finale", attempts[slow.id].attempt_id, {"score": 90.5})

    with (
        SdkClient(arena.keys["client"], base_url=arena.base_url) as watcher,
        contextlib.closing(watcher.live_events.stream_leaderboard(board_id)) as events,
    ):
        ready = next(events)
        assert isinstance(ready, StreamReady)
        assert [(e.name, e.score) for e in ready.entries] == [("Slow", 90.5)]

        # finale is "asc": a lower time is better, so Fast takes rank 1.
        fast.sdk.live_events.report_progress(fast.id, "finale", attempts[fast.id].attempt_id, {"score": 61})
        update = next(events)
        assert isinstance(update, StreamScoreUpdate)
        assert (update.entry.name, update.entry.rank, update.entry.score) == ("Fast", 1, 61)
        assert update.version > ready.version

        assert len(server.live_events.end_now("finale").closed_windows) == 1
        closed = next(events)
        assert closed == StreamClosed(leaderboard_id=board_id, reason="finalized")
        assert next(events, None) is None  # the iteration ends with closed

    final = fast.sdk.live_events.leaderboard(board_id)
    assert final.leaderboard.status is BoardStatus.FINALIZED
    assert [e.name for e in final.entries] == ["Fast", "Slow"]
    assert [g.source_kind for g in fast.sdk.grants.pending(fast.id).grants] == ["event_rank"]
    assert slow.sdk.grants.pending(slow.id).grants == []
    with pytest.raises(EventNotOpenError):
        fast.sdk.live_events.start_attempt(fast.id, "finale")  # the rest of the ended window takes no start

    # A finalized board's stream: ready, then closed at once.
    replay = list(fast.sdk.live_events.stream_leaderboard(board_id))
    assert [type(e) for e in replay] == [StreamReady, StreamClosed]
    assert isinstance(replay[0], StreamReady) and [e.name for e in replay[0].entries] == ["Fast", "Slow"]
    with pytest.raises(LeaderboardNotFoundError):
        next(fast.sdk.live_events.stream_leaderboard("lb_" + "0" * 32))


@pytest.fixture
async def async_clients(arena: Arena) -> AsyncIterator[tuple[AsyncSdkClient, AsyncServerClient]]:
    async with (
        AsyncSdkClient(arena.keys["client"], base_url=arena.base_url) as sdk,
        AsyncServerClient(arena.keys["server"], base_url=arena.base_url) as server,
    ):
        yield sdk, server


async def test_async_stream_and_calls(async_clients: tuple[AsyncSdkClient, AsyncServerClient]) -> None:
    sdk, server = async_clients
    external_id = f"ev-async-{secrets.token_hex(3)}"
    sdk.player_secret = (await sdk.players.register(external_id)).player_secret
    await server.wallet.credit(external_id, "gems", 5)
    [sprint] = [e for e in (await sdk.live_events.list(external_id)).events if e.key == "sprint"]
    attempt = (await sdk.live_events.start_attempt(external_id, sprint.key)).attempt

    async with contextlib.aclosing(sdk.live_events.stream_leaderboard(attempt.leaderboard_id)) as events:
        ready = await anext(events)
        assert isinstance(ready, StreamReady)
        done = await sdk.live_events.report_progress(
            external_id, sprint.key, attempt.attempt_id, {"score": 4321.5}
        )
        assert done.attempt.score == 4321.5
        async for event in events:
            if isinstance(event, StreamScoreUpdate) and event.entry.external_player_id == external_id:
                assert (event.entry.score, event.version > ready.version) == (4321.5, True)
                break
    page = await sdk.live_events.leaderboard(attempt.leaderboard_id, around=external_id, limit=1)
    assert [e.external_player_id for e in page.entries] == [external_id]
    assert (await server.live_events.end_now("later")).closed_windows == []


# --- Lobbies --------------------------------------------------------------------------------------------


def test_a_lobby_forms_then_starts_and_reads_alike_on_both_clients(
    arena: Arena, join: Callable[..., Member], server: ServerClient
) -> None:
    ada, bo = join("Ada"), join("Bo")
    forming = ada.sdk.live_events.start_attempt(ada.id, "duo")
    assert isinstance(forming, LobbyForming)
    assert (forming.participant_count, forming.capacity) == (1, 2)
    assert forming.fill_by is not None and forming.fill_by > START
    assert isinstance(
        ada.sdk.live_events.start_attempt(ada.id, "duo"), LobbyForming
    )  # again: nothing changes
    started = bo.sdk.live_events.start_attempt(bo.id, "duo")
    assert isinstance(started, AttemptResponse) and started.attempt.lobby_id == forming.lobby_id
    lobby = ada.sdk.lobbies.get(forming.lobby_id).lobby
    assert (lobby.status, lobby.promotion_reason, lobby.participant_count) == (
        LobbyStatus.ACTIVE,
        PromotionReason.CAPACITY,
        2,
    )
    assert [p.external_player_id for p in lobby.participants] == [ada.id, bo.id]
    assert lobby.leaderboard_id == started.attempt.leaderboard_id
    assert server.lobbies.get(arena.game_id, forming.lobby_id).lobby == lobby
    with pytest.raises(LobbyNotFoundError):
        ada.sdk.lobbies.get("lob_" + "0" * 32)


def test_a_pushed_lobby_is_active_at_once_and_its_replay_answers_it_again(
    arena: Arena, join: Callable[..., Member], server: ServerClient
) -> None:
    cy, dee = join("Cy"), join("Dee")
    key = f"match-{secrets.token_hex(4)}"
    pushed = server.lobbies.push(arena.game_id, "duo", key, [dee.id, cy.id], metadata={"region": "eu"}).lobby
    assert (pushed.status, pushed.promotion_reason, pushed.metadata) == (
        LobbyStatus.ACTIVE,
        PromotionReason.EXTERNAL_PUSH,
        {"region": "eu"},
    )
    assert [p.external_player_id for p in pushed.participants] == [dee.id, cy.id]
    assert server.lobbies.push(arena.game_id, "duo", key, [dee.id, cy.id]).lobby == pushed
    with pytest.raises(IdempotencyConflictError):
        server.lobbies.push(arena.game_id, "duo", key, [cy.id])
    attempt = cy.sdk.live_events.start_attempt(cy.id, "duo")
    assert isinstance(attempt, AttemptResponse) and attempt.attempt.lobby_id == pushed.lobby_id


# --- Teams and partners ---------------------------------------------------------------------------------


def _team_key() -> str:
    return f"team-{secrets.token_hex(4)}"


def _play(member: Member, event: str, score: float) -> None:
    attempt = member.sdk.live_events.start_attempt(member.id, event)
    assert isinstance(attempt, AttemptResponse)
    member.sdk.live_events.report_progress(member.id, event, attempt.attempt.attempt_id, {"score": score})


def _befriend(a: Member, b: Member) -> None:
    a.sdk.friends.send_request(a.id, external_player_id=b.id)
    b.sdk.friends.send_request(b.id, external_player_id=a.id)  # the other way round: accepted at once


def test_a_studio_team_through_the_sync_clients(join: Callable[..., Member], server: ServerClient) -> None:
    ada, bo, cy = join("Ada"), join("Bo"), join("Cy")
    key = _team_key()
    team = server.teams.put_roster("squad", key, [ada.id, bo.id], name="Red", attributes={"tag": 1}).team
    assert (team.key, team.name, team.formation, team.score, team.goal, team.attributes) == (
        key,
        "Red",
        Formation.EXTERNAL,
        0,
        1000,
        {"tag": 1},
    )
    assert team.team_id.startswith("team_") and team.window_id.startswith("win_")
    assert (
        server.teams.get("squad", key).team
        == team
        == server.teams.get("squad", key, window_id=team.window_id).team
    )

    _play(ada, "squad", 150)
    _play(bo, "squad", 80)  # 230: crosses the team milestone, paying both seated members
    mine = ada.sdk.teams.mine(ada.id, "squad").team
    assert mine is not None and mine.score == 230
    assert [(m.external_player_id, m.contribution, m.rank) for m in mine.members] == [
        (ada.id, 150, 1),
        (bo.id, 80, 2),
    ]
    for member in (ada, bo):
        grants = member.sdk.grants.pending(member.id).grants
        assert [(g.source_kind, g.source_ref_id) for g in grants] == [("event_team_milestone", team.team_id)]

    kicked = server.teams.put_roster("squad", key, [ada.id, cy.id]).team
    assert [m.external_player_id for m in kicked.members] == [ada.id, cy.id]
    assert kicked.score == 230  # bo's contribution stays (keep_contribution)
    assert bo.sdk.teams.mine(bo.id, "squad").team is None
    with pytest.raises(LockedElsewhereError) as locked:
        server.teams.put_roster("squad", _team_key(), [bo.id, ada.id])
    assert locked.value.external_player_ids == [ada.id]
    with pytest.raises(TeamNotFoundError):
        server.teams.get("squad", _team_key())
    with pytest.raises(PlayerNotFoundError):
        server.teams.put_roster("squad", key, ["never-registered"])
    with pytest.raises(InvalidRequestError):
        server.teams.put_roster("pair", key, [ada.id])  # partner teams take no roster


def test_partners_through_the_sync_client(join: Callable[..., Member]) -> None:
    ada, bo, cy = join("Ada"), join("Bo"), join("Cy")
    _befriend(ada, bo)
    with pytest.raises(GiftNotFriendsError):
        ada.sdk.teams.invite_partner(ada.id, "pair", cy.id)
    with pytest.raises(InvalidRequestError):
        ada.sdk.teams.invite_partner(ada.id, "pair", ada.id)
    invite = ada.sdk.teams.invite_partner(ada.id, "pair", bo.id).invite
    assert (invite.from_external_player_id, invite.to_external_player_id) == (ada.id, bo.id)
    assert invite.expires_at >= START.replace(day=3)  # 24 hours after it was sent
    with pytest.raises(InvitePendingError):
        bo.sdk.teams.invite_partner(bo.id, "pair", ada.id)
    with pytest.raises(InviteNotFoundError):
        ada.sdk.teams.accept_invite(ada.id, "pair", invite.invite_id)
    team = bo.sdk.teams.accept_invite(bo.id, "pair", invite.invite_id).team
    assert (team.key, team.formation) == (invite.invite_id, Formation.PARTNER)
    assert sorted(m.external_player_id for m in team.members) == sorted([ada.id, bo.id])
    assert ada.sdk.teams.mine(ada.id, "pair").team == team
    with pytest.raises(AlreadyOnTeamError):
        bo.sdk.teams.accept_invite(bo.id, "pair", invite.invite_id)


async def test_async_team_calls(
    async_clients: tuple[AsyncSdkClient, AsyncServerClient], join: Callable[..., Member]
) -> None:
    sdk, server = async_clients
    ada, bo = join("Ada"), join("Bo")
    _befriend(ada, bo)
    key = _team_key()
    team = (await server.teams.put_roster("squad", key, [ada.id], idempotency_key=f"{key}-1")).team
    assert (await server.teams.put_roster("squad", key, [ada.id], idempotency_key=f"{key}-1")).team == team
    assert (await server.teams.get("squad", key)).team == team
    assert (await sdk.teams.mine(ada.id, "squad", player_secret=ada.sdk.player_secret)).team == team
    assert (await sdk.teams.mine(bo.id, "squad", player_secret=bo.sdk.player_secret)).team is None

    invite = (
        await sdk.teams.invite_partner(ada.id, "pair", bo.id, player_secret=ada.sdk.player_secret)
    ).invite
    pair = (
        await sdk.teams.accept_invite(bo.id, "pair", invite.invite_id, player_secret=bo.sdk.player_secret)
    ).team
    assert (await server.teams.get("pair", invite.invite_id)).team == pair
    assert (await sdk.teams.mine(ada.id, "pair", player_secret=ada.sdk.player_secret)).team == pair


def test_the_close_ranks_the_team_board_and_pays_rank_one(
    join: Callable[..., Member], server: ServerClient
) -> None:
    """The module's last test: it ends ``squad``."""
    ada, bo = join("Ada"), join("Bo")
    key = _team_key()
    team = server.teams.put_roster("squad", key, [ada.id, bo.id]).team
    _play(ada, "squad", 990)  # above every other team of the window
    [closed] = server.live_events.end_now("squad").closed_windows
    assert closed == team.window_id
    final = server.teams.get("squad", key, window_id=team.window_id).team
    assert (final.final_rank, final.score) == (1, 990)
    for member in (ada, bo):
        kinds = sorted(g.source_kind for g in member.sdk.grants.pending(member.id).grants)
        assert kinds == ["event_team_milestone", "event_team_rank"]
