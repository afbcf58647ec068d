"""Probes: what a newcomer tripped on.

- A second ``demo`` on the same database rotated the running demo's keys, then failed on the busy port
  with "listening on ..." and a traceback. Now nothing changes before the port is bound, and a busy port
  is one line, for ``serve`` and ``demo``.
- ``serve`` on a database no manifest was applied to served, and refused every key.
- ``apply --json`` printed its refusals as text; unknown webhook event kinds were accepted.
- The README tour used ``$PLAYER_SECRET`` without saying where it comes from: the demo prints ``export``
  lines, and the tour runs with them.
- The demo needed the ``dev`` extra: it serves with every development-only package refused.
- mypy outside the repository saw the editable install as untyped (an import hook mypy cannot follow).
- Stale docs: promises of "a later issue", and a table split by blank lines.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import textwrap
import tomllib
from collections.abc import Iterator
from pathlib import Path

import attrs
import httpx
import pytest
from aiohttp import web
from packaging.requirements import Requirement

from tests.conftest import TEST_MANIFEST
from tests.installed import PAYLOAD_TYPES
from tests.security.cli_support import apply_manifest, key_rows, no_serving, refused_in_one_line, run
from tests.waiting import stop_process, until_sync

__all__ = ["no_serving"]  # a fixture, used by name

ROOT = Path(__file__).resolve().parents[2]

# Runs livecore-server (arguments after argv[1]) as if the packages of the top-level modules named in
# argv[1] (JSON) were not installed: every finder answers "not found" for them.
BLOCKING_RUNNER = """
import json, sys

BLOCKED = set(json.loads(sys.argv[1]))


class Without:
    def __init__(self, finder):
        self.finder = finder

    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            return None
        return self.finder.find_spec(name, path, target)

    def __getattr__(self, name):
        return getattr(self.finder, name)


sys.meta_path[:] = [Without(finder) for finder in sys.meta_path]
sys.argv = ["livecore-server", *sys.argv[2:]]
from livecore_server.cli import main

main()
"""


def _closure(requirements: list[str]) -> set[str]:
    """The distributions these requirements install, with the extras they ask for."""
    seen: set[str] = set()
    todo = [Requirement(r) for r in requirements]
    while todo:
        req = todo.pop()
        name = req.name.lower().replace("_", "-")
        if req.marker is not None and not any(
            req.marker.evaluate({"extra": extra}) for extra in (req.extras or {""})
        ):
            continue
        if name in seen:
            continue
        seen.add(name)
        try:
            wanted = importlib.metadata.requires(name) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        for line in wanted:
            sub = Requirement(line)
            if sub.marker is None or any(sub.marker.evaluate({"extra": e}) for e in (req.extras or {""})):
                todo.append(Requirement(str(sub).split(";")[0]))
    return seen


def dev_only_modules() -> list[str]:
    """Top-level modules installed only because of the ``dev`` extra (pyproject.toml): not the package
    itself, nor what a plain install or its ``server`` extra brings."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    served = _closure([*project["dependencies"], *project["optional-dependencies"]["server"]])
    dev_only = _closure(project["optional-dependencies"]["dev"]) - served - {project["name"]}
    modules = importlib.metadata.packages_distributions()
    return sorted(
        module
        for module, dists in modules.items()
        if all(d.lower().replace("_", "-") in dev_only for d in dists) and not module.startswith("_")
    )


# --- the demo, served with every development-only package refused ---------------------------------------


@attrs.frozen
class Demo:
    proc: subprocess.Popen[bytes]
    db: Path
    out: Path
    exports: dict[str, str]

    @property
    def port(self) -> int:
        return int(self.exports["LIVECORE_URL"].rsplit(":", 1)[1])

    def get(self, path: str, key: str = "LIVECORE_SERVER_KEY") -> httpx.Response:
        headers = {"Authorization": f"Bearer {self.exports[key]}"}
        return httpx.get(f"{self.exports['LIVECORE_URL']}{path}", headers=headers, timeout=10)


