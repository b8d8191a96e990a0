// The moderation page (issue 41): the reports queue, a player's history, chat lines in their
// context, warn / mute / ban / lift, the audit log. Every route refuses non-moderators.
import { el } from "/static/js/dom.js";
import { $, act, button, me, notice, send, table } from "/static/js/community-api.js";

let player = null; // the player shown
let report = null; // the report being answered (closed with the action)

async function showQueue() {
  const r = await send("GET", "/api/mod/reports");
  if (!r.ok) return;
  table($("queue"), ["#", "Player", "By", "Reason", "What", ""], r.data.reports, (rep, tr) => {
    tr.setAttribute("data-report", String(rep.id));
    el("td", { text: String(rep.id) }, tr);
    el("td", { text: rep.username }, tr);
    el("td", { text: rep.reporter }, tr);
    el("td", { text: rep.reason }, tr);
    el("td", { text: [rep.details, rep.chat_text ? `chat: "${rep.chat_text}"` : "", rep.game_id ? `game ${rep.game_id}` : ""].filter(Boolean).join(" · ") }, tr);
    const cell = el("td", {}, tr);
    button(cell, "Handle", "handle", () => { report = rep.id; show(rep.username); });
    if (rep.game_id) button(cell, "Chat", "context", () => showContext(rep.game_id, rep.chat_line));
    button(cell, "Close", "close", () => act("POST", `/api/mod/reports/${rep.id}/close`, { resolution: "no action" }, `Report ${rep.id} closed.`, refresh));
  }, "No report is waiting.");
}

async function showContext(gid, line) {
  const r = await send("GET", `/api/mod/chat/${encodeURIComponent(gid)}${line ? `?line=${line}` : ""}`);
  const box = $("context");
  if (!r.ok) { box.textContent = r.error; return; }
  table(box, ["#", "Seat", "Account", "Line"], r.data.lines, (l, tr) => {
    if (l.reported) tr.className = "reported";
    tr.setAttribute("data-line", String(l.id));
    el("td", { text: String(l.id) }, tr);
    el("td", { text: l.seat === null ? "spectator" : String(l.seat + 1) }, tr);
    el("td", { text: l.account || l.name }, tr);
    el("td", { text: l.text }, tr);
  }, "No chat.");
}

async function show(name) {
  const r = await send("GET", `/api/mod/players/${encodeURIComponent(name)}`);
  const box = $("history");
  if (!r.ok) { notice(r.error, true); return; }
  player = r.data.username;
  /** @type {HTMLInputElement} */ ((/** @type {HTMLFormElement} */ ($("lookup"))).elements.namedItem("username")).value = player;
  const action = /** @type {HTMLFormElement} */ ($("action"));
  action.hidden = false;
  /** @type {HTMLInputElement} */ (action.elements.namedItem("report")).value = report || "";
  box.textContent = "";
  el("h3", { text: `${player}${r.data.banned ? " (banned)" : ""}${r.data.muted ? " (muted)" : ""}`, "data-testid": "history-name" }, box);
  table(el("div", {}, box), ["Sanction", "Reason", "By", "Until", "In force"], r.data.sanctions, (s, tr) => {
    el("td", { text: s.kind }, tr);
    el("td", { text: s.reason }, tr);
    el("td", { text: s.by || "" }, tr);
    el("td", { text: s.until || (s.kind === "ban" ? "for good" : "") }, tr);
    el("td", { text: s.active ? "yes" : "no" }, tr);
  }, "No sanction so far.");
  table(el("div", {}, box), ["Report", "By", "About", "Reason", "Status"], r.data.reports, (rep, tr) => {
    el("td", { text: String(rep.id) }, tr);
    el("td", { text: rep.reporter }, tr);
    el("td", { text: rep.username }, tr);
    el("td", { text: rep.reason }, tr);
    el("td", { text: rep.status }, tr);
  }, "No report by or about this player.");
  table(el("div", {}, box), ["Their chat", "Game"], r.data.chat, (c, tr) => {
    el("td", { text: c.text }, tr);
    const cell = el("td", {}, tr);
    button(cell, c.game_id, "chat-game", () => showContext(c.game_id, c.id));
  }, "No chat line.");
}

async function showAudit() {
  const r = await send("GET", "/api/mod/audit");
  if (!r.ok) return;
  table($("audit"), ["When", "Moderator", "Action", "Player", "Detail"], r.data.audit, (a, tr) => {
    el("td", { text: a.at }, tr);
    el("td", { text: a.actor }, tr);
    el("td", { text: a.action, "data-testid": "audit-action" }, tr);
    el("td", { text: a.target || "" }, tr);
    el("td", { text: a.detail && a.detail.reason ? a.detail.reason : "" }, tr);
  }, "Nothing yet.");
}

async function refresh() {
  await Promise.all([showQueue(), showAudit()]);
  if (player) await show(player);
}

async function start() {
  await me();
  const r = await send("GET", "/api/mod/reports");
  if (!r.ok) {
    $("refused").hidden = false;
    $("refused").textContent = r.status === 401 ? "Log in first: this page is for moderators." : r.error;
    document.body.dataset.ready = "1";
    return;
  }
  $("desk").hidden = false;
  $("lookup").addEventListener("submit", (e) => { e.preventDefault(); report = null; show(/** @type {HTMLInputElement} */ ((/** @type {HTMLFormElement} */ (e.target)).elements.namedItem("username")).value.trim()); });
  $("action").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = /** @type {HTMLFormElement} */ (e.target);
    const kind = e.submitter ? /** @type {HTMLButtonElement} */ (e.submitter).value : "warn";
    const reportField = /** @type {HTMLInputElement} */ (f.elements.namedItem("report"));
    const days = /** @type {HTMLInputElement} */ (f.elements.namedItem("days")).value;
    const url = `/api/mod/players/${encodeURIComponent(player)}/${kind}`;
    const body = kind === "lift" ? undefined : { reason: /** @type {HTMLInputElement} */ (f.elements.namedItem("reason")).value.trim() };
    if (kind === "mute") body.minutes = Number(/** @type {HTMLInputElement} */ (f.elements.namedItem("minutes")).value);
    if (kind === "ban" && days) body.days = Number(days);
    if (body && reportField.value) body.report = Number(reportField.value);
    const done = await act("POST", url, body, `${player}: ${kind} done.`, refresh);
    if (done) { report = null; reportField.value = ""; }
  });
  await refresh();
  document.body.dataset.ready = "1";
}

start();
