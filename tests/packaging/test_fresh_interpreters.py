"""A process that imports any one public module reads the wire as a server's does
(docs/client.md#what-a-client-alone-reads).

An area adds to the records of the areas it builds on in its declaration: the gifts a field of the friend
row (``giftCooldownUntil``), the crates a kind of grant and an entry type (``crate``), the gifts and guilds
ledger reasons. A server loads every area with the core's registry (``livecore.registry.installed()``); a
client, or a script of the core, loads only the modules it names.
Each check runs in a fresh interpreter from this checkout, once with only the client (or its models, or
its webhooks) imported and once with every installed area loaded first, and compares what the two read.
What each process runs after its imports is in tests/packaging/fresh_support.py.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from livecore.api.convert import unstructure
from livecore.api.views import IdentityView
from livecore.friends.api import FriendRow, FriendsResponse
from livecore.gifts.api import GIFT_ROW, GiftRow
from livecore.grants.api import GrantListResponse, GrantResponse, GrantView, RewardEntry
from livecore.grants.rules import GrantKind, GrantStatus
from tests.client.test_client_webhooks import NOW, SECRET, envelope, signed
from tests.installed import SAMPLES
from tests.packaging.fresh_support import fresh

AREAS = "from livecore import registry\nregistry.installed()\n"
AT = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def _alone_and_with_the_areas(code: str, given: Any = None) -> tuple[Any, Any]:
    return fresh(code, given), fresh(AREAS + code, given)


# --- the wire models each import reads ---------------------------------------------------------------------

SHAPES = (
    "\nimport json\nfrom tests.packaging.fresh_support import wire_shapes\nprint(json.dumps(wire_shapes()))\n"
)
IMPORTS = [
    "from livecore_client import SdkClient",
    "from livecore_client import ServerClient",
    "from livecore_client import AdminClient",
    "import livecore_client.models",
    "from livecore_client import construct_event",
    # The core's wire declarations that hold what other areas add (a friend row's part, grant entries,
    # ledger reasons), each alone.
    *(f"import livecore.{name}" for name in ("friends.api", "grants.api", "economy.api", "gifts.samples")),
]


@pytest.mark.parametrize("statement", IMPORTS)
def test_every_wire_model_a_client_loads_reads_as_with_every_area_loaded(statement: str) -> None:
    """Each record of the routes and webhook kinds the import loads: its wire fields (those other areas add
    among them), the entry records registered in a grant entry's place, the values of a set of values."""
    alone, with_areas = _alone_and_with_the_areas(statement + SHAPES)
    assert alone, "no wire model was loaded"
    differ = {
        name: (shape, with_areas.get(name)) for name, shape in alone.items() if with_areas.get(name) != shape
    }
    assert differ == {}, "alone, then with every area loaded"


# --- the answers of the clients' methods -------------------------------------------------------------------

ANSWERED = """
import json, sys
import httpx
answer = json.load(sys.stdin)
served = httpx.MockTransport(lambda request: httpx.Response(200, json={{"data": answer}}))
client = {client}("lc_test_key", base_url="http://livecore.test", http_client=httpx.Client(transport=served))
print(json.dumps(repr({call})))
"""


def _friends() -> Any:
    row = FriendRow(
        external_player_id="bob",
        display_identity=IdentityView(name="Bob", avatar=None, country=None),
        friends_since=AT,
        online=False,
        last_active_at=AT,
        status=None,
        parts={GIFT_ROW: GiftRow(gift_cooldown_until=AT)},
    )
    return unstructure(FriendsResponse(friends=[row]))


def _crate_grant() -> GrantView:
    return GrantView(
        grant_id="00000000-0000-7000-8000-000000000003",
        external_player_id="ada",
        kind=GrantKind("crate"),
        status=GrantStatus.PENDING,
        entries=[RewardEntry(type="crate", key="gem-box", amount=2)],
        source_kind="api",
        source_ref_id=None,
        metadata={},
        created_at=AT,
        claimed_at=None,
        expires_at=None,
        acked_by=None,
    )


