// Mouse Trap's art, drawn in code (no image files): the board's geometry (the track winding round
// the board, the Loop, the Cheese Wheel), the spaces' pictures, the mice, and the contraption's 24
// parts in place with the poses of the firing chain. It knows no rule: which space builds, which
// part is built and how a firing went come from the view and the events (mouse-trap.js).

export const W = 1000;
export const H = 560;
export const TILE = 56; // a space: 56 units square

// One palette for the board, warm like app.css (accent #b45309, cream background).
export const C = {
  board: "#e6efd3", boardEdge: "#b45309", road: "#d9c48f", roadEdge: "#a16207",
  ink: "#1f2328", muted: "#57534e", plate: "#d6d3d1", plateEdge: "#57534e",
  red: "#dc2626", redDark: "#7f1d1d", blue: "#2563eb", blueDark: "#1e3a8a",
  yellow: "#facc15", yellowDark: "#854d0e", green: "#16a34a", greenDark: "#14532d",
  metal: "#9ca3af", metalDark: "#374151", orange: "#f97316", orangeDark: "#9a3412",
  cheese: "#fbbf24", cheeseDark: "#b45309", jam: "#b91c1c", worked: "#15803d", next: "#d97706",
};
export const MOUSE_COLOURS = ["#d62828", "#1d4ed8", "#2a9d3f", "#e9b308"];
export const MOUSE_NAMES = ["red", "blue", "green", "yellow"];

// Space colours by kind: light fills with dark words (4.5:1 or better).
const KIND_STYLE = {
  build: ["#ede9fe", "#6d28d9", "#4c1d95"], loop_build: ["#ede9fe", "#6d28d9", "#4c1d95"],
  take: ["#fef3c7", "#d97706", "#78350f"], lose: ["#fee2e2", "#b91c1c", "#7f1d1d"],
  steal_most: ["#fee2e2", "#b91c1c", "#7f1d1d"], go_back: ["#dbeafe", "#1d4ed8", "#1e3a8a"],
  move_ahead: ["#dbeafe", "#1d4ed8", "#1e3a8a"], go_to: ["#dbeafe", "#1d4ed8", "#1e3a8a"],
  start: ["#ffffff", "#57534e", "#1f2328"], dog_bone: ["#ffffff", "#57534e", "#1f2328"],
  safe: ["#dcfce7", "#15803d", "#14532d"], turn_crank: ["#ffedd5", "#c2410c", "#7c2d12"],
  cheese_wheel: ["#fde68a", "#b45309", "#78350f"],
};
const IDLE_STYLE = ["#f5f5f4", "#a8a29e", "#57534e"]; // a Build space that does not build for this many players
export function spaceStyle(space) {
  if ((space.kind === "build" || space.kind === "loop_build") && !space.builds) return IDLE_STYLE;
  return KIND_STYLE[space.kind] || KIND_STYLE.start;
}

// --- the track ------------------------------------------------------------------------------------
// As on the printed board: from Start in the bottom-left corner the track runs along the bottom,
// up the right side, back along the top and down the left side, then turns into the Loop; the
// contraption is built in the middle, its cage over the Cheese Wheel.
const L = 34, R = W - 34, T = 34, B = H - 34;
const STEP_X = (R - L) / 15, STEP_Y = (B - T) / 8;
const LOOP_C = { x: 181, y: 374 }, LOOP_R = 66;

export function spaceXY(i) {
  if (i <= 15) return { x: L + i * STEP_X, y: B };
  if (i <= 23) return { x: R, y: B - (i - 15) * STEP_Y };
  if (i <= 38) return { x: R - (i - 23) * STEP_X, y: T };
  if (i <= 43) return { x: L, y: T + (i - 38) * STEP_Y };
  // The Loop: Safe upper left, then round anticlockwise; the Cheese Wheel on top, under the cage.
  const a = ((210 - 60 * (i - 44)) * Math.PI) / 180;
  return { x: LOOP_C.x + Math.cos(a) * LOOP_R, y: LOOP_C.y + Math.sin(a) * LOOP_R };
}

