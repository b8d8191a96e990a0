// The game page: connects to the server by WebSocket (reconnecting with backoff), feeds the
// game's renderer one update at a time, and draws the common parts (players, log, buttons).
import { api, clear, el, hashParams, rememberGame } from "/static/js/dom.js";
import { baseContext, loadRenderer } from "/static/js/host.js";
import { renderLog } from "/static/js/log.js";

const $ = (id) => document.getElementById(id);
const gid = decodeURIComponent(location.pathname.split("/")[2] || "");
const params = hashParams();
let token = params.get("t") || new URLSearchParams(location.search).get("token") || "";
const fast = params.has("fast");

let info = null;
let renderer = null;
let ws = null;
let latest = null; // the newest state received (may be ahead of what is drawn)
let log = [];
let queue = Promise.resolve();
let refCounter = 0;
const pending = new Map();
let backoff = 250;
let stopped = false;

function message(text, kind = "info") {
  const box = $("messages");
  const div = el("div", { class: `msg ${kind}`, text, "data-message": kind }, box);
  while (box.children.length > 3) box.removeChild(box.firstChild);
  setTimeout(() => div.remove(), kind === "error" ? 8000 : 6000);
}

function setStatus(text, offline) {
  $("status").textContent = text;
  $("status").className = offline ? "offline" : "muted";
  document.body.dataset.connected = offline ? "0" : "1";
}

function request(msg, timeoutMs = 15000) {
  return new Promise((resolve) => {
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      resolve({ ok: false, error: "not connected to the server; reconnecting…" });
      return;
    }
    const ref = ++refCounter;
    const timer = setTimeout(() => { pending.delete(ref); resolve({ ok: false, error: "no answer from the server" }); }, timeoutMs);
    pending.set(ref, (reply) => { clearTimeout(timer); resolve(reply); });
    ws.send(JSON.stringify({ ...msg, ref }));
  });
}

async function sendAction(text) {
  const reply = await request({ type: "move", action: String(text), ply: latest ? latest.ply : undefined });
  if (!reply.ok) message(reply.error, "error");
  return reply;
}

async function hint() {
  const r = await api("GET", `/api/games/${encodeURIComponent(gid)}/hint?token=${encodeURIComponent(token)}`);
  if (!r.ok) { message(r.error, "error"); return { ok: false, error: r.error }; }
  message(`Hint: ${r.data.text || r.data.move}.` + (r.data.explanation ? ` ${r.data.explanation}` : ""));
  if (renderer && renderer.showHint) renderer.showHint(r.data);
  return r.data;
}

async function undo() {
  const r = await api("POST", `/api/games/${encodeURIComponent(gid)}/undo`, { token });
  if (!r.ok) { message(r.error, "error"); return { ok: false, error: r.error }; }
  message("Move taken back.");
  return { ok: true, ply: r.data.ply };
}

async function extra(name, data) {
  const q = new URLSearchParams({ ...(data || {}), token });
  const r = await api("GET", `/api/games/${encodeURIComponent(gid)}/extra/${encodeURIComponent(name)}?${q}`);
  return r.ok ? { ok: true, data: r.data.data } : { ok: false, error: r.error };
}

function seatLabel(s) {
  if (s === -1) return "Chance";
  if (s === info.seat) return `You (Player ${s + 1})`;
  return info.players[s] ? info.players[s].label : `Player ${s + 1}`;
}

function drawShell(u) {
  const players = clear($("players"));
  for (const p of info.players) {
    const div = el("div", { class: "player" + (u.to_move === p.seat ? " to-move" : ""), "data-player": p.seat }, players);
    div.textContent = seatLabel(p.seat)
      + (u.to_move === p.seat ? "  ← to move" : "")
      + (u.terminal && (u.winners || []).includes(p.seat) ? "  ★ winner" : "");
  }
  const end = clear($("end"));
  if (u.error) el("p", { class: "error", text: u.error }, end);
  if (u.terminal) {
    const winners = (u.winners || []).map(seatLabel);
    const text = u.truncated ? "Game over: stopped by the turn limit, nobody wins."
      : winners.length ? `Game over: ${winners.join(" and ")} ${winners.length > 1 || winners[0].startsWith("You") ? "win" : "wins"}.`
      : "Game over: a draw.";
    el("p", { class: "banner", text, "data-testid": "game-over" }, end);
    el("a", { href: "/", text: "New game" }, end);
  }
  renderLog($("log"), u.log, { seat: info.seat, players: info.players, gid, token, gameId: info.game,
                               renderer: info.renderer, options: info.options });
  $("hint").disabled = !u.can_hint;
  $("undo").disabled = !u.can_undo;
  $("typed").hidden = info.seat === null || u.terminal;
  document.body.dataset.ply = String(u.ply);
  document.body.dataset.toMove = u.to_move === null ? "" : String(u.to_move);
  document.body.dataset.terminal = u.terminal ? "1" : "0";
  document.body.dataset.myTurn = (u.to_move !== null && u.to_move === info.seat) ? "1" : "0";
}

