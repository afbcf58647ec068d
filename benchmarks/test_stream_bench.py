"""The stream benchmark itself, small: every subscriber gets every write's update and none is dropped
(its figures are reported, never asserted)."""

from __future__ import annotations

import argparse

from benchmarks import stream


def test_a_short_stream_run_delivers_every_update_to_every_subscriber() -> None:
    result = stream.run(
        argparse.Namespace(subscribers=20, writers=4, writes_per_second=10.0, seconds=1.0, json=None)
    )
    assert result["writeFailures"] == 0
    assert result["droppedSubscribers"] == 0
    assert result["deliveries"] == 20 * 10
    assert result["missedDeliveries"] == 0
