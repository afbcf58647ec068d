"""The twins' routes and their server, once for both databases (the package's doc says what a twin
is; :mod:`benchmarks.twins.stores` what the databases do differently)."""

from __future__ import annotations

import argparse
import asyncio
import base64
import functools
import hashlib
import os
import random
import signal
import sys
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from aiohttp import web

from benchmarks.server import HOST, ServerProcess
from benchmarks.twins.stores import Row, SqliteStore, Tx, store
from livecore_server.cli_serve import server_event_loop
from livecore_server.crypto import ServerKeys, load_server_key
from livecore_server.players.rows import SHOWN_COUNTRY
from livecore_server.statement_tally import ENV_VAR as STATEMENT_TALLY_ENV
from livecore_server.statement_tally import StatementTally

# The rank pages (livecore_server/live_events/sql/rank_pages.py): the page holding a key is the last to
# start at or before it. A twin leaves pages uncut: a cut comes once every thousand entries or so.
ORDER = "rank_key, reached_at, player_id"
PAGE_OF = (
    f"SELECT {ORDER} FROM board_pages WHERE list_id = ?1 AND ({ORDER}) <= ({{key}})"
    " ORDER BY rank_key DESC, reached_at DESC, player_id DESC LIMIT 1"
)
BACKWARDS = "rank_key DESC, reached_at DESC, player_id DESC"
OLD_KEY = f"SELECT {ORDER} FROM board_entries WHERE board_id = ?1 AND player_id = ?2"
DEBOUNCE_MS = 5_000  # livecore.events.DEBOUNCE: a progress event is sent this long after its first one
CRATE_ROWS = {  # manifest.toml's bench-box: its one row, what each open draws
    "bench-box": (("currency", "coins", 5), ("item", "sword", 1)),
}
GIFT_COOLDOWN_MS = 1_000  # manifest.toml's gifting
DAILY_SEND_LIMIT = 1_000_000
DONOR_REWARD = (("currency", "coins", 1),)  # manifest.toml's guild help donor_reward


# What a board's page shows of each entry and its player, in the row layout Twin.ranked reads: the side
# of the player read around (0 ahead of it, 1 from it on), the entries ahead of it, then these.
SHOWN_COLUMNS = (
    *(
        "e.rank_key",
        "e.reached_at",
        "e.player_id",
        "e.score",
        "p.external_id",
        "p.anon_name",
        "p.anon_avatar",
    ),
    *("p.display_name", "p.display_avatar", SHOWN_COUNTRY),
)
SHOWN = ", ".join(SHOWN_COLUMNS)
KEY_OF = "({a}.rank_key, {a}.reached_at, {a}.player_id)"


def by_key(dialect: str) -> str:
    """The entry's player, looked up by its key for each entry of the page (as livecore's ``by_key``: on
    PostgreSQL a bound limit's guess would otherwise hash the whole players table)."""
    if dialect == "postgres":
        return "LEFT JOIN LATERAL (SELECT * FROM players p WHERE p.id = e.player_id LIMIT 1) p ON true"
    return "LEFT JOIN players p ON p.id = e.player_id"


@dataclass(frozen=True)
class Lists:
    """The statements reading one kind of ranked list, each in one statement with the list's head: its
    entries table (``column`` names the list), the rank pages counting them
    (livecore_server/live_events/sql/rank_pages.py), and ``head``, the list's row (its id, then what an
    answer shows of it) from ?1 (the path's board), ?2 the game and ?3 the environment."""

    entries: str
    column: str
    pages: str
    head: str

    @functools.cache  # noqa: B019  (two instances, for the process's life)
    def top(self, dialect: str) -> str:
        """?4 how many entries."""
        return (
            f"WITH h AS ({self.head}) SELECT h.*, 1, 0, {SHOWN} FROM h LEFT JOIN"
            f" (SELECT rank_key, reached_at, player_id, score FROM {self.entries}"
            f" WHERE {self.column} = (SELECT id FROM h) ORDER BY {ORDER}"
            f" LIMIT ?4) e ON true {by_key(dialect)} ORDER BY e.rank_key, e.reached_at, e.player_id"
        )

    @functools.cache  # noqa: B019
    def beside(self, dialect: str, ahead: bool) -> str:
        """?1 the list, ?2 ?3 ?4 a key, ?5 how many of the entries just before it (``ahead``) or just
        after it, in board order."""
        cmp, order = ("<", BACKWARDS) if ahead else (">", ORDER)
        return (
            f"SELECT {int(not ahead)}, 0, {SHOWN} FROM (SELECT rank_key, reached_at, player_id, score"
            f" FROM {self.entries} WHERE {self.column} = ?1 AND ({ORDER}) {cmp} (?2, ?3, ?4) ORDER BY {order}"
            f" LIMIT ?5) e {by_key(dialect)} ORDER BY e.rank_key, e.reached_at, e.player_id"
        )

    @functools.cache  # noqa: B019
    def around(self, dialect: str) -> str:
        """?4 the player's external id, ?5 how many entries ahead of its, ?6 how many from it on: both
        sides and the count of the entries ahead."""
        x, g, s, me = (KEY_OF.format(a=a) for a in ("x", "g", "s", "me"))
        # The player's key as constants (not a join), so each side is a range of the rank index read in
        # its order, and the count a range bounded at both ends, on SQLite as on PostgreSQL.
        mine = "((SELECT rank_key FROM me), (SELECT reached_at FROM me), (SELECT player_id FROM me))"
        side = (
            f"SELECT {{side}} AS side, x.rank_key, x.reached_at, x.player_id, x.score FROM {self.entries} x"
            f" WHERE x.{self.column} = (SELECT id FROM h) AND {x} {{cmp}} {mine}"
            " ORDER BY {order} LIMIT {n}"
        )
        backwards = "x.rank_key DESC, x.reached_at DESC, x.player_id DESC"
        forwards = "x.rank_key, x.reached_at, x.player_id"
        return (
            f"WITH h AS ({self.head}), me AS (SELECT x.rank_key, x.reached_at, x.player_id FROM players pl"
            f" JOIN {self.entries} x ON x.{self.column} = (SELECT id FROM h) AND x.player_id = pl.id"
            " WHERE pl.game_id = ?2 AND pl.external_id = ?4),"
            f" start AS (SELECT g.rank_key, g.reached_at, g.player_id FROM {self.pages} g, me"
            f" WHERE g.list_id = (SELECT id FROM h) AND {g} <= {me}"
            " ORDER BY g.rank_key DESC, g.reached_at DESC, g.player_id DESC LIMIT 1),"
            f" ahead AS (SELECT (SELECT COALESCE(SUM(g.entries), 0) FROM {self.pages} g, start s"
            f" WHERE g.list_id = (SELECT id FROM h) AND {g} < {s}) + (SELECT COUNT(*)"
            f" FROM start s CROSS JOIN {self.entries} x WHERE x.{self.column} = (SELECT id FROM h)"
            f" AND {x} >= {s} AND {x} < {mine}) AS n)"
            f" SELECT h.*, e.side, ahead.n, {SHOWN} FROM h CROSS JOIN ahead CROSS JOIN"
            f" (SELECT * FROM ({side.format(side=0, cmp='<', order=backwards, n='?5')}) a"
            f" UNION ALL SELECT * FROM ({side.format(side=1, cmp='>=', order=forwards, n='?6')}) b) e"
            f" {by_key(dialect)} ORDER BY e.side, e.rank_key, e.reached_at, e.player_id"
        )


