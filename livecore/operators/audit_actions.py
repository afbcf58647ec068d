"""The actions the audit log names (docs/operators.md#the-audit-log), as the admin client filters it
(``admin.audit.list(action=OperatorAction.BAN)``): the operators' own
(:class:`livecore.operators.rules.Action`) and those of the built-in areas' admin routes, each declared by
its area. A studio's area's actions are filtered by their names."""

from __future__ import annotations

import enum

from livecore.economy import admin as economy
from livecore.grants import admin as grants
from livecore.live_events import admin as live_events
from livecore.operators.rules import Action
from livecore.player_tools import admin as player_tools
from livecore.players import admin as players


class OperatorAction(enum.StrEnum):
    READ = Action.READ.value
    MANUAL_GRANT = grants.MANUAL_GRANT_ACTION.value
    FORCE_CLAIM = grants.FORCE_CLAIM_ACTION.value
    FORCE_COMPLETE = live_events.FORCE_COMPLETE_ACTION.value
    RETRY_REWARD_ROLL = live_events.RETRY_REWARD_ROLL_ACTION.value
    ROTATE_SECRET = players.ROTATE_SECRET_ACTION.value
    BAN = player_tools.BAN_ACTION.value
    UNBAN = player_tools.UNBAN_ACTION.value
    SET_COUNTRY = player_tools.SET_COUNTRY_ACTION.value
    EDIT_ITEM_ATTRIBUTES = economy.EDIT_ITEM_ATTRIBUTES_ACTION.value
    WEBHOOK_CREATE = Action.WEBHOOK_CREATE.value
    WEBHOOK_REPLAY = Action.WEBHOOK_REPLAY.value
    WEBHOOK_UNPAUSE = Action.WEBHOOK_UNPAUSE.value
    WEBHOOK_SEND_SAMPLE = Action.WEBHOOK_SEND_SAMPLE.value
    WEBHOOK_ROTATE_SECRET = Action.WEBHOOK_ROTATE_SECRET.value
    API_KEY_CREATE = Action.API_KEY_CREATE.value
    API_KEY_ROTATE = Action.API_KEY_ROTATE.value
    API_KEY_REVOKE = Action.API_KEY_REVOKE.value
    PERSONAL_KEY_CREATE = Action.PERSONAL_KEY_CREATE.value
    PERSONAL_KEY_REVOKE = Action.PERSONAL_KEY_REVOKE.value
    MEMBER_SIGN_IN = Action.MEMBER_SIGN_IN.value
    MEMBER_SIGN_OUT = Action.MEMBER_SIGN_OUT.value

    @property
    def is_write(self) -> bool:
        return self is not OperatorAction.READ
