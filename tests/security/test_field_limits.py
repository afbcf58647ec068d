"""Field sizes (docs/reference/conventions.md#limits), enforced and published.

The probe: a client could store about 1 MB per write, in `playerContext`, in `reason` and `sourceRefId`,
and in purchase `metadata` (five writes grew the database by 9 MB); and the OpenAPI documents left out
every documented limit, so a client generated from them could not check what the server refuses.
Free-form objects are at most 4 KiB as compact JSON, free-form text at most 200 characters, and every
field's own limit holds: over it is a 400 `invalid_request` naming the field and nothing is stored, on
the server as in an embedded simulation (the same rule, checked by the core). The documents publish
each limit from the same declaration.
"""

from __future__ import annotations

import typing
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import attrs
import orjson
import pytest

from livecore.api.convert import camel
from livecore.api.openapi import DOCUMENTED_SURFACES, _Schemas, build_documents
from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.errors import INVALID_REQUEST, LivecoreError
from livecore.games import Game, Studio
from livecore.hashing import KeyedHasher
from livecore.limits import (
    FREE_FORM,
    FREE_TEXT,
    INT64_MAX,
    INT64_MIN,
    Count,
    FreeForm,
    Range,
    Text,
    count_of,
    rule_of,
)
from livecore.memory import MemoryStore
from livecore.player_tools.commands.moderation import ban_player
from livecore.players.commands import first_contact, register, set_identity
from livecore.players.memory import PlayerTables
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from tests.conftest import World
from tests.installed import ALL

IDEM = {"Idempotency-Key": "k-limits"}
SIZE = FREE_FORM.max_bytes
TEXT = FREE_TEXT.max_length or 0


def blob(size: int) -> dict[str, str]:
    """A free-form object of exactly ``size`` bytes as compact JSON."""
    value = {"pad": ""}
    value["pad"] = "x" * (size - len(orjson.dumps(value)))
    assert len(orjson.dumps(value)) == size
    return value


OBJECT = f"must be at most {SIZE // 1024} KiB as compact JSON"
FREE = f"must be at most {TEXT} characters"
BAN = f"must be 1 to {TEXT} characters after trimming"
CREDIT = "/server/v1/players/alice/wallet/coins/credit"
PURCHASE = {
    "transactionId": "t-1",
    "store": "app_store",
    "productId": "gems_100",
    "productType": "consumable",
    "amountMinor": 199,
    "currency": "USD",
}
GRANT_ENTRY = {"type": "currency", "key": "coins", "amount": 1}

# (a name for the probe, method, path, the body at the limit, the body one past it, field, problem)
CASES = [
    ("register playerContext", "POST", "/sdk/v1/players/alice/register",
     {"playerContext": blob(SIZE)}, {"playerContext": blob(SIZE + 1)}, "playerContext", OBJECT),
    ("credit reason", "POST", CREDIT,
     {"amount": 1, "reason": "r" * TEXT}, {"amount": 1, "reason": "r" * (TEXT + 1)}, "reason", FREE),
    ("credit sourceRefId", "POST", CREDIT,
     {"amount": 1, "sourceRefId": "s" * TEXT}, {"amount": 1, "sourceRefId": "s" * (TEXT + 1)},
     "sourceRefId", FREE),
    ("purchase metadata", "POST", "/server/v1/players/alice/purchases",
     {**PURCHASE, "metadata": blob(SIZE)}, {**PURCHASE, "metadata": blob(SIZE + 1)}, "metadata", OBJECT),
    ("grant metadata", "POST", "/server/v1/players/alice/grants",
     {"idempotencyKey": "k-limits", "entries": [GRANT_ENTRY], "metadata": blob(SIZE)},
     {"idempotencyKey": "k-limits", "entries": [GRANT_ENTRY], "metadata": blob(SIZE + 1)},
     "metadata", OBJECT),
    ("grant sourceRefId", "POST", "/server/v1/players/alice/grants",
     {"idempotencyKey": "k-limits", "entries": [GRANT_ENTRY], "sourceRefId": "s" * TEXT},
     {"idempotencyKey": "k-limits", "entries": [GRANT_ENTRY], "sourceRefId": "s" * (TEXT + 1)},
     "sourceRefId", FREE),
    ("ban reason", "POST", "/server/v1/players/alice/ban",
     {"reason": "r" * TEXT}, {"reason": "r" * (TEXT + 1)}, "reason", BAN),
    ("debug reason", "POST", "/server/v1/players/alice/debug",
     {"reason": "r" * TEXT}, {"reason": "r" * (TEXT + 1)}, "reason", FREE),
]  # fmt: skip


