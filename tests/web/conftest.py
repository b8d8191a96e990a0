import socket
import threading
import time

import httpx
import pytest
from fastapi.testclient import TestClient

from trapworks.server import create_app

from .web_helpers import CHROMIUM, CHROMIUM_ARGS, poll_without_eval


@pytest.fixture(scope="module")
def browser():
    """Debian's headless Chromium driven by Playwright, one per test module."""
    sync_api = pytest.importorskip("playwright.sync_api")
    poll_without_eval()  # the pages forbid eval (their CSP): Playwright must poll without it
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def inprocess_server(tmp_path_factory):
    """The web app under uvicorn in a thread of this process, on a free loopback port; its URL."""
    import uvicorn

    folder = tmp_path_factory.mktemp("web")
    app = create_app(f"sqlite:///{folder / 'trapworks.db'}", data_dir=folder)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            if httpx.get(base + "/api/catalog", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.1)
    yield base
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def db_url(tmp_path):
    return f"sqlite:///{tmp_path / 'web.sqlite'}"


@pytest.fixture
def client(db_url):
    with TestClient(create_app(db_url)) as c:
        yield c


def create_game(client, game="last-mouse-lost", seats=None, **body):
    seats = seats or [{"kind": "human"}, {"kind": "human"}]
    r = client.post("/api/games", json={"game": game, "seats": seats, **body})
    assert r.status_code == 201, r.text
    return r.json()
