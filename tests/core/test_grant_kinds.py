"""Grants as a host (docs/grants.md): the kinds of grant and the records a grant delivers are declared by
the areas that own them (livecore/contributions.py), and what they add to grants is the wire the contract
pins, whatever order the areas are imported in."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys

import orjson
import pytest

from livecore import contributions, registry
from livecore.api.convert import converter
from livecore.api.route import REFUSALS, Refusals, Route, Surface, refusals
from livecore.area import Area
from livecore.crates.errors import CRATE_MUST_BE_OPENED
from livecore.crates.rules import CRATE, CrateEntry
from livecore.economy.rules import Reason
from livecore.enums import VALUES, Value, Values
from livecore.errors import Code
from livecore.gifts.errors import GIFT_ALREADY_CLAIMED, GIFT_EXPIRED
from livecore.grants.api import SDK_CLAIM_GRANT, SERVER_ACK_GRANT, RewardEntry
from livecore.grants.rules import EntryType, GrantKind, GrantTrigger, kind_entry, kind_of


def test_the_crates_declare_the_crate_kind_and_its_entries_after_the_grants_own() -> None:
    assert GrantKind.listed() == ("reward", "crate")
    assert EntryType.listed() == ("currency", "item", "crate")
    assert GrantKind("crate") is CRATE and kind_entry("crate") is CrateEntry
    assert kind_of(CRATE).triggers == {GrantTrigger.OPEN, GrantTrigger.EXPIRE}
    assert RewardEntry(type="crate", key="chest", amount=2).to_entry() == CrateEntry("chest", 2)


def test_the_areas_building_on_grants_complete_the_refusals_of_the_claim_and_the_ack() -> None:
    assert refusals(SDK_CLAIM_GRANT)[-3:] == (CRATE_MUST_BE_OPENED, GIFT_ALREADY_CLAIMED, GIFT_EXPIRED)
    assert refusals(SERVER_ACK_GRANT)[-1:] == (CRATE_MUST_BE_OPENED,)
    assert CRATE_MUST_BE_OPENED not in SERVER_ACK_GRANT.errors  # the route itself is as grants declare it


def test_refusals_added_follow_the_route_s_own_by_value_whatever_the_order_they_are_added_in() -> None:
    own, late, early = Code("own_refusal", 409), Code("zebra_refused", 409), Code("alpha_refused", 410)
    route = Route(name="t.r", surface=Surface.SDK, method="POST", path="/t", summary="T.", errors=(own,))
    assert refusals(route) == (own,)
    adding = Area(
        name="refusing",
        summary="Adds refusals.",
        page="refusing",
        contributes=(REFUSALS(Refusals((route,), (late,))), REFUSALS(Refusals((route,), (early, late, own)))),
    )
    contributions.serve(registry.areas((adding,)))
    assert refusals(route) == (own, early, late) and route.errors == (own,)


def test_the_ledger_reasons_of_gifts_and_guilds_are_declared_by_them_with_their_stored_strings() -> None:
    from livecore.gifts.commands import GIFT_COST
    from livecore.guilds.commands import GUILD_CREATE_COST, GUILD_HELP_DONATION

    assert Reason("gift_cost") is GIFT_COST
    assert Reason("guild_create_cost") is GUILD_CREATE_COST
    assert Reason("guild_help_donation") is GUILD_HELP_DONATION
    assert Reason.listed()[:2] == (Reason.GRANT, Reason.SERVER_CREDIT)  # the declared ones first


def test_a_value_an_area_declares_is_read_once_it_is_served_and_one_never_declared_is_refused() -> None:
    class Colour(Values):
        RED = Value("red")

    blue, amber = Colour.own("blue"), Colour.own("amber")
    with pytest.raises(ValueError, match="blue"):
        Colour("blue")  # owned, but no served area declares it yet
    contributions.serve(
        registry.areas(
            (Area(name="colours", summary="C.", page="colours", contributes=(VALUES(blue), VALUES(amber))),)
        )
    )
    assert Colour("blue") is blue is Colour.own("blue") and Colour.RED is Colour("red")
    assert blue == "blue" and blue.value == "blue" and type(blue.value) is str
    assert Colour.listed() == (Colour.RED, amber, blue)  # its own, then the areas' by value
    with pytest.raises(ValueError, match="crimson"):
        Colour("crimson")
    with pytest.raises(ValueError, match="must be one of red, amber, blue"):
        converter.structure("crimson", Colour)
    assert converter.structure("amber", Colour) is amber


def test_a_stored_or_sent_kind_reads_back_as_the_declared_value() -> None:
    assert pickle.loads(pickle.dumps(CRATE)) is CRATE
    assert copy.deepcopy(GrantKind.REWARD) is GrantKind.REWARD
    assert orjson.dumps({"kind": CRATE}) == b'{"kind":"crate"}'


def test_the_grant_routes_declare_the_same_refusals_when_gifts_are_imported_before_crates() -> None:
    script = (
        "import livecore.gifts.area, livecore.crates.area\n"
        "from livecore.api.route import refusals\n"
        "from livecore.grants.api import SDK_CLAIM_GRANT\n"
        "print(','.join(code.value for code in refusals(SDK_CLAIM_GRANT)))"
    )
    answered = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert answered.stdout.strip() == ",".join(code.value for code in refusals(SDK_CLAIM_GRANT))
