"""Client friends and presence routes (docs/reference/friends-and-presence.md). The caller is
``{externalId}``, authenticated by its player secret; it can act only on its own graph."""

from __future__ import annotations

from livecore.api.views import display_view
from livecore.friends import api, views
from livecore.friends import commands as cmd
from livecore.friends.views import ViewsTx
from livecore.players.commands import get_player, load_game
from livecore.players.rules import Player
from livecore_server.http.endpoint import AnyCall, Binding, Call, Reply, bind


def _me(call: AnyCall) -> Player:
    assert call.player is not None  # player-scoped: authenticated before the handler runs
    return call.player


def friends_view(call: AnyCall, tx: ViewsTx, player: Player, keys: list[str] | None) -> api.FriendsResponse:
    game = load_game(tx, call.scope)
    return views.friends_view(tx, game, player, keys, call.rt.clock.now(), call.services.presence.presence_of)


def requests_view(call: AnyCall, tx: ViewsTx, player: Player, keys: list[str] | None) -> api.RequestsResponse:
    return views.requests_view(tx, load_game(tx, call.scope), player, keys)


def blocks_view(tx: ViewsTx, player: Player) -> api.BlocksResponse:
    return views.blocks_view(tx, player)


def _with_code(tx: ViewsTx, call: AnyCall) -> Player:
    """The friend code is made on the player's first friends call (read routes calling this are bound
    ``may_write``)."""
    return cmd.ensure_friend_code(tx, call.rt, _me(call))


# --- handlers ---------------------------------------------------------------------------------------


def get_code(call: Call[None, api.ProgressionQuery], tx: ViewsTx) -> api.FriendCodeResponse:
    me = _with_code(tx, call)
    assert me.friend_code is not None
    prog = views.progression_for(tx, load_game(tx, call.scope), call.query.progression, [me])
    return api.FriendCodeResponse(
        friend_code=me.friend_code,
        display_identity=display_view(me),
        progression=prog[me.id] if prog else None,
    )


def search(call: Call[None, api.SearchQuery], tx: ViewsTx) -> list[api.SearchHit]:
    me = _with_code(tx, call)
    found = cmd.search(tx, call.scope, me, call.query.q, call.query.limit)
    prog = views.progression_for(
        tx, load_game(tx, call.scope), call.query.progression, [h.player for h in found]
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


def send_request(call: Call[api.FriendTarget, None], tx: ViewsTx) -> api.SendRequestResponse | Reply:
    me = _with_code(tx, call)
    target = cmd.resolve_target(tx, call.scope, call.body.friend_code, call.body.external_player_id)
    game = load_game(tx, call.scope)
    added = cmd.add(tx, call.rt, call.scope, game, me, target)
    if added.accepted:
        friend = tx.players.by_id(target.id)
        assert friend is not None
        row = views.new_friend_row(
            tx, game, me, friend, call.rt.clock.now(), call.services.presence.presence_of
        )
        # A reciprocal add answers 200 (docs/reference/friends-and-presence.md#requests-and-friendships) (the
        # route's declared status is the pending 201).
        return Reply(api.SendRequestResponse(status="accepted", friend=row), 200)
    return api.SendRequestResponse(status="pending", request=views.sent_request_row(tx, added))


def list_requests(call: Call[None, api.ProgressionQuery], tx: ViewsTx) -> api.RequestsResponse:
    return requests_view(call, tx, _with_code(tx, call), call.query.progression)


def accept(call: Call[None, None], tx: ViewsTx) -> api.FriendResponse:
    me = _with_code(tx, call)
    game = load_game(tx, call.scope)
    friend = cmd.accept(tx, call.rt, call.scope, game, me, call.params["requestId"])
    now = call.rt.clock.now()
    return api.FriendResponse(
        friend=views.new_friend_row(tx, game, me, friend, now, call.services.presence.presence_of)
    )


def decline(call: Call[None, None], tx: ViewsTx) -> api.RequestDone:
    request = cmd.decline(tx, call.scope, _with_code(tx, call), call.params["requestId"])
    return api.RequestDone(request_id=request.id, status="declined")


def cancel(call: Call[None, None], tx: ViewsTx) -> api.RequestDone:
    request = cmd.cancel(tx, call.scope, _with_code(tx, call), call.params["requestId"])
    return api.RequestDone(request_id=request.id, status="cancelled")


def list_friends(call: Call[None, api.ProgressionQuery], tx: ViewsTx) -> api.FriendsResponse:
    return friends_view(call, tx, _with_code(tx, call), call.query.progression)


def remove(call: Call[None, None], tx: ViewsTx) -> api.RemovedResponse:
    me = _with_code(tx, call)
    other = get_player(tx, call.scope, call.params["friendExternalId"])
    cmd.remove(tx, call.rt, call.scope, me, other)
    return api.RemovedResponse(removed=True)


def suggestions(call: Call[None, api.SuggestionsQuery], tx: ViewsTx) -> api.SuggestionsResponse:
    me = _with_code(tx, call)
    chosen = cmd.suggestions(tx, call.rt, call.scope, me, call.query.limit)
    game = load_game(tx, call.scope)
    prog = views.progression_for(tx, game, call.query.progression, chosen)
    now, presence_of = call.rt.clock.now(), call.services.presence.presence_of
    return api.SuggestionsResponse(
        suggestions=[views.suggestion_row(game, p, prog, now, presence_of) for p in chosen]
    )


def block(call: Call[api.FriendTarget, None], tx: ViewsTx) -> api.BlockResponse:
    me = _with_code(tx, call)
    target = cmd.resolve_target(tx, call.scope, call.body.friend_code, call.body.external_player_id)
    made = cmd.block(tx, call.rt, call.scope, me, target)
    return api.BlockResponse(block=views.block_row(target, made.created_at))


def list_blocks(call: Call[None, None], tx: ViewsTx) -> api.BlocksResponse:
    return blocks_view(tx, _with_code(tx, call))


def unblock(call: Call[None, None], tx: ViewsTx) -> api.UnblockedResponse:
    me = _with_code(tx, call)
    cmd.unblock(tx, me, get_player(tx, call.scope, call.params["externalPlayerId"]))
    return api.UnblockedResponse(unblocked=True)


BINDINGS: list[Binding] = [
    bind(api.FRIEND_CODE, get_code, may_write=True),
    bind(api.FRIENDS_SEARCH, search, may_write=True),
    bind(api.FRIEND_SEND_REQUEST, send_request),
    bind(api.FRIEND_REQUESTS, list_requests, may_write=True),
    bind(api.FRIEND_ACCEPT, accept),
    bind(api.FRIEND_DECLINE, decline),
    bind(api.FRIEND_CANCEL, cancel),
    bind(api.FRIENDS_LIST, list_friends, may_write=True),
    bind(api.FRIEND_REMOVE, remove),
    bind(api.FRIENDS_SUGGESTIONS, suggestions, may_write=True),
    bind(api.FRIEND_BLOCK, block),
    bind(api.FRIEND_BLOCKS, list_blocks, may_write=True),
    bind(api.FRIEND_UNBLOCK, unblock),
]
