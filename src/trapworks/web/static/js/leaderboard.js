// Leaderboards: the best ratings of a game, one table per player count that has rated games
// (issue 39: games as tabs, no nonsense filter such as "1 player", no uncertainty column).
import { api, clear, el, myGames } from "/static/js/dom.js";
import { account, avatar, me, ratingText } from "/static/js/account-api.js";
import { t, tn, translatePage } from "/static/js/i18n.js";

// The page's own elements by id: inputs, selects, dialogs and links of known kinds (any: the
// page's HTML says which; TypeScript checks the rest).
/** @type {(id: string) => any} */
const $ = (id) => document.getElementById(id);
let catalog = [];
/** @type {Map<string, any>} boards already asked for while choosing the game to show */
const fetched = new Map();

/** Every game's board, asked for once (the tabs' counts, the busiest game, the other games' tops). */
async function allBoards() {
  const boards = await Promise.all(catalog.map((g) => api("GET", `/api/leaderboard?game=${encodeURIComponent(g.id)}`)));
  catalog.forEach((g, i) => fetched.set(g.id, boards[i]));
}

/** How many players a game's board lists (0 when it could not be read). @param {string} game */
function listed(game) {
  const r = fetched.get(game);
  return r && r.ok ? r.data.rows.length : 0;
}

/**
 * The game to show: the link's, else the game just played if anyone is on its board (lichess opens
 * on yours), else the busiest board (issue 39: it opened on a game with nobody on it).
 */
function chosenGame() {
  const params = new URLSearchParams(location.search);
  const wanted = params.get("game");
  if (wanted && catalog.some((g) => g.id === wanted)) return wanted;
  const last = myGames()[0];
  if (last && catalog.some((g) => g.id === last.game) && listed(last.game)) return last.game;
  const busiest = catalog.slice().sort((a, b) => listed(b.id) - listed(a.id))[0];
  return (busiest || { id: "" }).id;
}

/** The other games' best three each, beside the board (lichess's leaderboard shows every game's top). */
function drawTops(current) {
  const box = clear($("tops"));
  const others = catalog.filter((g) => g.id !== current);
  if (!others.length) { box.hidden = true; return; }
  box.hidden = false;
  el("h2", { text: t("The other games' best") }, box);
  for (const g of others) {
    const card = el("section", { class: "lb-top", "data-top": g.id }, box);
    const h = el("h3", {}, card);
    el("a", { href: `/leaderboard?game=${encodeURIComponent(g.id)}`, text: t(g.title) }, h);
    const r = fetched.get(g.id);
    const rows = r && r.ok ? r.data.rows.slice(0, 3) : [];
    if (!rows.length) { el("p", { class: "muted small", text: t("Nobody yet: play it rated to be the first.") }, card); continue; }
    const list = el("ol", { class: "lb-top-list" }, card);
    for (const row of rows) {
      const li = el("li", {}, list);
      li.append(avatar(row.username, "s"));
      el("a", { href: `/u/${encodeURIComponent(row.username)}`, text: row.username }, li);
      el("b", { text: ratingText(row) }, li);
    }
  }
}

function drawTabs(current) {
  const nav = clear($("game"));
  for (const g of catalog) {
    const a = el("a", { href: `/leaderboard?game=${encodeURIComponent(g.id)}`, text: t(g.title), "data-game": g.id }, nav);
    const n = listed(g.id);
    // How many are on each board, said in the tab (an empty board is one tap away, not a surprise).
    el("span", { class: "tab-count", text: String(n), title: tn("{n} player", "{n} players", n) }, a);
    if (g.id === current) a.setAttribute("aria-current", "page");
    a.addEventListener("click", (e) => {
      e.preventDefault();
      history.replaceState(null, "", a.getAttribute("href"));
      show(g.id);
    });
  }
}

const PROVISIONAL = () => t("Provisional rating: it settles after a few more rated games.");

