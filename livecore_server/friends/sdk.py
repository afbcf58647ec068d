"""Client friends and presence routes (docs/reference/friends-and-presence.md). The caller is
``{externalId}``, authenticated by its player secret; it can act only on its own graph."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from livecore.api.views import Counterparty, Direction, display_view
from livecore.economy.rules import SYSTEM_ITEMS, progression
from livecore.friends import api
from livecore.friends import commands as cmd
from livecore.friends.rules import check_progression_keys
from livecore.games import Game
from livecore.gifts import commands as gift_cmd
from livecore.gifts.commands import GiftsTx
from livecore.players.commands import get_player, load_game
from livecore.players.rules import Player, PlayerCard
from livecore_server.http.endpoint import AnyCall, Binding, Call, Reply, bind


def _me(call: AnyCall) -> Player:
    assert call.player is not None  # player-scoped: authenticated before the handler runs
    return call.player


def progression_for(
    tx: GiftsTx, game: Game, keys: list[str] | None, players: Sequence[Player | PlayerCard]
) -> dict[str, dict[str, int]] | None:
    """Progression of every row of a page (None when not asked for): the holdings from one query, and the
    activity of the rows' players from another, as a list reads cards without it."""
    wanted = check_progression_keys(keys, set(game.settings.resources) | set(SYSTEM_ITEMS))
    if not wanted:
        return None
    ids = [p.id for p in players]
    held = tx.ledger.balances_of(ids, [k for k in wanted if k not in SYSTEM_ITEMS])
    activities = tx.players.activities(ids)
    return {i: progression(wanted, held.get(i, {}), activities[i]) for i in ids if i in activities}


def friend_row(
    call: AnyCall,
    game: Game,
    card: PlayerCard,
    since: datetime,
    now: datetime,
    prog: dict[str, dict[str, int]] | None,
    cooldowns: dict[str, datetime],
) -> api.FriendRow:
    """A friend row (docs/reference/friends-and-presence.md) as seen at ``now``; ``cooldowns`` (friend id
    -> until) are the viewer's gift cooldowns
    (docs/reference/friends-and-presence.md#gift-cooldown-on-friend-rows)."""
    presence = call.services.presence.presence_of(card)
    return api.FriendRow(
        external_player_id=card.external_id,
        display_identity=display_view(card),
        friends_since=since,
        online=presence.online(now, game.settings.presence.ttl_seconds),
        last_active_at=presence.last_active_at,
        status=presence.status,
        gift_cooldown_until=cooldowns.get(card.id),
        progression=prog.get(card.id) if prog is not None else None,
    )


def new_friend_row(call: AnyCall, tx: GiftsTx, game: Game, me: Player, friend: Player) -> api.FriendRow:
    """The row an accept or a reciprocal add answers: friends since now, cooldown from earlier gifts."""
    now = call.rt.clock.now()
    cooldowns = gift_cmd.cooldowns(tx, game, me, now)
    return friend_row(call, game, PlayerCard.of(friend), now, now, None, cooldowns)


def friends_view(call: AnyCall, tx: GiftsTx, player: Player, keys: list[str] | None) -> api.FriendsResponse:
    game = load_game(tx, call.scope)
    rows = tx.friends.friend_cards(player.id)
    prog = progression_for(tx, game, keys, [c for _, c in rows])
    now = call.rt.clock.now()
    cooldowns = gift_cmd.cooldowns(tx, game, player, now) if rows else {}
    return api.FriendsResponse(
        friends=[friend_row(call, game, card, since, now, prog, cooldowns) for since, card in rows]
    )


def requests_view(call: AnyCall, tx: GiftsTx, player: Player, keys: list[str] | None) -> api.RequestsResponse:
    game = load_game(tx, call.scope)
    rows = tx.friends.list_requests(player.id)
    prog = progression_for(tx, game, keys, [p for _, p in rows])
    incoming: list[api.RequestRow] = []
    outgoing: list[api.RequestRow] = []
    for request, other in rows:
        row = api.RequestRow(
            request_id=request.id,
            direction=Direction.INCOMING if request.to_player_id == player.id else Direction.OUTGOING,
            player=Counterparty(external_player_id=other.external_id, display_identity=display_view(other)),
            created_at=request.created_at,
            progression=prog.get(other.id) if prog is not None else None,
        )
        (incoming if row.direction is Direction.INCOMING else outgoing).append(row)
    return api.RequestsResponse(incoming=incoming, outgoing=outgoing)


def blocks_view(tx: GiftsTx, player: Player) -> api.BlocksResponse:
    return api.BlocksResponse(
        blocks=[
            api.BlockRow(
                external_player_id=p.external_id, display_identity=display_view(p), blocked_at=b.created_at
            )
            for b, p in tx.friends.list_blocks(player.id)
        ]
    )


def _request_row(tx: GiftsTx, caller: Player, added: cmd.Added) -> api.RequestRow:
    assert added.request is not None
    other = tx.players.by_id(added.request.to_player_id)
    assert other is not None
    return api.RequestRow(
        request_id=added.request.id,
        direction=Direction.OUTGOING,
        player=Counterparty(external_player_id=other.external_id, display_identity=display_view(other)),
        created_at=added.request.created_at,
    )


