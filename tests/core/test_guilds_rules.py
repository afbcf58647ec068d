"""Guild rules without a server (livecore/guilds/rules.py): names and the name filter, the profile and its
edit,
joining, the role table and the refusal order of an action on a member, succession, help requests and
donations, and ``by``."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from livecore.clock import format_ts
from livecore.errors import INVALID_REQUEST, Code, LivecoreError
from livecore.games import Entry, ResourceType
from livecore.guilds.errors import (
    ALREADY_IN_GUILD,
    GUILD_DISBANDED,
    GUILD_FULL,
    GUILD_MEMBER_NOT_FOUND,
    GUILD_NAME_REJECTED,
    GUILD_NAME_TAKEN,
    GUILD_PERMISSION_DENIED,
    HELP_COOLDOWN,
    HELP_REQUEST_CLOSED,
    HELP_REQUEST_NOT_FOUND,
    HELP_REQUEST_OPEN,
    JOIN_REQUEST_PENDING,
)
from livecore.guilds.rules import (
    ALLOWED,
    KEEP,
    KICKS,
    ROLE_TRANSITIONS,
    SYSTEM_BY,
    Action,
    By,
    ByKind,
    Guild,
    HelpRequest,
    HelpStatus,
    JoinType,
    JoinVia,
    Profile,
    Role,
    RoleTrigger,
    Stint,
    check_country,
    check_donation,
    check_filter,
    check_help_request,
    check_join,
    check_may,
    check_member_action,
    check_name,
    check_name_free,
    closed,
    donated,
    edited,
    help_status,
    inactive_since,
    inactive_successor,
    name_key,
    new_guild,
    new_help_request,
    next_role,
    successor,
)
from livecore.guilds.settings import GuildSettings, HelpSettings
from livecore.players.identity import Identity
from livecore.players.rules import Player
from livecore.rand import SeededRandomSource
from livecore.scope import SYSTEM, Actor, Environment

T0 = datetime(2026, 12, 1, tzinfo=UTC)
GAME = "gam_1"
ENV = Environment.TEST
HELP = HelpSettings(
    resources=("energy", "potion"),
    max_amount=5,
    expiry_seconds=3600,
    cooldown_seconds=600,
    donor_reward=(Entry(ResourceType.CURRENCY, "coins", 2),),
)
SETTINGS = GuildSettings(enabled=True, max_members=3, help=HELP)
DECLARED = {"energy": ResourceType.CURRENCY, "potion": ResourceType.ITEM, "coins": ResourceType.CURRENCY}


def guild(**fields: Any) -> Guild:
    return Guild(
        id=fields.pop("id", "gld_1"),
        game_id=GAME,
        env=ENV,
        name=fields.pop("name", "Star Hunters"),
        join_type=fields.pop("join_type", JoinType.OPEN),
        created_at=T0,
        **fields,
    )


def player(n: int) -> Player:
    return Player(f"plr_{n}", GAME, ENV, f"p{n}", T0, T0, Identity(f"P {n}", None))


def stint(
    n: int, role: Role = Role.MEMBER, joined: int = 0, *, guild_id: str = "gld_1", left: bool = False
) -> Stint:
    """Player ``n``'s stint (``gms_{n:03}``), joined ``joined`` minutes after T0."""
    return Stint(
        id=f"gms_{n:03}",
        guild_id=guild_id,
        game_id=GAME,
        env=ENV,
        player_id=f"plr_{n}",
        external_player_id=f"p{n}",
        role=role,
        via=JoinVia.OPEN,
        joined_at=T0 + timedelta(minutes=joined),
        joined_by=SYSTEM_BY,
        left_at=T0 + timedelta(days=1) if left else None,
    )


def help_request(**fields: Any) -> HelpRequest:
    """Player 1's open request for 5 energy in guild gld_1, made at T0, expiring an hour later."""
    values: dict[str, Any] = {
        "id": "ghr_1",
        "guild_id": "gld_1",
        "game_id": GAME,
        "player_id": "plr_1",
        "external_player_id": "p1",
        "type": ResourceType.CURRENCY,
        "resource_key": "energy",
        "amount": 5,
        "created_at": T0,
        "expires_at": T0 + timedelta(hours=1),
    }
    return HelpRequest(**{**values, **fields})


def refusal(call: Callable[[], object]) -> LivecoreError:
    with pytest.raises(LivecoreError) as caught:
        call()
    return caught.value


def invalid(call: Callable[[], object]) -> dict[str, str]:
    """The 400 ``invalid_request`` ``call`` raises: its ``details.fields``."""
    error = refusal(call)
    assert (error.code, error.status) == (INVALID_REQUEST, 400), error
    assert error.details is not None
    fields: dict[str, str] = error.details["fields"]
    return fields


