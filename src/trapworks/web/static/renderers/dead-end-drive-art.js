// 13 Dead End Drive's pictures, drawn in SVG by code: furniture, traps, passages, doors, the
// portraits of the 12 characters and Aunt Agatha, cards, and the traps springing. Everything is
// drawn into a box (x, y, w, h) in the caller's units, so the same drawing serves the board, the
// legend and the cards. No rule lives here: what to draw and where comes from the view.

export const PALETTE = {
  wall: "#3b3430", wallEdge: "#5b524a", wallText: "#f5e9c8",
  floor: "#efe4cc", grid: "#cdbf9f",
  rug: "#4f7565", rugBorder: "#c9a85a", rugLine: "rgba(0,0,0,.16)",
  wood: "#8b5a2b", woodDark: "#5c3a1e", woodLight: "#b98a52",
  fabric: "#6b4a8a", fabricLight: "#8d6cad",
  gold: "#d4a72c", goldLight: "#f2d675", goldDark: "#8a6512",
  red: "#b42a22", redDark: "#6f1712", cream: "#fbf3df",
  stone: "#a8a29e", stoneDark: "#78716c",
  lawn: "#86ad66", gravel: "#d8cfbd", ink: "#1f2328",
  door: "#2f6b3a", doorDark: "#1d4527",
};
export const PAWN_COLOURS = ["#7c3aed", "#db2777", "#ea580c", "#0891b2", "#65a30d", "#b91c1c", "#1d4ed8", "#a16207",
                             "#be185d", "#15803d", "#4338ca", "#0f766e"];
// The labels on the printed traps: blue for the stairs, red for the fireplace, purple for the
// bookcase (seed 004, "Springing the Traps"); the chandelier and statue get gold and orange.
export const TRAP_COLOURS = { stairs: "#2563eb", fireplace: "#dc2626", chandelier: "#ca8a04", statue: "#ea580c",
                              bookcase: "#7e22ce" };

const NS = "http://www.w3.org/2000/svg";
function mk(tag, attrs, parent) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) n.setAttribute(k, v);
  if (parent) parent.appendChild(n);
  return n;
}
// A group whose inner drawing uses a `size` x `size` box, placed at (x, y) scaled to (w, h).
function box(parent, x, y, w, h, size = 24, attrs = {}) {
  return mk("g", { ...attrs, transform: `translate(${x},${y}) scale(${w / size},${h / size})` }, parent);
}
const ROT = { up: 0, right: 90, down: 180, left: 270 };
// Rotate a drawing about the centre of its box so that its "top" points at `side`.
function turned(parent, x, y, w, h, side) {
  return mk("g", { transform: `rotate(${ROT[side] || 0},${x + w / 2},${y + h / 2})` }, parent);
}

// --- furniture (top-down, as on the board) -------------------------------------------------------
function table(p, x, y, w, h) {
  if (Math.abs(w - h) < 1) {  // a small round table
    const r = Math.min(w, h) / 2 - 2;
    mk("circle", { cx: x + w / 2, cy: y + h / 2, r, fill: PALETTE.wood, stroke: PALETTE.woodDark, "stroke-width": 1.5 }, p);
    mk("circle", { cx: x + w / 2, cy: y + h / 2, r: r * 0.55, fill: PALETTE.cream, stroke: "#e5d3a8", "stroke-width": 0.8 }, p);
    mk("circle", { cx: x + w / 2, cy: y + h / 2, r: r * 0.22, fill: "#c2410c" }, p);
    return;
  }
  const long = w >= h;
  mk("rect", { x: x + 2, y: y + 2, width: w - 4, height: h - 4, rx: 4, fill: PALETTE.wood, stroke: PALETTE.woodDark,
               "stroke-width": 1.5 }, p);
  // a runner down the middle, candlesticks on it and plates along both sides
  if (long) {
    mk("rect", { x: x + 6, y: y + h / 2 - 3.5, width: w - 12, height: 7, fill: PALETTE.cream, stroke: "#d9c38e", "stroke-width": 0.6 }, p);
    const n = Math.max(1, Math.round(w / h));
    for (let i = 0; i < n; i++) {
      const cx = x + (i + 0.5) * (w / n);
      mk("circle", { cx, cy: y + 5.5, r: 2.6, fill: "#fff", stroke: "#9ca3af", "stroke-width": 0.6 }, p);
      mk("circle", { cx, cy: y + h - 5.5, r: 2.6, fill: "#fff", stroke: "#9ca3af", "stroke-width": 0.6 }, p);
      if (i % 2 === 1 || n === 1) {
        mk("circle", { cx: x + i * (w / n) + (n === 1 ? w / 2 : 0), cy: y + h / 2, r: 2.2, fill: PALETTE.gold, stroke: PALETTE.goldDark, "stroke-width": 0.5 }, p);
        mk("circle", { cx: x + i * (w / n) + (n === 1 ? w / 2 : 0), cy: y + h / 2, r: 0.9, fill: "#fde047" }, p);
      }
    }
  } else {
    mk("rect", { x: x + w / 2 - 3.5, y: y + 6, width: 7, height: h - 12, fill: PALETTE.cream }, p);
  }
}

function chairShape(p, x, y, w, h, facing, seat, back) {
  const g = turned(p, x, y, w, h, facing === null || facing === undefined ? "down" : facing);
  const s = Math.min(w, h);
  const cx = x + w / 2;
  const cy = y + h / 2;
  // the seat, and the back on the side away from what the chair faces
  mk("rect", { x: cx - s * 0.32, y: cy - s * 0.26, width: s * 0.64, height: s * 0.6, rx: s * 0.1, fill: seat,
               stroke: back, "stroke-width": 1 }, g);
  mk("rect", { x: cx - s * 0.36, y: cy - s * 0.4, width: s * 0.72, height: s * 0.16, rx: s * 0.06, fill: back }, g);
}

function sofa(p, x, y, w, h, cushions) {
  const cx0 = x + 2;
  const cw = w - 4;
  mk("rect", { x: cx0, y: y + 3, width: cw, height: h - 6, rx: 4, fill: PALETTE.fabric, stroke: "#3f2a55", "stroke-width": 1.2 }, p);
  mk("rect", { x: cx0, y: y + 3, width: cw, height: 6, rx: 3, fill: "#4b3166" }, p);                  // back
  mk("rect", { x: cx0, y: y + 3, width: 4, height: h - 6, rx: 2, fill: "#4b3166" }, p);                // arms
  mk("rect", { x: cx0 + cw - 4, y: y + 3, width: 4, height: h - 6, rx: 2, fill: "#4b3166" }, p);
  const inner = cw - 8;
  for (let i = 0; i < cushions; i++) {
    mk("rect", { x: cx0 + 4.5 + (i * inner) / cushions, y: y + 9.5, width: inner / cushions - 1, height: h - 14, rx: 2,
                 fill: PALETTE.fabricLight, stroke: "#5b3f78", "stroke-width": 0.6 }, p);
  }
}

