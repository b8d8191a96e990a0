"""Issue 12, items 2-5: a server that keeps serving. Repeated moves applied once, a never-reading
socket cannot hold a game, replays off the event loop, storage faults answered and survived."""

import asyncio
import json
import logging
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from trapworks.server import create_app
from trapworks.server import outbox as outbox_module
from trapworks.server import service as service_module
from trapworks.server import store as store_module
from trapworks.server.limits import uvicorn_settings
from trapworks.server.room import Room
from trapworks.server.store import Store

from .conftest import create_game
from .test_live import receive
from .web_helpers import fill, serve_in_thread, wait_for

GOLDEN_LONG = (
    Path(__file__).resolve().parent.parent / "dead_end_drive" / "golden" / "2p-random-lose-turn.json"
)


def move(client, g, seat, action, **extra):
    body = {"token": g["seats"][seat]["token"], "action": action, **extra}
    return client.post(f"/api/games/{g['id']}/moves", json=body)


def state_of(client, g, seat=0):
    return client.get(f"/api/games/{g['id']}", params={"token": g["seats"][seat]["token"]}).json()["state"]


# --- item 4: a repeat is answered, never applied twice ----------------------------------------
def test_a_double_send_is_applied_once_without_and_with_ply(client):
    g = create_game(client)
    # Without ply: refused with the reason, nothing applied (no way to tell a repeat from a new move).
    for _ in range(2):
        r = move(client, g, 0, "a1")
        # 400 missing_ply, as on the socket and in the docs (issue 26: it was a 422).
        assert r.status_code == 400 and r.json()["code"] == "missing_ply" and "ply" in r.json()["error"]
    assert state_of(client, g)["ply"] == 0
    # With ply: the first is applied, the second gets the same answer and changes nothing.
    first, second = move(client, g, 0, "a1", ply=0), move(client, g, 0, "a1", ply=0)
    assert first.status_code == second.status_code == 200
    assert first.json()["ply"] == second.json()["ply"] == 1 and second.json().get("repeat") is True
    s = state_of(client, g)
    assert s["ply"] == 1 and [e["text"] for e in s["log"]] == ["a1"]
    # A different move at an old ply is stale, not a repeat.
    assert move(client, g, 0, "b1", ply=0).status_code == 409
    # Over the socket: the resend gets the same ack, once more flagged as a repeat.
    with client.websocket_connect(f"/ws/games/{g['id']}?token={g['seats'][1]['token']}") as ws:
        receive(ws, "state")
        for ref in (1, 2):
            ws.send_text(json.dumps({"type": "move", "action": "b2", "ply": 1, "ref": ref}))
        acks = [receive(ws, "ack"), receive(ws, "ack")]
    assert [a["ply"] for a in acks] == [2, 2] and acks[1].get("repeat") is True
    assert [e["text"] for e in state_of(client, g)["log"]] == ["a1", "b2"]


def test_concurrent_copies_of_one_move_are_applied_once(db_url):
    async def run():
        app = create_app(db_url)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
            g = (await c.post("/api/games", json={"game": "last-mouse-lost"})).json()
            body = {"token": g["seats"][0]["token"], "action": "c3", "ply": 0}
            replies = await asyncio.gather(
                *[c.post(f"/api/games/{g['id']}/moves", json=body) for _ in range(5)]
            )
            return [r.status_code for r in replies], app.state.service.get(g["id"]).log

    codes, log = asyncio.run(run())
    assert codes == [200] * 5 and log == [(0, "c3")]


# --- item 2: a socket that never reads cannot hold a game ---------------------------------------
@pytest.fixture
def live_server(tmp_path, monkeypatch):
    """The app under uvicorn in a thread, with small outboxes so that a stalled reader shows soon."""
    monkeypatch.setattr(outbox_module, "OUTBOX_FRAMES", 16)
    monkeypatch.setattr(outbox_module, "SEND_TIMEOUT_S", 1.0)
    app = create_app(f"sqlite:///{tmp_path / 'live.sqlite'}", data_dir=tmp_path)
    base, stop = serve_in_thread(app, **uvicorn_settings())
    yield base, app
    stop()


