// Games to watch (issue 41), as lichess TV shows them: the best-rated game going on large at the
// top, every other one as a card with a small live picture of its board (the spectator's view:
// js/board-preview.js), the players with their ratings, the clocks, and a link to watch. Read
// again every few seconds (any node answers the same: the database is the truth); a card stays
// while its game goes on, so its picture is drawn again only when a move was made.
// When no game between players is on (a fresh server: a player-judge's fix 3), the featured game
// is a player's game against the computer, said so; the others against the computer and the games
// just finished (each with its result and its review) follow, labelled.
import { api, clear, el } from "/static/js/dom.js";
import { $, clockWords, gameTitle, loadGames, t, translatePage, variantText, when } from "/static/js/community-api.js";
import { boardPreview } from "/static/js/board-preview.js";
import { formatClock } from "/static/js/clock.js";
import { agentName, tn } from "/static/js/i18n.js";

const POLL_MS = 3000;
const PREVIEWS = 24; // cards with a live picture (the rest: words only)
/** @type {Map<string, {card: HTMLElement, preview: any, featured: boolean}>} */
const cards = new Map();

// A seat's clock as the card shows it: its time left (a whole-game clock), or the time left for
// the move of the seat on move (a per-move clock).
function seatClock(g, seat) {
  const c = g.clock;
  if (!c) return "";
  if (c.remaining_s) return formatClock((c.remaining_s[seat] ?? 0) * 1000);
  if (c.to_move === seat && c.left_s !== undefined) return formatClock(c.left_s * 1000);
  return "";
}

function fill(card, g, big) {
  card.dataset.moves = String(g.moves);
  const players = clear(/** @type {HTMLElement} */ (card.querySelector(".live-players")));
  // As on a board: the second seat above, the first below (lichess shows the top player first).
  for (const p of big ? [...g.players].reverse() : g.players) {
    const row = el("div", { class: `live-player${g.clock && g.clock.to_move === p.seat ? " to-move" : ""}`, "data-seat": p.seat }, players);
    if (p.username) {
      el("a", { href: `/u/${encodeURIComponent(p.username)}`, class: "live-name", text: p.username }, row);
      el("span", { class: "live-rating", text: String(p.rating) }, row);
    } else el("span", { class: "live-name computer", text: t("Computer ({level})", { level: agentName(p.computer || "") }) }, row);
    const clock = seatClock(g, p.seat);
    if (clock) el("span", { class: "live-clock", text: clock, "data-testid": "live-clock" }, row);
  }
  const meta = /** @type {HTMLElement} */ (card.querySelector(".live-meta"));
  meta.textContent = [`${gameTitle(g.game)} · ${variantText(g.variant_parts)}`, clockWords(g.clock), g.rated ? t("rated") : t("casual"),
    tn("{n} move", "{n} moves", g.moves)].join(" · ");
}

function makeCard(g, big, parent, computer = false) {
  const card = el("article", { class: big ? "live-card featured-card" : "live-card" }, parent);
  card.setAttribute(computer ? "data-computer" : "data-live", g.id); // every game going on, the featured one too
  if (big) card.setAttribute("data-featured", g.id);
  const picture = el("a", { href: g.watch, class: "live-picture", tabindex: "-1", "aria-hidden": "true" }, card);
  const box = el("div", {}, picture);
  const words = el("div", { class: "live-words" }, card);
  el("div", { class: "live-players" }, words);
  el("p", { class: "live-meta muted small" }, words);
  el("a", { href: g.watch, class: big ? "button primary live-watch" : "live-watch", text: big ? t("Watch this game") : t("Watch"),
            "data-testid": "watch-live" }, words);
  return { card, preview: boardPreview(box, g.watch), featured: big };
}

// The games against the computer going on, as cards (those not featured).
function showComputer(games, featuredId) {
  const grid = $("computer");
  const rest = games.filter((g) => g.id !== featuredId);
  $("computer-box").hidden = !rest.length;
  for (const g of rest) {
    const key = `c:${g.id}`;
    let c = cards.get(key);
    if (!c) { c = makeCard(g, false, grid, true); cards.set(key, c); }
    fill(c.card, g, false);
    c.preview.refresh(g.moves);
    grid.append(c.card); // the server's order
  }
}

