"""A TCP proxy that holds the bytes travelling from each client to the server for a fixed delay: a
database on another host, for a benchmark on this one (``python -m benchmarks --db-latency-ms X``).

Every chunk a client sends is written to the server ``delay`` seconds after it arrived, in the order it
arrived, per connection; the server's answers go back at once. So each round trip (a statement sent and
its answer waited for) takes ``delay`` longer, and bytes sent without waiting (pipeline mode) travel
together, as over a network. Nothing is parsed or changed: the bytes pass intact.

It runs in its own process (``python -m benchmarks.latency_proxy``), on uvloop where installed, so that its
work is not the harness's and its CPU time can be read apart (:class:`LatencyProxy`). It starts unarmed
(no delay): SIGUSR1 arms it, SIGUSR2 disarms it, and it answers each with a line on stdout once done, so
the harness can run a scenario's setup at full speed and load the rounds with the delay.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import selectors
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Self, cast

HOST = "127.0.0.1"
READY = "listening"
ARMED = "armed"
DISARMED = "disarmed"
# A timer may fire this much early (asyncio's own tolerance): what is due by then is written.
_RESOLUTION = time.get_clock_info("monotonic").resolution


class ProxyError(RuntimeError):
    """The proxy could not start or did not answer."""


class Held:
    """Bytes held for ``delay()`` seconds, then written in the order they came."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop, delay: Callable[[], float], write: Callable[[bytes], None]
    ):
        self.loop = loop
        self.delay = delay
        self.write = write
        self.pending: collections.deque[tuple[float, bytes]] = collections.deque()
        self.timer: asyncio.TimerHandle | None = None
        self.last_due = 0.0
        self.then: Callable[[], None] | None = None  # once all is written (the client has gone)

    def push(self, data: bytes) -> None:
        # Never before an earlier chunk, whatever the delay was then (it changes when armed or disarmed).
        due = max(self.loop.time() + self.delay(), self.last_due)
        self.last_due = due
        self.pending.append((due, data))
        if self.timer is None:
            self.timer = self.loop.call_at(due, self.flush)

    def flush(self) -> None:
        self.timer = None
        now = self.loop.time() + _RESOLUTION
        while self.pending and self.pending[0][0] <= now:
            self.write(self.pending.popleft()[1])
        if self.pending:
            self.timer = self.loop.call_at(self.pending[0][0], self.flush)
        elif self.then is not None:
            then, self.then = self.then, None
            then()

    def finish(self, then: Callable[[], None]) -> None:
        """Call ``then`` once everything held is written."""
        if self.pending:
            self.then = then
        else:
            then()

    def cancel(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.pending.clear()
        self.then = None


def no_delay(transport: asyncio.BaseTransport) -> None:
    """Send each write at once (no Nagle): the delay is the proxy's, not the kernel's."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class Upstream(asyncio.Protocol):
    """The proxy's connection to the server: what it answers goes straight back to the client."""

    def __init__(self, client: Downstream) -> None:
        self.client = client
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        no_delay(transport)
        self.transport = cast(asyncio.Transport, transport)  # uvloop's are not its subclasses

    def data_received(self, data: bytes) -> None:
        if self.client.transport is not None:
            self.client.transport.write(data)

    def eof_received(self) -> bool | None:
        self.client.close()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self.client.close()

    # The client reads slower than the server answers: stop reading the server meanwhile.
    def pause_writing(self) -> None:
        if self.client.transport is not None:
            self.client.transport.pause_reading()

    def resume_writing(self) -> None:
        if self.client.transport is not None:
            self.client.transport.resume_reading()


class Downstream(asyncio.Protocol):
    """A client's connection: what it sends is held, then written to its own connection to the server."""

    def __init__(self, proxy: Proxy) -> None:
        self.proxy = proxy
        self.transport: asyncio.Transport | None = None
        self.upstream: Upstream | None = None
        loop = asyncio.get_running_loop()
        self.held = Held(loop, lambda: proxy.delay, self._send)
        self.early: list[bytes] = []  # sent before the server connection was open
        self.closed = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        no_delay(transport)
        self.transport = cast(asyncio.Transport, transport)  # uvloop's are not its subclasses
        self.proxy.clients.add(self)
        asyncio.get_running_loop().create_task(self._connect())

    async def _connect(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            _, upstream = await loop.create_connection(
                lambda: Upstream(self), self.proxy.target_host, self.proxy.target_port
            )
        except OSError:
            self.close()
            return
        if self.closed:
            if upstream.transport is not None:
                upstream.transport.close()
            return
        self.upstream = upstream
        for data in self.early:
            self._send(data)
        self.early.clear()

    def _send(self, data: bytes) -> None:
        if self.upstream is None or self.upstream.transport is None:
            self.early.append(data)
        else:
            self.upstream.transport.write(data)

    def data_received(self, data: bytes) -> None:
        self.held.push(data)

    def eof_received(self) -> bool | None:
        self.held.finish(self._close_upstream)
        return True  # the answers may still come back: close once they have

    def connection_lost(self, exc: Exception | None) -> None:
        self.proxy.clients.discard(self)
        self.held.finish(self._close_upstream)

    def _close_upstream(self) -> None:
        if self.upstream is not None and self.upstream.transport is not None:
            self.upstream.transport.close()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self.held.cancel()
        if self.transport is not None:
            self.transport.close()
        self._close_upstream()

    def pause_writing(self) -> None:
        if self.upstream is not None and self.upstream.transport is not None:
            self.upstream.transport.pause_reading()

    def resume_writing(self) -> None:
        if self.upstream is not None and self.upstream.transport is not None:
            self.upstream.transport.resume_reading()


class Proxy:
    """Listens on ``HOST``; each connection gets its own to ``target_host:target_port``."""

    def __init__(self, target_host: str, target_port: int, delay_s: float) -> None:
        self.target_host = target_host
        self.target_port = target_port
        self.armed_delay = delay_s
        self.delay = 0.0
        self.clients: set[Downstream] = set()
        self.server: asyncio.Server | None = None

    async def start(self, port: int = 0) -> int:
        loop = asyncio.get_running_loop()
        self.server = await loop.create_server(lambda: Downstream(self), HOST, port)
        found: int = self.server.sockets[0].getsockname()[1]
        return found

    def arm(self, on: bool) -> None:
        self.delay = self.armed_delay if on else 0.0

    def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for client in list(self.clients):
            client.close()


async def serve(
    target_host: str, target_port: int, delay_s: float, port: int, out: IO[str], armed: bool = False
) -> None:
    proxy = Proxy(target_host, target_port, delay_s)
    proxy.arm(armed)
    listening = await proxy.start(port)
    loop = asyncio.get_running_loop()
    stopped = loop.create_future()

    def switch(on: bool) -> None:
        proxy.arm(on)
        print(ARMED if on else DISARMED, file=out, flush=True)

    loop.add_signal_handler(signal.SIGUSR1, switch, True)
    loop.add_signal_handler(signal.SIGUSR2, switch, False)

    def stop() -> None:
        if not stopped.done():
            stopped.set_result(None)

    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop)
    print(f"{READY} {HOST}:{listening}", file=out, flush=True)
    try:
        await stopped
    finally:
        proxy.close()


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.latency_proxy", description=__doc__)
    p.add_argument("--target", required=True, metavar="HOST:PORT", help="the server to forward to")
    p.add_argument("--delay-ms", type=float, required=True, help="delay of the client's bytes once armed")
    p.add_argument("--port", type=int, default=0, help="port to listen on (default: a free one, printed)")
    p.add_argument("--armed", action="store_true", help="start armed (default: armed by SIGUSR1)")
    args = p.parse_args(argv)
    host, _, port = args.target.rpartition(":")
    with asyncio.Runner(loop_factory=_loop_factory()) as runner:
        runner.run(serve(host or HOST, int(port), args.delay_ms / 1000, args.port, sys.stdout, args.armed))
    return 0


class LatencyProxy:
    """The proxy in its own process, in front of ``target_host:target_port``: :attr:`port` once started;
    :meth:`arm` and :meth:`disarm` return once it has switched. Stopped on exit."""

    def __init__(
        self, target_host: str, target_port: int, delay_ms: float, log_path: Path | None = None
    ) -> None:
        self.target = f"{target_host}:{target_port}"
        self.delay_ms = delay_ms
        self.log_path = log_path
        self.process: subprocess.Popen[str] | None = None
        self.port = 0

    def __enter__(self) -> Self:
        # Run as a script: it imports nothing of the project, whatever PYTHONPATH holds.
        command = [
            sys.executable,
            str(Path(__file__).resolve()),
            "--target",
            self.target,
            "--delay-ms",
            str(self.delay_ms),
        ]
        stderr: IO[str] | int = subprocess.DEVNULL if self.log_path is None else self.log_path.open("w")
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, text=True)
        if not isinstance(stderr, int):
            stderr.close()  # the child has its own
        try:
            line = self._line()
            if not line.startswith(READY):
                raise ProxyError(f"the latency proxy printed {line!r}")
            self.port = int(line.rsplit(":", 1)[1])
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def _line(self, timeout_s: float = 30.0) -> str:
        """The proxy's next line on stdout (it prints one per start, arm, disarm)."""
        assert self.process is not None and self.process.stdout is not None
        with selectors.DefaultSelector() as sel:
            sel.register(self.process.stdout, selectors.EVENT_READ)
            if not sel.select(timeout_s):
                raise ProxyError(f"the latency proxy said nothing in {timeout_s:.0f} s")
        line = self.process.stdout.readline()
        if not line:
            raise ProxyError(f"the latency proxy exited ({self.process.poll()})")
        return line.strip()

    def _switch(self, signum: signal.Signals, expected: str) -> None:
        assert self.process is not None
        self.process.send_signal(signum)
        line = self._line()
        if line != expected:
            raise ProxyError(f"the latency proxy answered {line!r}, not {expected!r}")

    def arm(self) -> None:
        """Delay the client's bytes from now on."""
        self._switch(signal.SIGUSR1, ARMED)

    def disarm(self) -> None:
        """Stop delaying (what is held still goes in order)."""
        self._switch(signal.SIGUSR2, DISARMED)

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def cpu_seconds(self) -> float | None:
        """User + system CPU the proxy has used so far (Linux ``/proc``; else None)."""
        # Imported here: the proxy's own process need not load the server's helpers.
        from benchmarks.server import process_cpu_seconds

        return None if self.process is None else process_cpu_seconds(self.process.pid)

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process.stdout is not None:
            process.stdout.close()


if __name__ == "__main__":
    sys.exit(main())
