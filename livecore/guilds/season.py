"""The guilds' part of a simulated season (docs/simulation.md#playing-a-season): a segment's ``guilds``
chance, and a session's turn in the guilds. A player outside a guild joins one with room (most do) or
founds its own; inside one, it donates to another member's open help request and, by the same chance
again, asks for help itself, unless it knows its ask would be refused: a request of its own still open
(not filled, not expired), or its last one younger than the game's help cooldown. Its ``guilds`` is
fitted from what the players did (:class:`Fit`, below)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from livecore.guilds.api import GuildJoined
from livecore.guilds.rules import JoinType
from livecore.guilds.settings import GUILD_SETTINGS
from livecore.simulation.part import (
    Driver,
    Fit,
    FitPeriod,
    Member,
    Play,
    Rate,
    SeasonPart,
    Tallies,
)

#: A session's chance, outside a guild, to join or found one; inside one, to ask for help and to donate.
GUILDS = Rate("guilds", 0.3, {"engaged": 0.6, "regular": 0.35, "casual": 0.1})
#: The share of the players outside a guild who join one with room rather than found their own.
JOINING = 0.85


class _Guilds(Driver):
    """What the players know of the guilds: their own, and those they founded or joined with their sizes."""

    def __init__(self, play: Play) -> None:
        self.play = play
        self.member_of: dict[int, str] = {}  # member index -> its guild id
        # The guilds the players founded that have room as far as they know, in the order founded: kept as
        # it changes, not listed again at each turn, for a million players found tens of thousands.
        self.open: list[str] = []
        self.help: dict[str, list[list[Any]]] = {}  # guild id -> [request id, member, lacking, expires]
        self.asked: dict[int, int] = {}  # member index -> when it last asked for help (season seconds)

    def session(self, member: Member) -> None:
        play = self.play
        if play.settings.of(GUILD_SETTINGS).enabled and play.rng.random() < member.segment.rate(GUILDS):
            self._turn(member)

    def _turn(self, member: Member) -> None:
        play, rng = self.play, self.play.rng
        settings = play.settings.of(GUILD_SETTINGS)
        mine = self.member_of.get(member.index)
        if mine is None:
            # Most join a guild with room; some found their own (all when none has room).
            if self.open and rng.random() < JOINING:
                chosen = rng.choice(self.open)
                joined = play.act("guilds.join", member.handle.guilds.join, chosen)
                if isinstance(joined, GuildJoined):
                    self.member_of[member.index] = chosen
                    if joined.guild.member_count >= settings.max_members:
                        self.open.remove(chosen)
                elif joined is None:
                    self.open.remove(chosen)  # full, or gone: the player looks elsewhere next time
                return
            name = f"Guild {member.handle.external_id}"
            made = play.act("guilds.create", member.handle.guilds.create, name, JoinType.OPEN)
            if made is not None:
                self.member_of[member.index] = made.guild.guild_id
                if settings.max_members > 1:
                    self.open.append(made.guild.guild_id)
            return
        help_ = settings.help
        if help_ is None:
            return
        now = play.elapsed
        requests = self.help.setdefault(mine, [])
        requests[:] = [r for r in requests if r[2] > 0 and r[3] > now]
        others = [r for r in requests if r[1] is not member]
        if others:
            request = others[0]
            amount = rng.randint(1, request[2])
            done = play.act("guilds.donate", member.handle.guilds.donate_help, request[0], amount)
            request[2] = 0 if done is None else done.help_request.amount - done.help_request.donated
        if rng.random() < member.segment.rate(GUILDS) and self._may_ask(
            member, requests, help_.cooldown_seconds
        ):
            key = rng.choice(help_.resources)
            kind = play.settings.resources[key].type
            amount = rng.randint(1, help_.max_amount)
            ask = member.handle.guilds.ask_help
            asked = play.act("guilds.ask_help", ask, type=kind, resource_key=key, amount=amount)
            if asked is not None:
                view = asked.help_request
                expires = int((view.expires_at - play.start).total_seconds())
                requests.append([view.request_id, member, view.amount, expires])
                self.asked[member.index] = now

    def _may_ask(self, member: Member, requests: list[list[Any]], cooldown: int) -> bool:
        """Whether the member's ask would pass, as far as it knows: none of its requests open (``requests``
        are its guild's open ones), its last ask at least ``cooldown`` seconds ago."""
        last = self.asked.get(member.index)
        if last is not None and self.play.elapsed < last + cooldown:
            return False
        return not any(r[1] is member for r in requests)


