// The player's display name, kept in this browser (localStorage): no account. The lobby and the
// game page offer the same field; the server checks every name (length, control characters,
// another seat's name) and says what is wrong.
import { t } from "/static/js/i18n.js";
import { el } from "/static/js/dom.js";

const KEY = "trapworks.name";
export const NAME_MAX = 24;

export function storedName() {
  try { return localStorage.getItem(KEY) || ""; } catch (e) { return ""; }
}

export function storeName(name) {
  try { localStorage.setItem(KEY, name); } catch (e) { /* private mode: kept for this page only */ }
}

// Trimmed, inner spaces made one (as the server stores it); "" when empty.
export function tidyName(text) {
  return String(text || "").split(/\s+/).filter(Boolean).join(" ");
}

// What the server would refuse, said before asking it (the server checks again).
export function localProblem(name) {
  if (name.length > NAME_MAX) return `a name is at most ${NAME_MAX} characters (this one has ${name.length})`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/.test(name)) {
    return "a name cannot hold control or invisible characters";
  }
  return null;
}

// A "Your name" field with a Save button. `onSave(name)` may return a Promise of an error text
// (the server's refusal), shown under the field; the name is kept in this browser once accepted.
/**
 * @param {HTMLElement} parent
 * @param {{onSave?: (name: string) => any, label?: string, testId?: string}} [opts]
 */
export function nameField(parent, { onSave, label = t("Your name"), testId = "name" } = {}) {
  const form = el("form", { class: "name-field", "data-testid": `${testId}-form` }, parent);
  const id = `${testId}-input`;
  el("label", { for: id, text: label, class: "name-label" }, form);
  const line = el("div", { class: "name-line" }, form);
  const input = el("input", { type: "text", id, maxlength: String(NAME_MAX), autocomplete: "nickname",
                              placeholder: t("a name others see"), value: storedName(), "data-testid": testId }, line);
  el("button", { type: "submit", text: t("Save"), "data-testid": `${testId}-save` }, line);
  const note = el("p", { class: "name-note small", role: "status", "data-testid": `${testId}-note` }, form);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = tidyName(input.value);
    if (!name) { note.textContent = t("Type a name first."); note.className = "name-note small error"; return; }
    const error = localProblem(name) || (onSave ? await onSave(name) : null);
    if (error) { note.textContent = error; note.className = "name-note small error"; return; }
    storeName(name);
    input.value = name;
    note.textContent = t("Saved.");
    note.className = "name-note small muted";
  });
  return { input, note, set(value) { input.value = value || ""; } };
}
