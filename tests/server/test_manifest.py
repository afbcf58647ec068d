"""The TOML manifest (docs/reference/manifest-and-cli.md#manifest): parsing, defaults, and every validation
rule with its field path."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path

import attrs
import orjson
import pytest

from livecore.crates.settings import CRATE_SETTINGS
from livecore.economy.manifest import ResourceManifest
from livecore.friends.settings import FRIENDS_SETTINGS, PRESENCE_SETTINGS, FriendsSettings, PresenceSettings
from livecore.games import Economy, Entry, GameSettings, Milestone, Order, RankBand, Resource, ResourceType
from livecore.gifts.settings import GIFT_RESOURCE, GIFTING_SETTINGS, GiftingSettings, GiftResource
from livecore.guilds.settings import GUILD_SETTINGS, GuildSettings, HelpSettings
from livecore.leaderboards.manifest import LeaderboardManifest
from livecore.leaderboards.settings import (
    LEADERBOARD_SETTINGS,
    Aggregation,
    Divisions,
    LeaderboardSettings,
    Period,
)
from livecore.live_events.manifest import EventManifest
from livecore.live_events.rules import EventState, state
from livecore.live_events.settings import EVENT_SETTINGS, AntiCheat, CheckKind, EventSettings, Verdict
from livecore.lobbies.settings import LOBBY_SETTINGS, SUDDEN_DEATH_SETTINGS
from livecore.manifest import ApiKeyManifest, Manifest, ManifestError, WebhookManifest
from livecore.ratelimit import BucketName
from livecore.scope import Environment, Permission
from livecore.teams.settings import TEAM_SETTINGS
from livecore_server.manifest import demo_manifest, demo_manifest_text, load_manifest, parse_manifest
from livecore_server.storage.records import settings_converter

# A manifest with every section (docs/reference/manifest-and-cli.md#manifest).
FULL_EXAMPLE = """
studio = "acme"                      # studio key

[games.space-race]
name = "Space Race"
economy = "studio"                   # "studio" (default) or "platform" (platform-managed wallet and inventory)

[games.space-race.gifting]
enabled = true
cooldown_seconds = 86400             # default 86400
daily_send_limit = 5                 # omit for unlimited
claim_expiry_seconds = 604800        # omit: gifts never expire

[games.space-race.presence]
ttl_seconds = 90                     # default 90

[games.space-race.friends]
max_friends = 500                    # default 500

[games.space-race.resources.coins]
type = "currency"                    # "currency" or "item"
giftable = true                      # default false: the allowlist starts empty
max_per_gift = 100
costs_sender = false

[games.space-race.api_keys.ci-client]
env = "test"                         # "test" or "live"
permission = "client_sdk"            # "client_sdk" or "server_integration"
rate_limits = { sdk_write = 600 }    # optional per-minute overrides of the buckets for this key

