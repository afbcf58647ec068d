"""Guild methods against a real server on 127.0.0.1, on SQLite and PostgreSQL: proves the clients and the
server agree on the wire (paths, the PATCH that leaves fields out or sends them as null, the join's 200
seat versus 201 request, the search and list queries, the moderation routes' body keys, every refusal and
its class), which the mocked tests cannot.

The module's game ``hall`` is platform-managed: founding costs 10 coins, guilds seat at most 3 members,
names holding "darn" are filtered, and members ask each other for up to 5 energy (a currency), each
donation rewarding the donor with 1 coin. Each test founds its own guilds, under names no other test
uses.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable, Iterator
from datetime import timedelta

import attrs
import httpx
import pytest

from livecore_client import (
    AlreadyInGuildError,
    AsyncSdkClient,
    AsyncServerClient,
    GuildDisbandedError,
    GuildFullError,
    GuildMemberNotFoundError,
    GuildNameRejectedError,
    GuildNameTakenError,
    GuildNotFoundError,
    GuildPermissionDeniedError,
    HelpCooldownError,
    HelpRequestClosedError,
    HelpRequestOpenError,
    InsufficientBalanceError,
    InvalidRequestError,
    JoinRequestNotFoundError,
    JoinRequestPendingError,
    NotInGuildError,
    SdkClient,
    ServerClient,
)
from livecore_client.models import (
    GrantStatus,
    GuildDetailView,
    GuildJoined,
    GuildJoinPending,
    GuildWithMembersView,
    HelpStatus,
    JoinType,
    LeftReason,
    Role,
)
from tests.client.live_support import LiveGame, serve_game
from tests.conftest import BACKENDS, START

LIMITS = "rate_limits = { sdk_read = 100000, sdk_write = 100000, server_api = 100000 }"
COOLDOWN_SECONDS = 3600

GAMES = f"""
[games.hall]
name = "Hall"
economy = "platform"

[games.hall.resources.coins]
type = "currency"

[games.hall.resources.energy]
type = "currency"

[games.hall.guilds]
enabled = true
max_members = 3
create_cost = [{{ type = "currency", key = "coins", amount = 10 }}]
name_filter = ["darn"]
[games.hall.guilds.help]
resources = ["energy"]
max_amount = 5
cooldown_seconds = {COOLDOWN_SECONDS}
donor_reward = [{{ type = "currency", key = "coins", amount = 1 }}]

[games.hall.api_keys.client]
env = "test"
permission = "client_sdk"
{LIMITS}

[games.hall.api_keys.server]
env = "test"
permission = "server_integration"
{LIMITS}
"""


Hall = LiveGame


@pytest.fixture(scope="module", params=BACKENDS)
def hall(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    """This module's game served on each store in turn."""
    yield from serve_game(request, tmp_path_factory, GAMES, "hall")


_ids = itertools.count()


def guild_name(word: str) -> str:
    """A guild name no other test (nor the other store's run) takes."""
    return f"{word} {next(_ids)} {secrets.token_hex(2)}"


@attrs.define
class Member:
    """A registered player with its own client (its secret set on it)."""

    id: str
    sdk: SdkClient

    def balance(self, key: str) -> int:
        [amount] = [c.balance for c in self.sdk.wallet.get(self.id).currencies if c.key == key]
        return amount


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10) as client:
        yield client


@pytest.fixture
def server(hall: Hall, http: httpx.Client) -> Iterator[ServerClient]:
    with ServerClient(hall.keys["server"], base_url=hall.base_url, http_client=http) as client:
        yield client


@pytest.fixture
def anonymous(hall: Hall, http: httpx.Client) -> Iterator[SdkClient]:
    """A client with the client key alone (no player's secret)."""
    with SdkClient(hall.keys["client"], base_url=hall.base_url, http_client=http) as client:
        yield client


