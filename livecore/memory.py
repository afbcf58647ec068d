"""In-memory store: the port on plain dicts, for simulations and tests.

A transaction records an undo step for each write, so a command that raises leaves nothing behind,
exactly like a database rollback.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from datetime import date, datetime
from typing import Any

import attrs

from livecore.economy import Holding, LedgerEntry
from livecore.erasure import ErasureRecord
from livecore.events import DEBOUNCE, DomainEvent
from livecore.friends import Block, FriendRequest, Friendship
from livecore.games import Game, Studio
from livecore.gifts import Gift, GiftListing, SenderStats, is_claimable
from livecore.grants import Grant, GrantStatus
from livecore.idempotency import StoredResponse
from livecore.merge import MergeRecord
from livecore.migration import MigrationKind
from livecore.players import Lifecycle, Player
from livecore.purchases import (
    PlayerSpend,
    Purchase,
    RevenueSummary,
    Spender,
    ValidationStatus,
    player_spend,
    spenders,
    summarize,
)
from livecore.scope import Environment


class MemoryStore:
    def __init__(self) -> None:
        self.studios: dict[str, Studio] = {}
        self.games: dict[str, Game] = {}
        self.players: dict[tuple[str, str], Player] = {}
        self.outbox: list[DomainEvent] = []
        self.bursts: dict[str, tuple[int, datetime]] = {}  # debounce key -> (outbox index, first time)
        self.idempotency: dict[tuple[str, str], StoredResponse] = {}
        self.holdings: dict[tuple[str, str], Holding] = {}
        self.entries: list[LedgerEntry] = []
        self.grants: dict[tuple[str, str], Grant] = {}
        self.requests: dict[str, FriendRequest] = {}
        self.friendships: dict[tuple[str, str], Friendship] = {}
        self.blocks: dict[tuple[str, str], Block] = {}
        self.gifts: dict[str, Gift] = {}
        self.gift_keys: dict[tuple[str, str], str] = {}  # (sender id, idempotency key) -> gift id
        # sender id -> (sent_at, recipient id, gift id), in time order: the daily count by bisect.
        self.gifts_sent: dict[str, list[tuple[datetime, str, str]]] = {}
        self.last_gift: dict[tuple[str, str], datetime] = {}  # (sender, recipient) -> latest sent_at
        # (game id, env, original external id) and (game id, id hash) -> the latest record
        self.merges: dict[tuple[str, str, str], MergeRecord] = {}
        self.erasures: dict[tuple[str, str], ErasureRecord] = {}
        self.purchases: dict[tuple[str, str, str], Purchase] = {}  # (game id, env, transaction id)
        self.migration_keys: dict[tuple[str, str, str, str], str] = {}  # (game, env, kind, key) -> fp

    def add_game(self, studio: Studio, game: Game) -> None:
        self.studios[studio.id] = studio
        self.games[game.id] = game

    def transaction(self) -> _Transaction:
        return _Transaction(self)


class _Transaction:
    """``with store.transaction() as tx``: rolls the transaction back when the block raises. A class
    rather than a generator-based context manager: simulations run one per command."""

    __slots__ = ("tx",)

    def __init__(self, store: MemoryStore) -> None:
        self.tx = MemoryTransaction(store)

    def __enter__(self) -> MemoryTransaction:
        return self.tx

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is not None:
            self.tx.rollback()


_MISSING = object()
# An undo step: (table, key, the value before or _MISSING) for a dict write, else a callable.
Undo = tuple[dict[Any, Any], Any, Any] | Callable[[], object]


class MemoryTransaction:
    def __init__(self, store: MemoryStore) -> None:
        self._s = store
        self._undo: list[Undo] = []

    def rollback(self) -> None:
        for step in reversed(self._undo):
            if isinstance(step, tuple):
                table, key, old = step
                if old is _MISSING:
                    table.pop(key, None)
                else:
                    table[key] = old
            else:
                step()
        self._undo.clear()

    def _put(self, table: dict[Any, Any], key: Any, value: Any) -> None:
        # A tuple rather than a closure: simulations write millions of times, and tuples are cheaper.
        self._undo.append((table, key, table.get(key, _MISSING)))
        table[key] = value

    def _drop(self, table: dict[Any, Any], key: Any) -> None:
        if key in table:
            self._undo.append((table, key, table.pop(key)))

    def get_game(self, game_id: str) -> Game | None:
        return self._s.games.get(game_id)

    def get_player(self, game_id: str, external_id: str) -> Player | None:
        return self._s.players.get((game_id, external_id))

    def insert_player(self, player: Player) -> None:
        key = (player.game_id, player.external_id)
        if key in self._s.players:
            raise KeyError(f"player {player.external_id!r} exists")
        self._put(self._s.players, key, player)

    def update_player(self, player: Player) -> None:
        key = (player.game_id, player.external_id)
        current = self._s.players.get(key)
        if current is None or current.id != player.id:
            # A merge or an erasure renamed the player: drop it under its old external id.
            old = self.get_player_by_id(player.id)
            if old is not None:
                self._drop(self._s.players, (old.game_id, old.external_id))
        self._put(self._s.players, key, player)

    def reset_missed_streaks(self, last_day_before: date) -> int:
        changed = 0
        for key, player in list(self._s.players.items()):
            day = player.activity.streak_day
            if player.activity.streak > 0 and day is not None and day < last_day_before:
                self._put(
                    self._s.players,
                    key,
                    attrs.evolve(player, activity=attrs.evolve(player.activity, streak=0)),
                )
                changed += 1
        return changed

    def get_player_by_id(self, player_id: str) -> Player | None:
        return next((p for p in self._s.players.values() if p.id == player_id), None)

    def find_by_friend_code(self, game_id: str, env: Environment, code: str) -> Player | None:
        return next(
            (
                p
                for p in self._s.players.values()
                if p.game_id == game_id and p.env is env and p.friend_code == code
            ),
            None,
        )

    def get_request(self, game_id: str, request_id: str) -> FriendRequest | None:
        found = self._s.requests.get(request_id)
        return found if found is not None and found.game_id == game_id else None

    def request_between(self, a_id: str, b_id: str) -> FriendRequest | None:
        pair = {a_id, b_id}
        return next(
            (r for r in self._s.requests.values() if {r.from_player_id, r.to_player_id} == pair), None
        )

    def insert_request(self, request: FriendRequest) -> None:
        self._put(self._s.requests, request.id, request)

    def delete_request(self, request_id: str) -> None:
        self._drop(self._s.requests, request_id)

    def get_friendship(self, player_id: str, friend_id: str) -> Friendship | None:
        return self._s.friendships.get((player_id, friend_id))

    def insert_friendship(self, a_id: str, b_id: str, since: datetime) -> None:
        self._put(self._s.friendships, (a_id, b_id), Friendship(a_id, b_id, since))
        self._put(self._s.friendships, (b_id, a_id), Friendship(b_id, a_id, since))

    def delete_friendship(self, a_id: str, b_id: str) -> None:
        self._drop(self._s.friendships, (a_id, b_id))
        self._drop(self._s.friendships, (b_id, a_id))

    def count_friends(self, player_id: str) -> int:
        return sum(1 for a, _ in self._s.friendships if a == player_id)

    def get_block(self, blocker_id: str, blocked_id: str) -> Block | None:
        return self._s.blocks.get((blocker_id, blocked_id))

    def insert_block(self, block: Block) -> None:
        self._put(self._s.blocks, (block.blocker_id, block.blocked_id), block)

    def delete_block(self, blocker_id: str, blocked_id: str) -> None:
        self._drop(self._s.blocks, (blocker_id, blocked_id))

    def list_friends(self, player_id: str) -> list[tuple[Friendship, Player]]:
        rows = [f for (a, _), f in self._s.friendships.items() if a == player_id]
        return [
            (f, p) for f in sorted(rows, key=lambda f: f.since) if (p := self.get_player_by_id(f.friend_id))
        ]

    def list_requests(self, player_id: str) -> list[tuple[FriendRequest, Player]]:
        out = []
        for r in sorted(self._s.requests.values(), key=lambda r: r.created_at):
            if player_id in (r.from_player_id, r.to_player_id):
                other = self.get_player_by_id(
                    r.to_player_id if r.from_player_id == player_id else r.from_player_id
                )
                if other is not None:
                    out.append((r, other))
        return out

    def list_blocks(self, player_id: str) -> list[tuple[Block, Player]]:
        rows = [b for (a, _), b in self._s.blocks.items() if a == player_id]
        return [
            (b, p)
            for b in sorted(rows, key=lambda b: b.created_at)
            if (p := self.get_player_by_id(b.blocked_id))
        ]

    def friend_ids(self, player_id: str) -> set[str]:
        return {b for (a, b) in self._s.friendships if a == player_id}

    def request_peers(self, player_id: str) -> dict[str, bool]:
        peers = {}
        for r in self._s.requests.values():
            if r.from_player_id == player_id:
                peers[r.to_player_id] = True
            elif r.to_player_id == player_id:
                peers[r.from_player_id] = False
        return peers

    def blocked_either_way(self, player_id: str) -> set[str]:
        return {b if a == player_id else a for (a, b) in self._s.blocks if player_id in (a, b)}

    def recently_active(self, game_id: str, env: Environment, limit: int) -> list[Player]:
        active = [
            p
            for p in self._s.players.values()
            if p.game_id == game_id
            and p.env is env
            and p.activity.last_active_at is not None
            and p.lifecycle is Lifecycle.ACTIVE
        ]
        return sorted(active, key=lambda p: p.activity.last_active_at or p.first_seen_at, reverse=True)[
            :limit
        ]

    def search_by_name(self, game_id: str, env: Environment, text: str, limit: int) -> list[Player]:
        needle = text.lower()
        found = [
            p
            for p in self._s.players.values()
            if p.game_id == game_id
            and p.env is env
            and p.lifecycle is Lifecycle.ACTIVE
            and needle in (p.display or p.anonymized).name.lower()
        ]
        return sorted(found, key=lambda p: (p.display or p.anonymized).name.lower())[:limit]

    def holdings_of(self, player_ids: list[str], keys: list[str]) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for (pid, key), h in self._s.holdings.items():
            if pid in player_ids and key in keys:
                out.setdefault(pid, {})[key] = h.amount
        return out

    def get_holding(self, player_id: str, key: str) -> Holding:
        return self._s.holdings.get((player_id, key)) or Holding(key=key)

    def get_holdings(self, player_id: str) -> dict[str, Holding]:
        return {k: h for (p, k), h in self._s.holdings.items() if p == player_id}

    def append_ledger(self, entry: LedgerEntry, holding: Holding) -> None:
        entries = self._s.entries
        entries.append(entry)
        self._undo.append(entries.pop)
        self._put(self._s.holdings, (entry.player_id, entry.resource_key), holding)

    def ledger(self, player_id: str, key: str | None = None) -> list[LedgerEntry]:
        return [
            e for e in self._s.entries if e.player_id == player_id and (key is None or e.resource_key == key)
        ]

    def insert_grant(self, grant: Grant) -> None:
        self._put(self._s.grants, (grant.game_id, grant.id), grant)

    def get_grant(self, game_id: str, grant_id: str) -> Grant | None:
        return self._s.grants.get((game_id, grant_id))

    def update_grant(self, grant: Grant) -> None:
        self._put(self._s.grants, (grant.game_id, grant.id), grant)

    def pending_grants(self, player_id: str, now: datetime, limit: int) -> list[Grant]:
        pending = [
            g
            for g in self._s.grants.values()
            if g.player_id == player_id
            and g.status is GrantStatus.PENDING
            and (g.expires_at is None or g.expires_at > now)
        ]
        return sorted(pending, key=lambda g: (g.created_at, g.id))[:limit]

    def grants_past_expiry(self, now: datetime, limit: int) -> list[Grant]:
        due = [
            g
            for g in self._s.grants.values()
            if g.status is GrantStatus.PENDING and g.expires_at is not None and g.expires_at <= now
        ]
        return sorted(due, key=lambda g: (g.expires_at, g.id))[:limit]

    def insert_gift(self, gift: Gift) -> None:
        self._put(self._s.gifts, gift.id, gift)
        if gift.idempotency_key is not None:
            self._put(self._s.gift_keys, (gift.sender_id, gift.idempotency_key), gift.id)
        sent = self._s.gifts_sent.setdefault(gift.sender_id, [])
        row = (gift.sent_at, gift.recipient_id, gift.id)
        if sent and row < sent[-1]:
            bisect.insort(sent, row)  # only when a simulation moved its clock back
        else:
            sent.append(row)
        self._undo.append(lambda: sent.remove(row))
        pair = (gift.sender_id, gift.recipient_id)
        if gift.sent_at >= self._s.last_gift.get(pair, gift.sent_at):
            self._put(self._s.last_gift, pair, gift.sent_at)

    def get_gift(self, game_id: str, gift_id: str) -> Gift | None:
        found = self._s.gifts.get(gift_id)
        return found if found is not None and found.game_id == game_id else None

    def update_gift(self, gift: Gift) -> None:
        self._put(self._s.gifts, gift.id, gift)

    def gift_by_key(self, sender_id: str, idempotency_key: str) -> Gift | None:
        gift_id = self._s.gift_keys.get((sender_id, idempotency_key))
        return None if gift_id is None else self._s.gifts[gift_id]

    def _sent_after(self, sender_id: str, since: datetime) -> list[tuple[datetime, str, str]]:
        """The sender's gifts sent after ``since``, oldest first."""
        sent = self._s.gifts_sent.get(sender_id, [])
        return sent[bisect.bisect_right(sent, since, key=lambda row: row[0]) :]

    def gift_stats(
        self, sender_id: str, recipient_id: str | None, cooldown_since: datetime, day_start: datetime | None
    ) -> SenderStats:
        last = self._s.last_gift.get((sender_id, recipient_id or ""))
        today = 0
        if day_start is not None:
            sent = self._s.gifts_sent.get(sender_id, [])
            today = len(sent) - bisect.bisect_left(sent, day_start, key=lambda row: row[0])
        return SenderStats(last if last is not None and last > cooldown_since else None, today)

    def gift_cooldowns(self, sender_id: str, since: datetime) -> dict[str, datetime]:
        return {r: t for t, r, _ in self._sent_after(sender_id, since)}

    def list_gifts(
        self, player_id: str, *, sent: bool, claimable_at: datetime | None, limit: int
    ) -> list[GiftListing]:
        mine = [
            g
            for g in self._s.gifts.values()
            if (g.sender_id if sent else g.recipient_id) == player_id
            and (claimable_at is None or is_claimable(g, claimable_at))
        ]
        out = []
        # Newest first; at the same instant, the latest inserted first (dicts keep insertion order).
        for g in sorted(reversed(mine), key=lambda g: g.sent_at, reverse=True)[:limit]:
            other = self.get_player_by_id(g.recipient_id if sent else g.sender_id)
            grant = self._s.grants.get((g.game_id, g.grant_id))
            if other is not None and grant is not None:
                out.append(GiftListing(g, other, grant.status))
        return out

    # --- Player tools ------------------------------------------------------------------------------
    def recent_grants(self, player_id: str, limit: int) -> list[Grant]:
        mine = [g for g in self._s.grants.values() if g.player_id == player_id]
        return sorted(mine, key=lambda g: (g.created_at, g.id), reverse=True)[:limit]

    def grant_counts(self, player_id: str) -> dict[GrantStatus, int]:
        counts = dict.fromkeys(GrantStatus, 0)
        for g in self._s.grants.values():
            if g.player_id == player_id:
                counts[g.status] += 1
        return counts

    def get_merge(self, game_id: str, env: Environment, from_external_id: str) -> MergeRecord | None:
        return self._s.merges.get((game_id, env.value, from_external_id))

    def insert_merge(self, record: MergeRecord) -> None:
        self._put(self._s.merges, (record.game_id, record.env.value, record.from_external_id), record)

    def forget_merges_into(self, player_id: str) -> None:
        for key in [k for k, r in self._s.merges.items() if r.to_player_id == player_id]:
            self._drop(self._s.merges, key)

    def reassign_records(self, from_id: str, to: Player) -> None:
        for key, g in list(self._s.grants.items()):
            if g.player_id == from_id:
                self._put(
                    self._s.grants, key, attrs.evolve(g, player_id=to.id, external_player_id=to.external_id)
                )
        for gift_id, gift in list(self._s.gifts.items()):
            if from_id in (gift.sender_id, gift.recipient_id):
                moved = gift
                if gift.sender_id == from_id:
                    moved = attrs.evolve(moved, sender_id=to.id, sender_external_id=to.external_id)
                if gift.recipient_id == from_id:
                    moved = attrs.evolve(moved, recipient_id=to.id, recipient_external_id=to.external_id)
                self._put(self._s.gifts, gift_id, moved)
        for pkey, p in list(self._s.purchases.items()):
            if p.player_id == from_id:
                self._put(
                    self._s.purchases,
                    pkey,
                    attrs.evolve(p, player_id=to.id, external_player_id=to.external_id),
                )

    def move_ledger(self, from_id: str, to_id: str, holdings: dict[str, Holding]) -> None:
        store = self._s
        before = store.entries
        store.entries = [attrs.evolve(e, player_id=to_id) if e.player_id == from_id else e for e in before]
        self._undo.append(lambda: setattr(store, "entries", before))
        for pid, key in [k for k in store.holdings if k[0] == from_id]:
            self._drop(store.holdings, (pid, key))
        for key, held in holdings.items():
            self._put(store.holdings, (to_id, key), held)

    def blocks_involving(self, player_id: str) -> list[Block]:
        return [b for (a, c), b in self._s.blocks.items() if player_id in (a, c)]

    def remove_from_graph(self, player_id: str) -> None:
        for key in [k for k in self._s.friendships if player_id in k]:
            self._drop(self._s.friendships, key)
        for rid in [
            r.id for r in self._s.requests.values() if player_id in (r.from_player_id, r.to_player_id)
        ]:
            self._drop(self._s.requests, rid)
        for key in [k for k in self._s.blocks if player_id in k]:
            self._drop(self._s.blocks, key)

    def clear_gift_messages(self, player_id: str) -> None:
        for gift_id, gift in list(self._s.gifts.items()):
            if player_id in (gift.sender_id, gift.recipient_id) and gift.message is not None:
                self._put(self._s.gifts, gift_id, attrs.evolve(gift, message=None))

    def get_erasure(self, game_id: str, external_id_hash: str) -> ErasureRecord | None:
        return self._s.erasures.get((game_id, external_id_hash))

    def insert_erasure(self, record: ErasureRecord) -> None:
        self._put(self._s.erasures, (record.game_id, record.external_id_hash), record)

    # --- Purchases ---------------------------------------------------------------------------------
    def get_purchase(self, game_id: str, env: Environment, transaction_id: str) -> Purchase | None:
        return self._s.purchases.get((game_id, env.value, transaction_id))

    def insert_purchase(self, purchase: Purchase) -> None:
        self._put(
            self._s.purchases, (purchase.game_id, purchase.env.value, purchase.transaction_id), purchase
        )

    def set_purchase_validation(self, purchase_id: str, status: ValidationStatus) -> None:
        for key, p in list(self._s.purchases.items()):
            if p.id == purchase_id:
                self._put(self._s.purchases, key, attrs.evolve(p, validation_status=status))

    def _purchases_of(self, player_id: str) -> list[Purchase]:
        return [p for p in self._s.purchases.values() if p.player_id == player_id]

    def list_purchases(
        self, player_id: str, before: tuple[datetime, str] | None, limit: int
    ) -> list[Purchase]:
        rows = sorted(self._purchases_of(player_id), key=lambda p: (p.purchased_at, p.id), reverse=True)
        if before is not None:
            rows = [p for p in rows if (p.purchased_at, p.id) < before]
        return rows[:limit]

    def player_spend(self, player_id: str, now: datetime, windows: tuple[int, ...]) -> PlayerSpend:
        return player_spend(self._purchases_of(player_id), now, windows)

    def _revenue_rows(self, game_id: str, env: Environment) -> list[Purchase]:
        counted = {
            p.id
            for p in self._s.players.values()
            if p.game_id == game_id and p.env is env and p.debug is None
        }
        return [p for p in self._s.purchases.values() if p.player_id in counted]

    def spenders(
        self,
        game_id: str,
        env: Environment,
        min_amount_minor: int,
        since: datetime | None,
        limit: int,
        offset: int,
    ) -> list[Spender]:
        found = spenders(self._revenue_rows(game_id, env), min_amount_minor, since)
        return found[offset : offset + limit]

    def revenue(self, game_id: str, env: Environment, start: datetime, end: datetime) -> RevenueSummary:
        return summarize(self._revenue_rows(game_id, env), start, end)

    def migration_keys(
        self, game_id: str, env: Environment, kind: MigrationKind, keys: list[str]
    ) -> dict[str, str]:
        table = self._s.migration_keys
        return {k: fp for k in keys if (fp := table.get((game_id, env.value, kind.value, k))) is not None}

    def put_migration_key(
        self, game_id: str, env: Environment, kind: MigrationKind, key: str, fingerprint: str, at: datetime
    ) -> None:
        self._put(self._s.migration_keys, (game_id, env.value, kind.value, key), fingerprint)

    def emit(self, event: DomainEvent) -> None:
        outbox = self._s.outbox
        bursts = self._s.bursts
        key = event.debounce_key
        if key is not None and key in bursts:
            index, started = bursts[key]
            # Same rule as the server's outbox: within DEBOUNCE of the burst's first event, the burst's
            # one event takes the latest state (and time), keeping the first event's id.
            if event.occurred_at < started + DEBOUNCE:
                previous = outbox[index]
                outbox[index] = attrs.evolve(previous, payload=event.payload, occurred_at=event.occurred_at)
                self._undo.append(lambda: outbox.__setitem__(index, previous))
                return
        if key is not None:
            self._put(bursts, key, (len(outbox), event.occurred_at))
        outbox.append(event)
        self._undo.append(outbox.pop)

    def get_idempotent(self, scope: str, key: str) -> StoredResponse | None:
        return self._s.idempotency.get((scope, key))

    def put_idempotent(self, stored: StoredResponse) -> None:
        self._put(self._s.idempotency, (stored.scope, stored.key), stored)