[games.space-race.webhooks.backend]
env = "test"
url = "http://127.0.0.1:9000/hooks"  # https, or http://localhost / 127.0.0.1 outside production
events = ["*"]                       # kinds, or "*" for all
"""  # noqa: E501  (verbatim copy)

BASE = 'studio = "acme"\n\n[games.g]\nname = "G"\n'


def problems_of(text: str) -> dict[str, str]:
    with pytest.raises(ManifestError) as info:
        parse_manifest(text)
    return info.value.problems


def only_problem(text: str) -> tuple[str, str]:
    problems = problems_of(text)
    assert len(problems) == 1, problems
    ((path, message),) = problems.items()
    return path, message


# --- valid manifests --------------------------------------------------------------------------------


def test_decisions_example_parses() -> None:
    manifest = parse_manifest(FULL_EXAMPLE)

    assert manifest.studio == "acme"
    assert list(manifest.games) == ["space-race"]
    game = manifest.games["space-race"]
    assert game.name == "Space Race"
    assert game.economy is Economy.STUDIO
    assert game.gifting == GiftingSettings(
        enabled=True, cooldown_seconds=86_400, daily_send_limit=5, claim_expiry_seconds=604_800
    )
    assert game.presence == PresenceSettings(ttl_seconds=90)
    assert game.friends == FriendsSettings(max_friends=500)
    assert {key: r.to_resource(key) for key, r in game.resources.items()} == {
        "coins": Resource(
            "coins",
            ResourceType.CURRENCY,
            parts={GIFT_RESOURCE: GiftResource(giftable=True, max_per_gift=100)},
        )
    }
    assert game.api_keys == {
        "ci-client": ApiKeyManifest(
            env=Environment.TEST,
            permission=Permission.CLIENT_SDK,
            rate_limits={BucketName.SDK_WRITE: 600},
        )
    }
    assert game.webhooks == {
        "backend": WebhookManifest(env=Environment.TEST, url="http://127.0.0.1:9000/hooks", events=("*",))
    }


def test_rate_limit_keys_are_bucket_names() -> None:
    key = parse_manifest(FULL_EXAMPLE).games["space-race"].api_keys["ci-client"]
    ((bucket, limit),) = key.rate_limits.items()
    assert type(bucket) is BucketName
    assert (bucket, limit) == (BucketName.SDK_WRITE, 600)


def test_demo_manifest_parses() -> None:
    manifest = demo_manifest()

    assert manifest.studio == "demo"
    assert list(manifest.games) == ["space-race"]
    game = manifest.games["space-race"]
    assert game.name == "Space Race"
    assert game.economy is Economy.STUDIO
    assert game.gifting == GiftingSettings(
        enabled=True, cooldown_seconds=86_400, daily_send_limit=10, claim_expiry_seconds=7 * 86_400
    )
    resources = game.settings().resources
    assert {
        key: (r.type, r.of(GIFT_RESOURCE).giftable, r.of(GIFT_RESOURCE).max_per_gift)
        for key, r in resources.items()
    } == {
        "coins": (ResourceType.CURRENCY, True, 100),
        "gems": (ResourceType.CURRENCY, True, 10),
        "xp": (ResourceType.CURRENCY, True, 50),
        "energy-potion": (ResourceType.ITEM, True, 3),
    }
    assert game.guilds == GuildSettings(
        enabled=True,
        max_members=30,
        help=HelpSettings(
            resources=("energy-potion",),
            max_amount=3,
            donor_reward=(Entry(ResourceType.CURRENCY, "xp", 5),),
        ),
    )
    assert game.api_keys == {
        "demo-client": ApiKeyManifest(env=Environment.TEST, permission=Permission.CLIENT_SDK),
        "demo-server": ApiKeyManifest(env=Environment.TEST, permission=Permission.SERVER_INTEGRATION),
    }
    assert game.webhooks == {}
    settings = game.settings()
    assert set(settings.of(CRATE_SETTINGS)) == {"bronze-chest", "gem-box"}
    # Every area shows: an event with milestones, rank rewards and a check; a lobby event; a team event;
    # a weekly league with divisions, fed by the time trial.
    trial, duel, relay = (settings.of(EVENT_SETTINGS)[key] for key in ("time-trial", "duel", "relay"))
    assert list(settings.of(EVENT_SETTINGS)) == ["time-trial", "duel", "relay"]
    assert trial.milestones and trial.rank_rewards and trial.anti_cheat
    assert trial.feeds == ("weekly-league",)
    assert all(
        event.entry_cost == () for event in settings.of(EVENT_SETTINGS).values()
    )  # studio-managed: none
    lobby, teams = duel.of(LOBBY_SETTINGS), relay.of(TEAM_SETTINGS)
    assert lobby is not None and lobby.fill_bots and lobby.bot_score is not None
    assert duel.of(SUDDEN_DEATH_SETTINGS) and duel.rank_rewards and duel.anti_cheat
    assert teams is not None and relay.of(LOBBY_SETTINGS) is None
    assert teams.goal and teams.milestones and teams.board and teams.rank_rewards
    league = settings.of(LEADERBOARD_SETTINGS)["weekly-league"]
    assert (league.period, league.order, league.aggregation) == (Period.WEEKLY, Order.ASC, Aggregation.BEST)
    assert league.divisions == Divisions(size=30, tiers=("bronze", "silver", "gold"), promote=5, relegate=5)
    assert league.rank_rewards


def test_demo_manifest_file_is_packaged_beside_the_module() -> None:
    import livecore_server.manifest as module

    path = Path(module.__file__).with_name("demo.toml")
    assert path.read_text(encoding="utf-8") == demo_manifest_text()
    assert demo_manifest_text().lstrip().startswith("#")
    assert load_manifest(path) == demo_manifest()


def test_defaults_apply() -> None:
    manifest = parse_manifest(BASE + '\n[games.g.resources.gold]\ntype = "item"\n')

    game = manifest.games["g"]
    assert game.economy is Economy.STUDIO
    assert game.gifting == GiftingSettings()
    assert game.gifting.enabled is False
    assert game.gifting.cooldown_seconds == 86_400
    assert game.gifting.daily_send_limit is None
    assert game.gifting.claim_expiry_seconds is None
    assert game.presence.ttl_seconds == 90
    assert game.friends.max_friends == 500
    assert game.api_keys == {}
    assert game.webhooks == {}
    assert game.exchange_rates == {}
    assert manifest.exchange_rates == {}
    assert game.settings().resources["gold"] == Resource(key="gold", type=ResourceType.ITEM)
    assert game.settings().resources["gold"].of(GIFT_RESOURCE) == GiftResource(False, None, False)


def test_partial_tables_keep_the_other_defaults() -> None:
    game = parse_manifest(BASE + "\n[games.g.gifting]\ndaily_send_limit = 3\n").games["g"]
    assert game.gifting == GiftingSettings(daily_send_limit=3)


def test_resource_manifest_defaults_agree_with_core_resource() -> None:
    core = {f.name: f.default for f in attrs.fields(Resource) if f.name not in ("key", "type", "parts")}
    mine = {f.name: f.default for f in attrs.fields(ResourceManifest) if f.name != "type"}
    assert mine == core


def test_studio_without_games_is_valid() -> None:
    assert parse_manifest('studio = "acme"\n') == Manifest(studio="acme")


def test_platform_economy() -> None:
    game = parse_manifest(BASE.replace('name = "G"', 'name = "G"\neconomy = "platform"')).games["g"]
    assert game.economy is Economy.PLATFORM


def test_a_game_declares_its_own_platform_keys() -> None:
    game = parse_manifest(BASE.replace('name = "G"', 'name = "G"\nplatforms = ["switch", "ps5"]')).games["g"]
    assert game.settings().platforms == ("switch", "ps5")
    assert parse_manifest(BASE).games["g"].settings().platforms == ()


@pytest.mark.parametrize(
    ("keys", "index", "fragment"),
    [
        ('["switch", "switch"]', 1, "repeats the platform of platforms[0]"),
        ('[""]', 0, "1 to 32 characters"),
        (f'["{"x" * 33}"]', 0, "1 to 32 characters"),
        ('[" ps5"]', 0, "surrounding whitespace"),
        ('["ps\u200b5"]', 0, "control or format characters"),
    ],
    ids=["repeated", "empty", "too-long", "whitespace", "format-character"],
)
def test_a_platform_key_the_sdk_could_not_send_is_refused(keys: str, index: int, fragment: str) -> None:
    path, message = only_problem(BASE.replace('name = "G"', f'name = "G"\nplatforms = {keys}'))
    assert path == f"games.g.platforms[{index}]"
    assert fragment in message


def test_costs_sender_in_a_studio_managed_game_is_accepted() -> None:
    text = BASE + '\n[games.g.resources.gold]\ntype = "currency"\ngiftable = true\ncosts_sender = true\n'
    game = parse_manifest(text).games["g"]
    assert game.economy is Economy.STUDIO
    assert game.resources["gold"].costs_sender is True


def test_games_keep_manifest_order() -> None:
    text = 'studio = "s"\n[games.zeta]\nname = "Z"\n[games.alpha]\nname = "A"\n[games.mid]\nname = "M"\n'
    assert list(parse_manifest(text).games) == ["zeta", "alpha", "mid"]


# --- settings() -------------------------------------------------------------------------------------


def test_settings_conversion() -> None:
    text = (
        'studio = "s"\n\n[exchange_rates]\nEUR = 1.08\n\n[games.g]\nname = "G"\neconomy = "platform"\n'
        "[games.g.gifting]\nenabled = true\ncooldown_seconds = 60\n"
        "[games.g.presence]\nttl_seconds = 30\n[games.g.friends]\nmax_friends = 50\n"
        '[games.g.resources.coins]\ntype = "currency"\ngiftable = true\nmax_per_gift = 9\n'
        "costs_sender = true\n"
        '[games.g.resources.hat]\ntype = "item"\n'
    )
    settings = parse_manifest(text).games["g"].settings()

    assert settings == GameSettings(
        economy=Economy.PLATFORM,
        sections={
            GIFTING_SETTINGS: GiftingSettings(enabled=True, cooldown_seconds=60),
            PRESENCE_SETTINGS: PresenceSettings(ttl_seconds=30),
            FRIENDS_SETTINGS: FriendsSettings(max_friends=50),
        },
        resources={
            "coins": Resource(
                key="coins",
                type=ResourceType.CURRENCY,
                parts={GIFT_RESOURCE: GiftResource(giftable=True, max_per_gift=9, costs_sender=True)},
            ),
            "hat": Resource(key="hat", type=ResourceType.ITEM),
        },
        exchange_rates={"USD": 1.0, "EUR": 1.08},
    )


def test_settings_of_a_bare_game_are_the_core_defaults_plus_usd() -> None:
    settings = parse_manifest(BASE).games["g"].settings()
    assert settings == GameSettings(exchange_rates={"USD": 1.0})


# --- exchange rates ---------------------------------------------------------------------------------


def test_top_level_exchange_rates_apply_to_every_game() -> None:
    text = (
        'studio = "s"\n[exchange_rates]\nEUR = 1.08\nJPY = 0.0067\n'
        '[games.a]\nname = "A"\n[games.b]\nname = "B"\n'
    )
    manifest = parse_manifest(text)
    assert manifest.exchange_rates == {"EUR": 1.08, "JPY": 0.0067}
    for game in manifest.games.values():
        assert game.exchange_rates == {"EUR": 1.08, "JPY": 0.0067}
        assert game.settings().exchange_rates == {"USD": 1.0, "EUR": 1.08, "JPY": 0.0067}


def test_game_exchange_rates_override_the_top_level_per_currency() -> None:
    text = (
        'studio = "s"\n[exchange_rates]\nEUR = 1.08\nGBP = 1.27\n'
        '[games.a]\nname = "A"\n[games.a.exchange_rates]\nEUR = 1.1\nSEK = 0.095\n'
        '[games.b]\nname = "B"\n'
    )
    manifest = parse_manifest(text)
    assert manifest.games["a"].exchange_rates == {"EUR": 1.1, "GBP": 1.27, "SEK": 0.095}
    assert manifest.games["b"].exchange_rates == {"EUR": 1.08, "GBP": 1.27}


def test_integer_exchange_rate_and_explicit_usd_one_are_accepted() -> None:
    manifest = parse_manifest('studio = "s"\n[exchange_rates]\nUSD = 1\nKWD = 3\n')
    assert manifest.exchange_rates == {"USD": 1.0, "KWD": 3.0}
    assert isinstance(manifest.exchange_rates["KWD"], float)


@pytest.mark.parametrize(
    ("line", "path", "fragment"),
    [
        ("EUR = 0", "exchange_rates.EUR", "greater than 0"),
        ("EUR = -1.08", "exchange_rates.EUR", "greater than 0"),
        ("EUR = inf", "exchange_rates.EUR", "finite"),
        ("EUR = nan", "exchange_rates.EUR", "greater than 0"),
        ("eur = 1.08", "exchange_rates.eur", "3 upper-case letters"),
        ("EURO = 1.08", "exchange_rates.EURO", "3 upper-case letters"),
        ("E1R = 1.08", "exchange_rates.E1R", "3 upper-case letters"),
        ("USD = 1.5", "exchange_rates.USD", "USD is always 1.0"),
        ('EUR = "1.08"', "exchange_rates.EUR", "must be a number"),
        ("EUR = true", "exchange_rates.EUR", "must be a number"),
    ],
)
def test_top_level_exchange_rate_refused(line: str, path: str, fragment: str) -> None:
    found_path, message = only_problem(f'studio = "s"\n[exchange_rates]\n{line}\n')
    assert found_path == path
    assert fragment in message


def test_game_exchange_rate_refused_with_its_path() -> None:
    path, message = only_problem(BASE + "[games.g.exchange_rates]\nEUR = 0\n")
    assert path == "games.g.exchange_rates.EUR"
    assert "greater than 0" in message


def test_exchange_rates_must_be_a_table() -> None:
    assert only_problem('studio = "s"\nexchange_rates = 1.08\n') == ("exchange_rates", "must be a table")


# --- value rules: one refusal each, with its exact path ----------------------------------------------

REFUSALS = [
    # (snippet appended to BASE, path, fragment of the message)
    ("[games.g.gifting]\ncooldown_seconds = -1", "games.g.gifting.cooldown_seconds", "at least 0"),
    ("[games.g.gifting]\ndaily_send_limit = 0", "games.g.gifting.daily_send_limit", "at least 1"),
    ("[games.g.gifting]\nclaim_expiry_seconds = 0", "games.g.gifting.claim_expiry_seconds", "at least 1"),
    ("[games.g.presence]\nttl_seconds = 0", "games.g.presence.ttl_seconds", "at least 1"),
    ("[games.g.friends]\nmax_friends = 0", "games.g.friends.max_friends", "at least 1"),
    (
        '[games.g.resources.gold]\ntype = "item"\nmax_per_gift = 0',
        "games.g.resources.gold.max_per_gift",
        "from 1 to 1,000,000,000,000",
    ),
    ('[games.g.resources.sessions]\ntype = "item"', "games.g.resources.sessions", "reserved"),
    ('[games.g.resources.login_streak]\ntype = "item"', "games.g.resources.login_streak", "reserved"),
    (
        '[games.g.resources.gold]\ntype = "gem"',
        "games.g.resources.gold.type",
        "must be one of currency, item",
    ),
    (
        '[games.g.api_keys.ci-client]\nenv = "prod"\npermission = "client_sdk"',
        "games.g.api_keys.ci-client.env",
        "must be one of test, live",
    ),
    (
        '[games.g.api_keys.ci-client]\nenv = "test"\npermission = "admin"',
        "games.g.api_keys.ci-client.permission",
        "must be one of client_sdk, server_integration",
    ),
    (
        '[games.g.api_keys.k]\nenv = "test"\npermission = "client_sdk"\nrate_limits = { sdk_writes = 5 }',
        "games.g.api_keys.k.rate_limits.sdk_writes",
        "must be one of sdk_read, sdk_write, server_api, admin, open_streams",
    ),
    (
        '[games.g.api_keys.k]\nenv = "test"\npermission = "client_sdk"\nrate_limits = { sdk_write = 0 }',
        "games.g.api_keys.k.rate_limits.sdk_write",
        "between 1 and 1000000",
    ),
    (
        '[games.g.api_keys.k]\nenv = "test"\npermission = "client_sdk"\nrate_limits = { admin = 1000001 }',
        "games.g.api_keys.k.rate_limits.admin",
        "between 1 and 1000000",
    ),
    (
        '[games.g.api_keys.k]\nenv = "test"\npermission = "client_sdk"\nrate_limits = { sdk_read = 1.5 }',
        "games.g.api_keys.k.rate_limits.sdk_read",
        "must be an integer",
    ),
    (
        '[games.g.api_keys.k]\nenv = "test"\npermission = "client_sdk"\nrate_limits = 600',
        "games.g.api_keys.k.rate_limits",
        "must be a table",
    ),
    (
        '[games.g.webhooks.w]\nenv = "staging"\nurl = "https://example.com"\nevents = ["*"]',
        "games.g.webhooks.w.env",
        "must be one of test, live",
    ),
    ('[games.g]\neconomy = "shared"', "games.g.economy", "must be one of studio, platform"),
]


@pytest.mark.parametrize(("snippet", "path", "fragment"), REFUSALS)
def test_value_rule_refused_with_exact_path(snippet: str, path: str, fragment: str) -> None:
    if snippet.startswith("[games.g]\n"):  # a field of the game table itself
        text = BASE.replace('name = "G"\n', 'name = "G"\n' + snippet.removeprefix("[games.g]\n") + "\n")
    else:
        text = BASE + "\n" + snippet + "\n"
    found_path, message = only_problem(text)
    assert found_path == path
    assert fragment in message


@pytest.mark.parametrize(
    "snippet",
    [
        "[games.g.gifting]\ncooldown_seconds = 0",
        "[games.g.gifting]\ndaily_send_limit = 1\nclaim_expiry_seconds = 1",
        "[games.g.presence]\nttl_seconds = 1",
        "[games.g.friends]\nmax_friends = 1",
        '[games.g.resources.gold]\ntype = "item"\nmax_per_gift = 1',
        '[games.g.resources.session]\ntype = "item"',
        '[games.g.api_keys.k]\nenv = "live"\npermission = "server_integration"\n'
        "rate_limits = { sdk_read = 1, sdk_write = 1000000, server_api = 5000, admin = 10 }",
    ],
)
def test_boundary_values_are_accepted(snippet: str) -> None:
    parse_manifest(BASE + "\n" + snippet + "\n")


def test_blank_game_name_refused() -> None:
    assert only_problem(BASE.replace('name = "G"', 'name = "   "')) == ("games.g.name", "must not be empty")


# --- keys ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "key",
    ["Space-Race", "-race", "_race", "space race", "space.race", "é", "a" * 65, "race\n", "", "ra/ce"],
)
@pytest.mark.parametrize("table", ["games", "resources", "api_keys", "webhooks"])
def test_bad_keys_refused(table: str, key: str) -> None:
    quoted = '"' + key.replace("\n", "\\n") + '"'
    if table == "games":
        text = f'studio = "acme"\n[games.{quoted}]\nname = "G"\n'
        prefix = "games"
    else:
        body = {
            "resources": 'type = "item"',
            "api_keys": 'env = "test"\npermission = "client_sdk"',
            "webhooks": 'env = "test"\nurl = "https://example.com"\nevents = ["*"]',
        }[table]
        text = BASE + f"[games.g.{table}.{quoted}]\n{body}\n"
        prefix = f"games.g.{table}"
    problems = problems_of(text)
    assert list(problems) == [f"{prefix}.{key}"]
    assert "lower-case letters" in problems[f"{prefix}.{key}"]


@pytest.mark.parametrize("key", ["a", "0", "a" * 64, "space-race", "energy_potion", "9lives"])
def test_good_keys_accepted(key: str) -> None:
    text = (
        f'studio = "{key}"\n[games.{key}]\nname = "G"\n'
        f'[games.{key}.resources.{key}]\ntype = "item"\n'
        f'[games.{key}.api_keys.{key}]\nenv = "test"\npermission = "client_sdk"\n'
        f'[games.{key}.webhooks.{key}]\nenv = "test"\nurl = "https://example.com"\nevents = ["*"]\n'
    )
    game = parse_manifest(text).games[key]
    assert key in game.resources
    assert key in game.api_keys
    assert key in game.webhooks


@pytest.mark.parametrize("studio", ["Acme", "acme\n", "", "a" * 65])
def test_bad_studio_key_refused(studio: str) -> None:
    quoted = '"' + studio.replace("\n", "\\n") + '"'
    path, message = only_problem(f"studio = {quoted}\n")
    assert path == "studio"
    assert "lower-case letters" in message


# --- webhooks -----------------------------------------------------------------------------------------


def webhook(url: str = "https://example.com/hooks", events: str = '["*"]') -> str:
    return BASE + f'[games.g.webhooks.w]\nenv = "live"\nurl = "{url}"\nevents = {events}\n'


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/hooks",
        "https://example.com:8443/hooks?x=1",
        "HTTPS://Example.com/",
        "https://93.184.216.34/h",  # private and link-local hosts: tests/security/test_webhook_targets.py
        "http://localhost/hooks",
        "http://LOCALHOST:9000/hooks",
        "http://127.0.0.1:9000/hooks",
        "http://127.255.0.7/hooks",
        "http://[::1]:9000/hooks",
    ],
)
def test_webhook_url_accepted(url: str) -> None:
    assert parse_manifest(webhook(url)).games["g"].webhooks["w"].url == url


@pytest.mark.parametrize(
    ("url", "fragment"),
    [
        ("http://example.com/hooks", "http:// only for"),
        ("http://10.0.0.1/hooks", "http:// only for"),
        ("http://128.0.0.1/hooks", "http:// only for"),
        ("http://[::2]/hooks", "http:// only for"),
        ("http://localhost.example.com/hooks", "http:// only for"),
        ("http://127.0.0.1.nip.io/hooks", "http:// only for"),
        ("http://0.0.0.0/hooks", "http:// only for"),
        ("ftp://example.com/hooks", "https:// URL with a host"),
        ("example.com/hooks", "https:// URL with a host"),
        ("https:///hooks", "https:// URL with a host"),
        ("https://", "https:// URL with a host"),
        ("", "https:// URL with a host"),
        ("https://example.com:99999/hooks", "valid URL"),
        ("https://example.com:port/hooks", "valid URL"),
        ("https://[::1/hooks", "valid URL"),
        ("https://example.com/a hook", "whitespace"),
    ],
)
def test_webhook_url_refused(url: str, fragment: str) -> None:
    path, message = only_problem(webhook(url))
    assert path == "games.g.webhooks.w.url"
    assert fragment in message


@pytest.mark.parametrize(
    ("events", "expected"),
    [
        ('["*"]', ("*",)),
        ('["gift.sent"]', ("gift.sent",)),
        ('["gift.sent", "friend.request_accepted"]', ("gift.sent", "friend.request_accepted")),
    ],
)
def test_webhook_events_accepted(events: str, expected: tuple[str, ...]) -> None:
    assert parse_manifest(webhook(events=events)).games["g"].webhooks["w"].events == expected


@pytest.mark.parametrize(
    ("events", "path", "fragment"),
    [
        ("[]", "games.g.webhooks.w.events", "must not be empty"),
        ('["gift.sent", ""]', "games.g.webhooks.w.events", "empty kind"),
        ('["  "]', "games.g.webhooks.w.events", "empty kind"),
        ('["*", "gift.sent"]', "games.g.webhooks.w.events", '"*" must be the only entry'),
        ('["*", "*"]', "games.g.webhooks.w.events", '"*" must be the only entry'),
        ('["gift.sent", "gift.sent"]', "games.g.webhooks.w.events", "more than once"),
        ('"*"', "games.g.webhooks.w.events", "must be a list"),
        ('"gift.sent"', "games.g.webhooks.w.events", "must be a list"),
        ("5", "games.g.webhooks.w.events", "must be a list"),
        ('["gift.sent", 5]', "games.g.webhooks.w.events[1]", "must be a string"),
    ],
)
def test_webhook_events_refused(events: str, path: str, fragment: str) -> None:
    found_path, message = only_problem(webhook(events=events))
    assert found_path == path
    assert fragment in message


# --- unknown fields, types, required fields ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ('studio = "s"\nstudios = "t"\n', "studios"),
        (BASE.replace('name = "G"', 'name = "G"\ntitle = "x"'), "games.g.title"),
        (BASE + "[games.g.gifting]\nenable = true\n", "games.g.gifting.enable"),
        (BASE + "[games.g.presence]\nttl = 5\n", "games.g.presence.ttl"),
        (BASE + "[games.g.friends]\nmax = 5\n", "games.g.friends.max"),
        (BASE + '[games.g.resources.gold]\ntype = "item"\nmax = 5\n', "games.g.resources.gold.max"),
        (
            BASE + '[games.g.api_keys.k]\nenv = "test"\npermission = "client_sdk"\nsecret = "x"\n',
            "games.g.api_keys.k.secret",
        ),
        (
            BASE
            + '[games.g.webhooks.w]\nenv = "test"\nurl = "https://e.com"\nevents = ["*"]\nsecret = "x"\n',
            "games.g.webhooks.w.secret",
        ),
    ],
)
def test_unknown_field_is_named(text: str, path: str) -> None:
    assert only_problem(text) == (path, "is not a known field")


@pytest.mark.parametrize(
    ("text", "path", "message"),
    [
        ("studio = 1\n", "studio", "must be a string"),
        (BASE.replace('name = "G"', "name = 7"), "games.g.name", "must be a string"),
        (BASE + '[games.g.gifting]\nenabled = "yes"\n', "games.g.gifting.enabled", "must be a boolean"),
        (
            BASE + '[games.g.gifting]\ncooldown_seconds = "60"\n',
            "games.g.gifting.cooldown_seconds",
            "integer",
        ),
        (BASE + "[games.g.presence]\nttl_seconds = 1.5\n", "games.g.presence.ttl_seconds", "integer"),
        (BASE + "[games.g.friends]\nmax_friends = true\n", "games.g.friends.max_friends", "integer"),
        (
            BASE + '[games.g.resources.gold]\ntype = "item"\ngiftable = 1\n',
            "games.g.resources.gold.giftable",
            "must be a boolean",
        ),
        (
            BASE + '[games.g.webhooks.w]\nenv = "test"\nurl = 5\nevents = ["*"]\n',
            "games.g.webhooks.w.url",
            "must be a string",
        ),
        ('studio = "s"\ngames = 5\n', "games", "must be a table"),
        ('studio = "s"\ngames = { g = 5 }\n', "games.g", "must be a table"),
        (BASE.replace('name = "G"', 'name = "G"\ngifting = true'), "games.g.gifting", "must be a table"),
        (BASE.replace('name = "G"', 'name = "G"\nresources = []'), "games.g.resources", "must be a table"),
        (
            BASE.replace('name = "G"', 'name = "G"\nresources = { gold = "item" }'),
            "games.g.resources.gold",
            "table",
        ),
        (BASE.replace('name = "G"', 'name = "G"\napi_keys = "k"'), "games.g.api_keys", "must be a table"),
        (BASE.replace('name = "G"', 'name = "G"\nwebhooks = 1'), "games.g.webhooks", "must be a table"),
    ],
)
def test_wrong_type_is_named(text: str, path: str, message: str) -> None:
    found_path, found = only_problem(text)
    assert found_path == path
    assert message in found


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("[games.g]\nname = 'G'\n", "studio"),
        ('studio = "s"\n[games.g]\neconomy = "studio"\n', "games.g.name"),
        (BASE + "[games.g.resources.gold]\ngiftable = true\n", "games.g.resources.gold.type"),
        (BASE + '[games.g.api_keys.k]\npermission = "client_sdk"\n', "games.g.api_keys.k.env"),
        (BASE + '[games.g.api_keys.k]\nenv = "test"\n', "games.g.api_keys.k.permission"),
        (BASE + '[games.g.webhooks.w]\nenv = "test"\nevents = ["*"]\n', "games.g.webhooks.w.url"),
        (BASE + '[games.g.webhooks.w]\nenv = "test"\nurl = "https://e.com"\n', "games.g.webhooks.w.events"),
        (BASE + '[games.g.webhooks.w]\nurl = "https://e.com"\nevents = ["*"]\n', "games.g.webhooks.w.env"),
    ],
)
def test_missing_required_field_is_named(text: str, path: str) -> None:
    assert only_problem(text) == (path, "is required")


# --- all problems at once -----------------------------------------------------------------------------


def test_several_problems_are_all_reported_at_once() -> None:
    text = """