@pytest.fixture
def player(hall: Hall, http: httpx.Client, server: ServerClient) -> Iterator[Callable[..., Member]]:
    """``player(coins=0, energy=0)``: a fresh registered player of ``hall``, given these by the backend."""
    opened: list[SdkClient] = []

    def make(coins: int = 0, energy: int = 0) -> Member:
        external_id = f"gl-{next(_ids)}-{secrets.token_hex(2)}"
        sdk = SdkClient(hall.keys["client"], base_url=hall.base_url, http_client=http)
        opened.append(sdk)
        sdk.player_secret = sdk.players.register(external_id).player_secret
        for key, amount in (("coins", coins), ("energy", energy)):
            if amount:
                server.wallet.credit(external_id, key, amount)
        return Member(external_id, sdk)

    yield make
    for sdk in opened:
        sdk.close()


def roles(guild: GuildWithMembersView | GuildDetailView) -> dict[str, Role]:
    """Each member's role. Not in joining order: the manual clock seats a test's players at one instant,
    and members who joined at the same instant come in no set order."""
    return {m.external_player_id: m.role for m in guild.members}


def test_a_guild_founded_searched_joined_by_request_accepted_edited_and_handed_on(
    player: Callable[..., Member], anonymous: SdkClient
) -> None:
    ada, bob, cy = player(coins=10), player(), player()
    name = guild_name("Pilots")
    founded = ada.sdk.guilds.create(
        ada.id, name, JoinType.REQUEST, description="We fly.", country="fr", metadata={"tier": 1}
    ).guild
    assert (founded.name, founded.join_type, founded.country, founded.member_count) == (
        name,
        JoinType.REQUEST,
        "FR",
        1,
    )
    assert roles(founded) == {ada.id: Role.LEADER}
    assert ada.balance("coins") == 0  # the founding cost

    # Reads of other guilds need the client key alone.
    [hit] = anonymous.guilds.search(name.upper()).guilds
    assert hit.guild_id == founded.guild_id and hit.created_at == START
    assert anonymous.guilds.get(founded.guild_id).guild.members[0].external_player_id == ada.id

    asked = bob.sdk.guilds.join(bob.id, founded.guild_id, message="Let me fly")
    assert isinstance(asked, GuildJoinPending)
    assert (asked.request.guild_id, asked.request.message) == (founded.guild_id, "Let me fly")
    with pytest.raises(JoinRequestPendingError):
        bob.sdk.guilds.join(bob.id, founded.guild_id)
    assert bob.sdk.guilds.mine(bob.id).guild is None
    with pytest.raises(NotInGuildError):
        bob.sdk.guilds.join_requests(bob.id)

    [pending] = ada.sdk.guilds.join_requests(ada.id).requests
    assert pending.request_id == asked.request.request_id
    assert ada.sdk.guilds.accept_join_request(ada.id, pending.request_id).accepted
    with pytest.raises(JoinRequestNotFoundError):
        ada.sdk.guilds.decline_join_request(ada.id, pending.request_id)  # answered already
    own = bob.sdk.guilds.mine(bob.id)
    assert own.role is Role.MEMBER and own.guild is not None
    assert roles(own.guild) == {ada.id: Role.LEADER, bob.id: Role.MEMBER}
    with pytest.raises(GuildPermissionDeniedError):
        bob.sdk.guilds.join_requests(bob.id)

    # A request withdrawn, then declined.
    assert isinstance(cy.sdk.guilds.join(cy.id, founded.guild_id), GuildJoinPending)
    assert cy.sdk.guilds.cancel_join_request(cy.id, founded.guild_id).cancelled
    with pytest.raises(JoinRequestNotFoundError):
        cy.sdk.guilds.cancel_join_request(cy.id, founded.guild_id)
    again = cy.sdk.guilds.join(cy.id, founded.guild_id)
    assert isinstance(again, GuildJoinPending)
    assert ada.sdk.guilds.decline_join_request(ada.id, again.request.request_id).declined
    assert ada.sdk.guilds.join_requests(ada.id).requests == []

    # The PATCH: fields left out stay, fields sent as null are cleared.
    with pytest.raises(GuildPermissionDeniedError) as denied:
        bob.sdk.guilds.edit(bob.id, description="Mine now")
    assert denied.value.role == "member"
    edited = ada.sdk.guilds.edit(ada.id, description=None, badge="wings.png", metadata=None).guild
    assert (edited.name, edited.description, edited.badge, edited.country, edited.metadata) == (
        name,
        None,
        "wings.png",
        "FR",
        None,
    )
    renamed = ada.sdk.guilds.edit(ada.id, name=name.lower(), join_type="open").guild
    assert (renamed.name, renamed.join_type, renamed.badge) == (name.lower(), JoinType.OPEN, "wings.png")
    with pytest.raises(GuildNameRejectedError):
        ada.sdk.guilds.edit(ada.id, name="Darn Pilots")

    # Roles: promote, demote, promote, then the leadership handed on.
    assert roles(ada.sdk.guilds.promote(ada.id, bob.id).guild)[bob.id] is Role.CO_LEADER
    assert roles(ada.sdk.guilds.demote(ada.id, bob.id).guild)[bob.id] is Role.MEMBER
    with pytest.raises(InvalidRequestError):
        ada.sdk.guilds.demote(ada.id, bob.id)  # a member already
    with pytest.raises(GuildMemberNotFoundError):
        ada.sdk.guilds.promote(ada.id, cy.id)
    handed = ada.sdk.guilds.transfer_leadership(ada.id, bob.id).guild
    assert roles(handed) == {ada.id: Role.CO_LEADER, bob.id: Role.LEADER}
    with pytest.raises(GuildPermissionDeniedError):
        ada.sdk.guilds.transfer_leadership(ada.id, bob.id)

    # The new leader leaves: the co-leader leads; the last one's going disbands the guild.
    assert bob.sdk.guilds.leave(bob.id).left
    mine = ada.sdk.guilds.mine(ada.id)
    assert mine.role is Role.LEADER
    with pytest.raises(NotInGuildError):
        bob.sdk.guilds.leave(bob.id)
    assert ada.sdk.guilds.leave(ada.id).left
    assert anonymous.guilds.get(founded.guild_id).guild.disbanded_at is not None
    assert anonymous.guilds.search(name).guilds == []


