"""Who authenticates each kind of route's caller is declared by the area that owns the callers
(livecore.api.auth): the shared core reads the declaration, and each kind has one."""

from __future__ import annotations

from collections import Counter

from livecore.api.auth import AUTHENTICATION, authentication, credential_refusals
from livecore.api.route import Auth
from livecore.contributions import served
from livecore.players.actor import admit
from livecore.players.commands import authenticate
from livecore.players.errors import PLAYER_SECRET_INVALID


def test_the_players_area_authenticates_the_player_of_player_and_key_or_player_routes() -> None:
    for kind in (Auth.PLAYER, Auth.KEY_OR_PLAYER):
        declared = authentication(kind)
        assert declared is not None, kind
        assert (declared.authenticate, declared.admit) == (authenticate, admit)
        assert credential_refusals(kind) == (PLAYER_SECRET_INVALID,)


def test_the_api_key_alone_and_no_credential_need_no_declaration() -> None:
    for kind in (Auth.PUBLIC, Auth.KEY):
        assert authentication(kind) is None
        assert credential_refusals(kind) == ()


def test_no_two_areas_authenticate_one_kind_of_route() -> None:
    declared = Counter(kind for found in served().of(AUTHENTICATION) for kind in found.kinds)
    assert all(count == 1 for count in declared.values()), declared
