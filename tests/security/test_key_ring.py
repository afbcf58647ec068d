"""The server key ring (livecore_server/crypto.py): values sealed under one key of the ring read under
any ring that holds it, values from before key ids read under the key they were made with wherever it
sits in the ring, a value under a key the ring lacks is a clear error, and hashes made under an earlier
key still check once the key itself is gone (the database keeps its hash key)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from livecore_server.crypto import (
    ENV_VAR,
    KEYED,
    PREVIOUS_ENV_VAR,
    SEALED,
    Purpose,
    ServerKeyError,
    ServerKeys,
    UnknownServerKey,
    _derive,
    _seal,
    encode_key,
    key_id,
    load_server_key,
    write_key_ring,
)

OLD, NEW, OTHER = os.urandom(32), os.urandom(32), os.urandom(32)


def legacy_secret(master: bytes, secret: str, context: str) -> bytes:
    """A webhook signing secret as versions before key ids stored it: nonce and ciphertext. Its random
    nonce starts like a keyed value's one time in 256; that case has a test of its own (the lookalike
    below), so this one is drawn again then, and a test of it never depends on the draw."""
    while True:
        blob = _seal(AESGCM(_derive(master, Purpose.SECRET.value)), secret.encode(), context)
        if blob[:1] != KEYED:
            return blob


def legacy_answer(master: bytes, body: bytes, context: str) -> bytes:
    return SEALED + _seal(AESGCM(_derive(master, Purpose.ANSWER.value)), body, context)


def test_a_value_names_its_key_and_reads_under_every_ring_that_holds_it() -> None:
    blob = ServerKeys(NEW, [OLD]).encrypt("whsec_x", context="wh_1")
    assert blob[:1] == KEYED and blob[1:5] == key_id(NEW)
    for ring in (
        ServerKeys(NEW),
        ServerKeys(NEW, [OLD]),
        ServerKeys(OLD, [NEW]),
        ServerKeys(OTHER, [OLD, NEW]),
    ):
        assert ring.decrypt(blob, context="wh_1") == "whsec_x"
    answer = ServerKeys(OLD, [NEW]).seal_answer(b'{"a":1}', context="s\x00k")
    assert ServerKeys(NEW, [OLD]).open_answer(answer, context="s\x00k") == b'{"a":1}'
    # Still bound to its context, whichever key.
    with pytest.raises(InvalidTag):
        ServerKeys(NEW, [OLD]).decrypt(blob, context="wh_2")


def test_a_value_under_a_key_the_ring_lacks_is_a_clear_error() -> None:
    blob = ServerKeys(NEW).encrypt("whsec_x", context="wh_1")
    with pytest.raises(UnknownServerKey, match=f"server key {key_id(NEW).hex()}.*does not hold"):
        ServerKeys(OLD).decrypt(blob, context="wh_1")
    answer = ServerKeys(NEW).seal_answer(b"{}", context="c")
    with pytest.raises(UnknownServerKey, match=key_id(NEW).hex()):
        ServerKeys(OLD, [OTHER]).open_answer(answer, context="c")
    assert issubclass(UnknownServerKey, ServerKeyError)  # the CLI's one-line refusal


def test_values_from_before_key_ids_read_under_their_key_wherever_it_sits_in_the_ring() -> None:
    secret = legacy_secret(OLD, "whsec_legacy", "wh_1")
    answer = legacy_answer(OLD, b'{"x":2}', "s\x00k")
    for ring in (ServerKeys(OLD), ServerKeys(NEW, [OLD]), ServerKeys(OTHER, [NEW, OLD])):
        assert ring.decrypt(secret, context="wh_1") == "whsec_legacy"
        assert ring.open_answer(answer, context="s\x00k") == b'{"x":2}'
        assert ring.open_answer(b'{"clear":true}', context="s\x00k") == b'{"clear":true}'
    with pytest.raises(InvalidTag):
        ServerKeys(NEW).decrypt(secret, context="wh_1")
    # A legacy value whose random nonce happens to start like a value naming a key of the ring still
    # reads (under the key that made it).
    nonce = KEYED + key_id(NEW) + os.urandom(7)
    lookalike = nonce + AESGCM(_derive(OLD, Purpose.SECRET.value)).encrypt(nonce, b"whsec_legacy", b"wh_1")
    assert ServerKeys(NEW, [OLD]).decrypt(lookalike, context="wh_1") == "whsec_legacy"


def test_under_current_tells_what_a_rotation_has_left() -> None:
    keys = ServerKeys(NEW, [OLD])
    assert keys.under_current(keys.encrypt("s", context="c"), context="c", purpose=Purpose.SECRET)
    assert not keys.under_current(
        ServerKeys(OLD, [NEW]).encrypt("s", context="c"), context="c", purpose=Purpose.SECRET
    )
    assert not keys.under_current(legacy_secret(NEW, "s", "c"), context="c", purpose=Purpose.SECRET)
    assert not keys.under_current(keys.encrypt("s", context="c"), context="d", purpose=Purpose.SECRET)


def test_hashes_check_under_every_key_and_earlier_hash_keys_outlive_their_key() -> None:
    old = ServerKeys(OLD)
    made = old.hasher.hash("ps_" + "a" * 43)
    ring = ServerKeys(NEW, [OLD])
    assert ring.hasher.hash("ps_" + "a" * 43) != made  # new hashes under the new key
    assert ring.hasher.verify("ps_" + "a" * 43, made)
    assert ring.hasher.find("ps_" + "a" * 43, {made: "found"}.get) == "found"
    assert not ServerKeys(NEW).hasher.verify("ps_" + "a" * 43, made)
    # What a rotation keeps in the database: the earlier hash key, sealed under the new key.
    stored = ring.seal_retired(ring.earlier_hash_keys(None))
    alone = ServerKeys(NEW)
    alone.take_retired(stored)
    assert alone.hasher.verify("ps_" + "a" * 43, made)
    assert alone.hasher.keys == 2
    # With one key, one hash: the hot path as before any rotation.
    assert ServerKeys(NEW).hasher.keys == 1
    # A rotation back to a key that was retired does not keep its own hash key as an earlier one.
    back = ServerKeys(OLD, [NEW])
    back.take_retired(stored)
    assert back.earlier_hash_keys(stored) == (_derive(NEW, b"hash/v1"),)


def test_the_ring_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, encode_key(NEW))
    monkeypatch.setenv(PREVIOUS_ENV_VAR, f" {encode_key(OLD)} ,{encode_key(OTHER)}=,")
    ring = load_server_key(None)
    assert (ring.master, ring.previous, ring.file) == (NEW, (OLD, OTHER), None)
    monkeypatch.setenv(PREVIOUS_ENV_VAR, "not base64!")
    with pytest.raises(ServerKeyError, match=f"{PREVIOUS_ENV_VAR} \\(key 1\\) is not valid base64"):
        load_server_key(None)
    monkeypatch.setenv(PREVIOUS_ENV_VAR, encode_key(b"short"))
    with pytest.raises(ServerKeyError, match="at least 32 bytes"):
        load_server_key(None)


def test_the_ring_is_read_from_a_key_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.delenv(PREVIOUS_ENV_VAR, raising=False)
    path = tmp_path / "db.key"
    path.write_bytes(OLD)  # a key file from before rings: the key itself
    assert load_server_key(None, str(path)).master == OLD
    write_key_ring(path, NEW, [OLD])
    assert path.stat().st_mode & 0o777 == 0o600
    ring = load_server_key(None, str(path))
    assert (ring.master, ring.previous, ring.file, ring.created) == (NEW, (OLD,), path, None)
    assert [p.name for p in tmp_path.iterdir()] == ["db.key"]  # no staging file left
    path.write_bytes(path.read_bytes() + b"previous nonsense!\n")
    with pytest.raises(ServerKeyError, match="line 4"):
        load_server_key(None, str(path))
    path.write_bytes(b"livecore server key ring\nprevious " + encode_key(OLD).encode() + b"\n")
    with pytest.raises(ServerKeyError, match="no 'current' key"):
        load_server_key(None, str(path))
