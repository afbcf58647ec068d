"""The server's access log: one line per request, without the one secret a path carries (a portal
sign-in link's token)."""

from __future__ import annotations

import re

from aiohttp import web
from aiohttp.web_log import AccessLogger
from aiohttp.web_request import BaseRequest

_SIGN_IN_PATH = re.compile(r"(/portal/login/lnk_)[A-Za-z0-9_-]+")


class RedactingAccessLogger(AccessLogger):
    """aiohttp's access log with sign-in link tokens cut from the path."""

    def log(self, request: BaseRequest, response: web.StreamResponse, time: float) -> None:
        redacted = _SIGN_IN_PATH.sub(r"\1...", request.path_qs)
        if redacted != request.path_qs:
            request = request.clone(rel_url=redacted)
        super().log(request, response, time)
