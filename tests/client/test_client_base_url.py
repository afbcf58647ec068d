"""A ``base_url`` that is no absolute http(s) URL is refused when the client is made, with a message that
shows the expected form, instead of every call being retried and then failing (docs/client.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
import respx

from livecore_client import (
    AdminClient,
    AsyncAdminClient,
    AsyncSdkClient,
    AsyncServerClient,
    SdkClient,
    ServerClient,
)

KEY = "lc_test_" + "A" * 43
PERSONAL_KEY = "svc_pk_" + "A" * 43
CLIENTS: dict[str, Callable[[str], Any]] = {
    "SdkClient": lambda url: SdkClient(KEY, base_url=url),
    "AsyncSdkClient": lambda url: AsyncSdkClient(KEY, base_url=url),
    "ServerClient": lambda url: ServerClient(KEY, base_url=url),
    "AsyncServerClient": lambda url: AsyncServerClient(KEY, base_url=url),
    "AdminClient": lambda url: AdminClient(PERSONAL_KEY, studio="acme", base_url=url),
    "AsyncAdminClient": lambda url: AsyncAdminClient(PERSONAL_KEY, studio="acme", base_url=url),
}
WITHOUT_A_SCHEME = ["127.0.0.1:8080", "localhost:8080", "example.com", "ftp://example.com", "", "http://"]


@pytest.mark.parametrize("url", WITHOUT_A_SCHEME)
@pytest.mark.parametrize("client", list(CLIENTS))
def test_a_base_url_without_a_scheme_is_refused_at_construction(client: str, url: str) -> None:
    with respx.mock(assert_all_called=False) as mock:
        with pytest.raises(ValueError, match="http:// or https://") as refused:
            CLIENTS[client](url)
        assert not mock.calls  # refused before anything was sent
    assert repr(url) in str(refused.value)
    assert "e.g. http://127.0.0.1:8080" in str(refused.value)


@pytest.mark.parametrize("client", list(CLIENTS))
def test_an_absolute_base_url_is_taken_without_its_trailing_slash(client: str) -> None:
    made = CLIENTS[client]("https://livecore.example.com/")
    assert made.base_url == "https://livecore.example.com"
    http = getattr(made, "_http", None)
    if isinstance(http, httpx.Client):
        made.close()
