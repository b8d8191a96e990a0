"""The heuristic agent, terminal play and `trapworks simulate dead-end-drive`."""

import io
import json

from dd_helpers import game, play, state_at
from rich.console import Console
from typer.testing import CliRunner

import trapworks
from trapworks import sim
from trapworks.agents import available_agents, make_agent
from trapworks.cli import app
from trapworks.cli.terminal import TerminalSession
from trapworks.games.dead_end_drive.components import LETTERS


def test_registered_with_its_agent():
    assert "dead-end-drive" in trapworks.available_games()
    g = game()
    assert {"random", "heuristic"} <= set(available_agents(g))
    assert g.has_hidden_information and g.has_chance


def test_heuristic_beats_random_clearly():
    results = list(
        sim.run(
            "dead-end-drive",
            24,
            ["heuristic", "random", "random", "random"],
            {"players": 4},
            seed=17,
            rotate=True,
        )
    )
    summary = sim.summarise(results)
    # random would win a quarter of these; the heuristic must win far more than that
    assert summary.truncated == 0
    assert summary.agent_wins.get("heuristic", 0) / summary.games > 0.6, summary.to_dict()


def test_heuristic_escapes_with_its_own_portrait_pawn():
    s = state_at(dice="6,1", pawns={"S": "m17"}, portrait="S", turn=1)  # player 1 owns S
    agent = make_agent("heuristic", s.game, 0, seed=0)
    s.apply_action(agent.step(s))
    s.apply_action(agent.step(s))
    assert s.is_terminal() and s.win_reason == "escape" and s.winner_seat() == 0


def test_heuristic_does_not_let_an_unknown_portrait_pawn_escape():
    s = state_at(dice="6,1", pawns={"L": "m17"}, portrait="L", turn=1)  # L is player 2's
    agent = make_agent("heuristic", s.game, 0, seed=0)
    for _ in range(4):
        if s.current_player() != 0:
            break
        s.apply_action(agent.step(s))
    assert not s.is_terminal()


def test_heuristic_springs_traps_on_pawns_it_does_not_own():
    s = state_at(dice="5,1", pawns={"L": "f8"}, traps="f/-/-/-", turn=1)
    agent = make_agent("heuristic", s.game, 0, seed=0)
    for _ in range(3):
        s.apply_action(agent.step(s))
    assert s.pos[LETTERS.index("L")] == -1


def test_heuristic_bluffs_on_its_own_pawn():
    s = state_at(dice="5,1", pawns={"S": "b10"}, traps="f/-/-/-", pile="f", turn=1)
    play(s, "S1", "to b9")  # its own pawn is on the fireplace trap
    agent = make_agent("heuristic", s.game, 0, seed=0)
    s.apply_action(agent.step(s))
    assert s.phase == "drawn"  # it drew instead of playing its fireplace card
    s.apply_action(agent.step(s))
    assert s.pos[0] != -1 and sorted(c for c, _, _ in s.hands[0]) == [1, 1]
    why = (agent.explain(s) or "").lower()  # a sentence now (typed reason in English)
    assert "bluff" in why or "keep" in why


def test_terminal_play_shows_the_map_and_hides_other_hands(tmp_path):
    out = io.StringIO()
    console = Console(file=out, width=160, highlight=False)
    lines = iter(["moves", "board", "quit"])
    g = game(4)
    session = TerminalSession(
        g,
        ["human", "random", "random", "random"],
        seed=3,
        ask=lambda _: next(lines),
        console=console,
        save_dir=tmp_path,
    )
    session.run()
    text = out.getvalue()
    assert "Your pawns (secret)" in text and "Legal moves:" in text and "   a b c d e f" in text
    mine = {LETTERS[p] for p in session.state.chars[0]}
    others = [p for seat in (1, 2, 3) for p in session.state.chars[seat]]
    from trapworks.games.dead_end_drive import NAMES as names

    for p in others:
        assert f"{names[p]} ({LETTERS[p]})" not in text.split("Your pawns (secret):")[1].splitlines()[0]
    assert mine


