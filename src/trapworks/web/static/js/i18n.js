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

import { YOU } from "/static/js/you.js";

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

// "{n:souris|souris}" in a translation: the word for the count `n` by the language's plural rule.
const COUNT_WORD = /\{(\w+):([^{}|]*)\|([^{}]*)\}/g;
function fill(text, vars) {
  if (!vars) return text;
  return text
    .replace(COUNT_WORD, (m, k, one, other) => (k in vars ? (plurals.select(Number(vars[k])) === "one" ? one : other) : m))
    .replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

// The message to say instead of `msgid` when the seats named in it are the viewer (js/you.js):
// `isViewer(name)` says whether the part in placeholder `name` is the viewer's own seat. A form
// with more placeholders of the viewer wins ("who winner" before "winner").
function youForm(msgid, isViewer) {
  const forms = YOU[msgid];
  if (!forms) return null;
  let best = null;
  for (const [names, form] of Object.entries(forms)) {
    const list = names.split(" ");
    if (list.every(isViewer) && (!best || list.length > best.n)) best = { n: list.length, form };
  }
  return best && best.form;
}

export function t(msgid, vars) {
  // "{who} rolls..." with {who} = You -> the viewer's own sentence ("You roll...", "Vous faites...").
  const you = vars ? youForm(msgid, (name) => vars[name] === t("You")) : null;
  const id = you && (lang === "en" || typeof messages[you] === "string") ? you : msgid;
  const tr = messages[id];
  return fill(typeof tr === "string" ? tr : id, vars);
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
function part(value, depth, viewer) {
  // A number caught in a sentence is written the language's way ("0.08" -> "0,08").
  if (/^[-+]?\d+\.\d+$/.test(value)) return value.replace(".", DECIMAL);
  if (/^(\{P\d+\}|[-+]?[\d.]+|\s*)$/.test(value)) return value;
  const tr = translate(value, depth, viewer);
  if (tr !== null) return tr;
  if (value.includes(", ")) return value.split(", ").map((v) => part(v, depth, viewer)).join(", ");
  return value;
}

// `viewer`: the seat reference ("{P0}") of the seat looking at the page, or undefined: a sentence
// whose subject (or owner) is that seat takes the viewer's own form (js/you.js).
function translate(text, depth, viewer) {
  const tr = messages[text];
  if (typeof tr === "string") return tr;
  if (depth > 3) return null;
  for (const p of patterns()) {
    const m = p.rx.exec(text);
    if (!m) continue;
    const raw = {};
    const values = {};
    p.names.forEach((name, i) => { raw[name] = m[i + 1]; values[name] = part(m[i + 1], depth + 1, viewer); });
    const you = viewer ? youForm(p.m, (name) => raw[name] === viewer) : null;
    const message = you && typeof messages[you] === "string" ? messages[you] : messages[p.m];
    // "{n:fromage|fromages}": the word for the count caught as {n}, by the language's plural rule.
    return message
      .replace(/\{(\w+):([^{}|]*)\|([^{}]*)\}/g, (whole, k, one, other) => (plurals.select(Number(raw[k])) === "one" ? one : other))
      .replace(PLACE, (whole, k) => (k in values ? values[k] : whole));
  }
  return null;
}

// A game's sentence that names seats "Player 2" (an event's text, an action's label, a hint's
// reason): each seat by `label(seat)`, the name the page gives it elsewhere (the seat list's
// name, "You" for the viewer); in another language through the catalog, in English with the
// seats put into the game's sentence ("player 2's mouse" -> "Bob's mouse", "Player 1 rolls 2
// and lands on 11." -> "You roll 2 and land on 11.").
// The viewer is the seat `label` calls "You" (or `viewer` when given): its sentences take the
// viewer's own form ("Vous faites 4 et 6.", not "Vous fait 4 et 6.").
export function txSeats(text, label, viewer) {
  if (typeof text !== "string") return text;
  // The server's seat label in a text ("it is not your turn: Player 2 (Bob) is to move"; its
  // words in brackets are the seat's name or agent) is one reference too: no game writes brackets
  // right after a seat.
  const refs = text.replace(/\b[Pp]layer (\d+)(?: \([^()]*\))?/g, (whole, n) => `{P${Number(n) - 1}}`);
  let seat = viewer;
  if (seat === undefined || seat === null) {
    for (const m of refs.matchAll(/\{P(\d+)\}/g)) if (label(Number(m[1])) === t("You")) seat = Number(m[1]);
  }
  if (lang === "en") {
    // Mouse Trap says "player 2, player 3 escape to Safe" for any count: one other seat escapes.
    const agreed = refs.replace(/; \{P(\d+)\} escape to Safe/, (m, n) => (Number(n) === seat ? m : m.replace("escape", "escapes")));
    let out = englishSeats(agreed, seat, label);
    // a part of a sentence ("player 1 to roll" after "Turn 3: ") stays in lower case, but for
    // another seat's name ("Bob to roll")
    const lead = /^\{P(\d+)\}/.exec(refs);
    if (/^[a-z]/.test(text) && (!lead || Number(lead[1]) === seat)) out = out.charAt(0).toLowerCase() + out.slice(1);
    return out;
  }
  const tr = refs ? translate(refs, 0, seat === undefined || seat === null ? undefined : `{P${seat}}`) : null;
  const said = tr === null ? refs : tr;
  // The viewer named where no sentence of its own fits: "vous" inside a sentence ("La cage tombe
  // sur vous, Chloé !"), "Vous" at its start.
  const out = said.replace(/\{P(\d+)\}/g, (m, n, offset) => {
    const who = label(Number(n));
    const start = offset === 0 || /[.!?]\s*$/.test(said.slice(0, offset));
    return Number(n) === seat && !start && who === t("You") ? t("you") : who;
  });
  return /^\s*\p{Lu}/u.test(text) ? capitalize(out) : out;
}

// "You takes 2 cheese" -> "You take 2 cheese": the games write the third person for any seat.
const IRREGULAR = { has: "have", is: "are", was: "were", does: "do", goes: "go", owes: "owe", pays: "pay" };
function conjugate(verb) {
  if (IRREGULAR[verb]) return IRREGULAR[verb];
  if (/[^aeiou]ies$/.test(verb)) return verb.slice(0, -3) + "y";
  if (/(ss|sh|ch|x|z)es$/.test(verb)) return verb.slice(0, -2);
  if (/[^s]s$/.test(verb) && verb.length > 2) return verb.slice(0, -1);
  return verb;
}

// An unnamed seat's label with its words in brackets ("Player 2 (easy)", "Player 2 (computer)")
// owns a thing as "Player 2's mouse", not "Player 2 (easy)'s mouse"; a name as it is ("Bob's").
function owner(name) {
  const m = /^(Player \d+) \([^()]*\)$/.exec(name);
  return m ? m[1] : name;
}

const SEAT_REF = /\{P(\d+)\}('s)?/g;
// An English sentence with seats written {P0}, {P1}... (the games' story; an event's text with its
// "Player N" made references): the viewer's own sentence where js/you.js has one; otherwise each
// seat by `name(seat)` ("Bob", "Bob's"), the viewer as "you"/"your" with its verbs agreeing.
export function englishSeats(text, viewer, name) {
  const mine = viewer !== null && viewer !== undefined;
  const own = mine ? youSentence(text, viewer) : null;
  if (own !== null) text = own;
  let out = text.replace(SEAT_REF, (whole, n, possessive, offset) => {
    const seat = Number(n);
    const start = offset === 0 || /[.!?]\s*$/.test(text.slice(0, offset));
    if (seat === viewer) {
      const word = possessive ? "your" : "you";
      return start ? word[0].toUpperCase() + word.slice(1) : word;
    }
    return possessive ? owner(name(seat)) + possessive : name(seat);
  });
  if (own !== null) return capitalize(out);
  out = out.replace(/\b(You|you) ([a-z]+)\b/g, (whole, you, verb) => `${you} ${conjugate(verb)}`);
  // "You roll highest and goes first": a second verb of the same subject agrees too.
  out = out.replace(/\b(You|you) ([a-z]+)([^.;:!?]*?) and ([a-z]+)\b/g,
    (whole, you, verb, middle, second) => `${you} ${verb}${middle} and ${conjugate(second)}`);
  return out;
}

export function tx(text, viewer) {
  if (lang === "en" || typeof text !== "string" || !text) return text;
  const tr = translate(text, 0, viewer);
  return tr === null ? text : tr;
}

// A refusal of the server in this language (issue 37): the reply's message id ("msg", the
// catalog's English template) filled with its values ("args"): a number or a name as is, a seat
// ({seat}) by `name(seat)` (default "Player N"), chance and other words ({msg}) and a refusal
// carried inside this one ({msg, args}) worded in turn. A reply without them (a proxy in front
// of the server): its English sentence.
// A game's own message inside a refusal (why a move is illegal: {msg, args} of the game's
// catalog) is worded by `say` (default: formatMessage for no viewer), the viewer's "you" forms
// included when the page passes its ctx.say.
export function refusalText(reply, name, words = tx, say = null) {
  if (!reply) return "";
  if (typeof reply.msg !== "string") return reply.error || reply.message || "";
  const named = name || ((s) => t("Player {n}", { n: s + 1 }));
  const args = {};
  for (const [k, v] of Object.entries(reply.args || {})) {
    if (v && typeof v === "object" && typeof v.seat === "number") args[k] = named(v.seat);
    else if (v && typeof v === "object" && typeof v.msg === "string" && texts[v.msg]) {
      args[k] = say ? say(v) : formatMessage(v, null, named, true);
    } else if (v && typeof v === "object" && typeof v.msg === "string") args[k] = refusalText(v, named, words, say);
    else if (typeof v === "string") args[k] = words(v); // a game's reason, still sent in English (issue 37)
    else args[k] = v === null || v === undefined ? "" : String(v);
  }
  return t(reply.msg, args);
}

// A sentence starts with a capital ("votre souris va..." -> "Votre souris va...").
export function capitalize(text) {
  return typeof text === "string" ? text.replace(/^(\s*)(\p{Ll})/u, (m, space, c) => space + c.toUpperCase()) : text;
}

// An English sentence of the games' story with the viewer's seat as "{P<viewer>}": the viewer's
// own form from js/you.js where one matches ("{P0} rolls 4 and 6." -> "You roll 4 and 6."), the
// other parts as they came; null where none does.
let youPatterns = null;
export function youSentence(text, viewer) {
  if (!youPatterns) {
    youPatterns = Object.keys(YOU).map((m) => {
      const parts = m.split(/\{(\w+)\}/);
      const names = parts.filter((p, i) => i % 2 === 1);
      return { m, names, rx: new RegExp("^" + parts.map((p, i) => (i % 2 === 0 ? escape(p) : "([\\s\\S]+?)")).join("") + "$") };
    }).sort((a, b) => b.m.replace(PLACE, "").length - a.m.replace(PLACE, "").length);
  }
  const ref = `{P${viewer}}`;
  for (const p of youPatterns) {
    const m = p.rx.exec(text);
    if (!m) continue;
    const raw = {};
    p.names.forEach((name, i) => { raw[name] = m[i + 1]; });
    const you = youForm(p.m, (name) => raw[name] === ref);
    if (!you) continue;
    // A part that is itself a sentence with the viewer ("{P0}'s mouse") takes its own form too.
    const values = {};
    for (const name of p.names) values[name] = raw[name] === ref ? raw[name] : (youSentence(raw[name], viewer) ?? raw[name]);
    return fill(you, values);
  }
  return null;
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
  const value = (key, v) => {
    if (SEAT_ARGS.has(key)) {
      const seats = Array.isArray(v) ? v : [v];
      return join(seats.map((s) => (s === viewer ? messageText("common.you", {}, viewer, name) : name(s))));
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
  // something ("{whom}'s mouse") without the words in brackets of its label (owner()).
  return text.replace(PLACE, (whole, k, offset) => {
    if (!(k in args)) return whole;
    let out = value(k, args[k]);
    if (SEAT_ARGS.has(k) && text.startsWith("'s", offset + whole.length)) out = owner(out);
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

// A seat as every page names it: its player's name, an unnamed computer seat by its agent
// ("Player 2 (random)"), or "Player N". `p`: the seat's entry of a game's players ({name, kind,
// agent}). The game page, its log and the replay page all name seats through this.
export function seatName(seat, p) {
  if (p && p.account) return p.account; // an account's seat: its name (issue 39)
  if (p && p.name) return p.name;
  if (p && p.kind === "agent" && p.agent) return t("Player {n} ({agent})", { n: seat + 1, agent: agentName(p.agent) });
  if (p && p.kind === "agent") return t("Player {n} (computer)", { n: seat + 1 });
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
