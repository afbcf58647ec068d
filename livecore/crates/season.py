"""The crates' part of a simulated season (docs/simulation.md#playing-a-season): the studio's backend
sends a player crates on each day it plays (``[studio] crates``, by default 0.1 of each crate the game
declares), and a session opens the crates its player holds by its segment's ``crates`` chance. A crate's
contents are claimed as the crate opens, not as a pending grant: a reward, and a setback
(:data:`BELOW_EXPECTED`) too where they are well below what such a crate gives on average."""

from __future__ import annotations

from typing import Any

from livecore.crates.rules import CONTENTS_SOURCE_KIND, CRATE, below_expected, expected
from livecore.crates.settings import CRATE_SETTINGS
from livecore.games import GameSettings
from livecore.grants.api import RewardEntry
from livecore.simulation.part import (
    OFFER,
    Driver,
    Fit,
    FitPeriod,
    Member,
    Play,
    Played,
    Rate,
    SeasonPart,
    StudioRates,
    Tallies,
)

#: The setback of a crate whose contents were well below its average (``crates.rules.below_expected``).
BELOW_EXPECTED = "crate_below_expected"
#: A session's chance to open the crates its player holds.
CRATES = Rate("crates", 0.8, {"engaged": 0.95, "regular": 0.8, "casual": 0.6})


def _declared(settings: GameSettings) -> list[str]:
    return list(settings.of(CRATE_SETTINGS))


def _fit_sent(tx: Any, period: FitPeriod, played: Played) -> dict[str, float]:
    """Each crate sent in the period (the crate grants' crates, but those of the offers' sales), per day
    played."""
    if played.days_played <= 0:
        return {}
    made = tx.grants.made(period.game_id, str(CRATE), period.since, period.until, OFFER)
    return {key: amount / played.days_played for key, amount in made.items() if amount > 0}


#: ``[studio] crates``: the crates the studio's backend sends a player per day it plays.
SENT = StudioRates("crates", "crate", _declared, 0.1, fit=_fit_sent)


class _Crates(Driver):
    """The crate grants each player holds, not opened yet."""

    def __init__(self, play: Play) -> None:
        self.play = play
        self.rates = play.sent(SENT)
        self.unopened: dict[int, list[str]] = {}  # member index -> its pending crate grant ids
        crates = play.settings.of(CRATE_SETTINGS)
        self.means = {key: expected(settings) for key, settings in crates.items()}

    def studio_day(self, member: Member) -> None:
        play = self.play
        for key, rate in self.rates.items():
            count = int(rate) + (play.rng.random() < rate - int(rate))
            if count:
                entries = [RewardEntry(type="crate", key=key, amount=count)]
                play.act("grants.create", play.server.grants.create, member.handle, entries, kind="crate")

    def granted(self, member: Member, grant: Any) -> bool:
        if grant.kind != "crate":
            return False
        self.unopened.setdefault(member.index, []).append(grant.grant_id)
        return True

    def use(self, member: Member) -> None:
        play = self.play
        if self.unopened.get(member.index) and play.rng.random() < member.segment.rate(CRATES):
            for grant_id in self.unopened.pop(member.index):
                opened = play.act("crates.open", member.handle.grants.open_crate, grant_id)
                if opened is not None:
                    play.rewarded(member)
                    if self._below_expected(opened.crate.entries, opened.contents.entries):
                        play.set_back(member, BELOW_EXPECTED)

    def _below_expected(self, crates: Any, drawn: Any) -> bool:
        """Whether the contents of a crate grant's entries were well below what its crates give on average."""
        means: dict[tuple[str, str], float] = {}
        for entry in crates:
            for at, mean in self.means.get(entry.key, {}).items():
                means[at] = means.get(at, 0.0) + mean * entry.amount
        got: dict[tuple[str, str], int] = {}
        for reward in drawn:
            got[(reward.type, reward.key)] = got.get((reward.type, reward.key), 0) + reward.amount
        return below_expected(means, got)


# --- fitting ------------------------------------------------------------------------------------------


def _read(tx: Any, period: FitPeriod) -> dict[str, dict[str, float]]:
    waits = tx.grants.waits(period.game_id, str(CRATE), period.since, period.until)
    return {p: {"opened": w.taken, "waited": w.waited_days} for p, w in waits.items()}


def _rates(tallies: Tallies, period: FitPeriod) -> dict[str, float]:
    """``crates``: each session opens the crates the player holds by its chance, so a crate is opened at
    ``crates`` times the sessions a day: the chance is the crates opened over the days they waited, over
    the sessions a day."""
    per_day = tallies.sessions / tallies.days if tallies.days else 0.0
    met = tallies.sum("waited") * per_day
    return {CRATES.name: tallies.sum("opened") / met} if met > 0 else {}


SEASON = SeasonPart(
    rates=(CRATES,),
    studio=(SENT,),
    driver=_Crates,
    claimed=(CONTENTS_SOURCE_KIND,),
    fit=Fit(read=_read, rates=_rates),
)
