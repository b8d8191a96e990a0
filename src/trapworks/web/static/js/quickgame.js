// The lobby's "Quick game" card (issue 28): pick a game and variant, get paired with the nearest
// rating within a widening range, or with the computer after the wait you choose; the players
// waiting now are listed, and anyone may accept one of them.
import { api, clear, el } from "/static/js/dom.js";
import { account, me, send } from "/static/js/account-api.js";
import { refusalText, t, tn } from "/static/js/i18n.js";

const WAIT_S = 10; // each poll is held by the server until the seek is matched or WAIT_S s pass
const TICK_MS = 1000;
const LIST_MS = 4000;
const VARIANT_OPTIONS = ["players", "variant", "rules"];
let catalog = [];
let seeking = null; // the seek being waited for: {seek, ...}
let ui = null;

function choiceSelect(opt, row) {
  const label = el("label", {}, row);
  el("span", { class: "name", text: t(opt.label) }, label);
  const select = el("select", { "data-quick-option": opt.name }, label);
  // A null choice is the variant's own default ("2 (1 for solitaire)"): kept, so a game whose
  // default is null does not open on its first number (Booby Trap opened on 1 player, refused).
  for (const c of opt.choices || []) {
    const o = el("option", { value: JSON.stringify(c.value), text: t(c.label) }, select);
    if (JSON.stringify(c.value) === JSON.stringify(opt.default)) o.selected = true;
  }
  return select;
}

function renderVariants() {
  const game = catalog.find((g) => g.id === ui.game.value);
  const box = clear(ui.variants);
  for (const opt of game.options_schema || []) {
    if (VARIANT_OPTIONS.includes(opt.name) && opt.control === "select") choiceSelect(opt, box);
  }
}

function options() {
  const out = {};
  for (const s of ui.variants.querySelectorAll("[data-quick-option]")) out[s.dataset.quickOption] = JSON.parse(s.value);
  return out;
}

/** The tile being waited for shows it; the others rest until the wait ends. @param {string|null} gameId */
function markTiles(gameId) {
  for (const b of ui.tiles.querySelectorAll("[data-quick-tile]")) {
    b.classList.toggle("seeking", b.dataset.quickTile === gameId);
    b.disabled = !!gameId;
  }
}

function status(text, error) {
  ui.status.textContent = text;
  ui.status.classList.toggle("error", !!error);
}

/** @param {boolean} [gameDefaults] the game's own default variant (a tile), not the selects' */
async function start(gameDefaults = false) {
  const ai = ui.ai.value;
  const days = ui.days.value;
  const body = {
    game: ui.game.value, options: gameDefaults === true ? {} : options(), rated: !!(account() && ui.rated.checked),
    ai_after: ai ? Number(ai) : null, ai_level: ui.level.value, days_per_move: days ? Number(days) : null,
  };
  const r = await send("POST", "/api/seeks", body);
  if (!r.ok) { status(r.error, true); return; }
  follow(r.data);
}

function follow(seek) {
  seeking = seek;
  ui.find.hidden = true;
  ui.cancel.hidden = false;
  markTiles(ui.game.value);
  waitFor();
}

async function waitFor() {
  if (!seeking) return;
  const s = seeking;
  if (s.status === "matched") { go(s); return; }
  if (s.status === "failed") { stop(); status(s.error ? refusalText(s) : t("no game could be made"), true); return; }
  // The server answers when the seek is matched (long poll); meanwhile the count goes on here.
  const since = performance.now();
  const show = () => showWaiting(s, s.waited_s + (performance.now() - since) / 1000);
  show();
  const tick = setInterval(show, TICK_MS);
  const r = await api("GET", `/api/seeks/${encodeURIComponent(s.seek)}?wait=${WAIT_S}`);
  clearInterval(tick);
  if (!seeking) return;
  if (!r.ok) { stop(); status(r.error, true); return; }
  seeking = r.data;
  waitFor();
}

function showWaiting(s, waited) {
  if (seeking !== s) return;
  const ai = s.ai_after ? t("; the computer plays you after {n} s", { n: Math.round(s.ai_after) }) : "";
  status(t("Looking for an opponent near {rating} (within ±{window})… {n} s", { rating: s.rating, window: s.window, n: Math.round(waited) }) + ai);
}

