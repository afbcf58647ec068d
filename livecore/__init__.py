"""livecore: the pure rules of the live-ops service.

No I/O lives here: time comes in as a :class:`~livecore.clock.Clock`, randomness as a
:class:`~livecore.rand.RandomSource`, storage through the :class:`~livecore.store.Store` port.
"""

from livecore.errors import ErrorCode, LivecoreError

__version__ = "0.1.0"

__all__ = ["ErrorCode", "LivecoreError", "__version__"]
