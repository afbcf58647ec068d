"""The bases the area modules' builders share: the ``/sdk/v1`` and ``/server/v1`` ones
(:mod:`livecore.api.call`, which a simulation's actions use too) and the ``/admin/v1`` one
(:mod:`livecore.operators.calls`)."""

from __future__ import annotations

from livecore.api.call import SdkCalls, ServerCalls
from livecore.operators.calls import AdminCalls

__all__ = ["AdminCalls", "SdkCalls", "ServerCalls"]
