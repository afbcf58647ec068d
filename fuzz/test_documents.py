"""The three OpenAPI documents say what the server enforces: schemathesis, every check on, against a live
server with the run's records seeded (fuzz/run.py, docs/testing.md#fuzzing).

A failure prints each case with the ``curl`` command that sent it; the report directory (JUnit reports and
the server's log) is kept under pytest's temporary directory, whose path the failure names.
"""

from __future__ import annotations

from pathlib import Path

from fuzz.run import main

# Examples per operation in the fuzzing phase: fewer than `nox -s fuzz` takes, so that the suite keeps its
# time; the examples, coverage and stateful phases run in full whatever the number.
SUITE_EXAMPLES = 5


def test_the_documents_allow_what_the_server_accepts_and_refuse_what_it_refuses(tmp_path: Path) -> None:
    report = tmp_path / "fuzz-report"
    found = main(["--examples", str(SUITE_EXAMPLES), "--report-dir", str(report)])
    assert found == 0, f"schemathesis found failures: see above, and {report}"
