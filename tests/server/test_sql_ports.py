"""Every port a SQL transaction opens is attached on a real transaction of each dialect, as ``tx.<name>``,
as the class its owner declares: the ports no area owns (:mod:`livecore_server.storage.sql`
``SHARED_PORTS``, the ones :class:`SqlTransaction` serves every server module) and every area's, from its
``ServerArea.sql_ports``, the built-in areas' as a studio's (each also ``tx.ports.<name>``). A port named
as something a transaction has already is refused, not put in its place."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from livecore.area import Ports
from livecore.transaction import Transaction
from livecore_server.area import ServerArea, storage_of
from livecore_server.registry import installed, storage
from livecore_server.storage.postgres import PostgresStore
from livecore_server.storage.schema import POSTGRES, SQLITE, Dialect
from livecore_server.storage.sql import SHARED_PORTS
from livecore_server.storage.sqlite import SqliteStore
from livecore_server.storage.sqlport import Dialects, SqlPort, SqlTransaction
from tests.postgres_support import drop_store, new_store

AREA_PORTS = {name: port for area in installed() for name, port in area.sql_ports.items()}


def _check(tx: SqlTransaction, dialect: Dialect) -> None:
    for name, declared in {**SHARED_PORTS, **AREA_PORTS}.items():
        port = getattr(tx, name)
        assert isinstance(port, SqlPort), name
        assert port.db is tx, name
        assert type(port) is (declared.of(dialect) if isinstance(declared, Dialects) else declared), name
    assert isinstance(tx.ports, Ports)
    for name in AREA_PORTS:
        assert getattr(tx.ports, name) is getattr(tx, name), name
    with pytest.raises(AttributeError):
        _ = tx.ports.outbox  # a shared port is no area's


def test_every_port_of_the_core_is_declared_by_an_area_or_shared() -> None:
    """What the core's commands reach (livecore.transaction.Transaction) is opened on every SQL
    transaction."""
    core = {name for cls in Transaction.__mro__ for name, v in vars(cls).items() if isinstance(v, property)}
    assert "players" in core
    assert not sorted(core - set(SHARED_PORTS) - set(AREA_PORTS))


def test_sqlite_transaction_has_every_port(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "ports.db"), storage())
    try:
        for write in (True, False):
            with store.transaction(write=write) as tx:
                _check(tx, SQLITE)
    finally:
        store.close()


@pytest.mark.parametrize("name", ["conn", "execute", "ports", "players"])
def test_a_port_named_as_what_a_transaction_has_is_refused(tmp_path: Path, name: str) -> None:
    clashing = ServerArea(installed()[0].area, sql_ports={name: SqlPort})
    if name == "players":  # the players area's own: two areas claim it
        with pytest.raises(ValueError, match="players"):
            storage_of((*installed(), clashing))
        return
    with pytest.raises(ValueError, match=name):
        SqliteStore(str(tmp_path / "clash.db"), storage_of((*installed(), clashing)))


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
            _check(tx, POSTGRES)
