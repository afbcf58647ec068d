"""A livecore webhook receiver in aiohttp that verifies signatures and dedupes deliveries.

    python examples/webhook_receiver.py --secret whsec_... --port 9000

Point a webhook endpoint at ``http://localhost:9000/webhooks``. Plain http is allowed for loopback hosts
outside production (docs/reference/webhooks.md). While the secret is being rotated, pass ``--secret`` twice,
new one first. Each accepted event is printed on one line.

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
import sys
from collections import OrderedDict
from collections.abc import Sequence

import orjson
from aiohttp import web

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


SEEN = web.AppKey("seen", RecentIds)


def make_app(secret: str | Sequence[str], *, seen_limit: int = 10_000) -> web.Application:
    """The receiver: ``POST /webhooks``, verified with ``secret`` (or any of several while rotating)."""

    async def receive(request: web.Request) -> web.Response:
        body = await request.read()  # raw bytes, as signed
        try:
            event = construct_event(body, request.headers.get(SIGNATURE_HEADER), secret)
        except WebhookSignatureError as exc:
            print(f"rejected: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
            return web.Response(status=400, text="bad signature\n")
        except InvalidPayloadError as exc:
            print(f"rejected: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
            return web.Response(status=400, text="invalid payload\n")
        # No await between the check and the print, so two concurrent copies cannot both get through.
        if not request.app[SEEN].add(event.id):
            return web.Response(text="duplicate\n")
        sample = " sample" if request.headers.get(TEST_DELIVERY_HEADER) == "1" else ""
        data = orjson.dumps(event.raw.get("data")).decode()
        print(
            f"{event.id} {event.event_name} attempt={event.delivery_attempt}{sample} "
            f"game={event.game_id} data={data}",
            flush=True,
        )
        return web.Response(text="ok\n")

    app = web.Application()
    app[SEEN] = RecentIds(seen_limit)
    app.router.add_post("/webhooks", receive)
    return app


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
    args = parser.parse_args(argv)
    print(f"listening on http://{args.host}:{args.port}/webhooks", flush=True)
    web.run_app(make_app(args.secret), host=args.host, port=args.port, print=None)


if __name__ == "__main__":
    main()
