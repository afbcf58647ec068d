"""Webhook signing and verification (docs/reference/webhooks.md#signing-and-verifying) and the envelope bytes.

The expected signatures come from an HMAC written out in the test (and two vectors computed with
``openssl dgst -sha256 -hmac``), never from the code under test.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, datetime

import orjson
import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from livecore.events import DomainEvent
from livecore.scope import Environment
from livecore.webhooks.envelope import build_envelope
from livecore.webhooks.signing import (
    DEFAULT_FUTURE_TOLERANCE,
    DEFAULT_TOLERANCE,
    BadSignatureError,
    MalformedHeaderError,
    SignatureError,
    TimestampTooNewError,
    TimestampTooOldError,
    compute_signature,
    parse_header,
    signature_header,
    verify_header,
)

SECRET = "whsec_test_secret"
OLD_SECRET = "whsec_old_secret"
T = 1_700_000_000
BODY = b'{"id":"evt_1"}'
BINARY = b"\xff\xfe\x00binary"


def independent_hmac(secret: str, timestamp: int, payload: bytes) -> str:
    return hmac.new(
        secret.encode("utf-8"), str(timestamp).encode() + b"." + payload, hashlib.sha256
    ).hexdigest()


def sig(secret: str = SECRET, timestamp: int = T, payload: bytes = BODY) -> str:
    return independent_hmac(secret, timestamp, payload)


# --- signing ------------------------------------------------------------------------------------


def test_signature_matches_openssl_vectors() -> None:
    # printf '1700000000.{"id":"evt_1"}' | openssl dgst -sha256 -hmac whsec_test_secret
    assert (
        compute_signature(SECRET, T, BODY)
        == "248a374f50f943a28b0f6ab50faf9a7e7e29b710fa26df9fb1618b9bf8ea9c9a"
    )
    # printf '1700000000.\xff\xfe\x00binary' | openssl dgst -sha256 -hmac whsec_test_secret
    assert compute_signature(SECRET, T, BINARY) == (
        "376787b2eef2ff97a47da7098efd663a006a94c63f0b8f93a265799e848b51bf"
    )


@given(
    secret=st.text(min_size=1).filter(str.strip),
    timestamp=st.integers(min_value=0, max_value=10**12),
    payload=st.binary(),
)
def test_signature_is_the_hmac_of_timestamp_dot_raw_body(secret: str, timestamp: int, payload: bytes) -> None:
    assert compute_signature(secret, timestamp, payload) == independent_hmac(secret, timestamp, payload)


def test_the_whole_secret_is_the_key_prefix_included() -> None:
    # Stripe keys with "whsec_..." as written, not with the part after the prefix, nor base64-decoded.
    assert compute_signature("whsec_abc", T, BODY) != independent_hmac("abc", T, BODY)
    assert compute_signature("whsec_abc", T, BODY) == independent_hmac("whsec_abc", T, BODY)


def test_header_format() -> None:
    assert signature_header(SECRET, T, BODY) == f"t={T},v1={sig()}"


def test_header_with_extra_secrets_carries_one_v1_per_secret_primary_first() -> None:
    header = signature_header(SECRET, T, BODY, extra_secrets=[OLD_SECRET])
    assert header == f"t={T},v1={sig()},v1={sig(OLD_SECRET)}"
    # The same secret twice is signed once.
    assert signature_header(SECRET, T, BODY, extra_secrets=[SECRET]) == f"t={T},v1={sig()}"


def test_signing_refuses_bad_arguments() -> None:
    with pytest.raises(ValueError, match="empty"):
        compute_signature("", T, BODY)
    with pytest.raises(ValueError, match="empty"):
        compute_signature(" \n", T, BODY)
    with pytest.raises(ValueError, match="timestamp"):
        compute_signature(SECRET, -1, BODY)
    with pytest.raises(TypeError, match="raw body bytes"):
        compute_signature(SECRET, T, BODY.decode())  # type: ignore[arg-type]


# --- verification: accept and reject --------------------------------------------------------------


def test_verify_accepts_and_returns_the_timestamp() -> None:
    assert verify_header(BODY, signature_header(SECRET, T, BODY), SECRET, now=T) == T


def test_tampered_body_is_a_bad_signature() -> None:
    header = signature_header(SECRET, T, BODY)
    with pytest.raises(BadSignatureError, match="no v1 signature"):
        verify_header(b'{"id":"evt_2"}', header, SECRET, now=T)
    with pytest.raises(BadSignatureError):
        verify_header(BODY + b" ", header, SECRET, now=T)


def test_tampered_timestamp_is_a_bad_signature_not_a_timestamp_error() -> None:
    header = f"t={T + 1},v1={sig()}"
    with pytest.raises(BadSignatureError):
        verify_header(BODY, header, SECRET, now=T)
    # Even a stale forged timestamp reads as a forgery: freshness is judged only for authentic headers.
    with pytest.raises(BadSignatureError):
        verify_header(BODY, f"t={T - 10_000},v1={sig()}", SECRET, now=T)


def test_tampered_signature_and_wrong_secret_are_bad_signatures() -> None:
    good = sig()
    flipped = ("0" if good[0] != "0" else "1") + good[1:]
    with pytest.raises(BadSignatureError):
        verify_header(BODY, f"t={T},v1={flipped}", SECRET, now=T)
    with pytest.raises(BadSignatureError):
        verify_header(BODY, f"t={T},v1={good.upper()}", SECRET, now=T)
    with pytest.raises(BadSignatureError, match=r"under the given secret$"):
        verify_header(BODY, signature_header(SECRET, T, BODY), "whsec_other", now=T)


def test_stale_boundary() -> None:
    header = signature_header(SECRET, T, BODY)
    assert verify_header(BODY, header, SECRET, now=T + 300) == T
    with pytest.raises(TimestampTooOldError, match=r"301 s old; at most 300 s") as exc:
        verify_header(BODY, header, SECRET, now=T + 301)
    assert (exc.value.timestamp, exc.value.now, exc.value.tolerance) == (T, T + 301, 300)


def test_future_boundary() -> None:
    header = signature_header(SECRET, T, BODY)
    assert verify_header(BODY, header, SECRET, now=T - 60) == T
    with pytest.raises(TimestampTooNewError, match=r"61 s in the future; at most 60 s") as exc:
        verify_header(BODY, header, SECRET, now=T - 61)
    assert (exc.value.timestamp, exc.value.now, exc.value.tolerance) == (T, T - 61, 60)


def test_defaults_are_the_spec_tolerances() -> None:
    assert (DEFAULT_TOLERANCE, DEFAULT_FUTURE_TOLERANCE) == (300, 60)


def test_tolerances_are_configurable() -> None:
    header = signature_header(SECRET, T, BODY)
    assert verify_header(BODY, header, SECRET, now=T + 1000, tolerance=1000) == T
    with pytest.raises(TimestampTooOldError):
        verify_header(BODY, header, SECRET, now=T + 11, tolerance=10)
    assert verify_header(BODY, header, SECRET, now=T - 120, future_tolerance=120) == T
    with pytest.raises(TimestampTooNewError):
        verify_header(BODY, header, SECRET, now=T - 1, future_tolerance=0)
    with pytest.raises(ValueError, match="negative"):
        verify_header(BODY, header, SECRET, now=T, tolerance=-1)


def test_timestamp_errors_are_signature_errors() -> None:
    for cls in (MalformedHeaderError, BadSignatureError, TimestampTooOldError, TimestampTooNewError):
        assert issubclass(cls, SignatureError)


# --- several v1 values, several secrets, other schemes -------------------------------------------


@pytest.mark.parametrize("position", [0, 1, 2])
def test_one_good_v1_among_bad_ones_is_accepted(position: int) -> None:
    values = ["0" * 64, sig(OLD_SECRET)]
    values.insert(position, sig())
    header = f"t={T}," + ",".join(f"v1={v}" for v in values)
    assert verify_header(BODY, header, SECRET, now=T) == T


def test_rotation_sender_signs_with_both_secrets() -> None:
    header = signature_header(SECRET, T, BODY, extra_secrets=[OLD_SECRET])
    assert verify_header(BODY, header, SECRET, now=T) == T  # receiver already on the new secret
    assert verify_header(BODY, header, OLD_SECRET, now=T) == T  # receiver still on the old one


def test_rotation_receiver_holds_several_secrets() -> None:
    header = signature_header(OLD_SECRET, T, BODY)
    assert verify_header(BODY, header, [SECRET, OLD_SECRET], now=T) == T
    assert verify_header(BODY, header, (OLD_SECRET,), now=T) == T
    with pytest.raises(BadSignatureError, match=r"secrets$"):
        verify_header(BODY, header, ["whsec_a", "whsec_b"], now=T)


def test_verify_refuses_missing_or_blank_secrets() -> None:
    header = signature_header(SECRET, T, BODY)
    with pytest.raises(ValueError, match="at least one secret"):
        verify_header(BODY, header, [], now=T)
    with pytest.raises(ValueError, match="empty"):
        verify_header(BODY, header, "", now=T)
    with pytest.raises(ValueError, match="empty"):
        verify_header(BODY, header, [SECRET, ""], now=T)


def test_unknown_schemes_are_ignored() -> None:
    assert verify_header(BODY, f"t={T},v0=deadbeef,v1={sig()}", SECRET, now=T) == T
    assert verify_header(BODY, f"v2=xyz,v1={sig()},t={T}", SECRET, now=T) == T
    # A v0 carrying the right value does not count: only v1 is checked.
    with pytest.raises(MalformedHeaderError, match="no v1"):
        verify_header(BODY, f"t={T},v0={sig()}", SECRET, now=T)


def test_list_whitespace_and_empty_items_are_ignored() -> None:
    # RFC 9110 list syntax; proxies may reformat a header like this.
    assert verify_header(BODY, f" t={T} ,\tv1={sig()},", SECRET, now=T) == T
    assert parse_header(f"t={T},,v1=a, v1=b") == (T, ["a", "b"])


# --- malformed headers ---------------------------------------------------------------------------

GOOD = sig()


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ("", "missing or empty"),
        ("  ", "missing or empty"),
        (",", "no timestamp"),
        (f"v1={GOOD}", "no timestamp"),
        (f"T={T},v1={GOOD}", "no timestamp"),
        (f"t={T}", "no v1"),
        (f"t={T},v0={GOOD}", "no v1"),
        (f"t=,v1={GOOD}", "not an integer"),
        (f"t=abc,v1={GOOD}", "not an integer"),
        (f"t=-{T},v1={GOOD}", "not an integer"),
        (f"t=+{T},v1={GOOD}", "not an integer"),
        (f"t={T}.5,v1={GOOD}", "not an integer"),
        (f"t=1_700_000_000,v1={GOOD}", "not an integer"),
        (f"t= {T},v1={GOOD}", "not an integer"),
        (f"t={'9' * 16},v1={GOOD}", "not an integer"),
        (f"t={T},t={T},v1={GOOD}", "more than one timestamp"),
        (f"t={T},garbage,v1={GOOD}", "'garbage' is not key=value"),
        (f"t={T},=x,v1={GOOD}", "is not key=value"),
        ("garbage", "is not key=value"),
        (f"t={T};v1={GOOD}", "not an integer"),
        # Arabic-Indic digits "1700000000": int() accepts them.
        ("t=\u0661\u0667" + "\u0660" * 8 + f",v1={GOOD}", "must be ASCII"),
        (f"t={T},v1={GOOD}\u00e9", "must be ASCII"),
    ],
)
def test_malformed_headers(header: str, message: str) -> None:
    with pytest.raises(MalformedHeaderError, match=message) as exc:
        verify_header(BODY, header, SECRET, now=T)
    assert exc.value.header == header


def test_value_with_equals_sign_is_kept_whole_and_does_not_match() -> None:
    assert parse_header(f"t={T},v1={GOOD}=x") == (T, [f"{GOOD}=x"])
    with pytest.raises(BadSignatureError):
        verify_header(BODY, f"t={T},v1={GOOD}=x", SECRET, now=T)


def test_leading_zeros_in_t_mean_the_same_second() -> None:
    # As in Stripe, the signed text is the canonical decimal of the parsed number.
    assert verify_header(BODY, f"t=0{T},v1={GOOD}", SECRET, now=T) == T


ALLOWED = (MalformedHeaderError, BadSignatureError)


@given(header=st.text())
@example(header=f"t={T},v1=")
@example(header=f"t={T},v1={GOOD[:-1]}")
def test_arbitrary_text_is_never_accepted_and_fails_cleanly(header: str) -> None:
    assume(GOOD not in header)
    with pytest.raises(ALLOWED):
        verify_header(BODY, header, SECRET, now=T)


@given(header=st.text())
def test_parse_header_raises_only_malformed(header: str) -> None:
    try:
        timestamp, signatures = parse_header(header)
    except MalformedHeaderError:
        return
    assert timestamp >= 0
    assert signatures


def _near_miss_signature() -> st.SearchStrategy[str]:
    """Values that look like a v1 but are not the good one: random hex, or the good one edited."""
    edited = st.tuples(st.integers(0, 63), st.sampled_from("0123456789abcdefABCDEF")).map(
        lambda edit: GOOD[: edit[0]] + edit[1] + GOOD[edit[0] + 1 :]
    )
    return st.one_of(
        st.text("0123456789abcdef", min_size=0, max_size=70),
        edited,
        st.just(GOOD[:-1]),
        st.just(GOOD + "0"),
        st.just(GOOD.upper()),
        st.text(max_size=10),
    ).filter(lambda value: value != GOOD)


_ITEMS = st.one_of(
    st.builds(lambda v: f"t={v}", st.one_of(st.integers(-5, 10**16).map(str), st.just(str(T)), st.text())),
    st.builds(lambda v: f"v1={v}", _near_miss_signature()),
    st.builds(lambda v: f"v0={v}", st.one_of(st.just(GOOD), st.text(max_size=10))),
    st.sampled_from(["", " ", "t", "v1", "=", "t=", "v1=", "garbage", "t==1", f"t={T}=1"]),
    st.builds(lambda k, v: f"{k}={v}", st.text(max_size=4), st.text(max_size=8)),
)


@given(items=st.lists(_ITEMS, max_size=6), separator=st.sampled_from([",", ", ", ";", " ", ",,"]))
def test_structured_near_misses_are_never_accepted(items: list[str], separator: str) -> None:
    header = separator.join(items)
    with pytest.raises(ALLOWED):
        verify_header(BODY, header, SECRET, now=T)


@given(
    position=st.integers(0, 200),
    op=st.sampled_from(["delete", "insert", "replace"]),
    char=st.characters(),
)
def test_one_character_edits_of_a_valid_header_are_accepted_only_if_still_valid(
    position: int, op: str, char: str
) -> None:
    valid = f"t={T},v1={GOOD}"
    i = position % (len(valid) + 1)
    if op == "delete":
        header = valid[:i] + valid[i + 1 :]
    elif op == "insert":
        header = valid[:i] + char + valid[i:]
    else:
        header = valid[:i] + char + valid[i + 1 :]
    try:
        accepted = verify_header(BODY, header, SECRET, now=T)
    except ALLOWED:
        return
    # Some edits leave the meaning intact (a trailing comma, a space around an item, a leading zero).
    assert accepted == T
    assert parse_header(header) == (T, [GOOD])


# --- byte exactness -------------------------------------------------------------------------------


def test_non_utf8_payloads_are_signed_and_verified_byte_for_byte() -> None:
    header = signature_header(SECRET, T, BINARY)
    assert header == f"t={T},v1={independent_hmac(SECRET, T, BINARY)}"
    assert verify_header(BINARY, header, SECRET, now=T) == T
    # b"\xff" and b"\xfe" decode to the same text with errors="replace"; the signature tells them apart.
    assert BINARY.decode("utf-8", "replace") == (b"\xfe" + BINARY[1:]).decode("utf-8", "replace")
    with pytest.raises(BadSignatureError):
        verify_header(b"\xfe" + BINARY[1:], header, SECRET, now=T)


@given(secret=st.text(min_size=1).filter(str.strip), payload=st.binary(), timestamp=st.integers(0, 10**12))
def test_sign_then_verify_round_trips(secret: str, payload: bytes, timestamp: int) -> None:
    header = signature_header(secret, timestamp, payload)
    assert verify_header(payload, header, secret, now=timestamp) == timestamp


def test_verify_refuses_a_str_payload() -> None:
    with pytest.raises(TypeError, match="raw body bytes"):
        verify_header(BODY.decode(), signature_header(SECRET, T, BODY), SECRET, now=T)  # type: ignore[arg-type]


# --- envelope ------------------------------------------------------------------------------------

OCCURRED = datetime(2026, 3, 2, 12, 0, 5, 123456, tzinfo=UTC)


def make_event(data: dict[str, object] | None = None) -> DomainEvent:
    return DomainEvent(
        id="evt_01abc",
        kind="player.registered",
        studio_id="std_1",
        game_id="gam_1",
        env=Environment.LIVE,
        occurred_at=OCCURRED,
        payload=data if data is not None else {"playerId": "plr_1", "externalPlayerId": "ada"},
    )


def test_envelope_bytes_field_order_and_format() -> None:
    raw = build_envelope(make_event(), delivery_attempt=1)
    assert raw == (
        b'{"id":"evt_01abc","eventName":"player.registered","studioId":"std_1","gameId":"gam_1",'
        b'"occurredAt":"2026-03-02T12:00:05.123Z","deliveryAttempt":1,'
        b'"data":{"playerId":"plr_1","externalPlayerId":"ada"}}'
    )
    assert list(orjson.loads(raw)) == [
        "id",
        "eventName",
        "studioId",
        "gameId",
        "occurredAt",
        "deliveryAttempt",
        "data",
    ]


def test_envelope_attempt_number_and_environment() -> None:
    body = orjson.loads(build_envelope(make_event(), delivery_attempt=3))
    assert body["deliveryAttempt"] == 3
    assert "env" not in body  # the environment picks endpoints; it is not part of the envelope
    with pytest.raises(ValueError, match="starts at 1"):
        build_envelope(make_event(), delivery_attempt=0)


def test_envelope_keeps_utf8_and_formats_stray_datetimes() -> None:
    raw = build_envelope(make_event({"name": "Zoë 🚀", "at": OCCURRED}), delivery_attempt=1)
    assert "Zoë 🚀".encode() in raw  # UTF-8, not \u escapes
    assert orjson.loads(raw)["data"]["at"] == "2026-03-02T12:00:05.123Z"
    with pytest.raises(TypeError, match="not JSON serializable"):
        build_envelope(make_event({"x": object()}), delivery_attempt=1)


def test_envelope_signs_and_verifies() -> None:
    raw = build_envelope(make_event(), delivery_attempt=2)
    assert verify_header(raw, signature_header(SECRET, T, raw), SECRET, now=T + 299) == T
