"""The generated parts of the wire reference in ``docs/reference/``.

The pages are written by hand; what can be derived from the declarations is rendered here and sits
between markers inside them, so prose and tables live together and the tables cannot drift:

    <!-- generated: routes gifts -->
    ...
    <!-- end generated -->

Blocks (the text after ``generated:``):

- ``routes PAGE``: every route of the installed areas (:func:`livecore.registry.installed`) whose
  :attr:`livecore.area.Area.page` is PAGE, in the areas' order: method and path, auth, rate-limit
  bucket, idempotency, path and query parameters, request body fields, success status and response
  fields, error codes.
- ``schemas PAGE``: the nested models first reached from PAGE's routes (in the areas' order); other
  pages link to them there.
- ``route-index``: one row per route, linking to its page.
- ``errors``: every code the areas declare (:attr:`livecore.area.Area.errors`: the generic ones first, the
  system area's), in the areas' order, with its status and meaning.
- ``limits``: the limits the areas declare (:attr:`livecore.area.Area.limits`).
- ``webhook KIND``: the payload fields of one webhook kind; ``webhook-schemas``: models nested in
  payloads that no route reaches.

Types and field rules come from the same JSON Schema generator as the OpenAPI documents, so the two
agree. Pure apart from :func:`main`, which rewrites the pages (``python -m livecore.api.reference``).
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
import typing
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import orjson

from livecore import registry
from livecore.api.convert import DEFAULT_IN_WORDS, camel
from livecore.api.openapi import (
    _PATH_PARAM,
    _description,
    _error_codes,
    _json_default,
    _Mode,
    _models_in,
    _replayable,
    _Schemas,
    _strip_none,
    rule_text,
)
from livecore.api.parts import wire_fields
from livecore.api.route import Auth, Idempotency, Route
from livecore.area import Area
from livecore.errors import Code
from livecore.hooks import PROJECT
from livecore.limits import duration
from livecore.schedule import Job
from livecore.section import Section

__all__ = [
    "area_of",
    "main",
    "missing",
    "regenerate",
    "route_section",
    "studio_page",
    "webhook_payloads",
]

WEBHOOKS_PAGE = "webhooks"

#: The pages of the limits table in reading order, the conventions first (the areas' order differs); a
#: page not listed here (a studio area's) comes after them.
_LIMIT_PAGES = (
    "conventions",
    "players-and-identity",
    "friends-and-presence",
    "gifts",
    "grants",
    "economy",
    "player-tools",
    "events",
    "leaderboards",
    "webhooks",
)

_BLOCK = re.compile(r"<!-- generated: (?P<spec>[^>]*?) -->\n.*?<!-- end generated -->", re.DOTALL)


def _limits(registered: Sequence[Area]) -> dict[str, list[tuple[str, str]]]:
    """The limits the areas declare, by the page that describes them: (what, value); the pages in
    :data:`_LIMIT_PAGES` order, then any other in the areas' order."""
    declared = registry.limits(registered)
    order = [
        *(page for page in _LIMIT_PAGES if page in declared),
        *(p for p in declared if p not in _LIMIT_PAGES),
    ]
    return {page: declared[page] for page in order}


def webhook_payloads() -> Mapping[str, type]:
    """Every webhook kind of the installed areas with the attrs class its ``data`` is declared by."""
    return registry.webhook_kinds(registry.installed())


def area_of(route: Route) -> str:
    """The page of ``route``: its area's (:attr:`livecore.area.Area.page`)."""
    return _context().page_of(route)


# --- The model graph ------------------------------------------------------------------------------------


@attrs.frozen
class _Model:
    cls: type
    mode: _Mode
    name: str


