"""The arena loop, the Swiss page, the claim countdown and a late spectator in headless Chromium
(issue 41, the judge's list):
- Alice makes an arena with the form (its clock 30 s a move unless changed) and joins: the page
  says she waits for an opponent and offers Pause, not Join; Bob joins from another page of the
  site (the leaderboards): both are taken to their game at once; at its end the end screen leads
  "Back to the arena", where the standings have the game; paired again, Bob, still on the finished
  game's page, is told his next game starts in a few seconds and is taken to it.
- A Swiss tournament is made, joined and started on /swiss (reachable from the arena page); its
  page shows the round's pairings and the standings with their tie-breaks.
- A player whose opponent is gone reads the countdown to the claim, which goes when they are back.
- A spectator whose page falls behind a game's quick moves jumps to the current move.
- The community forms' fields are 18 px, in the tokens' colours in the dark theme.
Screenshots land in artifacts/web/community/."""

from __future__ import annotations

import re

import httpx
import pytest

from trapworks.server import create_app
from web.accounts_helpers import SMALL_LML, play_to_end, unique
from web.test_accounts_browser import person, sign_up, token_of
from web.web_helpers import ARTIFACTS, serve_in_thread

pytestmark = pytest.mark.browser
SHOTS = ARTIFACTS / "community"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("arena-browser")
    app = create_app(f"sqlite:///{folder / 'trapworks.db'}", data_dir=folder)
    app.state.arenas.wave_s = 0.2
    base, stop = serve_in_thread(app)
    yield base, app
    stop()


def _join_by_api(page, arena_id: str) -> None:
    """Join from whatever page the player is on (the account's CSRF token, as the pages send it)."""
    page.evaluate(
        """async (id) => {
            const me = await (await fetch('/api/account/me')).json();
            const r = await fetch(`/api/community/arenas/${id}/join`,
                {method: 'POST', headers: {'x-csrf-token': me.csrf}});
            if (!r.ok) throw new Error(await r.text());
        }""",
        arena_id,
    )


def test_paired_players_go_to_their_game_and_come_back_to_the_arena(browser, server):
    base, app = server
    SHOTS.mkdir(parents=True, exist_ok=True)
    app.state.arenas.rematch_wait_s = 600.0  # the two meet again only when the test says so
    alice, bob = unique("alice"), unique("bob")
    ca, a = person(browser, base)
    cb, b = person(browser, base)
    for page in (a, b):  # pairing waves, a game, the end and the next pairing: slow on a loaded machine
        page.set_default_timeout(60000)
    try:
        sign_up(a, alice)
        sign_up(b, bob)
        a.goto("/arena")
        a.wait_for_selector("body[data-ready]")
        assert a.input_value("[data-testid=arena-new-clock]") == "30"  # a sensible default clock
        a.click("[data-testid=to-swiss]")
        a.wait_for_url("**/swiss")
        a.go_back()
        a.wait_for_selector("body[data-ready]")
        if not a.evaluate("document.getElementById('create-box').open"):
            a.click("[data-testid=create-own]")  # folded under the arenas when there are some
        a.fill("[data-testid=arena-new-name]", "Evening arena")
        a.select_option("[data-testid=arena-new-game]", "last-mouse-lost")
        box = a.locator("[data-testid=arena-options]")
        box.locator("[data-option=board]").fill(",".join(map(str, SMALL_LML["board"])))
        box.locator("[data-option=first_to]").fill(str(SMALL_LML["first_to"]))
        a.select_option("[data-testid=arena-new-clock]", "")  # no clock: the test plays by the API
        a.click("[data-testid=arena-create]")
        a.wait_for_url(re.compile(r"/arena\?id="))
        a.wait_for_selector("[data-testid=arena-you]:has-text('Join to play')")
        assert a.is_visible("[data-testid=arena-join]") and not a.is_visible("[data-testid=arena-leave]")
        aid = a.url.split("id=")[1]
        a.click("[data-testid=arena-join]")
        a.wait_for_selector("[data-testid=arena-you]:has-text('your next game starts as soon as')")
        assert a.is_visible("[data-testid=arena-leave]") and not a.is_visible("[data-testid=arena-join]")
        a.screenshot(path=str(SHOTS / "arena-waiting.png"), full_page=True)
        # Bob joins from the leaderboards: both are taken to the game at once
        b.goto("/leaderboard")
        b.wait_for_selector("[data-testid=nav-username]")
        _join_by_api(b, aid)
        a.wait_for_url("**/g/**", timeout=60000)
        b.wait_for_url("**/g/**", timeout=60000)
        gid = a.url.split("/g/")[1].split("#")[0]
        assert gid == b.url.split("/g/")[1].split("#")[0]
        tokens = {token_of(a), token_of(b)}
        live = app.state.service.get(gid)
        seats = [s["token"] for s in live.stored.seats]
        assert set(seats) == tokens  # each on their own seat
        with httpx.Client(base_url=base) as h:
            play_to_end(h, gid, seats)
        a.wait_for_selector("[data-testid=back-to-arena]", timeout=60000)
        assert a.locator(".end-screen .actions > *").first.get_attribute("data-testid") == "back-to-arena"
        a.screenshot(path=str(SHOTS / "arena-game-end.png"))
        a.click("[data-testid=back-to-arena]")
        a.wait_for_url(f"**/arena?id={aid}")
        a.wait_for_selector(f"[data-player='{alice}']")
        a.wait_for_selector("[data-testid=arena-you]:has-text('your next game starts as soon as')")
        # paired again: Bob, on the finished game's page, is told, then taken to the new game
        app.state.arenas.rematch_wait_s = 0.0
        b.wait_for_selector(
            "[data-testid=arena-next]:has-text('Your next arena game starts in')", timeout=60000
        )
        b.screenshot(path=str(SHOTS / "arena-next-game.png"))
        b.wait_for_url(lambda url: "/g/" in url and gid not in url, timeout=60000)
        a.wait_for_url(lambda url: "/g/" in url and gid not in url, timeout=60000)  # from the arena page
        assert not a.errors and not b.errors, (a.errors, b.errors)
    finally:
        ca.close()
        cb.close()


