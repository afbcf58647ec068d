"""A hypothesis state machine over live events (attempts, progress, windows and their boards) against a
model, for any store.

Rules: start (several players, ``max_attempts``, an entry cost in a platform game, segments), progress
and complete (refusals included: unknown metric, non-finite or non-numeric value, another player's
attempt, another event's key, after ``endsAt``, anti-cheat reject; a flag lets the write through), the
manual clock, the expiry sweep, opening due windows, closing due windows
(``commands.live_events.due_windows`` + ``close_window``) and end-now. Each step's outcome (applied, or
the refusal code) must be the model's, which encodes the refusal orders of ``livecore.live_events.attempts``.

Invariants: each player's board entry is the best score of their attempts on that board (equal scores:
the one reached first); ranks are 1..n with none shared; ``read_board`` pages (``limit``, ``cursor``,
``around``) agree with the model's order; a finalized board never changes; rank rewards are paid once per
(board, rank in the bands) to the player holding the rank; milestone rewards once per crossing; every
attempt past its ``endsAt`` is reported expired; a refused write changes nothing (store snapshots before
and after); the outbox holds the webhook kinds the model expects.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import attrs
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.economy.commands import change
from livecore.economy.rules import Reason, resource
from livecore.errors import LivecoreError
from livecore.games import Economy, Entry, GameSettings, Milestone, Order, RankBand, Resource, ResourceType
from livecore.hashing import KeyedHasher
from livecore.live_events.attempts import AttemptStatus, better, effective_status, reaches
from livecore.live_events.boards import BoardStatus, around_offset, paid_ranks
from livecore.live_events.commands import boards as boards_cmd
from livecore.live_events.commands import live_events as cmd
from livecore.live_events.rules import slot_at, window_id
from livecore.live_events.settings import EVENT_SETTINGS, AntiCheat, CheckKind, EventSettings, Verdict
from livecore.memory import MemoryStore
from livecore.players.commands import first_contact, load_game
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
PLAYERS = ("a", "b", "c", "d")
START_COINS = 25
COST = 10


def _coins(n: int) -> tuple[Entry, ...]:
    return (Entry(ResourceType.CURRENCY, "coins", n),)


# Points, higher is better: an entry cost, at most three attempts a window, milestones, a target, rank
# bands, a reject check and a flag check.
RACE = EventSettings(
    key="race",
    name="Race",
    starts_at=T0,
    window_seconds=3_600,
    repeat_every_seconds=7_200,
    attempt_seconds=900,
    score_metric="points",
    max_attempts=3,
    order=Order.DESC,
    target=500.0,
    entry_cost=_coins(COST),
    completion_rewards=_coins(2),
    milestones=(Milestone("m50", 50.0, _coins(1)), Milestone("m200", 200.0, _coins(3))),
    rank_rewards=(RankBand(1, 1, _coins(100)), RankBand(2, 3, _coins(20))),
    anti_cheat=(
        AntiCheat("cap", CheckKind.MAX_VALUE, "points", 1_000.0, Verdict.REJECT),
        AntiCheat("pace", CheckKind.MAX_RATE, "points", 40.0, Verdict.FLAG),
    ),
)
# A time, lower is better, one board per country; free and unlimited.
SPRINT = EventSettings(
    key="sprint",
    name="Sprint",
    starts_at=T0 + timedelta(minutes=30),
    window_seconds=1_800,
    repeat_every_seconds=5_400,
    attempt_seconds=600,
    score_metric="time",
    order=Order.ASC,
    target=10.0,
    segments=("country",),
    milestones=(Milestone("sub60", 60.0, _coins(1)),),
    rank_rewards=(RankBand(1, 2, _coins(5)),),
    anti_cheat=(
        AntiCheat("laps", CheckKind.MAX_VALUE, "laps", 20.0, Verdict.REJECT),
        AntiCheat("lap_pace", CheckKind.MAX_RATE, "laps", 2.0, Verdict.FLAG),
    ),
)
EVENTS = {"race": RACE, "sprint": SPRINT}
SETTINGS = GameSettings(
    economy=Economy.PLATFORM,
    resources={"coins": Resource("coins", ResourceType.CURRENCY)},
    sections={EVENT_SETTINGS: EVENTS},
)

StoreFactory = Callable[[], tuple[Any, Scope]]  # a store with a game configured as SETTINGS

# The live-event kinds counted exactly (progress updates are debounced: counted per attempt).
COUNTED = (
    "event.attempt_started",
    "event.attempt_restarted",
    "entry_cost.charged",
    "event.expired",
    "event.completed",
    "event.milestone_granted",
    "event.attempt_flagged",
    "window.opened",
    "window.closed",
    "leaderboard.finalized",
    "grant.created",
)


# Mostly the common case, sometimes the other.
def _mostly(common: Any, *others: Any) -> st.SearchStrategy[Any]:
    return st.sampled_from((common,) * 8 + others)


_VALUES = st.one_of(
    st.integers(-5, 1_100),
    st.integers(0, 300),
    st.floats(0, 1_100, allow_nan=False, allow_infinity=False),
    st.sampled_from((math.nan, math.inf, -math.inf, "12", True, None)),
)


@attrs.define
class MAttempt:
    id: str
    player: str
    event_key: str
    window_id: str
    board_id: str
    started_at: datetime
    ends_at: datetime
    status: AttemptStatus = AttemptStatus.IN_PROGRESS
    metrics: dict[str, float] = attrs.Factory(dict)
    score: float | None = None
    score_at: datetime | None = None
    milestones: list[str] = attrs.Factory(list)


@attrs.define
class MEntry:
    score: float
    reached_at: datetime
    attempt_id: str


def outbox_of(store: Any) -> list[Any]:
    """Every event of the store's outbox, in order."""
    if isinstance(store, MemoryStore):
        return list(store.outbox)
    with store.transaction() as tx:
        events: list[Any] = tx.outbox.events()
        return events


