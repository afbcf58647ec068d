"""The live-event routes the server binds itself (docs/events.md): a start, which plays the core's handler
(:mod:`livecore.live_events.handlers`) with the country the request's headers or address resolve to; a
progress write; and a board's live stream. Both writes run beside their game's other writes holding their
player (docs/architecture.md, "Concurrency"), a progress write unless its window changes rows other
players share. The others' handlers are the core's."""

from __future__ import annotations

import contextlib

from aiohttp import web

from livecore.limits import ID
from livecore.live_events import api, handlers
from livecore.live_events.commands.live_events import LiveEventsTx
from livecore.live_events.commands.steps import shares_rows
from livecore_server.http.endpoint import API_KEY, RESPONSE_HEADERS, Binding, Call, Reply, bind, bind_stream
from livecore_server.live_events.streams import BOARD_HUBS
from livecore_server.players.sdk import client_country
from livecore_server.storage.concurrency import Concurrency
from livecore_server.storage.server_transaction import ServerTransaction

STREAM_HEADERS = {
    "Content-Type": "text/event-stream",
    "Cache-Control": "no-cache, no-transform",
    # A reverse proxy (nginx) would otherwise hold the events back in its buffer.
    "X-Accel-Buffering": "no",
}


def start(call: Call[api.StartAttemptRequest | None, None], tx: LiveEventsTx) -> api.AttemptResponse | Reply:
    country = client_country(call.headers, call.remote, call.services.config)
    return handlers.start(call, tx, country=country)


def progress(call: Call[api.ProgressRequest, None], tx: ServerTransaction) -> api.ProgressResponse:
    """The core's progress write. Its declaration read the event's settings from the manifest, but a window
    keeps the settings it opened with: the attempt's window has the last word on whether the write changes
    rows other players share (a team's score, a lobby, a shared leaderboard), and then holds its game
    alone. The attempt and its window were read ahead: this costs no round trip."""
    attempt_id = call.params["attemptId"]
    attempt = None if ID.problem(attempt_id) is not None else tx.attempts.get(call.scope.game_id, attempt_id)
    window = None if attempt is None else tx.windows.get(call.scope.game_id, attempt.window_id)
    if window is not None and shares_rows(call.rt, window.settings):
        tx.hold_game_alone()
    return handlers.progress(call, tx)


async def stream_board(call: Call[None, None], request: web.Request) -> web.StreamResponse:
    """``ready``, then a ``score_update`` per change, ``closed`` at finalize
    (livecore_server.live_events.streams);
    an unknown board is a 404 before the stream starts."""
    transport = request.transport
    key = request[API_KEY]
    slots = call.services.stream_slots
    slots.take(key, request.get(RESPONSE_HEADERS, {}))  # 429 beyond the key's open streams
    try:
        subscription = await call.services.of(BOARD_HUBS).subscribe(
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
    # A start changes its player's rows and adds its own; the rows other players' starts change too are
    # held as it reaches them (a window or segment board mentioned first: by its key; a lobby's seats: by
    # the segment's matchmaking, livecore_server.lobbies.sql).
    bind(api.SDK_START, start, concurrency=Concurrency.PLAYERS),
    bind(api.SDK_PROGRESS, progress, reads=handlers.progress_reads, concurrency=Concurrency.PLAYERS),
    bind_stream(api.SDK_BOARD_STREAM, stream_board),
]
