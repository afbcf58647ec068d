"""The live-event commands on the in-memory store: what a simulation runs, refusals and webhooks included."""

from __future__ import annotations

from datetime import UTC, datetime

import attrs
import pytest

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.economy.commands import change
from livecore.economy.memory import EconomyTables
from livecore.economy.rules import Reason
from livecore.errors import PERMISSION_DENIED, Code, LivecoreError
from livecore.games import (
    Economy,
    Entry,
    Game,
    GameSettings,
    Milestone,
    RankBand,
    Resource,
    ResourceType,
    Studio,
)
from livecore.grants.memory import GrantTables
from livecore.hashing import KeyedHasher
from livecore.live_events.area import AREA
from livecore.live_events.attempts import AttemptStatus
from livecore.live_events.commands import live_events as ev
from livecore.live_events.commands.boards import read_board
from livecore.live_events.commands.steps import shares_rows
from livecore.live_events.errors import (
    ATTEMPT_IN_PROGRESS,
    ATTEMPT_NOT_FOUND,
    ATTEMPT_NOT_IN_PROGRESS,
    EVENT_NOT_FOUND,
    EVENT_NOT_OPEN,
    INSUFFICIENT_ENTRY_COST,
    MAX_ATTEMPTS_REACHED,
)
from livecore.live_events.memory import LiveEventTables
from livecore.live_events.settings import EVENT_SETTINGS, EventSettings
from livecore.lobbies.settings import LOBBY_SETTINGS, LobbySettings
from livecore.memory import MemoryStore
from livecore.players.commands import register
from livecore.players.rules import Player
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore.teams.settings import TEAM_SETTINGS, Formation, TeamSettings

T0 = datetime(2026, 12, 1, tzinfo=UTC)
GEMS = Resource("gems", ResourceType.CURRENCY)
COINS = Entry(ResourceType.CURRENCY, "gems", 7)
EVENT = EventSettings(
    key="trial",
    name="Trial",
    starts_at=T0,
    window_seconds=3600,
    repeat_every_seconds=86400,
    attempt_seconds=600,
    score_metric="score",
    max_attempts=2,
    entry_cost=(Entry(ResourceType.CURRENCY, "gems", 5),),
    completion_rewards=(COINS,),
    milestones=(Milestone("bronze", 100, (COINS,)),),
    rank_rewards=(RankBand(1, 2, (COINS,)),),
)
LIVE = Scope(studio_id="std_1", game_id="gam_1", env=Environment.LIVE)
TEST = attrs.evolve(LIVE, env=Environment.TEST)


class World:
    def __init__(self) -> None:
        self.store = MemoryStore()
        settings = GameSettings(
            economy=Economy.PLATFORM, resources={"gems": GEMS}, sections={EVENT_SETTINGS: {"trial": EVENT}}
        )
        self.store.add_game(Studio("std_1", "s"), Game("gam_1", "std_1", "g", "G", settings=settings))
        self.clock = ManualClock(T0)
        self.rt = Runtime(self.clock, SeededRandomSource(7), KeyedHasher(b"k" * 32))

    def run(self, fn, *args, **kw):
        with self.store.transaction() as tx:
            return fn(tx, self.rt, *args, **kw)

    def player(self, name: str, gems: int = 100, scope: Scope = LIVE) -> Player:
        with self.store.transaction() as tx:
            player = register(tx, self.rt, scope, name).player
            if gems:
                change(tx, self.rt, scope, tx.games.get("gam_1"), player, GEMS, gems, Reason.SERVER_CREDIT)
        return player

    def kinds(self) -> list[str]:
        return [e.kind for e in self.store.outbox]

    def gems(self, player: Player) -> int:
        holding = self.store.tables_of(EconomyTables).holdings.get((player.id, "gems"))
        return holding.amount if holding else 0


@pytest.fixture
def world() -> World:
    return World()


def refusal(world: World, fn, *args, **kw) -> Code:
    before = (
        len(world.store.outbox),
        dict(world.store.tables_of(LiveEventTables).attempts),
        dict(world.store.tables_of(EconomyTables).holdings),
    )
    with pytest.raises(LivecoreError) as exc:
        world.run(fn, *args, **kw)
    assert before == (
        len(world.store.outbox),
        dict(world.store.tables_of(LiveEventTables).attempts),
        dict(world.store.tables_of(EconomyTables).holdings),
    )
    return exc.value.code