def test_open_guilds_seat_at_once_until_full_and_refuse_what_they_must(
    player: Callable[..., Member], anonymous: SdkClient
) -> None:
    ada, bob, cy, dan = player(coins=20), player(coins=10), player(), player()
    name = guild_name("House")
    gid = ada.sdk.guilds.create(ada.id, name, "open").guild.guild_id
    with pytest.raises(AlreadyInGuildError):
        ada.sdk.guilds.create(ada.id, guild_name("Second"), "open")
    with pytest.raises(GuildNameTakenError):
        bob.sdk.guilds.create(bob.id, name.upper(), "open")
    with pytest.raises(GuildNameRejectedError):
        bob.sdk.guilds.create(bob.id, "DARNED ones", "open")
    with pytest.raises(InsufficientBalanceError):
        cy.sdk.guilds.create(cy.id, guild_name("Poor"), "open")
    with pytest.raises(GuildNotFoundError):
        anonymous.guilds.get("gld_unknown")

    joined = bob.sdk.guilds.join(bob.id, gid, message="ignored")
    assert isinstance(joined, GuildJoined)
    assert joined.role is Role.MEMBER and joined.guild.member_count == 2
    assert isinstance(cy.sdk.guilds.join(cy.id, gid), GuildJoined)
    with pytest.raises(GuildFullError):
        dan.sdk.guilds.join(dan.id, gid)
    with pytest.raises(AlreadyInGuildError):
        cy.sdk.guilds.join(cy.id, gid)

    with pytest.raises(GuildPermissionDeniedError):
        bob.sdk.guilds.kick(bob.id, cy.id)
    kicked = ada.sdk.guilds.kick(ada.id, cy.id).guild
    assert roles(kicked) == {ada.id: Role.LEADER, bob.id: Role.MEMBER}
    assert cy.sdk.guilds.mine(cy.id).guild is None
    with pytest.raises(NotInGuildError):
        cy.sdk.guilds.leave(cy.id)
    assert isinstance(dan.sdk.guilds.join(dan.id, gid), GuildJoined)  # a seat again


