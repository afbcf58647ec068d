"""The simulation's ``livecore-server`` commands (docs/simulation.md): ``simulate`` plays a seeded
population through a manifest's season, embedded, and writes its report; ``population`` fits a
population file from a game's recorded history."""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import click

from livecore.names import shown
from livecore_server.cli_options import (
    DB_HELP,
    Command,
    Refused,
    area_names,
    area_option,
    database,
    open_services,
    refusal,
    server_config,
)
from livecore_server.simulate import DAYS, MOST_SEEDS, PLAYERS, START, shipped


@click.command(cls=Command)
@click.argument("manifest", callback=shipped.option(shipped.MANIFESTS, "manifest"))
# A first season plays in about 20 s; a month of 10,000 players takes minutes (docs/simulation.md).
@click.option("--days", default=DAYS, show_default=True, type=click.IntRange(1, 366), help="Days to play.")
@click.option(
    "--players",
    default=PLAYERS,
    show_default=True,
    type=click.IntRange(1, 1_000_000),
    help="Players to make.",
)
@click.option("--seed", default=0, show_default=True, type=int, help="Every draw comes from it.")
@click.option(
    "--seeds",
    default=1,
    show_default=True,
    type=click.IntRange(1, MOST_SEEDS),
    help="Seeds to play, --seed the first (in parallel, a process per core, or on --cluster): the report"
    " gives each headline number's spread over them and, with --compare, whether each change stands out"
    " of their noise.",
)
@click.option(
    "--out",
    "out",
    required=True,
    type=click.Path(file_okay=False),
    help="The directory report.json and report.html are written into (made if missing).",
)
@click.option(
    "--population",
    callback=shipped.option(shipped.POPULATIONS, "population"),
    default=None,
    help="The population file (docs/simulation.md#the-population), or demo: the one shipped for the demo"
    " manifest; default: three segments of players.",
)
@click.option(
    "--compare",
    "other",
    callback=shipped.option(shipped.MANIFESTS, "manifest"),
    default=None,
    help="Another manifest (or demo): play both on the same population and report them side by side.",
)
@click.option(
    "--compare-population",
    "other_population",
    callback=shipped.option(shipped.POPULATIONS, "population"),
    default=None,
    help="Another population file (or demo): play the manifest (with --compare, the other manifest) with it"
    " too, on the same seeds, and report both side by side.",
)
@click.option(
    "--expect",
    "expected",
    multiple=True,
    metavar='"SECTION.SUBJECT.METRIC < +10%"',
    help="With a comparison (or --sweep: at every value): a limit on a compared row (repeatable): on its"
    " relative change with a bound in"
    ' percent ("economy.coins.minted < +10%"), on its number in the other configuration with a bound'
    ' without one ("players..players who left <= 0"). The report says which limits were broken; once it'
    " is written, a broken one fails the run (exit 1), and one naming no row exits 2 with the row names"
    " nearest it.",
)
@click.option(
    "--sweep",
    "swept",
    default=None,
    metavar='"[population:]PATH=VALUES"',
    help="Play a number of the manifest (population:PATH, of the --population file), dotted as its TOML"
    ' nests it, at each of VALUES, a range FIRST..LAST/STEP or a list A,B,C ("population:studio.offers.'
    'bronze-chest.price.coins=60..140/20"): each value on the same seeds as the file as given, compared'
    " with it as --compare compares. The report gives each row's effect at each value with its interval"
    " (sweep.csv) and draws it against the value; --expect is judged at every value. A path naming no"
    " number, or a value the file refuses, exits 2 before anything is played.",
)
@click.option(
    "--row",
    "rows",
    multiple=True,
    metavar='"SECTION.SUBJECT.METRIC"',
    help="With --sweep: a row to report and draw (repeatable; default every row, drawing those that moved"
    " most). One naming no row exits 2 once the report is written, with the row names nearest it.",
)
@click.option(
    "--start",
    default=START,
    show_default=True,
    type=click.DateTime(["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S"]),
    help="When the season starts (UTC).",
)
@click.option("--game", default=None, help="The game to play, when the manifest declares several.")
@click.option(
    "--check",
    is_flag=True,
    help="Read each of the season's own actions through its wire form, as the server reads a request"
    " (slower; the report is the same, and an action the wire reads otherwise fails the run).",
)
@click.option(
    "--cluster",
    metavar="ADDRESS",
    default=None,
    help="Play the seasons on a Dask cluster, by its scheduler's address (tcp://host:8786), rather than on"
    " this machine's cores; the same report. Its workers run where livecore (and the studio's areas) is"
    " installed, and this needs pip install 'livecore[cluster]' (docs/simulation.md#on-a-cluster).",
)
@area_option(
    "Play a studio's own area, by package name, as serve --area serves it (repeatable; LIVECORE_AREAS:"
    " comma-separated). Areas installed by entry point and those the manifest names in [plugins] areas are"
    " played too."
)
def simulate(
    manifest: str,
    days: int,
    players: int,
    seed: int,
    seeds: int,
    out: str,
    population: str | None,
    other: str | None,
    other_population: str | None,
    expected: tuple[str, ...],
    swept: str | None,
    rows: tuple[str, ...],
    start: Any,
    game: str | None,
    check: bool,
    cluster: str | None,
    studio_areas: tuple[str, ...],
) -> None:
    """Play a seeded population through a manifest's season, embedded, and write its report.

    The players of the population (--population, else the default one) play the game's events,
    lobbies, teams, shared leaderboards, guilds, gifts and crates, and the studio's own areas (--area),
    for --days days; report.json and report.html (one self-contained page with charts) go into --out.
    With --compare OTHER_MANIFEST both manifests are played by the same players and reported side by
    side; with --compare-population OTHER_POPULATION, both populations (another manifest too with both
    options). With --seeds N the seeds --seed to --seed + N - 1 are played (side by side, a process per core,
    or on the Dask cluster --cluster names):
    the report gives each headline number's spread over them, and a comparison marks which changes stand
    out of the seeds' noise (paired t-tests, the numbers marked chosen together at a 5% false discovery
    rate), each with its interval at the level that choice holds it to: a row is marked exactly when its
    interval leaves out 0. --expect states a limit on a compared row, "economy.coins.minted < +10%" (its
    relative change) or "players..players who left <= 0" (its number): a broken one fails the run (exit
    1), one naming no row exits 2. --sweep PATH=VALUES plays a number of the manifest (or, population:PATH,
    of the population file) at several values, each compared with the file as given on the same seeds:
    sweep.csv and a chart per row of its effect against the value. The same seeds write the same files,
    byte for byte.
    docs/simulation.md says what each number means."""
    import time
    from datetime import UTC

    from livecore.manifest import ManifestError
    from livecore.simulation.population import PopulationError
    from livecore_server import plugins
    from livecore_server.manifest import read_manifest
    from livecore_server.simulate import limits as stated
    from livecore_server.simulate import sweep as sweeping
    from livecore_server.simulate.engines import Cluster, ClusterError, most_processes, workers
    from livecore_server.simulate.gather import parts
    from livecore_server.simulate.render import write
    from livecore_server.simulate.run import (
        PopulationRefused,
        Sources,
        areas_played,
        memory_need,
        parse,
        read_population,
    )
    from livecore_server.simulate.run import simulate as run_simulation

    try:
        limits = [stated.parse(text) for text in expected]
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--expect'") from None
    try:
        sweep = None if swept is None else sweeping.parse(swept)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--sweep'") from None
    if sweep is not None and (other or other_population):
        raise click.UsageError(
            "--sweep compares each value with the files as given:"
            " leave out --compare and --compare-population"
        )
    if rows and sweep is None:
        raise click.UsageError("--row names a row of a sweep: add --sweep")
    try:  # a bad $LIVECORE_SIMULATE_PROCESSES is refused before anything is played
        most_processes()
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if limits and not (other or other_population or sweep):
        raise click.UsageError(
            "--expect limits a comparison's changes: add --compare, --compare-population or --sweep"
        )
    names = area_names(studio_areas)
    manifests = []
    texts = []
    for path in (manifest, *([other] if other else [])):
        try:
            text = read_manifest(path)
            manifests.append((os.path.basename(path), parse(text, names)))
            texts.append((os.path.basename(path), text))
        except ManifestError as exc:
            click.echo(refusal(f"manifest {path} refused", exc.problems), err=True)
            sys.exit(2)
    try:
        named, served = areas_played(names, [m for _, m in manifests])
    except plugins.PluginError as exc:
        raise Refused("plugin_refused", shown(str(exc)), exit_code=2) from None
    for played in served:
        if played.area.season is None:
            # Warned, not refused: its hooks still act on the season; but a report with nothing of an area
            # the command was told to play would read as the area doing nothing.
            click.echo(
                shown(
                    f"warning: area {played.area.name} has no season part (Area.season): its players do"
                    " nothing of its own, and the report has no section of it"
                ),
                err=True,
            )
    populations = []
    given: dict[str, str | None] = {}  # each population's path, by its name in the report
    for file in (population, *([other_population] if other_population else [])):
        try:
            people = read_population(file, served)
        except PopulationError as exc:
            click.echo(refusal(f"population {file} refused", exc.problems), err=True)
            sys.exit(2)
        name = os.path.basename(file) if file else "default"
        if (idle := people.idle()) is not None:
            # Warned, not refused: a segment may be idle on purpose; but a report of players who play
            # nothing, or a comparison's every row 0 against the other's, would read as a finding.
            click.echo(shown(f"warning: population {name}: {idle}"), err=True)
        given[name] = file
        populations.append((name, people))
    plan = None
    if sweep is not None:
        plan = _swept(sweep, manifest, population, manifests, texts, populations, given, names, served)
    _can_be_directory(out)
    began = time.perf_counter()
    label = f"{players:,} players x {days} days" + (f" x {seeds} seeds" if seeds > 1 else "")
    seasons = seeds * max(len(manifests), len(populations))
    with contextlib.ExitStack() as stack:
        bars: list[Any] = []
        engine = None
        if cluster is not None:
            try:
                engine = stack.enter_context(Cluster(cluster))
            except ClusterError as exc:
                raise Refused("cluster_unavailable", shown(str(exc)), exit_code=2) from None

        def starting() -> None:
            """Once every season is checked, before the first player is made (a million take minutes,
            and gigabytes): the memory it needs, and a bar with a step per player made and per player's
            day played, which so moves from the first second; on a cluster, whose workers tell no step,
            the memory a season needs and a bar with a step per season."""
            if engine is not None:
                each = _bytes(memory_need(players, days))
                click.echo(f"{label}: {seasons} seasons on {cluster}, about {each} of memory each", err=True)
                steps, shown_as = seasons, f"{label}: seasons"
            else:
                need = memory_need(players, days, processes=workers(seasons))
                here = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
                beyond = f", more than this machine's {_bytes(here)}" if need > here else ""
                click.echo(f"{label}: about {_bytes(need)} of memory{beyond}", err=True)
                steps, shown_as = seasons * players * (1 + days), label
            bar = click.progressbar(length=steps, label=shown_as, show_pos=bool(engine), file=sys.stderr)
            bars.append(stack.enter_context(bar))

        try:
            play: Any = run_simulation if plan is None else functools.partial(sweeping.simulate, plan=plan)
            report = play(
                manifests,
                populations,
                players=players,
                days=days,
                seed=seed,
                start=start.replace(tzinfo=UTC),
                game=game,
                areas=served,
                seeds=seeds,
                check=check,
                sources=Sources(tuple(texts), names, named),
                on_start=starting,
                on_day=lambda _: bars[0].update(players),
                on_players=lambda made: bars[0].update(made),
                engine=engine,
                on_season=None if engine is None else lambda _done, _seasons: bars[0].update(1),
            )
        except PopulationRefused as exc:
            click.echo(refusal(f"population {given[exc.name]} refused", exc.problems), err=True)
            sys.exit(2)
        except ValueError as exc:
            raise Refused("simulation_refused", shown(str(exc)), exit_code=2) from None
    if plan is not None:
        unnamed = sweeping.finish(report, rows, limits)
    elif limits:
        report["limits"] = stated.judged(limits, report["differences"])
        unnamed = stated.unknown(limits, report["differences"])
    else:
        unnamed = []
    try:
        json_path, html_path = write(report, Path(out), parts(served))
    except OSError as exc:
        raise Refused(
            "cannot_write", shown(f"cannot write the report into {out}: {exc}"), exit_code=2
        ) from None
    warnings = (
        report["warnings"]
        if "warnings" in report
        else report["base"]["warnings"] + report.get("other", {}).get("warnings", [])
    )
    click.echo(
        f"wrote {json_path}, {html_path} and each table of the page as CSV beside them:"
        f" {len(warnings)} warnings ({time.perf_counter() - began:.1f} s)"
    )
    for line in unnamed:
        click.echo(f"{'names' if plan else 'limit names'} no row: {line}", err=True)
    broken = [found for found in report.get("limits", ()) if found["broken"]]
    for found in broken:
        at = f" at {found['value']}" if "value" in found else ""
        click.echo(f"limit broken{at}: {found['limit']}: {found['why']}", err=True)
    if unnamed:
        sys.exit(2)
    if broken:
        sys.exit(1)


