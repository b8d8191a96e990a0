"""Write the golden Last Mouse Lost games that test_golden.py replays.

    python tests/last_mouse_lost/make_golden.py

Written with the node-table engine before the bitboard rewrite (issue 19), so the replay checks
that the rewrite kept every rule, action id, notation, position text, view and event. Run it again
only when a change of the rules or notation is intended; the JSON diff then shows what changed.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import trapworks
from trapworks.agents import make_agent
from trapworks.core import GameRecord, sample_chance

HERE = Path(__file__).resolve().parent / "golden"
# name -> (options, seat agents)
GAMES: dict[str, tuple[dict, list[str]]] = {
    "basic-standard": ({}, ["random", "random"]),
    "advanced-standard": ({"rules": "advanced"}, ["random", "random"]),
    "basic-heuristic-loser": ({"opener": "loser", "first_player": 1}, ["heuristic", "random"]),
    "advanced-heuristic-winner": ({"rules": "advanced", "opener": "winner"}, ["random", "heuristic"]),
    "advanced-perfect-same-drawn": (
        {"rules": "advanced", "opener": "same", "first_player": "random", "first_to": 4},
        ["perfect", "random"],
    ),
    "basic-odd-board-drawn": (
        {"board": [1, 16, 2, 9, 7], "first_player": "random", "first_to": 2},
        ["random", "heuristic"],
    ),
    "advanced-long-rows": (
        {"rules": "advanced", "board": [16, 15, 1, 12], "first_to": 2},
        ["random", "random"],
    ),
}


def play(name: str, seed: int = 2002) -> dict:
    options, seats = GAMES[name]
    game = trapworks.make("last-mouse-lost", **options)
    state = game.new_initial_state(seed)
    agents = [make_agent(a, game, s, seed=seed + s) for s, a in enumerate(seats)]
    rng = random.Random(seed)
    steps = []
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            action = agents[state.current_player()].step(state)
        legal = state.legal_actions()
        text = state.action_to_string(action)
        state.apply_action(action)
        steps.append(
            {
                "action": action,
                "text": text,
                "legal": legal,
                "position": state.position(),
                "events": state.last_events(),
                # every 4th step: the whole view a seat gets (legal moves as shown, rows, score)
                **({"view": state.view(len(steps) % 2)} if len(steps) % 4 == 0 else {}),
            }
        )
    record = GameRecord.from_state(state, players=seats)
    return {
        "options": options,
        "seats": seats,
        "seed": seed,
        "record": record.to_dict() | {"created": ""},
        "steps": steps,
        "final_view": state.view(0),
        "render": state.render_text(),
        "returns": state.returns(),
    }


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for name in GAMES:
        (HERE / f"{name}.json").write_text(json.dumps(play(name), indent=0) + "\n")
        print("wrote", name)


if __name__ == "__main__":
    main()
