// The lobby: choose a game, its options and seats; create it; keep "my games" in localStorage.
// Everything it offers (games, options, seat count, agents) comes from the server.
import { api, clear, el, forgetGame, myGames, rememberGame } from "/static/js/dom.js";
import { clockSpec, renderClockOptions } from "/static/js/clock.js";
import { showHowToPlay } from "/static/js/howto.js";
import { nameField } from "/static/js/names.js";
import { startTables } from "/static/js/tables.js";
import { dateTime, t } from "/static/js/i18n.js";
import { optionValues as readOptions, renderOptions as drawOptions } from "/static/js/game-options.js";

// The page's own elements by id: inputs, selects, dialogs and links of known kinds (any: the
// page's HTML says which; TypeScript checks the rest).
/** @type {(id: string) => any} */
const $ = (id) => document.getElementById(id);
let catalog = [];
let current = null; // the catalog entry of the chosen game, refreshed by /check
let checkTimer = null;
let tables = null; // the open tables list (tables.js)

function optionValues() {
  return readOptions($("options"));
}

function renderOptions(entry) {
  drawOptions($("options"), entry, { onChange: scheduleCheck });
}

// AI seats in players' words: three levels up front, every other agent behind "More agents".
/** @type {Array<[string, () => string]>} */
const LEVELS = [["easy", () => t("Computer: Easy")], ["medium", () => t("Computer: Medium")], ["hard", () => t("Computer: Hard")]];
function defaultAgent(agents) {
  for (const name of ["medium", "perfect", "hard", "heuristic", "easy", "random"]) if (agents.includes(name)) return name;
  return agents[0];
}

function renderSeats(entry) {
  // Read the choices before clearing them (a re-render keeps each seat's choice).
  const previous = [.../** @type {NodeListOf<HTMLSelectElement>} */ (document.querySelectorAll("[data-seat]"))].map((s) => s.value);
  const box = clear($("seats"));
  const levels = LEVELS.filter(([name]) => entry.agents.includes(name));
  const others = entry.agents.filter((a) => !LEVELS.some(([name]) => name === a));
  const showMore = $("more-agents").checked;
  for (let i = 0; i < entry.players; i++) {
    const label = el("label", {}, box);
    el("span", { class: "name", text: t("Player {n}", { n: i + 1 }) }, label);
    const select = el("select", { "data-seat": i, "data-testid": `seat-${i}` }, label);
    el("option", { value: "me", text: t("Me (this browser)") }, select);
    // An open table's invited seats are also free seats anyone may take from the list.
    el("option", { value: "invite", text: $("public").checked ? t("Open seat (anyone from the list, or a friend by link)")
      : t("A friend (I get a link to send)") }, select);
    for (const [name, words] of levels) el("option", { value: `agent:${name}`, text: words() }, select);
    if (others.length) {
      const group = el("optgroup", { label: t("More agents"), "data-more-agents": "1" }, select);
      for (const a of others) el("option", { value: `agent:${a}`, text: t((entry.agent_words || {})[a] || a) }, group);
      group.hidden = !showMore;
      group.disabled = !showMore;
    }
    const wanted = (box.dataset.game === entry.id && previous[i]) || (i === 0 ? "me" : `agent:${defaultAgent(entry.agents)}`);
    select.value = wanted;
    if (select.value !== wanted && others.includes(wanted.slice(6))) {
      $("more-agents").checked = true; // a previous choice among the other agents stays visible
      return renderSeats(entry);
    }
    if (!select.value) select.value = i === 0 ? "me" : "invite";
  }
  $("more-agents-row").hidden = !others.length;
  box.dataset.game = entry.id;
}

function scheduleCheck() {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(checkOptions, 250);
}

async function checkOptions() {
  const r = await api("POST", `/api/catalog/${encodeURIComponent(current.id)}/check`, { options: optionValues() });
  $("create-error").textContent = r.ok ? "" : r.error;
  $("create").disabled = !r.ok;
  if (r.ok && (r.data.players !== current.players || r.data.agents.join() !== current.agents.join())) {
    current = { ...current, players: r.data.players, agents: r.data.agents };
    renderSeats(current);
  }
}

