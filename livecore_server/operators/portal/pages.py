"""The portal's pages and forms (docs/portal.md).

Every page but sign-in needs a session (its cookie, read as the admin API reads it); without one a page
redirects to sign-in. Every form that changes something carries the session's CSRF token and is refused
without it (403). An action runs its admin route through ``run_route``; a refusal renders the error
page with the route's status and code. Secrets (a new API key, personal key, webhook secret or player
secret) are shown once, in the page that answers the form that made them.
"""

from __future__ import annotations

import contextlib
import hmac
import json
from collections.abc import Awaitable, Callable, Iterable, Mapping
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

import aiohttp_jinja2
import jinja2
from aiohttp import web
from aiohttp.typedefs import Middleware
from multidict import MultiDictProxy

from livecore.api.admin import CSRF_INVALID
from livecore.clock import format_ts, to_millis
from livecore.errors import METHOD_NOT_ALLOWED, NOT_FOUND, RATE_LIMITED, LivecoreError
from livecore.operators.area_action import AnyAction, actions_of, permits
from livecore.operators.errors import WEBHOOK_ENDPOINT_NOT_FOUND
from livecore.operators.members import csrf_token
from livecore.operators.rules import KEY_DAYS_OFFERED, SESSION_COOKIE, Operator
from livecore.players.errors import PLAYER_NOT_FOUND
from livecore_server.config import OidcSettings
from livecore_server.http.endpoint import Binding
from livecore_server.http.middlewares import REQUEST_IDS
from livecore_server.operators.access import credential_of, env_of, game_environment, run_route
from livecore_server.operators.oidc import OidcClient, OidcError, OidcPending
from livecore_server.operators.portal.origin import UNSAFE_METHODS, same_origin
from livecore_server.operators.sessions import redeem_link, sign_out, start_for_email
from livecore_server.services import SERVICES, Services

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

# The admin routes of every area served, by name, as the admin API serves them (:func:`portal_app`).
BINDINGS = web.AppKey("admin_bindings", dict[str, Binding])
# Their actions, by name, for the forms a member is offered.
ACTIONS = web.AppKey("admin_actions", dict[str, AnyAction])
OIDC = web.AppKey("oidc", OidcClient)
_OIDC_COOKIE = "livecore_oidc"
_SECURITY_HEADERS = {
    # Nothing but our own pages, styles and forms; no framing; a sign-in link in the address never leaks
    # through Referer to another site. Not no-referrer: under it a browser sends ``Origin: null`` with our
    # own forms' POSTs, which the origin check (portal/origin.py) could not tell from a foreign page's.
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; form-action 'self';"
    " frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


def _services(request: web.Request) -> Services:
    return request.config_dict[SERVICES]


def _address(request: web.Request) -> str | None:
    """The client's address (livecore_server.lockouts.client_address)."""
    return _services(request).auth_throttle.address(request)


def _ts(value: datetime | None) -> str:
    return "" if value is None else format_ts(value)


def render(request: web.Request, template: str, status: int = 200, **context: Any) -> web.Response:
    response = aiohttp_jinja2.render_template(template, request, context, status=status)
    response.headers.update(_SECURITY_HEADERS)
    return response


def _set_session(response: web.StreamResponse, request: web.Request, token: str) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=12 * 3600,
        path="/",
        httponly=True,
        samesite="Strict",
        secure=request.secure,
    )


# --- the signed-in member, and forms ------------------------------------------------------------------------


class Page:
    """What a signed-in page knows: the member, its CSRF token, its games."""

    def __init__(self, request: web.Request, operator: Operator, me: Any) -> None:
        self.request = request
        self.operator = operator
        self.me = me
        self.csrf = csrf_token(_services(request).runtime.hasher, operator.session_id or "")

    def may(self, action: str) -> bool:
        """Whether to offer the form of ``action`` (the server refuses it anyway when not)."""
        return permits(self.operator, self.request.config_dict[ACTIONS][action])

    def context(self, **more: Any) -> dict[str, Any]:
        return {"page": self, "me": self.me, "csrf": self.csrf, **more}

    async def run(
        self,
        name: str,
        params: Mapping[str, str] | None = None,
        *,
        body: Mapping[str, Any] | None = None,
        query: Mapping[str, str] | None = None,
    ) -> Any:
        studio = {"studio": self.operator.studio_id}
        return await run_route(
            _services(self.request),
            self.request.config_dict[BINDINGS][name],
            self.operator,
            {**studio, **(params or {})},
            body=body,
            query=query,
            remote=_address(self.request),
        )


