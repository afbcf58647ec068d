"""Shared leaderboard commands (docs/leaderboards.md; rules: ``livecore.leaderboards.rules``): a score onto a
board (submitted by the studio, or an event's attempt feeding it), the pages a client reads, and the
rollover that ends a period.

A rollover runs in steps, each its own transaction: the period stops taking scores (``finalizing``;
the next score opens the next period), then its divisions are paid and moved a batch at a time, each
batch committing its grants, tiers and how far it got (``finalized_through``) together, and last the
period is ``finalized`` with ``leaderboard.period_finalized``. A rollover cut short resumes at the next
batch and pays nothing twice; requests go on between the steps.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol

import attrs

from livecore.commands import Runtime, emit
from livecore.errors import PERMISSION_DENIED, LivecoreError, invalid_request
from livecore.games import Game
from livecore.grants.commands import GrantsTx
from livecore.grants.rank_rewards import Placing, pay_rank_rewards
from livecore.leaderboards.rules import (
    SCORE,
    BoardPeriod,
    Division,
    PeriodStatus,
    SharedEntry,
    SharedPage,
    combine,
    division_id,
    opened_now,
    place,
    regular_period,
    tier_after,
)
from livecore.leaderboards.settings import LEADERBOARD_SETTINGS, Divisions, LeaderboardSettings, Period
from livecore.leaderboards.store import HasLeaderboards
from livecore.leaderboards.webhooks import PeriodEntry, PeriodFinalized
from livecore.limits import ID, PAGE
from livecore.live_events.attempts import Attempt
from livecore.live_events.boards import (
    DEFAULT_LIMIT,
    FINALIZED_TOP,
    Contender,
    Ranking,
    Standing,
    cursor_of,
    key_after,
    paid_ranks,
    parse_cursor,
    read_ranked,
    sort_key,
)
from livecore.live_events.errors import LEADERBOARD_NOT_FOUND
from livecore.live_events.settings import EventSettings
from livecore.players.commands import find_player, first_contact, load_game
from livecore.players.errors import PLAYER_NOT_FOUND
from livecore.players.rules import Player
from livecore.players.store import HasPlayers
from livecore.scope import SYSTEM, Environment, Scope
from livecore.store.games import HasGames

RANK_SOURCE_KIND = "leaderboard_rank"
# Entries paid and moved per rollover step: a step holds its game's writes (and, on SQLite, the whole
# process), so its size is set by the work it does, whatever the division size.
ROLLOVER_ENTRIES = 200


def divisions_per_step(divisions: Divisions) -> int:
    return max(1, ROLLOVER_ENTRIES // divisions.size)


class LeaderboardsTx(GrantsTx, HasLeaderboards, Protocol):
    """The ports these commands use."""


def board_settings(game: Game, key: str) -> LeaderboardSettings:
    found = game.settings.of(LEADERBOARD_SETTINGS).get(key)
    if found is None:
        raise LivecoreError(
            LEADERBOARD_NOT_FOUND, f"No leaderboard {key!r} in this game.", {"leaderboardKey": key}
        )
    return found


def current_period(
    tx: HasLeaderboards, game: Game, env: Environment, settings: LeaderboardSettings, now: datetime
) -> BoardPeriod:
    """The period that takes a score now, opened if this is its first: an open period whose end has
    come stops taking scores (``finalizing``: its rollover is due) and the regular period holding
    ``now`` opens."""
    open_ = tx.leaderboards.open_period(game.id, env, settings.key)
    if open_ is not None and (open_.ends_at is None or now < open_.ends_at):
        return open_
    if open_ is not None:
        tx.leaderboards.update_period(attrs.evolve(open_, status=PeriodStatus.FINALIZING))
    period = regular_period(game.id, env, settings, now)
    known = tx.leaderboards.period(game.id, period.id)
    if known is not None:  # a regular period a rollover-now ended early: its scores went to the next
        return known
    tx.leaderboards.insert_period(period)
    return period


def _division(tx: HasLeaderboards, period: BoardPeriod, player: Player) -> str | None:
    """The division a player's first score of the period places them in (boards with divisions)."""
    divisions = period.settings.divisions
    if divisions is None:
        return None
    key = period.board_key
    tier = tx.leaderboards.tier(period.game_id, period.env, key, player.id)
    if tier is None:
        tier = 0  # a newcomer starts in the lowest tier
        tx.leaderboards.set_tier(period.game_id, period.env, key, player.id, tier)
    tier = min(tier, len(divisions.tiers) - 1)  # the manifest may have dropped tiers since
    newest = tx.leaderboards.newest_division(period.id, tier)
    if newest is not None and place(newest.members, divisions.size):
        division = attrs.evolve(newest, members=newest.members + 1)
        tx.leaderboards.update_division(division)
    else:
        number = 0 if newest is None else newest.number + 1
        division = Division(division_id(period, tier, number), period.id, tier, number, 1)
        tx.leaderboards.insert_division(division)
    return division.id