// Where a label of w x h units centred near (x, y) (the "next: 4" tag beside a part) may go: inside
// the felt, clear of the track's road and spaces on every side and of the Loop (a label beside the
// crank at the right edge covered space 21 in English, and more in French).
export const FELT = { left: L + 33 + 4, right: R - 33 - 4, top: T + 33 + 4, bottom: B - 33 - 4 };
const LOOP_CLEAR = LOOP_R + 42; // the Loop's road and its spaces' corners
export function labelCentre(x, y, w, h = 20) {
  const cx = Math.min(Math.max(x, FELT.left + w / 2), FELT.right - w / 2);
  let cy = Math.min(Math.max(y, FELT.top + h / 2), FELT.bottom - h / 2);
  // Over the Loop: lifted above it (the contraption is built above and right of it).
  const nx = Math.min(Math.max(LOOP_C.x, cx - w / 2), cx + w / 2), ny = Math.min(Math.max(LOOP_C.y, cy - h / 2), cy + h / 2);
  if (Math.hypot(nx - LOOP_C.x, ny - LOOP_C.y) < LOOP_CLEAR) cy = Math.min(cy, LOOP_C.y - LOOP_CLEAR - h / 2);
  return [cx, cy];
}

export function roadPath() {
  const pts = [];
  for (let i = 0; i <= 43; i++) pts.push(spaceXY(i));
  const track = "M" + pts.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" L");
  const s = spaceXY(44);
  return { track: `${track} L${s.x.toFixed(1)},${s.y.toFixed(1)}`, loop: LOOP_C, loopR: LOOP_R };
}

// Words on a space (the full text is its title and label): two short lines at most.
// The words on a space, in the page's language when the renderer passes its t (js/i18n.js).
export function spaceWords(space, t = (m, v) => m.replace(/\{(\w+)\}/g, (x, k) => (v && k in v ? v[k] : x))) {
  const text = space.text;
  switch (space.kind) {
    case "start": return [t("Start")];
    case "build": return [t("Build"), text.replace("Build ", "")];
    case "loop_build": return [t("Build"), t("2 parts")];
    case "take": return [t("Take"), `${space.amount}`];
    case "lose": return space.amount === 3 ? [t("Napping"), t("lose 3")] : [t("Lose"), `${space.amount}`];
    case "steal_most": return [t("Take {n}", { n: space.amount }), t("richest")];
    case "go_back": return [t("Back"), `${space.amount}`];
    case "move_ahead": return [t("Ahead"), `${space.amount}`];
    case "go_to":
      if (space.target === 0) return [t("Fat cat"), t("to Start")];
      if (space.target === 21) return [t("Mad dog"), t("to 21")];
      return [t("To the"), t("Wheel")];
    case "dog_bone": return [t("Dog"), t("Bone")];
    case "safe": return [t("Safe")];
    case "turn_crank": return t("Turn|Crank").split("|"); // one message: "Turn" alone reads as a game turn
    case "cheese_wheel": return [t("Cheese"), t("Wheel")];
    default: return [text];
  }
}

// --- small pictures (24 x 24, origin top left) ---------------------------------------------------
function wedge(s, g, fill = C.cheese, edge = C.cheeseDark) {
  s("path", { d: "M2,20 L22,20 L22,8 Z", fill, stroke: edge, "stroke-width": 1.5, "stroke-linejoin": "round" }, g);
  s("circle", { cx: 17, cy: 16, r: 2, fill: edge, opacity: 0.55 }, g);
  s("circle", { cx: 20, cy: 12, r: 1.2, fill: edge, opacity: 0.55 }, g);
}

