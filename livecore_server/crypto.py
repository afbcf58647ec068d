"""The server key ring and what is derived from it (docs/reference/manifest-and-cli.md#secrets).

The server key lives outside the database: environment variable ``LIVECORE_SECRET_KEY`` (base64 of at
least 32 bytes), else a key file created on first use beside a SQLite database (``<db>.key``, mode 0600)
or ``livecore.key`` in the working directory for PostgreSQL. Independent keys are derived from it with
HKDF: one for the keyed hashes of API keys and player secrets, one for AES-256-GCM encryption of webhook
signing secrets (which the service must read back to sign), one for the answers kept under idempotency
keys (a register's answer holds the player's secret), and a check value the database keeps, so that a
process started with another key is refused instead of answering 401 to every key
(docs/deployment.md#the-server-key).

The key rotates (docs/server.md#rotating-the-server-key): a process holds a ring, its current key, which
encrypts and hashes everything new, and earlier (or coming) keys (``LIVECORE_PREVIOUS_SECRET_KEYS``, or
the ``previous`` lines of a key-ring file), which only read. Each encrypted value starts with the id of
the key that made it (:data:`KEYED`); a value from before key ids has none and is read under each ring
key. ``livecore-server rotate-server-key`` (:mod:`livecore_server.rotation`) re-encrypts every value
under the current key. Keyed hashes cannot be remade without their secrets: the hash keys of earlier
server keys are kept in the database sealed under the current one (:data:`RETIRED_HASH_KEYS`), so a
rotation locks no one out.
"""

from __future__ import annotations

import base64
import binascii
import enum
import hmac
import logging
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import attrs
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from livecore.hashing import KeyedHasher

if TYPE_CHECKING:
    from livecore_server.storage.server_store import ServerStore, ServerTransaction

ENV_VAR = "LIVECORE_SECRET_KEY"
# Earlier keys (and a key about to become current), comma-separated: read, never written under.
PREVIOUS_ENV_VAR = "LIVECORE_PREVIOUS_SECRET_KEYS"
# The row of table server_meta holding the check value of the database's server key.
KEY_CHECK = "server_key_check"
# The row holding the hash keys of the server keys before the current one, sealed under it.
RETIRED_HASH_KEYS = "server_retired_hash_keys"
# The row naming the key (its id, hex) a rotation that has not finished re-encrypts under.
ROTATING = "server_key_rotating"
# The first byte of a sealed idempotency answer from before key ids. An answer stored before answers were
# sealed is its JSON text, which starts with "{".
SEALED = b"\x01"
# The first byte of a value that names its key: KEYED, the key's id (KEY_ID_BYTES), nonce, ciphertext.
KEYED = b"\x02"
KEY_ID_BYTES = 4
# The first line of a key file that holds a ring; a key file without it is the key itself (32 raw bytes).
RING_HEADER = b"livecore server key ring\n"
# The most a key file may hold: a ring of hundreds of keys (a line is about 52 bytes).
KEY_FILE_MOST = 64 * 1024
_NONCE = 12

log = logging.getLogger(__name__)
# The key files this process has warned about (a command may read its key file twice).
_warned: set[Path] = set()


class ServerKeyError(RuntimeError):
    pass


class UnknownServerKey(ServerKeyError):
    """A value encrypted under a key this process's ring does not hold."""


class Purpose(enum.Enum):
    """What an encrypted value is, which picks the key derived for it and how its form without a key id
    looks."""

    SECRET = b"webhook-secret/v1"  # a secret read back (webhook signing secrets): nonce + ciphertext
    ANSWER = b"idempotency-answer/v1"  # an answer kept: SEALED + nonce + ciphertext, or clear JSON


@attrs.frozen
class ServerKey:
    """The server key ring and where it came from (for the messages that name it)."""

    master: bytes  # the current key
    source: str
    # The key file this process just created: a new key, not yet the database's.
    created: Path | None = None
    # The ring's other keys, which only read.
    previous: tuple[bytes, ...] = ()
    # The key file it was read from (None: the environment).
    file: Path | None = None


def key_file_for(db_path: str | None) -> Path:
    return Path(f"{db_path}.key") if db_path else Path("livecore.key")


def decode_key(text: str, where: str) -> bytes:
    """A key written as URL-safe base64 (padding optional), at least 32 bytes."""
    try:
        key = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ServerKeyError(f"{where} is not valid base64") from None
    if len(key) < 32:
        raise ServerKeyError(f"{where} must decode to at least 32 bytes")
    return key


def encode_key(key: bytes) -> str:
    return base64.urlsafe_b64encode(key).decode().rstrip("=")


def new_key() -> bytes:
    return os.urandom(32)


