"""A simulated Booby Trap game never makes its removal animations (issue 42 item 5): the rows'
statistics read `stat_events()`, which leaves the frames out, and come out the same as from
every event with its frames (`all_events()`, what the statistics read before)."""

from __future__ import annotations

import random

import trapworks
from trapworks.core import sample_chance
from trapworks.games.booby_trap import game as booby_trap_game
from trapworks.sim import play_one

QUICK = {"pieces_per_size": 2}


def test_a_simulated_game_makes_no_animation_and_keeps_its_statistics(monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(booby_trap_game.BoobyTrapState, "stat_events", booby_trap_game.BoobyTrapState.all_events)
        with_frames = play_one("booby-trap", QUICK, ["random", "random"], 3)

    def no_frames(self):
        raise AssertionError("a simulation made a removal's animation")

    monkeypatch.setattr(booby_trap_game._LazyFrames, "frames", no_frames)
    result = play_one("booby-trap", QUICK, ["random", "random"], 3)
    assert result.stats["removals"] > 0
    assert result.to_dict() == with_frames.to_dict()


def test_a_simulated_dead_end_drive_game_finds_no_path_and_keeps_its_statistics(monkeypatch):
    """13 Dead End Drive's moves: their paths (for drawing them) are left out of stat_events, and
    the rows are those the events with their paths gave."""
    from trapworks.games.dead_end_drive import board
    from trapworks.games.dead_end_drive import game as dead_end_drive_game

    options = {"players": 3}
    with monkeypatch.context() as m:
        state_class = dead_end_drive_game.DeadEndDriveState
        m.setattr(state_class, "stat_events", state_class.all_events)
        with_paths = play_one("dead-end-drive", options, ["random"] * 3, 3)

    def no_path(*args, **kwargs):
        raise AssertionError("a simulation looked for a move's path")

    monkeypatch.setattr(board.Mansion, "path", no_path)
    result = play_one("dead-end-drive", options, ["random"] * 3, 3)
    assert result.decisions > 20
    assert result.to_dict() == with_paths.to_dict()
    # The events the page reads still draw every move, after the statistics read theirs.
    monkeypatch.undo()
    state = trapworks.make("dead-end-drive", **options).new_initial_state(3)
    rng = random.Random(3)
    moves = []
    while not state.is_terminal() and len(moves) < 5:
        actions = state.legal_actions() if not state.is_chance_node() else [sample_chance(state, rng)]
        state.apply_action(rng.choice(actions))
        assert all("path" not in e for e in state.stat_events() if e["type"] == "move")
        moves += [e for e in state.all_events() if e["type"] == "move"]
    assert len(moves) == 5 and all(e["path"] for e in moves)