EVENT_BOARD = Lists(
    "board_entries",
    "board_id",
    "board_pages",
    "SELECT id, event_key, window_id, lobby_id, segment_values, status, closes_at FROM boards"
    " WHERE id = ?1 AND game_id = ?2 AND env = ?3",
)
# A shared board without divisions: its open period is the list.
SHARED_BOARD = Lists(
    "shared_entries",
    "period_id",
    "shared_pages",
    "SELECT id, starts_at, ends_at, settings FROM board_periods WHERE board_key = ?1 AND game_id = ?2"
    " AND env = ?3 AND status = 'open' ORDER BY starts_at DESC LIMIT 1",
)
PRESENCE_TTL_MS = 90_000  # livecore.friends.settings: a friend is online this long after a heartbeat

ADJECTIVES = ("Lucky", "Keen", "Merry", "Brave", "Swift", "Quiet", "Bold", "Sunny")
ANIMALS = ("Puffin", "Lynx", "Dragon", "Otter", "Falcon", "Badger", "Heron", "Fox")


class Refused(Exception):
    """The request cannot be written (unknown key, player, record; a check failed): an error answer."""

    def __init__(self, status: int, code: str) -> None:
        super().__init__(code)
        self.status = status
        self.code = code


def new_id(prefix: str = "") -> str:
    """A UUIDv7 as livecore makes them: ``prefix`` and 32 hex digits, or dashed without a prefix."""
    ms = time.time_ns() // 1_000_000
    rand = int.from_bytes(os.urandom(10))
    value = (ms << 80) | (0x7 << 76) | ((rand >> 64) & 0xFFF) << 64 | (0b10 << 62) | (rand & (2**62 - 1))
    text = f"{value:032x}"
    if prefix:
        return prefix + text
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"


def iso(ms: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms / 1000)) + f".{ms % 1000:03d}Z"


def dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


@dataclass(frozen=True)
class Key:
    id: str
    game_id: str
    env: str
    prefix: str
    permission: str


@dataclass(frozen=True)
class Request:
    """What every handler needs: the caller's key, the time, and the idempotency key."""

    key: Key
    now: int
    idempotency_key: str
    player_hash: str | None  # the X-Player-Secret's hash, when sent

    @property
    def actor(self) -> str:
        return dumps({"kind": "api_key", "prefix": self.key.prefix})


Params = Mapping[str, str]  # the path's parameters
Body = dict[str, Any]  # the JSON body ({} for a route without one)


