// The rules at hand on the game page (issue 27): a "Rules" dialog with how to play the game in
// plain words (the lobby's guide, js/howto.js), the options in force (each with its label, what it
// means and where it comes from: a rulebook's sentence or the platform's default) and the game's
// move notation for typing. The server decides every rule; this only says them.
import { api, clear, el } from "/static/js/dom.js";
import { showHowToPlay } from "/static/js/howto.js";
import { t } from "/static/js/i18n.js";

function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

function valueWords(opt, value) {
  const choice = (opt.choices || []).find((c) => same(c.value, value));
  if (choice) return t(choice.label);
  if (typeof value === "boolean") return value ? t("on") : t("off");
  if (value === null || value === undefined) return t("(default)");
  return Array.isArray(value) ? value.join(", ") : String(value);
}

export async function drawRules(box, info) {
  clear(box);
  el("h2", { id: "rules-title", text: t("Rules: {game}", { game: t(info.title) }) }, box);
  const r = await api("GET", "/api/catalog");
  const entry = r.ok ? (r.data.games || []).find((g) => g.id === info.game) : null;
  // The how-to steps are the game's own (its spec), served with the catalog.
  showHowToPlay(box, info.game, t(info.title), ((entry && entry.howto) || info.howto || []).map((w) => t(w)));
  el("h3", { text: t("Options in force") }, box);
  const list = el("dl", { class: "rules-options", "data-testid": "rules-options" }, box);
  const schema = entry ? entry.options_schema || [] : [];
  const defaults = entry ? entry.options || {} : {};
  for (const opt of schema) {
    if (!(opt.name in (info.options || {}))) continue;
    const value = info.options[opt.name];
    const changed = !same(opt.name in defaults ? defaults[opt.name] : opt.default, value);
    const dt = el("dt", { "data-option": opt.name }, list);
    el("strong", { text: t("{label}: ", { label: t(opt.label) }) }, dt);
    el("span", { text: valueWords(opt, value) + (changed ? ` ${t("(chosen for this game)")}` : "") }, dt);
    const dd = el("dd", {}, list);
    if (opt.help) el("span", { text: t(opt.help) }, dd);
    if (opt.source) el("span", { class: "source muted", text: ` ${t("Rulebook: {source}", { source: t(opt.source) })}` }, dd);
  }
  if (!schema.length) el("p", { class: "muted", text: t("This game has no options.") }, box);
  if (info.help) {
    el("h3", { text: t("Typing a move") }, box);
    el("p", { class: "small", text: t(info.help) }, box);
  }
}

// The header's Rules button opens the dialog (native <dialog>: it takes the focus, Escape closes).
export function setupRules(button, dialog, getInfo) {
  button.hidden = false;
  button.addEventListener("click", async () => {
    const body = dialog.querySelector(".dialog-body");
    await drawRules(body, getInfo());
    dialog.showModal();
  });
  dialog.querySelector("[data-close]").addEventListener("click", () => dialog.close());
}
