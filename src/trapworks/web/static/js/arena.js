// Arenas (issue 41): the list, one arena's live standings (read again every 2 s), join and leave.
// Your game starts as soon as you are paired: the page goes to it (every other page of the site
// too: js/arena-follow.js); its end screen has the way back here (js/arena-return.js).
import { api, clear, el } from "/static/js/dom.js";
import { $, act, clockWords, gameTitle, loadGames, me, notice, refused, send, t, table, translatePage } from "/static/js/community-api.js";
import { optionValues, twoPlayerGameOptions } from "/static/js/game-options.js";
import { goOnce } from "/static/js/arena-follow.js";
import { tn } from "/static/js/i18n.js";

const id = new URLSearchParams(location.search).get("id");
let username = null;

// An arena's state and times, as the server gives them, in words and the language's date format.
function stateText(state) {
  return { upcoming: t("upcoming"), running: t("running"), finished: t("finished") }[state] || state;
}

function when(iso) {
  const d = new Date(iso);
  return isNaN(d.getTime()) ? iso : d.toLocaleString(document.documentElement.lang, { dateStyle: "short", timeStyle: "short" });
}

// An arena's name: a recurring one's in the page's language ("Hourly Mouse Trap arena"), a
// player's as they wrote it.
function arenaName(a) {
  return a.recurring === "hourly" ? t("Hourly {game} arena", { game: gameTitle(a.game) }) : a.name;
}

// Minutes from now to a moment (at least 1): "in 12 min", "12 min left".
function minutesTo(iso) {
  return Math.max(1, Math.round((new Date(iso).getTime() - Date.now()) / 60000));
}

// One arena as a row that wraps on a phone: name, game and clock, when, who joined; its state.
function arenaItem(list, a) {
  const li = el("li", { class: "arena-item", "data-arena": a.id, "data-state": a.state }, list);
  const who = el("div", { class: "person-who" }, li);
  el("a", { href: `/arena?id=${encodeURIComponent(a.id)}`, text: arenaName(a), class: "person-name" }, who);
  el("span", { class: "muted small", text: [gameTitle(a.game), a.clock ? clockWords(a.clock) : t("no clock")].join(" · ") }, who);
  const timing = a.state === "running" ? t("{n} min left", { n: minutesTo(a.ends) })
    : a.state === "upcoming" ? (minutesTo(a.starts) <= 90 ? t("starts in {n} min", { n: minutesTo(a.starts) }) : t("{starts} to {ends}", { starts: when(a.starts), ends: when(a.ends) }))
      : when(a.starts);
  el("span", { class: "small", text: timing, "data-testid": "arena-when" }, who);
  if (a.players) el("span", { class: "small", text: tn("{n} player", "{n} players", a.players) }, who);
  const status = el("span", { class: `status status-${a.state === "running" ? "open" : a.state === "upcoming" ? "accepted" : "closed"}`, text: stateText(a.state) }, li);
  if (a.state !== "finished") {
    status.remove();
    el("a", { href: `/arena?id=${encodeURIComponent(a.id)}`, class: a.state === "running" ? "button primary" : "button", text: a.state === "running" ? t("Join") : t("Open"), "data-testid": "arena-open" }, el("div", { class: "person-actions" }, li));
  }
}

// The arenas as lichess lists its tournaments: those running now, then the next ones (the
// recurring hourly arenas always give one of each), then the recent ones folded; none at all (a
// server without recurring arenas): a welcome and the create form open.
async function showList() {
  const r = await api("GET", "/api/community/arenas");
  if (!r.ok) return;
  const box = clear($("arenas"));
  const arenas = r.data.arenas;
  if (!arenas.length) {
    const p = el("p", { class: "muted empty-state", "data-testid": "arenas-empty" }, box);
    p.append(`${t("No arena is planned yet. Make the first one: choose a game, when it starts and how long it runs, and invite your friends.")} `);
    el("a", { href: "#create-title", text: t("Create an arena"), onclick: () => { /** @type {HTMLDetailsElement} */ ($("create-box")).open = true; } }, p);
    /** @type {HTMLDetailsElement} */ ($("create-box")).open = true;
    return;
  }
  const running = arenas.filter((a) => a.state === "running").sort((x, y) => (x.ends < y.ends ? -1 : 1));
  const next = arenas.filter((a) => a.state === "upcoming").sort((x, y) => (x.starts < y.starts ? -1 : 1));
  const over = arenas.filter((a) => a.state === "finished");
  const group = (title, rows, testid, empty) => {
    const section = el("section", { class: "arena-group", "data-testid": testid }, box);
    el("h3", { text: title }, section);
    if (!rows.length) { el("p", { class: "muted small empty-state", text: empty }, section); return; }
    const list = el("ul", { class: "arena-list" }, section);
    for (const a of rows) arenaItem(list, a);
  };
  group(t("Now"), running, "arenas-now", next.length ? t("No arena is running now; the next one, {name}, starts {when}.", { name: arenaName(next[0]), when: when(next[0].starts) }) : t("No arena is running now."));
  group(t("Next"), next.slice(0, 8), "arenas-next", t("No arena is planned yet."));
  if (over.length) {
    const fold = el("details", { class: "arena-group", "data-testid": "arenas-finished" }, box);
    el("summary", { text: t("Finished ({n})", { n: over.length }) }, fold);
    const list = el("ul", { class: "arena-list" }, fold);
    for (const a of over) arenaItem(list, a);
  }
}