def signed_in(handler: Callable[[Page], Awaitable[web.StreamResponse]]) -> Handler:
    """A page for members: sign-in when there is no session; a form's CSRF token checked on POST; a
    refusal of the action rendered as the error page."""

    async def page(request: web.Request) -> web.StreamResponse:
        services = _services(request)
        operator = await _session(request)
        if operator is None or operator.session_id is None:
            to_sign_in = web.HTTPSeeOther("/portal/")
            to_sign_in.del_cookie(SESSION_COOKIE, path="/")  # one that signs no one in is counted once
            raise to_sign_in
        me = await run_route(
            services, request.config_dict[BINDINGS]["admin.me"], operator, {}, remote=_address(request)
        )
        current = Page(request, operator, me)
        if request.method == "POST":
            form = await request.post()
            sent = str(form.get("csrf", ""))
            if not hmac.compare_digest(sent.encode(), current.csrf.encode()):
                return render(
                    request,
                    "error.html",
                    403,
                    **current.context(
                        code="csrf_invalid", message="The form's CSRF token is missing or stale."
                    ),
                )
        try:
            return await handler(current)
        except LivecoreError as exc:
            return render(
                request, "error.html", exc.status, **current.context(code=exc.code.value, message=exc.message)
            )

    return page


async def _form(page: Page) -> MultiDictProxy[Any]:
    return await page.request.post()


def _text(form: Mapping[str, Any], name: str) -> str | None:
    value = form.get(name)
    return str(value).strip() or None if value is not None else None


async def _env(page: Page, game: Any) -> str:
    """The environment the page names, else the one the game has API keys in (a game with only test
    keys, as the demo's, is looked up in test)."""
    named = env_of(page.request.query)
    if named is None:
        named = await _services(page.request).store.read(lambda tx: game_environment(tx, game.game_id))
    return named.value


def _redirect(location: str) -> web.Response:
    """303 See Other: after a form, the browser loads ``location`` with a GET."""
    return web.Response(status=303, headers={"Location": location})


def _back(path: str, **query: str) -> web.HTTPSeeOther:
    return web.HTTPSeeOther(f"{path}?{urlencode(query)}" if query else path)


# --- sign-in ------------------------------------------------------------------------------------------------


async def _session(request: web.Request) -> Operator | None:
    """The member the session cookie signs in, or None. A cookie that signs no one in (forged, or of a
    session that ended) is a failed authentication of the address (livecore_server/lockouts.py): 429
    once the address has none left."""
    if SESSION_COOKIE not in request.cookies:
        return None
    services = _services(request)
    operator = await credential_of(services, request)
    if operator is None:
        await services.auth_throttle.count(request, to_millis(services.clock.now()), {})
    return operator


async def home(request: web.Request) -> web.StreamResponse:
    operator = await _session(request)
    if operator is None or operator.session_id is None:
        page = render(request, "signin.html", sso=OIDC in request.config_dict)
        if SESSION_COOKIE in request.cookies:
            page.del_cookie(SESSION_COOKIE, path="/")  # it signs no one in: counted once
        return page
    raise web.HTTPSeeOther("/portal/games")


async def login_link(request: web.Request) -> web.StreamResponse:
    """The page a sign-in link opens: one button, so that fetching the link does not use it up."""
    return render(request, "login_link.html", token=request.match_info["token"])


async def login(request: web.Request) -> web.StreamResponse:
    services = _services(request)
    token = await redeem_link(services, request.match_info["token"], _address(request))
    if token is None:
        await services.auth_throttle.count(request, to_millis(services.clock.now()), {})
        return render(
            request,
            "signin.html",
            400,
            sso=OIDC in request.config_dict,
            error="This sign-in link does not work: it is unknown, used or expired. Ask for a new one.",
        )
    response = _redirect("/portal/games")
    _set_session(response, request, token)
    return response


