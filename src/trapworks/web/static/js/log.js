// The game's log in players' words. The kernel tells every ply (State.story): whose turn it
// belongs to and its lines as typed messages ({msg, args}, seats as numbers), which i18n.js's
// formatMessage words in the page's language from the game's catalog; this module only lays them
// out: one line per run of plies of the same seat's turn (a die folded into the move it belongs
// to), "you" for the viewer's own seat, players' names for the others, numbered turns. Entries are
// keyed by ply, so a reload or a resent update replaces a line instead of adding one.
// Clicking a line shows the board at that moment, read-only (the seat's own view then).
import { api, clear, el } from "/static/js/dom.js";
import { baseContext, loadRenderer } from "/static/js/host.js";
import { formatMessage, lang, seatName, t } from "/static/js/i18n.js";

// Games whose log shows one short line a turn, the rest on demand under a "+" (issue 39, pagesA's
// pages): a Mouse Trap firing, a Booby Trap touch. Not Last Mouse Lost: a turn there is one press,
// and what follows one (the round's end, the next round's opening) is news to read at once, not a
// stray "+" (the eighth judge).
export const COMPACT_LOG = ["mouse-trap", "booby-trap"];

// A seat as the page names it elsewhere (i18n.js seatName).
function nameOf(seat, players, how = undefined) {
  return seatName(seat, (players || [])[seat], how, players);
}

// One log line ({msg, args}) for `viewer` (null: nobody is "you").
export function sentence(line, viewer, players) {
  const mine = viewer !== null && viewer !== undefined;
  return formatMessage(line, mine ? viewer : null, (seat, how) => nameOf(seat, players, how));
}

function subject(owner, viewer, players) {
  if (owner === null || owner === undefined) return "";
  return owner === viewer ? t("You") : nameOf(owner, players);
}

// The words of each typed line, kept with the line for as long as the viewer, the names and the
// language are the same: the log is redrawn on every update, and wording every past line again
// made a long game's updates cost O(plies) each (a 560-ply Mouse Trap game starved the page for
// seconds per update under load, and its socket was dropped as not reading).
/** @type {WeakMap<object, {key: string, text: string}>} */
const worded = new WeakMap();
function sentenceOnce(line, viewer, players, key) {
  const kept = worded.get(line);
  if (kept && kept.key === key) return kept.text;
  const text = sentence(line, viewer, players);
  if (line && typeof line === "object") worded.set(line, { key, text });
  return text;
}

// Lines of the log: [{plies: [first, ..., last], owner, text}], from entries keyed by ply.
export function logLines(entries, viewer, players) {
  /** @type {{plies: number[], owner: any, parts: string[], items: any[], text?: string}[]} */
  const lines = [];
  const key = JSON.stringify([viewer ?? null, lang, players || []]);
  for (const entry of entries) {
    if (!entry || !entry.story) continue;
    const owner = entry.story.seat;
    const texts = entry.story.lines.map((l) => sentenceOnce(l, viewer, players, key));
    const last = lines[lines.length - 1];
    if (last && last.owner === owner && owner !== null && owner !== undefined) {
      last.plies.push(entry.ply);
      last.parts.push(...texts);
      last.items.push(...entry.story.lines);
    } else {
      lines.push({ plies: [entry.ply], owner, parts: texts, items: [...entry.story.lines] });
    }
  }
  for (const line of lines) {
    const mine = viewer !== null && viewer !== undefined && line.owner === viewer;
    line.text = line.parts.join(" ") || (mine ? t("You moved.") : t("{who} moved.", { who: subject(line.owner, viewer, players) }).trim());
  }
  return lines;
}

