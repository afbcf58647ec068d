"""Guild commands (docs/guilds.md; rules: ``livecore.guilds.rules``): the player's surface (found, search,
join
openly or by request, leave, edit, answer requests, kick, promote, demote, hand on the leadership, ask for
help and donate), the studio's moderation, the hourly succession sweep, and what a merge or an erasure
does to a membership.

Each is one transaction in its game's write queue: a change applies whole, with its webhook events, or
not at all. The store's unique keys back the rules that races could break: one guild not disbanded per
name, one current stint per player; the member count is read and written in the same transaction.

Every change names its actor (``By``): the player on the client routes, the API key on the server
routes, the system for the sweep. Guild webhooks fire in the guild's environment: the scope's, since a
guild is found only in its own environment (the sweep takes each guild's).
"""

from __future__ import annotations

from typing import Protocol

import attrs

from livecore.commands import Runtime, emit
from livecore.economy.commands import change
from livecore.economy.errors import INSUFFICIENT_BALANCE, INSUFFICIENT_QUANTITY
from livecore.economy.rules import Reason, is_platform_managed, resource
from livecore.errors import LivecoreError
from livecore.games import Economy, Entry, Game, ResourceType
from livecore.grants.commands import GrantsTx, issue_grant
from livecore.grants.rules import GrantKind
from livecore.guilds.errors import (
    ALREADY_IN_GUILD,
    GUILD_MEMBER_NOT_FOUND,
    GUILD_NOT_FOUND,
    GUILDS_DISABLED,
    NOT_IN_GUILD,
)
from livecore.guilds.rules import (
    DEFAULT_PAGE_LIMIT,
    PAGE_LIMIT,
    SEARCH_TEXT,
    SYSTEM_BY,
    Action,
    By,
    DisbandReason,
    Donation,
    Guild,
    HelpRequest,
    JoinRequest,
    JoinType,
    JoinVia,
    LeftReason,
    Profile,
    RequestStatus,
    Role,
    RoleReason,
    RoleTrigger,
    Stint,
    check_alive,
    check_donation,
    check_filter,
    check_help_request,
    check_join,
    check_may,
    check_member_action,
    check_name_free,
    check_seat,
    closed,
    donated,
    edited,
    ended,
    inactive_since,
    inactive_successor,
    join_request_not_found,
    name_key,
    new_donation,
    new_guild,
    new_help_request,
    new_join_request,
    new_stint,
    next_role,
    resolved,
    successor,
)
from livecore.guilds.settings import GUILD_SETTINGS, GuildSettings
from livecore.guilds.store import HasGuildHelp, HasGuilds
from livecore.guilds.webhooks import (
    GuildCreated,
    GuildDisbanded,
    GuildHelpDonated,
    GuildHelpRequested,
    GuildJoinRequested,
    GuildMemberJoined,
    GuildMemberLeft,
    GuildRoleChanged,
    GuildUpdated,
)
from livecore.ids import new_uuid
from livecore.limits import ID, OFFSET
from livecore.players.commands import get_player, load_game
from livecore.players.rules import Player
from livecore.scope import Scope

HELP_SOURCE_KIND = "guild_help"
HELP_REWARD_SOURCE_KIND = "guild_help_reward"
SWEEP_BATCH = 200  # inactive leaders handed on per transaction of the hourly sweep
#: The ledger reasons of a guild's debits: what creating one costs, and a donation to a help request.
GUILD_CREATE_COST = Reason.own("guild_create_cost")
GUILD_HELP_DONATION = Reason.own("guild_help_donation")


class GuildsTx(GrantsTx, HasGuilds, HasGuildHelp, Protocol):
    """The ports these commands use."""


@attrs.frozen
class GuildRead:
    """A guild with its current members (joining order) and their players."""

    guild: Guild
    members: list[Stint]
    players: dict[str, Player]


@attrs.frozen
class OwnGuild:
    """The caller's guild and its role in it."""

    read: GuildRead
    role: Role


@attrs.frozen
class GuildDetail:
    """The studio's view: the guild read, its pending join requests and every stint (its history)."""

    read: GuildRead
    pending_requests: list[JoinRequest]
    history: list[Stint]


@attrs.frozen
class PlayerStint:
    stint: Stint
    guild_name: str


@attrs.frozen
class PlayerGuild:
    """A player's current guild (None when in none) and every stint, newest first."""

    guild: Guild | None
    stints: list[PlayerStint]


