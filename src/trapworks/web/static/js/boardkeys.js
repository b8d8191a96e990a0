// Keyboard play on a board (docs/web.md, "Keyboard and screen readers"): a renderer marks each
// thing a player can act on with `actionable`; the arrow keys move to the nearest actionable thing
// in that direction, Enter or Space acts on it. Each gets a spoken label.
//
// A board is ONE tab stop (a roving tab stop, issue 27): Tab from outside lands on the thing last
// focused on that board (or the nearest to it when it is gone), Tab from inside leaves the board
// for the next control of the page, Shift+Tab for the previous one. The page keeps the focus on the
// board when a move redraws it (`focusMark` before the redraw, `restoreFocus` after).

export function actionable(node, label, onAct, { click = true } = {}) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.setAttribute("data-kbd", "");
  if (click) node.addEventListener("click", onAct);
  node.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    e.preventDefault();
    e.stopPropagation();
    onAct(e);
  });
  return node;
}

const DIRS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

function centre(node) {
  const r = node.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}

function visible(node) {
  if (!node.isConnected) return false;
  if (typeof node.checkVisibility === "function") return node.checkVisibility();
  return node.getClientRects().length > 0;
}

const TABBABLE = "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), "
  + "textarea:not([disabled]), summary, [tabindex]:not([tabindex='-1'])";

// The page's Tab order outside `container` (positive tabindex is not used on our pages).
function tabbablesOutside(container) {
  return [...document.querySelectorAll(TABBABLE)].filter(
    (n) => !container.contains(n) && n.getAttribute("tabindex") !== "-1" && visible(n));
}

const boards = new Map(); // container -> {point: [x, y] of the last focused thing}

// A click focuses what it clicks: only a keyboard's entry is sent back to the last place.
let pointerAt = -1e9;
if (typeof document !== "undefined") {
  document.addEventListener("pointerdown", () => { pointerAt = performance.now(); }, true);
}

function nearest(container, point, onlyTabbable) {
  let best = null;
  let bestD = Infinity;
  for (const node of container.querySelectorAll("[data-kbd]")) {
    if (onlyTabbable && node.getAttribute("tabindex") === "-1") continue;
    if (!visible(node)) continue;
    const [x, y] = centre(node);
    const d = point ? (x - point[0]) ** 2 + (y - point[1]) ** 2 : 0;
    if (d < bestD) { bestD = d; best = node; }
  }
  return best;
}

function roving(container) {
  const state = { point: null };
  boards.set(container, state);
  container.addEventListener("focusin", (e) => {
    const node = e.target.closest && e.target.closest("[data-kbd]");
    if (!node || !container.contains(node)) return;
    const from = e.relatedTarget;
    if ((from && container.contains(from)) || performance.now() - pointerAt < 800) { state.point = centre(node); return; }
    // Entering the board from outside: go to where the player was on it.
    const back = state.point ? nearest(container, state.point, true) : null;
    if (back && back !== node) { back.focus(); return; }
    state.point = centre(node);
  });
  container.addEventListener("keydown", (e) => {
    if (e.key !== "Tab" || e.altKey || e.ctrlKey || e.metaKey) return;
    if (!(e.target.closest && e.target.closest("[data-kbd]"))) return;
    const rest = tabbablesOutside(container);
    const follows = (n) => container.compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING;
    const target = e.shiftKey ? rest.filter((n) => !follows(n)).pop() : rest.find(follows);
    if (!target) return; // the browser's own Tab leaves the page
    e.preventDefault();
    /** @type {HTMLElement} */ (target).focus();
  });
}

// Arrow keys inside `container`: focus the nearest actionable element whose centre lies in the
// key's direction (distance along the direction plus twice the sideways offset). The container is
// also made one roving tab stop (above).
export function enableArrowKeys(container) {
  roving(container);
  container.addEventListener("keydown", (e) => {
    const dir = DIRS[e.key];
    const from = e.target && e.target.closest && e.target.closest("[data-kbd]");
    if (!dir || !from || !container.contains(from)) return;
    const [x0, y0] = centre(from);
    let best = null;
    let bestScore = Infinity;
    for (const node of container.querySelectorAll("[data-kbd]")) {
      if (node === from || !visible(node)) continue;
      const [x, y] = centre(node);
      const along = (x - x0) * dir[0] + (y - y0) * dir[1];
      if (along <= 1) continue;
      const side = Math.abs((x - x0) * dir[1] + (y - y0) * dir[0]);
      const score = along + 2 * side;
      if (score < bestScore) { bestScore = score; best = node; }
    }
    if (best) {
      e.preventDefault();
      best.focus();
    }
  });
}

// Before a redraw: where the focus is, if it is on a board inside `root` (else null).
export function focusMark(root) {
  const active = document.activeElement;
  if (!active || !root.contains(active)) return null;
  const node = active.closest && active.closest("[data-kbd]");
  return { point: centre(node || active), onBoard: !!node };
}

// After a redraw: the focus went to the page (its element was redrawn): put it back on the board,
// on the actionable thing nearest to where it was.
export function restoreFocus(mark, root) {
  if (!mark) return;
  const active = document.activeElement;
  if (active && active !== document.body && active.isConnected && root.contains(active)) return;
  if (active && active !== document.body && active.isConnected) return; // the player moved on
  const node = nearest(root, mark.point, false);
  if (node) {
    for (const [container, state] of boards) if (container.contains(node)) state.point = mark.point;
    node.focus({ preventScroll: true });
  }
}
