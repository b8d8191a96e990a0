// Step-by-step replay of a game record: the server turns the record into one view per step
// (POST /api/replay); this page feeds them to the game's renderer in replay mode.
import { api, clear, el, hashParams } from "/static/js/dom.js";
import { baseContext, loadRenderer } from "/static/js/host.js";
import { COMPACT_LOG, renderLog } from "/static/js/log.js";
import { loadAnalysis, scrollWithin, showAnalysis } from "/static/js/analysis.js";
import { forfeitWords, seatName, t, translatePage } from "/static/js/i18n.js";

// The page's own elements by id: inputs, selects, dialogs and links of known kinds (any: the
// page's HTML says which; TypeScript checks the rest).
/** @type {(id: string) => any} */
const $ = (id) => document.getElementById(id);
let data = null;
let renderer = null;
let at = 0;
let timer = null;
let queue = Promise.resolve();
let gameId = ""; // the game's id where the page knows it (its analysis is asked for)
/** @type {(step: number) => void} */
let markStep = () => {};
let opensAtEnd = false; // a finished game's review opens on its final position
let seats = []; // who sat where: [{seat, name, kind, agent, label}] (seatsOf)

// Who sat where, from the record's typed seats ({kind, agent, name}: the server writes them; issue
// 37: no label is read apart): each seat named as the game page names it (its name, "Computer
// (easy)"). A record made elsewhere, without them, shows its `players` texts as they are.
function seatsOf(record) {
  const typed = Array.isArray(record.seats) && record.seats.length === (record.players || []).length ? record.seats : null;
  const list = typed ? typed.map((s) => ({ kind: s.kind, agent: s.agent || null, name: s.name || "" }))
    : (record.players || []).map((text) => ({ kind: "human", agent: null, name: String(text || "") }));
  return list.map((p, seat) => ({ seat, ...p, label: seatName(seat, p, undefined, list) }));
}

function message(text, kind = "info") {
  const box = clear($("messages"));
  el("div", { class: `msg ${kind}`, text, "data-message": kind }, box);
}

function show(i, animate) {
  i = Math.max(0, Math.min(i, data.steps.length - 1));
  at = i;
  const step = data.steps[i];
  const log = data.actions.slice(0, i).map((text, k) => ({ ply: k, seat: data.steps[k].to_move ?? -1, text }));
  const u = { ...step, log, sync: !animate, can_undo: false, can_hint: false, error: null, truncated: false };
  // Ended off the board (resigned, out of time, aborted): no move is left to offer on the last step.
  const closed = step.terminal && data.ending && !step.view.terminal;
  if (closed) u.view = { ...step.view, to_move: null, legal_actions: [] };
  document.body.dataset.endedOff = closed ? "1" : "0";
  queue = queue.then(() => renderer.update(u)).catch((e) => message(t("the board could not be drawn: {error}", { error: e.message }), "error"));
  $("slider").value = String(i);
  $("where").textContent = t("Step {i} of {n}", { i, n: data.steps.length - 1 }) + (step.terminal ? ` · ${t("game over")}${endingText(step)}` : "");
  document.body.dataset.step = String(i);
  // The line of the turn this step belongs to is the current one.
  for (const li of $("log").children) {
    li.classList.toggle("current", +li.dataset.ply <= i - 1 && i - 1 <= +li.dataset.lastPly);
  }
  // the list scrolls to the line, the page does not (on a phone the board stays in sight)
  const current = $("log").querySelector("li.current");
  if (current) scrollWithin($("log"), current);
  else $("log").scrollTop = 0; // the start: the first moves in view
  // at an end, the buttons that would go past it look off (still pressable: a press does nothing)
  for (const b of ["first", "prev"]) $(b).dataset.atEnd = i === 0 ? "1" : "0";
  for (const b of ["next", "last"]) $(b).dataset.atEnd = i === data.steps.length - 1 ? "1" : "0";
  markStep(i);
  playWords();
}

// How a game ended off the board (resigned, out of time, aborted), from the record's forfeits;
// the reasons' words are the server's one enum (i18n.js forfeitWords).
function endingText(step) {
  const words = resultWords(step);
  return words.length ? ` · ${words.join(" · ")}` : "";
}

/** What ended the game and who won, as phrases ([] while it goes on). @returns {string[]} */
function resultWords(step) {
  const ending = data.ending;
  const label = (s) => (seats[s] ? seats[s].label : t("Player {n}", { n: s + 1 }));
  const winners = (step.winners || []).map(label);
  const result = !winners.length ? []
    : [winners.length > 1 ? t("{who} win", { who: winners.join(t(" and ")) }) : t("{who} wins", { who: winners[0] })];
  if (!ending) return result;
  if (ending.aborted) return [t("aborted: no result")];
  const said = ending.forfeits.map((f) => `${label(f.seat)} ${forfeitWords(f.reason)}`).join(", ");
  return [said, ...result];
}