function vase(p, x, y, w, h) {
  const cx = x + w / 2;
  const cy = y + h / 2;
  const s = Math.min(w, h) / 26;
  mk("circle", { cx, cy, r: 9 * s, fill: "#e8eef8", stroke: "#1e3a8a", "stroke-width": 1.4 * s }, p);
  mk("circle", { cx, cy, r: 6 * s, fill: "none", stroke: "#3b82f6", "stroke-width": 1 * s, "stroke-dasharray": `${2 * s} ${1.5 * s}` }, p);
  // flowers in it
  const petals = ["#ec4899", "#f59e0b", "#ec4899", "#a855f7", "#f59e0b"];
  petals.forEach((c, i) => {
    const a = (i / petals.length) * Math.PI * 2;
    mk("circle", { cx: cx + Math.cos(a) * 3.6 * s, cy: cy + Math.sin(a) * 3.6 * s, r: 2.3 * s, fill: c }, p);
  });
  mk("circle", { cx, cy, r: 1.8 * s, fill: "#15803d" }, p);
}

function desk(p, x, y, w, h) {
  mk("rect", { x: x + 1.5, y: y + 3, width: w - 3, height: h - 6, rx: 2, fill: PALETTE.woodDark, stroke: "#2d1b0c", "stroke-width": 1 }, p);
  mk("rect", { x: x + 4, y: y + 5.5, width: w * 0.42, height: h * 0.4, fill: "#fff", stroke: "#9ca3af", "stroke-width": 0.5,
               transform: `rotate(-8,${x + 8},${y + 9})` }, p);                                   // papers
  mk("line", { x1: x + 6, y1: y + 8, x2: x + 12, y2: y + 7.2, stroke: "#6b7280", "stroke-width": 0.6 }, p);
  mk("circle", { cx: x + w - 7, cy: y + h / 2 + 3, r: 2, fill: "#111827" }, p);                      // inkwell
  mk("line", { x1: x + w - 7, y1: y + h / 2 + 2, x2: x + w - 13, y2: y + h - 6, stroke: "#f8fafc", "stroke-width": 1.2 }, p);
  mk("circle", { cx: x + w - 7, cy: y + 8, r: 3.2, fill: "#15803d", stroke: PALETTE.gold, "stroke-width": 0.8 }, p); // lamp
}

function statue(p, x, y, w, h) {
  const g = box(p, x, y, w, h, 26);
  mk("rect", { x: 4, y: 19, width: 18, height: 5, rx: 1, fill: PALETTE.stone, stroke: PALETTE.stoneDark, "stroke-width": 0.8 }, g);
  mk("path", { d: "M9 19 L10.5 11 L8 7.5 M17 19 L15.5 11 L19 6 M10.5 11 Q13 9 15.5 11 L15 19 L11 19 Z",
               fill: PALETTE.gold, stroke: PALETTE.goldDark, "stroke-width": 1, "stroke-linejoin": "round" }, g);
  mk("circle", { cx: 13, cy: 6.5, r: 3, fill: PALETTE.gold, stroke: PALETTE.goldDark, "stroke-width": 0.8 }, g);
  mk("circle", { cx: 12, cy: 5.6, r: 0.9, fill: PALETTE.goldLight }, g);
}

function easel(p, x, y, w, h) {
  const g = box(p, x, y, w, h, 26);
  mk("path", { d: "M8 24 L13 3 L18 24 M13 3 L13 24", stroke: PALETTE.woodDark, "stroke-width": 1.6, fill: "none" }, g);
  mk("rect", { x: 5, y: 6, width: 16, height: 12, fill: "#e0f2fe", stroke: PALETTE.wood, "stroke-width": 1.2 }, g);
  mk("path", { d: "M5.6 17.4 Q10 11 14 14 T20.4 12 L20.4 17.4 Z", fill: "#4d7c0f" }, g);
  mk("circle", { cx: 17, cy: 9.5, r: 1.8, fill: "#f59e0b" }, g);
  mk("rect", { x: 4, y: 18, width: 18, height: 1.6, fill: PALETTE.woodDark }, g);
}

export function drawPiece(p, kind, x, y, w, h, facing) {
  switch (kind) {
    case "table": return table(p, x, y, w, h);
    case "chair": return chairShape(p, x, y, w, h, facing, PALETTE.woodLight, PALETTE.woodDark);
    case "red chair": {
      chairShape(p, x, y, w, h, facing, PALETTE.red, PALETTE.redDark);
      return undefined;
    }
    case "sofa": return sofa(p, x, y, w, h, 1);
    case "large sofa": return sofa(p, x, y, w, h, Math.max(2, Math.round(w / h)));
    case "vase": return vase(p, x, y, w, h);
    case "desk": return desk(p, x, y, w, h);
    case "gold statue": return statue(p, x, y, w, h);
    case "easel": return easel(p, x, y, w, h);
    default:  // a kind this drawing does not know yet: a plain piece, still marked with its kind
      mk("rect", { x: x + 2, y: y + 2, width: w - 4, height: h - 4, rx: 3, fill: PALETTE.wood }, p);
      return undefined;
  }
}

// --- floor features --------------------------------------------------------------------------------
export function passage(p, x, y, w, h) {
  // a trapdoor: planks, a brass ring, and a spiral that says "it takes you elsewhere"
  mk("rect", { x: x + 3, y: y + 3, width: w - 6, height: h - 6, rx: 2, fill: "#6b4423", stroke: "#3b2412", "stroke-width": 1.2 }, p);
  for (let i = 1; i < 3; i++) mk("line", { x1: x + 3 + (i * (w - 6)) / 3, y1: y + 4, x2: x + 3 + (i * (w - 6)) / 3, y2: y + h - 4,
                                          stroke: "#4a2e16", "stroke-width": 0.7 }, p);
  const cx = x + w / 2;
  const cy = y + h / 2;
  const s = Math.min(w, h) / 26;
  mk("path", { d: `M${cx} ${cy} m0 -1.5 a1.5 1.5 0 1 1 -1.5 1.5 a3 3 0 1 1 3 3 a4.5 4.5 0 1 1 -4.5 -4.5`,
               fill: "none", stroke: PALETTE.goldLight, "stroke-width": 1.3 * s }, p);
}

export function doorway(p, x, y, w, h, along) {
  // as on a floor plan: the jambs, and the door swung open with the arc it sweeps
  const g = along === "row" ? p : mk("g", { transform: `rotate(90,${x + w / 2},${y + h / 2})` }, p);
  const r = w - 6;
  mk("rect", { x, y: y + 1, width: 3, height: h - 2, fill: PALETTE.woodDark }, g);
  mk("rect", { x: x + w - 3, y: y + 1, width: 3, height: h - 2, fill: PALETTE.woodDark }, g);
  mk("path", { d: `M${x + 3} ${y + h - 2} A${r} ${r} 0 0 1 ${x + w - 3} ${y + h - 2 - r}`, fill: "none",
               stroke: PALETTE.woodDark, "stroke-width": 0.8, "stroke-dasharray": "2 1.5" }, g);
  mk("line", { x1: x + w - 4, y1: y + h - 2, x2: x + w - 4, y2: y + h - 2 - r, stroke: PALETTE.wood, "stroke-width": 2 }, g);
}

export function frontDoor(p, x, y, w, h) {
  mk("rect", { x: x + 1, y: y + 1, width: w - 2, height: h - 2, rx: 2, fill: PALETTE.door, stroke: PALETTE.gold, "stroke-width": 1.5 }, p);
  mk("line", { x1: x + w / 2, y1: y + 2, x2: x + w / 2, y2: y + h - 2, stroke: PALETTE.doorDark, "stroke-width": 1.2 }, p);
  mk("circle", { cx: x + w / 2 - 3, cy: y + h / 2, r: 1.5, fill: PALETTE.goldLight }, p);
  mk("circle", { cx: x + w / 2 + 3, cy: y + h / 2, r: 1.5, fill: PALETTE.goldLight }, p);
}

