// Review with analysis (issue 27) on the replay page: the server's analysis of a finished game
// (GET /api/games/<id>/analysis: the game's solver marks each move winning or losing and gives a
// winning move where one existed; other games give their hint agent's choice) shown beside each
// move: a mark on each line of the move list, and a card listing every decision, the current one
// highlighted. It decides nothing: it shows what the server's answer says.
import { api, clear, el } from "/static/js/dom.js";
import { formatMessage, t } from "/static/js/i18n.js";

export async function loadAnalysis(gid) {
  const r = await api("GET", `/api/games/${encodeURIComponent(gid)}/analysis`);
  return r.ok ? r.data : null;
}

function words(m, label) {
  const who = label(m.seat);
  if (m.verdict) {
    const mark = m.verdict === "winning" ? t("winning") : t("losing");
    const best = m.verdict === "losing" && m.best ? " · " + t("a winning move was {move}", { move: m.best }) : "";
    const none = m.outcome === "loss" ? " · " + t("no winning move existed") : "";
    return { mark, text: `${who}: ${m.move} — ${mark}${best}${none}`, kind: m.verdict };
  }
  if (m.choice !== undefined) {
    // the hint agent's words are the game's: seats by their names, in the page's language
    // (typed: its catalog, no pattern; a move without words of its own: its notation only)
    const words = m.choice_msg ? formatMessage(m.choice_msg, null, label, true) : null;
    const kind = m.same ? "same" : "other";
    const mark = m.same ? t("as the hint") : t("not as the hint");
    const text = m.same ? `${who}: ${m.move} — ${t("the hint agent chose the same")}`
      : words && words.toLowerCase() !== m.choice.toLowerCase()
        ? `${who}: ${m.move} — ${t("the hint agent chose {move} ({words})", { move: m.choice, words })}`
        : `${who}: ${m.move} — ${t("the hint agent chose {move}", { move: m.choice })}`;
    return { mark, text, kind };
  }
  return { mark: "", text: `${who}: ${m.move}`, kind: "none" };
}

// Show `data` in `card` (a list of decisions) and mark the lines of the move list `log`.
// onPick(step) moves the replay's board; returns markStep(step) for the current step.
export function showAnalysis(card, log, data, { label, onPick }) {
  clear(card);
  card.hidden = false;
  el("h2", { id: "analysis-title", text: t("Analysis") }, card);
  const about = data.kind === "solver" ? t("The solver marks each move winning or losing, and shows a winning move where one existed.")
    : data.kind === "agent" ? t("Beside each move: the hint agent's choice ({agent}), from what that player knew.", { agent: data.agent })
      : t("This game has no analysis.");
  el("p", { class: "muted small", text: about }, card);
  const list = el("ol", { class: "analysis-list", "data-testid": "analysis", "aria-labelledby": "analysis-title",
                          "data-kind": data.kind }, card);
  const byPly = new Map();
  for (const m of data.moves) {
    const w = words(m, label);
    byPly.set(m.ply, { m, w });
    const li = el("li", { "data-ply": m.ply, "data-verdict": m.verdict || "", "data-kind": w.kind }, list);
    const b = el("button", { type: "button", class: "line", text: w.text }, li);
    b.addEventListener("click", () => onPick(m.ply + 1));
  }
  if (data.truncated) el("p", { class: "muted small", text: t("Only the first moves were analysed.") }, card);
  // the move list's lines: a mark for each move of the line
  for (const li of log.children) {
    const from = +li.dataset.ply, to = +li.dataset.lastPly;
    const marks = [];
    for (let p = from; p <= to; p++) if (byPly.has(p) && byPly.get(p).w.mark) marks.push(byPly.get(p));
    if (!marks.length) continue;
    const kinds = marks.map((x) => x.w.kind);
    const tag = el("span", { class: "analysis-mark", "data-analysis-mark": kinds.join(" ") }, li);
    // one short word a line: a line of several moves says whether any of them was marked down
    tag.textContent = marks.length === 1 ? marks[0].w.mark
      : kinds.includes("losing") ? t("losing") : kinds.includes("winning") ? t("winning")
        : kinds.includes("other") ? t("not as the hint") : t("as the hint");
    tag.title = marks.map((x) => x.w.text).join("\n");
  }
  return function markStep(step) {
    for (const li of /** @type {HTMLCollectionOf<HTMLElement>} */ (list.children)) li.classList.toggle("current", +li.dataset.ply === step - 1);
    const current = list.querySelector("li.current");
    if (current) current.scrollIntoView({ block: "nearest" });
  };
}