def test_start_refusals_come_in_their_order_and_change_nothing(world):
    ada = world.player("ada", gems=7)
    assert refusal(world, ev.start, LIVE, ada, "nope", None) is EVENT_NOT_FOUND
    world.clock.set(T0.replace(hour=5))
    assert refusal(world, ev.start, LIVE, ada, "trial", None) is EVENT_NOT_OPEN
    world.clock.set(T0.replace(day=2))  # the next window
    first = world.run(ev.start, LIVE, ada, "trial", None)
    assert refusal(world, ev.start, LIVE, ada, "trial", None) is ATTEMPT_IN_PROGRESS
    world.run(ev.record_progress, LIVE, ada, "trial", first.id, {"score": 1}, complete=True)
    assert refusal(world, ev.start, LIVE, ada, "trial", None) is INSUFFICIENT_ENTRY_COST
    world.run(lambda tx, rt: change(tx, rt, LIVE, tx.games.get("gam_1"), ada, GEMS, 50, Reason.SERVER_CREDIT))
    second = world.run(ev.start, LIVE, ada, "trial", None)
    world.run(ev.record_progress, LIVE, ada, "trial", second.id, {"score": 2}, complete=True)
    assert refusal(world, ev.start, LIVE, ada, "trial", None) is MAX_ATTEMPTS_REACHED


def test_the_entry_cost_is_charged_with_the_attempt_and_announced(world):
    ada = world.player("ada", gems=10)
    attempt = world.run(ev.start, LIVE, ada, "trial", None)
    assert world.gems(ada) == 5
    tail = world.kinds()[-3:]
    assert tail == ["wallet.changed", "event.attempt_started", "entry_cost.charged"]
    assert attempt.attempt_count == 1 and attempt.status is AttemptStatus.IN_PROGRESS


def test_a_later_attempt_in_the_window_is_announced_as_restarted_then_started(world):
    ada = world.player("ada")
    first = world.run(ev.start, LIVE, ada, "trial", None)
    world.run(ev.record_progress, LIVE, ada, "trial", first.id, {"score": 1}, complete=True)
    second = world.run(ev.start, LIVE, ada, "trial", None)
    assert second.attempt_count == 2
    kinds = world.kinds()
    assert kinds.index("event.attempt_restarted") == len(kinds) - 3
    restarted = next(e for e in world.store.outbox if e.kind == "event.attempt_restarted").data
    assert (restarted["priorAttemptId"], restarted["priorStatus"]) == (first.id, "completed")


def test_progress_on_another_players_attempt_is_not_found(world):
    ada, bo = world.player("ada"), world.player("bo")
    attempt = world.run(ev.start, LIVE, ada, "trial", None)
    code = refusal(world, ev.record_progress, LIVE, bo, "trial", attempt.id, {"score": 1})
    assert code is ATTEMPT_NOT_FOUND


def test_an_expired_attempt_refuses_progress_and_a_new_start_expires_it(world):
    ada = world.player("ada")
    attempt = world.run(ev.start, LIVE, ada, "trial", None)
    world.clock.set(T0.replace(minute=10))
    code = refusal(world, ev.record_progress, LIVE, ada, "trial", attempt.id, {"score": 1})
    assert code is ATTEMPT_NOT_IN_PROGRESS
    world.run(ev.start, LIVE, ada, "trial", None)
    assert (
        world.store.tables_of(LiveEventTables).attempts[("gam_1", attempt.id)].status is AttemptStatus.EXPIRED
    )
    assert "event.expired" in world.kinds()


def test_the_attempts_sweep_expires_each_games_attempts_in_that_games_write_queue(world):
    """An attempt is changed by its own player's writes, which hold only their player on PostgreSQL: the
    sweep that expires it runs in its game's queue (a task of the game), so no progress write that read the
    attempt before writes over its expiry."""
    ada = world.player("ada")
    attempt = world.run(ev.start, LIVE, ada, "trial", None)
    world.clock.set(T0.replace(minute=10))
    (job,) = [j for j in AREA.jobs if j.name == "live_attempts_expiry"]
    with world.store.transaction() as tx:
        tasks = job.tasks(tx, world.rt)
    assert [t.game_id for t in tasks] == ["gam_1"]
    with world.store.transaction() as tx:
        assert tasks[0].step(tx, None) == "more"
    assert (
        world.store.tables_of(LiveEventTables).attempts[("gam_1", attempt.id)].status is AttemptStatus.EXPIRED
    )
    with world.store.transaction() as tx:
        assert tasks[0].step(tx, None) is None  # nothing more of the game is due