function go(s) {
  status(s.against_ai ? t("Nobody came in time: you play the computer.") : t("Found a game! Opening it…"));
  seeking = null;
  location.href = s.link;
}

async function stop() {
  const s = seeking;
  seeking = null;
  ui.find.hidden = false;
  ui.cancel.hidden = true;
  markTiles(null);
  if (s && s.status === "waiting") await api("DELETE", `/api/seeks/${encodeURIComponent(s.seek)}`);
  status("");
}

async function listSeeks() {
  if (document.hidden) return;
  const r = await api("GET", "/api/seeks");
  if (!r.ok) return;
  const box = clear(ui.list);
  const mine = seeking ? seeking.id : null;
  const others = r.data.seeks.filter((s) => s.id !== mine);
  ui.waitingHead.hidden = !others.length;
  if (!others.length) return; // the tiles say what to do; "Live now" counts who waits
  const table = el("table", { class: "games" }, box);
  const head = el("tr", {}, el("thead", {}, table));
  for (const h of [t("Player"), t("Rating"), t("Game"), "", ""]) el("th", { text: h, scope: "col" }, head);
  const body = el("tbody", {}, table);
  for (const s of others) {
    const tr = el("tr", { "data-seek": s.id }, body);
    el("td", { text: s.name }, tr);
    el("td", { text: String(s.rating) }, tr);
    el("td", { text: `${t(s.title)} (${t(s.variant)}) · ${s.rated ? t("rated") : t("casual")}${s.days_per_move ? ` · ${t("{n} d/move", { n: s.days_per_move })}` : ""}` }, tr);
    el("td", { class: "small muted", text: `${s.waiting_s} s` }, tr);
    const cell = el("td", {}, tr);
    if (s.players === 2) {
      const b = el("button", { type: "button", text: t("Play"), "data-accept": s.id }, cell);
      b.addEventListener("click", async () => {
        const a = await send("POST", `/api/seeks/accept/${encodeURIComponent(s.id)}`, {});
        if (!a.ok) { status(a.error, true); listSeeks(); return; }
        go(a.data);
      });
    }
  }
}

const LEVEL_KEY = "trapworks.level"; // the home page's remembered computer level (js/home.js)

/** The level the home page remembers, else Easy. */
function rememberedLevel() {
  const v = localStorage.getItem(LEVEL_KEY) || "";
  return ["easy", "medium", "hard"].includes(v) ? v : "easy";
}

/** One tap on a game's tile: that game, its default variant, the settings under "Custom game". */
function quickStart(gameId) {
  if (seeking) return;
  ui.game.value = gameId;
  renderVariants();
  ui.level.value = rememberedLevel();
  start(true);
}

/** The tiles say what a tap gives: the game, live or days a move, rated or casual. */
function tileWords() {
  const days = ui.days.value;
  const pace = days ? tn("{n} day a move", "{n} days a move", Number(days)) : t("live");
  const rated = account() && ui.rated.checked ? t("rated") : t("casual");
  return `${pace} · ${rated}`;
}

function drawTiles() {
  const box = clear(ui.tiles);
  for (const g of catalog) {
    const b = el("button", { type: "button", class: "quick-tile", "data-quick-tile": g.id, "data-testid": `quick-tile-${g.id}` }, box);
    el("span", { class: "quick-tile-name", text: t(g.title) }, b);
    el("span", { class: "quick-tile-meta", text: tileWords() }, b);
    b.addEventListener("click", () => quickStart(g.id));
  }
}

