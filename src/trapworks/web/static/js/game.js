// The game page: connects to the server by WebSocket (reconnecting with backoff), feeds the
// game's renderer one update at a time, and draws the common parts (players, log, buttons).
import { api, clear, el, hashParams, myGames, rememberGame } from "/static/js/dom.js";
import { baseContext, loadRenderer } from "/static/js/host.js";
import { focusMark, restoreFocus } from "/static/js/boardkeys.js";
import { refusalText, seatName, t, translatePage } from "/static/js/i18n.js";
import { COMPACT_LOG, renderLog } from "/static/js/log.js";
import { createAlerts } from "/static/js/alerts.js";
import { createChat } from "/static/js/chat.js";
import { nameField, storedName } from "/static/js/names.js";
import { applyPresence, drawPlayers, startHeartbeat } from "/static/js/presence.js";
import { createClock } from "/static/js/clock.js";
import { applyPeople, changeLabel, createStrips } from "/static/js/strips.js";
import { createControls } from "/static/js/controls.js";
import { createFeatures } from "/static/js/features.js";
import { setupRules } from "/static/js/rules.js";
import { scaledMs, setupSettings } from "/static/js/settings.js";
import "/static/js/arena-return.js"; // issue 41: an arena game's end screen leads back to its arena

// The page's own elements by id: inputs, selects, dialogs and links of known kinds (any: the
// page's HTML says which; TypeScript checks the rest).
/** @type {(id: string) => any} */
const $ = (id) => document.getElementById(id);
const gid = decodeURIComponent(location.pathname.split("/")[2] || "");
const params = hashParams();
let token = params.get("t") || new URLSearchParams(location.search).get("token") || "";
const fast = params.has("fast");

let info = null;
let renderer = null;
let rendererCtx = null; // the renderer's context: its say() words events for this page
let controls = null; // js/controls.js: resign, abort, rematch, hand-over
let features = null; // js/features.js: the server's features' own page parts (takeback, ...)
let clockView = null; // js/clock.js: the countdown from the server's numbers
const strips = createStrips($("strip-top"), $("strip-bottom")); // js/strips.js: the players beside the board
let ws = null;
let latest = null; // the newest state received (may be ahead of what is drawn)
let log = [];
let queue = Promise.resolve();
let refCounter = 0;
const pending = new Map();
let backoff = 250;
let stopped = false;
let chat = null;
let alerts = null;
let hotSeat = false; // this browser holds more than one human seat of this game
let shown = null;
let latestU = null; // the newest update made from a state message    // the update drawn last (presence redraws the players with it)
let started = false; // the page's one-time parts (listeners, heartbeat) are set up
let generation = 0;  // which seat's session the socket belongs to (hot seat switches seats)
let drawnPly = -1;   // the ply of the last update drawn

// Messages are toasts in the action bar (always on screen): one at a time; the same text again does
// not stack a second copy (a double click's two refusals). They do not stay for ever (issue 27): a
// message is replaced by the next one, closed (×), gone with the next move (a hint, a refusal), and
// an information expires after INFO_MS (an error after ERROR_MS); a message with a `tag` goes when
// what it is about is over (`dropMessages(tag)`: "connection" on reconnecting, "name" on a good save).
const INFO_MS = 9000;
const ERROR_MS = 20000;
// A refusal of the socket in the page's language, its seats by their names (a game's reason of
// an illegal move is a typed message of its catalog: the viewer's "you" forms through ctx.say).
function refused(msg) {
  return refusalText(msg, seatLabel, t, rendererCtx ? (item) => rendererCtx.say(item, true) : null);
}

// `details`: more words on demand (a hint's reasoning): a "Why?" button in the message shows them.
function message(text, kind = "info", { tag = "", keep = false, details = "" } = {}) {
  const box = $("toasts");
  const current = box.firstElementChild;
  if (current && current.dataset.text === text && current.dataset.message === kind) {
    current.classList.remove("again");
    void current.offsetWidth;
    current.classList.add("again");
    return;
  }
  clear(box);
  const div = el("div", { class: `toast ${kind}`, "data-message": kind, "data-text": text, "data-tag": tag,
                          "data-ply": String(drawnPly), "data-keep": keep ? "1" : "" }, box);
  const words = el("span", { class: "text", text }, div);
  if (details) {
    const more = el("p", { class: "toast-details", text: details, hidden: true, "data-testid": "toast-details" });
    const why = el("button", { type: "button", class: "toast-why link-button", text: t("Why?"), "aria-expanded": "false",
                               "data-testid": "toast-why" }, div);
    why.addEventListener("click", () => {
      more.hidden = !more.hidden;
      why.setAttribute("aria-expanded", String(!more.hidden));
      div.dataset.keep = "1"; // read at the player's pace: it stays until closed or the next move
    });
    words.append(" ", why); // at the end of the words: no column of its own
    div.append(more);
  }
  el("button", { class: "close", type: "button", "aria-label": t("Dismiss message"), text: "×",
                 onclick: () => div.remove() }, div);
  if (!keep) setTimeout(() => div.remove(), kind === "error" ? ERROR_MS : INFO_MS);
}

function dropMessages(tag) {
  for (const t of $("toasts").querySelectorAll(".toast")) if (!tag || t.dataset.tag === tag) t.remove();
}

// A new move: the messages about the moment before it (a hint, a refused move) are gone.
function dropStaleMessages(ply) {
  for (const t of $("toasts").querySelectorAll(".toast")) if (!t.dataset.keep && Number(t.dataset.ply) < ply) t.remove();
}

function setStatus(text, offline) {
  $("status").textContent = text;
  $("status").className = offline ? "offline" : "muted";
  document.body.dataset.connected = offline ? "0" : "1";
}

// A socket still connecting (a page just opened, a hot seat's switch) is waited for, up to 5 s:
// a move made before it opened is sent, not refused.
function whenOpen(limitMs = 5000) {
  if (ws && ws.readyState === WebSocket.OPEN) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t0 = performance.now();
    const poll = () => {
      if (ws && ws.readyState === WebSocket.OPEN) resolve(true);
      else if (performance.now() - t0 > limitMs) resolve(false);
      else setTimeout(poll, 30);
    };
    poll();
  });
}

async function request(msg, timeoutMs = 15000) {
  await whenOpen();
  return new Promise((resolve) => {
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      resolve({ ok: false, error: t("not connected to the server; reconnecting…"), tag: "connection" });
      return;
    }
    const ref = ++refCounter;
    const timer = setTimeout(() => { pending.delete(ref); resolve({ ok: false, error: t("no answer from the server") }); }, timeoutMs);
    pending.set(ref, (reply) => { clearTimeout(timer); resolve(reply); });
    ws.send(JSON.stringify({ ...msg, ref }));
  });
}

