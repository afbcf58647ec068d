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
    """Cryptographically secure; what the server uses for secrets (at least 256 bits:
    docs/reference/manifest-and-cli.md#secrets).

    Reads the OS CSPRNG 4 KiB at a time and hands out slices: a write mints several ids, and one system
    call per id was a measurable part of it. Each byte is handed out once."""

    _CHUNK = 4096

    def __init__(self) -> None:
        self._buffer = b""
        self._pos = 0

    def token_bytes(self, n: int) -> bytes:
        if self._pos + n > len(self._buffer):
            self._buffer = secrets.token_bytes(max(self._CHUNK, n))
            self._pos = 0
        out = self._buffer[self._pos : self._pos + n]
        self._pos += n
        return out

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
