"""A season's tables from Python, as a notebook reads them (docs/simulation.md#in-a-notebook): the demo
manifest played by its population, each table of the report named as its CSV file, the rows of one, and
the comparison of docs/simulation.md's cheaper bronze chest, the chest's rows of it. Needs the server
extra (``pip install "livecore[server]"``); with pandas or polars installed, each table is a frame too
(``table.frame()``).

    python examples/notebook/season_tables.py
"""

from __future__ import annotations

from pathlib import Path

from livecore_server.simulate import notebook

SHOP = Path(__file__).resolve().parent.parent / "shop_price" / "shop.toml"


def main() -> None:
    report = notebook.play("demo", "demo", players=200, days=3, seed=7)
    print("tables:", ", ".join(report.tables))
    for row in report.tables["economy.coins.daily"].rows:
        print(f"day {row['Day']}: coins minted {row['Minted']}, sunk {row['Sunk']}, held {row['Held p50']}")

    # A comparison plays its two seasons side by side, in processes of their own: a script calls it under
    # `if __name__ == "__main__"`, as multiprocessing asks (a notebook needs nothing of the kind).
    shop = SHOP.read_text(encoding="utf-8")
    cheaper = shop.replace("price = { coins = 100 }", "price = { coins = 80 }")
    compared = notebook.compare(
        "demo", population=SHOP, other_population=cheaper, players=200, days=3, seed=7
    )
    chest = [row for row in compared.tables["differences"].rows if row["Subject"] == "bronze-chest"]
    print("the bronze chest at 80 coins rather than 100:")
    for row in chest:
        print(f"  {row['Section']}.{row['Subject']}.{row['Metric']}: {row['Base']} -> {row['Other']}")


if __name__ == "__main__":
    main()
