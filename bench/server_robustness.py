"""A healthy player's latency while others abuse `trapworks serve`, before, during and after each abuse.

One healthy client (from 127.0.0.1) plays Last Mouse Lost games (both seats, one socket each, a
move every `--pace` seconds per socket, as a brisk human) and times each move from send to ack.
Each abuser comes from an address of its own (127.0.0.2 and up: every 127.x.y.z address reaches
the loopback server, and the server's bounds are per client address, as they are on a network).
Phases of `--phase` seconds: **before**, then for each abuse **during** it and **after** it:

- `replay flood`: `--replays` clients posting a record of about 4,800 actions (see long_record)
  to /api/replay, each again as soon as answered (each answer ~40 MB);
- `unread replays`: 8 sockets that post the same record and never read the answer;
- `create flood`: one address creating 13 Dead End Drive games as fast as it is answered;
- `socket flood`: one address opening spectator sockets as fast as it can and keeping them idle;
- `stalled readers`: sockets that ask for full snapshots and never read one;
- `chat flood`: a spectator that reconnects after every few lines of chat;
- `table squat`: one address opening public tables and taking every free seat it sees;
- `fuzz`: `--fuzzers` sockets sending random and broken messages flat out, and HTTP requests
  with junk bodies.

Bounded in time: every network wait has a deadline, each abuse is stopped (its sockets closed)
at the end of its phase, and a watchdog kills the server and exits with status 3 if a run takes
longer than its phases plus 120 s (the old version hung in 3 of 5 runs: a fuzz socket blocked on
a send to a server that had dropped it but not closed the connection). `--runs N` runs it N times
in a row and prints a table per phase: the healthy client's p99 in each run.

    .venv/bin/python bench/server_robustness.py --phase 5 --runs 5

The peer (optional): the same load against another version's `src/` (`--peer-src`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
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
from websockets.asyncio.client import connect

REPO = Path(__file__).resolve().parent.parent
MAX_PHASE_S = 60.0
OP_TIMEOUT_S = 10.0  # any one network wait of a client
ABUSES = (
    "replay flood",
    "unread replays",
    "create flood",
    "socket flood",
    "stalled readers",
    "chat flood",
    "table squat",
    "fuzz",
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(src: Path | None, home: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = dict(os.environ, TRAPWORKS_HOME=str(home), PYTHONUNBUFFERED="1")
    if src is not None:
        env["PYTHONPATH"] = str(src)
    cmd = [sys.executable, "-c", "from trapworks.cli import main; main()", "serve", "--port", str(port)]
    proc = subprocess.Popen(
        cmd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd="/",
        start_new_session=True,  # its worker processes are stopped with it
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/api/catalog", timeout=5).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.2)
    stop_server(proc)
    raise RuntimeError("server did not start")


def stop_server(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, 15)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, 9)
        proc.wait(10)


class Addresses:
    """A new loopback source address for each abuser."""

    def __init__(self) -> None:
        self.n = 1

    def next(self) -> str:
        self.n += 1
        return f"127.0.{self.n // 250}.{2 + self.n % 250}"


def http_from(addr: str, timeout: float = OP_TIMEOUT_S) -> httpx.AsyncClient:
    return httpx.AsyncClient(timeout=timeout, transport=httpx.AsyncHTTPTransport(local_address=addr))


def ws_from(url: str, addr: str, **kw):
    return connect(url, local_addr=(addr, 0), open_timeout=OP_TIMEOUT_S, close_timeout=2, **kw)


class Healthy:
    """Plays Last Mouse Lost games on two sockets and records each move's ack latency."""

    def __init__(self, url: str, pace: float):
        self.url = url
        self.pace = pace
        self.samples: list[tuple[float, float]] = []  # (time sent, latency s)
        self.failures: list[tuple[float, str]] = []
        self.stop = asyncio.Event()

    async def run(self) -> None:
        while not self.stop.is_set():
            try:
                await self._one_game()
            except Exception as e:  # a refused or dropped healthy client counts as a failure
                self.failures.append((time.monotonic(), f"{type(e).__name__}: {e}"[:200]))
                await asyncio.sleep(0.2)

    async def _one_game(self) -> None:
        async with httpx.AsyncClient(timeout=OP_TIMEOUT_S) as c:
            g = (await c.post(self.url + "/api/games", json={"game": "last-mouse-lost"})).json()
        ws_url = self.url.replace("http", "ws") + f"/ws/games/{g['id']}?token="
        async with (
            connect(ws_url + g["seats"][0]["token"], open_timeout=OP_TIMEOUT_S, close_timeout=2) as a,
            connect(ws_url + g["seats"][1]["token"], open_timeout=OP_TIMEOUT_S, close_timeout=2) as b,
        ):
            socks = [a, b]
            latest: dict = {}
            for ws in socks:
                await self._until(ws, "state", latest)
            ref = 0
            while not self.stop.is_set():
                state = latest["state"]
                if state["terminal"]:
                    break
                ws = socks[state["to_move"]]
                ref += 1
                action = state["view"]["legal_actions"][0]["text"]
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "action": action, "ply": state["ply"], "ref": ref}))
                await self._until(ws, "ack", latest, ref)
                self.samples.append((time.monotonic(), time.perf_counter() - sent))
                other = socks[1 - socks.index(ws)]
                await self._until(other, "state", {}, min_ply=state["ply"] + 1)
                await asyncio.sleep(self.pace)

    @staticmethod
    async def _until(ws, kind: str, latest: dict, ref: int | None = None, min_ply: int = 0) -> dict:
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), OP_TIMEOUT_S))
            for msg in frame if isinstance(frame, list) else [frame]:
                if msg["type"] == "state":
                    latest["state"] = msg
                if msg["type"] == kind and (ref is None or msg.get("ref") == ref):
                    if kind != "state" or msg["ply"] >= min_ply:
                        return msg


