"""The teams port on every store (memory, SQLite, PostgreSQL), step for step, as
tests/server/test_postgres_store.py checks the other ports (and with its fixtures): the same calls
return the same records, in the same order, and each store refuses a player a second team of a window."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from typing import Any

import attrs
import psycopg
import pytest

from livecore.grants.rules import Grant, GrantKind, GrantStatus
from livecore.player_tools.commands.erasure import erase
from livecore.player_tools.commands.merge import merge
from livecore.player_tools.erasure import ErasureReason
from livecore.scope import Environment
from livecore.teams.rules import LeaveReason, PartnerInvite, Team, TeamMember, team_id
from livecore.teams.settings import Formation
from livecore_server.registry import storage
from livecore_server.storage.postgres import connect as pg_connect
from livecore_server.storage.postgres import migrate as pg_migrate
from livecore_server.storage.sqlite import migrate as sqlite_migrate
from tests.server import test_postgres_store as twins
from tests.server.test_postgres_store import Twin, _credited, _start

# Its fixtures, by the names the tests take: the stores (and PostgreSQL's check, autouse).
_postgres, twin, events = twins._postgres, twins.twin, twins.events

SECOND = timedelta(seconds=1)
LATER = "win_not_recorded"  # a team may name a window before it opens


def _team(n: int, window_id: str, created: datetime, score: float = 0.0, **kw: Any) -> Team:
    return Team(
        id=f"team_{n:03d}",
        game_id=kw.pop("game_id", "gam_2"),
        env=kw.pop("env", Environment.TEST),
        event_key="race",
        event_id="evt_race",
        window_id=window_id,
        key=f"k{n}",
        name=kw.pop("name", None),
        formation=kw.pop("formation", Formation.EXTERNAL),
        goal=kw.pop("goal", None),
        created_at=created,
        score=score,
        **kw,
    )


def _seat(n: int, team: Team, player: Any, joined: datetime, **kw: Any) -> TeamMember:
    return TeamMember(
        seat_id=f"tms_{n:03d}",
        team_id=team.id,
        window_id=team.window_id,
        player_id=player.id,
        external_player_id=player.external_id,
        joined_at=joined,
        **kw,
    )


def _invite(n: int, window_id: str, sender: Any, invitee: Any, sent: datetime, **kw: Any) -> PartnerInvite:
    return PartnerInvite(
        id=f"inv_{n:03d}",
        game_id="gam_2",
        env=kw.pop("env", Environment.TEST),
        event_key="race",
        window_id=window_id,
        from_player_id=sender.id,
        from_external_id=sender.external_id,
        to_player_id=invitee.id,
        to_external_id=invitee.external_id,
        created_at=sent,
        expires_at=kw.pop("expires_at", sent + timedelta(hours=24)),
        **kw,
    )


def _refused_everywhere(twin: Twin, seat: TeamMember, meanwhile: Team) -> None:
    """Each store refuses ``seat`` with its own integrity error, and keeps nothing of the transaction
    (``meanwhile``, inserted before it, included)."""
    assert twin.memory is not None
    for store, error in (
        (twin.sqlite, sqlite3.IntegrityError),
        (twin.pg, psycopg.errors.UniqueViolation),
        (twin.memory, KeyError),
    ):
        with pytest.raises(error), store.transaction() as tx:
            tx.teams.insert(meanwhile)
            tx.teams.put_member(seat)
            tx.teams.members(seat.team_id)  # PostgreSQL answers the insert with this read
    assert twin.read(lambda tx: tx.teams.get("gam_2", meanwhile.id)) is None


def _setup(twin: Twin) -> tuple[str, dict[str, Any], datetime]:
    _credited(twin, "a", "b", "c")
    window_id = _start(twin, "a", "race").window_id
    players = {n: twin.read(lambda tx, n=n: twin.player(tx, n)) for n in "abc"}
    return window_id, players, twin.runtimes[0].clock.now()


def test_teams_members_and_invites_read_back_alike_on_every_store(events: Twin) -> None:
    twin = events
    w1, p, t0 = _setup(twin)
    # The team board's order: best score first; ties by creation, then by id.
    t1 = _team(1, w1, t0, 30)
    t2 = _team(2, w1, t0 - SECOND, 30)
    t3 = _team(3, w1, t0, 30)
    t4 = _team(4, w1, t0 + SECOND, 50.5)
    t5 = _team(5, w1, t0 - 9 * SECOND, -2)
    t6 = _team(6, LATER, t0, 100, formation=Formation.PARTNER)
    for team in (t1, t2, t3, t4, t5, t6):
        twin.read(lambda tx, team=team: tx.teams.insert(team))
    assert twin.read(lambda tx: tx.teams.get("gam_2", t6.id)) == t6
    assert twin.read(lambda tx: tx.teams.get("gam_1", t1.id)) is None  # another game's id
    assert twin.read(lambda tx: tx.teams.get("gam_2", "team_none")) is None
    assert twin.read(lambda tx: tx.teams.of_window(w1)) == [t4, t2, t1, t3, t5]
    assert twin.read(lambda tx: tx.teams.of_window(LATER)) == [t6]
    assert twin.read(lambda tx: tx.teams.of_window("win_none")) == []

    # Every field an update writes reads back; the new score moves the team in the board's order.
    done = attrs.evolve(
        t1,
        name="Red Comets",
        goal=5000.0,
        attributes={"z": 1, "a": [1, None], "é": "ü"},
        member_count=3,
        score=80.25,
        completed_at=t0 + 5 * SECOND,
        milestones=("half", "full"),
        final_rank=1,
        finalized_at=t0 + 9 * SECOND,
    )
    twin.read(lambda tx: tx.teams.update(done))
    assert twin.read(lambda tx: tx.teams.get("gam_2", t1.id)) == done
    assert twin.read(lambda tx: tx.teams.of_window(w1)) == [done, t4, t2, t3, t5]
    cleared = attrs.evolve(done, name=None, goal=None, attributes=None, completed_at=None, milestones=())
    twin.read(lambda tx: tx.teams.update(attrs.evolve(cleared, final_rank=None, finalized_at=None)))
    assert twin.read(lambda tx: tx.teams.get("gam_2", t1.id)) == attrs.evolve(
        cleared, final_rank=None, finalized_at=None
    )

    # Seats in the order taken; one millisecond: by seat id.
    a1 = _seat(3, t1, p["a"], t0 + SECOND)
    b1 = _seat(7, t1, p["b"], t0)
    c1 = _seat(1, t1, p["c"], t0 + SECOND, contribution=4.5)
    c6 = _seat(9, t6, p["c"], t0)  # another window
    for seat in (a1, b1, c1, c6):
        twin.read(lambda tx, seat=seat: tx.teams.put_member(seat))
    assert twin.read(lambda tx: tx.teams.members(t1.id)) == [b1, c1, a1]
    assert twin.read(lambda tx: tx.teams.members(t2.id)) == []
    assert twin.read(lambda tx: tx.teams.seat_in_window(w1, p["a"].id)) == a1
    assert twin.read(lambda tx: tx.teams.seat_in_window(LATER, p["c"].id)) == c6
    assert twin.read(lambda tx: tx.teams.seat_in_window(LATER, p["a"].id)) is None

    # One seat not left per player and window: another team of the window refuses a, and so does its own
    # under another seat id; a's own seat is replaced, every field read back.
    _refused_everywhere(twin, _seat(20, t2, p["a"], t0 + 2 * SECOND), _team(90, w1, t0))
    _refused_everywhere(twin, _seat(21, t1, p["a"], t0 + 2 * SECOND), _team(91, LATER, t0))
    assert twin.read(lambda tx: tx.teams.members(t2.id)) == []
    assert twin.read(lambda tx: tx.teams.seat_in_window(w1, p["a"].id)) == a1
    moved = attrs.evolve(a1, contribution=12.75)
    twin.read(lambda tx: tx.teams.put_member(moved))
    assert twin.read(lambda tx: tx.teams.members(t1.id)) == [b1, c1, moved]

    # A left seat stays (with its contribution) but frees the window: c takes a seat on t2, and a left
    # seat of a on t2 is no second seat.
    c_left = attrs.evolve(c1, left_at=t0 + 3 * SECOND, left_reason=LeaveReason.KICKED, contribution=6.0)
    twin.read(lambda tx: tx.teams.put_member(c_left))
    assert twin.read(lambda tx: tx.teams.members(t1.id)) == [b1, c_left, moved]
    assert twin.read(lambda tx: tx.teams.seat_in_window(w1, p["c"].id)) is None
    c2 = _seat(22, t2, p["c"], t0 + 4 * SECOND)
    a_left = _seat(23, t2, p["a"], t0, left_at=t0 + SECOND, left_reason=LeaveReason.LEFT, contribution=1)
    twin.read(lambda tx: tx.teams.put_member(c2))
    twin.read(lambda tx: tx.teams.put_member(a_left))
    assert twin.read(lambda tx: tx.teams.seat_in_window(w1, p["c"].id)) == c2
    assert twin.read(lambda tx: tx.teams.seat_in_window(w1, p["a"].id)) == moved
    assert twin.read(lambda tx: tx.teams.members(t2.id)) == [a_left, c2]
    # A seat back from left to seated is held to the rule too: c sits on t2 now.
    _refused_everywhere(twin, attrs.evolve(c_left, left_at=None, left_reason=None), _team(92, w1, t0))

    # Invites: pending either way; neither an accepted one nor one past its expiry (at it exactly).
    ab = _invite(1, w1, p["a"], p["b"], t0)
    bc = _invite(2, w1, p["b"], p["c"], t0, accepted_at=t0 + SECOND, team_id=t2.id)
    ca = _invite(3, w1, p["c"], p["a"], t0 - SECOND, expires_at=t0 + 3_600 * SECOND)
    ac_later = _invite(4, LATER, p["a"], p["c"], t0)
    for invite in (ab, bc, ca, ac_later):
        twin.read(lambda tx, invite=invite: tx.teams.insert_invite(invite))
    now = t0 + SECOND
    between = lambda w, x, y, at=now: twin.read(  # noqa: E731
        lambda tx: tx.teams.pending_between(w, p[x].id, p[y].id, at)
    )
    assert between(w1, "a", "b") == ab and between(w1, "b", "a") == ab
    assert between(w1, "b", "c") is None and between(w1, "c", "b") is None  # accepted
    assert between(w1, "a", "c") == ca and between(w1, "c", "a") == ca
    assert between(w1, "c", "a", t0 + 3_600 * SECOND - timedelta(milliseconds=1)) == ca
    assert between(w1, "c", "a", t0 + 3_600 * SECOND) is None  # expired
    assert between(LATER, "c", "a") == ac_later and between(LATER, "a", "b") is None
    assert twin.read(lambda tx: tx.teams.invite("gam_2", bc.id)) == bc
    assert twin.read(lambda tx: tx.teams.invite("gam_1", bc.id)) is None
    accepted = attrs.evolve(ab, accepted_at=now, team_id=t1.id)
    twin.read(lambda tx: tx.teams.update_invite(accepted))
    assert twin.read(lambda tx: tx.teams.invite("gam_2", ab.id)) == accepted
    assert between(w1, "b", "a") is None


def test_team_seats_and_invites_move_on_merge_one_per_window_and_take_the_placeholder_on_erasure(
    events: Twin,
) -> None:
    twin = events
    w1, p, t0 = _setup(twin)
    a, b, c = p["a"], p["b"], p["c"]
    w2, w3 = LATER, "win_third"
    t1 = _team(1, w1, t0, 10, member_count=2)
    t2 = _team(2, w1, t0, 20, member_count=1)
    t3 = _team(3, w2, t0, 30, member_count=1)
    t4 = _team(4, w3, t0, 40, member_count=2, formation=Formation.PARTNER)
    for team in (t1, t2, t3, t4):
        twin.read(lambda tx, team=team: tx.teams.insert(team))
    a1 = _seat(1, t1, a, t0, contribution=5)
    c1 = _seat(2, t1, c, t0 + SECOND)
    b2 = _seat(3, t2, b, t0 + SECOND)
    a2_left = _seat(4, t2, a, t0, left_at=t0 + SECOND, left_reason=LeaveReason.LEFT, contribution=2)
    a3 = _seat(5, t3, a, t0)
    a4 = _seat(6, t4, a, t0)
    b4 = _seat(7, t4, b, t0)
    for seat in (a1, c1, b2, a2_left, a3, a4, b4):
        twin.read(lambda tx, seat=seat: tx.teams.put_member(seat))
    ab = _invite(1, w1, a, b, t0)  # pending between the two: goes
    ba = _invite(2, w3, b, a, t0, accepted_at=t0, team_id=t4.id)  # accepted: stays, as b's
    ac = _invite(3, w1, a, c, t0)
    ca = _invite(4, w2, c, a, t0, expires_at=t0 + SECOND)
    for invite in (ab, ba, ac, ca):
        twin.read(lambda tx, invite=invite: tx.teams.insert_invite(invite))

    # A merge of a into b. In w1 b sits on t2: a's seat on t1 goes and t1 counts one member fewer, a's left
    # seat on t2 moves; in w2 a's seat becomes b's; in w3, where both sit on t4, a's goes.
    twin.read(lambda tx: tx.teams.reassign(a.id, b))
    as_b = {"player_id": b.id, "external_player_id": "b"}
    assert twin.read(lambda tx: tx.teams.members(t1.id)) == [c1]
    assert twin.read(lambda tx: tx.teams.get("gam_2", t1.id)) == attrs.evolve(t1, member_count=1)
    assert twin.read(lambda tx: tx.teams.members(t2.id)) == [attrs.evolve(a2_left, **as_b), b2]
    assert twin.read(lambda tx: tx.teams.get("gam_2", t2.id)) == t2
    assert twin.read(lambda tx: tx.teams.seat_in_window(w1, b.id)) == b2
    assert twin.read(lambda tx: tx.teams.seat_in_window(w2, b.id)) == attrs.evolve(a3, **as_b)
    assert twin.read(lambda tx: tx.teams.get("gam_2", t3.id)) == t3
    assert twin.read(lambda tx: tx.teams.members(t4.id)) == [b4]
    assert twin.read(lambda tx: tx.teams.get("gam_2", t4.id)) == attrs.evolve(t4, member_count=1)
    for window in (w1, w2, w3):
        assert twin.read(lambda tx, window=window: tx.teams.seat_in_window(window, a.id)) is None
    assert twin.read(lambda tx: tx.teams.invite("gam_2", ab.id)) is None
    from_b = {"from_player_id": b.id, "from_external_id": "b"}
    to_b = {"to_player_id": b.id, "to_external_id": "b"}
    assert twin.read(lambda tx: tx.teams.invite("gam_2", ba.id)) == attrs.evolve(ba, **to_b)
    assert twin.read(lambda tx: tx.teams.invite("gam_2", ac.id)) == attrs.evolve(ac, **from_b)
    assert twin.read(lambda tx: tx.teams.invite("gam_2", ca.id)) == attrs.evolve(ca, **to_b)
    assert twin.read(lambda tx: tx.teams.pending_between(w1, c.id, b.id, t0)) == attrs.evolve(ac, **from_b)

    # An erasure: the same row under its placeholder keeps every seat and invite, and every count.
    kept = attrs.evolve(b, external_id="__deleted_x__")
    twin.read(lambda tx: tx.teams.reassign(b.id, kept))
    gone = "__deleted_x__"
    as_kept = {"player_id": b.id, "external_player_id": gone}
    assert twin.read(lambda tx: tx.teams.members(t2.id)) == [
        attrs.evolve(a2_left, **as_kept),
        attrs.evolve(b2, **as_kept),
    ]
    assert twin.read(lambda tx: tx.teams.seat_in_window(w2, b.id)) == attrs.evolve(a3, **as_kept)
    assert twin.read(lambda tx: tx.teams.members(t4.id)) == [attrs.evolve(b4, **as_kept)]
    assert twin.read(lambda tx: tx.teams.invite("gam_2", ba.id)) == attrs.evolve(
        ba, to_player_id=b.id, from_external_id=gone, to_external_id=gone
    )
    assert twin.read(lambda tx: tx.teams.invite("gam_2", ca.id)) == attrs.evolve(
        ca, to_player_id=b.id, to_external_id=gone
    )
    assert twin.read(lambda tx: tx.teams.invite("gam_2", ac.id)) == attrs.evolve(
        ac, from_player_id=b.id, from_external_id=gone
    )
    for team in (t1, t2, t3, t4):
        assert twin.read(lambda tx, team=team: tx.teams.get("gam_2", team.id)).member_count == 1


def test_the_merge_and_erasure_commands_move_team_seats(events: Twin) -> None:
    twin = events
    w1, p, t0 = _setup(twin)
    t1, t2 = _team(1, w1, t0, member_count=2), _team(2, LATER, t0, member_count=1)
    for team in (t1, t2):
        twin.read(lambda tx, team=team: tx.teams.insert(team))
    for seat in (_seat(1, t1, p["a"], t0), _seat(2, t1, p["b"], t0), _seat(3, t2, p["a"], t0)):
        twin.read(lambda tx, seat=seat: tx.teams.put_member(seat))
    twin.do(lambda tx, rt: merge(tx, rt, twin.scope, "a", "b"))
    assert twin.read(lambda tx: tx.teams.get("gam_2", t1.id)).member_count == 1
    assert [m.player_id for m in twin.read(lambda tx: tx.teams.members(t1.id))] == [p["b"].id]
    assert twin.read(lambda tx: tx.teams.seat_in_window(LATER, p["b"].id)).seat_id == "tms_003"
    erased = twin.do(lambda tx, rt: erase(tx, rt, twin.scope, "b", ErasureReason.GDPR_ERASURE))
    members = twin.read(lambda tx: tx.teams.members(t1.id)) + twin.read(lambda tx: tx.teams.members(t2.id))
    assert {m.external_player_id for m in members} == {erased.placeholder}


def test_a_team_stored_under_the_old_prefix_tm_takes_team_with_what_refers_to_it(events: Twin) -> None:
    """Team ids are derived, so a roster PUT names a stored team by computing its id: the migration moves
    teams an older version stored as ``tm_`` to the pinned ``team_``, their seats, accepted invites and
    team grants along, and nothing else."""
    twin = events
    w1, p, t0 = _setup(twin)
    starts_at = twin.read(lambda tx: tx.windows.get("gam_2", w1)).starts_at
    new_id = team_id(w1, starts_at, "k1")
    old = attrs.evolve(_team(1, w1, t0, 30), id="tm_" + new_id.removeprefix("team_"))
    seat = _seat(1, old, p["a"], t0)
    invite = _invite(1, w1, p["b"], p["c"], t0, accepted_at=t0, team_id=old.id)
    paid, unrelated = (
        Grant(
            id=grant_id,
            player_id=p["a"].id,
            external_player_id="a",
            game_id="gam_2",
            kind=GrantKind.REWARD,
            status=GrantStatus.PENDING,
            entries=(),
            source_kind=source_kind,
            source_ref_id=old.id,
            metadata={},
            created_at=t0,
        )
        for grant_id, source_kind in (("g-team", "event_team_milestone"), ("g-other", "manual"))
    )

    def stored(tx: Any) -> None:
        tx.teams.insert(old)
        tx.teams.put_member(seat)
        tx.teams.insert_invite(invite)
        tx.grants.insert(paid)
        tx.grants.insert(unrelated)

    twin.read(stored)
    # Each database as an older version left it, then started by this one.
    twin.sqlite.conn.execute("DELETE FROM _migrations WHERE name = 'teams:0002_team_id_prefix'")
    assert sqlite_migrate(twin.sqlite.conn, storage().history.sqlite) == ["teams:0002_team_id_prefix"]
    conn = pg_connect(twin.pg.dsn, twin.pg.schema)
    try:
        conn.execute("DELETE FROM _migrations WHERE name = 'teams:0002_team_id_prefix'")
        assert pg_migrate(conn, storage(), twin.pg.schema) == ["teams:0002_team_id_prefix"]
    finally:
        conn.close()

    for store in (twin.sqlite, twin.pg):
        with store.transaction() as tx:
            assert tx.teams.get("gam_2", old.id) is None
            assert tx.teams.get("gam_2", new_id) == attrs.evolve(old, id=new_id)
            assert tx.teams.members(new_id) == [attrs.evolve(seat, team_id=new_id)]
            assert tx.teams.invite("gam_2", invite.id) == attrs.evolve(invite, team_id=new_id)
            assert tx.grants.get("gam_2", "g-team").source_ref_id == new_id
            assert tx.grants.get("gam_2", "g-other").source_ref_id == old.id
