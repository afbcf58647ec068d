"""Synchronous psycopg connections that wait for PostgreSQL on the event loop (docs/architecture.md, "On
the event loop").

The commands are synchronous functions over the ports, and so are the store's transactions. On
PostgreSQL each of them used to run on a worker thread, and the threads took turns with the event loop
for the GIL. Here a transaction runs on the loop's own thread instead, in a greenlet started by
:func:`run_bridged`. Whenever its connection would wait for the socket,
:meth:`BridgedConnection.wait` hands the wait, as a coroutine, back to the coroutine that started the
greenlet. That coroutine awaits it on the loop, serving other requests meanwhile, and switches back
with the answer. SQLAlchemy's asyncio extension runs its synchronous ORM over async drivers the same way.

Everything else of psycopg's synchronous API works unchanged: cursors, pipeline mode, the statement
tally (:mod:`~livecore_server.storage.postgres_tally`). Outside such a greenlet (the CLI, a test's or a
tool's thread, the pool's own threads opening connections) a bridged connection waits as any psycopg
connection does, blocking its thread.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import greenlet
import psycopg
from psycopg import waiting
from psycopg.abc import PQGen
from psycopg.pq import TransactionStatus

T = TypeVar("T")

log = logging.getLogger("livecore_server.storage")


class _Bridged(greenlet.greenlet):  # type: ignore[misc]  # greenlet ships no type hints
    """A greenlet running synchronous code for the coroutine that started it (:func:`run_bridged`)."""


def bridged() -> bool:
    """Whether the caller runs in a greenlet of :func:`run_bridged` (and may :func:`await_only`)."""
    return isinstance(greenlet.getcurrent(), _Bridged)


def await_only(awaitable: Awaitable[T]) -> T:
    """Await ``awaitable`` on the event loop from synchronous code run by :func:`run_bridged`: the
    caller's greenlet pauses until the coroutine that started it has the result."""
    current = greenlet.getcurrent()
    if not isinstance(current, _Bridged) or current.parent is None:
        raise RuntimeError("await_only outside run_bridged")
    result: T = current.parent.switch(awaitable)
    return result


async def run_bridged(fn: Callable[..., T], *args: Any) -> T:
    """Run the synchronous ``fn(*args)`` on this thread, awaiting for it what it hands to
    :func:`await_only`; its result, or its error. It runs in a copy of the caller's context variables,
    as :func:`asyncio.to_thread` runs a function."""
    work = _Bridged(fn)
    work.gr_context = contextvars.copy_context()
    step: Any = work.switch(*args)
    while not work.dead:
        try:
            value = await step
        except BaseException as exc:  # the greenlet's to handle: it rolls back, then raises
            step = work.throw(exc)
        else:
            step = work.switch(value)
    result: T = step
    return result


def refuse_on_the_loop() -> None:
    """Refuse a synchronous write on the thread of a running event loop, outside :func:`run_bridged`.
    Its waits for PostgreSQL stop the loop, so a transaction paused on it (a request's, the webhook
    dispatcher's) never resumes; if the write needs a lock that transaction holds, both wait forever.
    Raising makes that a clear error on the first run instead of a hang on an unlucky one. (A read
    takes no lock that a write holds: it may run there.)"""
    if bridged():
        return
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return
    raise RuntimeError(
        "a synchronous PostgreSQL write on the event loop's thread: await the store's run_async"
        ' instead, or run it on another thread (docs/architecture.md, "On the event loop")'
    )


def pause(seconds: float) -> None:
    """Sleep: on the loop (other requests go on) in a bridged greenlet, else on the calling thread."""
    if bridged():
        await_only(asyncio.sleep(seconds))
    else:
        time.sleep(seconds)


class BridgedConnection(psycopg.Connection[Any]):
    """A synchronous psycopg connection whose waits are awaited on the event loop when it is used in a
    greenlet of :func:`run_bridged`, and block its thread anywhere else."""

    def wait(self, gen: PQGen[T], interval: float = 0.1, timeout: float | None = None) -> T:
        if not bridged():
            return super().wait(gen, interval, timeout)
        try:
            return await_only(waiting.wait_async(gen, self.pgconn.socket, interval=interval, timeout=timeout))
        except asyncio.CancelledError:
            # Cancelled in the middle of a statement (the server is stopping). PostgreSQL is asked to
            # cancel the statement, so that a long one (a wait for a game's lock) gives its locks back now
            # rather than when it ends; then the connection, cut short in the middle of an answer, is
            # closed, which ends its transaction (the pool replaces it).
            if self.pgconn.transaction_status == TransactionStatus.ACTIVE:
                try:
                    await_only(asyncio.to_thread(self.cancel_safe, timeout=5.0))
                except Exception as exc:
                    log.warning("cancelling a statement failed: %s", exc)
            self.close()
            raise
