"""Failed authentication, counted per client address (docs/reference/conventions.md#rate-limits): unknown,
revoked or malformed API keys and personal keys, forged or stale session cookies, sign-in links that do
not work. :data:`~livecore_server.config.AUTH_FAILURES_PER_MINUTE` a minute (a token bucket, as the keys'
buckets: one failure back every 3 s, all of them after a minute), then 429 ``rate_limited`` with
``Retry-After`` for every request of that address that needs a credential, the right ones included,
until a token is back. Other addresses are never slowed.

The count is kept in the database (table ``rate_buckets``, bucket :data:`AUTH_FAILURES`), shared by every
process on PostgreSQL, through the same take as the keys' buckets (``SharedRateLimiter.take_one``); on
SQLite through the ``rate_buckets`` port. So ``livecore-server lockouts clear`` lifts a lock-out from any
shell (docs/operators.md#lock-outs).

Only failures pay for it. Whether an address is locked is asked on every request, so it is answered from
this process's memory: the addresses whose last failure counted here left their bucket empty, each until
its next token is due (at most 60 / limit seconds: 3 s at the default). No right credential costs a read
or a write, and once an entry has run out the next failure asks the database again, so a lock-out another
process counted reaches this one at its next failure from that address, and a lock-out the operator
lifted is gone from every process within those seconds.
"""

from __future__ import annotations

import ipaddress
import re
from typing import TYPE_CHECKING

from livecore.errors import RATE_LIMITED, LivecoreError
from livecore.ratelimit import AUTH_FAILURES_PER_MINUTE, Bucket, Decision, decide, refill

if TYPE_CHECKING:
    from aiohttp import web

    from livecore_server.ratelimit import SharedRateLimiter
    from livecore_server.storage.server_store import ServerStore

AUTH_FAILURES = "auth_failure"  # the bucket's name in rate_buckets; never a key's (livecore.ratelimit)
IDLE_MS = 60_000  # a bucket untouched this long has refilled completely


def subject(address: str | None) -> str:
    return f"addr:{address}"


def address_of_subject(value: str) -> str:
    return value.removeprefix("addr:")


_PORT = re.compile(r":[0-9]{1,5}")


def normal_address(value: str) -> str | None:
    """``value`` as the one spelling of its IP address, or None when it is not one. The spellings of a
    proxy's header and of a peer are all read: ``::1``, ``0:0:0:0:0:0:0:1``, ``[::1]``, ``[::1]:443``,
    ``203.0.113.9:5000``, an RFC 7239 ``Forwarded`` element's ``for=`` (``for="[2001:db8::1]:443";
    proto=https``). An IPv4 address seen through IPv6 (``::ffff:203.0.113.9``) is the IPv4 address, and an
    IPv6 zone (``%eth0``) is dropped: one address, one bucket."""
    node = value.strip()
    if "=" in node:
        pairs = (pair.partition("=") for pair in node.split(";"))
        node = next((v.strip() for name, _, v in pairs if name.strip().lower() == "for"), "")
        if len(node) >= 2 and node[0] == node[-1] == '"':
            node = node[1:-1]
    if node.startswith("["):
        node, bracket, port = node[1:].partition("]")
        if not bracket or (port and not _PORT.fullmatch(port)):
            return None
    elif node.count(":") == 1:  # an IPv4 address and its port
        node, colon, port = node.partition(":")
        if not _PORT.fullmatch(colon + port):
            return None
    try:
        ip = ipaddress.ip_address(node)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address):
        mapped = ip.ipv4_mapped
        ip = mapped if mapped is not None else ipaddress.IPv6Address(int(ip))
    return str(ip)


def client_address(request: web.Request, header: str | None) -> str | None:
    """The client's address, normalised (:func:`normal_address`): the last value of ``header``
    (``serve --client-address-header``, the one the proxy in front of the server appends or sets) when
    the deployment names one, else the connection's peer.

    Every line of the header is one list (a client may send a line of its own ahead of the proxy's). A
    last value that is not an IP address (missing, ``unknown``, garbage, bytes that are not UTF-8, which
    aiohttp passes on as surrogates) is the proxy's or a direct client's doing, never a client's address
    to count: the peer stands in for it, so it is neither a bucket of its own nor a way around one."""
    if header is not None:
        lines = request.headers.getall(header, ())
        if lines:
            found = normal_address(",".join(lines).rsplit(",", 1)[-1])
            if found is not None:
                return found
    peer = request.remote
    return peer if peer is None else normal_address(peer) or peer


def rate_limited(decision: Decision, headers: dict[str, str]) -> LivecoreError:
    """The 429 of a locked-out address, with its bucket's rate-limit headers."""
    own = decision.headers()
    headers.update(own)
    return LivecoreError(
        RATE_LIMITED,
        "Too many failed authentications from this address; retry after the Retry-After delay.",
        headers=own,
    )


