// Clocks: the lobby's clock choice, and the game page's countdown. The server keeps and enforces
// every clock (server/features/clock.py); the page only counts down from the numbers it last received.
import { clear, el } from "/static/js/dom.js";
import { t, tn } from "/static/js/i18n.js";

// --- the lobby --------------------------------------------------------------------------------
export function renderClockOptions(box, agents) {
  clear(box);
  const levels = (agents || []).filter((a) => ["easy", "medium", "hard"].includes(a));
  const row = (label, control) => {
    const l = el("label", {}, box);
    el("span", { class: "name", text: label }, l);
    l.appendChild(control);
    return l;
  };
  const mode = el("select", { id: "clock-mode", "data-testid": "clock-mode" });
  for (const [value, text] of [["", t("No clock")], ["move", t("Time per turn")], ["total", t("Time per player (+ increment)")]]) {
    el("option", { value, text }, mode);
  }
  row(t("Clock"), mode);
  const seconds = el("input", { type: "number", id: "clock-seconds", min: "1", step: "1", value: "60", "data-testid": "clock-seconds" });
  const secondsRow = row(t("Seconds"), seconds);
  const increment = el("input", { type: "number", id: "clock-increment", min: "0", step: "1", value: "5", "data-testid": "clock-increment" });
  const incrementRow = row(t("Increment (s)"), increment);
  const rule = el("select", { id: "clock-rule", "data-testid": "clock-rule" });
  for (const level of levels) el("option", { value: `ai:${level}`, text: t("the computer ({level}) plays the turn", { level }) }, rule);
  el("option", { value: "forfeit", text: t("that player forfeits") }, rule);
  const ruleRow = row(t("When time runs out"), rule);
  const sync = () => {
    const on = mode.value !== "";
    secondsRow.hidden = !on;
    ruleRow.hidden = !on;
    incrementRow.hidden = mode.value !== "total";
    seconds.value = mode.value === "total" && seconds.value === "60" ? "300" : seconds.value;
  };
  mode.addEventListener("change", sync);
  sync();
}

// The clock option of POST /api/games (null: no clock).
export function clockSpec() {
  const byId = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
  const mode = byId("clock-mode");
  if (!mode || !mode.value) return null;
  const rule = byId("clock-rule").value;
  /** @type {{mode: string, seconds: number, increment?: number, on_timeout?: string, ai_level?: string}} */
  const spec = { mode: mode.value, seconds: Number(byId("clock-seconds").value) };
  if (mode.value === "total") spec.increment = Number(byId("clock-increment").value || 0);
  if (rule === "forfeit") spec.on_timeout = "forfeit";
  else { spec.on_timeout = "ai"; spec.ai_level = rule.slice(3); }
  return spec;
}

// --- the game page ------------------------------------------------------------------------------
// A clock as players read it (issue 39): "4:05" under an hour, "3:04:05" under a day, and a
// correspondence game's days and hours ("2 d 5 h"), never "1440:00".
export function formatClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const two = (n) => String(n).padStart(2, "0");
  if (s >= 86400) {
    const days = Math.floor(s / 86400);
    const hours = Math.floor((s % 86400) / 3600);
    return hours ? t("{d} d {h} h", { d: days, h: hours }) : tn("{n} day", "{n} days", days);
  }
  if (s >= 3600) return `${Math.floor(s / 3600)}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
  return `${Math.floor(s / 60)}:${two(s % 60)}`;
}

// A countdown in `box`: update(clock) with the server's clock of a state message; between
// messages it counts the running seat down locally (never below zero; the server decides).
export function createClock(box, { seatLabel, onTick = (/** @type {any} */ _times) => {} }) {
  let clock = null;
  let received = 0;
  let timer = null;
  function draw() {
    clear(box);
    if (!clock) { box.hidden = true; onTick(null); return; }
    const times = new Map();
    box.hidden = false;
    const elapsed = performance.now() - received;
    clock.remaining_ms.forEach((ms, seat) => {
      if (ms === null || ms === undefined) return;
      const running = clock.running === seat;
      const left = running ? ms - elapsed : ms;
      const div = el("div", {
        class: "clock-seat" + (running ? " running" : "") + (running && left < 10000 ? " low" : ""),
        "data-testid": `clock-seat-${seat}`, "data-running": running ? "1" : "0",
      }, box);
      el("span", { class: "who", text: seatLabel(seat) }, div);
      el("span", { class: "time", text: formatClock(left) }, div);
      times.set(seat, { text: formatClock(left), running, low: running && left < 10000 });
    });
    onTick(times);
    const rule = clock.on_timeout === "forfeit" ? t("forfeit on time") : t("on time: the computer ({level}) plays", { level: clock.ai_level });
    const what = clock.mode === "total" ? t("{time} each", { time: formatClock(clock.seconds * 1000) }) + (clock.increment ? ` + ${clock.increment} s` : "")
      : t("{time} per turn", { time: formatClock(clock.seconds * 1000) });
    el("span", { class: "clock-rule muted small", text: `${what} · ${rule}` }, box);
  }
  return {
    update(next) {
      if (next === undefined) return; // an intermediate update: the clock is on the last one
      clock = next;
      received = performance.now();
      if (timer) clearInterval(timer);
      timer = clock && clock.running !== null ? setInterval(draw, 250) : null;
      draw();
    },
  };
}
