"""What a newcomer meets first: the front door (``GET /``), and a 401 that says which part of the
``Authorization`` header is wrong (always ``invalid_api_key``, docs/api.md#authentication)."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from livecore import __version__
from tests.conftest import World, start_world


async def test_the_front_door_names_the_service_its_version_and_where_to_go(world: World) -> None:
    status, body, headers = await world.call("GET", "/", key=None)
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    assert body == {
        "service": "livecore",
        "version": __version__,
        "links": {
            "portal": "/portal/",
            "sdkOpenapi": "/sdk/v1/openapi.json",
            "serverOpenapi": "/server/v1/openapi.json",
            "adminOpenapi": "/admin/v1/openapi.json",
        },
    }
    # Every link is one the server serves: it answers.
    for link, target in body["links"].items():
        resp = await world.client.get(target, allow_redirects=False)
        assert resp.status == 200, link
    head = await world.client.head("/")
    assert head.status == 200


@pytest.mark.parametrize(
    ("configured", "given"),
    [
        ("https://docs.example.com/livecore/", "https://docs.example.com/livecore/"),
        ("README.md#documentation", None),  # the server serves no such file
        ("/docs/", None),
    ],
)
async def test_the_front_door_links_docs_only_at_an_absolute_address(
    db_url: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    configured: str,
    given: str | None,
) -> None:
    monkeypatch.setenv("LIVECORE_DOCS_URL", configured)
    with caplog.at_level(logging.WARNING, logger="livecore_server"):
        world = await start_world(db_url)
    try:
        status, body, _ = await world.call("GET", "/", key=None)
        assert status == 200
        assert body["links"].get("docs") == given
        assert ("LIVECORE_DOCS_URL" in caplog.text) == (given is None)
    finally:
        await world.client.close()


@pytest.mark.parametrize("path", ["/", "/metrics"])
async def test_another_method_on_the_root_s_own_paths_is_405_in_the_envelope(world: World, path: str) -> None:
    status, body, headers = await world.call("POST", path, key=None)
    assert (status, body["error"]["code"]) == (405, "method_not_allowed"), body
    assert set(headers["Allow"].split(",")) == {"GET", "HEAD"}
    status, body, _ = await world.call("POST", "/nowhere", key=None)
    assert (status, body["error"]["code"]) == (404, "not_found")


# (namespace path, the key the route takes)
ROUTES = [
    ("/sdk/v1/events?externalPlayerId=alice", "test-client"),
    ("/server/v1/ping", "test-server"),
    ("/admin/v1/me", None),
]
MALFORMED = {
    "a bare key": ("{key}", "has no scheme"),
    "another scheme": ("Basic {key}", "scheme is not Bearer"),
    "an empty bearer token": ("Bearer ", "Bearer token is empty"),
}


@pytest.mark.parametrize(("path", "key_name"), ROUTES, ids=["sdk", "server", "admin"])
@pytest.mark.parametrize("case", list(MALFORMED), ids=list(MALFORMED))
async def test_an_authorization_header_without_bearer_says_what_is_wrong(
    world: World, path: str, key_name: str | None, case: str
) -> None:
    key = world.keys[key_name] if key_name else "svc_pk_" + "A" * 43
    header, says = MALFORMED[case]
    status, body, _ = await world.call(
        "GET", path, key=None, headers={"Authorization": header.format(key=key)}
    )
    assert status == 401, body
    assert body["error"]["code"] == "invalid_api_key"
    assert says in body["error"]["message"]
    assert "Authorization: Bearer" in body["error"]["message"]
    assert key not in body["error"]["message"]


@pytest.mark.parametrize(("path", "key_name"), ROUTES, ids=["sdk", "server", "admin"])
async def test_a_missing_header_and_an_unknown_key_get_messages_of_their_own(
    world: World, path: str, key_name: str | None
) -> None:
    status, missing, _ = await world.call("GET", path, key=None)
    assert status == 401 and missing["error"]["code"] == "invalid_api_key"
    assert "Authorization" in missing["error"]["message"]
    unknown_key = "lc_test_" + "A" * 43 if key_name else "svc_pk_" + "A" * 43
    status, unknown, _ = await world.call("GET", path, key=unknown_key)
    assert status == 401 and unknown["error"]["code"] == "invalid_api_key"
    assert "unknown" in unknown["error"]["message"]
    assert missing["error"]["message"] != unknown["error"]["message"]


async def test_mcp_says_what_is_wrong_with_its_authorization_header(world: World) -> None:
    resp = await world.client.post("/mcp", json={}, headers={"Authorization": "svc_pk_" + "A" * 43})
    body = await resp.json()
    assert resp.status == 401 and body["error"]["code"] == "invalid_api_key"
    assert "has no scheme" in body["error"]["message"]


@pytest.mark.parametrize("how", ["moved", "deleted", "replaced"])
async def test_writes_are_refused_when_the_database_file_is_moved_under_the_server(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, how: str
) -> None:
    db = tmp_path / "live.db"
    w = await start_world(db)
    try:
        await w.register("before")
        if how == "moved":
            db.rename(tmp_path / "elsewhere.db")
        elif how == "deleted":
            db.unlink()
        else:
            db.rename(tmp_path / "old.db")
            sqlite3.connect(db).close()  # a new, empty file at the path
        with caplog.at_level(logging.ERROR, logger="livecore_server.storage"):
            status, body, _ = await w.call("POST", "/sdk/v1/players/after/register", key="test-client")
            again, _, _ = await w.call("POST", "/sdk/v1/players/later/register", key="test-client")
        assert status == 503, body
        assert body["error"]["code"] == "storage_unavailable"
        assert again == 503
        lost = [r for r in caplog.records if "no longer the database this process opened" in r.getMessage()]
        assert len(lost) == 1 and str(db) in lost[0].getMessage()
        # Nothing of the refused writes reached the file the server has open.
        rows = w.rows("SELECT external_id FROM players ORDER BY external_id")
        assert ("before",) in rows and ("after",) not in rows and ("later",) not in rows
        # Reads go on from the open file.
        status, _, _ = await w.call("GET", "/server/v1/ping")
        assert status == 200
    finally:
        await w.client.close()
