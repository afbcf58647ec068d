"""Webhook signatures (docs/reference/webhooks.md#signing-and-verifying): the one implementation. The server's
dispatcher signs with it and ``livecore_client.webhooks`` verifies with it.

Rules:

- Header ``X-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>...]``. ``t`` is the wall-clock time of the
  delivery attempt (docs/reference/webhooks.md#signing-and-verifying), not service time.
- ``v1`` is the lowercase hex HMAC-SHA256 of ``<t>.`` followed by the raw body bytes, exactly as sent,
  keyed by the UTF-8 bytes of the whole endpoint secret (any ``whsec_`` style prefix included).
  ``<t>`` is the decimal timestamp in ASCII.
- While a secret is being rotated the sender puts one ``v1`` per secret in the header, and a receiver
  may hold several secrets. A delivery is authentic when any ``v1`` in the header equals the signature
  under any secret the receiver holds. Signatures are compared in constant time.
- Reading the header: it is a comma-separated list of ``key=value`` items. Spaces and tabs around an
  item and empty items are ignored, as for any HTTP list header (RFC 9110 section 5.6.1). There must be
  exactly one ``t``, written as plain ASCII digits, and at least one ``v1``. Unknown keys such as ``v0``
  are ignored, as Stripe ignores them, so new schemes can be added. Anything else (a non-ASCII header,
  an item without ``=``, a missing, repeated or non-integer ``t``, no ``v1``) is a
  :class:`MalformedHeaderError`.
- Freshness: a delivery is too old when ``now - t > tolerance`` (300 s) and too new when
  ``t - now > future_tolerance`` (60 s). Both bounds themselves are accepted. ``now`` is passed in
  because the core never reads the clock.
- Order of checks: the header first, then the signature, then the timestamp. A timestamp error is only
  ever reported for an authentic delivery, so it always means a replay or clock skew. A forged or
  edited ``t`` shows up as a bad signature.

Stripe compatibility (checked against stripe-python ``stripe/_webhook.py``, ``WebhookSignature``, in
the repository and in the 16.1.0 release): Stripe computes
``hmac.new(secret.encode("utf-8"), f"{t}.{payload}".encode("utf-8"), sha256).hexdigest()``. The key is
the whole secret string, ``whsec_`` prefix included, with no base64 decoding. The payload is the body
decoded as UTF-8 (``verify_header`` decodes bytes itself). Its header parser takes the first ``t`` and
every ``v1``, ignores other schemes, and compares with ``hmac.compare_digest``. It only rejects
timestamps older than the tolerance (``t < time.time() - tolerance``) and never rejects future ones.
So for any UTF-8 body, which every envelope is because it is JSON, our header verifies with
``stripe.WebhookSignature.verify_header(body, header, secret, tolerance=300)``. Stripe cannot verify
a body that is not valid UTF-8, because it decodes the body to ``str`` first. We sign and verify raw
bytes, so such a body still verifies here byte for byte. We are stricter than Stripe in a few places:
a repeated ``t``, ``t`` values such as ``+1`` or ``1_0`` that Python's ``int()`` would accept, and
non-ASCII headers are refused, and a timestamp more than ``future_tolerance`` ahead is rejected.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Sequence

__all__ = [
    "DEFAULT_FUTURE_TOLERANCE",
    "DEFAULT_TOLERANCE",
    "SCHEME",
    "SIGNATURE_HEADER",
    "BadSignatureError",
    "MalformedHeaderError",
    "SignatureError",
    "TimestampTooNewError",
    "TimestampTooOldError",
    "compute_signature",
    "parse_header",
    "signature_header",
    "verify_header",
]

SIGNATURE_HEADER = "X-Signature"
SCHEME = "v1"
DEFAULT_TOLERANCE = 300
DEFAULT_FUTURE_TOLERANCE = 60

# ``int()`` also accepts "+1", " 1", "1_000" and non-ASCII digits. A Unix time needs none of these, and
# the length cap (far beyond any real date) keeps huge numbers out of the arithmetic.
_TIMESTAMP = re.compile(r"[0-9]{1,15}")
_OWS = " \t"


class SignatureError(Exception):
    """The delivery cannot be trusted. The receiver should answer 4xx and not act on it."""


class MalformedHeaderError(SignatureError):
    """The signature header is missing or cannot be read."""

    def __init__(self, message: str, header: str) -> None:
        super().__init__(message)
        self.header = header


class BadSignatureError(SignatureError):
    """No ``v1`` in the header matches the body under any of the secrets: the body, its timestamp or
    the secret differ from what was signed."""


class _TimestampError(SignatureError):
    def __init__(self, message: str, *, timestamp: int, now: int, tolerance: int) -> None:
        super().__init__(message)
        self.timestamp = timestamp
        self.now = now
        self.tolerance = tolerance


class TimestampTooOldError(_TimestampError):
    """Authentic, but signed more than ``tolerance`` seconds ago: a replay, or a receiver clock ahead."""


class TimestampTooNewError(_TimestampError):
    """Authentic, but signed more than ``future_tolerance`` seconds ahead of ``now``: a sender or
    receiver clock is wrong."""


def compute_signature(secret: str, timestamp: int, payload: bytes) -> str:
    """The ``v1`` value: hex HMAC-SHA256 of ``b"<timestamp>." + payload`` keyed by ``secret``'s UTF-8
    bytes. This is Stripe's scheme byte for byte; see the module docstring."""
    _check_secret(secret)
    if isinstance(timestamp, bool) or not isinstance(timestamp, int) or timestamp < 0:
        raise ValueError("timestamp must be a non-negative integer (Unix seconds)")
    if isinstance(payload, str):
        # Decoding and re-encoding a body can change its bytes (and with them the signature).
        raise TypeError("payload must be the raw body bytes, not str")
    mac = hmac.new(secret.encode("utf-8"), f"{timestamp}.".encode("ascii"), hashlib.sha256)
    mac.update(payload)  # no concatenation, so a large body is not copied
    return mac.hexdigest()


