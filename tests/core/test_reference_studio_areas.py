"""``python -m livecore.api.reference --area PACKAGE`` finds a studio's area as the server does
(:func:`livecore.registry.studio_area`, which ``livecore_server.plugins.load_area`` reads too): in the
package's ``area`` module, else in the package itself (an area of one module, ``examples/studio_daily``, which
docs/extending.md starts from); and a package that does not import, or declares no area, is one line on
standard error, exit status 2, without a traceback."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from livecore.api import reference

ONE_MODULE = """
from livecore.area import Area

AREA = Area(name="login", summary="Login streaks (a studio's own area, in one module).", page="login")
"""


def test_the_area_of_one_module_in_the_repository_renders_its_page(tmp_path: Path) -> None:
    out = tmp_path / "REFERENCE.md"
    assert reference.main(["--area", "studio_daily", "--out", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert page.startswith("# Reference: daily\n")
    assert "### `POST /sdk/v1/players/{externalId}/daily/claim`" in page
    assert "| `daily_not_giftable` | 409 |" in page
    assert "- `before_send_gift` (area `daily`)" in page


def test_an_area_of_one_module_made_anew_renders_its_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    package = tmp_path / "studio_login"
    package.mkdir()
    (package / "__init__.py").write_text(ONE_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "studio_login", raising=False)
    try:
        assert reference.main(["--area", "studio_login"]) == 0
    finally:
        sys.modules.pop("studio_login", None)
    page = capsys.readouterr().out
    assert page.startswith("# Reference: login\n")
    assert "- `login`: Login streaks (a studio's own area, in one module)." in page
    assert "No routes." in page


@pytest.mark.parametrize(
    ("package", "error"),
    [
        ("no_such_area", "error: area no_such_area: no module named 'no_such_area' can be imported"),
        ("json", "error: area json: neither json.area.AREA nor json.AREA is declared"),  # imports, no area
    ],
    ids=["not-importable", "no-area"],
)
def test_a_package_that_is_no_area_is_one_line_without_a_traceback(
    package: str, error: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "REFERENCE.md"
    assert reference.main(["--area", package, "--out", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.err == error + "\n"
    assert captured.out == "" and not out.exists()