def raw_socket_client(base, path):
    """A WebSocket client that does the handshake and then never reads (a tiny receive buffer)."""
    host, port = base.removeprefix("http://").split(":")
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect((host, int(port)))
    s.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    # Wait for the 101 as a real client does: uvicorn's h11 protocol drops whatever arrived in the
    # same read as the upgrade request, so frames sent before the answer may be lost (under load).
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(1)
        assert chunk, "the server closed the socket during the handshake"
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head[:80]
    return s


def masked_text_frame(text):
    payload = text.encode()
    mask = b"\x01\x02\x03\x04"
    header = bytes([0x81, 0x80 | len(payload)]) if len(payload) < 126 else None
    assert header is not None
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_a_never_reading_spectator_does_not_delay_the_players_acks(live_server):
    from websockets.sync.client import connect

    base, app = live_server
    g = httpx.post(base + "/api/games", json={"game": "mouse-trap", "options": {"players": 2}}).json()
    gid = g["id"]
    ws_base = base.replace("http", "ws")
    stalled = raw_socket_client(base, f"/ws/games/{gid}?token={g['spectator']['token']}")
    # It asks for full snapshots and never reads one: its outbox fills, its sends stall.
    # (The server reads its messages only as fast as its answers leave, and drops those over the
    # socket's rate: enough of them to fill every buffer on the way.)
    stalled.sendall(masked_text_frame(json.dumps({"type": "sync"})) * 3000)
    worst = 0.0
    with (
        connect(f"{ws_base}/ws/games/{gid}?token={g['seats'][0]['token']}") as a,
        connect(f"{ws_base}/ws/games/{gid}?token={g['seats'][1]['token']}") as b,
    ):
        seats = [a, b]
        latest = {}

        def until(ws, kind):
            while True:
                frame = json.loads(ws.recv(timeout=10))
                for msg in frame if isinstance(frame, list) else [frame]:
                    if msg["type"] == "state":
                        latest[ws] = msg
                    if msg["type"] == kind:
                        return msg

        until(a, "state")
        until(b, "state")
        for ref in range(60):
            s = app.state.service.get(gid)
            to_move = s.state.current_player()
            if s.state.is_terminal():
                break
            if to_move < 0:
                time.sleep(0.01)
                continue
            ws = seats[to_move]
            text = s.state.action_to_string(s.state.legal_actions()[0])
            started = time.perf_counter()
            ws.send(json.dumps({"type": "move", "action": text, "ply": s.ply(), "ref": ref}))
            ack = until(ws, "ack")
            worst = max(worst, time.perf_counter() - started)
            assert ack["ref"] == ref
        # The stalled socket is dropped (it may reconnect); the players were never held up by it.
        live = app.state.service.get(gid)
        wait_for(lambda: all(c.seat is not None for c in live.connections), timeout=30, what="the drop")
        assert len(live.connections) == 2
    stalled.close()
    # Bound: far below the stall (an old server blocked every ack for good).
    assert worst < outbox_module.SEND_TIMEOUT_S + 2.0, worst


# --- item 3: replays off the event loop ---------------------------------------------------------
def test_a_replay_runs_off_the_event_loop(db_url):
    """While a replay too long for a thread is computed (in a worker process), the event loop
    keeps ticking (on the loop it would not tick at all until the replay is done).

    The record is the first 1,300 actions of a 4,072-action game: just over
    REPLAY_IN_THREAD_ACTIONS (1,200), so it takes the worker's path, as the whole game did (the
    worker's start and the replay are the same code whatever the length; the whole game cost
    9.5 CPU s here and a 43 MB answer, 1,300 actions ~4.5 CPU s and 14 MB)."""
    record = json.loads(GOLDEN_LONG.read_text())["record"]
    record["actions"] = record["actions"][: service_module.REPLAY_IN_THREAD_ACTIONS + 100]
    record.pop("result", None)  # the game is not over at that point

    async def run():
        app = create_app(db_url)
        ticks = 0
        done = asyncio.Event()

        async def ticker():
            nonlocal ticks
            while not done.is_set():
                ticks += 1
                await asyncio.sleep(0.005)

        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
            # A short record first (replayed in a thread): the ticks below count the long one only.
            small = {"game": "last-mouse-lost", "actions": ["a1"]}
            assert (await c.post("/api/replay", json={"record": small})).status_code == 200
            assert app.state.service._cpu_pool is None
            t = asyncio.create_task(ticker())
            await asyncio.sleep(0)
            ticks_before = ticks
            r = await c.post("/api/replay", json={"record": record, "seat": 0})
            done.set()
            await t
            during = ticks - ticks_before
            pooled = app.state.service._cpu_pool is not None  # the worker's path was taken
            await app.state.service.shutdown()
            return r, during, pooled

    r, during, pooled = asyncio.run(run())
    assert r.status_code == 200 and len(r.json()["steps"]) == len(record["actions"]) + 1
    assert pooled
    assert during >= 5


