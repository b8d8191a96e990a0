// Arenas (issue 41): the list, one arena's live standings (read again every 2 s), join and leave.
// Your game starts as soon as you are paired: the page opens it.
import { api, el } from "/static/js/dom.js";
import { $, act, gameTitle, loadGames, me, notice, refused, send, t, table, translatePage } from "/static/js/community-api.js";

const id = new URLSearchParams(location.search).get("id");
let username = null;
let shownGame = null;

// An arena's state and times, as the server gives them, in words and the language's date format.
function stateText(state) {
  return { upcoming: t("upcoming"), running: t("running"), finished: t("finished") }[state] || state;
}

function when(iso) {
  const d = new Date(iso);
  return isNaN(d.getTime()) ? iso : d.toLocaleString(document.documentElement.lang, { dateStyle: "short", timeStyle: "short" });
}

async function showList() {
  const r = await api("GET", "/api/community/arenas");
  if (!r.ok) return;
  table($("arenas"), [t("Arena"), t("Game"), t("Starts"), t("Ends"), t("State")], r.data.arenas, (a, tr) => {
    el("a", { href: `/arena?id=${encodeURIComponent(a.id)}`, text: a.name }, el("td", {}, tr));
    el("td", { text: gameTitle(a.game) }, tr);
    el("td", { text: when(a.starts) }, tr);
    el("td", { text: when(a.ends) }, tr);
    el("td", { text: stateText(a.state) }, tr);
  }, t("No arena yet."));
}

async function showArena() {
  const r = await api("GET", `/api/community/arenas/${encodeURIComponent(id)}`);
  if (!r.ok) { notice(refused(r), true); return; }
  const a = r.data;
  $("arena-card").hidden = false;
  $("arena-title").textContent = a.name;
  $("arena-info").textContent = t("{game}, {state}: {starts} to {ends}. Win 2, draw 1; after two wins in a row, double.", { game: gameTitle(a.game), state: stateText(a.state), starts: when(a.starts), ends: when(a.ends) });
  table($("standings"), ["#", t("Player"), t("Score"), t("Games"), "", ""], a.standings, (p, tr) => {
    tr.setAttribute("data-player", p.username);
    el("td", { text: String(p.rank) }, tr);
    el("a", { href: `/u/${encodeURIComponent(p.username)}`, text: p.username }, el("td", {}, tr));
    el("td", { text: String(p.score), "data-testid": "score" }, tr);
    el("td", { text: String(p.games) }, tr);
    el("td", { text: p.on_fire ? t("on fire (double points)") : "" }, tr);
    el("td", { text: p.playing ? t("playing") : p.active ? t("waiting") : t("paused") }, tr);
  }, t("Nobody has joined yet."));
  const mine = a.standings.find((p) => p.username === username);
  if (mine && mine.playing && mine.playing !== shownGame) {
    shownGame = mine.playing;
    const games = await send("GET", `/api/players/${encodeURIComponent(username)}/games`);
    const g = games.ok && games.data.games.find((x) => x.id === mine.playing);
    if (g && g.link) window.open(g.link, "_blank");
  }
}

async function start() {
  const who = await me();
  username = who.account ? who.account.username : null;
  translatePage();
  for (const g of await loadGames()) el("option", { value: g.id, text: g.title || g.id }, /** @type {HTMLSelectElement} */ ((/** @type {HTMLFormElement} */ ($("create"))).elements.namedItem("game")));
  $("create").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = /** @type {HTMLFormElement} */ (e.target);
    const optionsText = /** @type {HTMLInputElement} */ (f.elements.namedItem("options")).value;
    let options = {};
    if (optionsText.trim()) {
      try { options = JSON.parse(optionsText); } catch (err) { notice(t("Options: not JSON ({error})", { error: err.message }), true); return; }
    }
    const body = { name: /** @type {HTMLInputElement} */ (f.elements.namedItem("name")).value.trim(), game: /** @type {HTMLSelectElement} */ (f.elements.namedItem("game")).value, options, minutes: Number(/** @type {HTMLInputElement} */ (f.elements.namedItem("minutes")).value), starts_in_s: 60 * Number(/** @type {HTMLInputElement} */ (f.elements.namedItem("starts")).value || 0) };
    const clock = /** @type {HTMLInputElement} */ (f.elements.namedItem("clock")).value;
    if (clock) body.seconds_per_move = Number(clock);
    const made = await act("POST", "/api/community/arenas", body, t("Arena created."));
    if (made) location.href = `/arena?id=${encodeURIComponent(made.id)}`;
  });
  $("join").addEventListener("click", () => act("POST", `/api/community/arenas/${encodeURIComponent(id)}/join`, {}, t("You are in: you are paired as soon as someone is free."), showArena));
  $("leave").addEventListener("click", () => act("POST", `/api/community/arenas/${encodeURIComponent(id)}/leave`, {}, t("You left the arena; join again to come back."), showArena));
  await showList();
  if (id) { await showArena(); setInterval(showArena, 2000); }
  document.body.dataset.ready = "1";
}

start();
