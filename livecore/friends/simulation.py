"""The friends and presence actions of a simulated player (``ada.friends``, ``ada.presence``, as
``sdk.friends`` and ``sdk.presence`` without the external id), each its client method's builder
(:mod:`livecore.friends.calls`) run in memory (:mod:`livecore.simulation.calls`). Every friends call makes
the player's friend code first, as the server's routes do."""

from __future__ import annotations

from livecore.friends.calls import FriendsCalls, PresenceCalls
from livecore.simulation.calls import Actions, player_method


class Friends(Actions, FriendsCalls):
    """``player.friends``: the player's friends, requests and blocks."""

    code = player_method(FriendsCalls._code)
    search = player_method(FriendsCalls._search)
    send_request = player_method(FriendsCalls._send_request)
    requests = player_method(FriendsCalls._requests)
    accept_request = player_method(FriendsCalls._accept_request)
    decline_request = player_method(FriendsCalls._decline_request)
    cancel_request = player_method(FriendsCalls._cancel_request)
    list = player_method(FriendsCalls._list)
    remove = player_method(FriendsCalls._remove)
    suggestions = player_method(FriendsCalls._suggestions)
    block = player_method(FriendsCalls._block)
    blocks = player_method(FriendsCalls._blocks)
    unblock = player_method(FriendsCalls._unblock)


class Presence(Actions, PresenceCalls):
    """``player.presence``: the player's heartbeat."""

    heartbeat = player_method(PresenceCalls._heartbeat)
