"""The community in headless Chromium with three accounts (issue 41, must show): Alice follows
Bob and challenges him by name on the friends page; Bob accepts, both pages open the game and it
is played to the end; Bob insults Alice in the chat; Bob blocks Alice: her challenge is refused
with the reason, and their quick-game seeks are never paired; Alice reports Bob's chat line;
Carol, made a moderator with `trapworks admin grant-moderator`, reads the report and the line in
its context on the moderation page, mutes Bob (his next chat line is refused), then bans him: his
session ends and his log-in is refused. Screenshots land in artifacts/web/community/."""

from __future__ import annotations

import json
import re
import time

import httpx
import pytest
from typer.testing import CliRunner

from trapworks.cli import app as cli_app
from trapworks.server import create_app
from web.accounts_helpers import PASSWORD, SMALL_LML, play_to_end, unique
from web.test_accounts_browser import person, sign_up, token_of
from web.web_helpers import ARTIFACTS, serve_in_thread

pytestmark = pytest.mark.browser
SHOTS = ARTIFACTS / "community"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("community")
    db = f"sqlite:///{folder / 'trapworks.db'}"
    base, stop = serve_in_thread(create_app(db, data_dir=folder))
    yield base, db
    stop()


def friends_page(page):
    page.goto("/friends")
    page.wait_for_selector("body[data-ready]")


def tab(page, name: str) -> None:
    """The friends page's tab `name` (friends, challenges, safety) shown."""
    page.click(f"[data-testid=tab-{name}]")
    page.wait_for_selector(f"#panel-{name}:not([hidden])")


def notice(page, text: str) -> None:
    """The page's status line says `text` (waited for: the request may still be on its way)."""
    page.wait_for_selector(
        f"[data-testid=notice]:not([hidden]):has-text({json.dumps(text, ensure_ascii=False)})"
    )
    assert page.inner_text("[data-testid=notice]") == text


def choose_small_lml(page) -> None:
    """SMALL_LML chosen in the challenge form's options (the game's own controls, no JSON)."""
    box = page.locator("[data-testid=challenge-options]")
    box.locator("[data-option=board]").fill(",".join(map(str, SMALL_LML["board"])))
    box.locator("[data-option=first_to]").fill(str(SMALL_LML["first_to"]))


