// Loading a game's renderer module and building the `ctx` it receives (see docs/web.md,
// "Renderer interface"). Shared by the game page and the replay page.
import { actionable, enableArrowKeys } from "/static/js/boardkeys.js";
import { el, svg } from "/static/js/dom.js";
import { scaledMs } from "/static/js/settings.js";
import { formatMessage, lang, seatName, t, tn } from "/static/js/i18n.js";

export async function loadRenderer(url) {
  try {
    const mod = await import(url);
    if (typeof mod.default === "function") return { create: mod.default, url };
    console.error(`renderer ${url} has no default export function`);
  } catch (e) {
    console.error(`renderer ${url} failed to load`, e);
  }
  const generic = await import("/static/renderers/generic.js");
  return { create: generic.default, url: "/static/renderers/generic.js", fallback: true };
}

function reducedMotion() {
  return typeof window !== "undefined" && !!window.matchMedia &&
    window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * What a renderer is given (its ctx): the game, the page's seat and players, and the page's helpers.
 * @param {{gameId: string, mode: string, seat: number|null, players: any[], options: any, fast?: boolean,
 *          message?: (text: string, kind?: string) => void, bar?: HTMLElement, side?: HTMLElement}} spec
 */
export function baseContext({ gameId, mode, seat, players, options, fast, message, bar, side }) {
  // `how`: i18n.js OWNER where the seat owns a thing in a sentence ("Player 2's mouse").
  const labelOf = (s, how = undefined) => {
    if (s === -1) return t("Chance");
    if (s === null || s === undefined) return t("Spectator");
    if (mode === "live" && s === seat) return t("You");
    const p = (players || [])[s];
    if (p && how && how.owner) return seatName(s, p, how, players);
    return p ? p.label : t("Player {n}", { n: s + 1 });
  };
  const ctx = {
    gameId, mode, seat, players: players || [], options: options || {},
    el, svg,
    // The page's language (js/i18n.js): a renderer says its words with ctx.t / ctx.tn too.
    lang, t, tn,
    // Where the current decision's controls, your hand and the dice go (the page keeps it on
    // screen), and a panel beside the board for everything else (news, other players' counts).
    bar: bar || el("div"),
    side: side || el("div"),
    actionable, enableArrowKeys,
    message: message || ((text) => console.log(text)),
    // Renderers animate by sleeping between frames; reduced motion skips those pauses like ?fast.
    // The player's animation speed (js/settings.js) scales every pause.
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, fast || reducedMotion() ? 0 : scaledMs(ms))),
    fast: !!fast, // ?fast (tests): sleep does not wait, so a renderer may draw fewer frames
    seatLabel: labelOf,
    send: async () => ({ ok: false, error: "this is a replay: moves cannot be sent" }),
    hint: async () => ({ ok: false, error: "no hints here" }),
    undo: async () => ({ ok: false, error: "no undo here" }),
    request: async () => ({ ok: false, error: "no server data here" }),
    links: {},
    hotSeat: false, // the game page sets it: this browser holds two or more human seats (one screen)
    // An event or a log line (a typed message, {msg, args}) in the page's language, "you" for the
    // seat this page plays (nobody on a shared screen), the others as seatLabel names them. A
    // method (call it as ctx.say(e)): a page that copies this context keeps its own seatLabel.
    // say(item, true): a part of a sentence (its first letter as the catalog writes it).
    say(item, part = false) {
      return formatMessage(item, this.mode === "live" && !this.shared ? this.seat : null, this.seatLabel, part);
    },
  };
  return ctx;
}
