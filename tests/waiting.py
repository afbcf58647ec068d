"""Waiting in tests for something to happen: poll a condition until it holds, with a generous deadline.

A test never sleeps for a fixed time hoping that something has happened meanwhile: on a loaded machine it
has not yet, and on an idle one the sleep is wasted. It waits for the condition instead, polling it
every few milliseconds, and fails with ``what`` (a description, or a function giving the state seen
last) when the deadline passes. The deadline only bounds a test that is broken: it is long enough that a
slow machine never reaches it.

A look that raises has not seen the condition hold yet, and the wait goes on: on a loaded machine a
server's answer can take longer than the client's own timeout (``httpx.ReadTimeout``), or a file can be
read half written. The exception raised last is named in the failure at the deadline, and is its cause.
An ``AssertionError`` is the exception: a condition asserts what must never happen while it waits (the
server process exited), and that ends the wait at once.
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


def _failure(what: str | Callable[[], str], within: float, raised: Exception | None) -> AssertionError:
    message = f"waited {within} s for {what() if callable(what) else what}"
    if raised is not None:
        message += f"; the last look raised {raised!r}"
    return AssertionError(message)


async def until(
    condition: Callable[[], T | Awaitable[T]],
    what: str | Callable[[], str] = "a condition",
    *,
    within: float = WITHIN,
    every: float = EVERY,
) -> T:
    """Await until ``condition()`` (which may be a coroutine function) returns a true value; returns it.
    The first look is immediate; between looks the event loop runs the other tasks. A look that raises
    counts as not yet, but for an ``AssertionError`` (the module docstring)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    raised: Exception | None = None
    while True:
        try:
            value = condition()
            if inspect.isawaitable(value):
                value = await value
        except AssertionError:
            raise
        except Exception as exc:
            raised = exc
        else:
            if value:
                return value  # type: ignore[return-value]
        if loop.time() >= deadline:
            raise _failure(what, within, raised) from raised
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
    raised: Exception | None = None
    while True:
        try:
            value = condition()
        except AssertionError:
            raise
        except Exception as exc:
            raised = exc
        else:
            if value:
                return value
        if time.monotonic() >= deadline:
            raise _failure(what, within, raised) from raised
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
