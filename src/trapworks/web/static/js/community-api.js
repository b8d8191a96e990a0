// The community pages' shared helpers (issue 41): requests with the session's CSRF token and the
// page's status line.
import { api, el } from "/static/js/dom.js";
import { me, send } from "/static/js/account-api.js";
import { dateTime, refusalText, t, translatePage } from "/static/js/i18n.js";

export { me, send, t, translatePage };
export const $ = (id) => document.getElementById(id);

export function notice(text, isError) {
  const box = $("notice");
  box.hidden = !text;
  box.textContent = text || "";
  box.classList.toggle("error", Boolean(isError));
}

// A table of rows; `cells(row, tr)` fills one row. Empty: the `empty` sentence instead.
// `stack`: on a phone each row reads as a small card, each cell under its column's name (a table
// of five columns squeezed to 390 px broke its words letter by letter).
export function table(parent, heads, rows, cells, empty, stack = false) {
  parent.textContent = "";
  if (!rows.length) { el("p", { class: "muted", text: empty }, parent); return; }
  const t = el("table", { class: stack ? "stack" : "" }, parent);
  const head = el("tr", {}, el("thead", {}, t));
  for (const h of heads) el("th", { scope: "col", text: h }, head);
  const body = el("tbody", {}, t);
  for (const row of rows) {
    const tr = el("tr", {}, body);
    cells(row, tr);
    if (stack) [...tr.children].forEach((td, i) => { if (heads[i]) td.setAttribute("data-label", heads[i]); });
  }
}

// A moment as the page's language writes it (short date and time); the text as it came otherwise.
// (i18n.js dateTime: the one format of the site)
export function when(iso) {
  return dateTime(iso);
}

// The reason of a report, as the server names it, in words.
export function reasonText(reason) {
  return { abuse: t("abuse"), cheating: t("cheating"), spam: t("spam"), stalling: t("stalling"), other: t("other") }[reason] || reason;
}

// The games' titles by id, from the catalog (gameTitle: in the page's language where the catalog has it).
const titles = {};
export async function loadGames() {
  const r = await api("GET", "/api/catalog");
  const games = r.ok ? r.data.games : [];
  for (const g of games) titles[g.id] = g.title || g.id;
  return games;
}
// (in the page's language where the catalog has it, as the home page names them: "Attrape-Souris")
export const gameTitle = (id) => t(titles[id] || id);

export { variantText } from "/static/js/i18n.js"; // where account.js and profile.js take it too

export function button(parent, text, testid, action) {
  return el("button", { type: "button", text, "data-testid": testid, onclick: action }, parent);
}

// A refusal of the server in the page's language: its message id and values where it sends them
// (the community's refusals: names, numbers and dates only), else its sentence as a message.
export function refused(r) {
  const d = r.data || {};
  return d.msg ? refusalText(d) : r.error || "";
}

// Run a request; say its error (the server's words) or `done`, then refresh the page's lists.
export async function act(method, url, body, done, refresh) {
  const r = await send(method, url, body);
  if (!r.ok) { notice(refused(r), true); return null; }
  notice(done, false);
  if (refresh) await refresh();
  return r.data;
}

// A clock as players name it: "10+5" (minutes each, seconds added a move), "30 s a move",
// "1 day a move"; "no clock".
export function clockWords(clock) {
  if (!clock) return t("no clock");
  const s = clock.seconds;
  if (clock.mode === "total") return `${Math.round(s / 60 * 10) / 10}+${clock.increment || 0}`;
  if (s < 86400) return s % 60 || s < 60 ? t("{n} s a move", { n: s }) : t("{n} min a move", { n: s / 60 });
  const days = s / 86400;
  return days === 1 ? t("1 day a move") : t("{n} days a move", { n: days });
}
