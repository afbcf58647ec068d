"""Waiting in tests for something to happen: poll a condition until it holds, with a generous deadline.

A test never sleeps for a fixed time hoping that something has happened meanwhile: on a loaded machine it
has not yet, and on an idle one the sleep is wasted. It waits for the condition instead, polling it
every few milliseconds, and fails with ``what`` (a description, or a function giving the state seen
last) when the deadline passes. The deadline only bounds a test that is broken: it is long enough that a
slow machine never reaches it.
"""

from __future__ import annotations

import asyncio
import inspect
import signal
import subprocess
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

WITHIN = 30.0  # seconds
EVERY = 0.01  # seconds between two looks


def _failure(what: str | Callable[[], str], within: float) -> str:
    return f"waited {within} s for {what() if callable(what) else what}"


async def until(
    condition: Callable[[], T | Awaitable[T]],
    what: str | Callable[[], str] = "a condition",
    *,
    within: float = WITHIN,
    every: float = EVERY,
) -> T:
    """Await until ``condition()`` (which may be a coroutine function) returns a true value; returns it.
    The first look is immediate; between looks the event loop runs the other tasks."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while True:
        value = condition()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value  # type: ignore[return-value]
        assert loop.time() < deadline, _failure(what, within)
        await asyncio.sleep(every)


def until_sync(
    condition: Callable[[], T],
    what: str | Callable[[], str] = "a condition",
    *,
    within: float = WITHIN,
    every: float = EVERY,
) -> T:
    """:func:`until` for a thread that may block: a test without an event loop, or a worker thread."""
    deadline = time.monotonic() + within
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, _failure(what, within)
        time.sleep(every)


def stop_process(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server a test started in the background: SIGTERM, as an operator stops it, and a kill if it
    has not exited within 20 s."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
