"""Server-only records: API keys as the server reads them back, and how game settings are stored."""

from __future__ import annotations

import attrs

from livecore.api.convert import make_converter
from livecore.ratelimit import BucketName
from livecore.scope import Environment, Permission, Scope

# Game settings are stored as JSON with attribute names; lenient so an older server reads newer rows.
settings_converter = make_converter(camel_case=False, forbid_extra_keys=False)


@attrs.frozen
class ApiKey:
    id: str
    game_id: str
    studio_id: str
    name: str
    env: Environment
    permission: Permission
    prefix: str
    rate_limits: dict[BucketName, int]
    # Built once per loaded key, not once per request.
    scope: Scope
    retires_at_ms: int | None = None  # a rotated key's end of grace (service time)
