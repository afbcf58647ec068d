"""Requests that aiohttp refuses before any application code runs, answered in the error envelope.

aiohttp's HTTP parser refuses some requests itself: a request line or header line over 8,190 bytes, a NUL or
another control character in a header, a ``Content-Encoding`` it cannot decode (``br``), a ``Content-Length``
that is not a number of bytes (``-5``), a request line that is not HTTP. It answers them from
``RequestHandler.handle_error``, in plain text that quotes what it refused (the whole over-long header,
secrets included), logs a traceback at ERROR for each, and runs no middleware or signal on the way: aiohttp
has no public hook for these answers. So the root application's servers make their connections' handlers
:class:`EnvelopeRequestHandler`, whose error handler (aiohttp's ``_make_error_handler``, the one place that
may await) answers the envelope (docs/reference/conventions.md#errors) with a message that quotes nothing of
the request, and whose log is one line at INFO naming the kind of refusal. The connection is closed after the
answer, as aiohttp does.

Like every other 400, the answer carries an ``X-Request-Id`` and the ``RateLimit-*`` headers, and is
counted: against the caller's address, as a request without a valid key is, in the address's
``sdk_write`` bucket (no route is known, and of the buckets a caller's address has, that one is the
smallest by default, so that a stream of unreadable requests is slowed soonest); once that bucket is
empty the answer is 429 ``rate_limited``, as the namespaces answer it. No header of a refused request is
read (aiohttp hands the error handler none), so behind a proxy (``serve --client-address-header``) the
proxy's own address, the connection's peer, is the one counted.

Two more answers aiohttp makes itself go the same way: its 417 to an ``Expect`` other than
``100-continue`` (its default expect handler, on every route, quoting the header) is that 400 naming
``Expect``; and the rest of a body it drains after an early answer (a 401 before the body was read) that
does not decode as its ``Content-Encoding`` says is dropped with the connection, with no traceback: the
answer was the refusal.

Two kinds of request aiohttp parses are refused here too, before the app sees them. A ``Content-Encoding``
other than ``gzip`` or ``deflate``: aiohttp decodes those two, refuses ``br`` (above; ``zstd`` too, without
its library) and reads any other value (``compress``, ``x-gzip``, a list such as ``gzip, br``,
``identity``) as no encoding at all, so a plain body labelled ``compress`` would be applied as if it had
been sent as it is. So the header, when there is one, must be one of the two alone, on one line, in any
letter case (HTTP's codings ignore case, and aiohttp decodes ``GZIP``), with or without a body; anything
else is answered as ``br`` is: a 400 naming ``Content-Encoding``, counted against the caller's address
(here its headers are read, so behind a proxy it is the client the proxy names, as for ``Expect``), and
the connection closed with the body unread. And a request target that is not a path: ``OPTIONS *`` (the
server as a whole) and ``CONNECT host:443`` (a tunnel) name no route, and aiohttp's router answers them
its plain-text 404; they get the 404 ``not_found`` of any path outside the namespaces, in the envelope
with a request id, uncounted like it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, cast

from aiohttp import web
from aiohttp.http_exceptions import BadStatusLine, ContentEncodingError, LineTooLong
from aiohttp.web_protocol import RequestHandler, RequestPayloadError, _ErrInfo
from multidict import CIMultiDict

from livecore.clock import to_millis
from livecore.errors import INTERNAL_ERROR, INVALID_REQUEST, NOT_FOUND, LivecoreError, invalid_request
from livecore.ratelimit import BucketName
from livecore_server.http.envelope import error_response
from livecore_server.http.middlewares import REQUEST_IDS, RequestIds, take_token
from livecore_server.services import SERVICES

log = logging.getLogger("livecore_server")

# An encoding the server does not decode, whether the parser refused it (``br``) or read it as none
# (``compress``): the same answer (module docstring).
_UNKNOWN_ENCODING = invalid_request(
    "Send the body uncompressed, or with Content-Encoding gzip or deflate.",
    {"Content-Encoding": "must be gzip or deflate, or left out"},
)
# What aiohttp's parser decodes of a single Content-Encoding value, lower-cased once it is ASCII.
_DECODED = frozenset({"gzip", "deflate"})

# What the parser refused, in the client's terms; anything else it refuses is a malformed header.
_REFUSALS: tuple[tuple[type[Exception], str], ...] = (
    (LineTooLong, "A request line or header line is longer than 8,190 bytes."),
    (BadStatusLine, "The request line is not HTTP/1.x."),
)
_MALFORMED = "A header is malformed or holds a character HTTP does not allow (NUL, a control character)."


def _refusal(exc: BaseException | None) -> LivecoreError:
    if isinstance(exc, ContentEncodingError):
        return _UNKNOWN_ENCODING
    return LivecoreError(
        INVALID_REQUEST, next((text for kind, text in _REFUSALS if isinstance(exc, kind)), _MALFORMED)
    )


def _decoded(encodings: list[str]) -> bool:
    """Whether the ``Content-Encoding`` lines of a request are the one encoding aiohttp decodes and the
    service takes."""
    return len(encodings) == 1 and encodings[0].isascii() and encodings[0].lower() in _DECODED


_NOT_A_PATH = LivecoreError(NOT_FOUND, "No such route: the request target is not a path.")


# The bucket of the caller's address a refusal takes its token from (module docstring).
_BUCKET = BucketName.SDK_WRITE


class EnvelopeRequestHandler(RequestHandler):
    """aiohttp's connection handler, answering what it refuses in the envelope (module docstring)."""

    __slots__ = ()

    def _make_error_handler(
        self, err_info: _ErrInfo
    ) -> Callable[[web.BaseRequest], Awaitable[web.StreamResponse]]:
        if err_info.status != 400:
            return super()._make_error_handler(err_info)

        async def refuse(request: web.BaseRequest) -> web.StreamResponse:
            log.info("refused a malformed request from %s: %s", request.remote, type(err_info.exc).__name__)
            # aiohttp's stand-in request holds a plain dict for headers: none of the refused one's.
            unread = request.clone(headers=CIMultiDict())
            response = await self._refused(unread, _refusal(err_info.exc))
            response.force_close()
            return response

        return refuse

    def _handle_request(
        self,
        request: web.BaseRequest,
        start_time: float | None,
        request_handler: Callable[[web.BaseRequest], Awaitable[web.StreamResponse]],
    ) -> Coroutine[Any, Any, tuple[web.StreamResponse, bool]]:
        # Every request passes here, as in finish_response: what the app must not see is handed to
        # another handler (module docstring).
        headers = request.headers
        if "Content-Encoding" in headers and not _decoded(headers.getall("Content-Encoding")):
            request_handler = self._refuse_encoding
        elif request.method == "CONNECT" or request.raw_path == "*":
            request_handler = self._not_a_path
        return super()._handle_request(request, start_time, request_handler)

    async def _refuse_encoding(self, request: web.BaseRequest) -> web.StreamResponse:
        response = await self._refused(request, _UNKNOWN_ENCODING)
        response.force_close()  # its body is left unread
        return response

    async def _not_a_path(self, request: web.BaseRequest) -> web.StreamResponse:
        request_id = cast(_EnvelopeServer, self._manager).app[REQUEST_IDS].new()
        return error_response(_NOT_A_PATH, {"X-Request-Id": request_id})

    async def _refused(self, request: web.BaseRequest, err: LivecoreError) -> web.Response:
        """``err`` in the envelope with a request id, counted against the caller's address (the module
        docstring): the 429 instead once that address has no token left."""
        app = cast(_EnvelopeServer, self._manager).app
        headers = {"X-Request-Id": app[REQUEST_IDS].new()}
        services = app[SERVICES]
        now_ms = to_millis(services.clock.now())
        try:
            await take_token(services, cast(web.Request, request), None, _BUCKET, now_ms, headers)
        except LivecoreError as limited:
            err = limited
        return error_response(err, headers)

    def finish_response(
        self, request: web.BaseRequest, resp: web.StreamResponse, start_time: float | None
    ) -> Coroutine[Any, Any, tuple[web.StreamResponse, bool]]:
        # Every answer passes here: a plain function handing on aiohttp's coroutine costs it no frame.
        if resp.status == 417:  # only aiohttp's default expect handler answers it (module docstring)
            return self._finish_unexpected(request, start_time)
        return super().finish_response(request, resp, start_time)

    async def _finish_unexpected(
        self, request: web.BaseRequest, start_time: float | None
    ) -> tuple[web.StreamResponse, bool]:
        refused = await self._refused(request, _UNKNOWN_EXPECTATION)
        return await super().finish_response(request, refused, start_time)

    def handle_error(
        self,
        request: web.BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        # An error outside the namespaces' guard: aiohttp's own logging (with the traceback), then the
        # envelope instead of its plain text.
        super().handle_error(request, status, exc, message)
        request_id = cast(_EnvelopeServer, self._manager).app[REQUEST_IDS].new()
        response = error_response(
            LivecoreError(INTERNAL_ERROR, "Internal error."), {"X-Request-Id": request_id}
        )
        response.force_close()
        return response

    def log_exception(self, *args: Any, **kw: Any) -> None:
        if isinstance(kw.get("exc_info"), RequestPayloadError):
            # The rest of the body of a request already answered, drained, did not decode (module
            # docstring); aiohttp closes the connection.
            log.debug("dropped the rest of a request body that does not decode")
            return
        super().log_exception(*args, **kw)


_UNKNOWN_EXPECTATION = invalid_request(
    "The Expect header asks for what this server does not do: send 100-continue or nothing.",
    {"Expect": "must be 100-continue"},
)


class _EnvelopeServer(web.Server):
    app: web.Application  # the root application, whose services count the refusals

    def __call__(self) -> RequestHandler:
        return EnvelopeRequestHandler(self, loop=self._loop, **self._kwargs)


def answer_in_envelopes(app: web.Application) -> None:
    """Make every server ``app`` runs on (``run_app``, ``AppRunner``, the test server: all ask the app
    for its server) hand its connections to :class:`EnvelopeRequestHandler`, and give ``app`` the
    request ids of the answers no namespace guards."""
    app[REQUEST_IDS] = RequestIds()
    make_server = app._make_handler

    def make_handler(**kwargs: Any) -> web.Server:
        server = make_server(**kwargs)
        server.__class__ = _EnvelopeServer  # the same server, handing out the handler above
        envelope_server = cast(_EnvelopeServer, server)
        envelope_server.app = app
        return server

    app._make_handler = make_handler  # type: ignore[method-assign]
