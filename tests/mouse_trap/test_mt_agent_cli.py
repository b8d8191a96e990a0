"""Mouse Trap: the heuristic agent, terminal play and simulation through the generic CLI."""

import json
import random

from typer.testing import CliRunner

import trapworks
from mouse_trap.mt_helpers import game, legal, play, pos, roll
from trapworks.agents import available_agents, make_agent
from trapworks.cli import app
from trapworks.core import sample_chance
from trapworks.sim import run, summarise


def test_heuristic_is_registered():
    assert "heuristic" in available_agents(game())
    assert "mouse-trap" in trapworks.available_games()


def test_heuristic_cranks_when_it_can():
    state = pos("mice=45,49,47 cheese=3,0,0 parts=24", players=3)
    roll(state, 1)
    agent = make_agent("heuristic", state.game, 0, seed=1)
    assert state.action_to_string(agent.step(state)) == "crank"
    assert "crank" in agent.explain(state)


def test_heuristic_pays_only_for_mice_within_one_die():
    # Player 2 is 2 spaces from the Wheel, player 3 is 29 away: pay for player 2 only.
    state = pos("mice=45,47,20 cheese=3,0,0 parts=24", players=3)
    roll(state, 1)
    agent = make_agent("heuristic", state.game, 0, seed=1)
    assert state.action_to_string(agent.step(state)) == "move:2"
    far = pos("mice=45,10,20 cheese=3,0,0 parts=24", players=3)
    roll(far, 1)
    assert legal(far) == ["move:2", "move:3", "end"]
    assert far.action_to_string(agent.step(far)) == "end"


def test_heuristic_prefers_the_richer_target_and_steals_from_the_richest():
    state = pos("mice=45,47,48 cheese=3,1,6 pile=20 parts=24", players=3)
    roll(state, 1)
    agent = make_agent("heuristic", state.game, 0, seed=1)
    assert state.action_to_string(agent.step(state)) == "move:3"
    tie = pos("mice=0,0,0 cheese=10,10,10 pile=0 parts=0", players=3)
    roll(tie, 2)
    play(tie, tie.action_to_string(agent.step(tie)))
    assert tie.action_to_string(agent.step(tie)) in ("steal:2", "steal:3")


def test_heuristic_beats_random_more_often_than_not():
    """Seat 0 heuristic vs three random seats, 4 players, rotated: a sanity check on the agent.
    With crank_required off, as in 003: under 000's "turn the crank" (the variant's default) the
    rule itself makes the random seats crank whenever they can, which is most of the skill."""
    results = list(
        run(
            "mouse-trap",
            160,
            ["heuristic", "random", "random", "random"],
            {"players": 4, "trap_reliability": 1.0, "crank_required": False},
            seed=3,
            rotate=True,
        )
    )
    summary = summarise(results)
    assert summary.truncated < 8
    share = summary.agent_wins.get("heuristic", 0) / (summary.games - summary.truncated)
    assert share > 0.25 + 0.1  # well above a quarter, the share of a seat with no skill


def test_games_end_in_wins_with_a_reliable_trap():
    g = game(players=3, trap_reliability=1.0)
    rng = random.Random(7)
    wins = 0
    for i in range(60):
        state = g.new_initial_state()
        agents = [make_agent("heuristic", g, s, seed=i) for s in range(3)]
        while not state.is_terminal():
            state.apply_action(
                sample_chance(state, rng)
                if state.is_chance_node()
                else agents[state.current_player()].step(state)
            )
        wins += not state.is_truncated()
    assert wins == 60


# --- CLI ----------------------------------------------------------------------------------------


def test_cli_games_lists_mouse_trap(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAPWORKS_HOME", str(tmp_path))
    out = CliRunner().invoke(app, ["games"])
    assert out.exit_code == 0 and "mouse-trap" in out.output


def test_cli_play_three_players(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAPWORKS_HOME", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "100")
    lines = "roll\nmoves\nhint\nroll\nboard\nquit\n"
    out = CliRunner().invoke(
        app,
        ["play", "mouse-trap", "--players", "3", "--seats", "human,heuristic,random", "--seed", "4"],
        input=lines,
    )
    assert out.exit_code == 0, out.output
    assert "Mouse Trap · milton-bradley · 3 players" in out.output
    assert "Player 2 (heuristic) plays roll" in out.output
    assert "Contraption" in out.output and "The Loop" in out.output
    assert "Record saved to" in out.output
    saved = list((tmp_path / "records").glob("mouse-trap-*.json"))
    assert saved and json.loads(saved[0].read_text())["options"]["players"] == 3


def test_cli_play_reports_bad_input_and_goes_on(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAPWORKS_HOME", str(tmp_path))
    out = CliRunner().invoke(
        app,
        ["play", "mouse-trap", "--seats", "human,random", "--seed", "1"],
        input="crank\nmove:9\nroll\nquit\n",
    )
    assert out.exit_code == 0, out.output
    assert "it is time to roll the die" in out.output and "no player 9" in out.output


def test_cli_play_from_a_position_to_the_end(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAPWORKS_HOME", str(tmp_path))
    out = CliRunner().invoke(
        app,
        [
            "play",
            "mouse-trap",
            "--seats",
            "human,random",
            "-o",
            "trap_reliability=1.0",
            "--position",
            "mice=46,49 cheese=0,0 parts=24 phase=crank",
        ],
        input="crank\n",
    )
    assert out.exit_code == 0, out.output
    assert "caught" in out.output and "Winner: Player 1" in out.output


def test_cli_simulate(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAPWORKS_HOME", str(tmp_path))
    out = CliRunner().invoke(
        app,
        [
            "simulate",
            "mouse-trap",
            "-n",
            "30",
            "--players",
            "4",
            "-o",
            "variant=original",
            "-a",
            "heuristic",
            "--json",
        ],
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output.strip().splitlines()[-1])
    assert data["games"] == 30 and sum(data["seat_wins"]) + data["truncated"] == 30


def test_cli_simulate_rejects_bad_options(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAPWORKS_HOME", str(tmp_path))
    out = CliRunner().invoke(app, ["simulate", "mouse-trap", "-n", "3", "--players", "5"])
    assert out.exit_code != 0 and "2 to 4 players" in out.output
