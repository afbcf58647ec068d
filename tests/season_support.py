"""A season manifest that uses every area a simulated population plays (tests of livecore.simulation.season
and of `livecore-server simulate`): a platform-managed economy (entry costs, spending), a daily solo event
feeding a daily board with divisions, a lobby event, a partner team event, an external team event, guilds
with help requests, gifting with an expiry, and a crate."""

from __future__ import annotations

from datetime import UTC, datetime

#: A Monday: the season's first day.
MONDAY = datetime(2026, 3, 2, tzinfo=UTC)

SEASON = """
studio = "acme"

[games.arena]
name = "Arena"
economy = "platform"

[games.arena.gifting]
enabled = true
cooldown_seconds = 3600
daily_send_limit = 5
claim_expiry_seconds = 43200

[games.arena.resources.coins]
type = "currency"
giftable = true
max_per_gift = 20

[games.arena.resources.gems]
type = "currency"

[games.arena.resources.potion]
type = "item"
giftable = true
max_per_gift = 2

[games.arena.events.sprint]
name = "Sprint"
starts_at = "2026-03-02T00:00:00Z"
window_seconds = 86400
repeat_every_seconds = 86400
attempt_seconds = 600
max_attempts = 3
score_metric = "score"
entry_cost = [{ type = "currency", key = "coins", amount = 5 }]
completion_rewards = [{ type = "currency", key = "coins", amount = 8 }]
feeds = ["daily"]

[[games.arena.events.sprint.milestones]]
key = "half"
threshold = 500
rewards = [{ type = "currency", key = "gems", amount = 1 }]

[[games.arena.events.sprint.milestones]]
key = "moon"
threshold = 100000
rewards = [{ type = "currency", key = "gems", amount = 50 }]

[[games.arena.events.sprint.rank_rewards]]
from = 1
to = 3
rewards = [{ type = "currency", key = "gems", amount = 5 }]

[games.arena.events.duel]
name = "Duel"
starts_at = "2026-03-02T00:00:00Z"
window_seconds = 21600
repeat_every_seconds = 21600
attempt_seconds = 300
score_metric = "points"

[games.arena.events.duel.lobby]
capacity = 4
fill_seconds = 120
fill_bots = true
bot_score = { min = 100, max = 600 }

[[games.arena.events.duel.rank_rewards]]
from = 1
to = 1
rewards = [{ type = "currency", key = "gems", amount = 1 }]

[games.arena.events.relay]
name = "Relay"
starts_at = "2026-03-02T00:00:00Z"
window_seconds = 86400
repeat_every_seconds = 86400
attempt_seconds = 600
score_metric = "distance"

[games.arena.events.relay.teams]
formation = "partner"
size = 2
goal = 1500
board = true

[[games.arena.events.relay.teams.milestones]]
key = "halfway"
threshold = 750
rewards = [{ type = "currency", key = "coins", amount = 10 }]

[[games.arena.events.relay.teams.rank_rewards]]
from = 1
to = 2
rewards = [{ type = "currency", key = "gems", amount = 2 }]

[games.arena.events.raid]
name = "Raid"
starts_at = "2026-03-02T00:00:00Z"
window_seconds = 86400
repeat_every_seconds = 86400
attempt_seconds = 600
score_metric = "damage"

[games.arena.events.raid.teams]
formation = "external"
size = 3
goal = 3000
board = true

[[games.arena.events.raid.teams.rank_rewards]]
from = 1
to = 1
rewards = [{ type = "currency", key = "gems", amount = 3 }]

[games.arena.leaderboards.daily]
name = "Daily League"
period = "daily"
aggregation = "best"
divisions = { size = 10, tiers = ["bronze", "silver"], promote = 2, relegate = 2 }

[[games.arena.leaderboards.daily.rank_rewards]]
from = 1
to = 1
rewards = [{ type = "currency", key = "gems", amount = 2 }]

[games.arena.guilds]
enabled = true
max_members = 8
help = { resources = ["potion"], max_amount = 2, expiry_seconds = 7200, cooldown_seconds = 3600 }

[games.arena.crates.chest]
rolls = 1
table = [
  { weight = 1, rewards = [{ type = "currency", key = "coins", amount = 10 }] },
  { weight = 1, rewards = [{ type = "item", key = "potion", amount = 1 }] },
]
"""

#: A population for the season: two segments, the studio crediting coins at each day's first session.
POPULATION = """
[segments.keen]
share = 0.4
sessions_per_day = 3
attempts_per_session = 2
score = { mean = 0.7, sd = 0.1 }
lobbies = 0.8
teams = 0.8
friends = 6
gifts = 0.6
guilds = 0.7
spend = 0.3

[segments.casual]
share = 0.6
sessions_per_day = 1
score = { mean = 0.4 }
friends = 3

[studio]
login_credit = { coins = 20 }
crates = { chest = 0.5 }
"""


#: The fields of installs over the season and of a return curve (docs/simulation.md#the-behaviour-model).
CURVE = ("installs_over", "return_d1", "return_d7")


def steady(population: str) -> str:
    """``population`` without installs or return curves: its players all there from the start and coming
    back every day, a game's steady players (what a population fitted from history plays)."""
    return "".join(line for line in population.splitlines(keepends=True) if not line.startswith(CURVE))
