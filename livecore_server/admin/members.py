"""Who is asking, and the studio's members (docs/operators.md#members-and-roles)."""

from __future__ import annotations

from livecore.operators import api
from livecore_server.admin.access import csrf_token
from livecore_server.http.endpoint import Binding, Call, bind
from livecore_server.storage.server_store import ServerTransaction
from livecore_server.storage.sql.members import Member


def member_view(m: Member) -> api.MemberView:
    return api.MemberView(member_id=m.id, key=m.key, email=m.email, role=m.role)


def me(call: Call[None, None], tx: ServerTransaction) -> api.MeResponse:
    operator = call.operator
    assert operator is not None
    member = tx.members.get(operator.member_id)
    assert member is not None  # read with its credential, in the admission
    return api.MeResponse(
        member=member_view(member),
        studio_id=operator.studio_id,
        studio_key=tx.manifest.studio_key(operator.studio_id) or "",
        via=operator.via.value,
        key_id=operator.key_id,
        read_only=operator.read_only,
        csrf_token=csrf_token(call.services, operator.session_id) if operator.session_id else None,
        games=[
            api.GameView(game_id=i, key=k, name=n) for i, k, n in tx.manifest.games_of(operator.studio_id)
        ],
    )


def members(call: Call[None, None], tx: ServerTransaction) -> api.MembersResponse:
    return api.MembersResponse(members=[member_view(m) for m in tx.members.of_studio(call.scope.studio_id)])


BINDINGS: list[Binding] = [bind(api.ME, me), bind(api.MEMBERS, members)]
