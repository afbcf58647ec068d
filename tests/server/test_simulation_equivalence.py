"""One season played through ``livecore.Simulation`` and through the HTTP server gives the same webhooks,
balances and boards (issue #44).

The season is written once, :func:`season`, over a :class:`World`: what a ``Simulation`` offers, under the
names the typed client's resources use. Two worlds play it:

- the :class:`~livecore.simulation.Simulation` itself, on the in-memory store;
- :class:`Served`: the typed sync clients (``SdkClient``, ``ServerClient``) against a real server in a
  thread (``serve_in_thread``) on SQLite, and on PostgreSQL when it is reachable, with its manual clock.
  A player's handle there is a proxy: ``ada.gifts.send(**kw)`` calls ``sdk.gifts.send("ada",
  player_secret=<ada's secret>, **kw)``, ``server.wallet.credit(ada, ...)`` calls
  ``server.wallet.credit("ada", ...)``; ``advance`` is the test environment's clock route.

Both start at the same instant (:data:`tests.conftest.START`, Monday 12:00 UTC) from the same manifest and
play the same calls. The season: four players register; friends (a request accepted, and two requests
that cross, which befriend at once); gifts (one sent and claimed, one refused between strangers, one
refused by the cooldown); the daily ``sprint`` event with an entry cost (a player without coins refused),
a milestone, anti-cheat (a score over the cap refused, a lap rate over its limit flagged) and rank
rewards; the ``ladder``, a daily shared board in divisions of two fed by the sprint's scores and the
studio's submits; the ``duel``, a lobby event whose empty seat a bot fills at its fill time; a crate the
studio sends and a player opens; a guild founded at a cost, joined, and a member's help request filled by
a donation. At 23:00 the duel's window closes, at midnight the sprint's (paying its ranks) and the ladder
rolls over (paying rank 1 of each division, promoting and relegating); every player claims its grants,
and the next day's scores land in the divisions the rollover moved them to.

Compared: every answer of the season (the wire models; a refusal as its exception class, code, status
and details), every player's wallet and inventory at three checkpoints, the boards (the sprint's, the
lobby's, the ladder's division of each player today, at its finalized day and the next day), the guild
as a player and as the studio read it, the kinds of the webhook events so far at two checkpoints, and at
the end every webhook event (kind, order, environment, payload). What differs by design is named rather
than compared: ids by the order in which they first appear on each side
(tests/server/equivalence_support.py), the players' anonymized identities by their player (the game's
pool composes them from the game's random id), bots' identities blanked; timestamps are compared as the
instants they name.

Each side draws from its own random source (the simulation's seed is not the server's), so nothing
compared may depend on a draw. The manifest makes the draws certain: the crate's table has one row and
the duel's bots score ``min = max``. Where the stores order rows made at one instant by their random ids,
the season keeps such rows apart or puts them in an order of their own:

- the players play with live keys (the simulation in the live environment): with test keys an event has a
  test window beside its live one, both closing at one instant in the order of their ids;
- the duel closes an hour before the sprint, for the same reason;
- bo joins the guild a second after ada founded it (members are listed by when they joined, then by id);
- pending grants made at one instant are claimed in an order of their facts (:func:`by_facts`).

The duel is declared before the sprint: on PostgreSQL the server opens the windows due at one instant in
the order of the game settings' JSONB keys (shorter keys first), on SQLite and in a simulation in the
manifest's order; declared in that order, both orders are the same. The server's minute grant-expiry
sweep is left out on both sides (nothing in the season expires): a day of it is 1,440 transactions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any, Protocol

import orjson
import pytest

from livecore import registry
from livecore.clock import format_ts, parse_ts
from livecore.events import DomainEvent
from livecore.exceptions import LivecoreAPIError
from livecore.gifts.errors import GiftCooldownError, GiftNotFriendsError
from livecore.grants.api import GrantView, RewardEntry
from livecore.grants.rules import GrantKind
from livecore.guilds.api import GuildResponse
from livecore.leaderboards.api import LeaderboardResponse
from livecore.live_events.api import BoardResponse
from livecore.live_events.errors import AntiCheatRejectedError, InsufficientEntryCostError
from livecore.lobbies.api import LobbyForming, LobbyResponse
from livecore.players.identity import DEFAULT_POOL
from livecore.scope import Environment
from livecore.simulation import Simulation
from livecore_client import SdkClient, ServerClient
from livecore_server.embedded import serve_in_thread
from livecore_server.manifest import parse_manifest
from livecore_server.operators.apply import apply_manifest
from livecore_server.registry import installed, storage
from livecore_server.services import Services, build_services
from tests.conftest import START, keep_every_event_of, make_services, only_hourly_jobs, service_args
from tests.server.equivalence_support import ID, Ids, events_of, no_bot_names, normalized, wire

GAME = "arena"
PLAYERS = ("ada", "bo", "cy", "dee")

MANIFEST = """
studio = "acme"