@attrs.frozen
class GuildPage:
    guilds: list[Guild]
    next_offset: int | None


@attrs.frozen
class Donated:
    donation: Donation
    request: HelpRequest


def charged_by(game: Game) -> str:
    """``costsChargedBy``: ``platform`` when the service debited the cost, ``studio`` when the studio must."""
    return "platform" if game.settings.economy is Economy.PLATFORM else "studio"


def guild_settings(game: Game) -> GuildSettings:
    """The game's guild settings; every guild route of a game with guilds off is 403 ``guilds_disabled``."""
    settings = game.settings.of(GUILD_SETTINGS)
    if not settings.enabled:
        raise LivecoreError(GUILDS_DISABLED, "Guilds are off in this game.")
    return settings


def _enabled_game(tx: GuildsTx, scope: Scope) -> tuple[Game, GuildSettings]:
    game = load_game(tx, scope)
    return game, guild_settings(game)


def _guild_not_found(guild_id: str) -> LivecoreError:
    return LivecoreError(GUILD_NOT_FOUND, "Guild not found.", {"guildId": guild_id})


def find_guild(tx: GuildsTx, scope: Scope, guild_id: str) -> Guild:
    """The guild as this scope sees it (a guild of another environment does not exist here), else 404."""
    guild = tx.guilds.get(scope.game_id, guild_id)
    if guild is None or guild.env is not scope.env:
        raise _guild_not_found(guild_id)
    return guild


def _read(tx: GuildsTx, guild: Guild) -> GuildRead:
    members = tx.guilds.members(guild.id)
    players = {}
    for member in members:
        player = tx.players.by_id(member.player_id)
        assert player is not None  # a member's player row is never deleted (erasure ends the stint first)
        players[member.player_id] = player
    return GuildRead(guild, members, players)


def _detail(tx: GuildsTx, guild: Guild) -> GuildDetail:
    return GuildDetail(_read(tx, guild), tx.guilds.pending_requests(guild.id), tx.guilds.history(guild.id))


def _own(tx: GuildsTx, player: Player) -> tuple[Guild, Stint]:
    """The caller's guild and stint; a ``{G}`` route for a player in no guild is 404 ``not_in_guild``."""
    stint = tx.guilds.current_stint(player.id)
    if stint is None:
        raise LivecoreError(NOT_IN_GUILD, "You are not in a guild.")
    guild = tx.guilds.get(player.game_id, stint.guild_id)
    assert guild is not None  # a current stint's guild lives
    return guild, stint


def _own_read(tx: GuildsTx, player: Player) -> OwnGuild:
    guild, stint = _own(tx, player)
    return OwnGuild(_read(tx, guild), stint.role)


# --- the membership moves every route shares ------------------------------------------------------------


def _admit(tx: GuildsTx, rt: Runtime, scope: Scope, guild: Guild, stint: Stint) -> Guild:
    """Seat ``stint``'s player (``guild.member_joined``); its pending join requests are cancelled."""
    for request in tx.guilds.pending_of(stint.player_id):
        tx.guilds.update_request(resolved(request, RequestStatus.CANCELLED, stint.joined_at))
    tx.guilds.put_stint(stint)
    guild = attrs.evolve(guild, member_count=guild.member_count + 1)
    tx.guilds.update(guild)
    emit(tx, rt, scope, GuildMemberJoined.of(guild, stint, stint.joined_by))
    return guild


def _seat(
    tx: GuildsTx, rt: Runtime, scope: Scope, guild: Guild, player: Player, role: Role, via: JoinVia, by: By
) -> Guild:
    return _admit(tx, rt, scope, guild, new_stint(guild, player, role, via, by, rt.clock.now(), rt.rng))


def _change_role(
    tx: GuildsTx,
    rt: Runtime,
    scope: Scope,
    guild: Guild,
    stint: Stint,
    trigger: RoleTrigger,
    reason: RoleReason,
    by: By,
) -> Stint:
    moved = attrs.evolve(stint, role=next_role(stint.role, trigger))
    tx.guilds.put_stint(moved)
    emit(tx, rt, scope, GuildRoleChanged.of(guild, moved, stint.role, reason, by, rt.clock.now()))
    return moved


