"""Server live-event routes: the test environment's end-now (docs/events.md)."""

from __future__ import annotations

from livecore.live_events import api
from livecore.live_events.commands.live_events import LiveEventsTx, end_now
from livecore_server.http.endpoint import Binding, Call, bind


def end_event_now(call: Call[None, None], tx: LiveEventsTx) -> api.EndNowResponse:
    closed = end_now(tx, call.rt, call.scope, call.params["eventKey"])
    return api.EndNowResponse(closed_windows=closed)


BINDINGS: list[Binding] = [bind(api.SERVER_END_NOW, end_event_now)]
