// Mouse Trap renderer: the track (44 spaces and the circular Loop), mice, cheese, the contraption
// growing part by part, the firing chain animated stage by stage (stopping at a jam), the die, and
// the player's choices. It decides no rule: buttons are the view's legal actions, sent by text.

const MOUSE_COLOURS = ["#d62828", "#1d4ed8", "#2a9d3f", "#e9b308"];
const MOUSE_NAMES = ["red", "blue", "green", "yellow"];
const KIND_FILL = {
  start: "#c4b5fd", build: "#7c3aed", loop_build: "#7c3aed", take: "#facc15", lose: "#facc15",
  steal_most: "#facc15", cheese_wheel: "#fbbf24", go_back: "#a78bfa", move_ahead: "#a78bfa",
  go_to: "#a78bfa", dog_bone: "#c4b5fd", safe: "#34d399", turn_crank: "#f97316",
};
const SHORT = {
  13: "Fat cat → Start", 27: "Mad dog → 21", 30: "→ Cheese Wheel", 37: "Take 3 from most",
  39: "Napping: lose 3", 44: "SAFE", 45: "Build ×2", 46: "TURN CRANK", 47: "Build ×2",
  48: "Take 2", 49: "CHEESE WHEEL",
};
const SIZE = 56;

function spaceXY(i) {
  // Spaces 0-43 snake in four rows of 11; the Loop (44-49) is a ring to the right, Safe nearest 43.
  if (i < 44) {
    const row = Math.floor(i / 11);
    const col = row % 2 === 1 ? i % 11 : 10 - (i % 11); // Start top right; space 43 ends by the Loop
    return { x: 16 + col * 62, y: 16 + row * 92 };
  }
  const k = i - 44;
  const angle = Math.PI / 2 + (k * Math.PI) / 3; // Safe at the bottom of the ring, then clockwise
  return { x: 822 + Math.cos(angle) * 112 - SIZE / 2, y: 190 + Math.sin(angle) * 112 - SIZE / 2 };
}

function shortText(space) {
  if (SHORT[space.index]) return SHORT[space.index];
  return space.text.replace(" cheese", "").replace(" spaces", "");
}

