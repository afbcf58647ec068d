"""The friends and presence routes' handlers: the player's (friend code, search, requests, friends,
suggestions, blocks, the heartbeat), which act only on the caller's own graph, and the studio's reads of a
player's graph (docs/reference/friends-and-presence.md). Presence is read through the runtime
(:attr:`livecore.commands.Runtime.presence_of`): the server's presence board, or an embedded store's
rows."""

from __future__ import annotations

from collections.abc import Callable

from livecore.api.request import AnyRequest, Handler, Reply, Request
from livecore.api.route import Route
from livecore.commands.reads import Reads
from livecore.friends import api, views
from livecore.friends import commands as cmd
from livecore.friends.settings import PRESENCE_SETTINGS
from livecore.friends.views import ViewsTx
from livecore.players import commands as players_cmd
from livecore.players.actor import player_of
from livecore.players.commands import get_player, load_game
from livecore.players.rules import Player
from livecore.players.views import display_view


def _with_code(request: AnyRequest, tx: ViewsTx) -> Player:
    """The caller, with its friend code: made on the player's first friends call (the server runs the read
    routes that call this in a write transaction, ``may_write``)."""
    return cmd.ensure_friend_code(tx, request.rt, player_of(request))


def _friends_view(
    request: AnyRequest, tx: ViewsTx, player: Player, keys: list[str] | None
) -> api.FriendsResponse:
    game = load_game(tx, request.scope)
    return views.friends_view(tx, game, player, keys, request.rt.clock.now(), request.rt.presence_of)


def code(request: Request[None, api.ProgressionQuery], tx: ViewsTx) -> api.FriendCodeResponse:
    me = _with_code(request, tx)
    assert me.friend_code is not None
    prog = views.progression_for(tx, load_game(tx, request.scope), request.query.progression, [me])
    return api.FriendCodeResponse(
        friend_code=me.friend_code,
        display_identity=display_view(me),
        progression=prog[me.id] if prog else None,
    )


def search(request: Request[None, api.SearchQuery], tx: ViewsTx) -> list[api.SearchHit]:
    me = _with_code(request, tx)
    query = request.query
    found = cmd.search(tx, request.scope, me, query.q, query.limit)
    prog = views.progression_for(
        tx, load_game(tx, request.scope), query.progression, [h.player for h in found]
    )
    return [
        api.SearchHit(
            display_identity=display_view(h.player),
            external_player_id=h.player.external_id,
            relationship=api.RelationshipView(h.relation.value),
            progression=prog.get(h.player.id) if prog is not None else None,
        )
        for h in found
    ]


def send_request(request: Request[api.FriendTarget, None], tx: ViewsTx) -> api.SendRequestResponse | Reply:
    me = _with_code(request, tx)
    rt, scope = request.rt, request.scope
    target = cmd.resolve_target(tx, scope, request.body.friend_code, request.body.external_player_id)
    game = load_game(tx, scope)
    added = cmd.add(tx, rt, scope, game, me, target)
    if added.accepted:
        friend = tx.players.by_id(target.id)
        assert friend is not None
        row = views.new_friend_row(tx, game, me, friend, rt.clock.now(), rt.presence_of)
        # A reciprocal add answers 200 (docs/reference/friends-and-presence.md#requests-and-friendships) (the
        # route's declared status is the pending 201).
        return Reply(api.SendRequestResponse(status="accepted", friend=row), 200)
    return api.SendRequestResponse(status="pending", request=views.sent_request_row(tx, added))


def target_reads(request: Request[api.FriendTarget, None], tx: object) -> Reads:
    """A request or a block changes what lies between its caller and its target, and their friend counts:
    it holds both. A target named by friend code is found only as the write runs: it holds its game
    alone."""
    other = request.body.external_player_id
    if other is None:
        return Reads(alone=True)
    return Reads(players=((request.scope.game_id, other),))


def path_other_reads(param: str) -> Callable[[Request[None, None], object], Reads]:
    """A removal or an unblock holds its caller and the other player its path names."""

    def reads(request: Request[None, None], tx: object) -> Reads:
        return Reads(players=((request.scope.game_id, request.params[param]),))

    return reads


def requests(request: Request[None, api.ProgressionQuery], tx: ViewsTx) -> api.RequestsResponse:
    me = _with_code(request, tx)
    return views.requests_view(tx, load_game(tx, request.scope), me, request.query.progression)


def accept(request: Request[None, None], tx: ViewsTx) -> api.FriendResponse:
    me = _with_code(request, tx)
    rt, scope = request.rt, request.scope
    game = load_game(tx, scope)
    friend = cmd.accept(tx, rt, scope, game, me, request.params["requestId"])
    return api.FriendResponse(
        friend=views.new_friend_row(tx, game, me, friend, rt.clock.now(), rt.presence_of)
    )


