"""Every read of the teams port is an index look-up, on SQLite and on PostgreSQL, as
tests/server/test_boards_query_plans.py checks for event boards (and with its helpers): no full scan, no
sort, on a game whose event windows hold a few hundred teams, seats and invites."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import attrs
import pytest

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.economy.commands import change
from livecore.economy.rules import Reason, resource
from livecore.hashing import KeyedHasher
from livecore.live_events.commands import live_events as cmd
from livecore.players.commands import first_contact, load_game
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore.teams.rules import LeaveReason, PartnerInvite, Team, TeamMember
from livecore.teams.settings import Formation
from livecore_server.storage.sqlite import SqliteStore
from tests.core.events_machine import SETTINGS, T0
from tests.server.test_boards_query_plans import POSTGRES_SCAN, SQLITE_SCAN, _plans, store_with_game

SCOPE = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)
PLAYERS = 300
SIZE = 4


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest) -> Iterator[Any]:
    yield from store_with_game(request.param, SETTINGS)


def _filled(store: Any) -> Runtime:
    """The race's open window and a window not recorded yet, each with every player on a team (four to a
    team, one in four left and seated again on the next team), and invites sent, accepted and expired."""
    rt = Runtime(
        clock=ManualClock(T0 + timedelta(minutes=31)),
        rng=SeededRandomSource(4),
        hasher=KeyedHasher(b"q" * 32),
    )
    now = rt.clock.now()

    def fill(tx: Any) -> None:
        players = [first_contact(tx, rt, SCOPE, f"p{n}") for n in range(PLAYERS)]
        game = load_game(tx, SCOPE)
        change(tx, rt, SCOPE, game, players[0], resource(game, "coins"), 100, Reason.SERVER_CREDIT)
        race = cmd.start(tx, rt, SCOPE, players[0], "race", None).window_id
        for window_id in (race, "win_next"):
            teams = [
                Team(
                    id=f"team_{window_id}{number:04d}",
                    game_id=SCOPE.game_id,
                    env=SCOPE.env,
                    event_key="race",
                    event_id="evt_race",
                    window_id=window_id,
                    key=f"k{number}",
                    name=None,
                    formation=Formation.EXTERNAL,
                    goal=500.0,
                    created_at=now + timedelta(seconds=number),
                    score=float(number % 7),
                )
                for number in range(PLAYERS // SIZE)
            ]
            for team in teams:
                tx.teams.insert(team)
            for n, player in enumerate(players):
                team = teams[n // SIZE]
                seat = TeamMember(
                    f"tms_{window_id}{n:04d}", team.id, window_id, player.id, player.external_id, now
                )
                if n % SIZE == 0:
                    tx.teams.put_member(seat)
                    seat = attrs.evolve(seat, contribution=3.0, left_at=now, left_reason=LeaveReason.LEFT)
                    tx.teams.put_member(seat)
                    team = teams[(n // SIZE + 1) % len(teams)]
                    seat = TeamMember(
                        f"tms_{window_id}{n:04d}b", team.id, window_id, player.id, player.external_id, now
                    )
                tx.teams.put_member(seat)
                invitee = players[(n + 1) % PLAYERS]
                tx.teams.insert_invite(
                    PartnerInvite(
                        id=f"inv_{window_id}{n:04d}",
                        game_id=SCOPE.game_id,
                        env=SCOPE.env,
                        event_key="race",
                        window_id=window_id,
                        from_player_id=player.id,
                        from_external_id=player.external_id,
                        to_player_id=invitee.id,
                        to_external_id=invitee.external_id,
                        created_at=now,
                        expires_at=now + timedelta(hours=24 if n % 3 else -1),
                        accepted_at=now if n % 3 == 1 else None,
                    )
                )

    store.run(fill)
    if isinstance(store, SqliteStore):
        store.conn.execute("ANALYZE")
    else:
        store.run(lambda tx: tx.execute("ANALYZE"))
    return rt


def test_every_read_of_the_teams_port_is_an_index_look_up(store: Any) -> None:
    rt = _filled(store)
    now = rt.clock.now()

    def reads(tx: Any) -> None:
        ports = tx.teams
        player = tx.players.get(SCOPE.game_id, "p12")
        friend = tx.players.get(SCOPE.game_id, "p11")
        seat = ports.seat_in_window("win_next", player.id)
        team = ports.get(SCOPE.game_id, seat.team_id)
        ports.of_window(team.window_id)
        ports.members(team.id)
        ports.invite(SCOPE.game_id, "inv_win_next0009")
        assert ports.pending_between("win_next", friend.id, player.id, now) is not None

    plans = _plans(store, reads)
    scan = SQLITE_SCAN if isinstance(store, SqliteStore) else POSTGRES_SCAN
    checked = [(s, plan) for s, plan in plans if any(t in s for t in ("teams", "team_members", "invites"))]
    assert len(checked) == 6
    for statement, plan in checked:
        assert not scan.search(plan), f"{statement}\n{plan}"