def long_record() -> dict:
    """A Last Mouse Lost match to 140 wins, random play: about 4,800 actions."""
    import trapworks
    from trapworks.core import GameRecord

    game = trapworks.make("last-mouse-lost", first_to=140, rules="advanced")
    state, rng = game.new_initial_state(), random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return GameRecord.from_state(state).to_dict()


def count(counts: dict, key) -> None:
    counts[str(key)] = counts.get(str(key), 0) + 1


# --- the abuses: each runs until `stop` is set, counting what it was answered ------------------
async def replay_flood(url, addrs, stop, counts, args, record_body) -> None:
    async def one(addr: str) -> None:
        async with http_from(addr, timeout=60) as c:
            while not stop.is_set():
                try:
                    r = await c.post(url + "/api/replay", content=record_body, headers=JSON)
                    count(counts, r.status_code)
                    if r.status_code != 200:
                        await asyncio.sleep(0.2)
                except httpx.HTTPError as e:
                    count(counts, type(e).__name__)

    await asyncio.gather(*[one(addrs.next()) for _ in range(args.replays)])


async def unread_replays(url, addrs, stop, counts, args, record_body) -> None:
    host, port = url.removeprefix("http://").split(":")
    held: list[socket.socket] = []
    try:
        for _ in range(8):
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.settimeout(OP_TIMEOUT_S)
            s.bind((addrs.next(), 0))
            s.connect((host, int(port)))
            s.sendall(
                f"POST /api/replay HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(record_body)}\r\n\r\n".encode()
                + record_body
            )
            held.append(s)
            count(counts, "posted")
        await stop.wait()
    finally:
        for s in held:
            s.close()