def test_follow_challenge_play_block_report_mute_ban(browser, server):
    base, db = server
    SHOTS.mkdir(parents=True, exist_ok=True)
    alice, bob, carol = unique("alice"), unique("bob"), unique("carol")
    ca, a = person(browser, base)
    cb, b = person(browser, base)
    cc, c = person(browser, base)
    try:
        for page, name in ((a, alice), (b, bob), (c, carol)):
            sign_up(page, name)

        # Follow, then challenge by name.
        friends_page(b)  # Bob is online
        friends_page(a)
        a.fill("[data-testid=follow-name]", bob)
        a.click("[data-testid=follow-submit]")
        a.wait_for_selector(f"[data-friend='{bob}'] [data-testid=presence]:has-text('online')")
        tab(a, "challenges")
        a.fill("[data-testid=challenge-name]", bob)
        a.select_option("[data-testid=challenge-game]", "last-mouse-lost")
        choose_small_lml(a)
        a.select_option("[data-testid=challenge-clock]", "")
        a.check("[data-testid=challenge-rated]")
        # what Bob will read, as a sentence (issue 41: the judge read raw JSON, 1,205 px wide)
        a.wait_for_selector(
            f"[data-testid=challenge-preview]:has-text('You challenge {bob} to Last Mouse Lost, 2 players,"
            " no clock, rated')"
        )
        a.click("[data-testid=challenge-submit]")
        notice(a, f"Challenge sent to {bob}.")
        a.wait_for_selector("[data-testid=outgoing] [data-status=open]")
        b.wait_for_selector("[data-testid=incoming-count]:has-text('1')")  # seen from the Friends tab
        tab(b, "challenges")
        b.wait_for_selector("[data-testid=incoming] [data-status=open]")
        assert b.inner_text("[data-testid=incoming] [data-testid=challenge-text]") == (
            f"{alice} challenges you to Last Mouse Lost, basic rules, 2 players, no clock, rated"
        )
        assert b.evaluate("document.documentElement.scrollWidth <= innerWidth")
        b.screenshot(path=str(SHOTS / "challenge-received.png"), full_page=True)
        b.click("[data-testid=incoming] [data-status=open] [data-testid=accept]")
        b.wait_for_url("**/g/**", timeout=30000)
        a.wait_for_url("**/g/**", timeout=30000)  # the sender's page follows to the game
        gid = a.url.split("/g/")[1].split("#")[0]
        assert gid == b.url.split("/g/")[1].split("#")[0]
        tokens = {}
        for page in (a, b):
            page.wait_for_selector("body[data-ply]")
            info = httpx.get(f"{base}/api/games/{gid}", params={"token": token_of(page)}, timeout=30).json()[
                "info"
            ]
            tokens[info["seat"]] = (page, token_of(page))
        assert set(tokens) == {0, 1}

        # Bob says something rude in the chat, then they play to the end on the pages.
        b.fill("[data-testid=chat-input]", "you play like a potato")
        b.press("[data-testid=chat-input]", "Enter")
        a.wait_for_selector("[data-testid=chat-text]:has-text('potato')")
        for _ in range(100):
            state = httpx.get(f"{base}/api/games/{gid}", params={"token": tokens[0][1]}, timeout=30).json()[
                "state"
            ]
            if state["terminal"]:
                break
            page, token = tokens[state["to_move"]]
            mine = httpx.get(f"{base}/api/games/{gid}", params={"token": token}, timeout=30).json()["state"]
            page.wait_for_selector(f"body[data-ply='{mine['ply']}']")
            page.fill("#typed-action", mine["view"]["legal_actions"][-1]["text"])
            page.press("#typed-action", "Enter")
            page.wait_for_selector(f"body[data-ply]:not([data-ply='{mine['ply']}'])")
        assert state["terminal"]
        profile = httpx.get(f"{base}/api/players/{alice}", timeout=30).json()
        assert profile["recent"][0]["id"] == gid and profile["recent"][0]["rated"] is True
        # her profile: the rating chart (the accounts'), results against Bob, no trophy yet
        a.goto(f"/u/{alice}")
        a.wait_for_selector("body[data-community-ready]")
        a.wait_for_selector(f"[data-testid=opponents] [data-opponent='{bob}'] [data-k=played]:has-text('1')")
        # a dot per rated game (issue 39; not the hollow start dot); the chart is drawn after the
        # profile's other parts load
        a.wait_for_selector("[data-testid=rating-chart] circle", timeout=30000)
        assert a.locator("[data-testid=rating-chart] circle.dot:not(.start)").count() == 1
        assert "No trophy yet." in a.inner_text("[data-testid=trophies]")

        # Bob blocks Alice: her challenge is refused with the reason; their seeks never pair.
        friends_page(b)
        tab(b, "safety")
        b.fill("[data-testid=block-name]", alice)
        b.click("[data-testid=block-submit]")
        b.wait_for_selector(f"[data-blocked='{alice}']")
        friends_page(a)
        assert a.locator(f"[data-friend='{bob}']").count() == 0  # the block ended the follow
        tab(a, "challenges")
        a.fill("[data-testid=challenge-name]", bob)
        a.select_option("[data-testid=challenge-game]", "last-mouse-lost")
        choose_small_lml(a)
        a.click("[data-testid=challenge-submit]")
        notice(a, f"{bob} does not accept challenges from you")
        a.screenshot(path=str(SHOTS / "challenge-refused.png"), full_page=True)
        seeks = {}
        for page in (a, b):
            r = page.evaluate(
                """async (body) => {
                    const me = await (await fetch('/api/account/me')).json();
                    const headers = {'content-type': 'application/json',
                        'x-csrf-token': me.csrf};
                    const init = {method: 'POST', headers, body: JSON.stringify(body)};
                    const r = await fetch('/api/seeks', init);
                    return await r.json();
                }""",
                {"game": "last-mouse-lost", "options": SMALL_LML, "rated": False, "ai_after": None},
            )
            seeks[page] = r
        time.sleep(2)
        for page in (a, b):
            again = httpx.get(f"{base}/api/seeks/{seeks[page]['seek']}", timeout=30).json()
            assert again["status"] == "waiting", again
        for page in (a, b):
            httpx.delete(f"{base}/api/seeks/{seeks[page]['seek']}", timeout=30)

        # Alice reports Bob's chat line from the game's chat: its menu (no id or number to type).
        line = next(x for x in httpx_chat(base, gid, tokens[0][1]) if "potato" in x["text"])
        alice_token = next(token for page, token in tokens.values() if page is a)
        a.goto(f"/g/{gid}#t={alice_token}")
        a.locator(f"[data-chat-id='{line['id']}'] [data-testid=chat-more]").click()
        mine = a.locator(f"[data-testid=chat-menu][data-chat-id='{line['id']}']")
        assert "potato" in mine.inner_text()
        mine.locator("[data-testid=chat-report]").click()
        mine.locator("[data-testid=report-reason]").select_option("abuse")
        mine.locator("[data-testid=report-details]").fill("insults after the game")
        a.screenshot(path=str(SHOTS / "chat-report.png"), full_page=True)
        mine.locator("[data-testid=report-send]").click()
        mine.locator(
            "[data-testid=report-note]:has-text('Thank you: the moderators will read your report.')"
        ).wait_for()
        # ... and mutes him from the same menu: his lines are hidden from her, the friends page lists him
        more = a.locator(f"[data-chat-id='{line['id']}'] [data-testid=chat-more]")
        more.click()  # closes the menu
        more.click()
        mine.locator("[data-testid=chat-mute]").click()
        hidden = f"{bob}'s chat lines are hidden from you."
        a.wait_for_selector(f"[data-testid=chat-menu-note]:has-text({json.dumps(hidden)})")
        assert a.locator(f"li[data-chat-id='{line['id']}']").is_hidden()
        friends_page(a)
        tab(a, "safety")
        a.wait_for_selector("[data-testid=report-status]:has-text('open')")
        assert bob in a.inner_text("[data-testid=muted]")
        a.click("[data-testid=muted] [data-testid=unmute]")  # (the moderator's mute below is read unmuted)
        notice(a, f"{bob} is unmuted.")

        # Carol is refused the moderation page until the command line makes her a moderator.
        c.goto("/mod")
        c.wait_for_selector("body[data-ready]")
        assert c.inner_text("[data-testid=refused]") == "this is for moderators"
        result = CliRunner().invoke(cli_app, ["admin", "grant-moderator", carol, "--db", db])
        assert result.exit_code == 0, result.output
        c.goto("/mod")
        c.wait_for_selector("body[data-ready]")
        row = c.locator("[data-testid=queue] [data-report]").filter(has_text=bob)
        assert "potato" in row.inner_text()
        row.locator("[data-testid=context]").click()
        c.wait_for_selector("[data-testid=context] tr.reported:has-text('potato')")
        row.locator("[data-testid=handle]").click()
        c.wait_for_selector(f"[data-testid=history-name]:has-text('{bob}')")
        c.fill("[data-testid=mod-reason]", "insulting an opponent")
        c.fill("[data-testid=mod-minutes]", "30")
        c.click("[data-testid=mod-mute]")
        c.wait_for_selector("[data-testid=history-name]:has-text('(muted)')")
        c.wait_for_selector("[data-testid=audit-action]:has-text('mute')")
        assert c.locator("[data-testid=queue] [data-report]").count() == 0  # answered: closed
        c.screenshot(path=str(SHOTS / "moderation.png"), full_page=True)

        # Muted: Bob's next chat line is refused and nobody sees it.
        b.goto(f"/g/{gid}#t={tokens[1][1] if tokens[1][0] is b else tokens[0][1]}")
        b.wait_for_selector("body[data-ply]")
        b.fill("[data-testid=chat-input]", "another potato")
        b.press("[data-testid=chat-input]", "Enter")
        b.wait_for_selector("[data-testid=chat-note]:has-text('muted you')")
        assert not any("another potato" in x["text"] for x in httpx_chat(base, gid, tokens[0][1]))

        # Banned: his session ends and his log-in is refused with the reason.
        c.fill("[data-testid=mod-reason]", "insults again")
        c.click("[data-testid=mod-ban]")
        c.wait_for_selector("[data-testid=history-name]:has-text('(banned)')")
        b.goto("/account")
        b.wait_for_selector("body[data-ready]")
        assert b.locator("#logged-in:not([hidden])").count() == 0
        b.fill("[data-testid=login-username]", bob)
        b.fill("[data-testid=login-password]", PASSWORD)
        b.click("[data-testid=login-submit]")
        b.wait_for_selector("text=this account is banned")
        b.screenshot(path=str(SHOTS / "banned-log-in.png"), full_page=True)
        a.goto("/account")  # the others are untouched
        a.wait_for_selector("#logged-in:not([hidden])")
        assert a.errors == [] and b.errors == [] and c.errors == []  # type: ignore[attr-defined]
    finally:
        for ctx in (ca, cb, cc):
            ctx.close()


