// 13 Dead End Drive renderer: the (reconstructed) mansion in SVG, drawn from the view's grid:
// rooms' floors, walls, furniture, rugs, Red Chairs, the 5 traps and 5 secret passages, the front
// door, the Detective's track; pawns you can pick and move to the squares the view lists; the
// portrait on the wall; your hand; other players' hands as counts only. It decides no rule: every
// click sends the text of one of the view's legal actions. With two or more human seats in this browser (hot
// seat), your hand and your choices stay behind a curtain until you open it on your turn, and the
// curtain closes again when your turn ends.

const COLS = "abcdefghijklmnopqrstuvwxyz";
const CELL = 26;
const TOP = 4;
const LEFT = 4;
const PAWN_COLOURS = ["#7c3aed", "#db2777", "#ea580c", "#0891b2", "#65a30d", "#b91c1c", "#1d4ed8", "#a16207",
                      "#be185d", "#15803d", "#4338ca", "#0f766e"];
const TRAP_COLOURS = { stairs: "#2563eb", fireplace: "#dc2626", chandelier: "#eab308", statue: "#d97706",
                       bookcase: "#7e22ce" };
const FURNITURE = { T: "table", S: "sofa", L: "large sofa", h: "chair", V: "vase", K: "desk", G: "gold statue",
                    E: "easel" };
const TRAP_CHARS = { s: "stairs", f: "fireplace", c: "chandelier", t: "statue", b: "bookcase" };

function squareName(r, c) { return `${COLS[c]}${r + 1}`; }
function squareXY(name) {
  const c = COLS.indexOf(name[0]);
  const r = parseInt(name.slice(1), 10) - 1;
  return { x: LEFT + c * CELL + CELL / 2, y: TOP + r * CELL + CELL / 2 };
}

