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
// The games' typed messages (issue 37) in this language: {id: {context: text | [forms]}}, compiled
// by the server from each game's own catalog (trapworks.core.messages, served with the catalog).
let texts = {};
// The shared words (one enum each, published with the catalog: forfeit reasons...) in this
// language (the server away: the enum's keys).
export let shared = { forfeit_reasons: {} };
try {
  const res = await fetch(`/api/i18n/${lang}`);
  if (res.ok) {
    const body = await res.json();
    messages = body.messages || {};
    if (body.shared) shared = body.shared;
    if (body.texts) texts = body.texts.messages || {};
  }
} catch (e) { /* the server is away: English */ }
const plurals = new Intl.PluralRules(lang);

const PLACE = /\{(\w+)\}/g;
function fill(text, vars) {
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

// A message of the page (or a word the server or a game declares: a title, an option's label) in
// this language; the viewer's own sentences are messages of their own ("You win." beside "{who}
// wins."), chosen where the page knows whose seat it is (issue 37: no sentence is rebuilt).
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

// A seat that owns a thing ("{whom}'s mouse": the catalog's template puts the possessive right
// after the seat's placeholder) is named by `name(seat, OWNER)`: a page's namer gives its short
// form there ("Player 2's mouse", not "Player 2 (easy)'s mouse"; seatName does). Typed: the seat
// and the template decide, no name is parsed.
export const OWNER = Object.freeze({ owner: true });

// A refusal of the server in this language (issue 37): the reply's message id ("msg", the
// catalog's English template) filled with its values ("args"): a number or a name as is, a seat
// ({seat}) by `name(seat)` (default "Player N"), chance and other words ({msg}) and a refusal
// carried inside this one ({msg, args}) worded in turn. A reply without them (a proxy in front
// of the server): its English sentence.
// A game's own message inside a refusal (why a move is illegal: {msg, args} of the game's
// catalog) is worded by `say` (default: formatMessage for no viewer), the viewer's "you" forms
// included when the page passes its ctx.say.
export function refusalText(reply, name, words = t, say = null) {
  if (!reply) return "";
  if (typeof reply.msg !== "string") return reply.error || reply.message || "";
  const named = name || ((s) => t("Player {n}", { n: s + 1 }));
  const args = {};
  for (const [k, v] of Object.entries(reply.args || {})) {
    if (v && typeof v === "object" && typeof v.seat === "number") args[k] = named(v.seat);
    else if (v && typeof v === "object" && typeof v.msg === "string" && texts[v.msg]) {
      args[k] = say ? say(v) : formatMessage(v, null, named, true);
    } else if (v && typeof v === "object" && typeof v.msg === "string") args[k] = refusalText(v, named, words, say);
    else if (typeof v === "string") args[k] = words(v); // a name, a move as typed, a declared word
    else args[k] = v === null || v === undefined ? "" : String(v);
  }
  return t(reply.msg, args);
}

// A sentence starts with a capital ("votre souris va..." -> "Votre souris va...").
export function capitalize(text) {
  return typeof text === "string" ? text.replace(/^(\s*)(\p{Ll})/u, (m, space, c) => space + c.toUpperCase()) : text;
}

// A typed message (an event or a log line: {msg, args}) in this language, by the rules of
// trapworks.core.messages (the same catalog, the same choices): `viewer` is the seat to say "you"
// to (null: nobody), `name(seat)` names the others. A seat argument (who, whom, seats) holds a
// seat number or a list of them; the variant "you:a,b" is used when those arguments are all the
// viewer (the one naming the most wins); a plural message takes the form for args.n; an argument
// {msg, args} is a message itself (a space's name); a list is joined with the language's "and".
const SEAT_ARGS = new Set(["who", "whom", "seats"]);
function variant(msg, args, viewer) {
  const variants = texts[msg];
  if (!variants) return null;
  const holds = (v) => viewer !== null && viewer !== undefined && (Array.isArray(v) ? v.includes(viewer) : v === viewer);
  const mine = new Set([...SEAT_ARGS].filter((a) => a in args && holds(args[a])));
  let best = variants[""];
  let size = -1;
  for (const [ctx, text] of Object.entries(variants)) {
    if (!ctx.startsWith("you:")) continue;
    const names = ctx.slice(4).split(",");
    if (names.every((n) => mine.has(n)) && names.length > size) { best = text; size = names.length; }
  }
  return best === undefined ? null : best;
}

// A plural message's count: a number, or a measurement ({decimal, digits}) counted as written
// ("1.50 marks" in English, "1,50 graduation" in French: CLDR counts the visible decimals).
function countIsOne(n) {
  if (n && typeof n === "object" && "decimal" in n) {
    const digits = n.digits ?? 2;
    return new Intl.PluralRules(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).select(Number(n.decimal)) === "one";
  }
  return plurals.select(Number(n)) === "one";
}

function messageText(msg, args, viewer, name) {
  args = args || {};
  let text = variant(msg, args, viewer);
  if (text === null) return msg; // not in the catalog (the server away): its id, never nothing
  if (Array.isArray(text)) text = text[countIsOne(args.n) || text.length === 1 ? 0 : text.length - 1];
  const join = (parts) => (parts.length === 0 ? messageText("common.nobody", {}, viewer, name)
    : parts.length === 1 ? parts[0]
    : messageText("common.list", { a: parts.slice(0, -1).join(", "), b: parts[parts.length - 1] }, viewer, name));
  const value = (key, v, how = undefined) => {
    if (SEAT_ARGS.has(key)) {
      const seats = Array.isArray(v) ? v : [v];
      return join(seats.map((s) => (s === viewer ? messageText("common.you", {}, viewer, name) : name(s, how))));
    }
    if (v && typeof v === "object" && !Array.isArray(v) && v.msg) return messageText(v.msg, v.args, viewer, name);
    if (v && typeof v === "object" && !Array.isArray(v) && "decimal" in v) {
      const digits = v.digits ?? 2;
      return Number(v.decimal).toLocaleString(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    }
    if (Array.isArray(v)) return join(v.map((x) => value(key, x)));
    if (typeof v === "number" && !Number.isInteger(v)) return v.toLocaleString(lang);
    return String(v);
  };
  // A part that starts a sentence ("...caught! {loot}") starts with a capital. A seat that owns
  // something ("{whom}'s mouse") by its name as an owner (OWNER).
  return text.replace(PLACE, (whole, k, offset) => {
    if (!(k in args)) return whole;
    const out = value(k, args[k], text.startsWith("'s", offset + whole.length) ? OWNER : undefined);
    return /[.!?]\s+$/.test(text.slice(0, offset)) ? capitalize(out) : out;
  });
}

// `part`: the message is a part of a sentence ("Turn 3: {phase}"): its first letter as written.
export function formatMessage(item, viewer, name, part = false) {
  if (!item || !item.msg) return "";
  const named = name || ((s) => t("Player {n}", { n: s + 1 }));
  const text = messageText(item.msg, item.args, viewer, named);
  return part || startsWithAName(item, viewer) ? text : capitalize(text);
}

// A sentence that starts with a player's name keeps the name as its owner wrote it ("jdgB pressed
// 2 mice", not "JdgB pressed..."); "you" and the catalog's own words start with a capital.
function startsWithAName(item, viewer) {
  const args = item.args || {};
  let text = variant(item.msg, args, viewer);
  if (Array.isArray(text)) text = text[0];
  const first = typeof text === "string" ? /^\{(\w+)\}/.exec(text) : null;
  if (!first || !SEAT_ARGS.has(first[1]) || !(first[1] in args)) return false;
  const seats = Array.isArray(args[first[1]]) ? args[first[1]] : [args[first[1]]];
  return seats.length > 0 && seats[0] !== viewer;
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

// A seat as every page names it: its player's name, an unnamed computer seat as "Computer
// (easy)" ("Computer 2 (easy)" where several computers play: numbered among the computers), or
// "Player N" (a guest who gave no name). `p`: the seat's entry of a game's players ({name, kind,
// agent}); `how`: OWNER where the seat owns a thing ("the computer's mouse": no level there);
// `players`: every seat's entry, for the computers' numbers. The game page, its log and the
// replay page all name seats through this.
/** @param {number} seat @param {any} [p] @param {{owner?: boolean}} [how] @param {any[]} [players] */
export function seatName(seat, p, how, players) {
  if (p && p.account) return p.account; // an account's seat: its name (issue 39)
  if (p && p.name) return p.name;
  if (p && p.kind === "agent") {
    const computers = (players || []).map((q, i) => (q && q.kind === "agent" && !q.account && !q.name ? i : -1)).filter((i) => i >= 0);
    const k = computers.length > 1 ? computers.indexOf(seat) + 1 : 0;
    if (how && how.owner) return k ? t("Computer {n}", { n: k }) : t("Computer");
    const level = p.agent ? agentName(p.agent) : "";
    if (k) return level ? t("Computer {n} ({level})", { n: k, level }) : t("Computer {n}", { n: k });
    return level ? t("Computer ({level})", { level }) : t("Computer");
  }
  return t("Player {n}", { n: seat + 1 });
}

// Why a seat left the game (core/forfeit.py's ForfeitReason), in this language.
export function forfeitWords(reason) {
  return (shared.forfeit_reasons || {})[reason] || String(reason).replace(/_/g, " ");
}

export function translatePage(root = document) {
  document.documentElement.lang = lang;
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n]"))) node.textContent = t(node.dataset.i18n || node.textContent.trim());
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n-label]"))) node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n-placeholder]"))) node.setAttribute("placeholder", t(node.dataset.i18nPlaceholder));
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n-title]"))) node.setAttribute("title", t(node.dataset.i18nTitle));
}