def test_a_swiss_tournament_on_its_page(browser, server):
    base, _app = server
    sue, tom = unique("sue"), unique("tom")
    cs, s = person(browser, base)
    ct, t = person(browser, base)
    try:
        sign_up(s, sue)
        sign_up(t, tom)
        s.goto("/swiss")
        s.wait_for_selector("body[data-ready]")
        assert s.get_attribute("nav a[href='/swiss']", "aria-current") == "page"
        s.fill("[data-testid=swiss-new-name]", "Winter Swiss")
        s.select_option("[data-testid=swiss-new-game]", "last-mouse-lost")
        s.click("[data-testid=swiss-create]")
        s.wait_for_url(re.compile(r"/swiss\?id="))
        s.wait_for_selector("[data-testid=swiss-join]:visible")
        s.click("[data-testid=swiss-join]")
        s.wait_for_selector("[data-testid=swiss-you]:has-text('You are in')")
        t.goto(s.url)
        t.wait_for_selector("[data-testid=swiss-join]:visible")
        assert not t.is_visible("[data-testid=swiss-start]")  # only its creator starts it
        t.click("[data-testid=swiss-join]")
        t.wait_for_selector(f"[data-testid=swiss-standings] [data-player='{tom}']")
        s.click("[data-testid=swiss-start]")
        s.wait_for_selector("[data-testid=swiss-round-1] .arena-item")
        s.wait_for_selector("[data-testid=swiss-list] :text('2 players')")  # the list follows
        row = s.inner_text("[data-testid=swiss-round-1] .arena-item")
        assert sue in row and tom in row
        heads = s.locator("[data-testid=swiss-standings] th").all_inner_texts()
        assert "Buchholz" in heads and "Sonneborn-Berger" in heads
        assert s.evaluate("document.documentElement.scrollWidth <= innerWidth")
        s.screenshot(path=str(SHOTS / "swiss.png"), full_page=True)
        # the list shows it
        s.goto("/swiss")
        s.wait_for_selector("[data-testid=swiss-list] :text('Winter Swiss')")
        assert not s.errors and not t.errors
    finally:
        cs.close()
        ct.close()


