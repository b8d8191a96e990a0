// Accounts in the browser (issue 28): who is logged in, the CSRF token, and requests made with the
// session cookie. The cookie is HttpOnly (no script reads it); every state-changing request sends
// the CSRF token the server gave in /api/account/me in the X-CSRF-Token header.
import { api, el, myGames } from "/static/js/dom.js";
import { refusalText } from "/static/js/i18n.js";
import { adopt, browserPreferences } from "/static/js/preferences.js";

let csrf = "";
let current = null; // {account, your_turn, expired?} from the last /api/account/me

export async function me() {
  const r = await api("GET", "/api/account/me");
  if (r.ok) { current = r.data; csrf = r.data.csrf || ""; }
  // issue 39: the account's preferences on every page; an account without any takes this browser's
  if (r.ok && r.data.account) {
    if (r.data.preferences) adopt(r.data.preferences);
    else keepPreferences();
  }
  return r.ok ? r.data : { account: null, error: r.error };
}

// This browser's settings kept with the account (keepalive: a language change reloads the page).
export function keepPreferences() {
  if (!account() || !csrf) return;
  fetch("/api/account/preferences", {
    method: "PUT", keepalive: true, credentials: "same-origin",
    headers: { "content-type": "application/json", "x-csrf-token": csrf }, body: JSON.stringify(browserPreferences()),
  }).catch(() => {});
}

window.addEventListener("trapworks:settings", keepPreferences);

export function account() { return current && current.account; }

// A request with the session cookie: the CSRF header, then the same {ok, status, data, error} as api().
export async function send(method, url, body) {
  if (!csrf) await me();
  /** @type {RequestInit & {headers: Record<string, string>}} */
  const init = { method, headers: { "x-csrf-token": csrf }, credentials: "same-origin" };
  if (body !== undefined) { init.headers["content-type"] = "application/json"; init.body = JSON.stringify(body); }
  let res;
  try { res = await fetch(url, init); } catch (e) { return { ok: false, status: 0, error: "the server cannot be reached" }; }
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (data && data.csrf) csrf = data.csrf;
  if (!res.ok) return { ok: false, status: res.status, error: (data && refusalText(data)) || `HTTP ${res.status}`, data };
  return { ok: true, status: res.status, data };
}

// The seats this browser holds (its "My games" in localStorage), as the server wants them.
export function heldSeats() {
  return myGames().filter((g) => g.id && g.token).map((g) => ({ game: g.id, token: g.token }));
}

// Seats this browser holds that are not yet the account's join it (an invite opened while logged in,
// a game played before logging in). Remembered per account, so each is sent once.
export async function syncSeats() {
  const who = account();
  if (!who) return;
  const key = `trapworks.synced.${who.username.toLowerCase()}`;
  let done = [];
  try { done = JSON.parse(localStorage.getItem(key) || "[]"); } catch (e) { done = []; }
  const fresh = heldSeats().filter((s) => !done.includes(`${s.game}:${s.token}`));
  if (!fresh.length) return;
  const r = await send("POST", "/api/account/seats", { seats: fresh });
  if (!r.ok) return;
  const sent = fresh.map((s) => `${s.game}:${s.token}`);
  localStorage.setItem(key, JSON.stringify(done.concat(sent).slice(-500)));
}

// Ratings in the reader's numbers (their locale's digits; no grouping: a rating is a label, like
// a chess rating), "?" after a provisional one.
const NUMBERS = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0, useGrouping: false });

export function ratingText(r) {
  return `${NUMBERS.format(r.rating)}${r.provisional ? "?" : ""}`;
}

// A table wider than a phone scrolls in its own box (never the page); a box that scrolls is one a
// keyboard can reach (WCAG 2.1.1, axe: scrollable-region-focusable), one that does not is no tab stop.
export function scrollersReachable(root = document) {
  const mark = () => {
    for (const box of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".table-scroll"))) {
      if (box.scrollWidth > box.clientWidth + 1) box.tabIndex = 0;
      else box.removeAttribute("tabindex");
    }
  };
  mark();
  window.addEventListener("resize", mark);
}

// A player's picture as lichess and Board Game Arena draw one by default (issue 39): the name's
// first letters on a colour of its own (the same name, the same colour on every page). Each
// colour carries white letters at WCAG AA; the name is beside it, so the picture is decoration.
const AVATAR_COLOURS = ["#9a3412", "#1d4ed8", "#15703a", "#7e22ce", "#be123c", "#0f766e", "#92400e", "#4338ca"];

/** @param {string} name @param {string} [size] "s" (a list), "m" or "l" (a profile's head) */
export function avatar(name, size = "m") {
  let hash = 0;
  for (const ch of name.toLowerCase()) hash = (hash * 31 + ch.codePointAt(0)) >>> 0;
  const words = name.split(/[_\-.\s]+/).filter(Boolean);
  const letters = (words.length > 1 ? words[0][0] + words[1][0] : name.slice(0, 2)).toUpperCase();
  const a = el("span", { class: `avatar avatar-${size}`, "aria-hidden": "true", text: letters, "data-avatar": name });
  a.style.background = AVATAR_COLOURS[hash % AVATAR_COLOURS.length];
  return a;
}
