"""What the guilds' fit reads (livecore/guilds/season.py, docs/simulation.md#how-it-fits) reads alike on
every store (memory, SQLite, PostgreSQL), as tests/server/test_postgres_store.py compares the other
areas' fit reads: each player's stints of a period (those started in it, the time in a guild in it, each
stint cut by the period's ends) and its help (the requests asked in it, the donations made in it, and the
time it could not ask: each request from its asking to its cooldown's end or, when later, to when it
stopped being open; to its closing when its player left the guild), in the game and environment asked."""

from __future__ import annotations

from datetime import timedelta

from livecore.guilds.rules import HelpStatus, HelpTallies, LeftReason, Role, StintTallies
from livecore.scope import Environment
from tests.server import test_postgres_store as twins
from tests.server.test_guilds_store import (
    DAY,
    GAME,
    OTHER_GAME,
    _donation,
    _ended,
    _guild,
    _help,
    _put,
    _put_help,
    _setup,
    _stint,
)
from tests.server.test_postgres_store import Twin

# Its fixtures, by the names the tests take: the stores (and PostgreSQL's check, autouse).
_postgres, twin, events = twins._postgres, twins.twin, twins.events

HOUR = timedelta(hours=1)
COOLDOWN = 8 * HOUR


def _days(hours: int) -> float:
    """As the stores sum them: milliseconds over a day's."""
    return hours * 3_600_000 / 86_400_000


def test_the_stints_and_the_help_of_a_period_read_alike_on_every_store(events: Twin) -> None:
    twin = events
    p, t0 = _setup(twin, "a", "b", "c", "k")
    a, b, c, k = p["a"], p["b"], p["c"], p["k"]
    since, until = t0 + HOUR, t0 + DAY
    g1, g2, g3 = _guild(1, "One", t0), _guild(2, "Two", t0), _guild(3, "Three", t0)
    live = _guild(4, "One", t0, env=Environment.LIVE)  # another environment
    other = _guild(5, "Five", t0, game_id=OTHER_GAME)  # another game
    _put(twin, lambda port, g: port.insert(g), g1, g2, g3, live, other)
    _put(
        twin,
        lambda port, s: port.put_stint(s),
        # a: in g1 from before the period to 3h (2h of it), then in g2 from 5h on (19h): joined once.
        _ended(_stint(1, g1, a, t0, Role.LEADER), t0 + 3 * HOUR),
        _stint(2, g2, a, t0 + 5 * HOUR, Role.LEADER),
        # b: from the period's first instant to past its end.
        _ended(_stint(3, g2, b, since), t0 + 2 * DAY, LeftReason.KICKED),
        # c: left as the period began, in another environment, and joined as it ended: none of it.
        _ended(_stint(4, g1, c, t0 - DAY), since),
        _ended(_stint(5, live, c, t0 + 2 * HOUR, Role.LEADER), t0 + 3 * HOUR),
        _stint(6, g3, c, until, Role.LEADER),
        # k: joined and left at one instant, in the period.
        _ended(_stint(7, g3, k, t0 + 6 * HOUR), t0 + 6 * HOUR),
    )
    before = _help(1, g2, a, t0)  # open from before the period to its end: all of it blocked
    filled = _help(2, g2, b, t0 + 2 * HOUR, status=HelpStatus.FILLED, closed_at=t0 + 3 * HOUR)  # cooldown: 8h
    late = _help(3, g2, b, t0 + 12 * HOUR, status=HelpStatus.FILLED, closed_at=t0 + 22 * HOUR)  # filled: 10h
    left = _help(4, g1, c, t0 + 4 * HOUR, status=HelpStatus.CLOSED, closed_at=t0 + 5 * HOUR)  # left: 1h
    last = _help(5, g3, c, t0 + 23 * HOUR)  # open past the period's end: 1h of it
    old = _help(6, g3, k, t0 - 2 * DAY)  # expired before the period
    after = _help(7, g3, k, until)
    elsewhere = _help(8, other, a, t0 + 6 * HOUR)
    _put_help(
        twin, lambda port, h: port.insert_help(h), before, filled, late, left, last, old, after, elsewhere
    )
    _put_help(
        twin,
        lambda port, d: port.insert_donation(d),
        _donation(1, before, k, t0 + HOUR / 2),  # before the period
        _donation(2, filled, k, t0 + 2 * HOUR + HOUR / 2),
        _donation(3, filled, k, t0 + 3 * HOUR),
        _donation(4, left, a, t0 + 4 * HOUR + HOUR / 2),
        _donation(5, last, b, until),  # at the period's end: after it
        _donation(6, elsewhere, b, t0 + 7 * HOUR),  # another game
    )

    stints = twin.read(lambda tx: tx.guilds.tallies(GAME, Environment.TEST, since, until))
    assert stints == {
        a.id: StintTallies(joined=1, guild_days=_days(21)),
        b.id: StintTallies(joined=1, guild_days=_days(23)),
        k.id: StintTallies(joined=1, guild_days=0.0),
    }
    assert twin.read(lambda tx: tx.guilds.tallies(GAME, Environment.LIVE, since, until)) == {
        c.id: StintTallies(joined=1, guild_days=_days(1))
    }
    help_ = twin.read(lambda tx: tx.guild_help.tallies(GAME, since, until, COOLDOWN))
    assert help_ == {
        a.id: HelpTallies(asked=0, donations=1, blocked_days=_days(23)),
        b.id: HelpTallies(asked=2, donations=0, blocked_days=_days(8 + 10)),
        c.id: HelpTallies(asked=2, donations=0, blocked_days=_days(1 + 1)),
        k.id: HelpTallies(asked=0, donations=2, blocked_days=0.0),
    }
    # A longer cooldown blocks the filled requests longer: b's first to 14h, its second to the period's end.
    longer = twin.read(lambda tx: tx.guild_help.tallies(GAME, since, until, 12 * HOUR))
    assert longer[b.id] == HelpTallies(asked=2, donations=0, blocked_days=_days(12 + 12))
    assert longer[c.id] == help_[c.id]  # a request closed as its player left blocks to its closing
    assert twin.read(lambda tx: tx.guild_help.tallies(OTHER_GAME, since, until, COOLDOWN)) == {
        a.id: HelpTallies(asked=1, donations=0, blocked_days=_days(18)),
        b.id: HelpTallies(asked=0, donations=1, blocked_days=0.0),
    }
    # A period after everything: nothing but the stints still current, and the open request's rest.
    later = (until + DAY, until + 2 * DAY)
    assert twin.read(lambda tx: tx.guilds.tallies(GAME, Environment.TEST, *later)) == {
        a.id: StintTallies(joined=0, guild_days=1.0),
        c.id: StintTallies(joined=0, guild_days=1.0),
    }
    assert twin.read(lambda tx: tx.guild_help.tallies(GAME, *later, COOLDOWN)) == {}
