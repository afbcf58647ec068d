"""A report as files: ``report.json`` (the gathered data, byte for byte the same for the same run),
``report.html``, one self-contained page (its styles and its charts' SVG inline: nothing is fetched when
it is viewed) drawn with Jinja2 (``templates/report.html``, and each area's part's own section of it,
``ReportPart.page``) and matplotlib (each part's charts, :mod:`livecore_server.simulate.charts`), and a
CSV file of each table of the page (:mod:`livecore_server.simulate.tables`). Every text of the report is
written as :func:`livecore.names.shown` shows it."""

from __future__ import annotations

import csv
import importlib.resources
import io
import json
import os
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import jinja2

from livecore import names
from livecore_server.simulate.compare import by_evidence
from livecore_server.simulate.gather import parts as built_in
from livecore_server.simulate.section import Label, ReportPart, Row, Table, labeller
from livecore_server.simulate.tables import tables_of


class _PartLoader(jinja2.BaseLoader):
    """A part's template, named ``<package>:<path>`` (``livecore_server.guilds:templates/report.html``)."""

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool] | None]:
        package, sep, path = template.partition(":")
        if not sep:
            raise jinja2.TemplateNotFound(template)
        found = importlib.resources.files(package).joinpath(path)
        try:
            return found.read_text(encoding="utf-8"), None, None
        except OSError:
            raise jinja2.TemplateNotFound(template) from None


