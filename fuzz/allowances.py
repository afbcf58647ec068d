"""What no OpenAPI document can say, and so where the fuzzing allows an answer its checks would otherwise
count as a failure (docs/testing.md#what-no-document-can-say).

Each allowance names the rule, why no schema carries it, and the operations it holds on. Those that
follow from the route declarations (a key the body may carry, a free-form object) are found in them, so a
new route gets its allowance with its declaration; the others depend on what a game declares or on two
values at once, and are listed by operation. :func:`operations_toml` renders them as schemathesis
``[[project.operations]]`` entries.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs
import jsonschema_rs

from livecore.api.convert import camel
from livecore.api.route import Idempotency, Route
from livecore.errors import LivecoreError
from livecore.limits import FreeForm, Rule, rule_of
from livecore.players.identity import COUNTRY


@attrs.frozen
class Allowance:
    rule: str  # the rule, in words
    why: str  # why no JSON Schema carries it
    # The statuses each check also takes, by check name.
    statuses: Mapping[str, tuple[str, ...]]


KEY_IN_TWO_PLACES = Allowance(
    "the idempotency key comes in the `Idempotency-Key` header or in the body's `idempotencyKey`, and "
    "when both are given they are equal",
    "OpenAPI marks a header or a body field required, not one of the two, and JSON Schema compares no "
    "header with a body field: the header is marked required and the body field documented as its "
    "alternative",
    {"positive_data_acceptance": ("400",), "missing_required_header": ("2xx",)},
)
#: The header an idempotency key comes in when the body's field does not carry it.
KEY_HEADER = "Idempotency-Key"
FREE_FORM_OBJECT = Allowance(
    "a free-form object (`metadata`, `playerContext`, item `parameters`) holds no NUL in any string and no "
    "integer outside signed 64 bits at any depth, and is at most 4 KiB as compact JSON",
    "JSON Schema has no keyword for a size in bytes (the documents give it as `x-max-json-bytes`), and a "
    "rule at every depth of an open object needs a recursive schema that generated clients handle poorly",
    {"positive_data_acceptance": ("400",)},
)
TWO_VALUES = Allowance(
    "rules between two values: a board read takes `cursor` or `around`, not both; a player does not act on "
    "itself; a summary's `from` is not after its `to` and at most 3,650 days before it; a lobby push "
    "names no more players than its `capacity` (the request's, else the event's)",
    "a parameter's schema speaks of that parameter alone",
    {"positive_data_acceptance": ("400",)},
)
OPAQUE_CURSOR = Allowance(
    "a `cursor` is one an earlier page of the same list returned",
    "the cursor's content is the service's own; any other string is well formed and refused",
    {"positive_data_acceptance": ("400",)},
)
WHAT_THE_GAME_DECLARES = Allowance(
    "names the game declares in its manifest: progression keys, an event's metrics and teams, the "
    "resources its guild help takes, the currencies it has an exchange rate for, a leaderboard's finished "
    "periods",
    "one document serves every game; what a game declares is in the game's manifest, not in the contract",
    {"positive_data_acceptance": ("400",)},
)
ASSIGNED_COUNTRY = Allowance(
    "a country someone chooses (a guild's, an operator's override) is a code ISO 3166-1 assigns: `AA` has "
    "the form and is not one",
    "the assigned codes are a list the standard keeps and the service reads; the document gives the form",
    {"positive_data_acceptance": ("400",)},
)
WEBHOOK_TARGET = Allowance(
    "a webhook endpoint's URL is an `https` address (`http` only on a loopback host) that leads to a public "
    "address, and its events, like a sample's kind, are webhook kinds the service sends",
    "where a host name leads is known when it is resolved, and the kinds are those the service's areas "
    "register",
    {"positive_data_acceptance": ("400",)},
)

BY_OPERATION: dict[str, tuple[Allowance, ...]] = {
    "event_leaderboards.read": (TWO_VALUES, OPAQUE_CURSOR),
    "leaderboards.read": (TWO_VALUES, OPAQUE_CURSOR, WHAT_THE_GAME_DECLARES),
    "friends.blocks.add": (TWO_VALUES,),
    "friends.blocks.remove": (TWO_VALUES,),
    "friends.remove": (TWO_VALUES,),
    "friends.requests.send": (TWO_VALUES,),
    "server.spend.summary": (TWO_VALUES,),
    "server.lobbies.push": (TWO_VALUES,),
    "server.purchases.list": (OPAQUE_CURSOR,),
    "friends.list": (WHAT_THE_GAME_DECLARES,),
    "friends.code": (WHAT_THE_GAME_DECLARES,),
    "friends.requests.list": (WHAT_THE_GAME_DECLARES,),
    "friends.search": (WHAT_THE_GAME_DECLARES,),
    "friends.suggestions": (WHAT_THE_GAME_DECLARES,),
    "events.progress": (WHAT_THE_GAME_DECLARES,),
    "teams.mine": (WHAT_THE_GAME_DECLARES,),
    "partners.invite": (WHAT_THE_GAME_DECLARES,),
    "partners.accept": (WHAT_THE_GAME_DECLARES,),
    "guilds.help.ask": (WHAT_THE_GAME_DECLARES,),
    "purchases.track": (WHAT_THE_GAME_DECLARES,),
    "server.purchases.track": (WHAT_THE_GAME_DECLARES,),
    "admin.webhooks.create": (WEBHOOK_TARGET,),
    "admin.webhooks.send_sample": (WEBHOOK_TARGET,),
}


def _holds(
    model: type | None, holds: Callable[[Rule | None], bool], seen: frozenset[type] = frozenset()
) -> bool:
    """Whether a request model has a field whose rule ``holds``, at any depth of its fields."""
    if model is None or not attrs.has(model) or model in seen:
        return False
    hints = typing.get_type_hints(model)
    for field in attrs.fields(model):
        if holds(rule_of(field)):
            return True
        nested = [a for a in _args(hints[field.name]) if isinstance(a, type) and attrs.has(a)]
        if any(_holds(n, holds, seen | {model}) for n in nested):
            return True
    return False


def _free_form(rule: Rule | None) -> bool:
    return isinstance(rule, FreeForm)


def _country(rule: Rule | None) -> bool:
    return rule is COUNTRY


def _args(tp: Any) -> list[Any]:
    out = [tp]
    for arg in typing.get_args(tp):
        out.extend(_args(arg))
    return out


def allowances(routes: Iterable[Route]) -> dict[str, tuple[Allowance, ...]]:
    """Each operation that has an allowance, with them."""
    found: dict[str, tuple[Allowance, ...]] = {}
    for route in routes:
        these = list(BY_OPERATION.get(route.name, ()))
        if route.body_idempotency_field and route.idempotency is not Idempotency.NONE:
            these.append(KEY_IN_TWO_PLACES)
        if _holds(route.request, _free_form):
            these.append(FREE_FORM_OBJECT)
        if _holds(route.request, _country):
            these.append(ASSIGNED_COUNTRY)
        if these:
            found[route.name] = tuple(these)
    return found


def key_in_body_only(negated: tuple[str | None, str | None], headers: Mapping[str, str], body: Any) -> bool:
    """Whether a request that leaves out the required ``Idempotency-Key`` header is the documented one that
    carries the key in its body instead (:data:`KEY_IN_TWO_PLACES`), and so rightly accepted: what it
    negates (``negated``: the parameter's name and location, as schemathesis says them) is that header
    alone, the request has no such header, and its body holds ``idempotencyKey`` as a string. For the
    fuzz's negative-data check (fuzz/hooks.py), which no expected status can narrow to this case."""
    name, location = negated
    return (
        (name or "").lower() == KEY_HEADER.lower()
        and location == "header"
        and all(header.lower() != KEY_HEADER.lower() for header in headers)
        and isinstance(body, dict)
        and isinstance(body.get("idempotencyKey"), str)
    )


def body_key_operations(found: Mapping[str, tuple[Allowance, ...]]) -> frozenset[str]:
    """The operations whose idempotency key the body may carry instead of the header."""
    return frozenset(name for name, these in found.items() if KEY_IN_TWO_PLACES in these)


def breaks_its_pattern(parameters: Iterable[tuple[str, Mapping[str, Any]]], sent: Mapping[str, Any]) -> bool:
    """Whether a value ``sent`` (a request's query, by name) breaks the ``pattern`` its parameter's schema
    declares (``parameters``: each name with its schema). Such a request is not the valid data it may be
    labelled: schemathesis's coverage phase sends, as positive, query values outside a pattern (a C1
    control character where the pattern leaves those out), and the service rightly refuses them. For the
    fuzz's positive-data check (fuzz/hooks.py), which skips those requests alone."""
    for name, schema in parameters:
        pattern = schema.get("pattern")
        value = sent.get(name)
        if isinstance(pattern, str) and isinstance(value, str) and re.search(pattern, value) is None:
            return True
    return False


def only_an_undeclared_header(
    negated: tuple[str | None, str | None],
    description: str,
    headers: Mapping[str, str],
    declared: Mapping[str, Any],
) -> bool:
    """Whether a negative request's one negation is a header its operation does not declare (``negated``:
    the location schemathesis names, ``description`` its account of the negation; ``declared``: the
    operation's headers by name, each with its schema), every declared header it sends being valid. HTTP
    has a server ignore a header it does not know, so the request is rightly accepted. schemathesis skips
    these itself, except where its coverage phase marks the path negated although it sent the run's own
    path values. For the fuzz's negative-data check (fuzz/hooks.py)."""
    _, location = negated
    if location != "header" or not description.lower().startswith("object with unexpected properties"):
        return False
    schemas = {name.lower(): schema for name, schema in declared.items()}
    sent = {name.lower(): value for name, value in headers.items()}
    if all(name in schemas for name in sent):
        return False
    return all(
        jsonschema_rs.validator_for(schemas[name]).is_valid(
            value.strip(" \t") if isinstance(value, str) else value
        )
        for name, value in sent.items()
        if name in schemas
    )


#: The operations that apply their rows one by one (docs/player-tools.md#migration): a row that breaks a
#: rule of its schema fails alone, named in the answer's ``failures``, and the other rows apply.
ROW_BY_ROW = frozenset({"server.migrate.players", "server.migrate.wallet", "server.migrate.inventory"})


def rows_that_break_their_rules(route: Route, body: Any) -> set[int]:
    """The indexes of the rows of ``body`` (a call of a :data:`ROW_BY_ROW` route) that break a rule their
    fields name: a length, a range, a pattern."""
    hints = typing.get_type_hints(route.request)
    (row,) = typing.get_args(hints["rows"])
    rules = {camel(f.name): rule for f in attrs.fields(row) if (rule := rule_of(f)) is not None}
    rows = body.get("rows") if isinstance(body, dict) else None
    broken: set[int] = set()
    for index, fields in enumerate(rows if isinstance(rows, list) else []):
        for name, rule in rules.items():
            value = fields.get(name) if isinstance(fields, dict) else None
            try:
                if value is not None:
                    rule.check(value, name)
            except LivecoreError:
                broken.add(index)
    return broken


def each_bad_row_failed_alone(route: Route, body: Any, answer: Any) -> bool:
    """Whether a call of a :data:`ROW_BY_ROW` route that its document forbids, and that was accepted,
    breaks the rules of some of its rows only, each of which the answer reports failed: as documented, a
    bad row fails alone and the others apply. For the fuzz's negative-data check (fuzz/hooks.py), which
    no expected status can narrow to this case."""
    broken = rows_that_break_their_rules(route, body)
    data = answer.get("data") if isinstance(answer, dict) else None
    failures = data.get("failures") if isinstance(data, dict) else None
    failed = (
        {f.get("index") for f in failures if isinstance(f, dict)} if isinstance(failures, list) else set()
    )
    return bool(broken) and broken <= failed


DEFAULTS = {
    "positive_data_acceptance": ("2xx", "3xx", "401", "403", "404", "409", "429", "5xx"),
    "missing_required_header": ("400", "401", "403", "406", "415", "422"),
}


def operations_toml(found: Mapping[str, tuple[Allowance, ...]], names: Iterable[str]) -> str:
    """One ``[[project.operations]]`` entry per operation of ``names`` that has allowances: each check's
    expected statuses, the defaults of fuzz/schemathesis.toml with the allowances' own."""
    blocks = []
    for name in names:
        if name not in found:
            continue
        lines = ["[[project.operations]]", f'include-operation-id = "{name}"']
        checks: dict[str, list[str]] = {}
        for allowance in found[name]:
            for check, statuses in allowance.statuses.items():
                merged = checks.setdefault(check, list(DEFAULTS[check]))
                merged.extend(s for s in statuses if s not in merged)
        for check, statuses in sorted(checks.items()):
            quoted = ", ".join(f'"{s}"' for s in statuses)
            lines.append(f"checks.{check}.expected-statuses = [{quoted}]")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"
