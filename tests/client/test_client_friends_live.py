"""Friends and presence methods against a real server on 127.0.0.1: proves the client and the server agree
on the wire (paths, DELETE routes, the ``progression`` query, camelCase bodies, the bare-array search
answer, 201 versus 200 on a send, error codes), which the mocked tests cannot.

The module's server carries the test manifest plus three games of its own: ``circle`` (platform-managed,
coins and gems, where most tests play), ``lounge`` (only the suggestions test, so its draw pool is known)
and ``tiny`` (``max_friends = 1``). Keys get generous rate limits: the manual clock never refills a bucket.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable, Iterator

import attrs
import httpx
import pytest

from livecore_client import (
    AlreadyFriendsError,
    AsyncSdkClient,
    CannotFriendSelfError,
    FriendCodeInvalidError,
    FriendLimitReachedError,
    FriendRequestNotFoundError,
    InvalidRequestError,
    NotBlockedError,
    NotFriendsError,
    PlayerBlockedError,
    PlayerNotFoundError,
    SdkClient,
    ServerClient,
)
from livecore_client.models import Direction, RelationshipView
from livecore_server.embedded import serve_in_thread
from tests.conftest import apply_test_manifest, make_services, service_args

LIMITS = "rate_limits = { sdk_read = 100000, sdk_write = 100000, server_api = 100000 }"
GAMES = f"""
[games.circle]
name = "Circle"
economy = "platform"

[games.circle.resources.coins]
type = "currency"

[games.circle.resources.gems]
type = "currency"

[games.circle.api_keys.client]
env = "test"
permission = "client_sdk"
{LIMITS}

[games.circle.api_keys.server]
env = "test"
permission = "server_integration"
{LIMITS}

[games.lounge]
name = "Lounge"

[games.lounge.api_keys.client]
env = "test"
permission = "client_sdk"
{LIMITS}

[games.tiny]
name = "Tiny"

[games.tiny.friends]
max_friends = 1

[games.tiny.api_keys.client]
env = "test"
permission = "client_sdk"
{LIMITS}
"""


@attrs.define
class FriendsServer:
    base_url: str
    keys: dict[str, dict[str, str]]  # game -> key name -> secret


@pytest.fixture(scope="module")
def friends_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FriendsServer]:
    """The conftest ``live_server`` recipe with this module's games (a manual clock, real SQLite)."""
    db = tmp_path_factory.mktemp("friends-live") / "live.db"
    services = make_services(db)
    applied = apply_test_manifest(services, GAMES)
    services.close()  # the server opens its own
    keys = {
        game: {name: k["secret"] for name, k in applied["games"][game]["apiKeys"].items()}
        for game in ("circle", "lounge", "tiny")
    }
    with serve_in_thread(*service_args(db)) as served:
        yield FriendsServer(served.base_url, keys)


_ids = itertools.count()


@attrs.define
class Seen:
    """(method, path, status) of every answer, in order: typed results do not carry the status."""

    answers: list[tuple[str, str, int]] = attrs.Factory(list)

    def record(self, response: httpx.Response) -> None:
        request = response.request
        self.answers.append((request.method, request.url.path, response.status_code))

    def last_status(self, method: str, path_end: str) -> int:
        return next(s for m, p, s in reversed(self.answers) if m == method and p.endswith(path_end))


@attrs.define
class Member:
    """A registered player of one game with its own client (its secret set on it)."""

    id: str
    name: str
    sdk: SdkClient

    @property
    def code(self) -> str:
        return self.sdk.friends.code(self.id).friend_code


@pytest.fixture
def seen() -> Seen:
    return Seen()


@pytest.fixture
def http(seen: Seen) -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10, event_hooks={"response": [seen.record]}) as client:
        yield client


@pytest.fixture
def join(friends_server: FriendsServer, http: httpx.Client) -> Iterator[Callable[..., Member]]:
    """``join(name, game="circle")``: register a fresh player, set its display name, return it."""
    opened: list[SdkClient] = []

    def make(name: str, game: str = "circle") -> Member:
        external_id = f"fr-{next(_ids)}-{secrets.token_hex(2)}"
        sdk = SdkClient(
            friends_server.keys[game]["client"], base_url=friends_server.base_url, http_client=http
        )
        opened.append(sdk)
        sdk.player_secret = sdk.players.register(external_id).player_secret
        sdk.players.set_identity(external_id, name=name)
        return Member(external_id, name, sdk)

    yield make
    for sdk in opened:
        sdk.close()