def httpx_chat(base: str, gid: str, token: str) -> list[dict]:
    """The game's chat lines as a seat's socket greets it (the sync client: Playwright's loop runs)."""
    from websockets.sync.client import connect

    with connect(base.replace("http", "ws") + f"/ws/games/{gid}?token={token}") as ws:
        return json.loads(ws.recv())["chat"]["lines"]


def _api(page, method: str, url: str, body=None):
    """A request from the page with its session and CSRF token; the reply's JSON."""
    return page.evaluate(
        """async ([method, url, body]) => {
            const me = await (await fetch('/api/account/me')).json();
            const init = {method, headers: {'content-type': 'application/json', 'x-csrf-token': me.csrf}};
            if (body !== null) init.body = JSON.stringify(body);
            return await (await fetch(url, init)).json();
        }""",
        [method, url, body],
    )


def challenge_accepted(a, b, username: str) -> dict:
    """`a` challenges `username` (signed in on `b`) to a small Last Mouse Lost; `b` accepts."""
    sent = _api(
        a,
        "POST",
        "/api/community/challenges",
        {"username": username, "game": "last-mouse-lost", "options": SMALL_LML},
    )
    return _api(b, "POST", f"/api/community/challenges/{sent['challenge']['id']}/accept")


def test_every_community_page_in_french_has_no_english_left(browser, server):
    """A French browser on the friends, watch, arena, moderation and mail pages, each with rows in
    its tables (a friend, challenges both ways, a block, a mute, a report, a live game between two
    accounts, an arena with standings, a player's history): no English left; a refusal of the
    server (an unknown player) reads in French with its name."""
    from web.test_i18n_browser import english_left, english_probes, proper_nouns

    base, db = server
    probes = english_probes()
    fra, frb = unique("fra"), unique("frb")
    names = [fra, frb, *proper_nouns()]
    contexts = []
    pages = []
    for name in (fra, frb):
        ctx = browser.new_context(viewport={"width": 1366, "height": 900}, base_url=base, locale="fr-FR")
        page = ctx.new_page()
        page.errors = []  # type: ignore[attr-defined]
        page.on("pageerror", lambda e, p=page: p.errors.append(str(e)))
        sign_up(page, name)
        contexts.append(ctx)
        pages.append(page)
    a, b = pages

    def french(page, what: str) -> None:
        page.wait_for_selector("body[data-ready]")
        assert page.evaluate("document.documentElement.lang") == "fr"
        text = page.evaluate(
            "() => [document.title, document.body.innerText, ...[...document.querySelectorAll("
            "'[aria-label], [placeholder], [title]')].map((n) => n.getAttribute('aria-label') || "
            "n.getAttribute('placeholder') || n.getAttribute('title'))].join('\\n')"
        )
        left = english_left(text, probes, names)
        assert not left, f"{what}: English left: {left}"

    try:
        game = challenge_accepted(a, b, frb)
        assert game["ok"], game
        _api(
            a,
            "POST",
            "/api/community/challenges",
            {"username": frb, "game": "last-mouse-lost", "options": SMALL_LML, "days_per_move": 1},
        )
        _api(
            b,
            "POST",
            "/api/community/challenges",
            {"username": fra, "game": "last-mouse-lost", "options": SMALL_LML, "seconds_per_move": 30},
        )
        _api(a, "POST", "/api/community/follow", {"username": frb})
        _api(a, "POST", "/api/community/mute", {"username": frb})
        _api(a, "POST", "/api/community/report", {"username": frb, "reason": "stalling", "details": "lent"})
        result = CliRunner().invoke(cli_app, ["admin", "grant-moderator", fra, "--db", db])
        assert result.exit_code == 0, result.output
        _api(a, "POST", f"/api/mod/players/{frb}/warn", {"reason": "attention"})

        friends_page(a)
        a.wait_for_selector("[data-testid=incoming] [data-status=open]")  # a challenge waits: its tab opens
        tab(a, "friends")
        a.wait_for_selector(f"[data-friend='{frb}']")
        a.fill("[data-testid=follow-name]", "personne-inconnue")
        a.click("[data-testid=follow-submit]")
        notice(a, "aucun joueur ne s'appelle « personne-inconnue »")  # the typed refusal, in French
        french(a, "friends")
        friends_page(b)
        b.wait_for_selector("[data-testid=mod-notices] [data-kind=warn]")
        french(b, "friends (warned)")

        a.goto("/watch")
        a.wait_for_selector(f"[data-live='{game['game_id']}']")
        french(a, "watch")

        a.goto("/arena")
        a.wait_for_selector("body[data-ready]")
        french(a, "arenas (none)")
        made = _api(
            a,
            "POST",
            "/api/community/arenas",
            {
                "name": "Arène du soir",
                "game": "last-mouse-lost",
                "options": SMALL_LML,
                "minutes": 30,
                "starts_in_s": 600,
            },
        )
        _api(a, "POST", f"/api/community/arenas/{made['id']}/join")
        a.goto(f"/arena?id={made['id']}")
        a.wait_for_selector(f"[data-testid=standings] [data-player='{fra}']")
        french(a, "arena")

        a.goto("/mod")
        a.wait_for_selector("[data-testid=queue] [data-report]")
        a.fill("[data-testid=mod-player]", frb)
        a.click("[data-testid=mod-lookup]")
        a.wait_for_selector(f"[data-testid=history-name]:has-text('{frb}')")
        a.wait_for_selector("[data-testid=audit-action]")
        french(a, "moderation")

        a.goto("/mail")
        a.wait_for_selector("[data-testid=mail-disabled]:not([hidden])")
        french(a, "mail (no SMTP)")
        for page in pages:
            assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        for ctx in contexts:
            ctx.close()


