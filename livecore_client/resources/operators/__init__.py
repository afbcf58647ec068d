"""The operators area's client resources: the ``/admin/v1`` calls the admin clients
(:mod:`livecore_client.admin`) bind, one module per resource (``admin.players`` is :mod:`.players`), and
the bases a studio's own admin resource is built on (docs/client.md#your-own-resources): the builders'
:class:`AdminCalls` (:mod:`livecore.operators.calls`) and the clients' :class:`AdminSurface`."""

from livecore.operators.calls import AdminCalls

from .surface import AdminSurface, AsyncAdminSurface

__all__ = ["AdminCalls", "AdminSurface", "AsyncAdminSurface"]
