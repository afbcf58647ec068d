"""The embedded runtime refuses exactly what the server refuses.

One script of operations (players, friends, heartbeats, search, suggestions, gifts, grants, purchases,
bans), refusals included, runs step by step through the commands on the in-memory store (as an embedded
simulation runs them: plain players, no HTTP and no endpoint in front) and through the real server. Every
step's outcome must be the same on both: the facts of the answer, or the error code. Then the webhook
events both wrote must be the same, in the same order. Ids differ between the two and are compared by
the order in which they first appear.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import AsyncIterator, Callable
from typing import Any

import orjson
import pytest

from livecore.clock import ManualClock, format_ts
from livecore.commands import Runtime, moderation
from livecore.commands import economy as economy_cmd
from livecore.commands import friends as friends_cmd
from livecore.commands import gifts as gifts_cmd
from livecore.commands import grants as grants_cmd
from livecore.commands import players as players_cmd
from livecore.commands import purchases as purchases_cmd
from livecore.errors import LivecoreError
from livecore.games import Entry, Game, ResourceType, Studio
from livecore.gifts import SendRequest
from livecore.grants import GrantKind
from livecore.hashing import KeyedHasher
from livecore.memory import MemoryStore
from livecore.players import Player
from livecore.presence import Presence
from livecore.purchases import PurchaseRequest
from livecore.rand import SeededRandomSource
from livecore.scope import Actor, Environment, Scope
from livecore.store import Transaction
from tests.conftest import START, World, start_world

Outcome = tuple[str, Any]  # ("ok", facts) or ("error", code)
MAX_FRIENDS = 3
UNKNOWN = {"request": "frq_019cae6b660073ac8e672084ab649e49", "gift": "019cae6b-6600-73ac-8e67-2084ab649e49"}
PURCHASE = {"store": "app_store", "productId": "gems_100", "productType": "consumable", "currency": "USD"}


def presence_facts(presence: Presence, online: bool) -> dict[str, Any]:
    at = presence.last_active_at
    return {"online": online, "lastActiveAt": format_ts(at) if at else None, "status": presence.status}


def row_facts(row: dict[str, Any]) -> dict[str, Any]:
    """The facts of a friend row on the wire."""
    return {
        "friend": row["externalPlayerId"],
        "friendsSince": row["friendsSince"],
        "online": row["online"],
        "lastActiveAt": row["lastActiveAt"],
        "status": row["status"],
    }


class Embedded:
    """The commands on the memory store, called the way an embedded simulation calls them."""

    def __init__(self, game: Game) -> None:
        self.store = MemoryStore()
        self.store.add_game(Studio(id=game.studio_id, key="acme"), game)
        self.game = game
        self.clock = ManualClock(START)
        self.rt = Runtime(clock=self.clock, rng=SeededRandomSource(11), hasher=KeyedHasher(b"e" * 32))
        self.client = Scope(game.studio_id, game.id, Environment.TEST, Actor("api_key", "client"))
        self.server = Scope(game.studio_id, game.id, Environment.TEST, Actor("api_key", "server"))
        self.labels: dict[str, str] = dict(UNKNOWN)

    def _run(self, op: Callable[[Transaction], Any]) -> Outcome:
        try:
            with self.store.transaction() as tx:
                return "ok", op(tx)
        except LivecoreError as exc:
            return "error", exc.code.value

    def _me(self, tx: Transaction, external_id: str) -> Player:
        return players_cmd.get_player(tx, self.client, external_id)

    def _online(self, p: Player) -> dict[str, Any]:
        ttl = self.game.settings.presence.ttl_seconds
        return presence_facts(p.presence, p.presence.online(self.clock.now(), ttl))

    def _friend(self, p: Player, since: Any) -> dict[str, Any]:
        return {"friend": p.external_id, "friendsSince": format_ts(since), **self._online(p)}

    def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)

    def events(self) -> list[tuple[str, dict[str, Any]]]:
        # As a receiver gets them: the payload objects as JSON (the server's come back from its outbox).
        return [(e.kind, orjson.loads(orjson.dumps(e.data))) for e in self.store.outbox]

    def register(self, who: str) -> Outcome:
        def op(tx: Transaction) -> dict[str, Any]:
            p = players_cmd.register(tx, self.rt, self.client, who).player
            return {"externalPlayerId": p.external_id, "anonymizedName": p.anonymized.name}

        return self._run(op)

    def set_name(self, who: str, name: str) -> Outcome:
        def op(tx: Transaction) -> dict[str, Any]:
            p = players_cmd.set_own_identity(tx, self.rt, self._me(tx, who), name=name, avatar=None)
            assert p.display is not None
            return {"name": p.display.name}

        return self._run(op)

    def heartbeat(self, who: str, status: str | None) -> Outcome:
        def op(tx: Transaction) -> dict[str, Any]:
            _, done = players_cmd.heartbeat(tx, self.rt, self._me(tx, who), status)
            ttl = self.game.settings.presence.ttl_seconds
            return presence_facts(done.presence, done.presence.online(self.clock.now(), ttl))

        return self._run(op)

    def add(self, who: str, target: str, label: str) -> Outcome:
        def op(tx: Transaction) -> dict[str, Any]:
            other = friends_cmd.resolve_target(tx, self.client, None, target)
            added = friends_cmd.add(tx, self.rt, self.client, self.game, self._me(tx, who), other)
            if added.accepted:
                friend = tx.players.by_id(other.id)
                assert friend is not None
                return {"status": "accepted", **self._friend(friend, self.clock.now())}
            assert added.request is not None
            self.labels[label] = added.request.id
            return {"status": "pending", "to": target, "createdAt": format_ts(added.request.created_at)}

        return self._run(op)

    def accept(self, who: str, label: str) -> Outcome:
        def op(tx: Transaction) -> dict[str, Any]:
            me = self._me(tx, who)
            friend = friends_cmd.accept(tx, self.rt, self.client, self.game, me, self.labels[label])
            return self._friend(friend, self.clock.now())

        return self._run(op)

    def decline(self, who: str, label: str) -> Outcome:
        return self._drop(friends_cmd.decline, who, label, "declined")

    def cancel(self, who: str, label: str) -> Outcome:
        return self._drop(friends_cmd.cancel, who, label, "cancelled")

    def _drop(self, command: Callable[..., object], who: str, label: str, status: str) -> Outcome:
        def op(tx: Transaction) -> dict[str, Any]:
            command(tx, self.client, self._me(tx, who), self.labels[label])
            return {"status": status}

        return self._run(op)

    def remove(self, who: str, other: str) -> Outcome:
        def op(tx: Transaction) -> dict[str, Any]:
            friend = players_cmd.get_player(tx, self.client, other)
            friends_cmd.remove(tx, self.rt, self.client, self._me(tx, who), friend)
            return {"removed": True}

        return self._run(op)

    def block(self, who: str, other: str) -> Outcome:
        def op(tx: Transaction) -> dict[str, Any]:
            target = friends_cmd.resolve_target(tx, self.client, None, other)
            made = friends_cmd.block(tx, self.rt, self.client, self._me(tx, who), target)
            return {"blocked": other, "blockedAt": format_ts(made.created_at)}

        return self._run(op)

    def unblock(self, who: str, other: str) -> Outcome:
        def op(tx: Transaction) -> dict[str, Any]:
            target = players_cmd.get_player(tx, self.client, other)
            friends_cmd.unblock(tx, self._me(tx, who), target)
            return {"unblocked": True}

        return self._run(op)

    def search(self, who: str, text: str, limit: int) -> Outcome:
        return self._run(
            lambda tx: [
                [h.player.external_id, h.relation.value]
                for h in friends_cmd.search(tx, self.client, self._me(tx, who), text, limit)
            ]
        )

    def suggestions(self, who: str, limit: int) -> Outcome:
        return self._run(
            lambda tx: sorted(
                p.external_id
                for p in friends_cmd.suggestions(tx, self.rt, self.client, self._me(tx, who), limit)
            )
        )

    def friends(self, who: str) -> Outcome:
        return self._run(
            lambda tx: sorted(
                (self._friend(p, f.since) for f, p in tx.friends.list_friends(self._me(tx, who).id)),
                key=lambda r: r["friend"],
            )
        )

    def send_gift(self, who: str, to: str, amount: int, label: str) -> Outcome:
        def op(tx: Transaction) -> dict[str, Any]:
            recipient = friends_cmd.resolve_target(tx, self.client, None, to)
            request = SendRequest(ResourceType.CURRENCY, "coins", amount)
            sent = gifts_cmd.send(tx, self.rt, self.client, self.game, self._me(tx, who), recipient, request)
            self.labels[label] = sent.gift.id
            self.labels[f"{label}.grant"] = sent.gift.grant_id
            return {"to": to, "amount": amount, "status": "pending", "sentAt": format_ts(sent.gift.sent_at)}

        return self._run(op)

    def claim_gift(self, who: str, label: str) -> Outcome:
        def op(tx: Transaction) -> dict[str, Any]:
            gift = gifts_cmd.claim(tx, self.rt, self.client, self._me(tx, who), self.labels[label])
            assert gift.claimed_at is not None
            return {"status": "claimed", "claimedAt": format_ts(gift.claimed_at)}

        return self._run(op)

    def create_grant(self, who: str, amount: int, label: str) -> Outcome:
        def op(tx: Transaction) -> dict[str, Any]:
            grant = grants_cmd.create_grant(
                tx,
                self.rt,
                self.server,
                who,
                kind=GrantKind.REWARD,
                entries=[Entry(type=ResourceType.CURRENCY, key="coins", amount=amount)],
                expires_at=None,
                source_kind="api",
                source_ref_id=None,
                metadata=None,
            )
            self.labels[label] = grant.id
            return {"status": grant.status.value, "externalPlayerId": grant.external_player_id}

        return self._run(op)

    def claim_grant(self, who: str, label: str) -> Outcome:
        def op(tx: Transaction) -> dict[str, Any]:
            grant = grants_cmd.claim(tx, self.rt, self.client, self._me(tx, who), self.labels[label])
            return {"status": grant.status.value}

        return self._run(op)

    def wallet(self, who: str) -> Outcome:
        return self._run(lambda tx: {"coins": tx.ledger.holding(self._me(tx, who).id, "coins").amount})

    def debit(self, who: str, amount: int) -> Outcome:
        def op(tx: Transaction) -> dict[str, Any]:
            change = economy_cmd.client_spend(
                tx,
                self.rt,
                self.client,
                self.game,
                self._me(tx, who),
                ResourceType.CURRENCY,
                "coins",
                amount,
                note=None,
                source_ref_id=None,
            )
            return {"balance": change.holding.amount}

        return self._run(op)

    def purchase(self, who: str, transaction_id: str, amount_minor: int) -> Outcome:
        def op(tx: Transaction) -> dict[str, Any]:
            request = PurchaseRequest(
                transaction_id=transaction_id,
                store=PURCHASE["store"],
                product_id=PURCHASE["productId"],
                product_type=PURCHASE["productType"],
                amount_minor=amount_minor,
                currency=PURCHASE["currency"],
            )
            done = purchases_cmd.report(tx, self.rt, self.client, self._me(tx, who), request)
            return {"purchaseCount": done.spend.purchase_count, "lifetime": done.spend.lifetime_amount_minor}

        return self._run(op)

    def ban(self, who: str) -> Outcome:
        return self._run(
            lambda tx: {
                "applied": moderation.ban_player(
                    tx, self.rt, self.server, players_cmd.get_player(tx, self.server, who), "cheating"
                ).applied
            }
        )

    def unban(self, who: str) -> Outcome:
        return self._run(
            lambda tx: {
                "applied": moderation.unban_player(
                    tx, self.rt, self.server, players_cmd.get_player(tx, self.server, who)
                ).applied
            }
        )


class Server:
    """The same operations as HTTP requests to the real server."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.secrets: dict[str, str] = {}
        self.labels: dict[str, str] = dict(UNKNOWN)
        self.keys = itertools.count()

    async def _call(self, method: str, path: str, json: Any = None, *, who: str | None = None) -> Outcome:
        """A client call as ``who`` (its secret), else a server call with an idempotency key."""
        if who is not None:
            status, body, _ = await self.world.call(
                method,
                f"/sdk/v1/players/{who}{path}",
                key="test-client",
                json=json,
                secret=self.secrets.get(who),
            )
        else:
            keyed = isinstance(json, dict) and "idempotencyKey" in json
            headers = {} if keyed else {"Idempotency-Key": f"k-{next(self.keys)}"}
            status, body, _ = await self.world.call(method, f"/server/v1{path}", json=json, headers=headers)
        if status >= 400:
            return "error", body["error"]["code"]
        return "ok", body["data"]

    def advance(self, seconds: float) -> None:
        self.world.clock.advance(seconds)

    def events(self) -> list[tuple[str, dict[str, Any]]]:
        return [(e.kind, e.data) for e in self.world.events()]

    async def register(self, who: str) -> Outcome:
        status, body, _ = await self.world.call("POST", f"/sdk/v1/players/{who}/register", key="test-client")
        if status >= 400:
            return "error", body["error"]["code"]
        self.secrets[who] = body["data"]["playerSecret"]
        data = body["data"]
        return "ok", {
            "externalPlayerId": data["externalPlayerId"],
            "anonymizedName": data["anonymizedIdentity"]["name"],
        }

    async def set_name(self, who: str, name: str) -> Outcome:
        kind, data = await self._call("PUT", "/identity", {"name": name}, who=who)
        return (kind, {"name": data["displayIdentity"]["name"]}) if kind == "ok" else (kind, data)

    async def heartbeat(self, who: str, status: str | None) -> Outcome:
        return await self._call("POST", "/presence", {"status": status}, who=who)

    async def add(self, who: str, target: str, label: str) -> Outcome:
        kind, data = await self._call("POST", "/friends/requests", {"externalPlayerId": target}, who=who)
        if kind != "ok":
            return kind, data
        if data["status"] == "accepted":
            return kind, {"status": "accepted", **row_facts(data["friend"])}
        request = data["request"]
        self.labels[label] = request["requestId"]
        to = request["player"]["externalPlayerId"]
        return kind, {"status": "pending", "to": to, "createdAt": request["createdAt"]}

    async def accept(self, who: str, label: str) -> Outcome:
        kind, data = await self._call("POST", f"/friends/requests/{self.labels[label]}/accept", who=who)
        return (kind, row_facts(data["friend"])) if kind == "ok" else (kind, data)

    async def decline(self, who: str, label: str) -> Outcome:
        kind, data = await self._call("POST", f"/friends/requests/{self.labels[label]}/decline", who=who)
        return (kind, {"status": data["status"]}) if kind == "ok" else (kind, data)

    async def cancel(self, who: str, label: str) -> Outcome:
        kind, data = await self._call("POST", f"/friends/requests/{self.labels[label]}/cancel", who=who)
        return (kind, {"status": data["status"]}) if kind == "ok" else (kind, data)

    async def remove(self, who: str, other: str) -> Outcome:
        return await self._call("DELETE", f"/friends/{other}", who=who)

    async def block(self, who: str, other: str) -> Outcome:
        kind, data = await self._call("POST", "/friends/blocks", {"externalPlayerId": other}, who=who)
        if kind != "ok":
            return kind, data
        return kind, {"blocked": data["block"]["externalPlayerId"], "blockedAt": data["block"]["blockedAt"]}

    async def unblock(self, who: str, other: str) -> Outcome:
        return await self._call("DELETE", f"/friends/blocks/{other}", who=who)

    async def search(self, who: str, text: str, limit: int) -> Outcome:
        kind, data = await self._call("GET", f"/friends/search?q={text}&limit={limit}", who=who)
        if kind != "ok":
            return kind, data
        return kind, [[h["externalPlayerId"], h["relationship"]] for h in data]

    async def suggestions(self, who: str, limit: int) -> Outcome:
        kind, data = await self._call("GET", f"/friends/suggestions?limit={limit}", who=who)
        return (
            (kind, sorted(s["externalPlayerId"] for s in data["suggestions"]))
            if kind == "ok"
            else (kind, data)
        )

    async def friends(self, who: str) -> Outcome:
        kind, data = await self._call("GET", "/friends", who=who)
        if kind != "ok":
            return kind, data
        return kind, sorted((row_facts(r) for r in data["friends"]), key=lambda r: r["friend"])

    async def send_gift(self, who: str, to: str, amount: int, label: str) -> Outcome:
        body = {"externalPlayerId": to, "type": "currency", "resourceKey": "coins", "amount": amount}
        kind, data = await self._call("POST", "/friends/gifts", body, who=who)
        if kind != "ok":
            return kind, data
        gift = data["gift"]
        self.labels[label] = gift["giftId"]
        self.labels[f"{label}.grant"] = gift["grantId"]
        return kind, {
            "to": gift["player"]["externalPlayerId"],
            "amount": gift["amount"],
            "status": gift["status"],
            "sentAt": gift["sentAt"],
        }

    async def claim_gift(self, who: str, label: str) -> Outcome:
        kind, data = await self._call("POST", f"/friends/gifts/{self.labels[label]}/claim", who=who)
        if kind != "ok":
            return kind, data
        return kind, {"status": data["gift"]["status"], "claimedAt": data["gift"]["claimedAt"]}

    async def create_grant(self, who: str, amount: int, label: str) -> Outcome:
        body = {
            "idempotencyKey": f"grant-{label}",
            "entries": [{"type": "currency", "key": "coins", "amount": amount}],
        }
        kind, data = await self._call("POST", f"/players/{who}/grants", body)
        if kind != "ok":
            return kind, data
        self.labels[label] = data["grant"]["grantId"]
        return kind, {
            "status": data["grant"]["status"],
            "externalPlayerId": data["grant"]["externalPlayerId"],
        }

    async def claim_grant(self, who: str, label: str) -> Outcome:
        kind, data = await self._call("POST", f"/grants/{self.labels[label]}/claim", who=who)
        return (kind, {"status": data["grant"]["status"]}) if kind == "ok" else (kind, data)

    async def wallet(self, who: str) -> Outcome:
        kind, data = await self._call("GET", "/wallet", who=who)
        if kind != "ok":
            return kind, data
        return kind, {c["key"]: c["balance"] for c in data["currencies"] if c["key"] == "coins"}

    async def debit(self, who: str, amount: int) -> Outcome:
        kind, data = await self._call("POST", "/wallet/coins/debit", {"amount": amount}, who=who)
        return (kind, {"balance": data["balance"]}) if kind == "ok" else (kind, data)

    async def purchase(self, who: str, transaction_id: str, amount_minor: int) -> Outcome:
        body = {**PURCHASE, "transactionId": transaction_id, "amountMinor": amount_minor}
        kind, data = await self._call("POST", "/purchases", body, who=who)
        if kind != "ok":
            return kind, data
        return kind, {"purchaseCount": data["purchaseCount"], "lifetime": data["lifetimeAmountMinor"]}

    async def ban(self, who: str) -> Outcome:
        kind, data = await self._call("POST", f"/players/{who}/ban", {"reason": "cheating"})
        return (kind, {"applied": data["applied"]}) if kind == "ok" else (kind, data)

    async def unban(self, who: str) -> Outcome:
        kind, data = await self._call("POST", f"/players/{who}/unban")
        return (kind, {"applied": data["applied"]}) if kind == "ok" else (kind, data)