def record_score(
    tx: HasLeaderboards,
    game: Game,
    env: Environment,
    settings: LeaderboardSettings,
    player: Player,
    score: float,
    now: datetime,
) -> tuple[BoardPeriod, SharedEntry]:
    """The score combined into the player's entry of the current period (``aggregation``); its time
    moves only when the entry's score changes."""
    period = current_period(tx, game, env, settings, now)
    current = tx.leaderboards.entry(period.id, player.id)
    order = period.settings.order
    if current is None:
        entry = SharedEntry(period.id, player.id, score, now, _division(tx, period, player))
    else:
        combined = combine(period.settings.aggregation, order, current.score, score)
        entry = (
            current if combined == current.score else attrs.evolve(current, score=combined, reached_at=now)
        )
    if entry is not current:
        tx.leaderboards.put_entry(period, entry)
    return period, entry


def standing(
    tx: HasLeaderboards, period: BoardPeriod, entry: SharedEntry, player: Player
) -> Standing[SharedEntry]:
    """The entry with its rank (in its division, if any) and its player."""
    rank = tx.leaderboards.count_ahead(period, entry.division_id, sort_key(period.settings.order, entry)) + 1
    return Standing(rank, entry, Contender.of(player))


def submit(
    tx: LeaderboardsTx, rt: Runtime, scope: Scope, key: str, external_id: str, score: int
) -> tuple[BoardPeriod, SharedEntry, Player]:
    """A studio's score for a player (created on first contact), combined into the current period."""
    game = load_game(tx, scope)
    settings = board_settings(game, key)
    SCORE.check(score, "score")
    player = first_contact(tx, rt, scope, external_id)
    period, entry = record_score(tx, game, scope.env, settings, player, float(score), rt.clock.now())
    return period, entry, player


def feed(
    tx: LeaderboardsTx, rt: Runtime, scope: Scope, event: EventSettings, player: Player, attempt: Attempt
) -> None:
    """An attempt that finished (completed, force-completed, expired) gives its score, once, to every
    shared board its event feeds, in the transaction that finishes it."""
    if attempt.score is None or not event.feeds:
        return
    game = load_game(tx, scope)
    for key in event.feeds:
        settings = game.settings.of(LEADERBOARD_SETTINGS).get(key)
        if settings is not None:  # a board dropped from the manifest since the window opened
            record_score(tx, game, attempt.env, settings, player, attempt.score, rt.clock.now())


def merge_entries(tx: HasLeaderboards, from_id: str, to: Player) -> None:
    """A merge: the source's entries move to the target, which keeps the better of two in one period
    (equal scores: the one reached first) with its division; the other's division has a place again.
    The source's tiers move too: the target keeps the higher of two on one board."""
    for entry in tx.leaderboards.entries_of(from_id):
        tx.leaderboards.delete_entry(entry.period_id, from_id)
        period = tx.leaderboards.period(to.game_id, entry.period_id)
        assert period is not None  # periods are never deleted
        theirs = tx.leaderboards.entry(period.id, to.id)
        moved = attrs.evolve(entry, player_id=to.id)
        order = period.settings.order
        dropped: SharedEntry | None = entry
        if theirs is None or sort_key(order, moved) < sort_key(order, theirs):
            tx.leaderboards.put_entry(period, moved)
            dropped = theirs
        if dropped is not None and dropped.division_id is not None:
            division = tx.leaderboards.division(period.id, dropped.division_id)
            assert division is not None
            tx.leaderboards.update_division(attrs.evolve(division, members=division.members - 1))
    for held in tx.leaderboards.tiers_of(from_id):
        tx.leaderboards.delete_tier(held.game_id, held.env, held.board_key, from_id)
        theirs_tier = tx.leaderboards.tier(held.game_id, held.env, held.board_key, to.id)
        if theirs_tier is None or held.tier > theirs_tier:
            tx.leaderboards.set_tier(held.game_id, held.env, held.board_key, to.id, held.tier)


# --- reading --------------------------------------------------------------------------------------


class ReadTx(HasLeaderboards, HasPlayers, HasGames, Protocol):
    """What reading a shared board needs."""