export function drawIcon(s, g, space, ink) {
  switch (space.kind) {
    case "build":
    case "loop_build": // a hammer
      s("path", { d: "M6,21 L15,10", stroke: "#92400e", "stroke-width": 3.5, "stroke-linecap": "round" }, g);
      s("path", { d: "M11,6 L19,2 L23,9 L18,12 Z", fill: ink, stroke: ink, "stroke-linejoin": "round" }, g);
      return;
    case "take":
      wedge(s, g);
      return;
    case "lose":
      if (space.amount === 3) { // caught napping: a moon and z
        s("path", { d: "M14,3 A9,9 0 1 0 21,17 A7,7 0 1 1 14,3 Z", fill: "#fde68a", stroke: ink, "stroke-width": 1.3 }, g);
        s("path", { d: "M15,6 h5 l-5,6 h5", fill: "none", stroke: ink, "stroke-width": 1.4 }, g);
        return;
      }
      wedge(s, g);
      s("path", { d: "M3,6 h9", stroke: ink, "stroke-width": 3, "stroke-linecap": "round" }, g);
      return;
    case "steal_most":
      wedge(s, g);
      s("path", { d: "M2,9 C6,2 12,2 14,6 M11,3 l3,3 l-3.5,1.5", fill: "none", stroke: ink, "stroke-width": 2 }, g);
      return;
    case "go_back":
    case "move_ahead": {
      const d = space.kind === "go_back" ? "M21,15 C21,6 8,5 5,11 M3,6 L5,12 L11,11" : "M3,15 C3,6 16,5 19,11 M21,6 L19,12 L13,11";
      s("path", { d, fill: "none", stroke: ink, "stroke-width": 2.6, "stroke-linecap": "round", "stroke-linejoin": "round" }, g);
      return;
    }
    case "go_to":
      if (space.target === 0) { // the fat cat
        s("path", { d: "M3,9 L5,1 L10,6 L14,6 L19,1 L21,9 A9,8 0 1 1 3,9 Z", fill: "#fb923c", stroke: ink, "stroke-width": 1.4 }, g);
        s("circle", { cx: 8.5, cy: 12, r: 1.6, fill: ink }, g);
        s("circle", { cx: 15.5, cy: 12, r: 1.6, fill: ink }, g);
        s("path", { d: "M10,17 Q12,19 14,17 M3,15 h5 M16,15 h5", fill: "none", stroke: ink, "stroke-width": 1 }, g);
      } else if (space.target === 21) { // the mad dog
        s("ellipse", { cx: 12, cy: 13, rx: 8, ry: 8, fill: "#d6b98c", stroke: ink, "stroke-width": 1.4 }, g);
        s("path", { d: "M4,8 Q0,14 4,19 Q7,14 6,8 Z M20,8 Q24,14 20,19 Q17,14 18,8 Z", fill: "#7c5b3a", stroke: ink, "stroke-width": 1 }, g);
        s("path", { d: "M8,11 l3,1.5 M16,11 l-3,1.5", stroke: ink, "stroke-width": 1.6 }, g);
        s("path", { d: "M9,18 L11,16 L13,18 L15,16", fill: "none", stroke: ink, "stroke-width": 1.3 }, g);
      } else { // to the Cheese Wheel
        s("circle", { cx: 12, cy: 12, r: 9, fill: C.cheese, stroke: C.cheeseDark, "stroke-width": 1.5 }, g);
        s("path", { d: "M12,3 V21 M3,12 H21", stroke: C.cheeseDark, "stroke-width": 1 }, g);
      }
      return;
    case "dog_bone":
      for (const [x, y] of [[4, 16], [7, 20], [17, 4], [20, 8]]) s("circle", { cx: x, cy: y, r: 3.2, fill: "#fff", stroke: ink, "stroke-width": 1.3 }, g);
      s("path", { d: "M6,17 L18,6", stroke: ink, "stroke-width": 6, "stroke-linecap": "round" }, g);
      s("path", { d: "M6,17 L18,6", stroke: "#fff", "stroke-width": 3.5, "stroke-linecap": "round" }, g);
      return;
    case "safe": // a shield
      s("path", { d: "M12,2 L21,5 V11 C21,17 16,21 12,23 C8,21 3,17 3,11 V5 Z", fill: "#86efac", stroke: ink, "stroke-width": 1.5 }, g);
      s("path", { d: "M7.5,12 L11,15.5 L17,8.5", fill: "none", stroke: ink, "stroke-width": 2.2 }, g);
      return;
    case "turn_crank":
      s("circle", { cx: 10, cy: 14, r: 7, fill: "#fdba74", stroke: ink, "stroke-width": 1.5 }, g);
      s("path", { d: "M10,14 L19,5", stroke: ink, "stroke-width": 2.5, "stroke-linecap": "round" }, g);
      s("circle", { cx: 20, cy: 4, r: 2.8, fill: C.red, stroke: ink }, g);
      return;
    case "cheese_wheel":
      s("circle", { cx: 12, cy: 12, r: 10, fill: C.cheese, stroke: C.cheeseDark, "stroke-width": 1.6 }, g);
      for (const [x, y, r] of [[8, 9, 2], [15, 8, 1.4], [14, 15, 2.3], [7, 15, 1.2]]) s("circle", { cx: x, cy: y, r, fill: C.cheeseDark, opacity: 0.5 }, g);
      return;
    case "start": // a mouse hole
      s("path", { d: "M3,22 V13 A9,9 0 0 1 21,13 V22 Z", fill: "#3f2d1d", stroke: ink, "stroke-width": 1 }, g);
      return;
    default:
  }
}

