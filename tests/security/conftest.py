"""Fixtures of the hostile-input tests."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest


@pytest.fixture
def no_error_logged(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """The test logs nothing at ERROR and no traceback: refused input is the client's mistake, not the
    server's, and a flood of it must not flood the log."""
    caplog.set_level(logging.INFO)
    yield
    loud = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not loud, [r.getMessage() for r in loud]
