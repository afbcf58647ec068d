"""The guilds' part of a simulated season (docs/simulation.md#playing-a-season): a segment's ``guilds``
chance, and a session's turn in the guilds. A player outside a guild joins one with room (most do) or
founds its own; inside one, it donates to another member's open help request and, by the same chance
again, asks for help itself."""

from __future__ import annotations

from typing import Any

from livecore.guilds.api import GuildJoined
from livecore.guilds.rules import JoinType
from livecore.guilds.settings import GUILD_SETTINGS
from livecore.simulation.part import Driver, Member, Play, Rate, SeasonPart

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
        if rng.random() < member.segment.rate(GUILDS):
            key = rng.choice(help_.resources)
            kind = play.settings.resources[key].type
            amount = rng.randint(1, help_.max_amount)
            ask = member.handle.guilds.ask_help
            asked = play.act("guilds.ask_help", ask, type=kind, resource_key=key, amount=amount)
            if asked is not None:
                view = asked.help_request
                expires = int((view.expires_at - play.start).total_seconds())
                requests.append([view.request_id, member, view.amount, expires])


SEASON = SeasonPart(rates=(GUILDS,), driver=_Guilds)
