// Games to watch (issue 41): the featured game per game and the games going on, read again every
// few seconds (any node answers the same: the database is the truth).
import { api, el } from "/static/js/dom.js";
import { $, gameTitle, loadGames, t, table, translatePage, variantText } from "/static/js/community-api.js";

const POLL_MS = 3000;

function players(g) {
  return g.players.map((p) => `${p.username} (${p.rating})`).join(t(" vs "));
}

function clockText(c) {
  if (!c) return t("no clock");
  const setting = c.seconds >= 86400 ? t("{n} d/move", { n: c.seconds / 86400 }) : t("{n} s/move", { n: c.seconds });
  if (c.left_s === undefined) return setting;
  const left = c.left_s >= 3600 ? t("{n} h", { n: Math.floor(c.left_s / 3600) }) : t("{n} s", { n: c.left_s });
  return t("{setting}, {left} left", { setting, left });
}

async function show() {
  const game = /** @type {HTMLSelectElement} */ ($("game")).value;
  const r = await api("GET", `/api/community/live${game ? `?game=${encodeURIComponent(game)}` : ""}`);
  if (!r.ok) return;
  const featured = Object.values(r.data.featured);
  table($("featured"), [t("Game"), t("Players"), t("Moves"), t("Clock"), ""], featured, (g, tr) => {
    tr.setAttribute("data-featured", g.id);
    el("td", { text: `${gameTitle(g.game)} (${variantText(g.variant_parts)})` }, tr);
    el("td", { text: players(g) }, tr);
    el("td", { text: String(g.moves) }, tr);
    el("td", { text: clockText(g.clock) }, tr);
    el("a", { href: g.watch, text: t("Watch"), "data-testid": "watch-featured" }, el("td", {}, tr));
  }, t("No game is going on."));
  table($("live"), [t("Game"), t("Players"), t("Rated"), t("Moves"), t("Clock"), ""], r.data.games, (g, tr) => {
    tr.setAttribute("data-live", g.id);
    el("td", { text: `${gameTitle(g.game)} (${variantText(g.variant_parts)})` }, tr);
    el("td", { text: players(g) }, tr);
    el("td", { text: g.rated ? t("rated") : t("casual") }, tr);
    el("td", { text: String(g.moves) }, tr);
    el("td", { text: clockText(g.clock) }, tr);
    el("a", { href: g.watch, text: t("Watch"), "data-testid": "watch-live" }, el("td", {}, tr));
  }, t("No game is going on."));
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
