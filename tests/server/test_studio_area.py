"""A studio's own area served (examples/studio_quests, docs/extending.md): named by the applied manifest's
``[plugins] areas``, on SQLite and PostgreSQL, its routes answer and are in the OpenAPI documents, its
migration made its table, its webhook fires, its code reaches the error envelope, its sweep runs when the
manual clock advances, and its check refuses a built-in gift send atomically. Named by the config
(``serve --area``) it is served without the manifest naming it; a name that is no area is a clear error."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from click.testing import CliRunner

from livecore.manifest import ManifestError
from livecore_server import cli_serve, plugins
from livecore_server.cli import main
from livecore_server.config import Config
from livecore_server.manifest import parse_manifest
from livecore_server.operators.apply import apply_manifest
from livecore_server.plugins import PluginError
from livecore_server.services import SERVICES
from tests.conftest import (
    TEST_MANIFEST,
    Receiver,
    World,
    make_app,
    make_services,
    start_world,
    webhook_manifest,
)

QUESTS = """
[games.space-race.resources.gold]
type = "currency"

[games.space-race.areas.quests]
reward_resource = "gold"
reward_amount = 50
streak_bonus_every = 2
streak_bonus_amount = 25
"""
PLUGINS = """
[plugins]
areas = ["studio_quests"]
"""
DAY = 86_400


async def _served(db: str, extra: str, **config: Any) -> World:
    """A world whose server serves the areas named by a manifest applied before it started, as a server
    restarted after ``apply`` does (the first manifest names only the areas: the world's, applied once
    the server runs, makes the games and their keys)."""
    seeding = await asyncio.to_thread(make_services, db, **config)
    try:
        await asyncio.to_thread(
            apply_manifest,
            seeding.store,
            seeding.keys,
            seeding.runtime,
            parse_manifest('studio = "acme"' + PLUGINS),
        )
    finally:
        seeding.close()
    return await start_world(db, manifest_extra=extra, **config)


@pytest.fixture
async def qw(db_url: str) -> AsyncIterator[World]:
    world = await _served(db_url, QUESTS + PLUGINS)
    try:
        yield world
    finally:
        await world.client.close()


async def _check_in(w: World, who: str, secret: str, **kw: Any) -> tuple[int, Any, Any]:
    return await w.call(
        "POST", f"/sdk/v1/players/{who}/quests/check-in", key="test-client", secret=secret, **kw
    )


async def test_a_check_in_grants_the_days_reward_and_emits_its_webhook(qw: World) -> None:
    secret = await qw.register("ada")
    status, body, _ = await _check_in(qw, "ada", secret)
    assert status == 200, body
    quest, grant = body["data"]["quest"], body["data"]["grant"]
    assert quest["checkedInToday"] is True and quest["streak"] == 1 and quest["totalCheckIns"] == 1
    assert grant["status"] == "pending" and grant["sourceKind"] == "quest_check_in"
    assert grant["entries"] == [{"type": "currency", "key": "gold", "amount": 50}]
    # The reward is a built-in grant: the player's pending grants show it.
    status, body, _ = await qw.call(
        "GET", "/sdk/v1/players/ada/pending-grants", key="test-client", secret=secret
    )
    assert status == 200, body
    assert [g["grantId"] for g in body["data"]["grants"]] == [grant["grantId"]]
    [event] = [e for e in qw.events() if e.kind == "quest.checked_in"]
    assert event.payload["grantId"] == grant["grantId"] and event.payload["streak"] == 1
    assert qw.event_kinds()[-2:] == ["grant.created", "quest.checked_in"]
    # Both reads answer the same quest.
    status, mine, _ = await qw.call("GET", "/sdk/v1/players/ada/quests", key="test-client", secret=secret)
    assert status == 200 and mine["data"]["quest"] == quest
    status, theirs, _ = await qw.call("GET", "/server/v1/players/ada/quests")
    assert status == 200 and theirs["data"]["quest"] == quest
    status, body, _ = await qw.call("GET", "/server/v1/players/nobody/quests")
    assert status == 404 and body["error"]["code"] == "player_not_found"


async def test_a_second_check_in_the_same_day_is_refused_with_the_areas_code(qw: World) -> None:
    secret = await qw.register("ada")
    assert (await _check_in(qw, "ada", secret))[0] == 200
    before = qw.event_kinds()
    status, body, _ = await _check_in(qw, "ada", secret)
    assert status == 409
    assert body["error"]["code"] == "quest_already_checked_in"
    assert body["error"]["details"] == {"nextCheckInAt": "2026-03-03T00:00:00Z"}
    assert qw.event_kinds() == before


async def test_a_check_in_replayed_by_its_idempotency_key_answers_the_first(qw: World) -> None:
    secret = await qw.register("ada")
    key = {"Idempotency-Key": "check-in-1"}
    first = await _check_in(qw, "ada", secret, headers=key)
    again = await _check_in(qw, "ada", secret, headers=key)
    assert first[0] == again[0] == 200
    assert again[1] == first[1] and again[2].get("Idempotent-Replay") == "true"


async def test_the_areas_migration_made_its_table(qw: World) -> None:
    secret = await qw.register("ada")
    await _check_in(qw, "ada", secret)
    [player_id] = [p[0] for p in qw.rows("SELECT id FROM players WHERE external_id = ?", ("ada",))]
    assert qw.rows("SELECT player_id, last_day, streak, total FROM quest_checkins") == [
        (player_id, "2026-03-02", 1, 1)
    ]
    names = [r[0] for r in qw.rows("SELECT name FROM _migrations") if str(r[0]).startswith("quests:")]
    assert names == ["quests:0001_quest_checkins"]


async def test_the_sweep_ends_a_missed_streak_when_the_manual_clock_advances(qw: World) -> None:
    qw.only_hourly_jobs()
    secret = await qw.register("ada")
    await _check_in(qw, "ada", secret)
    await qw.call("POST", "/server/v1/dev/clock/advance", json={"seconds": DAY})
    status, body, _ = await _check_in(qw, "ada", secret)
    assert body["data"]["quest"]["streak"] == 2
    assert body["data"]["grant"]["entries"][0]["amount"] == 75  # every second day pays the bonus
    assert qw.rows("SELECT streak FROM quest_checkins") == [(2,)]
    # A whole day missed: the hourly sweep ends the streak in the table, without a read or a check-in.
    status, _, _ = await qw.call("POST", "/server/v1/dev/clock/advance", json={"seconds": 2 * DAY})
    assert status == 200
    assert qw.rows("SELECT streak, best_streak FROM quest_checkins") == [(0, 2)]


async def test_the_areas_check_refuses_a_gift_send_and_nothing_applies(qw: World) -> None:
    ada, bea = await qw.register("ada"), await qw.register("bea")
    secrets = {"ada": ada, "bea": bea}
    status, body, _ = await qw.call(
        "POST",
        "/sdk/v1/players/ada/friends/requests",
        key="test-client",
        secret=ada,
        json={"externalPlayerId": "bea"},
    )
    assert status in (200, 201), body
    status, body, _ = await qw.call(
        "POST",
        "/sdk/v1/players/bea/friends/requests",
        key="test-client",
        secret=bea,
        json={"externalPlayerId": "ada"},
    )
    assert status in (200, 201), body

    def footprint() -> list[tuple[Any, ...]]:
        return [qw.rows(f"SELECT COUNT(*) FROM {t}")[0] for t in ("gifts", "grants", "outbox", "ledger")]

    before = footprint()
    gift = {"type": "currency", "resourceKey": "coins", "amount": 5, "externalPlayerId": "bea"}

    async def send() -> tuple[int, Any, Any]:
        return await qw.call(
            "POST", "/sdk/v1/players/ada/friends/gifts", key="test-client", secret=secrets["ada"], json=gift
        )

    status, body, _ = await send()
    assert status == 409 and body["error"]["code"] == "quest_check_in_first"
    assert footprint() == before
    assert "gift.sent" not in qw.event_kinds()
    await _check_in(qw, "ada", ada)
    status, body, _ = await send()
    assert status == 201, body
    assert "gift.sent" in qw.event_kinds()


@pytest.mark.parametrize(
    ("surface", "path"),
    [
        ("sdk", "/sdk/v1/players/{externalId}/quests/check-in"),
        ("sdk", "/sdk/v1/players/{externalId}/quests"),
        ("server", "/server/v1/players/{externalId}/quests"),
    ],
)
async def test_the_areas_routes_are_in_the_openapi_documents(
    qw: World, surface: str, path: str, valid_openapi: Callable[[dict[str, Any]], None]
) -> None:
    status, doc, _ = await qw.call("GET", f"/{surface}/v1/openapi.json", key=None)
    assert status == 200
    assert path in doc["paths"]
    valid_openapi(doc)


async def test_without_the_area_its_routes_are_not_served(world: World) -> None:
    status, doc, _ = await world.call("GET", "/sdk/v1/openapi.json", key=None)
    assert "/sdk/v1/players/{externalId}/quests" not in doc["paths"]
    secret = await world.register("ada")
    status, body, _ = await _check_in(world, "ada", secret)
    assert status == 404 and body["error"]["code"] == "not_found"


# --- served by the config, and refused by name ---------------------------------------------------------


async def test_the_config_serves_an_area_the_manifest_does_not_name(db_url: str) -> None:
    app = make_app(db_url, areas=("studio_quests",))
    client = TestClient(TestServer(app))
    await client.start_server()
    try:
        services = app[SERVICES]
        # As `apply --area studio_quests`: the manifest configures the area without naming it.
        manifest = parse_manifest(TEST_MANIFEST + QUESTS, areas=("studio_quests",))
        applied = await asyncio.to_thread(
            apply_manifest, services.store, services.keys, services.runtime, manifest
        )
        keys = {name: k["secret"] for name, k in applied["games"]["space-race"]["apiKeys"].items()}
        world = World(services=services, client=client, keys=keys, other_keys={}, applied=applied)
        secret = await world.register("ada")
        status, body, _ = await _check_in(world, "ada", secret)
        assert status == 200, body
        assert world.rows("SELECT COUNT(*) FROM quest_checkins") == [(1,)]
    finally:
        await client.close()


async def test_the_areas_webhook_kind_is_delivered_to_an_endpoint_subscribed_to_it(
    db_url: str, receiver: Receiver
) -> None:
    hooks = webhook_manifest(quests=("test", receiver.url, '["quest.checked_in"]'))
    world = await _served(db_url, QUESTS + hooks + PLUGINS)
    try:
        secret = await world.register("ada")
        await _check_in(world, "ada", secret)
        await world.dispatcher.drain_due()
        [received] = await receiver.wait_for(1)
        assert received.envelope["eventName"] == "quest.checked_in"
        assert received.envelope["data"]["externalPlayerId"] == "ada"
        assert received.envelope["data"]["day"] == "2026-03-02"
    finally:
        await world.client.close()


def test_an_area_name_that_does_not_import_is_a_plugin_error(tmp_path: Path) -> None:
    with pytest.raises(PluginError, match="no module named 'no_such_area'"):
        make_app(tmp_path / "t.db", areas=("no_such_area",))
    with pytest.raises(PluginError, match=r"neither json\.server\.SERVER_AREA nor json\.area\.AREA"):
        make_app(tmp_path / "t.db", areas=("json",))  # a package that declares no area


def test_an_area_of_one_module_is_served_from_its_package() -> None:
    import studio_daily

    assert plugins.load_area("studio_daily").area is studio_daily.AREA


def test_the_manifest_names_each_problem_of_its_areas() -> None:
    with pytest.raises(ManifestError) as bad:
        parse_manifest(TEST_MANIFEST + '\n[plugins]\nareas = ["studio_quests", "no_such_area"]\n')
    assert list(bad.value.problems) == ["plugins.areas[1]"]
    section = QUESTS.replace("reward_amount = 50", "reward_amount = 0")
    with pytest.raises(ManifestError) as bad:
        parse_manifest(TEST_MANIFEST + section + PLUGINS)
    assert bad.value.problems == {
        "games.space-race.areas.quests.reward_amount": "must be an integer from 1 to 1,000,000"
    }
    with pytest.raises(ManifestError) as bad:
        parse_manifest(TEST_MANIFEST + QUESTS)
    assert list(bad.value.problems) == ["games.space-race.areas.quests"]
    # The area's webhook kind is known only with the area.
    hooks = webhook_manifest(quests=("test", "https://hooks.example.com/q", '["quest.checked_in"]'))
    with pytest.raises(ManifestError) as bad:
        parse_manifest(TEST_MANIFEST + hooks)
    assert list(bad.value.problems) == ["games.space-race.webhooks.quests.events"]
    assert parse_manifest(TEST_MANIFEST + hooks + PLUGINS).plugins.areas == ("studio_quests",)


def test_apply_refuses_a_quests_reward_resource_the_game_does_not_declare_and_applies_nothing(
    db_url: str, tmp_path: Path
) -> None:
    _apply(db_url, TEST_MANIFEST + QUESTS + PLUGINS)
    undeclared = QUESTS.replace('reward_resource = "gold"', 'reward_resource = "silver"')
    manifest = tmp_path / "manifest.toml"
    manifest.write_text(TEST_MANIFEST + undeclared.replace("= 50", "= 70") + PLUGINS, encoding="utf-8")
    refused = CliRunner().invoke(main, ["apply", str(manifest), "--db", db_url], env={"LIVECORE_AREAS": None})
    assert refused.exit_code == 2
    assert (
        "games.space-race.areas.quests.reward_resource: no resource named silver is declared in this"
        " game's resources" in refused.output
    )
    services = make_services(db_url)
    try:
        games = services.store.run(lambda tx: tx.games.every(), write=False)
    finally:
        services.close()
    (space_race,) = [game for game in games if game.key == "space-race"]
    assert space_race.settings.areas["quests"] == {
        "reward_resource": "gold",
        "reward_amount": 50,
        "streak_bonus_every": 2,
        "streak_bonus_amount": 25,
    }


def test_apply_gives_an_area_that_does_not_import_as_its_cause_alone_in_one_line(tmp_path: Path) -> None:
    # A misspelt package: its section and its webhook kind would be refused too, for what follows from it.
    hooks = webhook_manifest(quests=("test", "https://hooks.example.com/q", '["quest.checked_in"]'))
    misspelt = PLUGINS.replace("studio_quests", "studio_quest")
    manifest = tmp_path / "manifest.toml"
    manifest.write_text(TEST_MANIFEST + QUESTS + hooks + misspelt, encoding="utf-8")
    command = ["apply", str(manifest), "--db", str(tmp_path / "t.db")]
    refused = CliRunner().invoke(main, command, env={"LIVECORE_AREAS": None})
    assert refused.exit_code == 2
    with pytest.raises(PluginError) as served:  # as serve --area says it
        plugins.load_area("studio_quest")
    cause = "area studio_quest: no module named 'studio_quest' can be imported"
    assert str(served.value) == cause
    assert refused.stderr == f"manifest {manifest} refused; nothing was applied: plugins.areas[0]: {cause}\n"
    assert not (tmp_path / "t.db").exists()


def test_serve_area_names_reach_the_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    built: list[Config] = []
    monkeypatch.setattr(cli_serve, "_serve", lambda config, *_, **__: built.append(config))
    (tmp_path / "t.db").touch()
    result = CliRunner().invoke(
        main,
        ["serve", "--db", str(tmp_path / "t.db"), "--area", "studio_quests"],
        env={"LIVECORE_AREAS": None},
    )
    assert result.exit_code == 0, result.output
    assert built[0].areas == ("studio_quests",)
    built.clear()
    result = CliRunner().invoke(
        main, ["serve", "--db", str(tmp_path / "t.db")], env={"LIVECORE_AREAS": "studio_quests, other"}
    )
    assert result.exit_code == 0, result.output
    assert built[0].areas == ("studio_quests", "other")


def test_serve_refuses_an_area_that_is_not_one(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    seeding = make_services(db)
    apply_manifest(seeding.store, seeding.keys, seeding.runtime, parse_manifest(TEST_MANIFEST))
    seeding.close()
    result = CliRunner().invoke(
        main,
        ["serve", "--db", str(db), "--port", "0", "--area", "no_such_area"],
        env={"LIVECORE_AREAS": None},
    )
    assert result.exit_code != 0
    assert "area no_such_area: no module named 'no_such_area'" in result.output


def test_apply_area_lets_the_manifest_configure_an_area_it_does_not_name(tmp_path: Path) -> None:
    manifest = tmp_path / "manifest.toml"
    manifest.write_text(TEST_MANIFEST + QUESTS, encoding="utf-8")
    db = str(tmp_path / "t.db")
    env = {"LIVECORE_AREAS": None}
    refused = CliRunner().invoke(main, ["apply", str(manifest), "--db", db], env=env)
    assert refused.exit_code == 2
    assert "games.space-race.areas.quests: names no area" in refused.output
    applied = CliRunner().invoke(
        main, ["apply", str(manifest), "--db", db, "--area", "studio_quests"], env=env
    )
    assert applied.exit_code == 0, applied.output
    by_variable = CliRunner().invoke(
        main, ["apply", str(manifest), "--db", db], env={"LIVECORE_AREAS": "studio_quests"}
    )
    assert by_variable.exit_code == 0, by_variable.output


async def test_the_typed_clients_reach_the_area_through_its_own_resource(qw: World) -> None:
    from studio_quests.typed import AsyncSdkClient, AsyncServerClient

    from livecore_client.errors import ConflictError

    secret = await qw.register("ada")
    base = str(qw.client.make_url("")).rstrip("/")
    async with AsyncSdkClient(qw.keys["test-client"], base_url=base, player_secret=secret) as game:
        done = await game.quests.check_in("ada")
        assert done.quest.streak == 1 and done.grant.source_kind == "quest_check_in"
        assert (await game.quests.get("ada")).quest == done.quest
        with pytest.raises(ConflictError) as refused:
            await game.quests.check_in("ada")
        assert refused.value.code == "quest_already_checked_in"
    async with AsyncServerClient(qw.keys["test-server"], base_url=base) as backend:
        assert (await backend.quests.get("ada")).quest == done.quest


async def test_a_sample_of_the_areas_kind_carries_the_areas_own_sample(
    db_url: str, receiver: Receiver
) -> None:
    from livecore_server.operators.webhooks import send_sample

    hooks = webhook_manifest(quests=("test", receiver.url, '["quest.checked_in"]'))
    world = await _served(db_url, QUESTS + hooks + PLUGINS)
    try:
        endpoint = world.applied["games"]["space-race"]["webhooks"]["quests"]["id"]
        await asyncio.to_thread(send_sample, world.services, endpoint, "quest.checked_in")
        await world.dispatcher.drain_due()
        [received] = await receiver.wait_for(1)
        assert received.headers["X-Svc-Webhook-Test"] == "1"
        assert received.envelope["eventName"] == "quest.checked_in"
        assert received.envelope["data"]["externalPlayerId"] == "sample-player"
        assert received.envelope["data"]["streak"] == 3
    finally:
        await world.client.close()


# --- the areas of several studios in one database ------------------------------------------------------

RIVAL = """
studio = "rival"

