"""The simulation's face: :class:`Simulation` (the engine of :mod:`livecore.simulation.world` with its
players, the studio's backend and the client's reads), :class:`SimPlayer` and :class:`SimServer`, each
holding the areas' actions (:mod:`livecore.simulation.actions`, generated from the areas) named as the
typed client names them (``ada.gifts.send(...)`` for ``sdk.gifts.send("ada", ...)``), without the external
id, the player secret or an idempotency key, which the handle holds or a simulation does not need. With
the actions, the modules of :mod:`livecore.simulation` that name the built-in areas: the assembly's
(docs/architecture.md, "The assembly"). An area's actions (``livecore/<area>/simulation.py``) see a player
and a simulation only as :mod:`livecore.simulation.handle` describes them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Protocol, TypeVar

import attrs

from livecore.api.call import Call
from livecore.api.route import Route
from livecore.area import Area
from livecore.economy.api import InventoryResponse, WalletResponse
from livecore.exceptions import LivecoreAPIError
from livecore.guilds.api import GuildResponse, GuildSearchResponse
from livecore.guilds.rules import DEFAULT_PAGE_LIMIT
from livecore.guilds.simulation import GuildReads
from livecore.leaderboards.api import LeaderboardResponse
from livecore.leaderboards.simulation import LeaderboardReads
from livecore.live_events.api import BoardResponse
from livecore.live_events.simulation import BoardReads
from livecore.lobbies.api import LobbyResponse
from livecore.lobbies.simulation import LobbyReads
from livecore.manifest import Manifest
from livecore.memory.store import MemoryTransaction
from livecore.platforms import APP_VERSION_HEADER, PLATFORM_HEADER, sent_build
from livecore.players.actor import admit, check_actor
from livecore.players.calls import PlayersCalls
from livecore.players.commands import authenticate, find_player, register
from livecore.players.rules import Player, seen_is_due
from livecore.scope import Environment
from livecore.simulation.actions import PlayerActions, ServerActions
from livecore.simulation.calls import read, send
from livecore.simulation.world import DEFAULT_START, BaseSimulation
from livecore.transaction import Transaction

T = TypeVar("T")


class SimTransaction(MemoryTransaction, Transaction, Protocol):
    """A simulation's transaction: every built-in port, over the memory store."""