class _Context:
    """Everything the blocks are rendered from, computed once: one schema collector over every route
    and webhook payload (so a model's name is the same everywhere), and each nested model's home page."""

    def __init__(
        self,
        routes: Sequence[Route],
        payloads: Mapping[str, type],
        served: Sequence[Area],
        link_base: str = "",
    ) -> None:
        self.routes = tuple(routes)
        self.payloads = dict(payloads)
        # Each page with the areas whose routes it lists, and each route's and payload's page: a studio's
        # area's webhook payloads are on its own page, the service's on the webhooks page.
        self.pages = {
            p: tuple(a.name for a in served if a.page == p) for p in dict.fromkeys(a.page for a in served)
        }
        self._page_of = {r.name: a.page for a in served for r in a.routes}
        builtin = {a.name for a in registry.installed()}
        self._payload_page = {
            p.KIND: (WEBHOOKS_PAGE if a.name in builtin else a.page) for a in served for p in a.webhooks
        }
        # Prefixed to links to the service's own pages from a studio's page (rendered elsewhere).
        self._own_pages = {a.page for a in served if a.name not in builtin}
        self.link_base = link_base
        self.schemas = _Schemas()
        for route in self.routes:
            if route.request is not None:
                self.schemas.collect(route.request, "input")
            if route.response is not None:
                self.schemas.collect(route.response, "output")
            for _, event_model in route.stream:
                self.schemas.collect(event_model, "output")
        for cls in self.payloads.values():
            self.schemas.collect(cls, "output")
        self.models: dict[str, _Model] = {}
        self.home: dict[str, str] = {}
        self.by_area: dict[str, list[Route]] = {page: [] for page in self.pages}
        for route in self.routes:
            self.by_area[self.page_of(route)].append(route)
        for area, area_routes in self.by_area.items():
            for route in area_routes:
                for model in self._top_models(route):
                    self._place(self._nested(model), area)
        for kind, cls in self.payloads.items():
            page = self._payload_page.get(kind, WEBHOOKS_PAGE)
            self._place(self._nested(self._model(cls, "output")), page)

    def page_of(self, route: Route) -> str:
        page = self._page_of.get(route.name)
        if page is None:
            raise ValueError(f"route {route.name!r} belongs to no registered area")
        return page

    def payload_page(self, kind: str) -> str:
        return self._payload_page.get(kind, WEBHOOKS_PAGE)

    def _model(self, cls: type, mode: _Mode) -> _Model:
        name = self.schemas.ref_name(cls, mode)
        return self.models.setdefault(name, _Model(cls, mode, name))

    def _top_models(self, route: Route) -> list[_Model]:
        """The models a route's own tables show inline: its request body and its response."""
        found = [self._model(cls, "input") for cls in _models_in(route.request)]
        found += [self._model(cls, "output") for cls in _models_in(route.response)]
        return found + [self._model(event_model, "output") for _, event_model in route.stream]

    def _nested(self, model: _Model) -> list[_Model]:
        """Models reached from ``model``'s fields, depth first, without ``model`` itself."""
        out: list[_Model] = []

        def walk(current: _Model) -> None:
            for _, hint in wire_fields(current.cls):
                for cls in _models_in(hint):
                    found = self._model(cls, current.mode)
                    if found not in out and found != model:
                        out.append(found)
                        walk(found)

        walk(model)
        return out

    def _place(self, found: Iterable[_Model], page: str) -> None:
        for model in found:
            self.home.setdefault(model.name, page)

    def homed_at(self, page: str) -> list[_Model]:
        return [self.models[name] for name, home in self.home.items() if home == page]

    # --- rendering --------------------------------------------------------------------------------------

    def link(self, name: str, page: str) -> str:
        home = self.home.get(name)
        if home is None:
            raise ValueError(f"model {name} has no page")
        anchor = f"#{name.lower()}"
        if home == page:
            return f"[{name}]({anchor})"
        base = "" if home in self._own_pages else self.link_base
        return f"[{name}]({base}{home}.md{anchor})"

    def type_text(self, schema: Mapping[str, Any], page: str) -> str:
        """A JSON Schema (as the OpenAPI generator writes it) in words."""
        if "$ref" in schema:
            return self.link(str(schema["$ref"]).rsplit("/", 1)[1], page)
        for combinator in ("anyOf", "oneOf"):
            if combinator in schema:
                parts = schema[combinator]
                null = {"type": "null"}
                text = " or ".join(self.type_text(part, page) for part in parts if part != null)
                return text + (" or null" if null in parts else "")
        if "enum" in schema:
            values = [value for value in schema["enum"] if value is not None]
            text = "one of " + ", ".join(f"`{value}`" for value in values)
            return text + (", or null" if None in schema["enum"] else "")
        declared = schema.get("type")
        kinds = declared if isinstance(declared, list) else [declared] if declared else []
        words = [self._kind_text(kind, schema, page) for kind in kinds if kind != "null"]
        text = " or ".join(words) if words else "any JSON value"
        return text + " or null" if "null" in kinds else text

    def _kind_text(self, kind: str, schema: Mapping[str, Any], page: str) -> str:
        if kind == "string":
            return {"date-time": "timestamp", "date": "date"}.get(schema.get("format", ""), "string")
        if kind == "array":
            return f"array of {self.type_text(schema.get('items', {}), page)}"
        if kind == "object":
            values = schema.get("additionalProperties")  # ``True`` for a free-form object
            return f"object of {self.type_text(values, page)}" if isinstance(values, dict) else "object"
        return {"integer": "integer", "number": "number", "boolean": "boolean"}.get(kind, kind)

    def field_table(self, model: _Model, page: str) -> str:
        if model.mode == "input":
            rows = ["| Field | Type | Required | Default |", "|---|---|---|---|"]
        else:
            rows = ["| Field | Type | Present |", "|---|---|---|"]
        for field, wire_hint in wire_fields(model.cls):
            omitted = bool(field.metadata.get("omit_if_none"))
            hint = _strip_none(wire_hint) if omitted and model.mode == "output" else wire_hint
            type_text = self.type_text(self.schemas.schema(hint, model.mode), page)
            if description := field.metadata.get("description"):
                type_text += f"; {description}"
            if model.mode == "input" and (limits := rule_text(field)):
                type_text += f"; {limits}"
            if model.mode == "input":
                required = field.default is attrs.NOTHING
                rows.append(
                    f"| `{camel(field.name)}` | {type_text} | {'yes' if required else 'no'} | "
                    f"{'' if required else _default_text(field.default)} |"
                )
            else:
                rows.append(
                    f"| `{camel(field.name)}` | {type_text} | {'when set' if omitted else 'always'} |"
                )
        return "\n".join(rows)