// The result up front (judge 7: "the result is not shown up front"), as lichess's review says
// it above the moves: how the game ended, whatever step is shown.
function showResult() {
  const last = data.steps[data.steps.length - 1];
  const box = clear($("result"));
  const words = last && last.terminal ? resultWords(last) : [];
  box.hidden = !words.length;
  if (words.length) el("p", { text: t("Result: {result}", { result: words.join(" · ") }) }, box);
}

// --- front2 (i39): while the review is prepared, words and a bar; a refusal as a sentence ------
// The server's refusals that pass (busy with other replays, or this address's one replay at a
// time, or the network): the page waits and asks again by itself, saying so.
const PASSING = new Set(["replay_busy", "busy", "node_busy", "too_many_requests"]);
let retryAction = null;
let slowTimer = null;

function loading(words) {
  $("problem").hidden = true;
  $("loading").hidden = false;
  $("loading-words").textContent = words;
  document.body.dataset.loading = "1";
}

function doneLoading() {
  clearTimeout(slowTimer);
  $("loading").hidden = true;
  document.body.dataset.loading = "0";
}

// What went wrong, for a player: what happened and what to do (the server's own words inside).
function problemWords(r) {
  const code = r.data && r.data.code;
  if (r.status === 0) return t("The server cannot be reached. Check your connection: the page tries again by itself.");
  if (code === "replay_busy") return t("Another review is being prepared for you; this one starts when it is done.");
  if (PASSING.has(code) || r.status === 503 || r.status === 429) return t("The server is preparing other reviews; this one starts in a moment.");
  if (code === "not_finished") return t("This game is not over yet: its review opens once it has ended.");
  if (r.status === 404) return t("No game has this link on this server. Check the address, or find the game in your account's list of games.");
  if (code === "record_too_long" || code === "replay_too_large") return t("This game is too long to be replayed here.");
  if (code === "bad_record" || code === "bad_seat") return t("This file is not a game record that can be replayed: {error}", { error: r.error });
  return t("The review could not be prepared ({error}). Try again in a moment.", { error: r.error });
}

const passing = (r) => r.status === 0 || r.status === 503 || r.status === 429 || PASSING.has(r.data && r.data.code);

// ask(); while the answer is a passing refusal, say so and ask again (1, 2, 4, then every 8 s).
async function patiently(ask) {
  for (let tries = 0; ; tries++) {
    const r = await ask();
    if (r.ok || !passing(r) || tries >= 40) return r;
    loading(problemWords(r));
    document.body.dataset.waiting = String(tries + 1);
    await new Promise((done) => setTimeout(done, Math.min(1000 * 2 ** tries, 8000)));
  }
}

// A refusal that does not pass: its sentence, and a button to try again where that can help.
function problem(r, retry) {
  doneLoading();
  $("problem").hidden = false;
  $("problem-words").textContent = problemWords(r);
  retryAction = retry;
  $("retry").hidden = !retry;
  document.body.dataset.problem = (r.data && r.data.code) || String(r.status);
  document.body.dataset.ready = "1";
}

$("retry").addEventListener("click", () => { if (retryAction) retryAction(); });