// words: the square's two lines ("GAME|OVER"), in the page's language.
export function gameOver(p, x, y, w, h, words = "GAME|OVER") {
  mk("rect", { x, y, width: w, height: h, fill: "#111827", stroke: "#dc2626", "stroke-width": 1.5 }, p);
  const lines = words.split("|").filter((l) => l);
  const rows = lines.length === 1 ? [[lines[0], 3]] : [[lines[0], -1.5], [lines[1], 7.5]];
  for (const [t, dy] of rows) {
    const n = mk("text", { x: x + w / 2, y: y + h / 2 + dy, "text-anchor": "middle", "font-size": 7.5, "font-weight": 800,
                           fill: "#fff", "letter-spacing": 0.3 }, p);
    n.textContent = t;
  }
}

export function rugSwatch(p, x, y, w, h) {
  mk("rect", { x: x + 1, y: y + 1, width: w - 2, height: h - 2, rx: 1, fill: PALETTE.rug, stroke: PALETTE.rugBorder, "stroke-width": 1.6 }, p);
  mk("rect", { x: x + 4, y: y + 4, width: w - 8, height: h - 8, fill: "none", stroke: PALETTE.rugBorder, "stroke-width": 0.6 }, p);
}

export function trackSquare(p, x, y, w, h) {
  mk("rect", { x: x + 1, y: y + 1, width: w - 2, height: h - 2, rx: 3, fill: PALETTE.gravel, stroke: "#a8a08c", "stroke-width": 0.8 }, p);
}

// --- the Detective ---------------------------------------------------------------------------------
export function detective(p, size) {
  // seen from above at a slant: a long coat, a deerstalker hat, a magnifying glass
  const s = size / 26;
  const g = mk("g", { transform: `scale(${s})` }, p);
  mk("ellipse", { cx: 0, cy: 4, rx: 9, ry: 8, fill: "#57534e", stroke: "#1c1917", "stroke-width": 1 }, g);
  mk("circle", { cx: 0, cy: -3, r: 6, fill: "#f1c9a5", stroke: "#1c1917", "stroke-width": 0.8 }, g);
  mk("path", { d: "M-7 -4 Q0 -14 7 -4 Z", fill: "#a16207", stroke: "#422006", "stroke-width": 0.8 }, g);
  mk("path", { d: "M-8.5 -4 L8.5 -4", stroke: "#422006", "stroke-width": 1.4 }, g);
  mk("circle", { cx: 8, cy: 6, r: 3.2, fill: "#bae6fd", stroke: "#1c1917", "stroke-width": 1.2 }, g);
  mk("line", { x1: 5.8, y1: 8.4, x2: 3, y2: 11.5, stroke: "#1c1917", "stroke-width": 1.6 }, g);
  return g;
}

// --- trap furniture and labels ------------------------------------------------------------------------
// The trap's own picture, in a 24-unit box (cards, the legend, the square's plate).
export function trapIcon(p, kind, x, y, w, h) {
  const g = box(p, x, y, w, h, 24);
  switch (kind) {
    case "stairs":
      mk("path", { d: "M3 21 H8 V16 H12 V11 H16 V6 H21 V21 Z", fill: "#c7d2fe", stroke: "#1e3a8a", "stroke-width": 1.4, "stroke-linejoin": "round" }, g);
      break;
    case "fireplace":
      mk("path", { d: "M3 22 V6 H21 V22 H17 V12 Q12 8 7 12 V22 Z", fill: "#9a3412", stroke: "#431407", "stroke-width": 1.2 }, g);
      mk("rect", { x: 2, y: 4, width: 20, height: 3, fill: "#57534e" }, g);
      mk("path", { d: "M9 22 Q8 17 11 14 Q11 17 13 16 Q12 13 14.5 11.5 Q16 16 15 22 Z", fill: "#f97316", stroke: "#facc15", "stroke-width": 0.8 }, g);
      break;
    case "chandelier":
      mk("line", { x1: 12, y1: 1, x2: 12, y2: 8, stroke: "#57534e", "stroke-width": 1.2 }, g);
      mk("path", { d: "M3 11 Q12 20 21 11", fill: "none", stroke: PALETTE.goldDark, "stroke-width": 1.8 }, g);
      mk("ellipse", { cx: 12, cy: 11, rx: 4, ry: 3, fill: PALETTE.gold }, g);
      for (const cx of [3, 8, 16, 21]) {
        mk("rect", { x: cx - 1, y: 6.5, width: 2, height: 4, fill: "#fef3c7" }, g);
        mk("circle", { cx, cy: 5.5, r: 1.3, fill: "#f97316" }, g);
      }
      for (const cx of [7, 12, 17]) mk("path", { d: `M${cx} 15 l1.3 2.5 l-1.3 2.5 l-1.3 -2.5 Z`, fill: "#bae6fd", stroke: "#0369a1", "stroke-width": 0.4 }, g);
      break;
    case "statue":
      statue(g, -1, -1, 26, 26);
      break;
    case "bookcase":
      mk("rect", { x: 3, y: 2, width: 18, height: 20, fill: PALETTE.woodDark, stroke: "#2d1b0c", "stroke-width": 1 }, g);
      for (const [row, cols] of /** @type {Array<[number, string[]]>} */ ([[4, ["#b91c1c", "#1d4ed8", "#15803d", "#ca8a04", "#7e22ce"]], [10.5, ["#0f766e", "#be185d", "#a16207", "#1e3a8a", "#b91c1c"]], [17, ["#15803d", "#ca8a04", "#7e22ce", "#be185d", "#0f766e"]]])) {
        cols.forEach((c, i) => mk("rect", { x: 4.5 + i * 3.1, y: row, width: 2.6, height: 4.6, fill: c }, g));
      }
      break;
    default:
      break;
  }
  return g;
}

