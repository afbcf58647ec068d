"""The shape of a player secret, checked before anything is read for it: a string the service could not
have minted is refused without a database round trip (the namespace's guard)."""

from __future__ import annotations

import re

from livecore.players.commands import PLAYER_SECRET_PREFIX
from livecore_server.keys import SECRET_BODY

_PLAYER_SECRET = re.compile(f"{re.escape(PLAYER_SECRET_PREFIX)}{SECRET_BODY}")


def player_secret_shaped(secret: str | None) -> bool:
    """Whether ``secret`` could be a player secret the service minted (``ps_`` and 43 URL-safe
    characters)."""
    return secret is not None and _PLAYER_SECRET.fullmatch(secret) is not None
