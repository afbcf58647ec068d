"""What the tests comparing an embedded run with the server's share: ids named by the order in which they
first appear, bots' random identities blanked, and the webhook events of both sides as comparable text
(tests/server/test_embedded_equivalence.py, tests/server/test_simulation_equivalence.py).

Each side mints its own ids (from its own random source), so two runs of the same script differ in every
id and agree on everything else: an id is compared by when it first appeared on its side.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable
from typing import Any

import orjson

from livecore.api.convert import unstructure
from livecore.events import DomainEvent

Event = tuple[str, str, dict[str, Any]]  # a webhook event: kind, environment, payload

UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
# Record ids, and the placeholders a merged or erased player's row is kept under.
ID = re.compile(rf"__(?:merged|deleted)_{UUID}__|\b(?:[a-z]{{2,4}}_[0-9a-f]{{32}}|{UUID})\b")


def wire(view: Any) -> Any:
    """A core view (or a wire model) as the server's answer holds it (JSON)."""
    return orjson.loads(orjson.dumps(unstructure(view)))


BOT_FIELDS = ("displayIdentity", "name", "avatar", "anonymizedName", "anonymizedAvatar", "country")


def no_bot_names(value: Any) -> Any:
    """``value`` (JSON data) with the identities of bots blanked: the game's pool composes each from its
    bot's random id."""
    if isinstance(value, list):
        return [no_bot_names(v) for v in value]
    if not isinstance(value, dict):
        return value
    bot = value.get("isBot") is True
    return {k: "<bot>" if bot and k in BOT_FIELDS else no_bot_names(v) for k, v in value.items()}


class Ids:
    """One side's ids, named by the order in which they first appear (the two sides' ids differ)."""

    def __init__(self) -> None:
        self.seen: dict[str, str] = {}

    def named(self, text: str) -> str:
        return ID.sub(lambda m: self.seen.setdefault(m.group(0), f"<id{len(self.seen)}>"), text)

    def facts(self, value: Any) -> Any:
        """``value`` (JSON data) with its ids named."""
        return orjson.loads(self.named(orjson.dumps(value).decode()))


# What differs between the two sides by design: the acting key, and the random secret.
OPAQUE: dict[str, Callable[[Any], Any]] = {
    "actor": lambda v: v["kind"],
    "secretPrefix": lambda v: "<secret>",
    "by": lambda v: {**v, "apiKeyPrefix": "<key>"} if "apiKeyPrefix" in v else v,  # a guild change's
    "bots": lambda v: [{**b, "name": "<bot>"} for b in v],  # composed from the bots' random ids
}


def in_id_order(kind: str, data: dict[str, Any]) -> Any:
    """For the events a command makes in the order of random ids, the time they were made at (else None):
    a team's grants (its milestones', goal's and ranks' pay each seated member in seat order, and members
    seated at once are ordered by their random seat ids), and the boards a window's close finalizes (in the
    order of their ids, a lobby's derived from its random id)."""
    if kind == "grant.created" and str(data.get("sourceKind")).startswith("event_team"):
        return data["createdAt"]
    if kind == "leaderboard.finalized":
        return data["finalizedAt"]
    return None


def events_of(outbox: Iterable[DomainEvent]) -> list[Event]:
    """Outbox events as a receiver gets them: the payload as JSON (an embedded store holds the payload
    objects, a server's outbox the JSON it stored)."""
    return [(e.kind, e.env.value, orjson.loads(orjson.dumps(e.data))) for e in outbox]


def normalized(events: list[Event]) -> list[str]:
    """Each event as text, ids replaced by their order of first appearance, :data:`OPAQUE` fields
    blanked. A run of events of one kind made at one time in the order of random ids (:func:`in_id_order`)
    is put in the order of its texts with the ids masked, before the ids are named; every other event keeps
    its place."""
    texts = []
    for i, (kind, env, data) in enumerate(events):
        shown = {k: OPAQUE.get(k, lambda v: v)(v) for k, v in sorted(data.items())}
        at = in_id_order(kind, data)
        texts.append(((kind, at) if at is not None else (kind, i), f"{kind} ({env}) {shown}"))
    ordered: list[str] = []
    for _, run in itertools.groupby(texts, key=lambda t: t[0]):
        ordered.extend(sorted((t[1] for t in run), key=lambda text: ID.sub("<id>", text)))
    ids = Ids()
    return [ids.named(text) for text in ordered]