export default function createRenderer(root, ctx) {
  let lastMoved = new Set(); // seats whose mouse the last moving action moved
  const { svg, el } = ctx;
  root.classList.add("mouse-trap");
  const top = el("div", { class: "mt-top" }, root);
  // On a phone the board keeps its spaces at least 32 px (56 of 1000 units: 610 px wide) and pans.
  const pan = el("div", { class: "board-pan zoomable", style: "--pan-w: 610px" }, root);
  const board = svg("svg", { viewBox: "0 0 1000 590", class: "mt-board", "data-board": "mouse-trap",
                              role: "group", "aria-label": "The board: the track, the Loop, the contraption" }, pan);
  ctx.enableArrowKeys(board);
  const turnBar = el("div", { class: "mt-top" }, ctx.bar);
  const controls = el("div", { class: "mt-controls", "data-controls": "mouse-trap" }, ctx.bar);
  const newsCard = el("div", { class: "card" }, ctx.side);
  el("h2", { text: "What happened" }, newsCard);
  const news = el("ol", { class: "mt-news", "data-news": "mouse-trap" }, newsCard);

  const style = el("style", {}, root);
  style.textContent = `
    .mouse-trap { font-family: system-ui, sans-serif; }
    .mt-top { display: flex; gap: 1em; flex-wrap: wrap; align-items: center; margin-bottom: .4em; }
    .mt-player { padding: .2em .6em; border-radius: .4em; border: 2px solid transparent; }
    .mt-player.to-move { border-color: #111; }
    .mt-player.caught { opacity: .45; text-decoration: line-through; }
    .mt-die { font-size: 1.6em; min-width: 1.4em; text-align: center; border: 2px solid #333;
              border-radius: .25em; background: #fff; }
    .mt-controls button { margin: .2em; font-size: 1em; padding: .3em .8em; }
    .mt-news { font-size: .9em; color: #333; max-height: 9em; overflow: auto; margin: .3em 0;
               border: 1px solid #ddd; border-radius: .3em; padding: .3em .3em .3em 2.2em; background: #fff; }
    .mt-board text { pointer-events: none; }
    .mt-news:empty { display: none; }
    .mt-board [data-mouse].pickable { cursor: pointer; stroke: #111; stroke-width: 3; }
    .mt-board [data-mouse].pickable:focus-visible { stroke: #1d4ed8; stroke-width: 5; }
    .mt-dot { display: inline-block; width: .8em; height: .8em; border-radius: 50%; margin-right: .3em; border: 1px solid #111; }
  `;

  let view = null;
  const spaceGroups = [];
  const partRects = [];
  const stageRects = [];

  // --- static drawing: track, loop, contraption slots, firing chain slots ---------------------
  const trackLayer = svg("g", {}, board);
  const miceLayer = svg("g", {}, board);
  const contraption = svg("g", { transform: "translate(16,400)" }, board);
  const chain = svg("g", { transform: "translate(16,540)" }, board);
  svg("text", { x: 0, y: -8, "font-size": 14, "font-weight": "bold" }, contraption).textContent =
    "The contraption";
  svg("text", { x: 0, y: -8, "font-size": 14, "font-weight": "bold" }, chain).textContent =
    "The firing chain";
  const chainStatus = svg("text", { x: 150, y: -8, "font-size": 13 }, chain);
  const ring = svg("circle", { cx: 822, cy: 190, r: 112, fill: "none", stroke: "#999",
                                "stroke-dasharray": "4 4" }, trackLayer);
  void ring;

  function drawStatic(v) {
    if (spaceGroups.length) return;
    for (const space of v.track) {
      const { x, y } = spaceXY(space.index);
      const g = svg("g", { transform: `translate(${x},${y})`, "data-space": space.index }, trackLayer);
      svg("rect", { width: SIZE, height: SIZE, rx: 6, fill: KIND_FILL[space.kind] || "#ddd",
                    opacity: space.kind.includes("build") && !space.builds ? 0.35 : 1,
                    stroke: "#333" }, g);
      // Words on the dark purple Build spaces are white (dark text there is 3.3:1, too little).
      const ink = KIND_FILL[space.kind] === "#7c3aed" && space.builds ? "#fff" : "#111";
      svg("text", { x: 4, y: 12, "font-size": 10, fill: ink }, g).textContent = String(space.index);
      const words = shortText(space).split(" ");
      const lines = [];
      for (const w of words) {
        if (lines.length && (lines[lines.length - 1] + " " + w).length <= 10) lines[lines.length - 1] += " " + w;
        else lines.push(w);
      }
      lines.slice(0, 3).forEach((line, k) => {
        svg("text", { x: SIZE / 2, y: 26 + k * 11, "font-size": 9, "text-anchor": "middle",
                      fill: ink }, g).textContent = line;
      });
      const title = svg("title", {}, g);
      title.textContent = `${space.index}: ${space.text}${space.kind.includes("build") && !space.builds ? " (does not build with this many players)" : ""}`;
      g.setAttribute("role", "img");
      g.setAttribute("aria-label", `Space ${title.textContent}`);
      spaceGroups[space.index] = g;
    }
    v.parts.forEach((name, k) => {
      const col = k % 12, row = Math.floor(k / 12);
      const g = svg("g", { transform: `translate(${col * 80},${row * 52})`, "data-part": k + 1 }, contraption);
      const rect = svg("rect", { width: 76, height: 46, rx: 4, fill: "#eee", stroke: "#bbb" }, g);
      svg("text", { x: 4, y: 13, "font-size": 10, "font-weight": "bold" }, g).textContent = `#${k + 1}`;
      name.replace(" (with rubber band)", "").replace(" (pipe)", "").replace(" (man)", "")
        .split(" ").reduce((acc, w) => {
          if (acc.length && (acc[acc.length - 1] + " " + w).length <= 12) acc[acc.length - 1] += " " + w;
          else acc.push(w);
          return acc;
        }, []).slice(0, 2).forEach((line, j) => {
          svg("text", { x: 38, y: 27 + j * 11, "font-size": 9, "text-anchor": "middle" }, g).textContent = line;
        });
      partRects.push(rect);
    });
    v.firing_chain.forEach((stage, k) => {
      const g = svg("g", { transform: `translate(${k * 64},0)`, "data-stage": stage.id }, chain);
      const rect = svg("rect", { width: 60, height: 40, rx: 4, fill: "#eee", stroke: "#bbb" }, g);
      svg("text", { x: 30, y: 16, "font-size": 12, "font-weight": "bold", "text-anchor": "middle" }, g)
        .textContent = stage.letter;
      svg("text", { x: 30, y: 31, "font-size": 8, "text-anchor": "middle" }, g).textContent =
        stage.id.replaceAll("_", " ").slice(0, 13);
      const title = svg("title", {}, g);
      title.textContent = `${stage.letter}: ${stage.text} (works with probability ${stage.odds.toFixed(3)})`;
      stageRects.push(rect);
    });
  }

  // --- dynamic parts ---------------------------------------------------------------------------
  function drawParts(v, fresh) {
    partRects.forEach((rect, k) => {
      const built = k < v.parts_built;
      rect.setAttribute("fill", built ? (fresh.has(k + 1) ? "#fde047" : "#c7d2fe") : "#eee");
      rect.setAttribute("stroke", built ? "#4338ca" : "#bbb");
      rect.parentNode.setAttribute("data-built", built ? "1" : "0");
    });
  }

  function drawChain(v) {
    const firing = v.firing_stage;
    const last = v.last_firing;
    stageRects.forEach((rect, k) => {
      let fill = "#eee";
      let state = "idle";
      if (firing !== null && firing !== undefined) {
        if (k < firing) { fill = "#86efac"; state = "worked"; } else if (k === firing) { fill = "#fde68a"; state = "next"; }
      } else if (last) {
        if (k < last.stages) { fill = "#86efac"; state = "worked"; }
        if (last.jammed && k === last.stages) { fill = "#f87171"; state = "jammed"; }
      }
      rect.setAttribute("fill", fill);
      rect.parentNode.setAttribute("data-state", state);
    });
    // What the last firing did, for tests and styles (derived from the view, so a sync rebuilds it).
    board.setAttribute("data-last-firing", !last ? "" : last.jammed ? `jammed:${last.jammed}` : "caught");
    board.setAttribute("data-parts", String(v.parts_built));
    if (!v.trap_complete) chainStatus.textContent = `incomplete: ${v.parts_built}/24 parts built`;
    else if (firing !== null && firing !== undefined) chainStatus.textContent = "FIRING…";
    else if (last && last.jammed) chainStatus.textContent = `last firing jammed at ${last.jammed.replaceAll("_", " ")}`;
    else if (last) chainStatus.textContent = "last firing: the cage fell!";
    else chainStatus.textContent = `complete: capture chance ${(v.capture_chance * 100).toFixed(1)}%`;
  }

  function drawMice(v) {
    miceLayer.replaceChildren();
    const pickable = new Map();
    for (const a of v.legal_actions || []) {
      const m = /^move:(\d)$/.exec(a.text);
      if (m && ctx.mode === "live" && v.to_move === ctx.seat) pickable.set(Number(m[1]) - 1, a.text);
    }
    const count = {};
    v.mice.forEach((where, seat) => {
      if (where === null) return;
      const k = count[where] = (count[where] || 0) + 1;
      const { x, y } = spaceXY(where);
      const cx = x + 12 + ((k - 1) % 2) * 32;
      const cy = y + SIZE - 12 - Math.floor((k - 1) / 2) * 18;
      const c = svg("circle", { cx, cy, r: 9, fill: MOUSE_COLOURS[seat], "data-mouse": seat,
                                "data-at": where }, miceLayer);
      if (lastMoved.has(seat)) c.setAttribute("data-last-move", "1"); // moved by the last move
      const t = svg("title", {}, c);
      t.textContent = `${ctx.seatLabel(seat)} (${MOUSE_NAMES[seat]} mouse) on ${where}`;
      if (pickable.has(seat)) {
        c.classList.add("pickable");
        ctx.actionable(c, `Move ${t.textContent}`, () => send(pickable.get(seat)));
      } else {
        c.setAttribute("role", "img");
        c.setAttribute("aria-label", t.textContent);
      }
    });
  }

  function drawTop(v) {
    top.replaceChildren();
    v.cheese.forEach((n, seat) => {
      const caught = v.mice[seat] === null;
      const p = el("span", {
        class: "mt-player" + (seat === v.turn_player && !v.terminal ? " to-move" : "") + (caught ? " caught" : ""),
        "data-player": seat, "data-cheese": n,
      }, top);
      // The mouse's colour as a dot; the words stay dark (yellow text on white is unreadable).
      el("span", { class: "mt-dot", style: `background:${MOUSE_COLOURS[seat]}`, "aria-hidden": "true" }, p);
      p.append(`${ctx.seatLabel(seat)} (${MOUSE_NAMES[seat]}): ${caught ? "caught" : n + " cheese"}`);
    });
    el("span", { "data-pile": v.pile, text: `Pile: ${v.pile}/${v.supply}` }, top);
    turnBar.replaceChildren();
    el("span", { class: "mt-die", "data-die": v.last_die ?? "", role: "img",
                 "aria-label": v.last_die ? `die: ${v.last_die}` : "die: not rolled",
                 text: v.last_die ? "⚀⚁⚂⚃⚄⚅"[v.last_die - 1] : "·" }, turnBar);
    el("span", { "data-phase": v.phase, text: `Turn ${v.turn}: ${v.phase_text}` }, turnBar);
  }

  function drawControls(v) {
    controls.replaceChildren();
    if (ctx.mode !== "live" || v.terminal || v.to_move === null || v.to_move !== ctx.seat) return;
    for (const a of v.legal_actions) {
      const b = el("button", { "data-action": a.text, text: a.label }, controls);
      b.addEventListener("click", () => send(a.text));
    }
  }

  function send(text) {
    controls.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    return ctx.send(text).then((r) => {
      if (!r.ok) controls.querySelectorAll("button").forEach((b) => { b.disabled = false; });
      return r;
    });
  }

  let newsPly = -1; // the ply whose events the news list shows last
  function drawNews(events) {
    for (const e of events) {
      if (!e.text) continue;
      const li = el("li", { "data-event": e.type, text: e.text }, news);
      void li;
    }
    while (news.children.length > 40) news.removeChild(news.firstChild);
    news.scrollTop = news.scrollHeight;
  }

  async function animate(u, fresh) {
    const events = u.events || [];
    const stage = events.find((e) => e.type === "trap_stage");
    if (stage) {
      // The stage lights up, then shows its result; a jam stays red.
      const rect = stageRects[stage.stage];
      if (rect) {
        rect.setAttribute("fill", "#fde68a");
        await ctx.sleep(120);
        rect.setAttribute("fill", stage.ok ? "#86efac" : "#f87171");
        await ctx.sleep(stage.ok ? 60 : 300);
      }
    }
    const move = events.find((e) => e.type === "move" || e.type === "push");
    if (move) {
      await ctx.sleep(150);
    }
    if (fresh.size) await ctx.sleep(150);
  }

  return {
    async update(u) {
      const v = u.view;
      if (!u.sync) {
        // The mice the last action moved stay marked until a later action moves one.
        const moved = (u.events || []).flatMap((e) =>
          e.type === "move" || e.type === "jump" ? [e.player] : e.type === "push" ? [e.target] : []);
        if (moved.length) lastMoved = new Set(moved);
      }
      drawStatic(v);
      const fresh = new Set();
      if (!u.sync) {
        for (const e of u.events || []) if (e.type === "build") e.parts.forEach((p) => fresh.add(p));
      } else {
        news.replaceChildren();
      }
      drawTop(v);
      drawMice(v);
      drawParts(v, fresh);
      if (!u.sync) await animate(u, fresh);
      drawChain(v);
      drawParts(v, new Set());
      // Keyed by ply: an update seen twice (a resent frame, a retry) adds no second copy.
      if (u.sync || u.ply !== newsPly) drawNews(u.events || []);
      newsPly = u.ply;
      drawControls(v);
      view = v;
      void view;
    },
    summary(u) {
      const v = u.view;
      const reason = [];
      const free = v.mice.map((m, s) => (m === null ? null : s)).filter((s) => s !== null);
      const caught = v.mice.map((m, s) => (m === null ? s : null)).filter((s) => s !== null);
      if (v.truncated) reason.push(`Stopped by the turn limit (${v.turn_limit} turns).`);
      if (caught.length) reason.push(`Caught in the trap: ${caught.map((s) => ctx.seatLabel(s)).join(", ")}.`);
      if (free.length === 1 && caught.length) reason.push(`${ctx.seatLabel(free[0])} is the last mouse free.`);
      if (!reason.length && v.phase_text) reason.push(v.phase_text);
      return {
        reason,
        columns: ["Player", "Cheese", "Mouse"],
        scores: v.cheese.map((n, seat) => ({ seat, cells: [String(n), v.mice[seat] === null ? "caught" : `free on ${v.mice[seat]}`] })),
      };
    },
    destroy() {
      root.replaceChildren();
    },
  };
}