// The trap's furniture drawn on the board beside its square (`against`: the wall or furniture it
// stands by), inside a group the caller marks; returns the group the spring animation moves.
export function trapFurniture(p, kind, x, y, cell, against) {
  const g = mk("g", { class: "trap-furniture" }, p);
  if (kind === "bookcase") {
    // the bookcase stands in the wall; its ladder leans out onto the trap square
    const side = against || "up";
    const t = turned(g, x, y, cell, cell, side);
    mk("rect", { x: x - cell * 0.35, y: y - cell * 0.92, width: cell * 1.7, height: cell * 0.9, fill: PALETTE.woodDark,
                 stroke: "#2d1b0c", "stroke-width": 1 }, t);
    const colours = ["#b91c1c", "#1d4ed8", "#15803d", "#ca8a04", "#7e22ce", "#0f766e", "#be185d", "#a16207", "#1e3a8a", "#b91c1c", "#15803d"];
    for (let row = 0; row < 2; row++) {
      colours.forEach((c, i) => mk("rect", { x: x - cell * 0.3 + i * cell * 0.15, y: y - cell * 0.86 + row * cell * 0.42,
                                            width: cell * 0.12, height: cell * 0.36, fill: c }, t));
    }
    const ladder = mk("g", { class: "ladder" }, t);
    for (const dx of [0.28, 0.72]) mk("line", { x1: x + cell * dx, y1: y - cell * 0.1, x2: x + cell * dx, y2: y + cell * 0.85,
                                              stroke: PALETTE.woodLight, "stroke-width": 1.6 }, ladder);
    for (let i = 0; i < 4; i++) mk("line", { x1: x + cell * 0.28, y1: y + cell * (0.1 + i * 0.22), x2: x + cell * 0.72,
                                            y2: y + cell * (0.1 + i * 0.22), stroke: PALETTE.woodLight, "stroke-width": 1.2 }, ladder);
  } else if (kind === "fireplace") {
    // the fireplace is set into the wall: a stone surround, the opening, the fire
    const side = against || "left";
    const t = turned(g, x, y, cell, cell, side);
    mk("rect", { x: x - cell * 0.3, y: y - cell * 0.95, width: cell * 1.6, height: cell * 0.95, fill: "#78716c", stroke: "#44403c", "stroke-width": 1 }, t);
    mk("path", { d: `M${x + cell * 0.08} ${y} V${y - cell * 0.55} Q${x + cell / 2} ${y - cell * 0.85} ${x + cell * 0.92} ${y - cell * 0.55} V${y} Z`,
                 fill: "#1c1917" }, t);
    const fire = mk("g", { class: "fire" }, t);
    mk("path", { d: `M${x + cell * 0.25} ${y} Q${x + cell * 0.2} ${y - cell * 0.3} ${x + cell * 0.4} ${y - cell * 0.45} Q${x + cell * 0.42} ${y - cell * 0.25} ${x + cell * 0.55} ${y - cell * 0.3}
                    Q${x + cell * 0.5} ${y - cell * 0.5} ${x + cell * 0.65} ${y - cell * 0.6} Q${x + cell * 0.85} ${y - cell * 0.3} ${x + cell * 0.75} ${y} Z`,
                 fill: "#f97316", stroke: "#facc15", "stroke-width": 1 }, fire);
    mk("rect", { x: x - cell * 0.05, y: y - 2, width: cell * 1.1, height: 3, fill: "#a8a29e" }, t);    // the hearth
  } else if (kind === "chandelier") {
    const c = mk("g", { class: "chandelier" }, g);
    chandelierTop(c, x + cell / 2, y + cell / 2, cell * 0.46);
  } else if (kind === "stairs") {
    // a flight of stairs rising to the back wall, the blue label at the top
    const t = turned(g, x, y, cell, cell, against || "up");
    for (let i = 0; i < 5; i++) {
      const shade = ["#e7e5e4", "#d6d3d1", "#c4bfbb", "#b0aaa5", "#9c958f"][i];
      mk("rect", { x: x + 2, y: y + 1 + i * ((cell - 2) / 5), width: cell - 4, height: (cell - 2) / 5, fill: shade, stroke: "#57534e", "stroke-width": 0.6 }, t);
    }
    // the blue runner up the middle and the top landing against the wall
    mk("rect", { x: x + cell * 0.34, y: y + 1, width: cell * 0.32, height: cell - 2, fill: "#2563eb", opacity: 0.75 }, t);
    mk("rect", { x: x + 1, y: y - cell * 0.25, width: cell - 2, height: cell * 0.25 + 1, fill: "#f5f5f4", stroke: "#57534e", "stroke-width": 0.6 }, t);
    mk("line", { x1: x + 2, y1: y + 1, x2: x + 2, y2: y + cell - 1, stroke: PALETTE.woodDark, "stroke-width": 2 }, t);
    mk("line", { x1: x + cell - 2, y1: y + 1, x2: x + cell - 2, y2: y + cell - 1, stroke: PALETTE.woodDark, "stroke-width": 2 }, t);
  }
  // the statue's furniture is the gold statue beside its square: the board marks that piece
  return g;
}

export function chandelierTop(p, cx, cy, r) {
  // seen from above: a gold ring, arms with candles, crystal drops
  mk("circle", { cx, cy, r: r * 0.95, fill: "rgba(250,204,21,.12)", stroke: PALETTE.goldDark, "stroke-width": 1 }, p);
  for (let i = 0; i < 6; i++) {
    const a = (i / 6) * Math.PI * 2;
    const ex = cx + Math.cos(a) * r * 0.8;
    const ey = cy + Math.sin(a) * r * 0.8;
    mk("line", { x1: cx, y1: cy, x2: ex, y2: ey, stroke: PALETTE.gold, "stroke-width": 1.3 }, p);
    mk("circle", { cx: ex, cy: ey, r: r * 0.17, fill: "#fef3c7", stroke: PALETTE.goldDark, "stroke-width": 0.6 }, p);
    mk("circle", { cx: ex, cy: ey, r: r * 0.08, fill: "#f97316" }, p);
    const b = a + Math.PI / 6;
    mk("circle", { cx: cx + Math.cos(b) * r * 0.5, cy: cy + Math.sin(b) * r * 0.5, r: r * 0.08, fill: "#bae6fd", stroke: "#0369a1", "stroke-width": 0.4 }, p);
  }
  mk("circle", { cx, cy, r: r * 0.28, fill: PALETTE.gold, stroke: PALETTE.goldDark, "stroke-width": 1 }, p);
}

// --- portraits ---------------------------------------------------------------------------------------
// Each of the 12 characters and Aunt Agatha as a simple bust, in a 60 x 72 box.
const SKIN = { light: "#f5d0b0", mid: "#e0a77c", dark: "#9a6440" };
const FACES = {
  S: { skin: SKIN.light, coat: "#111827", shirt: "#fff", hair: "#9ca3af", style: "bald", extra: "bowtie" },          // Smothers, the butler
  D: { skin: SKIN.light, coat: "#1f2937", shirt: "#fff", hair: "#7c4a1e", style: "bun", extra: "maidcap" },        // Dusty, the maid
  C: { skin: SKIN.mid, coat: "#2563eb", hair: "#9a3412", style: "bob", extra: "pearls" },                            // Charity
  L: { skin: SKIN.light, coat: "#db2777", hair: "#facc15", style: "curls", extra: "lips" },                          // Lulu
  P: { skin: SKIN.mid, coat: "#374151", hair: "#1f2937", style: "short", extra: "chauffeur" },                       // Parker, the chauffeur
  K: { skin: SKIN.dark, coat: "#4d7c0f", hair: "#292524", style: "short", extra: "moustache" },                      // Clay
  B: { skin: SKIN.light, coat: "#1e3a8a", shirt: "#fff", hair: "#a8a29e", style: "short", extra: "tophat" },         // Beauregard III
  Z: { animal: "dog", fur: "#f5f5f4", ear: "#d6d3d1", collar: "#ec4899" },                                            // Spritzy, the poodle
  M: { skin: SKIN.mid, coat: "#6d28d9", hair: "#1c1917", style: "long", extra: "turban" },                           // Madame Astra
  H: { skin: SKIN.mid, coat: "#15803d", hair: "#78716c", style: "short", extra: "strawhat" },                        // Hickory, the gardener
  R: { skin: SKIN.light, coat: "#f8fafc", hair: "#292524", style: "short", extra: "toque" },                          // Pierre, the chef
  O: { animal: "cat", fur: "#f59e0b", ear: "#b45309", collar: "#2563eb" },                                            // Poopsie, the cat
  A: { skin: SKIN.light, coat: "#a78bfa", hair: "#e5e7eb", style: "topbun", extra: "spectacles" },                   // Aunt Agatha
};