def make_machine(factory: StoreFactory) -> type[RuleBasedStateMachine]:
    class EventsMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.store, self.scope = factory()
            self.clock = ManualClock(T0 + timedelta(minutes=31))
            self.rt = Runtime(clock=self.clock, rng=SeededRandomSource(5), hasher=KeyedHasher(b"e" * 32))
            self.coins = dict.fromkeys(PLAYERS, START_COINS)
            self.country: dict[str, str | None] = dict.fromkeys(PLAYERS)
            self.attempts: list[MAttempt] = []
            self.windows: dict[str, bool] = {}  # recorded window id -> closed
            self.window_of: dict[str, tuple[Environment, str, datetime]] = {}  # id -> (env, event, end)
            self.entries: dict[tuple[str, str], MEntry] = {}  # (board id, player)
            self.boards: dict[str, tuple[str, str]] = {}  # board id -> (window id, event key)
            self.finalized: dict[str, Any] = {}  # board id -> what it showed when finalized
            self.rank_grants: Counter[tuple[str, int, str]] = Counter()  # (board id, rank, player id)
            self.kinds: Counter[str] = Counter()
            self.progressed: set[str] = set()  # attempts with an accepted write
            self.ids: dict[str, str] = {}
            with self.store.transaction() as tx:
                game = load_game(tx, self.scope)
                for p in PLAYERS:
                    player = first_contact(tx, self.rt, self.scope, p)
                    self.ids[p] = player.id
                    coins = resource(game, "coins")
                    change(tx, self.rt, self.scope, game, player, coins, START_COINS, Reason.SERVER_CREDIT)
            self.baseline = Counter(e.kind for e in outbox_of(self.store))

        # --- helpers ---------------------------------------------------------------------------
        def run(self, fn: Callable[[Any], Any]) -> tuple[Any, str | None]:
            try:
                with self.store.transaction() as tx:
                    return fn(tx), None
            except LivecoreError as exc:
                return None, exc.code.value

        def refused(self, fn: Callable[[Any], Any], expected: str) -> None:
            """Run a write the model expects refused with ``expected``: it is, and nothing changed."""
            before = self.snapshot()
            _, code = self.run(fn)
            assert code == expected, (code, expected)
            assert self.snapshot() == before

        def player(self, tx: Any, p: str) -> Any:
            return tx.players.get(self.scope.game_id, p)

        def now(self) -> datetime:
            return self.clock.now()

        def test_window(self, key: str) -> str | None:
            """The id of the event's window open now in the test environment, unless it was closed."""
            slot = slot_at(EVENTS[key], self.now())
            if slot is None:
                return None
            wid = window_id(self.scope.game_id, Environment.TEST, key, slot.starts_at)
            return None if self.windows.get(wid) else wid

        def record_window(self, wid: str, env: Environment, key: str) -> None:
            """The window open now of event ``key`` in ``env`` is recorded (if it was not)."""
            if wid not in self.windows:
                slot = slot_at(EVENTS[key], self.now())
                assert slot is not None
                self.windows[wid] = False
                self.window_of[wid] = (env, key, slot.ends_at)
                if env is Environment.LIVE:
                    self.kinds["window.opened"] += 1

        def expire(self, attempt: MAttempt) -> None:
            attempt.status = AttemptStatus.EXPIRED
            self.kinds["event.expired"] += 1

        def effective(self, attempt: MAttempt) -> AttemptStatus:
            if attempt.status is AttemptStatus.IN_PROGRESS and self.now() >= attempt.ends_at:
                return AttemptStatus.EXPIRED
            return attempt.status

        def ordered(self, board_id: str) -> list[tuple[str, MEntry]]:
            order = EVENTS[self.boards[board_id][1]].order
            sign = -1 if order is Order.DESC else 1
            mine = [(p, e) for (b, p), e in self.entries.items() if b == board_id]
            return sorted(mine, key=lambda pe: (sign * pe[1].score, pe[1].reached_at, self.ids[pe[0]]))

        def snapshot(self) -> Any:
            """What the store holds of this game, through the ports (and the outbox)."""
            with self.store.transaction() as tx:
                shot: dict[str, Any] = {}
                for p, pid in self.ids.items():
                    shot[p] = (
                        tx.players.by_id(pid),
                        tx.attempts.recent(pid, 1_000),
                        tx.attempts.counts(pid),
                        tx.ledger.holdings(pid),
                        tx.grants.recent(pid, 1_000),
                        tx.boards.entries_of(pid),
                    )
                for key in EVENTS:
                    for env in Environment:
                        shot[f"open {key} {env}"] = tx.windows.open_of(self.scope.game_id, env, key)
                shot["due"] = tx.windows.due_to_close(self.now() + timedelta(days=400), 1_000)
                shot["running"] = tx.attempts.past_end(self.now() + timedelta(days=400), 1_000)
                for wid in self.windows:
                    shot[wid] = (tx.windows.get(self.scope.game_id, wid), tx.boards.of_window(wid))
                for bid in self.boards:
                    board = tx.boards.get(self.scope.game_id, bid)
                    shot[bid] = (board, tx.boards.page(board, None, 1_000), tx.boards.size(bid))
            return shot, [(e.id, e.kind, e.data) for e in outbox_of(self.store)]

        # --- rules -------------------------------------------------------------------------------
        @rule(
            p=st.sampled_from(PLAYERS),
            key=st.sampled_from(("race", "sprint") * 4 + ("nope",)),
            country=st.sampled_from((None, None, "FR", "DE", "fr", "xx1")),
        )
        def start(self, p: str, key: str, country: str | None) -> None:
            context = None if country is None else {"country": country}

            def act(tx: Any) -> Any:
                return cmd.start(tx, self.rt, self.scope, self.player(tx, p), key, context)

            if key not in EVENTS:
                self.refused(act, "event_not_found")
                return
            event = EVENTS[key]
            wid = self.test_window(key)
            if wid is None:
                self.refused(act, "event_not_open")
                return
            mine = [a for a in self.attempts if a.player == p and a.window_id == wid]
            if any(self.effective(a) is AttemptStatus.IN_PROGRESS for a in mine):
                self.refused(act, "attempt_in_progress")
                return
            if event.max_attempts is not None and len(mine) >= event.max_attempts:
                self.refused(act, "max_attempts_reached")
                return
            if event.entry_cost and self.coins[p] < COST:
                self.refused(act, "insufficient_entry_cost")
                return
            attempt, code = self.run(act)
            assert code is None, code
            self.record_window(wid, Environment.TEST, key)
            for a in mine:
                if a.status is AttemptStatus.IN_PROGRESS:  # ran out: the start records it
                    self.expire(a)
            normalized = country.upper() if country in ("FR", "DE", "fr") else None
            self.country[p] = normalized or self.country[p]
            # A country segment is the player's resolved country, normalized.
            expected_values = {"country": self.country[p]} if key == "sprint" else {}
            assert attempt.segment_values == expected_values
            assert attempt.window_id == wid
            assert attempt.attempt_count == len(mine) + 1
            window_end = slot_at(event, self.now()).ends_at  # type: ignore[union-attr]
            assert attempt.ends_at == min(self.now() + timedelta(seconds=event.attempt_seconds), window_end)
            self.attempts.append(
                MAttempt(attempt.id, p, key, wid, attempt.board_id, self.now(), attempt.ends_at)
            )
            self.boards[attempt.board_id] = (wid, key)
            self.kinds["event.attempt_started"] += 1
            if mine:
                self.kinds["event.attempt_restarted"] += 1
            if event.entry_cost:
                self.coins[p] -= COST
                self.kinds["entry_cost.charged"] += 1

        @precondition(lambda self: bool(self.attempts))
        @rule(
            data=st.data(),
            as_owner=_mostly(True, False),
            right_key=_mostly(True, False),
            name=_mostly("score", "check", "check", "bogus"),
            value=_VALUES,
            also_check=st.booleans(),
            complete=_mostly(False, True),
        )
        def progress(
            self,
            data: st.DataObject,
            as_owner: bool,
            right_key: bool,
            name: str,
            value: Any,
            also_check: bool,
            complete: bool,
        ) -> None:
            running = [a for a in self.attempts if self.effective(a) is AttemptStatus.IN_PROGRESS]
            pool = running if running and data.draw(_mostly(True, False)) else self.attempts
            attempt = data.draw(st.sampled_from(pool))
            event = EVENTS[attempt.event_key]
            who = attempt.player if as_owner else data.draw(st.sampled_from(PLAYERS))
            key = attempt.event_key if right_key else ("sprint" if attempt.event_key == "race" else "race")
            check_metric = event.anti_cheat[0].metric
            metric = {"score": event.score_metric, "check": check_metric, "bogus": "bogus"}[name]
            metrics: dict[str, Any] = {metric: value}
            if also_check and metric != check_metric:
                metrics[check_metric] = data.draw(st.integers(0, 25))

            def act(tx: Any) -> Any:
                return cmd.record_progress(
                    tx, self.rt, self.scope, self.player(tx, who), key, attempt.id, metrics, complete
                )

            if who != attempt.player or key != attempt.event_key:
                self.refused(act, "attempt_not_found")
                return
            if any(
                n not in event.metrics()
                or isinstance(v, bool)
                or not isinstance(v, int | float)
                or not math.isfinite(v)
                for n, v in metrics.items()
            ):
                self.refused(act, "invalid_request")
                return
            if self.effective(attempt) is not AttemptStatus.IN_PROGRESS:
                self.refused(act, "attempt_not_in_progress")
                return
            now = self.now()
            elapsed = max((now - attempt.started_at).total_seconds(), 0.0)
            failed = []
            for check in event.anti_cheat:
                if check.metric not in metrics:
                    continue
                after = float(metrics[check.metric])
                if check.kind is CheckKind.MAX_VALUE:
                    over = after > check.limit
                else:
                    over = after / max(elapsed, 1.0) > check.limit
                if over:
                    failed.append(check)
            if any(c.verdict is Verdict.REJECT for c in failed):
                self.refused(act, "anti_cheat_rejected")
                return
            result, code = self.run(act)
            assert code is None, code
            stored, _grants = result
            self.progressed.add(attempt.id)
            self.kinds["event.attempt_flagged"] += len(failed)
            attempt.metrics.update({n: float(v) for n, v in metrics.items()})
            score = metrics.get(event.score_metric)
            if score is not None and (attempt.score is None or better(event.order, score, attempt.score)):
                attempt.score, attempt.score_at = float(score), now
                board_open = not self.windows[attempt.window_id]
                current = self.entries.get((attempt.board_id, attempt.player))
                if board_open and (current is None or better(event.order, attempt.score, current.score)):
                    self.entries[attempt.board_id, attempt.player] = MEntry(attempt.score, now, attempt.id)
            if attempt.score is not None:
                for m in event.milestones:
                    if m.key not in attempt.milestones and reaches(event.order, attempt.score, m.threshold):
                        attempt.milestones.append(m.key)
                        self.kinds["event.milestone_granted"] += 1
                        self.kinds["grant.created"] += 1
            reached = attempt.score is not None and reaches(event.order, attempt.score, event.target or 0)
            if complete or reached:
                attempt.status = AttemptStatus.COMPLETED
                self.kinds["event.completed"] += 1
                if event.completion_rewards:
                    self.kinds["grant.created"] += 1
            assert stored.status is attempt.status
            assert (stored.score, stored.score_at) == (attempt.score, attempt.score_at)
            assert stored.metrics == attempt.metrics
            assert stored.milestones == tuple(attempt.milestones)

        @rule(seconds=st.sampled_from((1, 1, 2, 5, 10, 30, 60, 300, 900, 3_600)))
        def advance(self, seconds: int) -> None:
            self.clock.advance(seconds)

        def past_end(self) -> list[MAttempt]:
            return [
                a for a in self.attempts if a.status is AttemptStatus.IN_PROGRESS and self.now() >= a.ends_at
            ]

        def due(self) -> set[str]:
            return {w for w, done in self.windows.items() if not done and self.window_of[w][2] <= self.now()}

        def scored(self, key: str) -> bool:
            """The event's open test window has a board with entries (something to finalize)."""
            wid = self.test_window(key)
            return any(self.boards[b][0] == wid for b, _ in self.entries)

        @precondition(lambda self: bool(self.past_end()))
        @rule()
        def sweep(self) -> None:
            swept, code = self.run(lambda tx: cmd.expire_attempts(tx, self.rt, self.scope.game_id))
            assert code is None
            due = self.past_end()
            assert swept == len(due)
            for a in due:
                self.expire(a)

        @precondition(
            lambda self: any(
                window_id(self.scope.game_id, Environment.LIVE, key, slot.starts_at) not in self.windows
                for key, slot in ((k, slot_at(e, self.now())) for k, e in EVENTS.items())
                if slot is not None
            )
        )
        @rule()
        def open_due(self) -> None:
            opened, code = self.run(lambda tx: cmd.open_due_windows(tx, self.rt))
            assert code is None
            expected = 0
            for key, event in EVENTS.items():
                slot = slot_at(event, self.now())
                if slot is None:
                    continue
                for env in Environment:
                    wid = window_id(self.scope.game_id, env, key, slot.starts_at)
                    if wid not in self.windows:
                        self.record_window(wid, env, key)
                        expected += 1
            assert opened == expected

        def closed(self, wid: str) -> None:
            """The model of ``close_window``: expire, finalize, pay, close (read what was finalized)."""
            for a in self.attempts:
                if a.window_id == wid and a.status is AttemptStatus.IN_PROGRESS:
                    self.expire(a)
            self.windows[wid] = True
            if self.window_of[wid][0] is Environment.LIVE:
                self.kinds["window.closed"] += 1
            for bid, (w, key) in self.boards.items():
                if w != wid:
                    continue
                self.kinds["leaderboard.finalized"] += 1
                ranked = self.ordered(bid)
                for rank, (p, _) in enumerate(ranked[: paid_ranks(EVENTS[key].rank_rewards)], start=1):
                    self.rank_grants[bid, rank, self.ids[p]] += 1
                    self.kinds["grant.created"] += 1
                with self.store.transaction() as tx:
                    board = tx.boards.get(self.scope.game_id, bid)
                    assert board.status is BoardStatus.FINALIZED
                    self.finalized[bid] = (board, self.entries_of(tx, board))

        @precondition(lambda self: bool(self.due()))
        @rule()
        def close_due(self) -> None:
            def act(tx: Any) -> list[str]:
                closed = []
                for window in cmd.due_windows(tx, self.rt, 100):
                    assert cmd.close_window(tx, self.rt, window.id, window.game_id)
                    closed.append(window.id)
                return closed

            closed, code = self.run(act)
            assert code is None
            assert set(closed) == self.due()
            for wid in closed:
                self.closed(wid)

        @precondition(lambda self: self.scored("race") or self.scored("sprint"))
        @rule(key=st.sampled_from(("race", "sprint")))
        def end_now(self, key: str) -> None:
            wid = self.test_window(key)
            closed, code = self.run(lambda tx: cmd.end_now(tx, self.rt, self.scope, key))
            assert code is None
            if wid is not None:
                self.record_window(wid, Environment.TEST, key)
            still_open = {
                w
                for w, done in self.windows.items()
                if not done and self.window_of[w][:2] == (Environment.TEST, key)
            }
            assert set(closed) == still_open
            for w in closed:
                self.closed(w)

        @staticmethod
        def entries_of(tx: Any, board: Any) -> list[Any]:
            """The board's entries in order (their players are read as they are now: not frozen)."""
            return [entry for entry, _ in tx.boards.page(board, None, 1_000)]

        @precondition(lambda self: bool(self.boards))
        @rule(data=st.data(), limit=st.integers(1, 4), who=st.sampled_from(PLAYERS))
        def read_pages(self, data: st.DataObject, limit: int, who: str) -> None:
            bid = data.draw(st.sampled_from(sorted(self.boards)))
            expected = [self.ids[p] for p, _ in self.ordered(bid)]
            with self.store.transaction() as tx:
                pages = []
                page = boards_cmd.read_board(tx, self.rt, self.scope, bid, limit=limit)
                pages.append(page)
                while page.next_cursor is not None:
                    page = boards_cmd.read_board(
                        tx, self.rt, self.scope, bid, limit=limit, cursor=page.next_cursor
                    )
                    pages.append(page)
                around = boards_cmd.read_board(tx, self.rt, self.scope, bid, limit=limit, around=who)
            standings = [s for pg in pages for s in pg.standings]
            assert [s.player.id for s in standings] == expected
            assert [s.rank for s in standings] == list(range(1, len(expected) + 1))
            assert all(len(pg.standings) == limit for pg in pages[:-1])
            ids = [s.player.id for s in around.standings]
            if self.ids[who] in expected:
                position = expected.index(self.ids[who])
                first = around_offset(position, len(expected), limit)
                assert ids == expected[first : first + limit]
                assert [s.rank for s in around.standings] == list(range(first + 1, first + 1 + len(ids)))
            else:
                assert ids == expected[:limit]

        # --- invariants --------------------------------------------------------------------------
        @invariant()
        def entries_are_the_best_scores_and_ranks_are_one_to_n(self) -> None:
            with self.store.transaction() as tx:
                for bid in self.boards:
                    board = tx.boards.get(self.scope.game_id, bid)
                    page = boards_cmd.read_board(tx, self.rt, self.scope, bid, limit=200)
                    assert [s.rank for s in page.standings] == list(range(1, len(page.standings) + 1))
                    assert tx.boards.size(bid) == len(page.standings)
                    expected = self.ordered(bid)
                    assert [
                        (s.player.id, s.entry.score, s.entry.reached_at, s.entry.attempt_id)
                        for s in page.standings
                    ] == [(self.ids[p], e.score, e.reached_at, e.attempt_id) for p, e in expected]
                    # The entry is the best score the player's attempts reached on the board while it
                    # was open (the first to reach it on equal scores).
                    for p, e in expected:
                        scored = [
                            a
                            for a in self.attempts
                            if a.board_id == bid and a.player == p and a.score is not None
                        ]
                        order = board.order
                        best = scored[0]
                        for a in scored[1:]:
                            if better(order, a.score, best.score):  # type: ignore[arg-type]
                                best = a
                        assert (e.score, e.reached_at) == (best.score, best.score_at)
                    for p in PLAYERS:
                        stored = tx.boards.entry(bid, self.ids[p])
                        model = self.entries.get((bid, p))
                        assert (stored is None) == (model is None)

        @invariant()
        def finalized_boards_never_change(self) -> None:
            with self.store.transaction() as tx:
                for bid, (board, rows) in self.finalized.items():
                    assert tx.boards.get(self.scope.game_id, bid) == board
                    assert self.entries_of(tx, board) == rows

        @invariant()
        def rewards_are_paid_once_per_rank_and_milestone(self) -> None:
            ranks: Counter[tuple[str, int, str]] = Counter()
            milestones: Counter[tuple[str, str]] = Counter()
            with self.store.transaction() as tx:
                for pid in self.ids.values():
                    for grant in tx.grants.recent(pid, 1_000):
                        if grant.source_kind == "event_rank":
                            ranks[grant.source_ref_id, grant.metadata["rank"], grant.player_id] += 1
                        elif grant.source_kind == "event_milestone":
                            milestones[grant.source_ref_id, grant.metadata["milestoneKey"]] += 1
            assert ranks == self.rank_grants
            assert milestones == Counter((a.id, m) for a in self.attempts for m in a.milestones)

        @invariant()
        def attempts_past_their_end_are_reported_expired(self) -> None:
            with self.store.transaction() as tx:
                for p in PLAYERS:
                    listing = cmd.list_events(tx, self.rt, self.scope, self.player(tx, p))
                    for item in listing:
                        for a in item.attempts or []:
                            if self.now() >= a.ends_at:
                                assert a.status is not AttemptStatus.IN_PROGRESS, a
                for a in self.attempts:
                    stored = tx.attempts.get(self.scope.game_id, a.id)
                    assert stored.status is a.status
                    assert effective_status(stored, self.now()) is self.effective(a)

        @invariant()
        def coins_are_the_start_less_the_entry_costs(self) -> None:
            with self.store.transaction() as tx:
                for p, pid in self.ids.items():
                    assert tx.ledger.holding(pid, "coins").amount == self.coins[p]

        @invariant()
        def the_outbox_holds_the_expected_kinds(self) -> None:
            events = outbox_of(self.store)
            kinds = Counter(e.kind for e in events) - self.baseline
            assert {k: kinds[k] for k in COUNTED} == {k: self.kinds[k] for k in COUNTED}
            updated = {e.data["attemptId"] for e in events if e.kind == "event.progress_updated"}
            assert updated == self.progressed

    return EventsMachine
