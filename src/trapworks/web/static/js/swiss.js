// Swiss tournaments (issue 41): the list, one tournament's rounds, pairings and standings with
// their tie-breaks (read again every 5 s), join while it is open, its creator starts it.
// Played by correspondence: each game is in the player's "My games" as any other.
import { api, clear, el } from "/static/js/dom.js";
import { $, act, gameTitle, loadGames, me, notice, refused, t, table, translatePage } from "/static/js/community-api.js";
import { optionValues, twoPlayerGameOptions } from "/static/js/game-options.js";
import { tn } from "/static/js/i18n.js";

const id = new URLSearchParams(location.search).get("id");
let username = null;

function statusText(status) {
  return { open: t("open: join now"), pairing: t("pairing the round"), running: t("playing"), finished: t("finished") }[status] || status;
}

function daysText(days) {
  return days === 1 ? t("1 day a move") : t("{n} days a move", { n: days });
}

async function showList() {
  const r = await api("GET", "/api/community/swiss");
  if (!r.ok) return;
  const box = clear($("swiss-list"));
  const all = r.data.swiss;
  if (!all.length) {
    const p = el("p", { class: "muted empty-state", "data-testid": "swiss-empty" }, box);
    p.append(`${t("No Swiss tournament yet. Make the first one: choose a game, the number of rounds and the days a move.")} `);
    el("a", { href: "#swiss-create-title", text: t("Create a Swiss tournament") }, p);
    return;
  }
  const list = el("ul", { class: "arena-list" }, box);
  for (const s of all) {
    const li = el("li", { class: "arena-item", "data-swiss": s.id, "data-state": s.status }, list);
    const who = el("div", { class: "person-who" }, li);
    el("a", { href: `/swiss?id=${encodeURIComponent(s.id)}`, text: s.name, class: "person-name" }, who);
    el("span", { class: "muted small", text: gameTitle(s.game) }, who);
    el("span", { class: "small", text: `${tn("{n} player", "{n} players", s.players)} · ${tn("{n} round", "{n} rounds", s.rounds)} · ${daysText(s.days_per_move)}` }, who);
    el("span", { class: `status status-${s.status === "open" ? "open" : s.status === "finished" ? "closed" : "accepted"}`, text: statusText(s.status) }, li);
  }
}

async function showSwiss() {
  const r = await api("GET", `/api/community/swiss/${encodeURIComponent(id)}`);
  if (!r.ok) { notice(refused(r), true); return; }
  const s = r.data;
  $("swiss-card").hidden = false;
  $("swiss-title").textContent = s.name;
  const round = s.round ? t("round {n} of {total}", { n: s.round, total: s.rounds }) : tn("{n} round", "{n} rounds", s.rounds);
  $("swiss-info").textContent = [gameTitle(s.game), daysText(s.days_per_move), round, statusText(s.status)].join(" · ");
  const mine = s.standings.find((p) => p.username === username);
  $("swiss-join").hidden = !username || !!mine || s.status !== "open";
  $("swiss-start").hidden = !username || s.created_by !== username || s.status !== "open";
  const you = $("swiss-you");
  you.hidden = !username;
  you.textContent = !mine ? (s.status === "open" ? t("Join to play: the first round is paired when its creator starts it.") : "")
    : s.status === "open" ? t("You are in. The first round is paired when its creator starts it.")
    : s.status === "finished" ? t("The tournament is over: you finished #{rank}.", { rank: mine.rank })
    : t("Your games are in My games: the next round is paired when every game of this one has ended.");
  if (!you.textContent) you.hidden = true;
  const heads = ["#", t("Player"), t("Points"), t("Buchholz"), t("Sonneborn-Berger"), t("Opponents")];
  table($("swiss-standings"), heads, s.standings, (p, tr) => {
    tr.setAttribute("data-player", p.username);
    el("td", { text: String(p.rank) }, tr);
    el("a", { href: `/u/${encodeURIComponent(p.username)}`, text: p.username }, el("td", {}, tr));
    el("td", { text: String(p.points), "data-testid": "points" }, tr);
    el("td", { text: String(p.buchholz) }, tr);
    el("td", { text: String(p.sonneborn_berger) }, tr);
    el("td", { text: [...p.opponents, ...Array(p.byes).fill(t("bye"))].join(", ") }, tr);
  }, t("Nobody has joined yet."), true);
  const rounds = clear($("swiss-rounds"));
  for (let n = s.round; n >= 1; n--) {
    const games = s.games.filter((g) => g.round === n);
    el("h3", { text: t("Pairings of round {n}", { n }) }, rounds);
    const list = el("ul", { class: "arena-list", "data-testid": `swiss-round-${n}` }, rounds);
    if (!games.length) el("li", { class: "muted", text: t("being paired") }, list);
    for (const g of games) {
      const li = el("li", { class: "arena-item" }, list);
      const line = el("div", { class: "person-who" }, li);
      el("span", { class: "person-name", text: g.players.join(" – ") }, line);
      el("span", { class: "small", text: g.points ? g.points.join(" – ") : t("playing") }, line);
      el("a", { href: g.points ? `/replay/${encodeURIComponent(g.id)}` : `/watch`, text: g.points ? t("Review the game") : t("Watch") }, li);
    }
  }
}

async function start() {
  const who = await me();
  username = who.account ? who.account.username : null;
  translatePage();
  const form = /** @type {HTMLFormElement} */ ($("swiss-create"));
  const select = /** @type {HTMLSelectElement} */ (form.elements.namedItem("game"));
  const games = await loadGames();
  twoPlayerGameOptions(select, $("swiss-options"), games, "swiss-opt-");
  const field = (name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = { name: field("name").value.trim(), game: select.value, options: optionValues($("swiss-options")),
                   rounds: Number(field("rounds").value), days_per_move: Number(field("days").value) };
    const made = await act("POST", "/api/community/swiss", body, t("Tournament created."));
    if (made) location.href = `/swiss?id=${encodeURIComponent(made.id)}`;
  });
  const both = async () => { await showSwiss(); await showList(); };
  $("swiss-join").addEventListener("click", () => act("POST", `/api/community/swiss/${encodeURIComponent(id)}/join`, {}, t("You are in the tournament."), both));
  $("swiss-start").addEventListener("click", () => act("POST", `/api/community/swiss/${encodeURIComponent(id)}/start`, {}, t("Round 1 is paired: your games are in My games."), both));
  await showList();
  if (id) { await showSwiss(); setInterval(() => { if (!document.hidden) showSwiss(); }, 5000); }
  document.body.dataset.ready = "1";
}

start();