export function portrait(p, letter, x, y, w, h, background) {
  const g = box(p, x, y, w, h, 60, { "data-face": letter || "A" });
  const f = FACES[letter || "A"] || FACES.A;
  mk("rect", { x: 0, y: 0, width: 60, height: 72, fill: background || "#fde68a" }, g);
  mk("ellipse", { cx: 30, cy: 30, rx: 26, ry: 30, fill: "rgba(255,255,255,.35)" }, g);
  if (f.animal) return animalFace(g, f), g;
  // shoulders and neck
  mk("path", { d: "M6 72 Q8 52 30 50 Q52 52 54 72 Z", fill: f.coat, stroke: "rgba(0,0,0,.35)", "stroke-width": 1 }, g);
  if (f.shirt) mk("path", { d: "M24 51 L30 64 L36 51 Z", fill: f.shirt }, g);
  mk("rect", { x: 26, y: 42, width: 8, height: 10, fill: f.skin }, g);
  // hair behind the head
  if (f.style === "long") mk("path", { d: "M14 30 Q14 13 30 13 Q46 13 46 30 L48 52 Q41 50 40 42 L20 42 Q19 50 12 52 Z", fill: f.hair }, g);
  if (f.style === "curls") mk("ellipse", { cx: 30, cy: 36, rx: 17, ry: 19, fill: f.hair }, g);
  if (f.style === "bob") mk("path", { d: "M12 40 Q10 14 30 13 Q50 14 48 40 Z", fill: f.hair }, g);
  if (f.style === "bun") mk("circle", { cx: 30, cy: 13, r: 7, fill: f.hair }, g);
  if (f.style === "topbun") mk("circle", { cx: 30, cy: 11, r: 7, fill: f.hair, stroke: "#9ca3af", "stroke-width": 0.8 }, g);
  // the head
  mk("ellipse", { cx: 30, cy: 31, rx: 12.5, ry: 14.5, fill: f.skin, stroke: "rgba(0,0,0,.3)", "stroke-width": 0.8 }, g);
  mk("circle", { cx: 25, cy: 30, r: 1.6, fill: "#1f2937" }, g);
  mk("circle", { cx: 35, cy: 30, r: 1.6, fill: "#1f2937" }, g);
  mk("path", { d: "M30 32 L28.5 37 L31 37", fill: "none", stroke: "rgba(0,0,0,.35)", "stroke-width": 0.9 }, g);
  mk("path", { d: "M26 40 Q30 43 34 40", fill: "none", stroke: "#7f1d1d", "stroke-width": 1.2, "stroke-linecap": "round" }, g);
  // hair on top
  if (f.style === "short") mk("path", { d: "M17.5 28 Q17 15 30 15 Q43 15 42.5 28 Q38 20 30 20 Q22 20 17.5 28 Z", fill: f.hair }, g);
  if (f.style === "bob" || f.style === "long" || f.style === "bun" || f.style === "topbun")
    mk("path", { d: "M17.5 30 Q17 15 30 16 Q43 15 42.5 30 Q40 21 30 21 Q20 21 17.5 30 Z", fill: f.hair }, g);
  if (f.style === "curls") for (const [cx, cy] of [[19, 22], [24, 17], [30, 15.5], [36, 17], [41, 22], [43, 29], [17, 29]])
    mk("circle", { cx, cy, r: 4.2, fill: f.hair, stroke: "#ca8a04", "stroke-width": 0.6 }, g);
  if (f.style === "bald") {
    mk("ellipse", { cx: 18.5, cy: 31, rx: 2.5, ry: 6, fill: f.hair }, g);
    mk("ellipse", { cx: 41.5, cy: 31, rx: 2.5, ry: 6, fill: f.hair }, g);
  }
  faceExtra(g, f);
  return g;
}

function faceExtra(g, f) {
  switch (f.extra) {
    case "bowtie":
      mk("path", { d: "M24 50 L30 53 L24 56 Z M36 50 L30 53 L36 56 Z", fill: "#111827" }, g);
      break;
    case "maidcap":
      mk("path", { d: "M19 19 Q30 8 41 19 Q38 17 35.5 19 Q33 16 30 18.5 Q27 16 24.5 19 Q22 17 19 19 Z", fill: "#fff", stroke: "#9ca3af", "stroke-width": 0.7 }, g);
      mk("path", { d: "M24 51 Q30 56 36 51 L35 55 Q30 58 25 55 Z", fill: "#fff" }, g);
      break;
    case "pearls":
      for (let i = 0; i < 7; i++) mk("circle", { cx: 22 + i * 2.7, cy: 53 + Math.sin((i / 6) * Math.PI) * 3, r: 1.3, fill: "#fff", stroke: "#d1d5db", "stroke-width": 0.3 }, g);
      break;
    case "lips":
      mk("path", { d: "M26.5 40 Q30 38.5 33.5 40 Q30 43 26.5 40 Z", fill: "#dc2626" }, g);
      mk("path", { d: "M22 27 l-2 -1.5 M38 27 l2 -1.5", stroke: "#1f2937", "stroke-width": 0.8 }, g);
      break;
    case "chauffeur":
      mk("path", { d: "M16 22 Q30 8 44 22 Z", fill: "#1f2937" }, g);
      mk("path", { d: "M15 22 Q30 27 45 22 L45 23.5 Q30 29 15 23.5 Z", fill: "#111827" }, g);
      mk("rect", { x: 27, y: 15, width: 6, height: 3, fill: PALETTE.gold }, g);
      for (const cy of [58, 65]) mk("circle", { cx: 30, cy, r: 1.3, fill: PALETTE.gold }, g);
      break;
    case "moustache":
      mk("path", { d: "M23.5 38.5 Q30 34.5 36.5 38.5 Q30 37 23.5 38.5 Z", fill: "#292524", stroke: "#292524", "stroke-width": 1.6 }, g);
      mk("path", { d: "M22 26.5 h6 M32 26.5 h6", stroke: "#292524", "stroke-width": 1.4 }, g);
      break;
    case "tophat":
      mk("rect", { x: 20, y: 3, width: 20, height: 15, fill: "#111827" }, g);
      mk("rect", { x: 20, y: 14, width: 20, height: 2.4, fill: "#b91c1c" }, g);
      mk("rect", { x: 14, y: 17.5, width: 32, height: 3.2, rx: 1.5, fill: "#111827" }, g);
      mk("circle", { cx: 35, cy: 30, r: 3.6, fill: "rgba(186,230,253,.4)", stroke: PALETTE.gold, "stroke-width": 1 }, g);
      mk("path", { d: "M38.5 31 Q42 40 38 48", fill: "none", stroke: PALETTE.gold, "stroke-width": 0.6 }, g);
      mk("path", { d: "M27 51 Q30 58 33 51 Z", fill: "#fff" }, g);
      break;
    case "turban":
      mk("path", { d: "M15 27 Q14 8 30 8 Q46 8 45 27 Q38 19 30 20 Q22 19 15 27 Z", fill: "#7c3aed", stroke: "#4c1d95", "stroke-width": 1 }, g);
      mk("path", { d: "M17 20 Q30 12 43 20", fill: "none", stroke: "#a78bfa", "stroke-width": 1.4 }, g);
      mk("circle", { cx: 30, cy: 16, r: 2.6, fill: "#10b981", stroke: PALETTE.gold, "stroke-width": 1 }, g);
      mk("circle", { cx: 17.5, cy: 38, r: 2.2, fill: "none", stroke: PALETTE.gold, "stroke-width": 1.2 }, g);
      mk("circle", { cx: 42.5, cy: 38, r: 2.2, fill: "none", stroke: PALETTE.gold, "stroke-width": 1.2 }, g);
      break;
    case "strawhat":
      mk("ellipse", { cx: 30, cy: 20, rx: 22, ry: 4.5, fill: "#eab308", stroke: "#a16207", "stroke-width": 1 }, g);
      mk("path", { d: "M20 20 Q21 8 30 8 Q39 8 40 20 Z", fill: "#facc15", stroke: "#a16207", "stroke-width": 1 }, g);
      mk("rect", { x: 20.5, y: 16, width: 19, height: 2.4, fill: "#15803d" }, g);
      mk("path", { d: "M19 35 Q21 49 30 49 Q39 49 41 35 Q36 43 30 43 Q24 43 19 35 Z", fill: "#78716c" }, g);
      mk("path", { d: "M22 58 V72 M38 58 V72", stroke: "#a16207", "stroke-width": 2.5 }, g);
      break;
    case "toque":
      mk("path", { d: "M19 20 Q14 6 22 6 Q24 0 30 2 Q36 0 38 6 Q46 6 41 20 Z", fill: "#fff", stroke: "#d1d5db", "stroke-width": 1 }, g);
      mk("rect", { x: 19, y: 17, width: 22, height: 5, fill: "#fff", stroke: "#d1d5db", "stroke-width": 1 }, g);
      mk("path", { d: "M22 38 Q26 34 30 37 Q34 34 38 38 Q39 35 41 36 M22 38 Q21 35 19 36", fill: "none", stroke: "#292524", "stroke-width": 1.6, "stroke-linecap": "round" }, g);
      mk("path", { d: "M25 53 h10 M25 60 h10", stroke: "#d1d5db", "stroke-width": 1 }, g);
      mk("circle", { cx: 27, cy: 56, r: 1, fill: "#9ca3af" }, g);
      mk("circle", { cx: 33, cy: 56, r: 1, fill: "#9ca3af" }, g);
      break;
    case "spectacles":
      mk("circle", { cx: 25, cy: 30, r: 3.6, fill: "rgba(255,255,255,.25)", stroke: "#78350f", "stroke-width": 1.1 }, g);
      mk("circle", { cx: 35, cy: 30, r: 3.6, fill: "rgba(255,255,255,.25)", stroke: "#78350f", "stroke-width": 1.1 }, g);
      mk("line", { x1: 28.6, y1: 30, x2: 31.4, y2: 30, stroke: "#78350f", "stroke-width": 1 }, g);
      mk("ellipse", { cx: 30, cy: 57, rx: 3.5, ry: 4.5, fill: "#fde68a", stroke: PALETTE.gold, "stroke-width": 1.2 }, g);
      break;
    default:
      break;
  }
}