let inFlight = null; // {text, ply, promise}: a second identical send while one is out joins it
async function sendAction(text) {
  const ply = latest ? latest.ply : undefined;
  if (inFlight && inFlight.text === String(text) && inFlight.ply === ply) return inFlight.promise;
  const promise = request({ type: "move", action: String(text), ply }).then((reply) => {
    if (!reply.ok) message(reply.error, "error", { tag: reply.tag || "" });
    return reply;
  });
  inFlight = { text: String(text), ply, promise };
  try { return await promise; } finally { if (inFlight && inFlight.promise === promise) inFlight = null; }
}

// The Hint button is never greyed out while this player may have hints (issue 39: it was
// disabled for the half second the opponent's move was being shown): before the turn is this
// player's (or while the board draws it) a click waits for it, the button looking busy meanwhile.
let hintsSeen = false; // a state said can_hint: this game gives this seat hints
function hintsPossible() {
  if (hintsSeen) return true;
  // against the computer only, hints are on (server/features/hint.py)
  return info.seat !== null && info.players.every((p, i) => i === info.seat || p.kind !== "human");
}

function setHintButton(msg) {
  const button = $("hint");
  if (msg.can_hint) hintsSeen = true;
  const over = !!msg.terminal;
  button.disabled = over || !(msg.can_hint || hintsPossible());
  button.title = !button.disabled ? t("Suggest a move") : over ? t("The game is over.")
    : t("No hints in this game.");
  // Not this player's turn yet: offered, but it will answer once the turn comes.
  button.dataset.waiting = !over && !msg.can_hint && !button.disabled ? "1" : "";
}

// Until a state lets this seat ask (its turn), at most 20 s.
function whenHintable(limitMs = 20000) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const poll = () => {
      if (latest && latest.can_hint) resolve(true);
      else if (!latest || latest.terminal || performance.now() - t0 > limitMs) resolve(false);
      else setTimeout(poll, 50);
    };
    poll();
  });
}

let hintBusy = false;
async function hint() {
  const button = $("hint");
  if (hintBusy) return { ok: false, error: "busy" };
  hintBusy = true;
  button.setAttribute("aria-busy", "true");
  try {
    if (!(latest && latest.can_hint) && !(await whenHintable())) return { ok: false, error: "not your turn" };
    return await fetchHint();
  } finally {
    hintBusy = false;
    button.removeAttribute("aria-busy");
  }
}

async function fetchHint() {
  const r = await api("GET", `/api/games/${encodeURIComponent(gid)}/hint?token=${encodeURIComponent(token)}`);
  if (!r.ok) { message(r.error, "error"); return { ok: false, error: r.error }; }
  await queue; // the board shows the position the hint is about (an opponent's move may still be drawn)
  // The move and the reason are the game's typed words (issue 37), from its catalog in the page's
  // language, seats by their names; a move without words of its own is shown as its notation.
  const say = (item) => (rendererCtx ? rendererCtx.say(item, true) : item.msg);
  const move = r.data.text_msg ? say(r.data.text_msg) : r.data.move;
  const reason = r.data.explanation_msg && rendererCtx ? rendererCtx.say(r.data.explanation_msg) : "";
  // A game may say its hint as a player would (the move and what it does), the agent's reasoning
  // on demand (issue 39: Last Mouse Lost's nim-sum lecture); otherwise the move and the reason.
  const words = renderer && renderer.hintWords ? renderer.hintWords(r.data, move) : null;
  if (words) message(words.text, "info", { tag: "hint", details: words.details || reason });
  else message(t("Hint: {move}.", { move }) + (reason ? ` ${reason}` : ""), "info", { tag: "hint" });
  if (renderer && renderer.showHint) renderer.showHint(r.data);
  return r.data;
}

// Undo says why it is greyed out (issue 39): the server's reason (a die already seen against the
// computer, nothing to take back yet, the end) on its tooltip. On a shared screen it is a takeback
// that everyone at the screen agrees to (server/features/takeback.py: the server refuses what it
// must, a revealed die included, and the page says why).
function setUndoButton(u) {
  const button = $("undo");
  if (hotSeat) {
    const mine = (u.log || []).some((e) => e && e.seat >= 0 && heldSeats().has(e.seat));
    button.disabled = !!u.terminal || !mine;
    button.title = u.terminal ? t("There is no undo after the end of the game.")
      : mine ? t("Take back the last move (everyone at this screen agrees)") : t("There is no move to take back yet.");
    return;
  }
  button.disabled = !u.can_undo || !!u.terminal; // no undo after the end (the server refuses it too)
  button.title = !button.disabled ? t("Take back your last move")
    : u.undo_why ? t("Undo is not available: {why}", { why: refusalText(u.undo_why, seatLabel) })
    : t("Undo is not available now.");
}

// Hot seat: the seat that moved last on this screen proposes, every other seat of the screen accepts.
async function hotSeatUndo() {
  const held = heldSeats();
  const last = [...log].reverse().find((e) => e && e.seat >= 0 && held.has(e.seat));
  if (!last) { message(t("There is no move to take back yet."), "error"); return { ok: false, error: "nothing" }; }
  const post = (seatToken, action) => api("POST", `/api/games/${encodeURIComponent(gid)}/takeback`, { token: seatToken, action });
  const by = held.get(last.seat).token;
  let r = await post(by, "propose");
  for (const [seat, entry] of held) {
    if (!r.ok || seat === last.seat || info.players[seat].kind !== "human") continue;
    r = await post(entry.token, "accept");
    if (!r.ok) await post(by, "cancel");
  }
  if (!r.ok) { message(t("Undo: {error}", { error: r.error }), "error"); return { ok: false, error: r.error }; }
  message(t("Move taken back."));
  return { ok: true, ply: r.data.ply };
}

async function undo() {
  if (hotSeat) return hotSeatUndo();
  const r = await api("POST", `/api/games/${encodeURIComponent(gid)}/undo`, { token });
  if (!r.ok) { message(r.error, "error"); return { ok: false, error: r.error }; }
  message(t("Move taken back."));
  return { ok: true, ply: r.data.ply };
}

