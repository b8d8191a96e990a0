"""Golden playthroughs: seeded games recorded once; any change in rules or agents shows up as a diff.

Regenerate (after a deliberate change) with:
    python tests/dead_end_drive/test_dd_golden.py
"""

import json
import random
from pathlib import Path

import pytest

import trapworks
from trapworks.agents import make_agent
from trapworks.core import GameRecord, sample_chance

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "4p-heuristic-random": ({"players": 4}, ["heuristic", "random", "random", "random"], 101),
    "3p-heuristic": ({"players": 3}, ["heuristic", "heuristic", "heuristic"], 202),
    "2p-random-lose-turn": (
        {"players": 2, "blocked_die": "lose-turn", "after_draw": "none"},
        ["random", "random"],
        303,
    ),
}


def play(options, seats, seed):
    game = trapworks.make("dead-end-drive", **options)
    rng = random.Random(seed)
    agents = [make_agent(name, game, i, seed=seed + i) for i, name in enumerate(seats)]
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal():
        p = state.current_player()
        state.apply_action(sample_chance(state, rng) if p < 0 else agents[p].step(state))
    return state


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name):
    data = json.loads((GOLDEN / f"{name}.json").read_text())
    record = GameRecord.from_dict(data["record"])
    final = record.replay()
    assert final.position() == data["final_position"]
    options, seats, seed = CASES[name]
    again = GameRecord.from_state(play(options, seats, seed), players=seats)
    assert again.actions == record.actions


if __name__ == "__main__":
    GOLDEN.mkdir(exist_ok=True)
    for name, (options, seats, seed) in CASES.items():
        state = play(options, seats, seed)
        record = GameRecord.from_state(state, players=seats)
        record.created = ""
        (GOLDEN / f"{name}.json").write_text(
            json.dumps({"record": record.to_dict(), "final_position": state.position()}, indent=1) + "\n"
        )
        print(name, len(record.actions), "actions,", state.win_reason)