function onState(msg) {
  latest = msg;
  if (msg.sync) log = msg.log.slice();
  else {
    log.length = Math.min(log.length, msg.ply);
    if (msg.last_action) log[msg.last_action.ply] = msg.last_action;
  }
  const u = { ...msg, log: log.slice() };
  queue = queue.then(async () => {
    try {
      await renderer.update(u);
    } catch (e) {
      console.error(e);
      message(`the board could not be drawn: ${e.message}`, "error");
    }
    drawShell(u);
  });
}

function onMessage(event) {
  let data;
  try { data = JSON.parse(event.data); } catch (e) { return; }
  // A frame holds one message, or several in order (the updates after each action of a move,
  // then its ack).
  for (const msg of Array.isArray(data) ? data : [data]) handleMessage(msg);
}

function handleMessage(msg) {
  if (msg.type === "state") onState(msg);
  else if (msg.type === "hello") { /* info already loaded */ }
  else if (msg.type === "ack" || msg.type === "error" || msg.type === "pong" || msg.type === "hint") {
    const resolve = msg.ref != null ? pending.get(msg.ref) : null;
    if (resolve) {
      pending.delete(msg.ref);
      resolve(msg.type === "error" ? { ok: false, error: msg.message, code: msg.code } : { ok: true, ...msg });
    } else if (msg.type === "error") {
      message(msg.message, "error");
      if (msg.fatal) stopped = true;
    }
  }
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/games/${encodeURIComponent(gid)}?token=${encodeURIComponent(token)}`);
  ws.addEventListener("open", () => { backoff = 250; setStatus("connected", false); });
  ws.addEventListener("message", onMessage);
  ws.addEventListener("close", () => {
    for (const [ref, resolve] of pending) resolve({ ok: false, error: "connection lost; reconnecting…" });
    pending.clear();
    if (stopped) { setStatus("disconnected", true); return; }
    setStatus(`connection lost; reconnecting in ${(backoff / 1000).toFixed(1)} s…`, true);
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 8000);
  });
}

// An invite link (#i=...): claim its seat once, then keep the seat's own link (#t=...) instead.
async function claimInvite() {
  const r = await api("POST", `/api/games/${encodeURIComponent(gid)}/claim`, { invite: params.get("i") });
  if (!r.ok) { message(r.error, "error"); setStatus("not connected", true); return false; }
  token = r.data.token;
  params.delete("i");
  params.set("t", token);
  history.replaceState(null, "", `${location.pathname}${location.search}#${params.toString()}`);
  return true;
}

async function init() {
  if (!token && params.has("i") && !(await claimInvite())) return;
  if (!token) {
    message("This link has no seat token (#t=...). Open the link you were given, or create a game in the lobby.", "error");
    return;
  }
  const r = await api("GET", `/api/games/${encodeURIComponent(gid)}?token=${encodeURIComponent(token)}`);
  if (!r.ok) { message(r.error, "error"); setStatus("not connected", true); return; }
  info = r.data.info;
  document.title = `${info.title} · trapworks`;
  $("title").textContent = `${info.title} · ${info.seat === null ? "spectating" : "you are Player " + (info.seat + 1)}`
    + (info.practice ? " · practice game" : "");
  $("help").textContent = info.help;
  // Practice games may take back dice, cards and physics outcomes already seen; say so on the page.
  $("practice").hidden = !info.practice;
  const base = `/api/games/${encodeURIComponent(gid)}`;
  $("record").href = `${base}/record?token=${encodeURIComponent(token)}`;
  $("replay").href = `/replay#g=${encodeURIComponent(gid)}&t=${encodeURIComponent(token)}`;
  if (info.seat !== null) {
    rememberGame({ id: gid, token, seat: info.seat, game: info.game, title: info.title,
                   label: info.players[info.seat].label, link: location.href });
  }
  // "#...&renderer=generic" shows any game with the fallback renderer (to debug a game's renderer).
  const loaded = await loadRenderer(params.get("renderer") === "generic" ? "/static/renderers/generic.js" : info.renderer);
  const ctx = {
    ...baseContext({ gameId: info.game, mode: "live", seat: info.seat, players: info.players, options: info.options,
                     fast, message }),
    send: sendAction, hint, undo, request: extra,
    links: { record: $("record").href, replay: $("replay").href, lobby: "/" },
  };
  renderer = loaded.create(clear($("board")), ctx);
  document.body.dataset.renderer = loaded.url;
  $("hint").addEventListener("click", hint);
  $("undo").addEventListener("click", undo);
  $("typed").addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = $("typed-action").value.trim();
    if (!text) return;
    const reply = await sendAction(text);
    if (reply.ok) $("typed-action").value = "";
  });
  onState(r.data.state);
  connect();
}

init();
