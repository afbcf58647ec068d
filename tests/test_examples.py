"""examples/ run as written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize(
    ("script", "expect"),
    [
        ("embedded_simulation.py", "ada  sessions=7 streak=7 platform=ios app=1.0.0"),
        ("embedded_simulation.py", "platform=smart-fridge (unregistered)"),
        ("quickstart.py", "second register refused: player_already_registered"),
    ],
)
def test_example_runs(script: str, expect: str) -> None:
    assert expect in _output(script)


def test_support_desk_example_grants_by_hand_with_a_personal_key_and_finds_it_audited() -> None:
    out = _output("support_desk.py")
    assert "signed in as owner@demo.test (OWNER) in studio demo" in out
    assert "granted by hand: 100 coins, pending" in out
    assert "audit: grant.manual_create on player:ada-" in out
    assert "by personal_key from 127.0.0.1" in out
    assert "now shows 1 pending grant(s), source admin" in out


# The examples that call a server, and the variables that name a running one.
CLIENT_EXAMPLES = {
    "quickstart.py": "LIVECORE_CLIENT_KEY and LIVECORE_SERVER_KEY",
    "friends.py": "LIVECORE_CLIENT_KEY",
    "gifts.py": "LIVECORE_CLIENT_KEY",
    "crate_drop.py": "LIVECORE_CLIENT_KEY and LIVECORE_SERVER_KEY",
    "studio_backend_grants.py": "LIVECORE_SERVER_KEY",
    "support_desk.py": "LIVECORE_PERSONAL_KEY, LIVECORE_URL and LIVECORE_CLIENT_KEY",
}
# An example run as on the plain install: none of the server's modules can be imported (each one's entry
# in sys.modules is None, which is what find_spec answers and what an import refuses).
AS_ON_A_PLAIN_INSTALL = """
import runpy, sys
from livecore_server.entry import SERVER_MODULES
for name in SERVER_MODULES:
    sys.modules[name] = None
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def _without_variables(*command: str, **variables: str) -> subprocess.CompletedProcess[str]:
    """``command`` run with no ``LIVECORE_`` variable but ``variables``, as a newcomer's fresh shell."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LIVECORE_")} | variables
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False, env=env)


@pytest.mark.parametrize("script", sorted(CLIENT_EXAMPLES))
def test_a_client_example_without_its_variables_on_the_plain_install_says_so_in_one_line(script: str) -> None:
    result = _without_variables(sys.executable, "-c", AS_ON_A_PLAIN_INSTALL, str(EXAMPLES / script))
    assert (result.returncode, result.stdout) == (1, ""), result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"Error: {script} needs {CLIENT_EXAMPLES[script]} ("), line
    assert "(missing: aiohttp, " in line, line
    assert line.endswith('install them with: pip install "livecore[server]"'), line


def test_the_support_desk_with_a_key_and_no_player_to_help_says_so_in_one_line() -> None:
    result = _without_variables(
        sys.executable, str(EXAMPLES / "support_desk.py"), LIVECORE_PERSONAL_KEY="svc_pk_" + "x" * 43
    )
    assert (result.returncode, result.stdout) == (1, ""), result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith("Error: support_desk.py needs LIVECORE_PLAYER"), line


def test_daily_quests_example_runs_the_studio_area_embedded() -> None:
    out = _output("daily_quests.py")
    assert "day 1: ada checks in again: refused, quest_already_checked_in" in out
    assert "day 3: ada checks in, streak 3, granted 150 gold (pending)" in out
    # Day 4 missed: the hourly sweep ended the streak; day 5 starts a new one.
    assert "  after the night's sweeps: streak 0, best 3" in out
    assert "day 5: ada checks in, streak 1, granted 50 gold (pending)" in out
    assert "bea gifts ada before her first check-in: refused, quest_check_in_first; events added: 0" in out
    assert "bea checks in, then gifts ada: pending" in out
    assert "webhooks: quest.checked_in x5" in out


def _output(script: str) -> str:
    """What the example prints, run as a user runs it; it must exit 0."""
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / script)], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_live_event_example_runs_a_whole_window() -> None:
    out = _output("live_event.py")
    # The refusals: over the anti-cheat cap, and a second start the player cannot pay for.
    assert "fox  progress: refused, anti_cheat_rejected" in out
    assert "fox   1100: completed, flagged=True" in out
    assert "ada  start: refused, insufficient_entry_cost" in out
    assert "around cy: 4. eli, 5. ada, 6. cy" in out
    # The closed window's board: best first, unfinished attempts expired, the top three paid.
    board = out[out.index("final board (finalized):") :].splitlines()[1:7]
    assert board == [
        "  1. fox   1100  completed  +500 coins",
        "  2. dee    710  expired  +200 coins",
        "  3. bo     685  expired  +200 coins",
        "  4. eli    520  expired",
        "  5. ada    368  completed",
        "  6. cy     324  expired",
    ]
    assert "leaderboard.finalized x1" in out


def test_lobby_event_example_fills_a_lobby_with_bots_at_fill_by_and_prints_its_board() -> None:
    out = _output("lobby_event.py")
    assert ": forming, 10/12 seats" in out
    assert ": active (timeout), bots: " in out
    assert "ada  start: refused, attempt_in_progress" in out
    # The closed lobby's board: twelve ranks, the two bots among the players and marked.
    board = out[out.index("its board (finalized):") :].splitlines()[1:13]
    assert [line.split(".")[0].strip() for line in board] == [str(r) for r in range(1, 13)]
    assert sum(line.endswith("(bot)") for line in board) == 2
    assert "   1. Dee                468" in board
    assert (
        "lobby webhooks: lobby.bot_filled x1, lobby.closed x1, lobby.created x1, lobby.fill_timeout x1,"
        " lobby.player_joined x10, lobby.started x1"
    ) in out


def test_weekly_league_example_promotes_and_relegates_week_by_week() -> None:
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / "weekly_league.py")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    weeks = out.split("Week ")[1:]
    assert [w.split(" (")[0] for w in weeks] == [
        "1: 2026-03-02 to 2026-03-09",
        "2: 2026-03-09 to 2026-03-16",
        "3: 2026-03-16 to 2026-03-23",
    ]
    # Week 1: everyone starts in bronze, in two full divisions; each promotes its best, and the lowest
    # tier relegates nobody.
    assert ("  bronze 1:" in weeks[0], "  bronze 2:" in weeks[0], "  silver 1:" in weeks[0]) == (
        True,
        True,
        False,
    )
    assert "  promoted: ada, cy; relegated: nobody" in weeks[0]
    # Week 2: the silver division of two promotes min(1, 2 // 2) = 1 and relegates the one left.
    assert (
        "  silver 1:\n    1. ada   1104  +100 coins  -> gold\n    2. cy     925  +50 coins  -> bronze\n"
        in weeks[1]
    )
    assert "  promoted: ada, eli, gus; relegated: cy" in weeks[1]
    # Week 3: alone in gold, the highest tier, ada cannot go up and is the one its division relegates.
    assert "  gold 1:\n    1. ada    836  +100 coins  -> silver\n" in weeks[2]
    assert "  promoted: cy, eli; relegated: ada, gus" in weeks[2]
    assert "webhooks: leaderboard.period_finalized x3" in out
    assert out.rstrip().endswith(
        "tiers now: ada silver, bo bronze, cy silver, dee bronze, eli gold, fox bronze, gus bronze, "
        "hal bronze"
    )


def test_team_race_example_pays_milestones_to_every_member_and_ranks_the_first_to_the_goal() -> None:
    out = _output("team_race.py")
    assert "team red: ada, bo, cy (goal 1200)" in out
    assert "red unlocked half at 604: 3/3 paid (ada, bo, cy)" in out
    assert "blue unlocked almost at 906: 3/3 paid (dee, eli, fox)" in out
    # Both teams stop at the goal; blue got there ten seconds earlier, and the tie goes to it.
    assert "blue reached the goal at 18:14:00: score frozen at 1200" in out
    assert "red reached the goal at 18:14:10: score frozen at 1200" in out
    assert "first to the goal: blue" in out
    board = out[out.index("final team board:") :].splitlines()[1:3]
    assert board == [
        "  1. blue   1200  goal  +300 coins each to 3",
        "  2. red    1200  goal  +100 coins each to 3",
    ]


def test_guild_story_example_founds_joins_by_request_helps_and_hands_over() -> None:
    out = _output("guild_story.py")
    assert "'Rogue Pilots' refused: guild_name_rejected" in out
    assert "ada founded 'Star Pilots' (request, FR): paid 100 coins, 50 left" in out
    assert "members: ada (leader), bo (member), cy (co_leader)" in out
    assert "cy offering 6: invalid_request (the request lacks only 5)" in out
    assert (
        "  grant to bo: 5 energy (guild_help, pending)\n  grant to cy: 2 coins (guild_help_reward, pending)"
        in out
    )
    assert "request filled: 5/5; cy has 3 energy left" in out
    assert "ada handed over: ada (co_leader), bo (member), cy (leader)" in out


def test_crate_drop_example_sends_a_crate_and_opens_it_once() -> None:
    out = _output("crate_drop.py")
    assert "the studio sent 2 gem-box: crate, pending" in out
    assert "claiming it like a reward: refused, crate_must_be_opened" in out
    assert "opened: the crate is claimed; it gave " in out
    assert "contents grant: claimed, sourceKind=crate, from the crate: True" in out
    assert "the retried open answers the same contents: True" in out
    assert "opening it again: refused, grant_already_claimed" in out


def test_the_notebook_example_reads_a_seasons_tables_and_a_comparisons_rows() -> None:
    out = _output("notebook/season_tables.py")
    assert "tables: segments, players, " in out and ", economy.coins.daily, " in out
    assert "day 3: coins minted " in out
    assert "the bronze chest at 80 coins rather than 100:\n  offers.bronze-chest.purchases: " in out


def test_the_readme_lists_every_example() -> None:
    readme = (EXAMPLES.parent / "README.md").read_text()
    missing = [p.name for p in sorted(EXAMPLES.glob("*.py")) if f"(examples/{p.name})" not in readme]
    assert missing == []
