// Mute and report a player where the player meets them (issue 41: the friends page asked for a
// game id and a chat line number): the game's chat (js/chat.js) and a player's profile call these.
//   openReportForm(box, {username, gameId?, chatLine?, onDone?}): a reason picker, a line of
//     details and Send, drawn in `box` (the chat's line menu; a profile's "Report" button);
//   mutePlayer(username): hide their chat lines from you (the server's personal mute).
// Both answer {ok, error}; the form says the outcome itself (role=status).
import { clear, el } from "/static/js/dom.js";
import { me, send } from "/static/js/account-api.js";
import { refusalText, t } from "/static/js/i18n.js";

export const REASONS = ["abuse", "cheating", "spam", "stalling", "other"];

/** The reasons in words, as the friends page's picker names them. @param {string} reason */
export function reasonWords(reason) {
  return { abuse: t("abuse (insults, harassment)"), cheating: t("cheating"), spam: t("spam"), stalling: t("stalling"), other: t("other") }[reason] || reason;
}

/** @type {Promise<any>|null} */
let who = null;
/** The logged-in account's name, or null (asked once a page). @returns {Promise<string|null>} */
export async function loggedIn() {
  if (!who) who = me();
  const r = await who;
  return r && r.account ? r.account.username : null;
}

/** @param {{ok: boolean, error?: string, data?: any}} r */
const words = (r) => (r.ok ? "" : (r.data && r.data.msg ? refusalText(r.data) : r.error || ""));

/** @param {string} username */
export async function mutePlayer(username) {
  const r = await send("POST", "/api/community/mute", { username });
  return { ok: r.ok, error: words(r) };
}

/**
 * A report's form in `box`: reason, details, Send and Cancel.
 * @param {HTMLElement} box
 * @param {{username: string, gameId?: string, chatLine?: number, quote?: string, onDone?: (sent: boolean) => void}} what
 */
export function openReportForm(box, what) {
  clear(box);
  const form = el("form", { class: "report-form", "data-testid": "report-form" }, box);
  el("p", { class: "report-what small", text: what.chatLine ? t("Report this line of {name} to the moderators:", { name: what.username })
    : t("Report {name} to the moderators:", { name: what.username }) }, form);
  if (what.quote) el("blockquote", { class: "report-quote small", text: what.quote }, form);
  const reasonLabel = el("label", {}, form);
  el("span", { text: t("Reason") }, reasonLabel);
  const reason = el("select", { name: "reason", "data-testid": "report-reason" }, reasonLabel);
  for (const r of REASONS) el("option", { value: r, text: reasonWords(r) }, reason);
  const detailsLabel = el("label", {}, form);
  el("span", { text: t("What happened (optional)") }, detailsLabel);
  const details = el("textarea", { name: "details", rows: "2", maxlength: "1000", "data-testid": "report-details" }, detailsLabel);
  const row = el("div", { class: "report-actions" }, form);
  const sendButton = el("button", { type: "submit", class: "primary", text: t("Send the report"), "data-testid": "report-send" }, row);
  el("button", { type: "button", text: t("Cancel"), "data-testid": "report-cancel", onclick: () => { clear(box); if (what.onDone) what.onDone(false); } }, row);
  const status = el("p", { class: "small", role: "status", "data-testid": "report-note" }, form);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    sendButton.disabled = true;
    /** @type {Record<string, any>} */
    const body = { username: what.username, reason: /** @type {HTMLSelectElement} */ (reason).value, details: /** @type {HTMLTextAreaElement} */ (details).value };
    if (what.gameId) body.game_id = what.gameId;
    if (what.chatLine) body.chat_line = what.chatLine;
    const r = await send("POST", "/api/community/report", body);
    sendButton.disabled = false;
    if (!r.ok) { status.textContent = words(r); status.className = "small error"; return; }
    clear(box);
    el("p", { class: "small ok", role: "status", text: t("Thank you: the moderators will read your report."), "data-testid": "report-note" }, box);
    if (what.onDone) what.onDone(true);
  });
  /** @type {HTMLSelectElement} */ (reason).focus();
  return form;
}
