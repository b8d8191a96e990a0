"""Environment steps per second: `gymnasium.make_vec(...)` backed by each game's batched engine,
against `gymnasium.vector.SyncVectorEnv` over the same game (N copies of the single environment,
the kernel in Python), in one run (issue 31). Games: Mouse Trap 4 players (MouseTrapVectorEnv,
numba), Last Mouse Lost's standard match (LastMouseLostVectorEnv, the compiled C engine), 13 Dead
End Drive 4 players (DeadEndDriveVectorEnv, numba).

Both step `num_envs` games with the same action rule (each environment's last legal action, read
from the action mask: cheap and the same for both), opponents "random"; CPU time of this process,
median of `--blocks` blocks.

    python bench/vector_env.py [--num-envs 64] [--seconds 2] [--blocks 3] [--games mouse-trap,...]
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

# game -> (Gymnasium id, label, options)
GAMES = {
    "mouse-trap": ("trapworks/MouseTrap-v0", "Mouse Trap 4p", {"players": 4}),
    "last-mouse-lost": ("trapworks/LastMouseLost-v0", "Last Mouse Lost 1-3-5-7, first to 3", {}),
    "dead-end-drive": ("trapworks/DeadEndDrive-v0", "13 Dead End Drive 4p", {"players": 4}),
}


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
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated: " + ", ".join(GAMES))
    args = ap.parse_args()
    print(
        f"# {platform.machine()}, Python {platform.python_version()}, CPU time, "
        f"median of {args.blocks} blocks of {args.seconds} s"
    )
    print("| environment | num_envs | env steps/s | ratio |")
    print("|---|---:|---:|---:|")
    for game in args.games.split(","):
        env_id, label, options = GAMES[game]
        kw = {"num_envs": args.num_envs, "opponents": "random", **options}
        batched = gymnasium.make_vec(env_id, **kw)
        sync = gymnasium.make_vec(env_id, vectorization_mode="sync", **kw)
        rate(batched, 0.2)  # compile
        b, s = [], []
        for _ in range(args.blocks):
            b.append(rate(batched, args.seconds))
            s.append(rate(sync, args.seconds))
        mb, ms = statistics.median(b), statistics.median(s)
        name = type(batched.unwrapped).__name__
        print(f"| SyncVectorEnv(TrapworksEnv) {label} | {args.num_envs} | {ms:,.0f} | 1.0x |")
        print(f"| {name} (batched engine) | {args.num_envs} | {mb:,.0f} | {mb / ms:,.1f}x |", flush=True)


if __name__ == "__main__":
    main()
