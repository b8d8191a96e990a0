// The account page: sign up, log in, log out, my games across devices, play a friend (rated or
// casual, live or correspondence), notifications, data export and account deletion.
import { api, clear, el, rememberGame } from "/static/js/dom.js";
import { account, heldSeats, me, scrollersReachable, send, syncSeats } from "/static/js/account-api.js";
import { refusalText, t, tn, translatePage } from "/static/js/i18n.js";

// The page's own elements by id: inputs, selects, dialogs and links of known kinds (any: the
// page's HTML says which; TypeScript checks the rest).
/** @type {(id: string) => any} */
const $ = (id) => document.getElementById(id);
const STATES = { your_turn: () => t("Your turn"), waiting: () => t("Waiting"), finished: () => t("Finished") };
const RESULTS = { won: () => t("Won"), lost: () => t("Lost"), drawn: () => t("Drawn"), aborted: () => t("Aborted") };
let catalog = [];

function field(form, name) { return form.querySelector(`[name=${name}]`); }

function showNotice(text) {
  $("notice").textContent = text;
  $("notice").hidden = !text;
}

async function show() {
  const data = await me();
  const who = account();
  window.dispatchEvent(new Event("trapworks:account")); // the header's links follow
  $("logged-out").hidden = !!who;
  $("logged-in").hidden = !who;
  if (data.expired) showNotice(data.message ? refusalText(data) : t("Your session has expired: log in again."));
  if (!who) { document.body.dataset.ready = "1"; return; }
  $("profile-link").textContent = who.username;
  $("profile-link").href = `/u/${encodeURIComponent(who.username)}`;
  $("export").href = `/api/players/${encodeURIComponent(who.username)}/export`;
  await syncSeats();
  await showGames();
  document.body.dataset.ready = "1";
}

function when(iso) { return iso ? iso.replace("T", " ").slice(0, 16) : ""; }

async function showGames() {
  const who = account();
  if (!who) return;
  const filter = $("game-filter").value;
  const url = `/api/players/${encodeURIComponent(who.username)}/games` + (filter ? `?game=${encodeURIComponent(filter)}` : "");
  const r = await api("GET", url);
  const box = clear($("games"));
  if (!r.ok) { el("p", { class: "error", text: r.error }, box); return; }
  const games = r.data.games;
  if (!games.length) { el("p", { class: "muted", text: t("No games yet. Start one in the lobby, or play a friend below.") }, box); return; }
  // Inside a scroller of its own, the links in one cell: the page never scrolls sideways on a phone (issue 39).
  const table = el("table", { class: "games my-games-table" }, el("div", { class: "table-scroll" }, box));
  const head = el("tr", {}, el("thead", {}, table));
  for (const h of [t("Game"), t("Opponents"), t("Result")]) el("th", { text: h, scope: "col" }, head);
  el("span", { class: "sr-only", text: t("Open") }, el("th", { scope: "col" }, head)); // the links' column
  const body = el("tbody", {}, table);
  for (const g of games) {
    const tr = el("tr", { "data-game-row": g.id, "data-state": g.state, class: `state-${g.state}` }, body);
    const title = (catalog.find((c) => c.id === g.game) || {}).title || g.game;
    const name = el("td", {}, tr);
    el("strong", { class: "game-state", text: STATES[g.state] ? STATES[g.state]() : g.state }, name);
    if (g.deadline && g.state === "your_turn") el("div", { class: "small muted", text: t("move by {when} UTC", { when: when(g.deadline) }) }, name);
    el("div", { text: t(title) }, name);
    el("div", { class: "small muted", text: `${t(g.variant)} · ${g.rated ? t("rated") : t("casual")}` }, name);
    el("td", { text: g.opponents.join(", ") || "—" }, tr);
    el("td", { text: g.result ? (RESULTS[g.result] ? RESULTS[g.result]() : g.result) : "", "data-result": g.result || "" }, tr);
    const links = el("td", { class: "game-links" }, tr);
    if (g.link) el("a", { href: g.link, text: g.state === "finished" ? t("Review") : t("Open"), "data-open": g.id }, links);
    if (g.replay) el("a", { href: g.replay, text: t("Replay") }, links);
  }
  scrollersReachable(box);
}

