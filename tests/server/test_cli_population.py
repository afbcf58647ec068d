"""``livecore-server population`` (docs/simulation.md#fitting-from-a-servers-history), on SQLite and on
PostgreSQL: a known population played through the server on its manual clock
(tests/server/population_support.py) is fitted back by the command, each segment's share and rates and the
studio's offer within the tolerances below; the file is the same for the same database and arguments,
names no player, reads back and plays in ``simulate``; and each refusal names its option."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner, Result

from livecore.gifts.season import GIFT, Gifted
from livecore.grants.offers import OFFERS
from livecore.simulation.fields import Scale
from livecore.simulation.population import Segment, parse_population
from livecore_server.cli import main
from tests.conftest import BACKENDS, START, World, _pg_key_file, start_world
from tests.server.population_support import (
    BEST,
    CREDIT,
    DUEL,
    GAME,
    KNOWN,
    OFFER_BUY,
    OFFER_GEMS,
    OFFER_PRICE,
    Driver,
)

PLAYERS = 200
DAYS = 3
UNTIL = START + timedelta(days=DAYS)

#: How far a fitted value may be from the one played: the share nearly exactly (the two segments are far
#: apart); sessions a day relative (a Poisson count over three days); skill and the chances within about
#: three standard deviations of a chance over the light segment's 340-odd sessions (0.027 for an even
#: chance); the spend's share of the balance nearly exactly (whole coins of a thousand).
TOLERANCES: dict[str, float] = {
    "range": 0.1,  # relative
    "login_credit": 0.1,  # relative: the days played are told from the sessions
    "share": 0.02,
    "sessions_per_day": 0.1,  # relative
    "score.mean": 0.02,
    "score.sd": 0.03,
    "events": 0.08,
    "spend": 0.05,
    "gifts": 0.06,
    "spend_share": 0.02,
    "buy": 0.03,  # three standard deviations of a 10% chance over the 1,250-odd sessions
    "sessions": 0.03,  # relative: the sessions played, told from those on record (0.5% off here)
}


@attrs.frozen
class History:
    db: str
    home: Path  # the working directory the commands run in (a PostgreSQL database's key file is there)
    names: list[str]  # the players' external ids and names
    ids: list[str]  # their player ids
    sessions: int  # played
    sales: int  # of the gem pack


@pytest.fixture(scope="module", params=BACKENDS)
def history(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[History]:
    """The known population's season, played once per store."""
    home = tmp_path_factory.mktemp("population")
    if request.param == "sqlite":
        yield _played(str(home / "season.db"), home)
        return
    from tests.postgres_support import reused_schema

    with reused_schema() as url:
        played = _played(url, home)  # its server makes the key file when this run has none yet
        shutil.copy(_pg_key_file(), home / "livecore.key")
        yield played


def _played(db: str, home: Path) -> History:
    async def play() -> History:
        world = await start_world(db, manifest_extra=DUEL, every_event=False)
        try:
            world.only_hourly_jobs()
            driver = Driver(world, players=PLAYERS, days=DAYS)
            await driver.play()
            game_id = world.applied["games"][GAME]["id"]
            rows = world.rows("SELECT id, anon_name FROM players WHERE game_id = ?", (game_id,))
            names = [p.name for p in driver.players] + [name for _, name in rows]
            ids = [player_id for player_id, _ in rows]
            return History(db, home, names, ids, driver.sessions, driver.sales)
        finally:
            await world.client.close()

    return asyncio.run(play())


def population(history: History, *args: str, out: str = "fitted.toml") -> Result:
    command = ["population", "--db", history.db, "--out", str(history.home / out), *args]
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(history.home)
        return CliRunner().invoke(main, command)


def fitted(history: History, out: str, *args: str) -> str:
    result = population(history, "--game", GAME, "--until", UNTIL.isoformat(), *args, out=out)
    assert result.exit_code == 0, result.output
    return (history.home / out).read_text()


def test_a_known_population_played_through_the_server_is_fitted_back(history: History) -> None:
    text = fitted(history, "round-trip.toml", "--segments", "2")
    found = parse_population(text)
    assert f"players: {PLAYERS}, segments: 2" in text
    assert f"period: {START.isoformat()} to {UNTIL.isoformat()}" in text
    # The race's scores were played from 0 to BEST: the fitted range is as wide, as the spread of a
    # player's scores tells.
    scale = found.tables["events"]["race"]
    assert abs((scale.best - scale.worst) - BEST) <= TOLERANCES["range"] * BEST, scale
    for played, segment in zip(KNOWN, found.segments, strict=True):
        _within(played, segment, scale)
        # Each player gifted 1 coin, and nothing else: so does each segment fitted.
        assert segment.table(GIFT) == {"coins": Gifted(1.0)}, segment
    # What the studio's backend did: CREDIT coins at a player's first session of a day.
    credit = found.studio.rates["login_credit"]["coins"]
    assert abs(credit - CREDIT) <= TOLERANCES["login_credit"] * CREDIT, found.studio
    assert found.tables["economy"] == ("coins",)
    # The gem pack, at its price, giving its gems, bought by its chance a session.
    gems = found.table(OFFERS)["gems"]
    assert (gems.currency, gems.price, gems.reference) == ("coins", OFFER_PRICE, None)
    assert [(str(e.type), e.key, e.amount) for e in gems.gives] == [("currency", "gems", OFFER_GEMS)]
    assert abs(gems.buy - OFFER_BUY) <= TOLERANCES["buy"], gems
    # Its sales over the sessions told from those on record: the sales over the sessions played.
    sold = history.sales / history.sessions
    assert abs(gems.buy - sold) <= TOLERANCES["sessions"] * sold, (gems, sold)