@pytest.fixture
def server(friends_server: FriendsServer, http: httpx.Client) -> Iterator[ServerClient]:
    key = friends_server.keys["circle"]["server"]
    with ServerClient(key, base_url=friends_server.base_url, http_client=http) as client:
        yield client


def befriend(a: Member, b: Member) -> None:
    request = a.sdk.friends.send_request(a.id, external_player_id=b.id).request
    assert request is not None
    b.sdk.friends.accept_request(b.id, request.request_id)


def friend_ids(m: Member) -> list[str]:
    return [f.external_player_id for f in m.sdk.friends.list(m.id).friends]


# --- Requests and friendship ----------------------------------------------------------------------


def test_two_players_become_friends_by_friend_code(
    join: Callable[..., Member], server: ServerClient, seen: Seen
) -> None:
    ada, bea = join("Ada"), join("Bea")
    code = bea.sdk.friends.code(bea.id)
    assert len(code.friend_code) == 6
    assert code.display_identity.name == "Bea"
    assert bea.code == code.friend_code  # kept for life

    # Codes match case-insensitively (docs/reference/friends-and-presence.md).
    sent = ada.sdk.friends.send_request(ada.id, friend_code=code.friend_code.lower())
    assert seen.last_status("POST", "/friends/requests") == 201
    assert (sent.status, sent.friend) == ("pending", None)
    assert sent.request is not None
    request = sent.request
    assert request.request_id.startswith("frq_")
    assert request.direction is Direction.OUTGOING
    assert (request.player.external_player_id, request.player.display_identity.name) == (bea.id, "Bea")

    [incoming] = bea.sdk.friends.requests(bea.id).incoming
    assert (incoming.request_id, incoming.direction) == (request.request_id, Direction.INCOMING)
    assert incoming.player.external_player_id == ada.id
    assert [r.request_id for r in ada.sdk.friends.requests(ada.id).outgoing] == [request.request_id]
    seen_by_server = server.friends.requests(bea.id)
    assert ([r.request_id for r in seen_by_server.incoming], seen_by_server.outgoing) == (
        [request.request_id],
        [],
    )

    friend = bea.sdk.friends.accept_request(bea.id, request.request_id).friend
    assert (friend.external_player_id, friend.display_identity.name) == (ada.id, "Ada")
    assert friend_ids(ada) == [bea.id]
    assert friend_ids(bea) == [ada.id]
    assert [f.external_player_id for f in server.friends.list(ada.id).friends] == [bea.id]
    assert server.friends.requests(bea.id).incoming == []
    assert bea.sdk.friends.requests(bea.id).incoming == []


def test_reciprocal_add_answers_accepted(join: Callable[..., Member], seen: Seen) -> None:
    ada, bea = join("Ada"), join("Bea")
    first = ada.sdk.friends.send_request(ada.id, external_player_id=bea.id)
    assert first.status == "pending"
    back = bea.sdk.friends.send_request(bea.id, external_player_id=ada.id)
    assert seen.last_status("POST", "/friends/requests") == 200
    assert (back.status, back.request) == ("accepted", None)
    assert back.friend is not None
    assert back.friend.external_player_id == ada.id
    assert friend_ids(ada) == [bea.id]
    assert ada.sdk.friends.requests(ada.id).outgoing == []


def test_decline_and_cancel(join: Callable[..., Member]) -> None:
    ada, bea = join("Ada"), join("Bea")
    request = ada.sdk.friends.send_request(ada.id, external_player_id=bea.id).request
    assert request is not None
    declined = bea.sdk.friends.decline_request(bea.id, request.request_id)
    assert (declined.request_id, declined.status) == (request.request_id, "declined")
    assert bea.sdk.friends.requests(bea.id).incoming == []
    assert ada.sdk.friends.requests(ada.id).outgoing == []

    again = ada.sdk.friends.send_request(ada.id, external_player_id=bea.id).request
    assert again is not None
    with pytest.raises(FriendRequestNotFoundError):  # only the target accepts
        ada.sdk.friends.accept_request(ada.id, again.request_id)
    with pytest.raises(FriendRequestNotFoundError):  # only the sender cancels
        bea.sdk.friends.cancel_request(bea.id, again.request_id)
    cancelled = ada.sdk.friends.cancel_request(ada.id, again.request_id)
    assert (cancelled.request_id, cancelled.status) == (again.request_id, "cancelled")
    with pytest.raises(FriendRequestNotFoundError) as info:
        bea.sdk.friends.accept_request(bea.id, again.request_id)
    assert (info.value.status, info.value.code) == (404, "friend_request_not_found")
    assert friend_ids(ada) == []


