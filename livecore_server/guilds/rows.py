"""The guilds area's rows: a guild, a member's stint, a join request, a help request and a donation are
kept in their declared tables (:data:`GUILD`, :data:`STINT`, :data:`JOIN_REQUEST`, :data:`HELP_REQUEST`,
:data:`DONATION`: their inserts, the values they write and how a row is read back,
:class:`~livecore_server.storage.mapped.Mapped`)."""

from __future__ import annotations

import orjson

from livecore.guilds.rules import By, Donation, Guild, HelpRequest, JoinRequest, Stint
from livecore_server.guilds.schema import SCHEMA
from livecore_server.storage.mapped import Convert, Mapped


def by_json(by: By | None) -> str | None:
    """Who made a stint start or end, as the webhooks' ``by`` (JSON)."""
    return None if by is None else orjson.dumps(by.to_wire()).decode()


def by_of(text: str | None) -> By | None:
    return None if text is None else By.from_wire(orjson.loads(text))


# ``name_key``: the folded name that uniqueness and look-ups compare (Guild's property), not read back.
GUILD = Mapped(SCHEMA.table("guilds"), Guild, computed={"name_key": lambda g: g.name_key})
GUILD_COLUMNS = GUILD.columns

_BY = Convert(by_json, by_of)
# A stint is put whole: its end rewrites it.
STINT = Mapped(
    SCHEMA.table("guild_stints"),
    Stint,
    convert={"joined_by": _BY, "left_by": _BY},
    replaces=("id",),
)
STINT_COLUMNS = STINT.columns

JOIN_REQUEST = Mapped(SCHEMA.table("guild_join_requests"), JoinRequest)
JOIN_REQUEST_COLUMNS = JOIN_REQUEST.columns
HELP_REQUEST = Mapped(SCHEMA.table("guild_help_requests"), HelpRequest)
HELP_COLUMNS = HELP_REQUEST.columns
DONATION = Mapped(SCHEMA.table("guild_donations"), Donation)
DONATION_COLUMNS = DONATION.columns