def _within(played: object, found: Segment, scale: Scale) -> None:
    """The segment fitted back; its skill compared as the scores it plays, a share of the played range
    (the fitted skill on the fitted range ``scale``, the played one from 0 to BEST)."""
    from tests.server.population_support import Segment as Played

    assert isinstance(played, Played)
    name = played.name
    assert abs(found.share - played.share) <= TOLERANCES["share"], (name, found)
    spd = played.sessions_per_day
    assert abs(found.sessions_per_day - spd) <= TOLERANCES["sessions_per_day"] * spd, (name, found)
    mean = scale.score(found.score.mean) - played.skill * BEST
    assert abs(mean) <= TOLERANCES["score.mean"] * BEST, (name, found)
    spread = found.score.sd * abs(scale.best - scale.worst) - played.skill_sd * BEST
    assert abs(spread) <= TOLERANCES["score.sd"] * BEST, (name, found)
    assert found.rates["attempts_per_session"] == played.attempts, (name, found)
    # Each player asked its neighbour in the ring as it started: accepted, the request is still read.
    assert found.rates["friends"] == 1, (name, found)
    for rate, value in (
        ("events", played.events),
        ("spend", played.spend),
        ("spend_share", played.spend_share),
        ("gifts", played.gifts),
    ):
        assert abs(found.rates[rate] - value) <= TOLERANCES[rate], (name, rate, found.rates)


def test_the_same_database_and_arguments_write_the_same_file(history: History) -> None:
    first = fitted(history, "once.toml")
    assert fitted(history, "twice.toml") == first


def test_the_file_names_no_player(history: History) -> None:
    text = fitted(history, "private.toml")
    assert history.ids and history.names
    for word in (*history.ids, *history.names, "plr_"):
        assert word not in text


def test_simulate_plays_the_fitted_file(history: History, tmp_path: Path) -> None:
    fitted(history, "played.toml")
    manifest = tmp_path / "duel.toml"
    manifest.write_text('studio = "acme"\n' + DUEL)
    population = str(history.home / "played.toml")
    command = ["simulate", str(manifest), "--population", population, "--players", "50", "--days", "1"]
    result = CliRunner().invoke(main, [*command, "--out", str(tmp_path / "report"), "--start", "2026-03-02"])
    assert result.exit_code == 0, result.output


def test_an_unknown_game_is_refused_listing_the_known_ones(history: History) -> None:
    result = population(history, "--game", "nope", "--until", UNTIL.isoformat())
    assert result.exit_code == 2
    assert "--game: no game 'nope' in this database (games: duel, other-game, space-race)" in result.output
    assert not (history.home / "fitted.toml").exists()


def test_an_unknown_studio_is_refused(history: History) -> None:
    result = population(history, "--game", GAME, "--studio", "nope")
    assert result.exit_code == 2
    assert "--studio: no studio 'nope' in this database (studios: acme)" in result.output


def test_a_period_with_no_player_is_refused(history: History) -> None:
    before = (START - timedelta(days=10)).date().isoformat()
    result = population(history, "--game", GAME, "--since", before, "--until", START.date().isoformat())
    assert result.exit_code == 2
    assert "--since/--until: no player of the game (live) was active from" in result.output
    test_env = population(history, "--game", GAME, "--env", "test", "--until", UNTIL.isoformat())
    assert test_env.exit_code == 2
    assert "--since/--until: no player of game 'duel' (test) is on record" in test_env.output