studio = "Acme"
colour = "red"

[exchange_rates]
eur = 1.08

[games.space-race]
name = 5

[games.space-race.gifting]
cooldown_seconds = -5
daily_send_limit = 0

[games.space-race.resources.sessions]
type = "item"

[games.space-race.resources.coins]
type = "coin"
max_per_gift = 0

[games.space-race.api_keys.ci-client]
env = "prod"
permission = "client_sdk"
rate_limits = { sdk_write = 0, nope = 5 }

[games.other]
name = "Other"

[games.other.webhooks.backend]
env = "test"
url = "http://example.com/hooks"
events = ["*", "gift.sent"]
"""
    problems = problems_of(text)
    assert problems == {
        "studio": problems["studio"],
        "colour": "is not a known field",
        "exchange_rates.eur": problems["exchange_rates.eur"],
        "games.space-race.name": "must be a string",
        "games.space-race.gifting.cooldown_seconds": "must be at least 0",
        "games.space-race.gifting.daily_send_limit": "must be at least 1",
        "games.space-race.resources.sessions": "is reserved for a system item",
        "games.space-race.resources.coins.type": "must be one of currency, item",
        "games.space-race.resources.coins.max_per_gift": "must be a whole number from 1 to 1,000,000,000,000",
        "games.space-race.api_keys.ci-client.env": "must be one of test, live",
        "games.space-race.api_keys.ci-client.rate_limits.sdk_write": problems[
            "games.space-race.api_keys.ci-client.rate_limits.sdk_write"
        ],
        "games.space-race.api_keys.ci-client.rate_limits.nope": (
            "must be one of sdk_read, sdk_write, server_api, admin, open_streams"
        ),
        "games.other.webhooks.backend.url": problems["games.other.webhooks.backend.url"],
        "games.other.webhooks.backend.events": '"*" must be the only entry',
    }
    assert "lower-case letters" in problems["studio"]
    assert "3 upper-case letters" in problems["exchange_rates.eur"]
    assert "between 1 and" in problems["games.space-race.api_keys.ci-client.rate_limits.sdk_write"]
    assert "https://" in problems["games.other.webhooks.backend.url"]


def test_error_text_lists_each_problem_on_its_own_line() -> None:
    text = BASE + '[games.g.api_keys.ci-client]\nenv = "prod"\npermission = "root"\n'
    with pytest.raises(ManifestError) as info:
        parse_manifest(text)
    assert str(info.value).splitlines() == [
        "games.g.api_keys.ci-client.env: must be one of test, live",
        "games.g.api_keys.ci-client.permission: must be one of client_sdk, server_integration",
    ]


def test_manifest_error_is_a_value_error() -> None:
    assert issubclass(ManifestError, ValueError)


# --- TOML syntax and files ----------------------------------------------------------------------------


def test_toml_syntax_error() -> None:
    path, message = only_problem('studio = "acme"\n[games.g\nname = "G"\n')
    assert path == "manifest"
    assert "not valid TOML" in message
    assert "line 2" in message


def test_toml_duplicate_table_is_a_syntax_error() -> None:
    path, message = only_problem(BASE + '[games.g]\nname = "again"\n')
    assert path == "manifest"
    assert "line" in message


def test_load_manifest_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "livecore.toml"
    path.write_text(FULL_EXAMPLE, encoding="utf-8")
    assert load_manifest(path) == parse_manifest(FULL_EXAMPLE)
    assert load_manifest(str(path)) == parse_manifest(FULL_EXAMPLE)


def test_load_manifest_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ManifestError) as info:
        load_manifest(tmp_path / "missing.toml")
    assert list(info.value.problems) == ["manifest"]
    assert "missing.toml" in info.value.problems["manifest"]


def test_load_manifest_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes('studio = "acme"\n[games.g]\nname = "Café"\n'.encode("latin-1"))
    with pytest.raises(ManifestError) as info:
        load_manifest(path)
    assert list(info.value.problems) == ["manifest"]


def test_syntax_error_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("studio = \n", encoding="utf-8")
    with pytest.raises(ManifestError) as info:
        load_manifest(path)
    assert list(info.value.problems) == ["manifest"]


# --- live events (docs/reference/manifest-and-cli.md#live-events) ------------------------------------

# An event with every section, in a platform-managed game that declares the resources and the shared
# leaderboard it names.
EVENT_EXAMPLE = """
studio = "acme"