function animalFace(g, f) {
  mk("path", { d: "M8 72 Q10 54 30 52 Q50 54 52 72 Z", fill: f.fur, stroke: "rgba(0,0,0,.25)", "stroke-width": 1 }, g);
  mk("path", { d: "M18 52 Q30 58 42 52", fill: "none", stroke: f.collar, "stroke-width": 3.5 }, g);
  mk("circle", { cx: 30, cy: 59, r: 2.4, fill: PALETTE.gold }, g);
  if (f.animal === "cat") {
    mk("path", { d: "M14 26 L16 8 L26 18 Z M46 26 L44 8 L34 18 Z", fill: f.fur, stroke: f.ear, "stroke-width": 1.2 }, g);
    mk("path", { d: "M17 21 L17.5 12 L23 18 Z M43 21 L42.5 12 L37 18 Z", fill: "#fda4af" }, g);
    mk("ellipse", { cx: 30, cy: 33, rx: 16, ry: 15, fill: f.fur, stroke: f.ear, "stroke-width": 1 }, g);
    for (const dx of [-4, 0, 4]) mk("path", { d: `M${30 + dx} 19 v5`, stroke: f.ear, "stroke-width": 1.4 }, g);  // tabby stripes
    for (const cx of [24, 36]) {
      mk("ellipse", { cx, cy: 31, rx: 3, ry: 3.4, fill: "#65a30d" }, g);
      mk("ellipse", { cx, cy: 31, rx: 0.9, ry: 3, fill: "#111827" }, g);
    }
    mk("path", { d: "M28 37 h4 l-2 2.4 Z", fill: "#f472b6" }, g);
    mk("path", { d: "M30 39.4 Q28 42 26 41 M30 39.4 Q32 42 34 41", fill: "none", stroke: "#78350f", "stroke-width": 0.8 }, g);
    for (const dy of [-1, 1.5]) {
      mk("line", { x1: 22, y1: 38 + dy, x2: 10, y2: 36 + dy * 2, stroke: "#44403c", "stroke-width": 0.6 }, g);
      mk("line", { x1: 38, y1: 38 + dy, x2: 50, y2: 36 + dy * 2, stroke: "#44403c", "stroke-width": 0.6 }, g);
    }
  } else {  // a poodle: puffs of fur, long ears, a black nose
    for (const [cx, cy, r] of [[30, 14, 8], [22, 17, 6], [38, 17, 6]]) mk("circle", { cx, cy, r, fill: f.fur, stroke: f.ear, "stroke-width": 0.8 }, g);
    mk("ellipse", { cx: 15, cy: 36, rx: 6, ry: 11, fill: f.ear, stroke: "#a8a29e", "stroke-width": 0.8 }, g);
    mk("ellipse", { cx: 45, cy: 36, rx: 6, ry: 11, fill: f.ear, stroke: "#a8a29e", "stroke-width": 0.8 }, g);
    mk("ellipse", { cx: 30, cy: 32, rx: 13, ry: 14, fill: f.fur, stroke: "#a8a29e", "stroke-width": 0.8 }, g);
    mk("ellipse", { cx: 30, cy: 40, rx: 7, ry: 5.5, fill: "#e7e5e4" }, g);
    mk("circle", { cx: 25, cy: 30, r: 1.9, fill: "#111827" }, g);
    mk("circle", { cx: 35, cy: 30, r: 1.9, fill: "#111827" }, g);
    mk("ellipse", { cx: 30, cy: 37.5, rx: 2.6, ry: 2, fill: "#111827" }, g);
    mk("path", { d: "M30 39.5 v2.5 M27 43 Q30 45 33 43", fill: "none", stroke: "#44403c", "stroke-width": 0.9 }, g);
    mk("path", { d: "M26 14 q4 -4 8 0", fill: "none", stroke: "#ec4899", "stroke-width": 2 }, g);  // a bow
  }
}

// --- cards -------------------------------------------------------------------------------------------
export function wildIcon(p, x, y, w, h) {
  const g = box(p, x, y, w, h, 24);
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? 4.5 : 10.5;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    pts.push(`${12 + Math.cos(a) * r},${12.5 + Math.sin(a) * r}`);
  }
  mk("polygon", { points: pts.join(" "), fill: "#facc15", stroke: "#a16207", "stroke-width": 1.2, "stroke-linejoin": "round" }, g);
  const dots = Object.values(TRAP_COLOURS);
  dots.forEach((c, i) => {
    const a = -Math.PI / 2 + (i * 2 * Math.PI) / dots.length;
    mk("circle", { cx: 12 + Math.cos(a) * 4.5, cy: 12.5 + Math.sin(a) * 4.5, r: 1.3, fill: c }, g);
  });
  return g;
}

