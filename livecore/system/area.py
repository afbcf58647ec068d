"""The system area, as it declares itself (:class:`livecore.area.Area`): the service's own routes
(:mod:`livecore.system.api`), the generic error codes, and the limits of the conventions every area
follows (an area's own limits are its own declaration's, on the same page where they are conventions)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from livecore import idempotency, limits, ratelimit
from livecore.area import Area, ClientPart
from livecore.errors import GENERIC
from livecore.limits import duration
from livecore.ratelimit import DEFAULT_LIMITS, BucketName
from livecore.system import api
from livecore.system.handlers import HANDLERS
from livecore.webhooks import delivery, signing


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
            ("Idempotency key", f"{idempotency.KEY.describe()}, kept {duration(idempotency.TTL)}"),
            ("JSON body nesting, the top-level object included", f"at most {limits.JSON_DEPTH_MAX} levels"),
            ("Integers in queries and bodies, free-form objects included", "signed 64 bits"),
            (
                "Numbers that reach a score, a metric, a threshold or a board (progress `metrics`, scores,"
                " `score` overrides, the manifest's targets, thresholds, goals, limits and bot scores)",
                f"finite, {limits.BOARD_NUMBER.describe()}; a board's sum or total stops at the bound",
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


AREA = Area(
    name="system",
    summary="The service itself: health, ping, and the test environment's clock.",
    page="conventions",
    routes=api.ROUTES,
    handlers=HANDLERS,
    errors=GENERIC,
    limits=_limits,
    client=(ClientPart("server", "system", "livecore_client.resources.system", "ServerSystem"),),
)