def _swept(
    sweep: Any,
    manifest: str,
    population: str | None,
    manifests: list[Any],
    texts: list[tuple[str, str]],
    populations: list[Any],
    given: dict[str, str | None],
    names: tuple[str, ...],
    served: Any,
) -> Any:
    """The sweep's plan, each value that changes the file added to ``manifests`` and ``texts`` (a
    manifest's field) or to ``populations`` and ``given`` (a population file's), read as the command reads
    the file: a path naming no number, or a value the file refuses, exits 2 naming it."""
    from livecore.manifest import ManifestError
    from livecore.simulation.population import PopulationError
    from livecore_server.simulate import sweep as sweeping
    from livecore_server.simulate.run import parse, population_of, population_text

    if sweep.of == "population" and population is None:
        raise Refused(
            "sweep_refused",
            f"--sweep {sweep.text}: a population: field is one of the --population file: name it",
            exit_code=2,
        )
    path = manifest if sweep.of == "manifest" else population
    assert path is not None
    base_text = texts[0][1] if sweep.of == "manifest" else population_text(path)
    file = os.path.basename(path)
    try:
        plan, added = sweeping.planned(sweep, file, base_text)
    except ValueError as exc:
        raise Refused("sweep_refused", shown(f"--sweep {sweep.text}: {exc}"), exit_code=2) from None
    for value, text in added:
        name = sweeping.named(file, sweep, value)
        try:
            if sweep.of == "manifest":
                manifests.append((name, parse(text, names)))
                texts.append((name, text))
            else:
                populations.append((name, population_of(text, served)))
                given[name] = sweeping.named(path, sweep, value)
        except (ManifestError, PopulationError) as exc:
            refused = sweeping.named(path, sweep, value)
            click.echo(refusal(f"{sweep.of} {refused} refused", exc.problems), err=True)
            sys.exit(2)
    return plan


