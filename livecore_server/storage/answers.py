"""Answering the loop's requests from a worker thread (the PostgreSQL store's look-ups)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable
from typing import Any

# A waiting request's future, and its result or its error.
Answer = tuple["asyncio.Future[Any]", Any, "BaseException | None"]


def answer_from_thread(answers: Iterable[Answer]) -> None:
    """Settle the futures from a worker thread with one wake-up of each waiting loop for all of them,
    not one per future: each wake-up costs the loop's thread a context switch and the GIL a hand-off."""
    by_loop: dict[asyncio.AbstractEventLoop, list[Answer]] = {}
    for answer in answers:
        by_loop.setdefault(answer[0].get_loop(), []).append(answer)
    for loop, some in by_loop.items():
        # RuntimeError: the loop has closed (shutdown), nobody waits for the answers any more.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(_settle, some)


def _settle(answers: list[Answer]) -> None:
    for future, result, error in answers:
        if future.done():  # answered already, or the request went away (cancelled)
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)
