"""Print the story of one whole game of a registered game, as its log tells it, in a language.

    python scripts/story.py mouse-trap --lang fr [--seed 7] [--players 3] [--viewer 0]
                                                 [--option k=v] [--agent heuristic]

Random legal play from a seed (or every seat played by `--agent`, e.g. heuristic: shorter
games); every line formatted from the game's own catalog (trapworks.core.messages), "you" for
`--viewer` (default: nobody, as a spectator reads it).
"""

from __future__ import annotations

import argparse
import json
import random

from trapworks.agents import make_agent
from trapworks.core import make, sample_chance, story_entry
from trapworks.core.messages import Formatter, game_catalog


def story(
    game_id: str,
    lang: str,
    seed: int,
    players: int | None,
    viewer: int | None,
    options: dict,
    agent: str | None = None,
) -> list[str]:
    if players is not None:
        options = {**options, "players": players}
    state = make(game_id, **options).new_initial_state(seed=seed)
    cat = game_catalog(type(state.game))
    fmt = Formatter([cat] if cat else [], lang, viewer)
    rng = random.Random(seed)
    agents = (
        [make_agent(agent, state.game, s, seed=seed + s) for s in range(state.num_players())] if agent else []
    )
    out = []
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance(state, rng)
        elif agents:
            action = agents[state.current_player()].step(state)
        else:
            action = rng.choice(state.legal_actions())
        owner = state.story_owner(action)
        state.apply_action(action)
        entry = story_entry(owner, state, action)
        words = [fmt.format(line["msg"], line.get("args")) for line in entry["lines"]]
        words = [
            w
            for w, line in zip(words, entry["lines"], strict=True)
            if "to" not in line or viewer in line["to"]
        ]
        if words:
            out.append(" ".join(words))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--lang", default="en")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int)
    ap.add_argument("--viewer", type=int)
    ap.add_argument("--agent", help="every seat played by this agent (default: random legal moves)")
    ap.add_argument("--option", action="append", default=[], help="name=value (JSON value or text)")
    a = ap.parse_args()
    options = {}
    for o in a.option:
        k, _, v = o.partition("=")
        try:
            options[k] = json.loads(v)
        except json.JSONDecodeError:
            options[k] = v
    for i, line in enumerate(story(a.game, a.lang, a.seed, a.players, a.viewer, options, a.agent), 1):
        print(f"{i}. {line}")


if __name__ == "__main__":
    main()
