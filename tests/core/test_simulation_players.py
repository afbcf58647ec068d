"""Players and purchases in a simulation (livecore/players/simulation.py, livecore/purchases/simulation.py):
identities, the studio's bans, player tools and purchases, as the server's routes do them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from livecore.exceptions import IdempotencyConflictError, InvalidRequestError
from livecore.grants.api import RewardEntry
from livecore.players.commands import rotate_secret
from livecore.players.errors import PlayerBannedError, PlayerNotFoundError, PlayerSecretInvalidError
from livecore.simulation import Simulation

MONDAY = datetime(2026, 3, 2, tzinfo=UTC)

SHOP = """
studio = "acme"

[games.shop]
name = "Shop"
economy = "platform"

[games.shop.resources.coins]
type = "currency"

[games.shop.guilds]
enabled = true
"""

GEMS = {"store": "app_store", "product_id": "gems_100", "product_type": "consumable", "currency": "USD"}


@pytest.fixture
def sim() -> Simulation:
    return Simulation.from_manifest(SHOP, seed=2, start=MONDAY)


def test_a_ban_refuses_the_players_writes_until_it_is_lifted(sim: Simulation) -> None:
    ada = sim.player("ada")
    banned = sim.server.players.ban(ada, reason="chargebacks")
    assert (banned.applied, banned.ban.banned, banned.ban.reason) == (True, True, "chargebacks")
    assert sim.server.players.ban(ada, reason="again").applied is False
    before = list(sim.webhooks)

    with pytest.raises(PlayerBannedError) as refused:
        ada.guilds.create("Dragons", "open")
    assert (refused.value.status, refused.value.code) == (403, "player_banned")
    with pytest.raises(PlayerBannedError):
        ada.players.set_identity(name="Ada")
    with pytest.raises(PlayerBannedError):
        ada.purchases.track(transaction_id="t-1", amount_minor=99, **GEMS)
    assert ada.guilds.mine().guild is None  # reads keep working
    assert [e.kind for e in sim.webhooks if e not in before] == []

    # The studio's own calls on a banned player are not the player's writes.
    assert sim.server.players.set_identity(ada, name="Ada").display_identity.name == "Ada"
    assert sim.server.purchases.track(ada, transaction_id="t-1", amount_minor=99, **GEMS).purchase_count == 1

    assert sim.server.players.unban(ada).applied is True
    assert ada.guilds.create("Dragons", "open").guild.name == "Dragons"
    kinds = [e.kind for e in sim.webhooks]
    assert kinds.count("player.banned") == kinds.count("player.unbanned") == 1


def test_a_secret_accepted_once_is_refused_once_the_player_no_longer_holds_it(sim: Simulation) -> None:
    """A simulated player's secret is hashed when the stored hash is new to it, not at every action; a
    wrong secret, or the player's after an operator rotated it, is refused as the server refuses it."""
    ada = sim.player("ada")
    assert ada.guilds.mine().guild is None
    assert ada.guilds.mine().guild is None
    with pytest.raises(PlayerSecretInvalidError):
        ada.act(lambda tx, me: me, secret="x" + ada.secret[1:])
    assert ada.act(lambda tx, me: me.external_id) == "ada"
    sim.run(lambda tx: rotate_secret(tx, sim.rt, sim.scope, "ada"))
    with pytest.raises(PlayerSecretInvalidError):
        ada.guilds.mine()


def test_a_player_sets_its_own_identity(sim: Simulation) -> None:
    ada = sim.player("ada")
    shown = ada.players.set_identity(name="Ada", avatar="https://example.com/ada.png").display_identity
    assert (shown.name, shown.avatar) == ("Ada", "https://example.com/ada.png")
    with pytest.raises(InvalidRequestError):
        ada.players.set_identity(name="")
    with pytest.raises(PlayerNotFoundError):
        sim.server.players.ban("nobody", reason="spam")


def test_a_reported_purchase_is_unverified_and_tracked_once(sim: Simulation) -> None:
    ada = sim.player("ada")
    first = ada.purchases.track(transaction_id="t-1", amount_minor=499, **GEMS)
    assert (first.purchase.validation_status.value, first.lifetime_amount_minor) == ("unverified", 499)
    again = ada.purchases.track(transaction_id="t-1", amount_minor=499, **GEMS)
    assert again.purchase.purchase_id == first.purchase.purchase_id and again.purchase_count == 1
    with pytest.raises(IdempotencyConflictError):
        ada.purchases.track(transaction_id="t-1", amount_minor=999, **GEMS)

    verified = sim.server.purchases.track(
        ada, transaction_id="t-1", amount_minor=499, validation_status="verified", **GEMS
    )
    assert verified.purchase.validation_status.value == "verified"
    assert [e.kind for e in sim.webhooks_of("purchase.tracked")] == ["purchase.tracked"]


def test_the_studio_reads_a_players_profile_with_the_build_its_client_reported() -> None:
    own_platform = SHOP.replace('economy = "platform"', 'economy = "platform"\nplatforms = ["switch"]')
    sim = Simulation.from_manifest(own_platform, seed=2, start=MONDAY)
    ada = sim.player("ada", platform="ios", app_version="2.1.0")
    sim.player("bo", platform="switch")
    sim.player("cy", platform="smart-fridge")
    sim.server.grants.create(ada, [RewardEntry(type="currency", key="coins", amount=5)])

    profile = sim.server.players.profile(ada)
    seen = profile.player
    assert (seen.external_player_id, seen.platform, seen.platform_registered, seen.app_version) == (
        "ada",
        "ios",
        True,
        "2.1.0",
    )
    assert (profile.summary.grants_pending, [g.source_kind for g in profile.grants]) == (1, ["api"])
    # A key the game declares is registered as the built-in ones are; one it does not is kept all the same.
    assert sim.server.players.profile("bo").player.platform_registered is True
    cy = sim.server.players.profile("cy").player
    assert (cy.platform, cy.platform_registered, cy.app_version) == ("smart-fridge", False, None)

    with pytest.raises(InvalidRequestError) as refused:
        sim.server.players.profile(ada, limit=201)
    assert refused.value.details == {"fields": {"limit": "must be from 1 to 200"}}
    with pytest.raises(PlayerNotFoundError):
        sim.server.players.profile("nobody")


def test_the_studios_player_tools_and_spend_reads_are_its_client_methods(sim: Simulation) -> None:
    ada, bo = sim.player("ada"), sim.player("bo")
    ada.purchases.track(transaction_id="t-1", amount_minor=499, **GEMS)
    sim.server.purchases.track(bo, transaction_id="t-2", amount_minor=999, **GEMS)
    assert [p.transaction_id for p in sim.server.purchases.iter(ada, page_size=1)] == ["t-1"]
    spend = sim.server.purchases.player_spend(ada, windows=[7])
    assert (spend.lifetime_amount_minor, [w.amount_minor for w in spend.windows]) == (499, [499])

    assert sim.server.players.flag_debug(ada, reason="qa").debug is True
    # A debug account is left out of revenue reporting.
    assert [s.external_player_id for s in sim.server.purchases.spend_players().players] == ["bo"]
    assert sim.server.purchases.revenue_summary().gross_amount_minor == 999
    assert sim.server.players.unflag_debug(ada).applied is True
    assert sim.server.purchases.revenue_summary().gross_amount_minor == 1498

    assert [p.transaction_id for p in sim.server.players.export(ada).purchases] == ["t-1"]
