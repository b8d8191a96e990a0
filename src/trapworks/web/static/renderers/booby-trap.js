// Booby Trap renderer: the tray drawn to scale (millimetres from the view), pieces by size and
// colour, the spring bar and its scale, click a piece to touch it (the feel is shown to this seat
// only: it comes in this seat's view), then Remove or Pass; the settle after a removal is animated
// from the physics frames riding on the removal event. It decides no rule: a click sends the text
// of one of the view's legal actions.

const FILL = { S: "#f4c430", M: "#2a9d8f", L: "#e63946" };
const FEEL_COLOUR = { loose: "#15803d", light: "#65a30d", firm: "#d97706", tight: "#b91c1c" };
// The feel's bands (games/booby_trap/game.py FEELS: below 0.02 loose, 0.15 light, 0.5 firm, then
// tight), each a quarter of the gauge: the needle goes along its band by the reading.
/** @type {Array<[string, number, number]>} */
const BANDS = [["loose", 0, 0.02], ["light", 0.02, 0.15], ["firm", 0.15, 0.5], ["tight", 0.5, 1.5]];
const MARGIN = 10;
// A screen whose main pointer is a finger: "tap", not "click".
const TOUCH = typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
const SPRING = 24; // mm of spring drawn beyond the tray's far end

export default function createRenderer(root, ctx) {
  let lastHole = null; // where the last removed piece lay (the board's last move)
  const { svg, el } = ctx;
  const t = ctx.t || ((m, v) => m.replace(/\{(\w+)\}/g, (x, k) => (v && k in v ? v[k] : x)));
  const tn = ctx.tn || ((one, many, n, v) => t(n === 1 ? one : many, { n, ...(v || {}) }));
  // A size's word in the page's language (literal calls: scripts/i18n.py extracts them).
  const size = (z) => ({ S: t("small"), M: t("medium"), L: t("large") })[z] || z;
  // "2 large, 1 small": the count with its size's word (agreeing in number where the language does).
  const counted = (z, n) => (z === "S" ? tn("{n} small", "{n} small", n) : z === "M" ? tn("{n} medium", "{n} medium", n)
    : tn("{n} large", "{n} large", n));
  const num = (x) => Number(x).toLocaleString(ctx.lang || "en", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const feelWord = (f) => ({ loose: t("loose"), light: t("light"), firm: t("firm"), tight: t("tight") })[f] || f;
  // The feel in words a player acts on (issue 39); the measured number only on demand.
  const ADVICE = { loose: t("likely safe to take"), light: t("a small risk"), firm: t("risky"),
                   tight: t("very risky: think about passing") };
  // A piece as a player names it (issue 39: "You feel piece 99" meant nothing): by its size, the
  // tray ringing it; its number stays on the piece and in its label.
  const thePiece = (z) => ({ S: t("the small piece"), M: t("the medium piece"), L: t("the large piece") })[z] || t("the piece");
  let playedSize = null; // the tray's size on screen during play, kept at the end
  const sizes = new Map(); // piece id -> size, of every piece seen (a removed one is still named)
  const pieceWords = (id) => thePiece(sizes.get(Number(id)));
  const feelText = (piece, f, advice) =>
    t("You feel {piece} (ringed): {feel}", { piece: pieceWords(piece), feel: feelWord(f) }) + (advice ? ` — ${advice}` : "") + " ";
  root.classList.add("booby-trap");
  const style = el("style", {}, root);
  style.textContent = `
    .booby-trap { font-family: system-ui, sans-serif; }
    .booby-trap [hidden] { display: none !important; }
    .bt-tray circle.piece:focus-visible { stroke: #1d4ed8; stroke-width: 2.4; }
    .bt-top { display: flex; flex-wrap: wrap; gap: .6em; align-items: center; margin-bottom: .4em; }
    .bt-seat { padding: .2em .6em; border: 2px solid transparent; border-radius: .4em; background: var(--color-surface-2);
               color: var(--color-ink); }
    .bt-seat.to-move { border-color: var(--color-ink); }
    .bt-status { margin: .3em 0; font-weight: 600; }
    /* the feel: its words, then a gauge from safe to springs (the band felt lit, a needle) */
    .bt-feel { padding: .25em .6em; border-radius: .4em; margin: .2em 0; color: var(--color-ink);
               background: var(--color-surface-2); border: 1px solid var(--color-line); border-left: 6px solid var(--feel, #57534e); }
    .bt-feel .bt-show-number { font-size: .8em; padding: 0 .45em; min-height: 0; margin-left: .4em; }
    .bt-feel-words { line-height: 1.3; }
    .bt-gauge { display: flex; align-items: center; gap: .4em; margin-top: .2em; font-size: .8em; }
    .bt-gauge-end { flex: none; color: var(--color-muted); }
    .bt-gauge-scale { flex: 1 1 auto; position: relative; display: flex; min-width: 8em; border-radius: .3em; overflow: hidden; }
    .bt-band { flex: 1 1 0; text-align: center; padding: .05em 0; color: #1f2328; font-size: .92em; filter: saturate(.3); }
    .bt-band.on { filter: none; font-weight: 700; box-shadow: inset 0 0 0 2px #1f2328; }
    .bt-band-loose { background: #86efac; } .bt-band-light { background: #d9f99d; }
    .bt-band-firm { background: #fcd34d; } .bt-band-tight { background: #fca5a5; }
    .bt-needle { position: absolute; top: 0; bottom: 0; width: 4px; background: #1f2328; border-radius: 2px; }
    .bt-controls button { font-size: 1em; margin: .2em .3em .2em 0; padding: .3em .9em; }
    .bt-result { margin: .3em 0; padding: .3em .6em; border-radius: .4em; display: inline-block; }
    .bt-result.tripped { background: var(--color-error-bg); color: var(--color-error-ink); }
    .bt-result.kept { background: var(--color-ok-bg, #dcfce7); color: var(--color-ok-ink, #166534); }
    .bt-side { font-size: .9em; color: var(--color-ink); }
    .bt-tray circle.piece.touchable { cursor: pointer; }
    .bt-tray circle.piece.touchable:hover { stroke: #111; stroke-width: 1.6; }
    .bt-tray text { pointer-events: none; user-select: none; }
    .bt-tray { color: var(--color-ink); }
    .bt-row { display: flex; flex-wrap: wrap; align-items: center; gap: .2em .8em; }
    .bt-row-a { min-height: 2.2em; }
    .bt-row-b { min-height: 2.9em; }
    .bt-row .bt-status, .bt-row .bt-result, .bt-row .bt-feel { margin: 0; }
    .bt-controls { display: flex; gap: .4em; }
    .bt-controls button { margin: 0; }
    .bt-top { font-size: .9em; gap: .35em; margin-bottom: .25em; }
    .bt-top .bt-seat { padding: .1em .5em; }
    .bt-feel-slot { display: contents; }
    .bt-feel-sizer { display: none; }
    .bt-sizer-button { display: inline-block; border: 1px solid transparent; line-height: 1.6; }
    @media (max-width: 900px) {
      .bt-row-a { min-height: 4.6em; align-content: flex-start; }
      .bt-row-b { min-height: 5.2em; align-content: flex-start; }
      /* A phone: the buttons' line keeps its room while empty, and the feel's slot is as high as
         the longest feel in this language (a hidden copy under it), tension shown included. */
      .bt-controls { min-height: 2.4em; }
      .bt-feel-slot { display: grid; flex: 1 0 100%; }
      .bt-feel-slot > * { grid-area: 1 / 1; align-self: start; }
      .bt-feel-sizer { display: block; visibility: hidden; }
      .bt-top { font-size: .8em; }
    }
    .bt-tray circle.piece.hinted { stroke: #1d4ed8; stroke-width: 3; stroke-dasharray: 4 2; }
    /* The turn's two steps (touch, then take or pass): the one to do now lit. */
    .bt-steps { display: flex; gap: .3em; margin: 0; padding: 0; list-style: none; counter-reset: bt-step; font-size: .85em; }
    .bt-steps[data-step=""] { visibility: hidden; }
    .bt-steps li { counter-increment: bt-step; flex: 1 1 0; min-width: 0; padding: .1em .5em; border-radius: 1em; color: var(--color-muted);
                   border: 1px solid var(--color-line); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    .bt-steps li::before { content: counter(bt-step) ". "; font-weight: 700; }
    .bt-steps li.on { color: var(--color-accent-ink); background: var(--color-accent); border-color: var(--color-accent); font-weight: 700; }
    /* Step 2: the touched piece is what the turn is about; the others step back. */
    .bt-tray[data-step="2"] g[data-piece-group]:not(:has(> [data-touched])) > * { opacity: .4; }
    .bt-tray[data-step="2"] circle.piece[data-touched] { stroke: var(--color-accent); stroke-width: 3.2; }
    .bt-tray[data-step="1"] circle.piece.touchable:hover { stroke: var(--color-accent); stroke-width: 2.4; }
  `;
  const top = el("div", { class: "bt-top" }, root);
  // Two rows that keep their room while empty (issue 27): touching, then removing, never changes
  // the bar's height, so the tray above it keeps its size and its pieces stay where they are.
  // Row one: whose turn and the last removal's result; row two: Remove / Pass and the feel.
  // A turn is two steps (issue 39: nothing told a new player): touch a piece, then take it or pass.
  // The steps are shown on this player's turn, the one to do now lit; the tray lights what it needs.
  const steps = el("ol", { class: "bt-steps", "data-testid": "bt-steps", "data-step": "" }, ctx.bar);
  el("li", { "data-step": "1", text: t("Touch a piece") }, steps);
  const stepTwo = el("li", { "data-step": "2", text: t("Take it or pass") }, steps);
  const rowA = el("div", { class: "bt-row bt-row-a" }, ctx.bar);
  const status = el("div", { class: "bt-status", "data-status": "booby-trap" }, rowA);
  const result = el("div", { class: "bt-result", "data-result": "", hidden: true }, rowA);
  const rowB = el("div", { class: "bt-row bt-row-b" }, ctx.bar);
  const controls = el("div", { class: "bt-controls", "data-controls": "booby-trap" }, rowB);
  const feelSlot = el("div", { class: "bt-feel-slot" }, rowB);
  // The feel as a player says it (issue 39: "tension 0.54" told a new player nothing): the word,
  // what it means for the decision, and a gauge from "safe" to "springs the bar"; the measured
  // number only on demand. `live` false: a look-alike without a button (the phone's sizer).
  function fillFeel(box, piece, word, reading, live) {
    box.replaceChildren();
    const words = el("div", { class: "bt-feel-words" }, box);
    el("strong", { text: feelText(piece, word, "").trim() }, words);
    if (ADVICE[word]) el("span", { text: ` — ${ADVICE[word]}` }, words);
    const band = Math.max(0, BANDS.findIndex((b) => b[0] === word));
    const [, lo, hi] = BANDS[band];
    const along = (band + Math.min(1, Math.max(0, (reading - lo) / (hi - lo)))) / BANDS.length;
    const gauge = el("div", { class: "bt-gauge", "data-gauge": word, role: "img",
                              "aria-label": t("Risk of springing the bar: {feel}", { feel: feelWord(word) }) }, box);
    el("span", { class: "bt-gauge-end", text: t("safe"), "aria-hidden": "true" }, gauge);
    const scale = el("span", { class: "bt-gauge-scale", "aria-hidden": "true" }, gauge);
    for (const [name] of BANDS) el("span", { class: `bt-band bt-band-${name}` + (name === word ? " on" : ""), text: feelWord(name) }, scale);
    el("span", { class: "bt-needle" }, scale).style.left = `calc(${(along * 100).toFixed(1)}% - 2px)`;
    el("span", { class: "bt-gauge-end", text: t("springs"), "aria-hidden": "true" }, gauge);
    if (!live) {
      el("span", { class: "bt-show-number bt-sizer-button", text: t("number") }, words);
      return;
    }
    const number = el("span", { class: "bt-tension", text: t("(tension {tension})", { tension: num(reading) }), hidden: true }, words);
    const show = el("button", { type: "button", class: "bt-show-number", text: t("number"), "aria-expanded": "false",
                                "data-testid": "feel-number" }, words);
    show.addEventListener("click", () => { number.hidden = !number.hidden; show.setAttribute("aria-expanded", String(!number.hidden)); });
  }
  const feelSizer = el("div", { class: "bt-feel bt-feel-sizer", "aria-hidden": "true" }, feelSlot);
  const feel = el("div", { "data-feel": "", hidden: true }, feelSlot);
  if (ctx.seat !== null && ctx.seat !== undefined) {
    // The sizer holds the longest feel this page may show (its tension shown too); a spectator
    // feels nothing, so its page has none.
    // (-1: a stand-in piece of the size whose words are longest in this language)
    sizes.set(-1, ["S", "M", "L"].reduce((a, b) => (thePiece(b).length > thePiece(a).length ? b : a)));
    const longest = Object.keys(ADVICE).reduce((a, b) => (feelText(-1, b, ADVICE[b]).length > feelText(-1, a, ADVICE[a]).length ? b : a));
    fillFeel(feelSizer, -1, longest, 99.99, false);
  }
  // The whole tray is in view on a phone too (issue 27: the spring bar was off screen), scaled to
  // the screen's width.
  const pan = el("div", { class: "board-pan" }, root);
  const tray = svg("svg", { class: "bt-tray", "data-tray": "booby-trap", role: "group",
                            "aria-label": t("The tray: pieces held by the spring bar") }, pan);
  ctx.enableArrowKeys(tray);
  // Beside the board only what the Moves log does not say (issue 39: a "What happened" list
  // repeated it line for line): the teaching mode's key, when it is on.
  const teachCard = el("div", { class: "card", hidden: true }, ctx.side);
  const side = el("div", { class: "bt-side" }, teachCard);

  // Everything drawn in tray millimetres inside `world`; on a box taller than wide (a phone held
  // upright) the world turns a quarter (the far wall on top, the bar and spring at the bottom) so
  // that the tray's 216 mm fill the screen's width: pieces of 32 px and more, not 19 (issue 39).
  // Its words turn back upright.
  const world = svg("g", { "data-world": "" }, tray);
  let upright = false; // turned a quarter
  // The box's size as the ResizeObserver last saw it (docs/testing.md, "the boards read layout
  // once"): drawing an update reads no layout; the size is read once at the first drawing.
  let panBox = null;
  const measure = () => ({ w: pan.clientWidth, h: pan.clientHeight, vw: window.innerWidth, vh: window.innerHeight });
  const turnIt = () => {
    const b = panBox || (panBox = measure());
    return b.h > b.w * 1.05 || (b.vw <= 600 && b.vh > b.vw);
  };
  const base = svg("g", {}, world);
  const pieceLayer = svg("g", {}, world);
  // Force lines on top of the pieces (they join centres), never catching clicks.
  const stressLayer = svg("g", { "data-stress": "", "pointer-events": "none" }, world);
  const barLayer = svg("g", {}, world);
  let geometry = null; // static drawing done for this tray size
  let barRect = null;
  let spring = null;
  let barMarker = null;
  const pieceNodes = new Map(); // id -> {circle, knob, label}
  let view = null;
  let animations = 0;
  let animationRunning = false;
  root.dataset.animations = "0";

  function drawStatic(v) {
    const tr = v.tray;
    upright = turnIt();
    const key = `${tr.width}x${tr.length}:${v.bar_rest}:${upright}`;
    if (geometry === key) return;
    geometry = key;
    while (base.firstChild) base.removeChild(base.firstChild);
    while (barLayer.firstChild) barLayer.removeChild(barLayer.firstChild);
    // The tray ends where the bar rests (beyond it nothing ever lies), then a short spring.
    const w = Math.min(tr.length, v.bar_rest) + tr.bar_thickness + SPRING;
    const across = tr.width + 2 * MARGIN + 26; // the tray's width, its walls and the scale under it
    if (upright) {
      world.setAttribute("transform", "rotate(90)"); // (x, y) is drawn at (-y, x)
      tray.setAttribute("viewBox", `${-(tr.width + MARGIN + 26)} ${-MARGIN} ${across} ${w + 2 * MARGIN}`);
    } else {
      world.removeAttribute("transform");
      tray.setAttribute("viewBox", `${-MARGIN} ${-MARGIN} ${w + 2 * MARGIN} ${across}`);
    }
    tray.dataset.upright = upright ? "1" : "0";
    // Floor and walls: the far wall at x = 0 on the left, side walls top and bottom.
    svg("rect", { x: 0, y: 0, width: w, height: tr.width, fill: "#f5efe0", class: "bt-floor" }, base);
    svg("path", { d: `M ${w} ${-4} H -4 V ${tr.width + 4} H ${w}`, fill: "none", stroke: "#5b4636",
                  "stroke-width": 8 }, base);
    // The scale along the side, filled in per update (it counts marks from the bar's rest).
    base.appendChild(scaleGroup);
    spring = svg("polyline", { fill: "none", stroke: "#888", "stroke-width": 2 }, barLayer);
    barRect = svg("rect", { y: 1, height: tr.width - 2, width: tr.bar_thickness, fill: "#6b7280",
                            stroke: "#111", "stroke-width": 1, "data-bar": "" }, barLayer);
    barMarker = svg("path", { fill: "currentColor", "data-bar-marker": "" }, barLayer); // on the page's paper
  }
  const scaleGroup = svg("g", { "data-scale": "" }, null);

  function drawScale(v) {
    while (scaleGroup.firstChild) scaleGroup.removeChild(scaleGroup.firstChild);
    const tr = v.tray;
    const y0 = tr.width + 6;
    for (let k = 0; ; k++) {
      const x = v.bar_rest - k * tr.mark;
      if (x < 0) break;
      const long = k % 4 === 0;
      svg("line", { x1: x, x2: x, y1: y0, y2: y0 + (long ? 10 : 6), stroke: "currentColor",
                    "stroke-width": long ? 1 : 0.6 }, scaleGroup);
      if (long && k > 0) {
        svg("text", { x, y: y0 + 19, "font-size": 8.5, "text-anchor": "middle", fill: "currentColor",
                      transform: upright ? `rotate(-90 ${x} ${y0 + 17})` : null }, scaleGroup).textContent = `${k}`;
      }
    }
  }

  function placeBar(v, bar) {
    const tr = v.tray;
    barRect.setAttribute("x", bar);
    const start = bar + tr.bar_thickness;
    const end = Math.min(tr.length, v.bar_rest) + tr.bar_thickness + SPRING - 4;
    const pts = [];
    const n = 12;
    for (let i = 0; i <= n; i++) {
      const x = start + ((end - start) * i) / n;
      const y = tr.width / 2 + (i === 0 || i === n ? 0 : (i % 2 ? -14 : 14));
      pts.push(`${x},${y}`);
    }
    spring.setAttribute("points", pts.join(" "));
    const y0 = tr.width + 6;
    barMarker.setAttribute("d", `M ${bar} ${y0} l -4 -6 h 8 z`);
  }

  // One way to say how far the bar moved, everywhere, as a player reads a scale (judge 5: "9.13
  // marks" read as machine output): to the nearest quarter of a mark, "9¼ marks", "half a mark"
  // (the game's own sentences say it the same way: booby_trap.marks.*, booby_trap.part.*).
  function marks(x) {
    const quarters = Math.round(Math.max(0, x) * 4);
    if (x < 1) {
      return [t("less than a quarter of a mark"), t("a quarter of a mark"), t("half a mark"),
        t("three quarters of a mark"), t("almost a mark")][Math.min(quarters, 4)];
    }
    const whole = Math.floor(Math.max(quarters, 4) / 4);
    const n = whole.toLocaleString(ctx.lang || "en");
    switch (Math.max(quarters, 4) % 4) {
      case 1: return tn("{n}¼ marks", "{n}¼ marks", whole, { n });
      case 2: return tn("{n}½ marks", "{n}½ marks", whole, { n });
      case 3: return tn("{n}¾ marks", "{n}¾ marks", whole, { n });
      default: return tn("{n} mark", "{n} marks", whole, { n });
    }
  }

  function legalText(id) {
    const wanted = `touch ${id}`;
    const hit = (view.legal_actions || []).find((a) => a.text === wanted);
    return hit ? hit.text : null;
  }

  function myTurn() {
    return ctx.mode === "live" && ctx.seat !== null && view && !view.terminal && view.to_move === ctx.seat;
  }

  function ensurePiece(p) {
    let node = pieceNodes.get(p.id);
    if (node) return node;
    const g = svg("g", { "data-piece-group": p.id }, pieceLayer);
    const circle = svg("circle", { r: p.r, fill: FILL[p.size], stroke: "#333", "stroke-width": 0.8,
                                   class: "piece", "data-piece": p.id, "data-size": p.size }, g);
    const knob = svg("circle", { r: p.r * 0.32, fill: "rgba(255,255,255,.35)", stroke: "rgba(0,0,0,.3)",
                                 "stroke-width": 0.5, "pointer-events": "none" }, g);
    const label = svg("text", { "font-size": p.size === "S" ? 8.5 : 10, "text-anchor": "middle",
                                "dominant-baseline": "central" }, g);
    label.textContent = `${p.id}`;
    circle.addEventListener("click", async () => {
      if (!view || !myTurn()) return;
      const text = legalText(p.id);
      if (!text) {
        if (view.touched !== null) ctx.message(t("You have touched a piece already: remove it or pass."), "info");
        else ctx.message(t("Piece {id} cannot be touched now.", { id: p.id }), "info");
        return;
      }
      await ctx.send(text); // a refusal is shown by the page
    });
    // Keyboard: Enter/Space on a focused piece is the same click.
    circle.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      e.preventDefault();
      circle.dispatchEvent(new MouseEvent("click"));
    });
    circle.setAttribute("data-kbd", "");
    node = { g, circle, knob, label };
    pieceNodes.set(p.id, node);
    return node;
  }

  function movePiece(node, x, y) {
    node.circle.setAttribute("cx", x);
    node.circle.setAttribute("cy", y);
    node.knob.setAttribute("cx", x);
    node.knob.setAttribute("cy", y);
    node.label.setAttribute("x", x);
    node.label.setAttribute("y", y);
    if (upright) node.label.setAttribute("transform", `rotate(-90 ${x} ${y})`);
    else node.label.removeAttribute("transform");
  }

  function drawPieces(v) {
    const present = new Set(v.pieces.map((p) => p.id));
    for (const [id, node] of pieceNodes) {
      if (!present.has(id)) { node.g.remove(); pieceNodes.delete(id); }
    }
    const touchable = new Set(myTurn() ? v.touchable : []);
    for (const p of v.pieces) {
      const node = ensurePiece(p);
      movePiece(node, p.x, p.y);
      node.circle.classList.toggle("touchable", touchable.has(p.id));
      node.circle.setAttribute("tabindex", touchable.has(p.id) ? "0" : "-1");
      node.circle.setAttribute("role", touchable.has(p.id) ? "button" : "img");
      node.circle.setAttribute("aria-label", t("{size} piece {id}", { size: size(p.size), id: p.id })
        + (v.touched === p.id ? t(", touched") : "") + (touchable.has(p.id) ? t(": touch it") : ""));
      node.circle.setAttribute("stroke", v.touched === p.id ? "#111" : "#333");
      node.circle.setAttribute("stroke-width", v.touched === p.id ? 2.4 : 0.8);
      if (v.touched === p.id) node.circle.setAttribute("data-touched", "");
      else node.circle.removeAttribute("data-touched");
    }
  }

  function drawStress(v) {
    while (stressLayer.firstChild) stressLayer.removeChild(stressLayer.firstChild);
    if (!v.stress) return;
    const at = new Map(v.pieces.map((p) => [p.id, p]));
    for (const [a, b, f] of v.stress.contacts) {
      const pb = at.get(b);
      if (!pb) continue;
      let x1, y1;
      if (a === -1) { x1 = v.bar; y1 = pb.y; } // the bar's face
      else if (a === -2) { // the nearest wall
        const d = [[pb.x, 0, pb.y], [pb.y, pb.x, 0], [v.tray.width - pb.y, pb.x, v.tray.width]];
        d.sort((p, q) => p[0] - q[0]);
        [x1, y1] = [d[0][1], d[0][2]];
      } else {
        const pa = at.get(a);
        if (!pa) continue;
        [x1, y1] = [pa.x, pa.y];
      }
      svg("line", { x1, y1, x2: pb.x, y2: pb.y, stroke: "#7c3aed", "stroke-opacity": 0.75,
                    "stroke-width": Math.min(6, 0.4 + 3 * f), "stroke-linecap": "round",
                    "data-contact": `${a},${b}` }, stressLayer);
    }
  }

  function drawTop(v) {
    while (top.firstChild) top.removeChild(top.firstChild);
    drawTopLines(v);
    // A phone in landscape cuts a long line short: its whole text on a long press / hover.
    for (const line of top.children) if (!line.getAttribute("title")) line.setAttribute("title", line.textContent);
  }

  // The steps of this player's turn, the one to do now lit; the tray dims what is not part of it.
  function drawSteps(v) {
    const step = myTurn() ? (v.touched === null ? "1" : "2") : "";
    steps.dataset.step = step;
    tray.dataset.step = step;
    stepTwo.textContent = v.must_remove ? t("Take it (no pass left)") : t("Take it or pass");
    for (const li of steps.children) {
      const on = /** @type {HTMLElement} */ (li).dataset.step === step;
      li.classList.toggle("on", on);
      if (on) li.setAttribute("aria-current", "step");
      else li.removeAttribute("aria-current");
    }
  }

  // A seat's points and what it kept, short (the page's strips, or the lines over the tray).
  const seatScore = (s) => tn("{n} pt", "{n} pts", s.net) + (s.debt ? ` ${t("(owes {n})", { n: s.debt })}` : "");
  const seatDetail = (s) => `${["L", "M", "S"].filter((z) => s.pieces[z]).map((z) => counted(z, s.pieces[z])).join(", ") || t("no pieces")}`
    + ` · ${tn("{n} trip", "{n} trips", s.trips)}`;

  function drawTopLines(v) {
    // The page's player strips say each seat's points (stripExtras): over the tray only the pile
    // and the tray's count, on one line (issue 39: four dense lines, cut on a phone).
    for (const s of ctx.strips ? [] : v.scores) {
      const pieces = ["L", "M", "S"].filter((z) => s.pieces[z]).map((z) => counted(z, s.pieces[z])).join(", ");
      el("div", {
        class: "bt-seat" + (v.to_move === s.seat ? " to-move" : ""), "data-seat": s.seat,
        text: t("{label}: ", { label: ctx.seatLabel(s.seat) }) + tn("{n} pt", "{n} pts", s.net) + (s.debt ? ` ${t("(owes {n})", { n: s.debt })}` : "") +
          ` · ${pieces || t("no pieces")} · ${tn("{n} trip", "{n} trips", s.trips)}`,
      }, top);
    }
    const d = v.discard.count;
    el("div", { class: "bt-seat", "data-discard": v.discard.ids.length,
                title: t("Discard pile: {n} ({sizes})", { n: v.discard.ids.length, sizes: [counted("L", d.L), counted("M", d.M), counted("S", d.S)].join(", ") }),
                text: t("Discard pile: {n}", { n: v.discard.ids.length }) }, top);
    el("div", { class: "bt-seat", "data-tray-count": v.pieces_left,
                // How far the bar has crept since set-up is on its scale (and said on demand): a
                // removal trips on its own travel, so the total tells a new player nothing (issue 39).
                title: t("The bar has moved {marks} since set-up", { marks: marks(v.bar_marks) }),
                // The end as the pieces still to take ("the game ends at 2" said 2 of nothing).
                text: `${tn("{n} piece on the tray", "{n} pieces on the tray", v.pieces_left)} · ${
                  tn("{n} to take", "{n} to take", Math.max(0, v.pieces_left - v.end_at))}` }, top);
  }

  function drawStatus(v) {
    let text;
    if (v.terminal) {
      const you = v.winners.length === 1 && ctx.seatLabel(v.winners[0]) === t("You");
      text = you ? t("Game over: you won.") : v.winners.length ? t("Game over: {who} won.", { who: v.winners.map((s) => ctx.seatLabel(s)).join(t(" and ")) })
        : t("Game over.");
    } else {
      const who = ctx.seatLabel(v.to_move);
      // The viewer's own sentences are their own messages (issue 37: no "You touches").
      const you = who === t("You");
      if (v.touched === null) {
        text = myTurn() ? (TOUCH ? t("Your turn: tap any piece to feel how tight it is.") : t("Your turn: click any piece to feel how tight it is."))
          : you ? t("You are to touch a piece.") : t("{who} to touch a piece.", { who });
      }
      else if (v.must_remove) text = you ? t("You touched {piece} (ringed) and must remove it.", { piece: pieceWords(v.touched) })
        : t("{who} touched {piece} (ringed) and must remove it.", { who, piece: pieceWords(v.touched) });
      else text = you ? t("You touched {piece} (ringed): remove it or pass.", { piece: pieceWords(v.touched) })
        : t("{who} touched {piece} (ringed): remove it or pass.", { who, piece: pieceWords(v.touched) });
      if (v.passes_in_row) text += " " + t("Passes in a row: {n} of {max}.", { n: v.passes_in_row, max: 2 * v.players });
    }
    status.textContent = text;
    // The feel: only this seat's own reading is in its view.
    if (v.reading) {
      feel.hidden = false;
      feel.className = "bt-feel";
      feel.style.setProperty("--feel", FEEL_COLOUR[v.reading.feel] || "#57534e");
      fillFeel(feel, v.reading.piece, v.reading.feel, v.reading.reading, true);
      feel.dataset.feel = v.reading.feel;
      feel.dataset.piece = v.reading.piece;
    } else {
      feel.hidden = true;
      feel.dataset.feel = "";
    }
    while (controls.firstChild) controls.removeChild(controls.firstChild);
    if (myTurn() && v.touched !== null) {
      for (const a of v.legal_actions) {
        const label = a.text === "remove" ? t("Remove it") : a.text === "pass" ? t("I pass") : a.text;
        const b = el("button", { "data-action": a.text, text: label, class: a.text === "remove" ? "primary" : "",
                                 onclick: async () => {
          // One send per decision: a double click does not send (or report) it twice.
          if (b.disabled) return;
          controls.querySelectorAll("button").forEach((x) => { x.disabled = true; });
          const res = await ctx.send(a.text);
          if (!res || !res.ok) controls.querySelectorAll("button").forEach((x) => { x.disabled = false; });
        } }, controls);
      }
    }
    side.textContent = v.teaching ? t("Teaching mode: purple lines are the contact forces (thicker = more of the bar's force).") : "";
    teachCard.hidden = !v.teaching;
  }

  function showResult(r) {
    if (!r) { result.hidden = true; return; }
    result.hidden = false;
    result.className = "bt-result " + (r.tripped ? "tripped" : "kept");
    result.dataset.result = r.tripped ? "tripped" : "kept";
    const who = ctx.seatLabel(r.seat);
    result.textContent = r.tripped
      ? t("{who}: {piece} removed, the bar moved {marks} — tripped! 3-point penalty", { who, piece: pieceWords(r.piece), marks: marks(r.marks) }) +
        (r.popped && r.popped.length ? tn("; {n} more piece jumped out.", "; {n} more pieces jumped out.", r.popped.length) : ".")
      : t("{who}: {piece} taken, the bar held.", { who, piece: pieceWords(r.piece) });
    result.dataset.seat = r.seat;
    result.dataset.piece = r.piece;
  }

  async function animate(v, event) {
    const frames = event.frames || [];
    if (!frames.length) return;
    const gone = pieceNodes.get(event.piece);
    if (gone) { gone.g.remove(); pieceNodes.delete(event.piece); }
    const per = Math.max(8, Math.min(30, Math.floor(900 / frames.length)));
    animationRunning = true;
    for (const frame of frames) {
      const seen = new Set();
      for (const [id, x, y] of frame.pieces) {
        const node = pieceNodes.get(id);
        if (node) { movePiece(node, x, y); seen.add(id); }
      }
      for (const [id, node] of pieceNodes) node.g.style.opacity = seen.has(id) ? "1" : "0.15";
      placeBar(v, frame.bar);
      await ctx.sleep(per);
    }
    for (const node of pieceNodes.values()) node.g.style.opacity = "1";
    animationRunning = false;
    animations += 1;
    root.dataset.animations = String(animations);
    root.dataset.lastFrames = String(frames.length);
    // "seat:piece:tripped|kept" per animated removal, for tests and curious users.
    const done = `${event.seat}:${event.piece}:${event.tripped ? "tripped" : "kept"}`;
    root.dataset.removals = root.dataset.removals ? `${root.dataset.removals},${done}` : done;
  }

  function drawLastHole(v) {
    for (const old of pieceLayer.querySelectorAll("[data-last-move]")) old.remove();
    if (!lastHole || !v.last_removal || v.last_removal.piece !== lastHole.id) return;
    // Where the piece was is a hole only while the tray stood still: not after a trip (the bar and
    // the pieces moved: the ring was around nothing, or around another piece), nor on the final
    // tray (judge 5: "a ring around nothing" on the end screen).
    if (v.terminal || v.last_removal.tripped) return;
    const ring = svg("circle", { cx: lastHole.x, cy: lastHole.y, r: lastHole.r, fill: "none", stroke: "#d97706",
                                 "stroke-width": 1.6, "stroke-dasharray": "4 2", "data-last-move": "1",
                                 "pointer-events": "none" }, pieceLayer);
    const title = svg("title", {}, ring);
    title.textContent = t("Piece {id} was removed from here", { id: lastHole.id });
  }

  // A phone turned (or a window resized) past square: the tray turns with it.
  // (its callback runs just after Blink laid the page out: the sizes read there cost no layout;
  // the tray's first, before anything is drawn again)
  let sizeAsked = false;
  function notePlayedSize() {
    const box = tray.getBoundingClientRect();
    if (box.width && box.height) playedSize = { w: box.width, h: box.height };
  }
  if (typeof ResizeObserver !== "undefined") {
    const seen = new ResizeObserver(() => {
      // the tray's size during play, kept for the end
      if (view && !view.terminal) notePlayedSize();
      panBox = measure();
      if (view && !animationRunning && turnIt() !== upright) drawAll(view);
    });
    seen.observe(pan);
    seen.observe(tray);
  }

  function drawAll(v) {
    drawStatic(v);
    drawScale(v);
    drawTop(v);
    drawPieces(v);
    drawLastHole(v);
    placeBar(v, v.bar);
    drawStress(v);
    drawStatus(v);
    drawSteps(v);
    showResult(v.last_removal);
  }

  // The end card's title: a short verdict, one line (issue 39: it was a two-line sentence); the
  // how (the tray's last piece, the last removal) goes under it.
  function verdict(u, scores) {
    const nets = scores.map((s) => ({ seat: s.seat, net: s.net })).sort((a, b) => b.net - a.net);
    const winners = u.winners || [];
    if (!nets.length) return undefined;
    if (winners.length !== 1) return t("A draw at {a} points.", { a: nets[0].net });
    const best = nets.find((s) => s.seat === winners[0]) || nets[0];
    const next = nets.find((s) => s.seat !== best.seat);
    const a = best.net;
    const b = next ? next.net : 0;
    const who = ctx.seatLabel(best.seat); // "You" for this page's own seat (none on a shared screen)
    return who === t("You") ? t("You win, {a} points to {b}.", { a, b }) : t("{who} wins, {a} points to {b}.", { who, a, b });
  }

  return {
    async update(u) {
      const v = u.view;
      for (const p of (v && v.pieces) || []) sizes.set(Number(p.id), p.size);
      for (const r of [v && v.last_removal, ...(u.events || []).filter((e) => e.type === "removal")]) {
        if (r && r.size) sizes.set(Number(r.piece), r.size); // a piece gone from the tray, still named
      }
      const removal = (u.events || []).find((e) => e.type === "removal");
      if (removal && !u.sync && view) {
        const was = view.pieces.find((p) => p.id === removal.piece);
        lastHole = was ? { id: was.id, x: was.x, y: was.y, r: was.r } : null;
        // Animate on the previous drawing, then draw the new state.
        drawStress({ ...view, stress: null });
        result.hidden = true;
        view = v;
        await animate(v, removal);
      }
      view = v;
      // The end keeps the tray's scale (issue 39: it was redrawn larger once the action bar went):
      // no larger than during play; a page opened at the end draws it as it fits.
      // (playedSize: the ResizeObserver's, above; the first in the next frame)
      if (!v.terminal) {
        if (!playedSize && !sizeAsked) {
          sizeAsked = true;
          requestAnimationFrame(() => { if (view && !view.terminal) notePlayedSize(); });
        }
        if (tray.style.maxWidth || tray.style.maxHeight) tray.style.maxWidth = tray.style.maxHeight = "";
      } else if (playedSize) {
        tray.style.maxWidth = `${Math.ceil(playedSize.w)}px`;
        tray.style.maxHeight = `${Math.ceil(playedSize.h)}px`;
      }
      drawAll(v);
    },
    summary(u) {
      const v = u.view;
      const reason = [v.pieces_left ? tn("Only {n} piece is left on the tray: the player with the most points wins.", "Only {n} pieces are left on the tray: the player with the most points wins.", v.pieces_left)
        : t("The tray is empty: the player with the most points wins.")];
      if (v.last_removal) reason.push(v.last_removal.tripped ? t("Last removal: {piece}, the bar tripped.", { piece: pieceWords(v.last_removal.piece) })
        : t("Last removal: {piece}, the bar held.", { piece: pieceWords(v.last_removal.piece) }));
      return {
        title: verdict(u, v.scores),
        reason,
        columns: [t("Player"), t("Points"), t("Pieces kept"), t("Trips")],
        scores: v.scores.map((s) => ({
          seat: s.seat,
          cells: [String(s.net) + (s.debt ? ` ${t("(owes {n})", { n: s.debt })}` : ""),
                  ["L", "M", "S"].filter((z) => s.pieces[z]).map((z) => counted(z, s.pieces[z])).join(", ") || t("none"),
                  String(s.trips)],
        })),
      };
    },
    // The Moves log's one line per turn (issue 39: five sentences a move): the outcome (kept,
    // tripped, passed), the touch and the feel under its "+".
    logHeadline(items) {
      const outcome = ["keeps", "keeps_still", "trips", "trips_popped", "passes"].map((k) => `booby_trap.${k}`);
      return items.findIndex((item) => item && outcome.includes(item.msg));
    },
    // Each seat's points beside its name in the page's strips; what it kept under the name.
    stripExtras(u) {
      const v = u.view;
      if (!v || !v.scores) return null;
      const out = {};
      // The detail also on the points' tooltip: a phone on its side has no room for its line.
      for (const s of v.scores) out[s.seat] = { score: seatScore(s), detail: seatDetail(s), title: `${seatScore(s)} · ${seatDetail(s)}` };
      return out;
    },
    showHint(h) {
      // The hint's piece is outlined on the tray (a touch), or its button is the one marked.
      for (const n of tray.querySelectorAll("circle.piece.hinted")) n.classList.remove("hinted");
      const m = /^touch (\d+)$/.exec(h.move || "");
      if (m) {
        const node = pieceNodes.get(Number(m[1])) || pieceNodes.get(m[1]);
        if (node) node.circle.classList.add("hinted");
      } else {
        const b = controls.querySelector(`button[data-action="${h.move}"]`);
        if (b) b.classList.add("hinted");
      }
    },
    destroy() {
      pieceNodes.clear();
    },
  };
}