@signed_in
async def logout(page: Page) -> web.StreamResponse:
    await sign_out(_services(page.request), page.operator, _address(page.request))
    response = _redirect("/portal/")
    response.del_cookie(SESSION_COOKIE, path="/")
    return response


async def sso_start(request: web.Request) -> web.StreamResponse:
    client = request.config_dict.get(OIDC)
    if client is None:
        raise web.HTTPNotFound()
    try:
        url, pending = await client.begin()
    except OidcError as exc:
        return render(request, "signin.html", 502, sso=True, error=str(exc))
    response = web.Response(status=302, headers={"Location": url})
    sealed = _services(request).keys.encrypt(
        f"{pending.state}\n{pending.nonce}\n{pending.code_verifier}", context=_OIDC_COOKIE
    )
    # Lax: the provider's redirect back is a cross-site navigation, which a Strict cookie would miss.
    response.set_cookie(
        _OIDC_COOKIE,
        sealed.hex(),
        max_age=600,
        path="/portal/",
        httponly=True,
        samesite="Lax",
        secure=request.secure,
    )
    return response


async def sso_callback(request: web.Request) -> web.StreamResponse:
    client = request.config_dict.get(OIDC)
    if client is None:
        raise web.HTTPNotFound()
    services = _services(request)
    error = None
    try:
        raw = services.keys.decrypt(
            bytes.fromhex(request.cookies.get(_OIDC_COOKIE, "")), context=_OIDC_COOKIE
        )
        state, nonce, verifier = raw.split("\n")
        identity = await client.finish(OidcPending(state, nonce, verifier), request.query)
    except OidcError as exc:
        identity, error = None, str(exc)
    except Exception:  # a missing, forged or stale cookie
        identity, error = None, "The sign-in did not start here, or took too long: start again."
    token = None
    if identity is not None:
        token = await start_for_email(services, identity.email, _address(request))
        if token is None:
            error = f"No member has the email {identity.email}."
    if token is None:
        response = render(request, "signin.html", 403, sso=True, error=error)
    else:
        # A page of ours leads on, so the Strict session cookie set here is sent with the next page.
        response = render(request, "continue.html")
        _set_session(response, request, token)
    response.del_cookie(_OIDC_COOKIE, path="/portal/")
    return response


# --- pages -------------------------------------------------------------------------------------------------


@signed_in
async def games(page: Page) -> web.StreamResponse:
    return render(page.request, "games.html", **page.context())


def _game(page: Page) -> Any:
    ref = page.request.match_info["game"]
    for game in page.me.games:
        if ref in (game.key, game.game_id):
            return game
    raise LivecoreError(NOT_FOUND, "The studio has no such game.", {"game": ref})


def player_page(template: str) -> Handler:
    """The player look-up, as ``template`` shows it: the whole of it, or its grants or attempts."""

    @signed_in
    async def page(current: Page) -> web.StreamResponse:
        game = _game(current)
        env = await _env(current, game)
        external_id = (current.request.query.get("id") or "").strip()
        found = None
        missing = None
        if external_id:
            try:
                found = await current.run(
                    "admin.players.lookup", {"game": game.key, "externalId": external_id}, query={"env": env}
                )
            except LivecoreError as exc:
                if exc.code is not PLAYER_NOT_FOUND:
                    raise
                # Shown on the look-up itself, with a link to the other environment when it has the player.
                missing = {"message": exc.message, "exists_in": (exc.details or {}).get("existsIn")}
        done = current.request.query.get("done")
        return render(
            current.request,
            template,
            **current.context(
                game=game, env=env, external_id=external_id, found=found, done=done, missing=missing
            ),
        )

    return page


def _player_path(game: Any) -> str:
    return f"/portal/games/{game.key}/players"