[games.space-race]
name = "Space Race"
economy = "platform"

[games.space-race.resources.gems]
type = "currency"

[games.space-race.resources.coins]
type = "currency"

[games.space-race.resources.badge-bronze]
type = "item"

[games.space-race.events.time-trial]
name = "Time Trial"
starts_at = "2026-12-01T00:00:00Z"   # first window opens here
window_seconds = 3600                # each window's length
repeat_every_seconds = 86400         # omit: a single window
attempt_seconds = 600                # an attempt expires this long after its start, never past its window's end
max_attempts = 3                     # per player and window; omit: unlimited
score_metric = "score"               # the progress metric that is the attempt's score
order = "desc"                       # "desc" (higher is better) or "asc" (lower is better, e.g. a time)
target = 1000                        # optional: reaching it (>= for desc, <= for asc) completes the attempt
segments = ["country"]               # optional playerContext keys: one board per combination of values
entry_cost = [{ type = "currency", key = "gems", amount = 5 }]   # platform economy only; apply refuses it otherwise
completion_rewards = [{ type = "currency", key = "coins", amount = 20 }]
feeds = ["weekly-xp"]                # optional shared leaderboards (section 9) fed by this event's attempt scores

[[games.space-race.events.time-trial.milestones]]
key = "bronze"
threshold = 100
rewards = [{ type = "item", key = "badge-bronze", amount = 1 }]

