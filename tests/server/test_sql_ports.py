"""Every port a SQL transaction is typed with (:class:`SqlTransaction`'s attributes, what mypy checks the
server's code against) is attached on a real transaction of each dialect, as the class it is typed with:
the ports are opened from what each package declares (``livecore_server/<area>/schema.py`` ``PORTS``,
:mod:`livecore_server.storage.sql` ``SHARED_PORTS``), so a forgotten declaration fails here rather than as
an ``AttributeError`` in a request. And every declared port is typed, so mypy sees it."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest

from livecore.area import Ports
from livecore_server.built_in_storage import PORTS, POSTGRES_PORTS, SQLITE_PORTS
from livecore_server.storage.postgres import PostgresStore
from livecore_server.storage.sqlite import SqliteStore
from livecore_server.storage.sqlport import SqlPort, SqlTransaction
from tests.postgres_support import drop_store, new_store

# What SqlTransaction declares, by attribute: its dialect fragments, its state and its ports.
DECLARED: dict[str, str] = {
    name: str(annotation)
    for cls in reversed(SqlTransaction.__mro__)
    for name, annotation in inspect.get_annotations(cls).items()
}
TYPED_PORTS = {name for name, annotation in DECLARED.items() if annotation.startswith("Sql")}


def _check(tx: SqlTransaction) -> None:
    missing = sorted(name for name in DECLARED if not hasattr(tx, name))
    assert not missing, f"declared on SqlTransaction but not attached: {missing}"
    for name in TYPED_PORTS:
        port = getattr(tx, name)
        assert isinstance(port, SqlPort), name
        assert port.db is tx, name
        assert DECLARED[name] in {c.__name__ for c in type(port).__mro__}, (name, type(port))
    assert isinstance(tx.ports, Ports)


def test_every_declared_port_is_typed_once() -> None:
    names = [port.name for port in PORTS]
    assert sorted(names) == sorted(set(names))
    assert set(names) == TYPED_PORTS
    assert [name for name, _ in SQLITE_PORTS] == [name for name, _ in POSTGRES_PORTS] == names


def test_sqlite_transaction_has_every_port(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "ports.db"))
    try:
        for write in (True, False):
            with store.transaction(write=write) as tx:
                _check(tx)
    finally:
        store.close()


@pytest.fixture
def postgres() -> Iterator[PostgresStore]:
    store = new_store(pool_size=2)
    try:
        yield store
    finally:
        drop_store(store)


def test_postgres_transaction_has_every_port(postgres: PostgresStore) -> None:
    for write in (True, False):
        with postgres.transaction(write=write) as tx:
            _check(tx)
