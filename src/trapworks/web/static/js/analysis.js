// Review with analysis (issue 27) on the replay page: the server's analysis of a finished game
// (GET /api/games/<id>/analysis: the game's own judge marks each move, with a winning move where one
// existed; other games give their hint agent's choice; every roll comes with the chance the game
// declared for it) shown in the one move list and a card: a mark on the lines that changed the
// outcome (as lichess marks a blunder; a move of a position already lost is no mistake and gets a
// muted word), a graph over the game (a click jumps there), and the words on the current step.
// It decides nothing: it presents what the server's answer says.
import { api, clear, el, svg as svgEl } from "/static/js/dom.js";
import { formatMessage, lang, t, tn } from "/static/js/i18n.js";

export async function loadAnalysis(gid) {
  const r = await api("GET", `/api/games/${encodeURIComponent(gid)}/analysis`);
  return r.ok ? r.data : null;
}

// A chance as players say it: "1 in 6 (17%)" where it is one in a whole number, else "2.8%".
export function chanceWords(p) {
  // in the page's language's own way ("2.8%", "2,8 %")
  const pct = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: p >= 0.1 ? 0 : 1 }).format(p);
  const n = 1 / p;
  return Math.abs(n - Math.round(n)) < 1e-6 && Math.round(n) > 1 ? t("1 in {n} ({percent})", { n: Math.round(n), percent: pct }) : pct;
}

// One decision's words: {kind, mark (the list's short word, "" for none), text (the full sentence)}.
// kind: "blunder" (the move turned a won position into a lost one), "lost" (the position was already
// lost: no move could win it), "good" (it kept the win); "same"/"other" beside the hint agent.
function words(m, label) {
  const who = label(m.seat);
  if (m.verdict) {
    if (m.outcome === "loss") {
      return { kind: "lost", mark: t("already lost"),
               text: `${who}: ${m.move} — ${t("the position was already lost: no winning move existed")}` };
    }
    if (m.verdict === "losing") {
      const best = m.best ? " · " + t("a winning move was {move}", { move: m.best }) : "";
      return { kind: "blunder", mark: t("blunder"), text: `${who}: ${m.move} — ${t("a blunder: it gave away a won position")}${best}` };
    }
    return { kind: "good", mark: "", text: `${who}: ${m.move} — ${t("a winning move: it kept the win")}` };
  }
  if (m.choice !== undefined) {
    // the hint agent's words are the game's: seats by their names, in the page's language
    // (typed: its catalog, no pattern; a move without words of its own: its notation only)
    const said = m.choice_msg ? formatMessage(m.choice_msg, null, label, true) : null;
    if (m.same) return { kind: "same", mark: "", text: `${who}: ${m.move} — ${t("the hint agent chose the same")}` };
    const text = said && said.toLowerCase() !== m.choice.toLowerCase()
      ? `${who}: ${m.move} — ${t("the hint agent chose {move} ({words})", { move: m.choice, words: said })}`
      : `${who}: ${m.move} — ${t("the hint agent chose {move}", { move: m.choice })}`;
    return { kind: "other", mark: t("not as the hint"), text };
  }
  return { kind: "none", mark: "", text: `${who}: ${m.move}` };
}

// A roll's words: what came and how likely it was, from the game's declared chances only.
function rollWords(r) {
  const same = r.as_rare >= 0.9999;
  const text = t("Chance: {outcome}, {chance}", { outcome: r.outcome, chance: chanceWords(r.probability) })
    + " · " + (same ? t("each of the {n} outcomes was as likely", { n: r.outcomes })
      : t("one of {n} outcomes; one at most this likely: {chance}", { n: r.outcomes, chance: chanceWords(r.as_rare) }));
  // the list marks only the rarer outcomes (where they were not all as likely)
  return { kind: "roll", mark: same ? "" : chanceWords(r.probability), text };
}

// The graph over the game: for a judged game, who was winning (the game's own verdicts) at each
// step, from the first seat's side, and the blunders; else a mark for each move not as the hint
// and each roll, taller the rarer. `steps`: the number of steps; onPick(step) jumps there.
function graph(card, data, steps, label, onPick) {
  const W = Math.max(steps, 1), H = 40;
  const box = el("figure", { class: "review-graph", "data-testid": "review-graph" }, card);
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", role: "img",
                             "aria-label": t("Graph of the game: click to go to a step") }, box);
  svgEl("rect", { x: 0, y: 0, width: W, height: H, class: "bg" }, svg);
  if (data.kind === "solver") {
    svgEl("line", { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: "mid" }, svg);
    // the first seat's outcome before each move, held until the next one
    let d = "";
    data.moves.forEach((m, i) => {
      const good = (m.outcome === "win") === (m.seat === 0);
      const y = good ? 5 : H - 5;
      const x2 = i + 1 < data.moves.length ? data.moves[i + 1].ply : W;
      d += `${d ? "L" : "M"}${m.ply} ${y} L${x2} ${y} `;
    });
    if (d) svgEl("path", { d, class: "eval" }, svg);
    for (const m of data.moves) {
      if (m.verdict === "losing" && m.outcome === "win") svgEl("line", { x1: m.ply + 0.5, x2: m.ply + 0.5, y1: 2, y2: H - 2, class: "blunder" }, svg);
    }
    el("figcaption", { class: "muted small", text: t("Above the line: {who} was winning; below: losing. Red: a blunder.", { who: label(0) }) }, box);
  } else {
    const rolls = data.rolls || [];
    const rare = Math.max(...rolls.map((r) => -Math.log(r.probability)), 1e-9);
    for (const r of rolls) {
      const h = 4 + (H / 2 - 6) * (-Math.log(r.probability) / rare);
      svgEl("rect", { x: r.ply, y: H - h, width: 0.8, height: h, class: "roll" }, svg);
    }
    for (const m of data.moves) {
      if (m.choice !== undefined && !m.same) svgEl("rect", { x: m.ply, y: 2, width: 0.8, height: H / 2 - 4, class: `other seat-${m.seat % 4}` }, svg);
    }
    el("figcaption", { class: "muted small", text: rolls.length
      ? t("Top: moves other than the hint's. Bottom: the rolls, taller the rarer.")
      : t("Marks: moves other than the hint's.") }, box);
  }
  const cursor = svgEl("rect", { x: 0, y: 0, width: Math.max(W / 150, 0.6), height: H, class: "cursor" }, svg);
  svg.addEventListener("click", (e) => {
    const rect = svg.getBoundingClientRect();
    onPick(Math.round(((e.clientX - rect.left) / Math.max(rect.width, 1)) * W));
  });
  return (/** @type {number} */ step) => cursor.setAttribute("x", String(Math.min(step, W - Number(cursor.getAttribute("width")))));
}