COOLDOWN = "GiftRow(gift_cooldown_until=datetime.datetime(2026, 3, 2, 12, 0"
CRATES = "entries=[RewardEntry(type=EntryType('crate'), key='gem-box', amount=2"
#: A method: its client, the call, the answer it is given, and what the answer read holds.
CALLS: dict[str, tuple[str, str, Any, str]] = {
    "sdk.friends.list": (
        "SdkClient",
        "client.friends.list('ada', player_secret='ps_ada')",
        _friends,
        COOLDOWN,
    ),
    "server.friends.list": ("ServerClient", "client.friends.list('ada')", _friends, COOLDOWN),
    "sdk.grants.pending": (
        "SdkClient",
        "client.grants.pending('ada', player_secret='ps_ada')",
        lambda: unstructure(GrantListResponse(grants=[_crate_grant()])),
        CRATES,
    ),
    # As examples/crate_drop.py sends crates: the entries made before anything but the client is loaded.
    "server.grants.create": (
        "ServerClient",
        "client.grants.create('ada', [RewardEntry(type='crate', key='gem-box', amount=2)], kind='crate')",
        lambda: unstructure(GrantResponse(grant=_crate_grant())),
        CRATES,
    ),
}


@pytest.mark.parametrize("method", CALLS)
def test_a_client_alone_reads_what_the_areas_add_to_its_answers(method: str) -> None:
    """The gifts' cooldown on a friend row, a crate grant and its entries: the same objects as with every
    area loaded."""
    client, call, answer, expected = CALLS[method]
    imports = f"from livecore_client import {client}\nfrom livecore.grants.api import RewardEntry\n"
    alone, with_areas = _alone_and_with_the_areas(
        imports + ANSWERED.format(client=client, call=call), answer()
    )
    assert expected in with_areas
    assert alone == with_areas


@pytest.mark.parametrize(
    "statement",
    [
        "from livecore.grants.api import RewardEntry",
        "from livecore_client.models import RewardEntry",
        *(
            f"from livecore_client import {client}\nfrom livecore.grants.api import RewardEntry"
            for client in ("SdkClient", "ServerClient", "AdminClient")
        ),
    ],
)
def test_a_crate_entry_is_made_with_only_a_client_loaded(statement: str) -> None:
    made = "RewardEntry(type='crate', key='gem-box', amount=1)"
    given = fresh(f"{statement}\nimport json\nprint(json.dumps(repr({made})))")
    assert given == "RewardEntry(type=EntryType('crate'), key='gem-box', amount=1, parameters=None)"


VALUES = """
import json
from livecore.crates.rules import CRATE
from livecore.economy.rules import Reason
from livecore.grants.rules import EntryType, GrantKind, kind_entry, kind_of
print(json.dumps({
    "sets": [[v.value for v in c.listed()] for c in (EntryType, GrantKind, Reason)],
    "read": [repr(Reason("gift_cost")), repr(GrantKind("crate")), str(kind_entry("crate"))],
    "crate": sorted(t.value for t in kind_of(CRATE).triggers),
}))
"""


def test_every_entry_type_kind_and_reason_reads_as_with_every_area_loaded() -> None:
    alone, with_areas = _alone_and_with_the_areas(VALUES)
    assert "crate" in with_areas["sets"][0] and "guild_help_donation" in with_areas["sets"][2]
    assert alone == with_areas


# --- the webhook deliveries --------------------------------------------------------------------------------

RECEIVED = """
import json, sys
deliveries = json.load(sys.stdin)
read = []
for body, header in deliveries:
    try:
        event = construct_event(body.encode(), header, {secret!r}, now={now})
    except Exception as exc:
        read.append(f"{{type(exc).__name__}}: {{exc}}")
    else:
        read.append(repr(event.data))
print(json.dumps(read))
"""


def test_every_webhook_kind_reads_as_with_every_area_loaded() -> None:
    """Each built-in kind's sample delivery (a crate opened holds crate entries), through
    ``construct_event`` in a process that imported only it: the same payload as with every area loaded."""
    deliveries = []
    for kind, sample in SAMPLES.items():
        body = envelope(kind, sample)
        deliveries.append((body.decode(), signed(body)))
    code = "from livecore_client import construct_event\n" + RECEIVED.format(secret=SECRET, now=NOW)
    alone, with_areas = _alone_and_with_the_areas(code, deliveries)
    assert [repr(sample) for sample in SAMPLES.values()] == with_areas
    assert alone == with_areas
