"""What the built-in areas add to the wire records of the areas they build on, declared as their modules
load: the crates' kind of grant and entry type ``crate`` (:mod:`livecore.crates.rules`), which any grant's
entries may hold, and the gifts' field of the friend row, ``giftCooldownUntil`` (:mod:`livecore.gifts.api`).

A server loads them with every area (:mod:`livecore.areas`), which a client does not load
(docs/client.md#what-a-client-alone-reads). Each client (through :mod:`livecore_client._client`) and
:mod:`livecore_client.webhooks` import this module, so that they read answers and deliveries as the server
wrote them whichever of the areas' modules the process loaded besides."""

from livecore.crates.rules import CRATE
from livecore.gifts.api import GIFT_ROW

__all__ = ["CRATE", "GIFT_ROW"]
