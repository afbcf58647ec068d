"""A studio's own area added to the client as a resource: one builder, a sync and an async resource class
made from it by the same adapters as the built-in ones, bound with ``resource(...)`` on a subclass."""

from __future__ import annotations

import inspect

import attrs
import httpx
import pytest
import respx

from livecore.api.route import Auth, Route, Surface
from livecore_client import AsyncSdkClient, SdkClient
from livecore_client.resources import (
    AsyncResource,
    Call,
    SdkCalls,
    SyncResource,
    async_method,
    resource,
    sync_method,
)
from tests.client.support import BASE


@attrs.frozen
class QuestProgress:
    quest_key: str
    done: int
    of: int


QUEST_PROGRESS = Route(
    name="quests.progress",
    surface=Surface.SDK,
    method="GET",
    path="/players/{externalId}/quests/{questKey}",
    summary="A player's progress in one quest.",
    auth=Auth.KEY_OR_PLAYER,
    response=QuestProgress,
)


class _QuestsCalls(SdkCalls):
    def _progress(
        self, external_id: str, quest_key: str, *, player_secret: str | None = None
    ) -> Call[QuestProgress]:
        """The player's progress in ``quest_key``."""
        return Call(
            QUEST_PROGRESS,
            QuestProgress,
            path={"externalId": external_id, "questKey": quest_key},
            player_secret=self._secret(player_secret),
        )


class Quests(SyncResource["GameClient"], _QuestsCalls):
    progress = sync_method(_QuestsCalls._progress)


class AsyncQuests(AsyncResource["AsyncGameClient"], _QuestsCalls):
    progress = async_method(_QuestsCalls._progress)


class GameClient(SdkClient):
    quests = resource(Quests)


class AsyncGameClient(AsyncSdkClient):
    quests = resource(AsyncQuests)


URL = f"{BASE}/sdk/v1/players/ada/quests/dragon"
ANSWER = {"data": {"questKey": "dragon", "done": 2, "of": 5}}


def test_a_studio_resource_is_sent_through_its_client(respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(URL).mock(return_value=httpx.Response(200, json=ANSWER))
    with GameClient("ck_test", base_url=BASE, player_secret="sec_1") as client:
        assert client.quests.progress("ada", "dragon") == QuestProgress("dragon", 2, 5)
        assert client.quests is client.quests  # made once per client
        assert client.wallet._client is client  # beside the built-in resources
    sent = route.calls.last.request
    assert (sent.headers["Authorization"], sent.headers["X-Player-Secret"]) == ("Bearer ck_test", "sec_1")


async def test_a_studio_resource_is_sent_through_its_async_client(respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(URL).mock(
        side_effect=[httpx.Response(503), httpx.Response(200, json=ANSWER)]  # the client's retries apply
    )
    async with AsyncGameClient("ck_test", base_url=BASE, max_retries=1) as client:
        client._retry = attrs.evolve(client._retry, async_sleep=_no_sleep)
        assert await client.quests.progress("ada", "dragon", player_secret="sec_2") == QuestProgress(
            "dragon", 2, 5
        )
    assert route.call_count == 2
    assert route.calls.last.request.headers["X-Player-Secret"] == "sec_2"


async def _no_sleep(seconds: float) -> None:
    return None


def test_the_two_methods_are_one_builder() -> None:
    assert inspect.signature(GameClient.quests.progress) == inspect.signature(AsyncGameClient.quests.progress)
    assert GameClient.quests.progress.__doc__ == "The player's progress in ``quest_key``."
    assert inspect.iscoroutinefunction(AsyncGameClient.quests.progress)


def test_a_resource_bound_on_the_other_kind_of_client_is_refused() -> None:
    # Python 3.11 wraps an error of __set_name__ in a RuntimeError; later versions raise it as it is.
    with pytest.raises((TypeError, RuntimeError)) as raised:

        class Wrong(SdkClient):
            quests = resource(AsyncQuests)

    error = raised.value if isinstance(raised.value, TypeError) else raised.value.__cause__
    assert isinstance(error, TypeError) and "other kind of client" in str(error)


class _StreakCalls(SdkCalls):
    def _progress(self, external_id: str, quest_key: str) -> Call[QuestProgress]:
        """Another vendor's area, on the same route for the test."""
        return Call(QUEST_PROGRESS, QuestProgress, path={"externalId": external_id, "questKey": quest_key})


class Streaks(SyncResource["SdkClient"], _StreakCalls):
    progress = sync_method(_StreakCalls._progress)


def test_two_vendors_resources_join_one_client_without_a_subclass_each(respx_mock: respx.MockRouter) -> None:
    respx_mock.get(URL).mock(return_value=httpx.Response(200, json=ANSWER))
    Game = SdkClient.with_resources(quests=Quests, streaks=Streaks)
    assert issubclass(Game, SdkClient) and Game.__name__ == "SdkClient"
    with Game("ck_test", base_url=BASE, player_secret="sec_1") as client:
        assert client.quests.progress("ada", "dragon") == client.streaks.progress("ada", "dragon")
        assert client.gifts._client is client
    assert not hasattr(SdkClient, "quests")  # the client itself is unchanged


def test_a_resource_named_as_one_the_client_has_or_of_the_wrong_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="SdkClient already has gifts"):
        SdkClient.with_resources(gifts=Quests)
    with pytest.raises(TypeError):
        SdkClient.with_resources(quests=AsyncQuests)
    assert isinstance(AsyncSdkClient.with_resources(quests=AsyncQuests).quests, type)
