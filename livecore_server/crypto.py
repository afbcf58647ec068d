"""The server key and what is derived from it (docs/reference/manifest-and-cli.md#secrets).

The server key lives outside the database: environment variable ``LIVECORE_SECRET_KEY`` (base64 of at
least 32 bytes), else a key file created on first use beside a SQLite database (``<db>.key``, mode 0600)
or ``livecore.key`` in the working directory for PostgreSQL. Two independent keys are derived from it
with HKDF: one for the keyed hashes of API keys and player secrets, one for AES-256-GCM encryption of
webhook signing secrets (which the service must read back to sign).
"""

from __future__ import annotations

import base64
import binascii
import os
from pathlib import Path

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from livecore.hashing import KeyedHasher

ENV_VAR = "LIVECORE_SECRET_KEY"


class ServerKeyError(RuntimeError):
    pass


def key_file_for(db_path: str | None) -> Path:
    return Path(f"{db_path}.key") if db_path else Path("livecore.key")


def load_server_key(db_path: str | None, key_file: str | None = None) -> bytes:
    raw = os.environ.get(ENV_VAR)
    if raw:
        try:
            key = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4))
        except (binascii.Error, ValueError):
            raise ServerKeyError(f"{ENV_VAR} is not valid base64") from None
        if len(key) < 32:
            raise ServerKeyError(f"{ENV_VAR} must decode to at least 32 bytes")
        return key
    path = Path(key_file) if key_file else key_file_for(db_path)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_bytes()
        if len(key) < 32:
            raise ServerKeyError(f"key file {path} is damaged (shorter than 32 bytes)") from None
        return key
    key = os.urandom(32)
    with os.fdopen(fd, "wb") as fh:
        fh.write(key)
    return key


def _derive(master: bytes, purpose: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"livecore/" + purpose).derive(master)


class ServerKeys:
    def __init__(self, master: bytes) -> None:
        self.hasher = KeyedHasher(_derive(master, b"hash/v1"))
        self._aead = AESGCM(_derive(master, b"webhook-secret/v1"))

    def encrypt(self, plaintext: str, *, context: str) -> bytes:
        """AES-GCM with a random nonce; ``context`` (the endpoint id) is bound as associated data, so a
        ciphertext copied onto another row does not decrypt."""
        nonce = os.urandom(12)
        return nonce + self._aead.encrypt(nonce, plaintext.encode(), context.encode())

    def decrypt(self, blob: bytes, *, context: str) -> str:
        return self._aead.decrypt(blob[:12], blob[12:], context.encode()).decode()
