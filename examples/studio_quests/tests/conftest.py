"""The area's own suite takes the scaffold's fixture: a test that takes ``livecore_db`` runs on SQLite and
on PostgreSQL (docs/extending.md#testing-it)."""

from livecore_server.testing import livecore_db  # noqa: F401 (a fixture)
