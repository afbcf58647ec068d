"""The package as a studio installs it (README.md, Quickstart; docs/testing.md#the-built-package).

The sdist and wheels are built from a copy of this checkout with ``python -m build``; the wheel is
installed with its dependencies into fresh virtual environments (no system site packages), both ways, and
run from a directory outside the source tree, with ``PYTHONPATH`` unset, so nothing of the checkout can be
imported. With the ``server`` extra, the demo, the portal's pages, an example and ``init`` + ``apply`` run
on what the wheel holds alone. Plain (``pip install livecore``), it brings none of the server's
dependencies: the clients call that demo, the core plays a simulation, every example runs (the client ones
against the demo, the webhook receiver getting a delivery from it), and ``livecore-server`` says in one
line what to install.

Dependencies come from the package index through uv (the ``dev`` extra): a few seconds with a cold cache,
under one with a warm one, where a virtual environment made with pip took about 20.
"""

from __future__ import annotations

import email
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

import attrs
import httpx
import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from uv import find_uv_bin

from livecore_server.embedded import free_port
from tests.waiting import until_sync

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("livecore", "livecore_server", "livecore_client")
NAME = "livecore"


def _run(*command: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    """Run ``command`` to completion; its output, or the test fails showing it."""
    done = subprocess.run(
        [str(part) for part in command], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"{command} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _clean_env() -> dict[str, str]:
    """This process's environment without what would reach into the checkout or the test run: no
    PYTHONPATH, no livecore settings."""
    hidden = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")
    return {k: v for k, v in os.environ.items() if k not in hidden and not k.startswith("LIVECORE_")}


def _checkout_files() -> list[str]:
    """The checkout's files as git sees them: tracked, and new ones not ignored (a data file just added
    counts before its commit), without those deleted from the working tree."""
    listed = _run("git", "ls-files", "--cached", "--others", "--exclude-standard", "-z", cwd=ROOT)
    return sorted(name for name in set(listed.split("\0")) if name and (ROOT / name).is_file())


@attrs.frozen
class Built:
    sources: frozenset[str]  # the packages' files in the checkout, as paths in the wheel
    sdist: Path
    wheel: Path  # built from the checkout, as `python -m build --wheel` does
    wheel_from_sdist: Path


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The sdist, the wheel built from it, and the wheel built from the checkout. The builds run on a copy,
    so that they see exactly the checkout's files (no stale build/ directory) and write nothing into it."""
    tmp = tmp_path_factory.mktemp("build")
    source = tmp / "source"
    files = _checkout_files()
    for name in files:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    build = (sys.executable, "-m", "build", "--installer", "uv")
    _run(*build, "--outdir", tmp / "dist", source, cwd=tmp, env=_clean_env())  # the sdist, a wheel from it
    _run(*build, "--wheel", "--outdir", tmp / "tree", source, cwd=tmp, env=_clean_env())
    (sdist,) = (tmp / "dist").glob("*.tar.gz")
    (wheel_from_sdist,) = (tmp / "dist").glob("*.whl")
    (wheel,) = (tmp / "tree").glob("*.whl")
    sources = frozenset(name for name in files if name.split("/", 1)[0] in PACKAGES)
    return Built(sources, sdist, wheel, wheel_from_sdist)


def _packaged(wheel: Path) -> set[str]:
    """The files of the wheel's packages (not its .dist-info)."""
    return {name for name in zipfile.ZipFile(wheel).namelist() if name.split("/", 1)[0] in PACKAGES}


def test_the_wheel_ships_every_file_of_the_packages(built: Built) -> None:
    shipped = _packaged(built.wheel)
    assert {"livecore_server/operators/portal/templates/base.html", "livecore_server/starter.toml"} <= shipped
    assert not built.sources - shipped, f"in the checkout but not in the wheel: {built.sources - shipped}"
    assert not shipped - built.sources, f"in the wheel but not in the checkout: {shipped - built.sources}"


def test_a_wheel_built_from_the_sdist_ships_the_same_files(built: Built) -> None:
    assert zipfile.ZipFile(built.wheel_from_sdist).namelist() == zipfile.ZipFile(built.wheel).namelist()
    assert _packaged(built.wheel_from_sdist) == built.sources


def test_the_sdist_holds_the_sources_the_readme_and_the_project_metadata(built: Built) -> None:
    with tarfile.open(built.sdist) as sdist:
        prefix = sdist.getnames()[0].split("/", 1)[0] + "/"
        names = {name.removeprefix(prefix) for name in sdist.getnames() if sdist.getmember(name).isfile()}
        member = sdist.extractfile(prefix + "PKG-INFO")
        assert member is not None
        metadata = email.message_from_string(member.read().decode())  # as importlib.metadata reads it
    assert built.sources <= names
    assert {"pyproject.toml", "README.md", "MANIFEST.in", "PKG-INFO"} <= names
    # Only what builds the package: not part of the test suite (it needs the whole repository), nor
    # anything a development run leaves behind.
    strays = {n for n in names if n.startswith("tests/") or n.endswith((".pyc", ".db", ".key"))}
    assert not strays, strays

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert (metadata["Name"], metadata["Version"]) == (NAME, project["version"])
    assert metadata["License-Expression"] == project["license"]
    assert metadata["Requires-Python"] == project["requires-python"]
    # The README is the project's page on the package index, rendered as Markdown.
    assert metadata["Description-Content-Type"] == "text/markdown"
    assert metadata.get_payload().strip() == (ROOT / "README.md").read_text().strip()
    runtime = {str(Requirement(r)) for r in metadata.get_all("Requires-Dist") if "extra ==" not in r}
    assert runtime == {str(Requirement(r)) for r in project["dependencies"]}
    assert {"server", "dev"} <= set(metadata.get_all("Provides-Extra"))


# --- installed in a fresh environment -----------------------------------------------------------------------


@attrs.frozen
class Installed:
    venv: Path
    home: Path  # a directory outside the checkout, the working directory of every command
    env: dict[str, str]

    def bin(self, name: str) -> Path:
        return self.venv / "bin" / name

    def run(self, *command: str | Path) -> str:
        return _run(*command, cwd=self.home, env=self.env)


def _install(requirement: str, tmp_path_factory: pytest.TempPathFactory, name: str) -> Installed:
    """``requirement`` and its dependencies in a virtual environment of their own, as ``pip install`` makes
    it (uv resolves the same requirements from the wheel's metadata)."""
    venv = tmp_path_factory.mktemp(name) / "venv"
    uv = find_uv_bin()
    _run(uv, "venv", "--quiet", "--python", sys.executable, venv)
    _run(uv, "pip", "install", "--quiet", "--python", venv / "bin" / "python", requirement)
    return Installed(venv, tmp_path_factory.mktemp(f"{name}-studio"), _clean_env())


@pytest.fixture(scope="module")
def installed(built: Built, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The wheel with the server: ``pip install "livecore-*.whl[server]"``."""
    return _install(f"{NAME}[server] @ {built.wheel.as_uri()}", tmp_path_factory, "installed")


@pytest.fixture(scope="module")
def plain(built: Built, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The wheel alone, the core and the clients: ``pip install livecore-*.whl``."""
    return _install(str(built.wheel), tmp_path_factory, "plain")


def _distributions(env: Installed) -> set[str]:
    """The canonical names of the distributions installed in ``env``."""
    code = "import importlib.metadata as m, json\n"
    code += "print(json.dumps([d.metadata['Name'] for d in m.distributions()]))"
    return {canonicalize_name(name) for name in json.loads(env.run(env.bin("python"), "-c", code))}


def test_the_installed_packages_are_imported_from_the_environment_not_the_checkout(
    installed: Installed,
) -> None:
    code = "import json, sys, livecore, livecore_client, livecore_server; print(json.dumps("
    code += "[sys.path, [m.__file__ for m in (livecore, livecore_client, livecore_server)]]))"
    path, files = json.loads(installed.run(installed.bin("python"), "-c", code))
    venv = installed.venv.resolve()
    assert all(Path(f).resolve().is_relative_to(venv) for f in files), files
    assert not any(p and Path(p).resolve().is_relative_to(ROOT) for p in path), path


@attrs.frozen
class Demo:
    proc: subprocess.Popen[bytes]
    out: Path
    exports: dict[str, str]
    portal_link: str

    @property
    def url(self) -> str:
        return self.exports["LIVECORE_URL"]


@pytest.fixture(scope="module")
def demo(installed: Installed) -> Iterator[Demo]:
    """``livecore-server demo`` from the environment on a free port, up once it printed its keys and
    answers with them; one for the module, which each test uses with players of its own. Its printed
    sign-in link works once: :func:`owner_key` makes another."""
    out = installed.home / "demo.out"
    command = [installed.bin("livecore-server"), "demo", "--db", installed.home / "demo.db", "--port", "0"]
    with out.open("wb") as sink:
        proc = subprocess.Popen(
            command, cwd=installed.home, env=installed.env, stdout=sink, stderr=subprocess.STDOUT
        )
    try:

        def ready() -> Demo | None:
            text = out.read_text()
            assert proc.poll() is None, f"the demo stopped:\n{text}"
            link = re.search(r"^\s*(http://\S+/portal/login/\S+)$", text, re.MULTILINE)
            if "listening on" not in text or link is None:
                return None
            exports = dict(re.findall(r"^\s*export (\w+)=(\S+)", text, re.MULTILINE))
            return Demo(proc, out, exports, link.group(1))

        running = until_sync(ready, lambda: f"the demo to start:\n{out.read_text()}")
        key = {"Authorization": f"Bearer {running.exports['LIVECORE_SERVER_KEY']}"}
        ping = httpx.get(f"{running.url}/server/v1/ping", headers=key, timeout=10)
        assert ping.status_code == 200, ping.text  # this demo, with its own key
        yield running
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0, out.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def _html(response: httpx.Response) -> str:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/html")
    return response.text


def test_the_installed_demo_serves_the_portal_and_runs_an_example(installed: Installed, demo: Demo) -> None:
    with httpx.Client(base_url=demo.url, timeout=10) as browser:
        assert "<h1>Sign in</h1>" in _html(browser.get("/portal/"))
        assert "<h1>Sign in to livecore</h1>" in _html(browser.get(demo.portal_link))
        # A browser sends the page's origin with the button's POST (docs/portal.md#cross-site-requests).
        signed_in = browser.post(demo.portal_link, headers={"Origin": demo.url}, follow_redirects=True)
        assert "Space Race" in _html(signed_in)  # the demo's game, on the signed-in owner's games page
    assert str(signed_in.url) == f"{demo.url}/portal/games"

    example = installed.home / "quickstart.py"
    shutil.copy(ROOT / "examples" / "quickstart.py", example)
    out = _run(installed.bin("python"), example, cwd=installed.home, env={**installed.env, **demo.exports})
    assert "ping: test" in out
    assert "second register refused: player_already_registered" in out
    assert "studio backend renamed it: Stella (VIP)" in out


def test_the_installed_init_writes_the_starter_manifest_and_apply_accepts_it(installed: Installed) -> None:
    server = installed.bin("livecore-server")
    printed = installed.run(server, "init")
    assert "livecore-server apply manifest.toml" in printed
    written = (installed.home / "manifest.toml").read_text()
    assert written == (ROOT / "livecore_server" / "starter.toml").read_text()
    applied = json.loads(installed.run(server, "apply", "manifest.toml", "--db", "starter.db", "--json"))
    game = applied["games"]["my-game"]
    assert {k["secret"][:8] for k in game["apiKeys"].values()} == {"lc_test_"}
    assert game["webhooks"]["backend"]["secret"].startswith("whsec_")


# --- installed plain: the core and the clients ------------------------------------------------------------


def test_a_plain_install_brings_the_core_dependencies_and_none_of_the_server(
    plain: Installed, installed: Installed
) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = {canonicalize_name(Requirement(r).name) for r in project["dependencies"]}
    server = {
        canonicalize_name(r.name)
        for r in map(Requirement, project["optional-dependencies"]["server"])
        if r.marker is None or r.marker.evaluate()
    }
    have = _distributions(plain)
    assert core | {NAME} <= have
    assert have & server == set()
    assert server <= _distributions(installed)  # which the extra brings


def test_livecore_server_on_a_plain_install_says_in_one_line_what_to_install(plain: Installed) -> None:
    done = subprocess.run(
        [plain.bin("livecore-server"), "demo"], cwd=plain.home, env=plain.env, capture_output=True, text=True
    )
    assert done.returncode == 1, done
    assert done.stdout == ""
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("Error: ") and line.endswith('pip install "livecore[server]"'), line
    assert "(missing: aiohttp," in line


def test_the_clients_of_a_plain_install_call_the_demo(plain: Installed, demo: Demo) -> None:
    code = """
import os, sys
from livecore_client import SdkClient, ServerClient
url = os.environ["LIVECORE_URL"]
with ServerClient(os.environ["LIVECORE_SERVER_KEY"], base_url=url) as server:
    print("ping:", server.system.ping().environment)
with SdkClient(os.environ["LIVECORE_CLIENT_KEY"], base_url=url) as sdk:
    print("registered:", sdk.players.register("plain-install").external_player_id)
print("server modules:", sorted({m.split(".")[0] for m in sys.modules} & {"aiohttp", "livecore_server"}))
"""
    out = _run(plain.bin("python"), "-c", code, cwd=plain.home, env={**plain.env, **demo.exports})
    assert out.splitlines() == ["ping: test", "registered: plain-install", "server modules: []"]


def test_the_core_of_a_plain_install_plays_the_demo_season_embedded(plain: Installed) -> None:
    code = """
from pathlib import Path
import livecore_server
from livecore import Simulation
sim = Simulation.from_manifest(Path(livecore_server.__file__).parent / "demo.toml", seed=7)
ada, bo = sim.player("ada"), sim.player("bo")
request = ada.friends.send_request(external_player_id=bo)
bo.friends.accept_request(request.request.request_id)
sim.advance(days=1)
print(len(sim.webhooks_of("friend.request_accepted")))
"""
    assert plain.run(plain.bin("python"), "-c", code).strip() == "1"


# --- the examples on a plain install ----------------------------------------------------------------------

EXAMPLES = ROOT / "examples"
# Each example, run on the plain install its docstring names, with a line it prints once it ran to the end.
# The client examples run against the demo served from the server's environment, with its variables:
AGAINST_THE_DEMO = {
    "quickstart.py": "studio backend renamed it: Stella (VIP)",
    "friends.py": "Ada and Bea are friends: gifting-ready",
    "gifts.py": "Bea sent Ada 1 energy-potion",
    "crate_drop.py": "opening it again: refused, grant_already_claimed",
    "studio_backend_grants.py": "retried create returned the same grant: True",
    "support_desk.py": "granted by hand: 100 coins, pending",
}
EMBEDDED = {  # no server at all
    "embedded_simulation.py": "ada  sessions=7 streak=7 platform=ios app=1.0.0",
    "guild_story.py": "ada handed over: ada (co_leader), bo (member), cy (leader)",
    "live_event.py": "leaderboard.finalized x1",
    "lobby_event.py": ": forming, 10/12 seats",
    "team_race.py": "first to the goal: blue",
    "weekly_league.py": "webhooks: leaderboard.period_finalized x3",
    "daily_quests.py": "webhooks: quest.checked_in x5",
}
# The webhook receiver serves until stopped: test_the_demo_delivers_to_the_receiver_of_a_plain_install.
RECEIVER = "webhook_receiver.py"
# A game with docs/extending.md's smallest area (examples/studio_daily).
DAILY_MANIFEST = """
studio = "acme"

[plugins]
areas = ["studio_daily"]

[games.g]
name = "G"

[games.g.resources.gems]
type = "currency"

[games.g.areas.daily]
resource = "gems"
amount = 5
"""

# Runs each example named as its script does (``__main__``), one after the other in one interpreter, so the
# core and the clients load once (loading them took most of each example's run); prints what each printed,
# and whether anything of the server was imported.
RUN_EXAMPLES = """
import contextlib, io, json, runpy, sys
printed = {}
for script in sys.argv[1:]:
    with contextlib.redirect_stdout(io.StringIO()) as out:
        runpy.run_path(script, run_name="__main__")
    printed[script] = out.getvalue()
server = sorted({m.split(".")[0] for m in sys.modules} & {"aiohttp", "livecore_server"})
print(json.dumps({"printed": printed, "server": server}))
"""


@pytest.fixture(scope="module")
def examples(plain: Installed) -> Path:
    """A copy of examples/ in the plain install's directory, its areas' packages beside the scripts."""
    copy = plain.home / "examples"
    shutil.copytree(EXAMPLES, copy, ignore=shutil.ignore_patterns("__pycache__", "tests"))
    return copy


def _run_examples(
    plain: Installed, examples: Path, scripts: Iterable[str], env: Mapping[str, str]
) -> dict[str, str]:
    """What each of ``scripts`` printed, run from ``examples`` on the plain install, with nothing of the
    server imported."""
    command: tuple[str | Path, ...] = (plain.bin("python"), "-c", RUN_EXAMPLES, *scripts)
    ran = json.loads(_run(*command, cwd=examples, env={**plain.env, **env}))
    assert ran["server"] == [], ran["server"]
    printed: dict[str, str] = ran["printed"]
    return printed


def test_every_example_is_run_on_a_plain_install() -> None:
    scripts = {path.name for path in EXAMPLES.glob("*.py")}
    assert scripts == {*AGAINST_THE_DEMO, *EMBEDDED, RECEIVER}


def test_the_client_examples_run_on_a_plain_install_against_the_demo(
    plain: Installed, examples: Path, demo: Demo, owner_key: str
) -> None:
    player = "plain-desk"
    key = {"Authorization": f"Bearer {demo.exports['LIVECORE_CLIENT_KEY']}"}
    registered = httpx.post(f"{demo.url}/sdk/v1/players/{player}/register", headers=key, timeout=10)
    assert registered.status_code in (200, 201), registered.text
    desk = {
        "LIVECORE_PERSONAL_KEY": owner_key,
        "LIVECORE_STUDIO": "demo",
        "LIVECORE_GAME": "space-race",
        "LIVECORE_PLAYER": player,
    }
    printed = _run_examples(plain, examples, AGAINST_THE_DEMO, {**demo.exports, **desk})
    for script, line in AGAINST_THE_DEMO.items():
        assert line in printed[script], f"{script} printed:\n{printed[script]}"


def test_a_client_example_without_its_variables_on_a_plain_install_says_in_one_line_what_it_needs(
    plain: Installed, examples: Path
) -> None:
    done = subprocess.run(
        [plain.bin("python"), examples / "quickstart.py"],
        cwd=plain.home,
        env=plain.env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("Error: quickstart.py needs LIVECORE_CLIENT_KEY and LIVECORE_SERVER_KEY"), line
    assert "(missing: aiohttp," in line and line.endswith('pip install "livecore[server]"'), line


def test_the_embedded_examples_and_the_smallest_area_run_on_a_plain_install(
    plain: Installed, examples: Path
) -> None:
    printed = _run_examples(plain, examples, EMBEDDED, {})
    for script, line in EMBEDDED.items():
        assert line in printed[script], f"{script} printed:\n{printed[script]}"
    # docs/extending.md's smallest area, simulated as a studio's CI does without the server.
    code = f"""
from livecore.api.call import Call
from livecore.simulation import Simulation
from studio_daily import AREA, CLAIM, ClaimResponse
sim = Simulation.from_manifest({DAILY_MANIFEST!r}, areas=[AREA])
ada = sim.player("ada")
grant = ada.send(Call(CLAIM, ClaimResponse, path={{"externalId": ada}})).grant
print(grant.entries[0].key, grant.entries[0].amount, grant.source_kind)
"""
    out = _run(plain.bin("python"), "-c", code, cwd=examples, env=plain.env)
    assert out.strip() == "gems 5 daily_bonus"


@pytest.fixture(scope="module")
def owner_key(installed: Installed, demo: Demo) -> str:
    """A personal key of the demo's owner, made as docs/webhooks.md says: ``livecore-server members
    personal-key owner`` on the demo's database, which prints the key alone."""
    server = installed.bin("livecore-server")
    (key,) = installed.run(server, "members", "personal-key", "owner", "--db", "demo.db").splitlines()
    return key


def test_the_demo_delivers_to_the_receiver_of_a_plain_install(
    plain: Installed, examples: Path, demo: Demo, owner_key: str
) -> None:
    """docs/webhooks.md#from-the-demo-to-your-receiver, step by step: an endpoint added to the running
    demo with the admin API, the receiver example started with its secret, a player registered."""
    port = free_port()
    hook = {"name": "local", "env": "test", "url": f"http://127.0.0.1:{port}/webhooks"}
    made = httpx.post(
        f"{demo.url}/admin/v1/studios/demo/games/space-race/webhooks",
        headers={"Authorization": f"Bearer {owner_key}"},
        json={**hook, "events": ["player.registered"]},
        timeout=10,
    )
    assert made.status_code == 201, made.text
    secret = made.json()["data"]["secret"]

    out = plain.home / "receiver.out"
    command = [plain.bin("python"), examples / RECEIVER, "--secret", secret, "--port", str(port)]
    with out.open("wb") as sink:
        receiver = subprocess.Popen(command, cwd=plain.home, env=plain.env, stdout=sink, stderr=sink)
    try:

        def printed(text: str) -> bool:
            assert receiver.poll() is None, f"the receiver stopped:\n{out.read_text()}"
            return text in out.read_text()

        until_sync(lambda: printed("listening on"), lambda: f"the receiver to start:\n{out.read_text()}")
        key = {"Authorization": f"Bearer {demo.exports['LIVECORE_CLIENT_KEY']}"}
        registered = httpx.post(f"{demo.url}/sdk/v1/players/dana/register", headers=key, timeout=10)
        assert registered.status_code in (200, 201), registered.text
        until_sync(lambda: printed('"externalPlayerId":"dana"'), lambda: f"the delivery:\n{out.read_text()}")
    finally:
        receiver.terminate()
        receiver.wait(10)
    (line,) = [line for line in out.read_text().splitlines() if "dana" in line]
    assert re.fullmatch(
        r"evt_\S+ player\.registered attempt=1 game=\S+ as=PlayerRegistered data=\{.*\}", line
    ), line
