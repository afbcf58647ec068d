"""The quests area's calls, one builder per route (docs/client.md#your-own-resources): the typed clients
send them over HTTP (``studio_quests.client``) and a simulation runs them in memory
(``studio_quests.simulation``), so the two take the same parameters and answer the same models."""

from __future__ import annotations

from livecore.api.call import Call, SdkCalls, ServerCalls
from studio_quests.api import SDK_CHECK_IN, SDK_READ, SERVER_READ, CheckInResponse, QuestResponse


class QuestCalls(SdkCalls):
    def _check_in(
        self, external_id: str, *, idempotency_key: str | None = None, player_secret: str | None = None
    ) -> Call[CheckInResponse]:
        """Check in for today (UTC): the streak moves on and the day's reward comes back as a pending
        grant. A second check-in the same day raises
        :class:`~livecore_client.errors.ConflictError` with code ``quest_already_checked_in``."""
        return Call(
            SDK_CHECK_IN,
            CheckInResponse,
            path={"externalId": external_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _get(self, external_id: str, *, player_secret: str | None = None) -> Call[QuestResponse]:
        """The player's daily check-in: today's, the streak, the best streak."""
        return Call(
            SDK_READ,
            QuestResponse,
            path={"externalId": external_id},
            player_secret=self._secret(player_secret),
        )


class ServerQuestCalls(ServerCalls):
    def _get(self, external_id: str) -> Call[QuestResponse]:
        """A player's daily check-in, read by the studio backend."""
        return Call(SERVER_READ, QuestResponse, path={"externalId": external_id})
