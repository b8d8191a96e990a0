"""Environment steps per second: `gymnasium.make_vec("trapworks/MouseTrap-v0")` backed by the
batched engine, against `gymnasium.vector.SyncVectorEnv` over the same game (N copies of the
single environment, the kernel in Python), in one run (issue 31).

Both step `num_envs` games with the same action rule (each environment's last legal action, read
from the action mask: cheap and the same for both), opponents "random", 4 players; CPU time of
this process, median of `--blocks` blocks.

    python bench/vector_env.py [--num-envs 64] [--seconds 2] [--blocks 3]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import gymnasium
import numpy as np

import trapworks.adapters.gymnasium  # noqa: F401  (registers the ids)

CLOCK = time.process_time


def rate(envs, seconds: float) -> float:
    obs, info = envs.reset(seed=0)
    n = envs.num_envs
    steps = 0
    t0 = CLOCK()
    while CLOCK() - t0 < seconds:
        mask = info["action_mask"]
        actions = mask.shape[1] - 1 - np.argmax(mask[:, ::-1], axis=1)
        obs, rewards, terminated, truncated, info = envs.step(actions)
        steps += n
    return steps / (CLOCK() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--num-envs", type=int, default=64)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--blocks", type=int, default=3)
    args = ap.parse_args()
    kw = {"num_envs": args.num_envs, "players": 4, "opponents": "random"}
    batched = gymnasium.make_vec("trapworks/MouseTrap-v0", **kw)
    sync = gymnasium.make_vec("trapworks/MouseTrap-v0", vectorization_mode="sync", **kw)
    rate(batched, 0.2)  # compile
    b, s = [], []
    for _ in range(args.blocks):
        b.append(rate(batched, args.seconds))
        s.append(rate(sync, args.seconds))
    mb, ms = statistics.median(b), statistics.median(s)
    print(
        f"# {platform.machine()}, Python {platform.python_version()}, CPU time, "
        f"median of {args.blocks} blocks"
    )
    print("| environment | num_envs | env steps/s | ratio |")
    print("|---|---:|---:|---:|")
    print(f"| SyncVectorEnv(TrapworksEnv) Mouse Trap 4p | {args.num_envs} | {ms:,.0f} | 1.0x |")
    print(f"| MouseTrapVectorEnv (batched engine) | {args.num_envs} | {mb:,.0f} | {mb / ms:,.1f}x |")


if __name__ == "__main__":
    main()
