"""A fresh interpreter from this checkout (:func:`fresh`), and what tests/packaging/test_fresh_interpreters.py
runs inside one after the import under test (:func:`wire_shapes`). This module imports nothing that
registers anything (only modules every client loads already): it reads what the process holds, so that the
answer is the import's own."""

from __future__ import annotations

import enum
import json
import os
import subprocess
import sys
import types
import typing
from pathlib import Path
from typing import Any

import attrs

from livecore.api.parts import wire_fields
from livecore.enums import Values

ROOT = Path(__file__).resolve().parents[2]


def fresh(code: str, given: Any = None) -> Any:
    """What a fresh interpreter from this checkout prints on its last line, read as JSON, after running
    ``code`` with ``given`` as JSON on its standard input."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps(given),
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def _roots() -> list[Any]:
    """The wire models of every route and webhook kind this process has loaded: each route's request,
    query, answer and stream events, each payload class."""
    route = getattr(sys.modules.get("livecore.api.route"), "Route", None)
    payload = getattr(sys.modules.get("livecore.webhooks.payload"), "WebhookPayload", None)
    found: list[Any] = []
    for name, module in sorted(sys.modules.items()):
        if not name.startswith(("livecore.", "livecore_client.")) or module is None:
            continue
        for value in vars(module).values():
            if route is not None and isinstance(value, route):
                found += [value.request, value.query, value.response, *(kind for _, kind in value.stream)]
            elif payload is not None and isinstance(value, type) and issubclass(value, payload):
                found.append(value)
    return [root for root in found if root is not None]


def _walk(tp: Any, out: dict[str, Any]) -> None:
    if typing.get_origin(tp) is typing.Literal:
        return
    if typing.get_origin(tp) is not None or isinstance(tp, types.UnionType):
        for arg in typing.get_args(tp):
            _walk(arg, out)
        return
    if not isinstance(tp, type):
        return
    name = f"{tp.__module__}.{tp.__qualname__}"
    if name in out:
        return
    if issubclass(tp, Values):
        out[name] = [member.value for member in tp.listed()]
    elif issubclass(tp, enum.Enum):
        out[name] = [member.value for member in tp]
    elif attrs.has(tp):
        fields = wire_fields(tp)
        # A record whose kinds register their own records in its place (a grant entry's).
        registered = getattr(tp, "registered_records", None)
        records = list(registered()) if callable(registered) else []
        out[name] = {
            "fields": [field.name for field, _ in fields],
            "records": [f"{r.__module__}.{r.__qualname__}" for r in records],
        }
        for _, hint in fields:
            _walk(hint, out)
        for record in records:
            _walk(record, out)


def wire_shapes() -> dict[str, Any]:
    """Every wire model reached from :func:`_roots`, by qualified name: a record's wire fields (the parts
    other areas added to it among them) and the records registered in its place, a set of values' values."""
    out: dict[str, Any] = {}
    for root in _roots():
        _walk(root, out)
    return out