def _disband(tx: GuildsTx, rt: Runtime, scope: Scope, guild: Guild, reason: DisbandReason, by: By) -> Guild:
    now = rt.clock.now()
    for request in tx.guilds.pending_requests(guild.id):
        tx.guilds.update_request(resolved(request, RequestStatus.CANCELLED, now))
    guild = attrs.evolve(guild, disbanded_at=now, disband_reason=reason)
    tx.guilds.update(guild)
    emit(tx, rt, scope, GuildDisbanded.of(guild, by))
    return guild


def _depart(
    tx: GuildsTx,
    rt: Runtime,
    scope: Scope,
    guild: Guild,
    stint: Stint,
    reason: LeftReason,
    by: By,
    *,
    settle: bool = True,
) -> Guild:
    """``stint``'s member leaves (``guild.member_left``) and its open help request closes. Then, with
    ``settle``, a leader hands on to its successor (``succession_leader_left``) and the last member's going
    disbands the guild (``last_member_left``); without it (a disband, or a merge whose target takes the
    seat) the caller says what follows."""
    now = rt.clock.now()
    left = ended(stint, reason, by, now)
    tx.guilds.put_stint(left)
    guild = attrs.evolve(guild, member_count=guild.member_count - 1)
    tx.guilds.update(guild)
    help_ = tx.guild_help.open_help_of(stint.player_id)
    if help_ is not None:
        tx.guild_help.update_help(closed(help_, now))
    emit(tx, rt, scope, GuildMemberLeft.of(guild, left, by))
    if not settle:
        return guild
    if stint.role is Role.LEADER:
        heir = successor(tx.guilds.members(guild.id), leaving=stint.id)
        if heir is not None:
            reason_ = RoleReason.SUCCESSION_LEADER_LEFT
            _change_role(tx, rt, scope, guild, heir, RoleTrigger.TAKE_LEADERSHIP, reason_, by)
    if guild.member_count == 0:
        guild = _disband(tx, rt, scope, guild, DisbandReason.LAST_MEMBER_LEFT, by)
    return guild


def _hand_over(
    tx: GuildsTx,
    rt: Runtime,
    scope: Scope,
    guild: Guild,
    leader: Stint,
    heir: Stint,
    reason: RoleReason,
    by: By,
) -> None:
    """The leadership passes from ``leader`` to ``heir``; the old leader stays as co-leader."""
    _change_role(tx, rt, scope, guild, heir, RoleTrigger.TAKE_LEADERSHIP, reason, by)
    _change_role(tx, rt, scope, guild, leader, RoleTrigger.HAND_OVER, reason, by)


def _debit(
    tx: GuildsTx,
    rt: Runtime,
    scope: Scope,
    game: Game,
    player: Player,
    entry: Entry,
    reason: Reason,
    ref: str,
) -> None:
    """Take ``entry`` from ``player`` (platform games only); short of it: 409 ``insufficient_balance``,
    for items too (the guild routes name one code for both)."""
    try:
        change(
            tx,
            rt,
            scope,
            game,
            player,
            resource(game, entry.key, entry.type),
            -entry.amount,
            reason,
            source_ref_id=ref,
        )
    except LivecoreError as exc:
        if exc.code is not INSUFFICIENT_QUANTITY:
            raise
        raise LivecoreError(INSUFFICIENT_BALANCE, exc.message, exc.details) from None


# --- the player's surface ---------------------------------------------------------------------------------


def _check_profile_name(tx: GuildsTx, scope: Scope, profile: Profile, guild_id: str | None) -> None:
    if isinstance(profile.name, str):
        check_name_free(tx.guilds.by_name(scope.game_id, scope.env, name_key(profile.name)), guild_id)


def create(tx: GuildsTx, rt: Runtime, scope: Scope, player: Player, profile: Profile) -> OwnGuild:
    """Found a guild (``guild.created``, then ``guild.member_joined`` via ``created``): the founder leads
    it. Refusals in order: guilds off 403; a bad field 400; a filtered name 400 ``guild_name_rejected``; the
    founder in a guild 409 ``already_in_guild``; the name taken 409; the cost unpaid 409
    ``insufficient_balance`` (platform games; studio games charge nothing and say so)."""
    game, settings = _enabled_game(tx, scope)
    profile = profile.checked()
    assert isinstance(profile.name, str)
    check_filter(profile.name, settings.name_filter)
    if tx.guilds.current_stint(player.id) is not None:
        raise LivecoreError(ALREADY_IN_GUILD, "You are already in a guild.")
    _check_profile_name(tx, scope, profile, None)
    now = rt.clock.now()
    guild = new_guild(game.id, scope.env, profile, now, rt.rng)
    tx.guilds.insert(guild)
    if is_platform_managed(game):
        for entry in settings.create_cost:
            _debit(tx, rt, scope, game, player, entry, GUILD_CREATE_COST, guild.id)
    by = By.player(player)
    leader = new_stint(guild, player, Role.LEADER, JoinVia.CREATED, by, now, rt.rng)
    emit(tx, rt, scope, GuildCreated.of(guild, leader, settings.create_cost, charged_by(game), by))
    _admit(tx, rt, scope, guild, leader)
    return _own_read(tx, player)