_TEMPLATES = jinja2.Environment(
    loader=jinja2.ChoiceLoader(
        [_PartLoader(), jinja2.PackageLoader("livecore_server.simulate", "templates")]
    ),
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


def _money(value: Any) -> str:
    """An amount of money as the page shows it: thousands separated, to the cent (1,234.50); under a
    dime, to two significant digits, which a cent is too coarse for (a revenue per player of 0.0042)."""
    if value is None:
        return _NONE
    return f"{value:.2g}" if 0 < abs(value) < 0.1 else f"{value:,.2f}"


def _signed(value: Any) -> str:
    if value is None:
        return _NONE
    return ("+" if value > 0 else "") + _fmt(value)


def _signed_pct(value: Any) -> str:
    """A share as a change (0.123 as +12.3%)."""
    if value is None:
        return _NONE
    return ("+" if value > 0 else "") + f"{value * 100:,.1f}%"


def _bound_pct(value: Any) -> str:
    """An interval's end as a change (:func:`_signed_pct`), but one that would read +0.0% or -0.0% to
    two significant digits (+0.012%): which side of 0 an end lies on is what marks a row. An end with no
    bound (null: past a million times the base) reads so."""
    if value is None:
        return "no bound"
    if value == 0 or abs(value) >= 0.0005:
        return _signed_pct(value)
    return ("+" if value > 0 else "") + f"{value * 100:.2g}%"


_TEMPLATES.filters["fmt"] = _fmt
_TEMPLATES.filters["pct"] = _pct
_TEMPLATES.filters["money"] = _money
_TEMPLATES.filters["signed"] = _signed
_TEMPLATES.filters["signed_pct"] = _signed_pct
_TEMPLATES.filters["bound_pct"] = _bound_pct


@jinja2.pass_context
def _source(context: jinja2.runtime.Context, source: str) -> str:
    label: Label = context["label"]
    return label(source)


_TEMPLATES.filters["source"] = _source


def to_json(report: dict[str, Any]) -> str:
    """The report's JSON text: keys in the order gathered, two-space indent, a final newline."""
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"


def _parts(parts: Sequence[ReportPart] | None) -> Sequence[ReportPart]:
    return parts if parts is not None else built_in()


def to_html(
    report: dict[str, Any],
    parts: Sequence[ReportPart] | None = None,
    tables: Mapping[str, Table] | None = None,
) -> str:
    """The report as one HTML page, each part's section drawn by its own template (the section's data
    shown plainly when it has none); a comparison (``report["compare"]``) shows both side by side; a
    sweep (``report["sweep"]``), each row's effect against the value
    (:func:`~livecore_server.simulate.sweep.chart`).
    ``parts``: the report's (:func:`livecore_server.simulate.gather.parts`, by default the built-in ones);
    ``tables``: the page's (:func:`~livecore_server.simulate.tables.tables_of`, by default read from
    the report)."""
    from livecore_server.simulate import charts

    found = [p for p in _parts(parts) if p.key is not None]
    label = labeller(_parts(parts))
    if tables is None:
        tables = tables_of(report, _parts(parts))
    template = _TEMPLATES.get_template("report.html")
    if "sweep" in report:
        from livecore_server.simulate import sweep

        drawn_rows = sweep.charted(report["sweep"])
        with charts.page():
            made = [(r, sweep.chart(r, report["sweep"], i)) for i, r in enumerate(drawn_rows)]
        return template.render(
            report=report,
            compare=False,
            sweep=report["sweep"],
            base=report["base"],
            other=None,
            charts=made,
            label=label,
            parts=found,
            tables=tables,
        )
    if report.get("compare"):
        base, other = report["base"], report["other"]
        moved, still = by_evidence(report["differences"])
        with charts.page():
            drawn = {
                p.key: p.compare_charts(base[p.key], other[p.key], label)
                for p in found
                if p.key is not None and p.compare_charts is not None and p.key in base and p.key in other
            }
        shown, unmoved = _of_moved(drawn, moved, report["differences"])
        return template.render(
            report=report,
            compare=True,
            sweep=None,
            moved=moved,
            still=still,
            largest=moved[:LARGEST],
            level=next((r["level"] for r in report["differences"] if r["level"] is not None), None),
            base=base,
            other=other,
            charts=shown,
            unmoved=unmoved,
            label=label,
            parts=found,
            tables=tables,
        )
    with charts.page():
        drawn = {
            p.key: p.charts(report[p.key], label) for p in found if p.charts is not None and p.key in report
        }
    return template.render(
        report=report,
        compare=False,
        sweep=None,
        base=report,
        other=None,
        charts=drawn,
        label=label,
        parts=found,
        plain=_PLAIN,
        tables=tables,
    )


#: The rows of a comparison its page lists first, above its charts: the first that moved, by evidence.
LARGEST = 10


def _of_moved(
    drawn: Mapping[str, Any], moved: Sequence[Row], rows: Sequence[Row]
) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """A comparison's charts of the subjects whose rows moved, in the order of their rows
    (:func:`~livecore_server.simulate.compare.by_evidence`), and by section the subjects whose rows all
    stayed, left undrawn. A chart of a subject no row names is kept, after the others."""
    rank: dict[tuple[str, str], int] = {}
    for i, r in enumerate(moved):
        rank.setdefault((r["section"], r["subject"]), i)
    named = {(r["section"], r["subject"]) for r in rows}
    shown: dict[str, Any] = {}
    unmoved: dict[str, list[str]] = {}
    for key, made in drawn.items():
        if not isinstance(made, dict):
            shown[key] = made
            continue
        kept = [s for s in made if (key, s) in rank or (key, s) not in named]
        kept.sort(key=lambda s: rank.get((key, s), len(moved)))
        shown[key] = {s: made[s] for s in kept}
        unmoved[key] = [s for s in made if s not in shown[key]]
    return shown, unmoved


#: The page's section of a part that brings no template of its own: its data, as the JSON says it.
_PLAIN = "livecore_server.simulate:templates/section.html"


def to_csv(found: Table) -> str:
    """A table as CSV text: a header row, then a row per row; numbers as the JSON writes them (no
    thousands separators), nothing where there is no value, lines ended by ``\n``. A text starting
    as a spreadsheet formula would (``=``, ``+``, ``-``, ``@``) is written after a ``'``, so that a name
    from a manifest is never run as one."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow([c.heading for c in found.columns])
    for row in found.rows:
        writer.writerow([_cell(value) for value in row])
    return text.getvalue()


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return json.dumps(value)
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


#: What a table's name may be: a file name of its own in ``--out``, never a hidden one nor a path.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def write(report: dict[str, Any], out: Path, parts: Sequence[ReportPart] | None = None) -> tuple[Path, Path]:
    """Write ``report.json``, ``report.html`` and ``<name>.csv`` for each table of the page into ``out``
    (made if missing); answers the first two paths."""
    report = as_shown(report)
    tables = tables_of(report, _parts(parts))
    for name in tables:
        if not _NAME.fullmatch(name):
            raise ValueError(f"a table of the report is named {name!r}, which is not a file name of its own")
    out.mkdir(parents=True, exist_ok=True)
    json_path, html_path = out / "report.json", out / "report.html"
    _replace(json_path, to_json(report))
    _replace(html_path, to_html(report, parts, tables))
    for name, found in tables.items():
        _replace(out / f"{name}.csv", to_csv(found))
    return json_path, html_path


def as_shown(value: Any) -> Any:
    """``value`` with each text in it, keys included, as :func:`livecore.names.shown` shows it: a name
    from the manifest or the population that holds a control or a bidirectional override character
    shows it escaped (``Raid\\u202e``) in every file of the report, and the page stays valid HTML."""
    if isinstance(value, str):
        return names.shown(value)
    # A container is copied only where a text in it changed: a report of millions of numbers is not.
    if isinstance(value, dict):
        pairs = [(as_shown(k), as_shown(v)) for k, v in value.items()]
        same = all(a is k and b is v for (a, b), (k, v) in zip(pairs, value.items(), strict=True))
        return value if same else dict(pairs)
    if isinstance(value, list):
        items = [as_shown(item) for item in value]
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    return value


def _replace(path: Path, text: str) -> None:
    """Write ``text`` to a new file beside ``path``, then rename it over ``path``: a symlink planted at
    ``path`` is replaced, never written through, and no reader sees half a report. The new file is
    created exclusively (a name already taken, even by a symlink, is refused) with the umask's mode."""
    temp = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        # No newline translation: the same bytes on every system.
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