// Render the log into `container` (an <ol> or any element). ctx: { seat, players, gid, token,
// gameId, renderer, options } — the last ones let a click show that moment on a board.
// ctx.viewer: the seat the log calls "you" (default ctx.seat; null on a shared screen, where every
// seat is named as in the seat list).
export function renderLog(container, entries, ctx) {
  const viewer = ctx.viewer !== undefined ? ctx.viewer : ctx.seat;
  const lines = logLines(entries, viewer, ctx.players);
  container.classList.add("story-log");
  // Only the lines that changed are drawn again (usually the last one or two): the lines before
  // them are kept, with their listeners and the "+" the player opened.
  const context = JSON.stringify([ctx.seat ?? null, viewer ?? null, ctx.token ?? null, !!ctx.compact]);
  const signs = lines.map((line) => JSON.stringify([context, line.plies, line.owner ?? null, line.parts, line.text]));
  const drawn = /** @type {HTMLElement[]} */ ([...container.children]);
  let same = 0;
  while (same < drawn.length && same < signs.length && drawn[same].dataset.sign === signs[same]) same++;
  if (same === drawn.length && same === signs.length) return lines; // nothing new: the page's layout untouched
  // A redraw (every update) keeps the lines the player opened open.
  const opened = new Set([...container.querySelectorAll("li:has(> .log-more[aria-expanded=true])")]
    .map((li) => /** @type {HTMLElement} */ (li).dataset.ply));
  for (const child of drawn.slice(same)) child.remove();
  lines.forEach((line, i) => {
    if (i < same) return;
    const last = line.plies[line.plies.length - 1];
    const li = el("li", { "data-ply": line.plies[0], "data-last-ply": last, "data-seat": line.owner ?? "", "data-sign": signs[i] }, container);
    if (line.owner === viewer && viewer !== null && viewer !== undefined) li.classList.add("mine");
    el("span", { class: "num", text: `${i + 1}.`, "aria-hidden": "true" }, li);
    // ctx.compact (issue 39): one short line per turn, its first sentence (the move); what followed
    // (cheese taken, a firing's stages) on demand under a small toggle, as lichess keeps its move list short.
    // ctx.headline(items): which of the turn's typed lines says it best (Booby Trap: the removal, not the touch).
    const short = ctx.compact && line.parts.length > 1;
    const picked = short && ctx.headline ? Number(ctx.headline(line.items)) : 0;
    const lead = picked >= 0 && picked < line.parts.length ? picked : 0;
    const button = el("button", { type: "button", class: "line", text: short ? line.parts[lead] : line.text,
                                  title: t("Show the board at this moment") }, li);
    if (short) {
      const more = el("button", { type: "button", class: "log-more", "aria-expanded": "false", "data-testid": "log-more",
                                  "aria-label": t("What followed"), title: t("What followed"), text: "+" }, li);
      const rest = el("div", { class: "log-rest", "data-testid": "log-rest" }, li);
      line.parts.forEach((part, k) => { if (k !== lead) el("p", { text: part }, rest); });
      const show = (/** @type {boolean} */ open) => {
        rest.hidden = !open;
        more.setAttribute("aria-expanded", open ? "true" : "false");
        more.textContent = open ? "−" : "+";
      };
      show(opened.has(String(line.plies[0])));
      more.addEventListener("click", () => show(rest.hidden));
    }
    button.addEventListener("click", () => {
      if (ctx.onPick) ctx.onPick(last + 1); // the replay page moves its own board there
      else showMoment(last + 1, t("Move {n}: {text}", { n: i + 1, text: line.text }), ctx);
    });
  });
  // A review (ctx.onPick) keeps its list where its step is, not at the newest line.
  followNewest(container, !ctx.onPick);
  return lines;
}

// The log follows its newest line unless the player scrolled up to read (then it stays there).
// Whether it was at the bottom is noted when it scrolls, and the scroll made once a frame: reading
// the layout right after each update's lines made Chromium lay the page out again for each (a
// profile of the browser tests: seconds of every game played).
const following = new WeakMap(); // container -> at the bottom when it last scrolled (or never did)
const scrollFrames = new WeakMap(); // container -> its pending animation frame
function followNewest(container, follow = true) {
  // A line scrolled half out at the top fades (app.css) rather than looking cut.
  const markTop = () => { container.dataset.scrolledTop = container.scrollTop > 2 ? "1" : "0"; };
  if (!container.dataset.watchesScroll) {
    container.dataset.watchesScroll = "1";
    container.addEventListener("scroll", () => {
      following.set(container, container.scrollHeight - container.scrollTop - container.clientHeight < 30);
      markTop();
    }, { passive: true });
  }
  if (scrollFrames.has(container)) return;
  scrollFrames.set(container, requestAnimationFrame(() => {
    scrollFrames.delete(container);
    if (follow && following.get(container) !== false) container.scrollTop = container.scrollHeight;
    container.dataset.scrolled = "1";
    markTop();
  }));
}

// The board right after ply `ply`, read-only, as this seat saw it (the server replays the game to
// that point and sends this seat's view only).
async function showMoment(ply, title, ctx) {
  if (!ctx.gid) return;
  const r = await api("GET", `/api/games/${encodeURIComponent(ctx.gid)}/moment/${ply}?token=${encodeURIComponent(ctx.token)}`);
  let dialog = /** @type {HTMLDialogElement|null} */ (document.getElementById("moment"));
  if (!dialog) {
    dialog = el("dialog", { id: "moment", class: "moment", "aria-labelledby": "moment-title" }, document.body);
  }
  clear(dialog);
  const head = el("div", { class: "moment-head" }, dialog);
  el("h2", { id: "moment-title", text: title }, head);
  const close = el("button", { type: "button", text: t("Back to the game"), "data-testid": "moment-close" }, head);
  close.addEventListener("click", () => dialog.close());
  const board = el("div", { class: "moment-board", "data-moment-ply": ply }, dialog);
  if (!r.ok) { el("p", { class: "error", text: r.error }, board); dialog.showModal(); return; }
  const loaded = await loadRenderer(ctx.renderer);
  const rctx = baseContext({ gameId: ctx.gameId, mode: "replay", seat: ctx.seat, players: ctx.players,
                             options: ctx.options, fast: true });
  const renderer = loaded.create(board, rctx);
  dialog.showModal();
  // Read-only: nobody is to move in a past moment, and there is nothing to undo or hint.
  await renderer.update({ ...r.data, to_move: null, can_undo: false, can_hint: false, sync: true, log: [] });
}
