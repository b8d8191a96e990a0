// Step-by-step replay of a game record: the server turns the record into one view per step
// (POST /api/replay); this page feeds them to the game's renderer in replay mode.
import { api, clear, el, hashParams } from "/static/js/dom.js";
import { baseContext, loadRenderer } from "/static/js/host.js";
import { renderLog } from "/static/js/log.js";
import { loadAnalysis, showAnalysis } from "/static/js/analysis.js";
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
let seats = []; // who sat where: [{seat, name, kind, agent, label}] (seatsOf)

// The record says who sat where as text, the server's seat labels: "Player 1 (Alice)" (a name) or
// "Player 2 (random)" (a computer seat, by its agent). The page names each seat as the game page
// does (its name; an unnamed computer seat "Player 2 (random)"), in the log and every line.
// `agents`: the game's agent ids (the catalog); any other text is the seat's name as it is.
function seatsOf(labels, agents) {
  return labels.map((text, seat) => {
    const m = /^Player (\d+) \((.+)\)$/.exec(text);
    const inside = m && Number(m[1]) === seat + 1 ? m[2] : null;
    const p = inside !== null && agents.includes(inside)
      ? { kind: "agent", agent: inside, name: "" }
      : { kind: "human", name: inside !== null ? inside : text === `Player ${seat + 1}` ? "" : text };
    return { seat, ...p, label: seatName(seat, p) };
  });
}

async function agentsOf(game) {
  const r = await api("GET", "/api/catalog");
  const entry = r.ok ? (r.data.games || []).find((g) => g.id === game) : null;
  return entry && Array.isArray(entry.agents) ? entry.agents : [];
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
  const current = $("log").querySelector("li.current");
  if (current) current.scrollIntoView({ block: "nearest" });
  markStep(i);
}

// How a game ended off the board (resigned, out of time, aborted), from the record's forfeits;
// the reasons' words are the server's one enum (i18n.js forfeitWords).
function endingText(step) {
  const ending = data.ending;
  const label = (s) => (seats[s] ? seats[s].label : t("Player {n}", { n: s + 1 }));
  const winners = (step.winners || []).map(label);
  const result = !winners.length ? ""
    : ` · ${winners.length > 1 ? t("{who} win", { who: winners.join(t(" and ")) }) : t("{who} wins", { who: winners[0] })}`;
  if (!ending) return result;
  if (ending.aborted) return ` · ${t("aborted: no result")}`;
  const said = ending.forfeits.map((f) => `${label(f.seat)} ${forfeitWords(f.reason)}`).join(", ");
  return ` · ${said}${result}`;
}

async function start(record) {
  const r = await api("POST", "/api/replay", { record });
  if (!r.ok) { message(r.error, "error"); return; }
  data = r.data;
  $("title").textContent = t("Replay: {title}", { title: t(data.title) });
  seats = seatsOf(data.players, data.players.some((p) => /\)$/.test(p)) ? await agentsOf(data.game) : []);
  // As the game page's seat list: "Alice (Player 1)", an unnamed seat by its number.
  const names = seats.map((s) => (s.name ? `${s.name} (${t("Player {n}", { n: s.seat + 1 })})` : s.label));
  $("players").textContent = names.length ? t("Players: {names}", { names: names.join(", ") }) : "";
  const players = seats;
  const loaded = await loadRenderer(data.renderer);
  if (renderer && renderer.destroy) renderer.destroy();
  const ctx = baseContext({ gameId: data.game, mode: "replay", seat: null, players, options: data.options,
                            fast: hashParams().has("fast"), message, bar: clear($("bar")), side: clear($("side-extra")) });
  renderer = loaded.create(clear($("board")), ctx);
  // The log in the kernel's words (each step's story), one line per turn; a click shows it.
  const entries = data.steps.slice(1).map((s) => s.last_action);
  renderLog($("log"), entries, { seat: null, players: seats,
                                 onPick: (step) => show(step, false) });
  $("slider").max = String(data.steps.length - 1);
  $("player").hidden = false;
  show(0, false);
  document.body.dataset.ready = "1";
  if (gameId) {
    const analysis = await loadAnalysis(gameId);
    if (analysis) {
      markStep = showAnalysis($("analysis"), $("log"), analysis, {
        label: (s, how) => (seats[s] ? (how ? seatName(s, seats[s], how) : seats[s].label) : t("Player {n}", { n: s + 1 })), onPick: (step) => { stop(); show(step, false); } });
      markStep(at);
    }
    document.body.dataset.analysis = analysis ? "1" : "0";
  }
}

function stop() { clearInterval(timer); timer = null; $("play").textContent = t("Play"); }

$("first").addEventListener("click", () => { stop(); show(0, false); });
$("prev").addEventListener("click", () => { stop(); show(at - 1, false); });
$("next").addEventListener("click", () => { stop(); show(at + 1, true); });
$("last").addEventListener("click", () => { stop(); show(data.steps.length - 1, false); });
$("slider").addEventListener("input", () => { stop(); show(+$("slider").value, false); });
$("play").addEventListener("click", () => {
  if (timer) { stop(); return; }
  $("play").textContent = t("Pause");
  timer = setInterval(() => { if (at >= data.steps.length - 1) stop(); else show(at + 1, true); }, 900);
});
$("file").addEventListener("change", async () => {
  const f = $("file").files[0];
  if (!f) return;
  let record;
  try { record = JSON.parse(await f.text()); } catch (e) { message(t("{file} is not JSON: {error}", { file: f.name, error: e.message }), "error"); return; }
  start(record);
});

async function init() {
  translatePage(); // the page's words (data-i18n) in the chosen language
  const p = hashParams();
  // The public link of a finished game (/replay/<id>, no token); ?embed=1 for an <iframe>.
  const publicId = location.pathname.startsWith("/replay/") ? decodeURIComponent(location.pathname.slice(8)) : "";
  if (new URLSearchParams(location.search).get("embed") === "1") {
    document.body.classList.add("embed");
    const credit = el("p", { class: "embed-credit muted" }, document.querySelector(".side .card"));
    el("a", { href: `/replay/${encodeURIComponent(publicId)}`, target: "_blank", rel: "noopener", text: t("Open on trapworks") }, credit);
  }
  gameId = publicId || p.get("g") || "";
  if (publicId) {
    const r = await api("GET", `/api/public/games/${encodeURIComponent(publicId)}/record`);
    $("load").hidden = true;
    if (!r.ok) { message(r.error, "error"); document.body.dataset.ready = "1"; return; }
    start(r.data);
  } else if (p.get("g") && p.get("t")) {
    const r = await api("GET", `/api/games/${encodeURIComponent(p.get("g"))}/record?token=${encodeURIComponent(p.get("t"))}`);
    if (!r.ok) { message(r.error, "error"); return; }
    $("load").hidden = true;
    start(r.data);
  } else {
    document.body.dataset.ready = "1";
  }
}

init();