def _previous_from_env() -> tuple[bytes, ...]:
    raw = os.environ.get(PREVIOUS_ENV_VAR, "")
    parts = [part.strip() for part in raw.split(",") if part.strip()]
    return tuple(decode_key(part, f"{PREVIOUS_ENV_VAR} (key {n})") for n, part in enumerate(parts, 1))


def _unreadable(path: Path, exc: OSError) -> ServerKeyError:
    """What stops a key file from being read, in one line."""
    if path.is_symlink() and not path.exists():
        return ServerKeyError(f"key file {path} is a link to {os.readlink(path)}, which does not exist")
    if path.is_dir():
        return ServerKeyError(f"key file {path} is a directory, not a key file")
    return ServerKeyError(f"key file {path} cannot be read: {exc.strerror or exc}")


def _warn_if_open(path: Path, mode: int) -> None:
    """Warn once, as ssh does, about a key file that other users may read or change."""
    if mode & 0o077 and path not in _warned:
        _warned.add(path)
        log.warning(
            "key file %s is open to other users (mode %04o), who may read the server key: run chmod 600 %s",
            path,
            stat.S_IMODE(mode),
            path,
        )


def _read_key_file(path: Path) -> bytes:
    """The key file's bytes. Only a regular file is read, and only up to :data:`KEY_FILE_MOST`: a link
    to ``/dev/zero`` would otherwise be read until memory runs out, and a FIFO would block the command
    until something writes to it. Non-blocking, so that opening a FIFO returns at once; the kind of
    file is read from the open descriptor, so it cannot change between the check and the read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        raise _unreadable(path, exc) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise ServerKeyError(f"key file {path} is a directory, not a key file")
        link = f"a link to {os.readlink(path)}, " if path.is_symlink() else ""
        raise ServerKeyError(f"key file {path} is {link}{_kind(mode)}, not a key file (a regular file)")
    _warn_if_open(path, mode)
    with os.fdopen(fd, "rb") as fh:
        try:
            data = fh.read(KEY_FILE_MOST + 1)
        except OSError as exc:
            raise _unreadable(path, exc) from None
    if len(data) > KEY_FILE_MOST:
        raise ServerKeyError(f"key file {path} is larger than {KEY_FILE_MOST} bytes: not a key file")
    return data


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    for test, kind in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return kind
    return "a special file"


def _read_ring(path: Path) -> tuple[bytes, tuple[bytes, ...]]:
    data = _read_key_file(path)
    if not data.startswith(RING_HEADER):
        if len(data) < 32:
            raise ServerKeyError(f"key file {path} is damaged (shorter than 32 bytes)")
        return data, ()
    current: bytes | None = None
    previous: list[bytes] = []
    for n, line in enumerate(data[len(RING_HEADER) :].decode("ascii", "replace").splitlines(), 2):
        what, _, text = line.strip().partition(" ")
        if not what or what.startswith("#"):
            continue
        key = decode_key(text.strip(), f"key file {path}, line {n}")
        if what == "current" and current is None:
            current = key
        elif what == "previous":
            previous.append(key)
        else:
            raise ServerKeyError(f"key file {path}, line {n}: expected 'current KEY' once, or 'previous KEY'")
    if current is None:
        raise ServerKeyError(f"key file {path} is damaged (no 'current' key)")
    return current, tuple(previous)


def write_key_ring(path: Path, current: bytes, previous: Sequence[bytes] = ()) -> None:
    """Replace the key file at ``path`` with a ring (mode 0600), all at once: a crash leaves the old file
    or the new one, never a part. A link is written through: its target is replaced, and the link kept."""
    path = path.resolve(strict=True)
    lines = [RING_HEADER, f"current {encode_key(current)}\n".encode()]
    lines += [f"previous {encode_key(key)}\n".encode() for key in previous]
    staging = path.with_name(f".{path.name}.{os.getpid()}.new")
    # A file of our own, made now with mode 0600: one already there (left by a crash, or planted) keeps
    # its own mode through the rename, and would make the new ring readable by whoever it lets.
    try:
        fd = os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    except FileExistsError:
        raise ServerKeyError(
            f"{staging} is in the way of the new key file (left by a stopped run, or not ours): look at it,"
            " remove it and run the command again; nothing was changed"
        ) from None
    except OSError as exc:
        raise ServerKeyError(f"cannot write {staging}: {exc.strerror or exc}; nothing was changed") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(b"".join(lines))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(staging, path)
    except BaseException:
        staging.unlink(missing_ok=True)
        raise
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


def load_server_key(db_path: str | None, key_file: str | None = None) -> ServerKey:
    previous = _previous_from_env()
    raw = os.environ.get(ENV_VAR)
    if raw:
        return ServerKey(decode_key(raw, ENV_VAR), ENV_VAR, previous=previous)
    path = Path(key_file) if key_file else key_file_for(db_path)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        current, in_file = _read_ring(path)
        return ServerKey(current, f"the key file {path}", previous=in_file + previous, file=path)
    key = new_key()
    with os.fdopen(fd, "wb") as fh:
        fh.write(key)
    return ServerKey(key, f"the key file {path}", created=path, previous=previous, file=path)


def _derive(master: bytes, purpose: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"livecore/" + purpose).derive(master)


def key_id(master: bytes) -> bytes:
    """The id an encrypted value names its key by: public, and telling nothing of the key (an HKDF
    output of its own)."""
    return _derive(master, b"key-id/v1")[:KEY_ID_BYTES]


def _seal(aead: AESGCM, plaintext: bytes, context: str) -> bytes:
    """AES-GCM with a random nonce; ``context`` is bound as associated data, so a ciphertext copied onto
    another row does not decrypt."""
    nonce = os.urandom(_NONCE)
    return nonce + aead.encrypt(nonce, plaintext, context.encode())


def _open(aead: AESGCM, blob: bytes, context: str) -> bytes:
    return aead.decrypt(blob[:_NONCE], blob[_NONCE:], context.encode())


class _RingKey:
    __slots__ = ("aeads", "check", "hash_key", "id")

    def __init__(self, master: bytes) -> None:
        self.id = key_id(master)
        self.hash_key = _derive(master, b"hash/v1")
        self.aeads = {purpose: AESGCM(_derive(master, purpose.value)) for purpose in Purpose}
        # HKDF outputs for different purposes are independent: this value tells nothing of the others.
        self.check = _derive(master, b"key-check/v1").hex()


class ServerKeys:
    def __init__(
        self, master: bytes, previous: Sequence[bytes] = (), retired_hash_keys: Sequence[bytes] = ()
    ) -> None:
        self._ring = [_RingKey(master)] + [_RingKey(key) for key in dict.fromkeys(previous) if key != master]
        self._by_id = {key.id: key for key in self._ring}
        if len(self._by_id) < len(self._ring):
            raise ServerKeyError("two keys of the ring have the same key id: mint another key")
        self._current = self._ring[0]
        self.key_id = self._current.id
        self.check_value = self._current.check
        self._retired = tuple(dict.fromkeys(retired_hash_keys))
        self.hasher = self._hasher()

    def _hasher(self) -> KeyedHasher:
        return KeyedHasher(self._current.hash_key, *(key.hash_key for key in self._ring[1:]), *self._retired)

    @property
    def ring_size(self) -> int:
        return len(self._ring)

    @property
    def ring_ids(self) -> tuple[str, ...]:
        """The ids (hex) of the ring's keys, the current one first."""
        return tuple(key.id.hex() for key in self._ring)

    def holds(self, check_value: str) -> bool:
        """Whether ``check_value`` is that of a key of the ring."""
        return any(hmac.compare_digest(check_value, key.check) for key in self._ring)

    def encrypt(self, plaintext: str, *, context: str) -> bytes:
        """A webhook signing secret, bound to its endpoint id (``context``)."""
        return self.seal(plaintext.encode(), context=context, purpose=Purpose.SECRET)

    def decrypt(self, blob: bytes, *, context: str) -> str:
        return self.open(blob, context=context, purpose=Purpose.SECRET).decode()

    def seal_answer(self, body: bytes, *, context: str) -> bytes:
        """An answer kept under an idempotency key, bound to its scope and key (``context``)."""
        return self.seal(body, context=context, purpose=Purpose.ANSWER)

    def open_answer(self, stored: bytes, *, context: str) -> bytes:
        return self.open(stored, context=context, purpose=Purpose.ANSWER)

    def seal(self, plaintext: bytes, *, context: str, purpose: Purpose) -> bytes:
        """``plaintext`` encrypted under the current key, which the value names."""
        return KEYED + self._current.id + _seal(self._current.aeads[purpose], plaintext, context)

    def open(self, blob: bytes, *, context: str, purpose: Purpose) -> bytes:
        """What :meth:`seal` sealed under any key of the ring, or a value from before key ids. Raises
        :class:`UnknownServerKey` for a value under a key the ring does not hold, ``InvalidTag`` for
        one that is damaged or bound to another context."""
        if purpose is Purpose.ANSWER:
            if blob[:1] == KEYED:
                return self._open_keyed(blob, context, purpose)
            if blob[:1] != SEALED:
                return blob  # stored in clear by an earlier version (and kept at most 24 hours)
            return self._open_legacy(blob[1:], context, purpose)
        if blob[:1] == KEYED and blob[1 : 1 + KEY_ID_BYTES] in self._by_id:
            try:
                return self._open_keyed(blob, context, purpose)
            except InvalidTag:
                pass  # a value from before key ids whose nonce happens to start like a key id
        try:
            return self._open_legacy(blob, context, purpose)
        except InvalidTag:
            if blob[:1] == KEYED and blob[1 : 1 + KEY_ID_BYTES] not in self._by_id:
                raise self._unknown(blob) from None
            raise

    def under_current(self, blob: bytes, *, context: str, purpose: Purpose) -> bool:
        """Whether ``blob`` is sealed under the current key (opened to be sure)."""
        if blob[:1] != KEYED or blob[1 : 1 + KEY_ID_BYTES] != self._current.id:
            return False
        try:
            _open(self._current.aeads[purpose], blob[1 + KEY_ID_BYTES :], context)
        except InvalidTag:
            return False
        return True

    def _open_keyed(self, blob: bytes, context: str, purpose: Purpose) -> bytes:
        key = self._by_id.get(blob[1 : 1 + KEY_ID_BYTES])
        if key is None:
            raise self._unknown(blob)
        return _open(key.aeads[purpose], blob[1 + KEY_ID_BYTES :], context)

    def _open_legacy(self, blob: bytes, context: str, purpose: Purpose) -> bytes:
        # Before key ids there was one key; it may be any of the ring's now (current first).
        for key in self._ring:
            try:
                return _open(key.aeads[purpose], blob, context)
            except InvalidTag:
                continue
        raise InvalidTag()

    def _unknown(self, blob: bytes) -> UnknownServerKey:
        return UnknownServerKey(
            f"a value is encrypted under server key {blob[1 : 1 + KEY_ID_BYTES].hex()}, which this process's"
            f" key ring ({ENV_VAR}, {PREVIOUS_ENV_VAR} or the key file) does not hold"
            " (docs/server.md#rotating-the-server-key)"
        )

    # The hash keys of earlier server keys, kept in the database (RETIRED_HASH_KEYS).

    def earlier_hash_keys(self, stored: str | None) -> tuple[bytes, ...]:
        """The hash keys a rotation to the current key retires: those kept in ``stored`` (the
        RETIRED_HASH_KEYS row) and those of the ring's other keys."""
        kept = self.open_retired(stored)
        earlier = (*kept, *(key.hash_key for key in self._ring[1:]))
        return tuple(dict.fromkeys(k for k in earlier if k != self._current.hash_key))

    def seal_retired(self, hash_keys: Sequence[bytes]) -> str:
        return self.encrypt(b"".join(hash_keys).hex(), context=RETIRED_HASH_KEYS).hex()

    def open_retired(self, stored: str | None) -> tuple[bytes, ...]:
        if not stored:
            return ()
        raw = bytes.fromhex(self.decrypt(bytes.fromhex(stored), context=RETIRED_HASH_KEYS))
        return tuple(raw[i : i + 32] for i in range(0, len(raw), 32))

    def take_retired(self, stored: str | None) -> None:
        """Check earlier keys' hashes too: the database's RETIRED_HASH_KEYS row (``stored``)."""
        self._retired = tuple(dict.fromkeys((*self._retired, *self.open_retired(stored))))
        self.hasher = self._hasher()