def test_the_claim_countdown_and_a_spectator_behind_the_game(browser, server):
    base, _app = server
    with httpx.Client(base_url=base) as h:
        g = h.post(
            "/api/games",
            json={
                "game": "mouse-trap",
                "seats": [{"kind": "human"}, {"kind": "human"}],
                "hand_over_after": 90,
            },
        ).json()
        gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
        c0, p0 = person(browser, base)
        c1, p1 = person(browser, base)
        cw, w = person(browser, base)
        try:
            p0.goto(f"/g/{gid}#t={t0}&fast")
            # seat 2 never came: the countdown to the claim, counting down
            line = p0.locator("[data-testid=claim-countdown-1]")
            line.wait_for(timeout=60000)
            first = line.inner_text()
            assert re.search(r"is not here\. You can claim the win in 1:[0-2]\d\.", first), first
            p0.wait_for_function(
                "(t) => document.querySelector('[data-testid=claim-countdown-1]').textContent !== t",
                arg=first,
            )
            p0.screenshot(path=str(SHOTS / "claim-countdown.png"))
            # back: the countdown goes
            p1.goto(f"/g/{gid}#t={t1}&fast")
            line.wait_for(state="detached", timeout=60000)
            # A spectator whose page draws slowly falls behind quick moves: it jumps to the
            # current move instead of pacing through each (before: each drawn, one by one).
            w.goto(f"/g/{gid}#t={g['spectator']['token']}")
            w.wait_for_selector("body[data-ply]")
            w.evaluate(
                """() => { window.__plies = new Set();
                   new MutationObserver(() => window.__plies.add(document.body.dataset.ply))
                     .observe(document.body, {attributes: true, attributeFilter: ['data-ply']}); }"""
            )
            cdp = cw.new_cdp_session(w)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 8})
            made = 0
            for _ in range(12):
                st = h.get(f"/api/games/{gid}", params={"token": t0}).json()["state"]
                if st["terminal"]:
                    break
                seat = st["to_move"]
                tok = [t0, t1][seat]
                mine = h.get(f"/api/games/{gid}", params={"token": tok}).json()["state"]
                action = mine["view"]["legal_actions"][0]["text"]
                r = h.post(
                    f"/api/games/{gid}/moves", json={"token": tok, "action": action, "ply": mine["ply"]}
                )
                assert r.status_code == 200, r.text
                made += 1
            final = h.get(f"/api/games/{gid}", params={"token": t0}).json()["state"]["ply"]
            w.wait_for_selector(f"body[data-ply='{final}']", timeout=60000)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
            drawn = w.evaluate("window.__plies.size")
            assert made >= 6 and drawn < made, (drawn, made)
        finally:
            for c in (c0, c1, cw):
                c.close()


def test_community_forms_are_the_sites_fields_in_the_dark_theme(browser, server):
    base, _app = server
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=base, color_scheme="dark")
    page = context.new_page()
    try:
        for path, field in (
            ("/arena", "arena-new-name"),
            ("/friends", "follow-name"),
            ("/swiss", "swiss-new-name"),
        ):
            page.goto(path)
            page.wait_for_selector("body[data-ready]", state="attached")
            style = page.evaluate(
                """(id) => { const s = getComputedStyle(document.querySelector(`[data-testid=${id}]`));
                   const tokens = getComputedStyle(document.documentElement);
                   return [s.fontSize, s.backgroundColor, s.color, document.documentElement.dataset.theme,
                           document.documentElement.scrollWidth <= innerWidth]; }""",
                field,
            )
            assert style[0] == "18px" and style[3] == "dark" and style[4], (path, style)
            assert style[1] == "rgb(28, 25, 23)", (path, style)  # --color-input-bg of the dark theme
            page.screenshot(path=str(SHOTS / f"form-dark{path.replace('/', '-')}.png"), full_page=True)
        # the site's 404 page for nobody
        r = page.goto("/u/nobody-at-all")
        assert r is not None and r.status == 404
        page.wait_for_selector("[data-testid=not-found]")
    finally:
        context.close()
