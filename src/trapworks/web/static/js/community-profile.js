// On a player's profile (issue 41): results against each opponent and trophies from events,
// added after the accounts' sections (the rating history chart per game is theirs).
import { api, el } from "/static/js/dom.js";
import { table } from "/static/js/community-api.js";
import { t } from "/static/js/i18n.js";

const name = decodeURIComponent(location.pathname.split("/u/")[1] || "");
const main = document.querySelector("main");
const r = name && main ? await api("GET", `/api/community/players/${encodeURIComponent(name)}/record`) : null;
if (r && r.ok) {
  const trophies = el("section", { class: "card", "aria-labelledby": "trophies-title" }, main);
  el("h2", { id: "trophies-title", text: t("Trophies") }, trophies);
  table(el("div", { "data-testid": "trophies" }, trophies), [t("Event"), t("Game"), t("Rank"), t("Points won")], r.data.trophies, (trophy, tr) => {
    tr.setAttribute("data-trophy", trophy.event);
    el("a", { href: `/arena?id=${encodeURIComponent(trophy.event)}`, text: trophy.name }, el("td", {}, tr));
    el("td", { text: trophy.game }, tr);
    el("td", { text: String(trophy.place) }, tr);
    el("td", { text: String(trophy.score) }, tr);
  }, t("No trophy yet."));
  const opponents = el("section", { class: "card", "aria-labelledby": "opponents-title" }, main);
  el("h2", { id: "opponents-title", text: t("Results by opponent") }, opponents);
  table(el("div", { "data-testid": "opponents" }, opponents), [t("Opponent"), t("Games"), t("Wins"), t("Draws"), t("Losses")], r.data.opponents, (o, tr) => {
    tr.setAttribute("data-opponent", o.username);
    el("a", { href: `/u/${encodeURIComponent(o.username)}`, text: o.username }, el("td", {}, tr));
    for (const k of ["played", "won", "drawn", "lost"]) el("td", { text: String(o[k]), "data-k": k }, tr);
  }, t("No finished game against a player with an account yet."));
}
document.body.dataset.communityReady = "1";