# --- names ----------------------------------------------------------------------------------------------


def test_name_is_nfc_normalized_and_trimmed() -> None:
    decomposed = "  Cafe\u0301 Club \u00a0"
    assert check_name(decomposed) == "Caf\u00e9 Club"


def test_name_length_counts_characters_after_nfc() -> None:
    # 24 characters once composed, 25 code points before: accepted.
    assert check_name("a" * 23 + "e\u0301") == "a" * 23 + "\u00e9"
    assert "name" in invalid(lambda: check_name("a" * 24 + "e\u0301"))


@pytest.mark.parametrize("name", ["abc", "a" * 24, " abc ", "A b", "Ωμέγα"])
def test_names_of_3_to_24_characters_after_trimming_are_accepted(name: str) -> None:
    assert check_name(name) == name.strip()


@pytest.mark.parametrize("name", ["", "ab", "  ab  ", "a" * 25, " " + "a" * 25])
def test_names_outside_3_to_24_characters_are_invalid_requests(name: str) -> None:
    assert "3 to 24 characters" in invalid(lambda: check_name(name))["name"]


@pytest.mark.parametrize("name", ["   ", "\u3000\u3000\u3000\u3000", " \u00a0 \u2003 "])
def test_a_name_of_only_whitespace_is_an_invalid_request(name: str) -> None:
    assert "name" in invalid(lambda: check_name(name))


@pytest.mark.parametrize(
    "name",
    [
        "Star\x07Hunters",
        "Star\nHunters",
        "Star\x00Hunters",
        "Star\u200bHunters",
        "Star\u202eHunters",
        "\ufeffStars",
    ],
)
def test_a_name_with_control_or_format_characters_is_an_invalid_request(name: str) -> None:
    assert invalid(lambda: check_name(name))["name"].startswith("must not contain")


def test_check_name_names_the_field_it_is_given() -> None:
    assert set(invalid(lambda: check_name("ab", "guild.name"))) == {"guild.name"}


@pytest.mark.parametrize("name", ["badword", "The BadWord Club", "xxBADWORDxx", "bAdWoRd"])
def test_name_filter_refuses_any_name_containing_an_entry_ignoring_case(name: str) -> None:
    error = refusal(lambda: check_filter(name, ("other", "BadWord")))
    assert (error.code, error.status) == (GUILD_NAME_REJECTED, 400)
    assert error.details == {"name": name}


def test_name_filter_compares_casefolded_not_lowered() -> None:
    # "ß".lower() is "ß"; casefold() makes it "ss".
    assert refusal(lambda: check_filter("Große Runde", ("GROSSE",))).code is GUILD_NAME_REJECTED
    assert refusal(lambda: check_filter("GROSSE RUNDE", ("große",))).code is GUILD_NAME_REJECTED


@pytest.mark.parametrize(("name", "words"), [("Star Hunters", ("bad", "worse")), ("Star Hunters", ())])
def test_name_filter_passes_names_without_an_entry(name: str, words: tuple[str, ...]) -> None:
    check_filter(name, words)


def test_an_empty_name_filter_entry_refuses_nothing() -> None:
    check_filter("Star Hunters", ("",))


def test_name_key_is_the_casefolded_name() -> None:
    assert name_key("Große Runde") == "grosse runde"
    assert guild(name="GROSSE RUNDE").name_key == guild(name="große runde").name_key == "grosse runde"
    assert guild(name="Star Hunters").name_key != guild(name="Star Hunter").name_key


def test_a_name_taken_by_another_live_guild_is_refused_409() -> None:
    error = refusal(lambda: check_name_free(guild(id="gld_2", name="STAR HUNTERS"), "gld_1"))
    assert (error.code, error.status) == (GUILD_NAME_TAKEN, 409)
    assert error.details == {"name": "STAR HUNTERS"}


def test_a_new_guild_may_not_take_a_name_in_use() -> None:
    assert refusal(lambda: check_name_free(guild())).code is GUILD_NAME_TAKEN


def test_a_free_name_or_the_guilds_own_passes() -> None:
    check_name_free(None)
    check_name_free(None, "gld_1")
    check_name_free(guild(id="gld_1"), "gld_1")  # an edit changing only the case of its own name


# --- the profile ----------------------------------------------------------------------------------------


def test_profile_checked_keeps_fields_left_out() -> None:
    assert Profile().checked() == Profile()
    assert Profile(name=" Stars ").checked() == Profile(name="Stars")


def test_profile_checked_normalizes_each_given_field() -> None:
    given_ = Profile(
        name="  Cafe\u0301s ",
        description="We fly.",
        badge="rocket",
        country=" fr ",
        join_type=JoinType.REQUEST,
        metadata={"motto": "up"},
    )
    assert given_.checked() == Profile(
        name="Caf\u00e9s",
        description="We fly.",
        badge="rocket",
        country="FR",
        join_type=JoinType.REQUEST,
        metadata={"motto": "up"},
    )


