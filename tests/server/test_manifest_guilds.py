"""A game's guild table (docs/guilds.md#the-manifest): ``[games.X.guilds]`` with its inline ``help`` table,
its defaults, its refusals field by field, and its round trip through the stored settings JSON."""

from __future__ import annotations

import orjson
import pytest

from livecore.games import Entry, GameSettings, ResourceType
from livecore.guilds.manifest import GUILD_MEMBERS_MAX, INACTIVE_DAYS_MAX
from livecore.guilds.settings import GUILD_SETTINGS, GuildSettings, HelpSettings
from livecore.manifest import ManifestError
from livecore.section import SECONDS_MAX
from livecore_server.manifest import parse_manifest
from livecore_server.storage.records import settings_converter

G = "games.g.guilds"
H = f"{G}.help"
GAME = """studio = "acme"

[games.g]
name = "G"

[games.g.resources.coins]
type = "currency"

[games.g.resources.energy]
type = "currency"

[games.g.resources.potion]
type = "item"
"""
COINS = '{ type = "currency", key = "coins", amount = 100 }'
# A guild table with every field: field -> TOML value; ``help`` is built from HELP.
EXAMPLE = {
    "enabled": "true",
    "max_members": "50",
    "create_cost": f"[{COINS}]",
    "name_filter": '["badword"]',
    "leader_inactive_days": "14",
}
HELP = {
    "resources": '["energy"]',
    "max_amount": "5",
    "expiry_seconds": "86400",
    "cooldown_seconds": "28800",
    "donor_reward": '[{ type = "currency", key = "coins", amount = 2 }]',
}


def help_table(**fields: str) -> str:
    """The example help table with ``fields`` replaced or added (an empty value removes the field)."""
    table = {**HELP, **fields}
    return "{ " + ", ".join(f"{name} = {value}" for name, value in table.items() if value) + " }"


def guilds(help_: str | None = None, **fields: str) -> str:
    """The example guild table with ``fields`` replaced or added (an empty value removes the field);
    ``help_``: the help table's TOML (None: the example's; empty: none)."""
    table = {**EXAMPLE, "help": help_table() if help_ is None else help_, **fields}
    return f"\n[{G}]\n" + "".join(f"{name} = {value}\n" for name, value in table.items() if value)


def settings_of(text: str) -> GuildSettings:
    return parse_manifest(text).games["g"].settings().of(GUILD_SETTINGS)


def problems_of(text: str) -> dict[str, str]:
    with pytest.raises(ManifestError) as caught:
        parse_manifest(text)
    return caught.value.problems


def test_decisions_guilds_example_becomes_guild_settings() -> None:
    assert settings_of(GAME + guilds()) == GuildSettings(
        enabled=True,
        max_members=50,
        create_cost=(Entry(ResourceType.CURRENCY, "coins", 100),),
        name_filter=("badword",),
        leader_inactive_days=14,
        help=HelpSettings(
            resources=("energy",),
            max_amount=5,
            expiry_seconds=86_400,
            cooldown_seconds=28_800,
            donor_reward=(Entry(ResourceType.CURRENCY, "coins", 2),),
        ),
    )


def test_a_game_without_a_guild_table_has_guilds_off_with_the_defaults() -> None:
    settings = settings_of(GAME)
    assert settings == GuildSettings()
    assert (settings.enabled, settings.max_members, settings.create_cost) == (False, 50, ())
    assert (settings.name_filter, settings.leader_inactive_days, settings.help) == ((), 14, None)


def test_an_empty_guild_table_has_the_defaults() -> None:
    assert settings_of(GAME + f"[{G}]\n") == GuildSettings()


def test_enabled_alone_keeps_every_other_default_and_no_help() -> None:
    assert settings_of(GAME + f"[{G}]\nenabled = true\n") == GuildSettings(enabled=True)


def test_help_defaults_its_expiry_cooldown_and_reward() -> None:
    settings = settings_of(GAME + guilds(help_table(expiry_seconds="", cooldown_seconds="", donor_reward="")))
    assert settings.help == HelpSettings(resources=("energy",), max_amount=5)
    assert (settings.help.expiry_seconds, settings.help.cooldown_seconds) == (86_400, 28_800)
    assert settings.help.donor_reward == ()


def test_help_may_be_its_own_table() -> None:
    text = GAME + guilds("") + f"\n[{H}]\n" + "".join(f"{name} = {value}\n" for name, value in HELP.items())
    assert settings_of(text) == settings_of(GAME + guilds())