@signed_in
async def player_action(page: Page) -> web.StreamResponse:
    game = _game(page)
    env = await _env(page, game)
    external_id = page.request.match_info["externalId"]
    action = page.request.match_info["action"]
    form = await _form(page)
    params = {"game": game.key, "externalId": external_id}
    if action == "ban":
        await page.run(
            "admin.players.ban", params, body={"reason": _text(form, "reason") or ""}, query={"env": env}
        )
    elif action == "unban":
        await page.run("admin.players.unban", params, query={"env": env})
    elif action == "country":
        # An empty field clears the override.
        body = {"country": _text(form, "country"), "reason": _text(form, "reason")}
        await page.run("admin.players.set_country", params, body=body, query={"env": env})
    elif action == "rotate-secret":
        rotated = await page.run("admin.players.rotate_secret", params, query={"env": env})
        return render(
            page.request,
            "secret.html",
            **page.context(
                title=f"New secret of {external_id}",
                secret=rotated.player_secret,
                back=f"/portal/games/{game.key}/players?{urlencode({'id': external_id, 'env': env})}",
            ),
        )
    else:
        raise web.HTTPNotFound()
    raise _back(_player_path(game), id=external_id, env=env, done=action)


def _typed(text: str, like: Any) -> Any:
    """A form's text as a value of the type of ``like`` (the attribute's value now): ``4`` for an
    integer, ``true`` for a boolean, JSON for a list or an object; text the type cannot read stays text,
    for the route to refuse naming the attribute."""
    try:
        if isinstance(like, bool):
            return {"true": True, "false": False}.get(text.lower(), text)
        if isinstance(like, int):
            return int(text)
        if isinstance(like, float):
            return float(text)
        if isinstance(like, (list, dict)) or like is None:
            return json.loads(text)
    except ValueError:
        pass
    return text


@signed_in
async def item_attributes(page: Page) -> web.StreamResponse:
    """The item's attribute form: each ``attr.<key>`` field read as its value's type; only the values
    that changed are sent."""
    game = _game(page)
    env = await _env(page, game)
    external_id = page.request.match_info["externalId"]
    item_key = page.request.match_info["itemKey"]
    form = await _form(page)
    params = {"game": game.key, "externalId": external_id}
    found = await page.run("admin.players.lookup", params, query={"env": env})
    current: dict[str, Any] = next((i.parameters for i in found.inventory if i.key == item_key), {})
    values: dict[str, Any] = {}
    for name, raw in form.items():
        key = name.removeprefix("attr.")
        if key != name:
            value = _typed(str(raw), current.get(key))
            if key not in current or value != current[key]:
                values[key] = value
    await page.run(
        "admin.players.edit_item_attributes",
        {**params, "itemKey": item_key},
        body={"attributes": values, "reason": _text(form, "reason")},
        query={"env": env},
    )
    raise _back(_player_path(game), id=external_id, env=env, done="attributes")


@signed_in
async def grant_create(page: Page) -> web.StreamResponse:
    game = _game(page)
    env = await _env(page, game)
    form = await _form(page)
    external_id = _text(form, "externalPlayerId") or ""
    amount = _text(form, "amount") or ""
    entry: dict[str, Any] = {"type": _text(form, "type") or "", "key": _text(form, "key") or ""}
    entry["amount"] = int(amount) if amount.lstrip("-").isdigit() else amount
    body: dict[str, Any] = {"externalPlayerId": external_id, "entries": [entry]}
    if _text(form, "reason"):
        body["reason"] = _text(form, "reason")
    await page.run("admin.grants.create", {"game": game.key}, body=body, query={"env": env})
    raise _back(_player_path(game), id=external_id, env=env, done="grant")


@signed_in
async def grant_force_claim(page: Page) -> web.StreamResponse:
    game = _game(page)
    env = await _env(page, game)
    form = await _form(page)
    claimed = await page.run(
        "admin.grants.force_claim",
        {"game": game.key, "grantId": page.request.match_info["grantId"]},
        body={"reason": _text(form, "reason")} if _text(form, "reason") else None,
        query={"env": env},
    )
    raise _back(_player_path(game), id=claimed.grant.external_player_id, env=env, done="force-claim")