# (operation, arguments, the expected outcome: "ok" or an error code). The expectation keeps the script
# honest: both sides agreeing on a refusal the script did not mean would prove nothing.
SCRIPT: list[tuple[str, tuple[Any, ...], str]] = [
    *(("register", (p,), "ok") for p in ("ann", "bob", "cat", "dan", "eve", "fay")),
    *(("set_name", (p, p.title()), "ok") for p in ("ann", "bob", "cat", "dan", "eve", "fay")),
    ("heartbeat", ("ann", "in menu"), "ok"),
    ("heartbeat", ("ann", "x" * 65), "invalid_request"),
    ("advance", (10,), "ok"),
    ("heartbeat", ("bob", None), "ok"),
    # Friends: send, accept, reciprocal add, decline, cancel, and the refusals.
    ("add", ("ann", "bob", "ann-bob"), "ok"),
    ("add", ("ann", "bob", "again"), "ok"),  # the existing request answers
    ("add", ("ann", "ann", "self"), "cannot_friend_self"),
    ("add", ("ann", "nobody", "nobody"), "player_not_found"),
    ("accept", ("ann", "ann-bob"), "friend_request_not_found"),  # only the target accepts
    ("accept", ("bob", "ann-bob"), "ok"),
    ("add", ("bob", "ann", "twice"), "already_friends"),
    ("add", ("cat", "ann", "cat-ann"), "ok"),
    ("add", ("ann", "cat", "reciprocal"), "ok"),  # cat asked ann: friends at once
    ("add", ("dan", "ann", "dan-ann"), "ok"),
    ("decline", ("ann", "dan-ann"), "ok"),
    ("decline", ("ann", "dan-ann"), "friend_request_not_found"),
    ("add", ("ann", "eve", "ann-eve"), "ok"),
    ("cancel", ("ann", "request"), "friend_request_not_found"),
    ("cancel", ("ann", "ann-eve"), "ok"),
    ("add", ("ann", "dan", "limit"), "ok"),
    ("accept", ("dan", "limit"), "ok"),
    ("add", ("ann", "eve", "over"), "friend_limit_reached"),  # ann has 3 friends: bob, cat, dan
    ("remove", ("ann", "eve"), "not_friends_yet"),
    ("remove", ("ann", "dan"), "ok"),
    ("block", ("eve", "ann"), "ok"),
    ("block", ("eve", "ann"), "ok"),  # the existing block stands
    ("add", ("ann", "eve", "blocked"), "player_blocked"),
    ("unblock", ("ann", "eve"), "not_blocked"),
    ("block", ("ann", "cat"), "ok"),  # breaks the friendship
    ("friends", ("ann",), "ok"),
    ("search", ("ann", "a", 10), "ok"),
    ("search", ("fay", "an", 10), "ok"),  # under 3 characters: the start of names
    ("search", ("fay", "an", 1), "ok"),
    ("search", ("bob", "ay", 10), "ok"),
    ("search", ("bob", "fay", 10), "ok"),
    ("search", ("fay", "bo", 10), "ok"),
    ("search", ("cat", "", 10), "invalid_request"),
    ("search", ("dan", "n", 1), "ok"),
    ("suggestions", ("ann", 25), "ok"),
    ("suggestions", ("fay", 25), "ok"),
    # Gifts and grants.
    ("send_gift", ("ann", "bob", 5, "g1"), "ok"),
    ("send_gift", ("ann", "bob", 5, "g2"), "gift_cooldown"),
    ("send_gift", ("ann", "fay", 5, "g3"), "not_friends"),
    ("send_gift", ("ann", "bob", 500, "g4"), "gift_amount_invalid"),
    ("claim_gift", ("ann", "g1"), "gift_not_found"),  # only the recipient sees it
    ("advance", (60,), "ok"),
    ("claim_gift", ("bob", "g1"), "ok"),
    ("claim_gift", ("bob", "g1"), "gift_already_claimed"),
    ("claim_grant", ("bob", "g1.grant"), "gift_already_claimed"),  # a gift's grant follows the gift
    ("wallet", ("bob",), "ok"),
    ("create_grant", ("dan", 7, "r1"), "ok"),
    ("create_grant", ("dan", 3, "r2"), "ok"),
    ("claim_grant", ("ann", "r1"), "grant_not_found"),
    ("claim_grant", ("dan", "r1"), "ok"),
    ("debit", ("dan", 1), "studio_managed_economy"),
    ("purchase", ("dan", "t-1", 199), "ok"),
    ("purchase", ("dan", "t-1", 199), "ok"),  # a replay
    # A ban: every write of the player is refused, before anything else is looked at; reads go on.
    ("ban", ("dan",), "ok"),
    ("ban", ("dan",), "ok"),
    ("advance", (3600,), "ok"),
    ("heartbeat", ("dan", "x" * 65), "player_banned"),
    ("set_name", ("dan", "Danny"), "player_banned"),
    ("add", ("dan", "fay", "banned-add"), "player_banned"),
    ("accept", ("dan", "request"), "player_banned"),
    ("decline", ("dan", "request"), "player_banned"),
    ("cancel", ("dan", "request"), "player_banned"),
    ("remove", ("dan", "ann"), "player_banned"),
    ("block", ("dan", "fay"), "player_banned"),
    ("unblock", ("dan", "fay"), "player_banned"),
    ("send_gift", ("dan", "ann", 1, "banned-gift"), "player_banned"),
    ("claim_gift", ("dan", "gift"), "player_banned"),
    ("claim_grant", ("dan", "r2"), "player_banned"),
    ("debit", ("dan", 1), "player_banned"),
    ("purchase", ("dan", "t-2", 99), "player_banned"),
    ("register", ("dan",), "player_banned"),
    ("friends", ("dan",), "ok"),
    ("search", ("dan", "a", 10), "ok"),
    ("suggestions", ("dan", 25), "ok"),
    ("wallet", ("dan",), "ok"),
    ("unban", ("dan",), "ok"),
    ("unban", ("dan",), "ok"),
    ("heartbeat", ("dan", "back"), "ok"),  # a new session
    ("claim_grant", ("dan", "r2"), "ok"),
    ("add", ("dan", "fay", "dan-fay"), "ok"),
    ("suggestions", ("eve", 25), "ok"),
    ("advance", (86400,), "ok"),
    ("heartbeat", ("ann", "next day"), "ok"),
    ("friends", ("bob",), "ok"),
]

