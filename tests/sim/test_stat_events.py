"""A simulated Booby Trap game never makes its removal animations (issue 42 item 5): the rows'
statistics read `stat_events()`, which leaves the frames out, and come out the same as from
every event with its frames (`all_events()`, what the statistics read before)."""

from __future__ import annotations

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