def test_too_few_players_for_the_segments_fit_fewer_with_a_warning(history: History) -> None:
    result = population(history, "--game", GAME, "--until", UNTIL.isoformat(), "--segments", "11")
    assert result.exit_code == 0, result.output
    warning = f"{PLAYERS} players were active in the period: 10 segments fitted instead of 11"
    assert f"warning: {warning}" in result.output
    text = (history.home / "fitted.toml").read_text()
    assert f"players: {PLAYERS}, segments: 10" in text and f"# warning: {warning}" in text
    beyond = population(history, "--game", GAME, "--segments", "13")
    assert beyond.exit_code == 2 and "--segments: must be from 1 to 12 (got 13)" in beyond.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--since", "yesterday"], "'yesterday' is not a date"),
        (["--until", "2026-13-01"], "'2026-13-01' is not a date"),
        (["--since", "2026-03-05", "--until", "2026-03-04"], "--since/--until: must end after it starts"),
    ],
    ids=["words", "no-such-month", "backwards"],
)
def test_bad_dates_are_refused_by_their_option(history: History, args: list[str], message: str) -> None:
    result = population(history, "--game", GAME, *args)
    assert result.exit_code == 2
    assert message in result.output


def test_a_directory_is_not_written_over(history: History) -> None:
    (history.home / "a-directory").mkdir(exist_ok=True)
    result = population(history, "--game", GAME, "--until", UNTIL.isoformat(), out="a-directory")
    assert result.exit_code == 2
    assert "is a directory" in result.output


def test_a_game_key_several_studios_have_needs_the_studio(tmp_path: Path) -> None:
    from livecore_server.manifest import parse_manifest
    from livecore_server.operators.apply import apply_manifest
    from tests.conftest import make_services

    db = str(tmp_path / "two.db")
    services = make_services(db)
    try:
        for studio in ("north", "south"):
            manifest = parse_manifest(f'studio = "{studio}"\n\n[games.duel]\nname = "Duel"\n')
            apply_manifest(services.store, services.keys, services.runtime, manifest)
    finally:
        services.close()
    home = History(db, tmp_path, [], [], 0, 0)
    both = population(home, "--game", GAME)
    assert both.exit_code == 2
    assert "--game: studios north, south each have a game 'duel': choose one with --studio" in both.output
    chosen = population(home, "--game", GAME, "--studio", "south")
    assert chosen.exit_code == 2
    assert "--since/--until: no player of game 'duel' is on record, in live or test" in chosen.output
    live = population(home, "--game", GAME, "--studio", "south", "--env", "live")
    assert "--since/--until: no player of game 'duel' (live) is on record" in live.output
    unknown = population(home, "--game", "nope", "--studio", "north")
    assert "--game: no game 'nope' of studio 'north' in this database (games: duel)" in unknown.output


def test_the_progress_bar_moves_a_step_at_a_time_to_its_end(
    history: History, monkeypatch: pytest.MonkeyPatch
) -> None:
    from livecore.scope import Environment
    from livecore_server import population as fitting
    from livecore_server.cli_options import open_services, server_config

    monkeypatch.chdir(history.home)
    request = fitting.Request(GAME, None, Environment.LIVE, None, UNTIL, 2)
    steps: list[tuple[int, int]] = []
    services = open_services(server_config(history.db))
    try:
        fitting.fit(
            services.store, request, fitting.parts(), lambda _, done, total: steps.append((done, total))
        )
    finally:
        services.close()
    total = steps[0][1]
    # The players, each area's tallies (five built-in areas fit rates), the clusters, the segments.
    assert total >= 3 + 5
    assert steps == [(n, total) for n in range(1, total + 1)]


def test_a_device_is_not_written_over(history: History) -> None:
    result = population(history, "--game", GAME, "--until", UNTIL.isoformat(), out="/dev/null")
    assert result.exit_code == 2
    assert "--out /dev/null is not a regular file" in result.output
    assert Path("/dev/null").is_char_device()


async def test_the_environment_fitted_by_default_is_live_else_the_one_with_players(
    world: World, tmp_path: Path
) -> None:
    """As the demo's database right after the README's tour: a handful of players, all in test."""
    if world.on_postgres:
        shutil.copy(_pg_key_file(), tmp_path / "livecore.key")
    home = History(world.services.config.db, tmp_path, [], [], 0, 0)
    until = (START + timedelta(days=1)).isoformat()
    for name in ("alice", "bob", "carol"):
        await world.register(name)
    # In a thread: the world's server keeps serving (and committing) on the loop meanwhile.
    handful = await asyncio.to_thread(population, home, "--game", "space-race", "--until", until)
    assert handful.exit_code == 0, handful.output
    assert "wrote" in handful.output and "3 players of space-race (test)" in handful.output
    assert "warning: 3 players were active in the period: 1 segment fitted instead of 3" in handful.output
    # Each seen in the one session it registered in: its segment plays nothing, which the file says too.
    idle = "warning: no segment plays a session (segments.segment-1.sessions_per_day = 0)"
    assert idle in handful.stderr and f"# {idle}" in (tmp_path / "fitted.toml").read_text()
    assert "# game: space-race (test)" in (tmp_path / "fitted.toml").read_text()
    await world.register("dave", key="live-client")
    live = await asyncio.to_thread(population, home, "--game", "space-race", "--until", until)
    assert live.exit_code == 0, live.output
    assert "1 player of space-race (live)" in live.output