// Keep `item` in sight inside the list `box` by scrolling the list only, never the page (on a
// phone scrollIntoView scrolled the whole page down and put the board out of sight).
export function scrollWithin(box, item) {
  if (!box || !item || box.scrollHeight <= box.clientHeight) return;
  const b = box.getBoundingClientRect(), i = item.getBoundingClientRect();
  if (i.top < b.top) box.scrollTop -= b.top - i.top;
  else if (i.bottom > b.bottom) box.scrollTop += i.bottom - b.bottom;
}

// Show `data` in `card` and mark the lines of the move list `log` (one list: the analysis adds its
// marks to the game's own). onPick(step) moves the replay's board; `steps` the record's number of
// steps. Returns markStep(step) for the current step.
export function showAnalysis(card, log, data, { label, onPick, steps }) {
  clear(card);
  card.hidden = false;
  el("h2", { id: "analysis-title", text: t("Analysis") }, card);
  const about = data.kind === "solver" ? t("The game's solver judges each move: a blunder gives away a won position; in a lost position no move is a mistake.")
    : data.kind === "agent" ? t("Beside each move: the hint agent's choice ({agent}), from what that player knew.", { agent: data.agent })
      : t("This game has no analysis.");
  el("p", { class: "muted small", text: about }, card);
  const byPly = new Map();
  for (const m of data.moves) byPly.set(m.ply, { m, w: words(m, label) });
  for (const r of data.rolls || []) byPly.set(r.ply, { r, w: rollWords(r) });
  const moveGraph = graph(card, data, steps, label, onPick);
  // Each seat's count of the moves that changed the outcome (a judged game), as lichess sums them.
  if (data.kind === "solver") {
    const seats = [...new Set(data.moves.map((m) => m.seat))].sort((a, b) => a - b);
    const sums = el("ul", { class: "review-sums", "data-testid": "review-sums" }, card);
    for (const s of seats) {
      const n = data.moves.filter((m) => m.seat === s && m.outcome === "win" && m.verdict === "losing").length;
      el("li", { "data-seat": s, text: `${label(s)}: ${n ? tn("{n} blunder", "{n} blunders", n) : t("no blunder")}` }, sums);
    }
  }
  const now = el("div", { class: "review-now", "data-testid": "analysis", "data-kind": data.kind, "aria-live": "polite" }, card);
  if (data.truncated) el("p", { class: "muted small", text: t("Only the first moves were analysed.") }, card);
  // the move list's lines: a mark for each move of the line that has one
  for (const li of /** @type {HTMLCollectionOf<HTMLElement>} */ (log.children)) {
    const from = +li.dataset.ply, to = +li.dataset.lastPly;
    const found = [];
    for (let p = from; p <= to; p++) if (byPly.has(p)) found.push(byPly.get(p));
    li.dataset.analysis = found.map((x) => x.w.kind).join(" ");
    const marked = found.filter((x) => x.w.mark);
    if (!marked.length) continue;
    const kinds = marked.map((x) => x.w.kind);
    // one short word a line: a blunder first, then a lost position, a rarer roll, a move not as the hint
    const pick = ["blunder", "lost", "roll", "other"].find((k) => kinds.includes(k)) || kinds[0];
    const tag = el("span", { class: "analysis-mark", "data-analysis-mark": pick,
                             text: marked.find((x) => x.w.kind === pick).w.mark }, null);
    // inside the line, after its words (as lichess's "??"): the line keeps its width for its words
    const button = li.querySelector("button.line");
    if (button) button.append(" ", tag);
    else li.appendChild(tag);
    tag.title = marked.map((x) => x.w.text).join("\n");
  }
  return function markStep(step) {
    moveGraph(step);
    clear(now);
    const line = [...log.children].find((li) => li.classList.contains("current"));
    if (!line) { el("p", { class: "muted small", text: t("The start of the game: step forward to see each move judged.") }, now); return; }
    const li = /** @type {HTMLElement} */ (line);
    for (let p = +li.dataset.ply; p <= +li.dataset.lastPly && p < step; p++) {
      const x = byPly.get(p);
      if (!x) continue;
      el("p", { class: "review-line", "data-ply": p, "data-kind": x.w.kind, "data-verdict": x.m ? x.m.verdict || "" : "", text: x.w.text }, now);
    }
    if (!now.children.length) el("p", { class: "muted small", text: t("Nothing to say about this step.") }, now);
  };
}
