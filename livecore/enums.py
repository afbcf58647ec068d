"""Wire values that the areas building on an area add to: a grant's kind, a grant entry's type, a ledger
reason.

An area's set lists its own values (a grant's kind ``reward``); an area that builds on it owns values of its
own (``Reason.own("gift_cost")``, the crates' ``crate``) and declares them at :data:`VALUES`
(``Area(contributes=(VALUES(GIFT_COST),))``, :mod:`livecore.contributions`), so the area never names the
areas built on it and nothing is added as a module is imported. A value is a ``str`` of its set's class, and
reading one back (``GrantKind("crate")``, the wire converters, a stored row) answers the declared object, so
values compare by identity as enum members do; a value no served area declares is refused with
:class:`ValueError`.
"""

from __future__ import annotations

from typing import ClassVar, Self, TypeVar

from livecore.contributions import Point, served

V = TypeVar("V", bound="Values")


class Values(str):
    """A set of wire values: a subclass declares its own (``REWARD = Value("reward")``), the areas building
    on it theirs (:meth:`own`, :data:`VALUES`). :meth:`listed` gives the declared values in their order,
    then the areas' by value, so the OpenAPI documents' ``enum`` does not depend on the areas' order."""

    # Each subclass's own tables, made as its first value is added.
    _members: ClassVar[dict[str, Values]]
    _declared: ClassVar[list[str]]

    def __new__(cls, value: str) -> Self:
        member = cls._table().get(value)
        if member is None:
            member = cls._served().get(value)
            if member is None:
                raise ValueError(f"{value!r} is not a {cls.__name__}")
        return member  # type: ignore[return-value]  # the table of cls holds values of cls

    @classmethod
    def own(cls, value: str) -> Self:
        """The value ``value`` of an area that builds on this set's, which its declaration lists at
        :data:`VALUES`. Until then (its areas not served), ``cls(value)`` refuses it."""
        existing = cls._table().get(value)
        return existing if existing is not None else str.__new__(cls, value)  # type: ignore[return-value]

    @classmethod
    def listed(cls) -> tuple[Self, ...]:
        """Every value: the declared ones in their order, then the served areas' by value."""
        cls._served()
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
    def _served(cls) -> dict[str, Values]:
        """The table, with the values of this set that the served areas declare added (:data:`VALUES`)."""
        table = cls._table()
        for member in served().of(VALUES):
            if type(member) is cls:
                table.setdefault(str(member), member)
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


VALUES: Point[Values] = Point("values")
"""The values an area owns in the sets of the areas it builds on (:meth:`Values.own`)."""

__all__ = ["VALUES", "Value", "Values"]
