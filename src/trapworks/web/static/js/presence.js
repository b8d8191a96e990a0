// Who sits at the game and whether they are here (the server's `presence` messages), drawn in
// the Players card; and this page's heartbeat: whether its tab is visible, every HEARTBEAT_MS.
import { t, agentName, seatName } from "/static/js/i18n.js";
import { clear, el } from "/static/js/dom.js";

const HEARTBEAT_MS = 15000;
const STATUS_WORDS = {
  free: () => t("free seat"), joined: () => t("joined"), online: () => t("online"), away: () => t("away"), left: () => t("left"),
};

// Merge a presence message's names and labels into info.players (the log, chat and the
// renderer's seat labels read them there).
export function applyPresence(players, seats) {
  for (const s of seats || []) {
    const p = players[s.seat];
    if (!p) continue;
    p.name = s.name;
    p.label = s.label;
    p.status = s.status;
  }
}

// One row per seat: its name as every line says it (i18n.js seatName: the account's, the chosen
// one, "Computer (easy)"), who it is for this page, and the status (not on a shared screen, hot
// seat: everyone is at this one screen, so "online" says nothing there).
// Who left the game off the board (out of a Mouse Trap game, or handed to the computer) is
// drawn here, from the update, so a later presence message redraws it too.
export function drawPlayers(box, players, { viewer, toMove, terminal, winners, out = [], handed = [], shared = false }) {
  clear(box);
  for (const p of players) {
    const mine = viewer !== null && viewer !== undefined && p.seat === viewer;
    const row = el("div", { class: "player" + (toMove === p.seat ? " to-move" : ""), "data-player": p.seat }, box);
    const who = el("span", { class: "who" }, row);
    const named = p.account || p.name; // an account's seat goes by the account's name (issue 39)
    // your own seat without a name: "You", not a seat number
    const unnamedMe = mine && !named && p.kind !== "agent";
    el("span", { class: "pname", text: unnamedMe ? t("You") : seatName(p.seat, p, undefined, players), "data-testid": `player-name-${p.seat}` }, who);
    const seatWords = [];
    // A named computer seat says it is one; an unnamed one's name says it already.
    if (p.kind === "agent" && named) seatWords.push(p.agent ? t("computer: {agent}", { agent: agentName(p.agent) }) : t("computer"));
    if (mine && !unnamedMe) seatWords.push(t("you"));
    if (seatWords.length) el("span", { class: "pseat muted", text: ` (${seatWords.join(", ")})` }, who);
    if (p.kind === "human" && p.status && !shared) {
      el("span", { class: `presence presence-${p.status}`, text: STATUS_WORDS[p.status] ? STATUS_WORDS[p.status]() : p.status,
                   "data-presence": p.status, "data-testid": `presence-${p.seat}` }, row);
    }
    const notes = [];
    if (toMove === p.seat) notes.push(t("to move"));
    if (terminal && (winners || []).includes(p.seat)) notes.push(t("★ winner"));
    if (notes.length) el("span", { class: "pnote", text: notes.join(" · ") }, row);
    if (out.includes(p.seat)) el("span", { class: "left-game muted", text: ` · ${t("out")}` }, row);
    else if (handed.includes(p.seat)) el("span", { class: "left-game muted", text: ` · ${t("played by the computer")}` }, row);
  }
}

// Tell the server whether this page's tab is visible: at once when it changes, and every
// HEARTBEAT_MS (a page that stops sending shows "away", then "left").
export function startHeartbeat(send) {
  const beat = () => send({ type: "presence", visible: !document.hidden });
  document.addEventListener("visibilitychange", beat);
  const timer = setInterval(beat, HEARTBEAT_MS);
  return { beat, stop() { clearInterval(timer); document.removeEventListener("visibilitychange", beat); } };
}
