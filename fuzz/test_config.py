"""fuzz/schemathesis.toml still fits the documents and the manifest: schemathesis only warns about a
project title, an operation id or a parameter that no longer exists, and would then fuzz without keys, or
rotate the fuzzed player's secret, and pass."""

from __future__ import annotations

import tomllib
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from fuzz.allowances import (
    ROW_BY_ROW,
    TWO_VALUES,
    allowances,
    body_key_operations,
    breaks_its_pattern,
    each_bad_row_failed_alone,
    key_in_body_only,
    only_an_undeclared_header,
)
from fuzz.run import CONFIG, MANIFEST, MEMBER, PLAYERS
from livecore.api.openapi import DOCUMENTED_SURFACES, build_document
from livecore.api.route import Surface
from livecore.live_events.rules import EventState, state
from livecore.live_events.settings import EVENT_SETTINGS
from livecore_server.manifest import load_manifest
from tests import installed as routes

CONFIGURED: dict[str, Any] = tomllib.loads(CONFIG.read_text())
DOCUMENTS = {
    doc["info"]["title"]: doc
    for doc in (build_document(s, routes.ALL, version="test") for s in DOCUMENTED_SURFACES)
}


def operations(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        op["operationId"]: op
        for item in doc["paths"].values()
        for method, op in item.items()
        if method != "parameters"
    }


def parameter_names(doc: dict[str, Any], op: dict[str, Any]) -> set[str]:
    names = set()
    for param in op.get("parameters", []):
        if "$ref" in param:
            param = doc["components"]["parameters"][param["$ref"].rsplit("/", 1)[1]]
        names.add(f"{param['in']}.{param['name']}")
    # A body's top-level fields, which a dictionary may fill (``body.name``).
    body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
    if "$ref" in body:
        body = doc["components"]["schemas"][body["$ref"].rsplit("/", 1)[1]]
    names |= {f"body.{field}" for field in body.get("properties", {})}
    return names


@pytest.mark.parametrize("project", CONFIGURED["project"], ids=lambda p: p["title"])
def test_every_project_names_a_document_and_its_operations(project: dict[str, Any]) -> None:
    doc = DOCUMENTS[project["title"]]
    ops = operations(doc)
    for configured in project.get("operations", []):
        op = ops[configured["include-operation-id"]]
        assert set(configured.get("parameters", {})) <= parameter_names(doc, op)
    fixed = {k for k, v in project["parameters"].items() if isinstance(v, str)}
    assert fixed <= set().union(*(parameter_names(doc, op) for op in ops.values()))


def test_every_document_has_a_project() -> None:
    assert {p["title"] for p in CONFIGURED["project"]} == set(DOCUMENTS)


def test_the_names_in_the_config_are_the_run_s() -> None:
    manifest = tomllib.loads(MANIFEST.read_text())
    assert set(CONFIGURED["dictionaries"]["studios"]["values"]) == {manifest["studio"], *manifest["games"]}
    assert MEMBER in manifest["members"]
    resources = manifest["games"]["fuzz"]["resources"]
    dictionaries = CONFIGURED["dictionaries"]
    assert set(dictionaries["currencies"]["values"]) <= {
        k for k, r in resources.items() if r["type"] == "currency"
    }
    assert set(dictionaries["items"]["values"]) <= {k for k, r in resources.items() if r["type"] == "item"}
    events = set(manifest["games"]["fuzz"]["events"])
    assert set(dictionaries["events"]["values"]) <= events
    assert {
        v
        for project in CONFIGURED["project"]
        for o in project.get("operations", [])
        for name, v in o.get("parameters", {}).items()
        if name == "path.eventKey"
    } <= events
    assert set(dictionaries["leaderboards"]["values"]) <= set(manifest["games"]["fuzz"]["leaderboards"])
    named = {
        v
        for project in CONFIGURED["project"]
        for params in [
            project["parameters"],
            *(o.get("parameters", {}) for o in project.get("operations", [])),
        ]
        for name, v in params.items()
        if isinstance(v, str) and name.lower().endswith("externalid")
    }
    assert named | set(dictionaries["friends"]["values"]) <= set(PLAYERS)


def test_the_fuzz_event_is_open_at_every_instant() -> None:
    """Its windows follow each other, so the fuzzed player's starts meet an open window whenever the run
    happens, midnight included."""
    event = load_manifest(MANIFEST).games["fuzz"].settings().of(EVENT_SETTINGS)["sprint"]
    day = datetime(2031, 5, 17, tzinfo=UTC)
    for at in (day, day - timedelta(milliseconds=1), day + timedelta(hours=13), datetime.now(UTC)):
        assert state(event, at) is EventState.OPEN, at


def test_a_lobby_push_with_more_players_than_its_capacity_is_an_allowed_refusal() -> None:
    """The players and the capacity are two values: no schema says the one bounds the other."""
    found = allowances(routes.ALL)
    assert TWO_VALUES in found["server.lobbies.push"]
    assert "more players than its `capacity`" in TWO_VALUES.rule


