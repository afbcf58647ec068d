"""The lobby fill benchmark itself, small: every player is seated, no lobby is over its capacity or
miscounted, and the last lobby starts at its fill_by with bots (its figures are reported, never
asserted)."""

from __future__ import annotations

from benchmarks import lobby_fill


def test_a_short_lobby_fill_seats_every_player_and_starts_every_lobby() -> None:
    result = lobby_fill.run(players=45, seconds=1.0, db_kind="sqlite")
    # Lobbies of 10: four fill and start at once (201 for the start that filled each), the fifth forms
    # and starts at its fill_by with five bots.
    assert result["statuses"] == {"201": 4, "202": 41}
    assert (result["seated"], result["playerSeats"], result["lobbies"]) == (45, 45, 5)
    assert result["lobbiesByStatus"] == {"active": 5}
    assert result["botSeats"] == 5
    assert (result["overCapacity"], result["miscounted"]) == (0, 0)
