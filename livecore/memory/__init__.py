"""In-memory store: the store ports on plain dicts, for simulations and tests (one module per port)."""

from livecore.memory.store import MemoryStore, MemoryTransaction

__all__ = ["MemoryStore", "MemoryTransaction"]