def test_create_cost_is_accepted_in_a_studio_managed_game() -> None:
    """Unlike an event's entry cost: a studio game reports the cost as charged by the studio."""
    manifest = parse_manifest(GAME + guilds())
    assert manifest.games["g"].economy.value == "studio"
    assert manifest.games["g"].guilds.create_cost == (Entry(ResourceType.CURRENCY, "coins", 100),)


def test_items_may_be_asked_for_and_rewarded_with_parameters() -> None:
    reward = '[{ type = "item", key = "potion", amount = 1, parameters = { level = 2 } }]'
    settings = settings_of(GAME + guilds(help_table(resources='["energy", "potion"]', donor_reward=reward)))
    assert settings.help is not None
    assert settings.help.resources == ("energy", "potion")
    assert settings.help.donor_reward == (Entry(ResourceType.ITEM, "potion", 1, {"level": 2}),)


# (what follows the game, the one path refused, a fragment of its message)
REFUSALS = [
    (guilds(enabled='"yes"'), f"{G}.enabled", "bool"),
    (guilds(max_members="0"), f"{G}.max_members", f"from 1 to {GUILD_MEMBERS_MAX} members"),
    (guilds(max_members="-3"), f"{G}.max_members", f"from 1 to {GUILD_MEMBERS_MAX} members"),
    (guilds(max_members=str(GUILD_MEMBERS_MAX + 1)), f"{G}.max_members", f"from 1 to {GUILD_MEMBERS_MAX}"),
    (guilds(max_members="2.5"), f"{G}.max_members", "integer"),
    (guilds(max_members='"50"'), f"{G}.max_members", "integer"),
    (guilds(leader_inactive_days="0"), f"{G}.leader_inactive_days", f"from 1 to {INACTIVE_DAYS_MAX} days"),
    (
        guilds(leader_inactive_days=str(INACTIVE_DAYS_MAX + 1)),
        f"{G}.leader_inactive_days",
        f"from 1 to {INACTIVE_DAYS_MAX} days",
    ),
    (guilds(leader_inactive_days="true"), f"{G}.leader_inactive_days", "integer"),
    (guilds(name_filter='[""]'), f"{G}.name_filter[0]", "must not be blank"),
    (guilds(name_filter='["ok", "  "]'), f"{G}.name_filter[1]", "must not be blank"),
    (guilds(name_filter='["ok", 3]'), f"{G}.name_filter[1]", "string"),
    (guilds(name_filter='"badword"'), f"{G}.name_filter", "must be a list"),
    (
        guilds(create_cost='[{ type = "currency", key = "gems", amount = 5 }]'),
        f"{G}.create_cost[0].key",
        "no currency named gems",
    ),
    (
        guilds(create_cost='[{ type = "item", key = "coins", amount = 5 }]'),
        f"{G}.create_cost[0].key",
        "declared with type currency, not item",
    ),
    (
        guilds(create_cost='[{ type = "item", key = "sessions", amount = 5 }]'),
        f"{G}.create_cost[0].key",
        "system item",
    ),
    (
        guilds(create_cost='[{ type = "currency", key = "coins", amount = 0 }]'),
        f"{G}.create_cost[0].amount",
        "from 1 to 1,000,000,000,000",
    ),
    (
        guilds(create_cost='[{ type = "item", key = "potion", amount = 1, parameters = { level = 2 } }]'),
        f"{G}.create_cost[0].parameters",
        "a cost carries no parameters",
    ),
    (
        guilds(create_cost='[{ type = "gold", key = "coins", amount = 1 }]'),
        f"{G}.create_cost[0].type",
        "currency, item",
    ),
    (guilds(help_="3"), H, "must be a table"),
    (guilds(help_table(resources="")), f"{H}.resources", "required"),
    (guilds(help_table(max_amount="")), f"{H}.max_amount", "required"),
    (guilds(help_table(resources="[]")), f"{H}.resources", "at least one resource key"),
    (guilds(help_table(resources='"energy"')), f"{H}.resources", "must be a list"),
    (guilds(help_table(resources='["gems"]')), f"{H}.resources[0]", "no resource named gems is declared"),
    (guilds(help_table(resources='["energy", "login_streak"]')), f"{H}.resources[1]", "system item"),
    (guilds(help_table(resources='["energy", "energy"]')), f"{H}.resources[1]", "repeats the resource"),
    (guilds(help_table(max_amount="0")), f"{H}.max_amount", "from 1 to 1,000,000,000,000"),
    (guilds(help_table(max_amount="1.5")), f"{H}.max_amount", "integer"),
    (guilds(help_table(expiry_seconds="0")), f"{H}.expiry_seconds", f"from 1 to {SECONDS_MAX} seconds"),
    (
        guilds(help_table(expiry_seconds=str(SECONDS_MAX + 1))),
        f"{H}.expiry_seconds",
        f"from 1 to {SECONDS_MAX} seconds",
    ),
    (guilds(help_table(cooldown_seconds="-1")), f"{H}.cooldown_seconds", f"from 0 to {SECONDS_MAX} seconds"),
    (
        guilds(help_table(cooldown_seconds=str(SECONDS_MAX + 1))),
        f"{H}.cooldown_seconds",
        f"from 0 to {SECONDS_MAX} seconds",
    ),
    (
        guilds(help_table(donor_reward='[{ type = "currency", key = "gems", amount = 2 }]')),
        f"{H}.donor_reward[0].key",
        "no currency named gems",
    ),
    (
        guilds(help_table(donor_reward='[{ type = "currency", key = "coins", amount = 0 }]')),
        f"{H}.donor_reward[0].amount",
        "from 1 to 1,000,000,000,000",
    ),
    (
        guilds(
            help_table(
                donor_reward='[{ type = "currency", key = "coins", amount = 1, parameters = { a = 1 } }]'
            )
        ),
        f"{H}.donor_reward[0].parameters",
        "only items carry parameters",
    ),
    (guilds(help_table(tip="1")), f"{H}.tip", "not a known field"),
    (guilds(motto='"hi"'), f"{G}.motto", "not a known field"),
]


