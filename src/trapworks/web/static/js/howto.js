// "How to play" panels for the lobby: per game, a small drawing and what to click. They describe
// the web page (clicks), not the typed notation of the terminal; the rules themselves live in the
// games (the server decides every rule). The steps come from the game's spec (the catalog's
// `howto`); a game without a drawing here shows its steps alone.
import { el, svg } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";

function drawLastMouseLost(box) {
  const s = svg("svg", { viewBox: "0 0 220 96", role: "img", "aria-label": t("Rows of mice; three raised mice of one row selected, then Press") }, box);
  const rows = [3, 5, 6];
  rows.forEach((n, r) => {
    for (let i = 0; i < n; i++) {
      const picked = r === 1 && i >= 2;
      svg("circle", { cx: 20 + i * 26, cy: 18 + r * 30, r: 10, fill: picked ? "#f59e0b" : "#9ca3af", stroke: "#374151" }, s);
    }
  });
  // The button's word in the page's language: a longer word ("Appuyer") gets a wider button.
  const press = t("Press");
  const w = Math.max(46, 8 * press.length + 6);
  svg("rect", { x: 214 - w, y: 36, width: w, height: 24, rx: 5, fill: "#b45309" }, s);
  svg("text", { x: 214 - w / 2, y: 53, "text-anchor": "middle", fill: "#fff", "font-size": 12, "font-weight": 700 }, s).textContent = press;
}

function drawMouseTrap(box) {
  const s = svg("svg", { viewBox: "0 0 220 96", role: "img", "aria-label": t("A die, your mouse on the track, and the trap") }, box);
  for (let i = 0; i < 7; i++) svg("rect", { x: 8 + i * 22, y: 56, width: 20, height: 20, rx: 3, fill: i === 4 ? "#facc15" : "#c4b5fd", stroke: "#6b7280" }, s);
  svg("circle", { cx: 106, cy: 66, r: 7, fill: "#d62828", stroke: "#111" }, s);
  svg("rect", { x: 16, y: 12, width: 30, height: 30, rx: 6, fill: "#fff", stroke: "#111" }, s);
  for (const [x, y] of [[24, 20], [38, 34], [31, 27], [24, 34], [38, 20]]) svg("circle", { cx: x, cy: y, r: 2.6, fill: "#111" }, s);
  svg("path", { d: "M170 80 L170 30 L200 30 L200 80 Z", fill: "none", stroke: "#f97316", "stroke-width": 3 }, s);
  svg("path", { d: "M160 30 L210 30", stroke: "#111", "stroke-width": 3 }, s);
}

function drawBoobyTrap(box) {
  const s = svg("svg", { viewBox: "0 0 220 96", role: "img", "aria-label": t("The tray of pieces under the spring bar; one piece touched") }, box);
  svg("rect", { x: 6, y: 10, width: 208, height: 80, rx: 6, fill: "#f5f5f4", stroke: "#78716c" }, s);
  svg("rect", { x: 190, y: 12, width: 10, height: 76, fill: "#57534e" }, s);
  const pieces = [[30, 30, 9, "#f4c430"], [56, 60, 13, "#2a9d8f"], [90, 32, 17, "#e63946"], [128, 64, 9, "#f4c430"], [150, 34, 13, "#2a9d8f"], [30, 70, 13, "#2a9d8f"]];
  pieces.forEach(([x, y, r, c], i) => svg("circle", { cx: x, cy: y, r, fill: c, stroke: i === 3 ? "#111" : "#44403c", "stroke-width": i === 3 ? 3 : 1 }, s));
  svg("text", { x: 128, y: 88, "text-anchor": "middle", "font-size": 10, fill: "#15803d" }, s).textContent = t("feels loose");
}

function drawDeadEndDrive(box) {
  const s = svg("svg", { viewBox: "0 0 220 96", role: "img", "aria-label": t("A pawn with a yellow ring and the squares it can reach") }, box);
  for (let x = 0; x < 9; x++) for (let y = 0; y < 4; y++) {
    const reach = y === 2 && x >= 3 && x <= 6;
    svg("rect", { x: 6 + x * 23, y: 4 + y * 23, width: 22, height: 22, fill: reach ? "#bbf7d0" : "#fef3c7", stroke: "#d6d3d1" }, s);
  }
  svg("circle", { cx: 17 + 2 * 23, cy: 15 + 2 * 23, r: 8, fill: "#7c3aed", stroke: "#facc15", "stroke-width": 3 }, s);
  svg("rect", { x: 160, y: 6, width: 50, height: 30, rx: 4, fill: "#fff", stroke: "#2563eb" }, s);
  svg("text", { x: 185, y: 25, "text-anchor": "middle", "font-size": 10, fill: "#1d4ed8" }, s).textContent = t("Stairs");
}

const DRAWINGS = {
  "last-mouse-lost": drawLastMouseLost,
  "mouse-trap": drawMouseTrap,
  "booby-trap": drawBoobyTrap,
  "dead-end-drive": drawDeadEndDrive,
};

// A game's small drawing alone (the home page's game tiles, issue 39); false when it has none.
export function drawGameArt(box, gameId) {
  if (!DRAWINGS[gameId]) return false;
  DRAWINGS[gameId](box);
  return true;
}

export function showHowToPlay(box, gameId, title, steps) {
  if (!steps || !steps.length) return;
  const panel = el("details", { class: "how-to-play card-inset", open: true, "data-how-to-play": gameId }, box);
  el("summary", { text: t("How to play {title}", { title }) }, panel);
  const body = el("div", { class: "how-body" }, panel);
  if (DRAWINGS[gameId]) DRAWINGS[gameId](el("div", { class: "how-art" }, body));
  const ol = el("ol", {}, body);
  for (const step of steps) el("li", { text: step }, ol);
}
