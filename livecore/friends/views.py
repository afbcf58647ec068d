"""The friends lists as the API answers them, read from the store: the server's routes and an embedded
simulation answer the same rows. Presence comes from the caller (``presence_of``, the runtime's
:attr:`~livecore.commands.Runtime.presence_of`): the server's presence board holds heartbeats newer than
the stored row, an embedded store has only the row.

An area that builds on friends adds fields of its own to the friend rows (the gifts' cooldown) and fills
them, declared with :func:`row_part`, so friends name no such area."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

import attrs

from livecore.api.parts import WIRE_PART, Part
from livecore.api.views import Counterparty, Direction
from livecore.contributions import Contribution, Point, served
from livecore.economy.rules import SYSTEM_ITEMS, progression
from livecore.economy.store import HasLedger
from livecore.friends import api
from livecore.friends import commands as cmd
from livecore.friends.commands import FriendsTx
from livecore.friends.rules import check_progression_keys
from livecore.friends.settings import PRESENCE_SETTINGS
from livecore.games import Game
from livecore.parts import PartKey
from livecore.players.presence import PresenceOf
from livecore.players.rules import Player, PlayerCard
from livecore.players.views import display_view
from livecore.store.games import HasGames


class ViewsTx(FriendsTx, HasGames, HasLedger, Protocol):
    """The ports these views read (and the fields added to a friend row, :func:`row_part`)."""


#: What an area adds to the friend rows a player reads, ``(tx, game, player, now) -> {friend's id: part}``
#: (the record of its :class:`livecore.api.parts.PartKey`), in one read for them all; a friend it has
#: nothing for is left out.
RowFields = Callable[[Any, Game, Player, datetime], Mapping[str, Any]]


@attrs.frozen
class RowPart:
    key: PartKey[Any]
    fields: RowFields


ROW_PARTS: Point[RowPart] = Point("friends.row")


def row_part(key: PartKey[Any], fields: RowFields) -> tuple[Contribution[Any], ...]:
    """What an area declares to add ``key``'s part to the friend rows, filled by ``fields``: its fields on
    the wire (:data:`livecore.api.parts.WIRE_PART`), after those of the areas before it."""
    return (WIRE_PART(Part(api.FriendRow, key)), ROW_PARTS(RowPart(key, fields)))


def _row_fields(tx: ViewsTx, game: Game, player: Player, now: datetime) -> dict[str, dict[PartKey[Any], Any]]:
    merged: dict[str, dict[PartKey[Any], Any]] = {}
    for part in served().of(ROW_PARTS):
        key = part.key
        for friend_id, part_value in part.fields(tx, game, player, now).items():
            merged.setdefault(friend_id, {})[key] = part_value
    return merged


def progression_for(
    tx: ViewsTx, game: Game, keys: list[str] | None, players: Sequence[Player | PlayerCard]
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
    game: Game,
    card: PlayerCard,
    since: datetime,
    now: datetime,
    prog: dict[str, dict[str, int]] | None,
    added: Mapping[str, Mapping[PartKey[Any], Any]],
    presence_of: PresenceOf,
) -> api.FriendRow:
    """A friend row (docs/reference/friends-and-presence.md) as seen at ``now``; ``added`` (friend id ->
    parts) are the parts the areas building on friends fill for the viewer (:func:`row_part`)."""
    presence = presence_of(card)
    return api.FriendRow(
        external_player_id=card.external_id,
        display_identity=display_view(card),
        friends_since=since,
        online=presence.online(now, game.settings.of(PRESENCE_SETTINGS).ttl_seconds),
        last_active_at=presence.last_active_at,
        status=presence.status,
        parts=dict(added.get(card.id, {})),
        progression=prog.get(card.id) if prog is not None else None,
    )


def new_friend_row(
    tx: ViewsTx, game: Game, me: Player, friend: Player, now: datetime, presence_of: PresenceOf
) -> api.FriendRow:
    """The row an accept or a reciprocal add answers: friends since now, with the fields the areas add
    (a cooldown from earlier gifts)."""
    added = _row_fields(tx, game, me, now)
    return friend_row(game, PlayerCard.of(friend), now, now, None, added, presence_of)


def friends_view(
    tx: ViewsTx, game: Game, player: Player, keys: list[str] | None, now: datetime, presence_of: PresenceOf
) -> api.FriendsResponse:
    rows = tx.friends.friend_cards(player.id)
    prog = progression_for(tx, game, keys, [c for _, c in rows])
    added = _row_fields(tx, game, player, now) if rows else {}
    return api.FriendsResponse(
        friends=[friend_row(game, card, since, now, prog, added, presence_of) for since, card in rows]
    )


def requests_view(tx: ViewsTx, game: Game, player: Player, keys: list[str] | None) -> api.RequestsResponse:
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


def blocks_view(tx: ViewsTx, player: Player) -> api.BlocksResponse:
    return api.BlocksResponse(
        blocks=[
            api.BlockRow(
                external_player_id=p.external_id, display_identity=display_view(p), blocked_at=b.created_at
            )
            for b, p in tx.friends.list_blocks(player.id)
        ]
    )


def sent_request_row(tx: ViewsTx, added: cmd.Added) -> api.RequestRow:
    """The pending request an add answers."""
    assert added.request is not None
    other = tx.players.by_id(added.request.to_player_id)
    assert other is not None
    return api.RequestRow(
        request_id=added.request.id,
        direction=Direction.OUTGOING,
        player=Counterparty(external_player_id=other.external_id, display_identity=display_view(other)),
        created_at=added.request.created_at,
    )


def block_row(target: Player, blocked_at: datetime) -> api.BlockRow:
    return api.BlockRow(
        external_player_id=target.external_id, display_identity=display_view(target), blocked_at=blocked_at
    )


def suggestion_row(
    game: Game, p: PlayerCard, prog: dict[str, dict[str, int]] | None, now: datetime, presence_of: PresenceOf
) -> api.SuggestionRow:
    presence = presence_of(p)
    return api.SuggestionRow(
        external_player_id=p.external_id,
        display_identity=display_view(p),
        online=presence.online(now, game.settings.of(PRESENCE_SETTINGS).ttl_seconds),
        last_active_at=presence.last_active_at,
        status=presence.status,
        progression=prog.get(p.id) if prog is not None else None,
    )
