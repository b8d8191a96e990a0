// On every page (imported by js/account-nav.js): a player in an arena is taken to their game the
// moment they are paired, wherever they are on the site, as lichess's arena does. Each game once
// (remembered for the browser's session): a player who comes back to the arena page or the lobby
// during that game is not sent to it again (the arena page has its "Go to your game").
import { api, el } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";

const FAST_MS = 2000; // in an arena's pool: paired any moment
const SLOW_MS = 30000; // in no arena: a look now and then (joining one on another tab)
const KEY = "trapworks.arena-sent";
const AFTER_END_S = 5; // on the page of a game just over: its result is read first

function sent() {
  try { return JSON.parse(sessionStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
}

// Whether the page should go to game `gid` now: not yet sent to it, and not on it already.
export function goOnce(gid) {
  const done = sent();
  if (done.includes(gid)) return false;
  try { sessionStorage.setItem(KEY, JSON.stringify([...done.slice(-20), gid])); } catch (e) { /* private mode */ }
  const here = location.pathname.match(/^\/g\/([^/]+)$/);
  return !(here && decodeURIComponent(here[1]) === gid);
}

// To the game: at once; from a game page whose game is over, after a few seconds with a banner
// saying so ("Go now" at once), so the result just shown is read (lichess's arena waits too).
function goTo(link) {
  if (document.body.dataset.terminal !== "1") { location.assign(link); return; }
  const css = document.querySelector('link[href="/static/community.css"]');
  if (!css) el("link", { rel: "stylesheet", href: "/static/community.css" }, document.head);
  const bar = el("div", { class: "arena-next", role: "status", "data-testid": "arena-next" }, document.body);
  const words = el("span", {}, bar);
  el("a", { href: link, text: t("Go now"), "data-testid": "arena-next-go" }, bar);
  let left = AFTER_END_S;
  const tick = () => {
    if (left <= 0) { location.assign(link); return; }
    words.textContent = t("Your next arena game starts in {n} s.", { n: left });
    left -= 1;
    setTimeout(tick, 1000);
  };
  tick();
}

async function look() {
  const r = await api("GET", "/api/community/arenas/mine");
  if (!r.ok) return SLOW_MS;
  const { player, arena, game } = r.data;
  if (!player) return null; // nobody logged in: nothing to follow
  if (game && goOnce(game.id)) { goTo(game.link); return null; }
  return arena && arena.active ? FAST_MS : SLOW_MS;
}

async function follow() {
  let wait = null;
  try { wait = await look(); } catch (e) { wait = SLOW_MS; }
  if (wait !== null) setTimeout(follow, wait);
}

follow();
