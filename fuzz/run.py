"""``nox -s fuzz``: schemathesis against a live server, on both OpenAPI documents (docs/testing.md#fuzzing).

A fresh SQLite database gets the fuzz manifest (``fuzz/manifest.toml``); ``livecore-server serve`` runs on
it on a free loopback port with the system clock, as a deployment does; the players that
``fuzz/schemathesis.toml`` names are registered, and the fuzzed one gets a friend, coins and swords. Then
``st run`` fuzzes ``/sdk/v1/openapi.json`` with the client key and that player's secret, and
``/server/v1/openapi.json`` with the server key. The run fails when either finds a failure, or when the
server stops meanwhile. What was sent and answered is in the report directory, with the server's log.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx

from benchmarks.server import ServerProcess, apply_manifest, manifest_vars

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "manifest.toml"
CONFIG = HERE / "schemathesis.toml"
DOCUMENTS = {"sdk": "/sdk/v1/openapi.json", "server": "/server/v1/openapi.json"}
EXAMPLES_ENV = "LIVECORE_FUZZ_EXAMPLES"
# Examples per operation in the fuzzing phase (the other phases do not depend on it): both documents
# within about a minute on the 2-core machine (docs/testing.md#fuzzing).
DEFAULT_EXAMPLES = 50
SEED = 21

# The players schemathesis.toml names: the fuzzed one and its friend, then one each for the operations
# that would end the fuzzed one or rotate its secret.
PLAYER = "fuzz-player"
FRIEND = "fuzz-friend"
PLAYERS = (PLAYER, FRIEND, "fuzz-register", "fuzz-erased", "fuzz-merged")


class Api:
    """The few calls that set up a run, with the run's keys."""

    def __init__(self, base_url: str, keys: Mapping[str, str]) -> None:
        self.http = httpx.Client(base_url=base_url, timeout=10.0)
        self.keys = keys

    def call(self, method: str, path: str, key: str, secret: str | None = None, **body: Any) -> Any:
        headers = {"Authorization": f"Bearer {self.keys[key]}", "Idempotency-Key": uuid.uuid4().hex}
        if secret is not None:
            headers["X-Player-Secret"] = secret
        response = self.http.request(method, path, headers=headers, json=body)
        if response.is_error:
            raise SystemExit(
                f"setting up the fuzz run: {method} {path} -> {response.status_code} {response.text}"
            )
        return response.json()["data"]

    def document_title(self, path: str) -> str:
        title: str = self.http.get(path).json()["info"]["title"]
        return title


def seed(api: Api) -> dict[str, str]:
    """Register the players; the fuzzed one gets a friend, coins and swords. Its secret is returned."""
    secrets = {
        p: api.call("POST", f"/sdk/v1/players/{p}/register", "client_key")["playerSecret"] for p in PLAYERS
    }
    # Each asks the other: the second request accepts the first.
    for a, b in ((PLAYER, FRIEND), (FRIEND, PLAYER)):
        api.call(
            "POST", f"/sdk/v1/players/{a}/friends/requests", "client_key", secrets[a], externalPlayerId=b
        )
    api.call("POST", f"/server/v1/players/{PLAYER}/wallet/coins/credit", "server_key", amount=1_000_000)
    api.call("POST", f"/server/v1/players/{PLAYER}/inventory/sword/grant", "server_key", quantity=1_000)
    return secrets


def check_titles(api: Api) -> None:
    """Each document must find its ``[[project]]`` in schemathesis.toml: without it schemathesis would send
    no key, get a 401 for every request, and pass."""
    projects = {p["title"] for p in tomllib.loads(CONFIG.read_text()).get("project", [])}
    for name, path in DOCUMENTS.items():
        title = api.document_title(path)
        if title not in projects:
            raise SystemExit(f"{CONFIG} has no [[project]] titled {title!r} (the {name} document)")


def schemathesis_command() -> list[str]:
    """``st`` from PATH, else beside this interpreter (a venv run without activation)."""
    found = shutil.which("st") or shutil.which("st", path=str(Path(sys.executable).parent))
    if found is None:
        raise SystemExit("schemathesis not found: pip install -e '.[fuzz]'")
    return [found]


def fuzz_document(
    name: str, base_url: str, env: Mapping[str, str], examples: int, report_dir: Path, extra: Sequence[str]
) -> int:
    command = [
        *schemathesis_command(),
        "--config-file",
        str(CONFIG),
        "run",
        f"{base_url}{DOCUMENTS[name]}",
        "--url",
        base_url,
        "--max-examples",
        str(examples),
        "--seed",
        str(SEED),
        "--report",
        "junit",
        "--report-dir",
        str(report_dir / name),
        *extra,
    ]
    print(f"\n== fuzzing the {name} document: {' '.join(command)}", flush=True)
    return subprocess.run(command, env=dict(env), check=False).returncode


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz.run", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--examples",
        type=int,
        default=int(os.environ.get(EXAMPLES_ENV, DEFAULT_EXAMPLES)),
        help=f"examples per operation (default: ${EXAMPLES_ENV}, else {DEFAULT_EXAMPLES})",
    )
    parser.add_argument(
        "--document", choices=sorted(DOCUMENTS), action="append", help="only this document (repeatable)"
    )
    parser.add_argument("--report-dir", type=Path, default=Path("fuzz-report"))
    parser.add_argument("extra", nargs="*", help="after --: more arguments for `st run`")
    options = parser.parse_args(argv)

    options.report_dir.mkdir(parents=True, exist_ok=True)
    log = options.report_dir / "server.log"
    failed: list[str] = []
    with tempfile.TemporaryDirectory(prefix="livecore-fuzz-") as tmp:
        db = Path(tmp) / "fuzz.db"
        keys = manifest_vars(apply_manifest(MANIFEST, db, os.environ), game="fuzz")
        # Every request without the player's secret counts as a wrong one: with the brake's usual 20 a
        # minute, most of the fuzzed player's operations would be answered 429 and go untested. Likewise
        # the fuzzer's requests with a made-up key would lock its address out of every route.
        brake = ("--wrong-secrets-per-minute", "1000000", "--auth-failures-per-minute", "1000000")
        with ServerProcess(db, log, os.environ, extra_args=brake) as server:
            api = Api(server.base_url, keys)
            check_titles(api)
            secrets = seed(api)
            env = {
                **os.environ,
                "LIVECORE_FUZZ_CLIENT_KEY": keys["client_key"],
                "LIVECORE_FUZZ_SERVER_KEY": keys["server_key"],
                "LIVECORE_FUZZ_PLAYER_SECRET": secrets[PLAYER],
            }
            for name in options.document or list(DOCUMENTS):
                extra = options.extra
                if fuzz_document(name, server.base_url, env, options.examples, options.report_dir, extra):
                    failed.append(f"the {name} document")
            if not server.alive():
                failed.append("the server (it stopped during the run)")
    print(f"\nserver log: {log}")
    if failed:
        print(f"fuzzing failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    print("fuzzing found nothing")
    return 0


if __name__ == "__main__":
    sys.exit(main())