def _page(text: str | None, limit: int | None, offset: int | None) -> tuple[int, int]:
    SEARCH_TEXT.check_optional(text, "q")
    limit = DEFAULT_PAGE_LIMIT if limit is None else PAGE_LIMIT.check(limit, "limit")
    offset = 0 if offset is None else OFFSET.check(offset, "offset")
    return limit, offset


def search(
    tx: GuildsTx, scope: Scope, text: str | None, limit: int | None = None, offset: int | None = None
) -> list[Guild]:
    """The client's search: guilds not disbanded whose name contains ``text`` (compared by fold), newest
    first."""
    _enabled_game(tx, scope)
    limit, offset = _page(text, limit, offset)
    return tx.guilds.search(
        scope.game_id,
        scope.env,
        text=text or None,
        player_id=None,
        include_disbanded=False,
        limit=limit,
        offset=offset,
    )


def read_guild(tx: GuildsTx, scope: Scope, guild_id: str) -> GuildRead:
    """One guild with its members (a disbanded guild stays readable, with none)."""
    _enabled_game(tx, scope)
    return _read(tx, find_guild(tx, scope, guild_id))


def my_guild(tx: GuildsTx, scope: Scope, player: Player) -> OwnGuild | None:
    _enabled_game(tx, scope)
    stint = tx.guilds.current_stint(player.id)
    return None if stint is None else _own_read(tx, player)


@attrs.frozen
class Joined:
    """A join's outcome: a seat in an open guild, or a join request to a request-only one."""

    own: OwnGuild | None = None
    request: JoinRequest | None = None


def join(
    tx: GuildsTx, rt: Runtime, scope: Scope, player: Player, guild_id: str, message: str | None = None
) -> Joined:
    """Join an open guild at once (``guild.member_joined`` via ``open``), or ask to join a request-only one
    (``guild.join_requested``); refusals: :func:`livecore.guilds.rules.check_join`."""
    _, settings = _enabled_game(tx, scope)
    guild = find_guild(tx, scope, guild_id)
    pending = any(r.guild_id == guild.id for r in tx.guilds.pending_of(player.id))
    check_join(
        guild, settings, in_a_guild=tx.guilds.current_stint(player.id) is not None, request_pending=pending
    )
    if rt.checks.active:
        rt.checks.hook.before_join_guild(tx=tx, rt=rt, scope=scope, player=player, guild=guild)
    by = By.player(player)
    if guild.join_type is JoinType.OPEN:
        _seat(tx, rt, scope, guild, player, Role.MEMBER, JoinVia.OPEN, by)
        joined = Joined(own=_own_read(tx, player))
    else:
        request = new_join_request(guild, player, message, rt.clock.now(), rt.rng)
        tx.guilds.insert_request(request)
        emit(tx, rt, scope, GuildJoinRequested.of(guild, request, by))
        joined = Joined(request=request)
    if rt.checks.active:
        rt.checks.hook.after_join_guild(tx=tx, rt=rt, scope=scope, player=player, guild=guild, joined=joined)
    return joined


def cancel_join_request(tx: GuildsTx, rt: Runtime, scope: Scope, player: Player, guild_id: str) -> None:
    """Withdraw the player's pending request to the guild (no webhook); none: 404
    ``join_request_not_found``."""
    _enabled_game(tx, scope)
    guild = find_guild(tx, scope, guild_id)
    pending = [r for r in tx.guilds.pending_of(player.id) if r.guild_id == guild.id]
    if not pending:
        raise join_request_not_found(guild_id=guild.id)
    for request in pending:
        tx.guilds.update_request(resolved(request, RequestStatus.CANCELLED, rt.clock.now()))


