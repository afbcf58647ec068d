"""The live-event routes' handlers: the events list, start and progress of attempts and a page of an
event board (the player's and the client key's), and the test environment's end-now (the studio's).
docs/events.md; and the operators' force-complete and retry of an attempt's reward roll
(:mod:`livecore.live_events.admin`). A board's live stream is the server's
(:mod:`livecore_server.live_events.sdk`)."""

from __future__ import annotations

from livecore.api.admin import AdminRequest, Audited, EnvQuery, member_of
from livecore.api.request import Handler, Reply, Request
from livecore.api.route import Route
from livecore.commands.reads import Reads
from livecore.grants.api import GrantView
from livecore.limits import ID
from livecore.live_events import admin, api
from livecore.live_events.commands import boards
from livecore.live_events.commands import live_events as commands
from livecore.live_events.commands.live_events import LiveEventsTx
from livecore.live_events.commands.steps import Held, shares_rows
from livecore.live_events.reads import ProgressReads
from livecore.live_events.settings import EVENT_SETTINGS
from livecore.players.actor import player_of, sent_player


def list_events(request: Request[None, None], tx: LiveEventsTx) -> api.EventListResponse:
    listings = commands.list_events(tx, request.rt, request.scope, sent_player(request))
    return api.EventListResponse(events=[api.EventView.of(listing) for listing in listings])


def start(
    request: Request[api.StartAttemptRequest | None, None], tx: LiveEventsTx, country: str | None = None
) -> api.AttemptResponse | Reply:
    """``country``: the one the request's headers or address resolve to, which only the server knows
    (:mod:`livecore_server.live_events.sdk` passes it); an embedded call has none."""
    body = request.body or api.StartAttemptRequest()
    started = commands.start(
        tx,
        request.rt,
        request.scope,
        player_of(request),
        request.params["eventKey"],
        body.player_context,
        country=country,
    )
    if isinstance(started, Held):
        return Reply(started.answer, 202)
    return api.AttemptResponse(attempt=api.AttemptView.of(started))


def progress(request: Request[api.ProgressRequest, None], tx: LiveEventsTx) -> api.ProgressResponse:
    attempt, granted = commands.record_progress(
        tx,
        request.rt,
        request.scope,
        player_of(request),
        request.params["eventKey"],
        request.params["attemptId"],
        request.body.metrics,
        request.body.complete,
    )
    return api.ProgressResponse(
        attempt=api.AttemptView.of(attempt), milestones_granted=[GrantView.of(g) for g in granted]
    )


def progress_reads(request: Request[api.ProgressRequest, None], tx: LiveEventsTx) -> Reads:
    """The attempt, its window, board and entry; and whether the write changes rows other players share
    (its game held alone), as the event's settings in the manifest say (an unknown event: as if it did)."""
    attempt_id = request.params["attemptId"]
    # A malformed id names no attempt: the write answers its 404 without reading (and a NUL never reaches
    # PostgreSQL's text).
    if ID.problem(attempt_id) is not None:
        return Reads()
    game = tx.games.get(request.scope.game_id)
    event = None if game is None else game.settings.of(EVENT_SETTINGS).get(request.params["eventKey"])
    alone = event is None or shares_rows(request.rt, event)
    return Reads(areas=(ProgressReads(request.scope.game_id, attempt_id),), alone=alone)


def read_board(request: Request[None, api.BoardQuery], tx: boards.ReadTx) -> api.BoardResponse:
    q = request.query
    page = boards.read_board(
        tx,
        request.rt,
        request.scope,
        request.params["leaderboardId"],
        limit=q.limit,
        cursor=q.cursor,
        around=q.around,
    )
    return api.BoardResponse.of(page)


def end_now(request: Request[None, None], tx: LiveEventsTx) -> api.EndNowResponse:
    closed = commands.end_now(tx, request.rt, request.scope, request.params["eventKey"])
    return api.EndNowResponse(closed_windows=closed)


# --- the operators' actions on attempts (livecore.live_events.admin) ----------------------------------------


def force_complete(
    request: AdminRequest[admin.ForceCompleteRequest, EnvQuery], tx: LiveEventsTx
) -> Audited[admin.AttemptResponse]:
    attempt_id = request.params["attemptId"]
    before = tx.attempts.get(request.scope.game_id, attempt_id)
    done = commands.force_complete(
        tx,
        request.rt,
        request.scope,
        attempt_id,
        score=request.body.score,
        actor_member_id=member_of(request).member_id,
        reason=request.body.reason,
    )
    return Audited(
        admin.AttemptResponse(attempt=api.AttemptView.of(done, request.rt.clock.now())),
        f"attempt:{attempt_id}",
        metadata={"reason": request.body.reason, "milestones": list(done.milestones)},
        before={"status": before.status.value, "score": before.score} if before else None,
        after={"status": done.status.value, "score": done.score},
    )


def retry_reward_roll(
    request: AdminRequest[None, EnvQuery], tx: LiveEventsTx
) -> Audited[admin.RetryRewardRollResponse]:
    attempt_id = request.params["attemptId"]
    grants = commands.retry_reward_roll(tx, request.rt, request.scope, attempt_id)
    now = request.rt.clock.now()
    return Audited(
        admin.RetryRewardRollResponse(grants=[GrantView.of(g, now) for g in grants]),
        f"attempt:{attempt_id}",
        metadata={"grantCount": len(grants), "grantIds": [g.id for g in grants]},
    )


HANDLERS: dict[Route, Handler] = {
    api.SDK_EVENTS: list_events,
    api.SDK_START: start,
    api.SDK_PROGRESS: progress,
    api.SDK_BOARD: read_board,
    api.SERVER_END_NOW: end_now,
    admin.FORCE_COMPLETE: force_complete,
    admin.RETRY_REWARD_ROLL: retry_reward_roll,
}