[games.arena]
name = "Arena"
economy = "platform"

[games.arena.gifting]
enabled = true
cooldown_seconds = 3600
daily_send_limit = 5

[games.arena.resources.coins]
type = "currency"
giftable = true
costs_sender = true
max_per_gift = 50

[games.arena.resources.gems]
type = "currency"

[games.arena.resources.badge]
type = "item"

[games.arena.events.duel]   # before the sprint (PostgreSQL's JSONB key order); closes at 23:00, not
name = "Duel"                 # with it (windows closing at one instant close in the order of their ids)
starts_at = "2026-03-02T00:00:00Z"
window_seconds = 82800
repeat_every_seconds = 86400
attempt_seconds = 600
score_metric = "score"

[games.arena.events.duel.lobby]
capacity = 2
fill_seconds = 60
fill_bots = true
bot_score = { min = 500, max = 500 }   # a certain draw: the same on both sides

[games.arena.events.sprint]
name = "Sprint"
starts_at = "2026-03-02T00:00:00Z"
window_seconds = 86400
repeat_every_seconds = 86400
attempt_seconds = 600
score_metric = "score"
entry_cost = [{ type = "currency", key = "coins", amount = 10 }]
feeds = ["ladder"]

[[games.arena.events.sprint.milestones]]
key = "half"
threshold = 50
rewards = [{ type = "currency", key = "gems", amount = 1 }]

[[games.arena.events.sprint.anti_cheat]]
key = "score-cap"
kind = "max_value"
metric = "score"
limit = 1000
verdict = "reject"

[[games.arena.events.sprint.anti_cheat]]
key = "lap-rate"
kind = "max_rate"
metric = "laps"
limit = 5
verdict = "flag"

[[games.arena.events.sprint.rank_rewards]]
from = 1
to = 1
rewards = [{ type = "currency", key = "gems", amount = 10 }]

[[games.arena.events.sprint.rank_rewards]]
from = 2
to = 3
rewards = [{ type = "currency", key = "gems", amount = 4 }]

[games.arena.guilds]
enabled = true
max_members = 3
create_cost = [{ type = "currency", key = "coins", amount = 5 }]

[games.arena.guilds.help]
resources = ["coins"]
max_amount = 20
donor_reward = [{ type = "currency", key = "gems", amount = 1 }]

[games.arena.leaderboards.ladder]
name = "Ladder"
period = "daily"
aggregation = "best"
divisions = { size = 2, tiers = ["low", "high"], promote = 1, relegate = 1 }

[[games.arena.leaderboards.ladder.rank_rewards]]
from = 1
to = 1
rewards = [{ type = "currency", key = "gems", amount = 3 }]

[games.arena.crates.chest]
rolls = 1
table = [{ weight = 1, rewards = [
    { type = "currency", key = "gems", amount = 2 },
    { type = "item", key = "badge", amount = 1 },
] }]   # one row: a certain draw

[games.arena.api_keys.client]
env = "live"
permission = "client_sdk"
rate_limits = { sdk_read = 100000, sdk_write = 100000 }

[games.arena.api_keys.server]
env = "live"
permission = "server_integration"
rate_limits = { server_api = 100000 }

