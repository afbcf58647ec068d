"""Members signing in and out (docs/operators.md#signing-in, livecore_server/operators/sessions.py): one-time
sign-in links (once, 15 minutes, not for a removed member), portal sessions (12 hours, ended by signing out, a
new token at each sign-in so a cookie planted before is never promoted), the ``livecore-server members
login-link`` command, and ``members personal-key``, a member's personal key without a browser."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiohttp.test_utils import TestClient, TestServer
from click.testing import CliRunner

from livecore.operators.rules import LOGIN_LINK_TTL, SESSION_TTL
from livecore_server.cli import main
from livecore_server.operators.access import SESSION_COOKIE, personal_key_shaped, session_operator
from livecore_server.operators.sessions import (
    SignInError,
    issue_login_link,
    redeem_link,
    served_address,
    sign_out,
)
from tests.conftest import TEST_MANIFEST, World, make_app, make_services
from tests.server.admin_support import (
    BETA_MANIFEST,
    GAME,
    STUDIO,
    Operator,
    admin,
    ok,
    refused,
    remove_member,
    second_studio,
    sign_in,
)
from tests.waiting import until_sync

LINK_SECONDS = LOGIN_LINK_TTL.total_seconds()
SESSION_SECONDS = SESSION_TTL.total_seconds()


async def me(world: World, session: str) -> tuple[int, str | None]:
    """The status of ``GET /admin/v1/me`` with the session cookie, and the member's key when signed in."""
    status, body, _ = await admin(world, "GET", "/admin/v1/me", Operator(session=session))
    return status, body["data"]["member"]["key"] if status == 200 else body["error"]["code"]


# --- sign-in links -----------------------------------------------------------------------------------------


async def test_a_sign_in_link_works_once(world: World) -> None:
    link = await asyncio.to_thread(issue_login_link, world.services, "gina")
    assert link.startswith("lnk_")
    session = await redeem_link(world.services, link, "127.0.0.1")
    assert session is not None
    assert await me(world, session) == (200, "gina")
    assert await redeem_link(world.services, link, "127.0.0.1") is None
    assert await me(world, session) == (200, "gina")  # the session it started goes on


async def test_a_sign_in_link_works_for_15_minutes(world: World) -> None:
    early, late = (
        await asyncio.to_thread(issue_login_link, world.services, "gina"),
        await asyncio.to_thread(issue_login_link, world.services, "gina"),
    )
    world.clock.advance(LINK_SECONDS - 1)
    assert await redeem_link(world.services, early, None) is not None
    world.clock.advance(1)
    assert await redeem_link(world.services, late, None) is None


async def test_a_removed_members_link_does_not_work_and_none_is_issued(world: World) -> None:
    link = await asyncio.to_thread(issue_login_link, world.services, "vic")
    await remove_member(world, "vic")
    assert await redeem_link(world.services, link, None) is None
    with pytest.raises(SignInError):
        await asyncio.to_thread(issue_login_link, world.services, "vic")


async def test_an_unknown_or_malformed_link_does_not_work(world: World) -> None:
    for token in ("", "lnk_", "lnk_unknown", "lcs_not_a_link", "lnk_" + "x" * 200):
        assert await redeem_link(world.services, token, None) is None, token


async def test_a_link_names_its_studio_when_the_database_holds_several(world: World) -> None:
    await second_studio(world)
    with pytest.raises(SignInError):
        await asyncio.to_thread(issue_login_link, world.services, "olga")
    with pytest.raises(SignInError):
        await asyncio.to_thread(issue_login_link, world.services, "bob", "acme")  # bob is beta's
    link = await asyncio.to_thread(issue_login_link, world.services, "bob", "beta")
    session = await redeem_link(world.services, link, None)
    assert session is not None and await me(world, session) == (200, "bob")


async def test_a_sign_in_is_audited_with_the_address(world: World) -> None:
    olga = await sign_in(world, "olga")
    entries = ok(await admin(world, "GET", f"{STUDIO}/audit?action=member.sign_in", olga))["entries"]
    assert len(entries) == 1
    assert entries[0]["ip"] == "127.0.0.1" and entries[0]["metadata"] == {"via": "link"}
    assert entries[0]["target"] == f"member:{world.applied['members']['olga']['id']}"


# --- sessions ------------------------------------------------------------------------------------------


async def test_a_session_lasts_12_hours(world: World) -> None:
    gina = await sign_in(world, "gina")
    assert gina.session is not None
    world.clock.advance(SESSION_SECONDS - 1)
    assert await me(world, gina.session) == (200, "gina")
    world.clock.advance(1)
    assert await me(world, gina.session) == (401, "invalid_api_key")