function playerCell(tr, row) {
  const who = el("span", { class: "lb-who" }, el("td", { class: "lb-player" }, tr));
  who.append(avatar(row.username, "s"));
  el("a", { href: `/u/${encodeURIComponent(row.username)}`, text: row.username }, who);
  if (row.provisional) el("span", { class: "pill pill-provisional", text: t("provisional"), title: PROVISIONAL() }, who);
}

// Settled ratings ranked first (1, 2, 3 as medals), then the provisional ones under a line that
// says why they are not ranked yet: a new site's board is never empty of its players (issue 39).
function drawTable(box, rows) {
  const table = el("table", { class: "games leaderboard-table" }, box);
  const head = el("tr", {}, el("thead", {}, table));
  for (const h of ["#", t("Player"), t("Rating"), t("Games")]) el("th", { text: h, scope: "col" }, head);
  const body = el("tbody", {}, table);
  let said = false;
  rows.forEach((row) => {
    if (row.rank == null && !said) {
      said = true;
      const line = el("tr", { class: "lb-divider" }, body);
      el("th", { colspan: 4, scope: "colgroup", text: t("Provisional: not ranked until their rating settles") }, line);
    }
    const tr = el("tr", { "data-player": row.username, class: row.rank == null ? "lb-provisional" : `lb-rank-${row.rank}` }, body);
    const who = account();
    if (who && who.username === row.username) tr.classList.add("lb-me"); // you, found at a glance
    // Provisional ratings are not ranked (the server says rank null): a few lucky games rank nobody.
    const rank = el("td", { class: "lb-rank", title: row.rank == null ? PROVISIONAL() : "" }, tr);
    el("span", { class: "lb-rank-mark", text: row.rank == null ? "?" : String(row.rank) }, rank);
    playerCell(tr, row);
    el("td", { class: "lb-rating", text: ratingText(row), "data-rating": String(row.rating),
               title: row.provisional ? PROVISIONAL() : "" }, tr);
    el("td", { class: "lb-games", text: String(row.games) }, tr);
  });
}

// No rated game of this game yet: an invitation, not a blank (issue 39).
function drawEmpty(box, game) {
  const empty = el("div", { class: "empty-board", "data-testid": "leaderboard-empty" }, box);
  const title = t((catalog.find((g) => g.id === game) || {}).title || game);
  el("p", { class: "empty-title", text: t("Nobody is on the {game} board yet.", { game: title }) }, empty);
  el("p", { text: t("Play a rated game against another player with an account: both of you appear here at once, with a provisional rating.") }, empty);
  const ways = el("div", { class: "empty-ways" }, empty);
  el("a", { href: "/account#challenge-title", class: "button-link", text: t("Play a friend") }, ways);
  el("a", { href: "/", class: "button-link quiet", text: t("Quick game") }, ways);
}

async function show(game) {
  document.body.dataset.ready = "";
  drawTabs(game);
  const wanted = new URLSearchParams(location.search).get("players");
  const params = new URLSearchParams({ game });
  if (wanted) params.set("players", wanted);
  const r = (!wanted && fetched.get(game)) || await api("GET", `/api/leaderboard?${params}`);
  drawTops(game);
  const box = clear($("board"));
  if (!r.ok) { el("p", { class: "error", text: r.error }, box); document.body.dataset.ready = "1"; return; }
  if (!r.data.rows.length) {
    drawEmpty(box, game);
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
  const ORDER = ["last-mouse-lost", "mouse-trap", "booby-trap", "dead-end-drive"]; // as the home page's tiles
  catalog = r.data.games.filter((g) => !g.error)
    .sort((a, b) => (ORDER.indexOf(a.id) + 1 || 99) - (ORDER.indexOf(b.id) + 1 || 99));
  await Promise.all([allBoards(), me()]);
  const game = chosenGame();
  if (!new URLSearchParams(location.search).get("game")) history.replaceState(null, "", `/leaderboard?game=${encodeURIComponent(game)}`);
  await show(game);
}

init();