class AuthThrottle:
    """The failed authentications of client addresses (the module docstring)."""

    def __init__(
        self,
        store: ServerStore,
        shared: SharedRateLimiter | None = None,
        per_minute: int = AUTH_FAILURES_PER_MINUTE,
        header: str | None = None,
    ) -> None:
        self._store = store
        self._shared = shared
        self.limit = per_minute
        self.header = header
        # Addresses whose last failure counted here emptied their bucket: the bucket as it was then.
        self._locked: dict[str, Bucket] = {}
        self._counted_ms: int | None = None  # this process's last failure counted (SQLite's pruning)

    def address(self, request: web.Request) -> str | None:
        return client_address(request, self.header)

    def refused(self, address: str | None, now_ms: int) -> Decision | None:
        """The refusal to answer a request of a locked-out address, before its credential is checked;
        None (the usual case, a dictionary miss) to go on."""
        if not self._locked:
            return None
        bucket = self._locked.get(str(address))
        if bucket is None:
            return None
        tokens = refill(bucket, self.limit, now_ms)
        if tokens >= 1:
            del self._locked[str(address)]
            return None
        return decide(tokens, False, self.limit)

    async def failed(self, address: str | None, now_ms: int) -> Decision:
        """Count a failed authentication of ``address``; the decision is refused when no token was left
        for it (429 rather than 401: this or another process counted the rest)."""
        name, limit = subject(address), self.limit
        self._counted_ms = now_ms
        if self._shared is not None:
            decision = await self._shared.take_one(name, AUTH_FAILURES, limit, now_ms)
            tokens = float(decision.remaining)
        else:
            tokens, granted = await self._store.run_async(
                lambda tx: tx.rate_buckets.take(name, AUTH_FAILURES, limit, now_ms)
            )
            decision = decide(tokens, granted >= 1, limit)
        if tokens < 1:
            self._locked[str(address)] = Bucket(tokens, now_ms)
        return decision

    def check(self, request: web.Request, now_ms: int, headers: dict[str, str]) -> None:
        """Raise the 429 of a request from a locked-out address. Reads nothing of the request while no
        address is locked out here."""
        if not self._locked:
            return
        refused = self.refused(self.address(request), now_ms)
        if refused is not None:
            raise rate_limited(refused, headers)

    async def count(self, request: web.Request, now_ms: int, headers: dict[str, str]) -> None:
        """Count the request's failed authentication; raise the 429 when its address had none left (else
        the caller answers 401)."""
        decision = await self.failed(self.address(request), now_ms)
        if not decision.allowed:
            raise rate_limited(decision, headers)

    def locked_out(self) -> int:
        """The addresses this process refuses now, or did until their token came back (the metrics)."""
        return len(self._locked)

    async def prune(self, now_ms: int) -> int:
        """Forget the lock-outs that ran out here and, on SQLite, the buckets that refilled."""
        gone = [a for a, b in self._locked.items() if refill(b, self.limit, now_ms) >= 1]
        for a in gone:
            del self._locked[a]
        if self._shared is not None:  # SharedRateLimiter.prune drops every refilled bucket
            return len(gone)
        if self._counted_ms is None:  # nothing written since the last pass that found nothing to keep
            return len(gone)
        if now_ms - self._counted_ms > IDLE_MS:
            self._counted_ms = None
        cutoff = now_ms - IDLE_MS
        rows: int = await self._store.run_async(lambda tx: tx.rate_buckets.prune(AUTH_FAILURES, cutoff))
        return rows + len(gone)


class NotTheServersLimit(ValueError):
    """A bucket holds more tokens than a failure leaves under the limit given: the servers count
    against a larger one, which the database does not hold."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            f"the servers count more than {limit} failed authentications a minute: pass their"
            " --auth-failures-per-minute (or LIVECORE_AUTH_FAILURES_PER_MINUTE)"
        )


def lockouts(buckets: list[tuple[str, Bucket]], limit: int) -> list[tuple[str, int, int, int | None]]:
    """What ``lockouts list`` shows of each address's bucket, as of its last failure (the command may run
    on another clock than the server's: ``serve --clock manual``): the address, the failures counted
    then, when that was, and until when it is locked out (None: it was not). ``limit`` is the servers'
    (:class:`NotTheServersLimit` when a bucket shows it is not)."""
    out = []
    for name, bucket in buckets:
        if bucket.tokens > limit - 1:  # a failure leaves at most limit - 1
            raise NotTheServersLimit(limit)
        decision = decide(bucket.tokens, bucket.tokens >= 1, limit)
        until = (
            None
            if decision.retry_after_seconds is None
            else bucket.updated_ms + 1000 * decision.retry_after_seconds
        )
        out.append((address_of_subject(name), limit - int(bucket.tokens), bucket.updated_ms, until))
    return out
