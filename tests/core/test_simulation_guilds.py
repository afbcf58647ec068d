"""Guilds in a simulation (livecore/guilds/simulation.py): founded, joined, helped, moderated, as the
server's routes do it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from livecore.economy.errors import InsufficientBalanceError
from livecore.exceptions import InvalidRequestError
from livecore.guilds.api import GuildJoined, GuildJoinPending
from livecore.guilds.errors import (
    AlreadyInGuildError,
    GuildNotFoundError,
    GuildPermissionDeniedError,
    NotInGuildError,
)
from livecore.guilds.webhooks import GuildHelpDonated
from livecore.simulation import Simulation

MONDAY = datetime(2026, 3, 2, tzinfo=UTC)

CLANS = """
studio = "acme"

[games.clans]
name = "Clans"
economy = "platform"

[games.clans.resources.coins]
type = "currency"

[games.clans.resources.gems]
type = "currency"

[games.clans.guilds]
enabled = true
max_members = 3
create_cost = [{ type = "currency", key = "coins", amount = 10 }]

[games.clans.guilds.help]
resources = ["coins"]
max_amount = 20
donor_reward = [{ type = "currency", key = "gems", amount = 2 }]
"""


@pytest.fixture
def sim() -> Simulation:
    return Simulation.from_manifest(CLANS, seed=5, start=MONDAY)


def test_a_guild_is_founded_joined_and_a_help_request_donated_to(sim: Simulation) -> None:
    ada, bo = sim.player("ada"), sim.player("bo")
    sim.server.wallet.credit(ada, "coins", 10)
    sim.server.wallet.credit(bo, "coins", 30)
    founded = ada.guilds.create("Dragons", "open", country="fr").guild
    assert (founded.name, founded.country, founded.member_count) == ("Dragons", "FR", 1)
    assert sim.balance(ada, "coins") == 0  # the founding cost

    sim.advance(minutes=1)
    joined = bo.guilds.join(founded.guild_id)
    assert isinstance(joined, GuildJoined) and joined.role.value == "member"
    assert [m.external_player_id for m in sim.guild(founded.guild_id).guild.members] == ["ada", "bo"]
    assert [g.name for g in sim.guilds("drag").guilds] == ["Dragons"]

    asked = ada.guilds.ask_help(type="currency", resource_key="coins", amount=20).help_request
    assert [r.request_id for r in bo.guilds.help_requests().help_requests] == [asked.request_id]
    done = bo.guilds.donate_help(asked.request_id, 15)
    assert (done.help_request.donated, done.help_request.status.value) == (15, "open")
    assert sim.balance(bo, "coins") == 15  # the donor pays at once
    assert [type(e.payload) for e in sim.webhooks_of("guild.help_donated")] == [GuildHelpDonated]

    ada.grants.claim_all()
    bo.grants.claim_all()
    assert sim.balance(ada, "coins") == 15  # the requester's grant of the donation
    assert sim.balance(bo, "gems") == 2  # the donor's reward


def test_a_refusal_is_the_clients_class_and_changes_nothing(sim: Simulation) -> None:
    ada, bo, cy = sim.player("ada"), sim.player("bo"), sim.player("cy")
    sim.server.wallet.credit(ada, "coins", 20)
    sim.server.wallet.credit(bo, "coins", 10)
    dragons = ada.guilds.create("Dragons", "open").guild
    bo.guilds.create("Wolves", "open")
    before = list(sim.webhooks)

    with pytest.raises(AlreadyInGuildError) as refused:
        bo.guilds.join(dragons.guild_id)
    assert (refused.value.status, refused.value.code) == (409, "already_in_guild")
    with pytest.raises(AlreadyInGuildError):
        ada.guilds.create("Tigers", "open")
    with pytest.raises(InsufficientBalanceError):
        cy.guilds.create("Tigers", "open")
    with pytest.raises(NotInGuildError):
        cy.guilds.leave()
    with pytest.raises(GuildNotFoundError):
        sim.guild("gld_019cae6b660073ac8e672084ab649e49")

    assert sim.webhooks == before
    assert sim.balance(ada, "coins") == 10
    assert sim.guild(dragons.guild_id).guild.member_count == 1


def test_a_body_the_server_refuses_is_refused_before_anything_runs(sim: Simulation) -> None:
    ada = sim.player("ada")
    with pytest.raises(InvalidRequestError) as refused:
        ada.guilds.create("Dragons", "open", country="Atlantis")
    assert refused.value.details is not None and "country" in refused.value.details["fields"]
    with pytest.raises(ValueError, match="JoinType"):  # as the client's method, before any request
        ada.guilds.create("Dragons", "closed")
    assert ada.guilds.mine().guild is None


def test_a_request_only_guild_answers_its_requests_and_edits_as_a_patch(sim: Simulation) -> None:
    ada, bo, cy = sim.player("ada"), sim.player("bo"), sim.player("cy")
    sim.server.wallet.credit(ada, "coins", 10)
    guild = ada.guilds.create("Owls", "request", description="Night", badge="owl").guild
    pending = bo.guilds.join(guild.guild_id, message="hoot")
    assert isinstance(pending, GuildJoinPending) and pending.request.message == "hoot"
    assert isinstance(cy.guilds.join(guild.guild_id), GuildJoinPending)
    cy.guilds.cancel_join_request(guild.guild_id)
    assert [r.external_player_id for r in ada.guilds.join_requests().requests] == ["bo"]
    ada.guilds.accept_join_request(pending.request.request_id)

    assert bo.guilds.mine().role is not None and cy.guilds.mine().guild is None
    with pytest.raises(GuildPermissionDeniedError):
        bo.guilds.edit(description=None)
    ada.guilds.promote(bo)
    edited = bo.guilds.edit(description=None).guild  # None clears; a field left out stays
    assert (edited.description, edited.badge) == (None, "owl")
    ada.guilds.transfer_leadership(bo)
    roles = {m.external_player_id: m.role.value for m in bo.guilds.kick(ada).guild.members}
    assert roles == {"bo": "leader"}


def test_the_studio_reads_and_moderates_guilds(sim: Simulation) -> None:
    ada, bo = sim.player("ada"), sim.player("bo")
    sim.server.wallet.credit(ada, "coins", 10)
    guild = ada.guilds.create("Dragons", "open").guild
    sim.advance(minutes=1)
    bo.guilds.join(guild.guild_id)

    assert [g.guild_id for g in sim.server.guilds.list(player=bo).guilds] == [guild.guild_id]
    assert sim.server.guilds.edit(guild.guild_id, name="Drakes").guild.name == "Drakes"
    handed = sim.server.guilds.hand_over(guild.guild_id, bo).guild
    assert {m.external_player_id: m.role.value for m in handed.members} == {
        "ada": "co_leader",
        "bo": "leader",
    }
    removed = sim.server.guilds.remove_member(guild.guild_id, ada).guild
    assert [h.reason.value if h.reason else None for h in removed.history] == ["removed", None]
    assert sim.server.guilds.of_player(ada).guild is None
    assert sim.server.guilds.disband(guild.guild_id).guild.disbanded_at == sim.now()
    assert sim.server.guilds.get(guild.guild_id).guild.members == []
    assert [e.kind for e in sim.webhooks_of("guild.disbanded")] == ["guild.disbanded"]


@pytest.mark.parametrize("leader_reads", [True, False])
def test_any_request_is_seen_so_a_leader_who_only_reads_keeps_the_lead(leader_reads: bool) -> None:
    # As on the server, any authenticated request moves a player's lastSeenAt, not only a heartbeat: the
    # succession sweep hands on only from a leader who made none (the raw commands differ here, see
    # tests/server/test_embedded_equivalence.py's strict xfail).
    sim = Simulation.from_manifest(
        CLANS.replace("max_members = 3", "max_members = 3\nleader_inactive_days = 1"), seed=5, start=MONDAY
    )
    ada, bo = sim.player("ada"), sim.player("bo")
    sim.server.wallet.credit(ada, "coins", 10)
    guild = ada.guilds.create("Owls", "open").guild
    bo.guilds.join(guild.guild_id)
    sim.advance(hours=23)
    bo.guilds.mine()
    if leader_reads:
        ada.guilds.mine()
    sim.advance(hours=2)  # the hourly sweep has run a day and an hour after the founding
    leader = next(
        m.external_player_id for m in sim.guild(guild.guild_id).guild.members if m.role.value == "leader"
    )
    assert leader == ("ada" if leader_reads else "bo")
