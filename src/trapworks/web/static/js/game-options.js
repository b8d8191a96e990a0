// A game's options as controls (the game's schema from /api/catalog): one row per declared
// option, its label, the control the schema asks for, the one-line help and, where it is a
// rulebook difference, the rulebook source. The lobby's new-game dialog, the challenge form and
// the arena form draw them with this one module (issue 41: no JSON to type).
import { clear, el } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";

// Same reading as the CLI's -o key=value for free-text options (lists, mappings): JSON when it
// is JSON, text otherwise; the game checks it and says what is wrong.
function readText(text) {
  const s = text.trim();
  if (s === "") return null;
  try { return JSON.parse(s); } catch (e) { /* not JSON */ }
  return s;
}

export function optionText(value) {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.join(",");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** The values of the option controls drawn in `box`, by option name. @param {HTMLElement} box */
export function optionValues(box) {
  const out = {};
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (box.querySelectorAll("[data-option]"))) {
    const name = input.dataset.option;
    const control = input.dataset.control;
    if (control === "toggle") out[name] = input.checked;
    else if (control === "select") out[name] = JSON.parse(input.value);
    else if (control === "number") out[name] = input.value.trim() === "" ? input.value : Number(input.value);
    else out[name] = readText(input.value);
  }
  return out;
}

/**
 * One option's row.
 * @param {any} opt the option's schema
 * @param {HTMLElement} box
 * @param {{onChange?: () => void, prefix?: string, choices?: (opt: any) => any[], primary?: string[]}} how
 */
function optionRow(opt, box, how) {
  const row = el("div", { class: "option", "data-option-row": opt.name }, box);
  const id = `${how.prefix || "opt-"}${opt.name}`;
  const label = el("label", { for: id, class: "option-label" }, row);
  el("span", { class: "name", text: t(opt.label) }, label);
  let input;
  if (opt.control === "toggle") {
    input = el("input", { type: "checkbox", id, role: "switch" }, label);
    input.checked = !!opt.default;
  } else if (opt.control === "select") {
    input = el("select", { id }, label);
    const choices = how.choices ? how.choices(opt) : opt.choices;
    for (const c of choices) {
      const o = el("option", { value: JSON.stringify(c.value), text: t(c.label) }, input);
      if (JSON.stringify(c.value) === JSON.stringify(opt.default)) o.selected = true;
    }
  } else if (opt.control === "number") {
    input = el("input", { type: "number", id, value: optionText(opt.default), step: opt.step,
                          min: opt.min ?? undefined, max: opt.max ?? undefined }, label);
  } else {
    input = el("input", { type: "text", id, value: optionText(opt.default),
                          placeholder: opt.nullable ? t("(empty: default)") : "" }, label);
  }
  input.dataset.option = opt.name;
  input.dataset.control = opt.control;
  const help = el("p", { class: "option-help muted", id: `${id}-help` }, row);
  help.textContent = t(opt.help);
  if (opt.source) {
    const source = t(opt.source);
    const stop = /[.!?]'?$/.test(source) ? "" : ".";
    el("span", { class: "source", text: ` ${t("Rulebook: {source}", { source })}${stop}` }, help);
  }
  input.setAttribute("aria-describedby", help.id);
  if (how.onChange) {
    input.addEventListener("change", how.onChange);
    input.addEventListener("input", how.onChange);
  }
}

/**
 * Draw a catalog entry's options in `box`: the common ones, the advanced ones behind "More options".
 * `how.choices(opt)`: the choices a select offers (default: all the schema's); a select left with
 * one choice still shows it (the player reads what is fixed).
 * @param {HTMLElement} box
 * @param {any} entry a game of /api/catalog
 * `how.primary`: the names shown up front (default: every option not marked advanced); the rest
 * behind "More options".
 * @param {{onChange?: () => void, prefix?: string, choices?: (opt: any) => any[], primary?: string[]}} [how]
 */
export function renderOptions(box, entry, how = {}) {
  clear(box);
  const schema = entry.options_schema || [];
  const upFront = (o) => (how.primary ? how.primary.includes(o.name) : !o.advanced);
  for (const opt of schema.filter(upFront)) optionRow(opt, box, how);
  const advanced = schema.filter((o) => !upFront(o));
  if (advanced.length) {
    const more = el("details", { class: "more-options" }, box);
    el("summary", { text: t("More options ({n})", { n: advanced.length }) }, more);
    for (const opt of advanced) optionRow(opt, more, how);
  }
}

// A form's game select and the chosen game's options, for an event between two players (the
// arena, a Swiss): a player-count option offers 2 only and starts there; a game with many common
// options (Mouse Trap's rulebook rows) shows the main ones, the rest folded.
/** @param {HTMLSelectElement} select @param {HTMLElement} box @param {any[]} games @param {string} prefix */
export function twoPlayerGameOptions(select, box, games, prefix) {
  for (const g of games) el("option", { value: g.id, text: g.title || g.id }, select);
  const draw = () => {
    const entry = games.find((g) => g.id === select.value);
    if (!entry) return;
    const common = (entry.options_schema || []).filter((o) => !o.advanced);
    renderOptions(box, entry, {
      prefix,
      choices: (opt) => (opt.name === "players" ? opt.choices.filter((c) => c.value === 2 || c.value === null) : opt.choices),
      primary: common.length > 5 ? ["players", "variant", "rules", "first_player"] : undefined,
    });
    const players = box.querySelector("[data-option=players]");
    if (players instanceof HTMLSelectElement && [...players.options].some((o) => o.value === "2")) players.value = "2";
  };
  select.addEventListener("change", draw);
  draw();
}
