"""The economy: resources, ledgers and balances (docs/reference/economy.md#resources,
docs/reference/gifts.md#catalog).

Rules:
- A game declares its resources in the manifest: currencies (including XP and other progression
  resources) and items. ``sessions`` and ``login_streak`` exist on every game as read-only system items,
  read from the player's activity; any manual change to them is 409 ``system_resource_locked``.
- Every change to a player's holding of a resource is an append-only ledger entry recording its delta, the
  balance after it, the reason, the source reference and the actor. The balance is the sum of the
  entries; it never goes below zero: a debit larger than the balance is refused whole
  (409 ``insufficient_balance`` for currencies, ``insufficient_quantity`` for items).
- Credits: claimed grants, server credit and item grant, migrations. Debits: client debit and consume,
  server debit and revoke, gifts that cost the sender, entry costs.
- Platform-managed games (manifest ``economy = "platform"``): the ledger is the player's wallet and
  inventory; changes fire ``wallet.changed`` / ``inventory.changed``.
- Studio-managed games (the default): the studio owns balances. The platform still records what it
  granted (so progression reads mean something) and the server API may adjust that record, but client
  debit and consume are refused with 409 ``studio_managed_economy``, and no balance webhooks fire.
- Items may carry per-instance ``parameters``: the catalog default (manifest) overridden, key by key, by
  what grants and the server API set for the player, and by an operator's edit, which may set only the
  attributes the catalog declares for the item, each to a value of its default's JSON type
  (:func:`check_attributes`): a ledger entry of delta 0, reason ``operator_edit``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import attrs

from livecore.economy.errors import (
    INSUFFICIENT_BALANCE,
    INSUFFICIENT_QUANTITY,
    RESOURCE_NOT_FOUND,
    STUDIO_MANAGED_ECONOMY,
    SYSTEM_RESOURCE_LOCKED,
)
from livecore.enums import Value, Values
from livecore.errors import LivecoreError, invalid_request
from livecore.games import Economy, Game, Resource, ResourceType
from livecore.limits import AMOUNT
from livecore.players.rules import Activity

# The id prefixes of the area's records, claimed in its declaration (``Area.id_prefixes``).
LEDGER_ENTRY_ID_PREFIX = "led"


SYSTEM_ITEMS = ("sessions", "login_streak")


class Reason(Values):
    """Why a ledger entry exists; callers may add their own free text in ``note``. An area whose commands
    write entries for reasons of its own owns them (``Reason.own``) and declares them
    (``Area(contributes=(VALUES(reason),))``, :mod:`livecore.enums`)."""

    GRANT = Value("grant")
    SERVER_CREDIT = Value("server_credit")
    SERVER_DEBIT = Value("server_debit")
    SERVER_GRANT = Value("server_grant")
    SERVER_REVOKE = Value("server_revoke")
    CLIENT_DEBIT = Value("client_debit")
    CLIENT_CONSUME = Value("client_consume")
    MIGRATION = Value("migration")
    ENTRY_COST = Value("entry_cost")
    OPERATOR_EDIT = Value("operator_edit")


@attrs.frozen
class Holding:
    """A player's balance of one resource, with an item's per-player parameter overrides."""

    key: str
    amount: int = 0
    parameters: dict[str, Any] = attrs.field(factory=dict)


def fold_holdings(source: dict[str, Holding], target: dict[str, Holding]) -> dict[str, Holding]:
    """The target's holdings after a merge: summed per key (so a resource's total across the two players
    never changes), the target's parameter overrides winning."""
    out = dict(target)
    for key, held in source.items():
        mine = out.get(key)
        if mine is None:
            out[key] = held
        else:
            out[key] = Holding(
                key=key, amount=mine.amount + held.amount, parameters={**held.parameters, **mine.parameters}
            )
    return out


@attrs.frozen
class LedgerEntry:
    id: str
    player_id: str
    game_id: str
    resource_key: str
    resource_type: ResourceType
    delta: int
    balance_after: int
    reason: Reason
    note: str | None
    source_ref_id: str | None
    actor: dict[str, Any]
    created_at: datetime


@attrs.frozen
class DebitTally:
    """A player's debits of a period, in aggregate (:mod:`livecore.simulation.fitting`): the moments it
    was debited at (debits of several currencies at one instant are one), the entries, the sum of each
    entry's share of the balance it took, and the sum of one over each balance debited."""

    moments: int
    entries: int
    share_sum: float
    inverse_sum: float = 0.0


