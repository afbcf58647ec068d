"""An operator route's request, as its handler sees it: the core's request
(:class:`livecore.api.request.Request`) with the member acting, the client's address (both audited,
:mod:`livecore.operators.audit`) and the areas the service serves. The server's request
(``livecore_server.http.endpoint.Call``) is one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from livecore.api.admin import AdminRequest
from livecore.operators.rules import Operator

if TYPE_CHECKING:
    from livecore.area import Area

BodyT = TypeVar("BodyT", covariant=True)
QueryT = TypeVar("QueryT", covariant=True)


class Served(Protocol):
    """What an operator handler reads of the service beyond the store: the areas it serves (their webhook
    kinds and samples, a studio's own included)."""

    @property
    def areas(self) -> tuple[Area, ...]: ...


class OperatorRequest(AdminRequest[BodyT, QueryT], Protocol[BodyT, QueryT]):
    """One operator request: an admin request (:class:`livecore.api.admin.AdminRequest`) with the areas
    the service serves and the client's address, for the audit entry. ``OperatorRequest[ManualGrantRequest,
    EnvQuery]`` for a route whose body is a ``ManualGrantRequest`` and whose query an ``EnvQuery``
    (``tests/server/test_bindings.py`` checks the declarations against the routes)."""

    @property
    def services(self) -> Served: ...
    # The client's address, for the audit entry.
    @property
    def remote(self) -> str | None: ...


AnyOperatorRequest = OperatorRequest[Any, Any]


def operator_of(request: AnyOperatorRequest) -> Operator:
    """The member acting on an operator route (every one admits one before its handler runs)."""
    operator = request.operator
    assert isinstance(operator, Operator), request.route.name
    return operator
