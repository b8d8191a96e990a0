"""Booby Trap agents, terminal play and `trapworks simulate booby-trap`."""

import json

from rich.console import Console
from typer.testing import CliRunner

import trapworks
from trapworks.agents import available_agents, make_agent
from trapworks.cli import app
from trapworks.cli.terminal import TerminalSession
from trapworks.games.booby_trap import physics
from trapworks.sim import run, summarise


def test_agents_are_registered():
    game = trapworks.make("booby-trap")
    assert {"heuristic", "physics-view", "random"} <= set(available_agents(game))
    # The oracle reads the true stress network: analysis only, never offered to play against.
    assert "oracle" not in available_agents(game) and "heuristic-stress" not in available_agents(game)
    assert "booby-trap" in trapworks.available_games()


def test_heuristic_removes_a_piece_that_feels_loose_and_explains():
    state = trapworks.make("booby-trap", tension_noise=0.0).new_initial_state(1)
    load = physics.stress_of(state.packing).load
    loose = next(p for p in state.touchable() if load[p] == 0.0)
    state.apply_action(loose)
    agent = make_agent("heuristic", state.game, 0, seed=0)
    assert agent.step(state) == state.game.remove_action
    assert "loose" in agent.explain(state)


def test_heuristic_never_reads_the_stress_network(monkeypatch):
    """The touch heuristic plays from its view: forbidding the stress network's use by anything
    but the rules' own touch readings must not change its moves."""
    state = trapworks.make("booby-trap").new_initial_state(2)
    agent = make_agent("heuristic", state.game, 0, seed=0)
    first = agent.step(state)
    view_calls = []
    original = type(state).view

    def spy(self, seat=None):
        view_calls.append(seat)
        return original(self, seat)

    monkeypatch.setattr(type(state), "view", spy)
    # A fresh agent with the same seed: the first one's generator has moved on (ties draw from it).
    again = make_agent("heuristic", state.game, 0, seed=0)
    assert again.step(state) == first
    assert view_calls == [0]


def test_oracle_touches_an_unloaded_piece():
    state = trapworks.make("booby-trap").new_initial_state(0)
    agent = make_agent("oracle", state.game, 0, seed=0)
    piece = agent.step(state)
    # 'Unloaded' as the agent means it: below its loose_below share of the bar's force.
    assert physics.stress_of(state.packing).load[piece] < agent.loose_below
    state.apply_action(piece)
    assert agent.step(state) == state.game.remove_action


def test_heuristic_beats_random_clearly():
    summary = summarise(run("booby-trap", 6, ["heuristic", "random"], {}, seed=11, rotate=True))
    assert summary.truncated == 0
    assert summary.agent_wins.get("heuristic", 0) >= 5


def test_the_oracle_beats_the_touch_heuristic():
    summary = summarise(run("booby-trap", 4, ["oracle", "heuristic"], {}, seed=12, rotate=True))
    assert summary.agent_wins.get("oracle", 0) >= 3


def test_terminal_play_touch_then_remove():
    game = trapworks.make("booby-trap", players=2)
    state = game.new_initial_state(0)
    load = physics.stress_of(state.packing).load
    loose = next(p for p in state.touchable() if load[p] == 0.0)
    lines = iter([f"touch {loose}", "remove", "quit"])
    console = Console(record=True, width=140)
    session = TerminalSession(
        game, ["human", "random"], seed=0, ask=lambda _: next(lines), console=console, start=state.position()
    )
    session.save = lambda path=None: None  # keep the test's files out of the data folder
    session.run()
    out = console.export_text()
    assert "Your readings since the last removal" in out  # the human's own reading is shown
    assert f"removes piece {loose}" in out
    assert "Booby Trap" in out and "Player 1: net" in out


def test_simulate_command_json():
    result = CliRunner().invoke(
        app,
        [
            "simulate",
            "booby-trap",
            "-n",
            "2",
            "-a",
            "oracle,random",
            "--json",
            "-o",
            "pieces_per_size=6",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert data["games"] == 2 and data["truncated"] == 0


def test_simulate_solitaire_and_bad_option():
    result = CliRunner().invoke(
        app,
        [
            "simulate",
            "booby-trap",
            "-n",
            "1",
            "-a",
            "heuristic",
            "--json",
            "-o",
            "variant=solitaire",
            "-o",
            "pieces_per_size=5",
        ],
    )
    assert result.exit_code == 0, result.output
    bad = CliRunner().invoke(app, ["simulate", "booby-trap", "-n", "1", "-o", "variant=speed"])
    assert bad.exit_code != 0 and "choose one of" in bad.output


def test_levels_are_the_games_own_agents():
    game = trapworks.make("booby-trap")
    easy, medium, hard = (make_agent(level, game, 0, seed=0) for level in ("easy", "medium", "hard"))
    assert (easy.name, medium.name, hard.name) == ("heuristic", "heuristic", "physics-view")
    assert easy.loose_below > medium.loose_below  # easy takes more risks