@pytest.mark.parametrize(
    ("method", "path", "at_limit", "past_limit", "field", "problem"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
async def test_one_past_each_limit_is_400_and_stores_nothing(
    world: World,
    method: str,
    path: str,
    at_limit: dict[str, Any],
    past_limit: dict[str, Any],
    field: str,
    problem: str,
) -> None:
    key = "test-client" if path.startswith("/sdk/") else "test-server"
    if key == "test-server":
        await world.register("alice")
    before = world.event_kinds()
    status, body, _ = await world.call(method, path, key=key, json=past_limit, headers=IDEM)
    assert status == 400, body
    assert body["error"]["details"]["fields"] == {field: problem}
    assert world.event_kinds() == before
    status, body, _ = await world.call(method, path, key=key, json=at_limit, headers=IDEM)
    assert status in (200, 201), body


async def test_megabyte_writes_are_refused(world: World) -> None:
    """The probe itself: five writes of about 1 MB each, none of them stored."""
    await world.register("alice")
    before = world.event_kinds()
    big = "x" * 900_000
    writes = [
        ("POST", "/sdk/v1/players/bob/register", "test-client", {"playerContext": {"bio": big}}),
        ("POST", CREDIT, "test-server", {"amount": 1, "reason": big}),
        ("POST", CREDIT, "test-server", {"amount": 1, "sourceRefId": big}),
        ("POST", "/server/v1/players/alice/purchases", "test-server", {**PURCHASE, "metadata": {"x": big}}),
        ("POST", "/server/v1/players/alice/ban", "test-server", {"reason": big}),
    ]
    for method, path, key, payload in writes:
        status, body, _ = await world.call(method, path, key=key, json=payload, headers=IDEM)
        assert status == 400, (path, body)
    assert world.event_kinds() == before


# --- The embedded simulation refuses the same -------------------------------------------------------

SCOPE = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)


def _refusal(action: Any) -> dict[str, str]:
    store = MemoryStore()
    store.add_game(Studio(id="std_1", key="acme"), Game(id="gam_1", studio_id="std_1", key="g", name="G"))
    rt = Runtime(
        clock=ManualClock(datetime(2026, 3, 2, tzinfo=UTC)),
        rng=SeededRandomSource(1),
        hasher=KeyedHasher(b"k" * 32),
    )
    with pytest.raises(LivecoreError) as exc, store.transaction() as tx:
        action(tx, rt)
    assert exc.value.code is INVALID_REQUEST
    assert store.tables_of(PlayerTables).players == {}
    fields: dict[str, str] = exc.value.details["fields"]  # type: ignore[index]
    return fields


def test_the_embedded_simulation_refuses_the_same() -> None:
    context = blob(SIZE + 1)
    assert _refusal(lambda tx, rt: register(tx, rt, SCOPE, "alice", context=context)) == {
        "playerContext": OBJECT
    }
    assert _refusal(lambda tx, rt: first_contact(tx, rt, SCOPE, "\u200b")) == {
        "externalPlayerId": "must not contain control or format characters"
    }

    def rename(tx: Any, rt: Runtime) -> None:
        player = first_contact(tx, rt, SCOPE, "alice")
        set_identity(tx, rt, player, name="\u202eevil", avatar=None, by_player=True)

    assert _refusal(rename) == {"name": "must not contain control or format characters"}

    def ban(tx: Any, rt: Runtime) -> None:
        ban_player(tx, rt, SCOPE, first_contact(tx, rt, SCOPE, "alice"), "r" * (TEXT + 1))

    assert _refusal(ban) == {"reason": BAN}


# --- The documents publish the limits ---------------------------------------------------------------


def _declared() -> Iterator[tuple[type, attrs.Attribute[Any]]]:
    """Every field of every request body and query model that declares a limit."""
    seen: set[type] = set()

    def walk(cls: type) -> Iterator[tuple[type, attrs.Attribute[Any]]]:
        if cls in seen:
            return
        seen.add(cls)
        hints = typing.get_type_hints(cls)
        for field in attrs.fields(cls):
            if rule_of(field) is not None or count_of(field) is not None:
                yield cls, field
            for arg in (hints[field.name], *typing.get_args(hints[field.name])):
                if isinstance(arg, type) and attrs.has(arg):
                    yield from walk(arg)

    for route in ALL:
        for model in (route.request, route.query):
            if model is not None:
                yield from walk(model)


def _expected(field: attrs.Attribute[Any]) -> dict[str, Any]:
    """The keywords the field's limit must put in its schema (of its items, for a list's rule)."""
    out: dict[str, Any] = {}
    rule = rule_of(field)
    if isinstance(rule, Text):
        out.update({"maxLength": rule.max_length} if rule.max_length is not None else {})
        out.update({"minLength": rule.min_length} if rule.min_length else {})
    elif isinstance(rule, FreeForm):
        out["x-max-json-bytes"] = rule.max_bytes
    elif isinstance(rule, Range):
        out.update({"minimum": rule.minimum, "maximum": rule.maximum})
    return out


def _count_keywords(count: Count | None, schema: dict[str, Any]) -> dict[str, Any]:
    """The keywords of a list's count, or of a map's (its members)."""
    if count is None:
        return {}
    what = "Properties" if schema.get("type") == "object" else "Items"
    out = {f"max{what}": count.max_items} if count.max_items is not None else {}
    return {**out, f"min{what}": count.min_items} if count.min_items else out


def test_the_openapi_documents_publish_every_declared_limit() -> None:
    docs = build_documents(ALL, version="test", surfaces=DOCUMENTED_SURFACES)
    components = {
        name: schema for doc in docs.values() for name, schema in doc["components"]["schemas"].items()
    }
    # By query model and name: two routes' queries may both have a ``limit``, with different rules.
    queries = {
        (route.query, param["name"]): param["schema"]
        for route in ALL
        if route.query is not None and route.surface in docs
        for param in docs[route.surface]["paths"][route.full_path][route.method.lower()]["parameters"]
        if param.get("in") == "query"
    }
    checked = 0
    for cls, field in _declared():
        name = camel(field.name)
        component = components.get(f"{cls.__name__}Input") or components.get(cls.__name__)
        schema = component["properties"][name] if component else queries[(cls, name)]
        # A list's rule is of each item, a mapping's of each value.
        values = schema.get("additionalProperties")
        items = schema.get("items", values if isinstance(values, dict) else schema)
        assert _expected(field).items() <= items.items(), (cls.__name__, name, schema)
        assert _count_keywords(count_of(field), schema).items() <= schema.items(), (
            cls.__name__,
            name,
            schema,
        )
        checked += 1
    assert checked >= 40


def test_the_documents_publish_int64_one_of_and_the_words_a_path_parameter_never_takes() -> None:
    docs = build_documents(ALL, version="test", surfaces=DOCUMENTED_SURFACES)
    schemas = _Schemas()
    integer = schemas.schema(int, "input")
    assert (integer["minimum"], integer["maximum"]) == (INT64_MIN, INT64_MAX)
    spend = docs[next(iter(docs))]  # the client document first
    server = docs[list(docs)[1]]
    offset = next(
        p["schema"]
        for p in server["paths"]["/server/v1/spend/players"]["get"]["parameters"]
        if p.get("name") == "offset"
    )
    assert (offset["minimum"], offset["maximum"]) == (0, 2**62)  # a page's start: OFFSET
    for model in ("FriendTarget", "SendGiftRequest"):
        branches = spend["components"]["schemas"][model]["oneOf"]
        assert sorted(b["required"][0] for b in branches) == ["externalPlayerId", "friendCode"]
    remove = spend["paths"]["/sdk/v1/players/{externalId}/friends/{friendExternalId}"]["delete"]
    friend = next(p for p in remove["parameters"] if p.get("name") == "friendExternalId")
    assert {"code", "suggestions", "requests", "search", "blocks"} <= set(friend["schema"]["not"]["enum"])
