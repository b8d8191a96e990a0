"""CPU seconds to compile a game's vector environment on an empty numba cache (issue 42), and
the warm step it gives; with --before REV, the code of REV side by side in the same run.

    PYTHONPATH=src python bench/vector_env_cold.py                      # this tree only
    PYTHONPATH=src python bench/vector_env_cold.py --before 9831313     # REV's src/ too, same run
    PYTHONPATH=src python bench/vector_env_cold.py --game dead-end-drive --before REV

Each variant runs in a fresh process with its own empty NUMBA_CACHE_DIR (nobody else's cache
read or written), and prints the process CPU time of make_vec, of the first reset (which
compiles the engine), of the first step, and the warm CPU time of a step of --envs
environments (best of 3 blocks of --steps steps, NUMBA_NUM_THREADS=1 unless set: a thread
count changes the speed, not the compile). The same seeded actions in each variant; the sum
of the observations says whether both played the same games."""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


# --game -> the Gymnasium id and its options (Mouse Trap 2 players, 13 Dead End Drive 4).
GAMES = {
    "mouse-trap": ("trapworks/MouseTrap-v0", {"players": 2}),
    "dead-end-drive": ("trapworks/DeadEndDrive-v0", {"players": 4}),
}


def measure(envs_count: int, steps: int, game: str = "mouse-trap") -> dict[str, float]:
    """In this process (its numba cache is the caller's): the compile and the warm step."""
    import gymnasium
    import numpy as np

    import trapworks.adapters.gymnasium  # noqa: F401  (registers the ids)

    t0 = cpu()
    gym_id, options = GAMES[game]
    envs = gymnasium.make_vec(gym_id, num_envs=6, seat=0, opponents="random", **options)
    t1 = cpu()
    envs.reset(seed=11)
    t2 = cpu()
    masks = envs.unwrapped.action_masks()
    envs.step(np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in masks]))
    t3 = cpu()
    big = gymnasium.make_vec(gym_id, num_envs=envs_count, seat=0, opponents="random", **options)
    obs, _ = big.reset(seed=7)
    rng = np.random.default_rng(3)
    total, best = float(obs.sum()), float("inf")
    for _ in range(3):
        start = cpu()
        for _ in range(steps):
            masks = big.unwrapped.action_masks()
            pick = rng.random(masks.shape) * masks  # a random legal action (0 where none)
            obs, *_ = big.step(pick.argmax(axis=1))
            total += float(obs.sum())
        best = min(best, (cpu() - start) / steps)
    return {"make_vec": t1 - t0, "reset": t2 - t1, "step": t3 - t2, "warm_us": best * 1e6, "checksum": total}


def run_variant(src: Path, args: argparse.Namespace) -> dict[str, float]:
    cache = tempfile.mkdtemp(prefix="vec-cold-cache-")
    env = dict(os.environ, PYTHONPATH=str(src), NUMBA_CACHE_DIR=cache)
    env.setdefault("NUMBA_NUM_THREADS", "1")
    code = f"import json, sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); "
    code += "import vector_env_cold as b; "
    code += f"print(json.dumps(b.measure({args.envs}, {args.steps}, {args.game!r})))"
    try:
        cmd = [sys.executable, "-c", code]
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    except subprocess.CalledProcessError as e:
        sys.exit(e.stderr[-2000:])
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def export(rev: str) -> Path:
    """REV's src/ in a temporary folder, with this tree's compiled extensions (.so)."""
    root = Path(__file__).resolve().parents[1]
    dest = Path(tempfile.mkdtemp(prefix="vec-cold-before-"))
    archive = subprocess.run(["git", "-C", str(root), "archive", rev, "src"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
    for so in (root / "src").rglob("*.so"):
        target = dest / so.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(so, target)
    return dest / "src"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", help="a git revision whose src/ runs first, for a side-by-side run")
    ap.add_argument("--game", choices=sorted(GAMES), default="mouse-trap")
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--steps", type=int, default=200)
    args = ap.parse_args()
    here = Path(__file__).resolve().parents[1] / "src"
    variants = [("before " + args.before, export(args.before))] if args.before else []
    variants.append(("this tree", here))
    print(f"{args.game}; load average at the start: {os.getloadavg()[0]:.1f}", flush=True)
    for name, src in variants:
        r = run_variant(src, args)
        print(
            f"{name}: make_vec {r['make_vec']:.1f} s CPU, first reset {r['reset']:.1f} s, first step "
            f"{r['step']:.1f} s; warm step of {args.envs} envs {r['warm_us']:.0f} us CPU; "
            f"checksum {r['checksum']:.1f}; load {os.getloadavg()[0]:.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