def test_the_watch_page_lists_a_live_game_and_drops_it_when_it_ends(browser, server):
    """Two accounts' game shows on the watch page of a third browser (anonymous) with both names
    and its spectator link (no seat's token); played to the end, it leaves the list at the next look."""
    base, _db = server
    alice, bob = unique("wa"), unique("wb")
    contexts, pages = [], []
    for name in (alice, bob, None):
        ctx, page = person(browser, base)
        contexts.append(ctx)
        pages.append(page)
        if name:
            sign_up(page, name)
    a, b, w = pages
    try:
        game = challenge_accepted(a, b, bob)
        gid = game["game_id"]
        w.goto("/watch")
        w.wait_for_selector("body[data-ready]")
        row = w.locator(f"[data-live='{gid}']")
        row.wait_for(timeout=10000)
        assert alice in row.inner_text() and bob in row.inner_text()
        assert "basic rules" in row.inner_text()  # the variant worded from typed parts (issue 39, polish)
        # a live picture of its board, the spectator's (issue 41: lichess TV's thumbnails)
        w.wait_for_selector(f"[data-live='{gid}'] .board-preview-shown svg")
        mine = next(g for g in _api(a, "GET", f"/api/players/{alice}/games")["games"] if g["id"] == gid)
        tokens = {game["seat"]: game["link"].split("#t=")[1], 1 - game["seat"]: mine["link"].split("#t=")[1]}
        watch = row.locator("[data-testid=watch-live]").get_attribute("href") or ""
        assert watch.startswith(f"/g/{gid}") and not any(t in watch for t in tokens.values())  # a spectator's
        with httpx.Client(base_url=base, timeout=30) as client:
            assert play_to_end(client, gid, [tokens[0], tokens[1]])["terminal"]
        row.wait_for(state="detached", timeout=15000)  # the page reads the list again every 3 s
        assert not w.errors  # type: ignore[attr-defined]
    finally:
        for ctx in contexts:
            ctx.close()


