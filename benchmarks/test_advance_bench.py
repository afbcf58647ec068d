"""The advance benchmark itself, small: the players' routes answer, the day's jobs run, and what each
cost is reported (the figures are reported, never asserted)."""

from __future__ import annotations

from benchmarks import advance


def test_a_short_advance_reports_its_time_and_what_each_job_cost() -> None:
    result = advance.run(players=6, db_kind="sqlite")
    assert not [s for s in result["statuses"] if not s.endswith((" 200", " 201", " 202"))]
    assert result["advanceSeconds"] > 0
    jobs = result["jobs"]
    # The duel's 24 windows close, and the time trial's and the relay's; the grants expire in the day.
    assert jobs["live_windows_close"]["runs"] >= 24
    assert jobs["grant_expiry_sweep"]["runs"] >= 1
    assert jobs["next_due"]["transactions"] > 0
    for figures in jobs.values():
        assert set(figures) == {"runs", "transactions", "seconds", "msPerRun"}