export function detectiveIcon(p, x, y, w, h) {
  const g = box(p, x, y, w, h, 24);
  mk("path", { d: "M4 11 Q12 0 20 11 Z", fill: "#a16207", stroke: "#422006", "stroke-width": 1 }, g);
  mk("path", { d: "M2 11 H22", stroke: "#422006", "stroke-width": 1.6 }, g);
  mk("circle", { cx: 10, cy: 16.5, r: 4.5, fill: "#e0f2fe", stroke: "#1c1917", "stroke-width": 1.6 }, g);
  mk("line", { x1: 13.3, y1: 19.8, x2: 19, y2: 23, stroke: "#1c1917", "stroke-width": 2.2, "stroke-linecap": "round" }, g);
  return g;
}

// A card face as an inline <svg> (the caller puts it in an HTML element): a trap card names its trap,
// a character card shows the character's portrait in their colour.
/** @param {string} kind @param {{letter?: string, colour?: string, w?: number, h?: number}} [face] */
export function cardFace(kind, { letter, colour, w = 40, h = 54 } = {}) {
  const s = mk("svg", { viewBox: "0 0 40 54", width: w, height: h, "aria-hidden": "true", class: "ded-card-art" });
  const band = kind === "character" ? colour : kind === "wild" ? "#facc15" : kind === "detective" ? "#44403c"
    : TRAP_COLOURS[kind] || "#6b7280";
  mk("rect", { x: 0.75, y: 0.75, width: 38.5, height: 52.5, rx: 4, fill: "#fffdf7", stroke: band, "stroke-width": 1.5 }, s);
  mk("rect", { x: 3, y: 3, width: 34, height: 48, rx: 2.5, fill: "none", stroke: band, "stroke-width": 0.6, opacity: 0.7 }, s);
  if (kind === "character") {
    mk("rect", { x: 5, y: 5, width: 30, height: 36, fill: "#fff" }, s);
    portrait(s, letter, 5, 5, 30, 36, `${colour}55`);
    mk("rect", { x: 3, y: 43, width: 34, height: 8, fill: colour }, s);
  } else if (kind === "wild") {
    wildIcon(s, 5, 8, 30, 30);
  } else if (kind === "detective") {
    detectiveIcon(s, 5, 8, 30, 30);
  } else {
    mk("rect", { x: 3, y: 3, width: 34, height: 7, fill: band }, s);
    trapIcon(s, kind, 6, 12, 28, 28);
  }
  return s;
}

// The back of a trap-pile card (the pile itself).
export function cardBack({ w = 30, h = 40 } = {}) {
  const s = mk("svg", { viewBox: "0 0 30 40", width: w, height: h, "aria-hidden": "true", class: "ded-card-art" });
  mk("rect", { x: 0.75, y: 0.75, width: 28.5, height: 38.5, rx: 3, fill: "#7f1d1d", stroke: "#450a0a", "stroke-width": 1.5 }, s);
  mk("rect", { x: 4, y: 4, width: 22, height: 32, rx: 2, fill: "none", stroke: PALETTE.gold, "stroke-width": 1 }, s);
  const t = mk("text", { x: 15, y: 25, "text-anchor": "middle", "font-size": 12, "font-weight": 800, fill: PALETTE.goldLight }, s);
  t.textContent = "13";
  return s;
}

// --- traps springing ------------------------------------------------------------------------------
// Each trap has its own short animation (about a second), as the printed traps work (seed 004,
// "Springing the Traps"): the pawn is flung down the stairs, flipped into the fireplace, the
// chandelier falls, the statue topples, the bookcase's ladder topples. `sleep` is ctx.sleep; the
// renderer does not call this at all under prefers-reduced-motion.
const DIRS = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };

async function frames(n, ms, sleep, fn) {
  for (let i = 1; i <= n; i++) {
    fn(i / n);
    await sleep(ms);
  }
}
const ease = (t) => t * t * (3 - 2 * t);

function ghostPawn(p, colour, letter, r) {
  const g = mk("g", { class: "sprung-pawn" }, p);
  pawnFace(g, letter, colour, r);
  return g;
}

// A pawn as the character it is (issue 39: small lettered discs told nobody who was who): the
// character's face from its portrait, in a ring of its colour, its letter on a small tab (the
// notation's name for it), centred on (0, 0) with radius r.
let clipSeq = 0;
export function pawnFace(p, letter, colour, r) {
  const id = `ded-pawn-clip-${++clipSeq}`;
  const clip = mk("clipPath", { id }, p);
  mk("circle", { r: r - 1 }, clip);
  mk("circle", { class: "body", r, fill: colour, stroke: "#111", "stroke-width": 1 }, p);
  const face = mk("g", { "clip-path": `url(#${id})` }, p);
  // The portrait's head (about 19 of its 60 units from the centre of the face) fills the disc.
  const s = (r - 1) / 19;
  portrait(face, letter, -30 * s, -33 * s, 60 * s, 72 * s, "#fff7ed");
  mk("circle", { r: r - 1.2, fill: "none", stroke: colour, "stroke-width": 2.6 }, p);
  const tab = mk("g", { transform: `translate(${r * 0.68},${r * 0.68})` }, p);
  mk("circle", { r: r * 0.42, fill: colour, stroke: "#fff", "stroke-width": 0.9 }, tab);
  const t = mk("text", { y: r * 0.17, "text-anchor": "middle", "font-size": r * 0.5, "font-weight": 800, fill: "#fff" }, tab);
  t.textContent = letter;
  return p;
}

function puffs(p, cx, cy, n, colour) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const a = (i / n) * Math.PI * 2;
    out.push({ a, node: mk("circle", { cx, cy, r: 2, fill: colour, opacity: 0.8 }, p) });
  }
  return (t, reach) => {
    for (const { a, node } of out) {
      node.setAttribute("cx", cx + Math.cos(a) * reach * t);
      node.setAttribute("cy", cy + Math.sin(a) * reach * t);
      node.setAttribute("r", 2 + 4 * t);
      node.setAttribute("opacity", String(0.8 * (1 - t)));
    }
  };
}

