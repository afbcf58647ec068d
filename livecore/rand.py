"""Randomness passed in. The server uses :class:`SystemRandomSource` (the OS CSPRNG); a simulation or a
test uses :class:`SeededRandomSource` and replays exactly."""

from __future__ import annotations

import random
import secrets
from typing import Protocol


class RandomSource(Protocol):
    def token_bytes(self, n: int) -> bytes:
        """``n`` unpredictable bytes (secrets, keys, ids)."""
        ...

    def random(self) -> float:
        """A float in [0, 1) for weighted choices."""
        ...


class SystemRandomSource:
    """Cryptographically secure; what the server uses for secrets (DECISIONS 6: at least 256 bits)."""

    def token_bytes(self, n: int) -> bytes:
        return secrets.token_bytes(n)

    def random(self) -> float:
        return secrets.SystemRandom().random()


class SeededRandomSource:
    """Deterministic, for simulations and tests; never for a deployed server."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def token_bytes(self, n: int) -> bytes:
        return self._rng.randbytes(n)

    def random(self) -> float:
        return self._rng.random()
