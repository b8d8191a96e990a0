// Turn alerts: when it becomes this seat's turn or the game ends, the tab title and favicon
// change, an optional beep sounds (Web Audio; off unless the player turns it on, remembered), and
// a browser notification is shown while the tab is hidden (only after the player granted
// permission with the button: never asked unprompted). The title comes back when the tab is
// focused or when it is no longer this seat's turn.
import { t } from "/static/js/i18n.js";
import { el } from "/static/js/dom.js";

const SOUND_KEY = "trapworks.sound";
const DOT_ICON = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#b45309"/>'
  + '<circle cx="8" cy="8" r="3" fill="#fff"/></svg>');

function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) === "1"; } catch (e) { return false; }
}

export function createAlerts(controls, { baseTitle, seat, gameTitle }) {
  let audio = null;
  let state = null; // "turn" | "over" | null: what the title says now
  let last = { myTurn: false, terminal: false, seen: false };
  const icon = document.querySelector("link[rel=icon]") || el("link", { rel: "icon", href: "data:," }, document.head);
  const plainIcon = icon.getAttribute("href");

  const row = el("div", { class: "alert-controls row-buttons" }, controls);
  const soundLabel = el("label", { class: "inline" }, row);
  const sound = el("input", { type: "checkbox", "data-testid": "alert-sound" }, soundLabel);
  soundLabel.appendChild(document.createTextNode(` ${t("Sound on my turn")}`));
  sound.checked = soundOn();
  sound.addEventListener("change", () => {
    try { localStorage.setItem(SOUND_KEY, sound.checked ? "1" : "0"); } catch (e) { /* not kept */ }
    if (sound.checked) beep(); // made in a click, so the browser lets it play; a sample of the sound
  });
  const notify = el("button", { type: "button", text: t("Notify me on my turn"), "data-testid": "alert-notify" }, row);
  const canNotify = typeof Notification !== "undefined";
  const showNotify = () => {
    notify.hidden = !canNotify || Notification.permission !== "default";
    if (canNotify && Notification.permission === "denied") notify.title = t("Notifications are blocked for this site");
  };
  showNotify();
  notify.addEventListener("click", async () => {
    try { await Notification.requestPermission(); } catch (e) { /* an old browser */ }
    showNotify();
  });

  function beep() {
    try {
      audio = audio || new (window.AudioContext || /** @type {any} */ (window).webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = 880;
      gain.gain.setValueAtTime(0.0001, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
      osc.connect(gain).connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + 0.3);
    } catch (e) { /* no audio here */ }
  }

  function show(what) {
    state = what;
    document.title = what === "turn" ? `● ${t("Your turn")} — trapworks` : `● ${t("Game over")} — trapworks`;
    icon.setAttribute("href", DOT_ICON);
    document.body.dataset.alert = what;
  }

  function clearAlert() {
    if (state === null) return;
    state = null;
    document.title = baseTitle;
    icon.setAttribute("href", plainIcon);
    document.body.dataset.alert = "";
  }

  function ring(what) {
    show(what);
    if (sound.checked) beep();
    if (canNotify && Notification.permission === "granted" && document.hidden) {
      try {
        new Notification(what === "turn" ? t("Your turn") : t("Game over"), { body: gameTitle, tag: "trapworks-turn" });
      } catch (e) { /* some browsers allow notifications from a service worker only */ }
    }
  }

  window.addEventListener("focus", clearAlert);
  document.addEventListener("visibilitychange", () => { if (!document.hidden && document.hasFocus()) clearAlert(); });

  return {
    // Called with every update drawn: alert on the change into "my turn" or "over".
    update(u) {
      const myTurn = seat !== null && !u.terminal && u.to_move === seat;
      const over = !!u.terminal;
      row.hidden = over; // no "notify me on my turn" once there is no turn to come (issue 39)
      if (!last.seen && myTurn) show("turn"); // opened on one's turn: the title says so, quietly
      else if (last.seen && myTurn && !last.myTurn) ring("turn");
      else if (last.seen && over && !last.terminal && seat !== null) ring("over");
      else if (!myTurn && state === "turn") clearAlert();
      last = { myTurn, terminal: over, seen: true };
    },
    clear: clearAlert,
  };
}
