"""Members signing in and out (docs/operators.md#signing-in): one-time links, portal sessions.

- ``livecore-server members login-link <member>`` mints a link that works once, for 15 minutes
  (:data:`~livecore.operators.rules.LOGIN_LINK_TTL`). Opening it shows a button; pressing it (a POST, so that
  a
  mail scanner fetching the link does not use it up) starts a session.
- A session is a random token in an HTTP-only, SameSite=Strict cookie (Secure on https), stored as a keyed
  hash, that lasts 12 hours (:data:`~livecore.operators.rules.SESSION_TTL`). Every sign-in mints a new token:
  a cookie the browser held before is never promoted to a session (no session fixation).
- Signing out ends the session on the server; its cookie then opens nothing.
- OpenID Connect (``livecore_server.operators.oidc``) starts the same sessions, for the member whose email the
  provider verified.
- ``livecore-server members personal-key <member>`` makes the member's personal key without a browser: the
  portal's own route run for the member (:func:`issue_personal_key`).
"""

from __future__ import annotations

from livecore.clock import to_millis
from livecore.ids import new_id, new_secret
from livecore.operators.api import PERSONAL_KEY_CREATE, PersonalKeySecretResponse
from livecore.operators.audit import write
from livecore.operators.rules import (
    KEY_DAYS_OFFERED,
    LOGIN_LINK_TTL,
    SESSION_ID_PREFIX,
    SESSION_TTL,
    Action,
    Operator,
    Via,
)
from livecore.roles import Role
from livecore_server.operators.access import run_route_now, session_operator
from livecore_server.operators.area import SERVER_AREA
from livecore_server.operators.sql import operators_tx
from livecore_server.operators.sql.members import Member
from livecore_server.services import Services
from livecore_server.storage.server_store import ServerTransaction

LINK_PREFIX = "lnk_"
SESSION_PREFIX = "lcs_"
# Where members reach the portal, as the last server started on the database serves it (``server_meta``):
# the address ``members login-link`` prints its link under unless told another.
PORTAL_ADDRESS = "portal_address"
# ``serve``'s own default, for a database no server has served yet.
DEFAULT_PORTAL_ADDRESS = "http://127.0.0.1:8080"


def served_address(host: str, port: int, public_url: str | None) -> str:
    """Where members reach a server listening on ``host``:``port``: its public URL when it has one
    (``LIVECORE_PUBLIC_URL``), else the listening address, this machine's loopback for a wildcard."""
    if public_url:
        return public_url.rstrip("/")
    host = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def link_address(tx: ServerTransaction) -> str:
    """The address a sign-in link is printed under when none is given (:data:`PORTAL_ADDRESS`)."""
    return tx.meta.get(PORTAL_ADDRESS) or DEFAULT_PORTAL_ADDRESS


class SignInError(LookupError):
    """The CLI named a studio or member that does not exist."""


def issue_login_link(services: Services, member_key: str, studio_key: str | None = None) -> str:
    """A one-time sign-in token for the member (the portal's ``/portal/login/<token>``). ``studio_key``
    may be left out when the database holds one studio."""
    rt = services.runtime
    now = rt.clock.now()
    token = new_secret(rt.rng, prefix=LINK_PREFIX)

    def run(tx: ServerTransaction) -> None:
        member = _member(tx, member_key, studio_key)
        operators_tx(tx).members.insert_link(
            rt.hasher.hash(token), member.id, to_millis(now), to_millis(now + LOGIN_LINK_TTL)
        )

    services.store.run(run)
    return token