// The record is fetched first so that a refusal (a hidden-information game before its end: 403)
// is said on the page instead of failing silently.
async function downloadRecord(e) {
  e.preventDefault();
  const r = await api("GET", $("record").href.replace(location.origin, ""));
  if (!r.ok) { message(t("Download record: {error}", { error: r.error }), "error"); return; }
  const blob = new Blob([JSON.stringify(r.data, null, 1)], { type: "application/json" });
  const a = el("a", { href: URL.createObjectURL(blob), download: `${info.game}-${gid}.json` });
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

async function extra(name, data) {
  const q = new URLSearchParams({ ...(data || {}), token });
  const r = await api("GET", `/api/games/${encodeURIComponent(gid)}/extra/${encodeURIComponent(name)}?${q}`);
  return r.ok ? { ok: true, data: r.data.data } : { ok: false, error: r.error };
}

// One vocabulary for seats (issue 27): "You" for this page's player, the others by name (or
// "Player N" until they give one). On a shared screen (hot seat) nobody is "You": every seat by name.
function seatLabel(s, how = undefined) {
  if (s === -1) return t("Chance");
  if (s === null || s === undefined) return t("Spectator");
  if (s === info.seat && !hotSeat) return t("You");
  return seatName(s, info.players[s], how, info.players);
}

// The header: the game's name in the page's language (the catalog's: "Attrape-Souris"), then who
// this page is, by name as the strips say it ("you are alice"; a guest without a name: nothing
// more), in a span a phone's header leaves out (the strips say it there). Drawn again when the
// names come (the accounts' names ride on the state messages, the chosen ones on presence).
function drawTitle() {
  const me = info.seat === null ? null : info.players[info.seat];
  const named = me && (me.account || me.name);
  const seatWords = info.seat === null ? t("spectating")
    : hotSeat ? t("{who}'s turn on this screen", { who: seatLabel(info.seat) }) : named ? t("you are {name}", { name: named }) : "";
  // Over: the header says the result, not whose turn it was (issue 39), whatever redraws it.
  const words = shown && shown.terminal ? [resultHeadline(shown)] : [seatWords, info.practice ? t("practice game") : ""].filter(Boolean);
  const titleBox = clear($("title"));
  el("span", { class: "title-game", text: t(info.title) }, titleBox);
  el("span", { class: "title-seat", "data-testid": "title-seat", text: words.map((w) => ` · ${w}`).join("") }, titleBox);
}

// "Game over: ..." once, whether the headline says it already or not.
function gameOverLine(head) {
  const prefix = t("Game over: {result}", { result: "" });
  return head.startsWith(prefix) ? head : t("Game over: {result}", { result: head });
}

let endShown = -1;       // the ply whose end screen was drawn (drawn once, may be closed)

function announce(u) {
  // The screen reader's "what happened": the events of this update in the game's own words.
  if (u.sync) return;
  // Seats by their names, in the page's language, as on the rest of the page.
  const texts = (u.events || []).filter((e) => e && e.msg).map((e) => rendererCtx.say(e));
  // No event: the move's lines of the log (typed, as the log words them).
  const story = u.last_action && u.last_action.story;
  if (!texts.length && story) texts.push(...story.lines.map((l) => rendererCtx.say(l)));
  if (u.terminal) texts.push(resultHeadline(u));
  if (texts.length) $("live").textContent = texts.join(" ");
}

function resultHeadline(u) {
  const off = controls && controls.headline(u); // resigned, out of time, aborted
  if (off) return off;
  const winners = (u.winners || []).map(seatLabel);
  if (u.truncated) return t("Game over: stopped by the turn limit, nobody wins.");
  if (!winners.length) return t("Game over: a draw.");
  const you = info.seat !== null && !hotSeat && (u.winners || []).includes(info.seat);
  if (you && winners.length === 1) return t("You win!");
  return winners.length > 1 ? t("{who} win.", { who: winners.join(t(" and ")) }) : t("{who} wins.", { who: winners[0] });
}

function drawEndScreen(u) {
  const box = $("end-screen");
  clear(box);
  const summary = controls.endSummary(u) || (renderer && renderer.summary && renderer.summary(u)) || {};
  // The result for this page's player first, in one word, as lichess and BGA say it (issue 39).
  const seated = info.seat !== null && !hotSeat && !(u.ending && u.ending.aborted);
  const head = el("div", { class: "end-head" }, box); // the badge and the title: one line where they fit
  if (seated) {
    const won = (u.winners || []).includes(info.seat);
    const kind = won ? "won" : (u.winners || []).length ? "lost" : "draw";
    const words = { won: t("You won"), lost: t("You lost"), draw: t("No winner") }[kind];
    el("p", { class: `end-badge end-${kind}`, text: words, "data-testid": "end-badge" }, head);
  }
  // Under the badge a bare "You win!" says it twice (issue 39): the first reason is the headline then.
  const reasons = [...(summary.reason || [])];
  let title = summary.title || resultHeadline(u);
  if (seated && !summary.title && title === t("You win!") && reasons.length > 1) title = String(reasons.shift());
  el("h2", { id: "end-title", text: title }, head);
  const why = el("div", { class: "end-reasons" }, box);
  for (const line of reasons) el("p", { text: line, "data-testid": "end-reason" }, why);
  // A game with secrets to reveal (13 Dead End Drive) shows a compact card, as lichess does: the
  // result, how, the ways on; the scores and everyone's cards one tap away (issue 39, pagesB).
  // The card sits beside the board (issue 39): the ways on first, the scores one tap away under
  // them (open on a wide screen, where the side column has the room; closed on a phone's bar).
  const compact = !!(summary.secrets && summary.secrets.length);
  const actions = el("div", { class: "actions" });
  drawEndRatings(box); // each account's rating and change before the buttons (issue 39)
  box.append(actions);
  const hasScores = !!(summary.scores && summary.scores.length);
  const details = compact || hasScores ? el("details", { class: "end-details", "data-testid": "end-details" }, box) : box;
  if (compact) el("summary", { text: t("Scores and everyone's cards") }, details);
  else if (hasScores) {
    el("summary", { text: t("Scores") }, details); // the headline and the strips say who won
  }
  if (summary.scores && summary.scores.length) {
    const table = el("table", { "data-testid": "end-scores" }, details);
    const head = el("tr", {}, el("thead", {}, table));
    for (const h of summary.columns || [t("Player"), t("Result")]) el("th", { text: h, scope: "col" }, head);
    const tb = el("tbody", {}, table);
    for (const row of summary.scores) {
      const tr = el("tr", { "data-seat": row.seat }, tb);
      el("th", { scope: "row", text: seatLabel(row.seat) + ((u.winners || []).includes(row.seat) ? " ★" : "") }, tr);
      for (const cell of row.cells) el("td", { text: cell }, tr);
    }
  }
  for (const section of summary.secrets || []) {
    el("h3", { text: section.heading }, details);
    const dl = el("ul", { "data-testid": "end-secrets" }, details);
    for (const line of section.lines) el("li", { text: line }, dl);
  }
  // One clear way on (issue 39, pagesA): Rematch, or New game where there is none (an aborted
  // game has no result to answer with a rematch, issue 27); Review beside it, quieter; the
  // record, the public link and the embed a line of small links; the board behind a corner ×.
  const rematch = !!(u.controls && u.controls.can_rematch && !(u.ending && u.ending.aborted));
  if (rematch) {
    // The server makes the rematch once every human seat has accepted (js/controls.js).
    const again = el("button", { type: "button", class: "primary", text: t("Rematch (seats rotated)"), "data-testid": "rematch" }, actions);
    again.addEventListener("click", () => controls.acceptRematch(again));
  }
  el("a", { href: "/", class: rematch ? "secondary" : "primary", text: t("New game"), "data-testid": "new-game" }, actions);
  el("a", { href: $("replay").href, class: "secondary", text: t("Review the game"), "data-testid": "end-replay" }, actions);
  const quiet = el("p", { class: "end-more" });
  el("a", { href: $("record").href, text: t("Download record"), download: "", "data-testid": "end-record" }, quiet);
  controls.endLinks(quiet);
  const close = el("button", { type: "button", class: "end-close", "aria-label": t("Look at the board"), title: t("Look at the board"),
                               "data-testid": "close-end", text: "×",
                               onclick: () => { box.hidden = true; showResultButton(true).focus(); } });
  actions.after(quiet);
  el("div", { id: "end-links" }, box);
  controls.renderRematch($("end-links"));
  box.append(close); // drawn in the card's corner; last in the keyboard's order, after the ways on
  box.hidden = false;
  showResultButton(false);
  // The card takes the focus (issue 27): its first action, so Enter plays again.
  const first = /** @type {HTMLElement|null} */ (actions.querySelector("button, a"));
  if (first) first.focus({ preventScroll: true });
}

// "Show the result" where the card was (under the board on a phone, beside it on a desktop), once
// the card is closed to look at the board.
function showResultButton(show) {
  let button = $("show-result");
  if (!button) {
    button = el("button", { type: "button", id: "show-result", class: "show-result", "data-testid": "show-result", text: t("Show the result"),
                            onclick: () => { $("end-screen").hidden = false; button.hidden = true; } });
    $("end-screen").after(button);
  }
  button.hidden = !show;
  return button;
}

// The result as the move list's last line (lichess: "1-0 · White is victorious" under the moves).
function drawLogResult(u) {
  const line = $("log-result");
  line.hidden = !u.terminal;
  line.textContent = u.terminal ? gameOverLine(resultHeadline(u)) : "";
}

// Each rated account's new rating and its change, as lichess ends a rated game ("alice 1543
// (+43)"); a rating still provisional with this game counted says so in words ("1543
// (provisional) +43"), never the strips' "1500?" beside a change it does not include.
function drawEndRatings(box) {
  const rated = info.players.filter((p) => p.rating !== null && p.rating !== undefined && p.change !== null && p.change !== undefined);
  if (!rated.length) return;
  el("h3", { text: t("Rating changes") }, box);
  const list = el("ul", { class: "end-ratings", "data-testid": "end-ratings" }, box);
  for (const p of rated) {
    const li = el("li", { "data-seat": p.seat }, list);
    el("span", { class: "end-rating-name", text: seatName(p.seat, p, undefined, info.players) }, li);
    const now = NUMBER.format(Math.round(Number(p.rating) + Number(p.change)));
    const words = p.provisional_after ? t("{rating} (provisional) {change}", { rating: now, change: changeLabel(p.change) })
      : t("{rating} ({change})", { rating: now, change: changeLabel(p.change) });
    el("span", { class: "end-rating", text: words, "data-testid": `end-rating-${p.seat}`,
                 title: p.provisional_after ? t("Provisional rating: it settles after a few more rated games.") : t("Rating") }, li);
  }
  // The board this game counts for, at its player count (the leaderboard opens on it).
  el("a", { href: `/leaderboard?${new URLSearchParams({ game: info.game, players: String(info.players.length) })}`,
            text: t("See the leaderboard"), "data-testid": "end-leaderboard", class: "small" }, box);
}
const NUMBER = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0, useGrouping: false });

