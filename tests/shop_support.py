"""The shop example (examples/shop_price/shop.toml, docs/simulation.md#a-worked-example-a-cheaper-chest)
and its copy selling the bronze chest at 80 coins, as the example's comment makes it: one line changed."""

from __future__ import annotations

from pathlib import Path

SHOP = Path(__file__).resolve().parent.parent / "examples" / "shop_price" / "shop.toml"
PRICE = "price = { coins = 100 }"


def cheaper() -> str:
    """The example's text with its chest's price at 80 coins."""
    text = SHOP.read_text()
    assert text.count(f"\n{PRICE}\n") == 1
    return text.replace(f"\n{PRICE}\n", "\nprice = { coins = 80 }\n")