def test_profile_checked_lets_optional_fields_be_cleared() -> None:
    cleared = Profile(description=None, badge=None, country=None, metadata=None).checked()
    assert (cleared.description, cleared.badge, cleared.country, cleared.metadata) == (None, None, None, None)
    assert cleared.name is KEEP


@pytest.mark.parametrize(
    ("profile", "field"),
    [
        (Profile(name="ab"), "name"),
        (Profile(description="x" * 501), "description"),
        (Profile(badge=""), "badge"),
        (Profile(badge="a\u200bb"), "badge"),
        (Profile(country="FRA"), "country"),
        (Profile(country="F1"), "country"),
        (Profile(country="ÉÉ"), "country"),
        (Profile(metadata={"blob": "x" * 5000}), "metadata"),
        # The first bad field in field order answers.
        (Profile(name="ab", description="x" * 501, country="FRA"), "name"),
        (Profile(badge="", country="FRA"), "badge"),
    ],
)
def test_profile_checked_refuses_the_first_bad_field(profile: Profile, field: str) -> None:
    assert set(invalid(profile.checked)) == {field}


def test_check_country_keeps_alpha2_upper_case() -> None:
    assert check_country("de") == "DE"
    assert check_country(None) is None


def test_new_guild_takes_the_profile_and_has_no_member_yet() -> None:
    made = new_guild(
        GAME, ENV, Profile(name="Stars", join_type=JoinType.REQUEST, badge="b"), T0, SeededRandomSource(1)
    )
    assert made.id.startswith("gld_")
    assert (made.name, made.join_type, made.badge, made.description, made.country, made.metadata) == (
        "Stars",
        JoinType.REQUEST,
        "b",
        None,
        None,
        None,
    )
    assert (made.member_count, made.created_at, made.disbanded) == (0, T0, False)


@pytest.mark.parametrize("profile", [Profile(name="Stars"), Profile(join_type=JoinType.OPEN)])
def test_new_guild_needs_a_name_and_a_join_type(profile: Profile) -> None:
    with pytest.raises(ValueError, match="name and a join type"):
        new_guild(GAME, ENV, profile, T0, SeededRandomSource(1))


def test_edit_lists_only_the_fields_whose_value_changed() -> None:
    before = guild(description="Old", badge="rocket", metadata={"a": 1})
    after, changes = edited(
        before,
        Profile(name="Star Hunters", description="New", badge="rocket", metadata={"a": 2}),
    )
    assert changes == {
        "description": {"before": "Old", "after": "New"},
        "metadata": {"before": {"a": 1}, "after": {"a": 2}},
    }
    assert (after.name, after.description, after.badge, after.metadata) == (
        "Star Hunters",
        "New",
        "rocket",
        {"a": 2},
    )


def test_edit_leaves_fields_left_out_as_they_are() -> None:
    before = guild(description="Old", country="FR")
    after, changes = edited(before, Profile())
    assert (after, changes) == (before, {})


def test_edit_gives_enum_values_as_strings_and_wire_names() -> None:
    _, changes = edited(guild(join_type=JoinType.OPEN), Profile(join_type=JoinType.REQUEST))
    assert changes == {"joinType": {"before": "open", "after": "request"}}
    assert type(changes["joinType"]["after"]) is str


def test_edit_records_a_cleared_field_and_a_change_of_case() -> None:
    after, changes = edited(guild(badge="rocket"), Profile(name="STAR HUNTERS", badge=None))
    assert changes == {
        "name": {"before": "Star Hunters", "after": "STAR HUNTERS"},
        "badge": {"before": "rocket", "after": None},
    }
    assert after.badge is None


# --- joining --------------------------------------------------------------------------------------------


def join(g: Guild, *, in_a_guild: bool = False, request_pending: bool = False) -> None:
    check_join(g, SETTINGS, in_a_guild=in_a_guild, request_pending=request_pending)


DISBANDED = {"disbanded_at": T0}
FULL = {"member_count": 3}


@pytest.mark.parametrize(
    ("fields", "in_a_guild", "pending", "code"),
    [
        # Each refusal, with every later one applying too: the first answers.
        ({**DISBANDED, **FULL, "join_type": JoinType.REQUEST}, True, True, GUILD_DISBANDED),
        ({**FULL, "join_type": JoinType.REQUEST}, True, True, ALREADY_IN_GUILD),
        ({**FULL, "join_type": JoinType.REQUEST}, False, True, GUILD_FULL),
        ({"join_type": JoinType.REQUEST}, False, True, JOIN_REQUEST_PENDING),
    ],
)
def test_join_refusals_in_order(fields: dict[str, Any], in_a_guild: bool, pending: bool, code: Code) -> None:
    error = refusal(lambda: join(guild(**fields), in_a_guild=in_a_guild, request_pending=pending))
    assert error.code is code
    assert error.status == 409


