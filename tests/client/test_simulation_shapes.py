"""A simulation's actions are named and shaped as the typed client's methods (livecore/simulation/): each
group a simulated player or ``sim.server`` holds is the client's resource of that name, and each of its
methods is the client's method of that name, taking the same parameters less those a simulation holds or
does not need (the acting player's external id, its secret, an idempotency key). So a test written against
the client reads the same against a simulation."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

from livecore.simulation import Simulation
from livecore.simulation.calls import Actions, ServerActions
from livecore_client import SdkClient, ServerClient

# What a simulation adds for its scripts, which no client method answers.
CONVENIENCES = {("wallet", "balance"), ("grants", "claim_all")}
HELD = {"player_secret", "idempotency_key"}


def _parameters(method: Callable[..., Any], dropped: set[str]) -> tuple[list[str], set[str]]:
    """The positional parameters in order, and the keyword-only ones (whose order says nothing)."""
    found = [p for p in inspect.signature(method).parameters.values() if p.name not in dropped]
    return (
        [p.name for p in found if p.kind is not inspect.Parameter.KEYWORD_ONLY],
        {p.name for p in found if p.kind is inspect.Parameter.KEYWORD_ONLY},
    )


def _groups() -> list[Any]:
    sim = Simulation.from_manifest('studio = "acme"\n[games.g]\nname = "G"\n')
    player = sim.player("ada")
    found = []
    for side, holder, client, dropped in (
        ("player", player, SdkClient, {"self", "external_id", *HELD}),
        ("server", sim.server, ServerClient, {"self", *HELD}),
    ):
        for name, group in vars(holder).items():
            if isinstance(group, Actions | ServerActions):
                found.append(
                    pytest.param(side, name, group, getattr(client, name), dropped, id=f"{side}.{name}")
                )
    return found


@pytest.mark.parametrize(("side", "name", "group", "resource", "dropped"), _groups())
def test_each_action_is_the_clients_method(
    side: str, name: str, group: object, resource: type[Any], dropped: set[str]
) -> None:
    for method_name, method in inspect.getmembers(type(group), inspect.isfunction):
        if method_name.startswith("_") or (name, method_name) in CONVENIENCES:
            continue
        client_method = getattr(resource, method_name, None)
        assert client_method is not None, f"{side} {name}.{method_name}: no such client method"
        assert _parameters(method, dropped) == _parameters(client_method, dropped), (
            f"{side} {name}.{method_name}"
        )
