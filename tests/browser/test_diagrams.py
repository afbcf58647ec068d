"""The diagrams of the docs (Mermaid, which code hosts render) are drawn by Mermaid itself in headless
Chromium: each one the docs promise is there, and every Mermaid block of the docs renders without an
error (docs/testing.md#diagrams).

Mermaid comes from the npm registry: the test fetches the pinned package once with ``npm pack`` (one
tarball, no dependencies: ``dist/mermaid.min.js`` is self-contained) into a cache directory, and loads
that file into a blank page; nothing is fetched by the browser."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tarfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

MERMAID = "11.17.2"
ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
_BLOCK = re.compile(r"```mermaid\n(.*?)```", re.DOTALL)
# Each diagram the docs promise: its marker comment, and the page that holds it.
PROMISED = {
    "grant lifecycle": "docs/grants.md",
    "webhook delivery": "docs/webhooks.md",
    "operator sign-in": "docs/operators.md",
    "request path": "docs/architecture.md",
    "areas": "docs/architecture.md",
    "area graph": "docs/architecture.md",
    "deployment": "docs/deployment.md",
}


def _cache() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "livecore-tests" / f"mermaid-{MERMAID}"


def _required(reason: str) -> None:
    if os.environ.get("LIVECORE_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (LIVECORE_REQUIRE_BROWSER=1)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def mermaid_js() -> Path:
    script = _cache() / "mermaid.min.js"
    if script.exists():
        return script
    npm = shutil.which("npm")
    if npm is None:
        _required("npm is not installed: Mermaid comes from the npm registry")
        raise AssertionError("unreachable")
    script.parent.mkdir(parents=True, exist_ok=True)
    packed = subprocess.run(
        [npm, "pack", f"mermaid@{MERMAID}", "--silent", "--pack-destination", str(script.parent)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if packed.returncode != 0:
        _required(f"npm pack mermaid@{MERMAID} failed: {packed.stderr.strip()[-500:]}")
    tarball = script.parent / packed.stdout.strip().splitlines()[-1]
    with tarfile.open(tarball) as archive:
        member = archive.extractfile("package/dist/mermaid.min.js")
        assert member is not None
        partial = script.with_suffix(".part")
        partial.write_bytes(member.read())
        partial.replace(script)  # whole or not at all, should two workers fetch it at once
    tarball.unlink()
    return script


@pytest.fixture(scope="module")
def mermaid_page(browser: Any, mermaid_js: Path) -> Iterator[Any]:
    page = browser.new_page()
    page.set_content("<!doctype html><html><body></body></html>")
    page.add_script_tag(path=str(mermaid_js))
    page.evaluate("() => mermaid.initialize({startOnLoad: false, securityLevel: 'strict'})")
    yield page
    page.close()


def _render(page: Any, text: str, n: int) -> str:
    """The SVG Mermaid draws for ``text``, or ``error: ...``."""
    result: str = page.evaluate(
        """async ([text, id]) => {
            try { return (await mermaid.render(id, text)).svg; }
            catch (e) { return 'error: ' + (e && e.message ? e.message : String(e)); }
        }""",
        [text, f"diagram{n}"],
    )
    return result


def _blocks() -> list[tuple[str, str]]:
    found = []
    for doc in DOCS:
        for i, match in enumerate(_BLOCK.finditer(doc.read_text())):
            found.append((f"{doc.relative_to(ROOT)}#{i + 1}", match.group(1)))
    return found


def _diagram(name: str) -> str:
    text = (ROOT / PROMISED[name]).read_text()
    marker = f"<!-- diagram: {name} -->\n"
    assert marker in text, f"{PROMISED[name]} has no {name} diagram"
    match = _BLOCK.match(text, text.index(marker) + len(marker))
    assert match is not None, f"the {name} marker in {PROMISED[name]} is not followed by a Mermaid block"
    return match.group(1)


@pytest.mark.parametrize("name", list(PROMISED), ids=[n.replace(" ", "-") for n in PROMISED])
def test_the_docs_draw_each_promised_diagram(mermaid_page: Any, name: str) -> None:
    svg = _render(mermaid_page, _diagram(name), list(PROMISED).index(name))
    assert svg.startswith("<svg"), svg[:500]


def test_every_mermaid_block_of_the_docs_renders(mermaid_page: Any) -> None:
    blocks = _blocks()
    assert len(blocks) >= len(PROMISED)
    failures = {}
    for n, (where, text) in enumerate(blocks):
        svg = _render(mermaid_page, text, 100 + n)
        if not svg.startswith("<svg"):
            failures[where] = svg[:300]
    assert failures == {}


def test_a_broken_diagram_is_caught(mermaid_page: Any) -> None:
    assert _render(mermaid_page, "flowchart TD\n    A -->", 999).startswith("error: ")