def test_a_correspondence_reminder_mailed_and_followed_in_the_browser(browser, smtp, tmp_path):
    """Alice gives her address on the mail page, confirms it with the link mailed to her (opened
    in the browser) and turns reminders on; in a correspondence game where she is to move, the
    "your move" mail reaches aiosmtpd; its link, opened in her browser, lists the game as her turn,
    and the game opens on her move."""
    from .test_mail import body_of, make_app

    inbox, port = smtp
    app = make_app(tmp_path, port)
    app.state.mail.scan_every_s = 0.2  # the reminders' scan (every minute in service)
    app.state.mail.remind_after_s = 0  # the move has waited long enough
    base, stop = serve_in_thread(app)
    alice, bob = unique("ma"), unique("mb")
    (ca, a), (cb, b) = person(browser, base), person(browser, base)
    try:
        sign_up(a, alice)
        sign_up(b, bob)
        a.goto("/mail")
        a.wait_for_selector("body[data-ready]")
        a.fill("[data-testid=mail-address]", f"{alice}@example.org")
        a.click("[data-testid=mail-submit]")
        confirm = re.search(r"(/mail#confirm=[A-Za-z0-9_-]+)", body_of(inbox.wait(1)[0])).group(1)
        a.goto("about:blank")  # the link opened afresh (from /mail, only its fragment would change)
        a.goto(base + confirm)
        notice(a, f"{alice}@example.org is confirmed.")
        a.wait_for_selector("[data-testid=mail-status]:has-text('confirmed')")
        if not a.is_checked("[data-testid=mail-reminders]"):
            a.check("[data-testid=mail-reminders]")
            notice(a, "Reminders on.")
        sent = _api(
            a,
            "POST",
            "/api/community/challenges",
            {"username": bob, "game": "last-mouse-lost", "options": SMALL_LML, "days_per_move": 1, "seat": 0},
        )
        gid = _api(b, "POST", f"/api/community/challenges/{sent['challenge']['id']}/accept")["game_id"]
        reminder = next(
            m for m in inbox.wait(2) if m["To"] == f"{alice}@example.org" and "Your move" in m["Subject"]
        )
        link = re.search(r"https?://[^/\s]+(/account#my-games)", body_of(reminder)).group(1)
        a.goto(link)
        a.wait_for_selector(f"[data-game-row='{gid}'][data-state=your_turn]")
        a.click(f"[data-open='{gid}']")
        a.wait_for_selector("body[data-my-turn='1']", timeout=20000)
        assert not a.errors  # type: ignore[attr-defined]
    finally:
        ca.close()
        cb.close()
        stop()