def test_remove_friend(join: Callable[..., Member]) -> None:
    ada, bea = join("Ada"), join("Bea")
    befriend(ada, bea)
    assert ada.sdk.friends.remove(ada.id, bea.id).removed is True
    assert friend_ids(ada) == []
    assert friend_ids(bea) == []
    with pytest.raises(NotFriendsError) as info:
        bea.sdk.friends.remove(bea.id, ada.id)
    assert (info.value.status, info.value.code) == (404, "not_friends_yet")


def test_block_and_unblock(join: Callable[..., Member], server: ServerClient) -> None:
    ada, bea = join("Ada"), join(f"Blocky{secrets.token_hex(3)}")
    befriend(ada, bea)

    block = ada.sdk.friends.block(ada.id, friend_code=bea.code).block
    assert (block.external_player_id, block.display_identity.name) == (bea.id, bea.name)
    assert friend_ids(ada) == [] and friend_ids(bea) == []  # the block ended the friendship
    assert [b.external_player_id for b in ada.sdk.friends.blocks(ada.id).blocks] == [bea.id]
    assert [b.external_player_id for b in server.friends.blocks(ada.id).blocks] == [bea.id]
    assert bea.sdk.friends.blocks(bea.id).blocks == []
    assert ada.sdk.friends.search(ada.id, bea.name) == []  # hidden from search
    # Blocking again answers the existing block.
    assert ada.sdk.friends.block(ada.id, external_player_id=bea.id).block.blocked_at == block.blocked_at

    with pytest.raises(PlayerBlockedError) as info:
        bea.sdk.friends.send_request(bea.id, external_player_id=ada.id)
    assert (info.value.status, info.value.code) == (403, "player_blocked")

    assert ada.sdk.friends.unblock(ada.id, bea.id).unblocked is True
    assert ada.sdk.friends.blocks(ada.id).blocks == []
    assert server.friends.blocks(ada.id).blocks == []
    with pytest.raises(NotBlockedError) as not_blocked:
        ada.sdk.friends.unblock(ada.id, bea.id)
    assert (not_blocked.value.status, not_blocked.value.code) == (404, "not_blocked")
    assert bea.sdk.friends.send_request(bea.id, external_player_id=ada.id).status == "pending"


# --- Presence ----------------------------------------------------------------------------------------


def test_heartbeat_shows_online_and_status_then_lapses(
    join: Callable[..., Member], server: ServerClient
) -> None:
    ada, bea = join("Ada"), join("Bea")
    befriend(ada, bea)
    [before] = ada.sdk.friends.list(ada.id).friends
    assert (before.online, before.last_active_at, before.status) == (False, None, None)

    presence = bea.sdk.presence.heartbeat(bea.id, "in lobby")
    assert (presence.online, presence.status) == (True, "in lobby")
    assert presence.last_active_at is not None
    [row] = ada.sdk.friends.list(ada.id).friends
    assert (row.online, row.status, row.last_active_at) == (True, "in lobby", presence.last_active_at)
    [by_server] = server.friends.list(ada.id).friends
    assert (by_server.online, by_server.status) == (True, "in lobby")

    cleared = bea.sdk.presence.heartbeat(bea.id)  # null clears the label; still online
    assert (cleared.online, cleared.status) == (True, None)
    assert ada.sdk.friends.list(ada.id).friends[0].status is None

    server.system.advance_clock(91)  # past the 90 s presence time-to-live
    [lapsed] = ada.sdk.friends.list(ada.id).friends
    assert lapsed.online is False
    assert lapsed.last_active_at == cleared.last_active_at == presence.last_active_at  # manual clock
    assert lapsed.status is None


