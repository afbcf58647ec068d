"""Fields an area adds to another area's wire record (livecore/api/parts.py): flat on the wire where the
record declares its ``parts``, read back into the part, and listed there by the OpenAPI documents."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from livecore.api.convert import make_converter, unstructure
from livecore.api.openapi import build_documents
from livecore.api.parts import Part
from livecore.api.route import Surface
from livecore.api.views import IdentityView
from livecore.friends.api import FriendRow, SuggestionRow
from livecore.gifts.api import GIFT_ROW, GiftRow
from livecore.parts import PartKey
from tests.installed import ALL

SINCE = datetime(2026, 3, 2, tzinfo=UTC)
UNTIL = datetime(2026, 3, 3, tzinfo=UTC)


def _row(**given: Any) -> FriendRow:
    return FriendRow("p1", IdentityView("Ada", None, None), SINCE, True, None, None, **given)


def test_a_part_s_fields_stand_on_the_wire_where_the_record_declares_its_parts() -> None:
    row = _row(parts={GIFT_ROW: GiftRow(UNTIL)}, progression={"coins": 1})
    wire = unstructure(row)
    assert list(wire)[-3:] == ["status", "giftCooldownUntil", "progression"]
    assert wire["giftCooldownUntil"] == "2026-03-03T00:00:00.000Z"
    assert make_converter(forbid_extra_keys=False).structure(wire, FriendRow) == row
    assert make_converter().structure(wire, FriendRow).of(GIFT_ROW) == GiftRow(UNTIL)


def test_a_part_at_its_default_is_left_out_of_the_record_and_of_the_wire() -> None:
    row = _row(parts={GIFT_ROW: GiftRow()})
    assert row == _row() and row.of(GIFT_ROW) == GiftRow()
    assert "giftCooldownUntil" not in unstructure(row)


def test_the_openapi_documents_list_a_part_s_fields_in_the_record() -> None:
    schema = build_documents(ALL, version="1")[Surface.SDK]["components"]["schemas"]["FriendRow"]
    assert list(schema["properties"])[-2:] == ["giftCooldownUntil", "progression"]
    assert "GiftRow" not in build_documents(ALL, version="1")[Surface.SDK]["components"]["schemas"]


def test_a_record_without_parts_takes_none() -> None:
    with pytest.raises(TypeError, match="SuggestionRow declares no parts field"):
        Part(SuggestionRow, PartKey("gift", GiftRow, GiftRow()))