// --- a mouse (pawn), origin at its centre -------------------------------------------------------
// Drawn at 0.78 (issue 39 judge: the mice overhung their spaces): from any of a space's four
// slots (13 units from its middle) the mouse, ears and tail included, stays inside the space's 56.
export const MOUSE_SCALE = 0.78;
export function drawMouse(s, g0, colour) {
  const g = s("g", { transform: `scale(${MOUSE_SCALE})` }, g0);
  s("path", { d: "M7,6 C14,9 13,15 17,14", fill: "none", stroke: C.ink, "stroke-width": 1.6, "stroke-linecap": "round" }, g);
  for (const x of [-7, 7]) {
    s("circle", { cx: x, cy: -8, r: 5, fill: colour, stroke: C.ink, "stroke-width": 1.2 }, g);
    s("circle", { cx: x, cy: -8, r: 2.5, fill: "#fda4af" }, g);
  }
  const body = s("circle", { r: 10, fill: colour, stroke: C.ink, "stroke-width": 1.5 }, g);
  for (const x of [-3.5, 3.5]) s("circle", { cx: x, cy: -2, r: 1.7, fill: C.ink, "pointer-events": "none" }, g);
  s("circle", { cx: 0, cy: 3, r: 1.9, fill: "#fda4af", stroke: C.ink, "stroke-width": 0.6, "pointer-events": "none" }, g);
  return body;
}

// --- a stack of cheese cards (the pile) ---------------------------------------------------------
export function drawCheeseCard(s, g, x, y) {
  s("rect", { x, y, width: 40, height: 28, rx: 4, fill: "#fffbeb", stroke: C.cheeseDark, "stroke-width": 1.5 }, g);
  const w = s("g", { transform: `translate(${x + 9},${y + 2})` }, g);
  wedge(s, w);
}

// --- the contraption ------------------------------------------------------------------------------
// Each part: where its number tag goes (the "next to build" label) and how it is drawn, in place.
// Moving pieces are drawn inside an inner <g class="mv"> whose transform the firing sets (pose()).
const gearPath = (cx, cy, r, teeth) => {
  let d = "";
  for (let k = 0; k < teeth * 2; k++) {
    const a = (k * Math.PI) / teeth;
    const rr = k % 2 ? r - 4 : r + 2;
    d += `${k ? "L" : "M"}${(cx + Math.cos(a) * rr).toFixed(1)},${(cy + Math.sin(a) * rr).toFixed(1)} `;
  }
  return d + "Z";
};
// A base: a flat plate with its shadow.
const plate = (s, g, x, y, w) => {
  s("rect", { x, y: y + 4, width: w, height: 10, rx: 3, fill: "#a8a29e" }, g);
  s("rect", { x, y, width: w, height: 10, rx: 3, fill: C.plate, stroke: C.plateEdge, "stroke-width": 1.5 }, g);
};
export const STAIRS = [[654, 196], [644, 212], [634, 228], [624, 244], [614, 260], [604, 276]];