def _period_to_read(
    tx: ReadTx,
    game: Game,
    env: Environment,
    settings: LeaderboardSettings,
    now: datetime,
    period_id: str | None,
    previous: bool,
) -> BoardPeriod:
    if period_id is not None:
        found = tx.leaderboards.period(game.id, period_id)
        if found is None or found.env is not env or found.board_key != settings.key:
            raise invalid_request("No such period of this leaderboard.", {"period": "unknown"})
        return found
    if previous:
        found = tx.leaderboards.latest_finalized(game.id, env, settings.key)
        if found is None:
            raise invalid_request("This leaderboard has no finished period yet.", {"previous": "none yet"})
        return found
    open_ = tx.leaderboards.open_period(game.id, env, settings.key)
    if open_ is not None and (open_.ends_at is None or now < open_.ends_at):
        return open_
    # No score yet in the period holding now: it reads empty, as it is (nothing is written by a read).
    regular = regular_period(game.id, env, settings, now)
    return tx.leaderboards.period(game.id, regular.id) or regular


def read(
    tx: ReadTx,
    rt: Runtime,
    scope: Scope,
    key: str,
    *,
    limit: int = DEFAULT_LIMIT,
    cursor: str | None = None,
    around: str | None = None,
    division: str | None = None,
    period: str | None = None,
    previous: bool = False,
) -> SharedPage:
    """A page of a shared board (docs/leaderboards.md#reading): the current period's, or a past one's
    (``period`` id, or ``previous``); with divisions, the division of ``around``'s player, the one
    named, else the first of the highest tier."""
    PAGE.check(limit, "limit")
    for name, value in (("cursor", cursor), ("around", around), ("division", division), ("period", period)):
        ID.check_optional(value, name)
    game = load_game(tx, scope)
    settings = board_settings(game, key)
    if cursor is not None and around is not None:
        raise invalid_request("Give cursor or around, not both.", {"around": "not with cursor"})
    if period is not None and previous:
        raise invalid_request("Give period or previous, not both.", {"previous": "not with period"})
    chosen = _period_to_read(tx, game, scope.env, settings, rt.clock.now(), period, previous)
    player = None
    if around is not None:
        player = find_player(tx, scope, around)
        if player is None:
            raise LivecoreError(PLAYER_NOT_FOUND, "Player not found.", {"externalPlayerId": around})
    mine = tx.leaderboards.entry(chosen.id, player.id) if player is not None else None
    shown: Division | None = None
    if chosen.settings.divisions is not None:
        if division is not None:
            shown = tx.leaderboards.division(chosen.id, division)
            if shown is None:
                raise invalid_request("No such division in this period.", {"division": "unknown"})
        elif mine is not None and mine.division_id is not None:
            shown = tx.leaderboards.division(chosen.id, mine.division_id)
        else:
            shown = tx.leaderboards.top_division(chosen.id)
    elif division is not None:
        raise invalid_request("This leaderboard has no divisions.", {"division": "no divisions"})
    list_id = f"{chosen.id}/{shown.id if shown else ''}"
    within = shown.id if shown is not None else None
    order = chosen.settings.order
    after = key_after(order, parse_cursor(list_id, cursor)) if cursor is not None else None
    if mine is None or player is None or (within is not None and mine.division_id != within):
        shown_mine = None  # no entry in the list shown: its top
    else:
        shown_mine = (mine, Contender.of(player))
    ranking = Ranking(
        order,
        lambda key, n: tx.leaderboards.page(chosen, within, key, n),
        lambda key, n: tx.leaderboards.page_before(chosen, within, key, n),
        lambda key: tx.leaderboards.count_ahead(chosen, within, key),
    )
    standings, more = read_ranked(ranking, limit, after, shown_mine)
    next_cursor = cursor_of(list_id, standings[-1].entry) if more and standings else None
    return SharedPage(chosen, shown, standings, next_cursor)


# --- rollover -------------------------------------------------------------------------------------


def _system_scope(game: Game, env: Environment) -> Scope:
    return Scope(studio_id=game.studio_id, game_id=game.id, env=env, actor=SYSTEM)


def _pay(
    tx: LeaderboardsTx, rt: Runtime, scope: Scope, period: BoardPeriod, standings: list[Standing[SharedEntry]]
) -> None:
    placings = (
        Placing(
            rank=s.rank,
            player_ids=(s.player.id,),
            source_ref_id=period.id,
            metadata={"leaderboardKey": period.board_key, "rank": s.rank, "divisionId": s.entry.division_id},
        )
        for s in standings
    )
    pay_rank_rewards(tx, rt, scope, period.settings.rank_rewards, placings, source_kind=RANK_SOURCE_KIND)