def test_milestones_and_completion_become_pending_grants(world):
    ada = world.player("ada")
    attempt = world.run(ev.start, LIVE, ada, "trial", None)
    after, granted = world.run(
        ev.record_progress, LIVE, ada, "trial", attempt.id, {"score": 150}, complete=True
    )
    assert after.status is AttemptStatus.COMPLETED
    kinds = sorted(g.source_kind for g in world.store.tables_of(GrantTables).grants.values())
    assert kinds == ["event_completion", "event_milestone"]
    assert [g.source_ref_id for g in granted] == [attempt.id]


def test_closing_a_window_expires_finalizes_pays_ranks_once_and_announces_live(world):
    players = [world.player(n) for n in ("ada", "bo", "cy")]
    for i, p in enumerate(players):
        a = world.run(ev.start, LIVE, p, "trial", None)
        world.run(ev.record_progress, LIVE, p, "trial", a.id, {"score": 10 * (i + 1)})
    world.clock.set(T0.replace(hour=1))
    (window,) = world.run(ev.due_windows, 10)
    assert world.run(ev.close_window, window.id, window.game_id)
    assert not world.run(ev.close_window, window.id, window.game_id)
    ranks = sorted(
        (g.external_player_id, g.metadata["rank"])
        for g in world.store.tables_of(GrantTables).grants.values()
        if g.source_kind == "event_rank"
    )
    assert ranks == [("bo", 2), ("cy", 1)]
    kinds = world.kinds()
    assert kinds[-1] == "window.closed" and kinds.count("leaderboard.finalized") == 1
    assert all(
        a.status is AttemptStatus.EXPIRED for a in world.store.tables_of(LiveEventTables).attempts.values()
    )


def test_test_windows_open_and_close_without_window_webhooks(world):
    ada = world.player("ada", scope=TEST)
    world.run(ev.start, TEST, ada, "trial", None)
    assert world.run(ev.end_now, TEST, "trial") != []
    assert "window.opened" not in world.kinds() and "window.closed" not in world.kinds()
    assert "leaderboard.finalized" in world.kinds()


def test_end_now_takes_a_test_scope_names_an_event_and_leaves_the_next_window(world):
    assert refusal(world, ev.end_now, LIVE, "trial") is PERMISSION_DENIED
    assert refusal(world, ev.end_now, TEST, "nope") is EVENT_NOT_FOUND
    closed = world.run(ev.end_now, TEST, "trial")
    assert len(closed) == 1
    assert world.run(ev.end_now, TEST, "trial") == []
    listing = world.run(ev.list_events, TEST, None)[0]
    assert listing.window is None and listing.next_window_starts_at == T0.replace(day=2)


def test_the_events_list_shows_the_players_attempts_only_with_the_player(world):
    ada = world.player("ada")
    world.run(ev.start, LIVE, ada, "trial", None)
    anonymous = world.run(ev.list_events, LIVE, None)[0]
    mine = world.run(ev.list_events, LIVE, ada)[0]
    assert anonymous.attempts is None and len(mine.attempts) == 1
    assert (
        mine.window[0]
        == world.store.tables_of(LiveEventTables).attempts[("gam_1", mine.attempts[0].id)].window_id
    )


def test_the_board_holds_each_players_best_attempt(world):
    ada = world.player("ada")
    first = world.run(ev.start, LIVE, ada, "trial", None)
    world.run(ev.record_progress, LIVE, ada, "trial", first.id, {"score": 80}, complete=True)
    second = world.run(ev.start, LIVE, ada, "trial", None)
    world.run(ev.record_progress, LIVE, ada, "trial", second.id, {"score": 50})
    with world.store.transaction() as tx:
        page = read_board(tx, world.rt, LIVE, first.board_id)
    assert [(s.rank, s.entry.score, s.entry.attempt_id) for s in page.standings] == [(1, 80, first.id)]


def test_an_event_removed_from_the_manifest_opens_no_window_and_keeps_its_history(world):
    ada = world.player("ada")
    attempt = world.run(ev.start, LIVE, ada, "trial", None)
    world.run(ev.record_progress, LIVE, ada, "trial", attempt.id, {"score": 42})
    game = world.store.games["gam_1"]
    world.store.games["gam_1"] = attrs.evolve(
        game,
        settings=attrs.evolve(
            game.settings.with_sections({EVENT_SETTINGS: {}}),
        ),
    )
    assert refusal(world, ev.start, LIVE, ada, "trial", None) is EVENT_NOT_FOUND
    # The open window still closes on time, with the settings it opened with: its ranks are paid.
    world.clock.set(T0.replace(hour=1))
    (window,) = world.run(ev.due_windows, 10)
    assert world.run(ev.close_window, window.id, window.game_id)
    assert [g.source_kind for g in world.store.tables_of(GrantTables).grants.values()].count(
        "event_rank"
    ) == 1
    # The next day's window never opens, and the board stays readable.
    world.clock.set(T0.replace(day=2, minute=30))
    assert world.run(ev.open_due_windows) == 0
    assert world.run(ev.list_events, LIVE, None) == []
    with world.store.transaction() as tx:
        assert [s.entry.score for s in read_board(tx, world.rt, LIVE, attempt.board_id).standings] == [42]


