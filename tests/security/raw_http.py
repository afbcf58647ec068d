"""HTTP/1.1 written by hand to the world's real server on 127.0.0.1: requests no client library would send
(header bytes that are not UTF-8, a NUL in a header, an 8 KB header line, a broken gzip body)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping

import attrs
import orjson

from tests.conftest import World


@attrs.frozen
class Answer:
    status: int
    headers: dict[str, str]  # names lower-cased
    body: bytes

    @property
    def json(self) -> object:
        return orjson.loads(self.body)

    @property
    def error(self) -> dict[str, object]:
        """The error envelope's ``error`` object; fails unless the answer is one, as JSON."""
        assert self.headers.get("content-type", "").startswith("application/json"), self
        envelope = self.json
        assert isinstance(envelope, dict) and set(envelope) == {"error"}, envelope
        error = envelope["error"]
        assert isinstance(error, dict) and set(error) <= {"code", "message", "details"}, error
        return error

    @property
    def fields(self) -> object:
        return self.error.get("details", {})["fields"]  # type: ignore[index]


def request(
    method: str,
    path: str,
    headers: Mapping[str, str | bytes] | Iterable[tuple[str, str | bytes]] | None = None,
    body: bytes = b"",
) -> bytes:
    """One request; ``headers`` as pairs sends a header more than once."""
    lines = [f"{method} {path} HTTP/1.1".encode(), b"Host: 127.0.0.1"]
    for name, value in headers.items() if isinstance(headers, Mapping) else headers or ():
        lines.append(name.encode() + b": " + (value if isinstance(value, bytes) else value.encode()))
    if body:
        lines.append(b"Content-Length: " + str(len(body)).encode())
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


async def exchange(world: World, raw: bytes) -> Answer:
    """Send ``raw`` on a new connection to the world's server and read one answer."""
    server = world.client.server
    reader, writer = await asyncio.open_connection(server.host, server.port)
    try:
        writer.write(raw)
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        headers = {}
        for line in header_lines:
            if line:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
        body = await reader.readexactly(int(headers.get("content-length", "0")))
        return Answer(int(status_line.split()[1]), headers, body)
    finally:
        writer.close()