def test_terminal_game_between_agents_runs_to_the_end(tmp_path):
    out = io.StringIO()
    g = game(4)
    session = TerminalSession(
        g,
        ["heuristic"] * 4,
        seed=5,
        ask=lambda _: "quit",
        console=Console(file=out, width=160),
        save_dir=tmp_path,
    )
    final = session.run()
    assert final.is_terminal()
    assert "Winner: Player" in out.getvalue() or "without a winner" in out.getvalue()


def test_cli_simulate_and_play(tmp_path, monkeypatch):
    runner = CliRunner()
    res = runner.invoke(
        app,
        [
            "simulate",
            "dead-end-drive",
            "-n",
            "4",
            "-a",
            "heuristic,random,random,random",
            "--json",
            "--seed",
            "2",
        ],
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout.strip().splitlines()[-1])
    assert data["games"] == 4 and data["truncated"] == 0
    monkeypatch.setenv("TRAPWORKS_HOME", str(tmp_path))
    res = runner.invoke(
        app, ["play", "dead-end-drive", "--players", "4", "--seed", "1"], input="moves\nquit\n"
    )
    assert res.exit_code == 0, res.output
    assert "13 Dead End Drive" in res.output and "Record saved" in res.output
    res = runner.invoke(app, ["play", "dead-end-drive", "--players", "5"])
    assert res.exit_code != 0 and "players" in res.output


def test_easy_and_medium_are_the_heuristic_with_less_and_less_noise():
    from trapworks.agents.levels import level_spec

    g = game()
    assert level_spec(g, "easy")[0] == level_spec(g, "medium")[0] == "heuristic"
    assert level_spec(g, "easy")[1]["noise"] > level_spec(g, "medium")[1]["noise"] > 0
    assert level_spec(g, "hard")[0] == "ismcts"  # tests/dead_end_drive/test_dd_search.py
    results = list(
        sim.run(
            "dead-end-drive", 16, ["heuristic", "easy", "easy", "easy"], {"players": 4}, seed=5, rotate=True
        )
    )
    summary = sim.summarise(results)
    assert summary.agent_wins.get("heuristic", 0) / summary.games > 0.4, (
        summary.to_dict()
    )  # a fair share is 0.25
    import pytest

    with pytest.raises(ValueError, match="noise"):
        make_agent("heuristic", g, 0, noise=2)


def test_terminal_agents_and_hints_play_from_their_seats_view_only(tmp_path, monkeypatch):
    # As on the server (SeatPlayer): an agent or a hint gets the position as its seat may know
    # it, other seats' secret characters re-drawn, never the true state.
    session = TerminalSession(
        game(4),
        ["heuristic"] * 4,
        seed=7,
        ask=lambda _: "quit",
        console=Console(file=io.StringIO(), width=160),
        save_dir=tmp_path,
    )
    seen: list[tuple[bool, bool]] = []  # (given the true state, other seats' characters re-drawn)

    def spying(seat, step):
        def spy(state):
            truth = session.state
            assert state.chars[seat] == truth.chars[seat]  # its own secret kept
            redrawn = any(state.chars[s] != truth.chars[s] for s in range(4) if s != seat)
            seen.append((state is truth, redrawn))
            return step(state)

        return spy

    for seat, agent in enumerate(session.agents):
        agent.step = spying(seat, agent.step)  # type: ignore[method-assign,union-attr]
    hint_positions = []
    real = TerminalSession.seat_position
    monkeypatch.setattr(
        TerminalSession,
        "seat_position",
        lambda self, seat: hint_positions.append(seat) or real(self, seat),
    )
    while session.state.current_player() < 0:  # the deal: chance
        session.state.apply_action(session.state.legal_actions()[0])
    assert session.hint().startswith("Hint: ")  # the hint agent, too, from the seat's position
    assert hint_positions == [session.state.current_player()]
    assert session.run().is_terminal()
    assert seen and not any(truth for truth, _ in seen)
    assert any(redrawn for _, redrawn in seen)  # hidden characters really are re-drawn