def leave(tx: GuildsTx, rt: Runtime, scope: Scope, player: Player) -> None:
    """The player leaves its guild (``left``); a leader hands on, the last member disbands it."""
    _enabled_game(tx, scope)
    guild, stint = _own(tx, player)
    _depart(tx, rt, scope, guild, stint, LeftReason.LEFT, By.player(player))


def _edit(tx: GuildsTx, rt: Runtime, scope: Scope, guild: Guild, profile: Profile, by: By) -> Guild:
    """Apply a checked profile (its name free), telling ``guild.updated`` when anything changed."""
    _check_profile_name(tx, scope, profile, guild.id)
    after, changes = edited(guild, profile)
    if changes:
        tx.guilds.update(after)
        emit(tx, rt, scope, GuildUpdated.of(after, changes, by))
    return after


def edit(tx: GuildsTx, rt: Runtime, scope: Scope, player: Player, profile: Profile) -> OwnGuild:
    """The leader or a co-leader edits the guild's profile (the name filter applies)."""
    _, settings = _enabled_game(tx, scope)
    guild, stint = _own(tx, player)
    check_may(stint.role, Action.EDIT)
    profile = profile.checked()
    if isinstance(profile.name, str):
        check_filter(profile.name, settings.name_filter)
    _edit(tx, rt, scope, guild, profile, By.player(player))
    return _own_read(tx, player)


def join_requests(tx: GuildsTx, scope: Scope, player: Player) -> list[JoinRequest]:
    """The pending join requests of the caller's guild (leader and co-leaders), oldest first."""
    _enabled_game(tx, scope)
    guild, stint = _own(tx, player)
    check_may(stint.role, Action.ANSWER_REQUESTS)
    return tx.guilds.pending_requests(guild.id)


def answer_join_request(
    tx: GuildsTx, rt: Runtime, scope: Scope, player: Player, request_id: str, *, accept: bool
) -> JoinRequest:
    """The leader or a co-leader accepts (the requester joins, via ``request``) or declines (no webhook) a
    pending request to its guild; not pending or not its guild's: 404 ``join_request_not_found``.
    Accepting checks the seat and the requester's guild again."""
    _, settings = _enabled_game(tx, scope)
    guild, stint = _own(tx, player)
    check_may(stint.role, Action.ANSWER_REQUESTS)
    request = tx.guilds.request(scope.game_id, request_id)
    if request is None or request.guild_id != guild.id or not request.pending:
        raise join_request_not_found(request_id)
    now = rt.clock.now()
    if not accept:
        answered = resolved(request, RequestStatus.DECLINED, now)
        tx.guilds.update_request(answered)
        return answered
    requester = tx.players.by_id(request.player_id)
    assert requester is not None
    if tx.guilds.current_stint(requester.id) is not None:
        raise LivecoreError(ALREADY_IN_GUILD, "The player joined a guild already.", {"requestId": request.id})
    check_seat(guild, settings)
    _seat(tx, rt, scope, guild, requester, Role.MEMBER, JoinVia.REQUEST, By.player(player))
    answered = resolved(request, RequestStatus.ACCEPTED, now)  # seating cancelled it with the others
    tx.guilds.update_request(answered)
    return answered


def _member_action(
    tx: GuildsTx, scope: Scope, player: Player, action: Action, target_external_id: str
) -> tuple[Guild, Stint, Stint]:
    _enabled_game(tx, scope)
    guild, caller = _own(tx, player)
    target_player = tx.players.get(scope.game_id, target_external_id)
    target = None if target_player is None else tx.guilds.current_stint(target_player.id)
    return guild, caller, check_member_action(action, caller, target_external_id, target)


def kick(tx: GuildsTx, rt: Runtime, scope: Scope, player: Player, target_external_id: str) -> OwnGuild:
    guild, _, target = _member_action(tx, scope, player, Action.KICK, target_external_id)
    _depart(tx, rt, scope, guild, target, LeftReason.KICKED, By.player(player))
    return _own_read(tx, player)


def promote(tx: GuildsTx, rt: Runtime, scope: Scope, player: Player, target_external_id: str) -> OwnGuild:
    guild, _, target = _member_action(tx, scope, player, Action.PROMOTE, target_external_id)
    _change_role(tx, rt, scope, guild, target, RoleTrigger.PROMOTE, RoleReason.PROMOTED, By.player(player))
    return _own_read(tx, player)


