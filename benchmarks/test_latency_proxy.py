"""The latency proxy (``--db-latency-ms``): the bytes pass intact and in order, and a round trip through
it, once armed, takes at least the delay longer (a lower bound: this shared machine may add more)."""

from __future__ import annotations

import os
import socket
import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

import psycopg

from benchmarks.harness import proxied
from benchmarks.latency_proxy import LatencyProxy
from tests.postgres_support import require_postgres

DELAY_MS = 30


@contextmanager
def echo_server() -> Iterator[int]:
    """A TCP server on loopback sending back whatever it reads, one thread per connection."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()

    def echo(conn: socket.socket) -> None:
        with conn:
            while data := conn.recv(65536):
                conn.sendall(data)

    def accept() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=echo, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield listener.getsockname()[1]
    finally:
        listener.close()


def _read(sock: socket.socket, n: int) -> bytes:
    out = bytearray()
    while len(out) < n:
        chunk = sock.recv(n - len(out))
        assert chunk, "the proxy closed the connection"
        out += chunk
    return bytes(out)


def test_bytes_pass_intact_and_in_order_and_a_round_trip_waits_the_delay() -> None:
    with echo_server() as port, LatencyProxy("127.0.0.1", port, DELAY_MS) as proxy:
        with socket.create_connection(("127.0.0.1", proxy.port), timeout=10) as sock:
            started = time.perf_counter()
            sock.sendall(b"ping")
            assert _read(sock, 4) == b"ping"
            assert (time.perf_counter() - started) * 1000 < DELAY_MS  # unarmed: no delay
            proxy.arm()
            # Chunks sent one after another, several held at once: they arrive whole and in order.
            sent = [os.urandom(n) for n in (1, 700, 65536, 3, 200_000, 12)]
            started = time.perf_counter()
            for chunk in sent:
                sock.sendall(chunk)
            assert _read(sock, sum(map(len, sent))) == b"".join(sent)
            assert (time.perf_counter() - started) * 1000 >= DELAY_MS
            proxy.disarm()
            sock.sendall(b"pong")
            assert _read(sock, 4) == b"pong"
        assert proxy.alive() and (proxy.cpu_seconds() or 0) >= 0


def _select_one_ms(dsn: str, times: int = 5) -> float:
    """The median time of ``SELECT 1`` on one connection (one round trip each)."""
    with psycopg.connect(dsn, autocommit=True, connect_timeout=10) as conn:
        conn.execute("SELECT 1").fetchone()
        spent = []
        for _ in range(times):
            started = time.perf_counter()
            assert conn.execute("SELECT 1").fetchone() == (1,)
            spent.append((time.perf_counter() - started) * 1000)
    return statistics.median(spent)


def test_select_1_through_the_armed_proxy_takes_the_delay_longer_and_answers_intact() -> None:
    server = require_postgres()
    direct = _select_one_ms(server)
    target = urlsplit(server)
    with LatencyProxy(target.hostname or "127.0.0.1", target.port or 5432, DELAY_MS) as proxy:
        url = proxied(server, proxy.port)
        proxy.arm()
        through = _select_one_ms(url)
        with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
            big = "é" * 300_000  # about 600 kB each way, in many chunks
            assert conn.execute("SELECT %s::text, length(%s::text)", (big, big)).fetchone() == (big, len(big))
    assert through >= DELAY_MS, (direct, through)
    assert through - direct >= DELAY_MS * 0.9, (direct, through)


def test_the_proxied_url_keeps_everything_but_the_host_and_port() -> None:
    assert proxied("postgresql://postgres:pw@db.example:6543/lc_bench_x?sslmode=disable", 4321) == (
        "postgresql://postgres:pw@127.0.0.1:4321/lc_bench_x?sslmode=disable"
    )
    assert proxied("postgresql://127.0.0.1/test", 99) == "postgresql://127.0.0.1:99/test"