[games.arena.api_keys.clock]   # the test environment's tool: the manual clock's route
env = "test"
permission = "server_integration"
"""

#: The periodic jobs both sides run: the hourly ones (guild succession, login streaks), not the minute
#: grant-expiry sweep, which has nothing to expire in this season.
HOURLY = tuple(
    job.name
    for job in registry.jobs(registry.installed())
    if job.every is not None and job.every >= timedelta(hours=1)
)


class World(Protocol):
    """What the season plays on: a Simulation's own names, the client's for everything a handle does.
    ``player`` answers a handle whose resources are the SDK's (``ada.gifts.send(...)``), ``server`` the
    server client's (``server.wallet.credit(ada, ...)``)."""

    @property
    def server(self) -> Any: ...

    def player(self, external_id: str) -> Any: ...

    def advance(
        self,
        by: timedelta | None = None,
        *,
        days: float = 0,
        hours: float = 0,
        minutes: float = 0,
        seconds: float = 0,
    ) -> datetime: ...

    def board(
        self,
        leaderboard_id: str,
        *,
        limit: int | None = None,
        cursor: str | None = None,
        around: str | None = None,
    ) -> BoardResponse: ...

    def leaderboard(
        self,
        leaderboard_key: str,
        *,
        limit: int | None = None,
        cursor: str | None = None,
        around: str | None = None,
        division: str | None = None,
        period: str | None = None,
        previous: bool = False,
    ) -> LeaderboardResponse: ...

    def lobby(self, lobby_id: str) -> LobbyResponse: ...

    def guild(self, guild_id: str) -> GuildResponse: ...

    @property
    def webhooks(self) -> list[DomainEvent]: ...


# --- the served world: the typed clients against a server ------------------------------------------


def _plain(value: Any) -> Any:
    """A handle where the client takes an external id."""
    return value.external_id if isinstance(value, _Handle) else value


