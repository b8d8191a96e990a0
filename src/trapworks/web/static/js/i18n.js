// The interface's language (issue 27): English is the source; another language's catalog comes
// from the server as JSON (GET /api/i18n/<lang>, made from src/trapworks/web/i18n/<lang>.po).
// The language follows the browser (navigator.languages) unless chosen in the settings.
//
//   t("Hint")                                  -> "Indice"
//   t("{who} is to move.", { who })            -> placeholders in braces
//   tn("{n} move", "{n} moves", n)             -> plural forms by the language's rules
//
// Static words of a page carry data-i18n (their text), data-i18n-label (aria-label),
// data-i18n-placeholder or data-i18n-title; translatePage() sets them.

const SETTINGS_KEY = "trapworks.settings";
export const LANGUAGES = { en: "English", fr: "Français" };

function chosen() {
  try {
    const s = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") || {};
    if (s.language && s.language !== "system" && LANGUAGES[s.language]) return s.language;
  } catch (e) { /* no storage */ }
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).toLowerCase().split("-")[0];
    if (LANGUAGES[base]) return base;
  }
  return "en";
}

export const lang = chosen();
let messages = {};
// The shared words (one enum each, published with the catalog: forfeit reasons...) in this
// language (the server away: the enum's keys).
export let shared = { forfeit_reasons: {} };
try {
  const res = await fetch(`/api/i18n/${lang}`);
  if (res.ok) {
    const body = await res.json();
    messages = body.messages || {};
    if (body.shared) shared = body.shared;
  }
} catch (e) { /* the server is away: English */ }
const plurals = new Intl.PluralRules(lang);

// "{n:souris|souris}" in a translation: the word for the count `n` by the language's plural rule.
const COUNT_WORD = /\{(\w+):([^{}|]*)\|([^{}]*)\}/g;
function fill(text, vars) {
  if (!vars) return text;
  return text
    .replace(COUNT_WORD, (m, k, one, other) => (k in vars ? (plurals.select(Number(vars[k])) === "one" ? one : other) : m))
    .replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

export function t(msgid, vars) {
  const tr = messages[msgid];
  return fill(typeof tr === "string" ? tr : msgid, vars);
}

export function tn(singular, plural, n, vars) {
  const forms = messages[singular];
  const all = { n, ...(vars || {}) };
  if (Array.isArray(forms)) {
    // gettext's order for English and French: [one, other]; CLDR's "many" (French millions) is "other".
    const index = plurals.select(n) === "one" ? 0 : forms.length - 1;
    return fill(forms[index], all);
  }
  return fill(n === 1 ? singular : plural, all);
}

// Words the page did not write (the server's refusals, the games' story lines and option lists)
// arrive as English text; tx() finds the catalog's message for it, or the message pattern it
// matches ("it is not your turn: {whom} is to move"), and fills the language's pattern with the
// parts it caught, each translated in turn (a list "a, b" item by item). The same rule as
// trapworks.server.i18n.translate. Unknown text stays as it came.
const PLACE = /\{(\w+)\}/g;
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
let compiled = null;
function patterns() {
  if (compiled) return compiled;
  compiled = Object.keys(messages)
    // a pattern with no fixed words ("{label}: ") would take any text: it is a message only
    .filter((m) => typeof messages[m] === "string" && /\{\w+\}/.test(m) && m.replace(PLACE, "").replace(/[\s:]/g, ""))
    .map((m) => {
      const parts = m.split(/\{(\w+)\}/);
      const names = parts.filter((p, i) => i % 2 === 1);
      const rx = new RegExp("^" + parts.map((p, i) => (i % 2 === 0 ? escape(p) : "([\\s\\S]+?)")).join("") + "$");
      return { m, names, rx, fixed: m.replace(PLACE, "").length };
    })
    .sort((a, b) => b.fixed - a.fixed || a.names.length - b.names.length);
  return compiled;
}

const DECIMAL = (1.5).toLocaleString(lang).replace(/\d/g, "") || ".";
function part(value, depth) {
  // A number caught in a sentence is written the language's way ("0.08" -> "0,08").
  if (/^[-+]?\d+\.\d+$/.test(value)) return value.replace(".", DECIMAL);
  if (/^(\{P\d+\}|[-+]?[\d.]+|\s*)$/.test(value)) return value;
  const tr = translate(value, depth);
  if (tr !== null) return tr;
  if (value.includes(", ")) return value.split(", ").map((v) => part(v, depth)).join(", ");
  return value;
}

function translate(text, depth) {
  const tr = messages[text];
  if (typeof tr === "string") return tr;
  if (depth > 3) return null;
  for (const p of patterns()) {
    const m = p.rx.exec(text);
    if (!m) continue;
    const raw = {};
    const values = {};
    p.names.forEach((name, i) => { raw[name] = m[i + 1]; values[name] = part(m[i + 1], depth + 1); });
    // "{n:fromage|fromages}": the word for the count caught as {n}, by the language's plural rule.
    return messages[p.m]
      .replace(/\{(\w+):([^{}|]*)\|([^{}]*)\}/g, (whole, k, one, other) => (plurals.select(Number(raw[k])) === "one" ? one : other))
      .replace(PLACE, (whole, k) => (k in values ? values[k] : whole));
  }
  return null;
}

// A game's sentence that names seats "Player 2" (an event's text): in another language, through
// the catalog with each seat named by `label(seat)`; in English as the game wrote it.
export function txSeats(text, label) {
  if (lang === "en" || typeof text !== "string") return text;
  const refs = text.replace(/\b[Pp]layer (\d+)\b/g, (m, n) => `{P${Number(n) - 1}}`);
  return tx(refs).replace(/\{P(\d+)\}/g, (m, n) => label(Number(n)));
}

export function tx(text) {
  if (lang === "en" || typeof text !== "string" || !text) return text;
  const tr = translate(text, 0);
  return tr === null ? text : tr;
}

// An AI seat's agent in players' words: the levels and the common kinds (the others by their id).
export function agentName(id) {
  const words = {
    easy: t("Easy").toLowerCase(), medium: t("Medium").toLowerCase(), hard: t("Hard").toLowerCase(),
    perfect: t("perfect"), random: t("random"),
    heuristic: t("heuristic"), rollout: t("rollout"), mcts: "MCTS", ismcts: "IS-MCTS",
  };
  return words[id] || id;
}

// Why a seat left the game (core/forfeit.py's ForfeitReason), in this language.
export function forfeitWords(reason) {
  return (shared.forfeit_reasons || {})[reason] || String(reason).replace(/_/g, " ");
}

export function translatePage(root = document) {
  document.documentElement.lang = lang;
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n || node.textContent.trim());
  for (const node of root.querySelectorAll("[data-i18n-label]")) node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  for (const node of root.querySelectorAll("[data-i18n-placeholder]")) node.setAttribute("placeholder", t(node.dataset.i18nPlaceholder));
  for (const node of root.querySelectorAll("[data-i18n-title]")) node.setAttribute("title", t(node.dataset.i18nTitle));
}
