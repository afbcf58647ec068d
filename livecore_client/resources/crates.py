"""Crates: opening a crate grant, ``sdk.grants.open_crate``, its route's builder
(:mod:`livecore.crates.calls`) sent over HTTP. The crates' call joins the grants' on the grants resource
(:class:`Grants`, which the SDK clients bind as ``grants``)."""

from __future__ import annotations

from livecore.crates.calls import CratesCalls

from .._client import async_method, sync_method
from . import grants

__all__ = ["AsyncGrants", "Grants"]


class Grants(grants.Grants, CratesCalls):
    """``sdk.grants``: the ``/sdk/v1`` grant calls, and opening a crate grant."""

    open_crate = sync_method(CratesCalls._open_crate)


class AsyncGrants(grants.AsyncGrants, CratesCalls):
    """The methods of :class:`Grants`, awaited."""

    open_crate = async_method(CratesCalls._open_crate)