@attrs.frozen
class NotedDebits:
    """A game's debits of one amount of a resource with one note in a period, in aggregate
    (:mod:`livecore.simulation.fitting`: an offer's sales): how many, and when the last was."""

    count: int
    last: datetime


def is_platform_managed(game: Game) -> bool:
    return game.settings.economy is Economy.PLATFORM


def resource(game: Game, key: str, expected: ResourceType | None = None) -> Resource:
    """The declared resource ``key`` (of the expected type). System items are locked; unknown: 404."""
    if key in SYSTEM_ITEMS:
        raise LivecoreError(
            SYSTEM_RESOURCE_LOCKED,
            f"{key} is a read-only system progression item.",
            {"resourceKey": key},
        )
    found = game.settings.resources.get(key)
    if found is None or (expected is not None and found.type is not expected):
        kind = expected.value if expected is not None else "resource"
        raise LivecoreError(RESOURCE_NOT_FOUND, f"No {kind} {key!r} in this game.", {"resourceKey": key})
    return found


def check_amount(amount: int, field: str = "amount") -> int:
    return AMOUNT.check(amount, field)


def apply_delta(holding: Holding, delta: int, res: Resource) -> Holding:
    """The holding after ``delta``; refuses to go below zero."""
    after = holding.amount + delta
    if after < 0:
        currency = res.type is ResourceType.CURRENCY
        raise LivecoreError(
            INSUFFICIENT_BALANCE if currency else INSUFFICIENT_QUANTITY,
            f"Not enough {res.key}: have {holding.amount}, need {-delta}.",
            {"resource": res.key, "needed": -delta, "have": holding.amount},
        )
    return attrs.evolve(holding, amount=after)


def check_client_spend(game: Game) -> None:
    """Client debit and consume exist only where the platform owns balances."""
    if not is_platform_managed(game):
        raise LivecoreError(
            STUDIO_MANAGED_ECONOMY,
            "This game's economy is studio-managed: spend through the studio backend.",
        )


def merged_parameters(res: Resource, overrides: dict[str, Any]) -> dict[str, Any]:
    return {**res.parameters, **overrides}


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def check_attributes(res: Resource, values: dict[str, Any]) -> None:
    """An operator's values of an item's attributes: at least one, each an attribute the catalog declares
    for the item (a key of its ``parameters``), of its default's JSON type (an integer is a number too; a
    default of null declares no type); else 400 ``invalid_request`` naming each ``attributes.<key>``."""
    if not values:
        raise invalid_request("Name at least one attribute.", {"attributes": "names no attribute"})
    problems: dict[str, str] = {}
    declared_keys = ", ".join(sorted(res.parameters)) or "none"
    for key, value in values.items():
        if key not in res.parameters:
            problems[f"attributes.{key}"] = f"not an attribute of {res.key} (declared: {declared_keys})"
            continue
        declared, given = _json_type(res.parameters[key]), _json_type(value)
        if declared not in ("null", given) and (declared, given) != ("number", "integer"):
            problems[f"attributes.{key}"] = f"must be {'an' if declared[0] in 'aio' else 'a'} {declared}"
    if problems:
        raise invalid_request(f"The catalog does not declare these values for {res.key}.", problems)


def check_held(holding: Holding) -> None:
    """An operator edits the values of an item the player holds: of one it holds none of there is nothing
    to edit, and the edit's ledger entry would make a holding the player never had. Else 409
    ``insufficient_quantity``, with the details of a consume's refusal."""
    if holding.amount < 1:
        raise LivecoreError(
            INSUFFICIENT_QUANTITY,
            f"The player holds no {holding.key}: an edit of its attributes needs at least one.",
            {"resource": holding.key, "needed": 1, "have": holding.amount},
        )


def system_item_amount(key: str, activity: Activity) -> int:
    """``sessions`` and ``login_streak`` read from the player's activity (0 before counting started)."""
    return activity.sessions if key == "sessions" else activity.streak


def progression(keys: list[str], holdings: dict[str, int], activity: Activity) -> dict[str, int]:
    """Progression values for ``keys``: ledger balances, system items from activity, 0 when never earned."""
    return {k: system_item_amount(k, activity) if k in SYSTEM_ITEMS else holdings.get(k, 0) for k in keys}
