"""Issue 26, item 8 in headless Chromium: the pages run under their Content-Security-Policy with no
violation (lobby, each game's page, the replay pages); another site cannot frame the game page,
and can frame the embeddable replay."""

from __future__ import annotations

import contextlib
import http.server
import os
import threading

import httpx
import pytest

from .web_helpers import CHROMIUM, ServerProcess

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium"),
]
sync_api = pytest.importorskip("playwright.sync_api")

RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sourceFile || '')));
"""


@contextlib.contextmanager
def other_site(html: str):
    """A plain web server on another port of this machine (no security headers) serving `html`."""
    body = html.encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            self.send_response(200)
            self.send_header("content-type", "text/html")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}/"
    finally:
        srv.shutdown()
        srv.server_close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("security-home")).start()
    yield s
    s.stop()


def watched_page(browser, console):
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    ctx.add_init_script(RECORD_VIOLATIONS)
    page = ctx.new_page()
    page.on("console", lambda m: console.append(m.text))
    page.on("pageerror", lambda e: console.append(f"pageerror: {e}"))
    return page


def violations(page, console):
    found = page.evaluate("window.__csp")
    return found + [c for c in console if "Content Security Policy" in c or "Refused to" in c]


def test_every_page_runs_with_no_csp_violation(server, browser):
    for game in ("last-mouse-lost", "booby-trap", "mouse-trap", "dead-end-drive"):
        console: list[str] = []
        page = watched_page(browser, console)
        r = httpx.post(
            server.url + "/api/games",
            json={
                "game": game,
                "seats": [{"kind": "human"}]
                + [{"kind": "agent", "agent": "random"}] * (3 if game == "dead-end-drive" else 1),
            },
            timeout=30,
        )
        assert r.status_code == 201, r.text
        g = r.json()
        page.goto(g["seats"][0]["link"] + "&fast")
        page.wait_for_function("document.body.dataset.ply !== undefined", timeout=20000)
        page.wait_for_selector("svg", timeout=20000)
        page.wait_for_timeout(300)
        assert violations(page, console) == [], game
        page.context.close()
    # The replay pages: by the seat's token, the public link and the embed of a finished game.
    g = httpx.post(server.url + "/api/games", json={"game": "last-mouse-lost"}, timeout=30).json()
    httpx.post(f"{server.url}/api/games/{g['id']}/resign", json={"token": g["seats"][1]["token"]}, timeout=30)
    for url in (
        f"{server.url}/replay#g={g['id']}&t={g['seats'][0]['token']}",
        f"{server.url}/replay/{g['id']}",
        f"{server.url}/replay/{g['id']}?embed=1",
        f"{server.url}/replay",
    ):
        console = []
        page = watched_page(browser, console)
        page.goto(url)
        page.wait_for_function("document.body.dataset.ready === '1'", timeout=20000)
        assert violations(page, console) == [], url
        page.context.close()
    console = []
    page = watched_page(browser, console)
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=open-new-game]", timeout=20000)  # the home page
    page.wait_for_timeout(500)
    assert violations(page, console) == [], "lobby"
    page.context.close()


def test_another_site_cannot_frame_the_game_page_but_can_frame_the_embedded_replay(server, browser):
    g = httpx.post(server.url + "/api/games", json={"game": "last-mouse-lost"}, timeout=30).json()
    httpx.post(f"{server.url}/api/games/{g['id']}/resign", json={"token": g["seats"][1]["token"]}, timeout=30)
    game_url = f"{server.url}/g/{g['id']}#t={g['seats'][0]['token']}"
    embed_url = f"{server.url}/replay/{g['id']}?embed=1"
    lobby_url = f"{server.url}/"
    console: list[str] = []
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    page = ctx.new_page()
    page.on("console", lambda m: console.append(m.text))
    html = (
        f'<iframe name="game" src="{game_url}" width="600" height="400"></iframe>'
        f'<iframe name="lobby" src="{lobby_url}" width="600" height="400"></iframe>'
        f'<iframe name="embed" src="{embed_url}" width="860" height="600"></iframe>'
    )
    # A page of another site (another port: another origin) frames them.
    with other_site(html) as other:
        page.goto(other)
        page.wait_for_function("window.frames.length === 3", timeout=10000)
        embed = page.frame(name="embed")
        embed.wait_for_function("document.body.dataset.ready === '1'", timeout=20000)
        # The two refusals are told on the console as the frames load (a fixed 500 ms was a guess
        # on a loaded machine): wait for them, a while at most.
        for _ in range(100):
            if sum("frame-ancestors" in c for c in console) >= 2:
                break
            page.wait_for_timeout(100)  # (Playwright delivers console events while it waits)
    assert embed.evaluate("document.body.dataset.step") is not None  # the replay plays there
    for name in ("game", "lobby"):
        frame = page.frame(name=name)
        # A refused frame shows the browser's error page: none of the app's page is there.
        loaded = frame.evaluate(
            "() => { try { return !!document.querySelector('script[src^=\"/static\"]'); }"
            " catch (e) { return false; } }"
        )
        assert not loaded, f"the {name} page was framed by another site"
    assert sum("frame-ancestors" in c for c in console) >= 2, console
    ctx.close()
