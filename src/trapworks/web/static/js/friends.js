// Friends, challenges, block / mute / report (issue 41). The lists are read again every few
// seconds: a challenge received shows up, an accepted one takes its sender to the game.
import { el } from "/static/js/dom.js";
import { $, act, button, gameTitle, loadGames, me, notice, reasonText, send, t, table, translatePage } from "/static/js/community-api.js";

const POLL_MS = 2500;
let openSent = new Set(); // challenges we sent that were open at the last look
let firstLook = true;

function clockText(clock) {
  if (!clock) return t("no clock");
  const s = clock.seconds;
  if (s < 86400) return t("{n} s a move", { n: s });
  const days = s / 86400;
  return days === 1 ? t("1 day a move") : t("{n} days a move", { n: days });
}

function challengeText(c) {
  return `${gameTitle(c.game)}${Object.keys(c.options || {}).length ? " " + JSON.stringify(c.options) : ""}, ${clockText(c.clock)}, ${c.rated ? t("rated") : t("casual")}`;
}

// The status of a challenge and the reason of a report, as the server names them, in words.
function statusText(status) {
  return { open: t("open"), accepted: t("accepted"), declined: t("declined"), cancelled: t("cancelled"), expired: t("expired"), failed: t("failed") }[status] || status;
}

async function showFriends() {
  const r = await send("GET", "/api/community/friends");
  if (!r.ok) return;
  table($("friends"), [t("Player"), t("Presence"), t("Games going on"), ""], r.data.following, (f, tr) => {
    tr.setAttribute("data-friend", f.username);
    el("a", { href: `/u/${encodeURIComponent(f.username)}`, text: f.username }, el("td", {}, tr));
    el("td", { text: f.online ? t("online") : t("offline"), class: f.online ? "online" : "muted", "data-testid": "presence" }, tr);
    const games = el("td", {}, tr);
    for (const g of f.games) el("a", { href: g.watch, text: t("watch {game}", { game: gameTitle(g.game) }), "data-testid": "watch" }, games);
    const cell = el("td", {}, tr);
    button(cell, t("Challenge"), "friend-challenge", () => { const form = /** @type {HTMLFormElement} */ ($("challenge")); /** @type {HTMLInputElement} */ (form.elements.namedItem("username")).value = f.username; /** @type {HTMLSelectElement} */ (form.elements.namedItem("game")).focus(); });
    button(cell, t("Unfollow"), "unfollow", () => act("POST", "/api/community/unfollow", { username: f.username }, t("You no longer follow {name}.", { name: f.username }), refresh));
  }, t("You follow nobody yet: follow a player by name."));
  $("followers").textContent = r.data.followers.length ? t("Following you: {names}", { names: r.data.followers.join(", ") }) : "";
}

async function showChallenges() {
  const r = await send("GET", "/api/community/challenges");
  if (!r.ok) return;
  table($("incoming"), [t("From"), t("Game"), t("Status"), ""], r.data.incoming, (c, tr) => {
    tr.setAttribute("data-challenge", c.id);
    tr.setAttribute("data-status", c.status);
    el("td", { text: c.from }, tr);
    el("td", { text: challengeText(c) }, tr);
    el("td", { text: statusText(c.status), "data-testid": "challenge-status" }, tr);
    const cell = el("td", {}, tr);
    if (c.status === "open") {
      button(cell, t("Accept"), "accept", async () => {
        const game = await act("POST", `/api/community/challenges/${c.id}/accept`, {}, t("Accepted: to the game!"));
        if (game && game.link) location.href = game.link;
      });
      button(cell, t("Decline"), "decline", () => act("POST", `/api/community/challenges/${c.id}/decline`, {}, t("Declined."), refresh));
    } else if (c.link) el("a", { href: c.link, text: t("Play"), "data-testid": "play" }, cell);
  }, t("No challenge received."));
  table($("outgoing"), [t("To"), t("Game"), t("Status"), ""], r.data.outgoing, (c, tr) => {
    tr.setAttribute("data-challenge", c.id);
    tr.setAttribute("data-status", c.status);
    el("td", { text: c.to }, tr);
    el("td", { text: challengeText(c) }, tr);
    el("td", { text: statusText(c.status), "data-testid": "challenge-status" }, tr);
    const cell = el("td", {}, tr);
    if (c.status === "open") button(cell, t("Cancel"), "cancel", () => act("POST", `/api/community/challenges/${c.id}/cancel`, {}, t("Challenge withdrawn."), refresh));
    else if (c.link) el("a", { href: c.link, text: t("Play"), "data-testid": "play" }, cell);
  }, t("No challenge sent."));
  // A challenge of ours accepted since the last look: its game opens (as lichess does).
  const accepted = r.data.outgoing.find((c) => c.status === "accepted" && c.link && openSent.has(c.id));
  openSent = new Set(r.data.outgoing.filter((c) => c.status === "open").map((c) => c.id));
  if (accepted && !firstLook) location.href = accepted.link;
  firstLook = false;
}

