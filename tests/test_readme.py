"""The README's commands run as written, in order, in a fresh directory (docs/testing.md#the-readmes-
commands): each ```sh block, each ```python block (the tour's) and each `python examples/NAME.py` its
prose names, read from README.md itself, so the test fails when the README drifts from what runs.

``livecore-server demo`` runs in the background as the README starts it, and the ``export`` lines it
prints are put before every later command, as a newcomer pastes them into the other shell. Only what
cannot run here is skipped, each for the reason in :data:`SKIPPED`."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from tests.waiting import stop_process, until_sync

ROOT = Path(__file__).resolve().parents[1]

#: The blocks the test does not run, by how their first line starts, and why.
SKIPPED_BLOCKS = {
    "nox ": "the test suite and CI's other sessions, which this test is part of",
    "livecore-server members login-link ana": "the portal's command on a server of your own: the demo"
    " has no member ana (it prints its owner's sign-in link itself)",
    "export LIVECORE_DB=postgresql://livecore@db.internal": "a PostgreSQL server of your own",
}
#: The commands (of a line, or of an ``&&`` chain) the test does not run, by how they start, and why.
SKIPPED_COMMANDS = {
    "pip install": "the test's environment already has the package (docs/testing.md)",
    "nox ": "the test suite, which this test is part of",
}
#: A synopsis: its bracketed options are placeholders, not a command.
SYNOPSIS = re.compile(r"\s\[-{0,2}[\w.]+[\] ]")
SYNOPSIS_SKIPPED = "a synopsis of the commands' options"
#: How the README starts the demo: run in the background, on a free port (the exports carry it).
DEMO = "livecore-server demo"
#: Each command's deadline, which only a broken one reaches.
WITHIN = 600


@attrs.frozen
class Command:
    kind: str  # "sh" (a shell script) or "python" (a program's text)
    text: str


def commands(readme: str) -> list[Command]:
    """The README's commands in order: its ```sh and ```python blocks, and the `python examples/NAME.py`
    spans of its prose."""
    found: list[Command] = []
    for prose, kind, block in re.findall(r"(.*?)```(\w*)\n(.*?)```", readme, re.DOTALL):
        found += [Command("sh", span) for span in re.findall(r"`(python examples/[a-z_]+\.py)`", prose)]
        if kind in ("sh", "python"):
            found.append(Command(kind, block))
    return found


def skipped(block: str) -> str | None:
    """Why a ```sh block is not run, or None."""
    first = block.splitlines()[0]
    if SYNOPSIS.search(first):
        return SYNOPSIS_SKIPPED
    return next((why for start, why in SKIPPED_BLOCKS.items() if first.startswith(start)), None)


@attrs.define
class Shell:
    """The newcomer's second shell: each script runs in ``home`` after the demo's export lines."""

    home: Path
    env: dict[str, str]
    exports: list[str] = attrs.Factory(list)
    ran: list[str] = attrs.Factory(list)

    def run(self, script: str) -> str:
        began = time.perf_counter()
        done = subprocess.run(
            ["bash", "-e", "-o", "pipefail", "-c", "\n".join([*self.exports, script])],
            cwd=self.home,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=WITHIN,
        )
        assert done.returncode == 0, f"{script}\n{done.stdout}\n{done.stderr}"
        # An answer in the error envelope is a command that did not do what the README says.
        assert '{"error":' not in done.stdout, f"{script}\n{done.stdout}"
        self.ran.append(f"{time.perf_counter() - began:6.1f} s  {script.splitlines()[0]}")
        return done.stdout


@pytest.fixture
def shell(tmp_path: Path) -> Shell:
    """A fresh directory beside the checkout's examples, and the environment of a fresh shell: no
    ``LIVECORE_`` variable, this checkout's packages and the test's own interpreter on the path."""
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LIVECORE_")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(ROOT)
    return Shell(tmp_path, env)


@pytest.fixture
def demos() -> Iterator[list[subprocess.Popen[bytes]]]:
    """The demos started in the background, stopped at the end."""
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for proc in started:
        stop_process(proc)


def start_demo(shell: Shell, line: str, demos: list[subprocess.Popen[bytes]]) -> None:
    """``line`` (the README's demo command) in the background, on a free port; once it listens, its
    printed ``export`` lines go before every later command."""
    out = shell.home / "demo.out"
    with out.open("wb") as sink:
        proc = subprocess.Popen(
            [*shlex.split(line), "--port", "0"],
            cwd=shell.home,
            env=shell.env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    demos.append(proc)

    def listening() -> list[str] | None:
        assert proc.poll() is None, out.read_text()
        text = out.read_text()
        return [ln.strip() for ln in text.splitlines() if ln.strip().startswith("export ")] or None

    exports = until_sync(lambda: "listening on" in out.read_text() and listening(), out.read_text, within=120)
    assert isinstance(exports, list)
    shell.exports = exports
    shell.ran.append(f"{'':6}    {line} &")


def test_the_readmes_commands_run_as_written_in_order(
    shell: Shell, demos: list[subprocess.Popen[bytes]]
) -> None:
    if shutil.which("curl") is None:
        pytest.skip("curl is not installed: the tour's commands call the demo with it")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    used: set[str] = set()
    for command in commands(readme):
        if command.kind == "python":
            (shell.home / "readme.py").write_text(command.text, encoding="utf-8")
            shell.run("python readme.py")
            continue
        text = command.text.replace("\\\n", " ")  # a line continued is one command
        why = skipped(text)
        if why is not None:
            used.add(why)
            continue
        script: list[str] = []
        for part in (p.strip() for line in text.splitlines() for p in line.split(" && ")):
            why = next((w for start, w in SKIPPED_COMMANDS.items() if part.startswith(start)), None)
            if why is not None:
                used.add(why)
            elif part == DEMO:
                start_demo(shell, part, demos)
            elif part:
                script.append(part)
        if script:
            shell.run("\n".join(script))
    assert demos, f"the README no longer starts the demo with {DEMO!r}"
    # A reason no command needs any more is a skip rule gone stale.
    assert used == {*SKIPPED_BLOCKS.values(), *SKIPPED_COMMANDS.values(), SYNOPSIS_SKIPPED}, used
    assert (shell.home / "fitted.toml").is_file() and (shell.home / "check" / "report.html").is_file()
    print("\n".join(shell.ran))