def check_server_key(store: ServerStore, key: ServerKey, keys: ServerKeys, now_ms: int) -> None:
    """Refuse a key ring that does not hold the key the database's secrets were made under. A database
    without a check value takes the current key's (a new database, or one from before the check existed),
    unless this process has just created its key file while the database already holds API keys: those
    were made under a key this process does not have. Then ``keys`` takes the hash keys of the server
    keys before the database's (a rotation kept them), so that secrets hashed under them still work."""

    def matches(tx: ServerTransaction) -> tuple[bool, str | None]:
        stored = tx.meta.get(KEY_CHECK)
        if stored is None:
            if key.created is not None and tx.keys.any_key():
                return False, None
            stored = tx.meta.put_new(KEY_CHECK, keys.check_value, now_ms)
        return keys.holds(stored), tx.meta.get(RETIRED_HASH_KEYS)

    held, retired = store.run(matches)
    if held:
        try:
            keys.take_retired(retired)
        except (InvalidTag, ValueError):
            raise ServerKeyError(
                "the database's earlier hash keys do not open under this key ring: it is damaged"
            ) from None
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
    held = (
        f"{key.source} is not"
        if not key.previous
        else f"no key of the ring ({key.source} and earlier keys) is"
    )
    return (
        f"wrong server key for this database: {held} the key its API keys, player secrets and"
        f" webhook secrets were made under. Use the database's own key ({ENV_VAR} or its key file;"
        " docs/deployment.md#the-server-key)."
    )