export const PARTS = {
  base_a: { tag: [650, 222], draw: (s, g) => plate(s, g, 640, 196, 285) },
  gear_support: {
    tag: [905, 180],
    draw: (s, g) => {
      s("path", { d: "M870,196 L876,132 L884,132 L890,196 Z", fill: C.blue, stroke: C.blueDark, "stroke-width": 1.5 }, g);
      s("rect", { x: 864, y: 188, width: 32, height: 8, rx: 2, fill: C.blue, stroke: C.blueDark }, g);
    },
  },
  gear_1: {
    tag: [880, 176],
    draw: (s, g) => {
      s("path", { d: gearPath(880, 140, 24, 12), fill: C.yellow, stroke: C.yellowDark, "stroke-width": 1.5 }, g);
      s("circle", { cx: 880, cy: 140, r: 8, fill: "#fde68a", stroke: C.yellowDark }, g);
      s("path", { d: "M880,122 V158 M862,140 H898", stroke: C.yellowDark, "stroke-width": 1.2 }, g);
    },
    pivot: [880, 140],
  },
  crank: {
    tag: [928, 132],
    draw: (s, g) => {
      s("path", { d: "M880,140 L910,110", stroke: C.red, "stroke-width": 6, "stroke-linecap": "round" }, g);
      s("circle", { cx: 911, cy: 109, r: 7, fill: C.red, stroke: C.redDark, "stroke-width": 1.5 }, g);
      s("circle", { cx: 880, cy: 140, r: 4, fill: C.redDark }, g);
    },
    pivot: [880, 140],
  },
  gear_2: {
    tag: [838, 188],
    draw: (s, g) => {
      s("path", { d: gearPath(838, 164, 16, 9), fill: C.yellow, stroke: C.yellowDark, "stroke-width": 1.5 }, g);
      s("circle", { cx: 838, cy: 164, r: 5, fill: "#fde68a", stroke: C.yellowDark }, g);
    },
    pivot: [838, 164],
    // the lever (stage C) rides on this gear's axle
    extra: (s, g) => {
      s("path", { d: "M838,164 L802,150", stroke: C.green, "stroke-width": 5, "stroke-linecap": "round" }, g);
      s("circle", { cx: 838, cy: 164, r: 3, fill: C.greenDark }, g);
    },
  },
  stop_sign: {
    tag: [772, 178],
    draw: (s, g) => {
      s("rect", { x: 787, y: 124, width: 6, height: 72, fill: C.metal, stroke: C.metalDark }, g);
      const oct = [];
      for (let k = 0; k < 8; k++) {
        const a = ((k * 45 + 22.5) * Math.PI) / 180;
        oct.push(`${(790 + Math.cos(a) * 17).toFixed(1)},${(118 + Math.sin(a) * 17).toFixed(1)}`);
      }
      s("polygon", { points: oct.join(" "), fill: C.red, stroke: "#fff", "stroke-width": 2 }, g);
      s("rect", { x: 780, y: 115, width: 20, height: 6, rx: 1, fill: "#fff" }, g);
      s("path", { d: "M793,186 C805,180 808,170 802,150", fill: "none", stroke: "#a16207", "stroke-width": 1.5 }, g);
    },
    pivot: [790, 196],
  },
  lamp_post: {
    tag: [752, 186],
    draw: (s, g) => {
      s("rect", { x: 732, y: 80, width: 6, height: 116, fill: C.greenDark }, g);
      s("path", { d: "M735,82 L698,82", stroke: C.greenDark, "stroke-width": 4 }, g);
      s("path", { d: "M727,72 L743,72 L739,62 L731,62 Z", fill: "#fde047", stroke: C.greenDark, "stroke-width": 1.5 }, g);
      s("rect", { x: 726, y: 190, width: 18, height: 6, fill: C.greenDark }, g);
    },
  },
  shoe: {
    tag: [720, 174],
    draw: (s, g) => {
      s("path", { d: "M700,82 L700,140", stroke: C.metalDark, "stroke-width": 1.3 }, g);
      s("path", { d: "M693,138 L707,138 L707,150 L716,153 Q718,160 712,160 L690,160 Q687,160 688,155 Z", fill: "#7c2d12", stroke: C.ink, "stroke-width": 1.3 }, g);
    },
    pivot: [700, 82],
  },
  stairs: {
    tag: [600, 208],
    draw: (s, g) => {
      let d = "M660,196";
      for (let k = 1; k < STAIRS.length; k++) d += ` L${STAIRS[k - 1][0] - 10},${STAIRS[k - 1][1]} L${STAIRS[k][0]},${STAIRS[k][1]}`;
      s("path", { d: d + ` L${STAIRS[STAIRS.length - 1][0] - 12},${STAIRS[STAIRS.length - 1][1]}`, fill: "none", stroke: C.orangeDark, "stroke-width": 4, "stroke-linejoin": "round" }, g);
      s("path", { d: "M662,200 L606,284 M650,200 L596,282", stroke: C.orange, "stroke-width": 2 }, g);
    },
  },
  bucket: {
    tag: [672, 150],
    draw: (s, g) => {
      s("path", { d: "M658,170 L686,170 L682,194 L662,194 Z", fill: C.blue, stroke: C.blueDark, "stroke-width": 1.5 }, g);
      s("path", { d: "M658,170 Q672,156 686,170", fill: "none", stroke: C.metalDark, "stroke-width": 1.3 }, g);
    },
    pivot: [662, 194],
  },
  metal_ball: {
    tag: [690, 220],
    draw: (s, g) => {
      s("circle", { cx: 672, cy: 168, r: 6, fill: "#d1d5db", stroke: C.metalDark, "stroke-width": 1.5 }, g);
      s("circle", { cx: 670, cy: 166, r: 2, fill: "#fff" }, g);
    },
  },
  base_b: { tag: [690, 366], draw: (s, g) => plate(s, g, 420, 340, 280) },
  rain_pipe: {
    tag: [626, 312],
    draw: (s, g) => {
      s("path", { d: "M600,272 L600,318 Q600,330 588,330 L524,330", fill: "none", stroke: C.metalDark, "stroke-width": 13, "stroke-linecap": "round" }, g);
      s("path", { d: "M600,272 L600,318 Q600,330 588,330 L524,330", fill: "none", stroke: C.metal, "stroke-width": 9, "stroke-linecap": "round" }, g);
    },
  },
  plumbing: {
    tag: [500, 312],
    draw: (s, g) => {
      s("rect", { x: 484, y: 323, width: 40, height: 14, rx: 3, fill: C.orange, stroke: C.orangeDark, "stroke-width": 1.5 }, g);
      s("rect", { x: 519, y: 320, width: 8, height: 20, rx: 2, fill: C.orange, stroke: C.orangeDark }, g);
    },
  },
  helping_hand: {
    tag: [492, 250],
    draw: (s, g) => {
      s("rect", { x: 467, y: 128, width: 6, height: 212, fill: C.metal, stroke: C.metalDark }, g);
      s("path", { d: "M458,128 Q470,136 482,128 L480,124 Q470,130 460,124 Z", fill: "#fcd34d", stroke: C.ink, "stroke-width": 1.2 }, g);
      s("rect", { x: 460, y: 332, width: 20, height: 8, fill: C.metalDark }, g);
    },
  },
  thing_a_ma_jig: {
    tag: [392, 136],
    draw: (s, g) => {
      const d = "M462,134 L424,148 L456,162 L412,180";
      s("path", { d, fill: "none", stroke: C.greenDark, "stroke-width": 14, "stroke-linejoin": "round", "stroke-linecap": "round" }, g);
      s("path", { d, fill: "none", stroke: "#4ade80", "stroke-width": 10, "stroke-linejoin": "round", "stroke-linecap": "round" }, g);
    },
  },
  bowling_ball: {
    tag: [496, 112],
    draw: (s, g) => {
      s("circle", { cx: 470, cy: 112, r: 11, fill: "#1f2937", stroke: C.ink }, g);
      for (const [x, y] of [[466, 107], [472, 106], [469, 112]]) s("circle", { cx: x, cy: y, r: 1.5, fill: "#9ca3af" }, g);
    },
  },
  bathtub: {
    tag: [446, 214],
    draw: (s, g) => {
      s("path", { d: "M372,188 L440,188 Q438,212 420,212 L392,212 Q374,212 372,188 Z", fill: "#f8fafc", stroke: C.blueDark, "stroke-width": 1.8 }, g);
      s("path", { d: "M436,200 L436,340 M442,200 L442,340", stroke: C.metalDark, "stroke-width": 2 }, g);
      s("path", { d: "M380,212 l-3,8 M432,212 l3,8", stroke: C.blueDark, "stroke-width": 2.5 }, g);
    },
  },
  diving_board: {
    tag: [356, 286],
    draw: (s, g) => {
      s("path", { d: "M348,262 L356,246 L364,262 Z", fill: C.orange, stroke: C.orangeDark, "stroke-width": 1.5 }, g);
      s("rect", { x: 298, y: 241, width: 118, height: 6, rx: 2, fill: "#fde68a", stroke: C.yellowDark, "stroke-width": 1.3 }, g);
    },
    pivot: [356, 246],
  },
  diver: {
    tag: [300, 214],
    draw: (s, g) => {
      s("circle", { cx: 310, cy: 216, r: 4.5, fill: "#fcd5b5", stroke: C.ink }, g);
      s("path", { d: "M310,221 L310,232 M310,232 L306,241 M310,232 L314,241 M310,224 L304,216 M310,224 L316,216", stroke: C.ink, "stroke-width": 2.2, "stroke-linecap": "round" }, g);
      s("rect", { x: 306, y: 224, width: 8, height: 8, rx: 2, fill: C.red }, g);
    },
    pivot: [310, 228],
  },
  base_c: { tag: [330, 270], draw: (s, g) => plate(s, g, 150, 262, 290) },
  wash_tub: {
    tag: [288, 166],
    draw: (s, g) => {
      s("path", { d: "M226,180 L274,180 L268,204 L232,204 Z", fill: "#93c5fd", stroke: C.blueDark, "stroke-width": 1.8 }, g);
      s("path", { d: "M226,180 L274,180", stroke: C.blueDark, "stroke-width": 3 }, g);
      s("rect", { x: 246, y: 204, width: 8, height: 58, fill: C.metal, stroke: C.metalDark }, g);
    },
    pivot: [250, 204],
  },
  cage_post: {
    tag: [208, 236],
    draw: (s, g) => {
      s("rect", { x: 178, y: 92, width: 6, height: 178, fill: C.metal, stroke: C.metalDark }, g);
      s("path", { d: "M181,96 L238,176", stroke: C.metalDark, "stroke-width": 2 }, g);
    },
  },
  cage: {
    tag: [140, 124],
    draw: (s, g) => {
      s("path", { d: "M147,154 L147,112 Q181,80 215,112 L215,154", fill: "rgba(220,38,38,0.12)", stroke: C.red, "stroke-width": 3 }, g);
      for (const x of [158, 169, 193, 204]) s("path", { d: `M${x},154 L${x},104`, stroke: C.red, "stroke-width": 2 }, g);
      s("path", { d: "M147,133 H215 M147,154 H215", stroke: C.red, "stroke-width": 2.5 }, g);
      s("circle", { cx: 181, cy: 92, r: 5, fill: C.red, stroke: C.redDark }, g);
    },
  },
};

