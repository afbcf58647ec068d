"""A livecore webhook receiver that verifies signatures and dedupes deliveries, on the standard library.

    python examples/webhook_receiver.py --secret whsec_... --port 9000 [--area studio_quests]

It needs only the plain install (docs/client.md#installing-only-the-client): ``http.server`` serves, and
``livecore_client.webhooks`` verifies. Point a webhook endpoint at ``http://localhost:9000/webhooks``
(docs/webhooks.md#from-the-demo-to-your-receiver walks the demo's way there). Plain http is allowed for
loopback hosts outside production (docs/reference/webhooks.md). While the secret is being rotated, pass
``--secret`` twice, new one first. Each accepted event is printed on one line, with the class its ``data``
was read into: the kind's payload class, or ``dict`` for a kind this receiver does not know. A studio's
own areas' kinds are read into their classes as the built-in kinds are when their packages are given,
``--area studio_quests`` (``construct_event(..., areas=[AREA])``): ``quest.checked_in`` arrives as a
``QuestCheckedIn``, its fields typed (``event.data.streak``), where without it its ``data`` is a ``dict``.

What a receiver must do (docs/reference/webhooks.md):

- Verify the raw body exactly as it arrived. Parsing the JSON and serializing it again changes the bytes
  and breaks the signature. ``construct_event`` checks the signature, refuses stale and future
  timestamps, and only then parses the body.
- Dedupe by event id. Delivery is at least once, and a retry or a replay has the same ``evt_`` id. Here
  the ids live in memory and only the most recent ones are kept. A real receiver records them in its
  database, in the same transaction as the work the event triggers.
- Answer 2xx quickly, also for a duplicate, or the service retries it. Answer 400 for a bad signature
  or a body that is not an envelope.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections import OrderedDict
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, HTTPServer

import orjson

from livecore.area import Area
from livecore_client.webhooks import (
    SIGNATURE_HEADER,
    TEST_DELIVERY_HEADER,
    InvalidPayloadError,
    WebhookSignatureError,
    construct_event,
)


class RecentIds:
    """The last ``limit`` event ids, oldest forgotten first. Retries of an event arrive within about 31 hours
    (docs/reference/webhooks.md), so a few thousand ids cover a small game. A replay after that is processed
    again, which is why a real receiver keeps its ids in its database."""

    def __init__(self, limit: int = 10_000) -> None:
        self.limit = limit
        self._ids: OrderedDict[str, None] = OrderedDict()

    def add(self, event_id: str) -> bool:
        """Remember ``event_id``; ``False`` if it was already there."""
        if event_id in self._ids:
            self._ids.move_to_end(event_id)
            return False
        self._ids[event_id] = None
        if len(self._ids) > self.limit:
            self._ids.popitem(last=False)
        return True

    def __len__(self) -> int:
        return len(self._ids)


class Receiver(HTTPServer):
    """``POST /webhooks``, verified with ``secret`` (or any of several while rotating). It answers one
    request at a time, so two concurrent copies of an event cannot both get through the dedupe. ``areas``:
    a studio's own areas, whose kinds are read into their payload classes."""

    def __init__(
        self,
        address: tuple[str, int],
        secret: str | Sequence[str],
        *,
        seen_limit: int = 10_000,
        areas: Sequence[Area] = (),
    ) -> None:
        super().__init__(address, Handler)
        self.secret = secret
        self.seen = RecentIds(seen_limit)
        self.areas = tuple(areas)


class Handler(BaseHTTPRequestHandler):
    server: Receiver

    def do_POST(self) -> None:
        if self.path != "/webhooks":
            self._answer(404, "not found\n")
            return
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))  # raw bytes, as signed
        try:
            event = construct_event(
                body, self.headers.get(SIGNATURE_HEADER), self.server.secret, areas=self.server.areas
            )
        except WebhookSignatureError as exc:
            print(f"rejected: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
            self._answer(400, "bad signature\n")
            return
        except InvalidPayloadError as exc:
            print(f"rejected: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
            self._answer(400, "invalid payload\n")
            return
        if not self.server.seen.add(event.id):
            self._answer(200, "duplicate\n")
            return
        sample = " sample" if self.headers.get(TEST_DELIVERY_HEADER) == "1" else ""
        data = orjson.dumps(event.raw.get("data")).decode()
        print(
            f"{event.id} {event.event_name} attempt={event.delivery_attempt}{sample} "
            f"game={event.game_id} as={type(event.data).__name__} data={data}",
            flush=True,
        )
        self._answer(200, "ok\n")

    def _answer(self, status: int, text: str) -> None:
        body = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the accepted events are the output, and a rejection is told on stderr above."""


def studio_areas(packages: Sequence[str]) -> list[Area]:
    """The areas of the packages named, found as the server finds them (their ``AREA``)."""
    if not packages:
        return []
    from livecore.registry import studio_area  # the core's commands: read only when a studio's is named

    return [studio_area(package) for package in packages]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--secret",
        action="append",
        required=True,
        help="the endpoint's signing secret; give it twice while rotating (new first)",
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=9000)
    parser.add_argument(
        "--area",
        action="append",
        default=[],
        metavar="PACKAGE",
        help="a studio's area package (importable), whose webhook kinds are read typed; repeatable",
    )
    args = parser.parse_args(argv)
    with Receiver((args.host, args.port), args.secret, areas=studio_areas(args.area)) as receiver:
        print(f"listening on http://{args.host}:{args.port}/webhooks", flush=True)
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C stops it quietly
            receiver.serve_forever()


if __name__ == "__main__":
    main()
