"""CPU seconds to compile Mouse Trap's vector environment on an empty numba cache (issue 42).

    NUMBA_CACHE_DIR=$(mktemp -d) PYTHONPATH=src python bench/vector_env_cold.py

Prints the process CPU time of make_vec, of the first reset (which compiles the engine) and of
the first step (nothing left to compile since reset and step are one compiled function).
"""

from __future__ import annotations

import resource

import gymnasium
import numpy as np

import trapworks.adapters.gymnasium  # noqa: F401  (registers the ids)


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    t0 = cpu()
    envs = gymnasium.make_vec("trapworks/MouseTrap-v0", num_envs=6, seat=0, opponents="random", players=2)
    t1 = cpu()
    envs.reset(seed=11)
    t2 = cpu()
    masks = envs.unwrapped.action_masks()
    envs.step(np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in masks]))
    t3 = cpu()
    print(f"make_vec {t1 - t0:.1f} s CPU, first reset {t2 - t1:.1f} s, first step {t3 - t2:.1f} s")


if __name__ == "__main__":
    main()
