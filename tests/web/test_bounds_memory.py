"""Issue 26, must-show items measured on `trapworks serve` (slow: about a minute each): unread
replay answers and 10,000 creations from one address leave the server's memory near idle."""

from __future__ import annotations

import json
import random
import socket
import time

import httpx
import pytest

from .web_helpers import ServerProcess

pytestmark = pytest.mark.slow
MB = 1024 * 1024


def rss(pid: int) -> int:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def long_record() -> dict:
    """Last Mouse Lost to 140 wins, random play: about 4,800 actions, a replay answer of ~40 MB."""
    import trapworks
    from trapworks.core import GameRecord

    game = trapworks.make("last-mouse-lost", first_to=140, rules="advanced")
    state, rng = game.new_initial_state(), random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return GameRecord.from_state(state).to_dict()


def unread_post(port: int, path: str, body: bytes) -> socket.socket:
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.sendall(
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n".encode()
        + body
    )
    return s


def test_eight_unread_replay_answers_leave_the_server_near_its_idle_memory(tmp_path, monkeypatch):
    # Per address, one replay at a time would refuse seven of the eight at once: let all eight
    # through, so that the answers' size budget and the write timeout are what bound them.
    monkeypatch.setenv("TRAPWORKS_BOUND_REPLAYS_PER_ADDRESS", "8")
    server = ServerProcess(tmp_path / "home", extra_args=["--rate-limit", "0"]).start()
    try:
        body = json.dumps({"record": long_record(), "seat": 0}).encode()
        small = {"record": {"game": "last-mouse-lost", "actions": ["a1"]}}
        assert httpx.post(server.url + "/api/replay", json=small, timeout=60).status_code == 200
        time.sleep(2)
        idle = rss(server.proc.pid)
        sockets = [unread_post(server.port, "/api/replay", body) for _ in range(8)]
        peak, samples = idle, []
        started = time.monotonic()
        # The answers, then the write timeout (10 s): 40 s on a machine of its own. On a loaded one
        # the answers are made more slowly (a CI run still held +66 MB at 40 s, +2 MB alone), so
        # the memory is given up to 120 s to come back under the bound.
        while (elapsed := time.monotonic() - started) < 40 or (elapsed < 120 and samples[-1][1] >= 60):
            now = rss(server.proc.pid)
            peak = max(peak, now)
            samples.append((round(time.monotonic() - started, 1), round((now - idle) / MB, 1)))
            time.sleep(0.25)
        after = rss(server.proc.pid)
        # A healthy client is served meanwhile, and the sockets are still connected (unread).
        assert httpx.get(server.url + "/api/catalog", timeout=30).status_code == 200
        for s in sockets:
            s.close()
        print(
            f"idle {idle / MB:.1f} MB, peak +{(peak - idle) / MB:.1f} MB, after +{(after - idle) / MB:.1f} MB"
        )
        print("samples (s, MB over idle):", samples[::8])
        assert after - idle < 60 * MB, samples
        assert peak - idle < 60 * MB + 48 * MB, samples  # one answer (48 MB at most) in flight
    finally:
        server.stop()


class KeptAliveClient:
    """HTTP/1.1 requests one after another on one kept-alive socket, with no client library: a
    request costs this process ~0.1 ms of CPU, where httpx's ~1.1 ms was more than the server's own
    ~0.75 ms for a refused creation (10,000 of them: ~11 CPU s of the test's 21 were httpx's)."""

    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.buf = b""

    def post_json(self, path: str, body: bytes) -> tuple[int, bytes]:
        self.sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        while b"\r\n\r\n" not in self.buf:
            self.buf += self._recv()
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = dict(line.lower().split(": ", 1) for line in lines[1:])
        assert "transfer-encoding" not in headers, headers  # JSON answers carry their length
        length = int(headers["content-length"])
        while len(self.buf) < length:
            self.buf += self._recv()
        answer, self.buf = self.buf[:length], self.buf[length:]
        return status, answer

    def _recv(self) -> bytes:
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("the server closed the connection")
        return data

    def close(self) -> None:
        self.sock.close()


def test_ten_thousand_creations_from_one_address_are_refused_past_the_bound(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAPWORKS_BOUND_GAME_IDLE_S", "10")
    monkeypatch.setenv("TRAPWORKS_BOUND_GAME_SWEEP_S", "2")
    # The per-address bound is tested here, not the node's budget (i40: test_operations.py).
    monkeypatch.setenv("TRAPWORKS_BOUND_GAMES_PER_MINUTE_TOTAL", "1000000")
    server = ServerProcess(tmp_path / "home", extra_args=["--rate-limit", "0"]).start()
    try:
        body = {"game": "dead-end-drive", "seats": [{"kind": "human"}] * 4}
        with httpx.Client(base_url=server.url, timeout=30) as c:
            assert c.post("/api/games", json=body).status_code == 201
            time.sleep(2)
            idle = rss(server.proc.pid)
            codes: dict[int, int] = {}
            raw, encoded = KeptAliveClient(server.port), json.dumps(body).encode()
            try:
                for _ in range(9_999):
                    status, answer = raw.post_json("/api/games", encoded)
                    codes[status] = codes.get(status, 0) + 1
                    if status == 429:
                        assert json.loads(answer)["code"] == "too_many_games"
            finally:
                raw.close()
            peak = rss(server.proc.pid)
            assert codes.get(201, 0) == 199 and codes.get(429, 0) == 9_800, codes
            started = time.monotonic()
            back = None
            while time.monotonic() - started < 60:
                if rss(server.proc.pid) - idle < 10 * MB:
                    back = time.monotonic() - started
                    break
                time.sleep(1)
            print(
                f"idle {idle / MB:.1f} MB, after the creations +{(peak - idle) / MB:.1f} MB, back in {back} s"
            )
            assert back is not None, f"still {(rss(server.proc.pid) - idle) / MB:.1f} MB over idle"
    finally:
        server.stop()