async function showSafety() {
  const r = await send("GET", "/api/community/safety");
  if (!r.ok) return;
  table($("blocked"), [t("Blocked"), ""], r.data.blocked, (name, tr) => {
    tr.setAttribute("data-blocked", name);
    el("td", { text: name }, tr);
    button(el("td", {}, tr), t("Unblock"), "unblock", () => act("POST", "/api/community/unblock", { username: name }, t("{name} is unblocked.", { name }), refresh));
  }, t("You block nobody."));
  table($("muted"), [t("Muted"), ""], r.data.muted, (name, tr) => {
    el("td", { text: name }, tr);
    button(el("td", {}, tr), t("Unmute"), "unmute", () => act("POST", "/api/community/unmute", { username: name }, t("{name} is unmuted.", { name }), refresh));
  }, t("You mute nobody."));
  table($("reports"), [t("Your reports"), t("Reason"), t("Status")], r.data.reports, (rep, tr) => {
    el("td", { text: rep.username }, tr);
    el("td", { text: reasonText(rep.reason) }, tr);
    el("td", { text: rep.status === "open" ? t("open") : t("closed"), "data-testid": "report-status" }, tr);
  }, "");
}

async function showNotices() {
  const r = await send("GET", "/api/community/me");
  if (!r.ok) return;
  const box = $("notices");
  for (const n of r.data.notices) {
    const text = n.kind === "warn" ? t("A moderator warns you: {reason}", { reason: n.reason })
      : n.kind === "mute" ? (n.until ? t("A moderator muted you until {until}: {reason}", { until: n.until, reason: n.reason }) : t("A moderator muted you for good: {reason}", { reason: n.reason }))
        : n.until ? t("You are banned until {until}: {reason}", { until: n.until, reason: n.reason }) : t("You are banned for good: {reason}", { reason: n.reason });
    el("p", { class: "banner", role: "alert", text, "data-kind": n.kind }, box);
  }
  if (r.data.moderator && !document.querySelector("[data-testid=nav-mod]")) {
    el("a", { href: "/mod", text: t("Moderation"), "data-testid": "nav-mod" }, document.querySelector("header.top nav"));
  }
}

async function refresh() {
  await Promise.all([showFriends(), showChallenges(), showSafety()]);
}

function wire() {
  $("follow").addEventListener("submit", async (e) => {
    e.preventDefault();
    const form = /** @type {HTMLFormElement} */ (e.target);
    const name = /** @type {HTMLInputElement} */ (form.elements.namedItem("username")).value.trim();
    if (await act("POST", "/api/community/follow", { username: name }, t("You follow {name}.", { name }), refresh)) form.reset();
  });
  $("challenge").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = /** @type {HTMLFormElement} */ (e.target);
    const optionsText = /** @type {HTMLInputElement} */ (f.elements.namedItem("options")).value;
    let options = {};
    if (optionsText.trim()) {
      try { options = JSON.parse(optionsText); } catch (err) { notice(t("Options: not JSON ({error})", { error: err.message }), true); return; }
    }
    const body = { username: /** @type {HTMLInputElement} */ (f.elements.namedItem("username")).value.trim(), game: /** @type {HTMLSelectElement} */ (f.elements.namedItem("game")).value, options, rated: /** @type {HTMLInputElement} */ (f.elements.namedItem("rated")).checked };
    const [kind, n] = /** @type {HTMLSelectElement} */ (f.elements.namedItem("clock")).value.split(":");
    if (kind === "s") body.seconds_per_move = Number(n);
    if (kind === "d") body.days_per_move = Number(n);
    await act("POST", "/api/community/challenges", body, t("Challenge sent to {name}.", { name: body.username }), refresh);
  });
  $("block").addEventListener("submit", async (e) => {
    e.preventDefault();
    const form = /** @type {HTMLFormElement} */ (e.target);
    const what = e.submitter ? /** @type {HTMLButtonElement} */ (e.submitter).value : "block";
    const name = /** @type {HTMLInputElement} */ (form.elements.namedItem("username")).value.trim();
    const done = what === "block" ? t("{name} is blocked.", { name }) : t("{name}'s chat lines are hidden from you.", { name });
    if (await act("POST", `/api/community/${what}`, { username: name }, done, refresh)) form.reset();
  });
  $("report").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = /** @type {HTMLFormElement} */ (e.target);
    const body = { username: /** @type {HTMLInputElement} */ (f.elements.namedItem("username")).value.trim(), reason: /** @type {HTMLSelectElement} */ (f.elements.namedItem("reason")).value, details: /** @type {HTMLTextAreaElement} */ (f.elements.namedItem("details")).value };
    const gameId = /** @type {HTMLInputElement} */ (f.elements.namedItem("game_id")).value.trim();
    const chatLine = /** @type {HTMLInputElement} */ (f.elements.namedItem("chat_line")).value.trim();
    if (gameId) body.game_id = gameId;
    if (chatLine) body.chat_line = Number(chatLine);
    if (await act("POST", "/api/community/report", body, t("Thank you: the moderators will read your report."), refresh)) f.reset();
  });
}

async function start() {
  translatePage();
  const who = await me();
  if (!who.account) { $("logged-out").hidden = false; document.body.dataset.ready = "1"; return; }
  $("logged-in").hidden = false;
  const games = await loadGames();
  const challenge = /** @type {HTMLFormElement} */ ($("challenge"));
  const select = /** @type {HTMLSelectElement} */ (challenge.elements.namedItem("game"));
  for (const g of games) el("option", { value: g.id, text: g.title || g.id }, select);
  const wanted = new URLSearchParams(location.search).get("challenge");
  if (wanted) /** @type {HTMLInputElement} */ (challenge.elements.namedItem("username")).value = wanted;
  wire();
  await Promise.all([refresh(), showNotices()]);
  document.body.dataset.ready = "1";
  setInterval(refresh, POLL_MS);
}

start();