def test_help_asked_donated_filled_and_rewarded(player: Callable[..., Member]) -> None:
    ada, bob, cy = player(coins=10), player(), player(energy=5)
    gid = ada.sdk.guilds.create(ada.id, guild_name("Helpers"), "open").guild.guild_id
    for member in (bob, cy):
        member.sdk.guilds.join(member.id, gid)

    asked = bob.sdk.guilds.ask_help(bob.id, type="currency", resource_key="energy", amount=3).help_request
    assert (asked.external_player_id, asked.amount, asked.donated, asked.status) == (
        bob.id,
        3,
        0,
        HelpStatus.OPEN,
    )
    with pytest.raises(HelpRequestOpenError) as still_open:
        bob.sdk.guilds.ask_help(bob.id, type="currency", resource_key="energy", amount=1)
    assert still_open.value.request_id == asked.request_id
    with pytest.raises(InvalidRequestError):
        ada.sdk.guilds.ask_help(ada.id, type="currency", resource_key="coins", amount=1)  # not offered
    [listed] = cy.sdk.guilds.help_requests(cy.id).help_requests
    assert listed.request_id == asked.request_id

    with pytest.raises(InvalidRequestError):
        bob.sdk.guilds.donate_help(bob.id, asked.request_id, 1)  # its own request
    donated = cy.sdk.guilds.donate_help(cy.id, asked.request_id, 2, idempotency_key=f"don-{asked.request_id}")
    assert (donated.donation.amount, donated.help_request.donated) == (2, 2)
    assert donated.donation.reward_grant_id is not None
    # The same key answers the same donation: nothing is taken twice.
    replay = cy.sdk.guilds.donate_help(cy.id, asked.request_id, 2, idempotency_key=f"don-{asked.request_id}")
    assert replay.donation.donation_id == donated.donation.donation_id
    assert cy.balance("energy") == 3
    with pytest.raises(InvalidRequestError):
        cy.sdk.guilds.donate_help(cy.id, asked.request_id, 2)  # more than it lacks
    filled = cy.sdk.guilds.donate_help(cy.id, asked.request_id, 1).help_request
    assert (filled.donated, filled.status) == (3, HelpStatus.FILLED)
    with pytest.raises(HelpRequestClosedError):
        cy.sdk.guilds.donate_help(cy.id, asked.request_id, 1)
    assert cy.sdk.guilds.help_requests(cy.id).help_requests == []

    # The requester's pending grants hold the donations; the donor's its rewards.
    requester = {g.grant_id: g for g in bob.sdk.grants.pending(bob.id).grants}
    assert donated.donation.grant_id in requester
    assert requester[donated.donation.grant_id].status is GrantStatus.PENDING
    bob.sdk.grants.claim(bob.id, donated.donation.grant_id)
    assert bob.balance("energy") == 2
    rewards = {g.grant_id for g in cy.sdk.grants.pending(cy.id).grants}
    assert donated.donation.reward_grant_id in rewards

    with pytest.raises(HelpCooldownError) as cooling:
        bob.sdk.guilds.ask_help(bob.id, type="currency", resource_key="energy", amount=1)
    # Counted from the last request's creation, whatever became of it.
    assert asked.expires_at == START + timedelta(days=1)
    assert cooling.value.retry_at == START + timedelta(seconds=COOLDOWN_SECONDS)


