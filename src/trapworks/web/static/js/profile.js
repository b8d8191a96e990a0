// A player's profile: ratings per game with a chart of their history, results by game and variant,
// recent games with their replays. Everything here is public; no token is ever on this page.
import { api, clear, el, svg } from "/static/js/dom.js";
import { avatar, ratingText, scrollersReachable } from "/static/js/account-api.js";
import { changeLabel } from "/static/js/strips.js";
import { agentName, lang, t, tn, translatePage } from "/static/js/i18n.js";

// The page's own elements by id: inputs, selects, dialogs and links of known kinds (any: the
// page's HTML says which; TypeScript checks the rest).
/** @type {(id: string) => any} */
const $ = (id) => document.getElementById(id);
let titles = {};

function title(game) { return t(titles[game] || game); }

function chart(parent, history, label) {
  const W = 320, H = 140, P = 28;
  const points = [{ rating: history.length ? history[0].before : 1500 }, ...history];
  const values = points.map((p) => p.rating);
  const lo = Math.min(...values) - 20, hi = Math.max(...values) + 20;
  const x = (i) => P + (i * (W - 2 * P)) / Math.max(1, points.length - 1);
  const y = (v) => H - P + 8 - ((v - lo) * (H - P - 8 - 8)) / Math.max(1, hi - lo);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": label, "data-testid": "rating-chart" }, parent);
  svg("line", { x1: P, y1: H - P + 8, x2: W - 8, y2: H - P + 8, class: "axis" }, root);
  svg("line", { x1: P, y1: 8, x2: P, y2: H - P + 8, class: "axis" }, root);
  svg("text", { x: 2, y: y(hi) + 4, text: String(Math.round(hi)) }, root);
  svg("text", { x: 2, y: y(lo) + 4, text: String(Math.round(lo)) }, root);
  svg("text", { x: W / 2 - 30, y: H - 4, text: tn("{n} rated game", "{n} rated games", history.length) }, root);
  svg("polyline", { points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "), class: "line" }, root);
  points.forEach((p, i) => {
    const dot = svg("circle", { cx: x(i), cy: y(p.rating), r: 3, class: "dot" }, root);
    svg("title", { text: i ? t("after game {i}: {rating}", { i, rating: p.rating }) : t("start: {rating}", { rating: p.rating }) }, dot);
  });
}

function table(parent, headers, rows) {
  const tb = el("table", { class: "games" }, clear(parent));
  const head = el("tr", {}, el("thead", {}, tb));
  for (const h of headers) el("th", { text: h, scope: "col" }, head);
  const body = el("tbody", {}, tb);
  for (const cells of rows) {
    const tr = el("tr", {}, body);
    for (const c of cells) {
      const td = el("td", {}, tr);
      if (c instanceof Node) td.appendChild(c); else td.textContent = c;
    }
  }
  return tb;
}

async function init() {
  translatePage(); // the page's own words (data-i18n) in the chosen language
  const name = decodeURIComponent(location.pathname.split("/")[2] || "");
  const [cat, r] = await Promise.all([api("GET", "/api/catalog"), api("GET", `/api/players/${encodeURIComponent(name)}`)]);
  if (cat.ok) titles = Object.fromEntries(cat.data.games.map((g) => [g.id, g.title]));
  if (!r.ok) { $("error").textContent = r.error; document.body.dataset.ready = "1"; return; }
  const p = r.data;
  document.title = `${p.username} · trapworks`;
  $("name").textContent = p.username;
  $("name").parentElement.before(avatar(p.username, "l"));
  // The head's one line of numbers, as a lichess profile opens: games played, won, drawn, lost.
  const total = p.stats.reduce((n, st) => ({ played: n.played + st.played, won: n.won + st.won, drawn: n.drawn + st.drawn,
                                           lost: n.lost + st.lost }), { played: 0, won: 0, drawn: 0, lost: 0 });
  if (total.played) {
    $("totals").textContent = [tn("{n} game", "{n} games", total.played), tn("{n} win", "{n} wins", total.won),
                               tn("{n} draw", "{n} draws", total.drawn), tn("{n} loss", "{n} losses", total.lost)].join(" · ");
  }
  // The date as the viewer's language writes it ("29 novembre 2026"), not the stored 2026-11-29.
  const joined = p.joined ? new Date(p.joined) : null;
  const date = joined && !isNaN(joined.getTime())
    ? joined.toLocaleDateString(lang, { year: "numeric", month: "long", day: "numeric" })
    : "";
  $("joined").textContent = t("Playing since {date}", { date });
  const box = clear($("ratings"));
  if (!p.ratings.length) el("p", { class: "muted", text: t("No rated games yet.") }, box);
  for (const rt of p.ratings) {
    const card = el("div", { class: "rating-card", "data-rating-game": rt.game, "data-players": rt.players }, box);
    el("h3", { text: `${title(rt.game)} · ${tn("{n} player", "{n} players", rt.players)}` }, card);
    // As lichess: the rating ("?" while provisional, said in its tooltip), the games, the last change.
    const line = el("p", { class: "rating-line" }, card);
    el("span", { class: "rating-big", text: ratingText(rt), "data-testid": "rating-value",
                 title: rt.provisional ? t("Provisional rating: it settles after a few more rated games.") : t("Rating") }, line);
    const last = rt.history.length ? rt.history[rt.history.length - 1] : null;
    if (last) {
      const change = last.rating - last.before;
      el("span", { class: `rating-change ${change > 0 ? "up" : change < 0 ? "down" : "same"}`, text: changeLabel(change),
                   title: t("Last rated game"), "data-testid": "rating-last-change" }, line);
    }
    el("span", { class: "muted", text: tn("{n} rated game", "{n} rated games", rt.games) }, line);
    if (rt.provisional) {
      // Why a first game moved the rating by 150 or more (issue 39): said as lichess says it.
      const left = Math.max(1, rt.games_to_settle || 1);
      el("p", { class: "provisional-note small", "data-testid": "provisional-note",
                text: t("Provisional (“?”): the site does not know this player yet, so each rated game moves the rating a lot, often by 100 or more.") + " "
                  + tn("It settles after {n} more rated game.", "It settles after {n} more rated games.", left) }, card);
    }
    chart(card, rt.history, t("{game} rating history of {name}", { game: title(rt.game), name: p.username }));
  }
  if (p.stats.length) {
    // The variant under the game's name, and Aborted only when some game was: it fits a phone.
    const aborted = p.stats.some((s) => s.aborted);
    const gameCell = (s) => {
      const cell = el("div", { text: title(s.game) });
      el("div", { class: "small muted", text: t(s.variant) }, cell);
      return cell;
    };
    // Wins, draws, losses in that order on both of the page's tables, as lichess counts them.
    const tb = table($("stats"), [t("Game"), t("Played"), t("Wins"), t("Draws"), t("Losses"), ...(aborted ? [t("Aborted")] : [])],
      p.stats.map((s) => [gameCell(s), String(s.played), String(s.won), String(s.drawn), String(s.lost), ...(aborted ? [String(s.aborted)] : [])]));
    tb.classList.add("stats-table"); // its numbers in narrow columns (accounts.css): it fits a phone
  } else el("p", { class: "muted", text: t("No finished games yet.") }, clear($("stats")));
  if (p.recent.length) {
    // One line per game, as on the account page (issue 39: a four-column table was cramped):
    // the result as a badge, the game, whom against (an account links to its profile), the replay.
    const RESULTS = { won: t("won"), lost: t("lost"), drawn: t("drawn"), aborted: t("aborted") };
    const list = el("ul", { class: "my-games-list recent-list" }, clear($("recent")));
    for (const g of p.recent) {
      const row = el("li", { class: "my-game recent-game", "data-recent": g.id }, list);
      const badges = el("div", { class: "my-game-badges" }, row);
      const result = g.status === "on" ? t("playing") : (RESULTS[g.result] || g.result || "");
      if (result) el("span", { class: `pill pill-${g.result || "on"}`, text: result }, badges);
      const what = el("div", { class: "my-game-what" }, row);
      el("strong", { text: title(g.game) }, what);
      el("span", { class: "small muted", text: `${t(g.variant)}${g.rated ? ` · ${t("rated")}` : ""}` }, what);
      const who = el("div", { class: "my-game-who" }, row);
      const others = g.others || g.opponents.map((name) => ({ kind: "account", name }));
      if (others.length) el("span", { class: "muted", text: `${t("vs")} ` }, who);
      others.forEach((o, i) => {
        if (i) who.append(", ");
        if (o.kind === "account") el("a", { href: `/u/${encodeURIComponent(o.name)}`, text: o.name }, who);
        else who.append(o.kind === "computer" ? t("Computer ({level})", { level: agentName(o.level || "") }) : o.name || t("Player {n}", { n: o.seat + 1 }));
      });
      const links = el("div", { class: "game-links" }, row);
      if (g.replay) el("a", { href: g.replay, class: "button-link quiet", text: t("Replay"), "data-replay": g.id }, links);
    }
  } else el("p", { class: "muted", text: t("No games yet.") }, clear($("recent")));
  scrollersReachable();
  document.body.dataset.ready = "1";
}

init();
