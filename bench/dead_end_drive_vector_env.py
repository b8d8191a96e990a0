"""13 Dead End Drive's vector environment (DeadEndDriveVectorEnv, batch.py's numba rules) against
`gymnasium.vector.SyncVectorEnv` over the same game (N copies of the single environment, the
kernel in Python), with each kind of opponent the batched environment plays: random and the
heuristic (issue 31). The same measurement as bench/vector_env.py (`rate`: each environment's
last legal action, CPU time of this process, median of `--blocks` blocks), and beside it the
CPU time inside `envs.step` alone ("step only": without the choice of the actions from the
masks, a NumPy argmax over every environment's mask that the loop of `rate` also times).

    python bench/dead_end_drive_vector_env.py [--num-envs 256] [--players 4] [--opponents random,heuristic]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
from pathlib import Path

import gymnasium
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vector_env import CLOCK, rate  # noqa: E402  (the same measurement)

ENV_ID = "trapworks/DeadEndDrive-v0"


class NewGameWhileOver(gymnasium.Wrapper):
    """The single environment over SyncVectorEnv: a reset whose game ended before the learning
    seat's first decision (the others' turns, e.g. its last pawn knocked off) starts another,
    where the batched environment starts it on the next step; SyncVectorEnv would step it and the
    single environment refuse ("the episode is over")."""

    def reset(self, **kwargs):
        obs, info = self.env.reset(**kwargs)
        while self.env.unwrapped.state.is_terminal():
            obs, info = self.env.reset()
        return obs, info


def step_rate(envs, seconds: float) -> float:
    """Environment steps per CPU second inside `envs.step` (the actions chosen as `rate` does)."""
    obs, info = envs.reset(seed=0)
    n = envs.num_envs
    steps = 0
    inside = 0.0
    t0 = CLOCK()
    while CLOCK() - t0 < seconds:
        mask = info["action_mask"]
        actions = mask.shape[1] - 1 - np.argmax(mask[:, ::-1], axis=1)
        t1 = CLOCK()
        obs, rewards, terminated, truncated, info = envs.step(actions)
        inside += CLOCK() - t1
        steps += n
    return steps / inside


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--num-envs", type=int, default=256)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--blocks", type=int, default=3)
    ap.add_argument("--opponents", default="random,heuristic")
    args = ap.parse_args()
    print(
        f"# {platform.machine()}, Python {platform.python_version()}, CPU time, "
        f"median of {args.blocks} blocks of {args.seconds} s"
    )
    print("| environment | opponents | num_envs | env steps/s | ratio | step only | ratio |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for opponents in args.opponents.split(","):
        kw = {"num_envs": args.num_envs, "opponents": opponents, "players": args.players}
        batched = gymnasium.make_vec(ENV_ID, **kw)
        sync = gymnasium.make_vec(ENV_ID, vectorization_mode="sync", wrappers=[NewGameWhileOver], **kw)
        rate(batched, 0.2)  # compile
        b, s, bo, so = [], [], [], []
        for _ in range(args.blocks):
            b.append(rate(batched, args.seconds))
            s.append(rate(sync, args.seconds))
            bo.append(step_rate(batched, args.seconds))
            so.append(step_rate(sync, args.seconds))
        mb, ms = statistics.median(b), statistics.median(s)
        mbo, mso = statistics.median(bo), statistics.median(so)
        label = f"13 Dead End Drive {args.players}p"
        print(
            f"| SyncVectorEnv(TrapworksEnv) {label} | {opponents} | {args.num_envs} | {ms:,.0f} | 1.0x "
            f"| {mso:,.0f} | 1.0x |"
        )
        print(
            f"| DeadEndDriveVectorEnv (batched engine) | {opponents} | {args.num_envs} | {mb:,.0f} "
            f"| {mb / ms:,.1f}x | {mbo:,.0f} | {mbo / mso:,.1f}x |",
            flush=True,
        )


if __name__ == "__main__":
    main()
