"""A report as files: ``report.json`` (the gathered data, byte for byte the same for the same run) and
``report.html``, one self-contained page (its styles and its charts' SVG inline: nothing is fetched when
it is viewed) drawn with Jinja2 (``templates/report.html``) and matplotlib
(:mod:`livecore_server.simulate.charts`)."""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Any

import jinja2

from livecore_server.simulate import charts
from livecore_server.simulate.labels import SOURCE_LABELS

_TEMPLATES = jinja2.Environment(
    loader=jinja2.PackageLoader("livecore_server.simulate", "templates"),
    autoescape=jinja2.select_autoescape(default=True),
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
)


#: What the page shows where there is no number.
_NONE = "\u2013"


def _fmt(value: Any) -> str:
    """A number as the page shows it: thousands separated, shares as they are (0.4567)."""
    if value is None:
        return _NONE
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.4g}" if abs(value) < 1000 else f"{value:,.0f}"
    return str(value)


def _pct(value: Any) -> str:
    return _NONE if value is None else f"{value * 100:.1f}%"


def _signed(value: Any) -> str:
    if value is None:
        return _NONE
    return ("+" if value > 0 else "") + _fmt(value)


_TEMPLATES.filters["fmt"] = _fmt
_TEMPLATES.filters["pct"] = _pct
_TEMPLATES.filters["signed"] = _signed
_TEMPLATES.filters["source"] = lambda s: SOURCE_LABELS.get(s, s)


def to_json(report: dict[str, Any]) -> str:
    """The report's JSON text: keys in the order gathered, two-space indent, a final newline."""
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"


def moved(resource: dict[str, Any]) -> bool:
    """Whether anything of a resource was minted, sunk or held: the page draws a chart of those only, and
    names the others in one line (a manifest may declare thousands no player touches, and a chart costs a
    fifth of a second)."""
    return bool(resource["minted"] or resource["sunk"]) or any(d["holdings"]["max"] for d in resource["days"])


def _charts(report: dict[str, Any]) -> dict[str, Any]:
    return {
        "economy": {k: charts.economy(k, r) for k, r in report["economy"].items() if moved(r)},
        "events": {k: charts.event(k, e) for k, e in report["events"].items() if e["windows"]},
        "leaderboards": {
            k: charts.leaderboard(k, b) for k, b in report["leaderboards"].items() if b["periods"]
        },
        "lobbies": {k: charts.lobby(k, lb) for k, lb in report["lobbies"].items()},
        "teams": {k: charts.team(k, t) for k, t in report["teams"].items()},
        "guilds": charts.guilds(report["guilds"]) if report["guilds"]["enabled"] else None,
        "gifts": charts.gifts(report["gifts"]),
    }


def to_html(report: dict[str, Any]) -> str:
    """The report as one HTML page; a comparison (``report["compare"]``) shows both side by side."""
    template = _TEMPLATES.get_template("report.html")
    if report.get("compare"):
        base, other = report["base"], report["other"]
        shown = {
            "economy": {
                k: charts.compare_economy(k, base["economy"][k], other["economy"][k])
                for k in base["economy"]
                if k in other["economy"] and (moved(base["economy"][k]) or moved(other["economy"][k]))
            },
            "events": {
                k: charts.compare_event(k, base["events"][k], other["events"][k])
                for k in base["events"]
                if k in other["events"] and base["events"][k]["windows"] and other["events"][k]["windows"]
            },
        }
        still = [k for k in base["economy"] if k not in shown["economy"]]
        return template.render(report=report, compare=True, base=base, other=other, charts=shown, still=still)
    drawn = _charts(report)
    still = [k for k in report["economy"] if k not in drawn["economy"]]
    return template.render(report=report, compare=False, base=report, other=None, charts=drawn, still=still)


def write(report: dict[str, Any], out: Path) -> tuple[Path, Path]:
    """Write ``report.json`` and ``report.html`` into ``out`` (made if missing); answers both paths."""
    out.mkdir(parents=True, exist_ok=True)
    json_path, html_path = out / "report.json", out / "report.html"
    _replace(json_path, to_json(report))
    _replace(html_path, to_html(report))
    return json_path, html_path


def _replace(path: Path, text: str) -> None:
    """Write ``text`` to a new file beside ``path``, then rename it over ``path``: a symlink planted at
    ``path`` is replaced, never written through, and no reader sees half a report. The new file is
    created exclusively (a name already taken, even by a symlink, is refused) with the umask's mode."""
    temp = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