let handed = []; // seats handed to the computer (an intermediate update of a move has no controls)
function drawPlayersNow(u) {
  if (u.controls) handed = u.controls.handed || [];
  // On a shared screen nobody is "you" (issue 27: one vocabulary for seats).
  drawPlayers($("players"), info.players, { viewer: hotSeat ? null : info.seat, toMove: u.to_move, terminal: u.terminal, winners: u.winners,
                                            out: (u.ending && u.ending.out) || [], handed, shared: hotSeat });
  drawStrips(u);
}

function drawStrips(u) {
  // A game's own words per seat beside the name (Booby Trap's points), as BGA's player panels.
  let extras = null;
  try { extras = renderer && renderer.stripExtras && u.view ? renderer.stripExtras(u) : null; } catch (e) { console.error(e); }
  strips.draw(info.players, { viewer: hotSeat ? null : info.seat, toMove: u.to_move, terminal: !!u.terminal, winners: u.winners, extras, shared: hotSeat });
}

function drawShell(u) {
  shown = u;
  drawPlayersNow(u);
  const end = clear($("end"));
  // Why the game stopped (the server could not play a seat): typed, in the page's language.
  if (u.error_msg || u.error) el("p", { class: "error", text: u.error_msg ? refused(u.error_msg) : u.error }, end);
  // Over: the header says the result, not whose turn it was (issue 39: "Player 2's turn" after the end).
  const seatLine = document.querySelector("#title .title-seat");
  if (seatLine && u.terminal) seatLine.textContent = ` · ${resultHeadline(u)}`;
  if (u.terminal) {
    // The result is the card beside the board and the move list's last line (issue 39): the
    // Players card does not say it a third time.
    if (endShown !== u.ply) { endShown = u.ply; drawEndScreen(u); }
  } else {
    $("end-screen").hidden = true;
    showResultButton(false);
    endShown = -1;
  }
  drawLogNow(u);
  drawLogResult(u);
  announce(u);
  controls.update(u);
  clockView.update(u.clock);
  setHintButton(latest || u);
  setUndoButton(u);
  $("typed").hidden = info.seat === null || u.terminal;
  // Over: the end card has the record and the review (issue 39: not twice), and hint and undo
  // are done with; the tools card goes.
  $("tools").hidden = !!u.terminal;
  // (over: gone from a phone's header too, where they sit in landscape)
  $("hint").hidden = info.seat === null || !!u.terminal;
  $("undo").hidden = info.seat === null || !!u.terminal;
  document.body.dataset.ply = String(u.ply);
  document.body.dataset.toMove = u.to_move === null ? "" : String(u.to_move);
  document.body.dataset.terminal = u.terminal ? "1" : "0";
  document.body.dataset.endedOff = u.ending && u.terminal ? "1" : "0";
  document.body.dataset.myTurn = (u.to_move !== null && u.to_move === info.seat) ? "1" : "0";
  document.body.dataset.busy = "0";
  if (alerts) alerts.update(u);
  holdBar();
}

// The action bar never shrinks while the page is open (until the window is resized): a decision
// with fewer words does not make the board jump (issue 27).
// Measured once a frame, not once an update: reading the layout right after the update changed the
// page made Chromium lay it out again for each (a profile of the browser tests: a few seconds of
// every game played; a phone pays it too).
let barHeld = 0;
let barMeasure = 0;
function holdBar() {
  if (barMeasure) return;
  barMeasure = requestAnimationFrame(() => {
    barMeasure = 0;
    const bar = $("actionbar");
    keyboardScroll(bar);
    if (document.body.dataset.terminal === "1") { barHeld = 0; bar.style.minHeight = ""; return; } // over: nothing to hold
    const h = bar.getBoundingClientRect().height;
    if (h > barHeld + 0.5) { barHeld = h; bar.style.minHeight = `${Math.ceil(h)}px`; }
  });
}
window.addEventListener("resize", () => { barHeld = 0; $("actionbar").style.minHeight = ""; keyboardScroll($("actionbar")); });

