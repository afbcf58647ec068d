"""Wire enums that the areas building on an area add members to.

An area's enum lists its own values (a grant's kind ``reward``); an area that builds on it adds the values
it owns when its module is imported (the crates' ``crate``), so the area never names the areas built on
it. The members added are members like the declared ones: looked up by value and name, listed after them
(the OpenAPI documents' ``enum``), compared by identity.
"""

from __future__ import annotations

import enum
from typing import TypeVar

E = TypeVar("E", bound=enum.Enum)


def add_member(enum_type: type[E], name: str, value: object) -> E:
    """The member ``name`` of ``enum_type`` with ``value``, added after the members it has. Adding it again
    (its module imported again) answers the member added before; another member with that name or value is
    refused."""
    by_value = enum_type._value2member_map_.get(value)
    if by_value is not None and by_value.name == name:
        return enum_type(value)
    if by_value is not None or name in enum_type._member_map_:
        raise ValueError(f"{enum_type.__name__} already has a member {name} or a member of value {value!r}")
    # What enum's own class construction does for each member it declares.
    member: E = enum_type._new_member_(enum_type, value)  # type: ignore[attr-defined]
    member._name_ = name
    member._value_ = value
    member.__objclass__ = enum_type  # type: ignore[attr-defined]
    member.__init__(value)  # type: ignore[misc]
    member._sort_order_ = len(enum_type._member_names_)  # type: ignore[attr-defined]
    type.__setattr__(enum_type, name, member)
    enum_type._member_map_[name] = member
    enum_type._member_names_.append(name)
    enum_type._value2member_map_[value] = member
    return member


__all__ = ["add_member"]