class Twin:
    """The twins' state: the run's database, the keys, the studio."""

    def __init__(self, db: str) -> None:
        self.store = store(db)
        self.server_keys = ServerKeys(load_server_key(db).master)
        self.keys: dict[str, Key] = {}
        self.studio: dict[str, str] = {}
        self.subscribed: dict[tuple[str, str], set[str]] = {}  # (game, env) -> kinds, "*" for every kind
        self.paged = True

    async def load(self) -> None:
        """What every request needs, read once at start."""
        await self.store.open()
        self.keys = {
            secret_hash: Key(id_, game, env, prefix, permission)
            for id_, game, env, prefix, permission, secret_hash in await self.store.read(
                lambda tx: tx.all(
                    "SELECT id, game_id, env, prefix, permission, secret_hash FROM api_keys WHERE"
                    " revoked_at IS NULL"
                )
            )
        }
        self.studio = dict(await self.store.read(lambda tx: tx.all("SELECT id, studio_id FROM games")))
        self.subscribed = {}
        endpoints = await self.store.read(
            lambda tx: tx.all("SELECT game_id, env, events FROM webhook_endpoints")
        )
        for game, env, kinds in endpoints:
            self.subscribed.setdefault((game, env), set()).update(orjson.loads(kinds))
        # A server from before the rank pages (a before side of benchmarks.alternate) has none to keep.
        self.paged = await self.store.has_table("board_pages")

    def hash(self, secret: str) -> str:
        return self.server_keys.hasher.hash(secret)

    # --- the transaction's pieces ---------------------------------------------------------------------

    async def answer(self, tx: Tx, req: Request, route: str, status: int, data: Any) -> bytes:
        """The response body, kept under its idempotency key (sealed as livecore keeps it)."""
        body = orjson.dumps({"data": data})
        if req.idempotency_key:
            scope = f"{req.key.game_id}:{req.key.env}:{route}"
            context = f"{scope}:{req.idempotency_key}"
            await tx.run(
                "INSERT INTO idempotency (scope, key, fingerprint, status, body, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    scope,
                    req.idempotency_key,
                    hashlib.sha256(body).hexdigest(),
                    status,
                    self.server_keys.seal_answer(body, context=context),
                    req.now,
                ),
            )
        return body

    def kept(self, req: Request, kind: str) -> bool:
        """Whether an endpoint of the key's game and environment subscribes to events of ``kind``."""
        kinds = self.subscribed.get((req.key.game_id, req.key.env), set())
        return "*" in kinds or kind in kinds

    async def events(self, tx: Tx, req: Request, events: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """The webhook events an endpoint subscribes to, one statement for all of them, written fanned out
        (see the module's doc)."""
        studio, game, env = self.studio[req.key.game_id], req.key.game_id, req.key.env
        rows = [
            (new_id("evt_"), studio, game, env, kind, req.now, dumps(data))
            for kind, data in events
            if self.kept(req, kind)
        ]
        if not rows:
            return
        values = ", ".join(["(?, ?, ?, ?, ?, ?, ?, TRUE)"] * len(rows))
        await tx.run(
            f"INSERT INTO outbox (id, studio_id, game_id, env, kind, occurred_at, data, fanned_out) VALUES"
            f" {values}",
            [v for row in rows for v in row],
        )

    async def credit(
        self,
        tx: Tx,
        req: Request,
        player: str,
        entries: Sequence[tuple[str, str, int]],
        reason: str,
        ref: str,
    ) -> list[tuple[str, str, int, int, str]]:
        """Add ``entries`` to the player's holdings (one upsert) and write their ledger lines (one insert):
        (type, key, delta, balance, ledger id) for each."""
        values = ", ".join(["(?, ?, ?)"] * len(entries))
        balances: dict[str, int] = dict(
            await tx.all(
                f"INSERT INTO holdings (player_id, resource_key, amount) VALUES {values}"
                " ON CONFLICT (player_id, resource_key) DO UPDATE"
                " SET amount = holdings.amount + excluded.amount"
                " RETURNING resource_key, amount",
                [v for _, key, amount in entries for v in (player, key, amount)],
            )
        )
        lines = [(t, k, a, balances[k], new_id("led_")) for t, k, a in entries]
        await self.ledger(tx, req, player, lines, reason, ref)
        return lines

    async def ledger(
        self,
        tx: Tx,
        req: Request,
        player: str,
        lines: Sequence[tuple[str, str, int, int, str]],
        reason: str,
        ref: str,
    ) -> None:
        values = ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"] * len(lines))
        await tx.run(
            "INSERT INTO ledger (id, player_id, game_id, resource_key, resource_type, delta, balance_after,"
            f" reason, source_ref_id, actor, created_at) VALUES {values}",
            [
                v
                for t, k, delta, balance, id_ in lines
                for v in (id_, player, req.key.game_id, k, t, delta, balance, reason, ref, req.actor, req.now)
            ],
        )

    def wallet_events(
        self,
        req: Request,
        player: str,
        external: str,
        lines: Sequence[tuple[str, str, int, int, str]],
        reason: str,
        ref: str,
    ) -> list[tuple[str, dict[str, Any]]]:
        out = []
        for t, k, delta, balance, id_ in lines:
            data: dict[str, Any] = {
                "playerId": player,
                "externalPlayerId": external,
                "delta": delta,
                "reason": reason,
                "note": None,
                "sourceRefId": ref,
                "entryId": id_,
                "actor": {"kind": "api_key", "prefix": req.key.prefix},
                "changedAt": iso(req.now),
            }
            if t == "item":
                out.append(
                    ("inventory.changed", {**data, "itemKey": k, "quantity": balance, "parameters": {}})
                )
            else:
                out.append(("wallet.changed", {**data, "economyKey": k, "balance": balance}))
        return out

    async def insert_grants(self, tx: Tx, rows: Sequence[dict[str, Any]]) -> None:
        columns = (
            "id",
            "game_id",
            "player_id",
            "external_player_id",
            "kind",
            "status",
            "entries",
            "source_kind",
            "source_ref_id",
            "metadata",
            "created_at",
            "claimed_at",
            "acked_by",
        )
        values = ", ".join(["(" + ", ".join("?" * len(columns)) + ")"] * len(rows))
        await tx.run(
            f"INSERT INTO grants ({', '.join(columns)}) VALUES {values}",
            [row.get(c) for row in rows for c in columns],
        )

    # --- the routes -----------------------------------------------------------------------------------

    async def register(self, tx: Tx, req: Request, p: Params, _: Body) -> bytes:
        external = p["ext"]
        player, secret = new_id("plr_"), "ps_" + os.urandom(32).hex()[:43]
        name = f"{random.choice(ADJECTIVES)} {random.choice(ANIMALS)} {random.randrange(100)}"
        avatar = f"avatar_{random.randrange(32)}"
        day = time.strftime("%Y-%m-%d", time.gmtime(req.now / 1000))
        await tx.run(
            "INSERT INTO players (id, game_id, env, external_id, first_seen_at, last_seen_at, anon_name,"
            " anon_avatar, secret_hash, secret_prefix, registered_at, sessions, last_active_at, streak,"
            " best_streak, streak_day, search_name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, 1, 1,"
            " ?, ?)",
            (
                player,
                req.key.game_id,
                req.key.env,
                external,
                req.now,
                req.now,
                name,
                avatar,
                self.hash(secret),
                secret[:8],
                req.now,
                req.now,
                day,
                name.lower(),
            ),
        )
        await tx.run(
            "INSERT INTO audit_log (id, studio_id, game_id, at, actor, action, target, metadata, ip)"
            " VALUES (?, ?, ?, ?, ?, 'player.register', ?, ?, '127.0.0.1')",
            (
                new_id("aud_"),
                self.studio[req.key.game_id],
                req.key.game_id,
                req.now,
                dumps({"kind": "api_key", "prefix": req.key.prefix, "keyId": req.key.id}),
                f"player:{external}",
                dumps({"env": req.key.env, "rotated": False}),
            ),
        )
        at = iso(req.now)
        ids = {"playerId": player, "externalPlayerId": external}
        await self.events(
            tx,
            req,
            [
                ("player.registered", {**ids, "firstSeenAt": at, "contextSnapshot": {}}),
                (
                    "player.secret_set",
                    {
                        **ids,
                        "secretPrefix": secret[:8],
                        "registeredAt": at,
                        "secretRotatedAt": None,
                        "via": "sdk_register",
                    },
                ),
            ],
        )
        data = {
            **ids,
            "playerSecret": secret,
            "country": None,
            "syntheticIdentity": {"name": name, "avatar": avatar},
        }
        return await self.answer(tx, req, "players.register", 201, data)

    async def grant(self, tx: Tx, req: Request, p: Params, body: Body) -> bytes:
        external = p["ext"]
        grant = new_id()
        entries = dumps(body["entries"])
        found = await tx.one(
            "INSERT INTO grants (id, game_id, player_id, external_player_id, kind, status, entries,"
            " source_kind,"
            " metadata, created_at) SELECT ?, game_id, id, external_id, 'reward', 'pending', ?, 'api',"
            " '{}', ?"
            " FROM players WHERE game_id = ? AND external_id = ? RETURNING player_id",
            (grant, entries, req.now, req.key.game_id, external),
        )
        if found is None:
            raise Refused(404, "player_not_found")
        view = self.grant_view(
            grant, found[0], external, "reward", "pending", body["entries"], "api", None, req.now
        )
        await self.events(tx, req, [("grant.created", view)])
        return await self.answer(tx, req, "server.grants.create", 201, {"grant": view})

    @staticmethod
    def grant_view(
        grant: str,
        player: str,
        external: str,
        kind: str,
        status: str,
        entries: Any,
        source: str,
        ref: str | None,
        created: int,
        claimed: int | None = None,
        metadata: Any = None,
    ) -> dict[str, Any]:
        return {
            "grantId": grant,
            "playerId": player,
            "externalPlayerId": external,
            "kind": kind,
            "status": status,
            "entries": entries,
            "sourceKind": source,
            "sourceRefId": ref,
            "metadata": metadata or {},
            "createdAt": iso(created),
            "claimedAt": None if claimed is None else iso(claimed),
            "expiresAt": None,
            "ackedBy": None if claimed is None else "client",
        }

    async def send_gift(self, tx: Tx, req: Request, p: Params, body: Body) -> bytes:
        """The checks livecore makes (friends, cooldown, daily count) in the one read, then the writes."""
        external = p["ext"]
        kind, key, amount = body["type"], body["resourceKey"], int(body["amount"])
        day_start = req.now - req.now % 86_400_000
        # The sender's sends queue on its row, so the cooldown and the daily count read below stand.
        await tx.serialize(
            "SELECT 1 FROM players WHERE game_id = ? AND external_id = ?", (req.key.game_id, external)
        )
        found = await tx.one(
            "SELECT s.id, r.id,"
            " EXISTS (SELECT 1 FROM friendships WHERE player_id = s.id AND friend_id = r.id),"
            " (SELECT max(sent_at) FROM gifts WHERE sender_id = s.id AND recipient_id = r.id AND sent_at >"
            " ?),"
            " (SELECT count(*) FROM gifts WHERE sender_id = s.id AND sent_at >= ?)"
            " FROM players s, players r WHERE s.game_id = ? AND s.external_id = ? AND s.secret_hash = ?"
            " AND r.game_id = s.game_id AND r.external_id = ?",
            (
                req.now - GIFT_COOLDOWN_MS,
                day_start,
                req.key.game_id,
                external,
                req.player_hash,
                body["externalPlayerId"],
            ),
        )
        if found is None:
            raise Refused(404, "player_not_found")
        sender, recipient, friends, recent, today = found
        if not friends:
            raise Refused(403, "not_friends")
        if recent is not None:
            raise Refused(409, "gift_cooldown")
        if today >= DAILY_SEND_LIMIT:
            raise Refused(409, "gift_daily_limit")
        gift, grant = new_id(), new_id()
        events: list[tuple[str, dict[str, Any]]] = []
        costs = key == "coins"  # manifest.toml: coins cost the sender
        if costs:
            left = await tx.one(
                "UPDATE holdings SET amount = amount - ? WHERE player_id = ? AND resource_key = ? AND"
                " amount >= ?"
                " RETURNING amount",
                (amount, sender, key, amount),
            )
            if left is None:
                raise Refused(409, "insufficient_balance")
            line = (kind, key, -amount, left[0], new_id("led_"))
            await self.ledger(tx, req, sender, [line], "gift_sent", gift)
            events += self.wallet_events(req, sender, external, [line], "gift_sent", gift)
        entries = [{"type": kind, "key": key, "amount": amount}]
        await self.insert_grants(
            tx,
            [
                {
                    "id": grant,
                    "game_id": req.key.game_id,
                    "player_id": recipient,
                    "external_player_id": body["externalPlayerId"],
                    "kind": "reward",
                    "status": "pending",
                    "entries": dumps(entries),
                    "source_kind": "gift",
                    "source_ref_id": gift,
                    "metadata": "{}",
                    "created_at": req.now,
                }
            ],
        )
        await tx.run(
            "INSERT INTO gifts (id, game_id, grant_id, sender_id, recipient_id, type, resource_key,"
            " amount, message,"
            " status, sent_at, deducted, idempotency_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?,"
            " ?, ?)",
            (
                gift,
                req.key.game_id,
                grant,
                sender,
                recipient,
                kind,
                key,
                amount,
                body.get("message"),
                req.now,
                costs,
                body.get("idempotencyKey"),
            ),
        )
        sent = {
            "giftId": gift,
            "grantId": grant,
            "senderPlayerId": sender,
            "senderExternalPlayerId": external,
            "recipientPlayerId": recipient,
            "recipientExternalPlayerId": body["externalPlayerId"],
            "type": kind,
            "resourceKey": key,
            "amount": amount,
            "deductedFromSender": costs,
            "message": body.get("message"),
            "sentAt": iso(req.now),
            "expiresAt": None,
        }
        view = self.grant_view(
            grant, recipient, body["externalPlayerId"], "reward", "pending", entries, "gift", gift, req.now
        )
        events += [("gift.sent", sent), ("grant.created", view)]
        await self.events(tx, req, events)
        return await self.answer(tx, req, "friends.gifts.send", 201, {"gift": sent})

    async def claim_gift(self, tx: Tx, req: Request, p: Params, _: Body) -> bytes:
        external, gift = p["ext"], p["gift"]
        found = await tx.one(
            "UPDATE gifts SET status = 'claimed', claimed_at = ? WHERE id = ? AND status = 'pending'"
            " AND recipient_id = (SELECT id FROM players WHERE game_id = ? AND external_id = ? AND"
            " secret_hash = ?)"
            " RETURNING grant_id, sender_id, recipient_id, type, resource_key, amount,"
            " (SELECT external_id FROM players WHERE id = sender_id),"
            " (SELECT created_at FROM grants WHERE id = grant_id)",
            (req.now, gift, req.key.game_id, external, req.player_hash),
        )
        if found is None:
            raise Refused(404, "gift_not_found")
        grant, sender, player, kind, key, amount, sender_external, created = found
        await tx.run(
            "UPDATE grants SET status = 'claimed', claimed_at = ?, acked_by = 'client' WHERE id = ?",
            (req.now, grant),
        )
        lines = await self.credit(tx, req, player, [(kind, key, amount)], "grant", grant)
        entries = [{"type": kind, "key": key, "amount": amount}]
        claimed = {
            "giftId": gift,
            "grantId": grant,
            "senderPlayerId": sender,
            "senderExternalPlayerId": sender_external,
            "recipientPlayerId": player,
            "recipientExternalPlayerId": external,
            "type": kind,
            "resourceKey": key,
            "amount": amount,
            "claimedAt": iso(req.now),
        }
        view = self.grant_view(
            grant, player, external, "reward", "claimed", entries, "gift", gift, created, req.now
        )
        await self.events(
            tx,
            req,
            [
                *self.wallet_events(req, player, external, lines, "grant", grant),
                ("gift.claimed", claimed),
                ("grant.claimed", view),
            ],
        )
        return await self.answer(tx, req, "friends.gifts.claim", 200, {"gift": claimed})

    async def progress(self, tx: Tx, req: Request, p: Params, body: Body) -> bytes:
        external, event, attempt = p["ext"], p["event"], p["attempt"]
        metrics = body["metrics"]
        score = float(metrics["score"])
        found = await tx.one(
            "UPDATE attempts SET metrics = ?, score = ?, score_at = ? WHERE id = ? AND event_key = ?"
            " AND status = 'in_progress' AND player_id ="
            " (SELECT id FROM players WHERE game_id = ? AND external_id = ? AND secret_hash = ?)"
            " RETURNING board_id, player_id, event_id, window_id, started_at, ends_at, attempt_count",
            (dumps(metrics), score, req.now, attempt, event, req.key.game_id, external, req.player_hash),
        )
        if found is None:
            raise Refused(404, "attempt_not_found")
        board, player, event_id, window, started, ends, count = found
        # The board's row first: writes to one board queue there (on PostgreSQL; SQLite has one writer),
        # so no two of them update its rank pages in opposite orders.
        await tx.run("UPDATE boards SET version = version + 1 WHERE id = ?", (board,))
        # The rank pages count the entries of each stretch of the board: the entry leaves its page...
        if self.paged:
            await tx.run(
                f"UPDATE board_pages SET entries = entries - 1 WHERE list_id = ?1 AND ({ORDER}) ="
                f" ({PAGE_OF.format(key=OLD_KEY)})",
                (board, player),
            )
        # The board's order puts the best score first: its rank key is the score negated.
        await tx.run(
            "INSERT INTO board_entries (board_id, player_id, score, rank_key, reached_at, attempt_id)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (board_id, player_id) DO UPDATE SET score ="
            " excluded.score,"
            " rank_key = excluded.rank_key, reached_at = excluded.reached_at, attempt_id ="
            " excluded.attempt_id",
            (board, player, score, -score, req.now, attempt),
        )
        # ... and joins the page of its new key (the board's first page, before every key, when none is).
        if self.paged:
            await tx.run(
                f"INSERT INTO board_pages (list_id, {ORDER}, entries)"
                f" SELECT ?1, COALESCE(p.rank_key, {tx.first_key}), COALESCE(p.reached_at, 0),"
                " COALESCE(p.player_id, ''), 1"
                # "WHERE true": SQLite's parser takes an upsert's ON after a SELECT's FROM for a join's.
                f" FROM (SELECT 1) one LEFT JOIN ({PAGE_OF.format(key='?2, ?3, ?4')}) p ON true WHERE true"
                f" ON CONFLICT (list_id, {ORDER}) DO UPDATE SET entries = board_pages.entries + 1",
                (board, -score, req.now, player),
            )
        view = {
            "attemptId": attempt,
            "eventKey": event,
            "eventId": event_id,
            "windowId": window,
            "leaderboardId": board,
            "lobbyId": None,
            "status": "in_progress",
            "score": score,
            "metrics": metrics,
            "startedAt": iso(started),
            "endsAt": iso(ends),
            "completedAt": None,
            "attemptCount": count,
            "milestones": [],
            "flagged": False,
        }
        # Debounced as livecore's: the attempt's open event takes the latest state, or one is opened.
        if self.kept(req, "event.progress_updated"):
            await tx.run(
                "INSERT INTO outbox (id, studio_id, game_id, env, kind, occurred_at, data, not_before,"
                " debounce_key)"
                " VALUES (?, ?, ?, ?, 'event.progress_updated', ?, ?, ?, ?) ON CONFLICT (debounce_key)"
                f" WHERE {tx.open_event}"
                " DO UPDATE SET data = excluded.data, occurred_at = excluded.occurred_at",
                (
                    new_id("evt_"),
                    self.studio[req.key.game_id],
                    req.key.game_id,
                    req.key.env,
                    req.now,
                    dumps({"playerId": player, "externalPlayerId": external, **view}),
                    req.now + DEBOUNCE_MS,
                    attempt,
                ),
            )
        return await self.answer(tx, req, "events.progress", 200, {"attempt": view, "milestonesGranted": []})

    async def open_crate(self, tx: Tx, req: Request, p: Params, _: Body) -> bytes:
        external, crate = p["ext"], p["grant"]
        found = await tx.one(
            "UPDATE grants SET status = 'claimed', claimed_at = ?, acked_by = 'client' WHERE id = ?"
            " AND kind = 'crate' AND status = 'pending' AND player_id ="
            " (SELECT id FROM players WHERE game_id = ? AND external_id = ? AND secret_hash = ?)"
            " RETURNING player_id, entries, created_at",
            (req.now, crate, req.key.game_id, external, req.player_hash),
        )
        if found is None:
            raise Refused(404, "grant_not_found")
        player, crate_entries, created = found
        drawn: dict[tuple[str, str], int] = {}
        for entry in orjson.loads(crate_entries):
            for _roll in range(entry["amount"]):
                for t, k, a in CRATE_ROWS[entry["key"]]:
                    drawn[t, k] = drawn.get((t, k), 0) + a
        entries = [(t, k, a) for (t, k), a in drawn.items()]
        contents = new_id()
        wire = [{"type": t, "key": k, "amount": a} for t, k, a in entries]
        await self.insert_grants(
            tx,
            [
                {
                    "id": contents,
                    "game_id": req.key.game_id,
                    "player_id": player,
                    "external_player_id": external,
                    "kind": "reward",
                    "status": "claimed",
                    "entries": dumps(wire),
                    "source_kind": "crate",
                    "source_ref_id": crate,
                    "metadata": "{}",
                    "created_at": req.now,
                    "claimed_at": req.now,
                    "acked_by": "client",
                }
            ],
        )
        lines = await self.credit(tx, req, player, entries, "grant", contents)
        crate_view = self.grant_view(
            crate,
            player,
            external,
            "crate",
            "claimed",
            orjson.loads(crate_entries),
            "api",
            None,
            created,
            req.now,
        )
        view = self.grant_view(
            contents, player, external, "reward", "claimed", wire, "crate", crate, req.now, req.now
        )
        await self.events(
            tx,
            req,
            [
                ("grant.claimed", crate_view),
                ("grant.created", {**view, "status": "pending", "claimedAt": None, "ackedBy": None}),
                *self.wallet_events(req, player, external, lines, "grant", contents),
                ("grant.claimed", view),
                ("crate.opened", {"crateGrantId": crate, "contentsGrantId": contents, "playerId": player}),
            ],
        )
        return await self.answer(tx, req, "crates.open", 200, {"crate": crate_view, "contents": view})

    async def donate(self, tx: Tx, req: Request, p: Params, body: Body) -> bytes:
        external, request = p["ext"], p["request"]
        amount = int(body["amount"])
        # A request's donations queue on its row, so the amount it lacks, read below, stands.
        await tx.serialize("SELECT 1 FROM guild_help_requests WHERE id = ?", (request,))
        found = await tx.one(
            "SELECT p.id, h.player_id, h.external_player_id, h.guild_id, g.name, h.type, h.resource_key,"
            " h.amount, h.donated FROM players p"
            " JOIN guild_stints s ON s.player_id = p.id AND s.left_at IS NULL"
            " JOIN guild_help_requests h ON h.id = ? AND h.guild_id = s.guild_id AND h.status = 'open'"
            " AND h.expires_at > ? AND h.player_id != p.id JOIN guilds g ON g.id = h.guild_id"
            " WHERE p.game_id = ? AND p.external_id = ? AND p.secret_hash = ?",
            (request, req.now, req.key.game_id, external, req.player_hash),
        )
        if found is None:
            raise Refused(404, "help_request_not_found")
        donor, recipient, recipient_external, guild, guild_name, kind, key, requested, received = found
        lacking = requested - received
        if not 1 <= amount <= lacking:
            raise Refused(400, "invalid_request")
        left = await tx.one(
            "UPDATE holdings SET amount = amount - ? WHERE player_id = ? AND resource_key = ? AND amount >= ?"
            " RETURNING amount",
            (amount, donor, key, amount),
        )
        if left is None:
            raise Refused(409, "insufficient_balance")
        line = (kind, key, -amount, left[0], new_id("led_"))
        await self.ledger(tx, req, donor, [line], "guild_help_donation", request)
        grant, reward, donation = new_id(), new_id(), new_id("gdn_")
        ref = {"guildId": guild, "requestId": request}
        given = [{"type": kind, "key": key, "amount": amount}]
        rewarded = [{"type": t, "key": k, "amount": a} for t, k, a in DONOR_REWARD]
        common = {"game_id": req.key.game_id, "kind": "reward", "status": "pending", "source_ref_id": request}
        await self.insert_grants(
            tx,
            [
                {
                    **common,
                    "id": grant,
                    "player_id": recipient,
                    "external_player_id": recipient_external,
                    "entries": dumps(given),
                    "source_kind": "guild_help",
                    "metadata": dumps(ref),
                    "created_at": req.now,
                },
                {
                    **common,
                    "id": reward,
                    "player_id": donor,
                    "external_player_id": external,
                    "entries": dumps(rewarded),
                    "source_kind": "guild_help_reward",
                    "metadata": dumps(ref),
                    "created_at": req.now,
                },
            ],
        )
        status = "filled" if amount == lacking else "open"
        # The request's row stands since the read above (locked on PostgreSQL): nothing to read back.
        await tx.run(
            "UPDATE guild_help_requests SET donated = donated + ?, status = ? WHERE id = ?",
            (amount, status, request),
        )
        donated = (received + amount, requested)
        await tx.run(
            "INSERT INTO guild_donations (id, request_id, guild_id, game_id, donor_player_id,"
            " donor_external_player_id,"
            " amount, grant_id, reward_grant_id, donated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (donation, request, guild, req.key.game_id, donor, external, amount, grant, reward, req.now),
        )
        view = {
            "donationId": donation,
            "requestId": request,
            "amount": amount,
            "grantId": grant,
            "rewardGrantId": reward,
            "donatedAt": iso(req.now),
        }
        await self.events(
            tx,
            req,
            [
                *self.wallet_events(req, donor, external, [line], "guild_help_donation", request),
                (
                    "grant.created",
                    self.grant_view(
                        grant,
                        recipient,
                        recipient_external,
                        "reward",
                        "pending",
                        given,
                        "guild_help",
                        request,
                        req.now,
                        metadata=ref,
                    ),
                ),
                (
                    "grant.created",
                    self.grant_view(
                        reward,
                        donor,
                        external,
                        "reward",
                        "pending",
                        rewarded,
                        "guild_help_reward",
                        request,
                        req.now,
                        metadata=ref,
                    ),
                ),
                (
                    "guild.help_donated",
                    {
                        "guildId": guild,
                        "guildName": guild_name,
                        "by": {"kind": "player", "playerId": donor, "externalPlayerId": external},
                        **view,
                        "donorPlayerId": donor,
                        "donorExternalPlayerId": external,
                        "recipientPlayerId": recipient,
                        "recipientExternalPlayerId": recipient_external,
                        "type": kind,
                        "resourceKey": key,
                        "amount": amount,
                        "costsDonor": True,
                        "amountReceived": donated[0],
                        "amountRequested": donated[1],
                        "filled": status == "filled",
                    },
                ),
            ],
        )
        help_view = {"requestId": request, "donated": donated[0], "amount": donated[1], "status": status}
        return await self.answer(
            tx, req, "guilds.help.donate", 200, {"donation": view, "helpRequest": help_view}
        )

    # --- the reads --------------------------------------------------------------------------------------

    async def friends(self, tx: Tx, req: Request, p: Params, _: Body) -> bytes:
        """The player (its secret checked) and its friends' rows, one statement: a player without friends
        still gives its own row."""
        rows = await tx.all(
            "SELECT f.since, p.external_id, COALESCE(p.display_name, p.anon_name),"
            " CASE WHEN p.display_name IS NULL THEN p.anon_avatar ELSE p.display_avatar END,"
            f" {SHOWN_COUNTRY}, p.presence_at, p.presence_status FROM players me"
            " LEFT JOIN friendships f ON f.player_id = me.id LEFT JOIN players p ON p.id = f.friend_id"
            " WHERE me.game_id = ? AND me.external_id = ? AND me.secret_hash = ?"
            " ORDER BY f.since, f.friend_id",
            (req.key.game_id, p["ext"], req.player_hash),
        )
        if not rows:
            raise Refused(401, "player_secret_invalid")
        friends = [
            {
                "externalPlayerId": external,
                "displayIdentity": {"name": name, "avatar": avatar, "country": country},
                "friendsSince": iso(since),
                "online": seen is not None and req.now - seen < PRESENCE_TTL_MS,
                "lastActiveAt": None if seen is None else iso(seen),
                "status": status,
            }
            for since, external, name, avatar, country, seen, status in rows
            if since is not None
        ]
        return orjson.dumps({"data": {"friends": friends}})

    async def event_board(self, tx: Tx, req: Request, p: Params, _: Body) -> bytes:
        head, entries, cursor = await self.ranked(tx, req, EVENT_BOARD, p)
        board, event_key, window, lobby, segments, status, closes = head
        view = {
            "id": board,
            "eventKey": event_key,
            "windowId": window,
            "lobbyId": lobby,
            "segmentValues": orjson.loads(segments),
            "status": status,
            "closesAt": iso(closes),
        }
        return orjson.dumps({"data": {"leaderboard": view, "entries": entries, "nextCursor": cursor}})

    async def shared_board(self, tx: Tx, req: Request, p: Params, _: Body) -> bytes:
        head, entries, cursor = await self.ranked(tx, req, SHARED_BOARD, p)
        period, starts, ends, settings = head
        s = orjson.loads(settings)
        view = {
            "key": s["key"],
            "name": s["name"],
            "order": s["order"],
            "period": s["period"],
            "periodId": period,
            "periodStartsAt": None if starts is None else iso(starts),
            "periodEndsAt": None if ends is None else iso(ends),
            "division": None,
        }
        return orjson.dumps({"data": {"leaderboard": view, "entries": entries, "nextCursor": cursor}})

    async def ranked(
        self, tx: Tx, req: Request, lists: Lists, p: Params
    ) -> tuple[Row, list[dict[str, Any]], str | None]:
        """The list's head, a page of ``limit`` entries with ranks, from the top or around the player
        ``around``, and the cursor after it when more follow: one statement (two for a player within
        half a page of either end). Around a player, the entries ahead of it are counted as livecore counts
        them, on the rank pages: the entries of the pages before its page, and those of its page before
        it."""
        limit = int(p.get("limit", "50"))
        around = p.get("around")
        head_params = (p["board"], req.key.game_id, req.key.env)
        if around is None:
            rows = await tx.all(lists.top(tx.dialect), (*head_params, limit + 1))
        else:
            half = (limit - 1) // 2
            # The page's shape when the player has half a page ahead of it, and one more to see whether
            # more follow.
            rows = await tx.all(lists.around(tx.dialect), (*head_params, around, half, limit - half + 1))
        if not rows:
            raise Refused(404, "leaderboard_not_found" if around is None else "player_not_found")
        width = len(rows[0]) - len(SHOWN_COLUMNS) - 2  # the head's columns
        head, list_id = rows[0][:width], rows[0][0]
        rows = [r[width:] for r in rows if r[width + 2] is not None]  # an empty list: its head alone
        if around is None:
            more = len(rows) > limit
            shown, first = rows[:limit], 1
        else:
            ahead = [r for r in rows if r[0] == 0]  # in board order, the nearest last
            mine = [r for r in rows if r[0] == 1]
            after = mine[1:]
            room = limit - 1 - len(ahead)
            key = (list_id, *mine[0][2:5])
            if len(ahead) < half:  # near the top: the page goes on further after the player
                after = await tx.all(lists.beside(tx.dialect, False), (*key, room + 1))
            more = len(after) > room
            after = after[:room]
            if len(ahead) == half and len(after) < limit - 1 - half:  # near the end: it starts earlier
                ahead = await tx.all(lists.beside(tx.dialect, True), (*key, limit - 1 - len(after)))
            shown = [*ahead, mine[0], *after]
            first = mine[0][1] - len(ahead) + 1
        entries = [
            {
                "rank": first + i,
                "externalPlayerId": external,
                "name": display or anon,
                "avatar": avatar if display is not None else anon_avatar,
                "anonymizedName": anon,
                "anonymizedAvatar": anon_avatar,
                "country": country,
                "score": int(score) if score.is_integer() else score,
                "updatedAt": iso(reached),
                "isBot": False,
            }
            for i, (
                _,
                _,
                _,
                reached,
                _,
                score,
                external,
                anon,
                anon_avatar,
                display,
                avatar,
                country,
            ) in enumerate(shown)
        ]
        cursor = None
        if more and shown:
            _, _, _, reached, player, score, *_ = shown[-1]
            # A shared board's list is its period and division (none here).
            cursor_id = list_id if lists is EVENT_BOARD else f"{list_id}/"
            raw = orjson.dumps([cursor_id, score, reached, player])
            cursor = base64.urlsafe_b64encode(raw).decode().rstrip("=")
        return head, entries, cursor


# --- the HTTP side -----------------------------------------------------------------------------------------

TWIN: web.AppKey[Twin] = web.AppKey("twin", Twin)
Route = Callable[[Twin, Tx, Request, Params, Body], Awaitable[bytes]]
Handler = Callable[[web.Request], Awaitable[web.Response]]
SDK, SERVER = "client_sdk", "server_integration"
P = "/sdk/v1/players/{ext}"
# Each scenario's route as livecore's: method, path, the key's permission, the status, the route (a POST
# writes in one transaction, a GET reads), whether the player's secret is required.
ROUTES: tuple[tuple[str, str, str, int, Route, bool], ...] = (
    ("POST", f"{P}/register", SDK, 201, Twin.register, False),
    ("POST", "/server/v1/players/{ext}/grants", SERVER, 201, Twin.grant, False),
    ("POST", f"{P}/friends/gifts", SDK, 201, Twin.send_gift, True),
    ("POST", f"{P}/friends/gifts/{{gift}}/claim", SDK, 200, Twin.claim_gift, True),
    ("POST", f"{P}/events/{{event}}/attempts/{{attempt}}/progress", SDK, 200, Twin.progress, True),
    ("POST", f"{P}/crates/{{grant}}/open", SDK, 200, Twin.open_crate, True),
    ("POST", f"{P}/guild/help-requests/{{request}}/donate", SDK, 200, Twin.donate, True),
    ("GET", f"{P}/friends", SDK, 200, Twin.friends, True),
    ("GET", "/sdk/v1/event-leaderboards/{board}", SDK, 200, Twin.event_board, False),
    ("GET", "/sdk/v1/leaderboards/{board}", SDK, 200, Twin.shared_board, False),
)


def routed(method: str, permission: str, status: int, route: Route, player: bool) -> Handler:
    """An aiohttp handler: the key and the player secret as livecore takes them, the body parsed, the
    route's transaction (or, for a read, its statements), its answer. The path's and the query's
    parameters are the route's ``Params``."""

    async def handler(request: web.Request) -> web.Response:
        twin = request.app[TWIN]
        auth = request.headers.get("Authorization", "")
        key = twin.keys.get(twin.hash(auth.removeprefix("Bearer "))) if auth.startswith("Bearer ") else None
        if key is None or key.permission != permission:
            return error(401, "api_key_invalid")
        secret = request.headers.get("X-Player-Secret")
        if player and not secret:
            return error(401, "player_secret_invalid")
        raw = await request.read()
        body: Body = orjson.loads(raw) if raw else {}
        req = Request(
            key=key,
            now=time.time_ns() // 1_000_000,
            idempotency_key=request.headers.get("Idempotency-Key") or body.get("idempotencyKey", ""),
            player_hash=twin.hash(secret) if secret else None,
        )
        params = {**request.query, **request.match_info}
        run = twin.store.write if method == "POST" else twin.store.read
        try:
            answer = await run(lambda tx: route(twin, tx, req, params, body))
        except Refused as refused:
            return error(refused.status, refused.code)
        return web.Response(body=answer, status=status, content_type="application/json")

    return handler


def error(status: int, code: str) -> web.Response:
    return web.Response(
        body=orjson.dumps({"error": {"code": code}}), status=status, content_type="application/json"
    )


async def health(_: web.Request) -> web.Response:
    return web.json_response({"status": "ok"})


def app(db: str) -> web.Application:
    root = web.Application()
    root[TWIN] = Twin(db)
    for method, path, permission, status, route, player in ROUTES:
        root.router.add_route(method, path, routed(method, permission, status, route, player))
    root.router.add_get("/admin/v1/health", health)
    return root


def serve(db: str, host: str, port: int) -> None:
    """Serve the twins on ``host:port`` until SIGTERM; on SQLite with ``LIVECORE_STATEMENT_TALLY`` set,
    count the statements as livecore's server does (written on SIGUSR1), so statements a request
    compare."""
    application = app(db)
    tally_path = os.environ.get(STATEMENT_TALLY_ENV)

    async def started(a: web.Application) -> Any:
        twin = a[TWIN]
        await twin.load()
        if tally_path and isinstance(twin.store, SqliteStore):
            tally = StatementTally(tally_path)
            tally.watch(twin.store.conn)
            asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, tally.write)
        yield
        await twin.store.close()

    application.cleanup_ctx.append(started)
    loop = server_event_loop()  # the event loop livecore's server runs on
    web.run_app(
        application, host=host, port=port, print=None, access_log=None, loop=loop, handle_signals=True
    )


class TwinProcess(ServerProcess):
    """The twins' server on the run's database, started and stopped as livecore's (``ServerProcess``:
    health, CPU, statements), from this package whatever the working directory."""

    def __init__(self, db: str, log_path: Path, env: Mapping[str, str], statement_file: Path | None) -> None:
        here = str(
            Path(__file__).parent.parent.parent
        )  # not resolved: a linked package keeps its own livecore
        path = os.pathsep.join(p for p in (here, env.get("PYTHONPATH", "")) if p)
        super().__init__(db, log_path, {**env, "PYTHONPATH": path}, statement_file=statement_file)

    def command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "benchmarks.twins",
            "--db",
            self.db,
            "--host",
            HOST,
            "--port",
            str(self.port),
        ]


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.twins", description=__doc__.splitlines()[0])
    p.add_argument(
        "--db",
        required=True,
        help="the run's database, a SQLite file or a PostgreSQL URL (livecore's schema)",
    )
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    args = p.parse_args(argv)
    serve(args.db, args.host, args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