def _default_text(default: Any) -> str:
    has_default, value = _json_default(default)
    return f"`{orjson.dumps(value).decode()}`" if has_default else ""


# --- Blocks ---------------------------------------------------------------------------------------------


def _auth_text(route: Route) -> str:
    if route.auth is Auth.PUBLIC:
        return "none"
    if route.auth is Auth.MEMBER:
        action = route.action.value if route.action is not None else "read"
        return (
            "a member: portal session cookie (and `X-CSRF-Token` on writes) or personal key"
            f" (`Bearer svc_pk_...`); action `{action}`"
        )
    permission = route.permission
    key = f"`{permission.value}` API key" if permission is not None else "API key"
    text = key
    if route.auth is Auth.PLAYER:
        text = f"{key} and the player's secret (`X-Player-Secret`)"
    elif route.auth is Auth.KEY_OR_PLAYER:
        text = f"{key}; the player's secret (`X-Player-Secret`) optional, checked when sent"
    if route.test_only:
        text += "; test environment only (a live key gets 403 `permission_denied`)"
    return text


def _idempotency_text(route: Route) -> str:
    if route.idempotent_on is not None:
        return f"on the body field `{camel(route.idempotent_on)}`; an `Idempotency-Key` header is ignored"
    if route.idempotency is Idempotency.NONE:
        return "none" if route.is_write else "none (a read)"
    source = (
        "body field `idempotencyKey` or header `Idempotency-Key`"
        if route.body_idempotency_field
        else ("header `Idempotency-Key`")
    )
    if route.idempotency is Idempotency.REQUIRED:
        return f"required ({source}); missing: 400 `invalid_request`"
    return f"optional ({source})"


def _route_section(ctx: _Context, route: Route, page: str) -> str:
    parts = [f"### `{route.method} {route.full_path}`", route.summary]
    facts = [
        f"- Operation: `{route.name}`",
        f"- Auth: {_auth_text(route)}",
        f"- Rate-limit bucket: `{route.bucket.value}`",
        f"- Idempotency: {_idempotency_text(route)}",
    ]
    success = f"- Success: {route.status}"
    if route.status == 201 and _replayable(route):
        success += " (200 when replayed)"
    facts.append(success)
    errors = "; ".join(
        f"{status} " + ", ".join(f"`{code}`" for code in codes)
        for status, codes in sorted(_error_codes(route).items())
    )
    facts.append(f"- Errors: {errors}")
    if route.deprecated is not None:
        # The OpenAPI description ends with the deprecation sentence; the reference says it the same way.
        facts.append("- " + _description(route).rsplit("\n\n", 1)[-1])
    parts.append("\n".join(facts))
    path_params = _PATH_PARAM.findall(route.path)
    if path_params:
        parts.append("Path parameters: " + ", ".join(f"`{name}`" for name in path_params) + ".")
    if route.query is not None:
        rows = ["| Query parameter | Type | Required | Default |", "|---|---|---|---|"]
        fields = attrs.fields(route.query)
        for field, param in zip(fields, ctx.schemas.query_parameters(route.query), strict=True):
            schema = dict(param["schema"])
            default = schema.pop("default", None)
            kind = ctx.type_text(schema, page)
            if schema.get("type") == "array":
                kind += " (comma-separated or repeated)"
            if limits := rule_text(field):
                kind += f"; {limits}"
            shown = f"`{orjson.dumps(default).decode()}`" if default is not None else ""
            # A default the server decides per request says so in words.
            shown = field.metadata.get(DEFAULT_IN_WORDS, shown)
            rows.append(f"| `{param['name']}` | {kind} | {'yes' if param['required'] else 'no'} | {shown} |")
        parts.append("\n".join(rows))
    if route.request is not None:
        optional = " (optional: the body may be left out)" if route.request_optional else ""
        parts.append(f"Request body{optional}; unknown fields are refused:")
        parts.extend(ctx.field_table(ctx._model(cls, "input"), page) for cls in _models_in(route.request))
    parts.append(_response_text(ctx, route, page))
    return "\n\n".join(parts)