// A region that scrolls (the action bar beside a phone's board in landscape) is one a keyboard can
// reach and scroll (WCAG 2.1.1; axe: scrollable-region-focusable); one that does not is no tab stop.
function keyboardScroll(box) {
  if (box.scrollHeight > box.clientHeight + 1) box.tabIndex = 0;
  else box.removeAttribute("tabindex");
}

// --- pacing of the other seats' moves (issue 39) ------------------------------------------------
// The server plays the computer's moves as fast as it can and may send several at once; the page
// shows them one after another, as BGA and lichess do: each drawn no sooner than PACE_MS after the
// last one (the renderer's own animation counts), its log line with it, the newest line marked.
// The player may skip (the rest drawn at once); `#fast` (tests) and the animation speed "off" make
// it 0. The pace is the page's only: the server decides no timing.
const PACE_MS = 650;
let lastDrawnAt = 0;  // when the last move finished drawing (performance.now())
let pacingQueued = 0; // updates waiting in the queue
const LONG_RUN = 40; // a frame of more updates than a turn's own (roll, move, a 15-stage firing, steals): see drawUpdate
let skipping = false; // the player asked to see the rest at once (until the queue is empty)
let wakePacing = null;

// A seat this page plays itself (its own and, in hot seat, the others this browser holds).
function playedHere(seat) {
  if (seat === null || seat === undefined || info.seat === null) return false;
  return seat === info.seat || heldSeats().has(seat);
}

// Whose move an update shows: the seat that acted, or, for chance (a die), the seat whose turn it is.
function moverOf(u) {
  const a = u.last_action;
  if (!a) return null;
  if (a.seat !== undefined && a.seat !== null && a.seat >= 0) return a.seat;
  return a.story && a.story.seat !== undefined ? a.story.seat : null;
}

function paceMs() {
  return fast || skipping ? 0 : scaledMs(PACE_MS);
}

// Waits before drawing `u` when it is a move the player did not make here (the computer's, a
// friend's, the opening draw), so that each is seen before the next.
async function pace(u) {
  if (u.sync || !u.last_action || playedHere(moverOf(u))) return;
  if (info.seat === null && pacingQueued > 1) return; // issue 41: a spectator behind the game jumps to its current move
  const wait = lastDrawnAt + paceMs() - performance.now();
  if (wait <= 0) return;
  showSkip(true);
  await new Promise((resolve) => {
    const timer = setTimeout(resolve, wait);
    wakePacing = () => { clearTimeout(timer); resolve(); };
  });
  wakePacing = null;
}

function showSkip(show) {
  const button = $("skip-moves");
  if (button) button.hidden = !show;
}

function skipPacing() {
  skipping = true;
  showSkip(false);
  if (wakePacing) wakePacing();
}

// The log's newest lines, drawn with the move they tell (not after its animation), marked "fresh".
function drawLogNow(u) {
  renderLog($("log"), u.log, { seat: info.seat, viewer: hotSeat ? null : info.seat, players: info.players, gid, token, gameId: info.game,
                               renderer: info.renderer, options: info.options, compact: COMPACT_LOG.includes(info.game),
                               headline: renderer && renderer.logHeadline ? (items) => renderer.logHeadline(items) : null });
  if (u.sync || !u.last_action) return;
  // From the end only (the move is in the last line or two): the log stays O(1) an update.
  const ply = u.last_action.ply;
  for (let li = /** @type {HTMLElement|null} */ ($("log").lastElementChild); li; li = /** @type {HTMLElement|null} */ (li.previousElementSibling)) {
    if (ply >= Number(li.dataset.ply) && ply <= Number(li.dataset.lastPly)) { li.classList.add("fresh"); break; }
    if (Number(li.dataset.lastPly) < ply) break;
  }
}

// A page opened after the computer has already moved (it opens, or a die says who starts, before
// the player's first turn; in 13 Dead End Drive it may even win before it) shows those moves one
// by one from the start, as they would have been seen live (the server's moments: this seat's
// view after each ply), rather than a position that appeared from nowhere. Not on a reload of a
// game the player has moved in, and not past OPENING_MAX plies.
const OPENING_MAX = 60;
async function replayOpening(state) {
  const entries = state.log || [];
  if (fast || !scaledMs(PACE_MS) || !state.ply || state.ply > OPENING_MAX || info.seat === null) return;
  if (entries.some((e) => e && e.seat >= 0 && playedHere(e.seat))) return;
  if (!entries.some((e) => e && e.seat >= 0)) return; // only the opening's chance (who starts): nothing to follow
  document.body.dataset.replayingOpening = "1";
  showSkip(true);
  try {
    for (let p = 0; p <= state.ply && !skipping; p++) {
      const r = await api("GET", `/api/games/${encodeURIComponent(gid)}/moment/${p}?token=${encodeURIComponent(token)}`);
      if (!r.ok || skipping) break;
      const u = { ...r.data, sync: p === 0, log: entries.slice(0, p), to_move: null, can_undo: false, can_hint: false };
      await pace(u);
      if (skipping) break;
      drawStrips(u);
      drawLogNow(u);
      await renderer.update(u);
      lastDrawnAt = performance.now();
    }
  } catch (e) {
    console.error(e); // the position itself is drawn next in any case
  } finally {
    skipping = false;
    showSkip(false);
    document.body.dataset.replayingOpening = "0";
  }
}

function onState(msg, inLongRun = false) {
  latest = msg;
  if (info.seat !== null) setHintButton(msg); // at once, not after the board's drawing
  applyPeople(info.players, msg.people); // the accounts' names and ratings (js/strips.js)
  // whether a rating is still provisional with this game counted (the end screen's words)
  for (const person of msg.people || []) if (info.players[person.seat]) info.players[person.seat].provisional_after = !!person.provisional_after;
  drawTitle();
  showNameBox();
  if (msg.sync) log = msg.log.slice();
  else {
    log.length = Math.min(log.length, msg.ply);
    if (msg.last_action) log[msg.last_action.ply] = msg.last_action;
  }
  const u = { ...msg, log: log.slice(), inLongRun };
  // An update leaves out the view's static part (the board): it came once with the game's info.
  if (info.static_view && u.view) u.view = { ...info.static_view, ...u.view };
  latestU = u;
  // Ended off the board (resigned, out of time, aborted): the board has no move left to offer.
  if (msg.ending && msg.terminal && msg.view && !msg.view.terminal) u.view = { ...msg.view, to_move: null, legal_actions: [] };
  document.body.dataset.busy = "1";
  const mine = generation;
  pacingQueued += 1;
  queue = queue.then(async () => {
    try { await drawUpdate(u, mine); } finally {
      pacingQueued -= 1;
      if (!pacingQueued) { skipping = false; showSkip(false); }
    }
  });
}

