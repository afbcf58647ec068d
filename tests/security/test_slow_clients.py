"""Slow clients (docs/server.md, "Slow clients") against a real server on 127.0.0.1, with raw sockets:
a request head must arrive within the header timeout, a body within the body timeout, and a client that
goes away is an INFO line, not an ERROR traceback."""

from __future__ import annotations

import logging
import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner

from livecore_server import cli_serve
from livecore_server.cli import main
from livecore_server.config import Config
from livecore_server.embedded import serve_in_thread
from tests.conftest import apply_test_manifest, make_services, service_args
from tests.server.test_cli import _serve_config
from tests.waiting import until_sync

HEADER_TIMEOUT = 1.0
BODY_TIMEOUT = 1.0


@pytest.fixture
def server(db_url: str) -> Iterator[tuple[str, int, dict[str, str]]]:
    seeding = make_services(db_url)
    applied = apply_test_manifest(seeding)
    seeding.close()
    keys = {name: k["secret"] for name, k in applied["games"]["space-race"]["apiKeys"].items()}
    config, clock, rng = service_args(db_url, header_timeout=HEADER_TIMEOUT, body_timeout=BODY_TIMEOUT)
    with serve_in_thread(config, clock, rng) as served:
        host, port = served.base_url.removeprefix("http://").split(":")
        yield host, int(port), keys


def _connect(server: tuple[str, int, Any]) -> socket.socket:
    sock = socket.create_connection(server[:2])
    sock.setblocking(False)
    return sock


def _readable(sock: socket.socket) -> bool:
    # poll, not select: with 500 connections and the server's own ends in this process, descriptors pass
    # select()'s limit of 1024 as soon as the process holds a few dozen others.
    poller = select.poll()
    poller.register(sock, select.POLLIN)
    return bool(poller.poll(0))


def _read(sock: socket.socket) -> tuple[bytes, bool]:
    """What the server sent since the last look, and whether it has closed the connection."""
    received = b""
    while _readable(sock):
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return received, True
        if not chunk:
            return received, True
        received += chunk
    return received, False


class Trickle:
    """Sockets that each send one more byte every time they are looked at, until the server closes them."""

    def __init__(self, sockets: list[socket.socket], data: bytes) -> None:
        self.sent = {sock: 0 for sock in sockets}
        self.answers = {sock: b"" for sock in sockets}
        self.data = data

    def step(self) -> bool:
        """One byte more on each open socket; True once the server closed them all."""
        for sock, sent in list(self.sent.items()):
            answer, closed = _read(sock)
            self.answers[sock] += answer
            if closed:
                del self.sent[sock]
                sock.close()
            elif sent < len(self.data):
                try:
                    sock.send(self.data[sent : sent + 1])
                    self.sent[sock] = sent + 1
                except BlockingIOError:
                    pass
        return not self.sent


def _health(server: tuple[str, int, Any]) -> int:
    with socket.create_connection(server[:2], timeout=10) as sock:
        sock.sendall(b"GET /admin/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return int(answer.split(b" ", 2)[1])


def test_500_connections_trickling_their_headers_are_closed_after_the_header_timeout(
    server: tuple[str, int, dict[str, str]],
) -> None:
    head = b"GET /admin/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200 + b"\r\n\r\n"
    started = time.monotonic()
    trickle = Trickle([_connect(server) for _ in range(500)], head)
    trickle.step()
    # Meanwhile the server answers everyone else at once.
    assert _health(server) == 200
    until_sync(trickle.step, lambda: f"{len(trickle.sent)} trickling connections still open", every=0.05)
    assert time.monotonic() - started >= HEADER_TIMEOUT
    assert set(trickle.answers.values()) == {b""}  # closed without an answer: no request was made


def test_a_connection_that_sends_nothing_is_closed_after_the_header_timeout(
    server: tuple[str, int, dict[str, str]],
) -> None:
    silent = Trickle([_connect(server)], b"")
    until_sync(silent.step, "the server to close the silent connection")
    assert list(silent.answers.values()) == [b""]


def test_a_body_trickled_past_the_body_timeout_is_408_and_the_connection_closes(
    server: tuple[str, int, dict[str, str]],
) -> None:
    body = b'{"name": "' + b"a" * 20 + b'"}'
    head = (
        b"PUT /server/v1/players/alice/identity HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + f"Authorization: Bearer {server[2]['test-server']}\r\n".encode()
        + b"Idempotency-Key: slow-1\r\nContent-Type: application/json\r\n"
        + f"Content-Length: {len(body) + 1000}\r\n\r\n".encode()
    )
    sock = _connect(server)
    sock.sendall(head)
    trickle = Trickle([sock], body + b" " * 1000)
    until_sync(trickle.step, "the server to give up on the body", every=0.05)
    answer = trickle.answers[sock]
    status_line, _, rest = answer.partition(b"\r\n")
    assert status_line == b"HTTP/1.1 408 Request Timeout"
    envelope = orjson.loads(rest.partition(b"\r\n\r\n")[2])
    assert envelope["error"]["code"] == "request_timeout"


def test_a_client_that_goes_away_mid_body_is_an_info_line_not_an_error(
    server: tuple[str, int, dict[str, str]], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    for i in range(20):
        sock = socket.create_connection(server[:2])
        sock.sendall(
            b"PUT /server/v1/players/alice/identity HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + f"Authorization: Bearer {server[2]['test-server']}\r\n".encode()
            + f"Idempotency-Key: gone-{i}\r\nContent-Type: application/json\r\n".encode()
            + b'Content-Length: 100\r\n\r\n{"name": '
        )
        sock.close()

    def gone() -> list[logging.LogRecord]:
        return [r for r in caplog.records if "went away" in r.getMessage()]

    until_sync(lambda: len(gone()) == 20, lambda: f"20 INFO lines, saw {len(gone())}")
    assert {r.levelno for r in gone()} == {logging.INFO}
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert _health(server) == 200


def test_serve_and_demo_take_the_timeouts_as_flags_or_variables(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in ("LIVECORE_HEADER_TIMEOUT", "LIVECORE_BODY_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)
    result, config = _serve_config(monkeypatch, tmp_path)
    assert result.exit_code == 0, result.output
    assert config is not None and (config.header_timeout, config.body_timeout) == (15.0, 30.0)
    built: list[Config] = []
    monkeypatch.setattr(cli_serve, "_serve", lambda config, *_, **__: built.append(config))
    (tmp_path / "serve.db").touch()  # serve runs only on a database that exists; demo makes its own
    for command in ("serve", "demo"):
        built.clear()
        result = CliRunner().invoke(
            main,
            # Port 0: any free port, so the test never holds (or waits for) the README demo's 8080.
            [command, "--db", str(tmp_path / f"{command}.db"), "--port", "0", "--header-timeout", "2.5"],
            env={"LIVECORE_BODY_TIMEOUT": "0.25"},
        )
        assert result.exit_code == 0, result.output
        assert (built[0].header_timeout, built[0].body_timeout) == (2.5, 0.25), command
    for value in ("0", "-1", "3601", "nan", "ten"):
        result, config = _serve_config(monkeypatch, tmp_path, "--body-timeout", value)
        assert result.exit_code == 2 and config is None
        assert "Invalid value for '--body-timeout'" in result.stderr
