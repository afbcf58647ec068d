"""Platform and app version: what the SDK reports about the build a player runs
(docs/reference/players-and-identity.md#platform-and-app-version).

Part of the wire protocol every SDK request shares, whichever area's route it calls: the client's transport
sends the headers, the server and an embedded simulation read them before any handler runs, the OpenAPI
documents list them on every SDK route, and a game's manifest declares its own platform keys. The players
area keeps what a player reported.

- The SDK sends them on every request, as the headers :data:`PLATFORM_HEADER` and
  :data:`APP_VERSION_HEADER`; each is optional, and one left out keeps what was recorded before.
- The player keeps the last value of each (:class:`ClientBuild`). A platform key is shown as sent; it is
  registered when it is one of :data:`BUILT_IN_PLATFORMS` or a key the game declares in its manifest
  (``platforms``), compared exactly. An unregistered key is kept and shown all the same, flagged.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from livecore.errors import invalid_request
from livecore.games import GameSettings
from livecore.limits import Text

PLATFORM_HEADER = "X-Svc-Platform"
APP_VERSION_HEADER = "X-Svc-App-Version"

#: The platform keys every game knows (docs/players.md); a game adds its own in the manifest.
BUILT_IN_PLATFORMS = frozenset({"ios", "android", "web", "windows", "macos", "linux", "editor"})

#: A platform key, as sent or declared.
PLATFORM = Text(min_length=1, max_length=32, plain=True)
#: An app version, as sent (``1.4.2``, ``2024.11.3-beta+77``: any build label).
APP_VERSION = Text(min_length=1, max_length=64, plain=True)


@attrs.frozen
class ClientBuild:
    """A platform key and an app version: each None when never reported (or, in what one request sent,
    when that request did not send it)."""

    platform: str | None = None
    app_version: str | None = None

    def reported(self, sent: ClientBuild) -> ClientBuild:
        """This build after a request that sent ``sent``: each value sent replaces the one kept."""
        return ClientBuild(
            platform=self.platform if sent.platform is None else sent.platform,
            app_version=self.app_version if sent.app_version is None else sent.app_version,
        )


def sent_build(headers: Mapping[str, str]) -> ClientBuild | None:
    """What a request's headers report (None when it sends neither header), or a 400 ``invalid_request``
    naming each header that breaks its rule."""
    platform = headers.get(PLATFORM_HEADER)
    app_version = headers.get(APP_VERSION_HEADER)
    if platform is None and app_version is None:
        return None
    problems = {
        name: problem
        for name, value, rule in (
            (PLATFORM_HEADER, platform, PLATFORM),
            (APP_VERSION_HEADER, app_version, APP_VERSION),
        )
        if value is not None and (problem := rule.problem(value)) is not None
    }
    if problems:
        raise invalid_request(f"The request is invalid: {', '.join(problems)}.", problems)
    return ClientBuild(platform=platform, app_version=app_version)


def platform_registered(platform: str | None, settings: GameSettings) -> bool:
    """Whether ``platform`` is a key the game knows: built in or declared by the game. False when no
    platform was reported."""
    return platform is not None and (platform in BUILT_IN_PLATFORMS or platform in settings.platforms)