function chooseGame(id) {
  const entry = catalog.find((g) => g.id === id);
  current = { ...entry, defaults: entry.options };
  $("game-help").textContent = entry.error ? t("This game cannot be played on this server right now.") : "";
  showHowToPlay(clear($("how-to-play")), entry.id, t(entry.title), (entry.howto || []).map((w) => t(w)));
  renderOptions(entry);
  renderSeats(entry);
  $("create").disabled = !!entry.error;
}

async function create() {
  $("create-error").textContent = "";
  const seatChoices = [.../** @type {NodeListOf<HTMLSelectElement>} */ (document.querySelectorAll("[data-seat]"))].map((s) => s.value);
  // An invited seat gets a one-use invite link (its token goes only to the friend who opens it).
  const seats = seatChoices.map((v) => v.startsWith("agent:") ? { kind: "agent", agent: v.slice(6) }
    : { kind: "human", invite: v === "invite" });
  // Hot seat (every human seat on this screen): hints on, as between friends at one table (issue 39);
  // a game with an invited player keeps the box's choice.
  const hotSeat = seatChoices.filter((v) => v === "me").length > 1 && seatChoices.every((v) => v === "me" || v.startsWith("agent:"));
  const body = { game: current.id, options: optionValues(), seats, hints: $("hints").checked || hotSeat,
                 practice: $("practice").checked, public: $("public").checked,
                 spectator_chat: $("spectator-chat").checked, clock: clockSpec() };
  const start = $("start").value.trim();
  if (start) body.start = start;
  $("create").disabled = true;
  const r = await api("POST", "/api/games", body);
  $("create").disabled = false;
  if (!r.ok) { $("create-error").textContent = r.error; return; }
  const game = r.data;
  const mine = game.seats.filter((s, i) => seatChoices[i] === "me");
  for (const s of mine) {
    rememberGame({ id: game.id, token: s.token, seat: s.seat, game: game.game, title: current.title, label: s.label,
                   link: s.link });
  }
  const invites = game.seats.filter((s, i) => seatChoices[i] === "invite");
  if (mine.length >= 1 && invites.length === 0) {
    // Alone against AI, or every human seat here (hot seat: one page plays them all, issue 27):
    // straight to the game.
    location.href = mine[0].link;
    return;
  }
  showLinks(game, seatChoices);
  renderMyGames();
  if (body.public && tables) tables.refresh();
}

async function copyText(text, button) {
  let ok = false;
  try { await navigator.clipboard.writeText(text); ok = true; } catch (e) { /* no clipboard permission */ }
  if (!ok) { // older browsers, plain http: copy from a selected field
    const area = el("textarea", { style: "position:fixed;opacity:0", "aria-hidden": "true" }, document.body);
    area.value = text;
    area.select();
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    area.remove();
  }
  button.textContent = ok ? t("Copied") : t("Select and copy");
  button.dataset.copied = ok ? "1" : "0";
  setTimeout(() => { button.textContent = t("Copy link"); }, 2500);
}

function linkRow(box, title, link, testId) {
  const p = el("div", { class: "link-row" }, box);
  el("strong", { text: title }, p);
  const line = el("div", { class: "link-line" }, p);
  const input = el("input", { type: "text", readonly: true, value: link, "data-link": testId, "aria-label": title }, line);
  input.addEventListener("focus", () => input.select());
  const button = el("button", { type: "button", text: t("Copy link"), "data-copy": testId }, line);
  button.addEventListener("click", () => copyText(link, button));
  return p;
}