// A game's variant in the page's language, from the server's typed parts (issue 39: French pages
// read "regular, 2 players"): {name: the game's own short name of its rules or variant choice (a
// message id of the catalog, declared with the game's option: core/options.py names), players:
// the count} (server/accounts variant_parts). The page knows no game's variants (issue 37).
/** @param {{name?: string|null, value?: string|null, players?: number|null}|null|undefined} parts */
export function variantText(parts) {
  const words = [];
  if (parts && (parts.name || parts.value)) words.push(t(parts.name || parts.value));
  if (parts && parts.players) words.push(tn("{n} player", "{n} players", parts.players));
  return words.length ? words.join(", ") : t("standard");
}

// A moment as every page writes it (one date format across the site): the date and, unless
// `time` is false, the time, in the page's language and the viewer's time zone (Intl); the
// text as it came when it is no date. "29 Nov 2026, 17:53" / "29 nov. 2026, 17:53".
/** @param {string|number|Date|null|undefined} when @param {{time?: boolean}} [how] */
export function dateTime(when, { time = true } = {}) {
  if (when === null || when === undefined || when === "") return "";
  const d = when instanceof Date ? when : new Date(when);
  if (isNaN(d.getTime())) return String(when);
  return d.toLocaleString(lang, time ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" });
}
