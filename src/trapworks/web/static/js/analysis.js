// Review with analysis (issue 27) on the replay page: the server's analysis of a finished game
// (GET /api/games/<id>/analysis: the game's own judge marks each move, with a winning move where one
// existed; other games give their hint agent's choice; every roll comes with the chance the game
// declared for it) shown in the one move list and a card: a mark on the lines that changed the
// outcome most (as lichess marks a blunder; only the few turning moves the server found), an
// outcome curve over the game (a click jumps there), and the words on the current step.
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

// One decision's words: {kind, mark (unused in the list: only the turning moves are marked there),
// text (the full sentence)}. kind: "blunder" (the move turned a won position into a lost one), "lost"
// (the position was already lost: no move could win it), "good" (it kept the win); "same"/"other"
// beside the hint agent. `turn`: the server's turning move at this ply ({word}) or undefined: only a
// turning move is called a mistake or a blunder (a player-judge: "52 blunders", a wall of red).
function words(m, label, turn) {
  const who = label(m.seat);
  // "a blunder: …" in the page's language (a whole sentence: French puts its own space before ":")
  const called = (/** @type {string} */ what) => (!turn ? what
    : turn.word === "blunder" ? t("a blunder: {what}", { what }) : t("a mistake: {what}", { what }));
  if (m.verdict) {
    if (m.outcome === "loss") {
      return { kind: "lost", mark: "",
               text: `${who}: ${m.move} — ${t("the position was already lost: no winning move existed")}` };
    }
    if (m.verdict === "losing") {
      const best = m.best ? " · " + t("a winning move was {move}", { move: m.best }) : "";
      return { kind: "blunder", mark: "", text: `${who}: ${m.move} — ${called(t("it gave away a won position"))}${best}` };
    }
    return { kind: "good", mark: "", text: `${who}: ${m.move} — ${t("a winning move: it kept the win")}` };
  }
  const fell = turn ? " · " + called(t("the chance to win of {who} fell from {before} to {after}",
    { who, before: percent(turn.before), after: percent(turn.after) })) : "";
  if (m.choice !== undefined) {
    // the hint agent's words are the game's: seats by their names, in the page's language
    // (typed: its catalog, no pattern; a move without words of its own: its notation only)
    const said = m.choice_msg ? formatMessage(m.choice_msg, null, label, true) : null;
    if (m.same) return { kind: "same", mark: "", text: `${who}: ${m.move} — ${t("the hint agent chose the same")}${fell}` };
    const text = said && said.toLowerCase() !== m.choice.toLowerCase()
      ? `${who}: ${m.move} — ${t("the hint agent chose {move} ({words})", { move: m.choice, words: said })}`
      : `${who}: ${m.move} — ${t("the hint agent chose {move}", { move: m.choice })}`;
    return { kind: "other", mark: "", text: text + fell };
  }
  return { kind: "none", mark: "", text: `${who}: ${m.move}${fell}` };
}

// A chance as a whole percentage in the page's language ("52%", "52 %").
function percent(p) {
  return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(p);
}

// A roll's words: what came and how likely it was, from the game's declared chances only.
function rollWords(r) {
  const same = r.as_rare >= 0.9999;
  const text = t("Chance: {outcome}, {chance}", { outcome: r.outcome, chance: chanceWords(r.probability) })
    + " · " + (same ? t("each of the {n} outcomes was as likely", { n: r.outcomes })
      : t("one of {n} outcomes; one at most this likely: {chance}", { n: r.outcomes, chance: chanceWords(r.as_rare) }));
  // the list marks no roll (only the turning moves): the words say how likely it was
  return { kind: "roll", mark: "", text };
}