class SimPlayer(str, PlayerActions):
    """One player of a :class:`Simulation`, registered as it is made (the SDK's register:
    ``player.registered`` and the first-contact rules). ``id`` is its player id, ``external_id`` the
    studio's id for it. It is a :class:`~livecore.simulation.handle.Handle`: what the areas' actions act
    as (:meth:`act`).

    It is its external id too (a ``str`` equal to ``external_id``), so it goes wherever a client's method
    takes another player's external id: ``ada.guilds.kick(bo)``, ``sim.server.wallet.credit(ada, ...)``."""

    def __new__(cls, sim: Simulation, external_id: str, **_: Any) -> SimPlayer:
        return super().__new__(cls, external_id)

    def __init__(
        self,
        sim: Simulation,
        external_id: str,
        *,
        player_context: dict[str, Any] | None = None,
        platform: str | None = None,
        app_version: str | None = None,
    ) -> None:
        self.sim = sim
        self.external_id = str(external_id)
        # As the SDK reports them in its headers, and checked the same way.
        headers = {k: v for k, v in ((PLATFORM_HEADER, platform), (APP_VERSION_HEADER, app_version)) if v}
        # The client's registration, read as the server reads it; registered by the command, as the
        # server's route (which reads the request's address) is the server's alone.
        _, asked, _, _ = read(sim, PlayersCalls()._register(external_id, player_context=player_context))
        context = None if asked is None else asked.player_context
        registered = sim.run(
            lambda tx: register(
                tx, sim.rt, sim.scope, external_id, context=context, build=sent_build(headers)
            )
        )
        self.id = registered.player.id
        self.secret = registered.secret
        # The last secret the HMAC accepted, with the stored hash it matched (_authenticated).
        self._verified: tuple[str, str | None] | None = None
        self._hold_actions(self)

    @property
    def player_secret(self) -> str:
        return self.secret

    def send(self, call: Call[T]) -> T:
        """``call`` (a client builder's, or made by hand for a route of an area with no builders) run as
        this player, in memory, as the server runs its request (:mod:`livecore.simulation.calls`)."""
        return send(self.sim, call, self)

    def act(
        self,
        op: Callable[[SimTransaction, Player], T],
        *,
        write: bool = False,
        route: Route | None = None,
        secret: str | None = None,
    ) -> T:
        """``op(tx, me)``, the player authenticated by ``secret`` (its own, when None) as the server
        authenticates a player-scoped request; a write (``write``, or ``route`` a player's own write) is
        refused for a banned player before anything else, as on the server."""
        sim = self.sim
        seen: list[Player] = []

        def run(tx: SimTransaction) -> T:
            me = self._authenticated(tx, secret or self.secret)
            now = sim.clock.now()
            # The server moves lastSeenAt on any authenticated client request, refused or not, at most
            # once per SEEN_EVERY (livecore.players.rules.seen_is_due); so does a simulated player's.
            if seen_is_due(me.last_seen_at, now):
                me = attrs.evolve(me, last_seen_at=now)
                tx.players.update(me)
                seen.append(me)
            if route is not None:
                return op(tx, admit(route, me))
            return op(tx, check_actor(me) if write else me)

        try:
            return sim.run(run)
        except LivecoreAPIError:
            if seen:
                sim.run(lambda tx: tx.players.update(seen[0]))
            raise

    def _authenticated(self, tx: SimTransaction, secret: str) -> Player:
        """The player authenticated by ``secret`` as the server authenticates it. A secret the HMAC
        already accepted against the hash the player still holds is not hashed again: the answer could
        not differ, and a season would otherwise make one HMAC per action."""
        sim = self.sim
        if self._verified is not None and self._verified[0] == secret:
            me = find_player(tx, sim.scope, self.external_id)
            if me is not None and me.secret_hash == self._verified[1]:
                return me
        me = authenticate(tx, sim.rt, sim.scope, self.external_id, secret)
        self._verified = (secret, me.secret_hash)
        return me

    def __repr__(self) -> str:
        return f"SimPlayer({self.external_id!r})"

    def __getattr__(self, name: str) -> Any:
        # A studio's area's actions, by its name (``ada.quests``), made once per handle.
        sim = self.__dict__.get("sim")
        if sim is None or name.startswith("_"):
            raise AttributeError(name)
        return _actions(self, sim, name, "player_actions")


class SimServer(ServerActions):
    """``sim.server``: the studio's backend."""

    def __init__(self, sim: Simulation) -> None:
        self._hold_actions(sim)
        self._sim = sim

    def __getattr__(self, name: str) -> Any:
        # A studio's area's actions, by its name (``sim.server.quests``), made once.
        if name.startswith("_"):
            raise AttributeError(name)
        return _actions(self, self._sim, name, "server_actions")


def _actions(owner: object, sim: Simulation, name: str, kind: str) -> Any:
    """The actions ``kind`` of the area ``name`` the simulation plays, made from ``owner`` and kept on it."""
    made = next(
        (getattr(a, kind) for a in sim.areas if a.name == name and getattr(a, kind) is not None), None
    )
    if made is None:
        raise AttributeError(f"{type(owner).__name__} has no {name!r}: no area of that name declares {kind}")
    actions = made(owner if kind == "player_actions" else sim)
    setattr(owner, name, actions)
    return actions


