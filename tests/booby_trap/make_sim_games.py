"""Write the seeded games that test_settle_loop.py plays again (issue 42 item 5).

    PYTHONPATH=src python tests/booby_trap/make_sim_games.py

Each game is played as `trapworks simulate` plays it (`trapworks.sim.play_one`) and stored with
what the physics decided, exactly: the row `simulate` writes (its record, statistics, result) and
every removal resolved on the way: the tray it started from and the tray it left (fingerprints of
their exact floats), the bar's travel (repr: bit for bit), trip, thrown-out pieces, steps.
Written with the code before the settle loop moved to C (main at 185a468); run it again only
when a change of the tray model is intended: the diff then shows what changed.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from trapworks.games.booby_trap import physics
from trapworks.sim import play_one

HERE = Path(__file__).resolve().parent / "data" / "sim-games.json"
# (options, seats, seed): the default game (20 pieces a size, 2 players) and two smaller variants
# with the heuristic agent, which reads the tray's stress.
GAMES = [
    ({}, ["random", "random"], 42),
    ({"players": 3, "pieces_per_size": 8}, ["heuristic", "random", "random"], 7),
    ({"variant": "no-passes", "pieces_per_size": 10}, ["random", "heuristic"], 1965),
]


def fingerprint(packing: physics.Packing) -> str:
    """A packing's exact floats (repr round-trips them) in 16 hex digits."""
    return hashlib.sha256(repr(packing).encode()).hexdigest()[:16]


def play(options: dict, seats: list[str], seed: int) -> dict:
    """One game as simulate plays it, with every removal the physics resolved (the agents' own
    look-aheads included), in the order asked."""
    removals: list[list] = []
    resolve = physics.resolve_removal

    def recording(packing, piece, frames=False, tape=False):
        r = resolve(packing, piece, frames=frames, tape=tape)
        outcome = [repr(r.travel), r.tripped, list(r.popped), r.steps, r.slipped, r.at_rest]
        removals.append([fingerprint(packing), piece, *outcome, fingerprint(r.after)])
        return r

    physics.resolve_removal = recording  # type: ignore[assignment]
    try:
        row = play_one("booby-trap", options, seats, seed, keep_record=True).to_dict()
    finally:
        physics.resolve_removal = resolve
    return {"options": options, "seats": seats, "seed": seed, "row": row, "removals": removals}


def main() -> None:
    games = [play(*g) for g in GAMES]
    HERE.write_text(json.dumps(games, indent=1, sort_keys=True) + "\n")
    print("wrote", HERE)


if __name__ == "__main__":
    main()