def signature_header(
    secret: str, timestamp: int, payload: bytes, *, extra_secrets: Sequence[str] = ()
) -> str:
    """``t=<timestamp>,v1=<hex>``, plus one more ``v1`` per extra secret (rotation)."""
    # dict.fromkeys drops a secret given twice but keeps the order (the primary secret first).
    secrets = dict.fromkeys((secret, *_as_tuple(extra_secrets)))
    signatures = ",".join(f"{SCHEME}={compute_signature(s, timestamp, payload)}" for s in secrets)
    return f"t={timestamp},{signatures}"


def parse_header(header: str) -> tuple[int, list[str]]:
    """The timestamp and every ``v1`` value, in header order. Raises :class:`MalformedHeaderError`."""
    if not isinstance(header, str) or not header.strip(_OWS):
        raise MalformedHeaderError("the signature header is missing or empty", str(header))
    if not header.isascii():
        raise MalformedHeaderError("the signature header must be ASCII", header)
    timestamps: list[str] = []
    signatures: list[str] = []
    for raw_item in header.split(","):
        item = raw_item.strip(_OWS)
        if not item:
            continue
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise MalformedHeaderError(f"signature header item {_clip(item)!r} is not key=value", header)
        if key == "t":
            timestamps.append(value)
        elif key == SCHEME:
            signatures.append(value)
    if not timestamps:
        raise MalformedHeaderError("the signature header has no timestamp (t=)", header)
    if len(timestamps) > 1:
        # Stripe takes the first, but there is no honest reason for two, so we don't pick one.
        raise MalformedHeaderError("the signature header has more than one timestamp (t=)", header)
    if not _TIMESTAMP.fullmatch(timestamps[0]):
        raise MalformedHeaderError(
            f"the signature timestamp {_clip(timestamps[0])!r} is not an integer number of seconds", header
        )
    if not signatures:
        raise MalformedHeaderError(f"the signature header has no {SCHEME}= signature", header)
    return int(timestamps[0]), signatures


def verify_header(
    payload: bytes,
    header: str,
    secret: str | Sequence[str],
    *,
    now: int,
    tolerance: int = DEFAULT_TOLERANCE,
    future_tolerance: int = DEFAULT_FUTURE_TOLERANCE,
) -> int:
    """Check that ``header`` signs ``payload`` under one of the secrets and that it is fresh
    relative to ``now`` (Unix seconds). Returns the signed timestamp.

    Raises :class:`MalformedHeaderError`, :class:`BadSignatureError`, :class:`TimestampTooOldError` or
    :class:`TimestampTooNewError`. A bad argument (an empty secret, a negative tolerance, a ``str``
    payload) raises ``ValueError`` or ``TypeError``, because it is a bug in the caller and says nothing
    about the delivery."""
    secrets = _as_tuple(secret)
    if not secrets:
        raise ValueError("at least one secret is needed to verify a signature")
    if tolerance < 0 or future_tolerance < 0:
        raise ValueError("tolerances must not be negative")
    timestamp, candidates = parse_header(header)
    matched = False
    for s in secrets:
        expected = compute_signature(s, timestamp, payload)
        for candidate in candidates:
            # No early exit: how long this takes does not depend on which secret or value matched.
            # Both strings are ASCII (the header was checked), as compare_digest requires for str.
            matched |= hmac.compare_digest(expected, candidate)
    if not matched:
        raise BadSignatureError(
            f"no {SCHEME} signature in the header matches the payload under the given "
            f"secret{'s' if len(secrets) > 1 else ''}"
        )
    if now - timestamp > tolerance:
        raise TimestampTooOldError(
            f"signature timestamp {timestamp} is {now - timestamp} s old; at most {tolerance} s allowed",
            timestamp=timestamp,
            now=now,
            tolerance=tolerance,
        )
    if timestamp - now > future_tolerance:
        raise TimestampTooNewError(
            f"signature timestamp {timestamp} is {timestamp - now} s in the future; "
            f"at most {future_tolerance} s allowed",
            timestamp=timestamp,
            now=now,
            tolerance=future_tolerance,
        )
    return timestamp


def _as_tuple(secret: str | Sequence[str]) -> tuple[str, ...]:
    # A str is itself a Sequence[str], so it must be recognised before the general case.
    secrets = (secret,) if isinstance(secret, str) else tuple(secret)
    for s in secrets:
        _check_secret(s)
    return secrets


def _check_secret(secret: str) -> None:
    if not isinstance(secret, str):
        raise TypeError("a webhook secret must be a str")
    # An unset environment variable must not turn into a key everyone knows. Stripe refuses these too.
    if not secret.strip():
        raise ValueError("a webhook secret must not be empty or blank")


def _clip(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