def test_a_full_guild_names_its_size() -> None:
    error = refusal(lambda: join(guild(member_count=3)))
    assert error.details == {"guildId": "gld_1", "maxMembers": 3}


def test_a_guild_with_a_seat_left_takes_a_member() -> None:
    join(guild(member_count=2))


def test_a_pending_request_does_not_stop_joining_an_open_guild() -> None:
    join(guild(join_type=JoinType.OPEN), request_pending=True)
    join(guild(join_type=JoinType.REQUEST), request_pending=False)


# --- roles ----------------------------------------------------------------------------------------------

LEADER_ONLY = frozenset({Role.LEADER})
LEADERS = frozenset({Role.LEADER, Role.CO_LEADER})


def test_allowed_is_the_role_table() -> None:
    """The leader and co-leaders edit and answer requests, both kick; only the leader promotes, demotes and
    hands on the leadership."""
    assert ALLOWED == {
        Action.EDIT: LEADERS,
        Action.ANSWER_REQUESTS: LEADERS,
        Action.KICK: LEADERS,
        Action.PROMOTE: LEADER_ONLY,
        Action.DEMOTE: LEADER_ONLY,
        Action.TRANSFER: LEADER_ONLY,
    }


@pytest.mark.parametrize(("role", "action"), list(itertools.product(Role, Action)))
def test_check_may_refuses_a_role_the_table_does_not_allow(role: Role, action: Action) -> None:
    if role in ALLOWED[action]:
        check_may(role, action)
    else:
        error = refusal(lambda: check_may(role, action))
        assert (error.code, error.status) == (GUILD_PERMISSION_DENIED, 403)
        assert error.details == {"role": role.value}


def test_kicks_is_whom_each_role_may_kick() -> None:
    assert {
        Role.LEADER: frozenset({Role.CO_LEADER, Role.MEMBER}),
        Role.CO_LEADER: frozenset({Role.MEMBER}),
        Role.MEMBER: frozenset(),
    } == KICKS


def test_role_transitions_is_the_role_machine() -> None:
    assert ROLE_TRANSITIONS == {
        (Role.MEMBER, RoleTrigger.PROMOTE): Role.CO_LEADER,
        (Role.CO_LEADER, RoleTrigger.DEMOTE): Role.MEMBER,
        (Role.MEMBER, RoleTrigger.TAKE_LEADERSHIP): Role.LEADER,
        (Role.CO_LEADER, RoleTrigger.TAKE_LEADERSHIP): Role.LEADER,
        (Role.LEADER, RoleTrigger.HAND_OVER): Role.CO_LEADER,
        (Role.LEADER, RoleTrigger.STEP_DOWN): Role.MEMBER,
    }


@pytest.mark.parametrize(("role", "trigger"), list(itertools.product(Role, RoleTrigger)))
def test_next_role_follows_the_table_and_refuses_what_it_lacks(role: Role, trigger: RoleTrigger) -> None:
    if (role, trigger) in ROLE_TRANSITIONS:
        assert next_role(role, trigger) is ROLE_TRANSITIONS[role, trigger]
    else:
        assert invalid(lambda: next_role(role, trigger)) == {"memberExternalId": f"is a {role.value}"}


LEADER = stint(1, Role.LEADER)
CO = stint(2, Role.CO_LEADER, 1)
CO_2 = stint(3, Role.CO_LEADER, 2)
MEMBER = stint(4, Role.MEMBER, 3)
MEMBER_2 = stint(5, Role.MEMBER, 4)


def act(action: Action, caller: Stint, target: Stint | None, external_id: str | None = None) -> Stint:
    named = external_id if external_id is not None else (target.external_player_id if target else "p99")
    return check_member_action(action, caller, named, target)


@pytest.mark.parametrize(("target", "named"), [(MEMBER, "p4"), (None, "p99")], ids=["itself", "nobody"])
@pytest.mark.parametrize("action", [Action.KICK, Action.PROMOTE, Action.DEMOTE, Action.TRANSFER])
def test_refusal_1_a_role_that_may_not_act_comes_first(
    action: Action, target: Stint | None, named: str
) -> None:
    """A member naming itself, or nobody: 403, before refusals 2 and 3."""
    error = refusal(lambda: act(action, MEMBER, target, named))
    assert (error.code, error.status) == (GUILD_PERMISSION_DENIED, 403)