class Simulation(BaseSimulation):
    """One studio's games, played embedded (:class:`~livecore.simulation.world.BaseSimulation`), with
    its players (:meth:`player`), the studio's backend (``server``) and the client key's reads. Build it
    with :meth:`from_manifest`; ``game`` picks the game the players play (the manifest's only one, when it
    has one)."""

    #: The classes of its players and of the studio's backend: a studio's typed facades
    #: (``python -m livecore.assembly --area``) make its own, typed with its areas' actions.
    player_type: type[SimPlayer] = SimPlayer
    server_type: type[SimServer] = SimServer

    def __init__(
        self,
        manifest: Manifest,
        *,
        game: str | None = None,
        seed: int = 0,
        start: datetime = DEFAULT_START,
        env: Environment = Environment.TEST,
        areas: Sequence[Area] = (),
    ) -> None:
        super().__init__(manifest, game=game, seed=seed, start=start, env=env, areas=areas)
        self._players: dict[str, SimPlayer] = {}
        self.server = self.server_type(self)

    # --- players ---------------------------------------------------------------------------------

    def player(
        self,
        external_id: str,
        *,
        player_context: dict[str, Any] | None = None,
        platform: str | None = None,
        app_version: str | None = None,
    ) -> SimPlayer:
        """The player ``external_id``, registered on first use (the SDK's register, so a new player's
        ``player.registered`` webhook and first-contact rules apply), with the ``playerContext``, platform
        and app version its client would send; later calls return the same handle."""
        found = self._players.get(external_id)
        if found is None:
            found = self.player_type(
                self, external_id, player_context=player_context, platform=platform, app_version=app_version
            )
            self._players[external_id] = found
        return found

    @property
    def players(self) -> dict[str, SimPlayer]:
        """The players this simulation has made, by external id, in the order they came."""
        return dict(self._players)

    def _handle(self, someone: SimPlayer | str) -> SimPlayer:
        return self.player(someone) if isinstance(someone, str) else someone

    # --- reads -----------------------------------------------------------------------------------

    def wallet(self, someone: SimPlayer | str) -> WalletResponse:
        """The player's wallet (``sdk.wallet.get``)."""
        return self._handle(someone).wallet.get()

    def balance(self, someone: SimPlayer | str, key: str) -> int:
        """The player's balance of currency ``key``."""
        return self._handle(someone).wallet.balance(key)

    def inventory(self, someone: SimPlayer | str) -> InventoryResponse:
        """The player's inventory (``sdk.inventory.get``)."""
        return self._handle(someone).inventory.get()

    def board(
        self,
        leaderboard_id: str,
        *,
        limit: int | None = None,
        cursor: str | None = None,
        around: str | None = None,
    ) -> BoardResponse:
        """A page of an event board (``sdk.live_events.leaderboard``): its id is an attempt's
        ``leaderboard_id``."""
        return BoardReads(self).leaderboard(leaderboard_id, limit=limit, cursor=cursor, around=around)

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
    ) -> LeaderboardResponse:
        """A page of a shared leaderboard (``sdk.leaderboards.get``): the current period, or the one
        ``period`` names, or the one before (``previous``); ``division``: one of its divisions."""
        return LeaderboardReads(self).get(
            leaderboard_key,
            limit=limit,
            cursor=cursor,
            around=around,
            division=division,
            period=period,
            previous=previous,
        )

    def lobby(self, lobby_id: str) -> LobbyResponse:
        """A lobby with its seats (``sdk.lobbies.get``)."""
        return LobbyReads(self).get(lobby_id)

    def guilds(
        self, q: str | None = None, *, limit: int = DEFAULT_PAGE_LIMIT, offset: int = 0
    ) -> GuildSearchResponse:
        """The guilds not disbanded whose name holds ``q`` (every guild without it), newest first, a page
        of ``limit`` from ``offset`` (``sdk.guilds.search``: the client key's, no player's)."""
        return GuildReads(self).search(q, limit=limit, offset=offset)

    def guild(self, guild_id: str) -> GuildResponse:
        """A guild with its members (``sdk.guilds.get``: the client key's, no player's)."""
        return GuildReads(self).get(guild_id)