def _with_code(tx: GiftsTx, call: AnyCall) -> Player:
    """The friend code is made on the player's first friends call (read routes calling this are bound
    ``may_write``)."""
    return cmd.ensure_friend_code(tx, call.rt, _me(call))


# --- handlers ---------------------------------------------------------------------------------------


def get_code(call: Call[None, api.ProgressionQuery], tx: GiftsTx) -> api.FriendCodeResponse:
    me = _with_code(tx, call)
    assert me.friend_code is not None
    prog = progression_for(tx, load_game(tx, call.scope), call.query.progression, [me])
    return api.FriendCodeResponse(
        friend_code=me.friend_code,
        display_identity=display_view(me),
        progression=prog[me.id] if prog else None,
    )


def search(call: Call[None, api.SearchQuery], tx: GiftsTx) -> list[api.SearchHit]:
    me = _with_code(tx, call)
    found = cmd.search(tx, call.scope, me, call.query.q, call.query.limit)
    prog = progression_for(tx, load_game(tx, call.scope), call.query.progression, [h.player for h in found])
    return [
        api.SearchHit(
            display_identity=display_view(h.player),
            external_player_id=h.player.external_id,
            relationship=api.RelationshipView(h.relation.value),
            progression=prog.get(h.player.id) if prog is not None else None,
        )
        for h in found
    ]


def send_request(call: Call[api.FriendTarget, None], tx: GiftsTx) -> api.SendRequestResponse | Reply:
    me = _with_code(tx, call)
    target = cmd.resolve_target(tx, call.scope, call.body.friend_code, call.body.external_player_id)
    game = load_game(tx, call.scope)
    added = cmd.add(tx, call.rt, call.scope, game, me, target)
    if added.accepted:
        friend = tx.players.by_id(target.id)
        assert friend is not None
        row = new_friend_row(call, tx, game, me, friend)
        # A reciprocal add answers 200 (docs/reference/friends-and-presence.md#requests-and-friendships) (the
        # route's declared status is the pending 201).
        return Reply(api.SendRequestResponse(status="accepted", friend=row), 200)
    return api.SendRequestResponse(status="pending", request=_request_row(tx, me, added))


def list_requests(call: Call[None, api.ProgressionQuery], tx: GiftsTx) -> api.RequestsResponse:
    return requests_view(call, tx, _with_code(tx, call), call.query.progression)


def accept(call: Call[None, None], tx: GiftsTx) -> api.FriendResponse:
    me = _with_code(tx, call)
    game = load_game(tx, call.scope)
    friend = cmd.accept(tx, call.rt, call.scope, game, me, call.params["requestId"])
    return api.FriendResponse(friend=new_friend_row(call, tx, game, me, friend))


def decline(call: Call[None, None], tx: GiftsTx) -> api.RequestDone:
    request = cmd.decline(tx, call.scope, _with_code(tx, call), call.params["requestId"])
    return api.RequestDone(request_id=request.id, status="declined")


def cancel(call: Call[None, None], tx: GiftsTx) -> api.RequestDone:
    request = cmd.cancel(tx, call.scope, _with_code(tx, call), call.params["requestId"])
    return api.RequestDone(request_id=request.id, status="cancelled")


def list_friends(call: Call[None, api.ProgressionQuery], tx: GiftsTx) -> api.FriendsResponse:
    return friends_view(call, tx, _with_code(tx, call), call.query.progression)


def remove(call: Call[None, None], tx: GiftsTx) -> api.RemovedResponse:
    me = _with_code(tx, call)
    other = get_player(tx, call.scope, call.params["friendExternalId"])
    cmd.remove(tx, call.rt, call.scope, me, other)
    return api.RemovedResponse(removed=True)


def suggestions(call: Call[None, api.SuggestionsQuery], tx: GiftsTx) -> api.SuggestionsResponse:
    me = _with_code(tx, call)
    chosen = cmd.suggestions(tx, call.rt, call.scope, me, call.query.limit)
    game = load_game(tx, call.scope)
    prog = progression_for(tx, game, call.query.progression, chosen)
    return api.SuggestionsResponse(suggestions=[_suggestion_row(call, game, p, prog) for p in chosen])


def _suggestion_row(
    call: AnyCall, game: Game, p: PlayerCard, prog: dict[str, dict[str, int]] | None
) -> api.SuggestionRow:
    presence = call.services.presence.presence_of(p)
    return api.SuggestionRow(
        external_player_id=p.external_id,
        display_identity=display_view(p),
        online=presence.online(call.rt.clock.now(), game.settings.presence.ttl_seconds),
        last_active_at=presence.last_active_at,
        status=presence.status,
        progression=prog.get(p.id) if prog is not None else None,
    )


def block(call: Call[api.FriendTarget, None], tx: GiftsTx) -> api.BlockResponse:
    me = _with_code(tx, call)
    target = cmd.resolve_target(tx, call.scope, call.body.friend_code, call.body.external_player_id)
    made = cmd.block(tx, call.rt, call.scope, me, target)
    return api.BlockResponse(
        block=api.BlockRow(
            external_player_id=target.external_id,
            display_identity=display_view(target),
            blocked_at=made.created_at,
        )
    )


def list_blocks(call: Call[None, None], tx: GiftsTx) -> api.BlocksResponse:
    return blocks_view(tx, _with_code(tx, call))


def unblock(call: Call[None, None], tx: GiftsTx) -> api.UnblockedResponse:
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
