"""The server key and what is derived from it (docs/reference/manifest-and-cli.md#secrets).

The server key lives outside the database: environment variable ``LIVECORE_SECRET_KEY`` (base64 of at
least 32 bytes), else a key file created on first use beside a SQLite database (``<db>.key``, mode 0600)
or ``livecore.key`` in the working directory for PostgreSQL. Independent keys are derived from it with
HKDF: one for the keyed hashes of API keys and player secrets, one for AES-256-GCM encryption of webhook
signing secrets (which the service must read back to sign), one for the answers kept under idempotency
keys (a register's answer holds the player's secret), and a check value the database keeps, so that a
process started with another key is refused instead of answering 401 to every key
(docs/deployment.md#the-server-key).
"""

from __future__ import annotations

import base64
import binascii
import hmac
import os
from pathlib import Path
from typing import TYPE_CHECKING

import attrs
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from livecore.hashing import KeyedHasher

if TYPE_CHECKING:
    from livecore_server.storage.server_store import ServerStore, ServerTransaction

ENV_VAR = "LIVECORE_SECRET_KEY"
# The row of table server_meta holding the check value of the database's server key.
KEY_CHECK = "server_key_check"
# The first byte of a sealed idempotency answer. An answer stored before answers were sealed is its JSON
# text, which starts with "{".
SEALED = b"\x01"


class ServerKeyError(RuntimeError):
    pass


@attrs.frozen
class ServerKey:
    """The server key and where it came from (for the messages that name it)."""

    master: bytes
    source: str
    # The key file this process just created: a new key, not yet the database's.
    created: Path | None = None


def key_file_for(db_path: str | None) -> Path:
    return Path(f"{db_path}.key") if db_path else Path("livecore.key")


def load_server_key(db_path: str | None, key_file: str | None = None) -> ServerKey:
    raw = os.environ.get(ENV_VAR)
    if raw:
        try:
            key = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4))
        except (binascii.Error, ValueError):
            raise ServerKeyError(f"{ENV_VAR} is not valid base64") from None
        if len(key) < 32:
            raise ServerKeyError(f"{ENV_VAR} must decode to at least 32 bytes")
        return ServerKey(key, ENV_VAR)
    path = Path(key_file) if key_file else key_file_for(db_path)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_bytes()
        if len(key) < 32:
            raise ServerKeyError(f"key file {path} is damaged (shorter than 32 bytes)") from None
        return ServerKey(key, f"the key file {path}")
    key = os.urandom(32)
    with os.fdopen(fd, "wb") as fh:
        fh.write(key)
    return ServerKey(key, f"the key file {path}", created=path)


def _derive(master: bytes, purpose: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"livecore/" + purpose).derive(master)


def _seal(aead: AESGCM, plaintext: bytes, context: str) -> bytes:
    """AES-GCM with a random nonce; ``context`` is bound as associated data, so a ciphertext copied onto
    another row does not decrypt."""
    nonce = os.urandom(12)
    return nonce + aead.encrypt(nonce, plaintext, context.encode())


def _open(aead: AESGCM, blob: bytes, context: str) -> bytes:
    return aead.decrypt(blob[:12], blob[12:], context.encode())


class ServerKeys:
    def __init__(self, master: bytes) -> None:
        self.hasher = KeyedHasher(_derive(master, b"hash/v1"))
        self._aead = AESGCM(_derive(master, b"webhook-secret/v1"))
        self._answers = AESGCM(_derive(master, b"idempotency-answer/v1"))
        # HKDF outputs for different purposes are independent: this value tells nothing of the others.
        self.check_value = _derive(master, b"key-check/v1").hex()

    def encrypt(self, plaintext: str, *, context: str) -> bytes:
        """A webhook signing secret, bound to its endpoint id (``context``)."""
        return _seal(self._aead, plaintext.encode(), context)

    def decrypt(self, blob: bytes, *, context: str) -> str:
        return _open(self._aead, blob, context).decode()

    def seal_answer(self, body: bytes, *, context: str) -> bytes:
        """An answer kept under an idempotency key, bound to its scope and key (``context``)."""
        return SEALED + _seal(self._answers, body, context)

    def open_answer(self, stored: bytes, *, context: str) -> bytes:
        if stored[:1] != SEALED:
            return stored  # stored in clear by an earlier version (and kept at most 24 hours)
        return _open(self._answers, stored[1:], context)


def check_server_key(store: ServerStore, key: ServerKey, keys: ServerKeys, now_ms: int) -> None:
    """Refuse a server key other than the one the database's secrets were made under. A database without
    a check value takes this key's (a new database, or one from before the check existed), unless this
    process has just created its key file while the database already holds API keys: those were made
    under a key this process does not have."""

    def matches(tx: ServerTransaction) -> bool:
        stored = tx.meta.get(KEY_CHECK)
        if stored is None:
            if key.created is not None and tx.keys.any_key():
                return False
            stored = tx.meta.put_new(KEY_CHECK, keys.check_value, now_ms)
        return hmac.compare_digest(stored, keys.check_value)

    if store.run(matches):
        return
    if key.created is not None:
        key.created.unlink(missing_ok=True)  # a new key is no use to this database: leave no stray file
    raise ServerKeyError(key_mismatch(key))


def key_mismatch(key: ServerKey) -> str:
    """One line saying which key was refused and what to do."""
    if key.created is not None:
        return (
            f"no server key for this database: {key.created} did not exist, and the database holds API keys"
            f" made under another key. Copy the database's key file to {key.created}, or set {ENV_VAR} to"
            " its key (docs/deployment.md#the-server-key)."
        )
    return (
        f"wrong server key for this database: {key.source} is not the key its API keys, player secrets and"
        f" webhook secrets were made under. Use the database's own key ({ENV_VAR} or its key file;"
        " docs/deployment.md#the-server-key)."
    )
