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
if (lang !== "en") {
  try {
    const res = await fetch(`/api/i18n/${lang}`);
    if (res.ok) messages = (await res.json()).messages || {};
  } catch (e) { /* the server is away: English */ }
}
const plurals = new Intl.PluralRules(lang);

function fill(text, vars) {
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
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

export function translatePage(root = document) {
  document.documentElement.lang = lang;
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n || node.textContent.trim());
  for (const node of root.querySelectorAll("[data-i18n-label]")) node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  for (const node of root.querySelectorAll("[data-i18n-placeholder]")) node.setAttribute("placeholder", t(node.dataset.i18nPlaceholder));
  for (const node of root.querySelectorAll("[data-i18n-title]")) node.setAttribute("title", t(node.dataset.i18nTitle));
}