[games.rival-game]
name = "Rival Game"
"""
_SEEDS = itertools.count(100)


def _apply(db: str, text: str, *, areas: tuple[str, ...] = ()) -> None:
    """``apply`` run against the database between two lives of the server (each run draws other ids)."""
    services = make_services(db, seed=next(_SEEDS))
    try:
        apply_manifest(services.store, services.keys, services.runtime, parse_manifest(text, areas=areas))
    finally:
        services.close()


async def _restarted(db: str, before: World) -> World:
    """The server started again on the same database: the same games and keys, nothing applied."""
    app = make_app(db)
    client = TestClient(TestServer(app))
    await client.start_server()
    services = app[SERVICES]
    return World(
        services=services,
        client=client,
        keys=before.keys,
        other_keys=before.other_keys,
        applied=before.applied,
    )


async def test_another_studios_apply_leaves_the_areas_a_studio_named_served_after_a_restart(
    db_url: str,
) -> None:
    first = await _served(db_url, QUESTS + PLUGINS)
    await first.client.close()
    await asyncio.to_thread(_apply, db_url, RIVAL)  # no [plugins]: the rival studio names no area of its own
    world = await _restarted(db_url, first)
    try:
        ada, bea = await world.register("ada"), await world.register("bea")
        for who, other, secret in (("ada", "bea", ada), ("bea", "ada", bea)):
            status, body, _ = await world.call(
                "POST",
                f"/sdk/v1/players/{who}/friends/requests",
                key="test-client",
                secret=secret,
                json={"externalPlayerId": other},
            )
            assert status in (200, 201), body
        # The area's check on a built-in command still runs ...
        gift = {"type": "currency", "resourceKey": "coins", "amount": 5, "externalPlayerId": "bea"}
        status, body, _ = await world.call(
            "POST", "/sdk/v1/players/ada/friends/gifts", key="test-client", secret=ada, json=gift
        )
        assert status == 409 and body["error"]["code"] == "quest_check_in_first"
        # ... and its routes still answer.
        status, body, _ = await _check_in(world, "ada", ada)
        assert status == 200, body
    finally:
        await world.client.close()


def test_the_areas_served_are_the_union_of_what_each_studio_last_named(db_url: str) -> None:
    _apply(db_url, TEST_MANIFEST + PLUGINS)
    _apply(db_url, RIVAL + PLUGINS)
    assert plugins.recorded(db_url) == ["studio_quests"]
    _apply(db_url, TEST_MANIFEST)  # acme stops naming it; rival still does
    assert plugins.recorded(db_url) == ["studio_quests"]
    _apply(db_url, RIVAL)
    assert plugins.recorded(db_url) == []


def test_areas_recorded_before_each_studio_had_its_own_record_stay_served(db_url: str) -> None:
    _apply(db_url, TEST_MANIFEST)
    services = make_services(db_url)
    try:
        # As a database an earlier version wrote: one list, the last applied manifest's, and no studio's own.
        def as_before(tx: Any) -> None:
            tx.execute("DELETE FROM server_meta WHERE name = ?", (plugins.BY_STUDIO,))
            tx.meta.put(plugins.RECORDED, '["studio_quests"]', 0)

        services.store.run(as_before)
    finally:
        services.close()
    assert plugins.recorded(db_url) == ["studio_quests"]
    _apply(db_url, RIVAL)  # the list is taken as every studio's until each applies again
    assert plugins.recorded(db_url) == ["studio_quests"]
    _apply(db_url, TEST_MANIFEST)
    assert plugins.recorded(db_url) == []


def test_a_server_refuses_to_start_when_a_game_configures_an_area_it_does_not_serve(db_url: str) -> None:
    # As `apply --area studio_quests`: the manifest configures the area without naming it.
    _apply(db_url, TEST_MANIFEST + QUESTS, areas=("studio_quests",))
    with pytest.raises(PluginError) as refused:
        make_app(db_url)
    assert str(refused.value) == (
        "studio acme: games.space-race.areas.quests configures area quests, which this server does not"
        " serve (name its package in the studio's [plugins] areas and apply again, or serve --area)"
    )
    make_app(db_url, areas=("studio_quests",))  # served by the config: it starts


def test_serve_exits_naming_a_game_section_of_an_area_it_does_not_serve(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    _apply(db, TEST_MANIFEST + QUESTS, areas=("studio_quests",))
    result = CliRunner().invoke(main, ["serve", "--db", db, "--port", "0"], env={"LIVECORE_AREAS": None})
    assert result.exit_code == 1
    assert "studio acme: games.space-race.areas.quests configures area quests" in result.output


def test_apply_refuses_a_section_of_an_area_only_another_studio_names(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    _apply(db, TEST_MANIFEST + PLUGINS)
    manifest = tmp_path / "rival.toml"
    manifest.write_text(RIVAL + QUESTS.replace("space-race", "rival-game"), encoding="utf-8")
    refused = CliRunner().invoke(main, ["apply", str(manifest), "--db", db], env={"LIVECORE_AREAS": None})
    assert refused.exit_code == 2
    assert "games.rival-game.areas.quests: names no area" in refused.output
