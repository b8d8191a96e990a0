"""Levels (easy/medium/hard) through make_agent and available_agents; the tournament command;
and small seat-rotated strength checks on Last Mouse Lost."""

from __future__ import annotations

import csv
import json
import math
import random

import pytest
from search_toy_games import MiniPoker, TreeGame, TreeState
from typer.testing import CliRunner

import trapworks
from trapworks.agents import RandomAgent, available_agents, make_agent
from trapworks.agents.ismcts import ISMCTSAgent
from trapworks.agents.levels import GENERIC_LEVELS, HARD_TIME_LIMIT, describe_levels, level_spec
from trapworks.agents.mcts import MCTSAgent
from trapworks.cli import app
from trapworks.cli.tournament import Standings, elo_ratings, lineups, wilson
from trapworks.core import TrapworksError, play_game
from trapworks.core.spec import AgentSpec, GameSpec

runner = CliRunner()


def test_last_mouse_lost_hard_is_the_exact_solver_and_easier_levels_search():
    game = trapworks.make("last-mouse-lost")
    assert level_spec(game, "hard")[0] == "perfect"
    assert type(make_agent("medium", game, 0, seed=1)) is MCTSAgent


def test_levels_are_offered_for_every_registered_game():
    for gid in trapworks.available_games():
        game = trapworks.make(gid)
        names = available_agents(game)
        assert names[:3] == ["easy", "medium", "hard"]
        assert ("mcts" in names) == (not game.has_hidden_information)
        for level in ("easy", "medium", "hard"):
            agent_name, _ = level_spec(game, level)
            assert agent_name in names


def test_levels_map_to_search_with_growing_budgets():
    game = TreeGame(tree_seed=0)  # a game that declares no levels of its own
    agents = {lv: make_agent(lv, game, 0, seed=1) for lv in ("easy", "medium", "hard")}
    assert all(type(a) is MCTSAgent for a in agents.values())
    assert agents["easy"].iterations < agents["medium"].iterations < agents["hard"].iterations
    assert agents["hard"].time_limit == HARD_TIME_LIMIT
    assert agents["hard"].level == "hard"
    # The toy game declares no rollout agent: the levels use random rollouts there.
    assert agents["hard"].heuristic_share == 0.0
    poker = {lv: make_agent(lv, MiniPoker(), 0, seed=1) for lv in ("easy", "hard")}
    assert all(type(a) is ISMCTSAgent for a in poker.values())
    assert poker["hard"].heuristic_share == GENERIC_LEVELS["hard"]["heuristic_share"]


def test_a_game_can_declare_its_own_levels():
    class Tuned(TreeGame):
        pass

    def declare(levels):
        """Tuned's spec with these levels (a spec is frozen: a new one is linked in its place)."""
        return GameSpec(
            game=Tuned,
            state=TreeState,
            agents=(
                AgentSpec("heuristic", RandomAgent, "Plays anything"),
                AgentSpec("perfect", RandomAgent, "Plays anything too"),
            ),
            rollout_agent="heuristic",
            levels=levels,
        )

    declare({"hard": "perfect", "medium": {"iterations": 77, "heuristic_share": 0.0}})
    game = Tuned()
    assert level_spec(game, "hard") == ("perfect", {})
    agent, spec = level_spec(game, "medium")
    assert agent == "mcts" and spec["iterations"] == 77 and "rollout" not in spec
    assert make_agent("medium", game, 0).iterations == 77
    # An entry naming another agent with settings gets only its own settings.
    declare({"easy": {"agent": "heuristic", "noise": 0.4}})
    assert level_spec(Tuned(), "easy") == ("heuristic", {"noise": 0.4})
    declare({"hard": "perfect", "medium": {"iterations": 77, "heuristic_share": 0.0}})
    assert describe_levels(game)["hard"] == "perfect"
    # Options given to make_agent win over the level's.
    assert make_agent("easy", game, 0, iterations=5).iterations == 5

    class Broken(TreeGame):
        pass

    with pytest.raises(TrapworksError, match="levels"):
        GameSpec(game=Broken, state=TreeState, levels={"hard": 3})


