"""Webhook targets (docs/webhooks.md#endpoint-urls): link-local and cloud metadata addresses are never
targets, private ranges only with --allow-private-webhooks, and the address is checked again where the
connection is made, after name resolution."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiohttp.abc import AbstractResolver, ResolveResult
from click.testing import CliRunner

from livecore.manifest import ManifestError
from livecore_server.cli import main
from livecore_server.manifest import parse_manifest
from livecore_server.webhook_targets import TargetRefused, socket_factory
from tests.conftest import TEST_MANIFEST, Receiver, webhook_manifest
from tests.security.dispatch_support import Hooked, hooked

NEVER = [
    "https://169.254.169.254/latest/meta-data/",
    "https://metadata.google.internal/computeMetadata/v1/",
    "https://METADATA.GOOGLE.INTERNAL./x",
    "https://[fe80::1]/x",
    "https://[::ffff:169.254.169.254]/x",
    "https://[64:ff9b::a9fe:a9fe]/x",  # 169.254.169.254 through NAT64
    "https://[fd00:ec2::254]/x",  # AWS metadata over IPv6, inside fc00::/7
    "https://100.100.100.200/x",  # Alibaba Cloud metadata
    "https://0.0.0.0/x",
    "https://224.0.0.1/x",
    "https://192.0.2.7/x",  # documentation range
    "https://2852039166/x",  # 169.254.169.254 as one number
    "https://0xa9.0xfe.0xa9.0xfe/x",
]
PRIVATE = ["https://10.0.0.1/x", "https://[fd00::1]/x", "https://172.16.5.4/x", "https://192.168.1.1/x"]
ALLOWED = [
    "https://hooks.example.com/x",
    "https://93.184.216.34/x",
    "http://localhost:8080/x",
    "http://127.0.0.1:9/x",
    "http://[::1]/x",
    "https://10.example.com/x",
]


def _manifest(url: str) -> str:
    return TEST_MANIFEST + webhook_manifest(hook=("test", url, '["*"]'))


def _refusal(url: str, **options: bool) -> str | None:
    try:
        parse_manifest(_manifest(url), **options)
    except ManifestError as exc:
        return exc.problems.get("games.space-race.webhooks.hook.url", str(exc))
    return None


@pytest.mark.parametrize("url", NEVER)
def test_apply_refuses_link_local_and_metadata_targets_even_with_private_allowed(url: str) -> None:
    for allow in (False, True):
        reason = _refusal(url, allow_private_webhooks=allow)
        assert reason is not None and reason.startswith("refused: "), (url, allow)
        assert "--allow-private-webhooks" not in reason


@pytest.mark.parametrize("url", PRIVATE)
def test_apply_refuses_private_targets_unless_allowed(url: str) -> None:
    reason = _refusal(url)
    assert reason is not None and "private address" in reason and "--allow-private-webhooks" in reason
    assert _refusal(url, allow_private_webhooks=True) is None


@pytest.mark.parametrize("url", ALLOWED)
def test_apply_accepts_public_and_loopback_targets(url: str) -> None:
    assert _refusal(url) is None


def test_the_apply_command_takes_allow_private_webhooks(tmp_path: Path) -> None:
    manifest = tmp_path / "m.toml"
    manifest.write_text(_manifest("https://10.0.0.1/hooks"), encoding="utf-8")
    db = str(tmp_path / "t.db")
    refused = CliRunner().invoke(main, ["apply", str(manifest), "--db", db])
    assert refused.exit_code == 2
    assert "10.0.0.1 is a private address" in refused.stderr and "--allow-private-webhooks" in refused.stderr
    applied = CliRunner().invoke(main, ["apply", str(manifest), "--db", db, "--allow-private-webhooks"])
    assert applied.exit_code == 0, applied.output


class Mapped(AbstractResolver):
    """A resolver that answers from a table, as a hostile or rebound DNS record would."""

    def __init__(self, table: dict[str, list[str]]) -> None:
        self.table = table
        self.asked: list[str] = []

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        self.asked.append(host)
        return [
            ResolveResult(
                hostname=host,
                host=address,
                port=port,
                family=socket.AF_INET6 if ":" in address else socket.AF_INET,
                proto=0,
                flags=socket.AI_NUMERICHOST,
            )
            for address in self.table[host]
        ]

    async def close(self) -> None:
        pass


@pytest.fixture
def closing() -> Iterator[list[Hooked]]:
    opened: list[Hooked] = []
    yield opened
    for h in opened:
        h.services.close()


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("169.254.169.254", "link-local or cloud metadata"),
        ("10.0.0.1", "private address"),
        ("fd00::1", "private"),
    ],
)
async def test_a_name_that_resolves_to_a_refused_address_gets_no_connection(
    db_url: str, closing: list[Hooked], address: str, reason: str
) -> None:
    hooks = await hooked(db_url, {"hook": "https://hooks.example.test/in"})
    closing.append(hooks)
    event = await hooks.registered("alice")
    resolver = Mapped({"hooks.example.test": [address]})
    await hooks.dispatch(resolver)
    assert resolver.asked == ["hooks.example.test"]
    delivery = hooks.deliveries("hook")[event]
    # A failed attempt like any connection error: retried on the schedule, counted by the breaker.
    assert (delivery.status.value, delivery.attempts, delivery.last_status) == ("pending", 1, None)
    assert delivery.last_error is not None and delivery.last_error.startswith(f"refused: {address} is a")
    assert reason in delivery.last_error
    assert hooks.endpoint("hook").consecutive_failures == 1


async def test_a_literal_private_address_applied_with_the_flag_is_refused_by_a_server_without_it(
    db_url: str, closing: list[Hooked]
) -> None:
    """The check where the connection is made is the guard: the manifest's flag does not carry over."""
    hooks = await hooked(db_url, {"hook": "https://10.0.0.1/in"}, apply_private=True)
    closing.append(hooks)
    event = await hooks.registered("alice")
    await hooks.dispatch()
    delivery = hooks.deliveries("hook")[event]
    assert delivery.last_error is not None and "10.0.0.1 is a private address" in delivery.last_error


async def test_a_rebound_name_reaches_only_its_allowed_addresses(
    db_url: str, closing: list[Hooked], receiver: Receiver
) -> None:
    """A name that resolves to a metadata address and to the receiver's: only the receiver is reached."""
    port = receiver.url.split(":")[2].split("/")[0]
    hooks = await hooked(db_url, {"hook": f"http://localhost:{port}/hooks"})
    closing.append(hooks)
    event = await hooks.registered("alice")
    await hooks.dispatch(Mapped({"localhost": ["169.254.169.254", "127.0.0.1"]}))
    assert [r.envelope["id"] for r in receiver.received] == [event]
    assert hooks.deliveries("hook")[event].status.value == "delivered"


@pytest.mark.parametrize("address", ["10.0.0.1", "fd00::1", "100.64.0.1"])
def test_the_connection_hook_lets_private_addresses_through_only_when_the_server_allows_them(
    address: str,
) -> None:
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    addr_info = (family, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (address, 443))
    with pytest.raises(TargetRefused, match="private address"):
        socket_factory(allow_private=False)(addr_info)
    socket_factory(allow_private=True)(addr_info).close()
    with pytest.raises(TargetRefused, match="link-local"):
        socket_factory(allow_private=True)(
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("169.254.169.254", 80))
        )
