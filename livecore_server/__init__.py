"""livecore_server: the aiohttp reference server wrapping :mod:`livecore` behind ``/sdk/v1``,
``/server/v1`` and ``/admin/v1``, on embedded SQLite by default."""

from livecore import __version__

__all__ = ["__version__"]