def test_a_played_games_replay_answers_without_starting_a_worker_process(client):
    """A record of a played game's length is replayed in a thread: the first "Review the game" of
    a server's life does not wait for a fresh interpreter to start (10 s on a quiet machine, 49 s
    under load: judge, issue 39); only a record over REPLAY_IN_THREAD_ACTIONS uses the workers."""
    r = client.post("/api/replay", json={"record": {"game": "last-mouse-lost", "actions": ["a1"]}})
    assert r.status_code == 200 and len(r.json()["steps"]) == 2
    assert client.app.state.service._cpu_pool is None


@pytest.mark.parametrize("seat", [99, -1, True])
def test_replay_with_a_bad_seat_is_a_400(client, seat):
    r = client.post("/api/replay", json={"record": {"game": "last-mouse-lost", "actions": []}, "seat": seat})
    assert r.status_code in (400, 422) and "seat" in r.json()["error"]


# --- item 5: storage faults ----------------------------------------------------------------------
def test_a_deleted_database_file_is_detected_logged_restored_and_nothing_acked_is_lost(
    tmp_path, caplog, monkeypatch
):
    from trapworks.server import store as store_module

    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY_S", 0.05)
    path = tmp_path / "del.sqlite"
    url = f"sqlite:///{path}"
    caplog.set_level(logging.ERROR, logger="trapworks.server")
    with TestClient(create_app(url)) as c:
        g = create_game(c)
        other = create_game(c)
        assert move(c, g, 0, "a1", ply=0).status_code == 200
        path.unlink()
        time.sleep(0.3)  # the checkpoint thread and a read run meanwhile: neither makes a new file
        c.app.state.service.live.pop(other["id"])
        # Reads still come from the open (deleted) file; no empty file appears in its place.
        assert (
            c.get(f"/api/games/{other['id']}", params={"token": other["seats"][0]["token"]}).status_code
            == 200
        )
        assert not path.exists()
        r = move(c, g, 1, "b1", ply=1)
        assert r.status_code == 503 and r.json()["code"] == "storage_unavailable"
        assert "deleted" in caplog.text
        # Restored from the open connection: the server serves again, the same move now stored.
        assert path.exists()
        assert move(c, g, 1, "b1", ply=1).status_code == 200
        assert move(c, g, 0, "c1", ply=2).status_code == 200
    store = Store(url)
    assert store.load_game(g["id"]).actions == [(0, "a1"), (1, "b1"), (0, "c1")]
    store.close()


def test_a_replaced_database_file_is_refused_and_logged(tmp_path, caplog):
    path = tmp_path / "rep.sqlite"
    caplog.set_level(logging.ERROR, logger="trapworks.server")
    with TestClient(create_app(f"sqlite:///{path}")) as c:
        g = create_game(c)
        assert move(c, g, 0, "a1", ply=0).status_code == 200
        other = tmp_path / "other.sqlite"
        Store(f"sqlite:///{other}").close()
        os.replace(other, path)
        r = move(c, g, 1, "b1", ply=1)
        assert r.status_code == 503 and r.json()["ok"] is False
        assert "replaced" in caplog.text
        assert c.get("/api/catalog").status_code == 200  # still serving what needs no write


def test_an_agent_move_whose_write_fails_is_retried(client, monkeypatch):
    store = client.app.state.store
    real = store._insert
    failures = {"left": 3}

    def flaky(rows):
        if failures["left"] and rows and rows[0]["seat"] == 1:
            failures["left"] -= 1
            raise OperationalError("INSERT", {}, Exception("database or disk is full"))
        return real(rows)

    monkeypatch.setattr(store, "_insert", flaky)
    monkeypatch.setattr(Room, "_agent_is_fast", lambda room, seat: False)
    g = create_game(client, seats=[{"kind": "human"}, {"kind": "agent", "agent": "random"}])
    assert move(client, g, 0, "a1", ply=0).status_code == 200
    wait_for(lambda: state_of(client, g)["ply"] >= 2, timeout=20, what="the AI's retried move")
    assert failures["left"] == 0
    stored = store.load_game(g["id"]).actions
    assert len(stored) >= 2 and stored[1][0] == 1


