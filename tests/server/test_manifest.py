"""The TOML manifest (docs/reference/manifest-and-cli.md#manifest): parsing, defaults, and every validation
rule with its field path."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from livecore.games import (
    Economy,
    FriendsSettings,
    GameSettings,
    GiftingSettings,
    PresenceSettings,
    Resource,
    ResourceType,
)
from livecore.ratelimit import BucketName
from livecore.scope import Environment, Permission
from livecore_server.manifest import (
    ApiKeyManifest,
    Manifest,
    ManifestError,
    ResourceManifest,
    WebhookManifest,
    demo_manifest,
    demo_manifest_text,
    load_manifest,
    parse_manifest,
)

# A manifest with every section (docs/reference/manifest-and-cli.md#manifest).
DECISIONS_EXAMPLE = """
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
    manifest = parse_manifest(DECISIONS_EXAMPLE)

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
    assert game.resources == {
        "coins": ResourceManifest(
            type=ResourceType.CURRENCY, giftable=True, max_per_gift=100, costs_sender=False
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
    key = parse_manifest(DECISIONS_EXAMPLE).games["space-race"].api_keys["ci-client"]
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
    assert {key: (r.type, r.giftable, r.max_per_gift) for key, r in game.resources.items()} == {
        "coins": (ResourceType.CURRENCY, True, 100),
        "gems": (ResourceType.CURRENCY, True, 10),
        "xp": (ResourceType.CURRENCY, True, 50),
        "energy-potion": (ResourceType.ITEM, True, 3),
    }
    assert game.api_keys == {
        "demo-client": ApiKeyManifest(env=Environment.TEST, permission=Permission.CLIENT_SDK),
        "demo-server": ApiKeyManifest(env=Environment.TEST, permission=Permission.SERVER_INTEGRATION),
    }
    assert game.webhooks == {}


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
    gold = game.resources["gold"]
    assert (gold.giftable, gold.max_per_gift, gold.costs_sender) == (False, None, False)


def test_partial_tables_keep_the_other_defaults() -> None:
    game = parse_manifest(BASE + "\n[games.g.gifting]\ndaily_send_limit = 3\n").games["g"]
    assert game.gifting == GiftingSettings(daily_send_limit=3)


def test_resource_manifest_defaults_agree_with_core_resource() -> None:
    core = {f.name: f.default for f in attrs.fields(Resource) if f.name not in ("key", "type")}
    mine = {f.name: f.default for f in attrs.fields(ResourceManifest) if f.name != "type"}
    assert mine == core


def test_studio_without_games_is_valid() -> None:
    assert parse_manifest('studio = "acme"\n') == Manifest(studio="acme")


def test_platform_economy() -> None:
    game = parse_manifest(BASE.replace('name = "G"', 'name = "G"\neconomy = "platform"')).games["g"]
    assert game.economy is Economy.PLATFORM


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
        gifting=GiftingSettings(enabled=True, cooldown_seconds=60),
        presence=PresenceSettings(ttl_seconds=30),
        friends=FriendsSettings(max_friends=50),
        resources={
            "coins": Resource(
                key="coins", type=ResourceType.CURRENCY, giftable=True, max_per_gift=9, costs_sender=True
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
        "at least 1",
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
        "must be one of sdk_read, sdk_write, server_api, admin",
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
        "games.space-race.resources.coins.max_per_gift": "must be at least 1",
        "games.space-race.api_keys.ci-client.env": "must be one of test, live",
        "games.space-race.api_keys.ci-client.rate_limits.sdk_write": problems[
            "games.space-race.api_keys.ci-client.rate_limits.sdk_write"
        ],
        "games.space-race.api_keys.ci-client.rate_limits.nope": (
            "must be one of sdk_read, sdk_write, server_api, admin"
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
    path.write_text(DECISIONS_EXAMPLE, encoding="utf-8")
    assert load_manifest(path) == parse_manifest(DECISIONS_EXAMPLE)
    assert load_manifest(str(path)) == parse_manifest(DECISIONS_EXAMPLE)


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
