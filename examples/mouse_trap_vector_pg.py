"""Policy gradient on Mouse Trap through the batched vector environment (issue 31).

A linear softmax policy over the observation tensor, masked to the legal actions, trained with
REINFORCE (a running-mean baseline) in 256 games at once against the random opponent, 2 players.
It prints the learning seat's win rate over the last 2,000 finished games at each report; the
heuristic agent wins 66.6% of games against random (the batched engine, 20,000 games), random
against random 50.6%. One run (the command below, 2 min of CPU): 0.583 after 25 updates, 0.646
after 50, 0.650 after 150.

    python examples/mouse_trap_vector_pg.py [--updates 150] [--seed 0]

`--game last-mouse-lost` runs the same loop on Last Mouse Lost's vector environment (board 1-2-3,
one round, against random; the C engine's step-wise batch). One run (seed 0, 13 s of CPU): 0.514
after 25 updates, 0.540 after 100, 0.601 after 150.
"""

from __future__ import annotations

import argparse
from collections import deque

import gymnasium
import numpy as np

import trapworks.adapters.gymnasium  # noqa: F401  (registers the ids)

# game -> (Gymnasium id, options): each backed by the game's batched vector environment
GAMES = {
    "mouse-trap": ("trapworks/MouseTrap-v0", {"players": 2}),
    "last-mouse-lost": ("trapworks/LastMouseLost-v0", {"board": [1, 2, 3], "first_to": 1}),
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--updates", type=int, default=150)
    ap.add_argument("--steps", type=int, default=64, help="environment steps per update")
    ap.add_argument("--num-envs", type=int, default=256)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--game", choices=sorted(GAMES), default="mouse-trap")
    args = ap.parse_args()
    env_id, options = GAMES[args.game]
    envs = gymnasium.make_vec(env_id, num_envs=args.num_envs, opponents="random", **options)
    rng = np.random.default_rng(args.seed)
    obs, info = envs.reset(seed=args.seed)
    n_obs = obs.shape[1]
    n_act = info["action_mask"].shape[1]
    weights = np.zeros((n_obs, n_act))
    baseline = 0.0
    results: deque[float] = deque(maxlen=2000)
    # per environment: the (observation, mask, action) of its unfinished episode
    episodes: list[list[tuple[np.ndarray, np.ndarray, int]]] = [[] for _ in range(args.num_envs)]
    for update in range(1, args.updates + 1):
        grad = np.zeros_like(weights)
        finished = 0
        for _ in range(args.steps):
            mask = info["action_mask"].astype(bool)
            mask[~mask.any(axis=1)] = True  # an environment with no decision (its action is ignored)
            logits = obs @ weights
            logits[~mask] = -np.inf
            logits -= logits.max(axis=1, keepdims=True)
            probs = np.exp(logits)
            probs /= probs.sum(axis=1, keepdims=True)
            u = rng.random((args.num_envs, 1))
            actions = (probs.cumsum(axis=1) < u).sum(axis=1).clip(0, n_act - 1)
            actions = np.where(mask[np.arange(args.num_envs), actions], actions, mask.argmax(axis=1))
            for e in range(args.num_envs):
                if mask[e].sum() > 1:  # only real choices teach anything
                    episodes[e].append((obs[e], probs[e], int(actions[e])))
            obs, rewards, terminated, truncated, info = envs.step(actions)
            for e in np.flatnonzero(terminated | truncated):
                ret = float(rewards[e])
                results.append(1.0 if ret > 0 else 0.0)
                for x, p, a in episodes[e]:
                    g = -p.copy()
                    g[a] += 1.0  # d log softmax / d logits
                    grad += (ret - baseline) * np.outer(x, g)
                baseline += 0.01 * (ret - baseline)
                episodes[e] = []
                finished += 1
        weights += args.lr * grad / max(1, finished)
        if update % 25 == 0 or update == args.updates:
            print(f"update {update}: win rate {np.mean(results):.3f} over the last {len(results)} games")


if __name__ == "__main__":
    main()
