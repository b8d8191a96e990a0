// Step-by-step replay of a game record: the server turns the record into one view per step
// (POST /api/replay); this page feeds them to the game's renderer in replay mode.
import { api, clear, el, hashParams } from "/static/js/dom.js";
import { baseContext, loadRenderer } from "/static/js/host.js";
import { renderLog } from "/static/js/log.js";

const $ = (id) => document.getElementById(id);
let data = null;
let renderer = null;
let at = 0;
let timer = null;
let queue = Promise.resolve();

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
  queue = queue.then(() => renderer.update(u)).catch((e) => message(`the board could not be drawn: ${e.message}`, "error"));
  $("slider").value = String(i);
  $("where").textContent = `Step ${i} of ${data.steps.length - 1}` + (step.terminal ? " · game over" : "");
  document.body.dataset.step = String(i);
  // The line of the turn this step belongs to is the current one.
  for (const li of $("log").children) {
    li.classList.toggle("current", +li.dataset.ply <= i - 1 && i - 1 <= +li.dataset.lastPly);
  }
  const current = $("log").querySelector("li.current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

async function start(record) {
  const r = await api("POST", "/api/replay", { record });
  if (!r.ok) { message(r.error, "error"); return; }
  data = r.data;
  $("title").textContent = `Replay: ${data.title}`;
  $("players").textContent = data.players.length ? `Players: ${data.players.join(", ")}` : "";
  const players = data.players.map((label, seat) => ({ seat, label, kind: "human" }));
  const loaded = await loadRenderer(data.renderer);
  if (renderer && renderer.destroy) renderer.destroy();
  const ctx = baseContext({ gameId: data.game, mode: "replay", seat: null, players, options: data.options,
                            fast: hashParams().has("fast"), message, bar: clear($("bar")), side: clear($("side-extra")) });
  renderer = loaded.create(clear($("board")), ctx);
  // The log in the kernel's words (each step's story), one line per turn; a click shows it.
  const entries = data.steps.slice(1).map((s) => s.last_action);
  renderLog($("log"), entries, { seat: null, players: data.players.map((label) => ({ name: label })),
                                 onPick: (step) => show(step, false) });
  $("slider").max = String(data.steps.length - 1);
  $("player").hidden = false;
  show(0, false);
  document.body.dataset.ready = "1";
}

function stop() { clearInterval(timer); timer = null; $("play").textContent = "Play"; }

$("first").addEventListener("click", () => { stop(); show(0, false); });
$("prev").addEventListener("click", () => { stop(); show(at - 1, false); });
$("next").addEventListener("click", () => { stop(); show(at + 1, true); });
$("last").addEventListener("click", () => { stop(); show(data.steps.length - 1, false); });
$("slider").addEventListener("input", () => { stop(); show(+$("slider").value, false); });
$("play").addEventListener("click", () => {
  if (timer) { stop(); return; }
  $("play").textContent = "Pause";
  timer = setInterval(() => { if (at >= data.steps.length - 1) stop(); else show(at + 1, true); }, 900);
});
$("file").addEventListener("change", async () => {
  const f = $("file").files[0];
  if (!f) return;
  let record;
  try { record = JSON.parse(await f.text()); } catch (e) { message(`${f.name} is not JSON: ${e.message}`, "error"); return; }
  start(record);
});

async function init() {
  const p = hashParams();
  if (p.get("g") && p.get("t")) {
    const r = await api("GET", `/api/games/${encodeURIComponent(p.get("g"))}/record?token=${encodeURIComponent(p.get("t"))}`);
    if (!r.ok) { message(r.error, "error"); return; }
    $("load").hidden = true;
    start(r.data);
  } else {
    document.body.dataset.ready = "1";
  }
}

init();
