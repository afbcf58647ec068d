"""Names compare by their fold (docs/reference/conventions.md#limits, :mod:`livecore.names`):
NFKC, case folding, any run of Unicode white space as one space, trimmed. Through the real app on SQLite
and PostgreSQL: a guild name that only looks different from a taken one is taken, the game's name filter
sees through the same tricks, the search folds its text, and guilds stored before the fold have their keys
recomputed by a migration."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from urllib.parse import quote

import pytest

from livecore_server.registry import storage
from tests.conftest import make_services
from tests.server.event_support import error
from tests.server.guild_support import Guilds, start_guild_world

# Each differs from "Star Pilots" only by what the fold removes.
LOOKALIKES = [
    "Star\u00a0Pilots",  # a no-break space
    "Star\u2003Pilots",  # an em space
    "Star\u3000Pilots",  # an ideographic space
    "Star  Pilots",  # a doubled space
    "Star \u2009 Pilots",  # a space, a thin space and a space
    "\uff33\uff34\uff21\uff32 Pilots",  # full-width letters
    "star pilots",  # another case
]


async def migrate_again(db: str) -> None:
    """Services opened on the world's database migrate it; in a thread, so the world's event loop goes on
    committing what it holds open (SQLite's write lock) meanwhile."""
    await asyncio.to_thread(lambda: make_services(db).close())


@pytest.fixture
async def clan(db_url: str) -> AsyncIterator[Guilds]:
    found = await start_guild_world(db_url)
    try:
        yield found["clan"]
    finally:
        await found["clan"].world.client.close()


@pytest.mark.parametrize("lookalike", LOOKALIKES)
async def test_guild_names_that_only_look_different_are_taken(clan: Guilds, lookalike: str) -> None:
    await clan.register("ann")
    await clan.register("bob")
    await clan.credit("ann", "coins", 100)
    await clan.credit("bob", "coins", 100)
    assert (await clan.found("ann", "Star Pilots"))[0] == 201
    status, body = await clan.found("bob", lookalike)
    assert (status, error(body)) == (409, "guild_name_taken")


@pytest.mark.parametrize(
    "name",
    [
        "Bad\u00a0Word Crew",
        "BAD\u3000WORD",
        "\uff42\uff41\uff44\uff57\uff4f\uff52\uff44 Crew",
        "the  BADWORD",
    ],
)
async def test_the_name_filter_sees_through_lookalikes(clan: Guilds, name: str) -> None:
    """The clan game filters "badword" and "Bad  Word" (the filter's entries fold too)."""
    await clan.register("ann")
    await clan.credit("ann", "coins", 100)
    status, body = await clan.found("ann", name)
    assert (status, error(body)) == (400, "guild_name_rejected")


async def test_the_guild_search_folds_its_text(clan: Guilds) -> None:
    await clan.register("ann")
    await clan.credit("ann", "coins", 100)
    guild = await clan.founded("ann", "Star Pilots")
    for text in ("STAR\u3000PIL", "\uff53\uff54\uff41\uff52", "r  p"):
        status, body = await clan.search(f"?q={quote(text)}")
        assert (status, [g["guildId"] for g in body["data"]["guilds"]]) == (200, [guild["guildId"]]), text


async def test_guilds_stored_before_the_fold_get_their_keys_recomputed(clan: Guilds) -> None:
    world = clan.world
    await clan.register("ann")
    await clan.register("bob")
    await clan.credit("ann", "coins", 100)
    await clan.credit("bob", "coins", 100)
    first = await clan.founded("ann", "Star\u3000Pilots")
    second = await clan.founded("bob", "Night Owls")
    # As the keys were kept before: casefolded only.
    for guild, key in ((first, "star\u3000pilots"), (second, "night owls")):
        await world.services.store.run_async(
            lambda tx, g=guild, k=key: tx.execute(
                "UPDATE guilds SET name_key = ? WHERE id = ?", (k, g["guildId"])
            )
        )
    table = storage().history.postgres if world.on_postgres else storage().history.sqlite
    (name,) = [name for name, _ in table if name.endswith("_name_fold")]
    await world.services.store.run_async(
        lambda tx: tx.execute("DELETE FROM _migrations WHERE name = ?", (name,))
    )
    await migrate_again(world.services.config.db)

    keys = dict(world.rows("SELECT id, name_key FROM guilds"))
    assert keys == {first["guildId"]: "star pilots", second["guildId"]: "night owls"}
    await clan.register("cy")
    await clan.credit("cy", "coins", 100)
    status, body = await clan.found("cy", "star pilots")
    assert (status, error(body)) == (409, "guild_name_taken")


async def test_the_migration_leaves_two_guilds_that_now_fold_alike_apart(clan: Guilds) -> None:
    """Two guilds founded before the fold whose names fold alike: the older takes the folded key, the
    younger keeps its old one, so the unique index holds and both keep their names."""
    world = clan.world
    for who in ("ann", "bob"):
        await clan.register(who)
        await clan.credit(who, "coins", 100)
    older = await clan.founded("ann", "Star Pilots")
    world.clock.advance(1)  # the older by its founding time, not by the order of two ids of one instant
    younger = await clan.founded("bob", "Star Pilotz")
    await world.services.store.run_async(
        lambda tx: tx.execute(
            "UPDATE guilds SET name = ?, name_key = ? WHERE id = ?",
            ("Star\u00a0Pilots", "star\u00a0pilots", younger["guildId"]),
        )
    )
    table = storage().history.postgres if world.on_postgres else storage().history.sqlite
    (name,) = [name for name, _ in table if name.endswith("_name_fold")]
    await world.services.store.run_async(
        lambda tx: tx.execute("DELETE FROM _migrations WHERE name = ?", (name,))
    )
    await migrate_again(world.services.config.db)

    keys = dict(world.rows("SELECT id, name_key FROM guilds"))
    assert keys == {older["guildId"]: "star pilots", younger["guildId"]: "star\u00a0pilots"}


async def test_the_display_name_search_folds_names_and_text(clan: Guilds) -> None:
    world = clan.world
    ann = await world.register("ann", key="test-client")
    bob = await world.register("bob", key="test-client")
    status, body, _ = await world.call(
        "PUT",
        "/sdk/v1/players/bob/identity",
        key="test-client",
        secret=bob,
        json={"name": "\uff2d\uff41\uff52\uff49\uff45\u3000Curie"},
    )
    assert status == 200, body
    for text in ("marie c", "MARIE\u00a0CU", "ma"):
        status, body, _ = await world.call(
            "GET", f"/sdk/v1/players/ann/friends/search?q={quote(text)}", key="test-client", secret=ann
        )
        assert (status, [h["externalPlayerId"] for h in body["data"]]) == (200, ["bob"]), text
