"""The economy's part of a simulated season (docs/simulation.md#playing-a-season): a segment's
``spend`` chance and ``spend_share``, the population's ``[economy] spend`` (the currencies players
spend, none by default) and ``[studio] login_credit``; the studio's backend's credit at a player's
first session of a day (the ``login_credit`` of each currency, before what the other areas' backends
send), and a session's spending, its last step: by its ``spend`` chance, the player spends
``spend_share`` of its balance of each currency spent. A studio-managed game's spending is the
studio's backend's to report; a platform game's, the player's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from livecore.economy.memory import EconomyTables
from livecore.economy.rules import Reason
from livecore.games import Economy, GameSettings, ResourceType
from livecore.section import KEY_PATTERN
from livecore.simulation.fields import Problems, table, unknown
from livecore.simulation.part import (
    OFFER,
    Driver,
    Fit,
    FitPeriod,
    Member,
    Play,
    Played,
    PopulationTable,
    Rate,
    SeasonPart,
    StudioRates,
    Tallies,
)

#: A session's chance to spend currency.
SPEND = Rate("spend", 0.2, {"engaged": 0.4, "regular": 0.2, "casual": 0.1})
#: The share of each currency's balance a spend takes.
SPEND_SHARE = Rate("spend_share", 0.5)


def _parse(raw: Any, problems: Problems) -> tuple[str, ...] | None:
    found = table(raw, "economy", problems)
    if found is None:
        return None
    unknown(found, {"spend"}, "economy", problems)
    if "spend" not in found:
        return None
    keys = found["spend"]
    if not isinstance(keys, list) or not all(isinstance(k, str) and KEY_PATTERN.fullmatch(k) for k in keys):
        problems["economy.spend"] = "must be a list of currency keys"
        return None
    if len(set(keys)) != len(keys):
        problems["economy.spend"] = "must not name a currency twice"
        return None
    return tuple(keys)


def _check(found: tuple[str, ...], settings: GameSettings, problems: Problems) -> None:
    for key in found:
        resource = settings.resources.get(key)
        if resource is None or resource.type is not ResourceType.CURRENCY:
            problems["economy.spend"] = f"{key!r} is not a currency of the game"


def _fit_spent(tx: Any, period: FitPeriod, played: Played) -> tuple[str, ...] | None:
    """The currencies players spent in the period (a spend's debits; an offer's sale is not one), in the
    game's order; None where none was spent."""
    debited = tx.ledger.moved(period.game_id, _SPENDING, period.since, period.until, OFFER)
    found = {key for (_, key), total in debited.items() if total < 0}
    spent = tuple(key for key in _currencies(period.settings) if key in found)
    return spent or None


def _write_spent(found: tuple[str, ...]) -> list[str]:
    # A currency's key is a plain word (letters, digits, ``-``, ``_``): a basic string as it is.
    keys = ", ".join(f'"{key}"' for key in found)
    return ["[economy]", f"spend = [{keys}]"]


#: ``[economy] spend``: the currencies players spend (the value: their keys).
SPENT = PopulationTable("economy", _parse, _check, fit=_fit_spent, write=_write_spent)


def _currencies(settings: GameSettings) -> list[str]:
    return [k for k, r in settings.resources.items() if r.type is ResourceType.CURRENCY]


def _fit_credit(tx: Any, period: FitPeriod, played: Played) -> dict[str, float]:
    """Each currency the studio's backend credited (server credits), per day played."""
    if played.days_played <= 0:
        return {}
    credited = tx.ledger.moved(period.game_id, (Reason.SERVER_CREDIT.value,), period.since, period.until)
    return {key: total / played.days_played for (_, key), total in credited.items() if total > 0}


#: ``[studio] login_credit``: the currency the studio's backend credits a player at its first session of
#: a day (whole amounts; none by default).
LOGIN_CREDIT = StudioRates(
    "login_credit",
    "currency",
    _currencies,
    None,
    bounds=(1, 10**12),
    whole=True,
    listed=False,
    fit=_fit_credit,
)


def spent(found: tuple[str, ...] | None) -> list[str]:
    """The currencies players spend by their ``spend`` chance: ``[economy] spend`` (``found``), else none.
    The manifest cannot tell a currency players spend from a progression one (xp), so a population that
    does not say spends only on what the game prices: its offers and its costs."""
    return [] if found is None else list(found)


class _Economy(Driver):
    """The currency credited at a day's first session, and the currencies spent, read from the players'
    holdings."""

    def __init__(self, play: Play) -> None:
        self.play = play
        self.credit = play.sent(LOGIN_CREDIT)
        self.currencies = spent(play.table(SPENT))
        self.platform = play.settings.economy is Economy.PLATFORM
        self.holdings = play.store.tables_of(EconomyTables).holdings

    def studio_day(self, member: Member) -> None:
        play = self.play
        for key, amount in self.credit.items():
            play.act("wallet.credit", play.server.wallet.credit, member.handle, key, int(amount))

    def spend(self, member: Member) -> None:
        if self.play.rng.random() < member.segment.rate(SPEND):
            self._spend(member)

    def _spend(self, member: Member) -> None:
        play = self.play
        share = member.segment.rate(SPEND_SHARE)
        for key in self.currencies:
            held = self.holdings.get((member.handle.id, key))
            amount = int(held.amount * share) if held is not None else 0
            if amount <= 0:
                continue
            if self.platform:
                play.act("wallet.debit", member.handle.wallet.debit, key, amount, reason="spend")
            else:
                debit = play.server.wallet.debit
                play.act("wallet.debit", debit, member.handle, key, amount, reason="spend")


# --- fitting ------------------------------------------------------------------------------------------

#: The debits a player's spending writes: its own (a platform game's), the studio's backend's for it.
_SPENDING = (Reason.CLIENT_DEBIT.value, Reason.SERVER_DEBIT.value)


def _read(tx: Any, period: FitPeriod) -> dict[str, dict[str, float]]:
    """Each player's spends: its debits, but the offers' sales (fitted as the offers' ``buy``)."""
    debits = tx.ledger.debits(period.game_id, _SPENDING, period.since, period.until, OFFER)
    return {
        p: {"spends": d.moments, "debits": d.entries, "share": d.share_sum, "inverse": d.inverse_sum}
        for p, d in debits.items()
    }


def _rates(tallies: Tallies, period: FitPeriod) -> dict[str, float]:
    """``spend``: the spends a session (a spend debits each currency it spends at one moment);
    ``spend_share``: the mean share of the balance a debit took, each debit's whole amount taken as the
    share's amount rounded down (as a season spends: half a unit lost on average, so half a unit over the
    balance is added back)."""
    rates: dict[str, float] = {}
    if tallies.sessions > 0:
        rates[SPEND.name] = tallies.sum("spends") / tallies.sessions
    if tallies.sum("debits"):
        share = tallies.sum("share") + tallies.sum("inverse") / 2
        rates[SPEND_SHARE.name] = share / tallies.sum("debits")
    return rates


def _features(tallies: Mapping[str, float], sessions: float) -> dict[str, tuple[float, float]]:
    return {"spends": (tallies.get("spends", 0.0), sessions)}


SEASON = SeasonPart(
    rates=(SPEND, SPEND_SHARE),
    studio=(LOGIN_CREDIT,),
    tables=(SPENT,),
    driver=_Economy,
    fit=Fit(read=_read, rates=_rates, features=_features),
)
