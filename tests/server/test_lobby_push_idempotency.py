"""The lobby push keys itself on its body's ``key``: the server's idempotency layer takes no key for it,
and an ``Idempotency-Key`` header (even a malformed one) is ignored rather than refused."""

from __future__ import annotations

from aiohttp.test_utils import make_mocked_request

from livecore.lobbies.api import SERVER_PUSH
from livecore_server.http.endpoint import _idempotency_key


def test_the_push_ignores_an_idempotency_key_header() -> None:
    body = {"key": "k1", "externalPlayerIds": ["a"], "idempotencyKey": "other"}
    for header in ("k-1", "", "x" * 1000):
        request = make_mocked_request("POST", SERVER_PUSH.full_path, headers={"Idempotency-Key": header})
        errors: dict[str, str] = {}
        assert _idempotency_key(request, SERVER_PUSH, body, errors) is None
        assert errors == {}