def test_a_full_disk_answers_503_and_the_server_serves_again_once_space_is_back(small_disk, caplog):
    caplog.set_level(logging.ERROR, logger="trapworks.server")
    url = f"sqlite:///{small_disk / 'full.sqlite'}"
    acked = []
    with TestClient(create_app(url)) as c:
        # A match long enough to outlast the loop: a best of five could end before the WAL filled
        # the disk (to_move None; CI, 04:00 run).
        g = create_game(
            c, seats=[{"kind": "human"}, {"kind": "human"}], options={"rules": "advanced", "first_to": 60}
        )
        ply = 0
        filler = fill(small_disk)
        refused = 0
        for _ in range(200):  # until the WAL cannot grow any more
            # The seat to move, as the state says: a new round may open with either player (turns
            # do not simply alternate; a game whose round ended within the loop failed here).
            seat = state_of(c, g)["to_move"]
            s = state_of(c, g, seat)
            r = move(c, g, seat, s["view"]["legal_actions"][0]["text"], ply=ply)
            if r.status_code == 503:
                refused += 1
                assert r.json()["code"] == "storage_unavailable"
                break
            assert r.status_code == 200, r.text
            acked.append(ply)
            ply += 1
        assert refused == 1 and "storage failure" in caplog.text
        assert state_of(c, g)["ply"] == ply  # the refused move was not applied
        filler.unlink()
        seat = state_of(c, g)["to_move"]
        s = state_of(c, g, seat)
        assert move(c, g, seat, s["view"]["legal_actions"][0]["text"], ply=ply).status_code == 200
        acked.append(ply)
    store = Store(url)
    assert len(store.load_game(g["id"]).actions) == len(acked)
    store.close()


def test_an_agent_move_during_a_full_disk_is_stored_once_space_is_back(small_disk, monkeypatch):
    url = f"sqlite:///{small_disk / 'ai.sqlite'}"
    # No checkpoint during the test. A checkpoint that has copied the whole WAL into the database
    # lets the next write rewind the WAL and overwrite blocks the file already holds, so a full disk
    # does not stop it: on a loaded machine (over 2 s between start and the first move) the agent's
    # move was then stored and applied in spite of the fill (CI: ply 2 where 1 was expected).
    # Without a checkpoint the WAL only grows, and a full disk fails the agent's write every time.
    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY_S", 3600.0)
    with TestClient(create_app(url)) as c:
        g = create_game(c, seats=[{"kind": "human"}, {"kind": "agent", "agent": "random"}])
        live = c.app.state.service.get(g["id"])
        live._agent_is_fast = lambda seat: False  # the agent moves on its own (the room's advance)
        # Fill the disk between the human's stored move and the agent's: the agent's write fails.
        real = live._agent_step
        filled = {}

        async def slow_step(seat, state):
            filled["f"] = fill(small_disk)
            return await real(seat, state)

        live._agent_step = slow_step
        assert move(c, g, 0, "a1", ply=0).status_code == 200
        wait_for(lambda: "f" in filled, what="the agent thinking")
        # Two failed writes (the server's first): the agent's move was tried on the full disk and retried.
        wait_for(lambda: live._host.store_failures >= 2, what="the agent's failed writes")
        assert live.ply() == 1  # nothing applied that is not stored
        live._agent_step = real
        filled["f"].unlink()
        wait_for(lambda: state_of(c, g)["ply"] >= 2, timeout=20, what="the agent's move after the disk")
    store = Store(url)
    assert len(store.load_game(g["id"]).actions) >= 2
    store.close()


