"""MaskablePPO (sb3-contrib) learns a trapworks game through `env.action_masks()`, no wrapper.

The Gymnasium environment (`trapworks.adapters.gymnasium.TrapworksEnv`) has the method that
sb3-contrib's MaskablePPO looks for, `action_masks()`, so the environment goes to MaskablePPO as
`gym.make` gives it: no `ActionMasker`, no mask function. The learner plays seat 0 of Last Mouse
Lost (one round; who opens drawn at random) against the uniformly random opponent; its greedy
policy's win rate against that opponent is measured before and after training, on the same
seeded evaluation games.

    pip install "trapworks[train]"                   # sb3-contrib and torch (CPU is enough)
    .venv/bin/python examples/maskable_ppo.py        # about a minute on one core
    .venv/bin/python examples/maskable_ppo.py --timesteps 2048 --eval-games 50

Everything is seeded (torch, the policy, the environment's chance and opponent): the same command
prints the same figures (tests/research/test_maskable_ppo.py runs it twice at a tiny budget).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO

import trapworks.adapters.gymnasium  # noqa: F401 (registers the trapworks/... ids)

ENV_ID = "trapworks/LastMouseLost-v0"
ENV_OPTIONS: dict[str, Any] = {
    "board": [2, 3, 4],
    "first_to": 1,
    "first_player": "random",
    "opponents": "random",
}


def make_env() -> gym.Env:
    return gym.make(ENV_ID, **ENV_OPTIONS)


def win_rate(model: MaskablePPO | None, games: int, seed: int) -> float:
    """The share of `games` evaluation games (seeded seed, seed+1, ...) that seat 0 wins with the
    model's greedy masked move (None: a uniformly random legal move, the baseline)."""
    env = make_env()
    rng = np.random.default_rng(seed)
    wins = 0
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        done = False
        reward = 0.0
        while not done:
            mask = env.unwrapped.action_masks()  # type: ignore[attr-defined]
            if model is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action, _ = model.predict(obs, action_masks=mask, deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            done = terminated or truncated
        wins += reward > 0
    env.close()
    return wins / games


def train(
    timesteps: int = 30_000, eval_games: int = 400, seed: int = 0, n_steps: int = 512
) -> dict[str, Any]:
    """Train MaskablePPO for `timesteps` steps; the win rates before and after, and the time."""
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    env = make_env()
    model = MaskablePPO(
        "MlpPolicy",
        env,  # no ActionMasker: MaskablePPO calls env.action_masks() itself
        n_steps=n_steps,
        batch_size=64,
        learning_rate=1e-3,
        gamma=1.0,
        ent_coef=0.01,
        seed=seed,
        device="cpu",
        verbose=0,
    )
    eval_seed = 1_000_000 + seed
    before = win_rate(model, eval_games, eval_seed)
    start = time.perf_counter()
    model.learn(total_timesteps=timesteps)
    seconds = time.perf_counter() - start
    after = win_rate(model, eval_games, eval_seed)
    return {
        "env": ENV_ID,
        "options": ENV_OPTIONS,
        "timesteps": timesteps,
        "eval_games": eval_games,
        "seed": seed,
        "random_vs_random": win_rate(None, eval_games, eval_seed),
        "win_rate_before": before,
        "win_rate_after": after,
        "train_seconds": round(seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=30_000)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    r = train(args.timesteps, args.eval_games, args.seed)
    print(
        f"{r['env']} {r['options']}: MaskablePPO (seed {r['seed']}), greedy win rate vs random "
        f"{r['win_rate_before']:.1%} before, {r['win_rate_after']:.1%} after {r['timesteps']} steps "
        f"({r['train_seconds']} s); a random player wins {r['random_vs_random']:.1%}"
    )


if __name__ == "__main__":
    main()