def _can_be_directory(out: str) -> None:
    """Refuse ``simulate --out`` before the season is played, not after: a path that cannot be a directory
    one can write into (``/dev/null``, ``/proc/x``, a file) is one line, exit 2. Probed by making it (and
    a file in it), then leaving the disk as it was: a season refused later writes nothing."""
    path = Path(out)
    made = [p for p in (path, *path.parents) if not p.exists()]  # the deepest first
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise Refused(
            "cannot_write", shown(f"--out {out} cannot be a directory to write into: {reason}"), exit_code=2
        ) from None
    finally:
        for directory in made:
            with contextlib.suppress(OSError):
                directory.rmdir()


def _bytes(count: int) -> str:
    """A size as people read it: ``350 MB``, ``4.2 GB``."""
    if count >= 10**9:
        return f"{count / 10**9:.1f} GB"
    return f"{max(1, round(count / 10**6))} MB"


def _moment(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    """An ISO date (its midnight) or date and time, in UTC where it names no offset, within the time the
    service keeps (:data:`~livecore.simulation.world.EARLIEST` to before
    :data:`~livecore.simulation.world.LATEST`: near year 1 or 9999 an offset or a period's arithmetic would
    leave the calendar). Refused in one line, exit status 2."""
    from datetime import UTC, datetime

    from livecore.simulation.world import EARLIEST, LATEST

    if value is None:
        return None
    option = param.opts[0]
    try:
        found = datetime.fromisoformat(value)
    except ValueError:
        raise Refused(
            "invalid_date",
            shown(
                f"{option}: {value!r} is not a date: give 2026-03-02 or 2026-03-02T12:00:00"
                " (UTC unless an offset is given)"
            ),
            exit_code=2,
        ) from None
    try:
        moment = found.replace(tzinfo=UTC) if found.tzinfo is None else found.astimezone(UTC)
    except OverflowError:
        moment = None
    if moment is None or not EARLIEST <= moment < LATEST:
        raise Refused(
            "invalid_date",
            shown(
                f"{option}: {value!r} is out of range: give a time from {EARLIEST:%Y-%m-%d} to before"
                f" {LATEST:%Y-%m-%d} (UTC)"
            ),
            exit_code=2,
        )
    return moment


#: The options a fitting's refusal names (livecore_server.population), by the problem's key.
_FIT_OPTIONS = {"game": "--game", "studio": "--studio", "segments": "--segments", "period": "--since/--until"}


@click.command(cls=Command)
@click.option("--db", default=None, help=DB_HELP)
@click.option("--game", "game_key", required=True, help="The game's key, as the manifest names it.")
@click.option(
    "--studio", default=None, help="The studio's key, when several studios have a game of that key."
)
@click.option(
    "--env",
    type=click.Choice(["test", "live"]),
    default=None,
    help="The environment whose players are fitted; default: live if the game has players on record there,"
    " else test (the demo's).",
)
@click.option(
    "--since",
    metavar="DATE",
    callback=_moment,
    default=None,
    help="The period's start (UTC unless an offset is given), a date or a date and time; default: the"
    " game's first player's first sighting (its whole history).",
)
@click.option(
    "--until",
    metavar="DATE",
    callback=_moment,
    default=None,
    help="The period's end, not included (as --since); default: now, by the system clock (a server on"
    " --clock manual keeps no time of its own in the database: give --until).",
)
@click.option(
    "--segments",
    default=3,
    show_default=True,
    type=click.IntRange(1),
    help="How many segments to find (at most 12, each of 20 players or more: fewer players fit fewer, with a"
    " warning).",
)
@click.option(
    "--out",
    required=True,
    type=click.Path(dir_okay=False, writable=True),
    help="The population file to write (replaced whole, if it exists).",
)
def population(
    db: str | None,
    game_key: str,
    studio: str | None,
    env: str | None,
    since: Any,
    until: Any,
    segments: int,
    out: str,
) -> None:
    """Fit a population file from a game's recorded history, for simulate --population.

    The game's players active in the period are found into --segments segments by their activity (their
    sessions a day, their events' plays, attempts and scores, their gifts and spending; fewer segments,
    with a warning, where the players are too few for them); each segment's
    share and rates are written, with a comment header saying what period and how many players they were
    fitted on. Only aggregates leave the database: no player's id, name or address is in the file. Given
    --until, the same database and arguments write the same file, byte for byte. docs/simulation.md
    ("Fitting from a server's history") says how each rate is fitted."""
    from livecore.scope import Environment
    from livecore.simulation.fitting import FittingError
    from livecore_server import population as fitting
    from livecore_server.clock import SystemClock

    path = Path(out)
    if path.exists() and not path.is_file():
        # The file is replaced by renaming over it: a device (/dev/null) or a socket would be replaced too.
        raise Refused("cannot_write", shown(f"--out {out} is not a regular file"), exit_code=2)
    if not path.parent.is_dir():
        raise Refused(
            "cannot_write",
            shown(f"--out {out}: the directory {str(path.parent)!r} does not exist"),
            exit_code=2,
        )
    request = fitting.Request(
        game=game_key,
        studio=studio,
        env=None if env is None else Environment(env),
        since=since,
        until=until or SystemClock().now().replace(microsecond=0),
        segments=segments,
    )
    played = fitting.parts()
    services = open_services(server_config(database(db)))
    try:
        with contextlib.ExitStack() as stack:
            bars: list[Any] = []

            def progress(step: str, done: int, total: int) -> None:
                """A step of the fitting done: the bar, on a terminal only, made at the first (which
                says how many there are)."""
                if not bars:
                    label = f"fitting {game_key}"
                    bars.append(
                        stack.enter_context(click.progressbar(length=total, label=label, file=sys.stderr))
                    )
                bars[0].update(done - bars[0].pos)

            try:
                fitted = fitting.fit(
                    services.store, request, played, progress if sys.stderr.isatty() else None
                )
            except FittingError as exc:
                problems = {_FIT_OPTIONS.get(k, k): m for k, m in exc.problems.items()}
                click.echo(refusal(f"population of {game_key} not fitted", problems), err=True)
                sys.exit(2)
    finally:
        services.close()
    try:
        fitting.write_atomically(path, fitted.toml())
    except OSError as exc:
        raise Refused("cannot_write", shown(f"cannot write {out}: {exc}"), exit_code=2) from None
    for warning in fitted.warnings:
        click.echo(f"warning: {warning}", err=True)
    shares = ", ".join(f"{s.name} {s.share:.0%}" for s in fitted.population.segments)
    players = f"{fitted.players:,} player{'' if fitted.players == 1 else 's'}"
    click.echo(
        f"wrote {out}: {players} of {fitted.game} ({fitted.env.value}) from"
        f" {fitted.since.isoformat()} to {fitted.until.isoformat()}: {shares}"
    )


COMMANDS = (simulate, population)