async def create_flood(url, addrs, stop, counts, args, record_body) -> None:
    body = {"game": "dead-end-drive", "seats": [{"kind": "human"}] * 4}
    async with http_from(addrs.next()) as c:
        while not stop.is_set():
            try:
                r = await c.post(url + "/api/games", json=body)
                count(counts, r.status_code)
                if r.status_code == 429:
                    await asyncio.sleep(0.01)
            except httpx.HTTPError as e:
                count(counts, type(e).__name__)


async def socket_flood(url, addrs, stop, counts, args, record_body) -> None:
    async with httpx.AsyncClient(timeout=OP_TIMEOUT_S) as c:
        g = (await c.post(url + "/api/games", json={"game": "last-mouse-lost"})).json()
    ws_url = url.replace("http", "ws") + f"/ws/games/{g['id']}?token={g['spectator']['token']}"
    addr = addrs.next()
    held = []
    try:
        while not stop.is_set() and len(held) < 2000:
            try:
                held.append(await ws_from(ws_url, addr))
                count(counts, "opened")
            except Exception as e:
                count(counts, getattr(getattr(e, "response", None), "status_code", type(e).__name__))
                await asyncio.sleep(0.05)
        await stop.wait()
    finally:
        await asyncio.gather(*[ws.close() for ws in held], return_exceptions=True)


async def stalled_readers(url, addrs, stop, counts, args, record_body) -> None:
    host, port = url.removeprefix("http://").split(":")
    async with httpx.AsyncClient(timeout=OP_TIMEOUT_S) as c:
        g = (await c.post(url + "/api/games", json={"game": "mouse-trap", "options": {"players": 2}})).json()
    sync = masked_text_frame(json.dumps({"type": "sync"}))
    held: list[socket.socket] = []
    try:
        for _ in range(20):
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.settimeout(2)
            s.bind((addrs.next(), 0))
            s.connect((host, int(port)))
            s.sendall(
                (
                    f"GET /ws/games/{g['id']}?token={g['spectator']['token']} HTTP/1.1\r\nHost: {host}\r\n"
                    "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
                ).encode()
            )
            with contextlib.suppress(OSError):
                s.sendall(sync * 500)
            held.append(s)
            count(counts, "stalled")
        await stop.wait()
    finally:
        for s in held:
            s.close()


async def chat_flood(url, addrs, stop, counts, args, record_body) -> None:
    async with httpx.AsyncClient(timeout=OP_TIMEOUT_S) as c:
        g = (
            await c.post(url + "/api/games", json={"game": "last-mouse-lost", "spectator_chat": True})
        ).json()
    ws_url = url.replace("http", "ws") + f"/ws/games/{g['id']}?token={g['spectator']['token']}"
    addr = addrs.next()
    n = 0
    while not stop.is_set():
        try:
            async with ws_from(ws_url, addr) as ws:
                for _ in range(5):
                    n += 1
                    await ws.send(json.dumps({"type": "chat", "text": f"line {n}", "ref": n}))
                    while True:
                        frame = json.loads(await asyncio.wait_for(ws.recv(), OP_TIMEOUT_S))
                        msgs = frame if isinstance(frame, list) else [frame]
                        mine = [m for m in msgs if m.get("ref") == n]
                        if mine:
                            count(counts, mine[0].get("code") or mine[0]["type"])
                            break
        except Exception as e:
            count(counts, type(e).__name__)
            await asyncio.sleep(0.05)


async def table_squat(url, addrs, stop, counts, args, record_body) -> None:
    body = {
        "game": "last-mouse-lost",
        "public": True,
        "seats": [{"kind": "human"}, {"kind": "human", "invite": True}],
    }
    async with http_from(addrs.next()) as c:
        while not stop.is_set():
            try:
                r = await c.post(url + "/api/games", json=body)
                count(counts, f"open {r.status_code}")
                tables = (await c.get(url + "/api/tables")).json().get("tables", [])
                for t in tables:
                    r = await c.post(url + f"/api/tables/{t['id']}/join", json={})
                    count(counts, f"join {r.status_code}")
                await asyncio.sleep(0.01)
            except httpx.HTTPError as e:
                count(counts, type(e).__name__)


