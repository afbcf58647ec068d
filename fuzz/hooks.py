"""schemathesis hooks of the fuzz run (fuzz/run.py sets ``SCHEMATHESIS_HOOKS`` to this module).

The negative-data check, with one documented exception (docs/testing.md#what-no-document-can-say): a
request that leaves out the required ``Idempotency-Key`` header of an operation whose body may carry the
key instead, and carries it there, is accepted as documented. An expected status cannot say this (it would
allow a 2xx to every negative request of the operation), so fuzz/schemathesis.toml turns the built-in check
off and this one runs it on every other request.
"""

from __future__ import annotations

from typing import Any

import schemathesis
from schemathesis.specs.openapi.checks import negative_data_rejection

from fuzz.allowances import allowances, body_key_operations, key_in_body_only
from livecore.api import routes

BODY_KEY_OPERATIONS = body_key_operations(allowances(routes.ALL))


@schemathesis.check
def negative_data_rejection_but_a_key_in_the_body(ctx: Any, response: Any, case: Any) -> bool | None:
    data = case.meta.phase.data if case.meta is not None else None
    location = getattr(getattr(data, "parameter_location", None), "value", None)
    negated = (getattr(data, "parameter", None), location)
    operation = case.operation.definition.raw.get("operationId")
    if (
        operation in BODY_KEY_OPERATIONS
        and 200 <= response.status_code < 300
        and key_in_body_only(negated, case.headers or {}, case.body)
    ):
        return None
    result: bool | None = negative_data_rejection(ctx, response, case)
    return result