@pytest.mark.parametrize("action", [Action.PROMOTE, Action.DEMOTE, Action.TRANSFER])
def test_refusal_1_a_co_leader_may_not_promote_demote_or_transfer(action: Action) -> None:
    assert refusal(lambda: act(action, CO, MEMBER)).code is GUILD_PERMISSION_DENIED


@pytest.mark.parametrize("action", [Action.KICK, Action.DEMOTE, Action.TRANSFER, Action.PROMOTE])
def test_refusal_2_the_caller_naming_itself_is_an_invalid_request(action: Action) -> None:
    # Before refusal 3: the caller's stint is not passed as the target. The member is named where the
    # request names it: a transfer in its body, the others in their path.
    field = "externalPlayerId" if action is Action.TRANSFER else "memberExternalId"
    assert invalid(lambda: act(action, LEADER, None, "p1")) == {field: "is the caller"}


def test_refusal_2_a_co_leader_kicking_itself() -> None:
    assert invalid(lambda: act(Action.KICK, CO, CO)) == {"memberExternalId": "is the caller"}


@pytest.mark.parametrize("caller", [LEADER, CO], ids=["leader", "co-leader"])
@pytest.mark.parametrize(
    "target",
    [None, stint(6, Role.CO_LEADER, guild_id="gld_2"), stint(6, Role.CO_LEADER, left=True)],
    ids=["no stint", "another guild", "left"],
)
def test_refusal_3_a_player_not_a_current_member_is_not_found(caller: Stint, target: Stint | None) -> None:
    """Before refusal 4: a co-leader naming a co-leader who left is told it is not found."""
    error = refusal(lambda: act(Action.KICK, caller, target, "p6"))
    assert (error.code, error.status) == (GUILD_MEMBER_NOT_FOUND, 404)
    assert error.details == {"externalPlayerId": "p6"}


@pytest.mark.parametrize("target", [CO_2, LEADER], ids=["co-leader", "leader"])
def test_refusal_4_a_co_leader_kicks_members_only(target: Stint) -> None:
    error = refusal(lambda: act(Action.KICK, CO, target))
    assert (error.code, error.status) == (GUILD_PERMISSION_DENIED, 403)
    assert error.details == {"role": "co_leader"}


def test_refusal_5_promoting_a_co_leader_or_demoting_a_member() -> None:
    assert act(Action.PROMOTE, LEADER, CO) is CO
    assert invalid(lambda: next_role(CO.role, RoleTrigger.PROMOTE))
    assert act(Action.DEMOTE, LEADER, MEMBER) is MEMBER
    assert invalid(lambda: next_role(MEMBER.role, RoleTrigger.DEMOTE))


@pytest.mark.parametrize(
    ("action", "caller", "target"),
    [
        (Action.KICK, LEADER, CO),
        (Action.KICK, LEADER, MEMBER),
        (Action.KICK, CO, MEMBER),
        (Action.PROMOTE, LEADER, MEMBER),
        (Action.DEMOTE, LEADER, CO),
        (Action.TRANSFER, LEADER, CO),
        (Action.TRANSFER, LEADER, MEMBER),
    ],
)
def test_an_allowed_action_on_a_member_answers_its_stint(
    action: Action, caller: Stint, target: Stint
) -> None:
    assert act(action, caller, target) is target


# --- succession -----------------------------------------------------------------------------------------


def test_successor_is_the_co_leader_who_joined_first() -> None:
    early_member = stint(9, Role.MEMBER, -10)
    assert successor([LEADER, early_member, CO_2, CO, MEMBER], leaving=LEADER.id) is CO


def test_successor_without_co_leaders_is_the_member_who_joined_first() -> None:
    assert successor([MEMBER_2, LEADER, MEMBER], leaving=LEADER.id) is MEMBER


def test_successor_ties_go_to_the_smaller_stint_id() -> None:
    a, b = stint(8, Role.CO_LEADER, 5), stint(6, Role.CO_LEADER, 5)
    assert successor([LEADER, a, b], leaving=LEADER.id) is b


def test_successor_skips_the_leaver_and_ended_stints() -> None:
    gone = stint(9, Role.CO_LEADER, -5, left=True)
    assert successor([LEADER, gone, MEMBER], leaving=LEADER.id) is MEMBER


def test_no_successor_when_nobody_else_is_left() -> None:
    assert successor([LEADER], leaving=LEADER.id) is None
    assert successor([LEADER, stint(9, Role.MEMBER, left=True)], leaving=LEADER.id) is None
    assert successor([], leaving=LEADER.id) is None


members_ = st.lists(
    st.tuples(st.sampled_from([Role.CO_LEADER, Role.MEMBER]), st.integers(0, 5), st.booleans()),
    max_size=8,
)