def demote(tx: GuildsTx, rt: Runtime, scope: Scope, player: Player, target_external_id: str) -> OwnGuild:
    guild, _, target = _member_action(tx, scope, player, Action.DEMOTE, target_external_id)
    _change_role(tx, rt, scope, guild, target, RoleTrigger.DEMOTE, RoleReason.DEMOTED, By.player(player))
    return _own_read(tx, player)


def transfer(tx: GuildsTx, rt: Runtime, scope: Scope, player: Player, target_external_id: str) -> OwnGuild:
    """The leader hands the leadership to a member; it stays as co-leader (``leadership_transferred`` on
    both changes)."""
    guild, caller, target = _member_action(tx, scope, player, Action.TRANSFER, target_external_id)
    _hand_over(tx, rt, scope, guild, caller, target, RoleReason.LEADERSHIP_TRANSFERRED, By.player(player))
    return _own_read(tx, player)


# --- help -----------------------------------------------------------------------------------------------


def ask_help(
    tx: GuildsTx,
    rt: Runtime,
    scope: Scope,
    player: Player,
    type_: ResourceType,
    resource_key: str,
    amount: int,
) -> HelpRequest:
    """A member asks its guild for help (``guild.help_requested``); refusals:
    :func:`livecore.guilds.rules.check_help_request`."""
    game, settings = _enabled_game(tx, scope)
    guild, _ = _own(tx, player)
    now = rt.clock.now()
    declared = {key: res.type for key, res in game.settings.resources.items()}
    help_ = check_help_request(
        settings,
        type_,
        resource_key,
        amount,
        declared,
        open_request=tx.guild_help.open_help_of(player.id),
        last_request=tx.guild_help.last_help(guild.id, player.id),
        now=now,
    )
    request = new_help_request(guild, player, help_, type_, resource_key, amount, now, rt.rng)
    tx.guild_help.insert_help(request)
    emit(tx, rt, scope, GuildHelpRequested.of(guild, request, By.player(player)))
    return request


def help_requests(tx: GuildsTx, rt: Runtime, scope: Scope, player: Player) -> list[HelpRequest]:
    """The open help requests of the caller's guild, newest first."""
    _enabled_game(tx, scope)
    guild, _ = _own(tx, player)
    return tx.guild_help.open_help(guild.id, rt.clock.now())


def donate(tx: GuildsTx, rt: Runtime, scope: Scope, player: Player, request_id: str, amount: int) -> Donated:
    """A member donates to another member's open help request, in one transaction: the donor's debit
    (platform games), the requester's pending grant (``guild_help``), the donor's pending reward grant
    (``guild_help_reward``, when the game rewards donors), the request's update and
    ``guild.help_donated``. Refusals: :func:`livecore.guilds.rules.check_donation`, then the debit's."""
    game, settings = _enabled_game(tx, scope)
    guild, stint = _own(tx, player)
    now = rt.clock.now()
    request = check_donation(tx.guild_help.help(scope.game_id, request_id), request_id, stint, amount, now)
    entry = Entry(type=request.type, key=request.resource_key, amount=amount)
    if is_platform_managed(game):
        _debit(tx, rt, scope, game, player, entry, GUILD_HELP_DONATION, request.id)
    recipient = tx.players.by_id(request.player_id)
    assert recipient is not None
    donation_ref = {"guildId": guild.id, "requestId": request.id}
    grant = issue_grant(
        tx,
        rt,
        scope,
        recipient,
        kind=GrantKind.REWARD,
        entries=(entry,),
        expires_at=None,
        source_kind=HELP_SOURCE_KIND,
        source_ref_id=request.id,
        metadata=donation_ref,
        grant_id=new_uuid(now, rt.rng),
    )
    reward = settings.help.donor_reward if settings.help is not None else ()
    reward_grant = (
        issue_grant(
            tx,
            rt,
            scope,
            player,
            kind=GrantKind.REWARD,
            entries=reward,
            expires_at=None,
            source_kind=HELP_REWARD_SOURCE_KIND,
            source_ref_id=request.id,
            metadata=donation_ref,
        )
        if reward
        else None
    )
    after = donated(request, amount, now)
    tx.guild_help.update_help(after)
    donation = new_donation(
        after, player, amount, grant.id, None if reward_grant is None else reward_grant.id, now, rt.rng
    )
    tx.guild_help.insert_donation(donation)
    emit(tx, rt, scope, GuildHelpDonated.of(guild, after, donation, charged_by(game), By.player(player)))
    return Donated(donation, after)


# --- the studio's moderation --------------------------------------------------------------------------


