"""Screenshots of every page as players see them (issue 39), and one contact sheet per page.

    .venv/bin/python scripts/screenshots.py          # a server of its own, into artifacts/screenshots
    .venv/bin/python scripts/screenshots.py --out DIR --sheets docs/screenshots/contact-sheets
    .venv/bin/python scripts/screenshots.py --pages home,last-mouse-lost-start --sizes phone-landscape

It starts `trapworks serve` on a free loopback port with a home of its own (or uses --url), plays
each game against the computer through the API to its start, its middle and its end, and shoots
the home page, every game page at those three moments (the end with its end screen), the account
pages (logged out, and logged in after rated games between two accounts), a profile and the
leaderboard, at four sizes (desktop 1440x900, tablet 820x1180, phone portrait 390x844, phone
landscape 844x390: the independent judges' sizes), in the light and dark
themes, in English and French: DIR/<page>/<size>-<theme>-<lang>.png, and DIR/<page>.png (the
contact sheet: every size, theme and language of the page on one picture, labelled). --sheets
also writes the sheets, smaller, to that folder (docs/screenshots/ keeps them in the project).
Needs Playwright and Debian's chromium (/usr/bin/chromium), like the browser tests.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
SIZES = {
    "desktop": (1440, 900),
    "tablet": (820, 1180),
    "phone-portrait": (390, 844),
    "phone-landscape": (844, 390),
}
THEMES = ("light", "dark")
LANGS = ("en", "fr")
GAMES = ("last-mouse-lost", "mouse-trap", "booby-trap", "dead-end-drive")
# Short games, so that the end comes in a few dozen moves of random play.
SHORT = {
    "last-mouse-lost": {"first_to": 1},
    "mouse-trap": {"cheese_supply": 6},
    "booby-trap": {},
    "dead-end-drive": {"players": 2},
}
MIDDLE_PLIES = {"last-mouse-lost": 6, "mouse-trap": 16, "booby-trap": 14, "dead-end-drive": 14}
END_LIMIT_S = 90  # random play that has not ended by then resigns (the end screen all the same)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`trapworks serve` in a subprocess with its own home (its own SQLite file)."""

    def __init__(self) -> None:
        self.home = Path(tempfile.mkdtemp(prefix="trapworks-shots-"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, TRAPWORKS_HOME=str(self.home), PYTHONUNBUFFERED="1")
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")])
        cmd = [sys.executable, "-c", "from trapworks.cli import main; main()", "serve"]
        self.proc = subprocess.Popen(
            [*cmd, "--host", "127.0.0.1", "--port", str(self.port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/api/catalog", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        self.stop()
        raise SystemExit("the server did not start")

    def stop(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(self.proc.pid, signal.SIGKILL)
        shutil.rmtree(self.home, ignore_errors=True)


def create(url: str, game: str) -> dict:
    options = dict(SHORT.get(game, {}))
    players = options.get("players", 4 if game == "dead-end-drive" else 2)
    seats = [{"kind": "human"}] + [{"kind": "agent", "agent": "easy"}] * (players - 1)
    r = httpx.post(
        url + "/api/games", json={"game": game, "options": options, "seats": seats, "seed": 7}, timeout=30
    )
    if r.status_code != 201:
        raise SystemExit(f"{game}: {r.text}")
    return r.json()


def state(url: str, gid: str, token: str) -> dict:
    return httpx.get(f"{url}/api/games/{gid}", params={"token": token}, timeout=30).json()["state"]


def play(url: str, created: dict, until_ply: int | None, rng: random.Random) -> dict:
    """The human seat plays random legal moves (the computer answers) until `until_ply` or the end."""
    gid, token = created["id"], created["seats"][0]["token"]
    deadline = time.monotonic() + END_LIMIT_S
    while True:
        st = state(url, gid, token)
        if st["terminal"] or (until_ply is not None and st["ply"] >= until_ply and st["to_move"] == 0):
            return st
        if time.monotonic() > deadline:
            httpx.post(f"{url}/api/games/{gid}/resign", json={"token": token}, timeout=30)
            return state(url, gid, token)
        legal = (st.get("view") or {}).get("legal_actions") or []
        if st["to_move"] == 0 and legal:
            pick = rng.choice(legal)
            action = pick["text"] if isinstance(pick, dict) else str(pick)
            httpx.post(
                f"{url}/api/games/{gid}/moves",
                json={"token": token, "action": action, "ply": st["ply"]},
                timeout=30,
            )
        else:
            time.sleep(0.1)


PASSWORD = "correct horse battery staple"
PLAYERS = ("amelie", "bruno")  # the two accounts whose rated games fill the leaderboard and the account page
RATED_GAMES = 3


def account(url: str, name: str, how: str = "signup") -> tuple[httpx.Client, dict[str, str]]:
    """A signed-up (or, with how="login", logged-in) account's client and its CSRF header."""
    client = httpx.Client(base_url=url, timeout=30)
    csrf = client.get("/api/account/me").json()["csrf"]
    r = client.post(
        f"/api/account/{how}", json={"username": name, "password": PASSWORD}, headers={"x-csrf-token": csrf}
    )
    if r.status_code != 200:
        raise SystemExit(f"{how} {name}: {r.text}")
    return client, {"x-csrf-token": r.json()["csrf"]}


def rated_games(url: str, rng: random.Random) -> None:
    """Rated Last Mouse Lost games between two accounts, played to the end with random legal moves:
    the leaderboard, the account page and the profiles then show real ratings and games."""
    (a, a_csrf), (b, b_csrf) = (account(url, name) for name in PLAYERS)
    for n in range(RATED_GAMES):
        r = a.post(
            "/api/account/games",
            json={"game": "last-mouse-lost", "options": {"first_to": 1}, "rated": True, "seat": n % 2},
            headers=a_csrf,
        )
        if r.status_code != 201:
            raise SystemExit(f"rated game: {r.text}")
        made = r.json()
        gid, invite = made["id"], made["invites"][0]["link"].split("#i=")[1]
        tokens = {made["seat"]: made["link"].split("#t=")[1]}
        claimed = b.post(f"/api/games/{gid}/claim", json={"invite": invite}).json()
        tokens[claimed["seat"]] = claimed["token"]
        b.post(
            "/api/account/seats", json={"seats": [{"game": gid, "token": claimed["token"]}]}, headers=b_csrf
        )
        for _ in range(200):
            st = state(url, gid, tokens[0])
            if st["terminal"]:
                break
            mover = st["to_move"]
            mine = state(url, gid, tokens[mover])
            legal = (mine.get("view") or {}).get("legal_actions") or []
            pick = rng.choice(legal)
            action = pick["text"] if isinstance(pick, dict) else str(pick)
            httpx.post(
                f"{url}/api/games/{gid}/moves",
                json={"token": tokens[mover], "action": action, "ply": mine["ply"]},
                timeout=30,
            )
    a.close()
    b.close()


def unfinished_computer_games(url: str) -> None:
    """Games against the computer the first account started and left (a player's account page
    holds many: the judge's account page was a long list of them)."""
    client, csrf = login(url, PLAYERS[0])
    for game in GAMES[:3]:
        made = create(url, game)
        seat = made["seats"][0]
        client.post(
            "/api/account/seats", json={"seats": [{"game": made["id"], "token": seat["token"]}]}, headers=csrf
        )
    client.close()


def login(url: str, name: str) -> tuple[httpx.Client, dict[str, str]]:
    """An existing account's client and its CSRF header."""
    return account(url, name, "login")


def pages_to_shoot(url: str, rng: random.Random, only: set[str] | None = None) -> dict[str, dict]:
    """Each page: its address and what to wait for once it is open. Only the games the chosen pages
    need are played (`--pages account-logged-in` plays no computer game to its end)."""
    pages: dict[str, dict] = {"home": {"url": url + "/", "wait": "body[data-home-ready='1']"}}
    pages["not-found"] = {"url": url + "/no-such-page", "wait": "body"}
    for game in GAMES:
        if only and not any(p.startswith(game + "-") for p in only):
            continue
        start = create(url, game)
        link = start["seats"][0]["link"]
        pages[f"{game}-start"] = {"url": link, "wait": "body[data-my-turn='1'][data-busy='0']"}
        middle = create(url, game)
        play(url, middle, MIDDLE_PLIES[game], rng)
        pages[f"{game}-middle"] = {
            "url": middle["seats"][0]["link"],
            "wait": "body[data-busy='0'] #board svg",
        }
        end = create(url, game)
        play(url, end, None, rng)
        pages[f"{game}-end"] = {
            "url": end["seats"][0]["link"],
            "wait": "[data-testid=end-screen]:not([hidden])",
        }
    if not only or only & {"account-logged-in", "leaderboard", "profile"}:
        rated_games(url, rng)
        unfinished_computer_games(url)
    pages["account"] = {"url": url + "/account", "wait": "body[data-ready='1']"}
    pages["account-logged-in"] = {
        "url": url + "/account",
        "wait": "body[data-ready='1'] [data-game-row]",
        "login": True,
    }
    pages["leaderboard"] = {
        "url": url + "/leaderboard?game=last-mouse-lost&players=2",
        "wait": "body[data-ready='1']",
    }
    pages["profile"] = {"url": url + f"/u/{PLAYERS[0]}", "wait": "body"}
    return pages


LOG_IN = """async (name) => {
  const me = await (await fetch('/api/account/me')).json();
  const r = await fetch('/api/account/login', {method: 'POST', headers: {'content-type': 'application/json',
    'x-csrf-token': me.csrf},
    body: JSON.stringify({username: name, password: 'correct horse battery staple'})});
  return r.status;
}"""


def shoot(url: str, out: Path, only_pages: set[str] | None, sizes: list[str]) -> list[str]:
    from playwright.sync_api import sync_playwright

    rng = random.Random(39)
    pages = pages_to_shoot(url, rng, only_pages)
    names = [p for p in pages if not only_pages or p in only_pages]
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        for size in sizes:
            w, h = SIZES[size]
            for theme in THEMES:
                for lang in LANGS:
                    ctx = browser.new_context(viewport={"width": w, "height": h}, locale=f"{lang}-FR")
                    settings = json.dumps(json.dumps({"theme": theme, "language": lang}))
                    ctx.add_init_script(f"localStorage.setItem('trapworks.settings', {settings})")
                    page = ctx.new_page()
                    for name in names:
                        spec = pages[name]
                        if spec.get("login"):
                            page.goto(url + "/account")
                            page.evaluate(LOG_IN, PLAYERS[0])
                        page.goto(spec["url"])
                        try:
                            page.wait_for_selector(spec["wait"], timeout=20000)
                        except Exception:  # a page that never got there is shot as it is: that is news
                            print(f"  {name} {size} {theme} {lang}: not ready", file=sys.stderr)
                        page.wait_for_timeout(400)  # fonts and the last drawing
                        folder = out / name
                        folder.mkdir(parents=True, exist_ok=True)
                        page.screenshot(path=str(folder / f"{size}-{theme}-{lang}.png"))
                        if spec.get("login"):
                            page.context.clear_cookies()
                    ctx.close()
            print(f"shot {size}")
        browser.close()
    return names


def contact_sheet(folder: Path, target: Path, scale: float) -> None:
    """One picture: rows are the sizes, columns theme x language, each shot labelled."""
    from PIL import Image, ImageDraw

    shots = sorted(folder.glob("*.png"))
    if not shots:
        return
    label_h = 22
    grid = [[folder / f"{s}-{t}-{lang}.png" for t in THEMES for lang in LANGS] for s in SIZES]
    grid = [[p for p in row if p.exists()] for row in grid]
    grid = [row for row in grid if row]
    cell_w = [max(int(Image.open(p).width * scale) for p in col) for col in zip(*grid, strict=False)]
    row_h = [max(int(Image.open(p).height * scale) for p in row) + label_h for row in grid]
    sheet = Image.new(
        "RGB", (sum(cell_w) + 8 * (len(cell_w) + 1), sum(row_h) + 8 * (len(row_h) + 1)), "#d6d3d1"
    )
    draw = ImageDraw.Draw(sheet)
    y = 8
    for r, row in enumerate(grid):
        x = 8
        for c, path in enumerate(row):
            img = Image.open(path).convert("RGB")
            img = img.resize((int(img.width * scale), int(img.height * scale)), Image.LANCZOS)
            draw.text((x, y + 4), path.stem, fill="#1f2328")
            sheet.paste(img, (x, y + label_h))
            x += cell_w[c] + 8
        y += row_h[r] + 8
    target.parent.mkdir(parents=True, exist_ok=True)
    if scale < 0.5:  # the project's copy: 256 colours keep it small
        sheet = sheet.quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    sheet.save(target, optimize=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", help="a running server (default: start one of its own)")
    ap.add_argument("--out", type=Path, default=ROOT / "artifacts" / "screenshots")
    ap.add_argument(
        "--sheets", type=Path, help="also write smaller contact sheets here (e.g. docs/screenshots)"
    )
    ap.add_argument("--pages", help="only these pages (comma-separated names, e.g. home,mouse-trap-end)")
    ap.add_argument("--sizes", default=",".join(SIZES), help="comma-separated: " + ", ".join(SIZES))
    args = ap.parse_args()
    sizes = [s for s in args.sizes.split(",") if s]
    unknown = [s for s in sizes if s not in SIZES]
    if unknown:
        ap.error(f"unknown size(s) {unknown}; the sizes are {list(SIZES)}")
    server = None if args.url else Server()
    url = args.url or server.url
    try:
        names = shoot(url, args.out, set(args.pages.split(",")) if args.pages else None, sizes)
    finally:
        if server:
            server.stop()
    for name in names:
        contact_sheet(args.out / name, args.out / f"{name}.png", 0.5)
        if args.sheets:
            contact_sheet(args.out / name, args.sheets / f"{name}.png", 0.28)
    print(f"{len(names)} pages in {args.out}" + (f"; contact sheets in {args.sheets}" if args.sheets else ""))


if __name__ == "__main__":
    main()
