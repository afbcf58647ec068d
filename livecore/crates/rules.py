"""Crates (docs/grants.md#crates): a grant the player opens; opening draws from the crate's reward table.

A crate reaches a player as a grant of kind ``crate`` whose entries are crate entries
``{type: "crate", key, amount}``: ``amount`` crates of the kind ``key``, each drawn ``rolls`` times from
the game's table for that kind (``[games.<game>.crates.<key>]``), with replacement. A row is drawn with
probability ``weight`` over the table's total weight and gives every one of its rewards.

The draw uses the random source it is given: the server's is unpredictable, a simulation's seeded one
opens the same contents every time. What was drawn is merged into one list of rewards, in the order first
drawn, adding the amounts of equal rewards (same type, key and parameters) up to the most one change may
carry (:data:`livecore.limits.MAX_AMOUNT`); beyond it, another entry of that reward starts.

Limits: a table has 1 to 100 rows, weights 1 to 1,000,000, ``rolls`` 1 to 100; a crate entry holds 1 to
1,000 crates; a crate grant draws at most :data:`MAX_DRAWS` times in all (the sum of ``amount x rolls``
over its entries), checked when it is created.

The kind ``crate`` is declared here (:data:`CRATE_KIND`, added by the crates area with
:func:`livecore.grants.rules.grant_kind`): its
grants hold crate entries and are settled only by opening (or end by the expiry sweep); a claim, an ack or
a force-claim of one is 409 ``crate_must_be_opened``, opening a grant of any other kind 409
``not_a_crate``, both before the grant's status is looked at.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from itertools import accumulate
from typing import Literal

import attrs

from livecore.crates.errors import CRATE_MUST_BE_OPENED, NOT_A_CRATE
from livecore.crates.settings import CRATE_SETTINGS, CrateRow, CrateSettings
from livecore.economy.errors import RESOURCE_NOT_FOUND
from livecore.errors import LivecoreError, invalid_request
from livecore.games import Entry, Game
from livecore.grants.rules import Grant, GrantKind, GrantTrigger, Kind, KindEntry
from livecore.limits import MAX_AMOUNT, Count, Range
from livecore.rand import RandomSource

ROLLS = Range(1, 100)
# Crates in one crate entry: as many as one grant may draw at one roll each.
CRATE_AMOUNT = Range(1, 1_000)
WEIGHT = Range(1, 1_000_000)
TABLE = Count(min_items=1, max_items=100)
# One open stays a quick write: at most this many rows drawn per crate grant.
MAX_DRAWS = 1_000
# A contents grant's ``sourceKind``; its ``sourceRefId`` is the crate grant's id.
CONTENTS_SOURCE_KIND = "crate"


@attrs.frozen
class CrateEntry(KindEntry):
    """``amount`` crates of the kind ``key``: one entry of a crate grant."""

    type: Literal["crate"] = "crate"


def crate(game: Game, key: str) -> CrateSettings:
    """The game's crate ``key``; unknown (or removed from the manifest since): 404 ``resource_not_found``."""
    found = game.settings.of(CRATE_SETTINGS).get(key)
    if found is None:
        raise LivecoreError(RESOURCE_NOT_FOUND, f"No crate {key!r} in this game.", {"crateKey": key})
    return found


def check_crate_entries(game: Game, entries: Sequence[CrateEntry]) -> tuple[CrateEntry, ...]:
    """A crate grant's entries: crates of the game, each entry :data:`CRATE_AMOUNT` crates, drawing at most
    :data:`MAX_DRAWS` times in all."""
    draws = 0
    for i, entry in enumerate(entries):
        try:
            rolls = crate(game, entry.key).rolls
        except LivecoreError as exc:
            exc.details = {**(exc.details or {}), "entry": i}
            raise
        draws += CRATE_AMOUNT.check(entry.amount, f"entries[{i}].amount") * rolls
    if draws > MAX_DRAWS:
        raise invalid_request(
            f"A crate grant draws at most {MAX_DRAWS} times (amount x rolls, over its entries): {draws}.",
            {"entries": f"at most {MAX_DRAWS} draws"},
        )
    return tuple(entries)