def _response_text(ctx: _Context, route: Route, page: str) -> str:
    if route.stream:
        parts = ["Response: `text/event-stream`; each event's `data`:"]
        for name, event_model in route.stream:
            parts.append(f"`{name}`:\n\n" + ctx.field_table(ctx._model(event_model, "output"), page))
        return "\n\n".join(parts)
    if route.response is None:
        return 'Response: `{"data": {}}`.'
    top = _models_in(route.response)
    if typing.get_origin(route.response) is list:
        table = ctx.field_table(ctx._model(top[0], "output"), page)
        return f"Response `data`: an array of objects, each:\n\n{table}"
    return "Response `data`:\n\n" + ctx.field_table(ctx._model(top[0], "output"), page)


def _schemas_block(ctx: _Context, page: str) -> str:
    sections = []
    for model in ctx.homed_at(page):
        title = f"#### {model.name}"
        note = (
            "Part of a request; unknown fields are refused."
            if model.mode == "input"
            else ("Part of a response; new fields may be added (clients ignore unknown fields).")
        )
        sections.append(f"{title}\n\n{note}\n\n{ctx.field_table(model, page)}")
    return "\n\n".join(sections) if sections else "No models of their own."


def _route_index(ctx: _Context) -> str:
    rows = ["| Method | Path | Page | What it does |", "|---|---|---|---|"]
    for route in ctx.routes:
        area = ctx.page_of(route)
        rows.append(f"| {route.method} | `{route.full_path}` | [{area}]({area}.md) | {route.summary} |")
    return "\n".join(rows)


def _error_rows(codes: Sequence[Code]) -> str:
    """The table of ``codes``, each with its status and meaning; a code without a meaning stops the
    generator."""
    missing_meaning = [code.value for code in codes if not code.meaning]
    if missing_meaning:
        raise ValueError(f"error codes without a meaning (Code.meaning): {missing_meaning}")
    rows = ["| Code | Status | Meaning |", "|---|---|---|"]
    rows.extend(f"| `{code.value}` | {code.status} | {code.meaning} |" for code in codes)
    return "\n".join(rows)


def _errors_block(registered: Sequence[Area]) -> str:
    """Every code of the areas, in their order."""
    return _error_rows(registry.error_codes(registered))


def _limits_block() -> str:
    rows = ["| Limit | Value | Described in |", "|---|---|---|"]
    for page, declared in _limits(registry.installed()).items():
        rows.extend(f"| {what} | {value} | [{page}]({page}.md) |" for what, value in declared)
    return "\n".join(rows)


def _webhook_block(ctx: _Context, kind: str) -> str:
    cls = ctx.payloads.get(kind)
    if cls is None:
        raise ValueError(f"no webhook kind {kind!r}")
    return f"`data` of `{kind}`:\n\n" + ctx.field_table(ctx._model(cls, "output"), ctx.payload_page(kind))


def _render(ctx: _Context, spec: str, page: str) -> str:
    kind, _, arg = spec.partition(" ")
    if kind == "routes" and arg in ctx.pages:
        return "\n\n".join(_route_section(ctx, route, page) for route in ctx.by_area[arg])
    if kind == "schemas" and arg in ctx.pages:
        return _schemas_block(ctx, arg)
    if kind == "webhook":
        return _webhook_block(ctx, arg)
    if spec == "webhook-schemas":
        return _schemas_block(ctx, WEBHOOKS_PAGE)
    if spec == "route-index":
        return _route_index(ctx)
    if spec == "errors":
        return _errors_block(registry.installed())
    if spec == "limits":
        return _limits_block()
    raise ValueError(f"unknown generated block {spec!r} in {page}.md")


