// Takeback offers between players (server/features/takeback.py): propose to take back your last
// move; the other players accept or decline. Loaded by js/features.js from the game's info; the
// server decides who may do what (u.takeback: offer, can_propose, can_answer).
import { t } from "/static/js/i18n.js";
import { el } from "/static/js/dom.js";

export function install({ box, info, request, message, seatLabel, shared = () => false }) {
  box.hidden = true;
  if (info.seat === null) return {};
  const line = el("p", { class: "muted", "data-testid": "takeback-offer" }, box);
  const row = el("div", { class: "row" }, box);
  const button = (text, testid, action) => {
    const b = el("button", { type: "button", text, "data-testid": testid }, row);
    b.addEventListener("click", async () => {
      b.disabled = true;
      const r = await request({ type: "takeback", action });
      if (!r.ok) { message(r.error, "error"); b.disabled = false; }
    });
    return b;
  };
  const propose = button(t("Propose a takeback"), "takeback-propose", "propose");
  const accept = button(t("Accept the takeback"), "takeback-accept", "accept");
  const decline = button(t("Decline the takeback"), "takeback-decline", "decline");
  const cancel = button(t("Cancel your offer"), "takeback-cancel", "cancel");

  function update(u) {
    if (!("takeback" in u)) return;
    const tb = u.takeback;
    // One screen for several seats (hot seat): nobody to offer to; its Undo takes moves back.
    box.hidden = !tb || (!tb.offer && !tb.can_propose) || shared();
    if (!tb) return;
    const offer = tb.offer;
    const mine = offer && offer.by === info.seat;
    line.hidden = !offer;
    line.textContent = !offer ? ""
      : mine ? t("You proposed to take back your last move: waiting for the others.")
      : t("{who} proposes to take back their last move.", { who: seatLabel(offer.by) });
    propose.hidden = !tb.can_propose;
    accept.hidden = decline.hidden = !tb.can_answer;
    cancel.hidden = !mine;
    for (const b of [propose, accept, decline, cancel]) b.disabled = false;
  }

  return { update };
}
