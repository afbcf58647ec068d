"""Live events' section of a game's manifest: ``[games.<key>.events.<key>]`` (docs/events.md,
docs/reference/manifest-and-cli.md#manifest)::

    .events.<key>      name, starts_at, window_seconds, attempt_seconds, score_metric (all required),
                       repeat_every_seconds, max_attempts, order = "desc" | "asc", target, segments,
                       entry_cost, completion_rewards, feeds
      [[.milestones]]     key, threshold, rewards (all required)
      [[.rank_rewards]]   from, to, rewards (all required)
      [[.anti_cheat]]     key, kind = "max_rate" | "max_value", metric, limit, verdict = "reject" | "flag"
                          (all required)
      ...                 the parts of an event other areas add (a Section ``within="events"``: the
                          lobbies' ``.lobby`` and ``[[.sudden_death]]``, the teams' ``.teams``)

Checked field by field (list items by index: ``games.g.events.e.milestones[1].key``):

- the event key matches the key pattern; ``name`` is not blank;
- ``starts_at``: a quoted RFC 3339 timestamp with a time zone (``"2026-12-01T00:00:00Z"``, or an offset,
  converted to UTC) or a TOML offset date-time (``2026-12-01T00:00:00Z`` unquoted); a local date-time
  without a zone is refused as ambiguous; exact to the millisecond (the stored form), from 1970 to before
  the year 9000;
- ``window_seconds``, ``attempt_seconds`` and ``repeat_every_seconds`` from 1 to 315,360,000 (10 years);
  ``repeat_every_seconds`` at least ``window_seconds`` (an event's windows never overlap; equal: back to
  back, always open). ``attempt_seconds`` may exceed ``window_seconds``: an attempt never runs past its
  window's end, so a long one simply lasts until the window closes;
- ``max_attempts`` >= 1 (omit: unlimited); ``score_metric``, and each anti-cheat ``metric``, match the
  key pattern (they are the metric names a progress write may carry); ``target``, milestone
  ``threshold``s within +-(2^53 - 1) (the bound of every number that reaches a board, as on the routes);
  an anti-cheat ``limit`` within it and > 0;
- ``segments``: ``playerContext`` keys (the game's own names, so any case), each 1 to 64 characters
  without control characters or surrounding whitespace, none twice;
- reward and cost entries (``entry_cost``, ``completion_rewards``, each milestone's and rank band's
  ``rewards``): ``type``, ``key`` and ``amount`` 1 to 10^12, naming a resource this game declares with that
  type (never a system item: ``sessions``, ``login_streak``); ``parameters`` only on items, and never on a
  cost;
- ``entry_cost`` only in a platform-managed game (``economy = "platform"``): a studio-managed game keeps
  balances the service never sees;
- milestones: keys unique within the event, ``rewards`` at least one entry;
- rank bands: ``from`` and ``to`` ranks from 1 to 10,000 (a window's close pays every covered rank in one
  transaction), ``to`` >= ``from``, no two bands holding one rank, ``rewards`` at least one entry;
- anti-cheat checks: keys unique within the event;
- ``feeds``: each a shared leaderboard declared in the same game, none twice.

An event left out of a later manifest leaves the game's settings: it opens no new window, and what it
recorded (windows, attempts, boards, grants) stays (:mod:`livecore.live_events.rules`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import attrs

from livecore.clock import parse_ts
from livecore.games import Economy, Entry, Milestone, Order, RankBand
from livecore.limits import character_problem
from livecore.live_events.settings import EVENT_SETTINGS, AntiCheat, EventSettings
from livecore.section import (
    Problems,
    Rules,
    Section,
    at_least,
    entry_references,
    finite,
    is_int,
    key,
    no_overlap,
    not_blank,
    own_and_parts,
    positive,
    reward_lists,
    seconds,
    unique_keys,
)

# The first window starts from 1970 (UUIDv7 time) to before the year 9000: with windows of at most 10
# years, every window's times stay within datetime's range.
STARTS_AT_RANGE = (datetime(1970, 1, 1, tzinfo=UTC), datetime(9000, 1, 1, tzinfo=UTC))
SEGMENT_MAX_CHARS = 64
_RFC3339 = re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})")
_TIMESTAMP = "must be an RFC 3339 timestamp with a time zone, e.g. 2026-12-01T00:00:00Z"


@attrs.frozen
class EventManifest:
    """``[games.<key>.events.<key>]``, with its ``[[...milestones]]``, ``[[...rank_rewards]]`` and
    ``[[...anti_cheat]]``; fields and defaults are :class:`livecore.live_events.settings.EventSettings`' (a
    rank band's ``first``/``last`` are ``from``/``to`` in TOML). The parser reads each event into this
    record extended with a field for each part other areas add (``lobby``, ``teams``), marked with the key
    it is held under (:data:`livecore.section.HOLDS`)."""

    name: str
    starts_at: datetime
    window_seconds: int
    attempt_seconds: int
    score_metric: str
    repeat_every_seconds: int | None = None
    max_attempts: int | None = None
    order: Order = Order.DESC
    target: float | None = None
    segments: tuple[str, ...] = ()
    entry_cost: tuple[Entry, ...] = ()
    completion_rewards: tuple[Entry, ...] = ()
    feeds: tuple[str, ...] = ()
    milestones: tuple[Milestone, ...] = ()
    rank_rewards: tuple[RankBand, ...] = ()
    anti_cheat: tuple[AntiCheat, ...] = ()

    def to_settings(self, key: str) -> EventSettings:
        own, parts = own_and_parts(self)
        return EventSettings(key=key, **own, parts=parts)


def _timestamp(value: Any, _: Any) -> datetime:
    """A quoted RFC 3339 string or a TOML offset date-time; a local (naive) one is ambiguous."""
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ValueError(f"{_TIMESTAMP} (this one has no time zone: add Z for UTC)")
        stamp = value.astimezone(UTC)
    elif isinstance(value, str) and _RFC3339.fullmatch(value):
        try:
            stamp = parse_ts(value.upper().replace(" ", "T"))
        except ValueError:
            raise ValueError(f"{_TIMESTAMP} (this one is not a valid date or time)") from None
    else:
        raise ValueError(_TIMESTAMP)
    if stamp.microsecond % 1000:
        raise ValueError("must be exact to the millisecond")
    first, end = STARTS_AT_RANGE
    if not first <= stamp < end:
        raise ValueError("must be from 1970-01-01T00:00:00Z to before the year 9000")
    return stamp


def _segments(value: Any, path: str, problems: Problems) -> None:
    """Keys of ``playerContext``: whatever the game sends, so not held to the manifest's key pattern."""
    seen: set[str] = set()
    for i, key_ in enumerate(value if isinstance(value, list) else ()):
        if not isinstance(key_, str):
            continue  # the converter names the type
        problem = character_problem(key_, plain=True)
        if not key_.strip() or key_ != key_.strip():
            problems[f"{path}[{i}]"] = "must be a playerContext key, without surrounding whitespace"
        elif len(key_) > SEGMENT_MAX_CHARS:
            problems[f"{path}[{i}]"] = f"must be at most {SEGMENT_MAX_CHARS} characters"
        elif problem is not None:
            problems[f"{path}[{i}]"] = problem
        elif key_ in seen:
            problems[f"{path}[{i}]"] = f"repeats the segment {key_}"
        seen.add(key_)