def _rows(
    tx: HasLeaderboards, period: BoardPeriod, division: str | None, limit: int
) -> list[Standing[SharedEntry]]:
    rows = tx.leaderboards.page(period, division, None, limit)
    return [Standing(i + 1, entry, who) for i, (entry, who) in enumerate(rows)]


def rollover_step(
    tx: LeaderboardsTx, rt: Runtime, game_id: str, period_id: str, batch: int | None = None
) -> bool:
    """One step of a period's rollover (module docstring): ``batch`` divisions, by default
    :func:`divisions_per_step`; True once the period is finalized."""
    period = tx.leaderboards.period(game_id, period_id)
    if period is None or period.status is PeriodStatus.FINALIZED:
        return True
    game = tx.games.get(game_id)
    assert game is not None  # games are never deleted
    scope = _system_scope(game, period.env)
    settings = period.settings
    if period.status is PeriodStatus.OPEN:
        period = attrs.evolve(period, status=PeriodStatus.FINALIZING)
    if settings.divisions is not None:
        batch = batch or divisions_per_step(settings.divisions)
        divisions = tx.leaderboards.divisions_from(period.id, period.finalized_through, batch)
        for division in divisions:
            standings = _rows(tx, period, division.id, division.members)
            _pay(tx, rt, scope, period, standings)
            for s in standings:
                tier = tier_after(settings.divisions, division.tier, s.rank, len(standings))
                tx.leaderboards.set_tier(game_id, period.env, period.board_key, s.entry.player_id, tier)
        period = attrs.evolve(period, finalized_through=period.finalized_through + len(divisions))
        if len(divisions) == batch:
            tx.leaderboards.update_period(period)
            return False
    elif period.finalized_through == 0:
        _pay(tx, rt, scope, period, _rows(tx, period, None, paid_ranks(settings.rank_rewards)))
    now = rt.clock.now()
    top = _rows(tx, period, None, FINALIZED_TOP)
    tx.leaderboards.update_period(attrs.evolve(period, status=PeriodStatus.FINALIZED, finalized_at=now))
    emit(
        tx,
        rt,
        scope,
        PeriodFinalized(
            leaderboard_key=period.board_key,
            period_id=period.id,
            period_starts_at=period.starts_at,
            period_ends_at=period.ends_at,
            entry_count=tx.leaderboards.size(period.id, None),
            top=tuple(
                PeriodEntry(
                    rank=s.rank,
                    player_id=s.player.id,
                    external_player_id=s.player.player_external_id,
                    score=s.entry.score,
                    reached_at=s.entry.reached_at,
                    division_id=s.entry.division_id,
                )
                for s in top
            ),
        ),
    )
    return True


def periods_due(tx: HasLeaderboards, rt: Runtime, limit: int) -> list[BoardPeriod]:
    return tx.leaderboards.periods_due(rt.clock.now(), limit)


# Later than any period's end (periods end within datetime's range, from 1970 on).
_END_OF_TIME = datetime(9999, 1, 1, tzinfo=UTC)


def next_rollover(tx: HasLeaderboards) -> datetime | None:
    """When the next rollover is due: the earliest end of a period that is open or finalizing (a
    finalizing one is due already); None while every open period is all-time."""
    due = tx.leaderboards.periods_due(_END_OF_TIME, 1)
    return due[0].ends_at if due else None


def rollover_now(tx: LeaderboardsTx, rt: Runtime, scope: Scope, key: str) -> str | None:
    """The test environment's rollover-now: the current period stops now and the next opens, from now to
    the next regular boundary (a period already past its end just stops taking scores). Answers the id
    of the period to finalize (its steps follow, as the scheduler's), or None for an all-time board or
    a period with no entries (nothing changes)."""
    if scope.env is not Environment.TEST:
        raise LivecoreError(PERMISSION_DENIED, "rollover-now takes a test-environment server key.")
    game = load_game(tx, scope)
    settings = board_settings(game, key)
    if settings.period is Period.ALL_TIME:
        return None
    now = rt.clock.now()
    open_ = tx.leaderboards.open_period(game.id, scope.env, key)
    if open_ is None or tx.leaderboards.size(open_.id, None) == 0:
        return None
    if open_.ends_at is not None and open_.ends_at <= now:
        # Over already, its rollover not yet run: it keeps its end, and the next score opens the
        # regular period holding now, as after any boundary.
        tx.leaderboards.update_period(attrs.evolve(open_, status=PeriodStatus.FINALIZING))
        return open_.id
    tx.leaderboards.update_period(attrs.evolve(open_, status=PeriodStatus.FINALIZING, ends_at=now))
    tx.leaderboards.insert_period(opened_now(game.id, scope.env, settings, now, open_.id))
    return open_.id