async def test_signing_out_ends_the_session_on_the_server(world: World) -> None:
    first, second = await sign_in(world, "gina"), await sign_in(world, "gina")
    assert first.session is not None and second.session is not None
    digest = world.services.runtime.hasher.hash(first.session)
    now_ms = int(world.clock.now().timestamp() * 1000)
    found = world.services.store.run(lambda tx: tx.members.session(digest, now_ms), write=False)
    assert found is not None
    await sign_out(world.services, session_operator(found[1], found[0]), "127.0.0.1")
    assert await me(world, first.session) == (401, "invalid_api_key")
    assert await me(world, second.session) == (200, "gina")  # only that session ended
    entries = ok(await admin(world, "GET", f"{STUDIO}/audit?action=member.sign_out", second))["entries"]
    assert [(e["actor"]["memberId"], e["ip"]) for e in entries] == [(found[1].id, "127.0.0.1")]


async def test_a_removed_members_session_ends(world: World) -> None:
    vic = await sign_in(world, "vic")
    assert vic.session is not None
    await remove_member(world, "vic")
    assert await me(world, vic.session) == (401, "invalid_api_key")


async def test_a_cookie_set_before_sign_in_is_never_accepted(world: World) -> None:
    planted = "lcs_" + "A" * 43  # what an attacker set in the victim's browser
    assert await me(world, planted) == (401, "invalid_api_key")
    link = await asyncio.to_thread(issue_login_link, world.services, "olga")
    session = await redeem_link(world.services, link, None)
    assert session is not None and session != planted
    assert await me(world, planted) == (401, "invalid_api_key")
    assert await me(world, session) == (200, "olga")


async def test_each_sign_in_mints_a_new_token(world: World) -> None:
    tokens = [
        await redeem_link(
            world.services, await asyncio.to_thread(issue_login_link, world.services, "olga"), None
        )
        for _ in range(3)
    ]
    assert len(set(tokens)) == 3
    for token in tokens:
        assert token is not None and token.startswith("lcs_")
        assert await me(world, token) == (200, "olga")
    stored = world.rows("SELECT token_hash FROM member_sessions")
    assert not any(token in str(row) for token in tokens for row in stored)  # kept as keyed hashes only


async def test_an_unknown_session_cookie_is_401(world: World) -> None:
    for cookie in ("", "x", "lnk_not_a_session", "lcs_" + "x" * 43, "lcs_" + "x" * 200, "\u00e9t\u00e9"):
        answer = await world.call(
            "GET", "/admin/v1/me", key=None, headers={"Cookie": f"{SESSION_COOKIE}={cookie}"}
        )
        refused(answer, 401, "invalid_api_key")


# --- the login-link command --------------------------------------------------------------------------------


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


