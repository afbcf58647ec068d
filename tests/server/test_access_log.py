"""The access log never holds a portal sign-in link's token (docs/operators.md#sign-in-links)."""

from __future__ import annotations

import logging

import pytest
from aiohttp import web
from aiohttp.test_utils import make_mocked_request

from livecore_server.access_log import RedactingAccessLogger


@pytest.mark.parametrize(
    ("path", "logged"),
    [
        ("/portal/login/lnk_SECRETsecret-_123", "/portal/login/lnk_..."),
        ("/portal/login/lnk_SECRET?x=1", "/portal/login/lnk_...?x=1"),
        ("/sdk/v1/players/alice/register", "/sdk/v1/players/alice/register"),
    ],
)
def test_the_access_log_redacts_sign_in_link_tokens(
    path: str, logged: str, caplog: pytest.LogCaptureFixture
) -> None:
    logger = logging.getLogger("test.access")
    with caplog.at_level(logging.INFO, logger="test.access"):
        RedactingAccessLogger(logger, "%r %s").log(
            make_mocked_request("POST", path), web.Response(status=303), 0.01
        )
    assert caplog.messages == [f"POST {logged} HTTP/1.1 303"]
    assert "SECRET" not in caplog.text
