import pytest
from fastapi.testclient import TestClient

from trapworks.server import create_app

from .web_helpers import CHROMIUM, CHROMIUM_ARGS, poll_without_eval, serve_in_thread, small_tmpfs


@pytest.fixture(scope="module")
def browser():
    """Debian's headless Chromium driven by Playwright, one per test module (not one per run:
    while Playwright's sync API is started its event loop counts as running in this thread, and
    the next modules' asyncio.run() would fail)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    poll_without_eval()  # the pages forbid eval (their CSP): Playwright must poll without it
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(autouse=True)
def close_leftover_pages(request):
    """After a browser test, the contexts it left open (a failed test's, one a test forgot) are
    closed: the browser lives on for the module's next tests, and those pages would keep running
    (sockets, clocks, timers) in it, on the same two cores."""
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()


@pytest.fixture(scope="module")
def inprocess_server(tmp_path_factory):
    """The web app under uvicorn in a thread of this process, on a free loopback port; its URL."""
    folder = tmp_path_factory.mktemp("web")
    base, stop = serve_in_thread(create_app(f"sqlite:///{folder / 'trapworks.db'}", data_dir=folder))
    yield base
    stop()


@pytest.fixture
def small_disk(tmp_path):
    """A 4 MB file system of its own (tmpfs)."""
    with small_tmpfs(tmp_path, "4m") as mount:
        yield mount


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
