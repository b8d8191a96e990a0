// The lobby: choose a game, its options and seats; create it; keep "my games" in localStorage.
// Everything it offers (games, options, seat count, agents) comes from the server.
import { api, clear, el, forgetGame, myGames, rememberGame } from "/static/js/dom.js";

const $ = (id) => document.getElementById(id);
let catalog = [];
let current = null; // the catalog entry of the chosen game, refreshed by /check
let checkTimer = null;

function optionText(value) {
  if (Array.isArray(value)) return value.join(",");
  return String(value);
}

// Same reading as the CLI's -o key=value: JSON when it is JSON, text otherwise; the game checks it.
function readOption(text, defaultValue) {
  if (typeof defaultValue === "boolean") return text;
  const t = text.trim();
  try { return JSON.parse(t); } catch (e) { /* not JSON */ }
  return t;
}

function optionValues() {
  const out = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    const def = current.defaults[name];
    out[name] = input.type === "checkbox" ? input.checked : readOption(input.value, def);
  }
  return out;
}

function renderOptions(entry) {
  const box = clear($("options"));
  const choices = entry.option_choices || {};
  for (const [name, value] of Object.entries(entry.options)) {
    const label = el("label", {}, box);
    el("span", { class: "name", text: name.replace(/_/g, " ") }, label);
    let input;
    if (typeof value === "boolean") {
      input = el("input", { type: "checkbox", "data-option": name }, label);
      input.checked = value;
    } else if (choices[name]) {
      input = el("select", { "data-option": name }, label);
      const labels = (entry.option_labels || {})[name] || {};
      for (const c of choices[name]) {
        const o = el("option", { value: JSON.stringify(c), text: labels[JSON.stringify(c)] ?? String(c) }, input);
        if (JSON.stringify(c) === JSON.stringify(value)) o.selected = true;
      }
    } else {
      input = el("input", { type: "text", "data-option": name, value: optionText(value) }, label);
    }
    input.addEventListener("change", scheduleCheck);
    input.addEventListener("input", scheduleCheck);
  }
}

function defaultAgent(agents) {
  for (const name of ["medium", "perfect", "hard", "heuristic", "easy", "random"]) if (agents.includes(name)) return name;
  return agents[0];
}

function renderSeats(entry) {
  const box = clear($("seats"));
  const previous = [...document.querySelectorAll("[data-seat]")].map((s) => s.value);
  for (let i = 0; i < entry.players; i++) {
    const label = el("label", {}, box);
    el("span", { class: "name", text: `Player ${i + 1}` }, label);
    const select = el("select", { "data-seat": i, "data-testid": `seat-${i}` }, label);
    el("option", { value: "me", text: "Me (this browser)" }, select);
    el("option", { value: "invite", text: "Invite a friend (link)" }, select);
    for (const a of entry.agents) el("option", { value: `agent:${a}`, text: `AI: ${a}` }, select);
    select.value = (box.dataset.game === entry.id && previous[i]) ||
      (i === 0 ? "me" : `agent:${defaultAgent(entry.agents)}`);
    if (!select.value) select.value = i === 0 ? "me" : "invite";
  }
  box.dataset.game = entry.id;
}

function scheduleCheck() {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(checkOptions, 250);
}

async function checkOptions() {
  const r = await api("POST", `/api/catalog/${encodeURIComponent(current.id)}/check`, { options: optionValues() });
  $("create-error").textContent = r.ok ? "" : r.error;
  $("create").disabled = !r.ok;
  if (r.ok) $("game-help").textContent = r.data.help; // the rules text of the options chosen
  if (r.ok && (r.data.players !== current.players || r.data.agents.join() !== current.agents.join())) {
    current = { ...current, players: r.data.players, agents: r.data.agents };
    renderSeats(current);
  }
}

function chooseGame(id) {
  const entry = catalog.find((g) => g.id === id);
  current = { ...entry, defaults: entry.options };
  $("game-help").textContent = entry.error ? entry.error : entry.help;
  renderOptions(entry);
  renderSeats(entry);
  $("create").disabled = !!entry.error;
}