def _exports(text: str) -> dict[str, str]:
    return dict(re.findall(r"^\s*export (\w+)=(\S+)", text, re.MULTILINE))


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    tmp = tmp_path_factory.mktemp("demo")
    db, out = tmp / "demo.db", tmp / "demo.out"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("LIVECORE_SECRET_KEY", None)
    command = [sys.executable, "-c", BLOCKING_RUNNER, json.dumps(dev_only_modules())]
    with out.open("wb") as sink:
        proc = subprocess.Popen(
            [*command, "demo", "--db", str(db), "--port", "0"], env=env, stdout=sink, stderr=subprocess.STDOUT
        )
    try:

        def ready() -> dict[str, str] | None:
            assert proc.poll() is None, out.read_text()
            text = out.read_text()
            if "listening on" not in text:
                return None
            return _exports(text)

        exports = until_sync(ready, lambda: f"the demo to start: {out.read_text()}")
        running = Demo(proc, db, out, exports)
        assert running.get("/server/v1/ping").status_code == 200  # it is this demo, with its own key
        yield running
    finally:
        stop_process(proc)


def test_the_demo_serves_without_development_packages(demo: Demo) -> None:
    # (jsonschema is no longer among them: the mcp package, a runtime dependency, needs it.)
    assert {"hypothesis", "pytest", "openapi_spec_validator"} <= set(dev_only_modules())
    for surface in ("sdk", "server", "admin"):
        assert demo.get(f"/{surface}/v1/openapi.json").json()["openapi"].startswith("3.1")
    registered = httpx.post(
        f"{demo.exports['LIVECORE_URL']}/sdk/v1/players/zed/register",
        headers={"Authorization": f"Bearer {demo.exports['LIVECORE_CLIENT_KEY']}", "Idempotency-Key": "z"},
        timeout=10,
    )
    assert registered.status_code == 201, registered.text
    assert "ModuleNotFoundError" not in demo.out.read_text()


def test_a_second_demo_on_a_busy_port_changes_no_key_and_says_so_in_one_line(demo: Demo) -> None:
    before = key_rows(demo.db)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("LIVECORE_SECRET_KEY", None)
    second = subprocess.run(
        [sys.executable, "-m", "livecore_server.cli", "demo", "--db", str(demo.db), "--port", str(demo.port)],
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert second.returncode == 1
    assert second.stdout == b""
    assert second.stderr.decode().splitlines() == [
        f"Error: port {demo.port} on 127.0.0.1 is already in use (another livecore-server?):"
        " stop that server or choose another --port"
    ]
    assert key_rows(demo.db) == before
    assert demo.get("/server/v1/ping").status_code == 200


def test_the_readme_tour_runs_with_what_the_demo_exports(demo: Demo) -> None:
    readme = (ROOT / "README.md").read_text()
    tour = readme.split("## A short tour", 1)[1]
    block = re.search(r"```sh\n(.*?)```", tour, re.DOTALL)
    assert block is not None
    script = block.group(1)
    used = set(re.findall(r"\$(\w+)", script))
    assert used and used <= set(demo.exports), f"the tour uses {used}, the demo exports {set(demo.exports)}"
    assert "PLAYER_SECRET" in used
    if shutil.which("curl") is None:
        pytest.skip("curl is not installed")
    ran = subprocess.run(
        ["sh", "-c", script], env={**os.environ, **demo.exports}, capture_output=True, timeout=60, text=True
    )
    answers = [json.loads(line) for line in ran.stdout.replace("}{", "}\n{").splitlines() if line]
    assert ran.returncode == 0 and answers and all("data" in a for a in answers), ran.stdout + ran.stderr


# --- serve ----------------------------------------------------------------------------------------------


@pytest.fixture
def applied_db(tmp_path: Path) -> Path:
    db = tmp_path / "s.db"
    apply_manifest(tmp_path, str(db))
    return db


def test_serve_on_a_busy_port_says_so_in_one_line(
    applied_db: Path, no_serving: list[web.Application]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run("serve", "--db", str(applied_db), "--port", str(port))
    refused_in_one_line(result, f"port {port} on 127.0.0.1 is already in use")
    assert no_serving == []


def test_serve_on_an_empty_database_says_apply_comes_first(
    tmp_path: Path, no_serving: list[web.Application]
) -> None:
    db = tmp_path / "empty.db"
    db.touch()
    result = run("serve", "--db", str(db), "--port", "0")
    refused_in_one_line(result, f"the database {db} has no API key yet: run `livecore-server apply MANIFEST")
    assert no_serving == []


def test_serve_on_an_applied_database_starts(applied_db: Path, no_serving: list[web.Application]) -> None:
    result = run("serve", "--db", str(applied_db), "--port", "0")
    assert result.exit_code == 0, result.output
    assert len(no_serving) == 1


# --- apply ------------------------------------------------------------------------------------------------


def test_apply_json_prints_refusals_as_json(tmp_path: Path) -> None:
    manifest = tmp_path / "bad.toml"
    manifest.write_text(TEST_MANIFEST.replace('permission = "client_sdk"', 'permission = "root"', 1))
    result = run("apply", str(manifest), "--db", str(tmp_path / "a.db"), "--json")
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "manifest_invalid"
    assert "nothing was applied" in error["message"]
    assert list(error["details"]["fields"]) == ["games.space-race.api_keys.test-client.permission"]


def test_apply_refuses_unknown_webhook_event_kinds(tmp_path: Path) -> None:
    manifest = tmp_path / "hooks.toml"
    manifest.write_text(
        TEST_MANIFEST
        + textwrap.dedent(
            """
            [games.space-race.webhooks.backend]
            env = "test"
            url = "https://hooks.example.com/in"
            events = ["gift.sent", "nope.kind"]
            """
        )
    )
    result = run("apply", str(manifest), "--db", str(tmp_path / "k.db"), "--json")
    assert result.exit_code == 2, result.output
    fields = json.loads(result.stdout)["error"]["details"]["fields"]
    message = fields["games.space-race.webhooks.backend.events"]
    assert message.startswith("unknown event kind nope.kind; known kinds: ")
    assert all(kind in message for kind in PAYLOAD_TYPES)


# --- typed imports for a studio's own mypy ------------------------------------------------------------------

STUDIO_CODE = """\
from livecore_client import SdkClient

client: int = SdkClient("lc_test_x")
"""


def test_a_studios_mypy_sees_the_editable_install_typed(tmp_path: Path) -> None:
    """The documented install (``pip install -e .``) of a copy of this checkout, into a virtual
    environment of its own, then mypy on a studio's file outside the repository."""
    source = tmp_path / "livecore"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".*", "__pycache__", "build", "*.egg-info", "*.db*", "tests", "benchmarks"
        ),
    )
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    install = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--quiet",
            "--no-deps",
            "-e",
            source,
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    studio = tmp_path / "studio"
    studio.mkdir()
    (studio / "app.py").write_text(STUDIO_CODE)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MYPYPATH")}
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--python-executable", str(python), "--no-incremental", "app.py"],
        cwd=studio,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    report = checked.stdout + checked.stderr
    assert 'Incompatible types in assignment (expression has type "SdkClient"' in report, report
    assert "import-not-found" not in report and "import-untyped" not in report, report
    assert "py.typed" not in report, report