def decline(request: Request[None, None], tx: ViewsTx) -> api.RequestDone:
    declined = cmd.decline(tx, request.scope, _with_code(request, tx), request.params["requestId"])
    return api.RequestDone(request_id=declined.id, status="declined")


def cancel(request: Request[None, None], tx: ViewsTx) -> api.RequestDone:
    cancelled = cmd.cancel(tx, request.scope, _with_code(request, tx), request.params["requestId"])
    return api.RequestDone(request_id=cancelled.id, status="cancelled")


def friends(request: Request[None, api.ProgressionQuery], tx: ViewsTx) -> api.FriendsResponse:
    return _friends_view(request, tx, _with_code(request, tx), request.query.progression)


def remove(request: Request[None, None], tx: ViewsTx) -> api.RemovedResponse:
    me = _with_code(request, tx)
    other = get_player(tx, request.scope, request.params["friendExternalId"])
    cmd.remove(tx, request.rt, request.scope, me, other)
    return api.RemovedResponse(removed=True)


def suggestions(request: Request[None, api.SuggestionsQuery], tx: ViewsTx) -> api.SuggestionsResponse:
    me = _with_code(request, tx)
    rt, scope = request.rt, request.scope
    chosen = cmd.suggestions(tx, rt, scope, me, request.query.limit)
    game = load_game(tx, scope)
    prog = views.progression_for(tx, game, request.query.progression, chosen)
    now = rt.clock.now()
    return api.SuggestionsResponse(
        suggestions=[views.suggestion_row(game, p, prog, now, rt.presence_of) for p in chosen]
    )


def block(request: Request[api.FriendTarget, None], tx: ViewsTx) -> api.BlockResponse:
    me = _with_code(request, tx)
    target = cmd.resolve_target(tx, request.scope, request.body.friend_code, request.body.external_player_id)
    made = cmd.block(tx, request.rt, request.scope, me, target)
    return api.BlockResponse(block=views.block_row(target, made.created_at))


def blocks(request: Request[None, None], tx: ViewsTx) -> api.BlocksResponse:
    return views.blocks_view(tx, _with_code(request, tx))


def unblock(request: Request[None, None], tx: ViewsTx) -> api.UnblockedResponse:
    me = _with_code(request, tx)
    cmd.unblock(tx, me, get_player(tx, request.scope, request.params["externalPlayerId"]))
    return api.UnblockedResponse(unblocked=True)


def heartbeat(request: Request[api.HeartbeatRequest | None, None], tx: ViewsTx) -> api.PresenceResponse:
    """The heartbeat written on the player's row. The server binds its own handler instead
    (``livecore_server.friends.sdk_presence``), which keeps heartbeats on its presence board and writes
    them in batches; the row it leaves is the same."""
    status = (request.body or api.HeartbeatRequest()).status
    _, done = players_cmd.heartbeat(tx, request.rt, player_of(request), status)
    presence = done.presence
    ttl = load_game(tx, request.scope).settings.of(PRESENCE_SETTINGS).ttl_seconds
    return api.PresenceResponse(
        online=presence.online(request.rt.clock.now(), ttl),
        last_active_at=presence.last_active_at,
        status=presence.status,
    )


def server_friends(request: Request[None, None], tx: ViewsTx) -> api.FriendsResponse:
    return _friends_view(request, tx, get_player(tx, request.scope, request.external_id), None)


def server_requests(request: Request[None, None], tx: ViewsTx) -> api.RequestsResponse:
    player = get_player(tx, request.scope, request.external_id)
    return views.requests_view(tx, load_game(tx, request.scope), player, None)


def server_blocks(request: Request[None, None], tx: ViewsTx) -> api.BlocksResponse:
    return views.blocks_view(tx, get_player(tx, request.scope, request.external_id))


HANDLERS: dict[Route, Handler] = {
    api.FRIEND_CODE: code,
    api.FRIENDS_SEARCH: search,
    api.FRIEND_SEND_REQUEST: send_request,
    api.FRIEND_REQUESTS: requests,
    api.FRIEND_ACCEPT: accept,
    api.FRIEND_DECLINE: decline,
    api.FRIEND_CANCEL: cancel,
    api.FRIENDS_LIST: friends,
    api.FRIEND_REMOVE: remove,
    api.FRIENDS_SUGGESTIONS: suggestions,
    api.FRIEND_BLOCK: block,
    api.FRIEND_BLOCKS: blocks,
    api.FRIEND_UNBLOCK: unblock,
    api.PRESENCE_HEARTBEAT: heartbeat,
    api.SERVER_FRIENDS: server_friends,
    api.SERVER_FRIEND_REQUESTS: server_requests,
    api.SERVER_BLOCKS: server_blocks,
}