async function drawUpdate(u, mine) {
    if (mine !== generation) return; // a seat switch replaced this page's renderer
    if (pacingQueued > 1 && !u.sync && !playedHere(moverOf(u)) && !fast && scaledMs(PACE_MS) > 0) showSkip(true);
    await pace(u);
    if (mine !== generation) return;
    // Nothing to pace (#fast, Skip pressed): an update with newer ones queued is not drawn when
    // the player skipped, or when it is inside a long run of moves that came in one frame (the
    // server folds up to 64 computer moves into one): the run's last is drawn, and its log holds
    // every line. Drawing each board cost a loaded machine ~0.3 s apiece; a page 20 s behind
    // stopped reading its socket until the server dropped it (CI). A turn's few updates (a
    // firing's 15 stages) are still drawn each.
    if (pacingQueued > 1 && (paceMs() === 0 || info.seat === null) && (skipping || u.inLongRun || info.seat === null) && !u.sync && !u.terminal) return;
    if (u.ply !== drawnPly) { dropStaleMessages(u.ply); drawnPly = u.ply; }
    // Keep the keyboard on the board while the renderer redraws it (an opponent's move).
    const mark = focusMark($("board"));
    // The same position again (the socket's sync after the page's first fetch, a clock started or
    // a seat become handable: an update of the same ply) is not drawn again: redrawing would drop
    // what the player is doing on the board (mice selected, a pawn picked, a hint shown) and show
    // the last move's events twice. The rest of the page (drawShell) takes it as usual.
    const key = boardKey(u);
    drawStrips(u); // before the board: a renderer that scrolls its board to a piece measures the final layout
    if (!u.sync) drawLogNow(u); // the move's line appears with the move
    try {
      if (key !== drawnBoard.key || drawnBoard.renderer !== renderer) {
        drawnBoard = { key: null, renderer };
        await renderer.update(u);
        drawnBoard = { key, renderer };
      }
    } catch (e) {
      console.error(e);
      message(t("the board could not be drawn: {error}", { error: e.message }), "error");
    }
    lastDrawnAt = performance.now();
    if (mine !== generation) return;
    drawShell(u);
    restoreFocus(mark, $("board"));
    focusBoardOnArrival();
    if (u === latestDrawable()) maybeSwitchSeat(u);
}

function latestDrawable() { return latestU; }

// What the renderer draws of an update: the position and how the game stands (not the clock, the
// controls or the log, which the page draws itself).
let drawnBoard = { key: null, renderer: null };
function boardKey(u) {
  return JSON.stringify([u.ply, u.view, u.to_move, u.terminal, u.winners, u.truncated, u.ending || null, u.error || null]);
}

// Once, when the page first shows this player a move to make and nothing has the focus yet: the
// keyboard starts on the board (one Tab away from everything else), not at the top of the page.
let arrivedOnBoard = false;
function focusBoardOnArrival() {
  if (arrivedOnBoard || document.body.dataset.myTurn !== "1") return;
  arrivedOnBoard = true;
  if (document.activeElement && document.activeElement !== document.body) return;
  const first = /** @type {HTMLElement|null} */ (document.querySelector("#board [data-kbd]"));
  if (first) first.focus({ preventScroll: true });
}

function onMessage(event) {
  let data;
  try { data = JSON.parse(event.data); } catch (e) { return; }
  // A frame holds one message, or several in order (the updates after each action of a move,
  // then its ack).
  const list = Array.isArray(data) ? data : [data];
  // A long run's states but its last (see drawUpdate): marked, not dropped (the log, the features
  // and the parts of each are still taken in order).
  const states = list.filter((m) => m && m.type === "state");
  const longRun = states.length > LONG_RUN ? new Set(states.slice(0, -1)) : null;
  for (const msg of list) handleMessage(msg, !!longRun && longRun.has(msg));
}

// Names and presence changed: the players, the log (it names seats) and later chat lines.
function onPresence(msg) {
  applyPresence(info.players, msg.seats);
  drawTitle();
  if (shown) {
    drawPlayersNow(shown);
    drawLogNow({ ...shown, sync: true }); // the names changed: the same lines, nothing new to light
  }
  const me = info.seat !== null ? info.players[info.seat] : null;
  if (me && nameBox && document.activeElement !== nameBox.input && me.name) nameBox.set(me.name);
}

// An update leaves out the features' parts (takeback, controls, clock...) that did not change
// since the last state message and names them in `kept`: the page fills them in from the last.
let lastState = {};
function withParts(msg) {
  if (msg.type !== "state") return msg;
  let full = msg;
  if (msg.kept) {
    full = { ...msg };
    for (const k of msg.kept) full[k] = lastState[k];
    delete full.kept;
  }
  lastState = msg.sync ? full : { ...lastState, ...full };
  return full;
}

function handleMessage(message, inLongRun = false) {
  const msg = withParts(message);
  if (msg.type === "state" && features) features.update(msg);
  if (msg.type === "presence") onPresence(msg);
  else if (msg.type === "chat") { if (chat) chat.add(msg.line); }
  else if (msg.type === "state") onState(msg, inLongRun);
  else if (msg.type === "hello") {
    // The game's info is already loaded; the hello adds who is here and the chat so far.
    if (msg.presence) onPresence({ seats: msg.presence });
    if (msg.chat && chat) chat.history(msg.chat.lines, msg.chat.can_chat, msg.chat.error);
  }
  else if (msg.type === "ack" || msg.type === "error" || msg.type === "pong" || msg.type === "hint") {
    const resolve = msg.ref != null ? pending.get(msg.ref) : null;
    if (resolve) {
      pending.delete(msg.ref);
      resolve(msg.type === "error" ? { ok: false, error: refused(msg), code: msg.code } : { ok: true, ...msg });
    } else if (msg.type === "error") {
      message(refused(msg), "error");
      if (msg.fatal) stopped = true;
    }
  }
  else if (features) features.receive(msg);
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const mine = generation;
  const sock = new WebSocket(`${proto}://${location.host}/ws/games/${encodeURIComponent(gid)}?token=${encodeURIComponent(token)}`);
  ws = sock;
  sock.addEventListener("open", () => {
    if (mine !== generation) { sock.close(); return; }
    backoff = 250; setStatus(t("connected"), false); dropMessages("connection"); greet();
  });
  sock.addEventListener("message", (e) => { if (mine === generation) onMessage(e); });
  sock.addEventListener("close", () => {
    if (mine !== generation) return; // a seat switch closed it on purpose
    for (const resolve of pending.values()) resolve({ ok: false, error: t("connection lost; reconnecting…"), tag: "connection" });
    pending.clear();
    if (stopped) { setStatus(t("disconnected"), true); return; }
    setStatus(t("connection lost; reconnecting in {s} s…", { s: (backoff / 1000).toFixed(1) }), true);
    setTimeout(() => { if (mine === generation) connect(); }, backoff);
    backoff = Math.min(backoff * 2, 8000);
  });
}

