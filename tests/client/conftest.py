"""Fixtures of the respx client tests: clients on a fake base URL whose retries sleep into a list."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from livecore_client import AsyncSdkClient, AsyncServerClient, RetryPolicy, SdkClient, ServerClient
from tests.client.support import BASE, Sleeps


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
def policy(sleeps: Sleeps) -> RetryPolicy:
    # rand=0.5: backoff delays are exactly half the capped exponential, 0.25 s then 0.5 s.
    return RetryPolicy(rand=lambda: 0.5, sleep=sleeps.sleep, async_sleep=sleeps.async_sleep)


@pytest.fixture
def sdk(policy: RetryPolicy) -> Iterator[SdkClient]:
    with SdkClient("ck_test", base_url=BASE, player_secret="sec_1", retry_policy=policy) as client:
        yield client


@pytest.fixture
def server(policy: RetryPolicy) -> Iterator[ServerClient]:
    with ServerClient("sk_test", base_url=BASE, retry_policy=policy) as client:
        yield client


@pytest.fixture
async def async_sdk(policy: RetryPolicy) -> AsyncIterator[AsyncSdkClient]:
    async with AsyncSdkClient("ck_test", base_url=BASE, player_secret="sec_1", retry_policy=policy) as client:
        yield client


@pytest.fixture
async def async_server(policy: RetryPolicy) -> AsyncIterator[AsyncServerClient]:
    async with AsyncServerClient("sk_test", base_url=BASE, retry_policy=policy) as client:
        yield client