async function create() {
  $("create-error").textContent = "";
  const seatChoices = [...document.querySelectorAll("[data-seat]")].map((s) => s.value);
  // An invited seat gets a one-use invite link (its token goes only to the friend who opens it).
  const seats = seatChoices.map((v) => v.startsWith("agent:") ? { kind: "agent", agent: v.slice(6) }
    : { kind: "human", invite: v === "invite" });
  const body = { game: current.id, options: optionValues(), seats, hints: $("hints").checked,
                 practice: $("practice").checked };
  const start = $("start").value.trim();
  if (start) body.start = start;
  $("create").disabled = true;
  const r = await api("POST", "/api/games", body);
  $("create").disabled = false;
  if (!r.ok) { $("create-error").textContent = r.error; return; }
  const game = r.data;
  const mine = game.seats.filter((s, i) => seatChoices[i] === "me");
  for (const s of mine) {
    rememberGame({ id: game.id, token: s.token, seat: s.seat, game: game.game, title: current.title, label: s.label,
                   link: s.link });
  }
  const invites = game.seats.filter((s, i) => seatChoices[i] === "invite");
  if (mine.length === 1 && invites.length === 0) {
    location.href = mine[0].link; // alone against AI: straight to the game
    return;
  }
  showLinks(game, seatChoices);
  renderMyGames();
}

function showLinks(game, seatChoices) {
  $("created").hidden = false;
  const box = clear($("created-links"));
  game.seats.forEach((s, i) => {
    if (s.kind !== "human") { el("p", { text: `${s.label}: played by the server` }, box); return; }
    const p = el("p", {}, box);
    const who = seatChoices[i] === "me" ? "you" : "send this link to your friend";
    el("strong", { text: `${s.label} (${who}): ` }, p);
    if (seatChoices[i] === "me") el("a", { href: s.link, text: "open my seat", "data-testid": `open-seat-${i}` }, p);
    const input = el("input", { type: "text", readonly: true, value: s.link, "data-link": `seat-${i}` }, p);
    input.addEventListener("focus", () => input.select());
  });
  const p = el("p", {}, box);
  el("strong", { text: "Spectator link: " }, p);
  el("input", { type: "text", readonly: true, value: game.spectator.link, "data-link": "spectator" }, p);
}

function renderMyGames() {
  const box = clear($("my-games"));
  const list = myGames();
  if (!list.length) { el("p", { class: "muted", text: "No games yet in this browser." }, box); return; }
  const table = el("table", { class: "games" }, box);
  const head = el("tr", {}, table);
  for (const h of ["game", "seat", "created", "", ""]) el("th", { text: h }, head);
  for (const g of list) {
    const tr = el("tr", { "data-my-game": g.id }, table);
    el("td", { text: g.title || g.game }, tr);
    el("td", { text: g.label || `Player ${g.seat + 1}` }, tr);
    el("td", { text: (g.seen || "").replace("T", " ").slice(0, 16) }, tr);
    const open = el("td", {}, tr);
    el("a", { href: `/g/${g.id}#t=${g.token}`, text: "resume" }, open);
    const rm = el("td", {}, tr);
    el("button", { text: "forget", onclick: () => { forgetGame(g.id, g.token); renderMyGames(); } }, rm);
  }
}

async function init() {
  renderMyGames();
  const r = await api("GET", "/api/catalog");
  if (!r.ok) { $("create-error").textContent = r.error; return; }
  catalog = r.data.games;
  const select = $("game-select");
  for (const g of catalog) el("option", { value: g.id, text: g.title + (g.error ? " (unavailable)" : "") }, select);
  const wanted = new URLSearchParams(location.search).get("game");
  select.value = catalog.some((g) => g.id === wanted) ? wanted
    : (catalog.some((g) => g.id === "last-mouse-lost") ? "last-mouse-lost" : catalog[0].id);
  select.addEventListener("change", () => chooseGame(select.value));
  chooseGame(select.value);
  $("create").addEventListener("click", create);
  document.body.dataset.ready = "1";
}

init();
