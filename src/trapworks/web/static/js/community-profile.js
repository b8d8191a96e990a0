// On a player's profile (issue 41): results against each opponent and trophies from events,
// added after the accounts' sections (the rating history chart per game is theirs).
import { api, el } from "/static/js/dom.js";
import { table } from "/static/js/community-api.js";

const name = decodeURIComponent(location.pathname.split("/u/")[1] || "");
const main = document.querySelector("main");
const r = name && main ? await api("GET", `/api/community/players/${encodeURIComponent(name)}/record`) : null;
if (r && r.ok) {
  const trophies = el("section", { class: "card", "aria-labelledby": "trophies-title" }, main);
  el("h2", { id: "trophies-title", text: "Trophies" }, trophies);
  table(el("div", { "data-testid": "trophies" }, trophies), ["Event", "Game", "Place", "Score"], r.data.trophies, (t, tr) => {
    tr.setAttribute("data-trophy", t.event);
    el("a", { href: `/arena?id=${encodeURIComponent(t.event)}`, text: t.name }, el("td", {}, tr));
    el("td", { text: t.game }, tr);
    el("td", { text: ["", "1st", "2nd", "3rd"][t.place] || `${t.place}th` }, tr);
    el("td", { text: String(t.score) }, tr);
  }, "No trophy yet.");
  const opponents = el("section", { class: "card", "aria-labelledby": "opponents-title" }, main);
  el("h2", { id: "opponents-title", text: "Results by opponent" }, opponents);
  table(el("div", { "data-testid": "opponents" }, opponents), ["Opponent", "Games", "Won", "Drawn", "Lost"], r.data.opponents, (o, tr) => {
    tr.setAttribute("data-opponent", o.username);
    el("a", { href: `/u/${encodeURIComponent(o.username)}`, text: o.username }, el("td", {}, tr));
    for (const k of ["played", "won", "drawn", "lost"]) el("td", { text: String(o[k]), "data-k": k }, tr);
  }, "No finished game against a player with an account yet.");
}
document.body.dataset.communityReady = "1";