@pytest.mark.parametrize(("tail", "path", "fragment"), REFUSALS)
def test_guilds_refused_with_exact_path(tail: str, path: str, fragment: str) -> None:
    problems = problems_of(GAME + tail)
    assert list(problems) == [path], problems
    assert fragment in problems[path]


def test_a_guild_table_that_is_not_a_table_is_refused() -> None:
    problems = problems_of(GAME.replace('name = "G"\n', 'name = "G"\nguilds = 3\n'))
    assert list(problems) == [G], problems
    assert "must be a table" in problems[G]


def test_every_guild_problem_is_reported_at_once() -> None:
    text = GAME + guilds(
        help_table(resources='["gems"]', max_amount="0", cooldown_seconds="-1"),
        max_members="0",
        leader_inactive_days="0",
        name_filter='[""]',
        create_cost='[{ type = "currency", key = "gems", amount = 0 }]',
    )
    assert set(problems_of(text)) == {
        f"{G}.max_members",
        f"{G}.leader_inactive_days",
        f"{G}.name_filter[0]",
        f"{G}.create_cost[0].key",
        f"{G}.create_cost[0].amount",
        f"{H}.resources[0]",
        f"{H}.max_amount",
        f"{H}.cooldown_seconds",
    }


@pytest.mark.parametrize(
    "tail",
    [
        guilds(max_members="1"),
        guilds(max_members=str(GUILD_MEMBERS_MAX)),
        guilds(leader_inactive_days="1"),
        guilds(leader_inactive_days=str(INACTIVE_DAYS_MAX)),
        guilds(name_filter="[]"),
        guilds(name_filter='[" bad "]'),
        guilds(create_cost="[]"),
        guilds(""),
        guilds(help_table(max_amount="1")),
        guilds(help_table(expiry_seconds="1", cooldown_seconds="0")),
        guilds(help_table(expiry_seconds=str(SECONDS_MAX), cooldown_seconds=str(SECONDS_MAX))),
        guilds(help_table(donor_reward="[]")),
        guilds(enabled="false"),
    ],
)
def test_boundary_guild_values_are_accepted(tail: str) -> None:
    assert isinstance(settings_of(GAME + tail), GuildSettings)


def test_guild_settings_round_trip_through_the_stored_settings_json() -> None:
    settings = parse_manifest(GAME + guilds()).games["g"].settings()
    stored = orjson.loads(orjson.dumps(settings_converter.unstructure(settings)))

    assert stored["guilds"]["help"]["resources"] == ["energy"]
    back = settings_converter.structure(stored, GameSettings)
    assert back == settings
    assert back.of(GUILD_SETTINGS).help is not None
    assert isinstance(back.of(GUILD_SETTINGS).create_cost, tuple)
    assert isinstance(back.of(GUILD_SETTINGS).help.resources, tuple)
    assert back.of(GUILD_SETTINGS).help.donor_reward[0].type is ResourceType.CURRENCY


def test_settings_stored_before_guilds_still_load() -> None:
    """A game stored before guilds existed has no ``guilds``: it reads as guilds off."""
    settings = parse_manifest(GAME).games["g"].settings()
    stored = orjson.loads(orjson.dumps(settings_converter.unstructure(settings)))
    del stored["guilds"]

    assert settings_converter.structure(stored, GameSettings).of(GUILD_SETTINGS) == GuildSettings()