def test_a_country_segment_is_the_resolved_country_in_upper_case(world):
    game = world.store.games["gam_1"]
    by_country = attrs.evolve(EVENT, segments=("country",), entry_cost=())
    world.store.games["gam_1"] = attrs.evolve(
        game,
        settings=attrs.evolve(
            game.settings.with_sections({EVENT_SETTINGS: {"trial": by_country}}),
        ),
    )
    ada, bo = world.player("ada"), world.player("bo")
    first = world.run(ev.start, LIVE, ada, "trial", {"country": "fr"})
    second = world.run(ev.start, LIVE, bo, "trial", {"country": "FR"})
    assert first.segment_values == {"country": "FR"} and first.board_id == second.board_id


def test_an_operator_force_completes_an_attempt_and_the_board_follows_without_rewards(world):
    ada = world.player("ada")
    first = world.run(ev.start, LIVE, ada, "trial", None)
    world.run(ev.record_progress, LIVE, ada, "trial", first.id, {"score": 60}, complete=True)
    second = world.run(ev.start, LIVE, ada, "trial", None)
    world.run(ev.record_progress, LIVE, ada, "trial", second.id, {"score": 90})
    grants_before = len(world.store.tables_of(GrantTables).grants)
    done = world.run(ev.force_complete, LIVE, second.id, score=150, actor_member_id="mem_1", reason="support")
    assert (done.status, done.score, done.milestones) == (AttemptStatus.COMPLETED, 150, ("bronze",))
    assert (
        len(world.store.tables_of(GrantTables).grants) == grants_before
    )  # rewards are not rolled automatically
    payload = world.store.outbox[-1].data
    assert world.store.outbox[-1].kind == "event.force_completed"
    assert (payload["score"], payload["priorScore"], payload["milestonesFired"]) == (150, 90, ["bronze"])
    with world.store.transaction() as tx:
        assert [s.entry.score for s in read_board(tx, world.rt, LIVE, first.board_id).standings] == [150]


def test_a_lower_override_leaves_the_players_better_attempt_on_the_board(world):
    ada = world.player("ada")
    first = world.run(ev.start, LIVE, ada, "trial", None)
    world.run(ev.record_progress, LIVE, ada, "trial", first.id, {"score": 60}, complete=True)
    second = world.run(ev.start, LIVE, ada, "trial", None)
    world.run(ev.record_progress, LIVE, ada, "trial", second.id, {"score": 90})
    world.run(ev.force_complete, LIVE, second.id, score=10, actor_member_id="mem_1", reason=None)
    with world.store.transaction() as tx:
        (standing,) = read_board(tx, world.rt, LIVE, first.board_id).standings
    assert (standing.entry.score, standing.entry.attempt_id) == (60, first.id)


def test_force_complete_takes_an_attempt_in_progress_of_the_scopes_environment(world):
    ada = world.player("ada")
    attempt = world.run(ev.start, LIVE, ada, "trial", None)
    code = refusal(world, ev.force_complete, TEST, attempt.id, score=None, actor_member_id="m", reason=None)
    assert code is ATTEMPT_NOT_FOUND
    world.run(ev.force_complete, LIVE, attempt.id, score=None, actor_member_id="m", reason=None)
    code = refusal(world, ev.force_complete, LIVE, attempt.id, score=None, actor_member_id="m", reason=None)
    assert code is ATTEMPT_NOT_IN_PROGRESS


# --- which progress writes share rows with other players' (docs/architecture.md, "Concurrency") --------


@pytest.mark.parametrize(
    ("parts", "feeds", "shares"),
    [
        ({}, (), False),  # its player's attempt, entry and grants, and its board
        ({TEAM_SETTINGS: TeamSettings(Formation.PARTNER, 2)}, (), True),  # a team's score
        ({LOBBY_SETTINGS: LobbySettings(capacity=4, fill_seconds=60)}, (), True),  # a lobby's session
        # A shared leaderboard's period, divisions and pages: the store holds the period as a write
        # reaches it.
        ({}, ("weekly",), False),
    ],
)
def test_a_progress_write_shares_rows_only_where_an_area_declares_it(world, parts, feeds, shares):
    event = attrs.evolve(EVENT, parts=parts, feeds=feeds)
    assert shares_rows(world.rt, event) is shares