// A seat of a finished game as the list names it, with its result.
function seatWords(p) {
  const name = p.username || t("Computer ({level})", { level: agentName(p.computer || "") });
  const result = { won: t("won"), lost: t("lost"), drawn: t("drawn") }[p.result] || "";
  return result ? `${name} (${result})` : name;
}

// The games just finished: game, players with their results, when, and the review.
function showRecent(games) {
  const list = clear($("recent"));
  $("recent-box").hidden = !games.length;
  for (const g of games) {
    const li = el("li", { class: "recent-item", "data-recent": g.id }, list);
    const words = el("div", { class: "recent-words" }, li);
    el("span", { class: "recent-players", text: g.players.map(seatWords).join(t(" vs ")) }, words);
    el("span", { class: "muted small", text: [gameTitle(g.game), g.against_computer ? t("against the computer") : g.rated ? t("rated") : t("casual"), when(g.ended)].join(" · ") }, words);
    el("a", { href: g.review, class: "button", text: t("Review"), "data-testid": "recent-review" }, li);
  }
}

async function show() {
  const game = /** @type {HTMLSelectElement} */ ($("game")).value;
  const r = await api("GET", `/api/community/live${game ? `?game=${encodeURIComponent(game)}` : ""}`);
  if (!r.ok) return;
  const games = r.data.games;
  const computer = r.data.computer || [];
  // The featured game: the best rated of those between players (the server's order), large at
  // the top; none: the newest against the computer, said so.
  const top = games[0] || null;
  const topComputer = !top && computer.length ? computer[0] : null;
  const featuredGame = top || topComputer;
  const rest = games.slice(1);
  const wanted = new Set([...games.map((g) => `${g === top ? "f" : "l"}:${g.id}`), ...computer.map((g) => `${g === topComputer ? "f" : "c"}:${g.id}`)]);
  for (const [key, c] of cards) if (!wanted.has(key)) { c.card.remove(); cards.delete(key); }
  $("featured-title").textContent = topComputer ? t("Against the computer") : t("Featured game");
  const featured = $("featured");
  const emptyTop = featured.querySelector(".empty-state");
  if (emptyTop) emptyTop.remove();
  if (!featuredGame) {
    const p = el("div", { class: "empty-state card" }, featured);
    el("p", { text: t("No game between players is going on right now.") }, p);
    const more = el("p", { class: "muted" }, p);
    more.append(`${t("Start one and it shows here:")} `);
    el("a", { href: "/", text: t("play a quick game") }, more);
    more.append(` ${t("or")} `);
    el("a", { href: "/friends", text: t("challenge a friend") }, more);
  }
  if (topComputer) {
    const key = `f:${topComputer.id}`;
    let c = cards.get(key);
    if (!c) { c = makeCard(topComputer, true, featured, true); cards.set(key, c); }
    fill(c.card, topComputer, true);
    c.preview.refresh(topComputer.moves);
  }
  const grid = $("live");
  const emptyGrid = grid.querySelector(".empty-state");
  if (emptyGrid) emptyGrid.remove();
  games.forEach((g, i) => {
    const key = `${g === top ? "f" : "l"}:${g.id}`;
    let c = cards.get(key);
    if (!c) { c = makeCard(g, g === top, g === top ? featured : grid); cards.set(key, c); }
    fill(c.card, g, g === top);
    if (g === top || i <= PREVIEWS) c.preview.refresh(g.moves);
  });
  // keep the server's order
  for (const g of rest) { const c = cards.get(`l:${g.id}`); if (c) grid.append(c.card); }
  // No other game between players: the section says so only when there is one (featured); none at
  // all: the section is left out (the featured slot says it), what there is to watch comes first.
  $("live-box").hidden = !top;
  if (top && !rest.length) el("p", { class: "muted empty-state", text: t("No other game is going on.") }, grid);
  showComputer(computer, topComputer ? topComputer.id : null);
  showRecent(r.data.recent || []);
  document.body.dataset.live = String(games.length);
}

async function start() {
  translatePage();
  for (const g of await loadGames()) el("option", { value: g.id, text: g.title || g.id }, $("game"));
  $("game").addEventListener("change", show);
  await show();
  document.body.dataset.ready = "1";
  setInterval(show, POLL_MS);
}

start();