def test_a_credit_with_its_key_in_the_body_only_is_the_one_negative_request_allowed_a_2xx() -> None:
    """The header is marked required, the body's ``idempotencyKey`` documented as its alternative: a request
    without the header but with the body's key is accepted, as documented; the built-in negative-data check
    is off (fuzz/schemathesis.toml) for fuzz/hooks.py's, which allows exactly that request."""
    assert CONFIGURED["checks"]["negative_data_rejection"] == {"enabled": False}
    found = allowances(routes.ALL)
    assert "server.wallet.credit" in body_key_operations(found)
    assert "server.purchases.track" not in body_key_operations(found)  # the header only
    missing = ("Idempotency-Key", "header")
    key = {"amount": 1, "idempotencyKey": "k-1"}
    assert key_in_body_only(missing, {"Authorization": "Bearer x"}, key)
    assert not key_in_body_only(missing, {"Authorization": "Bearer x"}, {"amount": 1})
    assert not key_in_body_only(missing, {"idempotency-key": "k-2"}, key)
    assert not key_in_body_only(missing, {}, {"amount": 1, "idempotencyKey": 7})
    assert not key_in_body_only(("amount", "body"), {}, key)
    assert not key_in_body_only(("Authorization", "header"), {}, key)
    assert not key_in_body_only((None, None), {}, key)


def test_a_query_value_outside_its_parameters_pattern_is_the_one_valid_labelled_request_allowed_a_400() -> (
    None
):
    """The coverage phase labels valid some query values that break their parameter's own pattern (a C1
    control character in a guild search); the positive-data check is fuzz/hooks.py's, which lets the
    service refuse those alone."""
    assert CONFIGURED["checks"]["positive_data_acceptance"] == {"enabled": False}
    document = build_document(Surface.SERVER, routes.ALL, version="test")
    query = [
        (p["name"], p["schema"])
        for p in document["paths"]["/server/v1/guilds"]["get"]["parameters"]
        if "name" in p
    ]
    assert breaks_its_pattern(query, {"q": "\x84"})
    assert breaks_its_pattern(query, {"q": "ok", "player": "\u00d7\u00f8\u009b"})
    assert not breaks_its_pattern(query, {"q": "Raiders", "player": "ana", "limit": "20"})
    assert not breaks_its_pattern(query, {})


def test_a_header_the_operation_does_not_declare_is_the_one_header_negation_allowed_a_2xx() -> None:
    """The coverage phase marks the path negated although it sends the run's own path values, so
    schemathesis's own skip of an undeclared header misses those requests; fuzz/hooks.py allows a 2xx to a
    request whose one negation is such a header, every declared header it sends being valid."""
    document = build_document(Surface.SDK, routes.ALL, version="test")
    sdk = document["components"]["parameters"]["XSvcSdk"]
    declared = {sdk["name"]: sdk["schema"], "X-Svc-Platform": {"type": "string", "minLength": 1}}
    negated = (None, "header")
    unexpected = "Object with unexpected properties"
    extra = {"X-Svc-SDK": "", "x-schemathesis-unknown-property": "42"}
    assert only_an_undeclared_header(negated, unexpected, extra, declared)
    assert not only_an_undeclared_header(negated, unexpected, {**extra, "X-Svc-Platform": ""}, declared)
    assert not only_an_undeclared_header(negated, unexpected, {"X-Svc-SDK": "sdk/1"}, declared)
    assert not only_an_undeclared_header(negated, "Invalid value", extra, declared)
    assert not only_an_undeclared_header((None, "query"), unexpected, extra, declared)


def test_a_migration_row_breaking_its_rules_is_allowed_a_2xx_only_when_the_answer_fails_it() -> None:
    """A bad row fails alone (docs/player-tools.md#migration): a call whose one bad row (an id longer than
    its bound) the answer reports failed is rightly accepted; one whose bad row it does not report, or
    that has no bad row, is not."""
    (route,) = [r for r in routes.ALL if r.name == "server.migrate.inventory"]
    assert {r.name for r in routes.ALL} >= ROW_BY_ROW
    good = {"externalPlayerId": "p1", "idempotencyKey": "k1", "itemKey": "sword", "quantity": 1}
    bad = {**good, "externalPlayerId": "p" * 500, "idempotencyKey": "k2"}

    def answer(*indexes: int) -> dict[str, Any]:
        failures = [
            {"index": i, "idempotencyKey": "k", "code": "invalid_request", "message": ""} for i in indexes
        ]
        return {
            "data": {"applied": 2 - len(indexes), "replayed": 0, "failed": len(indexes), "failures": failures}
        }

    assert each_bad_row_failed_alone(route, {"rows": [good, bad]}, answer(1))
    assert not each_bad_row_failed_alone(route, {"rows": [good, bad]}, answer())
    assert not each_bad_row_failed_alone(route, {"rows": [good, bad]}, answer(0))
    assert not each_bad_row_failed_alone(route, {"rows": [good, good]}, answer(1))