// What each stage of the firing chain (000's letters) marks on the drawing: the box drawn
// round it while firing (worked, jammed) and where its letter sits.
export const STAGE_BOX = {
  crank: [866, 96, 58, 56], gears: [816, 112, 90, 76], lever: [796, 140, 46, 30],
  shoe: [684, 98, 124, 66], bucket: [652, 158, 38, 40], stairs: [592, 192, 70, 90],
  rain_pipe: [512, 270, 98, 70], helping_hand: [456, 122, 28, 222], bowling_ball: [456, 98, 28, 28],
  thing_a_ma_jig: [400, 124, 72, 64], bathtub: [368, 184, 78, 32], diving_board: [294, 236, 126, 30],
  diver: [298, 206, 24, 40], wash_tub: [220, 174, 60, 34], cage: [140, 84, 82, 76],
};

// Where a stage's letter goes when not at its box's top left corner (H would cover I there).
export const STAGE_TAG = { helping_hand: [484, 290] };

// --- the firing's poses -----------------------------------------------------------------------------
// p runs from 0 (at rest) through 15 (every stage done): stage k (0 = A ... 14 = O-P) moves its
// pieces while p goes from k to k + 1. pose(p) says where every moving piece is at p.
const c01 = (x) => Math.max(0, Math.min(1, x));
function along(points, t) {
  if (t <= 0) return points[0];
  let total = 0;
  const lens = [];
  for (let k = 1; k < points.length; k++) {
    const l = Math.hypot(points[k][0] - points[k - 1][0], points[k][1] - points[k - 1][1]);
    lens.push(l);
    total += l;
  }
  let d = c01(t) * total;
  for (let k = 1; k < points.length; k++) {
    if (d <= lens[k - 1]) {
      const f = d / lens[k - 1];
      return [points[k - 1][0] + (points[k][0] - points[k - 1][0]) * f, points[k - 1][1] + (points[k][1] - points[k - 1][1]) * f];
    }
    d -= lens[k - 1];
  }
  return points[points.length - 1];
}
const BALL_HOME = [672, 168];
const BALL_PATHS = [
  [BALL_HOME, [662, 176], [652, 188]], // E: out of the bucket
  [[652, 188], ...STAIRS.map(([x, y]) => [x - 4, y - 7]), [600, 268]], // F: down the stairs
  [[600, 268], [600, 318], [592, 328], [526, 330], [486, 330]], // G: through the rain pipe
];
const BOWL_HOME = [470, 112];
const BOWL_PATHS = [
  [BOWL_HOME, [462, 126]], // I: falls from the top of the rod
  [[462, 126], [424, 140], [456, 154], [412, 172]], // J: through the thing-a-ma-jig
  [[412, 172], [406, 192], [406, 232]], // K: through the bathtub
  [[406, 232], [410, 244]], // L: onto the diving board
];