[[games.space-race.events.time-trial.rank_rewards]]
from = 1
to = 3
rewards = [{ type = "currency", key = "coins", amount = 500 }]

[[games.space-race.events.time-trial.anti_cheat]]
key = "score-rate"
kind = "max_rate"                    # "max_rate" (metric increase per second of attempt time) or "max_value"
metric = "score"
limit = 50
verdict = "reject"                   # "reject" (422, nothing applied, no webhook) or "flag" (applied + event.attempt_flagged)

[games.space-race.leaderboards.weekly-xp]
name = "Weekly XP"
order = "desc"
period = "weekly"                    # "all_time", "daily", "weekly" (from Monday 00:00 UTC) or "monthly"
aggregation = "sum"                  # how a new score combines with the period's entry: "sum", "best" or "latest"
divisions = { size = 30, tiers = ["bronze", "silver", "gold"], promote = 5, relegate = 5 }   # optional

[[games.space-race.leaderboards.weekly-xp.rank_rewards]]
from = 1
to = 10
rewards = [{ type = "currency", key = "coins", amount = 100 }]   # per division when divisions are on
"""  # noqa: E501  (verbatim copy)

EVENT_GAME = """studio = "acme"

[games.g]
name = "G"
economy = "platform"

[games.g.resources.coins]
type = "currency"

[games.g.resources.badge]
type = "item"

