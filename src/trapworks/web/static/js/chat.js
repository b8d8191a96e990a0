// The game's chat: lines from the server (`chat_history` when the socket opens, then `chat`), a
// field to write one. Every name and text is inserted as text (textContent), never as HTML.
import { t } from "/static/js/i18n.js";
import { clear, el } from "/static/js/dom.js";

const MAX = 300;
const KEEP = 200; // lines kept on the page

export function createChat(root, { send, viewer }) {
  clear(root);
  // The empty list's note is the page's word, in the page's language (app.css shows data-empty).
  const list = el("ol", { class: "chat-lines", "aria-live": "polite", "data-testid": "chat-lines",
                          "data-empty": t("No messages yet.") }, root);
  const form = el("form", { class: "chat-form", "data-testid": "chat-form" }, root);
  el("label", { for: "chat-input", class: "sr-only", text: t("Chat message") }, form);
  const input = el("input", { type: "text", id: "chat-input", maxlength: String(MAX), autocomplete: "off",
                              placeholder: t("Say something"), "data-testid": "chat-input" }, form);
  const button = el("button", { type: "submit", text: t("Send"), "data-testid": "chat-send" }, form);
  const note = el("p", { class: "chat-note small", role: "status", "data-testid": "chat-note" }, root);
  const seen = new Set();

  // The sender's name as sent and its seat (a name alone could be anyone's).
  function who(line) {
    // in the page's language, as the seat list says it ("Alice (Player 1, you)")
    if (line.seat === null || line.seat === undefined) return t("{name} (spectator)", { name: line.name });
    const seat = t("Player {n}", { n: line.seat + 1 });
    const mine = line.seat === viewer ? t("you") : "";
    if (line.name === seat || line.name === `Player ${line.seat + 1}`) return mine ? t("{name} (you)", { name: seat }) : seat;
    return `${line.name} (${[seat, mine].filter(Boolean).join(", ")})`;
  }

  function add(line) {
    if (seen.has(line.id)) return; // a reconnect resends the history
    seen.add(line.id);
    const li = el("li", { "data-chat-id": line.id, "data-seat": line.seat ?? "spectator" }, list);
    el("span", { class: "chat-who", text: `${who(line)}: ` }, li);
    el("span", { class: "chat-text", text: line.text, "data-testid": "chat-text" }, li);
    while (list.children.length > KEEP) list.firstElementChild.remove();
    list.scrollTop = list.scrollHeight;
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
