"""Where a run's seasons are played (docs/simulation.md#several-seeds, #on-a-cluster): :class:`Processes`,
worker processes of this machine, one per core; or :class:`Cluster`, the workers of a Dask cluster
(``distributed``). Either plays a list of tasks, each a function of plain data answering one season's
report, and answers the reports in the tasks' order whatever the order they finish in: a run's report is
the same, byte for byte, whichever engine plays it."""

from __future__ import annotations

import importlib
import multiprocessing
import os
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Protocol, TypeVar

import attrs

T = TypeVar("T")

#: How long ``--cluster`` waits for the scheduler to answer before giving up.
CONNECT_TIMEOUT = 10.0

HINT = "pip install 'livecore[cluster]'"


@attrs.frozen
class Progress:
    """What a run is told as its seasons are played, each callback optional: a season's day played (its
    number), players made (how many more), and a season done (how many of how many)."""

    on_day: Callable[[int], None] | None = None
    on_players: Callable[[int], None] | None = None
    on_season: Callable[[int, int], None] | None = None


class Engine(Protocol):
    """Plays seasons' tasks somewhere and answers their reports."""

    def play(self, task: Callable[..., T], each: Sequence[tuple[Any, ...]], progress: Progress) -> list[T]:
        """``task(*args)`` for each ``args`` of ``each``, in ``each``'s order; what a task raises is raised
        here, and the tasks not yet started are not played."""
        ...


#: The most worker processes a run may start (docs/simulation.md#several-seeds): a whole number, 1 to play
#: every season in the command's own process.
PROCESSES_ENV = "LIVECORE_SIMULATE_PROCESSES"


def most_processes() -> int | None:
    """``$LIVECORE_SIMULATE_PROCESSES``, or None where it is not set; ValueError where it is not a whole
    number."""
    most = os.environ.get(PROCESSES_ENV, "").strip()
    if not most:
        return None
    try:
        return int(most)
    except ValueError:
        raise ValueError(f"{PROCESSES_ENV} must be a whole number, not {most!r}") from None


def workers(seasons: int) -> int:
    """How many processes play ``seasons`` seasons side by side (each seed's, or each of a comparison's):
    one per core this process may run on, no more than the seasons nor than :func:`most_processes`; 1
    (the command's own process) for one season."""
    if seasons <= 1:
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    most = most_processes()
    return max(1, min(seasons, cores, cores if most is None else most))


# A worker process's queue of steps (``("day", day)``, ``("players", made)``, and ``("done", 0)`` once a
# task has ended, played or failed), read by the command's process; None where nothing reads them.
_steps: Any = None


def step(kind: str, value: int) -> None:
    """In a task: a step of its season (``"day"``, ``"players"``) told to the command's process, where
    one listens (:class:`Processes`); a cluster's worker tells nothing of its days."""
    if _steps is not None:
        _steps.put((kind, value))


def _listen(steps: Any) -> None:
    global _steps
    _steps = steps


def _told(task: Callable[..., T], args: tuple[Any, ...]) -> T:
    try:
        return task(*args)
    finally:
        step("done", 0)


class Processes:
    """This machine's cores: :func:`workers` processes, each a new interpreter (``spawn``, so nothing of
    this process's threads or state is copied). Each season's days and players made are told as they are
    played."""

    def play(self, task: Callable[..., T], each: Sequence[tuple[Any, ...]], progress: Progress) -> list[T]:
        context = multiprocessing.get_context("spawn")
        steps = context.Queue()
        with ProcessPoolExecutor(
            workers(len(each)), mp_context=context, initializer=_listen, initargs=(steps,)
        ) as pool:
            futures = [pool.submit(_told, task, args) for args in each]
            try:
                done = 0
                while done < len(futures):
                    try:
                        kind, value = steps.get(timeout=0.5)
                    except queue.Empty:
                        for future in futures:  # a worker that died says nothing: its task's future fails
                            if future.done() and future.exception() is not None:
                                future.result()
                        continue
                    if kind == "day" and progress.on_day is not None:
                        progress.on_day(value)
                    elif kind == "players" and progress.on_players is not None:
                        progress.on_players(value)
                    elif kind == "done":
                        done += 1
                        if progress.on_season is not None:
                            progress.on_season(done, len(futures))
                return [future.result() for future in futures]
            except BaseException:
                # The tasks not yet started are not played; those playing end first (their processes
                # write to the queue this process drops after).
                pool.shutdown(wait=True, cancel_futures=True)
                raise


class ClusterError(Exception):
    """A cluster that cannot be played on: ``distributed`` is not installed, or its scheduler is not
    reached."""


class Cluster:
    """A Dask cluster's workers, by its scheduler's address (``tcp://host:8786``): connected to when made
    within ``timeout`` seconds (:data:`CONNECT_TIMEOUT` by default; :class:`ClusterError` if it cannot
    be), closed by :meth:`close` or at the end of a ``with`` block. Its workers import the tasks'
    functions by name: they run in an environment with livecore installed (and the studio's areas a run
    plays). A season done is told, not its days."""

    def __init__(self, address: str, *, timeout: float | None = None) -> None:
        try:
            # Any: distributed's functions are not typed.
            self._distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise ClusterError(f"a cluster needs the distributed package, not installed: {HINT}") from None
        wait = CONNECT_TIMEOUT if timeout is None else timeout
        try:
            # An address it cannot read is refused before a client starts: one that fails once started is
            # left with an event loop that its finalizer waits on, and the command exits late, with a
            # traceback.
            self._distributed.comm.resolve_address(address)
            self._client = self._connected(address, wait)
        except Exception as exc:  # an address it cannot parse, a scheduler that does not answer, ...
            reason = str(exc) or type(exc).__name__
            raise ClusterError(f"cannot reach the cluster's scheduler at {address}: {reason}") from None
        self.address = address

    def _connected(self, address: str, timeout: float) -> Any:
        """A client of the scheduler at ``address``, made in a thread of its own and waited for a little
        longer than ``timeout``: where another service listens, distributed waits for its answer without
        end, and the thread is left to the end of the command."""
        made: list[Any] = []

        def connect() -> None:
            try:
                made.append(self._distributed.Client(address, timeout=timeout, set_as_default=False))
            except Exception as exc:
                made.append(exc)

        thread = threading.Thread(target=connect, daemon=True)
        thread.start()
        thread.join(timeout + 5)
        if not made:
            raise TimeoutError(f"no Dask scheduler answered within {timeout:g} s")
        if isinstance(made[0], Exception):
            raise made[0]
        return made[0]

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._client.close()

    def play(self, task: Callable[..., T], each: Sequence[tuple[Any, ...]], progress: Progress) -> list[T]:
        # pure=False: two tasks of the same arguments are two seasons to play, not one result to share.
        futures = [self._client.submit(task, *args, pure=False) for args in each]
        place = {future.key: i for i, future in enumerate(futures)}
        results: list[Any] = [None] * len(futures)
        try:
            # What a task raised is raised here, as its future completes.
            completed = self._distributed.as_completed(futures, self._client.loop, with_results=True)
            for done, (future, result) in enumerate(completed, 1):
                results[place[future.key]] = result
                if progress.on_season is not None:
                    progress.on_season(done, len(futures))
            return results
        except BaseException:
            self._client.cancel(futures)
            raise
