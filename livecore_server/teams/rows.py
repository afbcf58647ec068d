"""The teams area's rows: a team, a member's seat and a partner invite are kept in the declared ``teams``,
``team_members`` and ``partner_invites`` tables (:data:`TEAM`, :data:`TEAM_MEMBER`, :data:`INVITE`: their
inserts, the values they write and how a row is read back,
:class:`~livecore_server.storage.mapped.Mapped`)."""

from __future__ import annotations

from livecore.teams.rules import PartnerInvite, Team, TeamMember
from livecore_server.storage.mapped import Mapped
from livecore_server.teams.schema import SCHEMA

# ``rank_key`` is the score negated: the team board's order (best first) is one ascending index.
TEAM = Mapped(SCHEMA.table("teams"), Team, computed={"rank_key": lambda t: -t.score})
TEAM_COLUMNS = TEAM.columns

# A seat is put whole: a second put of the seat rewrites it.
TEAM_MEMBER = Mapped(SCHEMA.table("team_members"), TeamMember, replaces=("seat_id",))
TEAM_MEMBER_COLUMNS = TEAM_MEMBER.columns

INVITE = Mapped(SCHEMA.table("partner_invites"), PartnerInvite)
INVITE_COLUMNS = INVITE.columns