class _Resource:
    """One client resource, each method called with ``lead`` first and ``extra`` keywords added."""

    def __init__(self, resource: Any, lead: tuple[Any, ...], extra: dict[str, Any]) -> None:
        self._resource, self._lead, self._extra = resource, lead, extra

    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = getattr(self._resource, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            plain = {k: _plain(v) for k, v in kwargs.items()}
            return method(*self._lead, *map(_plain, args), **plain, **self._extra)

        return call


class _Handle:
    """A client's resources as a simulated player's (or the studio's) handle: ``handle.<resource>.<method>``
    calls the client's with the player's external id first and its secret (nothing for the studio)."""

    def __init__(self, client: Any, external_id: str | None = None, secret: str | None = None) -> None:
        self._client = client
        self.external_id = external_id
        self._lead: tuple[Any, ...] = () if external_id is None else (external_id,)
        self._extra: dict[str, Any] = {} if secret is None else {"player_secret": secret}

    def __getattr__(self, resource: str) -> _Resource:
        if resource.startswith("_"):
            raise AttributeError(resource)
        return _Resource(getattr(self._client, resource), self._lead, self._extra)

    def __repr__(self) -> str:
        return f"_Handle({self.external_id!r})"


class Served:
    """A :class:`World` on a running server: its SDK and server keys' clients, its manual clock moved by
    the test environment's route, its outbox read through a connection of the test's own."""

    def __init__(self, base_url: str, game_id: str, keys: dict[str, str], reader: Services) -> None:
        self.game_id = game_id
        self.sdk = SdkClient(keys["client"], base_url=base_url, max_retries=0)
        self.studio = ServerClient(keys["server"], base_url=base_url, max_retries=0)
        self.clock = ServerClient(keys["clock"], base_url=base_url, max_retries=0)
        self.server = _Handle(self.studio)
        self._reader = reader
        self._players: dict[str, _Handle] = {}

    def close(self) -> None:
        self.sdk.close()
        self.studio.close()
        self.clock.close()

    def player(self, external_id: str) -> _Handle:
        found = self._players.get(external_id)
        if found is None:
            secret = self.sdk.players.register(external_id).player_secret
            found = self._players[external_id] = _Handle(self.sdk, external_id, secret)
        return found

    def advance(
        self,
        by: timedelta | None = None,
        *,
        days: float = 0,
        hours: float = 0,
        minutes: float = 0,
        seconds: float = 0,
    ) -> datetime:
        step = (by or timedelta(0)) + timedelta(days=days, hours=hours, minutes=minutes, seconds=seconds)
        return self.clock.system.advance_clock(step.total_seconds()).now

    def board(self, leaderboard_id: str, **query: Any) -> BoardResponse:
        return self.sdk.live_events.leaderboard(leaderboard_id, **query)

    def leaderboard(self, leaderboard_key: str, **query: Any) -> LeaderboardResponse:
        return self.sdk.leaderboards.get(leaderboard_key, **query)

    def lobby(self, lobby_id: str) -> LobbyResponse:
        return self.sdk.lobbies.get(lobby_id)

    def guild(self, guild_id: str) -> GuildResponse:
        return self.sdk.guilds.get(guild_id)

    @property
    def webhooks(self) -> list[DomainEvent]:
        return self._reader.store.run(lambda tx: tx.outbox.events(), write=False)


# --- the season ------------------------------------------------------------------------------------

Log = list[tuple[str, Any]]


class Record:
    """What one world answered, in order: each answer as JSON (a wire model as the server sends it)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.log: Log = []

    def note(self, label: str, answer: Any) -> Any:
        self.log.append((label, wire(answer)))
        return answer

    def refused(self, label: str, expected: type[LivecoreAPIError], call: Callable[[], Any]) -> None:
        """``call`` raises ``expected``: its class, code, status and details are noted."""
        with pytest.raises(expected) as refused:
            call()
        err = refused.value
        self.log.append((label, [type(err).__name__, err.code, err.status, err.details]))

    def holdings(self, label: str) -> None:
        """Every player's wallet and inventory."""
        for who in PLAYERS:
            me = self.world.player(who)
            self.note(f"{label}: {who}'s wallet", me.wallet.get())
            self.note(f"{label}: {who}'s inventory", me.inventory.get())

    def ladder(self, label: str, **which: Any) -> None:
        """The ladder's page of each player's division (``around`` them) in the period ``which`` names."""
        for who in PLAYERS:
            self.note(f"{label}: ladder around {who}", self.world.leaderboard("ladder", around=who, **which))

    def webhooks(self, label: str) -> None:
        """The kinds of the webhook events so far, in order."""
        self.log.append((label, [e.kind for e in self.world.webhooks]))


def by_facts(grants: list[GrantView]) -> list[GrantView]:
    """Grants made at one instant in the order of their facts: the stores list them by time, then by id,
    and ids made at one millisecond are ordered by their random bits, which differ between the sides."""
    return sorted(grants, key=lambda g: (g.created_at, ID.sub("<id>", orjson.dumps(wire(g)).decode())))


def claim_everything(record: Record, who: str) -> None:
    """The player claims each of its pending reward grants (a simulated player's ``claim_all``, in the
    client's words), those made at one instant in the order of their facts."""
    me = record.world.player(who)
    pending = record.note(f"{who}'s pending grants", by_facts(me.grants.pending().grants))
    for grant in pending:
        if grant.kind is not GrantKind("crate"):
            record.note(f"{who} claims a grant", me.grants.claim(grant.grant_id))


def season(world: World) -> Log:
    """The season (the module's docstring), played on ``world``; answers what it saw."""
    r = Record(world)
    ada, bo, cy, dee = (world.player(who) for who in PLAYERS)
    server = world.server
    r.note("ada credited", server.wallet.credit(ada, "coins", 100))
    r.note("bo credited", server.wallet.credit(bo, "coins", 50))
    r.note("dee credited", server.wallet.credit(dee, "coins", 20))

    # Friends: a request accepted; two requests that cross befriend at once.
    asked = r.note("ada asks bo", ada.friends.send_request(external_player_id=bo))
    r.note("bo accepts", bo.friends.accept_request(asked.request.request_id))
    r.note("cy asks dee", cy.friends.send_request(external_player_id=dee))
    r.note("dee asks cy back", dee.friends.send_request(external_player_id=cy))
    r.note("ada's friends", ada.friends.list())

    # Gifts.
    sent = r.note(
        "ada gifts bo",
        ada.gifts.send(type="currency", resource_key="coins", amount=30, external_player_id=bo),
    )
    r.note("bo claims", bo.gifts.claim(sent.gift.gift_id))
    r.refused(
        "ada gifts cy, a stranger",
        GiftNotFriendsError,
        lambda: ada.gifts.send(type="currency", resource_key="coins", amount=5, external_player_id=cy),
    )
    r.refused(
        "ada gifts bo again",
        GiftCooldownError,
        lambda: ada.gifts.send(type="currency", resource_key="coins", amount=5, external_player_id=bo),
    )
    r.note("bo's inbox", bo.gifts.inbox())
    r.holdings("after the gifts")

    # The sprint: entry costs, anti-cheat, a milestone.
    r.refused(
        "cy has no coins to enter", InsufficientEntryCostError, lambda: cy.live_events.start_attempt("sprint")
    )
    ada_run = r.note("ada enters", ada.live_events.start_attempt("sprint")).attempt
    bo_run = r.note("bo enters", bo.live_events.start_attempt("sprint")).attempt
    dee_run = r.note("dee enters", dee.live_events.start_attempt("sprint")).attempt
    r.note("ten seconds on", world.advance(seconds=10))
    r.note(
        "ada reaches the milestone",
        ada.live_events.report_progress(
            "sprint", ada_run.attempt_id, {"score": 60, "laps": 20}, complete=True
        ),
    )
    r.refused(
        "bo's score is over the cap",
        AntiCheatRejectedError,
        lambda: bo.live_events.report_progress("sprint", bo_run.attempt_id, {"score": 5000}),
    )
    r.note(
        "bo laps too fast: flagged",
        bo.live_events.report_progress(
            "sprint", bo_run.attempt_id, {"score": 40, "laps": 100}, complete=True
        ),
    )
    r.note(
        "dee finishes",
        dee.live_events.report_progress("sprint", dee_run.attempt_id, {"score": 30}, complete=True),
    )
    r.note("the sprint's board", world.board(ada_run.leaderboard_id))
    r.note("the events as ada sees them", ada.live_events.list())

    # The ladder: the sprint fed it; the studio submits cy's score.
    r.note("cy's ladder score", server.leaderboards.submit_score("ladder", cy, 70))
    r.ladder("the ladder at noon")

    # The duel: a lobby of two, the empty seat filled by a bot at its fill time.
    forming = ada.live_events.start_attempt("duel")
    assert isinstance(forming, LobbyForming)
    r.note("ada waits for the duel", forming)
    r.note("two minutes on", world.advance(minutes=2))
    r.note("the duel's lobby", no_bot_names(wire(world.lobby(forming.lobby_id))))
    duel = r.note("ada starts the duel", ada.live_events.start_attempt("duel")).attempt
    r.note(
        "ada wins the duel",
        ada.live_events.report_progress("duel", duel.attempt_id, {"score": 600}, complete=True),
    )
    r.note("the duel's board", no_bot_names(wire(world.board(duel.leaderboard_id))))

    # A crate from the studio, opened.
    crate = r.note(
        "the studio sends dee a chest",
        server.grants.create(dee, [RewardEntry(type="crate", key="chest", amount=1)], kind="crate"),
    )
    r.note("dee opens it", dee.grants.open_crate(crate.grant.grant_id))
    # A guild: founded (its cost paid), joined, a help request filled by a donation.
    owls = r.note("ada founds the Owls", ada.guilds.create("Owls", "open")).guild
    # A second on: members who joined at one instant are listed in the order of their random ids.
    r.note("a second on", world.advance(seconds=1))
    r.note("bo joins", bo.guilds.join(owls.guild_id))
    help_asked = r.note(
        "bo asks for coins", bo.guilds.ask_help(type="currency", resource_key="coins", amount=10)
    ).help_request
    r.note("ada donates", ada.guilds.donate_help(help_asked.request_id, 10))
    r.note("the guild's help requests", ada.guilds.help_requests())
    r.note("the guild", world.guild(owls.guild_id))
    r.note("the guild, as the studio reads it", server.guilds.get(owls.guild_id))
    r.holdings("before midnight")
    r.webhooks("the webhooks before midnight")

    # Midnight: the windows close and pay, the ladder rolls over (pays, promotes, relegates).
    r.note("midnight", world.advance(hours=12, minutes=1))
    r.note("the sprint's board, finalized", world.board(ada_run.leaderboard_id))
    r.ladder("the ladder's finalized day", previous=True)
    for who in PLAYERS:
        claim_everything(r, who)
    r.holdings("after midnight")
    r.webhooks("the webhooks after midnight")

    # The next day: the ladder's new period places each player in the tier it moved to.
    for who, score in zip(PLAYERS, (10, 20, 30, 40), strict=True):
        r.note(f"{who}'s score of the new day", server.leaderboards.submit_score("ladder", who, score))
    r.ladder("the ladder's new day")
    return r.log


# --- comparing ---------------------------------------------------------------------------------------

TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)")