async def fuzz(url, addrs, stop, counts, args, record_body) -> None:
    rng = random.Random(12)
    async with httpx.AsyncClient(timeout=OP_TIMEOUT_S) as c:
        g = (await c.post(url + "/api/games", json={"game": "last-mouse-lost"})).json()

    def junk() -> str:
        pick = rng.random()
        if pick < 0.3:
            return json.dumps(
                {
                    "type": rng.choice(["move", "sync", "ping", "x"]),
                    "action": "z9",
                    "ply": rng.randrange(-3, 9),
                }
            )
        if pick < 0.6:
            return "[" * rng.randrange(1, 3000) + "]" * rng.randrange(0, 3000)
        return "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(1, 200)))

    ws_url = url.replace("http", "ws") + f"/ws/games/{g['id']}?token={g['spectator']['token']}"

    async def one_socket(addr: str) -> None:
        while not stop.is_set():
            try:
                async with ws_from(ws_url, addr) as ws:

                    async def drain() -> None:  # read what comes (a fuzzer that never reads is
                        async for _ in ws:  # the stalled-readers abuse)
                            pass

                    reader = asyncio.create_task(drain())
                    try:
                        while not stop.is_set():
                            await asyncio.wait_for(ws.send(junk()), OP_TIMEOUT_S)
                            count(counts, "ws")
                            await asyncio.sleep(0)
                    finally:
                        reader.cancel()
            except Exception:
                count(counts, "ws_closed")
                await asyncio.sleep(0.05)

    async def http_junk(addr: str) -> None:
        async with http_from(addr) as c:
            while not stop.is_set():
                path = rng.choice(
                    ["/api/games", f"/api/games/{g['id']}/moves", "/api/replay", "/api/catalog/x/check"]
                )
                try:
                    r = await c.post(url + path, content=junk().encode(), headers=JSON)
                    count(counts, r.status_code)
                except httpx.HTTPError as e:
                    count(counts, type(e).__name__)

    await asyncio.gather(*[one_socket(addrs.next()) for _ in range(args.fuzzers)], http_junk(addrs.next()))


JSON = {"content-type": "application/json"}
RUNNERS = {
    "replay flood": replay_flood,
    "unread replays": unread_replays,
    "create flood": create_flood,
    "socket flood": socket_flood,
    "stalled readers": stalled_readers,
    "chat flood": chat_flood,
    "table squat": table_squat,
    "fuzz": fuzz,
}


def masked_text_frame(text: str) -> bytes:
    payload = text.encode()
    mask = b"\x01\x02\x03\x04"
    assert len(payload) < 126
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def summary(samples: list[float], failures: int) -> dict:
    if not samples:
        return {"n": 0, "failures": failures}
    s = sorted(samples)
    q = lambda p: s[min(len(s) - 1, int(p * len(s)))] * 1000  # noqa: E731
    return {
        "n": len(s),
        "p50_ms": round(q(0.5), 1),
        "p99_ms": round(q(0.99), 1),
        "max_ms": round(s[-1] * 1000, 1),
        "failures": failures,
    }


