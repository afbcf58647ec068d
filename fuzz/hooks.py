"""schemathesis hooks of the fuzz run (fuzz/run.py sets ``SCHEMATHESIS_HOOKS`` to this module).

Two built-in checks run here, with the documented exceptions (docs/testing.md#what-no-document-can-say)
that no expected status can single out; fuzz/schemathesis.toml turns the built-in ones off:

- the negative-data check: a request that leaves out the required ``Idempotency-Key`` header of an
  operation whose body may carry the key instead, and carries it there, is accepted as documented (an
  expected status would allow a 2xx to every negative request of the operation); so is one whose only
  negation is a header the operation does not declare, which HTTP has a server ignore; and so is a
  migration call whose rows break their rules, each such row reported failed in the answer (a bad row
  fails alone, the others apply);
- the positive-data check: a request labelled valid whose query value breaks its parameter's own pattern
  is not valid data, and its 400 is right (an expected status would allow a 400 to every valid request).
"""

from __future__ import annotations

from typing import Any

import schemathesis
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

from fuzz.allowances import (
    ROW_BY_ROW,
    allowances,
    body_key_operations,
    breaks_its_pattern,
    each_bad_row_failed_alone,
    key_in_body_only,
    only_an_undeclared_header,
)
from tests import installed as routes

BODY_KEY_OPERATIONS = body_key_operations(allowances(routes.ALL))
ROW_BY_ROW_ROUTES = {route.name: route for route in routes.ALL if route.name in ROW_BY_ROW}


@schemathesis.check
def negative_data_rejection_but_a_key_in_the_body(ctx: Any, response: Any, case: Any) -> bool | None:
    data = case.meta.phase.data if case.meta is not None else None
    location = getattr(getattr(data, "parameter_location", None), "value", None)
    negated = (getattr(data, "parameter", None), location)
    operation = case.operation.definition.raw.get("operationId")
    accepted = 200 <= response.status_code < 300
    if (
        accepted
        and operation in BODY_KEY_OPERATIONS
        and key_in_body_only(negated, case.headers or {}, case.body)
    ):
        return None
    declared = {p.name: p.definition.get("schema", {}) for p in case.operation.headers}
    description = getattr(data, "description", None) or ""
    if accepted and only_an_undeclared_header(negated, description, case.headers or {}, declared):
        return None
    route = ROW_BY_ROW_ROUTES.get(operation)
    if accepted and route is not None and each_bad_row_failed_alone(route, case.body, response.json()):
        return None
    result: bool | None = negative_data_rejection(ctx, response, case)
    return result


@schemathesis.check
def positive_data_acceptance_of_valid_data(ctx: Any, response: Any, case: Any) -> bool | None:
    parameters = [(p.name, p.definition.get("schema", {})) for p in case.operation.query]
    if response.status_code == 400 and breaks_its_pattern(parameters, case.query or {}):
        return None
    result: bool | None = positive_data_acceptance(ctx, response, case)
    return result
