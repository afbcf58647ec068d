"""Idempotency rules (docs/reference/conventions.md#idempotency).

- A write's key comes from the body field ``idempotencyKey`` where the route names one, else from the
  ``Idempotency-Key`` header; both present and different is a 400.
- Keys are scoped to the game, environment and route, and kept 24 hours.
- The fingerprint covers who asks (the credential: a player, an API key, a personal key or a signed-in
  member), method, concrete path, query and the body's JSON value (key order and white space do not
  matter, nor whether the key travels in the body or the header), so a replay of the same request by
  the same credential answers the stored response with ``Idempotent-Replay: true`` (201 becomes 200),
  and a different request under the same key, or the same one from another credential, is a 409: a
  stored answer is never handed to a credential that did not make it, and a write is never applied
  twice because a retry came with another key.
- An answer that shows a secret is kept only while that secret is the one in force: once it is replaced
  (rotated, or its player erased), the server withdraws the answer (:data:`WITHDRAWN`), and the key
  answers 409 from then on, to the same request too: the write is not applied again, and the secret is
  not shown again.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any

import attrs
import orjson

from livecore.errors import IDEMPOTENCY_CONFLICT, LivecoreError, invalid_request
from livecore.limits import Text

TTL = timedelta(hours=24)
KEY = Text(min_length=1, max_length=255, plain=True)
BODY_FIELD = "idempotencyKey"
HEADER = "Idempotency-Key"
#: The fingerprint of a withdrawn answer: its write was applied, the answer is gone. A request's own
#: fingerprint is a SHA-256 in hex, which never equals it.
WITHDRAWN = "withdrawn"


@attrs.frozen
class StoredResponse:
    scope: str
    key: str
    fingerprint: str
    status: int
    body: bytes
    created_at: datetime


def choose_key(body_key: Any, header_key: str | None) -> str | None:
    if body_key is not None and not isinstance(body_key, str):
        raise invalid_request("idempotencyKey must be a string.", {"idempotencyKey": "must be a string"})
    if body_key is not None and header_key is not None and body_key != header_key:
        raise invalid_request(
            "The Idempotency-Key header and the idempotencyKey field differ.",
            {"idempotencyKey": "differs from the Idempotency-Key header"},
        )
    # A refusal names where the key came from: the body field, else the header.
    if body_key is not None:
        return KEY.check(body_key, BODY_FIELD)
    return None if header_key is None else KEY.check(header_key, HEADER)


def fingerprint(principal: str, method: str, path: str, query: str, body: Any) -> str:
    """The request's fingerprint; ``principal`` names the credential that made it (its kind and id)."""
    if isinstance(body, dict) and "idempotencyKey" in body:
        body = {k: v for k, v in body.items() if k != "idempotencyKey"}
    # Sorted keys make the canonical form; orjson because every idempotent write computes it.
    canonical = orjson.dumps(body, option=orjson.OPT_SORT_KEYS)
    digest = hashlib.sha256()
    for part in (principal, method.upper(), path, query):
        digest.update(part.encode("utf-8"))
        digest.update(b"\x00")
    digest.update(canonical)
    return digest.hexdigest()


def is_live(stored: StoredResponse, now: datetime) -> bool:
    return now - stored.created_at < TTL


def check_replay(stored: StoredResponse | None, fp: str, now: datetime) -> StoredResponse | None:
    """The stored response to replay, None to run the write, or a 409 for a different request."""
    if stored is None or not is_live(stored, now):
        return None
    if stored.fingerprint == WITHDRAWN:
        raise LivecoreError(
            IDEMPOTENCY_CONFLICT,
            "This idempotency key's write was applied, but the secret its answer showed has been replaced"
            " since and is not shown again: rotate the secret again for a new one.",
            {"idempotencyKey": stored.key},
        )
    if stored.fingerprint != fp:
        raise LivecoreError(
            IDEMPOTENCY_CONFLICT,
            "This idempotency key was used with a different request, or by another credential.",
            {"idempotencyKey": stored.key},
        )
    return stored


def replay_status(original: int) -> int:
    return 200 if original == 201 else original