# --- Discovery ----------------------------------------------------------------------------------------


def test_search_finds_by_name(join: Callable[..., Member]) -> None:
    tag = secrets.token_hex(3)
    ada = join(f"Ada{tag}")
    zed, zoe, _ = join(f"Zed{tag}"), join(f"Zoe{tag}"), join(f"Other{secrets.token_hex(3)}")
    ada.sdk.friends.send_request(ada.id, external_player_id=zed.id)
    zoe.sdk.friends.send_request(zoe.id, external_player_id=ada.id)

    hits = ada.sdk.friends.search(ada.id, f"zed{tag}")  # case-insensitive
    assert [(h.external_player_id, h.relationship) for h in hits] == [
        (zed.id, RelationshipView.REQUEST_OUTGOING)
    ]
    # A substring of every name of this test; the caller is not among the hits; ordered by name.
    hits = ada.sdk.friends.search(ada.id, tag)
    assert [(h.external_player_id, h.relationship) for h in hits] == [
        (zed.id, RelationshipView.REQUEST_OUTGOING),
        (zoe.id, RelationshipView.REQUEST_INCOMING),
    ]
    assert [h.display_identity.name for h in hits] == [zed.name, zoe.name]
    assert len(ada.sdk.friends.search(ada.id, tag, limit=1)) == 1

    pal = join(f"Pal{tag}")
    befriend(zed, pal)
    assert [(h.external_player_id, h.relationship) for h in zed.sdk.friends.search(zed.id, f"Pal{tag}")] == [
        (pal.id, RelationshipView.FRIENDS)
    ]
    assert [(h.external_player_id, h.relationship) for h in zoe.sdk.friends.search(zoe.id, f"Pal{tag}")] == [
        (pal.id, RelationshipView.NONE)
    ]

    with pytest.raises(InvalidRequestError):  # 1 to 32 characters
        ada.sdk.friends.search(ada.id, "x" * 33)


def test_suggestions_exclude_ties(join: Callable[..., Member]) -> None:
    ada = join("Ada", "lounge")
    friend, asked, asker, blocked, blocker, stranger = (
        join(name, "lounge") for name in ("Friend", "Asked", "Asker", "Blocked", "Blocker", "Stranger")
    )
    befriend(ada, friend)
    ada.sdk.friends.send_request(ada.id, external_player_id=asked.id)
    asker.sdk.friends.send_request(asker.id, external_player_id=ada.id)
    ada.sdk.friends.block(ada.id, external_player_id=blocked.id)
    blocker.sdk.friends.block(blocker.id, external_player_id=ada.id)
    for m in (ada, friend, asked, asker, blocked, blocker, stranger):
        m.sdk.presence.heartbeat(m.id, "around")  # recently active: in the draw pool

    for _ in range(5):  # re-drawn on every call; the ties are never drawn
        [row] = ada.sdk.friends.suggestions(ada.id, limit=25).suggestions
        assert row.external_player_id == stranger.id
        assert (row.online, row.status, row.display_identity.name) == (True, "around", "Stranger")
    drawn = {
        s.external_player_id for s in stranger.sdk.friends.suggestions(stranger.id, limit=25).suggestions
    }
    assert drawn == {ada.id, friend.id, asked.id, asker.id, blocked.id, blocker.id}
    assert len(stranger.sdk.friends.suggestions(stranger.id).suggestions) == 5  # default limit


# --- Progression --------------------------------------------------------------------------------------