// A seat an account holds is called by the account's name (the server's `people`): its player
// gets no "Your name" field (issue 39: a logged-in player was asked for a name); a guest keeps it.
function heldByAccount() {
  const me = info && info.seat !== null ? info.players[info.seat] : null;
  return !!(me && me.account);
}

function showNameBox() {
  $("name-box").hidden = heldByAccount();
}

// On every (re)connect: the tab's visibility, and this browser's name for the seat when it differs
// from the seat's (not in hot seat: two people share this browser, each names their own seat).
let nameBox = null;
function greet() {
  ws.send(JSON.stringify({ type: "presence", visible: !document.hidden }));
  const name = storedName();
  const me = info.seat !== null ? info.players[info.seat] : null;
  const spectatorChats = info.seat === null && info.spectator_chat;
  if (name && !hotSeat && !heldByAccount() && ((me && me.name !== name) || spectatorChats)) sendName(name);
}

async function sendName(name) {
  const reply = await request({ type: "name", name });
  if (!reply.ok) message(t("Your name: {error}", { error: reply.error }), "error", { tag: "name" });
  else dropMessages("name"); // a refusal said before is over
  return reply.ok ? null : reply.error;
}

// --- seats this browser holds (hot seat) -------------------------------------------------------
// "My games" (localStorage) keeps each seat's token. One page plays every human seat of the game
// that this browser holds (issue 27): when such a seat is on move, the page becomes that seat's.
function heldSeats() {
  const held = new Map();
  for (const g of myGames()) if (g.id === gid && !held.has(g.seat)) held.set(g.seat, g);
  return held;
}

function setToken(next) {
  token = next;
  params.delete("i");
  params.set("t", token);
  history.replaceState(null, "", `${location.pathname}${location.search}#${params.toString()}`);
}

// An invite link (#i=...): claim its seat once, then keep the seat's own link (#t=...) instead.
// The same link opened again in this browser resumes the seat it gave (issue 27).
async function claimInvite() {
  const invite = params.get("i");
  const known = myGames().find((g) => g.id === gid && g.invite === invite);
  if (known) { setToken(known.token); return true; }
  const r = await api("POST", `/api/games/${encodeURIComponent(gid)}/claim`, { invite });
  if (!r.ok) {
    const held = [...heldSeats().values()];
    if (held.length) { // used by someone else, but this browser holds a seat of the game: open it
      setToken(held[0].token);
      message(t("This invite link was already used; here is your own seat (Player {n}).", { n: held[0].seat + 1 }), "info");
      return true;
    }
    message(t("{error}. If you opened this link before in another browser, use that browser (its lobby lists the game under \"My games\").", { error: r.error }), "error", { keep: true });
    setStatus(t("not connected"), true);
    return false;
  }
  setToken(r.data.token);
  pendingInvite = invite;
  return true;
}
let pendingInvite = null; // the invite code just claimed, remembered with the seat

// The screen between two seats of a shared screen where hands are secret: the next player says
// they are at the screen before their seat is shown (and the last one's is hidden).
function curtain(seat) {
  return new Promise((resolve) => {
    const who = seatLabel(seat);
    const box = clear($("curtain"));
    const inner = el("div", { class: "curtain-box" }, box);
    el("h2", { id: "curtain-title", text: t("Pass the screen to {who}", { who }) }, inner);
    el("p", { text: t("{who} is to move. The other players look away: {who}'s hand is shown next.", { who }) }, inner);
    const go = el("button", { type: "button", class: "primary", "data-testid": "curtain-ready",
                              text: t("I am {who}: show my seat", { who }) }, inner);
    // Nothing of the last seat stays on the page under the curtain (nor for a screen reader).
    const main = document.querySelector("main");
    go.addEventListener("click", () => { box.hidden = true; clear(box); main.hidden = false; resolve(); });
    main.hidden = true;
    box.hidden = false;
    document.body.dataset.curtain = "1";
    go.focus();
  });
}

let switching = false;
function maybeSwitchSeat(u) {
  if (switching || info.seat === null || u.terminal || u.to_move === null || u.to_move === undefined) return;
  if (u.to_move === info.seat || u.to_move < 0) return;
  const held = heldSeats().get(u.to_move);
  if (!held) return;
  switchSeat(held);
}

// The other seats this browser holds stay present (a socket each, only for presence): on a shared
// screen a seat whose turn it is not is not "gone" (no hand-over offered for it).
const companions = new Map(); // seat -> WebSocket
function keepCompanions() {
  const held = heldSeats();
  for (const [seat, sock] of companions) {
    if (seat === info.seat || !held.has(seat)) { sock.close(); companions.delete(seat); }
  }
  for (const [seat, entry] of held) {
    if (seat === info.seat || companions.has(seat)) continue;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const sock = new WebSocket(`${proto}://${location.host}/ws/games/${encodeURIComponent(gid)}?token=${encodeURIComponent(entry.token)}`);
    sock.addEventListener("open", () => sock.send(JSON.stringify({ type: "presence", visible: !document.hidden })));
    sock.addEventListener("close", () => { if (companions.get(seat) === sock) companions.delete(seat); });
    companions.set(seat, sock);
  }
}

async function switchSeat(entry) {
  switching = true;
  try {
    if (info.has_hidden_information) await curtain(entry.seat);
    generation += 1;
    const old = ws;
    ws = null;
    // The seat just played stays present through its socket (now a companion's).
    if (old && old.readyState <= WebSocket.OPEN && !companions.has(info.seat)) companions.set(info.seat, old);
    else if (old) old.close();
    for (const [, resolve] of pending) resolve({ ok: false, error: "switched seats" });
    pending.clear();
    if (renderer && renderer.destroy) renderer.destroy();
    setToken(entry.token);
    latest = null; latestU = null; log = []; queue = Promise.resolve(); endShown = -1; drawnPly = -1;
    await openSeat();
  } finally {
    switching = false;
    document.body.dataset.curtain = "0";
  }
}