export function showLinks(game, seatChoices) {
  const dialog = $("new-game-dialog");
  if (dialog && dialog.open) dialog.close();
  const section = $("created");
  section.hidden = false;
  const box = clear($("created-links"));
  game.seats.forEach((s, i) => {
    if (s.kind !== "human") { el("p", { text: t("{seat}: played by the computer", { seat: t(s.label) }) }, box); return; }
    if (seatChoices[i] === "me") {
      const p = el("p", {}, box);
      el("strong", { text: t("{seat} (you): ", { seat: t(s.label) }) }, p);
      el("a", { href: s.link, text: t("open my seat"), "data-testid": `open-seat-${i}` }, p);
      return;
    }
    linkRow(box, t("{seat}: send this link to your friend", { seat: t(s.label) }), s.link, `seat-${i}`);
  });
  linkRow(box, t("Spectators: anyone with this link can watch"), game.spectator.link, "spectator");
  // The links go where they are seen without scrolling: the top of the page.
  section.scrollIntoView({ block: "start" });
  const first = box.querySelector("[data-copy]");
  if (first) first.focus({ preventScroll: true });
}

function renderMyGames() {
  const box = clear($("my-games"));
  const list = myGames();
  // No game yet: no empty card on the front door (issue 39: boxes and forms dominated it).
  const card = document.getElementById("my-games-card");
  if (card) card.hidden = !list.length;
  if (!list.length) { el("p", { class: "muted", text: t("No games yet in this browser.") }, box); return; }
  const table = el("table", { class: "games" }, box);
  const head = el("tr", {}, table);
  for (const h of [t("game"), t("seat"), t("created"), "", ""]) el("th", { text: h }, head);
  for (const g of list) {
    const tr = el("tr", { "data-my-game": g.id }, table);
    el("td", { text: t(g.title || g.game) }, tr);
    el("td", { text: t(g.label) || t("Player {n}", { n: g.seat + 1 }) }, tr);
    el("td", { text: dateTime(g.seen) }, tr);
    const open = el("td", {}, tr);
    el("a", { href: `/g/${g.id}#t=${g.token}`, text: t("resume") }, open);
    const rm = el("td", {}, tr);
    el("button", { text: t("forget"), onclick: () => { forgetGame(g.id, g.token); renderMyGames(); } }, rm);
  }
}

// The full options of a new game, in their dialog (issue 39: the home page shows the games, not a form).
export function openNewGame(gameId) {
  const select = $("game-select");
  if (gameId && catalog.some((g) => g.id === gameId) && select.value !== gameId) {
    select.value = gameId;
    chooseGame(gameId);
  }
  const dialog = $("new-game-dialog");
  if (!dialog.open) dialog.showModal();
  select.focus();
}

export function refreshMyGames() { renderMyGames(); }

async function init() {
  renderMyGames();
  $("new-game-close").addEventListener("click", () => $("new-game-dialog").close());
  // The name is kept in this browser; each game page sends it with the seat (names.js).
  nameField($("lobby-name"), { label: t("Your name (shown to the other players)") });
  tables = startTables($("tables"), $("tables-error"));
  renderClockOptions($("clock-options"), ["easy", "medium", "hard"]); // every game has the levels
  const r = await api("GET", "/api/catalog");
  if (!r.ok) { $("create-error").textContent = r.error; return; }
  catalog = r.data.games;
  const select = $("game-select");
  for (const g of catalog) el("option", { value: g.id, text: t(g.title) + (g.error ? ` ${t("(unavailable)")}` : "") }, select);
  const wanted = new URLSearchParams(location.search).get("game");
  select.value = catalog.some((g) => g.id === wanted) ? wanted
    : (catalog.some((g) => g.id === "last-mouse-lost") ? "last-mouse-lost" : catalog[0].id);
  select.addEventListener("change", () => chooseGame(select.value));
  chooseGame(select.value);
  $("create").addEventListener("click", create);
  $("more-agents").addEventListener("change", () => renderSeats(current));
  $("public").addEventListener("change", () => renderSeats(current));
  const opener = $("open-new-game");
  if (opener) opener.addEventListener("click", () => openNewGame(select.value));
  // A link to the form of one game (/?game=...) or to the form (#new-game) opens it.
  if (wanted || location.hash === "#new-game") openNewGame(select.value);
  document.body.dataset.ready = "1";
}

init();
