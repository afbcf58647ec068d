"""Player commands: first contact, register, identity, player authentication, heartbeats, the streak
sweep."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

import attrs

from livecore.commands import Runtime, emit
from livecore.errors import NOT_FOUND, LivecoreError
from livecore.games import Game
from livecore.ids import new_id, new_secret
from livecore.limits import FREE_FORM, ID
from livecore.platforms import ClientBuild
from livecore.players.errors import PLAYER_NOT_FOUND, PLAYER_SECRET_INVALID
from livecore.players.identity import (
    DEFAULT_POOL,
    Identity,
    normalize_avatar,
    normalize_country,
    normalize_name,
    resolve_country,
)
from livecore.players.presence import Presence
from livecore.players.presence import heartbeat as heartbeat_presence
from livecore.players.rules import (
    PLAYER_ID_PREFIX,
    SECRET_PREFIX_LEN,
    Activity,
    Lifecycle,
    Player,
    check_register,
    is_durable,
    record_activity,
    streak_cutoff,
)
from livecore.players.store import HasPlayers
from livecore.players.webhooks import PlayerRegistered, PlayerSecretRotated, PlayerSecretSet
from livecore.scope import Scope
from livecore.store.games import HasGames
from livecore.store.outbox import HasOutbox


class PlayersTx(HasGames, HasPlayers, HasOutbox, Protocol):
    """The ports these commands use."""


PLAYER_SECRET_PREFIX = "ps_"


def load_game(tx: HasGames, scope: Scope) -> Game:
    game = tx.games.get(scope.game_id)
    if game is None:  # a key always names an existing game; this is a broken invariant
        raise LivecoreError(NOT_FOUND, "Game not found.")
    return game


def find_player(tx: HasPlayers, scope: Scope, external_id: str) -> Player | None:
    """The player as this scope sees it: a player of the other environment does not exist here, nor
    does the retired row a merge or an erasure leaves under its placeholder id."""
    return _seen(tx.players.get(scope.game_id, external_id), scope)


def _seen(row: Player | None, scope: Scope) -> Player | None:
    """``row`` when ``scope`` sees it (:func:`find_player`)."""
    if row is None or row.env is not scope.env or row.lifecycle is not Lifecycle.ACTIVE:
        return None
    return row


def other_env_holds(tx: HasPlayers, scope: Scope, external_id: str) -> bool:
    player = tx.players.get(scope.game_id, external_id)
    return player is not None and player.env is not scope.env


def find_record(tx: HasPlayers, scope: Scope, external_id: str) -> Player | None:
    """Like :func:`find_player`, but a retired row is found by its placeholder id too: the server's
    record reads (profile, export, spend, purchases, gift history) show what a merge or erasure kept."""
    player = tx.players.get(scope.game_id, external_id)
    return player if player is not None and player.env is scope.env else None


def get_player(tx: HasPlayers, scope: Scope, external_id: str, *, retired: bool = False) -> Player:
    """The player, else 404; ``retired=True`` for the record reads of :func:`find_record`."""
    player = (find_record if retired else find_player)(tx, scope, external_id)
    if player is None:
        raise LivecoreError(PLAYER_NOT_FOUND, "Player not found.", {"externalPlayerId": external_id})
    return player


def first_contact(
    tx: PlayersTx,
    rt: Runtime,
    scope: Scope,
    external_id: str,
    *,
    context: dict[str, Any] | None = None,
    country: str | None = None,
    announce: bool = True,
    first_seen_at: datetime | None = None,
    display: Identity | None = None,
) -> Player:
    """Get the player, creating it (and firing ``player.registered`` unless ``announce`` is off, as for a
    migration) on first contact."""
    row = tx.players.get(scope.game_id, external_id)
    seen = _seen(row, scope)
    if seen is not None:
        return seen
    player = _newcomer(tx, rt, scope, external_id, row, context, country, first_seen_at, display)
    tx.players.insert(player)
    if announce:
        _announce(tx, rt, scope, player)
    return player


def _newcomer(
    tx: PlayersTx,
    rt: Runtime,
    scope: Scope,
    external_id: str,
    row: Player | None,
    context: dict[str, Any] | None,
    country: str | None,
    first_seen_at: datetime | None = None,
    display: Identity | None = None,
) -> Player:
    """The new player of a first contact whose row this scope does not see, read as ``row``: not stored
    yet. 404 when the id is taken by a row this scope cannot see: the other environment's, or a retired
    placeholder."""
    if row is not None:
        raise LivecoreError(PLAYER_NOT_FOUND, "Player not found.", {"externalPlayerId": external_id})
    ID.check(external_id, "externalPlayerId")
    game = load_game(tx, scope)
    now = rt.clock.now()
    anonymized = DEFAULT_POOL.compose(game.id, external_id)
    return Player(
        id=new_id(PLAYER_ID_PREFIX, now, rt.rng),
        game_id=scope.game_id,
        env=scope.env,
        external_id=external_id,
        first_seen_at=first_seen_at or now,
        last_seen_at=now,
        anonymized=attrs.evolve(anonymized, country=normalize_country(country)),
        display=display,
        resolved_country=normalize_country(country),
        context=dict(context or {}),
    )


def _announce(tx: PlayersTx, rt: Runtime, scope: Scope, player: Player) -> None:
    emit(
        tx,
        rt,
        scope,
        PlayerRegistered(
            player_id=player.id,
            external_player_id=player.external_id,
            first_seen_at=player.first_seen_at,
            context_snapshot=player.context,
        ),
    )


@attrs.frozen
class Registered:
    player: Player
    secret: str
    created: bool


def register(
    tx: PlayersTx,
    rt: Runtime,
    scope: Scope,
    external_id: str,
    *,
    force: bool = False,
    context: dict[str, Any] | None = None,
    country: str | None = None,
    build: ClientBuild | None = None,
) -> Registered:
    """Mint the player secret (docs/reference/players-and-identity.md#register-and-the-player-secret).
    ``country`` is the geo one; ``playerContext.country`` wins over it (``identity.resolve_country``).
    ``build``: the platform and app version the request reported, kept with the rest of the row."""
    row = tx.players.get(scope.game_id, external_id)
    existing = _seen(row, scope)
    check_register(existing, force=force, env=scope.env)
    FREE_FORM.check(context, "playerContext")
    if rt.checks.active:
        rt.checks.hook.before_register(tx=tx, rt=rt, scope=scope, external_id=external_id, existing=existing)
    resolved_country = resolve_country(context, country)
    if existing is None:
        newcomer = _newcomer(tx, rt, scope, external_id, row, context, resolved_country)
        player, secret, change = _with_new_secret(
            rt, newcomer, country=resolved_country, context=context, build=build
        )
        # Stored with its secret already set: one write where an insert and an update were, on the
        # request games make first.
        tx.players.insert(player)
        _announce(tx, rt, scope, player)
    else:
        player, secret, change = _with_new_secret(
            rt, existing, country=resolved_country, context=context, build=build
        )
        tx.players.update(player)
    emit(tx, rt, scope, change)
    if rt.checks.active:
        rt.checks.hook.after_register(tx=tx, rt=rt, scope=scope, player=player, created=existing is None)
    return Registered(player=player, secret=secret, created=existing is None)


def _with_new_secret(
    rt: Runtime,
    player: Player,
    *,
    via: str | None = None,
    country: str | None = None,
    context: dict[str, Any] | None = None,
    build: ClientBuild | None = None,
) -> tuple[Player, str, PlayerSecretSet | PlayerSecretRotated]:
    """``player`` with a new secret (the old one stops working), kept hashed, and the event that says so:
    ``player.secret_set`` the first time, ``player.secret_rotated`` after. ``via`` defaults to
    ``sdk_register``, ``force_rotate`` for a registered player."""
    now = rt.clock.now()
    secret = new_secret(rt.rng, prefix=PLAYER_SECRET_PREFIX)
    rotating = player.registered
    player = attrs.evolve(
        player,
        secret_hash=rt.hasher.hash(secret),
        secret_prefix=secret[:SECRET_PREFIX_LEN],
        registered_at=player.registered_at or now,
        secret_rotated_at=now if rotating else None,
        resolved_country=country or player.resolved_country,
        context=dict(context) if context else player.context,
        last_seen_at=now,
        activity=record_activity(player.activity, now),
        build=player.build if build is None else player.build.reported(build),
    )
    secret_change = PlayerSecretRotated if rotating else PlayerSecretSet
    change = secret_change(
        player_id=player.id,
        external_player_id=player.external_id,
        secret_prefix=secret[:SECRET_PREFIX_LEN],
        registered_at=player.registered_at or now,
        secret_rotated_at=now if rotating else None,
        via=via or ("force_rotate" if rotating else "sdk_register"),
    )
    return player, secret, change


#: ``via`` of ``player.secret_rotated`` when an operator rotates the secret.
ADMIN_ROTATE = "admin_rotate"


def rotate_secret(tx: PlayersTx, rt: Runtime, scope: Scope, external_id: str) -> Registered:
    """An operator replaces the player's secret (how a player who lost it recovers): the old one stops
    working, and ``player.secret_rotated`` fires with ``via: "admin_rotate"``. A player never registered
    gets its first secret (``player.secret_set``, same ``via``). 404 ``player_not_found`` for an unknown
    player."""
    player, secret, change = _with_new_secret(rt, get_player(tx, scope, external_id), via=ADMIN_ROTATE)
    tx.players.update(player)
    emit(tx, rt, scope, change)
    return Registered(player=player, secret=secret, created=False)


def authenticate(tx: PlayersTx, rt: Runtime, scope: Scope, external_id: str, secret: str | None) -> Player:
    """docs/reference/conventions.md#surfaces-and-credentials: the player secret must match ``{externalId}``;
    404 for an unknown player is not given here, so a wrong secret and an unknown player look the same to a
    caller without the secret."""
    player = find_player(tx, scope, external_id)
    if player is None and other_env_holds(tx, scope, external_id):
        raise LivecoreError(PLAYER_NOT_FOUND, "Player not found.", {"externalPlayerId": external_id})
    if player is None or secret is None or not rt.hasher.verify(secret, player.secret_hash):
        raise LivecoreError(
            PLAYER_SECRET_INVALID, "The player secret is missing or does not match this player."
        )
    return player


def set_identity(
    tx: PlayersTx,
    rt: Runtime,
    player: Player,
    *,
    name: str,
    avatar: str | None,
    by_player: bool,
) -> Player:
    """Set the display identity; the anonymized identity is never touched
    (docs/reference/players-and-identity.md#identity). ``by_player``: the player sets its own
    (:func:`set_own_identity`), else the studio's backend does."""
    if by_player:
        return set_own_identity(tx, rt, player, name=name, avatar=avatar)
    return _with_identity(tx, rt, player, name, avatar, by_player=False)


def set_own_identity(tx: PlayersTx, rt: Runtime, player: Player, *, name: str, avatar: str | None) -> Player:
    """The player sets its own display identity: a player write, counted as activity."""
    return _with_identity(tx, rt, player, name, avatar, by_player=True)


def _with_identity(
    tx: PlayersTx, rt: Runtime, player: Player, name: str, avatar: str | None, *, by_player: bool
) -> Player:
    now = rt.clock.now()
    display = Identity(name=normalize_name(name), avatar=normalize_avatar(avatar), country=player.country)
    updated = attrs.evolve(player, display=display, last_seen_at=now)
    if by_player:
        updated = attrs.evolve(updated, activity=record_activity(player.activity, now))
    tx.players.update(updated)
    return updated


@attrs.frozen
class Heartbeat:
    """What a heartbeat does: the presence it reports and the player's activity after it.
    ``durable``: it opened a session or started a streak day, facts written at once; otherwise only the
    last-active time moved, which a caller keeping presence itself may write later."""

    presence: Presence
    activity: Activity
    durable: bool


def beat(player: Player, status: str | None, now: datetime, *, activity: Activity | None = None) -> Heartbeat:
    """The rule of a heartbeat, deciding without the store. ``activity``: the player's activity as the
    caller knows it, when it keeps later last-active times than the row (the server's presence board)."""
    presence = heartbeat_presence(status, now)
    before = player.activity if activity is None else activity
    after = record_activity(before, now)
    return Heartbeat(presence, after, durable=is_durable(before, after))


def heartbeat(
    tx: PlayersTx,
    rt: Runtime,
    player: Player,
    status: str | None,
    *,
    activity: Activity | None = None,
    keeps_presence: bool = False,
) -> tuple[Player, Heartbeat]:
    """The heartbeat command: :func:`beat`, and the player written with its presence, activity and
    last-seen time. ``keeps_presence``: the caller keeps presence and last-active times itself (the
    server's presence board), so the player is written only when the beat is durable. Returns the
    player as stored after the beat."""
    now = rt.clock.now()
    done = beat(player, status, now, activity=activity)
    if keeps_presence and not done.durable:
        return player, done
    updated = attrs.evolve(player, activity=done.activity, presence=done.presence, last_seen_at=now)
    tx.players.update(updated)
    return updated, done


def sweep_streaks(tx: PlayersTx, rt: Runtime) -> int:
    """The hourly streak sweep
    (docs/reference/players-and-identity.md#sessions-login-streak-and-system-items)."""
    return tx.players.reset_missed_streaks(streak_cutoff(rt.clock.now()))
