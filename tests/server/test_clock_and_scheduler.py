"""docs/reference/manifest-and-cli.md#manual-clock: the manual clock route, and scheduled work driven by it
(the streak sweep)."""

from __future__ import annotations

from tests.conftest import World, make_app


def _player(world: World, external_id: str):  # type: ignore[no-untyped-def]
    game_id = world.applied["games"]["space-race"]["id"]
    return world.services.store.run(lambda tx: tx.players.get(game_id, external_id), write=False)


async def test_advance_moves_service_time(world: World) -> None:
    status, body, _ = await world.call("POST", "/server/v1/dev/clock/advance", json={"seconds": 90})
    assert status == 200
    assert body["data"]["now"] == "2026-03-02T12:01:30.000Z"
    _, ping, _ = await world.call("GET", "/server/v1/ping")
    assert ping["data"]["time"] == "2026-03-02T12:01:30.000Z"


async def test_advance_needs_positive_seconds(world: World) -> None:
    for bad in (0, -5):
        status, body, _ = await world.call("POST", "/server/v1/dev/clock/advance", json={"seconds": bad})
        assert status == 400
        assert "seconds" in body["error"]["details"]["fields"]
    status, body, _ = await world.call("POST", "/server/v1/dev/clock/advance", json={"seconds": "5"})
    assert status == 400


async def test_advance_is_at_most_a_month(world: World) -> None:
    """schemathesis sent `{"seconds": 1e20}` (a 500: the date overflowed) and `1e7` (it held the request
    while 115 days of scheduled work ran)."""
    before = world.services.clock.now()
    for too_far in (31 * 86_400 + 1, 1e7, 1e20, 1e308):
        status, body, _ = await world.call("POST", "/server/v1/dev/clock/advance", json={"seconds": too_far})
        assert status == 400, body
        assert body["error"]["details"]["fields"] == {"seconds": "must be from 0 to 2,678,400"}
    assert world.services.clock.now() == before


async def test_advance_with_a_live_key_is_403(world: World) -> None:
    status, body, _ = await world.call(
        "POST", "/server/v1/dev/clock/advance", key="live-server", json={"seconds": 5}
    )
    assert (status, body["error"]["code"]) == (403, "permission_denied")


async def test_advance_without_manual_clock_is_404(world: World) -> None:
    from aiohttp.test_utils import TestClient, TestServer

    # The same database (and server key) as the world, on the wall clock; the world's server steps aside
    # first (one server per SQLite file: two on one event loop would wait on each other's write lock).
    await world.client.close()
    client = TestClient(TestServer(make_app(world.services.config.db, manual=False)))
    await client.start_server()
    try:
        resp = await client.post(
            "/server/v1/dev/clock/advance",
            json={"seconds": 5},
            headers={"Authorization": f"Bearer {world.keys['test-server']}"},
        )
        assert resp.status == 404
        assert (await resp.json())["error"]["code"] == "not_found"
    finally:
        await client.close()


async def test_streak_sweep_runs_when_the_clock_passes_a_missed_day(world: World) -> None:
    world.only_hourly_jobs()  # the login-streak sweep is hourly
    await world.register("alice")  # Monday 2026-03-02 12:00: streak 1
    assert _player(world, "alice").activity.streak == 1
    # Tuesday passes without activity; the hourly sweep on Wednesday resets it.
    await world.call("POST", "/server/v1/dev/clock/advance", json={"seconds": 35 * 3600})  # Tue 23:00
    assert _player(world, "alice").activity.streak == 1  # Tuesday is not over yet
    await world.call("POST", "/server/v1/dev/clock/advance", json={"seconds": 3600})  # Wed 00:00 sweep
    activity = _player(world, "alice").activity
    assert activity.streak == 0
    assert activity.best_streak == 1


async def test_streak_continues_on_consecutive_days(world: World) -> None:
    world.only_hourly_jobs()
    secret = await world.register("alice")
    for _ in range(3):
        await world.call("POST", "/server/v1/dev/clock/advance", json={"seconds": 24 * 3600})
        status, _, _ = await world.call(
            "PUT", "/sdk/v1/players/alice/identity", key="test-client", json={"name": "A"}, secret=secret
        )
        assert status == 200
    activity = _player(world, "alice").activity
    assert (activity.streak, activity.best_streak, activity.sessions) == (4, 4, 4)


async def test_scheduled_jobs_run_at_their_due_time(world: World) -> None:
    seen: list[str] = []

    async def job() -> None:
        seen.append(world.clock.now().isoformat())

    from datetime import timedelta

    world.services.scheduler.every("probe", timedelta(minutes=30), job)
    await world.call("POST", "/server/v1/dev/clock/advance", json={"seconds": 3600})
    assert seen == ["2026-03-02T12:30:00+00:00", "2026-03-02T13:00:00+00:00"]
