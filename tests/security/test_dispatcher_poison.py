"""The webhook dispatcher survives any single bad event: a delivery whose event cannot be serialized
(nesting that the body parser let through) is marked failed with the reason, at once, and the others go
out; a fault in signing one is a failed attempt, recorded like any other."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest

from livecore_server.workers import dispatcher
from tests.conftest import Receiver
from tests.security.dispatch_support import Hooked, hooked


def nested(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {"leaf": True}
    for _ in range(depth - 1):
        value = {"a": value}
    return value


@pytest.fixture
async def hooks(db_url: str, receiver: Receiver) -> AsyncIterator[tuple[Hooked, Receiver]]:
    h = await hooked(db_url, {"hook": receiver.url})
    try:
        yield h, receiver
    finally:
        h.services.close()


async def test_an_event_nested_253_deep_fails_its_delivery_and_the_others_go_out(
    hooks: tuple[Hooked, Receiver], caplog: pytest.LogCaptureFixture
) -> None:
    h, receiver = hooks
    before = await h.registered("before")
    # Deep enough to be stored, one level too deep for the envelope around it.
    poison = await h.raw("player.registered", nested(254))
    after = await h.registered("after")
    await h.dispatch()
    assert sorted(r.envelope["id"] for r in receiver.received) == sorted([before, after])
    deliveries = h.deliveries("hook")
    assert deliveries[before].status.value == deliveries[after].status.value == "delivered"
    failed = deliveries[poison]
    assert (failed.status.value, failed.attempts, failed.last_status) == ("failed", 1, None)
    assert failed.last_error == "the event cannot be sent: TypeError: Recursion limit reached"
    # The receiver did nothing wrong: its breaker does not count it.
    assert h.endpoint("hook").consecutive_failures == 0
    assert [r.levelno for r in caplog.records if "cannot be built" in r.getMessage()] == [logging.ERROR]
    # And the dispatcher goes on.
    later = await h.registered("later")
    await h.dispatch()
    assert h.deliveries("hook")[later].status.value == "delivered"


async def test_a_delivery_whose_signing_raises_is_a_failed_attempt(
    hooks: tuple[Hooked, Receiver], monkeypatch: pytest.MonkeyPatch
) -> None:
    h, receiver = hooks
    sign = dispatcher.signature_header

    def signing(secret: str, t: int, body: bytes, **kw: Any) -> str:
        if b'"externalPlayerId":"unsignable"' in body:
            raise ValueError("cannot sign this one")
        return sign(secret, t, body, **kw)

    monkeypatch.setattr(dispatcher, "signature_header", signing)
    good = await h.registered("good")
    bad = await h.registered("unsignable")
    await h.dispatch()
    assert [r.envelope["id"] for r in receiver.received] == [good]
    failed = h.deliveries("hook")[bad]
    assert (failed.status.value, failed.attempts) == ("pending", 1)  # retried on the schedule
    assert failed.last_error == "ValueError: cannot sign this one"
