"""Areas as units: the registry refuses two areas claiming one name, everything shared is built from the
areas, an embedded schedule runs the areas' jobs as the server does, and a studio's check refuses a
built-in command atomically."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import attrs
import pytest
from pluggy import PluginValidationError

from livecore import registry
from livecore.api import reference
from livecore.area import Area, Ports
from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.errors import Code, LivecoreError
from livecore.games import Game, Studio
from livecore.guilds.area import AREA as GUILDS
from livecore.hashing import KeyedHasher
from livecore.hooks import hookimpl
from livecore.ids import Prefix
from livecore.memory import MemoryStore
from livecore.operators.webhooks import sample_kinds
from livecore.players.commands import register
from livecore.players.memory import PlayerTables
from livecore.rand import SeededRandomSource
from livecore.schedule import Job, Schedule, Task, once
from livecore.scope import Environment, Scope
from livecore.section import Section
from livecore.webhooks.payload import WebhookPayload

T0 = datetime(2026, 3, 2, 12, 0, 30, tzinfo=UTC)
SCOPE = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)


def _runtime(clock: ManualClock, *extra: Area) -> Runtime:
    return Runtime(
        clock=clock, rng=SeededRandomSource(1), hasher=KeyedHasher(b"k" * 32), checks=registry.checks(extra)
    )


def _store(*extra: Area) -> MemoryStore:
    store = MemoryStore(extra)
    store.add_game(Studio(id="std_1", key="acme"), Game(id="gam_1", studio_id="std_1", key="g", name="G"))
    return store


# --- the registry ---------------------------------------------------------------------------------------


@attrs.frozen
class _Pinged(WebhookPayload):
    KIND = "guild.created"  # a built-in kind
    player_id: str


@pytest.mark.parametrize(
    "area",
    [
        Area(name="guilds", summary="again", page="x"),
        Area(name="mine", summary="", page="x", routes=(GUILDS.routes[0],)),
        Area(name="mine", summary="", page="x", webhooks=(_Pinged,)),
        Area(name="mine", summary="", page="x", errors=(Code("guild_full", 409),)),
        Area(name="mine", summary="", page="x", jobs=(attrs.evolve(GUILDS.jobs[0]),)),
        Area(name="mine", summary="", page="x", samples=(_Pinged("plr_1"),)),
        Area(name="mine", summary="", page="x", errors=(Code("not_found", 404),)),
        Area(name="mine", summary="", page="x", manifest=(Section(key="guilds"),)),
        Area(name="mine", summary="", page="x", id_prefixes=("gld",)),
        Area(name="mine", summary="", page="x", id_prefixes=("evt",)),
    ],
    ids=[
        "area",
        "route",
        "webhook-kind",
        "error-code",
        "job",
        "webhook-sample",
        "generic-error-code",
        "section",
        "id-prefix",
        "shared-id-prefix",
    ],
)
def test_an_area_that_claims_a_taken_name_is_refused(area: Area) -> None:
    with pytest.raises(registry.AreaConflict):
        registry.areas([area])


def test_every_id_prefix_is_minted_by_one_area_or_none() -> None:
    claimed = [prefix for area in registry.installed() for prefix in area.id_prefixes]
    shared = [prefix.value for prefix in Prefix]
    assert len(set(claimed + shared)) == len(claimed) + len(shared)
    assert {"plr", "gld", "lob", "team", "ev", "lb"} <= set(claimed)


def test_two_studio_areas_may_not_claim_one_port() -> None:
    port = {"quests": lambda store, journal: object()}
    with pytest.raises(registry.AreaConflict, match="port 'quests'"):
        registry.areas([Area("a", "", "a", ports=port), Area("b", "", "b", ports=port)])


def test_shared_tables_are_built_from_the_areas() -> None:
    installed = registry.installed()
    assert registry.routes(installed) == tuple(route for area in installed for route in area.routes)
    assert list(registry.webhook_kinds(installed).values()) == [
        p for area in installed for p in area.webhooks
    ]
    assert [job.name for job in registry.jobs(registry.installed())] == [
        "login_streak_sweep",
        "grant_expiry_sweep",
        "live_windows_close",
        "live_windows_open",
        "live_attempts_expiry",
        "lobby_fill_timeouts",
        "leaderboard_rollover",
        "guild_succession_sweep",
    ]


@attrs.frozen
class _QuestDone(WebhookPayload):
    KIND = "quest.done"
    player_id: str


_QUESTS = Area(
    name="quests",
    summary="A studio's quests.",
    page="quests",
    webhooks=(_QuestDone,),
    samples=(_QuestDone("plr_sample"),),
    errors=(Code("quest_not_found", 404, "No quest of that key."),),
    limits=lambda: {"quests": [("Quests per player", "at most 10")]},
)


def test_a_studio_areas_samples_meanings_and_limits_join_the_shared_tables() -> None:
    registered = registry.areas([_QUESTS])
    assert sample_kinds(registered)["quest.done"] == _QuestDone("plr_sample")
    assert "quest.done" not in sample_kinds(registry.installed())
    errors = reference._errors_block(registered).splitlines()
    assert errors[-1] == "| `quest_not_found` | 404 | No quest of that key. |"
    assert errors[2].startswith("| `invalid_request` |")
    limits = reference._limits(registered)
    assert list(limits)[-2:] == ["webhooks", "quests"]
    assert limits["quests"] == [("Quests per player", "at most 10")]


def test_a_studio_code_without_a_meaning_stops_the_reference() -> None:
    mute = attrs.evolve(_QUESTS, errors=(Code("quest_not_found", 404),))
    with pytest.raises(ValueError, match="quest_not_found"):
        reference._errors_block(registry.areas([mute]))


# --- the embedded schedule ------------------------------------------------------------------------------


def test_schedule_runs_due_work_at_its_time_in_time_order() -> None:
    clock = ManualClock(T0)
    ran: list[tuple[str, datetime]] = []
    due_at = [T0 + timedelta(seconds=10), T0 + timedelta(seconds=95)]

    def state_tasks(tx: Any, rt: Any) -> list[Task]:
        if not due_at or due_at[0] > clock.now():
            return []

        def run(tx: Any) -> None:
            ran.append(("state", clock.now()))
            due_at.pop(0)

        return [Task(f"w{len(ran)}", None, once(run))]

    def sweep_tasks(tx: Any, rt: Any) -> list[Task]:
        return [Task("sweep", None, once(lambda tx: ran.append(("sweep", clock.now()))))]

    jobs = (
        Job("state", state_tasks, next_due=lambda tx, rt: due_at[0] if due_at else None),
        Job("sweep", sweep_tasks, every=timedelta(minutes=1)),
    )
    schedule = Schedule(_store(), _runtime(clock), jobs)
    schedule.advance(timedelta(minutes=2))
    assert ran == [
        ("state", T0 + timedelta(seconds=10)),
        ("sweep", datetime(2026, 3, 2, 12, 1, tzinfo=UTC)),
        ("sweep", datetime(2026, 3, 2, 12, 2, tzinfo=UTC)),
        ("state", T0 + timedelta(seconds=95)),
    ]
    assert clock.now() == T0 + timedelta(minutes=2)


def test_a_task_runs_step_by_step_until_it_is_done() -> None:
    clock = ManualClock(T0)
    cursors: list[str | None] = []

    def step(tx: Any, cursor: str | None) -> str | None:
        cursors.append(cursor)
        return None if cursor == "2" else str(int(cursor or "0") + 1)

    done: list[bool] = []

    def tasks(tx: Any, rt: Any) -> list[Task]:
        return [] if done else [Task("t", None, step)]

    def finished(tx: Any, rt: Any) -> datetime | None:
        return None if cursors and cursors[-1] == "2" else clock.now()

    Schedule(_store(), _runtime(clock), [Job("steps", tasks, next_due=finished)]).run_due()
    assert cursors == [None, "1", "2"]


# --- a studio's check on a built-in command ------------------------------------------------------------

NAME_RESERVED = Code("name_reserved", 409)


class _Reserved:
    @hookimpl
    def before_register(self, tx: Any, external_id: str) -> None:
        if external_id.startswith("staff-"):
            raise LivecoreError(NAME_RESERVED, "external ids starting staff- are reserved")


STUDIO = Area(
    name="studio_rules", summary="", page="studio_rules", errors=(NAME_RESERVED,), hooks=_Reserved()
)


def test_a_studio_check_refuses_a_builtin_command_and_nothing_applies() -> None:
    store = _store(STUDIO)
    rt = _runtime(ManualClock(T0), STUDIO)
    with pytest.raises(LivecoreError) as refused, store.transaction() as tx:
        register(tx, rt, SCOPE, "staff-ann")
    assert refused.value.code == NAME_RESERVED and refused.value.status == 409
    assert store.tables_of(PlayerTables).players == {} and store.outbox == []
    with store.transaction() as tx:
        assert register(tx, rt, SCOPE, "ann").created


def test_without_studio_checks_the_commands_call_none() -> None:
    assert not registry.checks(registry.installed()).active


class _Misspelt:
    @hookimpl
    def before_registering(self, tx: Any) -> None: ...


def test_a_check_of_a_hook_no_area_specifies_is_refused_at_registration() -> None:
    misspelt = Area(name="studio_typo", summary="", page="studio_typo", hooks=_Misspelt())
    with pytest.raises(PluginValidationError, match="before_registering"):
        registry.checks(registry.areas([misspelt]))


def test_each_checked_command_is_specified_by_its_own_area() -> None:
    specified = {
        area.name: sorted(n for n in vars(area.hookspecs) if not n.startswith("_"))
        for area in registry.installed()
        if area.hookspecs is not None
    }
    assert specified == {
        "players": ["after_register", "before_register"],
        "grants": ["after_claim_grant"],
        "crates": ["after_open_crate", "before_open_crate"],
        "gifts": ["after_claim_gift", "after_send_gift", "before_send_gift"],
        "live_events": ["after_finish_attempt", "after_submit_progress", "before_submit_progress"],
        "guilds": ["after_join_guild", "before_join_guild"],
    }


def test_a_studio_port_is_reached_by_name_on_each_transaction() -> None:
    def counter(store: MemoryStore, journal: Any) -> dict[str, int]:
        table: dict[str, int] = store.tables.setdefault("counter", {"n": 0})
        return table

    store = _store(Area(name="counter", summary="", page="counter", ports={"counter": counter}))
    with store.transaction() as tx:
        tx.ports.counter["n"] += 1
    with store.transaction() as tx:
        assert tx.ports.counter["n"] == 1
        with pytest.raises(AttributeError):
            _ = tx.ports.missing
    assert isinstance(tx.ports, Ports)


def test_an_area_whose_settings_check_cannot_take_the_game_is_refused_as_it_is_declared() -> None:
    """A check of the section alone would fail only once a manifest configures the area: it is refused at
    once, naming the area and the signature it must have."""
    with pytest.raises(TypeError, match=r"area quests: its settings check must take \(section, game\)"):
        Area(name="quests", summary="Quests.", page="quests.md", settings=lambda section: {})
    taken = Area(name="quests", summary="Quests.", page="quests.md", settings=lambda section, game: {})
    assert taken.settings is not None