async def test_the_login_link_command_prints_a_link_that_signs_the_member_in(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    manifest = tmp_path / "m.toml"
    manifest.write_text(TEST_MANIFEST)
    code, _, err = _cli("apply", str(manifest), "--db", db)
    assert code == 0, err
    code, out, err = _cli(
        "members", "login-link", "gina", "--db", db, "--base-url", "https://ops.example.com/"
    )
    assert code == 0, err
    url = out.strip()
    assert url.startswith("https://ops.example.com/portal/login/lnk_")
    token = url.rsplit("/", 1)[1]
    services = await asyncio.to_thread(make_services, db, manual=False)  # the command's clock: the wall clock
    try:
        session = await redeem_link(services, token, None)
        assert session is not None
        assert await redeem_link(services, token, None) is None
    finally:
        services.close()

    code, out, err = _cli("members", "login-link", "nobody", "--db", db)
    assert code != 0 and "nobody" in err
    code, out, _ = _cli("members", "list", "--db", db)
    assert code == 0
    assert [line.split()[1:3] for line in out.splitlines()] == [
        ["acme/debby", "GAME_DEBUGGER"],
        ["acme/dev", "GAME_DEVELOPER"],
        ["acme/gina", "GAME_ADMIN"],
        ["acme/olga", "OWNER"],
        ["acme/vic", "VIEWER"],
    ]

    beta = tmp_path / "beta.toml"
    beta.write_text(BETA_MANIFEST)
    assert _cli("apply", str(beta), "--db", db)[0] == 0
    code, _, err = _cli("members", "login-link", "bob", "--db", db)
    assert code != 0 and "--studio" in err  # two studios: it must be named
    code, out, err = _cli("members", "login-link", "bob", "--studio", "beta", "--db", db)
    assert code == 0 and "/portal/login/lnk_" in out, err


def test_the_login_link_is_under_the_address_the_running_server_serves(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    manifest = tmp_path / "m.toml"
    manifest.write_text(TEST_MANIFEST)
    assert _cli("apply", str(manifest), "--db", db)[0] == 0
    code, out, err = _cli("members", "login-link", "gina", "--db", db)
    assert code == 0, err
    assert out.startswith("http://127.0.0.1:8080/portal/login/lnk_")  # no server yet: serve's default

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k != "LIVECORE_PUBLIC_URL"}
    server = subprocess.Popen(
        [sys.executable, "-m", "livecore_server.cli", "serve", "--db", db, "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:

        def health() -> bool:
            assert server.poll() is None, "the server exited"
            try:
                return httpx.get(f"http://127.0.0.1:{port}/admin/v1/health", timeout=5).status_code == 200
            except httpx.TransportError:
                return False

        until_sync(health, "the server to start")
        code, out, err = _cli("members", "login-link", "gina", "--db", db)
        assert code == 0, err
        assert out.startswith(f"http://127.0.0.1:{port}/portal/login/lnk_")
        code, out, err = _cli("members", "login-link", "gina", "--db", db, "--base-url", "https://ops.test")
        assert out.startswith("https://ops.test/portal/login/lnk_")  # told: that address
    finally:
        server.terminate()
        server.wait(20)


@pytest.mark.parametrize(
    ("host", "public_url", "address"),
    [
        ("127.0.0.1", None, "http://127.0.0.1:9000"),
        ("0.0.0.0", None, "http://127.0.0.1:9000"),
        ("::", None, "http://[::1]:9000"),
        ("10.1.2.3", None, "http://10.1.2.3:9000"),
        ("0.0.0.0", "https://ops.example.com/", "https://ops.example.com"),
    ],
)
def test_a_servers_address_is_its_public_url_else_where_it_listens(
    host: str, public_url: str | None, address: str
) -> None:
    assert served_address(host, 9000, public_url) == address


# --- the personal-key command ------------------------------------------------------------------------------


def _applied(tmp_path: Path) -> str:
    db = str(tmp_path / "c.db")
    manifest = tmp_path / "m.toml"
    manifest.write_text(TEST_MANIFEST)
    code, _, err = _cli("apply", str(manifest), "--db", db)
    assert code == 0, err
    return db


def _made_keys(db: str) -> int:
    services = make_services(db, manual=False)
    try:
        rows = services.store.run(
            lambda tx: tx.execute(
                "SELECT count(*) FROM audit_log WHERE action = ?", ("personal_key.create",)
            ).fetchall(),
            write=False,
        )
    finally:
        services.close()
    count: int = rows[0][0]
    return count


async def test_the_personal_key_command_prints_a_key_that_acts_as_the_member_on_the_admin_api(
    tmp_path: Path,
) -> None:
    db = _applied(tmp_path)
    code, out, err = _cli("members", "personal-key", "gina", "--db", db)
    assert code == 0, err
    (key,) = out.splitlines()  # the secret alone, for $(...)
    assert personal_key_shaped(key)
    assert key[:15] in err and key not in err  # stderr names its prefix, never the secret

    client = TestClient(TestServer(make_app(db, manual=False)))  # the command's clock: the wall clock
    await client.start_server()
    try:

        async def call(method: str, path: str, secret: str) -> tuple[int, Any, Any]:
            resp = await client.request(method, path, headers={"Authorization": f"Bearer {secret}"}, json={})
            return resp.status, await resp.json(), resp.headers

        me = ok(await call("GET", "/admin/v1/me", key))
        assert (me["member"]["key"], me["via"], me["readOnly"]) == ("gina", "api", False)
        assert ok(await call("GET", f"{GAME}/api-keys", key))["keys"]
        # Audited as the portal audits it, the member acting from the command line.
        (entry,) = ok(await call("GET", f"{STUDIO}/audit?action=personal_key.create", key))["entries"]
        assert entry["actor"] == {"kind": "member", "memberId": me["member"]["memberId"], "via": "cli"}
        assert entry["target"] == f"personal_key:{me['keyId']}"
        assert entry["after"]["prefix"] == key[:15] and entry["after"]["readOnly"] is False

        # A new one, read-only with a lower role: the one before stops working at once.
        code, out, err = _cli(
            "members", "personal-key", "gina", "--read-only", "--role", "VIEWER", "--days", "7", "--db", db
        )
        assert code == 0, err
        (second,) = out.splitlines()
        refused(await call("GET", "/admin/v1/me", key), 401, "invalid_api_key")
        assert ok(await call("GET", "/admin/v1/me", second))["readOnly"] is True
        refused(await call("POST", f"{GAME}/webhooks", second), 403, "permission_denied")
    finally:
        await client.close()


def test_the_personal_key_command_refuses_as_the_portal_does_and_makes_nothing(tmp_path: Path) -> None:
    db = _applied(tmp_path)
    code, out, err = _cli("members", "personal-key", "debby", "--role", "GAME_ADMIN", "--db", db)
    assert (code, out) == (1, "")
    assert err.strip() == (
        "Error: A personal key carries at most its member's role (GAME_DEBUGGER):"
        " role allows more than GAME_DEBUGGER"
    )
    code, out, err = _cli("members", "personal-key", "gina", "--days", "400", "--db", db)
    assert code == 2 and out == "" and "--days" in err
    code, out, err = _cli("members", "personal-key", "nobody", "--db", db)
    assert (code, out) == (1, "") and "no member 'nobody'" in err
    assert _made_keys(db) == 0

    beta = tmp_path / "beta.toml"
    beta.write_text(BETA_MANIFEST)
    assert _cli("apply", str(beta), "--db", db)[0] == 0
    code, _, err = _cli("members", "personal-key", "bob", "--db", db)
    assert code != 0 and "--studio" in err  # two studios: it must be named
    code, out, err = _cli("members", "personal-key", "bob", "--studio", "beta", "--db", db)
    assert code == 0 and out.startswith("svc_pk_"), err
    assert _made_keys(db) == 1
