"""Developer sessions; CI runs the same ones (.ci/run)."""

from __future__ import annotations

import shutil

import nox

# A bare `nox`: what CI runs (docs/testing.md); the other sessions run when named (`nox -s fuzz`).
nox.options.sessions = ["tests", "lint", "typecheck"]
nox.options.reuse_existing_virtualenvs = True
# uv builds a session's environment in seconds where pip takes over a minute (`pip install "nox[uv]"` brings
# it); without uv, nox falls back to virtualenv and pip.
nox.options.default_venv_backend = "uv|virtualenv"

SOURCES = [
    "livecore",
    "livecore_server",
    "livecore_client",
    "tests",
    "benchmarks",
    "examples",
    "fuzz",
    "noxfile.py",
    "conftest.py",
]


@nox.session
def tests(session: nox.Session) -> None:
    """Run the test suite (core; server API on real SQLite and PostgreSQL; clients against a live server);
    the slowest tests are listed at the end (docs/testing.md)."""
    session.install("-e", ".[dev]")
    # In collection order (fuzz first, pyproject.toml): docs/testing.md#what-a-run-costs.
    session.run(
        "pytest",
        "-n",
        "2",
        "--dist",
        "loadfile",
        "--no-loadscope-reorder",
        "--durations=15",
        *session.posargs,
    )


# What the inner loop leaves out (conftest.py): the whole run is `nox -s tests`.
COSTLY = "not (postgres or browser or fuzz or bench or slow)"


@nox.session(default=False)
def quick(session: nox.Session) -> None:
    """The core, the clients and the API on SQLite, in a few minutes: every test but those marked
    postgres, browser, fuzz, bench or slow (docs/testing.md#what-a-run-costs)."""
    session.install("-e", ".[dev]")
    session.run("pytest", "-n", "2", "--dist", "loadfile", "-m", COSTLY, *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """Ruff lint and format check."""
    session.install("ruff")
    session.run("ruff", "check", *SOURCES)
    session.run("ruff", "format", "--check", *SOURCES)


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy: strict for livecore and livecore_client, checked for livecore_server and the example studio
    areas."""
    session.install("-e", ".[dev]")
    session.run("mypy", "livecore", "livecore_client", "livecore_server", *session.posargs)
    session.run("mypy", "examples/studio_quests", "examples/studio_daily", *session.posargs)


@nox.session(default=False)
def fuzz(session: nox.Session) -> None:
    """schemathesis against a live server on a fresh database, on the three OpenAPI documents, every check on
    (docs/testing.md#fuzzing): what the suite's fuzz/test_documents.py runs, with 50 examples per
    operation unless told. Arguments after -- go to fuzz/run.py (`--examples N`, or
    $LIVECORE_FUZZ_EXAMPLES), and after a second -- to `st run`."""
    session.install("-e", ".[dev]")
    session.run("python", "-m", "fuzz.run", *session.posargs)


@nox.session(default=False)
def screenshots(session: nox.Session) -> None:
    """Refresh the portal's screenshots in docs/images/portal and the simulation report's in
    docs/images/simulation-report.png (the browser tests take them)."""
    session.install("-e", ".[dev]")
    shots = {
        "LIVECORE_SCREENSHOTS": "docs/images/portal",
        "LIVECORE_SIMULATION_SCREENSHOT": "docs/images/simulation-report.png",
    }
    session.run("pytest", "tests/browser", "-q", *session.posargs, env=shots)


@nox.session(default=False)
def docs(session: nox.Session) -> None:
    """Regenerate the assembly's facades from the areas (python -m livecore.assembly), the generated
    tables of docs/reference from the declarations, the table of every client method in docs/client.md,
    the areas' graph in docs/architecture.md and the example studio area's page (--check: only
    compare)."""
    session.install("-e", ".[dev]")
    session.run("python", "-m", "livecore.assembly", *session.posargs)
    session.run("python", "-m", "livecore.api.reference", *session.posargs)
    session.run("python", "-m", "livecore.area_graph", *session.posargs)
    session.run("python", "-m", "livecore_client._method_table", *session.posargs)
    example = ["--area", "studio_quests", "--link-base", "../../docs/reference/"]
    example += ["--out", "examples/studio_quests/REFERENCE.md"]
    session.run(
        "python", "-m", "livecore.api.reference", *example, *session.posargs, env={"PYTHONPATH": "examples"}
    )


@nox.session(default=False)
def bench(session: nox.Session) -> None:
    """Benchmarks with wrk, as ratios to a bare-aiohttp baseline in the same run; writes JSON too."""
    if shutil.which("wrk") is None:
        # wrk comes from Debian's package; the machines we run on let the session install it.
        session.run("apt-get", "update", "-qq", external=True)
        session.run("apt-get", "install", "-y", "-qq", "wrk", external=True)
    session.install("-e", ".[dev]")
    session.run("python", "-m", "benchmarks", "--json", "benchmarks/results/latest.json", *session.posargs)
    # The same scenarios on PostgreSQL (a fresh database on $LIVECORE_BENCH_POSTGRES, else
    # postgresql://postgres@127.0.0.1:5432/test), with one server process, then two sharing one port.
    session.run(
        "python",
        "-m",
        "benchmarks",
        "--db",
        "postgres",
        "--json",
        "benchmarks/results/postgres.json",
        *session.posargs,
    )
    session.run(
        "python",
        "-m",
        "benchmarks",
        "--db",
        "postgres",
        "--processes",
        "2",
        "--json",
        "benchmarks/results/postgres-2p.json",
        *session.posargs,
    )
    # The embedded figure (core commands on the in-memory store, no server): sends per second.
    session.run("python", "-m", "benchmarks.embedded", "--json", "benchmarks/results/embedded.json")
    # A season of the demo simulated as `livecore-server simulate` plays it: 10,000 players, 28 days.
    session.run("python", "-m", "benchmarks.season", "--json", "benchmarks/results/season.json")
    # PostgreSQL drivers for the same write shape: psycopg on threads vs asyncpg.
    session.run("python", "-m", "benchmarks.pg_drivers", "--json", "benchmarks/results/pg_drivers.json")
    # What PostgreSQL alone leaves of the send_gift target's CPU budget: pgbench, no server.
    session.run("python", "-m", "benchmarks.pg_ceiling", "--json", "benchmarks/results/pg_ceiling.json")
    # The live stream: 1,000 subscribers on one event board while 20 progress writes a second land.
    session.run("python", "-m", "benchmarks.stream", "--json", "benchmarks/results/stream.json")
    # A shared leaderboard's rollover: 100,000 entries while a prober's requests go on.
    session.run("python", "-m", "benchmarks.rollover", "--json", "benchmarks/results/rollover.json")
    # A day of the demo's scheduled work: a 24 h advance of the manual clock, SQLite and PostgreSQL.
    session.run("python", "-m", "benchmarks.advance", "--json", "benchmarks/results/advance.json")
    # Migration: 100,000 players then their wallets through the migration routes, 1,000 rows a call.
    session.run("python", "-m", "benchmarks.migration", "--json", "benchmarks/results/migration.json")
    # Fitting a population from a 100,000-player, 28-day history: `livecore-server population` on SQLite.
    session.run(
        "python", "-m", "benchmarks.population_fit", "--json", "benchmarks/results/population_fit.json"
    )
    # What `import livecore` and `import livecore_client` cost, as ratios to `import httpx`.
    session.run("python", "-m", "benchmarks.imports", "--json", "benchmarks/results/imports.json")