def instants(text: str) -> str:
    """``text`` with every timestamp written one way (the instant it names, to the millisecond)."""
    return TIMESTAMP.sub(lambda m: format_ts(parse_ts(m.group(0))), text)


def drawn_identities(game_id: str) -> Callable[[Any], Any]:
    """JSON data with the players' anonymized identities named by their players: the game's pool
    composes each from the game's id, which is random (livecore/players/identity.py)."""
    drawn = {who: DEFAULT_POOL.compose(game_id, who) for who in PLAYERS}
    names = {identity.name: who for who, identity in drawn.items()}

    def named(value: Any) -> Any:
        if isinstance(value, list):
            return [named(v) for v in value]
        if not isinstance(value, dict):
            return value
        value = {k: named(v) for k, v in value.items()}
        for name, avatar in (("name", "avatar"), ("anonymizedName", "anonymizedAvatar")):
            who = names.get(value.get(name))
            if who is not None:
                value[name] = f"<{who}'s name>"
                if value.get(avatar) == drawn[who].avatar:
                    value[avatar] = f"<{who}'s avatar>"
        return value

    return named


def named(log: Log, game_id: str) -> list[tuple[str, Any]]:
    """The log with its ids named by first appearance, its players' drawn identities by their players
    and its timestamps as instants."""
    ids, identities = Ids(), drawn_identities(game_id)
    return [
        (label, identities(orjson.loads(instants(ids.named(orjson.dumps(value).decode())))))
        for label, value in log
    ]