# --- fitting ------------------------------------------------------------------------------------------


def _read(tx: Any, period: FitPeriod) -> dict[str, dict[str, float]]:
    """Each player's stints of the period (those it started, its days in a guild) and, where the game's
    guilds ask for help, its help requests and the days it could not ask (one read a port)."""
    settings = period.settings.of(GUILD_SETTINGS)
    if not settings.enabled:
        return {}
    found: dict[str, dict[str, float]] = {}
    for player_id, s in tx.guilds.tallies(period.game_id, period.env, period.since, period.until).items():
        found[player_id] = {"joined": s.joined, "guild_days": s.guild_days}
    if settings.help is not None:
        cooldown = timedelta(seconds=settings.help.cooldown_seconds)
        helped = tx.guild_help.tallies(period.game_id, period.since, period.until, cooldown)
        for player_id, h in helped.items():
            found.setdefault(player_id, {}).update(asked=h.asked, blocked_days=h.blocked_days)
    return found


def _rates(tallies: Tallies, period: FitPeriod) -> dict[str, float]:
    """``guilds``, as :meth:`_Guilds._turn` plays it: a session takes a turn by the chance ``p``; outside a
    guild the turn joins or founds one, so each session outside joins by ``p``; inside one, the turn asks
    for help by ``p`` again, so each session in a guild able to ask (no request of its open, its cooldown
    over) asks by ``p²``. The sessions come at random times (the fitting's model), so those outside a
    guild are the segment's sessions a day times its days outside one, and those able to ask the same
    over its days in a guild less those its requests blocked: a stretch of time that ends at a join or
    an ask holds, on average, the sessions up to and including it. Each session is a trial, a join or an
    ask a success, and ``p`` is the chance under which the joins and the asks seen are likeliest (where
    the likelihood's slope is nought, found by halving):

        (joins + 2·asks) / p = (outside - joins) / (1 - p) + 2p·(inside - asks) / (1 - p²)

    So each weighs by what it tells: the joins of the players new to guilds (a player joins once, and a
    keen one within a few sessions), the asks a member makes day after day. Without help requests (the
    game has none) the joins alone tell it. The donations are not read into it: one needs another
    member's open request, which the record does not show at a session."""
    if not period.settings.of(GUILD_SETTINGS).enabled or tallies.days <= 0 or tallies.sessions <= 0:
        return {}
    per_day = tallies.sessions / tallies.days
    in_guild = min(tallies.days, tallies.sum("guild_days"))
    joins, asks = tallies.sum("joined"), tallies.sum("asked")
    outside = max(joins, per_day * (tallies.days - in_guild))
    inside = max(asks, per_day * max(0.0, in_guild - tallies.sum("blocked_days")))
    p = likeliest(joins, outside, asks, inside)
    return {} if p is None else {GUILDS.name: p}


def likeliest(joins: float, outside: float, asks: float, inside: float) -> float | None:
    """The chance ``p`` under which ``joins`` successes of ``outside`` trials by ``p`` and ``asks`` of
    ``inside`` trials by ``p²`` are likeliest; None without a trial."""
    if outside + inside <= 0:
        return None
    seen, missed_out, missed_in = joins + 2 * asks, outside - joins, inside - asks
    if seen <= 0:
        return 0.0
    if missed_out <= 0 and missed_in <= 0:
        return 1.0
    low, high = 0.0, 1.0
    for _ in range(60):  # the slope falls from p = 0 to p = 1: halving finds its root
        p = (low + high) / 2
        slope = seen / p - missed_out / (1 - p) - 2 * p * missed_in / (1 - p * p)
        low, high = (p, high) if slope > 0 else (low, p)
    return (low + high) / 2


def _features(tallies: Mapping[str, float], sessions: float) -> dict[str, tuple[float, float]]:
    return {"asked": (tallies.get("asked", 0.0), sessions)}


SEASON = SeasonPart(
    rates=(GUILDS,),
    driver=_Guilds,
    fit=Fit(read=_read, rates=_rates, features=_features),
)
