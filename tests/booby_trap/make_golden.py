"""Write the golden playthroughs (one recorded game per variant) that test_golden.py replays.

    python tests/booby_trap/make_golden.py

Run it only when a change of the rules or of the tray model is intended; the diff of the JSON
files then shows what changed.
"""

from __future__ import annotations

import json
from pathlib import Path

import trapworks
from trapworks.agents import make_agent
from trapworks.core import GameRecord

HERE = Path(__file__).resolve().parent / "golden"
GAMES = {
    "regular": ({"players": 3, "pieces_per_size": 8}, ["heuristic", "random", "oracle"]),
    "solitaire": ({"variant": "solitaire", "pieces_per_size": 8}, ["heuristic"]),
    "sizes-in-order": ({"variant": "sizes-in-order", "pieces_per_size": 8}, ["heuristic", "random"]),
    "no-passes": ({"variant": "no-passes", "pieces_per_size": 8}, ["random", "heuristic"]),
}


def play(variant: str) -> dict:
    options, seats = GAMES[variant]
    game = trapworks.make("booby-trap", **options)
    state = game.new_initial_state(1965)
    agents = [make_agent(name, game, s, seed=s) for s, name in enumerate(seats)]
    removals = []
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()].step(state))
        for e in state.last_events():
            if e["type"] == "removal":
                removals.append([e["seat"], e["piece"], e["tripped"], e["popped"]])
    record = GameRecord.from_state(state, players=seats)
    return {
        "record": record.to_dict() | {"created": ""},
        "removals": removals,
        "final_position": state.position(),
        "returns": state.returns(),
    }


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for variant in GAMES:
        (HERE / f"{variant}.json").write_text(json.dumps(play(variant), indent=1) + "\n")
        print("wrote", variant)


if __name__ == "__main__":
    main()