def test_the_studio_lists_reads_edits_hands_over_removes_and_disbands(
    player: Callable[..., Member], server: ServerClient, anonymous: SdkClient
) -> None:
    ada, bob, cy, dan = player(coins=10), player(), player(), player(coins=10)
    name = guild_name("Moderated")
    gid = ada.sdk.guilds.create(ada.id, name, "open", badge="old.png").guild.guild_id
    newest = dan.sdk.guilds.create(dan.id, guild_name("Newest"), "request").guild.guild_id
    bob.sdk.guilds.join(bob.id, gid)
    cy.sdk.guilds.join(cy.id, gid)

    listed = server.guilds.list(name.lower())
    assert [g.guild_id for g in listed.guilds] == [gid] and listed.next_offset is None
    assert gid in [g.guild_id for g in server.guilds.list(player=bob.id).guilds]
    paged: list[str] = []
    offset: int | None = 0
    while offset is not None:
        page = server.guilds.list(limit=1, offset=offset)
        paged += [g.guild_id for g in page.guilds]
        offset = page.next_offset
    assert {gid, newest} <= set(paged) and len(paged) == len(set(paged))

    # The studio's PATCH skips the name filter and keeps what it leaves out.
    edited = server.guilds.edit(gid, name=guild_name("Darn"), badge=None).guild
    assert (edited.badge, edited.join_type) == (None, JoinType.OPEN)
    assert "Darn" in edited.name

    handed = server.guilds.hand_over(gid, cy.id).guild
    assert roles(handed) == {ada.id: Role.CO_LEADER, bob.id: Role.MEMBER, cy.id: Role.LEADER}
    removed = server.guilds.remove_member(gid, bob.id).guild
    assert roles(removed) == {ada.id: Role.CO_LEADER, cy.id: Role.LEADER}
    assert {h.external_player_id: h.reason for h in removed.history} == {
        ada.id: None,
        bob.id: LeftReason.REMOVED,
        cy.id: None,
    }
    with pytest.raises(GuildMemberNotFoundError):
        server.guilds.remove_member(gid, bob.id)
    stints = server.guilds.of_player(bob.id)
    assert stints.guild is None
    assert [(s.guild_id, s.role, s.reason) for s in stints.stints] == [(gid, Role.MEMBER, LeftReason.REMOVED)]
    assert server.guilds.of_player(cy.id).guild is not None

    disbanded = server.guilds.disband(gid).guild
    assert disbanded.disbanded_at is not None and disbanded.members == []
    assert server.guilds.disband(gid).guild == disbanded  # again: as it is
    assert gid not in [g.guild_id for g in server.guilds.list(player=cy.id).guilds]
    assert gid in [g.guild_id for g in server.guilds.list(player=cy.id, include_disbanded=True).guilds]
    with pytest.raises(GuildDisbandedError):
        bob.sdk.guilds.join(bob.id, gid)
    with pytest.raises(GuildDisbandedError):
        server.guilds.edit(gid, description="Back")
    with pytest.raises(GuildDisbandedError):
        server.guilds.hand_over(gid, ada.id)
    with pytest.raises(GuildNotFoundError):
        server.guilds.get("gld_unknown")
    assert anonymous.guilds.get(gid).guild.disbanded_at == disbanded.disbanded_at


async def test_the_async_clients_found_join_and_moderate(hall: Hall, player: Callable[..., Member]) -> None:
    ada, bob = player(coins=10), player()
    async with (
        AsyncSdkClient(
            hall.keys["client"], base_url=hall.base_url, player_secret=ada.sdk.player_secret
        ) as sdk,
        AsyncServerClient(hall.keys["server"], base_url=hall.base_url) as server,
    ):
        founded = (await sdk.guilds.create(ada.id, guild_name("Async"), "request")).guild
        asked = await sdk.guilds.join(bob.id, founded.guild_id, player_secret=bob.sdk.player_secret)
        assert isinstance(asked, GuildJoinPending)
        await sdk.guilds.accept_join_request(ada.id, asked.request.request_id)
        detail = (await server.guilds.get(founded.guild_id)).guild
        assert roles(detail) == {ada.id: Role.LEADER, bob.id: Role.MEMBER}
        assert detail.pending_requests == []
        edited = (await server.guilds.edit(founded.guild_id, country=None, metadata={"async": True})).guild
        assert (edited.country, edited.metadata) == (None, {"async": True})
        handed = (await server.guilds.hand_over(founded.guild_id, bob.id)).guild
        assert roles(handed) == {ada.id: Role.CO_LEADER, bob.id: Role.LEADER}
        mine = await sdk.guilds.mine(bob.id, player_secret=bob.sdk.player_secret)
        assert mine.role is Role.LEADER
        assert (await server.guilds.of_player(bob.id)).stints[0].role is Role.LEADER
