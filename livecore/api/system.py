"""System routes: the public health probe, the server key's ping and the test clock's advance."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

import attrs

from livecore import idempotency, limits, ratelimit
from livecore.api.route import Auth, Route, Surface
from livecore.area import Area
from livecore.crates import rules as crates
from livecore.economy import rules as economy
from livecore.errors import GENERIC, NOT_FOUND
from livecore.limits import Range, duration, limited
from livecore.operators import rules as operators
from livecore.ratelimit import DEFAULT_LIMITS, BucketName
from livecore.webhooks import delivery, signing


@attrs.frozen
class HealthResponse:
    status: str
    version: str
    time: datetime


@attrs.frozen
class ServerPingResponse:
    ok: bool
    studio_id: str
    game_id: str
    environment: str
    key_prefix: str
    time: datetime


#: How far one advance of the manual clock may go: a month. Every piece of scheduled work that comes
#: due on the way runs, so a larger step would hold the request for minutes; call again to go further.
CLOCK_STEP = Range(0, 31 * 86_400)


@attrs.frozen
class ClockAdvanceRequest:
    seconds: float = attrs.field(metadata=limited(CLOCK_STEP))


@attrs.frozen
class ClockAdvanceResponse:
    now: datetime


HEALTH = Route(
    name="health",
    surface=Surface.ADMIN,
    method="GET",
    path="/health",
    summary="Public liveness probe.",
    auth=Auth.PUBLIC,
    response=HealthResponse,
)


PING = Route(
    name="ping",
    surface=Surface.SERVER,
    method="GET",
    path="/ping",
    summary="Connectivity and key probe.",
    response=ServerPingResponse,
)


CLOCK_ADVANCE = Route(
    name="dev.clock_advance",
    surface=Surface.SERVER,
    method="POST",
    path="/dev/clock/advance",
    summary="Move the manual clock forward and run the work that came due (serve --clock manual only).",
    request=ClockAdvanceRequest,
    response=ClockAdvanceResponse,
    test_only=True,
    errors=(NOT_FOUND,),
)

ROUTES = (HEALTH, PING, CLOCK_ADVANCE)


def _limits() -> Mapping[str, Sequence[tuple[str, str]]]:
    retries = ", ".join(duration(step) for step in delivery.RETRY_SCHEDULE)
    return {
        "conventions": [
            *(
                (
                    f"Rate limit, bucket `{b.value}`",
                    f"{n:,} requests a minute per "
                    + ("portal session or personal key" if b is BucketName.ADMIN else "API key"),
                )
                for b, n in DEFAULT_LIMITS.items()
            ),
            (
                "Wrong player secrets, per player and client address",
                f"{ratelimit.WRONG_SECRETS_PER_MINUTE} a minute, then 429"
                " (`serve --wrong-secrets-per-minute`)",
            ),
            (
                "Failed authentications (keys, session cookies, sign-in links), per client address",
                f"{ratelimit.AUTH_FAILURES_PER_MINUTE} a minute, then 429 for the address"
                " (`serve --auth-failures-per-minute`; lifted by `livecore-server lockouts clear`)",
            ),
            (
                "Open event-board streams per API key, across processes",
                f"{ratelimit.OPEN_STREAMS_PER_KEY:,} (manifest `rate_limits.open_streams`), then 429",
            ),
            ("Personal key lifetime", f"{operators.KEY_LIFETIME.describe()} days"),
            ("Portal session", duration(operators.SESSION_TTL)),
            ("Sign-in link", f"{duration(operators.LOGIN_LINK_TTL)}, once"),
            ("Idempotency key", f"{idempotency.KEY.describe()}, kept {duration(idempotency.TTL)}"),
            ("JSON body nesting, the top-level object included", f"at most {limits.JSON_DEPTH_MAX} levels"),
            ("Integers in queries and bodies, free-form objects included", "signed 64 bits"),
            (
                "Numbers that reach a score, a metric, a threshold or a board (progress `metrics`, scores,"
                " `score` overrides, the manifest's targets, thresholds, goals, limits and bot scores)",
                f"finite, {limits.BOARD_NUMBER.describe()}; a board's sum or total stops at the bound",
            ),
            (
                "Amounts in reward, grant, gift and donation entries (every route and the manifest)",
                f"{economy.AMOUNT.describe()}; crates in a crate entry {crates.CRATE_AMOUNT.describe()}",
            ),
            ("Array fields", "a JSON array of the declared item type (a string or an object is refused)"),
            (
                "Names compared for uniqueness or by a filter (guild names, `name_filter`, name searches)",
                "by their fold: Unicode NFKC, case folding, every run of white space one space, trimmed",
            ),
            ("Ids and keys (`externalPlayerId`, path ids, economy keys)", limits.ID.describe()),
            ("Free-form text (`reason`, `sourceRefId`)", limits.FREE_TEXT.describe()),
            (
                "Free-form objects (`playerContext`, `metadata`, item `parameters` and `attributes`)",
                f"{limits.FREE_FORM.describe()}; every number finite",
            ),
        ],
        "webhooks": [
            ("Webhook retry schedule (after the first attempt)", f"{retries}; failed after the last"),
            ("Webhook attempt timeout (default)", duration(delivery.ATTEMPT_TIMEOUT)),
            ("Webhook circuit breaker", f"{delivery.BREAKER_THRESHOLD} consecutive failed attempts"),
            (
                "Webhook signature tolerance",
                f"{signing.DEFAULT_TOLERANCE} s past, {signing.DEFAULT_FUTURE_TOLERANCE} s future",
            ),
            ("Finished webhook deliveries kept", duration(delivery.RETENTION)),
        ],
    }


SYSTEM = Area(
    name="system",
    summary="The service itself: health, ping, and the test environment's clock.",
    page="conventions",
    routes=(HEALTH, PING, CLOCK_ADVANCE),
    errors=GENERIC,
    limits=_limits,
)
