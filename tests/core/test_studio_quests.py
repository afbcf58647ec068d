"""The example studio area (examples/studio_quests) embedded: its rules, its memory port through the
transaction's journal, its sweep on an embedded :class:`~livecore.schedule.Schedule`, and its check on the
built-in gift send, refused atomically."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from studio_quests import commands, rules
from studio_quests.api import QuestView
from studio_quests.area import AREA
from studio_quests.rules import QUEST_ALREADY_CHECKED_IN, QUEST_CHECK_IN_FIRST, QuestSettings, QuestState
from studio_quests.simulation import Quests, ServerQuests

from livecore import registry
from livecore.api import reference
from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.errors import LivecoreError
from livecore.exceptions import ConflictError
from livecore.friends.commands import add
from livecore.games import Game, GameSettings, Resource, ResourceType, Studio
from livecore.gifts.commands import send
from livecore.gifts.memory import GiftTables
from livecore.gifts.rules import SendRequest
from livecore.gifts.settings import GIFT_RESOURCE, GIFTING_SETTINGS, GiftingSettings, GiftResource
from livecore.grants.memory import GrantTables
from livecore.hashing import KeyedHasher
from livecore.manifest import ManifestError
from livecore.memory import MemoryStore
from livecore.player_tools.commands.erasure import erase
from livecore.player_tools.commands.merge import merge
from livecore.player_tools.erasure import ErasureReason
from livecore.players.commands import get_player, register
from livecore.players.errors import PlayerNotFoundError
from livecore.rand import SeededRandomSource
from livecore.schedule import Schedule
from livecore.scope import Environment, Scope
from livecore.simulation import Simulation

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
SCOPE = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)
SECTION = {
    "reward_resource": "gold",
    "reward_amount": 50,
    "streak_bonus_every": 3,
    "streak_bonus_amount": 100,
}
#: The game table the settings check sees beside the section (the manifest's ``[games.<key>]`` as written).
GAME = {"name": "G", "resources": {"gold": {"type": "currency"}, "gem": {"type": "item"}}}


# --- the rules ------------------------------------------------------------------------------------------


def test_a_streak_counts_consecutive_days_and_restarts_after_a_missed_one() -> None:
    s1 = rules.check_in(None, "p", "g", T0)
    s2 = rules.check_in(s1, "p", "g", T0 + timedelta(days=1))
    s3 = rules.check_in(s2, "p", "g", T0 + timedelta(days=3))
    assert [(s.streak, s.best_streak, s.total) for s in (s1, s2, s3)] == [(1, 1, 1), (2, 2, 2), (1, 2, 3)]
    assert s3.last_day == date(2026, 3, 5)


def test_a_second_check_in_the_same_utc_day_is_refused_until_midnight() -> None:
    first = rules.check_in(None, "p", "g", datetime(2026, 3, 2, 0, 0, tzinfo=UTC))
    with pytest.raises(LivecoreError) as refused:
        rules.check_in(first, "p", "g", datetime(2026, 3, 2, 23, 59, 59, tzinfo=UTC))
    assert refused.value.code == QUEST_ALREADY_CHECKED_IN and refused.value.status == 409
    assert refused.value.details == {"nextCheckInAt": "2026-03-03T00:00:00Z"}
    assert rules.check_in(first, "p", "g", datetime(2026, 3, 3, tzinfo=UTC)).streak == 2


def test_every_nth_day_of_a_streak_pays_the_bonus() -> None:
    settings = QuestSettings.of(SECTION)
    assert [rules.reward(settings, n) for n in range(1, 7)] == [50, 50, 150, 50, 50, 150]
    assert rules.reward(QuestSettings("gold", 10), 3) == 10


@pytest.mark.parametrize(
    ("section", "problems"),
    [
        (SECTION, {}),
        ({"reward_resource": "gold", "reward_amount": 1}, {}),
        ({"reward_resource": "gem", "reward_amount": 1}, {}),
        (
            {"reward_resource": "silver", "reward_amount": 1},
            {"reward_resource": "no resource named silver is declared in this game's resources"},
        ),
        (
            {"reward_resource": "sessions", "reward_amount": 1},
            {"reward_resource": "sessions is a system item, not one of the game's declared resources"},
        ),
        ({}, {"reward_resource": "is required", "reward_amount": "is required"}),
        (
            {"reward_resource": "", "reward_amount": True, "streak_bonus_every": -1},
            {
                "reward_resource": "must be a resource key",
                "reward_amount": "must be an integer from 1 to 1,000,000",
                "streak_bonus_every": "must be an integer from 0 to 1,000,000",
            },
        ),
        (
            {"reward_resource": "gold", "reward_amount": 5, "streak_bonus_amount": 10},
            {"streak_bonus_every": "must be set (1 or more) when streak_bonus_amount is"},
        ),
        (
            {"reward_resource": "gold", "reward_amount": 5, "bonus": 1},
            {
                "bonus": "is not a field of this section (fields: reward_resource, reward_amount,"
                " streak_bonus_every, streak_bonus_amount)"
            },
        ),
    ],
)
def test_the_settings_check_names_each_field(section: dict[str, object], problems: dict[str, str]) -> None:
    assert rules.problems(section, GAME) == problems


# --- embedded -------------------------------------------------------------------------------------------


def _world() -> tuple[MemoryStore, Runtime]:
    settings = GameSettings(
        sections={GIFTING_SETTINGS: GiftingSettings(enabled=True)},
        resources={
            "gold": Resource(
                "gold",
                ResourceType.CURRENCY,
                parts={GIFT_RESOURCE: GiftResource(giftable=True, max_per_gift=100)},
            )
        },
        areas={"quests": SECTION},
    )
    store = MemoryStore([AREA])
    store.add_game(
        Studio(id="std_1", key="acme"),
        Game(id="gam_1", studio_id="std_1", key="g", name="G", settings=settings),
    )
    rt = registry.runtime(
        [AREA], clock=ManualClock(T0), rng=SeededRandomSource(1), hasher=KeyedHasher(b"k" * 32)
    )
    with store.transaction() as tx:
        for name in ("ada", "bea"):
            register(tx, rt, SCOPE, name)
    return store, rt


def _state(store: MemoryStore, name: str) -> QuestState | None:
    with store.transaction() as tx:
        return commands.own_quest(tx, get_player(tx, SCOPE, name))


def test_a_check_in_grants_the_reward_as_a_pending_grant_and_emits_its_webhook() -> None:
    store, rt = _world()
    with store.transaction() as tx:
        done = commands.check_in(tx, rt, SCOPE, get_player(tx, SCOPE, "ada"))
    assert done.grant.status.value == "pending" and done.grant.source_kind == "quest_check_in"
    assert [(e.key, e.amount) for e in done.grant.entries] == [("gold", 50)]
    with store.transaction() as tx:
        assert tx.grants.pending(done.grant.player_id, T0, 10) == [done.grant]
    assert [e.kind for e in store.outbox][-2:] == ["grant.created", "quest.checked_in"]


def test_a_refused_check_in_leaves_the_memory_port_as_it_was() -> None:
    store, rt = _world()
    with store.transaction() as tx:
        commands.check_in(tx, rt, SCOPE, get_player(tx, SCOPE, "ada"))
    before = (_state(store, "ada"), len(store.outbox), len(store.tables_of(GrantTables).grants))
    with pytest.raises(LivecoreError), store.transaction() as tx:
        commands.check_in(tx, rt, SCOPE, get_player(tx, SCOPE, "ada"))
    assert (_state(store, "ada"), len(store.outbox), len(store.tables_of(GrantTables).grants)) == before


def test_the_embedded_schedule_runs_the_sweep_that_ends_a_missed_streak() -> None:
    store, rt = _world()
    schedule = Schedule(store, rt, registry.jobs([AREA]))
    with store.transaction() as tx:
        commands.check_in(tx, rt, SCOPE, get_player(tx, SCOPE, "ada"))
    schedule.advance(timedelta(days=1))
    state = _state(store, "ada")
    assert state is not None and state.streak == 1  # a day later the streak still stands
    schedule.advance(timedelta(days=1))
    state = _state(store, "ada")
    assert state is not None and (state.streak, state.best_streak) == (0, 1)


def test_the_areas_check_refuses_a_gift_send_atomically() -> None:
    store, rt = _world()
    game = store.games["gam_1"]
    with store.transaction() as tx:
        ada, bea = get_player(tx, SCOPE, "ada"), get_player(tx, SCOPE, "bea")
        add(tx, rt, SCOPE, game, ada, bea)
        add(tx, rt, SCOPE, game, bea, ada)
    request = SendRequest(type=ResourceType.CURRENCY, resource_key="gold", amount=10)
    before = (
        len(store.outbox),
        len(store.tables_of(GrantTables).grants),
        len(store.tables_of(GiftTables).gifts),
    )
    with pytest.raises(LivecoreError) as refused, store.transaction() as tx:
        send(tx, rt, SCOPE, game, get_player(tx, SCOPE, "ada"), get_player(tx, SCOPE, "bea"), request)
    assert refused.value.code == QUEST_CHECK_IN_FIRST and refused.value.status == 409
    assert (
        len(store.outbox),
        len(store.tables_of(GrantTables).grants),
        len(store.tables_of(GiftTables).gifts),
    ) == before
    with store.transaction() as tx:
        commands.check_in(tx, rt, SCOPE, get_player(tx, SCOPE, "ada"))
        sent = send(tx, rt, SCOPE, game, get_player(tx, SCOPE, "ada"), get_player(tx, SCOPE, "bea"), request)
    assert sent.gift.status.value == "pending"


def test_a_game_without_the_section_is_not_checked() -> None:
    store, rt = _world()
    store.games["gam_1"] = Game(id="gam_1", studio_id="std_1", key="g", name="G")
    with pytest.raises(LivecoreError) as refused, store.transaction() as tx:
        commands.check_in(tx, rt, SCOPE, get_player(tx, SCOPE, "ada"))
    assert refused.value.code.value == "quests_not_configured"


# --- its generated reference page -----------------------------------------------------------------------

PAGE = Path(__file__).resolve().parents[2] / "examples" / "studio_quests" / "REFERENCE.md"
LINK_BASE = "../../docs/reference/"


def test_the_committed_reference_page_is_current() -> None:
    """Regenerate with: python -m livecore.api.reference --area studio_quests
    --link-base ../../docs/reference/ --out examples/studio_quests/REFERENCE.md"""
    assert PAGE.read_text(encoding="utf-8") == reference.studio_page([AREA], link_base=LINK_BASE)
    args = ["--area", "studio_quests", "--link-base", LINK_BASE, "--out", str(PAGE), "--check"]
    assert reference.main(args) == 0


def test_the_reference_page_lists_the_areas_routes_payloads_codes_checks_and_jobs() -> None:
    page = PAGE.read_text(encoding="utf-8")
    for route in AREA.routes:
        assert f"### `{route.method} {route.full_path}`\n" in page
        assert f"- Operation: `{route.name}`" in page
    assert "### `quest.checked_in`" in page and "#### QuestView\n" in page
    for code in AREA.errors:
        assert f"| `{code.value}` | {code.status} | {code.meaning} |" in page
    assert "- `before_send_gift` (area `quests`)" in page
    assert "- `quest_streak_sweep` (area `quests`): every 1 h" in page
    # A model of the service's own pages links there.
    assert f"[GrantView]({LINK_BASE}grants.md#grantview)" in page


def test_a_stale_page_is_reported_and_rewritten(tmp_path: Path) -> None:
    out = tmp_path / "REFERENCE.md"
    out.write_text("old", encoding="utf-8")
    assert reference.main(["--area", "studio_quests", "--out", str(out), "--check"]) == 1
    assert out.read_text(encoding="utf-8") == "old"
    assert reference.main(["--area", "studio_quests", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == reference.studio_page([AREA])


def test_a_merge_moves_the_sources_check_ins_to_a_target_without_any() -> None:
    store, rt = _world()
    with store.transaction() as tx:
        commands.check_in(tx, rt, SCOPE, get_player(tx, SCOPE, "ada"))
    with store.transaction() as tx:
        merge(tx, rt, SCOPE, "ada", "bea")
    moved = _state(store, "bea")
    assert moved is not None and moved.total == 1
    assert set(store.tables["quests"]) == {moved.player_id}


def test_a_merge_keeps_the_targets_own_check_ins() -> None:
    store, rt = _world()
    with store.transaction() as tx:
        commands.check_in(tx, rt, SCOPE, get_player(tx, SCOPE, "ada"))
    assert isinstance(rt.clock, ManualClock)
    rt.clock.advance(86_400)
    with store.transaction() as tx:
        commands.check_in(tx, rt, SCOPE, get_player(tx, SCOPE, "ada"))
        commands.check_in(tx, rt, SCOPE, get_player(tx, SCOPE, "bea"))
    with store.transaction() as tx:
        merge(tx, rt, SCOPE, "ada", "bea")
    kept = _state(store, "bea")
    assert kept is not None and (kept.total, kept.streak) == (1, 1)
    assert len(store.tables["quests"]) == 1


def test_an_erasure_deletes_the_players_check_ins() -> None:
    store, rt = _world()
    with store.transaction() as tx:
        commands.check_in(tx, rt, SCOPE, get_player(tx, SCOPE, "ada"))
    with store.transaction() as tx:
        erase(tx, rt, SCOPE, "ada", ErasureReason.GDPR_ERASURE)
    assert store.tables["quests"] == {}


# --- in a simulation ------------------------------------------------------------------------------------

MANIFEST = """
studio = "acme"

