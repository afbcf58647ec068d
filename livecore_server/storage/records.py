"""Server-only records: API keys as the server reads them back, and how game settings are stored."""

from __future__ import annotations

from typing import Any

import attrs
import orjson

from livecore.api.convert import make_converter
from livecore.ratelimit import BucketName
from livecore.scope import Actor, Environment, Permission, Scope

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

    @classmethod
    def from_row(cls, r: tuple[Any, ...]) -> ApiKey:
        env = Environment(r[4])
        return cls(
            id=r[0],
            game_id=r[1],
            studio_id=r[2],
            name=r[3],
            env=env,
            permission=Permission(r[5]),
            prefix=r[6],
            rate_limits={BucketName(k): int(v) for k, v in orjson.loads(r[7]).items()},
            scope=Scope(studio_id=r[2], game_id=r[1], env=env, actor=Actor(kind="api_key", prefix=r[6])),
            retires_at_ms=r[8],
        )
