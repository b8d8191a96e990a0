"""Fair play in the terminal (issue 13): chance fixed per ply, so undo then the same moves
replays the same dice, cards and trap stages; against AI undo never crosses a revealed outcome
unless the game is practice; no undo after the end."""

from __future__ import annotations

import pytest
from rich.console import Console

import trapworks
from trapworks.cli.terminal import TerminalSession
from trapworks.core import CHANCE, GameRecord, undo_refusal

GAMES = [
    ("mouse-trap", {"players": 2}),
    ("dead-end-drive", {"players": 2}),
    ("last-mouse-lost", {"first_player": "random", "first_to": 2}),
    ("booby-trap", {"pieces_per_size": 4}),
]


def chance_plies(state) -> dict[int, str]:
    """Ply -> chance outcome text, replayed from the state's origin."""
    record = GameRecord.from_state(state)
    out = {}
    for ply, (before, text) in enumerate(zip(record.states(), record.actions, strict=False)):
        if before.current_player() == CHANCE:
            out[ply] = text
    return out


class Script:
    """Hot-seat play: the first `moves` human decisions play their first legal move; then undo
    back to the start; then the same moves again; then quit."""

    def __init__(self, moves: int):
        self.moves = moves
        self.session: TerminalSession | None = None
        self.played: list[str] = []
        self.first: object = None
        self.undos = 0
        self.replayed = 0

    def __call__(self, prompt: str) -> str:
        state = self.session.state
        if len(self.played) < self.moves:
            text = state.action_to_string(state.legal_actions()[0])
            self.played.append(text)
            return text
        if self.first is None:
            self.first = state.clone()
        if self.undos < self.moves:
            self.undos += 1
            return "undo"
        if self.replayed < self.moves:
            self.replayed += 1
            return self.played[self.replayed - 1]
        return "quit"


@pytest.mark.parametrize("game_id,options", GAMES)
def test_undo_then_redo_replays_the_same_chance_outcomes(game_id, options, tmp_path):
    game = trapworks.make(game_id, **options)
    moves = 6
    script = Script(moves)
    session = TerminalSession(
        game,
        ["human"] * game.num_players(),
        ask=script,
        console=Console(record=True, width=160),
        save_dir=tmp_path,
    )
    script.session = session
    session.run()
    assert script.undos == moves and script.replayed == moves
    first, second = script.first, session.state
    assert second.history() == first.history()  # same moves, and the same chance outcomes
    assert second.position() == first.position()
    if game.has_chance:
        assert chance_plies(first), "the scripted play met no chance node"
        assert chance_plies(second) == chance_plies(first)


def test_seeded_terminal_draws_chance_from_the_seed_key(tmp_path):
    """--seed N stands for a key (randomness.seed_key): the same seed, the same dice."""
    game = trapworks.make("mouse-trap", players=2)
    histories = []
    for _ in range(2):
        box: dict = {"n": 0}

        def ask(_prompt, box=box):
            box["n"] += 1
            if box["n"] > 6:
                return "quit"
            state = box["session"].state
            return state.action_to_string(state.legal_actions()[0])

        s = TerminalSession(
            game, ["human", "human"], seed=5, ask=ask, console=Console(record=True), save_dir=tmp_path
        )
        box["session"] = s
        s.run()
        histories.append(s.state.history())
    assert histories[0] == histories[1] and len(histories[0]) >= 8


def play_until_outcome_then_undo(practice: bool, tmp_path):
    """You against the heuristic in Mouse Trap: roll (a die is revealed), then try undo."""
    game = trapworks.make("mouse-trap", players=2)
    said = []
    state_box = {}
    lines = iter(["roll", "undo", "quit"])

    def ask(prompt):
        return next(lines)

    console = Console(record=True, width=200)
    s = TerminalSession(
        game, ["human", "heuristic"], seed=3, ask=ask, console=console, save_dir=tmp_path, practice=practice
    )
    s.run()
    state_box["state"] = s.state
    said = console.export_text()
    return said, s


def test_undo_refused_across_a_revealed_die_against_ai(tmp_path):
    said, session = play_until_outcome_then_undo(False, tmp_path)
    assert "Not undone" in said and "revealed outcome" in said
    record = GameRecord.load(session.saved_path)
    assert record.practice is False


def test_practice_game_may_undo_a_revealed_die_and_is_marked(tmp_path):
    said, session = play_until_outcome_then_undo(True, tmp_path)
    assert "Not undone" not in said and "Took back" in said
    assert "Practice game" in said
    assert GameRecord.load(session.saved_path).practice is True


def test_no_undo_after_the_end():
    game = trapworks.make("last-mouse-lost", first_to=1)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    for practice in (False, True):
        assert "game is over" in undo_refusal(state, 1, against_ai=True, practice=practice)
        assert "game is over" in undo_refusal(state, 1, against_ai=False, practice=practice)


def test_booby_trap_touch_and_removal_are_revealed_outcomes():
    """A touch reveals a reading and a removal how the tray settles: against AI neither can be
    taken back (no feeling a second piece in one turn, no trying a removal again)."""
    state = trapworks.make("booby-trap", pieces_per_size=4).new_initial_state(seed=1)
    piece = state.legal_actions()[0]
    state.apply_action(piece)
    assert state.revealed_upto() == 1
    assert undo_refusal(state, 1, against_ai=True, practice=False)
    assert undo_refusal(state, 1, against_ai=True, practice=True) is None
    state.apply_action(state.game.pass_action)
    assert state.revealed_upto() == 1  # a pass reveals nothing
    assert undo_refusal(state, 1, against_ai=True, practice=False) is None
