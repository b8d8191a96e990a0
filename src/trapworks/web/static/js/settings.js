// Settings kept in this browser (issue 27): theme (follow the system, light, dark), sound on your
// turn, animation speed and board size. Applied to every page at once (the <html> element's
// data-theme / data-board-size; renderers' animations read the speed through ctx.sleep).
import { clear, el } from "/static/js/dom.js";
import { LANGUAGES, t } from "/static/js/i18n.js";
import "/static/js/menu.js"; // the phone header's menu button, on every page (issue 39)
import { setUpHeaderPrefs } from "/static/js/header-prefs.js";

const KEY = "trapworks.settings";
const SOUND_KEY = "trapworks.sound"; // js/alerts.js reads it too
const DEFAULTS = { theme: "system", speed: "normal", boardSize: "normal", language: "system" };
export const SPEEDS = { normal: 1, fast: 0.4, off: 0 };

export function settings() {
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch (e) { saved = {}; }
  let sound = false;
  try { sound = localStorage.getItem(SOUND_KEY) === "1"; } catch (e) { sound = false; }
  return { ...DEFAULTS, ...saved, sound };
}

function save(next) {
  const { sound, ...rest } = next;
  try {
    localStorage.setItem(KEY, JSON.stringify(rest));
    localStorage.setItem(SOUND_KEY, sound ? "1" : "0");
  } catch (e) { /* private mode: kept for this page only */ }
  window.dispatchEvent(new Event("trapworks:settings")); // a logged-in account keeps them (js/account-api.js)
}

const media = typeof window !== "undefined" && window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

export function applySettings(s = settings()) {
  const root = document.documentElement;
  const dark = s.theme === "dark" || (s.theme === "system" && media && media.matches);
  root.dataset.theme = dark ? "dark" : "light";
  root.dataset.themeChoice = s.theme;
  root.dataset.boardSize = s.boardSize;
  root.dataset.speed = s.speed;
  root.style.colorScheme = dark ? "dark" : "light";
}

if (media) media.addEventListener("change", () => applySettings());

// How long an animation's pause lasts with the chosen speed (host.js's ctx.sleep).
export function scaledMs(ms) {
  return ms * (SPEEDS[settings().speed] ?? 1);
}

function radios(box, legend, name, options, value, onChange) {
  const fs = el("fieldset", { class: "setting" }, box);
  el("legend", { text: legend }, fs);
  for (const [v, text] of options) {
    const label = el("label", { class: "inline" }, fs);
    const input = el("input", { type: "radio", name, value: v, "data-setting": name }, label);
    input.checked = v === value;
    input.addEventListener("change", () => { if (input.checked) onChange(v); });
    label.appendChild(document.createTextNode(` ${text}`));
  }
}

export function drawSettings(box) {
  clear(box);
  el("h2", { id: "settings-title", text: t("Settings") }, box);
  el("p", { class: "muted small", text: t("Kept in this browser, for every game.") }, box);
  const s = settings();
  const change = (patch) => { const next = { ...settings(), ...patch }; save(next); applySettings(next); };
  radios(box, t("Theme"), "theme", [["system", t("Follow the system")], ["light", t("Light")], ["dark", t("Dark")]], s.theme,
         (v) => change({ theme: v }));
  radios(box, t("Animations"), "speed", [["normal", t("Normal")], ["fast", t("Fast")], ["off", t("Off")]], s.speed,
         (v) => change({ speed: v }));
  radios(box, t("Board size"), "boardSize", [["normal", t("Normal")], ["large", t("Large (narrower side panel)")]], s.boardSize,
         (v) => change({ boardSize: v }));
  const fs = el("fieldset", { class: "setting" }, box);
  el("legend", { text: t("Sound") }, fs);
  const label = el("label", { class: "inline" }, fs);
  const input = el("input", { type: "checkbox", "data-setting": "sound" }, label);
  input.checked = s.sound;
  input.addEventListener("change", () => {
    change({ sound: input.checked });
    const page = /** @type {HTMLInputElement|null} */ (document.querySelector("[data-testid=alert-sound]"));
    if (page) page.checked = input.checked;
  });
  label.appendChild(document.createTextNode(` ${t("A sound when it is my turn")}`));
  // The language: the browser's unless chosen; the page reloads in the chosen one.
  radios(box, t("Language"), "language", [["system", t("Follow the browser")], ...Object.entries(LANGUAGES)], s.language,
         (v) => { change({ language: v }); location.reload(); });
}

export function setupSettings(button, dialog) {
  button.hidden = false;
  button.addEventListener("click", () => {
    drawSettings(dialog.querySelector(".dialog-body"));
    dialog.showModal();
  });
  dialog.querySelector("[data-close]").addEventListener("click", () => dialog.close());
}

applySettings();

// The header's language and theme switches (issue 39), on every page but a game's.
const headerStore = { settings, change: (patch) => { const next = { ...settings(), ...patch }; save(next); applySettings(next); } };
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => setUpHeaderPrefs(headerStore));
else setUpHeaderPrefs(headerStore);
