"""The server's configuration: what a command's flags and the environment set, read before anything is
opened. Kept apart from :mod:`livecore_server.services` so that the CLI reads its defaults without importing
the server (docs/server.md, "The CLI")."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit

import attrs

from livecore.ratelimit import AUTH_FAILURES_PER_MINUTE, DEFAULT_LIMITS, WRONG_SECRETS_PER_MINUTE, BucketName
from livecore_server.geo import CountryLookup, offline_country

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(db: str) -> bool:
    return db.startswith(POSTGRES_SCHEMES)


def sqlite_path(db: str) -> str:
    """``livecore.db`` or ``sqlite:///abs/path.db`` -> a filesystem path."""
    if db.startswith("sqlite://"):
        return db.removeprefix("sqlite://")
    return str(Path(db))


ENV_ISSUER = "LIVECORE_OIDC_ISSUER"
ENV_CLIENT_ID = "LIVECORE_OIDC_CLIENT_ID"
ENV_CLIENT_SECRET = "LIVECORE_OIDC_CLIENT_SECRET"


@attrs.frozen
class OidcSettings:
    """The portal's OpenID Connect provider (docs/operators.md#openid-connect), the client the portal signs
    members in with (:mod:`livecore_server.operators.oidc`)."""

    issuer: str
    client_id: str
    client_secret: str = attrs.field(repr=False)
    redirect_uri: str
    scope: str = "openid email"

    @classmethod
    def from_env(cls, environ: Mapping[str, str], redirect_uri: str) -> OidcSettings | None:
        """The settings from ``LIVECORE_OIDC_ISSUER``, ``_CLIENT_ID`` and ``_CLIENT_SECRET``; None without an
        issuer (single sign-on off). Raises ValueError when the issuer is set but the rest is not."""
        issuer = environ.get(ENV_ISSUER, "").strip()
        if not issuer:
            return None
        missing = [name for name in (ENV_CLIENT_ID, ENV_CLIENT_SECRET) if not environ.get(name, "").strip()]
        if missing:
            raise ValueError(f"{ENV_ISSUER} is set, so OpenID Connect needs {' and '.join(missing)} too")
        url = urlsplit(issuer)
        loopback = url.hostname in ("localhost", "127.0.0.1", "::1")
        if not (url.scheme == "https" or (url.scheme == "http" and loopback)) or not url.hostname:
            raise ValueError(f"{ENV_ISSUER} must be an https:// URL (http:// only on this machine)")
        return cls(
            issuer=issuer,
            client_id=environ[ENV_CLIENT_ID].strip(),
            client_secret=environ[ENV_CLIENT_SECRET].strip(),
            redirect_uri=redirect_uri,
        )


@attrs.frozen
class Config:
    db: str = "livecore.db"
    # A studio's own areas to serve, by package name (serve --area, LIVECORE_AREAS, entry points;
    # livecore_server/plugins.py), besides those the applied manifest names.
    areas: tuple[str, ...] = ()
    geo_headers: tuple[str, ...] = ("CF-IPCountry", "CloudFront-Viewer-Country")
    # The country of a client address when no geo header names one (docs/players.md#country);
    # serve --no-ip-country sets no_country.
    country_of: CountryLookup = offline_country
    key_cache_ttl: float = 1.0
    # Seconds a heartbeat may reuse the player row it read (livecore_server.players.cache): while this
    # process hears of every player write (always on SQLite; on PostgreSQL while its notification
    # connection listens), and while it does not.
    player_cache_watched_ttl: float = 300.0
    player_cache_ttl: float = 1.0
    bench_baseline: bool = False
    # A benchmarking aid: the file the SQLite store's statement count is written to on SIGUSR1 (None:
    # nothing counted). LIVECORE_STATEMENT_TALLY; livecore_server/statement_tally.py.
    statement_tally: str | None = None
    # docs/reference/webhooks.md; serve --webhook-timeout / LIVECORE_WEBHOOK_TIMEOUT
    webhook_timeout: float = 10.0
    # docs/server.md, "Slow clients": seconds a connection has to send a request's line and headers (from
    # when it opened, or from the previous response), and a request's body (from when it is read).
    header_timeout: float = 15.0
    body_timeout: float = 30.0
    # docs/webhooks.md, "Endpoint URLs": private addresses may be webhook targets (serve
    # --allow-private-webhooks).
    allow_private_webhooks: bool = False
    # docs/reference/conventions.md#rate-limits: wrong player secrets a minute per player and address
    # before 429 (serve --wrong-secrets-per-minute).
    wrong_secrets_per_minute: int = WRONG_SECRETS_PER_MINUTE
    # docs/reference/conventions.md#rate-limits: failed authentications a minute per client address before
    # 429 (serve --auth-failures-per-minute; livecore_server/lockouts.py).
    auth_failures_per_minute: int = AUTH_FAILURES_PER_MINUTE
    # docs/reference/conventions.md#rate-limits: requests a minute per client address and bucket of those
    # without a valid key (public routes, and refused keys), or None for each bucket's default (serve
    # --address-requests-per-minute).
    address_requests_per_minute: int | None = None
    # docs/reference/conventions.md#rate-limits: admin requests a minute per portal session or personal key
    # before 429 (the ``admin`` bucket; serve --admin-requests-per-minute).
    admin_requests_per_minute: int = DEFAULT_LIMITS[BucketName.ADMIN]
    # The request header a proxy in front of the server puts the client's address in (the last value of
    # all its lines, when that is an IP address: livecore_server.lockouts.client_address), or None: the
    # connection's peer (serve --client-address-header, docs/operators.md#the-client-address).
    client_address_header: str | None = None
    # PostgreSQL: the transactions a process runs at once, each on a connection of its pool.
    pool_size: int = 8
    # Seconds between writes of buffered heartbeats and key usage. Several processes (PostgreSQL) see
    # each other's heartbeats through the database, so they write them often.
    flush_every: float | None = None
    # Where the server key is kept when LIVECORE_SECRET_KEY is not set (None: livecore_server.crypto's
    # default place). Every process of one deployment needs the same key.
    key_file: str | None = None
    # Seconds of wall-clock time between two ``: ping`` comments on every board stream
    # (docs/events.md#the-live-stream).
    stream_ping_seconds: float = 15.0
    # The portal's OpenID Connect provider (docs/operators.md#openid-connect), or None: sign-in by link.
    oidc: OidcSettings | None = None
    # Where members reach the server (LIVECORE_PUBLIC_URL), or None: as each request reached it. Its
    # origin is the one the portal's forms must come from (docs/portal.md#cross-site-requests).
    public_url: str | None = None

    @property
    def postgres(self) -> bool:
        return is_postgres(self.db)

    @property
    def flush_seconds(self) -> float:
        if self.flush_every is not None:
            return self.flush_every
        return 1.0 if self.postgres else 5.0
