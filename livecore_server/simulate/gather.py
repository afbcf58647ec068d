"""What a played season did, read from the simulation (docs/simulation.md#the-report): each area's part
(:class:`~livecore_server.simulate.section.ReportPart`, ``ServerArea.report``) reads its section from the
store's tables (the ledger with each entry's reason, the grants with their source kinds, the windows,
attempts, lobbies, teams, shared boards, guilds and gifts) and, where a table does not keep it, the
webhooks. Nothing here counts alongside the commands: a report says what the service recorded.

:func:`gather` answers the report as plain data (dicts, lists, numbers and strings, in a fixed order), so
the JSON file is the same bytes for the same run; :mod:`livecore_server.simulate.render` draws it.

The ``segments`` section, after ``run``, puts the parts' per-player figures by segment side by side
(:attr:`ReportPart.by_segment`): what each kind of player did, where the areas' sections count everyone;
:func:`segment_rows` compares them row by row.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from livecore_server import registry
from livecore_server.simulate.section import (
    Gathering,
    ReportPart,
    Row,
    get,
    iso,
    keys,
    number,
    row,
    with_fields,
)
from livecore_server.simulate.warnings import warnings_of

if TYPE_CHECKING:
    from livecore.simulation import Simulation
    from livecore.simulation.season import Season
    from livecore_server.area import ServerArea


def parts(studio: Iterable[ServerArea] = ()) -> tuple[ReportPart, ...]:
    """The report's parts: the built-in areas' and then ``studio``'s own, by place (then as the areas
    are registered)."""
    found = [a.report for a in (*registry.installed(), *studio) if a.report is not None]
    return tuple(sorted(found, key=lambda part: part.place))


def gathering(sim: Simulation, season: Season, areas: Iterable[ServerArea] = ()) -> Gathering:
    """What the report of ``season`` is read from, made before it plays when the report folds as it
    plays (:func:`fold`); ``areas``: a studio's served areas whose parts the report has too."""
    return Gathering(sim, season, parts(areas))


def fold(at: Gathering) -> None:
    """At a day's end while the season plays: each part takes what it folds (:attr:`ReportPart.fold`),
    then the records taken are dropped from the store."""
    at.read_again()
    drops = [part.fold(at) for part in at.parts if part.fold is not None]
    for drop in drops:
        if drop is not None:
            drop()


def gather(
    sim: Simulation,
    season: Season,
    *,
    run: dict[str, Any],
    areas: Iterable[ServerArea] = (),
    at: Gathering | None = None,
) -> dict[str, Any]:
    """The report of ``season``, played on ``sim`` (whose clock is at the season's end): its run, each
    part's section, the refusals and the warnings. ``run`` says how it was made (the manifest's and the
    population's names, the seed): it leads the report. ``areas``: a studio's served areas whose parts
    the report has too; ``at``: the :func:`gathering` the parts folded into as the season played."""
    if at is None:
        at = gathering(sim, season, areas)
    at.read_again()
    found = at.parts
    report: dict[str, Any] = {
        "run": {
            **run,
            "game": sim.game.key,
            "players": season.players,
            "days": at.days,
            "start": iso(at.start),
            "end": iso(at.end),
            "segments": [
                {"name": s.name, "share": number(s.share), "players": at.segments[s.name]}
                for s in season.population.segments
            ],
        },
        "segments": segments(at, found),
    }
    for part in found:
        if part.key is not None and part.gather is not None and part.within is None:
            section = part.gather(at)
            if section is not None:  # a part with nothing to say has no section
                report[part.key] = section
    for part in found:
        if part.within in report and part.gather is not None:
            host = next(p for p in found if p.key == part.within)
            report[part.within] = with_fields(report[part.within], part.gather(at), host.parts_before)
    report["refusals"] = dict(sorted(season.refusals.items()))
    report["warnings"] = warnings_of(report, at.settings, found)
    return report


def segments(at: Gathering, found: Iterable[ReportPart]) -> dict[str, Any]:
    """The ``segments`` section: each segment's players, and each part's per-player figures
    (``figures.<section>.<figure>.<segment>``), every segment in the population's order (None where a
    part gives a segment no value)."""
    figures: dict[str, dict[str, dict[str, float | None]]] = {}
    for part in found:
        section = part.key or part.within
        if part.by_segment is None or section is None:
            continue
        given = part.by_segment(at)
        if given:
            into = figures.setdefault(section, {})
            for figure, values in given.items():
                into[figure] = {name: values.get(name) for name in at.segments}
    return {"players": dict(at.segments), "figures": figures}


def segment_rows(base: dict[str, Any] | None, other: dict[str, Any] | None) -> list[Row]:
    """The rows of a comparison of two ``segments`` sections: a row per figure and segment, in the
    sections' order (section ``segments``, subject the segment, metric ``<section>: <figure>``, as in
    ``segments.casual.economy: coins minted per player``), of the segments both name (two populations
    may name theirs apart: a segment one lacks is compared with nothing); none where neither report has
    a value."""
    players_b = get(other, "players") or {}
    shared = [name for name in get(base, "players") or {} if name in players_b]
    figures_a, figures_b = get(base, "figures") or {}, get(other, "figures") or {}
    rows: list[Row] = []
    for section in keys(figures_a, figures_b):
        a, b = figures_a.get(section, {}), figures_b.get(section, {})
        for figure in keys(a, b):
            for segment in shared:
                found = row(
                    "segments",
                    segment,
                    f"{section}: {figure}",
                    get(a, figure, segment),
                    get(b, figure, segment),
                )
                if found["base"] is not None or found["other"] is not None:
                    rows.append(found)
    return rows