function build(main) {
  const card = el("section", { class: "card", id: "quick-game", "aria-labelledby": "quick-title", "data-testid": "quick-game" });
  const slot = document.getElementById("quick-slot"); // the home page's place for it (issue 39)
  if (slot) slot.replaceWith(card);
  else main.insertBefore(card, main.firstChild);
  el("h2", { id: "quick-title", text: t("Quick game") }, card);
  el("p", { class: "muted small", text: t("Tap a game: you are paired with a player near your rating; if nobody comes, the computer plays you.") }, card);
  // One tap on a tile seeks that game, as lichess's quick pairing tiles do (issue 39: the card was
  // a form); every setting is under "Custom game", shut by default.
  const tiles = el("div", { class: "quick-tiles", "data-testid": "quick-tiles" }, card);
  const custom = el("details", { class: "quick-custom", "data-testid": "quick-custom" }, card);
  el("summary", { text: t("Custom game") }, custom);
  const row = el("div", { class: "quick-row quick-main" }, custom);
  const gl = el("label", {}, row);
  el("span", { class: "name", text: t("Game") }, gl);
  const game = el("select", { "data-testid": "quick-game-select" }, gl);
  const variants = el("span", { class: "quick-row" }, row);
  const row2 = el("div", { class: "quick-row quick-settings" }, custom);
  const al = el("label", {}, row2);
  el("span", { class: "name", text: t("Computer after") }, al);
  const ai = el("select", { "data-testid": "quick-ai-after" }, al);
  for (const [v, words] of [["5", "5 s"], ["15", "15 s"], ["30", "30 s"], ["60", "1 min"], ["300", "5 min"], ["", t("never")]]) el("option", { value: v, text: words }, ai);
  ai.value = "30";
  const ll = el("label", {}, row2);
  el("span", { class: "name", text: t("Computer level") }, ll);
  const level = el("select", {}, ll);
  for (const [v, words] of [["easy", t("Easy")], ["medium", t("Medium")], ["hard", t("Hard")]]) el("option", { value: v, text: words }, level);
  level.value = rememberedLevel();
  const dl = el("label", {}, row2);
  el("span", { class: "name", text: t("Time per move") }, dl);
  const days = el("select", { "data-testid": "quick-days" }, dl);
  for (const v of ["", "1", "3", "7"]) el("option", { value: v, text: v ? tn("{n} day", "{n} days", Number(v)) : t("live") }, days);
  const rl = el("label", {}, row2);
  const rated = el("input", { type: "checkbox", "data-testid": "quick-rated" }, rl);
  rl.append(" " + t("Rated (players with an account)"));
  const row3 = el("div", { class: "row-buttons" }, custom);
  const find = el("button", { type: "button", class: "primary", text: t("Find a game"), "data-testid": "quick-find" }, row3);
  const waitRow = el("div", { class: "quick-wait" }, card);
  const st = el("p", { class: "seek-status", role: "status", "aria-live": "polite", "data-testid": "quick-status" }, waitRow);
  const cancel = el("button", { type: "button", text: t("Stop waiting"), "data-testid": "quick-cancel", hidden: true }, waitRow);
  const waitingHead = el("h3", { text: t("Players waiting"), class: "small", hidden: true }, card);
  const list = el("div", { "data-testid": "seeks" }, card);
  ui = { game, variants, ai, level, days, rated, find, cancel, status: st, list, tiles, custom, waitingHead };
  find.addEventListener("click", () => start());
  cancel.addEventListener("click", stop);
  game.addEventListener("change", renderVariants);
  days.addEventListener("change", drawTiles);
  rated.addEventListener("change", drawTiles);
}

async function init() {
  const main = document.querySelector("main");
  if (!main) return;
  build(main);
  const [r] = await Promise.all([api("GET", "/api/catalog"), me()]);
  if (!r.ok) return;
  const ORDER = ["last-mouse-lost", "mouse-trap", "booby-trap", "dead-end-drive"]; // as the home's game tiles
  catalog = r.data.games.filter((g) => !g.error)
    .sort((a, b) => (ORDER.indexOf(a.id) + 1 || 99) - (ORDER.indexOf(b.id) + 1 || 99));
  for (const g of catalog) el("option", { value: g.id, text: t(g.title) }, ui.game);
  if (catalog.some((g) => g.id === "last-mouse-lost")) ui.game.value = "last-mouse-lost";
  renderVariants();
  ui.rated.checked = !!account();
  ui.rated.disabled = !account();
  drawTiles();
  listSeeks();
  setInterval(listSeeks, LIST_MS);
  window.addEventListener("pagehide", () => { if (seeking) stop(); });
}

init();