def test_unknown_level_or_agent_names_the_choices():
    with pytest.raises(TrapworksError, match="easy, medium, hard"):
        level_spec(trapworks.make("last-mouse-lost"), "expert")
    with pytest.raises(TrapworksError, match="available: easy, medium, hard"):
        make_agent("expert", trapworks.make("last-mouse-lost"), 0)


def test_simulate_and_play_accept_levels():
    result = runner.invoke(
        app,
        [
            "simulate",
            "last-mouse-lost",
            "-n",
            "4",
            "-a",
            "easy,random",
            "--rotate",
            "-o",
            "first_to=1",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert data["games"] == 4 and sum(data["agent_games"].values()) == 8
    # play: the seat list is checked against available_agents (an unknown level is refused).
    bad = runner.invoke(app, ["play", "last-mouse-lost", "--seats", "human,expert"])
    assert bad.exit_code == 2 and "hard" in bad.output


def test_wilson_interval_known_values():
    lo, hi = wilson(8, 10)
    assert math.isclose(lo, 0.4902, abs_tol=1e-4) and math.isclose(hi, 0.9433, abs_tol=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(0, 20)
    assert lo == 0.0 and 0.16 < hi < 0.17
    assert wilson(50, 100)[0] < 0.5 < wilson(50, 100)[1]


def test_elo_orders_agents_and_gives_400_points_for_ten_to_one():
    """OpenSpiel's Elo: ten wins to one is 400 points; an unbeaten agent's rating stays finite."""
    ratings = elo_ratings({("a", "b"): 9091, ("b", "a"): 909}, {}, ["a", "b"])
    assert math.isclose(ratings["a"] - ratings["b"], 400, abs_tol=1)
    assert math.isclose((ratings["a"] + ratings["b"]) / 2, 1500, abs_tol=1e-6)
    unbeaten = elo_ratings({("a", "b"): 20, ("b", "c"): 15, ("c", "b"): 5}, {("b", "c"): 3}, ["a", "b", "c"])
    assert unbeaten["a"] > unbeaten["b"] > unbeaten["c"] and math.isfinite(unbeaten["a"])


def test_lineups_and_standings():
    assert lineups(["a", "b", "c"], 2) == [["a", "b"], ["a", "c"], ["b", "c"]]
    # fewer agents than seats: one series with every agent (seats filled in turn: sim.seats_for)
    assert lineups(["a", "b"], 4) == [["a", "b"]]
    st = Standings(["a", "b", "c"])
    st.add(["a", "b", "c"], [0], False)
    st.add(["b", "a", "c"], [], True)
    assert st.wins == {"a": 1} and st.draws == {"a": 1, "b": 1, "c": 1}
    assert st.pairs[("a", "b")] == [1.5, 2] and st.pairs[("b", "c")] == [1.0, 2]
    assert st.beat == {("a", "b"): 1, ("a", "c"): 1} and st.tied == {
        ("a", "b"): 1,
        ("a", "c"): 1,
        ("b", "c"): 2,
    }


def test_tournament_command_rotates_seats_and_saves_csv(tmp_path):
    out = tmp_path / "t.csv"
    result = runner.invoke(
        app,
        [
            "tournament",
            "last-mouse-lost",
            "--agents",
            "easy,random,medium",
            "-n",
            "4",
            "-o",
            "first_to=1",
            "--seed",
            "3",
            "--out",
            str(out),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert data["series"] == [["easy", "random"], ["easy", "medium"], ["random", "medium"]]
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 12
    for series in data["series"]:
        seatings = [(r["agent_seat1"], r["agent_seat2"]) for r in rows if r["series"] == ",".join(series)]
        assert seatings == [tuple(series), tuple(reversed(series))] * 2  # seats rotate
    standings = {r["agent"]: r for r in data["standings"]}
    assert sum(r["games"] for r in standings.values()) == 24
    assert sum(r["wins"] for r in standings.values()) == 12  # one winner per game
    summary = list(csv.DictReader((tmp_path / "t-summary.csv").open()))
    assert {r["agent"] for r in summary} == {"easy", "random", "medium"}
    for r in data["standings"]:
        assert r["ci_low"] <= r["win_rate"] <= r["ci_high"]
    # Same seed, same games and seatings (the moves of the levels also depend on their time
    # caps, which a loaded machine may reach; reproducible search is tested with iteration budgets).
    again = runner.invoke(
        app,
        [
            "tournament",
            "last-mouse-lost",
            "--agents",
            "easy,random,medium",
            "-n",
            "4",
            "-o",
            "first_to=1",
            "--seed",
            "3",
            "--out",
            str(tmp_path / "u.csv"),
            "--json",
        ],
    )
    assert again.exit_code == 0
    rows_again = list(csv.DictReader((tmp_path / "u.csv").open()))
    assert [(r["seed"], r["agent_seat1"]) for r in rows_again] == [
        (r["seed"], r["agent_seat1"]) for r in rows
    ]


@pytest.mark.parametrize(
    "args,message",
    [
        (["--agents", "random"], "at least two agents"),
        (["--agents", "random,wizard"], "unknown agent 'wizard'"),
        (["--agents", "random,random"], "listed twice"),
        (["--agents", "random,easy", "-n", "0"], "-n must be at least 1"),
        (["--agents", "random,easy", "-o", "bogus=1"], "unknown option bogus"),
    ],
)
def test_tournament_bad_input_is_named(args, message, tmp_path):
    result = runner.invoke(app, ["tournament", "last-mouse-lost", *args, "--out", str(tmp_path / "x.csv")])
    assert result.exit_code == 2
    assert message in result.output


def _rotated_wins(game, strong, weak, n, seed, **strong_options):
    """Wins of `strong` over `n` games against `weak`, seats swapped every game."""
    rng = random.Random(seed)
    wins = 0
    for i in range(n):
        seat = i % 2
        agents = [None, None]
        agents[seat] = make_agent(strong, game, seat, seed=rng.randrange(2**63), **strong_options)
        agents[1 - seat] = make_agent(weak, game, 1 - seat, seed=rng.randrange(2**63))
        final = play_game(game.new_initial_state(), agents, rng)
        wins += seat in final.winners()
    return wins


@pytest.mark.parametrize("strong,weak,n", [("medium", "random", 20), ("hard", "easy", 12)])
def test_levels_are_stronger_than_the_level_below_with_95_confidence(strong, weak, n):
    """Seat-rotated single rounds of Last Mouse Lost (002, basic rules): the stronger agent's
    Wilson 95% lower bound on its win rate is above one half. (Hard runs on its iteration
    budget alone here, without the time cap, so the result does not depend on machine load.)"""
    game = trapworks.make("last-mouse-lost", first_to=1)
    wins = _rotated_wins(game, strong, weak, n, seed=2, time_limit=None)
    assert wilson(wins, n)[0] > 0.5, (wins, n)


def test_tournament_with_fewer_agents_than_seats_fills_and_rotates(tmp_path):
    """Two agents in a 3-player game fill the seats in turn (A,B,A) and shift one seat per game
    (trapworks.sim.seats_for: over two games each agent holds every seat once)."""
    if "mouse-trap" not in trapworks.available_games():
        pytest.skip("mouse-trap not registered")
    out = tmp_path / "mt.csv"
    result = runner.invoke(
        app,
        [
            "tournament",
            "mouse-trap",
            "--agents",
            "heuristic,random",
            "-n",
            "3",
            "--players",
            "3",
            "--out",
            str(out),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(out.open()))
    assert [",".join(r[f"agent_seat{k}"] for k in (1, 2, 3)) for r in rows] == [
        "heuristic,random,heuristic",
        "random,heuristic,random",
        "heuristic,random,heuristic",
    ]
    data = json.loads(result.stdout.strip().splitlines()[-1])
    games = {r["agent"]: r["games"] for r in data["standings"]}
    assert games == {"heuristic": 3, "random": 3}
