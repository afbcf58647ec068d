"""examples/webhook_receiver.py: verified events are printed once, duplicates acknowledged, forgeries 400."""

from __future__ import annotations

import contextlib
import importlib.util
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from studio_quests.area import AREA as QUESTS
from studio_quests.webhooks import SAMPLES

from livecore.area import Area
from livecore.events import DomainEvent
from livecore.scope import Environment
from livecore.webhooks.envelope import build_envelope
from livecore.webhooks.payload import WebhookPayload
from livecore.webhooks.signing import signature_header
from tests.waiting import until_sync

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "webhook_receiver.py"
SECRET = "whsec_example_secret"
[QUEST_SAMPLE] = SAMPLES


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("webhook_receiver_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


receiver = load_example()


REGISTERED = {
    "playerId": "plr_1",
    "externalPlayerId": "ada",
    "firstSeenAt": "2026-03-02T12:00:00.000Z",
    "contextSnapshot": {},
}


def delivery(
    event_id: str = "evt_01a",
    *,
    attempt: int = 1,
    secret: str = SECRET,
    payload: WebhookPayload | dict[str, Any] = REGISTERED,
) -> tuple[bytes, dict[str, str]]:
    kind = "player.registered" if isinstance(payload, dict) else payload.KIND
    event = DomainEvent(
        id=event_id,
        kind=kind,
        studio_id="std_1",
        game_id="gam_1",
        env=Environment.LIVE,
        occurred_at=datetime(2026, 3, 2, 12, 0, tzinfo=UTC),
        payload=payload,
    )
    body = build_envelope(event, delivery_attempt=attempt)
    # The receiver checks against its own clock, so sign with the real time.
    header = signature_header(secret, int(time.time()), body)
    return body, {"X-Signature": header, "Content-Type": "application/json"}


@pytest.fixture
def client() -> Iterator[httpx.Client]:
    with _served() as c:
        yield c


@contextlib.contextmanager
def _served(areas: Sequence[Area] = ()) -> Iterator[httpx.Client]:
    """The receiver on a free port, served on a thread, and a client of it."""
    server = receiver.Receiver(("127.0.0.1", 0), SECRET, areas=areas)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{server.server_address[1]}") as c:
            yield c
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def test_valid_event_is_accepted_and_printed(
    client: httpx.Client, capsys: pytest.CaptureFixture[str]
) -> None:
    body, headers = delivery()
    response = client.post("/webhooks", content=body, headers=headers)
    assert response.status_code == 200
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "evt_01a player.registered attempt=1 game=gam_1 as=PlayerRegistered "
        'data={"playerId":"plr_1","externalPlayerId":"ada",'
        '"firstSeenAt":"2026-03-02T12:00:00.000Z","contextSnapshot":{}}'
    ]


def test_a_studios_kind_is_read_typed_given_its_area(capsys: pytest.CaptureFixture[str]) -> None:
    """``--area studio_quests``: ``quest.checked_in`` is read into the area's payload class, where a
    receiver not given the area reads it as a dict."""
    body, headers = delivery("evt_02q", payload=QUEST_SAMPLE)
    with _served([QUESTS]) as typed:
        assert typed.post("/webhooks", content=body, headers=headers).status_code == 200
    with _served() as plain:
        assert plain.post("/webhooks", content=body, headers=headers).status_code == 200
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(" data=")[0] for line in lines] == [
        "evt_02q quest.checked_in attempt=1 game=gam_1 as=QuestCheckedIn",
        "evt_02q quest.checked_in attempt=1 game=gam_1 as=dict",
    ]
    assert [area.name for area in receiver.studio_areas(["studio_quests"])] == ["quests"]


def test_duplicate_is_acknowledged_but_not_printed_twice(
    client: httpx.Client,
    capsys: pytest.CaptureFixture[str],
) -> None:
    body, headers = delivery()
    assert client.post("/webhooks", content=body, headers=headers).status_code == 200
    retry_body, retry_headers = delivery(attempt=2)  # a retry: same id, next attempt number
    response = client.post("/webhooks", content=retry_body, headers=retry_headers)
    assert response.status_code == 200
    assert response.text == "duplicate\n"
    assert capsys.readouterr().out.count("evt_01a") == 1


def test_bad_signature_is_400_and_not_printed(
    client: httpx.Client,
    capsys: pytest.CaptureFixture[str],
) -> None:
    body, headers = delivery(secret="whsec_someone_else")
    response = client.post("/webhooks", content=body, headers=headers)
    assert response.status_code == 400
    assert response.text == "bad signature\n"
    body, headers = delivery()
    tampered = body.replace(b'"ada"', b'"eve"')
    assert client.post("/webhooks", content=tampered, headers=headers).status_code == 400
    headers.pop("X-Signature")
    assert client.post("/webhooks", content=body, headers=headers).status_code == 400
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "InvalidSignatureError" in captured.err
    assert "MalformedSignatureHeaderError" in captured.err
    # A rejected delivery is not remembered: the genuine one still gets through afterwards.
    headers = delivery()[1]
    assert client.post("/webhooks", content=body, headers=headers).status_code == 200
    assert capsys.readouterr().out.count("evt_01a") == 1


def test_authentic_body_that_is_not_an_envelope_is_400(client: httpx.Client) -> None:
    body = b"[]"
    headers = {"X-Signature": signature_header(SECRET, int(time.time()), body)}
    response = client.post("/webhooks", content=body, headers=headers)
    assert response.status_code == 400
    assert response.text == "invalid payload\n"


def test_recent_ids_are_bounded() -> None:
    seen = receiver.RecentIds(limit=2)
    assert seen.add("a") and seen.add("b")
    assert not seen.add("a")  # also makes "a" the most recent
    assert seen.add("c")  # evicts "b", the oldest
    assert len(seen) == 2
    assert not seen.add("a")
    assert seen.add("b")


def test_runs_as_written() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, str(EXAMPLE), "--secret", SECRET, "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:

        def listening() -> bool:
            if proc.poll() is not None:
                pytest.fail(f"receiver exited: {proc.communicate()[1]}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    return True
            except OSError:
                return False

        until_sync(listening, "the receiver to start")
        body, headers = delivery("evt_01run")
        url = f"http://127.0.0.1:{port}/webhooks"
        assert httpx.post(url, content=body, headers=headers).status_code == 200
        assert httpx.post(url, content=body, headers=headers).status_code == 200
        assert httpx.post(url, content=body + b" ", headers=headers).status_code == 400
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=10)
    assert out.splitlines()[0] == f"listening on http://127.0.0.1:{port}/webhooks"
    assert out.count("evt_01run player.registered attempt=1") == 1