def _event(raw: Mapping[str, Any], path: str, problems: Problems) -> None:
    window, repeat = raw.get("window_seconds"), raw.get("repeat_every_seconds")
    where = f"{path}.repeat_every_seconds"
    if is_int(window) and is_int(repeat) and repeat < window and where not in problems:
        problems[where] = f"must be at least window_seconds ({window}): an event's windows never overlap"
    unique_keys(raw, "milestones", path, problems)
    unique_keys(raw, "anti_cheat", path, problems)
    no_overlap(raw, path, problems)


def _feeds(event: Mapping[str, Any], where: str, game: Mapping[str, Any], problems: Problems) -> None:
    """An event feeds shared boards of its own game, each once (a second feed would count a score twice)."""
    declared = game.get("leaderboards")
    boards = declared if isinstance(declared, dict) else {}
    feeds = event.get("feeds")
    seen: set[str] = set()
    for i, name in enumerate(feeds if isinstance(feeds, list) else ()):
        if not isinstance(name, str):
            continue  # the converter names the type
        if name not in boards:
            problems[f"{where}.feeds[{i}]"] = f"no shared leaderboard named {name} is declared in this game"
        elif name in seen:
            problems[f"{where}.feeds[{i}]"] = f"repeats the leaderboard {name}"
        seen.add(name)


def _references(game: Mapping[str, Any], path: str, problems: Problems, _: Mapping[str, Any]) -> None:
    """What events name in the rest of their game: declared resources of the right type, declared boards
    to feed, and an economy that can charge an entry cost (a studio-managed game keeps balances the
    service never sees)."""
    events = game.get("events")
    for key_, event in events.items() if isinstance(events, dict) else ():
        if not isinstance(event, dict):
            continue
        where = f"{path}.events.{key_}"
        if event.get("entry_cost") and game.get("economy", Economy.STUDIO.value) == Economy.STUDIO.value:
            problems[f"{where}.entry_cost"] = (
                'only a platform-managed game (economy = "platform") charges an entry cost'
            )
        _feeds(event, where, game, problems)
        lists = [
            (f"{where}.entry_cost", True, event.get("entry_cost")),
            (f"{where}.completion_rewards", False, event.get("completion_rewards")),
            *reward_lists(event, where),
        ]
        entry_references(lists, game, problems)


def _settings(events: dict[str, EventManifest]) -> dict[str, EventSettings]:
    return {key_: event.to_settings(key_) for key_, event in events.items()}


EVENTS = Section(
    key="events",
    record=dict[str, EventManifest],
    default=dict,
    settings=_settings,
    holds=EVENT_SETTINGS,
    structure={datetime: _timestamp},
    rules=Rules(
        fields={
            (EventManifest, "name"): not_blank,
            (EventManifest, "window_seconds"): seconds(1),
            (EventManifest, "repeat_every_seconds"): seconds(1),
            (EventManifest, "attempt_seconds"): seconds(1),
            (EventManifest, "max_attempts"): at_least(1),
            (EventManifest, "score_metric"): key,
            (EventManifest, "target"): finite,
            (EventManifest, "segments"): _segments,
            (AntiCheat, "key"): key,
            (AntiCheat, "metric"): key,
            (AntiCheat, "limit"): positive,
        },
        tables={EventManifest: _event},
    ),
    key_rule=key,
    check=_references,
)