def issue_personal_key(
    services: Services,
    member_key: str,
    studio_key: str | None = None,
    *,
    expires_in_days: int = KEY_DAYS_OFFERED,
    read_only: bool = False,
    role: Role | None = None,
) -> PersonalKeySecretResponse:
    """The member's new personal key, its secret to show once: the portal's route
    (``admin.personal_keys.create``) run for the member, so the same checks (400 naming the field), the
    key before it revoked, and its audit entry, whose actor is the member ``via: "cli"``. ``studio_key``
    may be left out when the database holds one studio."""
    member = services.store.run(lambda tx: _member(tx, member_key, studio_key), write=False)
    operator = Operator(member_id=member.id, studio_id=member.studio_id, role=member.role, via=Via.CLI)
    body: dict[str, object] = {"expiresInDays": expires_in_days, "readOnly": read_only}
    if role is not None:
        body["role"] = role.value
    (binding,) = [b for b in SERVER_AREA.served if b.route is PERSONAL_KEY_CREATE]
    made: PersonalKeySecretResponse = run_route_now(
        services, binding, operator, {"studio": member.studio_id}, body=body
    )
    return made


def _member(tx: ServerTransaction, member_key: str, studio_key: str | None) -> Member:
    studios = tx.manifest.studio_keys()
    if studio_key is None:
        if len(studios) != 1:
            raise SignInError(f"name the studio (--studio): the database holds {len(studios)}")
        studio_key = studios[0]
    studio_id = tx.manifest.studio_id(studio_key)
    if studio_id is None:
        raise SignInError(f"no studio {studio_key!r}")
    member = operators_tx(tx).members.by_key(studio_id, member_key)
    if member is None or member.removed_at_ms is not None:
        raise SignInError(f"no member {member_key!r} in studio {studio_key!r}")
    return member


def _start(tx: ServerTransaction, services: Services, member: Member, via: str, ip: str | None) -> str:
    rt = services.runtime
    now = rt.clock.now()
    token = new_secret(rt.rng, prefix=SESSION_PREFIX)
    session_id = new_id(SESSION_ID_PREFIX, now, rt.rng)
    operators_tx(tx).members.insert_session(
        session_id, rt.hasher.hash(token), member.id, via, to_millis(now), to_millis(now + SESSION_TTL), ip
    )
    write(
        operators_tx(tx),
        rt,
        session_operator(member, session_id).actor(),
        Action.MEMBER_SIGN_IN.value,
        f"member:{member.id}",
        studio_id=member.studio_id,
        metadata={"via": via},
        ip=ip,
    )
    return token


async def redeem_link(services: Services, token: str, ip: str | None) -> str | None:
    """Use a sign-in link up and start a session: its cookie token, or None for a link that does not
    work (unknown, used, expired, or of a removed member)."""
    if not token.startswith(LINK_PREFIX) or len(token) > 100:
        return None
    rt = services.runtime

    def run(tx: ServerTransaction) -> str | None:
        member = rt.hasher.find(
            token, lambda d: operators_tx(tx).members.use_link(d, to_millis(rt.clock.now()))
        )
        return None if member is None else _start(tx, services, member, "link", ip)

    result: str | None = await services.store.run_async(run)
    return result


async def start_for_email(services: Services, email: str, ip: str | None) -> str | None:
    """A session for the member with that (verified) email, or None when none has it. A person who is a
    member of several studios signs in to the first by studio key (docs/operators.md#openid-connect)."""

    def run(tx: ServerTransaction) -> str | None:
        member = operators_tx(tx).members.by_email(email)
        return None if member is None else _start(tx, services, member, "oidc", ip)

    result: str | None = await services.store.run_async(run)
    return result


async def sign_out(services: Services, operator: Operator, ip: str | None) -> None:
    """End the operator's session on the server."""
    session_id = operator.session_id
    if session_id is None:
        return
    rt = services.runtime

    def run(tx: ServerTransaction) -> None:
        operators_tx(tx).members.end_session(session_id, to_millis(rt.clock.now()))
        write(
            operators_tx(tx),
            rt,
            operator.actor(),
            Action.MEMBER_SIGN_OUT.value,
            f"member:{operator.member_id}",
            studio_id=operator.studio_id,
            ip=ip,
        )

    await services.store.run_async(run)
