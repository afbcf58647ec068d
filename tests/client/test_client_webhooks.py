"""Studio-side webhook verification: ``livecore_client.webhooks`` (docs/reference/webhooks.md#kinds)."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

import orjson
import pytest

import livecore_client.webhooks
from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.events import DomainEvent
from livecore.games import Game, Studio
from livecore.hashing import KeyedHasher
from livecore.memory import MemoryStore
from livecore.players.commands import register
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore.webhooks import signing
from livecore.webhooks.envelope import build_envelope
from livecore.webhooks.payload import WebhookPayload
from livecore.webhooks.signing import signature_header
from livecore_client.errors import LivecoreClientError
from livecore_client.webhooks import (
    PAYLOAD_TYPES,
    InvalidPayloadError,
    InvalidSignatureError,
    MalformedSignatureHeaderError,
    PlayerRegistered,
    PlayerSecretRotated,
    PlayerSecretSet,
    TimestampTooNewError,
    TimestampTooOldError,
    WebhookData,
    WebhookEndpointFailed,
    WebhookError,
    WebhookEvent,
    WebhookSignatureError,
    construct_event,
    verify,
)
from tests import installed as kinds
from tests.installed import SAMPLES

SECRET = "whsec_studio_secret"
NOW = 1_772_452_800  # 2026-03-02T12:00:00Z
OCCURRED = datetime(2026, 3, 2, 11, 59, 58, 250000, tzinfo=UTC)


def envelope(kind: str, data: WebhookPayload | dict[str, Any], *, attempt: int = 1) -> bytes:
    event = DomainEvent(
        id="evt_01test",
        kind=kind,
        studio_id="std_1",
        game_id="gam_1",
        env=Environment.LIVE,
        occurred_at=OCCURRED,
        payload=data,
    )
    return build_envelope(event, delivery_attempt=attempt)


def signed(body: bytes, *, secret: str = SECRET, t: int = NOW) -> str:
    return signature_header(secret, t, body)


def receive(body: bytes, header: str | None = None, **kw: Any) -> WebhookEvent:
    kw.setdefault("now", NOW)
    return construct_event(body, signed(body) if header is None else header, SECRET, **kw)


PLAYER = {"playerId": "plr_1", "externalPlayerId": "ada"}


# --- happy paths, one per typed kind ----------------------------------------------------------------


def test_player_registered() -> None:
    data = {**PLAYER, "firstSeenAt": "2026-03-02T11:59:58.250Z", "contextSnapshot": {"platform": "ios"}}
    event = receive(envelope("player.registered", data, attempt=2))
    assert event == WebhookEvent(
        id="evt_01test",
        event_name="player.registered",
        studio_id="std_1",
        game_id="gam_1",
        occurred_at=OCCURRED,
        delivery_attempt=2,
        data=PlayerRegistered(
            player_id="plr_1",
            external_player_id="ada",
            first_seen_at=OCCURRED,
            context_snapshot={"platform": "ios"},
        ),
    )
    assert event.raw["data"] == data


def test_player_secret_set() -> None:
    data = {
        **PLAYER,
        "secretPrefix": "ps_abcd",
        "registeredAt": "2026-03-02T11:59:58.250Z",
        "secretRotatedAt": None,
        "via": "sdk_register",
    }
    event = receive(envelope("player.secret_set", data))
    assert event.data == PlayerSecretSet(
        player_id="plr_1",
        external_player_id="ada",
        secret_prefix="ps_abcd",
        registered_at=OCCURRED,
        secret_rotated_at=None,
        via="sdk_register",
    )
    assert not isinstance(event.data, PlayerSecretRotated)


def test_player_secret_rotated() -> None:
    data = {
        **PLAYER,
        "secretPrefix": "ps_efgh",
        "registeredAt": "2026-03-01T00:00:00.000Z",
        "secretRotatedAt": "2026-03-02T11:59:58.250Z",
        "via": "force_rotate",
    }
    event = receive(envelope("player.secret_rotated", data))
    assert isinstance(event.data, PlayerSecretRotated)
    assert event.data.secret_rotated_at == OCCURRED
    assert event.data.registered_at == datetime(2026, 3, 1, tzinfo=UTC)
    assert event.data.via == "force_rotate"


def test_webhook_endpoint_failed() -> None:
    data = {
        "endpointId": "whe_1",
        "endpointKey": "orders",
        "url": "https://studio.example/hooks",
        "consecutiveFailures": 5,
        "threshold": 5,
        "lastStatus": None,
        "lastError": "connection refused",
        "reason": "consecutive_failures",
    }
    event = receive(envelope("webhook.endpoint.failed", data))
    assert event.data == WebhookEndpointFailed(
        endpoint_id="whe_1",
        endpoint_key="orders",
        url="https://studio.example/hooks",
        consecutive_failures=5,
        threshold=5,
        last_status=None,
        last_error="connection refused",
        reason="consecutive_failures",
    )
    event = receive(envelope("webhook.endpoint.failed", {**data, "lastStatus": 503, "lastError": None}))
    assert isinstance(event.data, WebhookEndpointFailed)
    assert (event.data.last_status, event.data.last_error) == (503, None)


@pytest.mark.parametrize("kind", sorted(PAYLOAD_TYPES))
def test_construct_event_returns_the_core_class_of_each_kind(kind: str) -> None:
    # The service's own payload class, equal to the object that was serialised and signed.
    sample = SAMPLES[kind]
    event = receive(envelope(kind, sample))
    assert type(event.data) is PAYLOAD_TYPES[kind] is type(sample)
    assert event.data == sample
    assert event.raw["data"] == sample.to_wire()


def test_the_client_reads_every_kind_the_registered_areas_declare_in_their_order() -> None:
    assert list(PAYLOAD_TYPES.items()) == list(kinds.PAYLOAD_TYPES.items())


def test_the_client_names_are_the_core_classes() -> None:
    assert WebhookData is WebhookPayload
    for cls in PAYLOAD_TYPES.values():
        assert getattr(livecore_client.webhooks, cls.__name__) is cls
        assert cls.__name__ in livecore_client.webhooks.__all__


def test_events_emitted_by_the_player_rules_verify_and_structure() -> None:
    # End to end without a server: rules emit, the envelope is built and signed as the dispatcher
    # does, and the studio's verifier reads it back typed.
    store = MemoryStore()
    store.add_game(Studio(id="std_1", key="acme"), Game(id="gam_1", studio_id="std_1", key="g", name="G"))
    rt = Runtime(clock=ManualClock(OCCURRED), rng=SeededRandomSource(7), hasher=KeyedHasher(b"k" * 32))
    scope = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)
    with store.transaction() as tx:
        register(tx, rt, scope, "ada", context={"platform": "ios"})
        register(tx, rt, scope, "ada", force=True)
    events = [receive(build_envelope(e, delivery_attempt=1)) for e in store.outbox]
    assert [type(e.data) for e in events] == [PlayerRegistered, PlayerSecretSet, PlayerSecretRotated]
    assert [e.data for e in events] == [e.payload for e in store.outbox]
    assert [e.id for e in events] == [e.id for e in store.outbox]
    assert all(e.studio_id == "std_1" and e.game_id == "gam_1" for e in events)
    registered = events[0].data
    assert isinstance(registered, PlayerRegistered)
    assert registered.context_snapshot == {"platform": "ios"}


def test_unknown_kind_keeps_data_as_a_dict() -> None:
    data = {"seasonId": "ssn_1", "nested": {"a": [1, 2]}}
    event = receive(envelope("season.rolled_over", data))
    assert event.event_name == "season.rolled_over"
    assert event.data == data
    assert not isinstance(event.data, WebhookData)


def test_unknown_fields_are_ignored_but_kept_in_raw() -> None:
    data = {**PLAYER, "firstSeenAt": "2026-03-02T11:59:58.250Z", "contextSnapshot": {}, "newField": 1}
    body = orjson.loads(envelope("player.registered", data))
    body["newTopLevel"] = True
    raw = orjson.dumps(body)
    event = receive(raw)
    assert isinstance(event.data, PlayerRegistered)
    assert event.raw["newTopLevel"] is True
    assert event.raw["data"]["newField"] == 1


def test_verify_alone_and_rotation() -> None:
    body = envelope("season.rolled_over", {})
    verify(body, signed(body), SECRET, now=NOW)
    verify(body, signed(body, secret="whsec_old"), [SECRET, "whsec_old"], now=NOW)
    header = signature_header(SECRET, NOW, body, extra_secrets=["whsec_old"])
    verify(body, header, "whsec_old", now=NOW)
    assert receive(body, header).id == "evt_01test"


def test_now_defaults_to_the_wall_clock() -> None:
    body = envelope("season.rolled_over", {})
    t = int(time.time())
    verify(body, signed(body, t=t), SECRET)
    assert construct_event(body, signed(body, t=t), SECRET).id == "evt_01test"
    with pytest.raises(TimestampTooOldError):
        verify(body, signed(body, t=t - 3600), SECRET)


# --- signature errors ----------------------------------------------------------------------------------


BODY = envelope("season.rolled_over", {})


@pytest.mark.parametrize("header", [None, "", f"v1={'0' * 64}", f"t=soon,v1={'0' * 64}", f"t={NOW}"])
def test_malformed_header(header: str | None) -> None:
    with pytest.raises(MalformedSignatureHeaderError) as exc:
        construct_event(BODY, header, SECRET, now=NOW)
    assert exc.value.header == (header or "")
    assert isinstance(exc.value.__cause__, signing.MalformedHeaderError)


def test_invalid_signature() -> None:
    with pytest.raises(InvalidSignatureError, match="no v1 signature"):
        verify(BODY + b" ", signed(BODY), SECRET, now=NOW)
    with pytest.raises(InvalidSignatureError):
        verify(BODY, signed(BODY, secret="whsec_other"), SECRET, now=NOW)
    with pytest.raises(InvalidSignatureError):
        verify(BODY, signed(BODY, t=NOW + 1).replace(f"t={NOW + 1}", f"t={NOW}"), SECRET, now=NOW)


def test_timestamp_too_old() -> None:
    header = signed(BODY, t=NOW - 301)
    with pytest.raises(TimestampTooOldError, match="301 s old") as exc:
        verify(BODY, header, SECRET, now=NOW)
    assert (exc.value.timestamp, exc.value.now, exc.value.tolerance) == (NOW - 301, NOW, 300)
    verify(BODY, signed(BODY, t=NOW - 300), SECRET, now=NOW)
    verify(BODY, header, SECRET, now=NOW, tolerance=301)


def test_timestamp_too_new() -> None:
    header = signed(BODY, t=NOW + 61)
    with pytest.raises(TimestampTooNewError, match="61 s in the future") as exc:
        verify(BODY, header, SECRET, now=NOW)
    assert (exc.value.timestamp, exc.value.now, exc.value.tolerance) == (NOW + 61, NOW, 60)
    verify(BODY, signed(BODY, t=NOW + 60), SECRET, now=NOW)
    verify(BODY, header, SECRET, now=NOW, future_tolerance=61)


def test_a_timestamp_error_does_not_hide_a_bad_signature() -> None:
    with pytest.raises(InvalidSignatureError):
        verify(BODY + b"x", signed(BODY, t=NOW - 10_000), SECRET, now=NOW)


def test_programming_errors_are_not_webhook_errors() -> None:
    with pytest.raises(ValueError, match="empty"):
        verify(BODY, signed(BODY), "", now=NOW)
    with pytest.raises(TypeError, match="raw body bytes"):
        verify(BODY.decode(), signed(BODY), SECRET, now=NOW)  # type: ignore[arg-type]


def test_error_classes() -> None:
    for cls in (
        MalformedSignatureHeaderError,
        InvalidSignatureError,
        TimestampTooOldError,
        TimestampTooNewError,
    ):
        assert issubclass(cls, WebhookSignatureError)
    assert issubclass(WebhookSignatureError, WebhookError)
    assert issubclass(InvalidPayloadError, WebhookError)
    assert not issubclass(InvalidPayloadError, WebhookSignatureError)  # the signature was fine
    assert issubclass(WebhookError, LivecoreClientError)
    # The client's classes are its own: callers never need to import the core.
    assert not issubclass(InvalidSignatureError, signing.SignatureError)


# --- payload errors after a valid signature ----------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"\xff\xfe{}", "not UTF-8"),
        (b'{"id": "evt_1", \xc3\x28}', "not UTF-8"),
        (b"not json", "not JSON"),
        (b'{"id": "evt_1",', "not JSON"),
        (b"", "not JSON"),
        (b"[1, 2]", "not a JSON object"),
        (b'"evt_1"', "not a JSON object"),
    ],
)
def test_undecodable_bodies(body: bytes, message: str) -> None:
    with pytest.raises(InvalidPayloadError, match=message):
        receive(body)
    # The signature is checked first: the same body with a bad signature is a signature error.
    with pytest.raises(InvalidSignatureError):
        receive(body, signed(body, secret="whsec_other"))


def test_wrong_envelope_shape_names_the_fields() -> None:
    body = orjson.loads(BODY)
    del body["gameId"]
    body["deliveryAttempt"] = "1"
    body["occurredAt"] = "yesterday"
    with pytest.raises(InvalidPayloadError) as exc:
        receive(orjson.dumps(body))
    assert exc.value.fields == {
        "gameId": "is required",
        "deliveryAttempt": "must be an integer",
        "occurredAt": "must be of type datetime",
    }
    assert "gameId is required" in str(exc.value)


def test_wrong_typed_data_names_the_data_fields() -> None:
    data = {"playerId": 1, "firstSeenAt": "2026-03-02T11:59:58.250Z", "contextSnapshot": []}
    with pytest.raises(InvalidPayloadError) as exc:
        receive(envelope("player.registered", data))
    assert exc.value.fields == {
        "data.playerId": "must be a string",
        "data.externalPlayerId": "is required",
        "data.contextSnapshot": "must be an object",
    }


def test_data_must_be_an_object() -> None:
    body = orjson.loads(BODY)
    body["data"] = [1]
    with pytest.raises(InvalidPayloadError) as exc:
        receive(orjson.dumps(body))
    assert exc.value.fields == {"data": "must be an object"}


# --- Stripe compatibility (docs/reference/webhooks.md) ------------------------------------------------------


def test_stripe_verifies_our_header_and_we_verify_stripes() -> None:
    stripe = pytest.importorskip("stripe")
    t = int(time.time())  # Stripe reads the wall clock itself
    data = {**PLAYER, "firstSeenAt": "2026-03-02T11:59:58.250Z", "contextSnapshot": {"name": "Zoë 🚀"}}
    body = envelope("player.registered", data)  # non-ASCII, so the UTF-8 bytes matter
    assert stripe.WebhookSignature.verify_header(body, signed(body, t=t), SECRET, tolerance=300)
    assert stripe.WebhookSignature.verify_header(body.decode(), signed(body, t=t), SECRET, tolerance=300)
    # Rotation headers: Stripe also accepts any matching v1.
    header = signature_header("whsec_old", t, body, extra_secrets=[SECRET])
    assert stripe.WebhookSignature.verify_header(body, header, SECRET, tolerance=300)
    # Tampering is caught by Stripe too.
    with pytest.raises(stripe.SignatureVerificationError):
        stripe.WebhookSignature.verify_header(body + b" ", signed(body, t=t), SECRET, tolerance=300)
    # And the other way round: a header made by Stripe verifies here.
    theirs = stripe.WebhookSignature.generate_signature_header(body.decode(), SECRET, timestamp=t)
    assert construct_event(body, theirs, SECRET, now=t).event_name == "player.registered"


def test_a_simulations_received_events_are_what_construct_event_reads_of_their_deliveries() -> None:
    """One event shape: ``sim.received()`` answers the class ``construct_event`` does, equal to what it
    reads of each event's first delivery, a studio's kind typed by its area."""
    from studio_quests.area import AREA
    from studio_quests.typed import Simulation
    from studio_quests.webhooks import QuestCheckedIn

    from examples.daily_quests import MANIFEST

    sim = Simulation.from_manifest(MANIFEST, areas=[AREA])
    sim.player("ada").quests.check_in()
    received = sim.received()
    assert [e.event_name for e in received] == [e.kind for e in sim.webhooks]
    for event, emitted in zip(received, sim.webhooks, strict=True):
        body = build_envelope(emitted, delivery_attempt=1)
        header = signature_header(SECRET, NOW, body)
        read = construct_event(body, header, SECRET, now=NOW, areas=[AREA])
        assert type(read) is WebhookEvent and read == event and read.raw == event.raw
    [checked] = sim.received("quest.checked_in")
    assert isinstance(checked.data, QuestCheckedIn) and checked.data.streak == 1