# --- docs -----------------------------------------------------------------------------------------------

DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
PROMISE = re.compile(r"(?:later|future|coming|next) issue|with the [\w-]+(?: [\w-]+)? issue", re.IGNORECASE)
TABLE_ROW = re.compile(r"^\s*\|")
SEPARATOR = re.compile(r"^\s*\|[\s:|-]+\|\s*$")


def _prose(path: Path) -> list[tuple[int, str]]:
    """Numbered lines outside fenced code blocks."""
    lines, fenced = [], False
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        lines.append((number, "" if fenced else line))
    return lines


def test_docs_promise_nothing_to_a_later_issue() -> None:
    found = []
    for path in DOCS:
        # Joined, so that a promise wrapped onto the next line ("a later\nissue") is found too.
        text = " ".join(line.strip() for _, line in _prose(path))
        found += [f"{path.relative_to(ROOT)}: ...{m.group(0)}..." for m in PROMISE.finditer(text)]
    assert found == []


def test_markdown_tables_have_no_blank_line_inside() -> None:
    """A blank line ends a table: the rows after it, without a header and separator of their own, are
    not a table any more."""
    split = []
    for path in DOCS:
        lines = _prose(path)
        for i in range(1, len(lines) - 1):
            number, line = lines[i]
            if line.strip() or not TABLE_ROW.match(lines[i - 1][1]):
                continue
            j = i + 1
            while j < len(lines) and not lines[j][1].strip():
                j += 1
            if j < len(lines) and TABLE_ROW.match(lines[j][1]):
                header = j + 1 < len(lines) and SEPARATOR.match(lines[j + 1][1])
                if not header:
                    split.append(f"{path.relative_to(ROOT)}:{number}")
    assert split == []
