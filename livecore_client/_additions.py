"""What the built-in areas add to the wire records of the areas they build on, declared as their modules
load: the crates' kind of grant and entry type ``crate`` (:mod:`livecore.crates.rules`), which any grant's
entries may hold, and the gifts' field of the friend row, ``giftCooldownUntil`` (:mod:`livecore.gifts.api`).

A server loads them with every area (:mod:`livecore.areas`), which a client does not load
(docs/client.md#what-a-client-alone-reads). Each client imports this module (through
:mod:`livecore_client._client`), so that it reads the answers as the server wrote them whichever of the
areas' modules the process loaded besides. :mod:`livecore_client.webhooks` imports the crates' entry class
alone: no payload holds a friend row, and a backend that only reads webhooks loads no route's models."""

from livecore.crates.rules import CRATE
from livecore.gifts.api import GIFT_ROW

__all__ = ["CRATE", "GIFT_ROW"]
