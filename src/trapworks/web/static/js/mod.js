// The moderation page (issue 41): the reports queue, a player's history, chat lines in their
// context, warn / mute / ban / lift, the audit log. Every route refuses non-moderators.
import { el } from "/static/js/dom.js";
import { $, act, button, me, notice, reasonText, refused, send, t, table, translatePage, when } from "/static/js/community-api.js";

let player = null; // the player shown
let report = null; // the report being answered (closed with the action)

// A sanction's kind and an audit line's action, as the server names them, in words.
function kindText(kind) {
  return { warn: t("warning"), mute: t("mute"), ban: t("ban"), lift: t("lift") }[kind] || kind;
}

function actionText(action) {
  return { warn: t("warning"), mute: t("mute"), ban: t("ban"), lift: t("lift"), close: t("report closed"), "grant-moderator": t("made moderator"), "revoke-moderator": t("moderator no more") }[action] || action;
}

async function showQueue() {
  const r = await send("GET", "/api/mod/reports");
  if (!r.ok) return;
  table($("queue"), ["#", t("Player"), t("By"), t("Reason"), t("What"), ""], r.data.reports, (rep, tr) => {
    tr.setAttribute("data-report", String(rep.id));
    el("td", { text: String(rep.id) }, tr);
    el("td", { text: rep.username }, tr);
    el("td", { text: rep.reporter }, tr);
    el("td", { text: reasonText(rep.reason) }, tr);
    el("td", { text: [rep.details, rep.chat_text ? t("chat: \"{text}\"", { text: rep.chat_text }) : "", rep.game_id ? t("game {id}", { id: rep.game_id }) : ""].filter(Boolean).join(" · ") }, tr);
    const cell = el("td", {}, tr);
    button(cell, t("Handle"), "handle", () => { report = rep.id; show(rep.username); });
    if (rep.game_id) button(cell, t("Chat"), "context", () => showContext(rep.game_id, rep.chat_line));
    button(cell, t("Close"), "close", () => act("POST", `/api/mod/reports/${rep.id}/close`, { resolution: "no action" }, t("Report {id} closed.", { id: rep.id }), refresh));
  }, t("No report is waiting."), true);
}

async function showContext(gid, line) {
  const r = await send("GET", `/api/mod/chat/${encodeURIComponent(gid)}${line ? `?line=${line}` : ""}`);
  const box = $("context");
  if (!r.ok) { box.textContent = refused(r); return; }
  table(box, ["#", t("Seat"), t("Account"), t("Line")], r.data.lines, (l, tr) => {
    if (l.reported) tr.className = "reported";
    tr.setAttribute("data-line", String(l.id));
    el("td", { text: String(l.id) }, tr);
    el("td", { text: l.seat === null ? t("spectator") : String(l.seat + 1) }, tr);
    el("td", { text: l.account || l.name }, tr);
    el("td", { text: l.text }, tr);
  }, t("No chat."), true);
}

async function show(name) {
  const r = await send("GET", `/api/mod/players/${encodeURIComponent(name)}`);
  const box = $("history");
  if (!r.ok) { notice(refused(r), true); return; }
  player = r.data.username;
  /** @type {HTMLInputElement} */ ((/** @type {HTMLFormElement} */ ($("lookup"))).elements.namedItem("username")).value = player;
  const action = /** @type {HTMLFormElement} */ ($("action"));
  action.hidden = false;
  /** @type {HTMLInputElement} */ (action.elements.namedItem("report")).value = report || "";
  box.textContent = "";
  el("h3", { text: `${player}${r.data.banned ? ` (${t("banned")})` : ""}${r.data.muted ? ` (${t("muted")})` : ""}`, "data-testid": "history-name" }, box);
  table(el("div", {}, box), [t("Sanction"), t("Reason"), t("By"), t("Until"), t("In force")], r.data.sanctions, (s, tr) => {
    el("td", { text: kindText(s.kind) }, tr);
    el("td", { text: s.reason }, tr);
    el("td", { text: s.by || "" }, tr);
    el("td", { text: s.until ? when(s.until) : (s.kind === "ban" ? t("for good") : "") }, tr);
    el("td", { text: s.active ? t("yes") : t("no") }, tr);
  }, t("No sanction so far."), true);
  table(el("div", {}, box), [t("Report"), t("By"), t("About"), t("Reason"), t("Status")], r.data.reports, (rep, tr) => {
    el("td", { text: String(rep.id) }, tr);
    el("td", { text: rep.reporter }, tr);
    el("td", { text: rep.username }, tr);
    el("td", { text: reasonText(rep.reason) }, tr);
    el("td", { text: rep.status === "open" ? t("open") : t("closed") }, tr);
  }, t("No report by or about this player."), true);
  table(el("div", {}, box), [t("Their chat"), t("Game")], r.data.chat, (c, tr) => {
    el("td", { text: c.text }, tr);
    const cell = el("td", {}, tr);
    button(cell, c.game_id, "chat-game", () => showContext(c.game_id, c.id));
  }, t("No chat line."));
}

async function showAudit() {
  const r = await send("GET", "/api/mod/audit");
  if (!r.ok) return;
  table($("audit"), [t("When"), t("Moderator"), t("Action"), t("Player"), t("Detail")], r.data.audit, (a, tr) => {
    el("td", { text: when(a.at) }, tr);
    el("td", { text: a.actor }, tr);
    el("td", { text: actionText(a.action), "data-testid": "audit-action", "data-action": a.action }, tr);
    el("td", { text: a.target || "" }, tr);
    el("td", { text: a.detail && a.detail.reason ? a.detail.reason : "" }, tr);
  }, t("Nothing yet."), true);
}

async function refresh() {
  await Promise.all([showQueue(), showAudit()]);
  if (player) await show(player);
}

async function start() {
  translatePage();
  await me();
  const r = await send("GET", "/api/mod/reports");
  if (!r.ok) {
    $("refused").hidden = false;
    $("refused").textContent = r.status === 401 ? t("Log in first: this page is for moderators.") : refused(r);
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
    const done = await act("POST", url, body, t("{name}: {action} done.", { name: player, action: kindText(kind) }), refresh);
    if (done) { report = null; reportField.value = ""; }
  });
  await refresh();
  document.body.dataset.ready = "1";
}

start();
