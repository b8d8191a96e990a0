// Last Mouse Lost renderer: the board of mice in SVG. Tap mice to select them (or slide across a
// run), then Press. It decides no rule: a tap builds one of the view's legal actions (their mice
// are the server's: in basic rules a press of n mice takes the row's n rightmost raised ones), the
// board rings exactly that action's mice and Press sends that action's text (issue 39: what you
// tap is what goes down).

const ROW_NAMES = "abcdefghijklmnopqrstuvwxyz";
const CELL = 74;
const ROW_H = 78;
const LEFT = 50;

// A screen whose main pointer is a finger.
const TOUCH = typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;

function mouseNumbers(mice) {
  return [...mice].sort((a, b) => a - b).map((i) => i + 1);
}

export default function createRenderer(root, ctx) {
  const t = ctx.t || ((m, v) => m.replace(/\{(\w+)\}/g, (x, k) => (v && k in v ? v[k] : x)));
  const tn = ctx.tn || ((one, many, n, v) => t(n === 1 ? one : many, { n, ...(v || {}) }));
  const { el, svg } = ctx;
  root.classList.add("lml");
  const style = el("style", {}, root);
  style.textContent = `
    .lml-info { display: flex; flex-wrap: wrap; gap: .6em 1.4em; align-items: baseline; margin-bottom: .5em; }
    .lml-score { font-size: 1.25em; font-weight: 700; }
    .lml-stage { position: relative; }
    .lml-board { display: block; margin: 0 auto; touch-action: none; user-select: none; }
    /* The keyboard's place is the mouse's own ring, drawn once a key is used (the page puts the focus
       on the board when it opens, and a ring on a1 before any key looked like a stray glyph). */
    .lml-board .mouse:focus-visible { stroke: none; outline: none; }
    body[data-keys="1"] .lml-board .mouse:focus-visible .sel { stroke: #1d4ed8; }
    .lml-board .mouse[data-raised="1"].live { cursor: pointer; }
    .lml-board .mouse .sel { fill: none; stroke: transparent; stroke-width: 5; }
    .lml-board .mouse.selected .sel { stroke: #f59e0b; }
    .lml-board .mouse.hinted .sel { stroke: #16a34a; stroke-dasharray: 6 4; }
    .lml-board .mouse.just .body { animation: lml-press .9s ease-in forwards; transform-box: fill-box; transform-origin: center bottom; }
    @keyframes lml-press { 0% { transform: translateY(0) scale(1); opacity: 1; }
                           35% { transform: translateY(0) scale(1, .85); opacity: 1; }
                           100% { transform: translateY(10px) scale(.45, .2); opacity: 0; } }
    /* The mice the last press took down stay ringed until the next move, so a player sees which went. */
    .lml-board .mouse .just-ring { fill: none; stroke: #dc2626; stroke-width: 3; stroke-dasharray: 5 3; }
    @media (prefers-reduced-motion: reduce) {
      .lml-board .mouse.just .body { animation: none; opacity: 0; }
    }
    .lml-board text { pointer-events: none; font-family: system-ui, sans-serif; }
    /* The wood, the row letters and the mice's numbers follow the page's theme (issue 39: a bright
       tan board in the dark theme). */
    .lml-board .wood { fill: #e7c27d; stroke: #a16207; }
    .lml-board .row-name { fill: #78350f; }
    .lml-board .mouse-number { fill: #3f2d1d; }
    html[data-theme="dark"] .lml-board .wood { fill: #4b3621; stroke: #b7791f; }
    html[data-theme="dark"] .lml-board .row-name { fill: #f3d39b; }
    html[data-theme="dark"] .lml-board .mouse-number { fill: #eadbc0; }
    html[data-theme="dark"] .lml-board .hole { fill: #1a120a; }
    /* The end: the last press's mice shown in their holes, ringed (the move that ended it). */
    .lml-board .mouse.final-press .body { opacity: .9; }
    .lml-board .mouse .final-ring { fill: none; stroke: #dc2626; stroke-width: 4; }
    html[data-theme="dark"] .lml-board .mouse .final-ring { stroke: #f87171; }
    .lml-final { font-weight: 600; }
    .lml-controls { display: flex; flex-wrap: wrap; gap: .4em .6em; align-items: center; justify-content: center; margin-top: .1em; min-height: 2.4em; }
    .lml-controls[hidden] { display: none; }
    /* The selection's words on a line of their own with room for two lines: a longer selection
       never wraps the bar into a new height (issue 27: the board holds still). */
    .lml-controls [data-testid=selection] { flex: 1 0 100%; min-height: 2.6em; display: flex; align-items: center;
                                            justify-content: center; text-align: center; line-height: 1.3; }
    .lml-turn { text-align: center; font-weight: 600; margin: 0; }
    /* A wide bar holds the longest selection's words on one line: no blank line under "Your turn". */
    @media (min-width: 901px) { .lml-controls [data-testid=selection] { min-height: 1.4em; } }
    /* A phone upright: the score and the round as one line over the board, inside the screen's edge. */
    @media (max-width: 600px) and (orientation: portrait) {
      .lml-info { padding: .2em .5em 0; gap: .1em .8em; margin-bottom: .2em; font-size: .9em; }
      .lml-score { font-size: 1.1em; }
    }
    .lml-overlay { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center;
                   background: color-mix(in srgb, var(--color-surface, #fbf8f1) 88%, transparent); border-radius: .5em; text-align: center; }
    .lml-overlay[hidden] { display: none; }
    .lml-overlay .box { background: var(--color-surface, #fff); color: var(--color-ink, #1f2328); border: 2px solid #b45309; border-radius: .7em; padding: 1.2em 1.6em; max-width: 90%; }
    .lml-overlay h3 { margin: .1em 0 .4em; font-size: 1.6em; }
    .lml-overlay .actions { display: flex; gap: .8em; justify-content: center; margin-top: .8em; flex-wrap: wrap; }
  `;

  const infoBar = el("div", { class: "lml-info" }, root);
  const turnLine = el("div", { class: "lml-turn", "data-testid": "turn" }, ctx.bar);
  const stage = el("div", { class: "lml-stage board-pan" }, root);
  const board = svg("svg", { class: "lml-board", "data-board": "last-mouse-lost", role: "group",
                             "aria-label": t("The board: rows of mice") }, stage);
  ctx.enableArrowKeys(board);
  const overlay = el("div", { class: "lml-overlay", hidden: true }, stage);
  const controls = el("div", { class: "lml-controls" }, ctx.bar);
  const selText = el("span", { class: "muted", "data-testid": "selection" }, controls);
  const pressBtn = el("button", { class: "primary", text: t("Press"), "data-testid": "press", disabled: true }, controls);
  const clearBtn = el("button", { text: t("Clear"), "data-testid": "clear-selection", disabled: true }, controls);
  if (ctx.mode !== "live" || ctx.seat === null) controls.hidden = true;

  let view = null;
  let selection = { row: null, mice: new Set() };
  let hinted = { row: null, mice: new Set() };
  let drag = null;
  let sending = false;

  const myTurn = () => ctx.mode === "live" && view && !view.terminal && view.to_move !== null && view.to_move === ctx.seat;

  function who(seat) { return ctx.seatLabel(seat); }

  function matchAction() {
    // The listed action pressing exactly the selected mice. The selection is always built as one
    // (select() below), so what the board shows ringed is what goes down.
    if (!view || selection.row === null || selection.mice.size === 0) return null;
    const wanted = mouseNumbers(selection.mice).join(",");
    return (view.legal_actions || []).find((a) => a.row === selection.row && a.mice.map((i) => i + 1).join(",") === wanted) || null;
  }

  /** The raised mice of row `r` from `lo` to `hi` (indices, inclusive), or null where one is down.
   * @param {number} r @param {number} lo @param {number} hi */
  function run(r, lo, hi) {
    const mice = new Set();
    for (let k = lo; k <= hi; k++) {
      if (!view.rows[r][k]) return null;
      mice.add(k);
    }
    return mice;
  }

  /** The raised mice of row `r` from index `i` to the row's end: in basic rules the press of that
   * many mice takes the rightmost ones down (the server's legal action lists them), so tapping a
   * mouse selects it and the raised mice right of it, the very mice that go down (issue 39: "what
   * you tap is what goes down"; only how many counts in basic rules).
   * @param {number} r @param {number} i */
  function suffix(r, i) {
    const mice = new Set();
    view.rows[r].forEach((up, k) => { if (up && k >= i) mice.add(k); });
    return mice;
  }

  /** A tap on mouse `i` of row `r`: the selection stays one of the legal presses, always.
   * Basic rules: the mouse and the raised mice right of it (a tap on the leftmost selected mouse
   * takes it out). Advanced rules: a run of mice side by side: a tap next to the run (or past
   * raised mice) stretches it, a tap on one of its ends takes that mouse out, any other tap starts
   * a new run at that mouse.
   * @param {number} r @param {number} i */
  function tapped(r, i) {
    const same = selection.row === r && selection.mice.size > 0;
    const lo = same ? Math.min(...selection.mice) : -1;
    const hi = same ? Math.max(...selection.mice) : -1;
    let mice;
    if (view.rules === "basic") {
      mice = same && i === lo ? suffix(r, i + 1) : suffix(r, i);
    } else if (same && selection.mice.has(i)) {
      if (i === lo) mice = run(r, lo + 1, hi);
      else if (i === hi) mice = run(r, lo, hi - 1);
      else mice = new Set([i]);
    } else {
      mice = (same && run(r, Math.min(lo, i), Math.max(hi, i))) || new Set([i]);
    }
    select(r, mice || new Set());
  }

  /** A slide from mouse `from` to mouse `to` of row `r`: basic rules, from the leftmost of the two
   * to the row's end; advanced rules, the raised mice side by side from `from` toward `to`.
   * @param {number} r @param {number} from @param {number} to */
  function slid(r, from, to) {
    if (view.rules === "basic") { select(r, suffix(r, Math.min(from, to))); return; }
    const step = to >= from ? 1 : -1;
    let end = from;
    while (end !== to && view.rows[r][end + step]) end += step;
    select(r, run(r, Math.min(from, end), Math.max(from, end)) || new Set([from]));
  }

  /** @param {number} r @param {Set<number>} mice */
  function select(r, mice) {
    selection = mice.size ? { row: r, mice } : { row: null, mice: new Set() };
    refreshControls();
  }

  function instructions() {
    if (view && view.rules === "advanced") {
      return TOUCH ? t("Tap mice side by side in one row (or slide across them), then Press.")
        : t("Click mice side by side in one row (or drag across them), then Press.");
    }
    return TOUCH ? t("Tap a mouse: it and the mice right of it go down. Then Press.")
      : t("Click a mouse: it and the mice right of it go down. Then Press.");
  }

  function refreshControls() {
    const n = selection.mice.size;
    const match = matchAction();
    if (!myTurn()) selText.textContent = "";
    // A touch screen's player taps (issue 39: "Click" read as a desktop page's words on a phone).
    else if (!n) selText.textContent = instructions();
    // The selection's words say exactly the mice that go down, as the board rings them.
    else selText.textContent = tn("Row {row}: mouse {mice} goes down.", "Row {row}: mice {mice} go down.", n,
                                  { row: ROW_NAMES[selection.row], mice: mouseNumbers(selection.mice).join(", ") });
    controls.hidden = ctx.mode !== "live" || ctx.seat === null || !!(view && view.terminal); // no Press after the end
    pressBtn.disabled = !myTurn() || !n || !match || sending;
    pressBtn.textContent = n ? tn("Press {n} mouse", "Press {n} mice", n) : t("Press");
    pressBtn.dataset.action = match ? match.text : "";
    clearBtn.disabled = !n;
    for (const g of board.querySelectorAll(".mouse")) {
      const r = +g.dataset.row, i = +g.dataset.mouse;
      const on = selection.row === r && selection.mice.has(i);
      g.classList.toggle("selected", on);
      if (g.hasAttribute("data-kbd")) {
        g.setAttribute("tabindex", myTurn() ? "0" : "-1");
        g.setAttribute("aria-pressed", on ? "true" : "false");
      }
      g.classList.toggle("hinted", hinted.row === r && hinted.mice.has(i));
      g.classList.toggle("live", myTurn());
    }
  }

  function clearSelection() {
    selection = { row: null, mice: new Set() };
    refreshControls();
  }

  async function press() {
    if (!myTurn() || !selection.mice.size || sending) return;
    const match = matchAction();
    if (!match) return; // never sent: the selection is always a legal press (tapped() above)
    const text = match.text;
    sending = true;
    refreshControls();
    const reply = await ctx.send(text);
    sending = false;
    if (reply.ok) { selection = { row: null, mice: new Set() }; hinted = { row: null, mice: new Set() }; }
    refreshControls();
  }

  pressBtn.addEventListener("click", press);
  clearBtn.addEventListener("click", clearSelection);

  function mouseAt(x, y) {
    const hit = document.elementFromPoint(x, y);
    const g = hit && hit.closest && hit.closest(".mouse");
    return g && board.contains(g) ? g : null;
  }

  board.addEventListener("pointerdown", (e) => {
    const g = e.target.closest && e.target.closest(".mouse");
    if (!g || !myTurn() || g.dataset.raised !== "1") return;
    e.preventDefault();
    drag = { row: +g.dataset.row, start: +g.dataset.mouse, moved: false };
  });
  board.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const g = /** @type {SVGElement|null} */ (mouseAt(e.clientX, e.clientY));
    if (!g || +g.dataset.row !== drag.row) return;
    const i = +g.dataset.mouse;
    if (i === drag.start && !drag.moved) return;
    drag.moved = true;
    slid(drag.row, drag.start, i);
  });
  window.addEventListener("pointerup", () => {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (d.moved) return;
    tapped(d.row, d.start);
  });
  document.addEventListener("keydown", (/** @type {KeyboardEvent & {target: any}} */ e) => {
    if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA" || e.target.tagName === "BUTTON"
        || e.target.tagName === "A" || (e.target.closest && e.target.closest("[data-kbd]")))) return;
    if (e.key === "Enter" && selection.mice.size) press();
    if (e.key === "Escape") clearSelection();
  });

  document.addEventListener("keydown", () => { document.body.dataset.keys = "1"; }, { capture: true, once: true });

  function drawMouse(parent, x, y, raised, r, i, just, final = false) {
    const g = svg("g", { class: "mouse" + (just ? " just" : "") + (final ? " final-press" : ""), "data-row": r, "data-mouse": i,
                         "data-raised": raised ? "1" : "0", transform: `translate(${x},${y})` }, parent);
    svg("ellipse", { class: "hole", cx: 0, cy: 16, rx: 27, ry: 12, fill: "#3f2d1d" }, g); // the hole
    if (final) {
      // The end (issue 39: the last position was empty holes): the mice of the press that ended it,
      // seen going into their holes, ringed.
      g.setAttribute("data-final-press", "1");
      svg("ellipse", { class: "final-ring", cx: 0, cy: 4, rx: 32, ry: 27 }, g);
    }
    if (!raised) {
      // Pressed flush into its hole: a dark cap with a rim, nothing like a raised grey mouse.
      svg("ellipse", { class: "cap", cx: 0, cy: 15, rx: 21, ry: 8, fill: "#1c1917", stroke: "#a16207", "stroke-width": 2 }, g);
      if (just) {
        g.setAttribute("data-last-move", "1"); // the board's last move, marked until the next
        svg("ellipse", { class: "just-ring", cx: 0, cy: 12, rx: 30, ry: 17 }, g);
      }
    }
    if (raised || just || final) {
      const body = svg("g", { class: "body" }, g);
      svg("path", { d: "M22 8 C 34 4, 36 -10, 30 -18", stroke: "#9a8c7a", "stroke-width": 3, fill: "none" }, body);
      svg("ellipse", { cx: 0, cy: 4, rx: 24, ry: 16, fill: "#a8a29e", stroke: "#57534e", "stroke-width": 2 }, body);
      svg("circle", { cx: -17, cy: -12, r: 9, fill: "#d6d3d1", stroke: "#57534e", "stroke-width": 2 }, body);
      svg("circle", { cx: -17, cy: -12, r: 4.5, fill: "#fda4af" }, body);
      svg("circle", { cx: 3, cy: -13, r: 9, fill: "#d6d3d1", stroke: "#57534e", "stroke-width": 2 }, body);
      svg("circle", { cx: 3, cy: -13, r: 4.5, fill: "#fda4af" }, body);
      svg("circle", { cx: -13, cy: 1, r: 2.6, fill: "#1c1917" }, body);
      svg("circle", { cx: -23, cy: 7, r: 2.4, fill: "#be123c" }, body);
    }
    svg("ellipse", { class: "sel", cx: 0, cy: 4, rx: 31, ry: 26 }, g);
    svg("text", { class: "mouse-number", x: 0, y: 40, "text-anchor": "middle", "font-size": 12, "font-weight": 600, text: String(i + 1) }, g);
    if (raised && !final && ctx.mode === "live" && ctx.seat !== null) {
      // Enter or Space selects a mouse; Enter on a selected mouse presses the selection (issue 27:
      // a press by keyboard is arrows, then Enter twice).
      ctx.actionable(g, t("Row {row}, mouse {n}, raised", { row: ROW_NAMES[r], n: i + 1 }), (e) => {
        if (!myTurn()) return;
        if (e && e.key === "Enter" && selection.row === r && selection.mice.has(i)) press();
        else tapped(r, i);
      }, { click: false });
    } else {
      g.setAttribute("role", "img");
      const state = final ? t("the last mouse pressed, which ended the round") : raised ? t("raised")
        : just ? t("pressed down by the last move") : t("pressed down");
      g.setAttribute("aria-label", t("Row {row}, mouse {n}, {state}", { row: ROW_NAMES[r], n: i + 1, state }));
    }
    return g;
  }

  // finalPress: {row, mice} the press that ended the game, drawn as mice going down (the end).
  function drawBoard(justPressed, finalPress = null) {
    board.replaceChildren();
    const widest = Math.max(...view.board);
    const width = LEFT + widest * CELL + 20;
    const height = view.board.length * ROW_H + 20;
    board.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg("rect", { class: "wood", x: 4, y: 4, width: width - 8, height: height - 8, rx: 26, "stroke-width": 4 }, board);
    view.board.forEach((n, r) => {
      const y = 20 + r * ROW_H + 30;
      svg("text", { class: "row-name", x: 24, y: y + 10, "text-anchor": "middle", "font-size": 20, "font-weight": 700,
                    text: ROW_NAMES[r] }, board);
      const x0 = LEFT + (widest - n) * CELL / 2 + CELL / 2;
      for (let i = 0; i < n; i++) {
        const just = justPressed && justPressed.row === r && justPressed.mice.has(i);
        const final = !!(finalPress && finalPress.row === r && finalPress.mice.has(i));
        drawMouse(board, x0 + i * CELL, y, view.rows[r][i], r, i, just, final);
      }
    });
  }

  /** The match's score as the page writes it everywhere: "You 1 – 3 Player 2". @param {number[]} s */
  function scoreLine(s) {
    return `${who(0)} ${s[0]} – ${s[1]} ${who(1)}`;
  }

  function drawInfo() {
    infoBar.replaceChildren();
    const s = view.score;
    el("span", { class: "lml-score", "data-testid": "score", text: scoreLine(s) }, infoBar);
    const ft = view.first_to;
    el("span", { text: view.terminal ? t("match over") : t("Round {n}", { n: view.round }) + " "
      + (ft > 1 ? t("(first to {n} rounds)", { n: ft }) : t("(a single round)")) }, infoBar);
    el("span", { class: "muted", "data-testid": "rules",
                 text: `${view.rules === "advanced" ? t("Advanced rules") : t("Basic rules")} · ${t("whoever presses the last mouse loses the round")}` }, infoBar);
    const raised = view.rows.reduce((t, row) => t + row.filter(Boolean).length, 0);
    el("span", { class: "muted", text: tn("{n} mouse raised", "{n} mice raised", raised) }, infoBar);
    if (view.terminal) turnLine.textContent = "";
    else if (view.awaiting_chance) turnLine.textContent = t("Drawing who opens…");
    else if (myTurn()) turnLine.textContent = ctx.shared ? t("{who}: your turn", { who: who(ctx.seat) }) : t("Your turn");
    // a review shows a position, not a wait: no "…"
    else if (ctx.mode !== "live") turnLine.textContent = t("{who} to play", { who: who(view.to_move) });
    else turnLine.textContent = t("{who} to move…", { who: who(view.to_move) });
  }

  // The end: which mice the last press took down, by whom (issue 39: the end was a board of empty
  // holes). The mice are those raised just before it (the server's view then: the previous update
  // live, the game's moment on a page opened at the end); none are worked out here.
  async function showFinalPress(u, previous) {
    const final = u.view;
    let before = previous && !u.sync && previous.round === final.round ? previous : null;
    if (!before && ctx.moment && u.ply > 0) {
      const m = await ctx.moment(u.ply - 1);
      if (m && m.view) before = m.view;
    }
    if (!before || view !== final) return; // nothing to compare, or a newer update came meanwhile
    const last = { row: null, mice: new Set() };
    before.rows.forEach((row, r) => row.forEach((up, i) => {
      if (up && final.rows[r] && !final.rows[r][i] && (last.row === null || last.row === r)) { last.row = r; last.mice.add(i); }
    }));
    if (!last.mice.size) return;
    drawBoard(null, last);
    const by = u.last_action && u.last_action.seat >= 0 ? u.last_action.seat : null;
    const move = `${ROW_NAMES[last.row]}${mouseNumbers(last.mice).join(",")}`;
    const yours = by !== null && by === ctx.seat && ctx.mode === "live" && !ctx.shared;
    const words = by === null ? t("Ringed: the last press ({move}).", { move })
      : yours ? t("Ringed: your last press ({move}).", { move })
      : t("Ringed: the last press ({move}), by {who}.", { move, who: who(by) });
    el("span", { class: "lml-final", "data-testid": "final-press", text: words }, infoBar);
  }

  function showOverlay(title, lines, buttons, testid) {
    overlay.replaceChildren();
    overlay.hidden = false;
    const box = el("div", { class: "box", "data-testid": testid || "overlay" }, overlay);
    el("h3", { text: title }, box);
    for (const line of lines) el("p", { text: line }, box);
    if (buttons && buttons.length) {
      const row = el("div", { class: "actions" }, box);
      for (const b of buttons) el("a", { href: b.href, text: b.text, ...(b.download ? { download: "" } : {}) }, row);
    }
  }

  return {
    async update(u) {
      const previous = view;
      view = u.view;
      selection = { row: null, mice: new Set() };
      hinted = { row: null, mice: new Set() };
      const events = u.events || [];
      const roundOver = events.find((e) => e.type === "round_over");
      let just = null;
      if (!u.sync && previous && u.last_action && !roundOver) {
        // Which mice the last action pressed: raised before, pressed now.
        view.rows.forEach((row, r) => row.forEach((up, i) => {
          if (!up && previous.rows[r] && previous.rows[r][i]) {
            if (!just) just = { row: r, mice: new Set() };
            if (just.row === r) just.mice.add(i);
          }
        }));
      }
      overlay.hidden = true;
      drawInfo();
      drawBoard(just);
      refreshControls();
      if (view.terminal) { await showFinalPress(u, previous); return; }
      if (roundOver && !u.sync) {
        // The events in the page's language, the seats by their names (ctx.say, js/host.js).
        const lines = events.filter((e) => e.type === "round_start").map((e) => ctx.say(e));
        showOverlay(ctx.say(roundOver), lines, [], "round-over");
        await ctx.sleep(1400);
        overlay.hidden = true;
      } else if (just && u.last_action.seat !== ctx.seat) {
        await ctx.sleep(900); // let the opponent's press be seen before the next update
      }
    },
    // The hint as a player says it (issue 39: it was the solver's nim-sum lecture): the move and
    // what it does; the solver's reasoning is the page's "Why?".
    hintWords(h, move) {
      const kind = h.explanation_msg ? String(h.explanation_msg.msg || "").split(".").pop() : "";
      const opponent = view && ctx.seat !== null ? who(1 - ctx.seat) : t("your opponent");
      if (kind === "winning_move") return { text: t("Hint: {move}: it leaves {who} a losing position.", { move, who: opponent }) };
      if (kind === "last_one") return { text: t("Hint: {move}: the only move left; this round is lost.", { move }) };
      if (kind === "lost" || kind === "odd") {
        return { text: t("Hint: {move} (no move wins here against best play).", { move }) };
      }
      return null;
    },
    showHint(h) {
      const a = (view.legal_actions || []).find((x) => x.text === h.move);
      if (!a) return;
      hinted = { row: a.row, mice: new Set(a.mice) };
      selection = { row: a.row, mice: new Set(a.mice) };
      refreshControls();
    },
    summary(u) {
      // For the page's end-of-game screen: who won the match, why, the final score.
      const v = u.view;
      const s = v.score;
      const reason = [];
      for (const e of u.events || []) if (e.type === "round_over") reason.push(ctx.say(e));
      // One format for the score everywhere (issue 39): the seats in order, as the board's line
      // says it ("You 1 – 3 Player 2"); a one-round game's round line says it all.
      const seated = ctx.seat !== null && ctx.mode === "live" && !ctx.shared;
      // A seated player's card has the page's badge ("You won", "You lost") before its title: the
      // title is then the final score, said once (issue 39: "You lost · You lose the match" and the
      // final score twice on a phone's card).
      if (seated) return { title: t("Final score: {score}", { score: scoreLine(s) }), reason,
                           columns: [t("Player"), t("Rounds won")], scores: s.map((n, seat) => ({ seat, cells: [String(n)] })) };
      if (!reason.length || v.first_to > 1) reason.push(t("Final score: {score}", { score: scoreLine(s) }));
      const title = t("{who} wins the match", { who: who(v.winner) });
      return { title, reason, columns: [t("Player"), t("Rounds won")], scores: s.map((n, seat) => ({ seat, cells: [String(n)] })) };
    },
    destroy() { overlay.hidden = true; },
  };
}