def admin_search(
    tx: GuildsTx,
    scope: Scope,
    *,
    text: str | None,
    player_external_id: str | None,
    include_disbanded: bool,
    limit: int | None,
    offset: int | None,
) -> GuildPage:
    """The server list: newest first, disbanded guilds only with ``include_disbanded``; ``player`` finds
    every guild the player was ever in (a player unknown here: no guild)."""
    _enabled_game(tx, scope)
    limit, offset = _page(text, limit, offset)
    player_id = None
    if player_external_id is not None:
        ID.check(player_external_id, "player")
        player = tx.players.get(scope.game_id, player_external_id)
        if player is None or player.env is not scope.env:
            return GuildPage([], None)
        player_id = player.id
    found = tx.guilds.search(
        scope.game_id,
        scope.env,
        text=text or None,
        player_id=player_id,
        include_disbanded=include_disbanded,
        limit=limit + 1,
        offset=offset,
    )
    return GuildPage(found[:limit], offset + limit if len(found) > limit else None)


def guild_detail(tx: GuildsTx, scope: Scope, guild_id: str) -> GuildDetail:
    _enabled_game(tx, scope)
    return _detail(tx, find_guild(tx, scope, guild_id))


def admin_edit(tx: GuildsTx, rt: Runtime, scope: Scope, guild_id: str, profile: Profile) -> GuildDetail:
    """The studio edits a guild's profile: the name filter is skipped, uniqueness is not; a disbanded guild
    is 409 ``guild_disbanded``."""
    _enabled_game(tx, scope)
    guild = find_guild(tx, scope, guild_id)
    profile = profile.checked()
    check_alive(guild)
    return _detail(tx, _edit(tx, rt, scope, guild, profile, By.of(scope.actor)))


def player_guild(tx: GuildsTx, scope: Scope, external_id: str) -> PlayerGuild:
    """A player's current guild and stints (a merged or erased player's row answers by its placeholder)."""
    _enabled_game(tx, scope)
    player = get_player(tx, scope, external_id, retired=True)
    stints = tx.guilds.stints_of(player.id)
    guilds: dict[str, Guild] = {}
    for stint in stints:
        if stint.guild_id not in guilds:
            found = tx.guilds.get(scope.game_id, stint.guild_id)
            assert found is not None
            guilds[stint.guild_id] = found
    current = next((guilds[s.guild_id] for s in stints if s.current), None)
    return PlayerGuild(current, [PlayerStint(s, guilds[s.guild_id].name) for s in stints])


def _named_member(tx: GuildsTx, scope: Scope, guild: Guild, external_id: str) -> Stint:
    player = tx.players.get(scope.game_id, external_id)
    stint = None if player is None else tx.guilds.current_stint(player.id)
    if stint is None or stint.guild_id != guild.id:
        raise LivecoreError(
            GUILD_MEMBER_NOT_FOUND,
            "That player is not a member of the guild.",
            {"externalPlayerId": external_id},
        )
    return stint


def remove_member(tx: GuildsTx, rt: Runtime, scope: Scope, guild_id: str, external_id: str) -> GuildDetail:
    """Moderation: the member leaves (``removed``; nothing stops it from rejoining)."""
    _enabled_game(tx, scope)
    guild = find_guild(tx, scope, guild_id)
    check_alive(guild)
    stint = _named_member(tx, scope, guild, external_id)
    return _detail(tx, _depart(tx, rt, scope, guild, stint, LeftReason.REMOVED, By.of(scope.actor)))


def hand_over(tx: GuildsTx, rt: Runtime, scope: Scope, guild_id: str, external_id: str) -> GuildDetail:
    """The studio makes a member the leader; the old leader becomes co-leader (``operator`` on both).
    Naming the leader changes nothing."""
    _enabled_game(tx, scope)
    guild = find_guild(tx, scope, guild_id)
    check_alive(guild)
    heir = _named_member(tx, scope, guild, external_id)
    if heir.role is not Role.LEADER:
        leader = next(m for m in tx.guilds.members(guild.id) if m.role is Role.LEADER)
        _hand_over(tx, rt, scope, guild, leader, heir, RoleReason.OPERATOR, By.of(scope.actor))
    return _detail(tx, guild)


