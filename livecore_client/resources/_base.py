"""The bases the area modules' builders share: the ``/sdk/v1`` and ``/server/v1`` ones
(:mod:`livecore.api.call`, which a simulation's actions use too). The ``/admin/v1`` one is the operators'
(:mod:`livecore_client.resources.operators`)."""

from __future__ import annotations

from livecore.api.call import SdkCalls, ServerCalls

__all__ = ["SdkCalls", "ServerCalls"]
