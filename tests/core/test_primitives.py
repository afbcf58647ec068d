"""Pure helpers: timestamps, ids, hashing, identity, rate-limit arithmetic, idempotency rules, errors."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from livecore import registry
from livecore.clock import format_ts, from_millis, parse_ts, to_millis
from livecore.errors import IDEMPOTENCY_CONFLICT, LivecoreError
from livecore.hashing import KeyedHasher
from livecore.idempotency import StoredResponse, check_replay, choose_key, fingerprint, replay_status
from livecore.ids import new_id, new_secret, uuid7
from livecore.players.identity import DEFAULT_POOL, normalize_country, normalize_name
from livecore.players.rules import PLAYER_ID_PREFIX
from livecore.rand import SeededRandomSource
from livecore.ratelimit import take

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def test_every_error_code_is_declared_once_with_a_status() -> None:
    codes = registry.error_codes(registry.installed())
    assert len({code.value for code in codes}) == len(codes)
    assert all(100 <= code.status < 600 for code in codes)


@pytest.mark.parametrize(
    ("code", "status"),
    [
        ("gift_cooldown", 409),
        ("gift_expired", 410),
        ("gift_amount_invalid", 400),
        ("not_friends", 403),
        ("friend_code_invalid", 404),
        ("player_secret_invalid", 401),
        ("lobby_forming", 202),
        ("anti_cheat_rejected", 422),
        ("insufficient_entry_cost", 409),
        ("rate_limited", 429),
    ],
)
def test_pinned_statuses(code: str, status: int) -> None:
    declared = {declared.value: declared for declared in registry.error_codes(registry.installed())}
    assert LivecoreError(declared[code], "x").status == status


def test_timestamps_have_milliseconds_and_z() -> None:
    assert format_ts(datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)) == "2026-01-02T03:04:05.678Z"
    assert parse_ts("2026-01-02T03:04:05.678Z") == datetime(2026, 1, 2, 3, 4, 5, 678000, tzinfo=UTC)
    with pytest.raises(ValueError):
        parse_ts("2026-01-02T03:04:05")


@given(st.datetimes(min_value=datetime(1971, 1, 1), max_value=datetime(2200, 1, 1), timezones=st.just(UTC)))
def test_millis_round_trip(value: datetime) -> None:
    ms = to_millis(value)
    assert from_millis(ms) == value.replace(microsecond=value.microsecond // 1000 * 1000)


def test_ids_have_prefixes_and_sort_by_time() -> None:
    rng = SeededRandomSource(1)
    a = new_id(PLAYER_ID_PREFIX, T0, rng)
    b = new_id(PLAYER_ID_PREFIX, T0 + timedelta(milliseconds=1), rng)
    assert re.fullmatch(r"plr_[0-9a-f]{32}", a)
    assert a < b
    u = uuid7(T0, rng)
    assert u.version == 7


def test_secrets_have_256_bits() -> None:
    secret = new_secret(SeededRandomSource(1), prefix="ps_")
    assert len(secret) == 3 + 43


def test_keyed_hash_verifies_in_constant_time_api() -> None:
    h = KeyedHasher(b"x" * 32)
    digest = h.hash("s")
    assert h.verify("s", digest) and not h.verify("t", digest) and not h.verify("s", None)
    assert KeyedHasher(b"y" * 32).hash("s") != digest
    with pytest.raises(ValueError):
        KeyedHasher(b"short")


def test_identity_pool_is_deterministic() -> None:
    assert DEFAULT_POOL.compose("g", "p") == DEFAULT_POOL.compose("g", "p")
    names = {DEFAULT_POOL.compose("g", f"p{i}").name for i in range(200)}
    assert len(names) > 150


def test_name_and_country_normalisation() -> None:
    assert normalize_name("  Al  ") == "Al"
    assert normalize_country(" de ") == "DE"
    assert normalize_country("XX1") is None
    assert normalize_country(None) is None


def test_bucket_starts_full_and_refills() -> None:
    b, d = take(None, 60, 0)
    assert (d.allowed, d.remaining, d.limit) == (True, 59, 60)
    for _ in range(59):
        b, d = take(b, 60, 0)
    b, d = take(b, 60, 0)
    assert not d.allowed
    assert d.retry_after_seconds == 1
    b, d = take(b, 60, 1000)
    assert d.allowed


@given(
    st.lists(st.integers(min_value=0, max_value=5000), max_size=200), st.integers(min_value=1, max_value=100)
)
def test_bucket_never_allows_more_than_limit_plus_refill(gaps: list[int], limit: int) -> None:
    bucket = None
    now = 0
    allowed = 0
    for gap in gaps:
        now += gap
        bucket, d = take(bucket, limit, now)
        allowed += d.allowed
        assert 0 <= d.remaining <= limit
    assert allowed <= limit + now * limit / 60_000 + 1e-9


def test_idempotency_key_choice() -> None:
    assert choose_key(None, "h") == "h"
    assert choose_key("b", None) == "b"
    assert choose_key("same", "same") == "same"
    with pytest.raises(LivecoreError):
        choose_key("a", "b")
    with pytest.raises(LivecoreError):
        choose_key(5, None)


def test_fingerprint_ignores_key_order_not_values() -> None:
    who = "api_key:k1"
    assert fingerprint(who, "post", "/p", "", {"a": 1, "b": 2}) == fingerprint(
        who, "POST", "/p", "", {"b": 2, "a": 1}
    )
    assert fingerprint(who, "POST", "/p", "", {"a": 1}) != fingerprint(who, "POST", "/p", "", {"a": 2})
    assert fingerprint(who, "POST", "/p", "", None) != fingerprint(who, "POST", "/q", "", None)


def test_fingerprint_names_the_credential() -> None:
    assert fingerprint("member:m1", "POST", "/p", "", None) != fingerprint(
        "personal_key:k1", "POST", "/p", "", None
    )


def test_replay_conflict_and_expiry() -> None:
    stored = StoredResponse("s", "k", "fp", 201, b"{}", T0)
    assert check_replay(stored, "fp", T0 + timedelta(hours=23)) is stored
    assert check_replay(stored, "fp", T0 + timedelta(hours=24)) is None
    with pytest.raises(LivecoreError) as exc:
        check_replay(stored, "other", T0)
    assert exc.value.code is IDEMPOTENCY_CONFLICT
    assert replay_status(201) == 200 and replay_status(200) == 200


def test_system_random_hands_out_each_byte_once() -> None:
    from livecore.rand import SystemRandomSource

    rng = SystemRandomSource()
    chunks = [rng.token_bytes(10) for _ in range(1000)]  # crosses the 4 KiB refill twice
    assert all(len(c) == 10 for c in chunks)
    assert len(set(chunks)) == 1000
    assert len(rng.token_bytes(5000)) == 5000  # larger than a chunk
