// The player strips beside the board (issue 39), as lichess draws them: the other players above
// the board, this page's player below it; each with the name (the account's when there is one),
// the rating when the server sends one, the clock, whether they are here, and whose turn it is.
// Drawn from the same numbers as the Players card (presence.js) and the clock (clock.js).
import { clear, el } from "/static/js/dom.js";
import { t, agentName, seatName } from "/static/js/i18n.js";

/**
 * @typedef {{seat: number, kind?: string, agent?: string|null, name?: string|null, status?: string,
 *            account?: string|null, rating?: number|null, provisional?: boolean, change?: number|null}} Player
 * @typedef {{seat: number, name?: string|null, account?: string|null, rating?: number|null,
 *            provisional?: boolean, change?: number|null}} Person
 * @typedef {{text: string, running: boolean, low: boolean}} ClockTime
 */

const STATUS_WORDS = /** @type {Record<string, () => string>} */ ({
  free: () => t("free seat"), joined: () => t("joined"), online: () => t("online"), away: () => t("away"), left: () => t("left"),
});

/**
 * Who sits at each seat as the server says in every state message (`people`: the names' feature,
 * server/features/names.py, with the accounts' part): the account's name, and in a rated game its rating and,
 * once rated, the change. Kept on the page's players (presence messages carry the chosen names).
 * @param {Player[]} players
 * @param {Person[]|null|undefined} people
 */
export function applyPeople(players, people) {
  for (const person of people || []) {
    const p = players[person.seat];
    if (!p) continue;
    p.account = person.account || null;
    p.rating = person.rating ?? null;
    p.provisional = !!person.provisional;
    p.change = person.change ?? null;
  }
}

const NUMBERS = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0, useGrouping: false });

/** A rating as players read it: "1500", "1500?" while provisional (few rated games). @param {Player} p */
export function ratingLabel(p) {
  return `${NUMBERS.format(Math.round(Number(p.rating)))}${p.provisional ? "?" : ""}`;
}

/** A rating change as lichess shows it: "+12", "−12" (a minus sign), "±0". @param {number} change */
export function changeLabel(change) {
  const n = NUMBERS.format(Math.abs(Math.round(change)));
  return change > 0 ? `+${n}` : change < 0 ? `\u2212${n}` : `±${n}`;
}

/** The words a rating's tooltip says (why a "?"). @param {Player} p */
export function ratingTitle(p) {
  return p.provisional ? t("Provisional rating: it settles after a few more rated games.") : t("Rating");
}

/**
 * The rating and (after a rated game) its change, as spans in `parent`.
 * @param {Player} p @param {HTMLElement} parent @param {string} [where] the test ids' prefix
 */
export function drawRating(p, parent, where = "strip") {
  if (p.rating === null || p.rating === undefined) return;
  el("span", { class: "strip-rating", text: ratingLabel(p), title: ratingTitle(p), "data-testid": `${where}-rating-${p.seat}` }, parent);
  if (p.change !== null && p.change !== undefined) {
    const kind = p.change > 0 ? "up" : p.change < 0 ? "down" : "same";
    el("span", { class: `rating-change ${kind}`, text: changeLabel(p.change), "data-testid": `${where}-change-${p.seat}` }, parent);
  }
}

/** The name a strip shows, as every line names the seat (i18n.js seatName: "Computer (easy)"). */
function stripName(/** @type {Player} */ p, /** @type {Player[]} */ players) {
  return seatName(p.seat, p, undefined, players);
}

/**
 * @param {HTMLElement} top the strip above the board
 * @param {HTMLElement} bottom the strip below the board
 */
