"""The trapworks command: solve, simulate, play (driven line by line) and replay."""

import json
import random

import pytest
from rich.console import Console
from typer.testing import CliRunner

import trapworks
from trapworks.cli import app
from trapworks.cli.terminal import TerminalSession
from trapworks.core import GameRecord

runner = CliRunner()


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAPWORKS_HOME", str(tmp_path))
    return tmp_path


def test_help_everywhere():
    for args in ([], ["play"], ["replay"], ["solve"], ["simulate"], ["games"]):
        result = runner.invoke(app, args + ["--help"])
        assert result.exit_code == 0 and "Usage" in result.output


def test_games_lists_last_mouse_lost():
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0 and "last-mouse-lost" in result.output


def test_solve_json():
    result = runner.invoke(app, ["solve", "last-mouse-lost", "ooo/ooooo/oooooo/oooooo/ooooo/oo.", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["outcome"] == "win" and data["move"] == "a1" and data["nim_sum"] == 1
    result = runner.invoke(app, ["solve", "last-mouse-lost", "ooo/ooooo/oooooo/oooooo/ooooo/ooo", "--json"])
    assert json.loads(result.output) | {} and json.loads(result.output)["move"] is None


def test_solve_advanced_text():
    result = runner.invoke(app, ["solve", "last-mouse-lost", "oooooo/o.o", "--rules", "advanced"])
    assert result.exit_code == 0
    assert "wins with best play" in result.output and "Winning move:" in result.output


@pytest.mark.parametrize(
    "args, words",
    [
        (["solve", "last-mouse-lost", "ooxo"], "bad position"),
        (["solve", "last-mouse-lost", "ooo", "--rules", "expert"], "basic or advanced"),
        (["solve", "nope", "ooo"], "unknown game"),
        (["simulate", "last-mouse-lost", "-n", "5", "--agents", "random,wizard"], "unknown agent 'wizard'"),
        (["simulate", "last-mouse-lost", "-n", "5", "-o", "rules"], "key=value"),
        (["play", "last-mouse-lost", "--seats", "human"], "1 seats given for a 2-player game"),
    ],
)
def test_cli_errors_are_clear(args, words):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert words in result.output


def test_simulate_summary_json():
    result = runner.invoke(
        app,
        [
            "simulate",
            "last-mouse-lost",
            "-n",
            "60",
            "--agents",
            "perfect,random",
            "--rotate",
            "--json",
            "-o",
            "first_to=1",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output.strip().splitlines()[-1])
    assert data["games"] == 60 and data["truncated"] == 0
    assert sum(data["seat_wins"]) == 60
    assert data["agent_wins"]["perfect"] >= 55  # random rarely survives a perfect player


def test_simulate_table_and_results_file(tmp_path):
    out = tmp_path / "games.csv"
    result = runner.invoke(app, ["simulate", "last-mouse-lost", "-n", "20", "--out", str(out)])
    assert result.exit_code == 0
    assert "seat 1" in result.output and "Game length" in result.output
    assert len(out.read_text().splitlines()) == 21  # a header and one row per game


def scripted(session_ref, extra):
    """An `ask` that first sends `extra` lines, then the solver's move (or any legal move)."""
    lines = list(extra)

    def ask(prompt):
        if lines:
            return lines.pop(0)
        state = session_ref[0].state
        return state.action_to_string(random.Random(len(state.history())).choice(state.legal_actions()))

    return ask


def test_play_a_whole_match_against_perfect(tmp_path):
    game = trapworks.make("last-mouse-lost")
    console = Console(record=True, width=100)
    ref = []
    session = TerminalSession(
        game,
        ["human", "perfect"],
        seed=1,
        console=console,
        save_dir=tmp_path,
        ask=scripted(ref, ["help", "moves", "hint", "c9", "c1-2", "c6", "undo"]),
    )
    ref.append(session)
    final = session.run()
    text = console.export_text()
    assert "Commands:" in text and "Legal moves:" in text and "Hint:" in text
    assert "Not played: row c has 6 raised mice; cannot press 9" in text
    assert "Took back 2 moves." in text
    assert "wins the match" in text and "Winner: Player 2 (perfect)" in text
    assert final.is_terminal()
    record = GameRecord.load(session.saved_path)
    assert record.replay().position() == final.position()
    assert record.players == ["human", "perfect"]


def test_two_humans_and_undo(tmp_path):
    game = trapworks.make("last-mouse-lost", first_to=1, rules="advanced")
    console = Console(record=True, width=100)
    answers = iter(["c3", "undo", "c1-6", "d1-6", "quit"])
    session = TerminalSession(
        game, ["human", "human"], console=console, save_dir=tmp_path, ask=lambda prompt: next(answers)
    )
    state = session.run()
    text = console.export_text()
    assert "Took back 1 move." in text
    assert state.position().split()[0] == "ooo/ooooo/....../....../ooooo/ooo"
    assert "Leaving the game." in text


def test_replay_command_prints_every_step(tmp_path):
    state = trapworks.make("last-mouse-lost", first_to=1).new_initial_state()
    for t in ("c6", "d6", "b5", "e5", "a3", "f2", "f1"):
        state.apply_action(state.string_to_action(t))
    path = GameRecord.from_state(state, players=["a", "b"]).save(tmp_path / "g.json")
    result = runner.invoke(app, ["replay", str(path), "--all"])
    assert result.exit_code == 0, result.output
    assert "Move 7: f1" in result.output and "Match over" in result.output
    result = runner.invoke(app, ["replay", str(path), "--at", "2"])
    assert "ooo/ooooo/....../....../ooooo/ooo" in result.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "last-mouse-lost", "actions": ["c6", "c1"]}')
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 2 and "step 2 ('c1')" in result.output
