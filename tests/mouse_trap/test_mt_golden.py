"""Golden playthroughs: one recorded 3-player game per variant (heuristic agents, fixed seeds),
replayed action by action. Any change in rules behaviour shows up as a different final position or
an action that no longer replays.

Regenerate (after a deliberate rules change, and say so in the commit):
    .venv/bin/python tests/mouse_trap/test_mt_golden.py
"""

import json
import random
from pathlib import Path

import pytest

import trapworks
from trapworks.agents import make_agent
from trapworks.core import GameRecord, sample_chance

HERE = Path(__file__).resolve().parent / "golden"
CASES = {
    "milton-bradley": {"players": 3, "variant": "milton-bradley"},
    "original": {"players": 3, "variant": "original"},
}


def _play(options: dict, seed: int):
    game = trapworks.make("mouse-trap", **options)
    rng = random.Random(seed)
    agents = [make_agent("heuristic", game, s, seed=seed) for s in range(game.num_players())]
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal():
        state.apply_action(
            sample_chance(state, rng)
            if state.is_chance_node()
            else agents[state.current_player()].step(state)
        )
    return state


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough_replays(name):
    data = json.loads((HERE / f"{name}.json").read_text())
    record = GameRecord.from_dict(data["record"])
    assert record.options == trapworks.make("mouse-trap", **CASES[name]).public_options()
    final = record.replay()
    assert final.position() == data["final_position"]
    assert final.returns() == data["record"]["result"]
    assert any(a == "crank" for a in record.actions)


if __name__ == "__main__":
    HERE.mkdir(exist_ok=True)
    for name, options in CASES.items():
        for seed in range(100):
            state = _play(options, seed)
            record = GameRecord.from_state(state, players=["heuristic"] * 3)
            # A game that shows the trap both jamming and catching.
            if "crank" in record.actions and "jams" in record.actions and not state.is_truncated():
                break
        record.created = ""
        payload = {"seed": seed, "final_position": state.position(), "record": record.to_dict()}
        (HERE / f"{name}.json").write_text(json.dumps(payload, indent=1) + "\n")
        print(name, seed, state.position(), len(record.actions))
