"""Server memory while playing Last Mouse Lost (advanced rules) against the medium AI.

Starts a real `trapworks serve` (uvicorn, SQLite in a temporary folder) as a subprocess and plays
N whole matches through the HTTP API: seat 0 is a client choosing random legal moves, seat 1 the
server's `medium` level (tree search with random rollouts). The server process's resident memory
(VmRSS from /proc) is sampled after every game; the peak and the figure after each tenth game are
printed. Target (issue 19): under 150 MiB for 100 games.

    python bench/lml_server_memory.py [--games 100] [--parallel 2]
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def play_one(base: str, seed: int) -> int:
    """One match against the medium AI; returns the number of actions."""
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=60) as client:
        r = client.post(
            "/api/games",
            json={
                "game": "last-mouse-lost",
                "options": {"rules": "advanced"},
                "seats": [{"kind": "human"}, {"kind": "agent", "agent": "medium"}],
                "seed": seed,
            },
        )
        r.raise_for_status()
        g = r.json()
        gid, token = g["id"], g["seats"][0]["token"]
        while True:
            s = client.get(f"/api/games/{gid}", params={"token": token}).json()["state"]
            if s["terminal"]:
                return s["ply"]
            if s["view"]["to_move"] != 0:
                time.sleep(0.005)  # the AI is thinking
                continue
            move = rng.choice(s["view"]["legal_actions"])["text"]
            r = client.post(f"/api/games/{gid}/moves", json={"token": token, "action": move, "ply": s["ply"]})
            r.raise_for_status()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--parallel", type=int, default=2, help="matches played at once")
    args = parser.parse_args()

    port = free_port()
    home = tempfile.mkdtemp(prefix="trapworks-mem-")
    env = dict(os.environ, TRAPWORKS_HOME=home)
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "trapworks"),
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{home}/t.db",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                httpx.get(base + "/api/catalog", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        start_rss = rss_mib(server.pid)
        samples: list[tuple[int, float]] = []
        done = started = 0
        lock = threading.Lock()
        actions = 0
        t0 = time.perf_counter()

        def worker(k: int) -> None:
            nonlocal done, started, actions
            while True:
                with lock:
                    if started >= args.games:
                        return
                    seed = started
                    started += 1
                n = play_one(base, 1000 + seed)
                with lock:
                    done += 1
                    actions += n
                    samples.append((done, rss_mib(server.pid)))

        threads = [threading.Thread(target=worker, args=(k,)) for k in range(args.parallel)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - t0
        peak = max(r for _, r in samples)
        print(
            f"python {sys.version.split()[0]}; {done} advanced-rules matches (first to 3) against the "
            f"medium AI, {args.parallel} at a time, {actions} actions in {elapsed:.0f} s"
        )
        print(f"server RSS after start-up: {start_rss:.1f} MiB")
        for n, r in samples:
            if n % 10 == 0:
                print(f"  after {n:3d} games: {r:.1f} MiB")
        print(f"peak RSS: {peak:.1f} MiB (target < 150 MiB)")
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