@signed_in
async def attempt_action(page: Page) -> web.StreamResponse:
    game = _game(page)
    env = await _env(page, game)
    form = await _form(page)
    params = {"game": game.key, "attemptId": page.request.match_info["attemptId"]}
    external_id = _text(form, "externalPlayerId") or ""
    if page.request.match_info["action"] == "force-complete":
        score = _text(form, "score")
        body: dict[str, Any] = {"reason": _text(form, "reason") or ""}
        if score is not None:
            try:
                body["score"] = float(score)
            except ValueError:
                body["score"] = score  # refused by the route, naming the field
        await page.run("admin.attempts.force_complete", params, body=body, query={"env": env})
        done = "force-complete"
    elif page.request.match_info["action"] == "retry-reward-roll":
        await page.run("admin.attempts.retry_reward_roll", params, query={"env": env})
        done = "retry-reward-roll"
    else:
        raise web.HTTPNotFound()
    raise _back(_player_path(game), id=external_id, env=env, done=done)


@signed_in
async def webhook_list(page: Page) -> web.StreamResponse:
    game = _game(page)
    found = await page.run("admin.webhooks.list", {"game": game.key})
    return render(page.request, "webhooks.html", **page.context(game=game, endpoints=found.endpoints))


@signed_in
async def webhook_create(page: Page) -> web.StreamResponse:
    game = _game(page)
    form = await _form(page)
    events = [e.strip() for e in (_text(form, "events") or "").split(",") if e.strip()]
    made = await page.run(
        "admin.webhooks.create",
        {"game": game.key},
        body={
            "name": _text(form, "name") or "",
            "env": _text(form, "env") or "",
            "url": _text(form, "url") or "",
            "events": events,
        },
    )
    return render(
        page.request,
        "secret.html",
        **page.context(
            title=f"Signing secret of webhook endpoint {made.endpoint.name}",
            secret=made.secret,
            back=f"/portal/games/{game.key}/webhooks",
        ),
    )


@signed_in
async def webhook_detail(page: Page) -> web.StreamResponse:
    game = _game(page)
    endpoint_id = page.request.match_info["endpointId"]
    listed = await page.run("admin.webhooks.list", {"game": game.key})
    endpoint = next((e for e in listed.endpoints if e.endpoint_id == endpoint_id), None)
    if endpoint is None:
        raise LivecoreError(WEBHOOK_ENDPOINT_NOT_FOUND, "No such webhook endpoint.")
    status = page.request.query.get("status") or None
    found = await page.run(
        "admin.webhooks.deliveries",
        {"game": game.key, "endpointId": endpoint_id},
        query={"status": status} if status else {},
    )
    return render(
        page.request,
        "deliveries.html",
        **page.context(
            game=game,
            endpoint=endpoint,
            deliveries=found.deliveries,
            status_filter=status,
            done=page.request.query.get("done"),
        ),
    )


@signed_in
async def webhook_action(page: Page) -> web.StreamResponse:
    game = _game(page)
    endpoint_id = page.request.match_info["endpointId"]
    action = page.request.match_info["action"]
    form = await _form(page)
    params = {"game": game.key, "endpointId": endpoint_id}
    if action == "rotate-secret":
        overlap: Any = _text(form, "overlapSeconds")
        with contextlib.suppress(TypeError, ValueError):
            overlap = int(overlap)  # else refused by the route, naming the field
        body = None if overlap is None else {"overlapSeconds": overlap}
        made = await page.run("admin.webhooks.rotate_secret", params, body=body)
        until = made.endpoint.previous_secret_expires_at
        return render(
            page.request,
            "secret.html",
            **page.context(
                title=f"New signing secret of webhook endpoint {made.endpoint.name}",
                secret=made.secret,
                note="The old secret no longer signs."
                if until is None
                else f"Deliveries carry a signature by the old secret too until {_ts(until)}.",
                back=f"/portal/games/{game.key}/webhooks/{endpoint_id}",
            ),
        )
    if action == "unpause":
        await page.run("admin.webhooks.unpause", params)
    elif action == "send-sample":
        kind = _text(form, "kind")
        await page.run("admin.webhooks.send_sample", params, body={"kind": kind} if kind else None)
    elif action == "replay":
        await page.run(
            "admin.deliveries.replay", {"game": game.key, "deliveryId": _text(form, "deliveryId") or ""}
        )
    else:
        raise web.HTTPNotFound()
    raise _back(f"/portal/games/{game.key}/webhooks/{endpoint_id}", done=action)


@signed_in
async def api_key_list(page: Page) -> web.StreamResponse:
    game = _game(page)
    found = await page.run("admin.api_keys.list", {"game": game.key})
    return render(
        page.request,
        "api_keys.html",
        **page.context(game=game, keys=found.keys, done=page.request.query.get("done")),
    )