"""
EVENT_TABLE = """[games.g.events.e]
name = "E"
starts_at = "2026-12-01T00:00:00Z"
window_seconds = 3600
attempt_seconds = 600
score_metric = "score"
"""
E = "games.g.events.e"


def event(fields: str = "", tables: str = "", *, game: str = EVENT_GAME) -> str:
    """A manifest with the event ``e``: ``fields`` go into its table (replacing a required field they
    name), ``tables`` ([[...]] arrays) after."""
    named = {line.split("=")[0].strip() for line in fields.splitlines() if "=" in line}
    kept = [line for line in EVENT_TABLE.splitlines() if line.split("=")[0].strip() not in named]
    return game + "\n".join(kept) + "\n" + fields + "\n" + tables + "\n"


REWARD = '[{ type = "currency", key = "coins", amount = 1 }]'


def milestone(key: str = "m", threshold: str = "100", rewards: str = REWARD) -> str:
    return f'[[{E}.milestones]]\nkey = "{key}"\nthreshold = {threshold}\nrewards = {rewards}\n'


def band(first: str = "1", last: str = "3", rewards: str = REWARD) -> str:
    return f"[[{E}.rank_rewards]]\nfrom = {first}\nto = {last}\nrewards = {rewards}\n"


def check(
    key: str = "c", kind: str = "max_value", metric: str = "score", limit: str = "10", verdict: str = "reject"
) -> str:
    return (
        f'[[{E}.anti_cheat]]\nkey = "{key}"\nkind = "{kind}"\nmetric = "{metric}"\nlimit = {limit}\n'
        f'verdict = "{verdict}"\n'
    )


def event_problem(fields: str = "", tables: str = "", *, game: str = EVENT_GAME) -> tuple[str, str]:
    return only_problem(event(fields, tables, game=game))


def test_decisions_event_example_becomes_event_settings() -> None:
    settings = parse_manifest(EVENT_EXAMPLE).games["space-race"].settings()

    coins = partial(Entry, ResourceType.CURRENCY, "coins")
    assert settings.of(EVENT_SETTINGS) == {
        "time-trial": EventSettings(
            key="time-trial",
            name="Time Trial",
            starts_at=datetime(2026, 12, 1, tzinfo=UTC),
            window_seconds=3600,
            attempt_seconds=600,
            score_metric="score",
            repeat_every_seconds=86_400,
            max_attempts=3,
            order=Order.DESC,
            target=1000.0,
            segments=("country",),
            entry_cost=(Entry(ResourceType.CURRENCY, "gems", 5),),
            completion_rewards=(coins(20),),
            feeds=("weekly-xp",),
            milestones=(Milestone("bronze", 100.0, (Entry(ResourceType.ITEM, "badge-bronze", 1),)),),
            rank_rewards=(RankBand(first=1, last=3, rewards=(coins(500),)),),
            anti_cheat=(AntiCheat("score-rate", CheckKind.MAX_RATE, "score", 50.0, Verdict.REJECT),),
        )
    }


def test_event_manifest_defaults_agree_with_core_event_settings() -> None:
    # The parts other areas add (an event's lobby) are the parser's, from their sections.
    core = {f.name: f.default for f in attrs.fields(EventSettings) if f.name not in ("key", "parts")}
    mine = {f.name: f.default for f in attrs.fields(EventManifest)}
    assert mine == core


def test_event_with_only_required_fields_takes_the_defaults() -> None:
    settings = parse_manifest(event()).games["g"].settings().of(EVENT_SETTINGS)["e"]
    assert settings == EventSettings(
        key="e",
        name="E",
        starts_at=datetime(2026, 12, 1, tzinfo=UTC),
        window_seconds=3600,
        attempt_seconds=600,
        score_metric="score",
    )
    assert (settings.repeat_every_seconds, settings.max_attempts, settings.target) == (None, None, None)
    assert settings.order is Order.DESC
    assert settings.entry_cost == settings.milestones == settings.rank_rewards == settings.anti_cheat == ()


def test_events_keep_manifest_order_and_a_game_without_events_has_none() -> None:
    text = EVENT_GAME + "".join(
        EVENT_TABLE.replace("events.e]", f"events.{key}]") for key in ("zeta", "alpha", "mid")
    )
    assert list(parse_manifest(text).games["g"].settings().of(EVENT_SETTINGS)) == ["zeta", "alpha", "mid"]
    assert parse_manifest(BASE).games["g"].settings().of(EVENT_SETTINGS) == {}


def test_event_settings_round_trip_through_the_stored_settings_json() -> None:
    """apply stores a game's settings as JSON (livecore_server/storage/records.py); timestamps, tuples,
    enums, floats and item parameters come back equal."""
    text = EVENT_EXAMPLE.replace(
        'key = "badge-bronze", amount = 1 }', 'key = "badge-bronze", amount = 1, parameters = { tier = 1 } }'
    ).replace('"2026-12-01T00:00:00Z"', '"2026-12-01T00:00:00.250+02:00"')
    settings = parse_manifest(text).games["space-race"].settings()
    stored = orjson.loads(orjson.dumps(settings_converter.unstructure(settings)))

    assert stored["events"]["time-trial"]["starts_at"] == "2026-11-30T22:00:00.250Z"
    assert settings_converter.structure(stored, GameSettings) == settings
    event_back = settings_converter.structure(stored, GameSettings).of(EVENT_SETTINGS)["time-trial"]
    assert isinstance(event_back.segments, tuple) and isinstance(event_back.rank_rewards, tuple)
    assert event_back.milestones[0].rewards[0].parameters == {"tier": 1}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ('"2026-12-01T00:00:00Z"', datetime(2026, 12, 1, tzinfo=UTC)),
        ('"2026-12-01T00:00:00.123Z"', datetime(2026, 12, 1, 0, 0, 0, 123_000, tzinfo=UTC)),
        ('"2026-12-01T02:00:00+02:00"', datetime(2026, 12, 1, tzinfo=UTC)),
        ('"2026-12-01 00:00:00z"', datetime(2026, 12, 1, tzinfo=UTC)),
        ("2026-12-01T00:00:00Z", datetime(2026, 12, 1, tzinfo=UTC)),  # a TOML offset date-time
        ("2026-11-30T19:00:00-05:00", datetime(2026, 12, 1, tzinfo=UTC)),
        ('"1970-01-01T00:00:00Z"', datetime(1970, 1, 1, tzinfo=UTC)),
    ],
)
def test_starts_at_accepted_and_kept_in_utc(value: str, expected: datetime) -> None:
    text = event().replace('starts_at = "2026-12-01T00:00:00Z"', f"starts_at = {value}")
    starts_at = parse_manifest(text).games["g"].settings().of(EVENT_SETTINGS)["e"].starts_at
    assert starts_at == expected
    assert starts_at.tzinfo is UTC


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ("2026-12-01T00:00:00", "no time zone"),  # a TOML local date-time
        ('"2026-12-01T00:00:00"', "RFC 3339 timestamp with a time zone"),
        ('"2026-12-01"', "RFC 3339 timestamp with a time zone"),
        ("2026-12-01", "RFC 3339 timestamp with a time zone"),  # a TOML local date
        ("00:00:00", "RFC 3339 timestamp with a time zone"),  # a TOML local time
        ('"tomorrow"', "RFC 3339 timestamp with a time zone"),
        ('"20261201T000000Z"', "RFC 3339 timestamp with a time zone"),
        ("1764547200", "RFC 3339 timestamp with a time zone"),
        ('"2026-13-01T00:00:00Z"', "not a valid date or time"),
        ('"2026-12-01T00:00:00.0001Z"', "exact to the millisecond"),
        ('"1969-12-31T23:59:59Z"', "from 1970-01-01T00:00:00Z to before the year 9000"),
        ('"9000-01-01T00:00:00Z"', "from 1970-01-01T00:00:00Z to before the year 9000"),
    ],
)
def test_starts_at_refused(value: str, fragment: str) -> None:
    text = event().replace('starts_at = "2026-12-01T00:00:00Z"', f"starts_at = {value}")
    path, message = only_problem(text)
    assert path == f"{E}.starts_at"
    assert fragment in message


# (fields of the event table, [[...]] tables after it, path, fragment of the message): one rule each.
EVENT_REFUSALS = [
    ('name = "  "', "", f"{E}.name", "must not be empty"),
    ("window_seconds = 0", "", f"{E}.window_seconds", "from 1 to 315360000"),
    ("window_seconds = 315360001", "", f"{E}.window_seconds", "from 1 to 315360000"),
    ("repeat_every_seconds = 3599", "", f"{E}.repeat_every_seconds", "at least window_seconds (3600)"),
    ("repeat_every_seconds = 315360001", "", f"{E}.repeat_every_seconds", "from 1 to 315360000"),
    ("attempt_seconds = 0", "", f"{E}.attempt_seconds", "from 1 to 315360000"),
    ("max_attempts = 0", "", f"{E}.max_attempts", "at least 1"),
    ('score_metric = "Score"', "", f"{E}.score_metric", "lower-case letters"),
    ('score_metric = ""', "", f"{E}.score_metric", "lower-case letters"),
    ('order = "up"', "", f"{E}.order", "must be one of desc, asc"),
    ("target = inf", "", f"{E}.target", "finite"),
    ("target = nan", "", f"{E}.target", "finite"),
    # Every number that reaches a board is held to the routes' bound (docs/reference/conventions.md#limits).
    ("target = 1e308", "", f"{E}.target", "from -9,007,199,254,740,991 to 9,007,199,254,740,991"),
    ("target = 9007199254740992", "", f"{E}.target", "from -9,007,199,254,740,991"),
    (
        'completion_rewards = [{ type = "currency", key = "coins", amount = 1_000_000_000_001 }]',
        "",
        f"{E}.completion_rewards[0].amount",
        "from 1 to 1,000,000,000,000",
    ),
    ('target = "1000"', "", f"{E}.target", "must be a number"),
    ('segments = ["country", "country"]', "", f"{E}.segments[1]", "repeats the segment country"),
    ('segments = [""]', "", f"{E}.segments[0]", "playerContext key"),
    ('segments = [" country"]', "", f"{E}.segments[0]", "surrounding whitespace"),
    (f'segments = ["{"k" * 65}"]', "", f"{E}.segments[0]", "at most 64 characters"),
    ('segments = ["a\\u200bb"]', "", f"{E}.segments[0]", "control or format"),
    ('segments = "country"', "", f"{E}.segments", "must be a list"),
    ("segments = [5]", "", f"{E}.segments[0]", "must be a string"),
    ('feeds = ["weekly-xp"]', "", f"{E}.feeds[0]", "no shared leaderboard named weekly-xp is declared"),
    # reward and cost entries
    (
        'completion_rewards = [{ type = "currency", key = "coins", amount = 0 }]',
        "",
        f"{E}.completion_rewards[0].amount",
        "from 1 to 1,000,000,000,000",
    ),
    (
        'completion_rewards = [{ type = "currency", key = "gold", amount = 1 }]',
        "",
        f"{E}.completion_rewards[0].key",
        "no currency named gold is declared",
    ),
    (
        'completion_rewards = [{ type = "item", key = "coins", amount = 1 }]',
        "",
        f"{E}.completion_rewards[0].key",
        "coins is declared with type currency, not item",
    ),
    (
        'completion_rewards = [{ type = "item", key = "sessions", amount = 1 }]',
        "",
        f"{E}.completion_rewards[0].key",
        "sessions is a system item",
    ),
    (
        'completion_rewards = [{ type = "item", key = "login_streak", amount = 1 }]',
        "",
        f"{E}.completion_rewards[0].key",
        "login_streak is a system item",
    ),
    (
        'completion_rewards = [{ type = "crate", key = "coins", amount = 1 }]',
        "",
        f"{E}.completion_rewards[0].type",
        "must be one of currency, item",
    ),
    (
        'completion_rewards = [{ type = "currency", key = "coins", amount = 1, parameters = { a = 1 } }]',
        "",
        f"{E}.completion_rewards[0].parameters",
        "only items carry parameters",
    ),
    (
        'completion_rewards = [{ type = "currency", key = "coins", amount = 1, note = "x" }]',
        "",
        f"{E}.completion_rewards[0].note",
        "is not a known field",
    ),
    (
        'completion_rewards = [{ type = "currency", key = "coins" }]',
        "",
        f"{E}.completion_rewards[0].amount",
        "required",
    ),
    ("completion_rewards = [5]", "", f"{E}.completion_rewards[0]", "must be a table"),
    (
        'completion_rewards = { type = "currency", key = "coins", amount = 1 }',
        "",
        f"{E}.completion_rewards",
        "must be a list",
    ),
    (
        'entry_cost = [{ type = "currency", key = "coins", amount = 0 }]',
        "",
        f"{E}.entry_cost[0].amount",
        "from 1 to 1,000,000,000,000",
    ),
    (
        'entry_cost = [{ type = "item", key = "badge", amount = 1, parameters = { a = 1 } }]',
        "",
        f"{E}.entry_cost[0].parameters",
        "a cost carries no parameters",
    ),
    # milestones
    (
        "",
        milestone() + milestone(threshold="200"),
        f"{E}.milestones[1].key",
        "repeats the key of milestones[0]",
    ),
    ("", milestone(key="Bronze"), f"{E}.milestones[0].key", "lower-case letters"),
    ("", milestone(threshold="inf"), f"{E}.milestones[0].threshold", "finite"),
    ("", milestone(threshold="-nan"), f"{E}.milestones[0].threshold", "finite"),
    ("", milestone(threshold="-1e300"), f"{E}.milestones[0].threshold", "from -9,007,199,254,740,991"),
    ("", milestone(rewards="[]"), f"{E}.milestones[0].rewards", "at least one reward entry"),
    (
        "",
        f'[[{E}.milestones]]\nkey = "m"\nthreshold = 1\n',
        f"{E}.milestones[0].rewards",
        "at least one reward",
    ),
    (
        "",
        milestone(rewards='[{ type = "item", key = "hat", amount = 1 }]'),
        f"{E}.milestones[0].rewards[0].key",
        "no item named hat is declared",
    ),
    (
        "",
        f'[[{E}.milestones]]\nkey = "m"\nthreshold = 1\nrewards = {REWARD}\nlevel = 2\n',
        f"{E}.milestones[0].level",
        "is not a known field",
    ),
    ("milestones = 5", "", f"{E}.milestones", "must be a list"),
    # rank bands
    ("", band(first="0"), f"{E}.rank_rewards[0].from", "from 1 to 10000"),
    ("", band(last="10001"), f"{E}.rank_rewards[0].to", "from 1 to 10000"),
    ("", band(first="5", last="4"), f"{E}.rank_rewards[0].to", "at least from (5)"),
    ("", band("1", "3") + band("3", "10"), f"{E}.rank_rewards[1]", "overlap rank_rewards[0] (ranks 1 to 3)"),
    ("", band("4", "10") + band("1", "20"), f"{E}.rank_rewards[1]", "ranks 1 to 20 overlap rank_rewards[0]"),
    ("", band(rewards="[]"), f"{E}.rank_rewards[0].rewards", "at least one reward entry"),
    ("", band(first='"1"'), f"{E}.rank_rewards[0].from", "must be an integer"),
    ("", f"[[{E}.rank_rewards]]\nto = 3\nrewards = {REWARD}\n", f"{E}.rank_rewards[0].from", "is required"),
    (
        "",
        f"[[{E}.rank_rewards]]\nfirst = 1\nfrom = 1\nto = 3\nrewards = {REWARD}\n",
        f"{E}.rank_rewards[0].first",
        "is not a known field",
    ),
    (
        "",
        band(rewards='[{ type = "currency", key = "gems", amount = 1 }]'),
        f"{E}.rank_rewards[0].rewards[0].key",
        "no currency named gems is declared",
    ),
    # anti-cheat checks
    ("", check() + check(kind="max_rate"), f"{E}.anti_cheat[1].key", "repeats the key of anti_cheat[0]"),
    ("", check(key="Rate"), f"{E}.anti_cheat[0].key", "lower-case letters"),
    ("", check(kind="min_value"), f"{E}.anti_cheat[0].kind", "must be one of max_rate, max_value"),
    ("", check(metric="Speed"), f"{E}.anti_cheat[0].metric", "lower-case letters"),
    ("", check(limit="0"), f"{E}.anti_cheat[0].limit", "finite number greater than 0"),
    ("", check(limit="-1.5"), f"{E}.anti_cheat[0].limit", "finite number greater than 0"),
    ("", check(limit="inf"), f"{E}.anti_cheat[0].limit", "finite number greater than 0"),
    ("", check(verdict="ban"), f"{E}.anti_cheat[0].verdict", "must be one of reject, flag"),
    # the table itself
    ("window = 5", "", f"{E}.window", "is not a known field"),
]


@pytest.mark.parametrize(("fields", "tables", "path", "fragment"), EVENT_REFUSALS)
def test_event_rule_refused_with_exact_path(fields: str, tables: str, path: str, fragment: str) -> None:
    found_path, message = event_problem(fields, tables)
    assert found_path == path
    assert fragment in message


@pytest.mark.parametrize(
    "missing", ["name", "starts_at", "window_seconds", "attempt_seconds", "score_metric"]
)
def test_event_required_field_is_named(missing: str) -> None:
    lines = [line for line in EVENT_TABLE.splitlines() if not line.startswith(f"{missing} =")]
    assert only_problem(EVENT_GAME + "\n".join(lines) + "\n") == (f"{E}.{missing}", "is required")


@pytest.mark.parametrize("key", ["Time-Trial", "-trial", "time trial", "a" * 65, ""])
def test_bad_event_key_refused(key: str) -> None:
    path, message = only_problem(event().replace("[games.g.events.e]", f'[games.g.events."{key}"]'))
    assert path == f"games.g.events.{key}"
    assert "lower-case letters" in message


def test_entry_cost_refused_in_a_studio_managed_game() -> None:
    cost = 'entry_cost = [{ type = "currency", key = "coins", amount = 1 }]'
    studio_game = EVENT_GAME.replace('economy = "platform"\n', "")
    assert event_problem(cost, game=studio_game) == (
        f"{E}.entry_cost",
        'only a platform-managed game (economy = "platform") charges an entry cost',
    )
    explicit = EVENT_GAME.replace('economy = "platform"', 'economy = "studio"')
    assert event_problem(cost, game=explicit)[0] == f"{E}.entry_cost"


def test_rewards_are_accepted_in_a_studio_managed_game() -> None:
    studio_game = EVENT_GAME.replace('economy = "platform"\n', "")
    text = event(f"completion_rewards = {REWARD}", milestone() + band(), game=studio_game)
    assert (
        parse_manifest(text).games["g"].settings().of(EVENT_SETTINGS)["e"].completion_rewards[0].key
        == "coins"
    )


@pytest.mark.parametrize(
    ("fields", "tables"),
    [
        ("attempt_seconds = 7200", ""),  # longer than its window: it lasts until the window closes
        ("repeat_every_seconds = 3600", ""),  # windows back to back: always open
        ("window_seconds = 315360000\nrepeat_every_seconds = 315360000", ""),
        ('max_attempts = 1\ntarget = -5.5\norder = "asc"', ""),
        ('segments = ["country", "deviceType", "tier_2"]', ""),
        ('entry_cost = [{ type = "item", key = "badge", amount = 1 }]', ""),
        (
            'completion_rewards = [{ type = "item", key = "badge", amount = 2, parameters = { tier = 1 } }]',
            "",
        ),
        ("", milestone(threshold="-3") + milestone(key="n", threshold="0")),
        ("", band("1", "1") + band("2", "10") + band("11", "10000")),
        ("", check() + check(key="rate", kind="max_rate", limit="0.5", verdict="flag")),
        ("feeds = []", ""),
    ],
)
def test_event_boundary_values_are_accepted(fields: str, tables: str) -> None:
    parse_manifest(event(fields, tables))


def test_attempt_seconds_may_exceed_the_window() -> None:
    settings = parse_manifest(event("attempt_seconds = 7200")).games["g"].settings().of(EVENT_SETTINGS)["e"]
    assert settings.attempt_seconds > settings.window_seconds


def test_event_problems_are_all_reported_at_once() -> None:
    fields = (
        'name = ""\nrepeat_every_seconds = 10\nmax_attempts = 0\norder = "up"\n'
        'segments = ["c", "c"]\nfeeds = ["xp"]\n'
        'entry_cost = [{ type = "currency", key = "coins", amount = 0 }]\n'
    )
    tables = (
        milestone()
        + milestone(threshold="nan", rewards="[]")
        + band("2", "1")
        + band("1", "5")
        + check(limit="0")
        + check(kind="max_speed")
    )
    studio_game = EVENT_GAME.replace('economy = "platform"\n', "")
    text = event(fields, tables, game=studio_game)
    assert set(problems_of(text)) == {
        f"{E}.name",
        f"{E}.repeat_every_seconds",
        f"{E}.max_attempts",
        f"{E}.order",
        f"{E}.segments[1]",
        f"{E}.feeds[0]",
        f"{E}.entry_cost",
        f"{E}.entry_cost[0].amount",
        f"{E}.milestones[1].key",
        f"{E}.milestones[1].threshold",
        f"{E}.milestones[1].rewards",
        f"{E}.rank_rewards[0].to",
        f"{E}.anti_cheat[0].limit",
        f"{E}.anti_cheat[1].key",
        f"{E}.anti_cheat[1].kind",
    }


def test_demo_event_is_open_most_of_the_day() -> None:
    event_ = demo_manifest().games["space-race"].settings().of(EVENT_SETTINGS)["time-trial"]
    day = datetime(2031, 5, 17, tzinfo=UTC)
    assert state(event_, day + timedelta(hours=12)) is EventState.OPEN
    assert state(event_, day + timedelta(hours=23, minutes=30)) is EventState.SCHEDULED
    assert event_.window_seconds / event_.repeat_every_seconds > 0.9  # type: ignore[operator]


def test_the_demos_duel_and_relay_are_always_open_and_its_time_trial_23_hours_a_day() -> None:
    """Whenever the demo starts, its lobby and team events have a window open, and at least two events
    do: every 7 minutes of a week."""
    events = demo_manifest().games["space-race"].settings().of(EVENT_SETTINGS)
    monday = datetime(2031, 5, 19, tzinfo=UTC)
    for minute in range(0, 7 * 24 * 60, 7):
        at = monday + timedelta(minutes=minute)
        assert state(events["duel"], at) is EventState.OPEN, at
        assert state(events["relay"], at) is EventState.OPEN, at
        trial_open = state(events["time-trial"], at) is EventState.OPEN
        assert trial_open == (at.hour != 23), at
    assert events["duel"].repeat_every_seconds == 3600 and events["relay"].repeat_every_seconds == 86_400


def test_the_reference_pages_manifest_example_is_valid() -> None:
    """docs/reference/manifest-and-cli.md#manifest shows every section: apply must take it as it is."""
    page = (Path(__file__).resolve().parents[2] / "docs/reference/manifest-and-cli.md").read_text("utf-8")
    example = page.split("## Manifest\n", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    game = parse_manifest(example).games["space-race"]
    assert set(game.settings().of(EVENT_SETTINGS)) == {"time-trial", "duel", "raid"}
    assert game.settings().of(EVENT_SETTINGS)["duel"].of(LOBBY_SETTINGS) is not None
    assert game.settings().of(EVENT_SETTINGS)["raid"].of(TEAM_SETTINGS) is not None
    assert game.settings().of(EVENT_SETTINGS)["time-trial"].feeds == ("weekly-xp",)
    assert game.settings().of(LEADERBOARD_SETTINGS)["weekly-xp"].divisions is not None
    assert game.settings().of(GUILD_SETTINGS).enabled
    assert game.settings().of(GUILD_SETTINGS).help is not None
    assert game.settings().of(EVENT_SETTINGS)["time-trial"].rank_rewards[0] == RankBand(
        first=1, last=3, rewards=(Entry(ResourceType.CURRENCY, "coins", 500),)
    )


# --- shared leaderboards (docs/reference/manifest-and-cli.md#shared-leaderboards) ------------------------

BOARD_TABLE = """[games.g.leaderboards.b]
name = "B"
"""
B = "games.g.leaderboards.b"


def board(fields: str = "", tables: str = "", *, extra: str = "") -> str:
    """A manifest with the shared leaderboard ``b`` (``fields`` in its table, ``tables`` after) and
    ``extra`` (another table, e.g. an event) last."""
    table = BOARD_TABLE if not fields.startswith("name =") else BOARD_TABLE.replace('name = "B"\n', "")
    return EVENT_GAME + table + fields + "\n" + tables + "\n" + extra


def board_band(first: str = "1", last: str = "3", rewards: str = REWARD) -> str:
    return f"[[{B}.rank_rewards]]\nfrom = {first}\nto = {last}\nrewards = {rewards}\n"


def test_decisions_leaderboard_example_becomes_leaderboard_settings() -> None:
    settings = parse_manifest(EVENT_EXAMPLE).games["space-race"].settings()

    assert settings.of(LEADERBOARD_SETTINGS) == {
        "weekly-xp": LeaderboardSettings(
            key="weekly-xp",
            name="Weekly XP",
            order=Order.DESC,
            period=Period.WEEKLY,
            aggregation=Aggregation.SUM,
            divisions=Divisions(size=30, tiers=("bronze", "silver", "gold"), promote=5, relegate=5),
            rank_rewards=(RankBand(1, 10, (Entry(ResourceType.CURRENCY, "coins", 100),)),),
        )
    }
    assert settings.of(EVENT_SETTINGS)["time-trial"].feeds == ("weekly-xp",)


def test_leaderboard_manifest_defaults_agree_with_core_leaderboard_settings() -> None:
    core = {f.name: f.default for f in attrs.fields(LeaderboardSettings) if f.name != "key"}
    mine = {f.name: f.default for f in attrs.fields(LeaderboardManifest)}
    assert mine == core


def test_leaderboard_with_only_a_name_is_an_all_time_sum_without_divisions() -> None:
    settings = parse_manifest(board()).games["g"].settings().of(LEADERBOARD_SETTINGS)["b"]
    assert settings == LeaderboardSettings(key="b", name="B")
    assert (settings.period, settings.aggregation, settings.divisions) == (
        Period.ALL_TIME,
        Aggregation.SUM,
        None,
    )


def test_leaderboard_settings_round_trip_through_the_stored_settings_json() -> None:
    settings = parse_manifest(EVENT_EXAMPLE).games["space-race"].settings()
    stored = orjson.loads(orjson.dumps(settings_converter.unstructure(settings)))
    back = settings_converter.structure(stored, GameSettings)
    assert back == settings
    assert isinstance(back.of(LEADERBOARD_SETTINGS)["weekly-xp"].divisions.tiers, tuple)  # type: ignore[union-attr]


DIVISIONS = 'divisions = { size = 10, tiers = ["bronze", "silver"], promote = 3, relegate = 3 }'

# (fields of the board table, [[...]] tables after it, path, fragment of the message): one rule each.
BOARD_REFUSALS = [
    ('name = "  "', "", f"{B}.name", "must not be empty"),
    ('order = "up"', "", f"{B}.order", "must be one of desc, asc"),
    ('period = "hourly"', "", f"{B}.period", "must be one of all_time, daily, weekly, monthly"),
    ('aggregation = "max"', "", f"{B}.aggregation", "must be one of sum, best, latest"),
    ("divisions = 5", "", f"{B}.divisions", "must be a table"),
    (DIVISIONS.replace("size = 10", "size = 1"), "", f"{B}.divisions.size", "from 2 to 10000"),
    (DIVISIONS.replace("size = 10", "size = 10001"), "", f"{B}.divisions.size", "from 2 to 10000"),
    (DIVISIONS.replace("size = 10", 'size = "10"'), "", f"{B}.divisions.size", "must be an integer"),
    (DIVISIONS.replace('["bronze", "silver"]', "[]"), "", f"{B}.divisions.tiers", "at least one tier"),
    (
        DIVISIONS.replace('["bronze", "silver"]', '["bronze", "silver", "bronze"]'),
        "",
        f"{B}.divisions.tiers[2]",
        "repeats the tier of tiers[0]",
    ),
    (DIVISIONS.replace('"silver"', '"Silver"'), "", f"{B}.divisions.tiers[1]", "lower-case letters"),
    (DIVISIONS.replace('"silver"', '""'), "", f"{B}.divisions.tiers[1]", "lower-case letters"),
    (DIVISIONS.replace("promote = 3", "promote = -1"), "", f"{B}.divisions.promote", "at least 0"),
    (DIVISIONS.replace("relegate = 3", "relegate = -1"), "", f"{B}.divisions.relegate", "at least 0"),
    (
        DIVISIONS.replace("promote = 3", "promote = 8"),
        "",
        f"{B}.divisions.promote",
        "promote + relegate (8 + 3) must be at most the division size (10)",
    ),
    (DIVISIONS.replace(", relegate = 3", ""), "", f"{B}.divisions.relegate", "required"),
    (DIVISIONS.replace(" }", ", groups = 2 }"), "", f"{B}.divisions.groups", "not a known field"),
    ("", board_band("2", "1"), f"{B}.rank_rewards[0].to", "must be at least from (2)"),
    ("", board_band("0", "1"), f"{B}.rank_rewards[0].from", "from 1 to 10000"),
    ("", board_band(rewards="[]"), f"{B}.rank_rewards[0].rewards", "at least one reward entry"),
    ("", board_band() + board_band("3", "5"), f"{B}.rank_rewards[1]", "overlap rank_rewards[0]"),
    (
        "",
        board_band(rewards='[{ type = "currency", key = "gold", amount = 1 }]'),
        f"{B}.rank_rewards[0].rewards[0].key",
        "no currency named gold is declared",
    ),
    (
        "",
        board_band(rewards='[{ type = "item", key = "sessions", amount = 1 }]'),
        f"{B}.rank_rewards[0].rewards[0].key",
        "sessions is a system item",
    ),
    ("colour = 1", "", f"{B}.colour", "not a known field"),
]


@pytest.mark.parametrize(("fields", "tables", "path", "fragment"), BOARD_REFUSALS)
def test_leaderboard_field_refused(fields: str, tables: str, path: str, fragment: str) -> None:
    found, message = only_problem(board(fields, tables))
    assert found == path
    assert fragment in message


@pytest.mark.parametrize("key", ["Weekly", "-x", "x" * 65, "a.b"])
def test_leaderboard_key_refused(key: str) -> None:
    text = board().replace("leaderboards.b]", f'leaderboards."{key}"]')
    path, message = only_problem(text)
    assert path == f"games.g.leaderboards.{key}"
    assert "lower-case letters" in message


@pytest.mark.parametrize(
    "fields",
    [
        'order = "asc"\nperiod = "daily"\naggregation = "best"',
        'period = "monthly"\naggregation = "latest"',
        'divisions = { size = 2, tiers = ["only"], promote = 0, relegate = 0 }',
        # promote + relegate = size
        'divisions = { size = 2, tiers = ["a", "b"], promote = 1, relegate = 1 }',
        'divisions = { size = 10000, tiers = ["a", "b"], promote = 10000, relegate = 0 }',
    ],
)
def test_leaderboard_boundary_values_are_accepted(fields: str) -> None:
    parse_manifest(board(fields))


def test_leaderboard_problems_are_all_reported_at_once() -> None:
    fields = (
        'name = ""\nperiod = "hourly"\n'
        'divisions = { size = 1, tiers = ["a", "a"], promote = -2, relegate = 0 }\n'
    )
    tables = board_band("2", "1") + board_band(
        "1", "5", rewards='[{ type = "currency", key = "gold", amount = 1 }]'
    )
    assert set(problems_of(board(fields, tables))) == {
        f"{B}.name",
        f"{B}.period",
        f"{B}.divisions.size",
        f"{B}.divisions.tiers[1]",
        f"{B}.divisions.promote",
        f"{B}.rank_rewards[0].to",
        f"{B}.rank_rewards[1].rewards[0].key",
    }


def test_an_event_feeds_declared_boards_of_its_own_game() -> None:
    feeding = EVENT_TABLE.replace("[games.g.events.e]", f"[{E}]") + 'feeds = ["b"]\n'
    settings = parse_manifest(board(extra=feeding)).games["g"].settings()
    assert settings.of(EVENT_SETTINGS)["e"].feeds == ("b",)


def test_an_event_may_not_feed_another_games_board_or_one_board_twice() -> None:
    other_game = '[games.h]\nname = "H"\n[games.h.leaderboards.elsewhere]\nname = "X"\n'
    feeding = EVENT_TABLE + 'feeds = ["b", "elsewhere", "b", "nope"]\n'
    problems = problems_of(board(extra=feeding + other_game))
    assert problems == {
        f"{E}.feeds[1]": "no shared leaderboard named elsewhere is declared in this game",
        f"{E}.feeds[2]": "repeats the leaderboard b",
        f"{E}.feeds[3]": "no shared leaderboard named nope is declared in this game",
    }


def test_leaderboards_keep_manifest_order_and_a_game_without_them_has_none() -> None:
    text = EVENT_GAME + "".join(BOARD_TABLE.replace("leaderboards.b]", f"leaderboards.{k}]") for k in "zam")
    assert list(parse_manifest(text).games["g"].settings().of(LEADERBOARD_SETTINGS)) == ["z", "a", "m"]
    assert parse_manifest(BASE).games["g"].settings().of(LEADERBOARD_SETTINGS) == {}
