"""The player commands on the in-memory store: the embedded simulation behaves like the server."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.economy.commands import edit_item_attributes, server_adjust
from livecore.economy.errors import INSUFFICIENT_QUANTITY
from livecore.errors import INVALID_REQUEST, LivecoreError
from livecore.games import Economy, Game, GameSettings, Resource, ResourceType, Studio
from livecore.hashing import KeyedHasher
from livecore.memory import MemoryStore
from livecore.player_tools.commands.moderation import set_country_override
from livecore.players.commands import authenticate, first_contact, register, set_identity, sweep_streaks
from livecore.players.errors import PLAYER_NOT_FOUND, PLAYER_SECRET_INVALID
from livecore.players.memory import PlayerTables
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
TEST = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)
LIVE = Scope(studio_id="std_1", game_id="gam_1", env=Environment.LIVE)


@pytest.fixture
def sim() -> tuple[MemoryStore, Runtime, ManualClock]:
    store = MemoryStore()
    store.add_game(Studio(id="std_1", key="acme"), Game(id="gam_1", studio_id="std_1", key="g", name="G"))
    clock = ManualClock(T0)
    return store, Runtime(clock=clock, rng=SeededRandomSource(1), hasher=KeyedHasher(b"k" * 32)), clock


def test_register_then_authenticate(sim) -> None:  # type: ignore[no-untyped-def]
    store, rt, _ = sim
    with store.transaction() as tx:
        result = register(tx, rt, TEST, "alice")
    assert result.created
    assert [e.kind for e in store.outbox] == ["player.registered", "player.secret_set"]
    with store.transaction() as tx:
        assert authenticate(tx, rt, TEST, "alice", result.secret).external_id == "alice"
        with pytest.raises(LivecoreError) as exc:
            authenticate(tx, rt, TEST, "alice", "ps_wrong")
    assert exc.value.code is PLAYER_SECRET_INVALID


def test_simulation_replays_exactly_with_the_same_seed() -> None:
    def run() -> list[str]:
        store = MemoryStore()
        store.add_game(Studio(id="std_1", key="acme"), Game(id="gam_1", studio_id="std_1", key="g", name="G"))
        rt = Runtime(clock=ManualClock(T0), rng=SeededRandomSource(42), hasher=KeyedHasher(b"k" * 32))
        with store.transaction() as tx:
            secret = register(tx, rt, TEST, "alice").secret
        return [secret, *(e.id for e in store.outbox)]

    assert run() == run()


def test_a_failing_command_leaves_nothing_behind(sim) -> None:  # type: ignore[no-untyped-def]
    store, rt, _ = sim
    with pytest.raises(LivecoreError), store.transaction() as tx:
        player = first_contact(tx, rt, TEST, "bob")
        set_identity(tx, rt, player, name=" ", avatar=None, by_player=True)  # invalid: rolls back
    assert store.tables_of(PlayerTables).players == {}
    assert store.outbox == []


def test_other_environment_sees_404(sim) -> None:  # type: ignore[no-untyped-def]
    store, rt, _ = sim
    with store.transaction() as tx:
        register(tx, rt, TEST, "alice")
    with pytest.raises(LivecoreError) as exc, store.transaction() as tx:
        register(tx, rt, LIVE, "alice")
    assert exc.value.code is PLAYER_NOT_FOUND


def test_first_contact_then_register_sets_the_secret_without_a_second_registered_event(sim) -> None:  # type: ignore[no-untyped-def]
    store, rt, _ = sim
    with store.transaction() as tx:
        first_contact(tx, rt, TEST, "carol")
        result = register(tx, rt, TEST, "carol")
    assert not result.created
    assert [e.kind for e in store.outbox] == ["player.registered", "player.secret_set"]


def test_streak_sweep_on_memory_store(sim) -> None:  # type: ignore[no-untyped-def]
    store, rt, clock = sim
    with store.transaction() as tx:
        register(tx, rt, TEST, "alice")
    clock.advance(2 * 86400)
    with store.transaction() as tx:
        assert sweep_streaks(tx, rt) == 1
    assert store.tables_of(PlayerTables).players[("gam_1", "alice")].activity.streak == 0


def test_an_operators_country_override_wins_in_the_simulation_until_cleared(sim) -> None:  # type: ignore[no-untyped-def]
    """The country override in the embedded runtime: the override is what ``country`` shows; a later register
    with ``playerContext.country`` moves only the resolved country; clearing shows it again."""
    store, rt, _ = sim
    with store.transaction() as tx:
        player = register(tx, rt, TEST, "dora", country="DE").player
        done = set_country_override(tx, player, "fr")
    assert (done.applied, done.player.country, done.player.resolved_country) == (True, "FR", "DE")
    with store.transaction() as tx:
        again = register(tx, rt, TEST, "dora", force=True, context={"country": "IT"}).player
    assert (again.country, again.resolved_country, again.country_override) == ("FR", "IT", "FR")
    with pytest.raises(LivecoreError) as exc, store.transaction() as tx:
        set_country_override(tx, again, "FRA")
    assert (exc.value.code, exc.value.details) == (
        INVALID_REQUEST,
        {"fields": {"country": "must be an ISO 3166-1 alpha-2 code"}},
    )
    with store.transaction() as tx:
        cleared = set_country_override(tx, again, None).player
        assert tx.players.get("gam_1", "dora") == cleared
    assert (cleared.country, cleared.country_override) == ("IT", None)


def test_an_operators_item_attribute_edit_is_checked_against_the_catalog_in_the_simulation() -> None:
    store = MemoryStore()
    sword = Resource(key="sword", type=ResourceType.ITEM, parameters={"level": 1, "color": "red"})
    game = Game(
        id="gam_1",
        studio_id="std_1",
        key="g",
        name="G",
        settings=GameSettings(economy=Economy.PLATFORM, resources={"sword": sword}),
    )
    store.add_game(Studio(id="std_1", key="acme"), game)
    rt = Runtime(clock=ManualClock(T0), rng=SeededRandomSource(1), hasher=KeyedHasher(b"k" * 32))
    with store.transaction() as tx:
        player = first_contact(tx, rt, TEST, "eve")
    # An item the player holds none of has nothing to edit: refused, nothing written.
    with pytest.raises(LivecoreError) as none_held, store.transaction() as tx:
        edit_item_attributes(tx, rt, TEST, game, player, "sword", {"level": 4})
    assert none_held.value.code is INSUFFICIENT_QUANTITY
    with store.transaction() as tx:
        assert (tx.ledger.entries(player.id), tx.ledger.holdings(player.id)) == ([], {})
        server_adjust(
            tx,
            rt,
            TEST,
            game,
            player,
            ResourceType.ITEM,
            "sword",
            1,
            credit=True,
            note=None,
            source_ref_id=None,
        )
        done = edit_item_attributes(tx, rt, TEST, game, player, "sword", {"level": 4}, note="ticket")
    assert (done.entry.delta, done.entry.reason.value, done.parameters()) == (
        0,
        "operator_edit",
        {"level": 4, "color": "red"},
    )
    assert [e.kind for e in store.outbox][-1] == "inventory.changed"
    with pytest.raises(LivecoreError) as exc, store.transaction() as tx:
        edit_item_attributes(tx, rt, TEST, game, player, "sword", {"level": "4", "glow": True})
    assert exc.value.details is not None
    assert set(exc.value.details["fields"]) == {"attributes.level", "attributes.glow"}
    with store.transaction() as tx:
        assert tx.ledger.holding(player.id, "sword").parameters == {"level": 4}
