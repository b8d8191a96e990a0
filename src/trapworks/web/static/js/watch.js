// Games to watch (issue 41): the featured game per game and the games going on, read again every
// few seconds (any node answers the same: the database is the truth).
import { api, el } from "/static/js/dom.js";
import { $, table } from "/static/js/community-api.js";

const POLL_MS = 3000;

function players(g) {
  return g.players.map((p) => `${p.username} (${p.rating})`).join(" vs ");
}

function clockText(c) {
  if (!c) return "no clock";
  const setting = c.seconds >= 86400 ? `${c.seconds / 86400} d/move` : `${c.seconds} s/move`;
  if (c.left_s === undefined) return setting;
  const left = c.left_s >= 3600 ? `${Math.floor(c.left_s / 3600)} h` : `${c.left_s} s`;
  return `${setting}, ${left} left`;
}

async function show() {
  const game = /** @type {HTMLSelectElement} */ ($("game")).value;
  const r = await api("GET", `/api/community/live${game ? `?game=${encodeURIComponent(game)}` : ""}`);
  if (!r.ok) return;
  const featured = Object.values(r.data.featured);
  table($("featured"), ["Game", "Players", "Moves", "Clock", ""], featured, (g, tr) => {
    tr.setAttribute("data-featured", g.id);
    el("td", { text: `${g.game} (${g.variant})` }, tr);
    el("td", { text: players(g) }, tr);
    el("td", { text: String(g.moves) }, tr);
    el("td", { text: clockText(g.clock) }, tr);
    el("a", { href: g.watch, text: "Watch", "data-testid": "watch-featured" }, el("td", {}, tr));
  }, "No game is going on.");
  table($("live"), ["Game", "Players", "Rated", "Moves", "Clock", ""], r.data.games, (g, tr) => {
    tr.setAttribute("data-live", g.id);
    el("td", { text: `${g.game} (${g.variant})` }, tr);
    el("td", { text: players(g) }, tr);
    el("td", { text: g.rated ? "rated" : "casual" }, tr);
    el("td", { text: String(g.moves) }, tr);
    el("td", { text: clockText(g.clock) }, tr);
    el("a", { href: g.watch, text: "Watch", "data-testid": "watch-live" }, el("td", {}, tr));
  }, "No game is going on.");
}

async function start() {
  const catalog = await api("GET", "/api/catalog");
  for (const g of (catalog.ok ? catalog.data.games : [])) el("option", { value: g.id, text: g.title || g.id }, $("game"));
  $("game").addEventListener("change", show);
  await show();
  document.body.dataset.ready = "1";
  setInterval(show, POLL_MS);
}

start();