async function openSeat(first = false) {
  let r = await api("GET", `/api/games/${encodeURIComponent(gid)}?token=${encodeURIComponent(token)}`);
  if (!r.ok) { message(r.error, "error", { keep: true }); setStatus(t("not connected"), true); return; }
  info = r.data.info;
  const seatsHere = new Set([...heldSeats().keys(), ...(info.seat !== null ? [info.seat] : [])]);
  hotSeat = info.seat !== null && seatsHere.size > 1;
  if (first && hotSeat) {
    // A shared screen opens on the seat on move, if this browser holds it ...
    const mover = r.data.state.to_move;
    const held = mover !== null && mover !== undefined && mover !== info.seat ? heldSeats().get(mover) : null;
    if (held && !r.data.state.terminal) {
      setToken(held.token);
      r = await api("GET", `/api/games/${encodeURIComponent(gid)}?token=${encodeURIComponent(token)}`);
      if (!r.ok) { message(r.error, "error", { keep: true }); setStatus(t("not connected"), true); return; }
      info = r.data.info;
    }
    // ... and, where hands are secret, behind the curtain until its player is at the screen.
    if (info.has_hidden_information && !r.data.state.terminal) {
      switching = true;
      try { await curtain(info.seat); } finally { switching = false; document.body.dataset.curtain = "0"; }
    }
  }
  document.title = `${t(info.title)} · trapworks`;
  drawTitle();
  if (info.seat === null) { $("typed").hidden = true; $("hint").hidden = true; $("undo").hidden = true; }
  $("help").textContent = t(info.help);
  // Practice games may take back dice, cards and physics outcomes already seen; say so on the page.
  $("practice").hidden = !info.practice;
  const base = `/api/games/${encodeURIComponent(gid)}`;
  $("record").href = `${base}/record?token=${encodeURIComponent(token)}`;
  $("replay").href = `/replay#g=${encodeURIComponent(gid)}&t=${encodeURIComponent(token)}`;
  if (info.seat !== null) {
    const before = myGames().find((g) => g.id === gid && g.token === token);
    const invite = pendingInvite || (before && before.invite) || undefined;
    pendingInvite = null;
    rememberGame({ id: gid, token, seat: info.seat, game: info.game, title: info.title, players: info.players.length,
                   label: info.players[info.seat].label, link: `${location.origin}/g/${gid}#t=${token}`, invite });
  }
  document.body.dataset.hotSeat = hotSeat ? "1" : "0";
  document.body.dataset.seat = info.seat === null ? "" : String(info.seat);
  // "#...&renderer=generic" shows any game with the fallback renderer (to debug a game's renderer).
  const loaded = await loadRenderer(params.get("renderer") === "generic" ? "/static/renderers/generic.js" : info.renderer);
  const baseCtx = baseContext({ gameId: info.game, mode: "live", seat: info.seat, players: info.players, options: info.options,
                             fast, message, bar: clear($("bar")), side: clear($("side-extra")) });
  const ctx = {
    ...baseCtx,
    // A skip (the player's "Skip") ends the renderers' animations too: the rest is drawn at once.
    sleep: (ms) => (skipping ? Promise.resolve() : baseCtx.sleep(ms)),
    send: sendAction, hint, undo, request: extra,
    // This seat's view right after `ply` moves (the server's moment; null if refused): a renderer
    // shows the end's last move from it on a page opened after the end.
    moment: async (ply) => {
      const r = await api("GET", `/api/games/${encodeURIComponent(gid)}/moment/${ply}?token=${encodeURIComponent(token)}`);
      return r.ok ? r.data : null;
    },
    strips: true, // the page draws player strips: a renderer's per-seat lines go there (stripExtras)
    links: { record: $("record").href, replay: $("replay").href, lobby: "/" },
    // Hot seat: the page shows a curtain between seats itself (curtain() above), so a renderer
    // draws the seat's hand at once.
    hotSeat: false,
    shared: hotSeat, // one screen for several seats: say names, never "you"
    seatLabel,
  };
  rendererCtx = ctx;
  renderer = loaded.create(clear($("board")), ctx);
  setupSocial();
  controls = createControls({ box: $("control"), gid, token, info, message, seatLabel, shared: () => hotSeat });
  if (!features) {
    const area = el("div", { class: "features", "data-testid": "features" });
    $("control").after(area);
    features = createFeatures(area);
  }
  features.load(info, { gid, token, request, message, seatLabel, shared: () => hotSeat }).then(() => { if (latest) features.update(latest); });
  clockView = clockView || createClock($("clockbar"), { seatLabel, onTick: strips.tick }); // one countdown for the page
  document.body.dataset.renderer = loaded.url;
  if (first) await replayOpening(r.data.state);
  onState(r.data.state);
  stopped = false;
  connect();
  if (hotSeat) keepCompanions();
}

// Shared frame (issue 39, polish): on a phone in landscape the side panel is below the fold, and
// scrolling to Hint took the board away: Hint and Undo move into the action bar beside the board
// there, and back to the side panel's tools at every other size (the same buttons, ids, listeners).
const PHONE_LANDSCAPE = matchMedia("(orientation: landscape) and (max-height: 520px)");
function placeTools() {
  const place = PHONE_LANDSCAPE.matches ? $("bar-tools") : $("tools").querySelector(".row-buttons");
  if (place) place.prepend($("hint"), $("undo"));
}

async function init() {
  translatePage();
  if (params.has("i") && !(await claimInvite())) return;
  if (!token) {
    message(t("This link has no seat token (#t=...). Open the link you were given, or create a game in the lobby."), "error", { keep: true });
    return;
  }
  setupRules($("rules-button"), $("rules-dialog"), () => info);
  setupSettings($("settings-button"), $("settings-dialog"));
  $("record").addEventListener("click", downloadRecord);
  $("hint").addEventListener("click", hint);
  $("undo").addEventListener("click", undo);
  $("skip-moves").addEventListener("click", skipPacing);
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && !$("skip-moves").hidden) skipPacing(); });
  placeTools();
  PHONE_LANDSCAPE.addEventListener("change", placeTools);
  $("typed").addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = $("typed-action").value.trim();
    if (!text) return;
    const reply = await sendAction(text);
    if (reply.ok) $("typed-action").value = "";
  });
  await openSeat(true);
}

// The name field, the chat, the turn alerts and the heartbeat (see names.js, chat.js, alerts.js,
// presence.js).
function setupSocial() {
  applyPresence(info.players, info.players);
  // Names and chat matter where people meet: two or more human seats, or spectators who chat.
  // On a shared screen (hot seat) the humans are all here: no chat and no name boxes, unless some
  // human seat is played from elsewhere (issue 39).
  const held = heldSeats();
  const elsewhere = info.players.filter((p, i) => p.kind === "human" && i !== info.seat && !(hotSeat && held.has(i))).length;
  const people = elsewhere > 0 || info.spectator_chat;
  $("chat-card").hidden = !people;
  clear($("name-box"));
  nameBox = null;
  if ((info.seat !== null && people) || (info.seat === null && info.spectator_chat)) {
    nameBox = nameField($("name-box"), {
      label: info.seat === null ? t("Your name (for chat)") : hotSeat ? t("Name of {who}", { who: seatLabel(info.seat) }) : t("Your name"),
      onSave: (name) => sendName(name),
    });
    const me = info.seat !== null ? info.players[info.seat] : null;
    if (me && me.name && hotSeat) nameBox.set(me.name);
  }
  chat = createChat(clear($("chat")), { viewer: info.seat, players: info.players, gameId: gid, send: (text) => request({ type: "chat", text }) });
  // A shared screen (hot seat) has its players at it: no "notify me on my turn".
  clear($("alerts"));
  alerts = info.seat !== null && !hotSeat ? createAlerts($("alerts"), { baseTitle: document.title, seat: info.seat, gameTitle: t(info.title) }) : null;
  if (started) return;
  started = true;
  startHeartbeat((msg) => {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
    for (const sock of companions.values()) if (sock.readyState === WebSocket.OPEN) sock.send(JSON.stringify(msg));
  });
}

init();