async function start(record) {
  const moves = Array.isArray(record && record.actions) ? record.actions.length : 0;
  loading(t("Preparing the replay of {n} moves…", { n: moves }));
  clearTimeout(slowTimer);
  slowTimer = setTimeout(() => {
    if ($("loading").hidden) return;
    $("loading-words").textContent = t("Still preparing the replay of {n} moves: the server is busy, it takes a few seconds more.", { n: moves });
  }, 4000);
  const r = await patiently(() => api("POST", "/api/replay", { record }));
  if (!r.ok) { problem(r, $("load").hidden ? () => start(record) : null); return; }
  doneLoading();
  data = r.data;
  $("title").textContent = t("Replay: {title}", { title: t(data.title) });
  seats = seatsOf(data);
  // As the game page's seat list names them: "Alice, Computer (easy)".
  const names = seats.map((s) => s.label);
  $("players").textContent = names.length ? t("Players: {names}", { names: names.join(", ") }) : "";
  const players = seats;
  const loaded = await loadRenderer(data.renderer);
  if (renderer && renderer.destroy) renderer.destroy();
  const ctx = baseContext({ gameId: data.game, mode: "replay", seat: null, players, options: data.options,
                            fast: hashParams().has("fast"), message, bar: clear($("bar")), side: clear($("side-extra")) });
  renderer = loaded.create(clear($("board")), ctx);
  // The log in the kernel's words (each step's story), one line per turn; a click shows it.
  const entries = data.steps.slice(1).map((s) => s.last_action);
  // one line a turn, its first sentence (what followed under a "+"), as lichess keeps its list short
  renderLog($("log"), entries, { seat: null, players: seats, compact: COMPACT_LOG.includes(data.game),
                                 onPick: (step) => { stop(); show(step, false); } });
  groupRounds($("log"));
  showResult();
  $("slider").max = String(data.steps.length - 1);
  $("player").hidden = false;
  $("share").hidden = !gameId;
  // a shared link opens at its move (#s=<step>); a finished game's review (/replay/<id>) on its
  // final position, the result in sight (a player-judge's fix 4), the steps back from there
  const asked = Number(hashParams().get("s"));
  const last = data.steps.length - 1;
  show(hashParams().has("s") && Number.isInteger(asked) && asked >= 0 ? asked : opensAtEnd ? last : 0, false);
  document.body.dataset.ready = "1";
  if (gameId) {
    // the analysis comes after the board: a line says it is on its way
    const card = clear($("analysis"));
    card.hidden = false;
    el("h2", { id: "analysis-title", text: t("Analysis") }, card);
    el("p", { class: "muted small", "data-testid": "analysis-loading", text: t("Analysing the moves…") }, card);
    el("progress", { "aria-labelledby": "analysis-title" }, card);
    const analysis = await loadAnalysis(gameId);
    if (!analysis) {
      clear(card).hidden = false;
      el("h2", { id: "analysis-title", text: t("Analysis") }, card);
      el("p", { class: "muted small", text: t("The analysis could not be prepared; the replay works without it.") }, card);
    }
    if (analysis) {
      markStep = showAnalysis($("analysis"), $("log"), analysis, {
        label: (s, how) => (seats[s] ? (how ? seatName(s, seats[s], how, seats) : seats[s].label) : t("Player {n}", { n: s + 1 })),
        onPick: (step) => { stop(); show(step, false); }, steps: data.steps.length - 1 });
      markStep(at);
    }
    document.body.dataset.analysis = analysis ? "1" : "0";
  }
}

// The move list grouped by turn (a turn: each seat once, as BGA's replays number their rounds; not
// "round", which Last Mouse Lost's match already names):
// a heading line before the first line of each round; a seat's turn that runs on (two lines of one
// seat in a row) stays in its round, a line of chance before a round's first move goes with it.
function groupRounds(log) {
  let seen = new Set(), prev = null, round = 0, start = null;
  for (const li of /** @type {HTMLElement[]} */ ([...log.children])) {
    const owner = li.dataset.seat;
    if (owner === undefined || owner === "") { start = start || li; continue; }
    if (!round || (seen.has(owner) && owner !== prev)) {
      round++;
      seen = new Set();
      const head = el("li", { class: "round-head", "data-round": round, text: t("Turn {n}", { n: round }) }, null);
      log.insertBefore(head, start || li);
    }
    seen.add(owner);
    prev = owner;
    start = null;
  }
  document.body.dataset.rounds = String(round);
}

// The play button says what it does: from the final position it replays the moves from the start;
// elsewhere it plays on from the step shown; while it plays, it pauses.
function playWords() {
  const b = $("play");
  const words = timer ? t("Pause") : data && at >= data.steps.length - 1 ? t("Replay the moves") : t("Play from here");
  b.querySelector(".play-word").textContent = words;
  b.querySelector(".play-icon").textContent = timer ? "❚❚" : "▶";
  b.title = words;
  b.setAttribute("aria-label", words);
  b.dataset.does = timer ? "pause" : data && at >= data.steps.length - 1 ? "replay" : "play";
}

function stop() { clearInterval(timer); timer = null; playWords(); }

