// Games to watch (issue 41), as lichess TV shows them: the best-rated game going on large at the
// top, every other one as a card with a small live picture of its board (the spectator's view:
// js/board-preview.js), the players with their ratings, the clocks, and a link to watch. Read
// again every few seconds (any node answers the same: the database is the truth); a card stays
// while its game goes on, so its picture is drawn again only when a move was made.
import { api, clear, el } from "/static/js/dom.js";
import { $, clockWords, gameTitle, loadGames, t, translatePage, variantText } from "/static/js/community-api.js";
import { boardPreview } from "/static/js/board-preview.js";
import { formatClock } from "/static/js/clock.js";
import { tn } from "/static/js/i18n.js";

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
    el("a", { href: `/u/${encodeURIComponent(p.username)}`, class: "live-name", text: p.username }, row);
    el("span", { class: "live-rating", text: String(p.rating) }, row);
    const clock = seatClock(g, p.seat);
    if (clock) el("span", { class: "live-clock", text: clock, "data-testid": "live-clock" }, row);
  }
  const meta = /** @type {HTMLElement} */ (card.querySelector(".live-meta"));
  meta.textContent = [`${gameTitle(g.game)} · ${variantText(g.variant_parts)}`, clockWords(g.clock), g.rated ? t("rated") : t("casual"),
    tn("{n} move", "{n} moves", g.moves)].join(" · ");
}

function makeCard(g, big, parent) {
  const card = el("article", { class: big ? "live-card featured-card" : "live-card" }, parent);
  card.setAttribute("data-live", g.id); // every game going on, the featured one too
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

async function show() {
  const game = /** @type {HTMLSelectElement} */ ($("game")).value;
  const r = await api("GET", `/api/community/live${game ? `?game=${encodeURIComponent(game)}` : ""}`);
  if (!r.ok) return;
  const games = r.data.games;
  // The featured game: the best rated of those listed (the server's order), large at the top.
  const top = games[0] || null;
  const rest = games.slice(1);
  const wanted = new Set(games.map((g) => `${g === top ? "f" : "l"}:${g.id}`));
  for (const [key, c] of cards) if (!wanted.has(key)) { c.card.remove(); cards.delete(key); }
  const featured = $("featured");
  const emptyTop = featured.querySelector(".empty-state");
  if (emptyTop) emptyTop.remove();
  if (!top) {
    const p = el("div", { class: "empty-state card" }, featured);
    el("p", { text: t("No game between players is going on right now.") }, p);
    const more = el("p", { class: "muted" }, p);
    more.append(`${t("Start one and it shows here:")} `);
    el("a", { href: "/", text: t("play a quick game") }, more);
    more.append(` ${t("or")} `);
    el("a", { href: "/friends", text: t("challenge a friend") }, more);
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
  if (!rest.length) {
    el("p", { class: "muted empty-state", text: top ? t("No other game is going on.") : t("The games going on show here, each with its board.") }, grid);
  }
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