// The outcome curve (a player-judge's fix 4: "an outcome curve, only the turning moves marked", as
// lichess's advantage chart): each seat's chance to win at each step, from the server's `curve` (the
// game's own verdicts, or its estimate from play-outs); a dot on each turning move; a click goes to
// that step. With two seats one curve, the first seat's (the other's is the rest); with more, one a
// seat. `steps`: the number of steps; onPick(step) jumps there. Returns the cursor's mover.
function curveGraph(card, data, steps, label, onPick) {
  const W = Math.max(steps, 1), H = 100;
  const box = el("figure", { class: "review-graph", "data-testid": "review-graph" }, card);
  if (!data.curve || !data.curve.length) {
    el("figcaption", { class: "muted small", "data-testid": "no-curve",
                       text: t("No outcome curve: this game is too long to estimate each side's chance here.") }, box);
    return () => {};
  }
  const seats = data.curve[0].chances.length;
  const shown = seats === 2 ? [0] : [...Array(seats).keys()];
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", role: "img",
                             "aria-label": t("Chance to win after each move: click to go to a move") }, box);
  svgEl("rect", { x: 0, y: 0, width: W, height: H, class: "bg" }, svg);
  svgEl("line", { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: "mid" }, svg);
  // a margin above 100% and below 0%: a dot on a won or lost position is drawn whole
  const y = (/** @type {number} */ p) => (6 + (H - 12) * (1 - p)).toFixed(2);
  for (const s of shown) {
    const pts = data.curve.map((c) => `${c.step} ${y(c.chances[s])}`);
    if (seats === 2) {
      // the first seat's share shaded from the middle line, as lichess shades white's advantage
      svgEl("path", { d: `M${data.curve[0].step} ${H / 2} L${pts.join(" L")} L${data.curve[data.curve.length - 1].step} ${H / 2} Z`,
                      class: "area" }, svg);
    }
    svgEl("path", { d: `M${pts.join(" L")}`, class: `eval seat-${s % 4}`, "data-seat": s }, svg);
  }
  const at = new Map(data.curve.map((c) => [c.step, c.chances]));
  for (const tm of data.turning || []) {
    const after = at.get(tm.ply + 1);
    if (!after) continue;
    const p = seats === 2 ? after[0] : after[tm.seat];
    // a dot that keeps its shape however the chart is stretched (a round cap, drawn unscaled)
    svgEl("line", { x1: tm.ply + 1, x2: tm.ply + 1, y1: y(p), y2: y(p), class: `turn ${tm.word}`,
                    "data-turning": tm.ply }, svg);
  }
  const cursor = svgEl("line", { x1: 0, x2: 0, y1: 0, y2: H, class: "cursor" }, svg);
  svg.addEventListener("click", (e) => {
    const rect = svg.getBoundingClientRect();
    onPick(Math.round(((e.clientX - rect.left) / Math.max(rect.width, 1)) * W));
  });
  const how = data.curve_kind === "exact" ? t("exact: the game's own verdict on each position")
    : data.curve_kind === "model" ? t("estimated by the game's own valuation of each position")
      : t("estimated from {n} play-outs of the rest of the game from each position", { n: data.curve_rollouts || 0 });
  const caption = el("figcaption", { class: "muted small" }, box);
  if (seats === 2) {
    el("span", { text: t("Chance to win of {who}, move by move: above the middle line, ahead.", { who: label(0) }) + " " }, caption);
  } else {
    el("span", { text: t("Each player's chance to win:") + " " }, caption);
    for (const s of shown) el("span", { class: `curve-key seat-${s % 4}`, text: label(s) }, caption);
    caption.append(" ");
  }
  el("span", { class: "curve-how", text: `(${how}) ` }, caption);
  const n = (data.turning || []).length;
  el("span", { text: n ? tn("The {n} move where the chance fell most is marked.", "The {n} moves where the chance fell most are marked.", n)
    : t("No move changed the outcome much.") }, caption);
  return (/** @type {number} */ step) => { cursor.setAttribute("x1", String(step)); cursor.setAttribute("x2", String(step)); };
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
  const turning = new Map((data.turning || []).map((tm) => [tm.ply, tm]));
  const byPly = new Map();
  for (const m of data.moves) byPly.set(m.ply, { m, w: words(m, label, turning.get(m.ply)) });
  for (const r of data.rolls || []) byPly.set(r.ply, { r, w: rollWords(r) });
  const moveGraph = curveGraph(card, data, steps, label, onPick);
  // each seat's turning moves counted by name, as lichess sums a side's mistakes and blunders
  // (only the marked ones: a game of scripted players no longer reads "52 blunders")
  if (data.curve && data.curve.length) {
    const seatsOf = [...new Set(data.moves.map((m) => m.seat))].sort((a, b) => a - b);
    const sums = el("ul", { class: "review-sums", "data-testid": "review-sums", "aria-label": t("Turning moves by player") }, card);
    for (const s of seatsOf) {
      const mine = (data.turning || []).filter((tm) => tm.seat === s);
      const b = mine.filter((tm) => tm.word === "blunder").length, m = mine.length - b;
      const parts = [b ? tn("{n} blunder", "{n} blunders", b) : "", m ? tn("{n} mistake", "{n} mistakes", m) : ""].filter(Boolean);
      el("li", { "data-seat": s, text: `${label(s)}: ${parts.length ? parts.join(", ") : t("no turning move")}` }, sums);
    }
  }
  const now = el("div", { class: "review-now", "data-testid": "analysis", "data-kind": data.kind, "aria-live": "polite" }, card);
  const about = data.kind === "solver" ? t("The game's solver judges each move: a blunder gives away a won position; in a lost position no move is a mistake.")
    : data.kind === "agent" ? t("Beside each move: the hint agent's choice ({agent}), from what that player knew.", { agent: data.agent })
      : t("This game has no analysis.");
  el("p", { class: "muted small review-about", text: about }, card);
  if (data.truncated) el("p", { class: "muted small", text: t("Only the first moves were analysed.") }, card);
  // the move list's lines: what the analysis says of each (data-analysis), and a word on the
  // turning moves only, as lichess marks only its "?" and "??"
  for (const li of /** @type {HTMLCollectionOf<HTMLElement>} */ (log.children)) {
    if (li.dataset.ply === undefined) continue; // a round's heading
    const from = +li.dataset.ply, to = +li.dataset.lastPly;
    const found = [];
    const turns = [];
    for (let p = from; p <= to; p++) {
      if (byPly.has(p)) found.push(byPly.get(p));
      if (turning.has(p)) turns.push(turning.get(p));
    }
    li.dataset.analysis = found.map((x) => x.w.kind).join(" ");
    if (!turns.length) continue;
    const word = turns.some((tm) => tm.word === "blunder") ? "blunder" : "mistake";
    const tag = el("span", { class: "analysis-mark", "data-analysis-mark": word, text: word === "blunder" ? t("blunder") : t("mistake") }, null);
    li.dataset.turning = word;
    // inside the line, after its words (as lichess's "??"): the line keeps its width for its words
    const button = li.querySelector("button.line");
    if (button) button.append(" ", tag);
    else li.appendChild(tag);
    tag.title = found.map((x) => x.w.text).join("\n");
  }
  return function markStep(step) {
    moveGraph(step);
    clear(now);
    const line = [...log.children].find((li) => li.classList.contains("current"));
    if (!line) { el("p", { class: "muted small", text: t("The start of the game: step forward to see each move judged.") }, now); return; }
    const li = /** @type {HTMLElement} */ (line);
    // a turn's rolls said up to two at a time (a Mouse Trap firing rolls a dozen times): the rest counted
    let rolls = 0, more = 0;
    for (let p = +li.dataset.ply; p <= +li.dataset.lastPly && p < step; p++) {
      const x = byPly.get(p);
      if (!x) continue;
      if (x.r && ++rolls > 2) { more++; continue; }
      el("p", { class: "review-line", "data-ply": p, "data-kind": x.w.kind, "data-verdict": x.m ? x.m.verdict || "" : "",
                "data-turning": turning.has(p) ? turning.get(p).word : "", text: x.w.text }, now);
    }
    if (more) el("p", { class: "muted small", "data-more-rolls": more, text: tn("and {n} more chance outcome", "and {n} more chance outcomes", more) }, now);
    if (!now.children.length) el("p", { class: "muted small", text: t("Nothing to say about this step.") }, now);
  };
}