@given(members_)
def test_successor_is_always_the_earliest_co_leader_if_any_else_the_earliest_member(
    specs: list[tuple[Role, int, bool]],
) -> None:
    members = [LEADER] + [
        stint(10 + i, role, joined, left=left) for i, (role, joined, left) in enumerate(specs)
    ]
    current = [m for m in members[1:] if m.current]
    found = successor(members, leaving=LEADER.id)
    if not current:
        assert found is None
        return
    assert found is not None and found.current and found is not LEADER
    co_leaders = [m for m in current if m.role is Role.CO_LEADER]
    pool = co_leaders or current
    assert found.role is pool[0].role
    assert found.joined_at == min(m.joined_at for m in pool)
    assert found.id == min(m.id for m in pool if m.joined_at == found.joined_at)


CUTOFF = T0 + timedelta(days=14)


def seen(**minutes_after_cutoff: int) -> dict[str, datetime]:
    return {player_id: CUTOFF + timedelta(minutes=m) for player_id, m in minutes_after_cutoff.items()}


def test_inactive_successor_is_the_first_successor_seen_after_the_cutoff() -> None:
    members = [LEADER, CO, CO_2, MEMBER]
    assert inactive_successor(members, LEADER, seen(plr_2=1, plr_3=1, plr_4=1), CUTOFF) is CO
    assert inactive_successor(members, LEADER, seen(plr_2=-1, plr_3=1, plr_4=1), CUTOFF) is CO_2
    assert inactive_successor(members, LEADER, seen(plr_4=1), CUTOFF) is MEMBER


def test_inactive_successor_prefers_a_co_leader_seen_to_an_earlier_member_seen() -> None:
    early_member = stint(9, Role.MEMBER, -10)
    members = [LEADER, early_member, MEMBER, CO_2]
    assert inactive_successor(members, LEADER, seen(plr_9=1, plr_4=1, plr_3=1), CUTOFF) is CO_2
    assert inactive_successor(members, LEADER, seen(plr_9=1, plr_4=1), CUTOFF) is early_member


def test_inactive_successor_ties_go_to_the_smaller_stint_id() -> None:
    a, b = stint(8, Role.CO_LEADER, 5), stint(6, Role.CO_LEADER, 5)
    assert inactive_successor([LEADER, a, b], LEADER, seen(plr_8=1, plr_6=1), CUTOFF) is b


def test_inactive_successor_needs_a_sighting_strictly_after_the_cutoff() -> None:
    members = [LEADER, CO, MEMBER]
    assert inactive_successor(members, LEADER, seen(plr_2=0, plr_4=1), CUTOFF) is MEMBER
    assert inactive_successor(members, LEADER, seen(plr_2=0), CUTOFF) is None


def test_no_inactive_successor_when_nobody_was_seen() -> None:
    members = [LEADER, CO, MEMBER, stint(9, Role.CO_LEADER, left=True)]
    assert inactive_successor(members, LEADER, seen(plr_1=60, plr_9=60), CUTOFF) is None
    assert inactive_successor([LEADER], LEADER, seen(plr_1=60), CUTOFF) is None


def test_a_leader_is_inactive_from_leader_inactive_days_before_now() -> None:
    now = T0 + timedelta(days=30)
    assert inactive_since(GuildSettings(leader_inactive_days=14), now) == T0 + timedelta(days=16)
    assert inactive_since(GuildSettings(leader_inactive_days=1), now) == now - timedelta(days=1)


# --- help -----------------------------------------------------------------------------------------------


def test_help_status_is_expired_from_expires_at() -> None:
    request = help_request()
    assert help_status(request, request.expires_at - timedelta(microseconds=1)) is HelpStatus.OPEN
    assert help_status(request, request.expires_at) is HelpStatus.EXPIRED
    assert help_status(request, request.expires_at + timedelta(days=1)) is HelpStatus.EXPIRED


@pytest.mark.parametrize("status", [HelpStatus.FILLED, HelpStatus.CLOSED])
def test_help_status_keeps_a_request_that_ended_before_expiry(status: HelpStatus) -> None:
    request = help_request(status=status)
    assert help_status(request, request.expires_at + timedelta(days=1)) is status


def ask(
    resource_key: str = "energy",
    amount: int = 5,
    *,
    type_: ResourceType = ResourceType.CURRENCY,
    settings: GuildSettings = SETTINGS,
    open_request: HelpRequest | None = None,
    last_request: HelpRequest | None = None,
    now: datetime = T0 + timedelta(minutes=30),
) -> HelpSettings:
    return check_help_request(
        settings,
        type_,
        resource_key,
        amount,
        DECLARED,
        open_request=open_request,
        last_request=last_request,
        now=now,
    )


RECENT = help_request(created_at=T0 + timedelta(minutes=25))  # the cooldown runs to T0 + 35 minutes


def test_a_help_request_within_the_rules_answers_the_help_settings() -> None:
    assert ask() is HELP
    assert ask("potion", 1, type_=ResourceType.ITEM) is HELP


