"""The client's exception classes are the core's (livecore/exceptions.py), so an embedded simulation and a
client raise one class for one code; and what a client reads from the server's error envelope is what
``api_error`` gives for the same refusal."""

from __future__ import annotations

import sys

import orjson
import pytest

import livecore.exceptions
import livecore_client
import livecore_client.errors
from livecore import registry
from livecore.errors import Code, LivecoreError
from livecore.exceptions import LivecoreAPIError, api_error
from livecore_client.errors import error_from_response
from livecore_server.http.envelope import error_body

TRANSPORT = {"APIConnectionError", "APIResponseValidationError", "APITimeoutError", "error_from_response"}


def _core_classes() -> dict[str, type[LivecoreAPIError]]:
    """Every refusal class of the core: the status families and generic codes' (livecore/exceptions.py) and
    each area's, registered by the code it declares (``livecore/<area>/errors.py``)."""
    families = {
        name: value
        for name, value in vars(livecore.exceptions).items()
        if isinstance(value, type) and issubclass(value, LivecoreAPIError)
    }
    return families | {cls.__name__: cls for cls in livecore.exceptions._BY_CODE.values()}


def test_the_client_names_are_the_core_classes() -> None:
    core = _core_classes()
    helpers = {"LivecoreClientError", "retry_after_seconds"}
    assert set(livecore_client.errors.__all__) == core.keys() | helpers | TRANSPORT
    for name, cls in core.items():
        assert getattr(livecore_client.errors, name) is cls, name
        assert getattr(livecore_client, name) is cls, name
    assert livecore_client.errors._BY_CODE is livecore.exceptions._BY_CODE
    assert livecore_client.errors.error_class is livecore.exceptions.error_class


def test_every_refusal_class_is_exported_by_the_client() -> None:
    assert _core_classes().keys() <= set(livecore_client.__all__)


def test_every_code_s_class_is_declared_beside_its_code() -> None:
    """An area's exception lives in its package, beside its codes, and is in that module's ``__all__``, which
    is what the client exports; the shared module holds the families and the generic codes' classes."""
    for code, cls in livecore.exceptions._BY_CODE.items():
        module = sys.modules[cls.__module__]
        if cls.__module__ != "livecore.exceptions":
            assert cls.__module__.endswith(".errors"), (code, cls.__module__)
            assert cls.__name__ in module.__all__, cls


def test_transport_errors_stay_in_the_client() -> None:
    assert issubclass(livecore_client.APIConnectionError, livecore.exceptions.LivecoreClientError)
    assert livecore_client.APIConnectionError.__module__ == "livecore_client.errors"


@pytest.mark.parametrize("code", registry.error_codes(registry.installed()), ids=str)
def test_the_answered_and_the_embedded_refusal_agree(code: Code) -> None:
    err = LivecoreError(
        code, "Refused.", {"cooldownUntil": "2026-03-02T12:00:00.000Z"}, headers={"Retry-After": "4"}
    )
    body = error_body(err)
    answered = error_from_response(err.status, err.headers, orjson.loads(body), body.decode())
    embedded = api_error(err)
    assert type(answered) is type(embedded)
    assert (answered.status, answered.code, answered.message, answered.details) == (
        embedded.status,
        embedded.code,
        embedded.message,
        embedded.details,
    )
    assert answered.headers["retry-after"] == embedded.headers["retry-after"] == "4"
    assert vars(answered).keys() == vars(embedded).keys()
    typed = vars(embedded).keys() - {"status", "code", "message", "details", "headers", "request_id"}
    assert {name: getattr(answered, name) for name in typed} == {
        name: getattr(embedded, name) for name in typed
    }
