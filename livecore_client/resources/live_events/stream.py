"""The live stream of an event leaderboard (docs/events.md#the-live-stream), read into typed events.

The wire: ``text/event-stream``. Each event has a name (``event:``), an ``id:`` (the board's version) and
one JSON ``data:`` object; lines starting with ``:`` are heartbeats. ``ready`` comes first, then one
``score_update`` per change of the board, and ``closed`` last, after which the service ends the stream.

:class:`SseDecoder` is the event-stream format's parser (the HTML standard's rules: ``data:`` lines joined
by newlines, one space after the colon dropped, comments ignored, the last ``id`` kept until a new one),
pure and fed line by line; :func:`stream_event` reads one decoded event as the model the route declares
for its name (``SDK_BOARD_STREAM.stream``: :class:`~livecore.live_events.api.StreamReady`,
``StreamScoreUpdate``, ``StreamClosed``), so the client and the service share the classes as for every
other answer. The ``iter_stream_*`` pair opens the stream
through the client's retry loop (a refused or failed opening is retried like any read) and reads it until
``closed``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import NoReturn

import attrs
import cattrs
import httpx
import orjson

from livecore.api.convert import response_converter
from livecore.live_events.api import SDK_BOARD_STREAM, StreamClosed, StreamReady, StreamScoreUpdate

from ..._transport import (
    PreparedRequest,
    RetryPolicy,
    connection_error,
    parse_response,
    retry_async,
    retry_sync,
    with_read_timeout,
)
from ...errors import APIConnectionError, APIResponseValidationError

__all__ = [
    "STREAM_EVENTS",
    "ServerSentEvent",
    "SseDecoder",
    "StreamEvent",
    "iter_stream_async",
    "iter_stream_sync",
    "stream_event",
]

StreamEvent = StreamReady | StreamScoreUpdate | StreamClosed

#: The model of each event name, as the route declares them; an event of another name is skipped (a
#: newer service may add some).
STREAM_EVENTS: dict[str, type[StreamEvent]] = dict(SDK_BOARD_STREAM.stream)

# The service sends a heartbeat every 15 s, so a read that waited three times as long lost its connection.
STREAM_READ_TIMEOUT = 45.0

_MEDIA_TYPE = "text/event-stream"


@attrs.frozen
class ServerSentEvent:
    """One event as the format delivers it: ``event`` is ``"message"`` when the server named none, ``id``
    the last id the stream set (``None`` before any)."""

    event: str
    data: str
    id: str | None = None


class SseDecoder:
    """Feed it the stream's lines (without their line endings) in order; it answers each complete event.

    ``retry`` is the reconnection delay in milliseconds the server asked for, if any; ``last_event_id``
    the last id it set, which a new connection may send as ``Last-Event-ID``.
    """

    def __init__(self) -> None:
        self._name = ""
        self._data: list[str] = []
        self._started = False
        self.last_event_id: str | None = None
        self.retry: int | None = None

    def feed(self, line: str) -> ServerSentEvent | None:
        if not self._started:
            self._started = True
            line = line.removeprefix("\ufeff")  # a byte-order mark may open the stream
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            return None  # a comment: the heartbeat
        field, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if field == "event":
            self._name = value
        elif field == "data":
            self._data.append(value)
        elif field == "id":
            if "\0" not in value:
                self.last_event_id = value
        elif field == "retry" and value.isascii() and value.isdigit():
            self.retry = int(value)
        return None  # another field name is ignored, as the format says

    def _dispatch(self) -> ServerSentEvent | None:
        name, data = self._name, self._data
        self._name, self._data = "", []
        if not data:
            return None  # a blank line with no data before it dispatches nothing
        return ServerSentEvent(name or "message", "\n".join(data), self.last_event_id)


def stream_event(sse: ServerSentEvent) -> StreamEvent | None:
    """The contract's model of ``sse``, or ``None`` for an event name this client does not know.

    The lenient response converter reads it, so fields the service adds later are ignored; data that
    is not the model raises :class:`~livecore_client.errors.APIResponseValidationError`.
    """
    model = STREAM_EVENTS.get(sse.event)
    if model is None:
        return None
    try:
        event: StreamEvent = response_converter.structure(orjson.loads(sse.data), model)
    except (cattrs.BaseValidationError, ValueError, TypeError, KeyError) as exc:
        raise APIResponseValidationError(
            f"stream event {sse.event!r} does not match {model.__name__}: {exc}", status=200
        ) from exc
    return event


def _request(
    http: httpx.Client | httpx.AsyncClient, base_url: str, prepared: PreparedRequest
) -> httpx.Request:
    timeout = http.timeout
    return http.build_request(
        prepared.method,
        base_url + prepared.path,
        params=prepared.params,
        headers={**prepared.headers, "Accept": _MEDIA_TYPE},
        # The client's read timeout is for answers, not for the silence between two heartbeats.
        timeout=with_read_timeout(
            timeout, None if timeout.read is None else max(timeout.read, STREAM_READ_TIMEOUT)
        ),
    )


def _is_stream(response: httpx.Response) -> bool:
    media_type = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
    return 200 <= response.status_code < 300 and media_type == _MEDIA_TYPE


def _refuse(response: httpx.Response, content: bytes) -> NoReturn:
    """The error for an opening that did not answer a stream: the service's refusal, or a 2xx of
    another kind (a proxy in the way)."""
    parse_response(type(None), response.status_code, response.headers, content)
    raise APIResponseValidationError(
        f"HTTP {response.status_code} answer is not {_MEDIA_TYPE}: {content[:200]!r}",
        status=response.status_code,
        headers=response.headers,
    )


def _ended() -> APIConnectionError:
    return APIConnectionError("the stream ended before its closed event; open it again to resume")


def iter_stream_sync(
    http: httpx.Client, base_url: str, prepared: PreparedRequest, policy: RetryPolicy
) -> Iterator[StreamEvent]:
    """The stream's typed events up to and including ``closed``; a connection lost before it raises
    :class:`~livecore_client.errors.APIConnectionError`."""

    def open_once() -> httpx.Response:
        response = http.send(_request(http, base_url, prepared), stream=True)
        if not _is_stream(response):
            try:
                _refuse(response, response.read())
            finally:
                response.close()
        return response

    response = retry_sync(open_once, prepared, policy)
    decoder = SseDecoder()
    try:
        for line in response.iter_lines():
            sse = decoder.feed(line)
            event = None if sse is None else stream_event(sse)
            if event is not None:
                yield event
                if isinstance(event, StreamClosed):
                    return
    except httpx.TransportError as exc:
        raise connection_error(exc) from exc
    finally:
        response.close()
    raise _ended()


async def iter_stream_async(
    http: httpx.AsyncClient, base_url: str, prepared: PreparedRequest, policy: RetryPolicy
) -> AsyncIterator[StreamEvent]:
    """:func:`iter_stream_sync` on an asyncio client (``async for``)."""

    async def open_once() -> httpx.Response:
        response = await http.send(_request(http, base_url, prepared), stream=True)
        if not _is_stream(response):
            try:
                _refuse(response, await response.aread())
            finally:
                await response.aclose()
        return response

    response = await retry_async(open_once, prepared, policy)
    decoder = SseDecoder()
    try:
        async for line in response.aiter_lines():
            sse = decoder.feed(line)
            event = None if sse is None else stream_event(sse)
            if event is not None:
                yield event
                if isinstance(event, StreamClosed):
                    return
    except httpx.TransportError as exc:
        raise connection_error(exc) from exc
    finally:
        await response.aclose()
    raise _ended()