[plugins]
areas = ["studio_quests"]

[games.g]
name = "G"

[games.g.gifting]
enabled = true

[games.g.resources.gold]
type = "currency"
giftable = true
max_per_gift = 100

[games.g.areas.quests]
reward_resource = "gold"
reward_amount = 50
streak_bonus_every = 3
streak_bonus_amount = 100
"""


def test_the_embedded_simulation_refuses_a_reward_resource_the_game_does_not_declare() -> None:
    """As ``apply`` does (tests/server/test_studio_area.py): the embedded core parses with the same check."""
    undeclared = MANIFEST.replace('reward_resource = "gold"', 'reward_resource = "silver"')
    with pytest.raises(ManifestError) as refused:
        Simulation.from_manifest(undeclared, areas=[AREA], seed=3, start=T0)
    assert refused.value.problems == {
        "games.g.areas.quests.reward_resource": (
            "no resource named silver is declared in this game's resources"
        )
    }


def test_a_simulated_player_checks_in_through_the_areas_actions() -> None:
    sim = Simulation.from_manifest(MANIFEST, areas=[AREA], seed=3, start=T0)
    ada = sim.player("ada")
    quests = ada.quests  # the area's player_actions, by its name, as ada.gifts is the gifts'
    assert isinstance(quests, Quests) and ada.quests is quests
    assert quests.get().quest == QuestView.of(None, T0)

    done = quests.check_in()
    assert (done.quest.streak, done.quest.checked_in_today, done.grant.source_kind) == (
        1,
        True,
        "quest_check_in",
    )
    assert ada.grants.pending().grants == [done.grant]
    assert [e.kind for e in sim.webhooks][-2:] == ["grant.created", "quest.checked_in"]
    with pytest.raises(ConflictError) as refused:
        quests.check_in()
    assert (refused.value.code, refused.value.details) == (
        "quest_already_checked_in",
        {"nextCheckInAt": "2026-03-03T00:00:00Z"},
    )
    assert isinstance(sim.server.quests, ServerQuests)
    assert sim.server.quests.get(ada) == quests.get()

    # Two days on, the area's hourly sweep has ended the streak the player let lapse.
    sim.advance(days=2)
    assert (quests.get().quest.streak, quests.get().quest.best_streak) == (0, 1)
    with pytest.raises(PlayerNotFoundError):
        sim.server.quests.get("nobody")


def test_a_name_no_area_declares_actions_for_is_no_attribute_of_a_player_or_the_backend() -> None:
    sim = Simulation.from_manifest(MANIFEST, areas=[AREA], seed=3, start=T0)
    with pytest.raises(AttributeError, match="no 'streaks'"):
        sim.player("ada").streaks  # noqa: B018
    with pytest.raises(AttributeError, match="no 'streaks'"):
        sim.server.streaks  # noqa: B018


def test_the_areas_check_refuses_a_simulated_gift_as_the_clients_exception() -> None:
    sim = Simulation.from_manifest(MANIFEST, areas=[AREA], seed=3, start=T0)
    ada, bea = sim.player("ada"), sim.player("bea")
    asked = ada.friends.send_request(external_player_id=bea)
    assert asked.request is not None
    bea.friends.accept_request(asked.request.request_id)
    before = list(sim.webhooks)
    with pytest.raises(ConflictError) as refused:
        ada.gifts.send(type="currency", resource_key="gold", amount=10, external_player_id=bea)
    assert refused.value.code == "quest_check_in_first"
    assert sim.webhooks == before
    Quests(ada).check_in()
    assert ada.gifts.send(type="currency", resource_key="gold", amount=10, external_player_id=bea).gift
