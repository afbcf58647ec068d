"""`livecore-server simulate --sweep` (docs/simulation.md#sweeps): a field of the manifest or the
population file played at several values, each on the base's seeds and compared with it as
--compare-population compares two files; its syntax, its refusals before anything is played, sweep.csv,
the page's chart of each row, and the limits judged at every value."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from livecore.section import read_toml, write_toml
from livecore_server.cli import main
from livecore_server.manifest import demo_manifest_text
from livecore_server.simulate import notebook, sweep
from tests.server.test_simulate_notebook import written
from tests.shop_support import PRICE, SHOP

FIELD = "studio.offers.bronze-chest.price.coins"
PURCHASES = "offers.bronze-chest.purchases"
SUNK = "economy.coins.sunk by offer:bronze-chest"
NAMED = ("section", "subject", "metric")
SMALL = ["--players", "60", "--days", "3", "--seeds", "2"]


def simulate(out: Path, *args: str) -> Result:
    command = ["simulate", "demo", "--population", str(SHOP), "--out", str(out), *args]
    return CliRunner().invoke(main, command)


def test_a_range_is_each_step_from_first_to_last() -> None:
    assert sweep.values("60..120/10") == [60, 70, 80, 90, 100, 110, 120]
    assert sweep.values("60..125/20") == [60, 80, 100, 120]  # the last on a step, or below it
    assert sweep.values("0.1..0.3/0.1") == [0.1, 0.2, 0.3]  # decimal steps land on their values


def test_a_list_is_its_values_whole_where_written_whole() -> None:
    assert sweep.values("60, 80,100") == [60, 80, 100]
    assert [type(v) for v in sweep.values("1,1.5,2e0")] == [int, float, float]


def test_a_path_names_the_manifest_or_with_its_prefix_the_population_file() -> None:
    found = sweep.parse(f"population:{FIELD}=60..140/20")
    assert (found.of, found.field, found.values) == ("population", FIELD, (60, 80, 100, 120, 140))
    assert sweep.parse("games.space-race.gifting.daily_send_limit=5,20").of == "manifest"


@pytest.mark.parametrize(
    "written",
    [
        *("price", "=60", "price=", "price=60..", "price=a,b", "a..b=1", "price=60,60"),
        *("price=120..60/10", "price=60..120/0", "price=1..100/1"),
    ],
)
def test_a_sweep_not_written_as_one_is_refused(written: str) -> None:
    with pytest.raises(ValueError):
        sweep.parse(written)


def test_a_file_written_back_reads_as_it_was() -> None:
    for text in (demo_manifest_text(), SHOP.read_text()):
        assert read_toml(write_toml(read_toml(text))) == read_toml(text)


@pytest.mark.parametrize(
    ("swept", "said"),
    [
        (
            f"population:{FIELD.replace('price', 'prize')}=60",
            "did you mean studio.offers.bronze-chest.price?",
        ),
        ("population:studio.offers.bronze-chest.gives=1", "is an array, and a sweep plays a number"),
        (
            "games.space-race.gifting.daily_send_limt=4",
            "did you mean games.space-race.gifting.daily_send_limit?",
        ),
        (f"population:{FIELD}=80,-5", f"with {FIELD} = -5 refused"),
        ("games.space-race.gifting.daily_send_limit=0.5", "must be an integer"),
    ],
)
def test_a_path_naming_no_number_or_a_value_refused_exits_2_before_playing(
    tmp_path: Path, swept: str, said: str
) -> None:
    result = simulate(tmp_path / "out", "--sweep", swept, "--players", "20", "--days", "2")
    assert result.exit_code == 2, result.output
    assert said in result.output
    assert not (tmp_path / "out").exists()


def test_a_sweep_is_not_a_comparison_too(tmp_path: Path) -> None:
    result = simulate(tmp_path / "out", "--sweep", f"population:{FIELD}=80", "--compare", "demo")
    assert result.exit_code == 2
    assert "leave out --compare" in result.output


@pytest.fixture(scope="module")
def swept(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Result]:
    out = tmp_path_factory.mktemp("sweep") / "out"
    result = simulate(
        out,
        "--sweep",
        f"population:{FIELD}=60,100,140",
        "--row",
        PURCHASES,
        "--row",
        SUNK,
        "--expect",
        f"{PURCHASES} < +30%",  # broken at 60 coins only
        *SMALL,
    )
    return out, result


def test_a_limit_broken_at_one_value_fails_the_run_naming_the_value(swept: tuple[Path, Result]) -> None:
    out, result = swept
    assert result.exit_code == 1, result.output
    assert f"limit broken at 60: {PURCHASES} < +30%" in result.output
    assert "limit broken at 140" not in result.output
    with (out / "limits.csv").open() as fh:
        judged = {r["Value"]: r["Broken"] for r in csv.DictReader(fh)}
    assert judged == {"60": "true", "100": "false", "140": "false"}


def test_sweep_csv_has_each_row_asked_at_each_value(swept: tuple[Path, Result]) -> None:
    out, _ = swept
    with (out / "sweep.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    named = [(f"{r['Section']}.{r['Subject']}.{r['Metric']}", r["Value"]) for r in rows]
    assert named == [(n, v) for n in (PURCHASES, SUNK) for v in ("60", "100", "140")]
    at_base = [r for r in rows if r["Value"] == "100"]
    assert all(r["Change"] == "0" and r["Significant"] == "false" for r in at_base)
    bought = {r["Value"]: float(r["Mean"]) for r in rows if r["Metric"] == "purchases"}
    assert bought["60"] > bought["100"] > bought["140"]  # the cheaper, the more chests sold


def test_the_page_draws_each_row_asked_against_the_value(swept: tuple[Path, Result]) -> None:
    out, _ = swept
    page = (out / "report.html").read_text()
    for name in (PURCHASES, SUNK):
        assert f'<figure data-row="{name}"><svg aria-label="sweep-' in page
    assert '<a href="sweep.csv">sweep.csv</a>' in page


def test_each_value_is_its_comparison_with_the_base_on_the_same_seeds(
    swept: tuple[Path, Result], tmp_path: Path
) -> None:
    out, _ = swept
    report: dict[str, Any] = json.loads((out / "report.json").read_text())
    assert (report["sweep"]["base"], report["sweep"]["values"]) == (100, [60, 100, 140])
    cheap = tmp_path / "shop-60.toml"
    cheap.write_text(SHOP.read_text().replace(f"\n{PRICE}\n", "\nprice = { coins = 60 }\n"))
    result = simulate(tmp_path / "compared", "--compare-population", str(cheap), *SMALL)
    assert result.exit_code == 0, result.output
    compared = json.loads((tmp_path / "compared" / "report.json").read_text())
    for row in report["sweep"]["rows"]:
        pair = next(r for r in compared["differences"] if all(r[k] == row[k] for k in NAMED))
        assert {k: v for k, v in row["at"][0].items() if k != "value"} == {
            k: v for k, v in pair.items() if k not in NAMED
        }


def test_a_manifest_field_is_swept_every_row_reported_by_default(tmp_path: Path) -> None:
    result = simulate(
        tmp_path / "out",
        "--sweep",
        "games.space-race.gifting.daily_send_limit=1",
        "--players",
        "20",
        "--days",
        "2",
    )
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert (report["sweep"]["of"], report["sweep"]["base"], report["sweep"]["asked"]) == (
        "manifest",
        10,
        None,
    )
    assert any(r["section"] == "gifts" for r in report["sweep"]["rows"])
    with (tmp_path / "out" / "sweep.csv").open() as fh:
        assert len(list(csv.DictReader(fh))) == len(report["sweep"]["rows"])
    page = (tmp_path / "out" / "report.html").read_text()
    assert page.count('aria-label="sweep-') <= sweep.CHARTED


def test_a_row_asked_naming_no_row_exits_2_with_the_nearest(tmp_path: Path) -> None:
    result = simulate(
        tmp_path / "out",
        "--sweep",
        f"population:{FIELD}=80",
        "--row",
        "offers.bronze-chest.purchase",
        "--players",
        "20",
        "--days",
        "2",
    )
    assert result.exit_code == 2, result.output
    assert "names no row: --row offers.bronze-chest.purchase: no row is named" in result.output
    assert f"did you mean {PURCHASES}" in result.output
    assert (tmp_path / "out" / "report.json").exists()


def test_a_notebooks_sweep_gives_the_commands_tables(swept: tuple[Path, Result]) -> None:
    """docs/simulation.md#in-a-notebook: the same sweep from Python, its tables the command's files."""
    out, _ = swept
    with pytest.warns(UserWarning, match="names no row: --row players..nobody"):
        report = notebook.sweep(
            "demo",
            f"population:{FIELD}=60,100,140",
            population=SHOP,
            rows=[PURCHASES, SUNK, "players..nobody"],
            expect=[f"{PURCHASES} < +30%"],
            players=60,
            days=3,
            seeds=2,
        )
    for name in ("sweep", "limits"):
        with (out / f"{name}.csv").open(encoding="utf-8", newline="") as fh:
            header, *rows = csv.reader(fh)
        table = report.tables[name]
        assert table.headings == header
        assert [[written(v) for v in row.values()] for row in table.rows] == rows