ID = re.compile(r"\b(?:[a-z]{3}_[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b")


# What differs between the two sides by design: the acting key, and the random secret.
OPAQUE: dict[str, Callable[[Any], Any]] = {"actor": lambda v: v["kind"], "secretPrefix": lambda v: "<secret>"}


def normalized(events: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """Each event as text, ids replaced by their order of first appearance, :data:`OPAQUE` fields
    blanked."""
    seen: dict[str, str] = {}
    out = []
    for kind, data in events:
        shown = {k: OPAQUE.get(k, lambda v: v)(v) for k, v in sorted(data.items())}
        out.append(ID.sub(lambda m: seen.setdefault(m.group(0), f"<id{len(seen)}>"), f"{kind} {shown}"))
    return out


@pytest.fixture
async def world(db_url: str) -> AsyncIterator[World]:
    w = await start_world(
        db_url, manifest_extra=f"\n[games.space-race.friends]\nmax_friends = {MAX_FRIENDS}\n"
    )
    try:
        yield w
    finally:
        await w.client.close()


async def test_the_embedded_runtime_refuses_and_answers_exactly_as_the_server(world: World) -> None:
    game_id = world.applied["games"]["space-race"]["id"]
    game = world.services.store.run(lambda tx: tx.games.get(game_id), write=False)
    assert game is not None
    embedded, server = Embedded(game), Server(world)
    for step, (name, args, expected) in enumerate(SCRIPT):
        if name == "advance":
            embedded.advance(*args)
            server.advance(*args)
            continue
        mine = getattr(embedded, name)(*args)
        theirs = await getattr(server, name)(*args)
        assert mine == theirs, f"step {step} {name}{args}: embedded {mine}, server {theirs}"
        assert (mine[1] if mine[0] == "error" else "ok") == expected, f"step {step} {name}{args}: {mine}"
    assert normalized(embedded.events()) == normalized(server.events())