@signed_in
async def api_key_create(page: Page) -> web.StreamResponse:
    game = _game(page)
    form = await _form(page)
    made = await page.run(
        "admin.api_keys.create",
        {"game": game.key},
        body={
            "name": _text(form, "name") or "",
            "env": _text(form, "env") or "",
            "permission": _text(form, "permission") or "",
        },
    )
    return render(
        page.request,
        "secret.html",
        **page.context(
            title=f"API key {made.key.name}", secret=made.secret, back=f"/portal/games/{game.key}/api-keys"
        ),
    )


@signed_in
async def api_key_action(page: Page) -> web.StreamResponse:
    game = _game(page)
    params = {"game": game.key, "keyId": page.request.match_info["keyId"]}
    if page.request.match_info["action"] == "rotate":
        made = await page.run("admin.api_keys.rotate", params)
        retiring = made.retiring
        return render(
            page.request,
            "secret.html",
            **page.context(
                title=f"Successor of API key {made.key.name}",
                secret=made.secret,
                note=f"The key it replaces ({retiring.prefix}…) keeps working until"
                f" {_ts(retiring.retires_at)}.",
                back=f"/portal/games/{game.key}/api-keys",
            ),
        )
    if page.request.match_info["action"] == "revoke":
        await page.run("admin.api_keys.revoke", params)
        raise _back(f"/portal/games/{game.key}/api-keys", done="revoke")
    raise web.HTTPNotFound()


@signed_in
async def personal_key_list(page: Page) -> web.StreamResponse:
    found = await page.run("admin.personal_keys.list")
    return render(
        page.request,
        "personal_keys.html",
        **page.context(keys=found.keys, days=KEY_DAYS_OFFERED, done=page.request.query.get("done")),
    )


@signed_in
async def personal_key_create(page: Page) -> web.StreamResponse:
    form = await _form(page)
    days = _text(form, "expiresInDays") or ""
    body: dict[str, Any] = {
        "expiresInDays": int(days) if days.isdigit() else days,
        "readOnly": form.get("readOnly") == "on",
    }
    if _text(form, "role"):
        body["role"] = _text(form, "role")
    made = await page.run("admin.personal_keys.create", body=body)
    return render(
        page.request,
        "secret.html",
        **page.context(
            title="Your personal key",
            secret=made.secret,
            note="Your previous personal key, if you had one, no longer works.",
            back="/portal/personal-keys",
        ),
    )


@signed_in
async def personal_key_revoke(page: Page) -> web.StreamResponse:
    await page.run("admin.personal_keys.revoke", {"keyId": page.request.match_info["keyId"]})
    raise _back("/portal/personal-keys", done="revoke")


@signed_in
async def member_list(page: Page) -> web.StreamResponse:
    found = await page.run("admin.members")
    return render(page.request, "members.html", **page.context(members=found.members))


@signed_in
async def audit_log(page: Page) -> web.StreamResponse:
    q = page.request.query
    query = {k: q[k] for k in ("game", "action", "target", "member", "before") if q.get(k)}
    # A game's log is the game's route; the studio's (every game's and the studio's own) without one.
    filters = {k: v for k, v in query.items() if k != "game"}
    if "game" in query:
        found = await page.run("admin.game_audit", {"game": query["game"]}, query=filters)
    else:
        found = await page.run("admin.audit", query=filters)
    names = {m.member_id: m.key for m in (await page.run("admin.members")).members}
    next_query = urlencode({**query, "before": str(found.next_before)}) if found.next_before else None
    return render(
        page.request,
        "audit.html",
        **page.context(entries=found.entries, filters=query, next_query=next_query, names=names),
    )


# --- the app ------------------------------------------------------------------------------------------------