@pytest.mark.parametrize(
    ("call", "field"),
    [
        # Each refusal, with every later one applying too: the first answers.
        (
            lambda: ask(
                "gems", 0, settings=GuildSettings(enabled=True), open_request=RECENT, last_request=RECENT
            ),
            "type",
        ),
        (lambda: ask("coins", 0, open_request=RECENT, last_request=RECENT), "resourceKey"),
        (lambda: ask("gems", 1), "resourceKey"),
        (lambda: ask("energy", 0, type_=ResourceType.ITEM, open_request=RECENT), "resourceKey"),
        (lambda: ask("potion", 1, type_=ResourceType.CURRENCY), "resourceKey"),
        (lambda: ask("energy", 0, open_request=RECENT, last_request=RECENT), "amount"),
        (lambda: ask("energy", 6, open_request=RECENT, last_request=RECENT), "amount"),
        (lambda: ask("energy", -1), "amount"),
    ],
    ids=[
        "help off",
        "not a help resource",
        "undeclared",
        "wrong type (item)",
        "wrong type (currency)",
        "amount 0",
        "amount above max",
        "negative amount",
    ],
)
def test_help_request_refusals_400_in_order(call: Callable[[], object], field: str) -> None:
    assert set(invalid(call)) == {field}


def test_help_request_help_resource_declared_with_another_type_is_refused() -> None:
    declared_as_item = {**DECLARED, "energy": ResourceType.ITEM}
    assert set(
        invalid(
            lambda: check_help_request(
                SETTINGS,
                ResourceType.CURRENCY,
                "energy",
                1,
                declared_as_item,
                open_request=None,
                last_request=None,
                now=T0,
            )
        )
    ) == {"resourceKey"}


def test_an_open_help_request_refuses_another_409_before_the_cooldown() -> None:
    error = refusal(lambda: ask(open_request=RECENT, last_request=RECENT))
    assert (error.code, error.status) == (HELP_REQUEST_OPEN, 409)
    assert error.details == {"requestId": "ghr_1"}


@pytest.mark.parametrize(
    "ended",
    [help_request(status=HelpStatus.FILLED), help_request(status=HelpStatus.CLOSED), help_request()],
    ids=["filled", "closed", "expired"],
)
def test_a_request_no_longer_open_does_not_block_a_new_one(ended: HelpRequest) -> None:
    assert ask(open_request=ended, now=T0 + timedelta(hours=1)) is HELP


def test_the_cooldown_refuses_409_with_retry_at_until_it_has_run() -> None:
    retry_at = RECENT.created_at + timedelta(seconds=HELP.cooldown_seconds)
    error = refusal(lambda: ask(last_request=RECENT, now=retry_at - timedelta(microseconds=1)))
    assert (error.code, error.status) == (HELP_COOLDOWN, 409)
    assert error.details == {"retryAt": format_ts(retry_at)}  # the wire's timestamp
    assert ask(last_request=RECENT, now=retry_at) is HELP


def test_the_cooldown_counts_from_the_last_requests_creation_whatever_its_status() -> None:
    filled = attrs.evolve(RECENT, status=HelpStatus.FILLED)
    assert refusal(lambda: ask(last_request=filled)).code is HELP_COOLDOWN


def test_a_zero_cooldown_never_refuses() -> None:
    settings = attrs.evolve(SETTINGS, help=attrs.evolve(HELP, cooldown_seconds=0))
    assert (
        ask(settings=settings, last_request=help_request(created_at=T0 + timedelta(minutes=30)))
        == settings.help
    )


def test_a_new_help_request_expires_after_expiry_seconds() -> None:
    made = new_help_request(
        guild(), player(1), HELP, ResourceType.CURRENCY, "energy", 3, T0, SeededRandomSource(1)
    )
    assert made.id.startswith("ghr_")
    assert (made.created_at, made.expires_at) == (T0, T0 + timedelta(seconds=3600))
    assert (made.status, made.donated, made.lacking, made.player_id) == (HelpStatus.OPEN, 0, 3, "plr_1")


DONOR = stint(2, Role.MEMBER)


def donate(
    request: HelpRequest | None, amount: int = 1, donor: Stint = DONOR, now: datetime = T0
) -> HelpRequest:
    return check_donation(request, "ghr_1", donor, amount, now)


@pytest.mark.parametrize(
    "request_",
    [None, help_request(guild_id="gld_2"), help_request(guild_id="gld_2", player_id="plr_2")],
    ids=["none", "another guild", "own in another guild"],
)
def test_donation_refusal_1_no_such_request_in_the_donors_guild_404(request_: HelpRequest | None) -> None:
    error = refusal(lambda: donate(request_, 0))
    assert (error.code, error.status) == (HELP_REQUEST_NOT_FOUND, 404)
    assert error.details == {"requestId": "ghr_1"}