READ_ONLY_SHM_SCRIPT = r"""
import json, os, sys
from fastapi.testclient import TestClient
from trapworks.server import create_app
d, phase = sys.argv[1], sys.argv[2]
url = f"sqlite:///{d}/g.sqlite"
if phase == "make":  # a game with one move, then a hard exit: the -wal and -shm stay behind
    c = TestClient(create_app(url))
    c.__enter__()
    g = c.post("/api/games", json={"game": "last-mouse-lost"}).json()
    body = {"token": g["seats"][0]["token"], "action": "a1", "ply": 0}
    r = c.post(f"/api/games/{g['id']}/moves", json=body)
    json.dump({"g": g, "first": r.status_code}, open(f"{d}/g.json", "w"))
    os._exit(0)
g = json.load(open(f"{d}/g.json"))["g"]
shm = f"{d}/g.sqlite-shm"
os.chmod(shm, 0o444)
out = {}
with TestClient(create_app(url)) as c:
    out["read"] = c.get(f"/api/games/{g['id']}", params={"token": g["seats"][0]["token"]}).status_code
    body = {"token": g["seats"][1]["token"], "action": "b1", "ply": 1}
    out["read_only"] = c.post(f"/api/games/{g['id']}/moves", json=body).json()
    os.chmod(shm, 0o644)
    out["writable"] = c.post(f"/api/games/{g['id']}/moves", json=body).json()
print(json.dumps(out))
"""


@pytest.fixture
def shared_folder():
    """A folder another user can use (pytest's own are private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="trapworks-shm-"))
    folder.chmod(0o777)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_a_read_only_shm_file_is_a_503_not_a_crash_and_writes_resume_once_it_is_writable(shared_folder):
    """As a user who cannot write the -shm file (root could): the server reads, refuses moves with
    a 503 and a log line naming the file, and stores them once the file is writable again."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to run the server as another user")
    folder = shared_folder
    script = folder / "run.py"
    script.write_text(READ_ONLY_SHM_SCRIPT)
    script.chmod(0o644)
    as_nobody = [
        "setpriv",
        "--reuid=nobody",
        "--regid=nogroup",
        "--clear-groups",
        sys.executable,
        str(script),
    ]
    probe = subprocess.run(
        [*as_nobody[:-1], "-c", "import trapworks"], capture_output=True, timeout=60, cwd="/tmp"
    )
    if probe.returncode != 0:  # e.g. a checkout inside a folder private to root (mktemp -d)
        pytest.skip("user nobody cannot run this checkout's Python: " + probe.stderr.decode()[-200:])
    subprocess.run([*as_nobody, str(folder), "make"], check=True, timeout=120, cwd="/tmp")
    run = subprocess.run(
        [*as_nobody, str(folder), "use"], capture_output=True, text=True, timeout=120, cwd="/tmp"
    )
    assert run.returncode == 0, run.stderr  # no crash (the issue saw SIGBUS)
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["read"] == 200
    assert out["read_only"]["code"] == "storage_unavailable"
    assert "g.sqlite-shm is read-only" in run.stderr
    assert out["writable"] == {"ok": True, "ply": 2, "repeat": False}
    store = Store(f"sqlite:///{folder / 'g.sqlite'}")
    gid = json.loads((folder / "g.json").read_text())["g"]["id"]
    assert store.load_game(gid).actions == [(0, "a1"), (1, "b1")]
    store.close()


def test_booby_trap_physics_runs_in_the_apply_threads_once_it_is_slow(client, monkeypatch):
    """A removal's physics takes tens of ms: after one, the game's actions apply in a thread pool
    (pymunk's C code then runs while the event loop serves the other games)."""
    svc = client.app.state.service
    seats = [{"kind": "human"}, {"kind": "agent", "agent": "heuristic"}]
    g = create_game(client, game="booby-trap", seats=seats)
    threads = set()
    real = Room._apply_timed

    def spy(room, state, action):
        threads.add(threading.current_thread().name)
        return real(room, state, action)

    monkeypatch.setattr(Room, "_apply_timed", spy)
    for _ in range(12):
        s = wait_for(
            lambda: (st := state_of(client, g))["to_move"] in (0, None) and st, timeout=30, what="turn"
        )
        if s["terminal"]:
            break
        legal = [a["text"] for a in s["view"]["legal_actions"]]
        # Touch a piece, then remove it: removals run the physics.
        action = next((t for t in legal if "remove" in t), legal[0])
        assert move(client, g, 0, action, ply=s["ply"]).status_code == 200
    assert svc.get(g["id"])._apply_is_slow()
    assert any(name.startswith("apply") for name in threads), threads
    assert len(svc.get(g["id"]).log) >= 12  # the agent replied throughout
