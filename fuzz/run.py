"""schemathesis against a live server, on the three OpenAPI documents (docs/testing.md#fuzzing): the suite's
fuzz/test_documents.py, and ``nox -s fuzz`` for longer runs.

A fresh SQLite database gets the fuzz manifest (``fuzz/manifest.toml``); ``livecore-server serve`` runs on
it on a free loopback port with the system clock, as a deployment does. The driver seeds, through the
typed clients, the records the requests name (:func:`seed`), makes the studio owner's personal key as a
member would in the portal (:func:`personal_key`), and fills their ids into a copy of
``fuzz/schemathesis.toml`` (:func:`render_config`). Then ``st run`` fuzzes ``/sdk/v1/openapi.json`` with
the client key and the fuzzed player's secret, ``/server/v1/openapi.json`` with the server key, and
``/admin/v1/openapi.json`` with the personal key. The run fails when any finds a failure, or when the
server stops meanwhile. What was sent and answered is in the report directory, with the server's log.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from urllib.parse import urlsplit

import httpx

from benchmarks.server import ServerProcess, apply_manifest, manifest_vars, server_command
from fuzz.allowances import allowances, operations_toml
from livecore.api.openapi import DOCUMENTED_SURFACES
from livecore.operators.rules import CSRF_HEADER, SESSION_COOKIE
from livecore_client import SdkClient, ServerClient
from livecore_client.models import AttemptResponse, GuildJoinPending, RewardEntry
from tests import installed as routes

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "manifest.toml"
CONFIG = HERE / "schemathesis.toml"
DOCUMENTS = {s.name.lower(): f"{s.value}/openapi.json" for s in DOCUMENTED_SURFACES}
EXAMPLES_ENV = "LIVECORE_FUZZ_EXAMPLES"
PLACEHOLDER = "LIVECORE_FUZZ_"
# Examples per operation in the fuzzing phase (the other phases do not depend on it): the public documents
# within about a minute on the 2-core machine, the admin one in about three, held by its key's rate limit
# (docs/testing.md#fuzzing).
DEFAULT_EXAMPLES = 50
SEED = 21

# The players schemathesis.toml names: the fuzzed one, its friend, one whose friend request to it stays
# pending, then one each for the operations that would end the fuzzed one or rotate its secret.
PLAYER = "fuzz-player"
FRIEND = "fuzz-friend"
STRANGER = "fuzz-stranger"
PLAYERS = (PLAYER, FRIEND, STRANGER, "fuzz-register", "fuzz-erased", "fuzz-merged")
TEAM = "fuzz-team"
# The manifest's member whose personal key fuzzes the admin API, and how long the key lives (days).
MEMBER = "fuzz-owner"
KEY_DAYS = 7


class Api:
    """The run's server, through the typed clients, with the run's keys."""

    def __init__(self, base_url: str, keys: Mapping[str, str]) -> None:
        self.http = httpx.Client(base_url=base_url, timeout=10.0)
        self.sdk = SdkClient(keys["client_key"], base_url=base_url)
        self.server = ServerClient(keys["server_key"], base_url=base_url)

    def document_title(self, path: str) -> str:
        title: str = self.http.get(path).json()["info"]["title"]
        return title


def seed(api: Api) -> dict[str, str]:
    """What the fuzzed requests name, made through the API as a game and its backend would: the players,
    a friendship, a balance, a guild with a join and a help request, a friend request, a gift, grants, an
    attempt with its board, a lobby, a team and a partner invite. Answers the variables
    fuzz/schemathesis.toml names (without their ``LIVECORE_FUZZ_`` prefix), the fuzzed player's secret
    as ``PLAYER_SECRET``."""
    sdk, server = api.sdk, api.server
    secrets = {p: sdk.players.register(p).player_secret for p in PLAYERS}

    def as_player(name: str) -> dict[str, str]:
        return {"player_secret": secrets[name]}

    sdk.friends.send_request(PLAYER, external_player_id=FRIEND, **as_player(PLAYER))
    sdk.friends.send_request(FRIEND, external_player_id=PLAYER, **as_player(FRIEND))  # accepts the first
    # A request still pending, to the fuzzed player: the one its accept, decline and cancel can name.
    pending = sdk.friends.send_request(STRANGER, external_player_id=PLAYER, **as_player(STRANGER)).request
    assert pending is not None
    friend_request = pending.request_id
    server.wallet.credit(PLAYER, "coins", 1_000_000)
    server.inventory.grant(PLAYER, "sword", 1_000)
    server.inventory.grant(FRIEND, "sword", 10)

    guild = sdk.guilds.create(PLAYER, "Fuzz Guild", "request", **as_player(PLAYER)).guild
    join = sdk.guilds.join(FRIEND, guild.guild_id, **as_player(FRIEND))
    assert isinstance(join, GuildJoinPending), join
    asked = sdk.guilds.ask_help(PLAYER, type="item", resource_key="sword", amount=1, **as_player(PLAYER))
    gift = sdk.gifts.send(
        FRIEND, type="item", resource_key="sword", amount=1, external_player_id=PLAYER, **as_player(FRIEND)
    ).gift
    reward = server.grants.create(PLAYER, [RewardEntry("currency", "coins", 1)]).grant
    crate = server.grants.create(PLAYER, [RewardEntry("crate", "chest", 1)], kind="crate").grant
    attempt = sdk.live_events.start_attempt(PLAYER, "sprint", **as_player(PLAYER))
    assert isinstance(attempt, AttemptResponse), attempt
    game_id = server.system.ping().game_id
    lobby = server.lobbies.push(game_id, "duel", "fuzz-lobby", [PLAYER], fill_bots=True).lobby
    server.teams.put_roster("squads", TEAM, [PLAYER, FRIEND])
    invite = sdk.teams.invite_partner(FRIEND, "relay", PLAYER, **as_player(FRIEND)).invite
    return {
        "PLAYER_SECRET": secrets[PLAYER],
        "GAME_ID": game_id,
        "GUILD_ID": guild.guild_id,
        "FRIEND_REQUEST_ID": friend_request,
        "JOIN_REQUEST_ID": join.request.request_id,
        "HELP_REQUEST_ID": asked.help_request.request_id,
        "GIFT_ID": gift.gift_id,
        "GRANT_ID": reward.grant_id,
        "CRATE_GRANT_ID": crate.grant_id,
        "ATTEMPT_ID": attempt.attempt.attempt_id,
        "BOARD_ID": attempt.attempt.leaderboard_id,
        "LOBBY_ID": lobby.lobby_id,
        "TEAM_KEY": TEAM,
        "INVITE_ID": invite.invite_id,
    }


def personal_key(api: Api, db: Path) -> str:
    """The fuzz member's personal key, made as a member makes one: a sign-in link
    (``livecore-server members login-link``), its button in the portal, then the personal-keys route with
    the session and its CSRF token."""
    command = [*server_command(), "members", "login-link", MEMBER, "--db", str(db)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}:\n{done.stderr}")
    link = urlsplit(done.stdout.strip()).path
    with httpx.Client(base_url=str(api.http.base_url), timeout=10.0) as portal:
        signed_in = portal.post(link, headers={"Origin": str(api.http.base_url).rstrip("/")})
        if SESSION_COOKIE not in portal.cookies:
            raise SystemExit(f"signing in with {link} answered {signed_in.status_code}: no session")
        csrf = portal.get("/admin/v1/me").json()["data"]["csrfToken"]
        made = portal.post(
            "/admin/v1/studios/fuzz/personal-keys",
            json={"expiresInDays": KEY_DAYS},
            headers={CSRF_HEADER: csrf},
        )
        made.raise_for_status()
        secret: str = made.json()["data"]["secret"]
        return secret


def render_config(values: Mapping[str, str], into: Path) -> Path:
    """fuzz/schemathesis.toml with the run's keys and seeded ids in its ``${LIVECORE_FUZZ_<NAME>}``
    placeholders (schemathesis reads environment variables in some settings but not in dictionaries, so
    the driver fills every one), written into ``into``."""
    text = CONFIG.read_text()
    for name, value in values.items():
        text = text.replace(f"${{{PLACEHOLDER}{name}}}", value)
    found = allowances(routes.ALL)
    for surface in DOCUMENTED_SURFACES:
        names = [r.name for r in routes.ALL if r.surface is surface]
        text = text.replace(f"#@allowances {surface.name.lower()}\n", operations_toml(found, names))
    left = sorted(set(re.findall(rf"\$\{{{PLACEHOLDER}\w+\}}", text)))
    if left:
        raise SystemExit(f"{CONFIG} names what the run does not seed: {', '.join(left)}")
    path = into / "schemathesis.toml"
    path.write_text(text)
    return path


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
        raise SystemExit("schemathesis not found: pip install -e '.[dev]'")
    return [found]


def fuzz_document(
    name: str, base_url: str, config: Path, examples: int, report_dir: Path, extra: Sequence[str]
) -> int:
    command = [
        *schemathesis_command(),
        "--config-file",
        str(config),
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
    # The run's own checks (fuzz/hooks.py), importable whatever the working directory.
    path = os.pathsep.join(p for p in (str(HERE.parent), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "SCHEMATHESIS_HOOKS": "fuzz.hooks", "PYTHONPATH": path}
    return subprocess.run(command, check=False, env=env).returncode


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
        # Requests without a key (the checks that leave it out or send a wrong one) share the address's
        # bucket, lifted for the same reason.
        brake = ("--wrong-secrets-per-minute", "1000000", "--auth-failures-per-minute", "1000000")
        brake += ("--address-requests-per-minute", "1000000")
        # The fuzzed member's personal key likewise: at its usual 600 a minute the admin document's
        # requests would wait on the bucket, not on the server (minutes of the run).
        brake += ("--admin-requests-per-minute", "1000000")
        with ServerProcess(db, log, os.environ, extra_args=brake) as server:
            api = Api(server.base_url, keys)
            check_titles(api)
            seeded = {"CLIENT_KEY": keys["client_key"], "SERVER_KEY": keys["server_key"], **seed(api)}
            seeded["PERSONAL_KEY"] = personal_key(api, db)
            config = render_config(seeded, options.report_dir)
            for name in options.document or list(DOCUMENTS):
                extra = options.extra
                if fuzz_document(name, server.base_url, config, options.examples, options.report_dir, extra):
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
