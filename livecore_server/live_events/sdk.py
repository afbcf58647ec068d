"""Client live-event routes: the events list, start and progress of attempts, event leaderboards and
their live stream (docs/events.md)."""

from __future__ import annotations

import contextlib

from aiohttp import web

from livecore.grants.api import GrantView
from livecore.live_events import api
from livecore.live_events.commands import boards
from livecore.live_events.commands import live_events as commands
from livecore.live_events.commands.live_events import LiveEventsTx
from livecore.live_events.commands.steps import Held
from livecore.players.rules import Player
from livecore_server.http.endpoint import (
    API_KEY,
    RESPONSE_HEADERS,
    AnyCall,
    Binding,
    Call,
    Reply,
    bind,
    bind_stream,
)
from livecore_server.players.sdk import client_country

STREAM_HEADERS = {
    "Content-Type": "text/event-stream",
    "Cache-Control": "no-cache, no-transform",
    # A reverse proxy (nginx) would otherwise hold the events back in its buffer.
    "X-Accel-Buffering": "no",
}


def _player(call: AnyCall) -> Player:
    assert call.player is not None  # player-scoped: authenticated before the handler runs
    return call.player


def list_events(call: Call[None, None], tx: LiveEventsTx) -> api.EventListResponse:
    listings = commands.list_events(tx, call.rt, call.scope, call.player)
    return api.EventListResponse(events=[api.EventView.of(listing) for listing in listings])


def start(call: Call[api.StartAttemptRequest | None, None], tx: LiveEventsTx) -> api.AttemptResponse | Reply:
    body = call.body or api.StartAttemptRequest()
    started = commands.start(
        tx,
        call.rt,
        call.scope,
        _player(call),
        call.params["eventKey"],
        body.player_context,
        country=client_country(call.headers, call.remote, call.services.config),
    )
    if isinstance(started, Held):
        return Reply(started.answer, 202)
    return api.AttemptResponse(attempt=api.AttemptView.of(started))


def progress(call: Call[api.ProgressRequest, None], tx: LiveEventsTx) -> api.ProgressResponse:
    attempt, granted = commands.record_progress(
        tx,
        call.rt,
        call.scope,
        _player(call),
        call.params["eventKey"],
        call.params["attemptId"],
        call.body.metrics,
        call.body.complete,
    )
    return api.ProgressResponse(
        attempt=api.AttemptView.of(attempt), milestones_granted=[GrantView.of(g) for g in granted]
    )


def read_board(call: Call[None, api.BoardQuery], tx: boards.ReadTx) -> api.BoardResponse:
    q = call.query
    page = boards.read_board(
        tx, call.rt, call.scope, call.params["leaderboardId"], limit=q.limit, cursor=q.cursor, around=q.around
    )
    return api.BoardResponse.of(page)


async def stream_board(call: Call[None, None], request: web.Request) -> web.StreamResponse:
    """``ready``, then a ``score_update`` per change, ``closed`` at finalize
    (livecore_server.live_events.streams);
    an unknown board is a 404 before the stream starts."""
    transport = request.transport
    key = request[API_KEY]
    slots = call.services.stream_slots
    slots.take(key, request.get(RESPONSE_HEADERS, {}))  # 429 beyond the key's open streams
    try:
        subscription = await call.services.streams.subscribe(
            call.scope,
            call.params["leaderboardId"],
            transport.abort if transport is not None else lambda: None,
        )
    except BaseException:
        slots.give_back(key)
        raise
    response = web.StreamResponse(headers={**request.get(RESPONSE_HEADERS, {}), **STREAM_HEADERS})
    try:
        await response.prepare(request)
        await subscription.run(response.write)
    except ConnectionError:
        pass  # the client went away (or was cut off): nothing is left to answer
    finally:
        subscription.close()
        slots.give_back(key)
    with contextlib.suppress(ConnectionError):
        await response.write_eof()
    return response


BINDINGS: list[Binding] = [
    bind(api.SDK_EVENTS, list_events),
    bind(api.SDK_START, start),
    bind(api.SDK_PROGRESS, progress),
    bind(api.SDK_BOARD, read_board),
    bind_stream(api.SDK_BOARD_STREAM, stream_board),
]
