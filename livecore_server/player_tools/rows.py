"""The player tools' rows: a merge and an erasure are each kept in their declared table (:data:`MERGE`,
:data:`ERASURE`: the insert, the values written and how a row is read back,
:class:`~livecore_server.storage.mapped.Mapped`)."""

from __future__ import annotations

from livecore.player_tools.erasure import ErasureRecord
from livecore.player_tools.merge import MergeRecord
from livecore_server.player_tools.schema import SCHEMA
from livecore_server.storage.mapped import Mapped

MERGE = Mapped(SCHEMA.table("merges"), MergeRecord)
ERASURE = Mapped(SCHEMA.table("erasures"), ErasureRecord)
