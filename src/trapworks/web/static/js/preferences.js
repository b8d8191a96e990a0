// Preferences for every device (issue 39, account page): this browser's settings (theme,
// language, board size, animations, sound: settings.js; the computer level: home.js) kept with the
// account on the server (PUT /api/account/preferences), and the account's adopted by any browser
// that logs in (GET /api/account/me carries them; account-api.js calls adopt on every page).
import { applySettings, settings } from "/static/js/settings.js";

const KEY = "trapworks.settings"; // settings.js's keys
const SOUND_KEY = "trapworks.sound";
const LEVEL_KEY = "trapworks.level"; // home.js's remembered computer level
const LEVELS = ["easy", "medium", "hard"];
const FIELDS = ["theme", "language", "boardSize", "speed"];

/** This browser's preferences, as the server keeps them. */
export function browserPreferences() {
  const s = settings();
  /** @type {Record<string, any>} */
  const p = { theme: s.theme, language: s.language, boardSize: s.boardSize, speed: s.speed, sound: !!s.sound };
  let level = "";
  try { level = localStorage.getItem(LEVEL_KEY) || ""; } catch (e) { level = ""; }
  if (LEVELS.includes(level)) p.level = level;
  return p;
}

/** The account's preferences, adopted by this browser (the page reloads once for a new language). */
export function adopt(prefs) {
  if (!prefs || typeof prefs !== "object") return;
  const { sound, ...rest } = settings();
  const next = { ...rest };
  let changed = false;
  for (const k of FIELDS) {
    if (prefs[k] !== undefined && prefs[k] !== next[k]) { next[k] = prefs[k]; changed = true; }
  }
  const soundNext = typeof prefs.sound === "boolean" ? prefs.sound : sound;
  try {
    if (changed) localStorage.setItem(KEY, JSON.stringify(next));
    if (soundNext !== sound) localStorage.setItem(SOUND_KEY, soundNext ? "1" : "0");
    if (LEVELS.includes(prefs.level)) localStorage.setItem(LEVEL_KEY, prefs.level);
  } catch (e) { return; } // private mode: this page keeps its own
  if (changed) applySettings({ ...next, sound: soundNext });
  if (prefs.language !== undefined && prefs.language !== rest.language) {
    // the words are chosen at load: once, not in a loop if storage is refused
    const seen = sessionStorage.getItem("trapworks.adoptedLanguage");
    if (seen !== prefs.language) { sessionStorage.setItem("trapworks.adoptedLanguage", prefs.language); location.reload(); }
  }
}
