"""The quests area's ``livecore-server`` commands (docs/extending.md#its-commands): found here, in the
area's package, as a built-in area's are in its server package, once ``LIVECORE_AREAS`` names the area or
an installed distribution does by entry point."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from livecore_server.cli_options import DB_HELP, Group, operate
from studio_quests.rules import QuestState
from studio_quests.store import QUESTS

if TYPE_CHECKING:
    from livecore_server.services import Services


@click.group(cls=Group)
def quests() -> None:
    """The quests area: the players' daily check-ins (examples/studio_quests)."""


@quests.command("show")
@click.argument("player_id")
@click.option("--db", default=None, help=DB_HELP)
def show(player_id: str, db: str | None) -> None:
    """Print PLAYER_ID's check-ins (its id, plr_...): its streak, its best, how many and the last day."""

    def read(services: Services) -> QuestState | None:
        return services.store.run(lambda tx: tx.ports.of(QUESTS).get(player_id), write=False)

    # The area's own port is reached with the area served beside the built-in ones.
    state = operate(db, read, areas=("studio_quests",))
    if state is None:
        raise click.ClickException(f"{player_id} has not checked in")
    click.echo(
        f"{state.player_id}  game {state.game_id}: streak {state.streak} (best {state.best_streak}),"
        f" {state.total} check-ins, the last on {state.last_day.isoformat()}"
    )


COMMANDS = (quests,)