def assert_same(simulated: list[tuple[str, Any]], served: list[tuple[str, Any]]) -> None:
    """The same answers in the same order: the first that differs is named."""
    for (label, a), (_, b) in zip(simulated, served, strict=False):
        assert a == b, f"{label}: the simulation answered {a}, the server {b}"
    assert [label for label, _ in simulated] == [label for label, _ in served]


def webhook_texts(events: list[DomainEvent], game_id: str) -> list[str]:
    """The events as comparable text (tests/server/equivalence_support.py ``normalized``), the players'
    drawn identities named and timestamps as instants."""
    identities = drawn_identities(game_id)
    return [
        instants(text)
        for text in normalized([(k, env, identities(data)) for k, env, data in events_of(events)])
    ]


# --- the two worlds ----------------------------------------------------------------------------------


@pytest.fixture
def served(db_url: str) -> Iterator[Served]:
    """The manifest applied to a fresh database of the test's store, and a server on it with the manual
    clock at :data:`START` (its scheduled jobs hourly at most)."""
    seeding = make_services(db_url)
    try:
        applied = apply_manifest(seeding.store, seeding.keys, seeding.runtime, parse_manifest(MANIFEST))
        keep_every_event_of(seeding)  # a simulation keeps every event: so does the server compared
    finally:
        seeding.close()  # the server opens its own
    keys = {name: k["secret"] for name, k in applied["games"][GAME]["apiKeys"].items()}
    with serve_in_thread(*service_args(db_url)) as running:
        only_hourly_jobs(running.services)
        assert {j.name for j in running.services.scheduler.jobs} >= set(HOURLY)
        # The running server's store belongs to its thread: the outbox is read through one of our own.
        reader = build_services(
            running.services.config, running.services.clock, served=installed(), storage=storage()
        )
        world = Served(running.base_url, applied["games"][GAME]["id"], keys, reader)
        try:
            yield world
        finally:
            world.close()
            reader.close()


def simulation() -> Simulation:
    sim = Simulation.from_manifest(MANIFEST, seed=1, start=START, env=Environment.LIVE)
    sim.schedule.only(HOURLY)
    return sim


def test_a_season_plays_the_same_in_a_simulation_and_on_the_server(served: Served) -> None:
    sim = simulation()
    simulated, on_server = season(sim), season(served)
    assert_same(named(simulated, sim.game.id), named(on_server, served.game_id))
    assert webhook_texts(sim.webhooks, sim.game.id) == webhook_texts(served.webhooks, served.game_id)