export function pose(p) {
  const rot = (/** @type {number} */ deg, /** @type {number[]} */ [x, y]) => `rotate(${deg.toFixed(2)} ${x} ${y})`;
  const tr = (dx, dy) => `translate(${dx.toFixed(2)},${dy.toFixed(2)})`;
  const out = {};
  out.crank = rot(360 * c01(p), PARTS.crank.pivot);
  out.gear_1 = rot(360 * c01(p) + 120 * c01(p - 1), PARTS.gear_1.pivot);
  out.gear_2 = rot(-180 * c01(p - 1), PARTS.gear_2.pivot);
  out.lever = rot(18 * c01(p - 2), PARTS.gear_2.pivot);
  out.stop_sign = rot(-10 * c01(p - 2) - 18 * c01(p - 3), PARTS.stop_sign.pivot);
  out.shoe = rot(24 * Math.sin(Math.PI * 0.5 * c01(p - 3)) - 10 * c01(p - 4), PARTS.shoe.pivot);
  out.bucket = rot(-38 * c01((p - 4) * 2), PARTS.bucket.pivot);
  let ball = BALL_HOME;
  for (let k = 0; k < 3; k++) if (p > 4 + k) ball = along(BALL_PATHS[k], p - 4 - k);
  out.metal_ball = tr(ball[0] - BALL_HOME[0], ball[1] - BALL_HOME[1]);
  const shake = p > 7 && p < 8 ? Math.sin((p - 7) * Math.PI * 6) * 3 * (8 - p) : 0;
  out.helping_hand = tr(shake, 0);
  let bowl = BOWL_HOME;
  for (let k = 0; k < 4; k++) if (p > 8 + k) bowl = along(BOWL_PATHS[k], p - 8 - k);
  out.bowling_ball = tr(bowl[0] - BOWL_HOME[0], bowl[1] - BOWL_HOME[1]);
  out.diving_board = rot(12 * c01(p - 11) - 12 * c01((p - 12) * 3), PARTS.diving_board.pivot);
  const m = c01(p - 12);
  const dx = -60 * m, dy = -36 * m - 120 * Math.sin(Math.PI * m);
  out.diver = m > 0 ? `${tr(dx, dy)} ${rot(-360 * m, PARTS.diver.pivot)}` : "";
  const n = c01(p - 13);
  out.wash_tub = rot(n > 0 && n < 1 ? Math.sin(n * Math.PI * 4) * 8 * (1 - n) : 0, PARTS.wash_tub.pivot);
  const o = c01(p - 14);
  out.cage = tr(0, 182 * o * o);
  return out;
}
