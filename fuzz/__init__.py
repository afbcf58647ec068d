"""Fuzzing a live server with schemathesis (``nox -s fuzz``, docs/testing.md#fuzzing)."""
