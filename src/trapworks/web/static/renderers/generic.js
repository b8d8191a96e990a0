// Fallback renderer for a game without its own: the view as text, and a button per legal action
// when the view lists them (entries with a `text`, or plain strings). Every game stays playable.
export default function createRenderer(root, ctx) {
  const { el } = ctx;
  const head = el("p", { class: "muted" }, root);
  const events = el("ul", {}, root);
  const buttons = el("div", { class: "row-buttons", "data-controls": "generic" }, ctx.bar);
  const pre = el("pre", { class: "view board-pan" }, root);

  return {
    update(u) {
      const who = u.terminal ? "Game over." : u.to_move === null ? "Waiting…" : `${ctx.seatLabel(u.to_move)} to move.`;
      head.textContent = `${ctx.gameId} · move ${u.ply} · ${who}`;
      events.replaceChildren();
      for (const e of u.events || []) if (e.msg) el("li", { text: ctx.say(e) }, events);
      buttons.replaceChildren();
      const legal = Array.isArray(u.view && u.view.legal_actions) ? u.view.legal_actions : [];
      const mine = ctx.mode === "live" && u.to_move !== null && u.to_move === ctx.seat;
      for (const a of legal.slice(0, 300)) {
        const text = typeof a === "string" ? a : (a && (a.text || a.label)) || JSON.stringify(a);
        const b = el("button", { text, "data-action": text }, buttons);
        b.disabled = !mine;
        b.addEventListener("click", () => ctx.send(text));
      }
      pre.textContent = JSON.stringify(u.view, null, 2);
    },
  };
}
