"""Player identity (docs/reference/players-and-identity.md#identity).

Rules:
- The anonymized identity is composed once, deterministically, from the game's identity pool and the
  player's external id: the same player in the same game always gets the same synthetic name and avatar,
  whatever machine or store computes it. Set-identity never changes it.
- The display identity is what the player (or the studio) set; when never set it falls back to the
  anonymized value, so responses always carry an object.
- A display name is 1 to 32 characters after trimming, with no control or format characters
  (:data:`NAME`); an avatar is at most 512 characters or null (:data:`AVATAR`).
"""

from __future__ import annotations

import functools
import hashlib
from typing import Any

import attrs

from livecore.errors import invalid_request
from livecore.limits import Text

NAME = Text(min_length=1, max_length=32, trim=True, plain=True)
AVATAR = Text(max_length=512)


@attrs.frozen
class Identity:
    name: str
    avatar: str | None
    country: str | None = None


@attrs.frozen
class IdentityPool:
    """Words and avatars a synthetic identity is drawn from. ``name = "<adjective> <noun> <nn>"``."""

    adjectives: tuple[str, ...]
    nouns: tuple[str, ...]
    avatars: tuple[str, ...]

    def compose(self, game_id: str, external_id: str) -> Identity:
        # SHA-256 rather than hash(): stable across processes, versions and stores.
        digest = hashlib.sha256(f"{game_id}\x00{external_id}".encode()).digest()
        a = int.from_bytes(digest[0:4], "big") % len(self.adjectives)
        n = int.from_bytes(digest[4:8], "big") % len(self.nouns)
        v = int.from_bytes(digest[8:12], "big") % len(self.avatars)
        number = int.from_bytes(digest[12:14], "big") % 100
        return Identity(name=f"{self.adjectives[a]} {self.nouns[n]} {number:02d}", avatar=self.avatars[v])


DEFAULT_POOL = IdentityPool(
    adjectives=(
        "Brave",
        "Swift",
        "Clever",
        "Lucky",
        "Mighty",
        "Quiet",
        "Bold",
        "Sunny",
        "Fuzzy",
        "Nimble",
        "Jolly",
        "Witty",
        "Calm",
        "Fierce",
        "Gentle",
        "Happy",
        "Keen",
        "Merry",
        "Proud",
        "Rapid",
        "Shiny",
        "Sly",
        "Steady",
        "Tiny",
        "Vivid",
        "Wild",
        "Zesty",
        "Cosmic",
        "Frosty",
        "Golden",
    ),
    nouns=(
        "Otter",
        "Falcon",
        "Panda",
        "Tiger",
        "Fox",
        "Badger",
        "Comet",
        "Dragon",
        "Eagle",
        "Gecko",
        "Hawk",
        "Koala",
        "Lynx",
        "Moose",
        "Narwhal",
        "Owl",
        "Puffin",
        "Raven",
        "Shark",
        "Turtle",
        "Walrus",
        "Wolf",
        "Yak",
        "Zebra",
        "Bison",
        "Cobra",
        "Dolphin",
        "Heron",
        "Ibis",
        "Jaguar",
    ),
    avatars=tuple(f"avatar_{i:02d}" for i in range(1, 25)),
)


def normalize_name(name: str, *, field: str = "name") -> str:
    return NAME.check(name, field)


def normalize_avatar(avatar: str | None, *, field: str = "avatar") -> str | None:
    return AVATAR.check_optional(avatar, field)


@functools.cache
def assigned_countries() -> frozenset[str]:
    """The alpha-2 codes ISO 3166-1 assigns to a country, from the list ``pycountry`` ships and keeps
    up to date with the standard; none of the codes it reserves or leaves to users (``UK``, ``EU``,
    ``XX``, ``ZZ``). Read on first use, not as the module loads: importing the list costs more than the
    rest of the core's import."""
    import pycountry

    return frozenset(country.alpha_2 for country in pycountry.countries)


def normalize_country(country: str | None) -> str | None:
    """ISO 3166-1 alpha-2 (:func:`assigned_countries`), upper case; anything else is treated as
    unknown (null): a geo header's ``XX`` (a CDN's "unknown") or ``T1`` (Tor) included."""
    if country is None:
        return None
    code = country.strip().upper()
    return code if code in assigned_countries() else None


#: A country someone chooses: two letters, white space around them ignored, kept upper case, and a code
#: ISO 3166-1 assigns (:func:`check_country`).
COUNTRY = Text(form=(r"\s*[A-Za-z]{2}\s*", "an ISO 3166-1 alpha-2 code"))


def check_country(country: str | None, field: str = "country") -> str | None:
    """A country someone chose (a guild's, an operator's override): a code ISO 3166-1 assigns, kept
    upper case; anything else is 400 ``invalid_request`` naming ``field``."""
    if country is None:
        return None
    code = normalize_country(COUNTRY.check(country, field))
    if code is None:
        problem = "must be a code ISO 3166-1 assigns to a country"
        raise invalid_request(f"{field} {problem}.", {field: problem})
    return code


def resolve_country(context: dict[str, Any] | None, geo: str | None) -> str | None:
    """The country a request resolves to (docs/players.md#country): ``playerContext.country``
    when the client sends one, else the geo header's or the address's; normalized (unknown: null). An
    operator's override wins over it where the country is shown (``Player.country``)."""
    sent = (context or {}).get("country")
    return normalize_country(sent if isinstance(sent, str) else geo)


def display_identity(display: Identity | None, anonymized: Identity) -> Identity:
    """docs/reference/players-and-identity.md#identity: always an object; the anonymized value when the player
    never set one."""
    return display if display is not None else anonymized
