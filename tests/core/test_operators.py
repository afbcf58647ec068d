"""The operators' rules without a server (livecore/operators/rules.py, area_action.py; docs/operators.md):
what each role may do, the operators' own actions and every built-in area's admin routes' alike, the
order of authorize()'s refusals, personal keys (dashboard-only actions, read-only keys, a key's role, its
lifetime, who revokes it) and the audit entry's actor."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from livecore.errors import INVALID_REQUEST, PERMISSION_DENIED, LivecoreError
from livecore.operators.area_action import AnyAction, actions_of, authorize_action, roles_of
from livecore.operators.errors import DASHBOARD_ONLY as DASHBOARD_ONLY_CODE
from livecore.operators.rules import (
    ALLOWED,
    DASHBOARD_ONLY,
    KEY_LIFETIME,
    LOGIN_LINK_TTL,
    SESSION_TTL,
    Action,
    Operator,
    Via,
    authorize,
    check_key_role,
    key_expiry,
    may_revoke_key,
    sees_every_key,
)
from livecore.roles import Role
from tests import installed as routes

STUDIO = "std_acme"
OTHER_STUDIO = "std_other"
NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)

R = Role
GAME_ROLES = (R.GAME_ADMIN, R.GAME_DEVELOPER, R.GAME_DEBUGGER, R.VIEWER)
#: Every built-in action: the operators' own, and those of each area's admin routes, by name.
EVERY: dict[str, AnyAction] = {**actions_of(routes.ALL), **{a.value: a for a in Action}}


class A:
    """The built-in areas' admin actions, by the names the operators' own once had."""

    MANUAL_GRANT = EVERY["grant.manual_create"]
    FORCE_CLAIM = EVERY["grant.manual_force_claim"]
    FORCE_COMPLETE = EVERY["attempt.force_complete"]
    RETRY_REWARD_ROLL = EVERY["grant.retry_reward_roll"]
    ROTATE_SECRET = EVERY["player.secret_rotate"]
    BAN = EVERY["player.ban"]
    UNBAN = EVERY["player.unban"]
    SET_COUNTRY = EVERY["player.country_override"]
    EDIT_ITEM_ATTRIBUTES = EVERY["player.item_attributes_edit"]


WRITES = [a for a in EVERY.values() if a.is_write]
BUILT_IN_ROLES = [roles_of(a) for a in EVERY.values()]


def may(operator: Operator, action: AnyAction) -> bool:
    allowed = roles_of(action)
    return operator.role in allowed and (operator.key_role is None or operator.key_role in allowed)


# The table of docs/operators.md#roles-and-actions: the game roles besides OWNER and ADMIN that may take each
# action.
GAME_ROLES_ALLOWED: dict[AnyAction, set[Role]] = {
    Action.READ: {R.GAME_ADMIN, R.GAME_DEVELOPER, R.GAME_DEBUGGER, R.VIEWER},
    A.FORCE_COMPLETE: {R.GAME_ADMIN, R.GAME_DEBUGGER},
    A.RETRY_REWARD_ROLL: {R.GAME_ADMIN, R.GAME_DEBUGGER},
    A.MANUAL_GRANT: {R.GAME_ADMIN},
    A.FORCE_CLAIM: {R.GAME_ADMIN, R.GAME_DEBUGGER},
    Action.WEBHOOK_SEND_SAMPLE: {R.GAME_ADMIN, R.GAME_DEVELOPER},
    A.ROTATE_SECRET: {R.GAME_ADMIN, R.GAME_DEVELOPER},
    A.BAN: {R.GAME_ADMIN, R.GAME_DEBUGGER},
    A.UNBAN: {R.GAME_ADMIN, R.GAME_DEBUGGER},
    A.SET_COUNTRY: {R.GAME_ADMIN, R.GAME_DEBUGGER},
    A.EDIT_ITEM_ATTRIBUTES: {R.GAME_ADMIN, R.GAME_DEBUGGER},
    Action.WEBHOOK_CREATE: {R.GAME_ADMIN, R.GAME_DEVELOPER},
    Action.WEBHOOK_ROTATE_SECRET: {R.GAME_ADMIN, R.GAME_DEVELOPER},
    Action.WEBHOOK_REPLAY: {R.GAME_ADMIN, R.GAME_DEVELOPER},
    Action.WEBHOOK_UNPAUSE: {R.GAME_ADMIN, R.GAME_DEVELOPER},
    Action.API_KEY_CREATE: {R.GAME_ADMIN},
    Action.API_KEY_ROTATE: {R.GAME_ADMIN},
    Action.API_KEY_REVOKE: {R.GAME_ADMIN},
    Action.PERSONAL_KEY_CREATE: set(GAME_ROLES),
    Action.PERSONAL_KEY_REVOKE: set(GAME_ROLES),
    Action.MEMBER_SIGN_IN: set(GAME_ROLES),
    Action.MEMBER_SIGN_OUT: set(GAME_ROLES),
}


def session(role: Role, *, studio: str = STUDIO, member: str = "mem_1") -> Operator:
    return Operator(member_id=member, studio_id=studio, role=role, via=Via.PORTAL, session_id="ses_1")


def key(
    role: Role,
    *,
    key_role: Role | None = None,
    read_only: bool = False,
    studio: str = STUDIO,
    member: str = "mem_1",
    via: Via = Via.API,
) -> Operator:
    return Operator(
        member_id=member,
        studio_id=studio,
        role=role,
        via=via,
        key_id="pk_1",
        key_role=key_role,
        read_only=read_only,
    )


def refusal(operator: Operator, action: AnyAction, **kw: Any) -> LivecoreError:
    with pytest.raises(LivecoreError) as caught:
        if kw:
            assert isinstance(action, Action)
            authorize(operator, STUDIO, action, **kw)
        else:
            authorize_action(operator, STUDIO, action)
    return caught.value


# --- the table ------------------------------------------------------------------------------------------


def test_the_table_names_every_action() -> None:
    assert set(ALLOWED) == set(Action)
    assert set(EVERY.values()) == set(GAME_ROLES_ALLOWED)


@pytest.mark.parametrize("action", list(EVERY.values()), ids=lambda a: a.value)
def test_each_action_is_allowed_to_owners_admins_and_the_game_roles_spec_4_4_names(action: AnyAction) -> None:
    assert roles_of(action) == {R.OWNER, R.ADMIN} | GAME_ROLES_ALLOWED[action]


@pytest.mark.parametrize("role", [R.OWNER, R.ADMIN])
def test_owners_and_admins_may_take_every_action(role: Role) -> None:
    for action in EVERY.values():
        authorize_action(session(role), STUDIO, action)


def test_a_viewer_reads_only() -> None:
    authorize(session(R.VIEWER), STUDIO, Action.READ)
    operator_writes = set(WRITES) - {
        Action.PERSONAL_KEY_CREATE,
        Action.PERSONAL_KEY_REVOKE,
        Action.MEMBER_SIGN_IN,
        Action.MEMBER_SIGN_OUT,
    }
    for action in operator_writes:
        assert refusal(session(R.VIEWER), action).code is PERMISSION_DENIED, action


def test_every_role_may_read() -> None:
    for role in Role:
        authorize(session(role), STUDIO, Action.READ)


def test_only_read_is_not_a_write() -> None:
    assert [a for a in Action if not a.is_write] == [Action.READ]


@pytest.mark.parametrize(
    ("action", "roles"),
    [
        (A.FORCE_COMPLETE, {R.GAME_ADMIN, R.GAME_DEBUGGER}),
        (A.RETRY_REWARD_ROLL, {R.GAME_ADMIN, R.GAME_DEBUGGER}),
        (A.MANUAL_GRANT, {R.GAME_ADMIN}),
        (A.FORCE_CLAIM, {R.GAME_ADMIN, R.GAME_DEBUGGER}),
        (Action.WEBHOOK_SEND_SAMPLE, {R.GAME_ADMIN, R.GAME_DEVELOPER}),
    ],
    ids=lambda v: str(v) if isinstance(v, Action) else "",
)
def test_spec_4_4_actions_are_refused_to_the_game_roles_it_does_not_name(
    action: Action, roles: set[Role]
) -> None:
    for role in GAME_ROLES:
        if role in roles:
            authorize_action(session(role), STUDIO, action)
        else:
            error = refusal(session(role), action)
            assert error.code is PERMISSION_DENIED
            assert error.details == {"action": action.value}
            assert role.value in error.message


def test_spec_4_4_audit_action_names() -> None:
    assert A.FORCE_COMPLETE.value == "attempt.force_complete"
    assert A.RETRY_REWARD_ROLL.value == "grant.retry_reward_roll"
    assert A.MANUAL_GRANT.value == "grant.manual_create"
    assert A.FORCE_CLAIM.value == "grant.manual_force_claim"
    assert Action.WEBHOOK_SEND_SAMPLE.value == "webhook.send_sample"


# --- authorize(): the order of its refusals ---------------------------------------------------------------


def test_refusal_1_another_studios_credential_alone_is_permission_denied() -> None:
    error = refusal(session(R.OWNER, studio=OTHER_STUDIO), Action.READ)
    assert error.code is PERMISSION_DENIED
    assert "another studio" in error.message


def test_refusal_2_a_personal_key_on_a_dashboard_only_action_alone_is_dashboard_only() -> None:
    error = refusal(key(R.OWNER), Action.API_KEY_CREATE)
    assert error.code is DASHBOARD_ONLY_CODE


def test_refusal_3_a_read_only_key_on_a_write_alone_is_permission_denied() -> None:
    error = refusal(key(R.OWNER, read_only=True), A.MANUAL_GRANT)
    assert error.code is PERMISSION_DENIED
    assert "read-only" in error.message
    assert error.details is None


def test_refusal_4_the_role_alone_is_permission_denied_naming_the_action() -> None:
    error = refusal(session(R.VIEWER), A.MANUAL_GRANT)
    assert error.code is PERMISSION_DENIED
    assert error.details == {"action": "grant.manual_create"}


def test_the_same_operators_pass_without_the_failing_step() -> None:
    authorize(session(R.OWNER), STUDIO, Action.READ)
    authorize(session(R.OWNER), STUDIO, Action.API_KEY_CREATE)
    authorize(key(R.OWNER, read_only=True), STUDIO, Action.READ)
    authorize_action(session(R.GAME_ADMIN), STUDIO, A.MANUAL_GRANT)


def test_another_studio_wins_over_dashboard_only() -> None:
    error = refusal(key(R.OWNER, studio=OTHER_STUDIO), Action.API_KEY_REVOKE)
    assert error.code is PERMISSION_DENIED
    assert "another studio" in error.message


def test_another_studio_wins_over_the_role() -> None:
    error = refusal(session(R.VIEWER, studio=OTHER_STUDIO), A.MANUAL_GRANT)
    assert error.code is PERMISSION_DENIED
    assert "another studio" in error.message and error.details is None


def test_dashboard_only_wins_over_read_only() -> None:
    assert refusal(key(R.OWNER, read_only=True), Action.API_KEY_ROTATE).code is DASHBOARD_ONLY_CODE


def test_dashboard_only_wins_over_the_role() -> None:
    assert refusal(key(R.VIEWER), Action.API_KEY_CREATE).code is DASHBOARD_ONLY_CODE
    assert refusal(key(R.GAME_DEVELOPER), Action.WEBHOOK_CREATE, live_webhook=True).code is (
        DASHBOARD_ONLY_CODE
    )


def test_read_only_wins_over_the_role() -> None:
    error = refusal(key(R.VIEWER, read_only=True), A.MANUAL_GRANT)
    assert error.code is PERMISSION_DENIED
    assert "read-only" in error.message and error.details is None


# --- personal keys: dashboard-only, read-only, the key's role ------------------------------------------


def test_dashboard_only_actions_are_api_keys_and_personal_keys() -> None:
    assert {
        Action.API_KEY_CREATE,
        Action.API_KEY_ROTATE,
        Action.API_KEY_REVOKE,
        Action.PERSONAL_KEY_CREATE,
        Action.PERSONAL_KEY_REVOKE,
    } == DASHBOARD_ONLY


@pytest.mark.parametrize("action", sorted(DASHBOARD_ONLY), ids=str)
def test_dashboard_only_actions_are_refused_to_every_personal_key_and_open_to_a_session(
    action: Action,
) -> None:
    for via in (Via.API, Via.MCP):
        assert refusal(key(R.OWNER, via=via), action).code is DASHBOARD_ONLY_CODE
    authorize(session(R.OWNER), STUDIO, action)


def test_a_live_webhook_endpoint_is_dashboard_only_a_test_one_is_not() -> None:
    assert refusal(key(R.GAME_ADMIN), Action.WEBHOOK_CREATE, live_webhook=True).code is DASHBOARD_ONLY_CODE
    authorize(key(R.GAME_ADMIN), STUDIO, Action.WEBHOOK_CREATE)
    authorize(session(R.GAME_ADMIN), STUDIO, Action.WEBHOOK_CREATE, live_webhook=True)


@pytest.mark.parametrize("action", [a for a in WRITES if a not in DASHBOARD_ONLY], ids=lambda a: a.value)
def test_a_read_only_key_is_refused_every_write(action: Action) -> None:
    error = refusal(key(R.OWNER, read_only=True), action)
    assert error.code is PERMISSION_DENIED


def test_a_read_only_key_reads() -> None:
    authorize(key(R.VIEWER, read_only=True), STUDIO, Action.READ)


def test_a_key_may_do_what_both_its_role_and_its_members_allow() -> None:
    # A game admin's key carrying the developer role: the developer's actions, not the admin's others.
    dev_key = key(R.GAME_ADMIN, key_role=R.GAME_DEVELOPER)
    for action in EVERY.values():
        expected = R.GAME_DEVELOPER in roles_of(action) and R.GAME_ADMIN in roles_of(action)
        assert may(dev_key, action) is expected, action
    authorize(dev_key, STUDIO, Action.WEBHOOK_SEND_SAMPLE)
    error = refusal(dev_key, A.MANUAL_GRANT)
    assert error.code is PERMISSION_DENIED
    assert "GAME_DEVELOPER" in error.message  # the key's role is the one that refused


def test_a_keys_role_never_lifts_its_member_above_the_members_current_role() -> None:
    # The member was demoted to viewer after making a game admin's key: reads only.
    demoted = key(R.VIEWER, key_role=R.GAME_ADMIN)
    assert [a for a in EVERY.values() if may(demoted, a)] == [
        a for a in EVERY.values() if R.VIEWER in roles_of(a)
    ]
    assert refusal(demoted, A.MANUAL_GRANT).code is PERMISSION_DENIED


def test_a_key_without_a_role_acts_with_its_members_role() -> None:
    for role in Role:
        for action in EVERY.values():
            assert may(key(role), action) is (role in roles_of(action))


@pytest.mark.parametrize("member_role", list(Role), ids=str)
def test_check_key_role_accepts_no_role_and_the_members_own_role(member_role: Role) -> None:
    check_key_role(member_role, None, BUILT_IN_ROLES)
    check_key_role(member_role, member_role, BUILT_IN_ROLES)
    check_key_role(member_role, R.VIEWER, BUILT_IN_ROLES)


@pytest.mark.parametrize(
    ("member_role", "key_role"),
    [
        (R.OWNER, R.GAME_ADMIN),
        (R.ADMIN, R.GAME_DEBUGGER),
        (R.GAME_ADMIN, R.GAME_DEVELOPER),
        (R.GAME_ADMIN, R.GAME_DEBUGGER),
        (R.GAME_DEVELOPER, R.VIEWER),
    ],
    ids=str,
)
def test_check_key_role_accepts_a_lower_role(member_role: Role, key_role: Role) -> None:
    check_key_role(member_role, key_role, BUILT_IN_ROLES)


@pytest.mark.parametrize(
    ("member_role", "key_role"),
    [
        (R.VIEWER, R.GAME_ADMIN),
        (R.VIEWER, R.OWNER),
        (R.GAME_DEBUGGER, R.GAME_ADMIN),
        (R.GAME_DEVELOPER, R.GAME_ADMIN),
        # Neither game role is below the other: each may take an action the other may not.
        (R.GAME_DEVELOPER, R.GAME_DEBUGGER),
        (R.GAME_DEBUGGER, R.GAME_DEVELOPER),
        # Owners and admins see and revoke every key of the studio: a game role does not.
        (R.GAME_ADMIN, R.OWNER),
        (R.GAME_ADMIN, R.ADMIN),
    ],
    ids=str,
)
def test_check_key_role_refuses_a_role_above_the_members(member_role: Role, key_role: Role) -> None:
    with pytest.raises(LivecoreError) as caught:
        check_key_role(member_role, key_role, BUILT_IN_ROLES)
    assert caught.value.code is INVALID_REQUEST
    assert caught.value.status == 400
    assert "role" in caught.value.details["fields"]


# --- a key's lifetime and who revokes it ---------------------------------------------------------------


def test_key_lifetime_is_7_days_to_a_year() -> None:
    assert (KEY_LIFETIME.minimum, KEY_LIFETIME.maximum) == (7, 365)


@pytest.mark.parametrize("days", [7, 8, 30, 364, 365])
def test_key_expiry_is_now_plus_the_days_within_bounds(days: int) -> None:
    assert key_expiry(NOW, days) == NOW + timedelta(days=days)


@pytest.mark.parametrize("days", [-1, 0, 6, 366, 10_000])
def test_key_expiry_refuses_days_outside_7_to_365(days: int) -> None:
    with pytest.raises(LivecoreError) as caught:
        key_expiry(NOW, days)
    assert caught.value.code is INVALID_REQUEST
    assert "expiresInDays" in caught.value.details["fields"]


def test_login_links_last_15_minutes_and_sessions_12_hours() -> None:
    assert timedelta(minutes=15) == LOGIN_LINK_TTL
    assert timedelta(hours=12) == SESSION_TTL


@pytest.mark.parametrize("role", list(Role), ids=str)
def test_every_member_may_revoke_its_own_key(role: Role) -> None:
    assert may_revoke_key(session(role, member="mem_1"), "mem_1")


@pytest.mark.parametrize("role", list(Role), ids=str)
def test_only_owners_and_admins_may_revoke_another_members_key(role: Role) -> None:
    assert may_revoke_key(session(role, member="mem_1"), "mem_2") is (role in (R.OWNER, R.ADMIN))


@pytest.mark.parametrize("role", list(Role), ids=str)
def test_only_owners_and_admins_see_every_key(role: Role) -> None:
    assert sees_every_key(session(role)) is (role in (R.OWNER, R.ADMIN))
    assert sees_every_key(key(role)) is (role in (R.OWNER, R.ADMIN))


def test_a_key_of_a_lower_role_sees_only_its_members_keys() -> None:
    assert not sees_every_key(key(R.OWNER, key_role=R.GAME_ADMIN))
    assert sees_every_key(key(R.OWNER, key_role=R.ADMIN))
    assert not sees_every_key(key(R.GAME_ADMIN, key_role=R.OWNER))  # a demoted owner's key


def test_an_owners_key_of_a_lower_role_does_not_revoke_others_keys() -> None:
    assert not may_revoke_key(key(R.OWNER, key_role=R.VIEWER, member="mem_1"), "mem_2")
    assert may_revoke_key(key(R.OWNER, key_role=R.ADMIN, member="mem_1"), "mem_2")


# --- the audit entry's actor ---------------------------------------------------------------------------


def test_a_session_acts_as_the_member() -> None:
    operator = session(R.GAME_ADMIN, member="mem_9")
    assert not operator.by_key
    assert operator.actor() == {"kind": "member", "memberId": "mem_9"}


@pytest.mark.parametrize("via", [Via.API, Via.MCP], ids=str)
def test_a_personal_key_acts_with_its_member_key_and_where_it_came_from(via: Via) -> None:
    operator = key(R.GAME_ADMIN, member="mem_9", via=via)
    assert operator.by_key
    assert operator.actor() == {
        "kind": "personal_key",
        "memberId": "mem_9",
        "keyId": "pk_1",
        "via": via.value,
    }
