// The countdown to claiming the game against a player who left (server/features/claim.py, issue 41:
// the claim used to come after ~2 minutes with no sign of it). From the moment an opponent is gone
// the players read "{who} is not here. You can claim the win in 0:45", counting down each second;
// at zero the claim button comes (js/controls.js draws it with the hand-over); back, it goes.
// Loaded by js/features.js from the game's info.
import { el } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";

// m:ss, as the clocks write a time left.
function minutes(s) {
  const whole = Math.max(0, Math.ceil(s));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

export function install({ box, info, seatLabel }) {
  box.hidden = true;
  if (info.seat === null) return {};
  let due = new Map(); // seat -> the moment (performance.now(), ms) its claim is offered
  let timer = null;

  function draw() {
    box.textContent = "";
    const now = performance.now();
    for (const [seat, at] of due) {
      const left = (at - now) / 1000;
      el("p", { class: "claim-countdown", "data-testid": `claim-countdown-${seat}`, "data-seat": String(seat),
                text: left > 0 ? t("{who} is not here. You can claim the win in {time}.", { who: seatLabel(seat), time: minutes(left) })
                  : t("{who} is not here. You can claim the win in a moment.", { who: seatLabel(seat) }) }, box);
    }
    box.hidden = !due.size;
    if (!due.size && timer) { clearInterval(timer); timer = null; }
  }

  function update(u) {
    if (u.controls === undefined) return; // an intermediate update of a move: the last one has them
    const c = u.controls || {};
    const claimable = c.claimable || [];
    const now = performance.now();
    due = new Map(Object.entries(c.claim_in || {})
      .filter(([seat]) => !claimable.includes(Number(seat)) && !u.terminal)
      .map(([seat, s]) => [Number(seat), now + Number(s) * 1000]));
    draw();
    if (due.size && !timer) timer = setInterval(draw, 1000);
  }

  return { update };
}
