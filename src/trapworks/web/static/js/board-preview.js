// A small live picture of a game's board for the watch page (issue 41, as lichess TV's
// thumbnails): the game's own renderer, read-only, in a small box, fed the spectator's state
// (GET /api/games/{id}?token=<spectator token>: only what a spectator may see). The renderer
// draws off screen at its usual size (with its panels, names and buttons); the card shows a copy
// of its board (the largest picture it drew), scaled to the card. `refresh(moves)` draws the
// position again when the game has moved on.
import { api, clear, el } from "/static/js/dom.js";
import { baseContext, loadRenderer } from "/static/js/host.js";
import { t } from "/static/js/i18n.js";

// The board: the largest picture (svg, canvas) the renderer drew, copied (a canvas as an image).
function copyBoard(from, to) {
  let best = null;
  let area = 0;
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (from.querySelectorAll("svg, canvas"))) {
    if (node.parentElement && node.parentElement.closest("svg")) continue; // an svg inside the board
    const r = node.getBoundingClientRect();
    if (r.width * r.height > area) { area = r.width * r.height; best = node; }
  }
  clear(to);
  if (!best) return;
  if (best instanceof HTMLCanvasElement) {
    el("img", { src: best.toDataURL(), alt: "" }, to);
    return;
  }
  const copy = /** @type {SVGSVGElement} */ (best.cloneNode(true));
  const r = best.getBoundingClientRect();
  if (!copy.getAttribute("viewBox")) copy.setAttribute("viewBox", `0 0 ${Math.round(r.width)} ${Math.round(r.height)}`);
  copy.removeAttribute("width");
  copy.removeAttribute("height");
  copy.removeAttribute("id");
  for (const n of copy.querySelectorAll("[id]")) if (!n.closest("defs")) n.removeAttribute("id");
  copy.setAttribute("focusable", "false");
  to.appendChild(copy);
}

/**
 * @param {HTMLElement} box
 * @param {string} watch the game's spectator link (/g/{id}#t={token})
 */
export function boardPreview(box, watch) {
  const m = /^\/g\/([^#]+)#t=(.+)$/.exec(watch);
  let renderer = null;
  let info = null;
  let drawn = -1;
  let busy = false;
  /** @type {HTMLElement|null} */
  let holder = null;
  /** @type {HTMLElement|null} */
  let shown = null;
  box.classList.add("board-preview");
  box.setAttribute("aria-hidden", "true"); // a picture: the card's words say who plays what
  box.inert = true;

  async function refresh(moves) {
    if (!m || busy || moves === drawn) return;
    busy = true;
    try {
      const r = await api("GET", `/api/games/${encodeURIComponent(m[1])}?token=${encodeURIComponent(m[2])}`);
      if (!r.ok) { clear(box); el("p", { class: "muted small", text: t("No picture of this game right now.") }, box); return; }
      if (!renderer) {
        info = r.data.info;
        const loaded = await loadRenderer(info.renderer);
        clear(box);
        holder = el("div", { class: "board-preview-work" }, box);
        shown = el("div", { class: "board-preview-shown" }, box);
        const ctx = baseContext({ gameId: info.game, mode: "replay", seat: null, players: info.players, options: info.options, fast: true });
        renderer = loaded.create(holder, ctx);
      }
      const state = r.data.state;
      const view = info.static_view && state.view ? { ...info.static_view, ...state.view } : state.view;
      await renderer.update({ ...state, view: { ...view, legal_actions: [] }, log: [], sync: true, can_undo: false, can_hint: false, error: null, truncated: false });
      copyBoard(holder, shown);
      drawn = moves;
      box.dataset.drawn = String(state.ply ?? moves);
    } catch (e) {
      console.error(e);
    } finally {
      busy = false;
    }
  }
  return { refresh };
}
