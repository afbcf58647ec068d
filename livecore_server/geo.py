"""A player's country from the client's address, offline (docs/players.md#country).

Used on register when no CDN geo header names the country. The lookup is a plain function of the
address (``Config.country_of``): :func:`offline_country` by default, :func:`no_country` to turn it off
(``serve --no-ip-country``), or a studio's own (a GeoIP database it licenses) in an embedded server.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable

import iptocc

# An address ("203.0.113.7", "2001:db8::1") to an ISO 3166-1 alpha-2 code, or None when unknown.
CountryLookup = Callable[[str], str | None]


def offline_country(address: str) -> str | None:
    """The country the Regional Internet Registries assigned ``address``'s block to, from the data that
    ships in the ``iptocc`` wheel: no file, no network. Loopback, private, link-local, shared (CGNAT)
    and other non-public addresses have none, and neither has anything that is not an address. An IPv4
    address seen through an IPv6 socket (``::ffff:203.0.113.7``) is looked up as IPv4."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if not ip.is_global:
        return None
    code: str | None = iptocc.country_code(str(ip))
    return code


def no_country(address: str) -> None:
    """The lookup turned off: no address has a country."""
    return None
