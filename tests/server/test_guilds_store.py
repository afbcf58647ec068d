"""The guilds' ports (the guilds, and their help) on every store (memory, SQLite, PostgreSQL), step for
step, as tests/server/test_teams_store.py checks the teams port (and with the twins of
test_postgres_store.py): the same calls return the same records, in the same order, and each store
refuses a second guild not disbanded of one name (ignoring case) and a second current stint of one
player."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import attrs
import psycopg
import pytest

from livecore.games import ResourceType
from livecore.guilds.rules import (
    SYSTEM_BY,
    By,
    ByKind,
    DisbandReason,
    Donation,
    Guild,
    HelpRequest,
    HelpStatus,
    JoinRequest,
    JoinType,
    JoinVia,
    LeftReason,
    RequestStatus,
    Role,
    Stint,
)
from livecore.scope import Environment
from tests.server import test_postgres_store as twins
from tests.server.test_postgres_store import Twin

# Its fixtures, by the names the tests take: the stores (and PostgreSQL's check, autouse).
_postgres, twin, events = twins._postgres, twins.twin, twins.events

GAME = "gam_2"  # the events twin's game, on every store
OTHER_GAME = "gam_1"  # the SQL twins' first game (memory keeps no game of a guild)
SECOND = timedelta(seconds=1)
DAY = timedelta(days=1)


def _guild(n: int, name: str, created: datetime, **kw: Any) -> Guild:
    return Guild(
        id=f"gld_{n:03d}",
        game_id=kw.pop("game_id", GAME),
        env=kw.pop("env", Environment.TEST),
        name=name,
        join_type=kw.pop("join_type", JoinType.OPEN),
        created_at=created,
        **kw,
    )


def _stint(n: int, guild: Guild, player: Any, joined: datetime, role: Role = Role.MEMBER, **kw: Any) -> Stint:
    return Stint(
        id=f"gms_{n:03d}",
        guild_id=guild.id,
        game_id=guild.game_id,
        env=guild.env,
        player_id=player.id,
        external_player_id=player.external_id,
        role=role,
        via=kw.pop("via", JoinVia.OPEN),
        joined_at=joined,
        joined_by=kw.pop("joined_by", By.player(player)),
        **kw,
    )


def _ended(stint: Stint, at: datetime, reason: LeftReason = LeftReason.LEFT, by: By | None = None) -> Stint:
    return attrs.evolve(stint, left_at=at, left_reason=reason, left_by=by or stint.joined_by)


def _request(n: int, guild: Guild, player: Any, created: datetime, **kw: Any) -> JoinRequest:
    return JoinRequest(
        id=f"gjr_{n:03d}",
        guild_id=guild.id,
        game_id=guild.game_id,
        player_id=player.id,
        external_player_id=player.external_id,
        message=kw.pop("message", None),
        created_at=created,
        **kw,
    )


def _help(n: int, guild: Guild, player: Any, created: datetime, **kw: Any) -> HelpRequest:
    return HelpRequest(
        id=f"ghr_{n:03d}",
        guild_id=guild.id,
        game_id=guild.game_id,
        player_id=player.id,
        external_player_id=player.external_id,
        type=kw.pop("type", ResourceType.CURRENCY),
        resource_key=kw.pop("resource_key", "coins"),
        amount=kw.pop("amount", 5),
        created_at=created,
        expires_at=kw.pop("expires_at", created + DAY),
        **kw,
    )


def _donation(n: int, request: HelpRequest, donor: Any, at: datetime, amount: int = 1) -> Donation:
    return Donation(
        id=f"gdn_{n:03d}",
        request_id=request.id,
        guild_id=request.guild_id,
        game_id=request.game_id,
        donor_player_id=donor.id,
        donor_external_player_id=donor.external_id,
        amount=amount,
        grant_id=f"gr_{n:03d}",
        reward_grant_id=None if n % 2 else f"gr_{n:03d}r",
        donated_at=at,
    )


def _refused_everywhere(twin: Twin, write: Callable[[Any], None], meanwhile: Guild) -> None:
    """Each store refuses ``write`` with its own integrity error, and keeps nothing of the transaction
    (``meanwhile``, inserted before it, included)."""
    assert twin.memory is not None
    for store, error in (
        (twin.sqlite, sqlite3.IntegrityError),
        (twin.pg, psycopg.errors.UniqueViolation),
        (twin.memory, KeyError),
    ):
        with pytest.raises(error), store.transaction() as tx:
            tx.guilds.insert(meanwhile)
            write(tx)
            tx.guilds.get(GAME, meanwhile.id)  # PostgreSQL answers the writes with this read
    assert twin.read(lambda tx: tx.guilds.get(GAME, meanwhile.id)) is None


def _setup(twin: Twin, *names: str) -> tuple[dict[str, Any], datetime]:
    twins.players(twin, *names)
    players = {n: twin.read(lambda tx, n=n: twin.player(tx, n)) for n in names}
    return players, twin.runtimes[0].clock.now()


def _put(twin: Twin, write: Callable[[Any, Any], None], *records: Any) -> None:
    for record in records:
        twin.read(lambda tx, record=record: write(tx.guilds, record))


def _put_help(twin: Twin, write: Callable[[Any, Any], None], *records: Any) -> None:
    for record in records:
        twin.read(lambda tx, record=record: write(tx.guild_help, record))


def test_guilds_read_back_alike_and_a_live_name_is_taken_whatever_its_case(events: Twin) -> None:
    twin = events
    _, t0 = _setup(twin)
    g1 = _guild(1, "Red Comets", t0)
    g2 = _guild(
        2,
        "Straße Kings",
        t0 + SECOND,
        join_type=JoinType.REQUEST,
        description="We ask.",
        badge="crown",
        country="DE",
        metadata={"z": 1, "a": [1, None], "é": "ü"},
        member_count=3,
    )
    g3 = _guild(3, "Red Comets", t0, env=Environment.LIVE)  # another environment
    g4 = _guild(4, "red comets", t0, game_id=OTHER_GAME)  # another game
    _put(twin, lambda port, g: port.insert(g), g1, g2, g3, g4)
    assert twin.read(lambda tx: tx.guilds.get(GAME, g2.id)) == g2
    assert twin.read(lambda tx: tx.guilds.get(OTHER_GAME, g2.id)) is None
    assert twin.read(lambda tx: tx.guilds.get(GAME, "gld_none")) is None
    assert twin.read(lambda tx: tx.guilds.by_name(GAME, Environment.TEST, "red comets")) == g1
    assert twin.read(lambda tx: tx.guilds.by_name(GAME, Environment.LIVE, "red comets")) == g3
    assert twin.read(lambda tx: tx.guilds.by_name(OTHER_GAME, Environment.TEST, "red comets")) == g4
    assert twin.read(lambda tx: tx.guilds.by_name(GAME, Environment.TEST, "strasse kings")) == g2
    assert twin.read(lambda tx: tx.guilds.by_name(GAME, Environment.TEST, "Red Comets")) is None  # a key

    # Every field an update writes reads back; the id, game, environment and creation time stay.
    edited = attrs.evolve(
        g1,
        name="Blue Comets",
        join_type=JoinType.REQUEST,
        description="New.",
        badge="star",
        country="FR",
        metadata={},
        member_count=7,
    )
    twin.read(lambda tx: tx.guilds.update(attrs.evolve(edited, env=Environment.LIVE, created_at=t0 + DAY)))
    assert twin.read(lambda tx: tx.guilds.get(GAME, g1.id)) == edited
    assert twin.read(lambda tx: tx.guilds.by_name(GAME, Environment.TEST, "red comets")) is None
    assert twin.read(lambda tx: tx.guilds.by_name(GAME, Environment.TEST, "blue comets")) == edited
    cleared = attrs.evolve(edited, description=None, badge=None, country=None, metadata=None)
    twin.read(lambda tx: tx.guilds.update(cleared))
    assert twin.read(lambda tx: tx.guilds.get(GAME, g1.id)) == cleared

    # A second guild not disbanded of a name, whatever its case, is refused: inserted or renamed to it.
    _refused_everywhere(
        twin, lambda tx: tx.guilds.insert(_guild(10, "BLUE COMETS", t0)), _guild(90, "x1", t0)
    )
    _refused_everywhere(
        twin, lambda tx: tx.guilds.insert(_guild(11, "strasse KINGS", t0)), _guild(91, "x2", t0)
    )
    _refused_everywhere(
        twin, lambda tx: tx.guilds.update(attrs.evolve(g2, name="Blue comets")), _guild(92, "x3", t0)
    )
    # A guild keeps its own name under an edit of its case.
    recased = attrs.evolve(cleared, name="BLUE comets")
    twin.read(lambda tx: tx.guilds.update(recased))
    assert twin.read(lambda tx: tx.guilds.by_name(GAME, Environment.TEST, "blue comets")) == recased

    # A disbanded guild frees its name: a new guild takes it, and the two read back.
    disbanded = attrs.evolve(
        recased, member_count=0, disbanded_at=t0 + 5 * SECOND, disband_reason=DisbandReason.LAST_MEMBER_LEFT
    )
    twin.read(lambda tx: tx.guilds.update(disbanded))
    assert twin.read(lambda tx: tx.guilds.by_name(GAME, Environment.TEST, "blue comets")) is None
    again = _guild(5, "Blue Comets", t0 + 6 * SECOND)
    twin.read(lambda tx: tx.guilds.insert(again))
    assert twin.read(lambda tx: tx.guilds.by_name(GAME, Environment.TEST, "blue comets")) == again
    assert twin.read(lambda tx: tx.guilds.get(GAME, g1.id)) == disbanded
    # Two disbanded guilds of one name are no conflict; a disbanded one brought back is held to the key.
    twin.read(
        lambda tx: tx.guilds.update(
            attrs.evolve(again, disbanded_at=t0 + DAY, disband_reason=DisbandReason.ADMIN)
        )
    )
    third = _guild(6, "blue COMETS", t0 + 7 * SECOND)
    twin.read(lambda tx: tx.guilds.insert(third))
    revived = attrs.evolve(disbanded, disbanded_at=None, disband_reason=None)
    _refused_everywhere(twin, lambda tx: tx.guilds.update(revived), _guild(93, "x4", t0))
    assert twin.read(lambda tx: tx.guilds.get(GAME, g1.id)) == disbanded


def test_search_filters_orders_and_pages_alike_on_every_store(events: Twin) -> None:
    twin = events
    p, t0 = _setup(twin, "a", "b")
    at = lambda n: t0 + n * SECOND  # noqa: E731
    alpha = _guild(1, "Alpha Wolves", at(0))
    pack = _guild(2, "alpha pack", at(1))
    kings = _guild(3, "Straße Kings", at(2))
    fun = _guild(4, "100% Fun_Club", at(3))
    wolfpack = _guild(5, "Wolfpack", at(3))  # created with fun: the greater id first
    old = _guild(6, "Old Wolves", at(4), disbanded_at=at(9), disband_reason=DisbandReason.ADMIN)
    eclair = _guild(7, "Éclair Guild", at(5))
    prod = _guild(8, "Alpha Wolves", at(6), env=Environment.LIVE)
    other = _guild(9, "Alpha Wolves", at(7), game_id=OTHER_GAME)
    _put(twin, lambda port, g: port.insert(g), alpha, pack, kings, fun, wolfpack, old, eclair, prod, other)
    # a was in alpha (left), in old (which it left, then it was disbanded) and is in wolfpack; b in none.
    a_alpha = _ended(_stint(1, alpha, p["a"], at(0), Role.LEADER), at(1))
    a_old = _ended(_stint(2, old, p["a"], at(4), Role.LEADER), at(8))
    a_wolf = _stint(3, wolfpack, p["a"], at(8))
    _put(twin, lambda port, s: port.put_stint(s), a_alpha, a_old, a_wolf)

    def search(
        text: str | None = None,
        player: str | None = None,
        disbanded: bool = False,
        limit: int = 100,
        offset: int = 0,
    ) -> list[Guild]:
        return twin.read(  # type: ignore[no-any-return]
            lambda tx: tx.guilds.search(
                GAME,
                Environment.TEST,
                text=text,
                player_id=None if player is None else p[player].id,
                include_disbanded=disbanded,
                limit=limit,
                offset=offset,
            )
        )

    live = [eclair, wolfpack, fun, kings, pack, alpha]
    assert search() == live
    assert search(disbanded=True) == [eclair, old, wolfpack, fun, kings, pack, alpha]
    # Pages of the same order.
    assert search(limit=2) + search(limit=2, offset=2) + search(limit=2, offset=4) == live
    assert search(limit=4, offset=5) == [alpha]
    assert search(offset=6) == []
    # Text: a case-insensitive substring of the name, short (no trigram) or long, casefolded.
    assert search("wolf") == search("WOLFP") == [wolfpack]
    assert search("WOLVES") == [alpha]
    assert search("wolves", disbanded=True) == [old, alpha]
    assert search("wo") == [wolfpack, alpha]
    assert search("w", disbanded=True) == [old, wolfpack, alpha]
    assert search("a", limit=3, offset=1) == [wolfpack, kings, pack]
    assert search("ALPHA") == [pack, alpha]
    assert search("ss") == search("ß") == search("STRAßE") == search("strasse kings") == [kings]
    assert search("éclair") == search("ÉCLAIR") == [eclair]
    assert search("%") == search("_") == search("n_c") == search("0% f") == [fun]
    assert search("\\") == search("zzz") == search('"') == search('a"b') == []
    assert search("ol", limit=1, offset=1) == [alpha]
    # The guilds a player was ever in, alone or with text.
    assert search(player="a") == [wolfpack, alpha]
    assert search(player="a", disbanded=True) == [old, wolfpack, alpha]
    assert search("wolves", player="a", disbanded=True) == [old, alpha]
    assert search("pack", player="a") == [wolfpack]
    assert search("al", player="a") == [alpha]
    assert search("al", player="a", limit=1, offset=1) == []
    assert search(player="b") == []


def test_stints_read_back_alike_and_a_player_has_one_current_stint(events: Twin) -> None:
    twin = events
    p, t0 = _setup(twin, "a", "b", "c")
    g1, g2 = _guild(1, "One", t0), _guild(2, "Two", t0)
    _put(twin, lambda port, g: port.insert(g), g1, g2)
    member = By(ByKind.MEMBER, member_id="mem_1")
    key = By(ByKind.API_KEY, api_key_prefix="lc_test_ab")
    a1 = _stint(5, g1, p["a"], t0 + SECOND, Role.LEADER, via=JoinVia.CREATED)
    b1 = _stint(2, g1, p["b"], t0 + SECOND, Role.CO_LEADER, via=JoinVia.REQUEST, joined_by=By.player(p["a"]))
    c1 = _stint(1, g1, p["c"], t0 + 2 * SECOND, via=JoinVia.ADMIN, joined_by=member)
    _put(twin, lambda port, s: port.put_stint(s), a1, b1, c1)
    # Joining order; one millisecond: by id.
    assert twin.read(lambda tx: tx.guilds.members(g1.id)) == [b1, a1, c1]
    assert twin.read(lambda tx: tx.guilds.history(g1.id)) == [b1, a1, c1]
    assert twin.read(lambda tx: tx.guilds.current_stint(p["b"].id)) == b1
    assert twin.read(lambda tx: tx.guilds.members(g2.id)) == []

    # One current stint per player: another guild refuses c, and so does its own under another id.
    _refused_everywhere(
        twin, lambda tx: tx.guilds.put_stint(_stint(20, g2, p["c"], t0)), _guild(90, "x1", t0)
    )
    _refused_everywhere(
        twin, lambda tx: tx.guilds.put_stint(_stint(21, g1, p["c"], t0)), _guild(91, "x2", t0)
    )
    # Its own stint is replaced, every field read back.
    promoted = attrs.evolve(c1, role=Role.CO_LEADER)
    twin.read(lambda tx: tx.guilds.put_stint(promoted))
    assert twin.read(lambda tx: tx.guilds.current_stint(p["c"].id)) == promoted

    # An ended stint stays in the history, frees the player, and keeps who ended it.
    kicked = _ended(promoted, t0 + 3 * SECOND, LeftReason.KICKED, By.player(p["a"]))
    removed = _ended(b1, t0 + 4 * SECOND, LeftReason.REMOVED, key)
    twin.read(lambda tx: tx.guilds.put_stint(kicked))
    twin.read(lambda tx: tx.guilds.put_stint(removed))
    assert twin.read(lambda tx: tx.guilds.current_stint(p["c"].id)) is None
    assert twin.read(lambda tx: tx.guilds.members(g1.id)) == [a1]
    assert twin.read(lambda tx: tx.guilds.history(g1.id)) == [removed, a1, kicked]
    c2 = _stint(3, g2, p["c"], t0 + 5 * SECOND, Role.LEADER, via=JoinVia.CREATED)
    c3_ended = _ended(_stint(4, g2, p["c"], t0, via=JoinVia.MERGE, joined_by=SYSTEM_BY), t0 + SECOND)
    _put(twin, lambda port, s: port.put_stint(s), c2, c3_ended)
    assert twin.read(lambda tx: tx.guilds.current_stint(p["c"].id)) == c2
    assert twin.read(lambda tx: tx.guilds.members(g2.id)) == [c2]
    assert twin.read(lambda tx: tx.guilds.history(g2.id)) == [c3_ended, c2]
    # A player's stints newest first, current ones included.
    assert twin.read(lambda tx: tx.guilds.stints_of(p["c"].id)) == [c2, kicked, c3_ended]
    assert twin.read(lambda tx: tx.guilds.stints_of(p["b"].id)) == [removed]
    # A stint brought back from ended is held to the rule too: c is in g2 now.
    _refused_everywhere(
        twin,
        lambda tx: tx.guilds.put_stint(attrs.evolve(kicked, left_at=None, left_reason=None, left_by=None)),
        _guild(92, "x3", t0),
    )


def test_leaders_unseen_since_are_the_current_leaders_of_the_game_seen_at_or_before_the_cutoff(
    events: Twin,
) -> None:
    twin = events
    p, t0 = _setup(twin, "a", "b", "c", "d", "e", "f")
    cutoff = t0 - 14 * DAY
    seen = {"a": cutoff - DAY, "b": cutoff + timedelta(milliseconds=1), "c": cutoff, "d": cutoff - DAY}
    seen |= {"e": cutoff - DAY, "f": cutoff - 2 * DAY}
    for name, at in seen.items():
        twin.read(lambda tx, name=name, at=at: tx.players.update(attrs.evolve(p[name], last_seen_at=at)))
    guilds = [_guild(n, f"Guild {n}", t0) for n in range(1, 6)]
    guilds.append(_guild(6, "Elsewhere", t0, game_id=OTHER_GAME))
    _put(twin, lambda port, g: port.insert(g), *guilds)
    g1, g2, g3, g4, g5, g6 = guilds
    a = _stint(7, g1, p["a"], t0, Role.LEADER)  # unseen
    b = _stint(3, g2, p["b"], t0, Role.LEADER)  # seen after the cutoff
    c = _stint(9, g3, p["c"], t0, Role.LEADER)  # seen at the cutoff exactly
    d = _stint(2, g1, p["d"], t0, Role.CO_LEADER)  # unseen, not a leader
    e_ended = _ended(_stint(1, g4, p["e"], t0, Role.LEADER), t0)  # unseen, no longer leads
    e = _stint(8, g5, p["e"], t0, Role.LEADER)
    f = _stint(4, g6, p["f"], t0, Role.LEADER)  # another game's
    _put(twin, lambda port, s: port.put_stint(s), a, b, c, d, e_ended, e, f)

    def unseen(limit: int, after: str | None = None) -> list[Stint]:
        return twin.read(lambda tx: tx.guilds.leaders_unseen_since(GAME, cutoff, after, limit))

    assert unseen(10) == [a, e, c]
    assert unseen(2) == [a, e]
    assert unseen(10, after=e.id) == [c]  # the sweep's next step goes on after the last stint it saw
    assert twin.read(lambda tx: tx.guilds.leaders_unseen_since(OTHER_GAME, cutoff, None, 10)) == [f]
    assert twin.read(lambda tx: tx.guilds.leaders_unseen_since(GAME, cutoff - DAY, None, 10)) == [a, e]


def test_join_requests_help_requests_and_donations_read_back_alike(events: Twin) -> None:
    twin = events
    p, t0 = _setup(twin, "a", "b", "c")
    g1, g2 = (
        _guild(1, "One", t0, join_type=JoinType.REQUEST),
        _guild(2, "Two", t0, join_type=JoinType.REQUEST),
    )
    _put(twin, lambda port, g: port.insert(g), g1, g2)

    # Join requests: pending ones oldest first (one millisecond: by id), by guild and by player.
    r1 = _request(5, g1, p["a"], t0, message="Let me in")
    r2 = _request(2, g1, p["b"], t0)
    r3 = _request(3, g2, p["a"], t0 - SECOND)
    r4 = _request(4, g1, p["c"], t0 - SECOND, status=RequestStatus.DECLINED, resolved_at=t0)
    _put(twin, lambda port, r: port.insert_request(r), r1, r2, r3, r4)
    assert twin.read(lambda tx: tx.guilds.request(GAME, r1.id)) == r1
    assert twin.read(lambda tx: tx.guilds.request(OTHER_GAME, r1.id)) is None
    assert twin.read(lambda tx: tx.guilds.request(GAME, r4.id)) == r4
    assert twin.read(lambda tx: tx.guilds.pending_requests(g1.id)) == [r2, r1]
    assert twin.read(lambda tx: tx.guilds.pending_of(p["a"].id)) == [r3, r1]
    assert twin.read(lambda tx: tx.guilds.pending_of(p["c"].id)) == []
    accepted = attrs.evolve(r1, status=RequestStatus.ACCEPTED, resolved_at=t0 + SECOND)
    cancelled = attrs.evolve(r3, status=RequestStatus.CANCELLED, resolved_at=t0 + SECOND)
    _put(twin, lambda port, r: port.update_request(r), accepted, cancelled)
    assert twin.read(lambda tx: tx.guilds.request(GAME, r1.id)) == accepted
    assert twin.read(lambda tx: tx.guilds.pending_requests(g1.id)) == [r2]
    assert twin.read(lambda tx: tx.guilds.pending_of(p["a"].id)) == []

    # Help requests: open ones not expired newest first; a player's stored open one (the newest), its
    # latest to a guild whatever its status.
    h1 = _help(1, g1, p["a"], t0, expires_at=t0 + 2 * SECOND)
    h2 = _help(2, g1, p["b"], t0 + SECOND, type=ResourceType.ITEM, resource_key="energy", amount=3)
    h3 = _help(3, g1, p["c"], t0 + SECOND, status=HelpStatus.FILLED, donated=5, closed_at=t0 + SECOND)
    h4 = _help(4, g2, p["a"], t0 + 3 * SECOND)  # a's next, to another guild, while h1 is expired
    _put_help(twin, lambda port, h: port.insert_help(h), h1, h2, h3, h4)
    open_at = lambda at: twin.read(lambda tx: tx.guild_help.open_help(g1.id, at))  # noqa: E731
    assert twin.read(lambda tx: tx.guild_help.help(GAME, h2.id)) == h2
    assert twin.read(lambda tx: tx.guild_help.help(OTHER_GAME, h2.id)) is None
    assert open_at(t0 + SECOND) == [h2, h1]
    assert open_at(t0 + 2 * SECOND - timedelta(milliseconds=1)) == [h2, h1]
    assert open_at(t0 + 2 * SECOND) == [h2]  # h1 expired: at its expiry exactly
    assert twin.read(lambda tx: tx.guild_help.open_help_of(p["a"].id)) == h4
    assert twin.read(lambda tx: tx.guild_help.open_help_of(p["b"].id)) == h2
    assert twin.read(lambda tx: tx.guild_help.open_help_of(p["c"].id)) is None
    assert twin.read(lambda tx: tx.guild_help.last_help(g1.id, p["a"].id)) == h1
    assert twin.read(lambda tx: tx.guild_help.last_help(g2.id, p["a"].id)) == h4
    assert twin.read(lambda tx: tx.guild_help.last_help(g1.id, p["c"].id)) == h3
    assert twin.read(lambda tx: tx.guild_help.last_help(g2.id, p["b"].id)) is None
    h5 = _help(5, g1, p["a"], t0, status=HelpStatus.CLOSED, closed_at=t0)  # one millisecond: by id
    twin.read(lambda tx: tx.guild_help.insert_help(h5))
    assert twin.read(lambda tx: tx.guild_help.last_help(g1.id, p["a"].id)) == h5

    # Donations oldest first (one millisecond: by id); what a donation and a leaving change reads back.
    d1 = _donation(3, h2, p["a"], t0 + 2 * SECOND)
    d2 = _donation(1, h2, p["c"], t0 + 2 * SECOND, amount=2)
    d3 = _donation(2, h2, p["a"], t0 + SECOND)
    _put_help(twin, lambda port, d: port.insert_donation(d), d1, d2, d3)
    assert twin.read(lambda tx: tx.guild_help.donations(h2.id)) == [d3, d2, d1]
    assert twin.read(lambda tx: tx.guild_help.donations(h1.id)) == []
    filled = attrs.evolve(h2, donated=3, status=HelpStatus.FILLED, closed_at=t0 + 2 * SECOND)
    twin.read(lambda tx: tx.guild_help.update_help(filled))
    assert twin.read(lambda tx: tx.guild_help.help(GAME, h2.id)) == filled
    assert open_at(t0 + SECOND) == [h1]
    twin.read(lambda tx: tx.guild_help.update_help(attrs.evolve(h1, status=HelpStatus.CLOSED, closed_at=t0)))
    assert open_at(t0) == []
    assert twin.read(lambda tx: tx.guild_help.open_help_of(p["b"].id)) is None


def test_reassign_moves_everything_of_a_player_and_who_acted_names_it_no_more(events: Twin) -> None:
    twin = events
    p, t0 = _setup(twin, "a", "b", "c", "k")
    a, b, c, k = p["a"], p["b"], p["c"], p["k"]
    g1, g2, g3 = _guild(1, "One", t0), _guild(2, "Two", t0), _guild(3, "Three", t0)
    _put(twin, lambda port, g: port.insert(g), g1, g2, g3)
    # a founded g1 and left; in g2 it accepted k, kicked k, and was kicked by c; b leads g3.
    a1 = _ended(_stint(1, g1, a, t0, Role.LEADER, via=JoinVia.CREATED), t0 + SECOND)
    c2 = _stint(2, g2, c, t0, Role.LEADER, via=JoinVia.CREATED)
    a2 = _ended(_stint(3, g2, a, t0, Role.CO_LEADER), t0 + 3 * SECOND, LeftReason.KICKED, By.player(c))
    k2 = _ended(
        _stint(4, g2, k, t0 + SECOND, via=JoinVia.REQUEST, joined_by=By.player(a)),
        t0 + 2 * SECOND,
        LeftReason.KICKED,
        By.player(a),
    )
    b3 = _stint(5, g3, b, t0, Role.LEADER, via=JoinVia.CREATED)
    _put(twin, lambda port, s: port.put_stint(s), a1, c2, a2, k2, b3)
    ra = _request(1, g3, a, t0, status=RequestStatus.CANCELLED, resolved_at=t0 + SECOND)
    rk = _request(2, g2, k, t0)
    _put(twin, lambda port, r: port.insert_request(r), ra, rk)
    ha = _help(1, g2, a, t0, status=HelpStatus.CLOSED, closed_at=t0 + 3 * SECOND)
    hc = _help(2, g2, c, t0)
    _put_help(twin, lambda port, h: port.insert_help(h), ha, hc)
    da = _donation(1, hc, a, t0 + SECOND)
    dk = _donation(2, ha, k, t0 + SECOND)
    _put_help(twin, lambda port, d: port.insert_donation(d), da, dk)

    # A source with a current stint into a target with one breaks the key: the command ends it first.
    a_current = _stint(6, g1, a, t0 + 5 * SECOND)
    twin.read(lambda tx: tx.guilds.put_stint(a_current))
    _refused_everywhere(twin, lambda tx: tx.guilds.reassign(a.id, b), _guild(90, "x1", t0))
    a_left = _ended(a_current, t0 + 6 * SECOND, LeftReason.MERGED, SYSTEM_BY)
    twin.read(lambda tx: tx.guilds.put_stint(a_left))

    # The merge of a into b: a's stints, requests, help requests and donations are b's, and the ``by``
    # naming a (its own founding and leaving, k's acceptance and kick) names b; c's kick stays c's.
    twin.read(lambda tx: (tx.guilds.reassign(a.id, b), tx.guild_help.reassign(a.id, b)))
    as_b = {"player_id": b.id, "external_player_id": "b"}
    by_b = By.player(b)
    a1_b = attrs.evolve(a1, joined_by=by_b, left_by=by_b, **as_b)
    a2_b = attrs.evolve(a2, joined_by=by_b, **as_b)
    k2_b = attrs.evolve(k2, joined_by=by_b, left_by=by_b)
    assert twin.read(lambda tx: tx.guilds.history(g1.id)) == [
        a1_b,
        attrs.evolve(a_left, joined_by=by_b, **as_b),
    ]
    assert twin.read(lambda tx: tx.guilds.history(g2.id)) == [c2, a2_b, k2_b]
    assert twin.read(lambda tx: tx.guilds.history(g3.id)) == [b3]
    assert twin.read(lambda tx: tx.guilds.current_stint(b.id)) == b3
    assert twin.read(lambda tx: tx.guilds.stints_of(a.id)) == []
    assert [s.id for s in twin.read(lambda tx: tx.guilds.stints_of(b.id))] == [
        "gms_006",
        "gms_005",
        "gms_003",
        "gms_001",
    ]
    assert twin.read(lambda tx: tx.guilds.request(GAME, ra.id)) == attrs.evolve(ra, **as_b)
    assert twin.read(lambda tx: tx.guilds.request(GAME, rk.id)) == rk
    assert twin.read(lambda tx: tx.guild_help.help(GAME, ha.id)) == attrs.evolve(ha, **as_b)
    assert twin.read(lambda tx: tx.guild_help.last_help(g2.id, b.id)) == attrs.evolve(ha, **as_b)
    assert twin.read(lambda tx: tx.guild_help.help(GAME, hc.id)) == hc
    assert twin.read(lambda tx: tx.guild_help.donations(hc.id)) == [
        attrs.evolve(da, donor_player_id=b.id, donor_external_player_id="b")
    ]
    assert twin.read(lambda tx: tx.guild_help.donations(ha.id)) == [dk]
    assert twin.read(
        lambda tx: tx.guilds.search(
            GAME, Environment.TEST, text=None, player_id=b.id, include_disbanded=True, limit=10, offset=0
        )
    ) == [g3, g2, g1]

    # An erasure: the same row under its placeholder, everywhere it was named.
    gone = "__deleted_x__"
    kept = attrs.evolve(b, external_id=gone)
    twin.read(lambda tx: (tx.guilds.reassign(b.id, kept), tx.guild_help.reassign(b.id, kept)))
    as_kept = {"player_id": b.id, "external_player_id": gone}
    by_kept = By.player(kept)
    assert by_kept.external_player_id == gone
    assert twin.read(lambda tx: tx.guilds.history(g1.id)) == [
        attrs.evolve(a1_b, joined_by=by_kept, left_by=by_kept, **as_kept),
        attrs.evolve(a_left, joined_by=by_kept, **as_kept),
    ]
    assert twin.read(lambda tx: tx.guilds.history(g2.id)) == [
        c2,
        attrs.evolve(a2_b, joined_by=by_kept, **as_kept),
        attrs.evolve(k2_b, joined_by=by_kept, left_by=by_kept),
    ]
    assert twin.read(lambda tx: tx.guilds.history(g3.id)) == [attrs.evolve(b3, joined_by=by_kept, **as_kept)]
    assert twin.read(lambda tx: tx.guilds.request(GAME, ra.id)) == attrs.evolve(ra, **as_kept)
    assert twin.read(lambda tx: tx.guild_help.help(GAME, ha.id)) == attrs.evolve(ha, **as_kept)
    assert twin.read(lambda tx: tx.guild_help.donations(hc.id)) == [
        attrs.evolve(da, donor_player_id=b.id, donor_external_player_id=gone)
    ]
