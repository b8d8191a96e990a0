// Keyboard play on a board (docs/web.md, "Keyboard and screen readers"): a renderer marks each
// thing a player can act on with `actionable`; Tab reaches it, the arrow keys move to the nearest
// actionable thing in that direction, Enter or Space acts on it. Each gets a spoken label.

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

// Arrow keys inside `container`: focus the nearest actionable element whose centre lies in the
// key's direction (distance along the direction plus twice the sideways offset).
export function enableArrowKeys(container) {
  container.addEventListener("keydown", (e) => {
    const dir = DIRS[e.key];
    const from = e.target && e.target.closest && e.target.closest("[data-kbd]");
    if (!dir || !from || !container.contains(from)) return;
    const [x0, y0] = centre(from);
    let best = null;
    let bestScore = Infinity;
    for (const node of container.querySelectorAll("[data-kbd]")) {
      if (node === from) continue;
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
