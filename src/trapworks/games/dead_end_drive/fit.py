"""Fit the weights of 13 Dead End Drive's evaluation (evaluation.py) on the heuristic's self-play:
a conditional logit of which pawn wins, given each pawn's features. An offline tool, kept apart
from the evaluation itself so that the evaluation (which the agents use) imports no agent:

    python -m trapworks.games.dead_end_drive.fit --games 1500 --seed 11
"""

from __future__ import annotations

import argparse
import math
import random

import numpy as np

from trapworks.core import CHANCE, sample_chance

from .agents import HeuristicAgent
from .evaluation import FEATURES, pawn_features
from .game import DeadEndDriveGame, DeadEndDriveState


# --- fitting --------------------------------------------------------------------------
def _collect(games: int, seed: int, every: int = 3):
    game = DeadEndDriveGame()
    rng = random.Random(seed)
    samples = []  # (list of feature vectors, index of the winner among them)
    for _ in range(games):
        agents = [HeuristicAgent(game, s, seed=rng.randrange(2**63)) for s in range(4)]
        state = game.new_initial_state(seed=rng.randrange(2**63))
        assert isinstance(state, DeadEndDriveState)
        taken = []
        k = 0
        while not state.is_terminal():
            p = state.current_player()
            if p == CHANCE:
                state.apply_action(sample_chance(state, rng))
                continue
            k += 1
            if k % every == 0:
                taken.append(pawn_features(state))
            state.apply_action(agents[p].step(state))
        if state.is_truncated() or state.winner_pawn is None:
            continue
        for feats in taken:
            pawns = [p for p, _ in feats]
            if state.winner_pawn in pawns and len(pawns) > 1:
                samples.append(([x for _, x in feats], pawns.index(state.winner_pawn)))
    return samples


def fit(samples, steps: int = 300, l2: float = 1e-3) -> dict[str, float]:
    """Maximum likelihood of the conditional logit (Newton's method, a little L2)."""

    k = len(FEATURES)
    w = np.zeros(k)
    blocks = [(np.array(x), y) for x, y in samples]
    for _ in range(steps):
        grad = -l2 * w
        hess = -l2 * np.eye(k)
        for x, y in blocks:
            s = x @ w
            s -= s.max()
            p = np.exp(s)
            p /= p.sum()
            mean = p @ x
            grad += x[y] - mean
            xc = x - mean
            hess -= (xc * p[:, None]).T @ xc
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return {f: round(float(v), 4) for f, v in zip(FEATURES, w, strict=False)}


def log_likelihood(samples, weights: dict[str, float]) -> float:
    w = [weights[f] for f in FEATURES]
    total = 0.0
    for xs, y in samples:
        scores = [sum(a * b for a, b in zip(w, x, strict=False)) for x in xs]
        top = max(scores)
        total += scores[y] - top - math.log(sum(math.exp(s - top) for s in scores))
    return total / len(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description="Fit the evaluation's weights on heuristic self-play.")
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    samples = _collect(args.games, args.seed)
    cut = int(len(samples) * 0.8)
    weights = fit(samples[:cut])
    print(f"{len(samples)} positions; fitted on {cut}, held out {len(samples) - cut}")
    print(
        "held-out mean log-likelihood: fitted "
        f"{log_likelihood(samples[cut:], weights):.4f}, "
        f"uniform {log_likelihood(samples[cut:], dict.fromkeys(FEATURES, 0.0)):.4f}"
    )
    print("WEIGHTS = {")
    for f in FEATURES:
        print(f"    {f!r}: {weights[f]},")
    print("}")


if __name__ == "__main__":
    main()
