"""A hypothesis state machine over lobby matchmaking, for any store.

Rules: players start on lobby events (random segment values; the first start of a window records it),
the clock advances, the fill_by sweep runs (``commands.lobbies.lobbies_to_fill`` + ``fill_lobby``, each
lobby in its own step), the studio pushes lobbies (refusals included: repeated key, players seated
already, over capacity), due windows close, and end-now closes the open ones.

Invariants, read from the store through its ports: no lobby holds more seats than its capacity, and its
``participant_count`` and ``bot_count`` are its seats'; a player holds at most one seat per window; every
forming lobby whose ``fill_by`` has come is promoted once the sweep ran; a lobby's status only moves along
``livecore.lobbies.rules.TRANSITIONS`` (and a lobby of a closed window is closed); a start's answer is the
player's own lobby.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.errors import LivecoreError
from livecore.games import Economy, GameSettings
from livecore.hashing import KeyedHasher
from livecore.live_events.attempts import Attempt
from livecore.live_events.commands import live_events as cmd
from livecore.live_events.commands.steps import Held
from livecore.live_events.rules import WindowStatus
from livecore.live_events.settings import EVENT_SETTINGS, EventSettings
from livecore.lobbies import commands as lobbies_cmd
from livecore.lobbies.rules import TRANSITIONS, Lobby, LobbyStatus, PromotionReason
from livecore.lobbies.settings import LOBBY_SETTINGS, BotScore, LobbySettings
from livecore.players.commands import first_contact
from livecore.rand import SeededRandomSource
from livecore.scope import Scope

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
PLAYERS = ("a", "b", "c", "d", "e", "f", "g")
PUSHED = ("x", "y", "z")  # players a push creates on first contact
REGIONS = (None, "eu", "us")


def _event(key: str, lobby: LobbySettings, starts_at: datetime) -> EventSettings:
    return EventSettings(
        key=key,
        name=key,
        starts_at=starts_at,
        window_seconds=600,
        repeat_every_seconds=900,
        attempt_seconds=120,
        score_metric="score",
        segments=("region",),
        parts={LOBBY_SETTINGS: lobby},
    )


EVENTS = {
    "duel": _event("duel", LobbySettings(3, 60, fill_bots=True, bot_score=BotScore(10, 90)), T0),
    "squad": _event("squad", LobbySettings(4, 90), T0 + timedelta(minutes=5)),
}
SETTINGS = GameSettings(economy=Economy.PLATFORM, sections={EVENT_SETTINGS: EVENTS})

StoreFactory = Callable[[], tuple[Any, Scope]]  # a store with a game configured as SETTINGS

# The moves a lobby's status may make between two looks at it: one transition, or two (a forming lobby
# promoted and closed since).
_MOVES = {(a, b) for (a, _), b in TRANSITIONS.items()} | {(LobbyStatus.FORMING, LobbyStatus.CLOSED)}


def make_machine(factory: StoreFactory) -> type[RuleBasedStateMachine]:
    class LobbiesMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.store, self.scope = factory()
            self.clock = ManualClock(T0)
            self.rt = Runtime(clock=self.clock, rng=SeededRandomSource(11), hasher=KeyedHasher(b"l" * 32))
            self.ids: dict[str, str] = {}
            with self.store.transaction() as tx:
                for p in PLAYERS:
                    self.ids[p] = first_contact(tx, self.rt, self.scope, p).id
            self.lobbies: dict[str, Lobby] = {}  # every lobby seen, as last seen
            self.windows: set[str] = set()
            self.swept_at: datetime | None = None  # when the fill_by sweep last ran to the end
            self.keys: dict[str, tuple[str, ...]] = {}  # push key -> the players it seated

        # --- helpers ---------------------------------------------------------------------------
        def run(self, fn: Callable[[Any], Any]) -> tuple[Any, str | None]:
            try:
                with self.store.transaction() as tx:
                    return fn(tx), None
            except LivecoreError as exc:
                return None, exc.code.value

        def seen(self, lobby: Lobby) -> None:
            self.lobbies.setdefault(lobby.id, lobby)
            self.windows.add(lobby.window_id)

        # --- rules -------------------------------------------------------------------------------
        @rule(p=st.sampled_from(PLAYERS), key=st.sampled_from(tuple(EVENTS)), region=st.sampled_from(REGIONS))
        def start(self, p: str, key: str, region: str | None) -> None:
            context = None if region is None else {"region": region}

            def act(tx: Any) -> Any:
                player = tx.players.get(self.scope.game_id, p)
                started = cmd.start(tx, self.rt, self.scope, player, key, context)
                answer = started.record if isinstance(started, Held) else started  # a forming lobby's
                seat = tx.lobbies.seat_in_window(answer.window_id, player.id)
                return answer, seat

            out, code = self.run(act)
            if code is not None:
                assert code in ("event_not_open", "attempt_in_progress"), code
                return
            answer, seat = out
            assert seat is not None
            if isinstance(answer, Attempt):
                assert answer.lobby_id == seat.lobby_id
            else:
                assert answer.id == seat.lobby_id and answer.status is LobbyStatus.FORMING
                self.seen(answer)
            self.windows.add(seat.window_id)

        @rule(seconds=st.sampled_from((1, 5, 20, 30, 60, 61, 90, 300)))
        def advance(self, seconds: int) -> None:
            self.clock.advance(seconds)

        @rule()
        def fill_sweep(self) -> None:
            while True:
                due, code = self.run(lambda tx: lobbies_cmd.lobbies_to_fill(tx, self.rt, 2))
                assert code is None
                if not due:
                    break
                for lobby in due:
                    self.seen(lobby)
                    filled, code = self.run(
                        lambda tx, lobby=lobby: lobbies_cmd.fill_lobby(tx, self.rt, lobby.game_id, lobby.id)
                    )
                    assert code is None and filled
            self.swept_at = self.clock.now()

        @rule(
            key=st.sampled_from(("k1", "k2", "k3")),
            event_key=st.sampled_from(tuple(EVENTS)),
            players=st.lists(st.sampled_from(PLAYERS + PUSHED), min_size=1, max_size=4, unique=True),
            capacity=st.sampled_from((None, 2, 3, 5)),
            fill_bots=st.booleans(),
        )
        def push(
            self, key: str, event_key: str, players: list[str], capacity: int | None, fill_bots: bool
        ) -> None:
            def act(tx: Any) -> Any:
                return lobbies_cmd.push(
                    tx,
                    self.rt,
                    self.scope,
                    self.scope.game_id,
                    event_key,
                    key,
                    players,
                    capacity=capacity,
                    fill_bots=fill_bots,
                )

            pushed, code = self.run(act)
            if code is not None:
                expected = ("idempotency_conflict", "invalid_request", "conflict", "event_not_open")
                assert code in expected, code
                # The same key and players answer the lobby, unless this request is malformed (more
                # players than its capacity seats): that is refused whatever its key.
                if (
                    code != "invalid_request"
                    and key in self.keys
                    and sorted(players) == sorted(self.keys[key][1:])
                ):
                    assert self.keys[key][0] != event_key
                return
            if key in self.keys:
                assert not pushed.created and sorted(players) == sorted(self.keys[key][1:])
                return
            assert pushed.created and pushed.lobby.status is LobbyStatus.ACTIVE
            self.keys[key] = (event_key, *players)
            self.seen(pushed.lobby)
            for p in players:
                if p in PUSHED:
                    with self.store.transaction() as tx:
                        self.ids[p] = tx.players.get(self.scope.game_id, p).id

        @rule()
        def close_due(self) -> None:
            def act(tx: Any) -> None:
                for window in cmd.due_windows(tx, self.rt, 100):
                    assert cmd.close_window(tx, self.rt, window.id, window.game_id)

            assert self.run(act)[1] is None

        @precondition(lambda self: bool(self.windows))
        @rule(key=st.sampled_from(tuple(EVENTS)))
        def end_now(self, key: str) -> None:
            closed, code = self.run(lambda tx: cmd.end_now(tx, self.rt, self.scope, key))
            assert code is None
            self.windows.update(closed)

        # --- invariants --------------------------------------------------------------------------
        def stored(self, tx: Any) -> dict[str, Lobby]:
            """Every lobby seen, and every lobby a player holds a seat in, as the store has it now."""
            ids = set(self.lobbies)
            for pid in self.ids.values():
                ids.update(seat.lobby_id for seat in tx.lobbies.seats_of(pid, 1_000))
            return {i: tx.lobbies.get(self.scope.game_id, i) for i in ids}

        @invariant()
        def lobbies_hold_at_most_their_capacity_and_count_their_seats(self) -> None:
            with self.store.transaction() as tx:
                for lobby in self.stored(tx).values():
                    seats = tx.lobbies.seats(lobby.id)
                    assert len(seats) <= lobby.capacity
                    assert lobby.participant_count == len(seats)
                    assert lobby.bot_count == sum(seat.is_bot for seat in seats)
                    assert len(seats) >= 1  # a lobby is opened with its first seat

        @invariant()
        def a_player_sits_in_at_most_one_lobby_per_window(self) -> None:
            with self.store.transaction() as tx:
                for pid in self.ids.values():
                    windows = [seat.window_id for seat in tx.lobbies.seats_of(pid, 1_000)]
                    assert len(windows) == len(set(windows)), windows

        @invariant()
        def forming_lobbies_past_fill_by_are_promoted_once_the_sweep_ran(self) -> None:
            if self.swept_at is None:
                return
            with self.store.transaction() as tx:
                for lobby in self.stored(tx).values():
                    if lobby.status is LobbyStatus.FORMING:
                        assert lobby.fill_by is not None and lobby.fill_by > self.swept_at

        @invariant()
        def a_lobbys_status_follows_the_transition_table(self) -> None:
            with self.store.transaction() as tx:
                now = self.stored(tx)
                for lobby_id, lobby in now.items():
                    before = self.lobbies.get(lobby_id)
                    if before is not None and before.status is not lobby.status:
                        assert (before.status, lobby.status) in _MOVES, (before.status, lobby.status)
                    if lobby.status is not LobbyStatus.FORMING:
                        assert lobby.started_at is not None or lobby.status is LobbyStatus.CLOSED
                    if lobby.promotion_reason is PromotionReason.TIMEOUT:
                        assert lobby.fill_by is not None and lobby.started_at is not None
                        assert lobby.started_at >= lobby.fill_by
                    if lobby.promotion_reason is PromotionReason.CAPACITY:
                        assert lobby.participant_count == lobby.capacity
                    window = tx.windows.get(self.scope.game_id, lobby.window_id)
                    if window.status is WindowStatus.CLOSED:
                        assert lobby.status is LobbyStatus.CLOSED
                    self.lobbies[lobby_id] = lobby

    return LobbiesMachine
