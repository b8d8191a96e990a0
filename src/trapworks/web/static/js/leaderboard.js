// Leaderboards: the best ratings of a game, per player count.
import { api, clear, el, myGames } from "/static/js/dom.js";
import { ratingText } from "/static/js/account-api.js";
import { t, tn, translatePage, tx } from "/static/js/i18n.js";

// The page's own elements by id: inputs, selects, dialogs and links of known kinds (any: the
// page's HTML says which; TypeScript checks the rest).
/** @type {(id: string) => any} */
const $ = (id) => document.getElementById(id);
let catalog = [];

function playerCounts(game) {
  const opt = (game.options_schema || []).find((o) => o.name === "players");
  const counts = opt && opt.choices ? opt.choices.map((c) => c.value).filter((v) => typeof v === "number") : [];
  return counts.length ? counts : [game.players];
}

function fillPlayers() {
  const game = catalog.find((g) => g.id === $("game").value);
  const select = clear($("players"));
  for (const n of playerCounts(game)) el("option", { value: String(n), text: tn("{n} player", "{n} players", n) }, select);
  // The page opens on the game just played (the last one this browser remembers), as lichess does.
  const last = myGames()[0];
  const wanted = new URLSearchParams(location.search).get("players") || (last && last.game === game.id && last.players ? String(last.players) : null);
  if (wanted && [...select.options].some((o) => o.value === wanted)) select.value = wanted;
  else select.value = String(game.players);
}

async function show() {
  const params = new URLSearchParams({ game: $("game").value, players: $("players").value });
  history.replaceState(null, "", `/leaderboard?${params}`);
  const r = await api("GET", `/api/leaderboard?${params}`);
  const box = clear($("board"));
  if (!r.ok) { el("p", { class: "error", text: r.error }, box); return; }
  // An empty board is still a table: its columns, one row saying so, and where rated games are made.
  const table = el("table", { class: "games leaderboard-table" }, box);
  const head = el("tr", {}, el("thead", {}, table));
  for (const h of ["#", t("Player"), t("Rating"), t("Uncertainty (±)"), t("Rated games")]) el("th", { text: h, scope: "col" }, head);
  const body = el("tbody", {}, table);
  if (!r.data.rows.length) {
    const cell = el("td", { colspan: "5", class: "empty-board", "data-testid": "leaderboard-empty" }, el("tr", {}, body));
    el("p", { text: t("No rated games yet at this player count.") }, cell);
    el("a", { href: "/account", class: "button-link", text: t("Play a friend") }, cell);
  } else {
    for (const row of r.data.rows) {
      const tr = el("tr", { "data-player": row.username }, body);
      el("td", { text: String(row.rank) }, tr);
      el("a", { href: `/u/${encodeURIComponent(row.username)}`, text: row.username }, el("td", {}, tr));
      el("td", { text: ratingText(row), "data-rating": String(row.rating), title: row.provisional ? t("provisional") : "" }, tr);
      el("td", { text: String(row.uncertainty) }, tr);
      el("td", { text: String(row.games) }, tr);
    }
  }
  document.body.dataset.ready = "1";
}

async function init() {
  translatePage(); // the page's own words (data-i18n) in the chosen language
  const r = await api("GET", "/api/catalog");
  if (!r.ok) { $("board").textContent = r.error; return; }
  catalog = r.data.games.filter((g) => !g.error);
  for (const g of catalog) el("option", { value: g.id, text: tx(g.title) }, $("game"));
  const last = myGames()[0];
  const wanted = new URLSearchParams(location.search).get("game") || (last && last.game);
  if (catalog.some((g) => g.id === wanted)) $("game").value = wanted;
  fillPlayers();
  $("game").addEventListener("change", () => { fillPlayers(); show(); });
  $("players").addEventListener("change", show);
  await show();
}

init();
