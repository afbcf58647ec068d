"""Wire values that the areas building on an area add to: a grant's kind, a grant entry's type, a ledger
reason.

An area's set lists its own values (a grant's kind ``reward``); an area that builds on it registers the
values it owns as its module is imported (the crates' ``crate``), so the area never names the areas built on
it. A value is a ``str`` of its set's class, and reading one back (``GrantKind("crate")``, the wire
converters, a stored row) answers the registered object, so values compare by identity as enum members do;
a value nobody registered is refused with :class:`ValueError`.
"""

from __future__ import annotations

from typing import ClassVar, Self, TypeVar

V = TypeVar("V", bound="Values")


class Values(str):
    """A set of wire values: a subclass declares its own (``REWARD = Value("reward")``), areas register
    theirs (:meth:`register`). :meth:`listed` gives the declared values in their order, then the registered
    ones by value, so the OpenAPI documents' ``enum`` does not depend on the order the areas were imported
    in."""

    # Each subclass's own tables, made as its first value is added.
    _members: ClassVar[dict[str, Values]]
    _declared: ClassVar[list[str]]

    def __new__(cls, value: str) -> Self:
        member = cls._table().get(value)
        if member is None:
            raise ValueError(f"{value!r} is not a {cls.__name__}")
        return member  # type: ignore[return-value]  # the table of cls holds values of cls

    @classmethod
    def register(cls, value: str) -> Self:
        """The value ``value``, added after the declared ones by the area that owns it. Registering it again
        (its module imported again) answers the value registered before."""
        return cls._add(value, declared=False)

    @classmethod
    def listed(cls) -> tuple[Self, ...]:
        """Every value: the declared ones in their order, then the registered ones by value."""
        table = cls._table()
        declared = cls.__dict__.get("_declared", [])
        added = sorted(value for value in table if value not in declared)
        return tuple(cls(value) for value in (*declared, *added))

    @property
    def value(self) -> str:
        """The value as a plain string (what an enum member's ``value`` is)."""
        return str(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"

    @classmethod
    def _table(cls) -> dict[str, Values]:
        table: dict[str, Values] | None = cls.__dict__.get("_members")
        if table is None:
            table = cls._members = {}
            cls._declared = []
        return table

    @classmethod
    def _add(cls, value: str, *, declared: bool) -> Self:
        table = cls._table()
        member = table.get(value)
        if member is None:
            member = table[value] = str.__new__(cls, value)
            if declared:
                cls._declared.append(value)
        return member  # type: ignore[return-value]  # the table of cls holds values of cls


class Value:
    """A value a :class:`Values` subclass declares in its body: ``REWARD = Value("reward")`` is
    ``GrantKind("reward")``."""

    def __init__(self, value: str) -> None:
        self.value = value

    def __set_name__(self, owner: type[Values], name: str) -> None:
        owner._add(self.value, declared=True)

    def __get__(self, obj: object, owner: type[V]) -> V:
        return owner(self.value)


__all__ = ["Value", "Values"]
