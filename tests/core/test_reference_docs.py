"""docs/reference is the wire contract in the repository: its generated blocks must match the declarations,
and every route of the registry must have its section."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import attrs
import pytest

from livecore.api import reference
from livecore.api.route import Deprecation
from tests.installed import ALL

DOCS = Path(__file__).resolve().parents[2] / "docs" / "reference"
PAGES = {path.stem: path.read_text(encoding="utf-8") for path in sorted(DOCS.glob("*.md"))}


@pytest.mark.parametrize("page", sorted(PAGES))
def test_generated_blocks_are_fresh(page: str) -> None:
    assert reference.regenerate(PAGES[page], page) == PAGES[page], (
        f"docs/reference/{page}.md is stale: run `nox -s docs` (python -m livecore.api.reference)"
    )


def test_every_route_has_its_section_on_its_page() -> None:
    absent = [
        f"{route.method} {route.full_path} ({reference.area_of(route)}.md)"
        for route in ALL
        if f"### `{route.method} {route.full_path}`\n" not in PAGES.get(reference.area_of(route), "")
    ]
    assert not absent, f"routes without a section in docs/reference: {absent}"


def test_every_route_is_in_the_index() -> None:
    index = PAGES["README"]
    absent = [route.name for route in ALL if f"| {route.method} | `{route.full_path}` |" not in index]
    assert not absent, f"routes missing from docs/reference/README.md: {absent}"


def test_nothing_declared_is_left_out() -> None:
    assert reference.missing(PAGES) == []


def test_a_stale_block_is_rewritten() -> None:
    page = PAGES["errors"]
    start = page.index("<!-- generated: errors -->")
    end = page.index("<!-- end generated -->", start)
    emptied = page[: start + len("<!-- generated: errors -->")] + "\n" + page[end:]
    assert emptied != page
    assert reference.regenerate(emptied, "errors") == page


def test_an_unknown_block_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown generated block"):
        reference.regenerate("<!-- generated: nonsense -->\n<!-- end generated -->", "errors")


def test_the_reference_names_no_file_outside_the_repository() -> None:
    for page, text in PAGES.items():
        for outside in ("shared/", "SPEC.md", "DECISIONS"):
            assert outside not in text, f"docs/reference/{page}.md mentions {outside!r}"


def _anchors(text: str) -> set[str]:
    """The anchors GitHub gives the headings of a page: lower case, punctuation dropped, spaces to hyphens."""
    anchors = set()
    for line in text.splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            anchors.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return anchors


def test_every_link_between_reference_pages_resolves() -> None:
    broken = []
    for page, text in PAGES.items():
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if "://" in target:
                continue
            file, _, anchor = target.partition("#")
            linked = (DOCS / file).resolve() if file else DOCS / f"{page}.md"
            anchored_here = anchor and linked.parent == DOCS
            if not linked.exists() or (anchored_here and anchor not in _anchors(PAGES[linked.stem])):
                broken.append(f"{page}.md -> {target}")
    assert not broken, f"broken links in docs/reference: {broken}"


def test_no_page_repeats_a_heading() -> None:
    for page, text in PAGES.items():
        titles = [line for line in text.splitlines() if line.startswith("#") and not line.startswith("## ")]
        repeated = {title for title in titles if titles.count(title) > 1}
        assert not repeated, f"docs/reference/{page}.md repeats {repeated}: links to them would be ambiguous"


def test_a_deprecated_route_says_so() -> None:
    route = attrs.evolve(
        ALL[1],
        deprecated=Deprecation(reason="Use the new probe.", sunset=date(2027, 1, 31), successor="/v2/ping"),
    )
    section = reference.route_section(route, "conventions")
    assert "- Deprecated: Use the new probe. Removed after 2027-01-31. Use `/v2/ping` instead." in section


def test_a_registered_kind_s_grant_entries_show_the_kind_s_own_record() -> None:
    """A grant's entries are a reward's or a registered kind's: the webhooks reference shows the crates'
    entry record with its own ``type``, not the base the grants declare."""
    page = reference.regenerate(PAGES["webhooks"], "webhooks")
    assert "| `entries` | array of [Entry](#entry) or [CrateEntry](#crateentry) | always |" in page
    record = page[page.index("#### CrateEntry") :]
    assert "| `type` | one of `crate` | always |" in record[: record.index("\n####")]
    assert "KindEntry" not in page