def _guard(public_url: str | None) -> Middleware:
    """What every portal request passes before its handler: a state-changing request sent from another
    origin is refused (portal/origin.py), and any request of a locked-out address (429): nothing is read,
    changed or signed in, and no cookie is set."""

    @web.middleware
    async def check(request: web.Request, handler: Handler) -> web.StreamResponse:
        # Every portal answer carries a request id, as every other answer of the server does.
        request_id = {"X-Request-Id": request.config_dict[REQUEST_IDS].new()}
        try:
            response = await guarded(request, handler)
        except web.HTTPException as exc:
            if exc.status < 400:
                exc.headers.update(request_id)
                raise
            # A page that does not exist, or a method a page does not take: the portal's own error page.
            code = METHOD_NOT_ALLOWED if exc.status == 405 else NOT_FOUND if exc.status == 404 else None
            response = render(
                request,
                "error.html",
                exc.status,
                code=code.value if code is not None else "invalid_request",
                message=exc.reason,
            )
            if "Allow" in exc.headers:
                response.headers["Allow"] = exc.headers["Allow"]
        response.headers.update(request_id)
        return response

    async def guarded(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.method in UNSAFE_METHODS and not same_origin(request, public_url):
            return render(
                request,
                "error.html",
                403,
                code=CSRF_INVALID.value,
                message="This form was not sent from a page of this portal.",
            )
        try:
            # A locked-out address (livecore_server/lockouts.py) is refused before any credential is read.
            services = _services(request)
            services.auth_throttle.check(request, to_millis(services.clock.now()), {})
            return await handler(request)
        except LivecoreError as exc:
            if exc.code is not RATE_LIMITED:
                raise
            response = render(request, "error.html", 429, code=exc.code.value, message=exc.message)
            response.headers.update(exc.headers)
            return response

    return check


def portal_app(
    bindings: Iterable[Binding], oidc: OidcSettings | None = None, public_url: str | None = None
) -> web.Application:
    """The portal's sub-application, mounted at ``/portal``, running the admin routes of ``bindings``
    (every area's served, as the admin API serves them); ``oidc``: sign-in through that provider too;
    ``public_url``: where members reach the server (its origin is the portal's own, portal/origin.py)."""
    app = web.Application(middlewares=[_guard(public_url)])
    app[BINDINGS] = {b.route.name: b for b in bindings if b.route.action is not None}
    app[ACTIONS] = actions_of(b.route for b in app[BINDINGS].values())
    aiohttp_jinja2.setup(
        app,
        loader=jinja2.PackageLoader("livecore_server.operators.portal", "templates"),
        autoescape=True,
        filters={"ts": _ts},
    )
    if oidc is not None:
        client = OidcClient(oidc)
        app[OIDC] = client

        async def close(_: web.Application) -> None:
            await client.aclose()

        app.on_cleanup.append(close)
    game = "/games/{game}"
    app.add_routes(
        [
            web.get("/", home),
            web.get("/login/{token}", login_link),
            web.post("/login/{token}", login),
            web.post("/logout", logout),
            web.get("/sso", sso_start),
            web.get("/sso/callback", sso_callback),
            web.get("/games", games),
            web.get(f"{game}/players", player_page("player.html")),
            web.get(f"{game}/grants", player_page("grants.html")),
            web.get(f"{game}/attempts", player_page("attempts.html")),
            web.post(f"{game}/players/{{externalId}}/{{action}}", player_action),
            web.post(f"{game}/players/{{externalId}}/items/{{itemKey}}/attributes", item_attributes),
            web.post(f"{game}/grants", grant_create),
            web.post(f"{game}/grants/{{grantId}}/force-claim", grant_force_claim),
            web.post(f"{game}/attempts/{{attemptId}}/{{action}}", attempt_action),
            web.get(f"{game}/webhooks", webhook_list),
            web.post(f"{game}/webhooks", webhook_create),
            web.get(f"{game}/webhooks/{{endpointId}}", webhook_detail),
            web.post(f"{game}/webhooks/{{endpointId}}/{{action}}", webhook_action),
            web.get(f"{game}/api-keys", api_key_list),
            web.post(f"{game}/api-keys", api_key_create),
            web.post(f"{game}/api-keys/{{keyId}}/{{action}}", api_key_action),
            web.get("/personal-keys", personal_key_list),
            web.post("/personal-keys", personal_key_create),
            web.post("/personal-keys/{keyId}/revoke", personal_key_revoke),
            web.get("/members", member_list),
            web.get("/audit", audit_log),
        ]
    )
    return app
