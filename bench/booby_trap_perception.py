"""Booby Trap perception (issue 25): does a touch tell more about its piece than the public view?

001: "A loose playing piece can be found only by feeling carefully the tension on the piece." So
the touch reading (private to the toucher) must tell clearly more about a piece's true tension
than anything a spectator can work out from the public tray (the pieces' positions as the eye
sees them, `game.EYE_MM`). This script takes fresh trays and played trays (random pieces
removed from fresh ones), and for every piece on them compares with the true tension (the load
of `physics.stress_of` on the exact packing):

- the touch reading a seat would get (`state.reading_for`, the game's noise model);
- the best estimate from the public view: the tray model run on trays resampled from the view
  (the hard level's `estimated_loads`, i.e. what `physics-view` computes), and a ridge regression
  fitted on public features (that estimate, its square root, the visible contacts, the size, the
  distances to the bar and the walls), fitted on half of the trays and scored on the other half
  (two folds, by tray), so that it is judged on trays it was not fitted to.

Reported per estimator: Spearman rank correlation with the true tension, mean absolute error,
and loose/held accuracy: a piece is loose when its true tension is below 0.02 of the bar's force
(the "loose" feel); every estimator gets the threshold that classifies its training fold best
(the reading's too), and "always held" is the baseline. Seeded: the same command gives the same
figures.

    python bench/booby_trap_perception.py [--fresh 12] [--played 12] [--seed 2026] [--eye 1.0]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

import trapworks
from trapworks.games.booby_trap import game as bt_game
from trapworks.games.booby_trap import physics
from trapworks.games.booby_trap.agents import PhysicsViewAgent, visible_contacts

LOOSE = 0.02  # a piece is loose below this tension (the feel word "loose")


def ranks(values: np.ndarray) -> np.ndarray:
    """Average ranks (ties share their mean rank), for Spearman's correlation."""
    order = np.argsort(values, kind="mergesort")
    r = np.empty(len(values))
    sorted_vals = values[order]
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and sorted_vals[j + 1] == sorted_vals[i]:
            j += 1
        r[order[i : j + 1]] = (i + j) / 2
        i = j + 1
    return r


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.corrcoef(ranks(a), ranks(b))[0, 1])


def tray_rows(seed: int, removals: int) -> list[dict]:
    """One row per piece of one tray: true tension, a touch reading, the public estimate, features."""
    game = trapworks.make("booby-trap")
    state = game.new_initial_state(seed)
    rng = random.Random(f"perception:{seed}")
    while state.removals < removals and not state.is_terminal():
        if state.touched is None:
            state.apply_action(rng.choice(state.touchable()))
        else:
            state.apply_action(game.remove_action)
    true = physics.stress_of(state.packing).load
    view = state.view(0)
    estimate = PhysicsViewAgent(game, 0, seed=0).estimated_loads(state)
    contacts = visible_contacts(view)
    bar = view["bar"]
    width = view["tray"]["width"]
    rows = []
    for k, p in enumerate(view["pieces"]):
        pid = p["id"]
        rows.append(
            {
                "tray": seed,
                "played": removals > 0,
                "true": true[pid],
                # A touch of this piece (a touch number of its own, so every reading has fresh noise).
                "reading": state.reading_for(pid, 10_000 + k),
                "estimate": estimate[pid],
                "contacts": contacts[pid],
                "size": p["size"],
                "to_bar": bar - p["x"] - p["r"],
                "to_wall": min(p["x"], p["y"], width - p["y"]) - p["r"],
            }
        )
    return rows


def features(rows: list[dict]) -> np.ndarray:
    cols = []
    for r in rows:
        e = max(0.0, r["estimate"])
        c = min(r["contacts"], 6)
        cols.append(
            [1.0, e, np.sqrt(e), e * e]
            + [1.0 if c == k else 0.0 for k in range(7)]
            + [1.0 if r["size"] == s else 0.0 for s in physics.SIZES]
            + [min(r["to_bar"], 60.0) / 60.0, min(r["to_wall"], 60.0) / 60.0, e * c / 6]
        )
    return np.array(cols)


def ridge(x: np.ndarray, y: np.ndarray, alpha: float = 1e-2) -> np.ndarray:
    return np.linalg.solve(x.T @ x + alpha * np.eye(x.shape[1]), x.T @ y)


def best_threshold(scores: np.ndarray, loose: np.ndarray) -> float:
    """The threshold (score below it: loose) that classifies these rows best."""
    candidates = np.unique(np.concatenate([scores, [np.inf, -np.inf]]))
    accuracy = [((scores < t) == loose).mean() for t in candidates]
    return float(candidates[int(np.argmax(accuracy))])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--fresh", type=int, default=12, help="fresh trays")
    parser.add_argument("--played", type=int, default=12, help="played trays (10-30 removals each)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--eye", type=float, default=None, help="override the eye's resolution (mm) to compare"
    )
    args = parser.parse_args()
    if args.eye is not None:
        bt_game.EYE_MM = args.eye

    started = time.perf_counter()
    rows: list[dict] = []
    for i in range(args.fresh):
        rows.extend(tray_rows(args.seed * 1000 + i, 0))
    for i in range(args.played):
        rows.extend(tray_rows(args.seed * 1000 + 500 + i, 10 + (i * 7) % 21))
    true = np.array([r["true"] for r in rows])
    loose = true < LOOSE
    trays = np.array([r["tray"] for r in rows])
    fold = np.array([hash_fold(t) for t in trays])
    x = features(rows)
    public = np.zeros(len(rows))
    for f in (0, 1):
        train, test = fold != f, fold == f
        public[test] = x[test] @ ridge(x[train], true[train])
    estimators = {
        "touch reading (private)": np.array([r["reading"] for r in rows]),
        "public: tray model on the view": np.array([r["estimate"] for r in rows]),
        "public: ridge on public features": public,
    }
    print(
        f"pieces: {len(rows)} ({sum(not r['played'] for r in rows)} on {args.fresh} fresh trays, "
        f"{sum(r['played'] for r in rows)} on {args.played} played trays); eye {bt_game.EYE_MM} mm; "
        f"touch noise {trapworks.make('booby-trap').options['tension_noise']}; "
        f"loose (true < {LOOSE}): {loose.mean():.1%}; {time.perf_counter() - started:.0f} s"
    )
    print("| estimate of the true tension | rank correlation | mean abs error | loose/held right |")
    print("|---|---|---|---|")
    for name, score in estimators.items():
        right = np.zeros(len(rows), dtype=bool)
        for f in (0, 1):
            train, test = fold != f, fold == f
            t = best_threshold(score[train], loose[train])
            right[test] = (score[test] < t) == loose[test]
        print(
            f"| {name} | {spearman(score, true):.3f} | {np.abs(score - true).mean():.3f} | "
            f"{right.mean():.1%} |"
        )
    print(f'| always "held" | - | - | {(~loose).mean():.1%} |')


def hash_fold(tray: int) -> int:
    return tray % 2


if __name__ == "__main__":
    main()