$("first").addEventListener("click", () => { stop(); show(0, false); });
$("prev").addEventListener("click", () => { stop(); show(at - 1, false); });
$("next").addEventListener("click", () => { stop(); show(at + 1, true); });
$("last").addEventListener("click", () => { stop(); show(data.steps.length - 1, false); });
$("slider").addEventListener("input", () => { stop(); show(+$("slider").value, false); });
$("play").addEventListener("click", () => {
  if (timer) { stop(); return; }
  if (at >= data.steps.length - 1) show(0, false); // "Replay the moves": from the start
  timer = setInterval(() => { if (at >= data.steps.length - 1) stop(); else show(at + 1, true); }, 900);
  playWords();
});
// Share: the public link of this game at this move (never a seat's token: a finished game's review
// is public at /replay/<id>); the phone's share sheet where there is one, else the clipboard.
$("share").addEventListener("click", async () => {
  if (!gameId) return;
  const url = `${location.origin}/replay/${encodeURIComponent(gameId)}#s=${at}`;
  document.body.dataset.shared = url;
  const nav = /** @type {any} */ (navigator);
  if (typeof nav.share === "function") {
    try { await nav.share({ title: document.title, url }); return; } catch (e) {
      if (e && e.name === "AbortError") return; // the player closed the share sheet
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    message(t("Link to this move copied: {url}", { url }));
  } catch (e) {
    message(t("Copy this link to share this move: {url}", { url }));
  }
});

// Arrow keys step (Home and End: the start and the end), as on lichess; not while typing or on the
// slider (it steps by itself).
document.addEventListener("keydown", (e) => {
  if (!data || $("player").hidden || e.altKey || e.ctrlKey || e.metaKey) return;
  const target = /** @type {HTMLElement} */ (e.target);
  if (target && target.closest && target.closest("input, textarea, select, [contenteditable=true], dialog")) return;
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: data.steps.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  stop();
  show(to, e.key === "ArrowRight");
});

// A swipe across the board steps (left: forward, right: back), unless the board pans sideways
// (a zoomed board is moved by the finger).
let touch = null;
const area = /** @type {HTMLElement} */ (document.querySelector(".board-area"));
area.addEventListener("touchstart", (/** @type {TouchEvent} */ e) => {
  const pan = area.querySelector(".board-pan");
  const pans = pan && pan.scrollWidth > pan.clientWidth + 2;
  touch = e.touches.length === 1 && !pans ? { x: e.touches[0].clientX, y: e.touches[0].clientY } : null;
}, { passive: true });
area.addEventListener("touchend", (/** @type {TouchEvent} */ e) => {
  if (!touch || !data || !e.changedTouches.length) return;
  const dx = e.changedTouches[0].clientX - touch.x, dy = e.changedTouches[0].clientY - touch.y;
  touch = null;
  if (Math.abs(dx) < 50 || Math.abs(dx) < 1.5 * Math.abs(dy)) return;
  stop();
  show(dx < 0 ? at + 1 : at - 1, dx < 0);
}, { passive: true });

$("file").addEventListener("change", async () => {
  const f = $("file").files[0];
  if (!f) return;
  let record;
  try { record = JSON.parse(await f.text()); } catch (e) { problem({ ok: false, status: 400, error: t("{file} is not JSON: {error}", { file: f.name, error: e.message }), data: { code: "bad_record" } }, null); return; }
  start(record);
});

// The board fills the screen between the header and the step bar: the header's real height (its
// menu button can make it taller than the stylesheet's --header-h) is measured, not assumed.
function measureHeader() {
  const header = document.querySelector("header.top");
  if (header instanceof HTMLElement) document.body.style.setProperty("--replay-top", `${header.offsetHeight}px`);
}
window.addEventListener("resize", measureHeader);

async function init() {
  measureHeader();
  translatePage(); // the page's words (data-i18n) in the chosen language
  const p = hashParams();
  // The public link of a finished game (/replay/<id>, no token); ?embed=1 for an <iframe>.
  const publicId = location.pathname.startsWith("/replay/") ? decodeURIComponent(location.pathname.slice(8)) : "";
  if (new URLSearchParams(location.search).get("embed") === "1") {
    document.body.classList.add("embed");
    const credit = el("p", { class: "embed-credit muted" }, $("controls"));
    el("a", { href: `/replay/${encodeURIComponent(publicId)}`, target: "_blank", rel: "noopener", text: t("Open on trapworks") }, credit);
  }
  gameId = publicId || p.get("g") || "";
  opensAtEnd = !!publicId;
  const fromServer = async (url) => {
    $("load").hidden = true;
    loading(t("Loading the game…"));
    const r = await patiently(() => api("GET", url));
    if (!r.ok) { problem(r, r.status === 404 ? null : () => fromServer(url)); return; }
    start(r.data);
  };
  if (publicId) {
    fromServer(`/api/public/games/${encodeURIComponent(publicId)}/record`);
  } else if (p.get("g") && p.get("t")) {
    fromServer(`/api/games/${encodeURIComponent(p.get("g"))}/record?token=${encodeURIComponent(p.get("t"))}`);
  } else {
    document.body.dataset.ready = "1";
  }
}

init();