@functools.cache
def _context() -> _Context:
    installed = registry.installed()
    return _Context(registry.routes(installed), registry.webhook_kinds(installed), installed)


def route_section(route: Route, page: str) -> str:
    """The section of one route, as the ``routes`` block of ``page`` shows it."""
    return _route_section(_context(), route, page)


def regenerate(text: str, page: str) -> str:
    """``text`` (the page ``page``.md) with every generated block rendered afresh."""
    ctx = _context()

    def replace(match: re.Match[str]) -> str:
        spec = match["spec"].strip()
        return f"<!-- generated: {spec} -->\n\n{_render(ctx, spec, page)}\n\n<!-- end generated -->"

    return _BLOCK.sub(replace, text)


def missing(pages: Mapping[str, str]) -> list[str]:
    """What the pages (stem -> text) fail to show: routes, models and webhook kinds without a section."""
    ctx = _context()
    absent = []
    for route in ctx.routes:
        if f"### `{route.method} {route.full_path}`" not in pages.get(ctx.page_of(route), ""):
            absent.append(f"route {route.name} ({ctx.page_of(route)}.md)")
    for name, home in ctx.home.items():
        if f"#### {name}\n" not in pages.get(home, ""):
            absent.append(f"model {name} ({home}.md)")
    for kind in ctx.payloads:
        if f"<!-- generated: webhook {kind} -->" not in pages.get(WEBHOOKS_PAGE, ""):
            absent.append(f"webhook {kind} ({WEBHOOKS_PAGE}.md)")
    return absent


# --- A studio's own areas: one whole page ---------------------------------------------------------------

#: The page a studio's areas are rendered on, whatever pages they declare: one file of their own.
STUDIO_PAGE = "studio"


def _checks_of(hooks: object | None) -> list[str]:
    """The built-in commands an area's hook object checks (its methods marked ``@hookimpl``)."""
    if hooks is None:
        return []
    return sorted(name for name in dir(hooks) if hasattr(getattr(hooks, name), f"{PROJECT}_impl"))


def _job_text(job: Job) -> str:
    if job.every is not None:
        return f"every {duration(job.every)}, at each multiple of it on the clock"
    return "when its time comes, as the state says (looked at by every process)"


def _section_place(section: Section) -> str:
    if section.within is None:
        return f"Its table: `[games.<key>.{section.key}]`."
    if section.flat:
        return f"Its fields sit in each `{section.within}` table of a game, beside that table's own."
    return f"Its table: `{section.key}`, in each `{section.within}` table of a game."


def _manifest_table(ctx: _Context, cls: type) -> str:
    """A manifest record's fields as the manifest spells them (snake_case), with their types and
    defaults."""
    rows = ["| Field | Type | Required | Default |", "|---|---|---|---|"]
    for field, hint in wire_fields(cls):
        type_text = ctx.type_text(ctx.schemas.schema(hint, "input"), STUDIO_PAGE)
        if description := field.metadata.get("description"):
            type_text += f"; {description}"
        required = field.default is attrs.NOTHING
        default = "" if required else _default_text(field.default)
        rows.append(f"| `{field.name}` | {type_text} | {'yes' if required else 'no'} | {default} |")
    return "\n".join(rows)


def _manifest_block(ctx: _Context, sections: Sequence[Section]) -> str:
    """The typed sections of a studio's areas (:attr:`livecore.area.Area.manifest`): where each sits in a
    game's manifest, its fields, and the records nested in them, each on this page."""
    for section in sections:
        ctx.schemas.collect(section.record, "input")
    tops = [ctx._model(cls, "input") for section in sections for cls in _models_in(section.record)]
    nested = list(dict.fromkeys(m for top in tops for m in ctx._nested(top) if m not in tops))
    for model in (*tops, *nested):
        ctx.home.setdefault(model.name, STUDIO_PAGE)
    parts = []
    for section in sections:
        parts.append(f"### `{section.key}`\n\n{_section_place(section)}")
        if typing.get_origin(section.record) is None and attrs.has(section.record):
            parts.append(_manifest_table(ctx, section.record))
        else:
            record = ctx.type_text(ctx.schemas.schema(section.record, "input"), STUDIO_PAGE)
            parts.append(f"Its value: {record}.")
    parts.extend(f"#### {model.name}\n\n{_manifest_table(ctx, model.cls)}" for model in nested)
    return "\n\n".join(parts)


