// Leaderboards: the best ratings of a game, one table per player count that has rated games
// (issue 39: games as tabs, no nonsense filter such as "1 player", no uncertainty column).
import { api, clear, el, myGames } from "/static/js/dom.js";
import { ratingText } from "/static/js/account-api.js";
import { t, tn, translatePage } from "/static/js/i18n.js";

// The page's own elements by id: inputs, selects, dialogs and links of known kinds (any: the
// page's HTML says which; TypeScript checks the rest).
/** @type {(id: string) => any} */
const $ = (id) => document.getElementById(id);
let catalog = [];
/** @type {Map<string, any>} boards already asked for while choosing the game to show */
const fetched = new Map();

/**
 * The game to show: the link's, else the game just played (the last one this browser remembers), as
 * lichess does, else the first game that has rated games (a newcomer is not shown an empty board
 * beside a full one).
 */
async function chosenGame() {
  const params = new URLSearchParams(location.search);
  const last = myGames()[0];
  for (const wanted of [params.get("game"), last && last.game]) {
    if (wanted && catalog.some((g) => g.id === wanted)) return wanted;
  }
  const boards = await Promise.all(catalog.map((g) => api("GET", `/api/leaderboard?game=${encodeURIComponent(g.id)}`)));
  catalog.forEach((g, i) => fetched.set(g.id, boards[i])); // show() draws the chosen one without asking again
  const rated = catalog.find((g, i) => boards[i].ok && boards[i].data.rows.length);
  return (rated || catalog[0] || { id: "" }).id;
}

function drawTabs(current) {
  const nav = clear($("game"));
  for (const g of catalog) {
    const a = el("a", { href: `/leaderboard?game=${encodeURIComponent(g.id)}`, text: t(g.title), "data-game": g.id }, nav);
    if (g.id === current) a.setAttribute("aria-current", "page");
    a.addEventListener("click", (e) => {
      e.preventDefault();
      history.replaceState(null, "", a.getAttribute("href"));
      show(g.id);
    });
  }
}

function drawTable(box, rows) {
  const table = el("table", { class: "games leaderboard-table" }, box);
  const head = el("tr", {}, el("thead", {}, table));
  for (const h of ["#", t("Player"), t("Rating"), t("Rated games")]) el("th", { text: h, scope: "col" }, head);
  const body = el("tbody", {}, table);
  rows.forEach((row) => {
    const tr = el("tr", { "data-player": row.username }, body);
    // Provisional ratings are not ranked (the server says rank null): a few lucky games rank nobody.
    el("td", { text: row.rank == null ? "–" : String(row.rank),
               title: row.rank == null ? t("Provisional rating: it settles after a few more rated games.") : "" }, tr);
    el("a", { href: `/u/${encodeURIComponent(row.username)}`, text: row.username }, el("td", {}, tr));
    el("td", { text: ratingText(row), "data-rating": String(row.rating),
               title: row.provisional ? t("Provisional rating: it settles after a few more rated games.") : "" }, tr);
    el("td", { text: String(row.games) }, tr);
  });
}

async function show(game) {
  document.body.dataset.ready = "";
  drawTabs(game);
  const wanted = new URLSearchParams(location.search).get("players");
  const params = new URLSearchParams({ game });
  if (wanted) params.set("players", wanted);
  const r = (!wanted && fetched.get(game)) || await api("GET", `/api/leaderboard?${params}`);
  fetched.clear(); // a tab clicked later asks the server afresh
  const box = clear($("board"));
  if (!r.ok) { el("p", { class: "error", text: r.error }, box); document.body.dataset.ready = "1"; return; }
  if (!r.data.rows.length) {
    const empty = el("div", { class: "empty-board", "data-testid": "leaderboard-empty" }, box);
    el("p", { text: t("No rated games yet.") }, empty);
    el("a", { href: "/account", class: "button-link", text: t("Play a friend") }, empty);
    document.body.dataset.ready = "1";
    return;
  }
  // One table per player count (ratings of a 2-player and a 4-player game are not comparable).
  const counts = [...new Set(r.data.rows.map((row) => row.players))].sort((a, b) => a - b);
  for (const n of counts) {
    const section = el("section", { "data-players": n }, box);
    if (counts.length > 1) el("h3", { text: tn("{n} player", "{n} players", n) }, section);
    drawTable(el("div", { class: "table-scroll" }, section), r.data.rows.filter((row) => row.players === n));
  }
  document.body.dataset.ready = "1";
}

async function init() {
  translatePage(); // the page's own words (data-i18n) in the chosen language
  const r = await api("GET", "/api/catalog");
  if (!r.ok) { $("board").textContent = r.error; document.body.dataset.ready = "1"; return; }
  catalog = r.data.games.filter((g) => !g.error);
  const game = await chosenGame();
  if (!new URLSearchParams(location.search).get("game")) history.replaceState(null, "", `/leaderboard?game=${encodeURIComponent(game)}`);
  await show(game);
}

init();