def _must_be_opened(grant: Grant) -> LivecoreError:
    return LivecoreError(
        CRATE_MUST_BE_OPENED, "A crate grant is claimed by opening it.", {"grantId": grant.id}
    )


def _not_a_crate(grant: Grant) -> LivecoreError:
    return LivecoreError(NOT_A_CRATE, "This grant is not a crate.", {"grantId": grant.id})


CRATE = GrantKind.own("crate")
"""The crates' kind of grant (``crate``)."""

CRATE_KIND = Kind(
    kind=CRATE,
    entry=CrateEntry,
    check=check_crate_entries,
    holds="crate entries",
    triggers=frozenset({GrantTrigger.OPEN, GrantTrigger.EXPIRE}),
    refusal=_must_be_opened,
    own_trigger=(GrantTrigger.OPEN, _not_a_crate),
)
"""What a crate grant holds and takes, which the crates area declares
(:func:`livecore.grants.rules.grant_kind`)."""


def draw(table: Sequence[CrateRow], rng: RandomSource) -> CrateRow:
    """One row of ``table``, with probability its weight over the total."""
    bounds = list(accumulate(row.weight for row in table))
    # An integer in [0, total): a float product can round up to the total itself.
    pick = min(int(rng.random() * bounds[-1]), bounds[-1] - 1)
    return table[bisect_right(bounds, pick)]


def contents(game: Game, entries: Sequence[CrateEntry], rng: RandomSource) -> tuple[Entry, ...]:
    """What opening ``entries`` gives: every crate drawn ``rolls`` times, equal rewards merged."""
    merged: list[Entry] = []
    for entry in entries:
        settings = crate(game, entry.key)
        for _ in range(entry.amount * settings.rolls):
            for reward in draw(settings.table, rng).rewards:
                _add(merged, reward)
    return tuple(merged)


#: Contents below this share of what a crate gives on average disappoint its player: most draws of a
#: table with a rare jackpot are below its average, and a player expects that much.
DISAPPOINTING = 0.5


def expected(settings: CrateSettings) -> dict[tuple[str, str], float]:
    """What one crate gives on average, by reward (its type and key): each row's rewards by the row's
    chance, over its ``rolls`` draws."""
    total = sum(row.weight for row in settings.table)
    means: dict[tuple[str, str], float] = {}
    for row in settings.table:
        for reward in row.rewards:
            at = (reward.type, reward.key)
            means[at] = means.get(at, 0.0) + settings.rolls * reward.amount * row.weight / total
    return means


def below_expected(means: Mapping[tuple[str, str], float], drawn: Mapping[tuple[str, str], int]) -> bool:
    """Whether ``drawn`` (amounts by reward) is well below what crates whose :func:`expected` rewards sum
    to ``means`` give on average: each reward's amount over its mean, averaged over the rewards the
    crates may give, is below :data:`DISAPPOINTING` (a jackpot of one reward makes up for little of the
    others)."""
    shares = [drawn.get(at, 0) / mean for at, mean in means.items() if mean > 0]
    return bool(shares) and sum(shares) / len(shares) < DISAPPOINTING


def _add(merged: list[Entry], reward: Entry) -> None:
    for i, have in enumerate(merged):
        same = (have.type, have.key, have.parameters) == (reward.type, reward.key, reward.parameters)
        if same and have.amount + reward.amount <= MAX_AMOUNT:
            merged[i] = attrs.evolve(have, amount=have.amount + reward.amount)
            return
    merged.append(reward)


__all__ = [
    "CONTENTS_SOURCE_KIND",
    "CRATE",
    "CRATE_AMOUNT",
    "MAX_DRAWS",
    "ROLLS",
    "TABLE",
    "WEIGHT",
    "CrateEntry",
    "below_expected",
    "check_crate_entries",
    "contents",
    "crate",
    "draw",
    "expected",
]
