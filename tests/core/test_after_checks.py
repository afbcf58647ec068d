"""Checks after built-in commands (livecore.hooks, docs/extending.md#checks-on-built-in-commands): each runs
in the command's transaction once it has written, sees what it wrote, and refusing rolls it all back."""

from __future__ import annotations

from typing import Any

import pytest

from livecore.area import Area
from livecore.errors import Code, LivecoreError
from livecore.exceptions import ConflictError
from livecore.grants.api import RewardEntry
from livecore.hooks import hookimpl
from livecore.lobbies.api import LobbyForming
from livecore.simulation import Simulation
from tests.core.test_simulation import MONDAY, SEASON, friends

GUILDS = """
[games.arena.guilds]
enabled = true
max_members = 3
"""
NO_CLAIM = Code("test_no_claim", 409, "A test's check refuses a grant claim after it was written.")


class Recorder:
    def __init__(self) -> None:
        self.seen: list[tuple[str, Any]] = []
        self.refuse_claims = False

    @hookimpl
    def after_register(self, player: Any, created: bool) -> None:
        self.seen.append(("after_register", (player.external_id, created)))

    @hookimpl
    def after_send_gift(self, sender: Any, recipient: Any, gift: Any) -> None:
        self.seen.append(("after_send_gift", (sender.external_id, recipient.external_id, gift.amount)))

    @hookimpl
    def after_claim_gift(self, recipient: Any, gift: Any) -> None:
        self.seen.append(("after_claim_gift", (recipient.external_id, gift.status.value)))

    @hookimpl
    def after_claim_grant(self, tx: Any, player: Any, grant: Any) -> None:
        stored = tx.grants.get(grant.game_id, grant.id)
        self.seen.append(("after_claim_grant", (player.external_id, stored.status.value)))
        if self.refuse_claims:
            raise LivecoreError(NO_CLAIM, "Not today.")

    @hookimpl
    def after_open_crate(self, player: Any, crate: Any, contents: Any) -> None:
        self.seen.append(("after_open_crate", (crate.status.value, contents.status.value)))

    @hookimpl
    def after_join_guild(self, player: Any, guild: Any, joined: Any) -> None:
        self.seen.append(("after_join_guild", (player.external_id, guild.name, joined.own is not None)))

    @hookimpl
    def after_submit_progress(self, attempt: Any, granted: Any) -> None:
        self.seen.append(("after_submit_progress", (attempt.status.value, len(granted))))

    @hookimpl
    def after_finish_attempt(self, attempt: Any) -> None:
        self.seen.append(("after_finish_attempt", attempt.status.value))


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def sim(recorder: Recorder) -> Simulation:
    area = Area(name="recorder", summary="", page="recorder", errors=(NO_CLAIM,), hooks=recorder)
    return Simulation.from_manifest(SEASON + GUILDS, seed=7, start=MONDAY, areas=[area])


def _seen(recorder: Recorder, hook: str) -> list[Any]:
    return [what for name, what in recorder.seen if name == hook]


def test_each_after_check_sees_what_its_command_wrote(sim: Simulation, recorder: Recorder) -> None:
    ada, bo = sim.player("ada"), sim.player("bo")
    assert _seen(recorder, "after_register") == [("ada", True), ("bo", True)]

    sim.server.wallet.credit(ada, "coins", 100)
    friends(sim, "ada", "bo")
    sent = ada.gifts.send(type="currency", resource_key="coins", amount=30, external_player_id=bo)
    bo.gifts.claim(sent.gift.gift_id)
    assert _seen(recorder, "after_send_gift") == [("ada", "bo", 30)]
    assert _seen(recorder, "after_claim_gift") == [("bo", "claimed")]

    crate = sim.server.grants.create(ada, [RewardEntry(type="crate", key="chest", amount=1)], kind="crate")
    ada.grants.open_crate(crate.grant.grant_id)
    assert _seen(recorder, "after_open_crate") == [("claimed", "claimed")]

    granted = sim.server.grants.create(bo, [RewardEntry(type="currency", key="gems", amount=4)])
    bo.grants.claim(granted.grant.grant_id)
    assert _seen(recorder, "after_claim_grant") == [("bo", "claimed")]

    guild = ada.guilds.create("Dragons", "open").guild
    bo.guilds.join(guild.guild_id)
    assert _seen(recorder, "after_join_guild") == [("bo", "Dragons", True)]

    started = ada.live_events.start_attempt("sprint")
    assert not isinstance(started, LobbyForming)
    ada.live_events.report_progress("sprint", started.attempt.attempt_id, {"score": 60}, complete=True)
    assert _seen(recorder, "after_submit_progress") == [("completed", 1)]
    assert _seen(recorder, "after_finish_attempt") == ["completed"]
    names = [name for name, _ in recorder.seen]
    assert names.index("after_finish_attempt") < names.index("after_submit_progress")


def test_an_after_check_that_refuses_rolls_the_whole_command_back(
    sim: Simulation, recorder: Recorder
) -> None:
    bo = sim.player("bo")
    granted = sim.server.grants.create(bo, [RewardEntry(type="currency", key="gems", amount=4)])
    recorder.refuse_claims = True
    before = list(sim.webhooks)
    with pytest.raises(ConflictError) as refused:
        bo.grants.claim(granted.grant.grant_id)
    assert refused.value.code == "test_no_claim"
    assert sim.balance(bo, "gems") == 0
    assert sim.webhooks == before
    recorder.refuse_claims = False
    bo.grants.claim(granted.grant.grant_id)
    assert sim.balance(bo, "gems") == 4