def test_progression_on_friend_reads(join: Callable[..., Member], server: ServerClient) -> None:
    ada, bea, cid = join("Ada"), join("Bea"), join(f"Cid{secrets.token_hex(3)}")
    server.wallet.credit(bea.id, "coins", 50)
    server.wallet.credit(cid.id, "gems", 7)
    befriend(ada, bea)
    cid.sdk.friends.send_request(cid.id, external_player_id=ada.id)

    [row] = ada.sdk.friends.list(ada.id, progression=["coins", "gems"]).friends
    assert row.progression == {"coins": 50, "gems": 0}  # never earned reads 0
    assert ada.sdk.friends.list(ada.id).friends[0].progression is None  # only when asked
    [incoming] = ada.sdk.friends.requests(ada.id, progression=("gems",)).incoming
    assert incoming.progression == {"gems": 7}
    assert bea.sdk.friends.code(bea.id, progression="coins").progression == {"coins": 50}
    [hit] = ada.sdk.friends.search(ada.id, cid.name, progression=["gems", "coins"])
    assert hit.progression == {"gems": 7, "coins": 0}

    with pytest.raises(InvalidRequestError) as too_many:  # at most 8 keys
        ada.sdk.friends.list(ada.id, progression=[f"k{n}" for n in range(9)])
    assert too_many.value.details is not None
    assert "progression" in too_many.value.details["fields"]
    with pytest.raises(InvalidRequestError):  # only the game's economy keys
        ada.sdk.friends.list(ada.id, progression=["coins", "gold"])


# --- Errors -------------------------------------------------------------------------------------------


def test_each_refusal_raises_its_class(join: Callable[..., Member]) -> None:
    ada, bea = join("Ada"), join("Bea")
    with pytest.raises(CannotFriendSelfError) as self_add:
        ada.sdk.friends.send_request(ada.id, friend_code=ada.code)
    assert (self_add.value.status, self_add.value.code) == (400, "cannot_friend_self")

    with pytest.raises(FriendCodeInvalidError) as bad_code:
        ada.sdk.friends.send_request(ada.id, friend_code="222222" if ada.code != "222222" else "333333")
    assert (bad_code.value.status, bad_code.value.code) == (404, "friend_code_invalid")

    with pytest.raises(PlayerNotFoundError):  # docs/reference/friends-and-presence.md: an unknown external id
        ada.sdk.friends.send_request(ada.id, external_player_id="nobody-here")

    befriend(ada, bea)
    with pytest.raises(AlreadyFriendsError) as already:
        bea.sdk.friends.send_request(bea.id, friend_code=ada.code)
    assert (already.value.status, already.value.code) == (409, "already_friends")

    with pytest.raises(FriendRequestNotFoundError):
        ada.sdk.friends.decline_request(ada.id, "frq_00000000000000000000000000")


def test_friend_limit_reached(join: Callable[..., Member]) -> None:
    ada, bea, cid, dee = (join(name, "tiny") for name in ("Ada", "Bea", "Cid", "Dee"))
    befriend(ada, bea)  # both now at max_friends = 1
    with pytest.raises(FriendLimitReachedError) as on_send:
        ada.sdk.friends.send_request(ada.id, external_player_id=cid.id)
    assert (on_send.value.status, on_send.value.code) == (409, "friend_limit_reached")

    # Checked again on accept: dee asked cid while both had room, then cid filled up.
    request = dee.sdk.friends.send_request(dee.id, external_player_id=cid.id).request
    assert request is not None
    befriend(cid, join("Eve", "tiny"))
    with pytest.raises(FriendLimitReachedError):
        cid.sdk.friends.accept_request(cid.id, request.request_id)


# --- Async --------------------------------------------------------------------------------------------


async def test_async_client_round_trip(friends_server: FriendsServer) -> None:
    key, base = friends_server.keys["circle"]["client"], friends_server.base_url
    ada_id, bea_id = f"fr-async-{next(_ids)}", f"fr-async-{next(_ids)}"
    async with AsyncSdkClient(key, base_url=base) as ada, AsyncSdkClient(key, base_url=base) as bea:
        ada.player_secret = (await ada.players.register(ada_id)).player_secret
        bea.player_secret = (await bea.players.register(bea_id)).player_secret
        code = (await bea.friends.code(bea_id)).friend_code
        sent = await ada.friends.send_request(ada_id, friend_code=code)
        assert sent.request is not None
        await bea.friends.accept_request(bea_id, sent.request.request_id)
        await bea.presence.heartbeat(bea_id, "async")
        [row] = (await ada.friends.list(ada_id, progression=["coins"])).friends
        assert (row.external_player_id, row.online, row.status, row.progression) == (
            bea_id,
            True,
            "async",
            {"coins": 0},
        )
        assert (await ada.friends.remove(ada_id, bea_id)).removed
        with pytest.raises(NotFriendsError):
            await ada.friends.remove(ada_id, bea_id)
