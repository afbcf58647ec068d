"""Where a state-changing portal request comes from (docs/portal.md#cross-site-requests).

The session cookie is SameSite=Strict, but a sign-in link's POST needs no cookie: another site could
post it and sign a victim's browser into the attacker's account. So every POST, PUT, PATCH and DELETE
under ``/portal/`` (sign-in included) must come from the portal's own origin: ``Origin`` when the
browser sends it, else ``Referer``, and neither is a refusal (every browser sends ``Origin`` on a POST).

The portal's own origin is the public URL when the server is told it (``LIVECORE_PUBLIC_URL``), else
scheme, host and port as the request reached the server: ``X-Forwarded-Proto`` and ``X-Forwarded-Host``
when a proxy in front sets them, else the connection's scheme and ``Host``. Trusting those headers here
gives an attacker nothing: the request to refuse is one a victim's browser sends, and a page cannot make
a browser send them.
"""

from __future__ import annotations

from aiohttp import web
from yarl import URL

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

Origin = tuple[str, str, int | None]  # scheme, host, port (the scheme's default when not written)


def _origin(url: str) -> Origin | None:
    try:
        parsed = URL(url)
    except ValueError:
        return None
    if not parsed.is_absolute() or parsed.scheme not in ("http", "https") or not parsed.host:
        return None
    return parsed.scheme, parsed.host.lower(), parsed.port


def _first(value: str | None) -> str | None:
    """The first of a proxy header's comma-separated values (the proxy nearest the client wrote it)."""
    if not value:
        return None
    return value.split(",", 1)[0].strip() or None


def own_origin(request: web.Request, public_url: str | None) -> Origin | None:
    """The origin the portal is served from, as the browser sees it; None when nothing tells it."""
    if public_url:
        return _origin(public_url)
    scheme = _first(request.headers.get("X-Forwarded-Proto")) or request.scheme
    host = _first(request.headers.get("X-Forwarded-Host")) or request.headers.get("Host")
    if not host:
        return None
    return _origin(f"{scheme}://{host}")


def sent_origin(request: web.Request) -> Origin | None:
    """The origin the request says it was sent from: ``Origin``, else ``Referer``'s."""
    sent = request.headers.get("Origin") or request.headers.get("Referer")
    return _origin(sent) if sent else None


def same_origin(request: web.Request, public_url: str | None) -> bool:
    """Whether a state-changing request was sent from a page of the portal's own origin."""
    sent = sent_origin(request)
    return sent is not None and sent == own_origin(request, public_url)
