"""`livecore-server simulate --cluster ADDRESS` (docs/simulation.md#on-a-cluster): the seasons played on a
Dask cluster's workers (here a LocalCluster of two worker processes, shared by the module) write the
report the machine's own cores write, byte for byte, a comparison's and a sweep's; an address no
scheduler answers, or distributed missing, is one line and exit 2."""

from __future__ import annotations

import socket
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from livecore.simulation.population import parse_population
from livecore_server.cli import main
from livecore_server.manifest import demo_manifest_text
from livecore_server.simulate import engines
from livecore_server.simulate.engines import Cluster, Progress
from livecore_server.simulate.run import Sources, parse, simulate
from tests.shop_support import SHOP
from tests.waiting import until_sync

distributed = pytest.importorskip("distributed")

DEMO = demo_manifest_text()
COMPLETION = 'completion_rewards = [{ type = "currency", key = "coins", amount = 10 }]'
RICHER = DEMO.replace(COMPLETION, COMPLETION.replace("amount = 10", "amount = 500"))
#: Nothing listens on port 1 of this machine (a privileged port no test binds).
NOBODY = "tcp://127.0.0.1:1"


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


def run(tmp_path: Path, out: str, *args: str) -> Result:
    demo, richer = tmp_path / "demo.toml", tmp_path / "richer.toml"
    demo.write_text(DEMO)
    richer.write_text(RICHER)
    command = ["simulate", str(demo), "--compare", str(richer), "--out", str(tmp_path / out)]
    return CliRunner().invoke(main, [*command, "--players", "60", "--days", "3", "--seeds", "2", *args])


def test_a_comparison_on_a_cluster_writes_the_bytes_of_this_machines_cores(
    tmp_path: Path, address: str
) -> None:
    here = run(tmp_path, "here")
    assert here.exit_code == 0, here.output
    there = run(tmp_path, "there", "--cluster", address)
    assert there.exit_code == 0, there.output
    assert f"4 seasons on {address}" in there.stderr
    for name in ("report.json", "report.html", "differences.csv"):
        assert (tmp_path / "there" / name).read_bytes() == (tmp_path / "here" / name).read_bytes(), name


def test_a_sweep_on_a_cluster_writes_the_bytes_of_this_machines_cores(tmp_path: Path, address: str) -> None:
    swept = ["--sweep", "population:studio.offers.bronze-chest.price.coins=60,140"]
    command = ["simulate", "demo", "--population", str(SHOP), *swept, "--players", "40", "--days", "2"]
    for out, more in (("here", []), ("there", ["--cluster", address])):
        result = CliRunner().invoke(main, [*command, "--out", str(tmp_path / out), *more])
        assert result.exit_code == 0, result.output
    assert "3 seasons on" in result.stderr
    for name in ("report.json", "sweep.csv"):
        assert (tmp_path / "there" / name).read_bytes() == (tmp_path / "here" / name).read_bytes(), name


def first_ends_once_the_second_is_told(index: int, told: str) -> int:
    """On a worker: the first task ends once the second has been told done in the test (``told`` made),
    so it finishes last."""
    if index == 0:
        until_sync(Path(told).exists, f"{told} made")
    return index


def test_reports_come_in_the_tasks_order_not_as_they_finish(address: str, tmp_path: Path) -> None:
    told = tmp_path / "told"
    seen: list[tuple[int, int]] = []

    def season_done(done: int, seasons: int) -> None:
        seen.append((done, seasons))
        told.touch()

    with Cluster(address) as cluster:
        found = cluster.play(
            first_ends_once_the_second_is_told,
            [(0, str(told)), (1, str(told))],
            Progress(on_season=season_done),
        )
    assert found == [0, 1]
    assert seen == [(1, 2), (2, 2)]


def test_a_season_failing_on_a_worker_fails_the_run(address: str) -> None:
    with Cluster(address) as cluster, pytest.raises(RuntimeError, match="seed 0: ManifestError: "):
        simulate(
            [("demo.toml", parse(DEMO))],
            [("default", parse_population(""))],
            players=5,
            days=1,
            seed=0,
            start=datetime(2026, 1, 5, tzinfo=UTC),
            sources=Sources((("demo.toml", "not = [a manifest"),)),
            engine=cluster,
        )


@pytest.fixture
def silent() -> Iterator[str]:
    """The address of a port that takes connections and never says a word: another service than Dask."""
    with socket.create_server(("127.0.0.1", 0)) as listening:
        yield f"tcp://127.0.0.1:{listening.getsockname()[1]}"


@pytest.mark.parametrize("where", ["nobody", "silent", "unreadable"])
def test_an_address_no_scheduler_answers_is_one_line_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest, where: str
) -> None:
    monkeypatch.setattr(engines, "CONNECT_TIMEOUT", 1.0)
    address = {"nobody": NOBODY, "unreadable": "no port"}.get(where) or request.getfixturevalue("silent")
    result = run(tmp_path, "out", "--cluster", address)
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"Error: cannot reach the cluster's scheduler at {address}: "), line
    assert not (tmp_path / "out" / "report.json").exists()


def test_without_distributed_the_line_names_the_extra_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # what an environment without it imports
    result = run(tmp_path, "out", "--cluster", NOBODY)
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.endswith("pip install 'livecore[cluster]'"), line