@pytest.mark.parametrize("status", [HelpStatus.OPEN, HelpStatus.FILLED])
def test_donation_refusal_2_to_ones_own_request_400(status: HelpStatus) -> None:
    own = help_request(player_id="plr_2", status=status)
    assert invalid(lambda: donate(own, 0)) == {"requestId": "is your own"}


@pytest.mark.parametrize(
    ("request_", "now", "status"),
    [
        (help_request(status=HelpStatus.FILLED, donated=5), T0, "filled"),
        (help_request(status=HelpStatus.CLOSED), T0, "closed"),
        (help_request(), T0 + timedelta(hours=1), "expired"),
    ],
)
@pytest.mark.parametrize("amount", [0, 1, 5, 100])
def test_donation_refusal_3_a_request_not_open_409_whatever_the_amount(
    request_: HelpRequest, now: datetime, status: str, amount: int
) -> None:
    error = refusal(lambda: donate(request_, amount, now=now))
    assert (error.code, error.status) == (HELP_REQUEST_CLOSED, 409)
    assert error.details == {"requestId": "ghr_1", "status": status}


@pytest.mark.parametrize("amount", [0, -1, 3, 10])
def test_donation_refusal_4_an_amount_outside_1_to_what_is_lacking_400(amount: int) -> None:
    request = help_request(donated=3)  # lacks 2
    assert set(invalid(lambda: donate(request, amount))) == {"amount"}


@pytest.mark.parametrize("amount", [1, 2])
def test_a_donation_within_the_rules_answers_the_request(amount: int) -> None:
    request = help_request(donated=3)
    assert donate(request, amount) is request


def test_a_partial_donation_leaves_the_request_open() -> None:
    after = donated(help_request(donated=1), 2, T0 + timedelta(minutes=1))
    assert (after.donated, after.lacking, after.status, after.closed_at) == (3, 2, HelpStatus.OPEN, None)


def test_the_donation_that_completes_a_request_fills_it() -> None:
    now = T0 + timedelta(minutes=1)
    after = donated(help_request(donated=3), 2, now)
    assert (after.donated, after.lacking, after.status, after.closed_at) == (5, 0, HelpStatus.FILLED, now)


@given(st.integers(1, 20).flatmap(lambda n: st.tuples(st.just(n), st.lists(st.integers(1, n), max_size=25))))
def test_donations_fill_a_request_exactly_when_they_sum_to_its_amount(case: tuple[int, list[int]]) -> None:
    amount, tries = case
    request = help_request(amount=amount)
    total = 0
    for n in tries:
        if request.status is not HelpStatus.OPEN:
            assert refusal(lambda: donate(request, n)).code is HELP_REQUEST_CLOSED  # noqa: B023
            continue
        if n > request.lacking:
            assert set(invalid(lambda: donate(request, n))) == {"amount"}  # noqa: B023
            continue
        request = donated(donate(request, n), n, T0)
        total += n
        assert request.donated == total <= amount
        assert (request.status is HelpStatus.FILLED) == (total == amount)


def test_closed_marks_the_request_closed_when_its_player_leaves() -> None:
    after = closed(help_request(donated=2), T0 + timedelta(minutes=5))
    assert (after.status, after.closed_at, after.donated) == (HelpStatus.CLOSED, T0 + timedelta(minutes=5), 2)


# --- by -------------------------------------------------------------------------------------------------


def test_by_player_wire() -> None:
    assert By.player(player(7)).to_wire() == {"kind": "player", "playerId": "plr_7", "externalPlayerId": "p7"}


@pytest.mark.parametrize(
    ("by", "wire"),
    [
        (By(ByKind.MEMBER, member_id="mem_1"), {"kind": "member", "memberId": "mem_1"}),
        (By(ByKind.API_KEY, api_key_prefix="lc_test_ab"), {"kind": "api_key", "apiKeyPrefix": "lc_test_ab"}),
        (SYSTEM_BY, {"kind": "system"}),
    ],
)
def test_by_wire_names_the_actor_as_spec_6_2_does(by: By, wire: dict[str, str]) -> None:
    assert by.to_wire() == wire


@pytest.mark.parametrize(
    ("actor", "by"),
    [
        (Actor(kind="api_key", prefix="lc_test_ab"), By(ByKind.API_KEY, api_key_prefix="lc_test_ab")),
        (Actor(kind="member", member_id="mem_1"), By(ByKind.MEMBER, member_id="mem_1")),
        (SYSTEM, SYSTEM_BY),
    ],
)
def test_by_of_takes_the_scopes_actor(actor: Actor, by: By) -> None:
    assert By.of(actor) == by