export default function createRenderer(root, ctx) {
  let lastMoved = new Set(); // pawns walked by the last move
  const { el, svg } = ctx;
  root.classList.add("ded");
  const style = el("style", {}, root);
  style.textContent = `
    .ded-info { display: flex; flex-wrap: wrap; gap: .5em 1.2em; align-items: center; margin-bottom: .4em; }
    .ded-portrait { border: 6px ridge #a16207; background: #fef3c7; padding: .25em .7em; border-radius: .2em;
                    font-weight: 700; min-width: 8em; text-align: center; }
    .ded-portrait small { display: block; font-weight: 400; font-size: .75em; color: #78350f; }
    .ded-portrait.flash { animation: ded-flash .6s ease-out; }
    @keyframes ded-flash { from { background: #fde047; } to { background: #fef3c7; } }
    @media (prefers-reduced-motion: reduce) { .ded-portrait.flash { animation: none; } }
    .ded-dice span { display: inline-block; border: 2px solid #444; border-radius: .3em; width: 1.6em; text-align: center;
                     margin-right: .2em; font-weight: 700; background: #fff; }
    .ded-stage { position: relative; }
    .ded-board { display: block; margin: 0 auto; user-select: none; }
    .ded-board .pawn:focus-visible circle, .ded-board .dest:focus-visible { stroke: #1d4ed8; stroke-width: 4; }
    .ded-hand { padding: .2em .5em; }
    .ded-hand h4 { display: inline; margin-right: .5em; font-size: .95em; }
    .ded-hand > div, .ded-hand > p { display: inline; margin-right: .8em; }
    .ded-board text { pointer-events: none; font-family: system-ui, sans-serif; }
    .ded-board .pawn.movable { cursor: pointer; }
    .ded-board .pawn.movable circle { stroke: #facc15; stroke-width: 3; }
    .ded-board .pawn.picked circle { stroke: #16a34a; stroke-width: 4; }
    .ded-board .dest { fill: rgba(22, 163, 74, .35); stroke: #16a34a; stroke-width: 2; cursor: pointer; }
    .ded-board .dest:hover { fill: rgba(22, 163, 74, .6); }
    .ded-board .ring { fill: none; stroke: #dc2626; stroke-width: 4; }
    .ded-turn { text-align: center; font-weight: 600; margin: .3em 0; }
    .ded-controls { display: flex; flex-wrap: wrap; gap: .4em; justify-content: center; min-height: 2.2em; margin: .3em 0; }
    .ded-panels { display: flex; flex-wrap: wrap; gap: .8em; margin-top: .4em; }
    .ded-panel { flex: 1 1 14em; border: 1px solid #ddd; border-radius: .4em; padding: .4em .6em; background: #fffdf8; }
    .ded-panel h4 { margin: .1em 0 .3em; }
    .ded-card { display: inline-block; border: 1px solid #999; border-radius: .3em; padding: .1em .4em; margin: .1em; background: #fff; }
    .ded-card.trap { border-color: #7e22ce; }
    .ded-curtain { text-align: center; padding: .8em; background: #1f2937; color: #fff; border-radius: .4em; }
    .ded-curtain[hidden] { display: none; }
    .ded-events { font-size: .85em; max-height: 7em; overflow: auto; margin: .2em 0; padding-left: 1.2em; }
  `;

  const infoBar = el("div", { class: "ded-info" }, root);
  const portraitBox = el("div", { class: "ded-portrait", "data-testid": "portrait" }, infoBar);
  const detectiveText = el("span", { "data-testid": "detective" }, infoBar);
  const pileText = el("span", { class: "muted", "data-testid": "pile" }, infoBar);
  // On a phone the squares stay at least 32 px (the board pans); see --pan-w below.
  const stage = el("div", { class: "ded-stage board-pan zoomable" }, root);
  const board = svg("svg", { class: "ded-board", "data-board": "dead-end-drive", role: "group",
                             "aria-label": "The mansion: rooms, traps, pawns" }, stage);
  ctx.enableArrowKeys(board);
  const barTop = el("div", { class: "ded-info" }, ctx.bar);
  const diceBox = el("span", { class: "ded-dice", "data-testid": "dice", "aria-label": "dice" }, barTop);
  const turnLine = el("div", { class: "ded-turn", "data-testid": "turn" }, barTop);
  const gCells = svg("g", {}, board);
  const gMarks = svg("g", {}, board);
  const gPawns = svg("g", {}, board);
  const gFx = svg("g", {}, board);
  const curtain = el("div", { class: "ded-curtain", hidden: true, "data-testid": "curtain" }, ctx.bar);
  const controls = el("div", { class: "ded-controls", "data-testid": "controls" }, ctx.bar);
  const handPanel = el("div", { class: "ded-panel ded-hand", "data-testid": "hand" }, ctx.bar);
  const sideCard = el("div", { class: "card" }, ctx.side);
  el("h2", { text: "What happened" }, sideCard);
  const events = el("ul", { class: "ded-events", "data-testid": "events" }, sideCard);
  const panels = el("div", { class: "ded-panels" }, sideCard);
  const othersPanel = el("div", { class: "ded-panel", "data-testid": "players" }, panels);
  const offPanel = el("div", { class: "ded-panel", "data-testid": "knocked-off" }, panels);

  // Hot seat only when this browser holds two or more human seats (the host says so): a remote
  // player at their own screen keeps their hand in view.
  const hotSeat = ctx.mode === "live" && ctx.seat !== null && !!ctx.hotSeat;
  let view = null;
  let drawnGrid = null;
  let picked = null;       // pawn letter picked in the select phase
  let revealed = !hotSeat; // hot seat: is my hand shown now?
  let sending = false;
  let sprung = 0;

  const myTurn = () => ctx.mode === "live" && view && !view.terminal && view.to_move !== null
    && view.to_move === ctx.seat;
  const legal = () => (view && Array.isArray(view.legal_actions) ? view.legal_actions : []);

  async function send(text) {
    if (sending) return;
    sending = true;
    try {
      const reply = await ctx.send(text);
      if (reply && reply.ok) picked = null;
    } finally {
      sending = false;
    }
  }

  // --- the static board ---------------------------------------------------------------
  function drawBoard(b) {
    const key = b.grid.join("\n");
    if (drawnGrid === key) return;
    drawnGrid = key;
    gCells.replaceChildren();
    board.setAttribute("viewBox", `0 0 ${LEFT * 2 + b.width * CELL} ${TOP * 2 + b.height * CELL}`);
    stage.style.setProperty("--pan-w", `${Math.ceil(((LEFT * 2 + b.width * CELL) * 33) / CELL)}px`);
    b.grid.forEach((row, r) => {
      [...row].forEach((ch, c) => {
        if (ch === " ") return;
        const x = LEFT + c * CELL;
        const y = TOP + r * CELL;
        const name = squareName(r, c);
        const attrs = { x, y, width: CELL, height: CELL, "data-square": name };
        let fill = "#efe6d2";
        if (ch === "#") fill = "#44403c";
        else if (ch === "~") fill = "#d6b27a";
        else if (ch === "o" || ch === "^" || ch === "X") fill = "#9ca3af";
        const cell = svg("rect", { ...attrs, fill, stroke: ch === "#" ? "#44403c" : "#d6cdb8", "stroke-width": 0.6 }, gCells);
        if (ch === "~") cell.setAttribute("data-rug", "1");
        const cx = x + CELL / 2;
        const cy = y + CELL / 2;
        if (ch === "R") {
          cell.setAttribute("data-chair", "1");
          svg("rect", { x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 4, fill: "#dc2626", opacity: 0.8 }, gCells);
        } else if (FURNITURE[ch]) {
          cell.setAttribute("data-furniture", FURNITURE[ch]);
          const gold = ch === "G";
          svg("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 3, fill: gold ? "#facc15" : "#92400e" }, gCells);
          const t = svg("text", { x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 9, fill: gold ? "#422006" : "#fde68a" }, gCells);
          t.textContent = FURNITURE[ch].split(" ").map((w) => w[0]).join("").toUpperCase();
        } else if (TRAP_CHARS[ch]) {
          const kind = TRAP_CHARS[ch];
          cell.setAttribute("data-trap", kind);
          svg("circle", { cx, cy, r: CELL / 2 - 3, fill: TRAP_COLOURS[kind], opacity: 0.85 }, gCells);
          const t = svg("text", { x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 11, fill: "#fff" }, gCells);
          t.textContent = "☠";
        } else if (ch === "p") {
          cell.setAttribute("data-passage", "1");
          svg("rect", { x: x + 6, y: y + 3, width: CELL - 12, height: CELL - 6, rx: 2, fill: "#78350f" }, gCells);
          svg("circle", { cx: x + CELL - 9, cy, r: 1.6, fill: "#fde68a" }, gCells);
        } else if (ch === "D") {
          cell.setAttribute("data-door", "1");
          svg("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, fill: "none", stroke: "#15803d", "stroke-width": 3 }, gCells);
        } else if (ch === "X") {
          cell.setAttribute("data-game-over", "1");
          cell.setAttribute("fill", "#111827");
          const t = svg("text", { x: cx, y: cy + 3, "text-anchor": "middle", "font-size": 7, fill: "#fff" }, gCells);
          t.textContent = "OVER";
        } else if (ch === "^") {
          const t = svg("text", { x: cx, y: cy + 3, "text-anchor": "middle", "font-size": 7, fill: "#111" }, gCells);
          t.textContent = "START";
        }
      });
    });
  }

  // --- pawns, highlights, detective -----------------------------------------------------
  function pawnColour(letter) {
    const i = view.pawns.findIndex((p) => p.letter === letter);
    return PAWN_COLOURS[i % PAWN_COLOURS.length];
  }

  function drawPieces() {
    gPawns.replaceChildren();
    gMarks.replaceChildren();
    const selects = legal().filter((a) => a.kind === "select");
    const movable = new Set(selects.map((a) => a.pawn));
    const mine = myTurn() && revealed;
    for (const p of view.pawns) {
      if (!p.square || p.status === "knocked off") continue;
      const { x, y } = squareXY(p.square);
      const g = svg("g", { class: "pawn", "data-pawn": p.letter, "data-square-at": p.square,
                           transform: `translate(${x},${y})` }, gPawns);
      if (lastMoved.has(p.letter)) g.setAttribute("data-last-move", "1"); // walked by the last move
      svg("circle", { r: CELL / 2 - 2, fill: pawnColour(p.letter), stroke: "#111", "stroke-width": 1 }, g);
      const t = svg("text", { y: 5, "text-anchor": "middle", "font-size": 13, "font-weight": 700, fill: "#fff" }, g);
      t.textContent = p.letter;
      const title = svg("title", {}, g);
      title.textContent = `${p.name} (${p.square})`;
      if (p.letter === view.portrait) svg("circle", { r: CELL / 2 + 1, fill: "none", stroke: "#f59e0b", "stroke-width": 2,
                                                       "stroke-dasharray": "3 2" }, g);
      if (mine && movable.has(p.letter)) {
        g.classList.add("movable");
        g.setAttribute("data-movable", "1");
        ctx.actionable(g, `Pawn ${p.name} (${p.letter}) on ${p.square}: pick it`, () => {
          picked = p.letter;
          render();
          // keep the keyboard where it was: on the picked pawn
          const again = gPawns.querySelector(`[data-pawn="${p.letter}"]`);
          if (again) again.focus();
        });
      } else {
        g.setAttribute("role", "img");
        g.setAttribute("aria-label", `Pawn ${p.name} (${p.letter}) on ${p.square}`);
      }
      if (picked === p.letter || (view.selected && view.selected.pawn === p.letter)) g.classList.add("picked");
    }
    // the Detective on his track
    const d = squareXY(view.detective.square);
    const dg = svg("g", { "data-detective": view.detective.step, transform: `translate(${d.x},${d.y})` }, gPawns);
    svg("rect", { x: -9, y: -11, width: 18, height: 22, rx: 4, fill: "#111827" }, dg);
    const dt = svg("text", { y: 4, "text-anchor": "middle", "font-size": 10, fill: "#fbbf24" }, dg);
    dt.textContent = "Det";
    // squares the picked pawn may end on
    if (mine) {
      for (const a of legal().filter((e) => e.kind === "dest")) {
        const { x, y } = squareXY(a.square);
        const r = svg("rect", { class: "dest", x: x - CELL / 2 + 2, y: y - CELL / 2 + 2, width: CELL - 4, height: CELL - 4,
                                rx: 4, "data-dest": a.square, "data-action": a.text }, gMarks);
        ctx.actionable(r, `Square ${a.square}: end the move here`, () => send(a.text));
      }
    }
  }

  // On a phone the board pans: bring what the decision is about (the squares it may end on, or the
  // pawns that may move) into the middle of the visible part, without scrolling the page.
  function panTo(nodes) {
    if (!nodes.length || stage.scrollWidth <= stage.clientWidth + 1 && stage.scrollHeight <= stage.clientHeight + 1) return;
    const p = stage.getBoundingClientRect();
    const boxes = nodes.map((n) => n.getBoundingClientRect());
    const cx = (Math.min(...boxes.map((b) => b.left)) + Math.max(...boxes.map((b) => b.right))) / 2;
    const cy = (Math.min(...boxes.map((b) => b.top)) + Math.max(...boxes.map((b) => b.bottom))) / 2;
    stage.scrollLeft += cx - (p.left + p.width / 2);
    stage.scrollTop += cy - (p.top + p.height / 2);
  }

  // --- panels ---------------------------------------------------------------------------
  function drawInfo() {
    portraitBox.replaceChildren();
    const name = view.portrait_name;
    portraitBox.append(document.createTextNode(view.portrait ? `${name} (${view.portrait})` : name));
    el("small", { text: `portrait on the wall · ${view.frame.behind} more in the frame` }, portraitBox);
    portraitBox.dataset.portrait = view.portrait || "";
    detectiveText.textContent = `Detective: step ${view.detective.step} of ${view.detective.steps}`;
    diceBox.replaceChildren();
    if (view.dice.length) {
      el("span", { text: String(view.dice[0]) }, diceBox);
      if (view.dice.length > 1) el("span", { text: String(view.dice[1]) }, diceBox);
    }
    pileText.textContent = `trap pile ${view.pile} · discard ${view.discard.length}`
      + (view.discard.length ? ` (top: ${view.discard[view.discard.length - 1]})` : "");
    if (view.terminal) {
      turnLine.textContent = view.truncated ? "Stopped by the turn limit: no winner."
        : `${ctx.seatLabel(view.winner)} win${view.winner === ctx.seat ? "" : "s"} with ${view.winning_pawn} (${view.win_reason}).`;
    } else if (view.to_move === null) {
      turnLine.textContent = `${ctx.seatLabel(view.turn_of)}: ${view.phase}…`;
    } else {
      const phaseText = { portrait: "rolled doubles: change the portrait?", select: "pick a pawn to move",
                          dest: "pick where it ends", trap: "on a trap: play a card or draw",
                          drawn: "drew a card: spring or keep" }[view.phase] || view.phase;
      turnLine.textContent = `${ctx.seatLabel(view.to_move)} ${myTurn() ? "—" : "is to move:"} ${phaseText}`;
    }
  }

  function drawHand() {
    handPanel.replaceChildren();
    el("h4", { text: ctx.seat === null ? "Spectating" : "Your hand (secret)" }, handPanel);
    if (ctx.seat === null) { el("p", { class: "muted", text: "A spectator sees no hand." }, handPanel); return; }
    if (!revealed) { el("p", { class: "muted", text: "Hidden (hot seat): open it on your turn." }, handPanel); return; }
    const chars = el("div", { "data-testid": "my-characters" }, handPanel);
    el("span", { text: "Pawns: " }, chars);
    for (const letter of view.my_characters) {
      const p = view.pawns.find((q) => q.letter === letter);
      el("span", { class: "ded-card", text: `${p.name} (${letter})`, "data-character": letter }, chars);
    }
    if (!view.my_characters.length) el("span", { class: "muted", text: "none left" }, chars);
    const traps = el("div", { "data-testid": "my-traps" }, handPanel);
    el("span", { text: "Trap cards: " }, traps);
    for (const c of view.my_trap_cards) el("span", { class: "ded-card trap", text: c, "data-card": c }, traps);
    if (!view.my_trap_cards.length) el("span", { class: "muted", text: "none" }, traps);
    if (view.drawn_card) el("p", { text: `You drew: ${view.drawn_card}`, "data-testid": "drawn" }, handPanel);
  }

  function drawOthers() {
    othersPanel.replaceChildren();
    el("h4", { text: "Players (hands hidden)" }, othersPanel);
    for (const s of view.seats) {
      const line = `${ctx.seatLabel(s.seat)}: ${s.character_cards} character, ${s.trap_cards} trap card(s)`
        + (s.secret_cards ? `, ${s.secret_cards} secret` : "") + (s.out ? " — out" : "");
      el("div", { text: line, "data-seat-cards": s.seat }, othersPanel);
    }
    offPanel.replaceChildren();
    el("h4", { text: "Knocked off" }, offPanel);
    const off = view.pawns.filter((p) => p.status === "knocked off");
    if (!off.length) el("span", { class: "muted", text: "nobody yet" }, offPanel);
    for (const p of off) {
      const owner = p.owner === null || p.owner === undefined ? "secret card" : ctx.seatLabel(p.owner);
      el("div", { text: `${p.name} (${p.letter}) — ${owner}`, "data-off": p.letter }, offPanel);
    }
  }

  function drawControls() {
    controls.replaceChildren();
    curtain.replaceChildren();
    curtain.hidden = true;
    if (!myTurn()) return;
    if (!revealed) {
      curtain.hidden = false;
      el("p", { text: `Your turn, ${ctx.seatLabel(ctx.seat)}. Make sure nobody else is looking.` }, curtain);
      el("button", { text: "Show my hand and play", "data-testid": "reveal-hand",
                     onclick: () => { revealed = true; render(); } }, curtain);
      return;
    }
    const entries = legal();
    if (view.phase === "select") {
      if (!picked) {
        el("span", { class: "muted", text: "Click a highlighted pawn (yellow ring)." }, controls);
      } else {
        for (const a of entries.filter((e) => e.kind === "select" && e.pawn === picked)) {
          const b = el("button", { class: "primary", text: `Move ${picked} ${a.count}`, "data-count": a.count,
                                   "data-action": a.text }, controls);
          b.addEventListener("click", () => send(a.text));
        }
        el("button", { text: "Other pawn", onclick: () => { picked = null; render(); } }, controls);
      }
      return;
    }
    if (view.phase === "dest") {
      el("span", { class: "muted", text: `Click a green square for ${view.selected.pawn} (${view.selected.count}).` }, controls);
      return;
    }
    for (const a of entries) {
      const b = el("button", { class: a.kind === "spring" || a.kind === "play" ? "primary" : "", text: a.text,
                               "data-action": a.text }, controls);
      b.addEventListener("click", () => send(a.text));
    }
  }

  function render() {
    if (!view) return;
    drawBoard(view.board);
    drawInfo();
    drawPieces();
    drawHand();
    drawOthers();
    drawControls();
    if (myTurn()) panTo([...gMarks.querySelectorAll("[data-dest]")].concat(picked ? [] : [...gPawns.querySelectorAll("[data-movable]")]));
  }

  // --- animations -------------------------------------------------------------------------
  async function animateMove(ev) {
    const node = gPawns.querySelector(`[data-pawn="${ev.pawn}"]`);
    if (!node || !Array.isArray(ev.path)) return;
    for (const sq of ev.path.slice(1)) {
      const { x, y } = squareXY(sq);
      node.setAttribute("transform", `translate(${x},${y})`);
      await ctx.sleep(70);
    }
  }

  async function animateSpring(ev) {
    const trapSquare = Object.keys(view.board.traps).find((sq) => view.board.traps[sq] === ev.trap);
    if (!trapSquare) return;
    const { x, y } = squareXY(trapSquare);
    const ghost = svg("g", { transform: `translate(${x},${y})`, "data-sprung-pawn": ev.pawn }, gFx);
    svg("circle", { r: CELL / 2 - 2, fill: pawnColour(ev.pawn) }, ghost);
    const ring = svg("circle", { class: "ring", cx: x, cy: y, r: 6 }, gFx);
    for (let i = 1; i <= 8; i++) {
      ring.setAttribute("r", 6 + i * 4);
      ring.setAttribute("opacity", String(1 - i / 9));
      ghost.setAttribute("transform", `translate(${x},${y + i * 2}) rotate(${i * 20}) scale(${1 - i / 9})`);
      await ctx.sleep(45);
    }
    gFx.replaceChildren();
  }

  return {
    update(u) {
      const before = view;
      view = u.view;
      if (!myTurn()) picked = null;
      // hot seat: the curtain comes back as soon as the turn is someone else's
      if (hotSeat && (view.terminal || view.turn_of !== ctx.seat)) revealed = false;
      if (view.phase !== "select") picked = null;
      events.replaceChildren();
      for (const e of u.events || []) if (e.text) el("li", { text: e.text, "data-event": e.type }, events);
      const springs = (u.events || []).filter((e) => e.type === "spring");
      sprung += springs.length;
      board.dataset.sprung = String(sprung);
      if (u.sync || !before) {
        render();
        return undefined;
      }
      const moves = (u.events || []).filter((e) => e.type === "move");
      if (moves.length) lastMoved = new Set(moves.map((e) => e.pawn)); // marked until the next move
      const portraitChanged = before.portrait !== view.portrait;
      return (async () => {
        // draw the pawns where they were, walk them along the path, then draw the new view
        if (moves.length) {
          const previous = view;
          view = { ...previous, pawns: before.pawns, legal_actions: [] };
          drawPieces();
          view = previous;
          for (const ev of moves) await animateMove(ev);
        }
        render();
        if (portraitChanged) portraitBox.classList.add("flash");
        for (const ev of springs) await animateSpring(ev);
        if (portraitChanged) setTimeout(() => portraitBox.classList.remove("flash"), 700);
      })();
    },
    summary(u) {
      // The end-of-game screen: who won and why, then every secret (the view reveals them all to
      // every seat and the spectator once the game is over).
      const v = u.view;
      const name = (l) => { const p = v.pawns.find((q) => q.letter === l); return p ? `${p.name} (${l})` : l; };
      const reason = [];
      if (v.truncated) reason.push("Stopped by the turn limit: nobody wins.");
      else if (v.winning_pawn) reason.push(`${name(v.winning_pawn)} wins (${v.win_reason}) for ${ctx.seatLabel(v.winner)}, who held that character card.`);
      const off = v.pawns.filter((p) => p.status === "knocked off");
      if (off.length) reason.push(`Knocked off: ${off.map((p) => p.name).join(", ")}.`);
      const r = v.revealed || { hands: [] };
      const secrets = [];
      if (r.hands.length) {
        secrets.push({ heading: "Everyone's cards", lines: r.hands.map((h) => `${ctx.seatLabel(h.seat)}: characters ${h.characters.map(name).join(", ") || "none left"}`
          + (h.secret_cards.length ? `; secret cards ${h.secret_cards.map(name).join(", ")}` : "")
          + `; trap cards ${h.trap_cards.join(", ") || "none"}`) });
        secrets.push({ heading: "The portrait frame, front to back", lines: [
          `${v.portrait ? name(v.portrait) : "Aunt Agatha"} on the wall`,
          ...(r.portrait_cycle.length ? [`then ${r.portrait_cycle.map(name).join(", ")}`] : []),
          ...(r.portraits_never_shown.length ? [`never shown: ${r.portraits_never_shown.map(name).join(", ")}`] : []),
        ] });
      }
      return {
        reason,
        columns: ["Player", "Characters left", "Out"],
        scores: (r.hands.length ? r.hands : v.seats).map((h) => ({
          seat: h.seat,
          cells: [(h.characters || []).map(name).join(", ") || "—", v.seats[h.seat].out ? "out" : ""],
        })),
        secrets,
      };
    },
    destroy() {},
  };
}
