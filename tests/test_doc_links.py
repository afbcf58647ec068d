"""Every relative link of README.md and docs/ leads somewhere: the file exists, and an anchor names a heading
(or an HTML ``id``) of the page it points into, as GitHub renders them (docs/testing.md#the-docs-links)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])

_FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
_HTML_ID = re.compile(r"""<[a-z]+[^>]*\s(?:id|name)=["']([^"']+)["']""", re.IGNORECASE)


def _prose(text: str) -> str:
    """``text`` without its fenced code blocks, where a link is an example rather than a link."""
    return _FENCE.sub("", text)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading's text: links and code marks reduced to their text, lower case,
    punctuation other than hyphens and underscores dropped, each space a hyphen."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """The anchors of a page: its headings' slugs (a repeated one gains ``-1``, ``-2``... as on GitHub) and
    the ``id`` or ``name`` of its HTML elements."""
    found: set[str] = set()
    seen: Counter[str] = Counter()
    for line in _prose(text).splitlines():
        if re.match(r"^#{1,6}\s", line):
            base = slug(line.lstrip("#"))
            found.add(base if not seen[base] else f"{base}-{seen[base]}")
            seen[base] += 1
    found.update(_HTML_ID.findall(text))
    return found


def links(text: str) -> list[str]:
    """The link targets of a page's prose: inline links, images and reference definitions."""
    prose = _INLINE_CODE.sub("", _prose(text))
    return _LINK.findall(prose) + _REFERENCE_DEFINITION.findall(prose)


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in links(page.read_text(encoding="utf-8")):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
            continue  # http:, https:, mailto: ... lead outside the repository
        file, _, anchor = target.partition("#")
        linked = (page.parent / file).resolve() if file else page
        if not linked.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked.read_text(encoding="utf-8")):
            broken.append(f"{target} (no such heading)")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_and_anchor_resolves(page: Path) -> None:
    assert broken_links(page) == []


def test_a_heading_that_carries_a_link_is_anchored_by_its_text_as_github_does() -> None:
    heading = " Secrets at rest ([reference/manifest-and-cli.md](reference/manifest-and-cli.md#secrets))"
    assert slug(heading) == "secrets-at-rest-referencemanifest-and-climd"
    assert slug(" `POST /sdk/v1/gifts` and more") == "post-sdkv1gifts-and-more"
    assert anchors('# A\n## A\n```\n# not a heading\n```\n<a id="here"></a>') == {"a", "a-1", "here"}


def test_a_link_to_a_missing_heading_or_file_is_reported(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Present\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](other.md#present) [gone](other.md#absent) [lost](missing.md) [web](https://example.com/#x)\n"
        "```\n[in code](nowhere.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links(page) == ["other.md#absent (no such heading)", "missing.md (no such file)"]