def studio_page(studio: Sequence[Area], *, link_base: str = "") -> str:
    """The whole reference page of a studio's own areas (``python -m livecore.api.reference --area``):
    their routes, as the service's pages show routes, the models first reached from them, their webhook
    payloads, their typed manifest sections, their error codes, their checks on built-in commands and
    their scheduled jobs. Models of the service's own pages link there, prefixed with ``link_base`` (a URL
    or a relative path to ``docs/reference/``)."""
    own = [attrs.evolve(area, page=STUDIO_PAGE) for area in studio]
    served = registry.areas(own)
    ctx = _Context(registry.routes(served), registry.webhook_kinds(served), served, link_base)
    names = ", ".join(area.name for area in own)
    parts = [
        f"# Reference: {names}",
        "<!-- generated by python -m livecore.api.reference --area; do not edit -->",
        "\n".join(f"- `{area.name}`: {area.summary}" for area in own),
        "## Routes",
        "\n\n".join(_route_section(ctx, route, STUDIO_PAGE) for route in ctx.by_area[STUDIO_PAGE])
        or "No routes.",
        "## Schemas",
        _schemas_block(ctx, STUDIO_PAGE),
        "## Webhooks",
    ]
    kinds = [payload.KIND for area in own for payload in area.webhooks]
    parts.extend(f"### `{kind}`\n\n{_webhook_block(ctx, kind)}" for kind in kinds)
    if not kinds:
        parts.append("No webhook kinds.")
    sections = [section for area in own for section in area.manifest]
    if sections:
        parts.extend(["## Manifest sections", _manifest_block(ctx, sections)])
    codes = [code for area in own for code in area.errors]
    parts.append("## Error codes")
    parts.append(_error_rows(codes) if codes else "No error codes of their own.")
    checks = [(area.name, check) for area in own for check in _checks_of(area.hooks)]
    parts.append("## Checks on built-in commands")
    parts.append(
        "\n".join(f"- `{check}` (area `{name}`)" for name, check in checks)
        if checks
        else "None: the built-in commands run as they do without these areas."
    )
    jobs = [(area.name, job) for area in own for job in area.jobs]
    parts.append("## Scheduled jobs")
    parts.append(
        "\n".join(f"- `{job.name}` (area `{name}`): {_job_text(job)}" for name, job in jobs)
        if jobs
        else "None."
    )
    return "\n\n".join(parts) + "\n"


def _studio_main(args: argparse.Namespace) -> int:
    try:
        fresh = studio_page([registry.studio_area(name) for name in args.area], link_base=args.link_base)
    except (registry.AreaNotFound, registry.AreaConflict) as exc:
        # The package's name and why, as serve says it: what to fix, without a traceback to read through.
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.out is None:
        sys.stdout.write(fresh)
        return 0
    current = args.out.read_text(encoding="utf-8") if args.out.exists() else None
    if current == fresh:
        return 0
    if args.check:
        print(f"stale: {args.out}")
        return 1
    args.out.write_text(fresh, encoding="utf-8")
    print(f"rewrote: {args.out}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m livecore.api.reference", description=__doc__.split("\n")[0]
    )
    parser.add_argument("directory", nargs="?", default="docs/reference", type=Path)
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 when a page is stale")
    parser.add_argument(
        "--area",
        action="append",
        default=[],
        metavar="PACKAGE",
        help="render the page of a studio's own area instead (repeatable: one page for all)",
    )
    parser.add_argument("--out", type=Path, help="with --area: the page's file (else standard output)")
    parser.add_argument(
        "--link-base",
        default="",
        help="with --area: prefixed to links to the service's own reference pages (a URL or a path)",
    )
    args = parser.parse_args(argv)
    if args.area:
        return _studio_main(args)
    pages = {path.stem: path for path in sorted(args.directory.glob("*.md"))}
    texts = {stem: path.read_text(encoding="utf-8") for stem, path in pages.items()}
    stale = []
    for stem, path in pages.items():
        fresh = regenerate(texts[stem], stem)
        if fresh != texts[stem]:
            stale.append(path)
            texts[stem] = fresh
            if not args.check:
                path.write_text(fresh, encoding="utf-8")
    for item in missing(texts):
        print(f"missing: {item}", file=sys.stderr)
    for path in stale:
        print(f"{'stale' if args.check else 'rewrote'}: {path}")
    return 1 if (args.check and stale) or missing(texts) else 0


if __name__ == "__main__":
    sys.exit(main())