// Where this player stands, in words (lichess: "you are paired as soon as..."): not joined, waiting
// for an opponent, playing (their game one tap away: the page goes to it at once), paused.
function yourStatus(a, mine) {
  if (a.state === "finished") return mine ? t("The arena is over: you finished #{rank} with {score} points.", { rank: mine.rank, score: mine.score }) : "";
  if (!username) return t("Log in to join the arena.");
  if (!mine) return a.state === "upcoming" ? t("Join now: your first game starts when the arena starts, {when}.", { when: when(a.starts) })
    : t("Join to play: you are paired as soon as you join.");
  if (!mine.active) return t("You are paused: join again to be paired (your score stays).");
  if (mine.playing) return t("Your game is on: go to it.");
  if (a.state === "upcoming") return t("You are in: your first game starts when the arena starts, {when}.", { when: when(a.starts) });
  return t("You are in: your next game starts as soon as another player is free (pairing now).");
}

async function showArena() {
  const r = await api("GET", `/api/community/arenas/${encodeURIComponent(id)}`);
  if (!r.ok) { notice(refused(r), true); return; }
  const a = r.data;
  $("arena-card").hidden = false;
  $("arena-title").textContent = arenaName(a);
  const clock = a.clock ? clockWords(a.clock) : t("no clock");
  $("arena-info").textContent = t("{game}, {state}: {starts} to {ends}. Win 2, draw 1; after two wins in a row, double.", { game: gameTitle(a.game), state: stateText(a.state), starts: when(a.starts), ends: when(a.ends) }) + ` ${clock}.`;
  const mine = a.standings.find((p) => p.username === username);
  const you = $("arena-you");
  you.textContent = yourStatus(a, mine);
  // A visitor's way in is one tap (a player-judge: "Log in to join the arena." was a plain box).
  if (!username && a.state !== "finished") {
    you.append(" ");
    el("a", { href: "/account", class: "button", text: t("Log in / Sign up"), "data-testid": "arena-log-in" }, you);
  }
  you.hidden = !you.textContent;
  you.dataset.state = !mine ? "out" : !mine.active ? "paused" : mine.playing ? "playing" : "waiting";
  const over = a.state === "finished";
  $("join").hidden = over || !username || (mine && mine.active);
  $("join").textContent = mine && !mine.active ? t("Join again") : t("Join");
  $("leave").hidden = over || !mine || !mine.active;
  const go = /** @type {HTMLAnchorElement} */ ($("arena-game"));
  go.hidden = !(mine && mine.playing);
  table($("standings"), ["#", t("Player"), t("Score"), t("Games"), "", ""], a.standings, (p, tr) => {
    tr.setAttribute("data-player", p.username);
    if (p.username === username) tr.classList.add("me");
    el("td", { text: String(p.rank) }, tr);
    el("a", { href: `/u/${encodeURIComponent(p.username)}`, text: p.username }, el("td", {}, tr));
    el("td", { text: String(p.score), "data-testid": "score" }, tr);
    el("td", { text: String(p.games) }, tr);
    el("td", { text: p.on_fire ? t("on fire (double points)") : "" }, tr);
    el("td", { text: p.playing ? t("playing") : p.active ? t("waiting") : t("paused") }, tr);
  }, t("Nobody has joined yet."), true); // on a phone each row a small card (no column squeezed to letters)
  if (mine && mine.playing) {
    // Paired: to the game at once, as lichess's arena does (the seat's link, only sent to its player).
    const m = await send("GET", "/api/community/arenas/mine");
    const g = m.ok && m.data.game;
    if (g && g.id === mine.playing) {
      go.href = g.link;
      if (goOnce(g.id)) location.assign(g.link);
    }
  }
}

async function start() {
  const who = await me();
  username = who.account ? who.account.username : null;
  translatePage();
  const form = /** @type {HTMLFormElement} */ ($("create"));
  const select = /** @type {HTMLSelectElement} */ (form.elements.namedItem("game"));
  const games = await loadGames();
  // The game's own options (as the lobby and the challenge form draw them), for two players.
  twoPlayerGameOptions(select, $("arena-options"), games, "arena-opt-");
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = /** @type {HTMLFormElement} */ (e.target);
    const body = { name: /** @type {HTMLInputElement} */ (f.elements.namedItem("name")).value.trim(), game: select.value, options: optionValues($("arena-options")), minutes: Number(/** @type {HTMLInputElement} */ (f.elements.namedItem("minutes")).value), starts_in_s: 60 * Number(/** @type {HTMLInputElement} */ (f.elements.namedItem("starts")).value || 0) };
    const clock = /** @type {HTMLSelectElement} */ (f.elements.namedItem("clock")).value;
    if (clock) body.seconds_per_move = Number(clock);
    const made = await act("POST", "/api/community/arenas", body, t("Arena created."));
    if (made) location.href = `/arena?id=${encodeURIComponent(made.id)}`;
  });
  $("join").addEventListener("click", () => act("POST", `/api/community/arenas/${encodeURIComponent(id)}/join`, {}, t("You are in: you are paired as soon as someone is free."), showArena));
  $("leave").addEventListener("click", () => act("POST", `/api/community/arenas/${encodeURIComponent(id)}/leave`, {}, t("You are paused: join again to be paired (your score stays)."), showArena));
  if (location.hash === "#create-title") /** @type {HTMLDetailsElement} */ ($("create-box")).open = true;
  await showList();
  setInterval(() => { if (!document.hidden) showList(); }, 30000); // the next one starts, one ends
  if (id) { await showArena(); setInterval(() => { if (!document.hidden) showArena(); }, 2000); }
  document.body.dataset.ready = "1";
}

start();