export function createStrips(top, bottom) {
  /** @type {Map<number, HTMLElement>} */
  let clocks = new Map();
  /** @type {Map<number, ClockTime>|null} */
  let lastTimes = null;
  return {
    /**
     * @param {Player[]} players
     * @param {{viewer: number|null, toMove: number|null, terminal: boolean, winners?: number[],
     *          extras?: Record<number, {score?: string, detail?: string, title?: string}>|null, shared?: boolean}} state
     *   extras: a game's words per seat (a renderer's stripExtras: Booby Trap's points); shared: one
     *   screen for every seat (hot seat), where whether a seat is here says nothing (no dot)
     */
    draw(players, { viewer, toMove, terminal, winners, extras, shared = false }) {
      clear(top);
      clear(bottom);
      clocks = new Map();
      const mine = players.filter((p) => viewer !== null && p.seat === viewer);
      // Nobody is "you" (a spectator, a shared screen): the first seat sits below, as on a board.
      const below = mine.length ? mine : players.slice(0, 1);
      const above = players.filter((p) => !below.includes(p));
      for (const [box, list] of [[top, above], [bottom, below]]) {
        const strip = /** @type {HTMLElement} */ (box);
        for (const p of /** @type {Player[]} */ (list)) {
          const turn = !terminal && toMove === p.seat;
          const won = terminal && (winners || []).includes(p.seat);
          const item = el("div", { class: "strip-player" + (turn ? " turn" : "") + (won ? " won" : ""),
                                   "data-strip-seat": p.seat, "data-testid": `strip-${p.seat}` }, strip);
          const status = p.kind === "agent" ? "online" : (p.status || "joined");
          if (!shared) {
            el("span", { class: `dot dot-${status}`, title: STATUS_WORDS[status] ? STATUS_WORDS[status]() : status,
                         "aria-hidden": "true" }, item);
          }
          const who = el("span", { class: "strip-who" }, item);
          const me = viewer !== null && p.seat === viewer;
          // your own seat without a name: "You", not a seat number (the strip below the board)
          const unnamedMe = me && !p.account && !p.name && p.kind !== "agent";
          el("span", { class: "strip-name", text: unnamedMe ? t("You") : stripName(p, players), "data-testid": `strip-name-${p.seat}` }, who);
          drawRating(p, who);
          const notes = [];
          // A named computer seat says it is one (an unnamed one's name says it: "Computer (easy)").
          if (p.kind === "agent" && (p.account || p.name)) notes.push(p.agent ? t("computer: {agent}", { agent: agentName(p.agent) }) : t("computer"));
          else if (p.kind !== "agent" && !shared && STATUS_WORDS[status]) notes.push(STATUS_WORDS[status]());
          if (me && !unnamedMe) notes.push(t("you"));
          el("span", { class: "strip-note", text: notes.join(" · ") }, who);
          const extra = extras && extras[p.seat];
          if (extra && extra.score) {
            el("span", { class: "strip-score", text: extra.score, title: extra.title || extra.score, "data-testid": `strip-score-${p.seat}` }, item);
          }
          if (turn) el("span", { class: "strip-turn", text: t("to move") }, item);
          if (won) el("span", { class: "strip-turn", text: t("★ winner") }, item);
          const clock = el("span", { class: "strip-clock", "data-testid": `strip-clock-${p.seat}`, hidden: true }, item);
          clocks.set(p.seat, clock);
          // A game's detail (Booby Trap: what the seat kept) on a line of its own under the name, the
          // strip's whole width: never cut, never run into the points (issue 39).
          if (extra && extra.detail) el("span", { class: "strip-detail", text: extra.detail, "data-testid": `strip-detail-${p.seat}` }, item);
        }
      }
      this.tick(lastTimes);
    },
    /** The clock's numbers, each time the countdown redraws (clock.js). @param {Map<number, ClockTime>|null} times */
    tick(times) {
      lastTimes = times;
      for (const [seat, box] of clocks) {
        const time = times && times.get(seat);
        box.hidden = !time;
        if (!time) continue;
        box.textContent = time.text;
        box.classList.toggle("running", time.running);
        box.classList.toggle("low", time.low);
      }
    },
  };
}
