"""The in-memory store is built from the areas' declarations: a transaction opens every port
``livecore.transaction.Transaction`` declares, each with the methods of its protocol (what mypy checked
when the transaction named its ports), over tables each store makes once per area."""

from __future__ import annotations

import inspect
from typing import Any, get_type_hints

import pytest

from livecore import registry
from livecore.area import Area
from livecore.guilds.memory import GuildTables
from livecore.memory import MemoryStore
from livecore.transaction import Transaction


def _declared_ports() -> dict[str, type]:
    """Each attribute of a transaction, with the protocol of its port, as the ``Has...`` holders type it."""
    found: dict[str, type] = {}
    for holder in Transaction.__mro__[1:]:
        for name, member in vars(holder).items():
            if isinstance(member, property) and member.fget is not None:
                found[name] = get_type_hints(member.fget)["return"]
    return found


def _methods(protocol: type) -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(member)
        for cls in reversed(protocol.__mro__)
        if cls.__module__.startswith("livecore.")
        for name, member in vars(cls).items()
        if not name.startswith("_") and inspect.isfunction(member)
    }


def _shape(signature: inspect.Signature) -> list[tuple[str, Any, bool]]:
    return [(p.name, p.kind, p.default is inspect.Parameter.empty) for p in signature.parameters.values()]


DECLARED = _declared_ports()


def test_the_protocol_declares_every_port() -> None:
    assert len(DECLARED) == 20 and {
        "guilds",
        "guild_help",
        "lobbies",
        "windows",
        "attempts",
        "boards",
    } <= set(DECLARED)


@pytest.mark.parametrize("name", sorted(DECLARED))
def test_a_transaction_opens_each_declared_port_with_its_protocols_methods(name: str) -> None:
    with MemoryStore().transaction() as tx:
        port = getattr(tx, name)
        assert getattr(tx, name) is port  # opened once a transaction
    for method, signature in _methods(DECLARED[name]).items():
        implemented = getattr(type(port), method, None)
        assert callable(implemented), f"tx.{name} has no {method}"
        assert _shape(inspect.signature(implemented)) == _shape(signature), f"tx.{name}.{method}"


def test_each_store_makes_the_tables_of_each_area_once() -> None:
    store, other = MemoryStore(), MemoryStore()
    with_tables = [a.name for a in registry.installed() if a.tables is not None]
    assert sorted(store.tables) == sorted(with_tables) and "guilds" in with_tables
    guilds = store.tables_of(GuildTables)
    assert guilds is store.tables["guilds"] and guilds is not other.tables_of(GuildTables)
    with store.transaction() as tx, store.transaction() as later:
        assert tx.guilds is not later.guilds  # each transaction its own ports, over the same tables


def test_a_studio_areas_tables_and_ports_join_the_store() -> None:
    def counter(store: MemoryStore, journal: Any) -> dict[str, int]:
        table: dict[str, int] = store.tables["counter"]
        return table

    area = Area(
        name="counter", summary="", page="counter", tables=lambda: {"n": 0}, ports={"counter": counter}
    )
    store = MemoryStore([area])
    assert store.tables["counter"] == {"n": 0} and "counter" not in MemoryStore().tables
    with store.transaction() as tx:
        # A studio's port is reached as a built-in area's is, tx.<name>, and still as tx.ports.<name>.
        assert tx.counter is store.tables["counter"] and tx.ports.counter is tx.counter


def test_a_write_that_raises_is_rolled_back_in_every_area() -> None:
    store = MemoryStore()
    with pytest.raises(RuntimeError), store.transaction() as tx:
        tx.journal.put(store.tables_of(GuildTables).guilds, "gld_1", object())
        raise RuntimeError
    assert store.tables_of(GuildTables).guilds == {}


def test_a_port_no_area_declares_is_no_attribute() -> None:
    with MemoryStore().transaction() as tx, pytest.raises(AttributeError):
        _ = tx.quests  # type: ignore[attr-defined]