def disband(tx: GuildsTx, rt: Runtime, scope: Scope, guild_id: str) -> GuildDetail:
    """The studio disbands the guild, irreversibly: each member leaves (``disbanded``), then
    ``guild.disbanded`` (``admin``). A disbanded guild answers as it is."""
    _enabled_game(tx, scope)
    guild = find_guild(tx, scope, guild_id)
    if guild.disbanded:
        return _detail(tx, guild)
    by = By.of(scope.actor)
    for stint in tx.guilds.members(guild.id):
        guild = _depart(tx, rt, scope, guild, stint, LeftReason.DISBANDED, by, settle=False)
    return _detail(tx, _disband(tx, rt, scope, guild, DisbandReason.ADMIN, by))


# --- succession of inactive leaders ----------------------------------------------------------------------


def hand_on_inactive(tx: GuildsTx, rt: Runtime, game_id: str, after: str | None = None) -> str | None:
    """One step of the hourly sweep: the game's inactive leaders after the stint ``after`` (up to
    :data:`SWEEP_BATCH`) hand on to their first successor seen within ``leader_inactive_days``
    (``succession_leader_inactive`` on both changes; the old leader becomes a member); a leader with no
    such successor keeps the lead. Returns the stint to go on after, None when the sweep is done."""
    game = tx.games.get(game_id)
    assert game is not None
    settings = game.settings.of(GUILD_SETTINGS)
    if not settings.enabled:
        return None
    cutoff = inactive_since(settings, rt.clock.now())
    leaders = tx.guilds.leaders_unseen_since(game_id, cutoff, after, SWEEP_BATCH)
    for leader in leaders:
        guild = tx.guilds.get(game_id, leader.guild_id)
        assert guild is not None
        members = tx.guilds.members(guild.id)
        seen = {}
        for member in members:
            player = tx.players.by_id(member.player_id)
            assert player is not None
            seen[member.player_id] = player.last_seen_at
        heir = inactive_successor(members, leader, seen, cutoff)
        if heir is None:
            continue
        scope = Scope(studio_id=game.studio_id, game_id=game.id, env=guild.env)
        reason = RoleReason.SUCCESSION_LEADER_INACTIVE
        _change_role(tx, rt, scope, guild, heir, RoleTrigger.TAKE_LEADERSHIP, reason, SYSTEM_BY)
        _change_role(tx, rt, scope, guild, leader, RoleTrigger.STEP_DOWN, reason, SYSTEM_BY)
    return leaders[-1].id if len(leaders) == SWEEP_BATCH else None


# --- merge and erasure ----------------------------------------------------------------------------------


def _current(tx: GuildsTx, rt: Runtime, player: Player) -> tuple[Guild, Stint] | None:
    """The player's pending join requests are cancelled; its guild and current stint, if any."""
    now = rt.clock.now()
    for request in tx.guilds.pending_of(player.id):
        tx.guilds.update_request(resolved(request, RequestStatus.CANCELLED, now))
    stint = tx.guilds.current_stint(player.id)
    if stint is None:
        return None
    guild = tx.guilds.get(player.game_id, stint.guild_id)
    assert guild is not None
    return guild, stint


def merge_guilds(tx: GuildsTx, rt: Runtime, scope: Scope, source: Player, target: Player) -> None:
    """A merge: the source's membership ends (``merged``). A target in no guild takes its seat and role,
    leadership included (``guild.member_joined`` via ``merge``); otherwise a leaving leader hands on and
    a guild left empty disbands. Then every guild record of the source becomes the target's."""
    found = _current(tx, rt, source)
    if found is not None:
        guild, stint = found
        by = By.of(scope.actor)
        takes_seat = tx.guilds.current_stint(target.id) is None
        guild = _depart(tx, rt, scope, guild, stint, LeftReason.MERGED, by, settle=not takes_seat)
        if takes_seat:
            _seat(tx, rt, scope, guild, target, stint.role, JoinVia.MERGE, by)
    tx.guilds.reassign(source.id, target)
    tx.guild_help.reassign(source.id, target)


def erase_guilds(tx: GuildsTx, rt: Runtime, scope: Scope, player: Player, kept: Player) -> None:
    """An erasure: the membership ends (``erased``), a leader hands on, a guild left empty disbands; the
    records move to the placeholder row ``kept``."""
    found = _current(tx, rt, player)
    if found is not None:
        guild, stint = found
        _depart(tx, rt, scope, guild, stint, LeftReason.ERASED, By.of(scope.actor))
    tx.guilds.reassign(player.id, kept)
    tx.guild_help.reassign(player.id, kept)
