"""``livecore-server population`` (docs/simulation.md#fitting-from-a-servers-history): a game's recorded
history fitted into a population file ``simulate --population`` reads.

The game is found by its key (and its studio's, when several studios have one of that key), the period
is settled (from the first player's first sighting when no start is given), and the fitting
(:func:`livecore.simulation.fitting.fit_population`, pure, through the store ports) reads every record
in ONE read transaction: a consistent snapshot on both stores (on PostgreSQL REPEATABLE READ), so a
server writing meanwhile cannot give the file a period half read before a write and half after. Only
aggregates leave the database; the file is written whole or not at all (a temporary file renamed)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import attrs

from livecore import registry
from livecore.area import Area
from livecore.games import Game
from livecore.scope import Environment
from livecore.simulation.fitting import FittedPopulation, FittingError, fit_population
from livecore.simulation.part import FitPeriod, SeasonPart
from livecore_server.storage.server_store import ServerStore
from livecore_server.storage.server_transaction import ServerTransaction


@attrs.frozen
class Request:
    """What to fit: the game's key (and its studio's, or None for the only studio that has such a game),
    the environment (None: :func:`recorded_env`), the period (``since`` None: from the game's first
    player; ``until``: its end, not included) and how many segments (fewer where the players are too
    few)."""

    game: str
    studio: str | None
    env: Environment | None
    since: datetime | None
    until: datetime
    segments: int


def parts(studio: Sequence[Area] = ()) -> list[SeasonPart]:
    """The season parts of the areas fitted (the built-in ones, then ``studio``'s), in the areas' order."""
    return [area.season for area in registry.areas(studio) if area.season is not None]


def find_game(tx: ServerTransaction, key: str, studio: str | None) -> Game:
    """The game of ``key`` (in ``studio``, when given), refused by field (:class:`FittingError`): an
    unknown studio or game, listing the known ones; a key several studios have, without ``studio``."""
    studios = tx.manifest.studio_keys()
    if studio is not None and studio not in studios:
        known = ", ".join(studios) or "none: apply a manifest first"
        raise FittingError({"studio": f"no studio {studio!r} in this database (studios: {known})"})
    found: list[tuple[str, str]] = []  # (studio key, game id)
    every: list[str] = []
    for studio_key in studios if studio is None else [studio]:
        studio_id = tx.manifest.studio_id(studio_key)
        assert studio_id is not None
        for game_id, game_key, _ in tx.manifest.games_of(studio_id):
            every.append(game_key if studio is not None or len(studios) == 1 else f"{studio_key}/{game_key}")
            if game_key == key:
                found.append((studio_key, game_id))
    if not found:
        known = ", ".join(every) or "none: apply a manifest first"
        where = "" if studio is None else f" of studio {studio!r}"
        raise FittingError({"game": f"no game {key!r}{where} in this database (games: {known})"})
    if len(found) > 1:
        names = ", ".join(s for s, _ in found)
        raise FittingError({"game": f"studios {names} each have a game {key!r}: choose one with --studio"})
    game = tx.games.get(found[0][1])
    assert game is not None
    return game


def recorded_env(tx: ServerTransaction, game: Game) -> Environment:
    """The environment fitted when none is named: live where the game has players on record there, else
    test where it has (a demo's, or a game not yet launched), refused where it has none in either."""
    for env in (Environment.LIVE, Environment.TEST):
        if tx.players.first_seen(game.id, env) is not None:
            return env
    raise FittingError({"period": f"no player of game {game.key!r} is on record, in live or test"})


def fit(
    store: ServerStore,
    request: Request,
    played: Sequence[SeasonPart],
    progress: Callable[[str, int, int], None] | None = None,
) -> FittedPopulation:
    """The population fitted from the game's history, read in one read transaction; refusals raise
    :class:`FittingError`, keyed by the option at fault (``game``, ``studio``, ``since``, ``period``,
    ``segments``)."""

    def read(tx: Any) -> FittedPopulation:
        game = find_game(tx, request.game, request.studio)
        env = request.env or recorded_env(tx, game)
        since = request.since
        if since is None:
            since = tx.players.first_seen(game.id, env)
            if since is None:
                raise FittingError({"period": f"no player of game {game.key!r} ({env.value}) is on record"})
        if request.until <= since:
            raise FittingError(
                {"period": f"must end after it starts: {since.isoformat()} to {request.until.isoformat()}"}
            )
        period = FitPeriod(
            game_id=game.id,
            env=env,
            since=since,
            until=request.until,
            settings=game.settings,
            parts=played,
        )
        return fit_population(
            tx,
            period,
            game=game.key,
            segments=request.segments,
            first_session_plays=True,  # a player is first seen as it first plays
            progress=progress,
        )

    return store.run(read, write=False)


def write_atomically(path: Path, text: str) -> None:
    """``text`` into ``path`` whole or not at all: a temporary file beside it, renamed over it."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


__all__ = ["Request", "find_game", "fit", "parts", "recorded_env", "write_atomically"]