function fail(form, r) {
  form.querySelector(".error").textContent = r.error;
}

async function signup(ev) {
  ev.preventDefault();
  const form = ev.target;
  const r = await send("POST", "/api/account/signup", {
    username: field(form, "username").value, password: field(form, "password").value, seats: heldSeats(),
  });
  if (!r.ok) { fail(form, r); return; }
  const n = r.data.seats.joined.length;
  showNotice(n ? tn("Welcome! {n} game of this browser joined your account.", "Welcome! {n} games of this browser joined your account.", n) : t("Welcome! Your account is ready."));
  form.reset();
  await show();
}

async function login(ev) {
  ev.preventDefault();
  const form = ev.target;
  const r = await send("POST", "/api/account/login", {
    username: field(form, "username").value, password: field(form, "password").value, seats: heldSeats(),
  });
  if (!r.ok) { fail(form, r); return; }
  showNotice("");
  form.reset();
  await show();
}

async function logout() {
  await send("POST", "/api/account/logout", {});
  showNotice(t("You are logged out."));
  await show();
}

async function challenge(ev) {
  ev.preventDefault();
  const form = ev.target;
  form.querySelector(".error").textContent = "";
  const days = field(form, "days").value;
  const r = await send("POST", "/api/account/games", {
    game: field(form, "game").value, rated: field(form, "rated").checked,
    days_per_move: days && !days.startsWith("s") ? Number(days) : null,
    seconds_per_move: days.startsWith("s") ? Number(days.slice(1)) : null,
  });
  if (!r.ok) { fail(form, r); return; }
  const g = r.data;
  const token = g.link.split("#t=")[1];
  rememberGame({ id: g.id, token, seat: g.seat, game: field(form, "game").value, title: field(form, "game").selectedOptions[0].textContent,
                 label: t("Player {n}", { n: g.seat + 1 }), link: location.origin + g.link });
  const box = clear($("challenge-links"));
  el("p", {}, box).append(t("Your seat: "), el("a", { href: g.link, text: t("open the game"), "data-testid": "challenge-open" }));
  for (const inv of g.invites) {
    const p = el("p", {}, box);
    el("strong", { text: t("Player {n}: send this link ", { n: inv.seat + 1 }) }, p);
    el("input", { type: "text", readonly: true, value: location.origin + inv.link, "aria-label": t("Invite link for player {n}", { n: inv.seat + 1 }),
                  "data-testid": `invite-${inv.seat}`, class: "invite-link" }, p);
  }
  await showGames();
}

async function remove(ev) {
  ev.preventDefault();
  const form = ev.target;
  const r = await send("POST", "/api/account/delete", { password: field(form, "password").value });
  if (!r.ok) { fail(form, r); return; }
  showNotice(t("Your account is deleted."));
  await show();
}

async function askNotifications() {
  if (!("Notification" in window)) { $("notify").textContent = t("This browser has no notifications"); return; }
  const answer = await Notification.requestPermission();
  $("notify").textContent = answer === "granted" ? t("Notifications are on") : t("Notifications were not allowed");
}

async function init() {
  translatePage(); // the page's own words (data-i18n) in the chosen language
  $("signup").addEventListener("submit", signup);
  $("login").addEventListener("submit", login);
  $("logout").addEventListener("click", logout);
  $("challenge").addEventListener("submit", challenge);
  $("delete").addEventListener("submit", remove);
  $("notify").addEventListener("click", askNotifications);
  $("game-filter").addEventListener("change", showGames);
  const r = await api("GET", "/api/catalog");
  if (r.ok) {
    catalog = r.data.games;
    for (const g of catalog) {
      el("option", { value: g.id, text: t(g.title) }, $("game-filter"));
      el("option", { value: g.id, text: t(g.title) }, document.querySelector("#challenge [name=game]"));
    }
  }
  await show();
}

init();