export async function springTrap(fx, kind, o) {
  const { x, y, cell, against, colour, letter, sleep } = o;
  const cx = x + cell / 2;
  const cy = y + cell / 2;
  const g = mk("g", { "data-trap-anim": kind, class: "trap-anim" }, fx);
  const r = cell / 2 - 2;
  if (kind === "stairs") {
    const ramp = mk("rect", { x: x + 2, y: y + 1, width: cell - 4, height: cell - 2, fill: "#93c5fd", opacity: 0 }, g);
    const pawn = ghostPawn(g, colour, letter, r);
    await frames(6, 45, sleep, (t) => pawn.setAttribute("transform", `translate(${cx},${cy - cell * 0.35 * t}) scale(${1 - 0.2 * t})`));
    await frames(4, 45, sleep, (t) => ramp.setAttribute("opacity", String(0.85 * t)));  // the steps fold flat
    const lines = [0.3, 0.5, 0.7].map((f) => mk("line", { x1: x + cell * f, y1: y, x2: x + cell * f, y2: y, stroke: "#1e3a8a", "stroke-width": 1.2 }, g));
    await frames(12, 45, sleep, (t) => {
      const e = ease(t);
      pawn.setAttribute("transform", `translate(${cx},${cy - cell * 0.35 + cell * 1.3 * e}) rotate(${540 * e}) scale(${0.8 - 0.4 * t})`);
      pawn.setAttribute("opacity", String(1 - t * 0.9));
      for (const l of lines) { l.setAttribute("y1", y + cell * 1.3 * e - 8); l.setAttribute("y2", y + cell * 1.3 * e + 4); }
    });
  } else if (kind === "fireplace") {
    const [dx, dy] = DIRS[against || "left"];
    const hx = cx + dx * cell * 0.9;
    const hy = cy + dy * cell * 0.9;
    const glow = mk("circle", { cx: hx, cy: hy, r: cell * 0.3, fill: "#fb923c", opacity: 0 }, g);
    const flame = mk("path", { d: "M-8 8 Q-10 -2 -3 -8 Q-2 -2 1 -4 Q0 -10 4 -13 Q10 -3 8 8 Z", fill: "#f97316", stroke: "#facc15",
                               "stroke-width": 1.2, transform: `translate(${hx},${hy}) scale(0.6)` }, g);
    const panel = mk("rect", { x: hx - cell * 0.45, y: hy - cell * 0.5, width: cell * 0.9, height: cell, fill: "#78716c", stroke: "#44403c", opacity: 0 }, g);
    const pawn = ghostPawn(g, colour, letter, r);
    await frames(8, 45, sleep, (t) => {
      const e = ease(t);
      pawn.setAttribute("transform", `translate(${cx + (hx - cx) * e},${cy + (hy - cy) * e}) scale(${Math.cos(Math.PI * e) || 0.01},1)`);
      glow.setAttribute("opacity", String(0.5 * t));
    });
    pawn.remove();
    await frames(10, 45, sleep, (t) => {  // the fireplace flips round and the flames roar
      flame.setAttribute("transform", `translate(${hx},${hy}) scale(${0.6 + 1.2 * Math.sin(Math.PI * t)})`);
      panel.setAttribute("opacity", String(0.9 * Math.sin(Math.PI * t)));
      panel.setAttribute("transform", `translate(${hx},0) scale(${Math.cos(Math.PI * 2 * t)},1) translate(${-hx},0)`);
      glow.setAttribute("r", cell * (0.3 + 0.5 * Math.sin(Math.PI * t)));
    });
  } else if (kind === "chandelier") {
    const shadow = mk("ellipse", { cx, cy, rx: cell * 0.5, ry: cell * 0.4, fill: "#000", opacity: 0 }, g);
    const pawn = ghostPawn(g, colour, letter, r);
    pawn.setAttribute("transform", `translate(${cx},${cy})`);
    const falling = mk("g", {}, g);
    chandelierTop(falling, 0, 0, cell * 0.55);
    mk("line", { x1: 0, y1: 0, x2: 0, y2: -cell * 3, stroke: "#57534e", "stroke-width": 1.2 }, falling);
    await frames(12, 45, sleep, (t) => {  // from the ceiling (near, large) down to the floor
      const e = t * t;
      falling.setAttribute("transform", `translate(${cx},${cy - cell * 2.2 * (1 - e)}) scale(${2.2 - 1.2 * e}) rotate(${12 * Math.sin(t * 7)})`);
      shadow.setAttribute("opacity", String(0.35 * e));
    });
    const burst = puffs(g, cx, cy, 10, "#bae6fd");
    await frames(8, 45, sleep, (t) => {
      burst(t, cell * 1.2);
      pawn.setAttribute("transform", `translate(${cx},${cy + 3 * t}) scale(${1 + 0.3 * t},${1 - 0.7 * t})`);
      pawn.setAttribute("opacity", String(1 - t));
    });
  } else if (kind === "statue") {
    // the statue stands on the side `against` says; it topples onto the square
    const [dx, dy] = DIRS[against || "up"];
    const sx = x + dx * cell;
    const sy = y + dy * cell;
    const pawn = ghostPawn(g, colour, letter, r);
    pawn.setAttribute("transform", `translate(${cx},${cy})`);
    // it pivots on the edge of its base nearest the trap square
    const px = sx + cell / 2 - (dx * cell) / 2;
    const py = dy ? sy + cell / 2 - (dy * cell) / 2 : sy + cell * 0.9;
    const tipping = mk("g", {}, g);
    statue(tipping, sx, sy - cell * 0.25, cell, cell * 1.2);
    const turn = dx > 0 ? -90 : 90;
    await frames(12, 45, sleep, (t) => {
      const e = t * t;
      // toppling sideways turns it about its base; toppling toward or away from the viewer (the
      // board is seen from above) folds it over its base line
      tipping.setAttribute("transform", dy ? `translate(0,${py}) scale(1,${Math.cos(Math.PI * e)}) translate(0,${-py})`
        : `rotate(${turn * e},${px},${py})`);
    });
    const dust = puffs(g, cx, cy, 8, "#d6d3d1");
    await frames(8, 45, sleep, (t) => {
      dust(t, cell * 0.9);
      pawn.setAttribute("transform", `translate(${cx},${cy}) scale(${1 + 0.2 * t},${1 - 0.7 * t})`);
      pawn.setAttribute("opacity", String(1 - t));
    });
  } else if (kind === "bookcase") {
    // the pawn climbs the ladder; the ladder topples away from the bookcase, books tumble after
    const [dx, dy] = DIRS[against || "up"];
    const footX = cx - dx * cell * 0.4;
    const footY = cy - dy * cell * 0.4;
    const ladder = mk("g", {}, g);
    for (const off of [-0.22, 0.22]) mk("line", { x1: cx + off * cell * (dy ? 1 : 0), y1: cy + off * cell * (dx ? 1 : 0),
                                                   x2: cx + off * cell * (dy ? 1 : 0) + dx * cell * 0.9, y2: cy + off * cell * (dx ? 1 : 0) + dy * cell * 0.9,
                                                   stroke: PALETTE.woodLight, "stroke-width": 2 }, ladder);
    const pawn = ghostPawn(ladder, colour, letter, r);
    const books = ["#b91c1c", "#1d4ed8", "#15803d", "#ca8a04", "#7e22ce"].map((c, i) =>
      mk("rect", { x: -2, y: -4, width: 4, height: 8, fill: c, transform: `translate(${cx + dx * cell + (i - 2) * 4},${cy + dy * cell})` }, g));
    await frames(7, 45, sleep, (t) => pawn.setAttribute("transform", `translate(${cx + dx * cell * 0.5 * t},${cy + dy * cell * 0.5 * t})`));
    const swing = dy ? 100 * dy : -100 * dx;
    await frames(12, 45, sleep, (t) => {
      const e = t * t;
      ladder.setAttribute("transform", `rotate(${swing * e},${footX},${footY})`);
      books.forEach((b, i) => b.setAttribute("transform", `translate(${cx + (i - 2) * 5 * (1 + t) + dx * cell * (1 - 1.6 * e)},${cy + dy * cell * (1 - 1.6 * e)}) rotate(${(i - 2) * 90 * t})`));
      pawn.setAttribute("opacity", String(1 - 0.8 * t));
    });
    const dust = puffs(g, cx - dx * cell, cy - dy * cell, 8, "#d6d3d1");
    await frames(6, 45, sleep, (t) => dust(t, cell * 0.8));
  }
  g.remove();
}
