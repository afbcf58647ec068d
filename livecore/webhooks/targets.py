"""Where webhooks may be sent (docs/webhooks.md#endpoint-urls): the one address policy, used by the
manifest's parser on its URLs and by the server's delivery client (:mod:`livecore_server.webhook_targets`)
on every address it connects to.

- Loopback (``localhost``, ``127.0.0.0/8``, ``[::1]``): always, for receivers on the same machine (the
  only hosts ``http://`` may name).
- Link-local addresses (``169.254.0.0/16``, ``fe80::/10``) and cloud metadata services (their
  addresses and names): never. A webhook URL is chosen by whoever edits a manifest, and a request to a
  metadata service from the server hands them the machine's cloud credentials.
- Private ranges (``10/8``, ``172.16/12``, ``192.168/16``, ``fc00::/7``, and the carrier-grade
  ``100.64/10``): only when the operator allows them (``--allow-private-webhooks``), for a backend on an
  internal network.
- Every other address that is not public (multicast, unspecified, reserved, documentation ranges):
  never.

An IPv4 address written as IPv6 (``::ffff:10.0.0.1``, or NAT64's ``64:ff9b::/96``) is judged as the
IPv4 address it reaches. ``apply`` can judge only what the URL shows: a literal address, or a name known
to be a metadata service. A name is judged again where it matters, when the delivery client connects:
the server's socket factory sees each address the name resolved to, just before the socket connects, so a
name that resolves (or is rebound) to a refused address gets no connection.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

ALLOW_PRIVATE_FLAG = "--allow-private-webhooks"

# Cloud metadata services: names, and addresses outside the link-local ranges.
METADATA_NAMES = frozenset(
    {
        "metadata",
        "metadata.google.internal",
        "metadata.goog",
        "instance-data",
        "instance-data.ec2.internal",
        "metadata.tencentyun.com",
    }
)
METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a)
    for a in (
        "fd00:ec2::254",  # AWS, over IPv6
        "100.100.100.200",  # Alibaba Cloud
        "192.0.0.192",  # Oracle Cloud
    )
)
PRIVATE_NETWORKS = tuple(
    ipaddress.ip_network(n)
    for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7")
)
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_NUMERIC_HOST = re.compile(r"[0-9.]+|0[xX][0-9a-fA-F.xX]*")  # what resolvers may read as an IPv4 address


def _reached(address: Address) -> Address:
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return address.ipv4_mapped
        if address in _NAT64:
            return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return address


def address_refusal(address: Address, *, allow_private: bool) -> str | None:
    """Why a webhook may not connect to ``address``, or ``None`` when it may."""
    reached = _reached(address)
    if reached.is_loopback:
        return None
    if reached.is_link_local or reached in METADATA_ADDRESSES:
        return f"{address} is a link-local or cloud metadata address, never a webhook target"
    if any(reached in network for network in PRIVATE_NETWORKS):
        if allow_private:
            return None
        return f"{address} is a private address, a webhook target only with {ALLOW_PRIVATE_FLAG}"
    if reached.is_multicast or not reached.is_global:
        return f"{address} is not a public unicast address"
    return None


def is_loopback_host(host: str) -> bool:
    """``localhost`` or a loopback address: the hosts ``http://`` may name."""
    if host.lower().rstrip(".") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_refusal(host: str, *, allow_private: bool) -> str | None:
    """Why a URL's host (as ``urlsplit`` gives it: no brackets, lower case) is refused as it stands, or
    ``None``. A name passes unless it names a metadata service: what it resolves to is checked on
    connecting."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        name = host.rstrip(".")
        if name in METADATA_NAMES:
            return f"{name} is a cloud metadata service, never a webhook target"
        if _NUMERIC_HOST.fullmatch(name):
            return f"{name} is not an IP address in its usual form (write a.b.c.d)"
        return None
    return address_refusal(address, allow_private=allow_private)


def url_refusal(url: str, *, allow_private: bool) -> str | None:
    """:func:`host_refusal` of a URL's host; ``None`` for a URL without one (its syntax is checked apart)."""
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return None
    return host_refusal(host, allow_private=allow_private) if host else None
