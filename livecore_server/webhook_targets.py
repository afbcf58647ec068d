"""The delivery client's side of the webhook address policy (:mod:`livecore.webhooks.targets`, where the
policy is): a name is judged again where it matters, when the client connects. :func:`socket_factory`
sees each address the name resolved to, just before the socket connects, so a name that resolves (or is
rebound) to a refused address gets no connection.
"""

from __future__ import annotations

import errno
import ipaddress
import socket
from collections.abc import Callable

from aiohappyeyeballs import AddrInfoType

from livecore.webhooks.targets import address_refusal


class TargetRefused(OSError):
    """A webhook may not connect to this address (an ``OSError``, as the client expects of a socket)."""

    def __init__(self, reason: str) -> None:
        super().__init__(errno.EACCES, reason)
        self.reason = reason


def socket_factory(*, allow_private: bool) -> Callable[[AddrInfoType], socket.socket]:
    """The delivery client's socket factory (``aiohttp.TCPConnector(socket_factory=...)``): called with
    each resolved address the client is about to connect to, literal or looked up; refuses with
    :class:`TargetRefused`."""

    def open_socket(addr_info: AddrInfoType) -> socket.socket:
        family, type_, proto, _, sockaddr = addr_info
        reason = address_refusal(ipaddress.ip_address(sockaddr[0]), allow_private=allow_private)
        if reason is not None:
            raise TargetRefused(reason)
        return socket.socket(family=family, type=type_, proto=proto)

    return open_socket
