"""Requests that aiohttp refuses before any application code runs, answered in the error envelope.

aiohttp's HTTP parser refuses some requests itself: a request line or header line over 8,190 bytes, a
NUL or another control character in a header, a ``Content-Encoding`` it cannot decode (``br``), a request
line that is not HTTP. It answers them from ``RequestHandler.handle_error``, in plain text that quotes
what it refused (the whole over-long header, secrets included), logs a traceback at ERROR for each, and
runs no middleware or signal on the way: aiohttp has no hook for these answers. So the root application's
servers make their connections' handlers :class:`EnvelopeRequestHandler`, whose answer is the envelope
(docs/reference/conventions.md#errors) with a message that quotes nothing of the request, and whose log is
one line at INFO naming the kind of refusal. The connection is closed after the answer, as aiohttp does.
"""

from __future__ import annotations

import logging
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import BadStatusLine, ContentEncodingError, LineTooLong
from aiohttp.web_protocol import RequestHandler

from livecore.errors import ErrorCode, LivecoreError
from livecore_server.http.envelope import error_response

log = logging.getLogger("livecore_server")

# What the parser refused, in the client's terms; anything else it refuses is a malformed header.
_REFUSALS: tuple[tuple[type[Exception], str], ...] = (
    (LineTooLong, "A request line or header line is longer than 8,190 bytes."),
    (ContentEncodingError, "Send the body uncompressed, or with Content-Encoding gzip or deflate."),
    (BadStatusLine, "The request line is not HTTP/1.x."),
)
_MALFORMED = "A header is malformed or holds a character HTTP does not allow (NUL, a control character)."


def _refusal(exc: BaseException | None) -> str:
    return next((text for kind, text in _REFUSALS if isinstance(exc, kind)), _MALFORMED)


class EnvelopeRequestHandler(RequestHandler):
    """aiohttp's connection handler, answering what it refuses in the envelope (module docstring)."""

    __slots__ = ()

    def handle_error(
        self,
        request: web.BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        if status != 400:
            # An error outside the namespaces' guard: aiohttp's own logging (with the traceback),
            # then the envelope instead of its plain text.
            super().handle_error(request, status, exc, message)
            err = LivecoreError(ErrorCode.INTERNAL_ERROR, "Internal error.")
        else:
            log.info("refused a malformed request from %s: %s", request.remote, type(exc).__name__)
            err = LivecoreError(ErrorCode.INVALID_REQUEST, _refusal(exc))
        response = error_response(err)
        response.force_close()
        return response


class _EnvelopeServer(web.Server):
    def __call__(self) -> RequestHandler:
        return EnvelopeRequestHandler(self, loop=self._loop, **self._kwargs)


def answer_in_envelopes(app: web.Application) -> None:
    """Make every server ``app`` runs on (``run_app``, ``AppRunner``, the test server: all ask the app
    for its server) hand its connections to :class:`EnvelopeRequestHandler`."""
    make_server = app._make_handler

    def make_handler(**kwargs: Any) -> web.Server:
        server = make_server(**kwargs)
        server.__class__ = _EnvelopeServer  # the same server, handing out the handler above
        return server

    app._make_handler = make_handler  # type: ignore[method-assign]