async def measure(url: str, args: argparse.Namespace, record_body: bytes) -> dict:
    healthy = Healthy(url, args.pace)
    player = asyncio.create_task(healthy.run())
    addrs = Addresses()
    phases: dict = {}
    marks = []

    async def phase(name: str) -> None:
        start = time.monotonic()
        await asyncio.sleep(args.phase)
        marks.append((name, start, time.monotonic()))

    await asyncio.sleep(1.0)  # warm-up
    await phase("before")
    for abuse in args.abuses:
        stop, counts = asyncio.Event(), {}
        task = asyncio.create_task(RUNNERS[abuse](url, addrs, stop, counts, args, record_body))
        await phase(abuse)
        stop.set()
        try:
            await asyncio.wait_for(task, OP_TIMEOUT_S + 5)
        except TimeoutError:
            counts["stopped_by_cancel"] = 1  # its sockets were closed by the cancellation
        except Exception as e:  # an abuser that failed: say so, go on
            counts["error"] = f"{type(e).__name__}: {e}"[:200]
        phases[f"{abuse}: answers"] = counts
        await phase(f"after {abuse}")
    healthy.stop.set()
    try:
        await asyncio.wait_for(player, OP_TIMEOUT_S + 5)
    except TimeoutError:
        pass
    for name, start, end in marks:
        lat = [lat for t, lat in healthy.samples if start <= t <= end]
        failed = sum(1 for t, _ in healthy.failures if start <= t <= end)
        phases[name] = summary(lat, failed)
    phases["healthy failures"] = [f for _, f in healthy.failures][:10]
    return phases


def watchdog(seconds: float, procs: list[subprocess.Popen]) -> threading.Timer:
    def fire() -> None:
        print(
            f"server_robustness: over its time bound ({seconds:.0f} s): stopping", file=sys.stderr, flush=True
        )
        for p in procs:
            stop_server(p)
        os._exit(3)

    t = threading.Timer(seconds, fire)
    t.daemon = True
    t.start()
    return t


def one_run(args: argparse.Namespace, record_body: bytes) -> dict:
    results = {}
    for name, src in [("trapworks", None), ("peer", args.peer_src)]:
        if name == "peer" and src is None:
            continue
        with tempfile.TemporaryDirectory() as home:
            proc, url = start_server(src, Path(home))
            bound = args.phase * (1 + 2 * len(args.abuses)) + 30 * len(args.abuses) + 120
            dog = watchdog(bound, [proc])
            try:
                results[name] = asyncio.run(measure(url, args, record_body))
            finally:
                dog.cancel()
                stop_server(proc)
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--phase", type=float, default=5.0, help="seconds per phase")
    ap.add_argument("--pace", type=float, default=0.05, help="pause after each healthy move, s")
    ap.add_argument("--replays", type=int, default=8, help="replay-flood clients")
    ap.add_argument("--fuzzers", type=int, default=4, help="fuzzing sockets")
    ap.add_argument("--runs", type=int, default=1, help="runs in a row (a table of p99 per phase)")
    ap.add_argument("--abuse", action="append", choices=ABUSES, help="only these abuses (repeatable)")
    ap.add_argument("--peer-src", type=Path, default=None, help="src/ of another version, for comparison")
    ap.add_argument("--json", type=Path, default=None, help="write every run's figures here")
    args = ap.parse_args()
    args.phase = min(args.phase, MAX_PHASE_S)
    args.abuses = args.abuse or list(ABUSES)
    record_body = json.dumps({"record": long_record(), "seat": 0}).encode()
    runs = []
    for i in range(args.runs):
        started = time.monotonic()
        result = one_run(args, record_body)
        runs.append(result)
        print(f"run {i + 1}/{args.runs} done in {time.monotonic() - started:.0f} s", flush=True)
        print(json.dumps(result), flush=True)
    if args.json:
        args.json.write_text(json.dumps(runs, indent=1))
    names = ["before"] + [p for a in args.abuses for p in (a, f"after {a}")]
    for server in runs[0]:
        print(f"\n{server}: healthy client's ack p99 ms per run (n acks, failures)")
        print("| phase | " + " | ".join(f"run {i + 1}" for i in range(len(runs))) + " |")
        print("|---|" + "---:|" * len(runs))
        for name in names:
            cells = []
            for r in runs:
                s = r[server][name]
                p99 = f"{s['p99_ms']:,}" if s["n"] else "-"
                cells.append(
                    f"{p99} ({s['n']}{', ' + str(s['failures']) + ' failed' if s['failures'] else ''})"
                )
            print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
