"""Who is asking, and the studio's members (docs/operators.md#members-and-roles)."""

from __future__ import annotations

from livecore.hashing import KeyedHasher
from livecore.operators import api
from livecore.operators.request import OperatorRequest, operator_of
from livecore.operators.store import MemberRecord, OperatorsTx


def csrf_message(session_id: str) -> str:
    """What a session's CSRF token is the keyed hash of: its id, so it is never stored and cannot be made
    without the server's key."""
    return f"csrf\x00{session_id}"


def csrf_token(hasher: KeyedHasher, session_id: str) -> str:
    """The session's CSRF token."""
    return hasher.hash(csrf_message(session_id))


def member_view(m: MemberRecord) -> api.MemberView:
    return api.MemberView(member_id=m.id, key=m.key, email=m.email, role=m.role)


def me(request: OperatorRequest[None, None], tx: OperatorsTx) -> api.MeResponse:
    operator = operator_of(request)
    member = tx.members.get(operator.member_id)
    assert member is not None  # read with its credential, in the admission
    return api.MeResponse(
        member=member_view(member),
        studio_id=operator.studio_id,
        studio_key=tx.manifest.studio_key(operator.studio_id) or "",
        via=operator.via.value,
        key_id=operator.key_id,
        read_only=operator.read_only,
        csrf_token=csrf_token(request.rt.hasher, operator.session_id) if operator.session_id else None,
        games=[
            api.GameView(game_id=i, key=k, name=n) for i, k, n in tx.manifest.games_of(operator.studio_id)
        ],
    )


def members(request: OperatorRequest[None, None], tx: OperatorsTx) -> api.MembersResponse:
    return api.MembersResponse(
        members=[member_view(m) for m in tx.members.of_studio(request.scope.studio_id)]
    )
