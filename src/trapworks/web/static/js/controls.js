// Game control off the board on the game page: resign, abort, hand a gone player's seat to an AI,
// rematch (offered, accepted, then each player's own new link), and a finished game's public link.
// The server decides who may do what (u.controls) and what it does to the result (u.ending).
import { agentName, forfeitWords, t, tn } from "/static/js/i18n.js";
import { api, clear, el } from "/static/js/dom.js";

// The forfeit reasons' words are the server's one enum (core/forfeit.py), published with the
// message catalog in the page's language (i18n.js forfeitWords).

// `shared()`: this page is one screen for several seats (hot seat): one seat resigning there
// means nothing to the players at it, so no Resign (abort, which ends it for all, stays).
export function createControls({ box, gid, token, info, message, seatLabel, shared = () => false }) {
  const base = `/api/games/${encodeURIComponent(gid)}`;
  let last = null;
  let armed = null; // a button waiting for its confirming second click
  let clockMoves = -1; // how many moves the clock's AI had played at the last update

  async function post(what, body) {
    const r = await api("POST", `${base}/${what}`, { token, ...(body || {}) });
    if (!r.ok) message(r.error, "error");
    return r;
  }

  // Resign and abort end a game: the first click asks, the second (within 4 s) does it.
  function confirmButton(parent, text, confirmText, testid, act) {
    const b = el("button", { type: "button", text, "data-testid": testid }, parent);
    b.addEventListener("click", async () => {
      if (armed !== b) {
        armed = b;
        b.textContent = confirmText;
        b.classList.add("confirm");
        setTimeout(() => { if (armed === b) { armed = null; b.textContent = text; b.classList.remove("confirm"); } }, 4000);
        return;
      }
      armed = null;
      b.disabled = true;
      await act();
    });
    return b;
  }

  // The viewer's own forfeit in the second person ("Vous avez abandonné", not "Vous a abandonné").
  const mine = (seat) => seatLabel(seat) === t("You");
  function endingLines(u) {
    const lines = [];
    for (const f of (u.ending && u.ending.forfeits) || []) {
      if (f.reason === "aborted") lines.push(t("The game was aborted before its second move: no result."));
      else if (mine(f.seat) && f.reason === "resigned") lines.push(tn("You resigned after {n} move.", "You resigned after {n} moves.", f.ply));
      else if (mine(f.seat) && f.reason === "out_of_time") lines.push(tn("You ran out of time after {n} move.", "You ran out of time after {n} moves.", f.ply));
      else lines.push(tn("{who} {what} after {n} move.", "{who} {what} after {n} moves.", f.ply, { who: seatLabel(f.seat), what: forfeitWords(f.reason) }));
    }
    return lines;
  }

  function whoLeft(seat, reason) {
    if (mine(seat) && reason === "resigned") return t("You resigned");
    if (mine(seat) && reason === "out_of_time") return t("You ran out of time");
    return `${seatLabel(seat)} ${forfeitWords(reason)}`;
  }

  function headline(u) {
    if (!u.ending) return null;
    if (u.ending.aborted) return t("Game aborted: no result.");
    const winners = (u.winners || []).map(seatLabel);
    const last = u.ending.forfeits[u.ending.forfeits.length - 1];
    const why = whoLeft(last.seat, last.reason);
    if (!winners.length) return t("{why}: nobody wins.", { why });
    const you = info.seat !== null && (u.winners || []).includes(info.seat);
    const result = you && winners.length === 1 ? t("You win!") : winners.length > 1 ? t("{who} win.", { who: winners.join(t(" and ")) }) : t("{who} wins.", { who: winners[0] });
    return `${why}. ${result}`;
  }

  async function acceptRematch(button) {
    if (button) button.disabled = true;
    const r = await post("rematch");
    if (!r.ok) { if (button) button.disabled = false; return; }
    if (button) button.textContent = t("Rematch offered");
    const humans = info.players.filter((p) => p.kind === "human").length;
    // Alone against the computer: straight to the new game.
    if (r.data.link && humans <= 1) location.href = r.data.link;
  }

  function renderRematch(container, u, withButton = true) {
    if (!container || !u.rematch) return;
    clear(container);
    const rm = u.rematch;
    if (rm.game && rm.link) {
      const p = el("p", { class: "rematch-ready", "data-testid": "rematch-ready" }, container);
      el("span", { text: t("Rematch ready (seats rotated): ") }, p);
      el("a", { href: rm.link, text: t("play the rematch"), "data-testid": "rematch-link" }, p);
      return;
    }
    if (!rm.accepted.length) return;
    const waiting = rm.needed.filter((s) => !rm.accepted.includes(s));
    const names = rm.accepted.map(seatLabel).join(", ");
    el("p", { text: waiting.length ? t("Rematch offered by {names}; waiting for {waiting}.", { names, waiting: waiting.map(seatLabel).join(", ") }) : t("Rematch offered by {names}.", { names }),
              "data-testid": "rematch-offer" }, container);
    if (withButton && info.seat !== null && waiting.includes(info.seat) && u.controls && u.controls.can_rematch) {
      const b = el("button", { type: "button", class: "primary", text: t("Accept the rematch"), "data-testid": "accept-rematch" }, container);
      b.addEventListener("click", () => acceptRematch(b));
    }
  }

  function update(u) {
    if (u.controls === undefined) return; // an intermediate update of a move: the last one has them
    last = u;
    // Time ran out and the clock's AI played: say so (not on the first update of the page).
    const moves = u.clock ? u.clock.moves || [] : [];
    if (clockMoves >= 0 && moves.length > clockMoves) {
      const entry = (u.log || [])[moves[moves.length - 1]];
      const who = entry ? seatLabel(entry.seat) : t("a player");
      const level = agentName(u.clock.ai_level);
      message(entry && mine(entry.seat) ? t("Time ran out: the computer ({level}) played for you.", { level })
        : t("Time ran out: the computer ({level}) played for {who}.", { level, who }));
    }
    clockMoves = moves.length;
    clear(box);
    const c = u.controls || {};
    const row = el("div", { class: "row-buttons" }, box);
    if (c.can_abort) {
      confirmButton(row, t("Abort"), t("Confirm abort"), "abort", async () => { if ((await post("abort")).ok) message(t("Game aborted.")); });
    }
    if (c.can_resign && !shared()) {
      confirmButton(row, t("Resign"), t("Confirm resign"), "resign", async () => { if ((await post("resign")).ok) message(t("You resigned.")); });
    }
    for (const seat of c.handable || []) {
      const p = el("p", { class: "small", "data-testid": `gone-${seat}` }, box);
      el("span", { text: t("{who} has gone. ", { who: seatLabel(seat) }) }, p);
      const b = el("button", { type: "button", text: t("Let the computer play for them"), "data-testid": `hand-over-${seat}` }, p);
      b.addEventListener("click", async () => {
        b.disabled = true;
        if ((await post("hand-over", { seat })).ok) message(t("{who} is played by the computer now.", { who: seatLabel(seat) }));
      });
      // ...or end it, as lichess lets one claim the game (issue 39): the gone seat is out.
      if ((c.claimable || []).includes(seat)) {
        const claim = el("button", { type: "button", class: "primary", text: t("Claim the game"), "data-testid": `claim-${seat}` }, p);
        claim.addEventListener("click", async () => {
          claim.disabled = true;
          if (!(await post("claim-win", { seat })).ok) claim.disabled = false;
        });
      }
    }
    if (u.terminal) {
      renderRematch(el("div", { class: "rematch-status" }, box), u);
      // (the public link is the end screen's, once: issue 39 found it twice)
    }
    renderRematch(document.getElementById("end-links"), u, false); // the end screen has its own button
    box.hidden = !box.querySelector("button, a, p");
  }

  // The end screen's parts for a game ended off the board (the renderer's summary reads the
  // board, which does not know about resignations).
  function endSummary(u) {
    if (!u.ending) return null;
    return { title: headline(u), reason: endingLines(u) };
  }

  // Extra end-screen entries: the public link and the embeddable replay.
  function endLinks(actions) {
    const href = `/replay/${encodeURIComponent(gid)}`;
    el("a", { href, text: t("Public link"), "data-testid": "end-public-link", title: t("A link anyone can open: no seat token in it") }, actions);
    el("a", { href: `${href}?embed=1`, text: t("Embed"), "data-testid": "end-embed-link",
              title: t("The replay for an <iframe>") }, actions);
  }

  return { update, headline, endSummary, endLinks, acceptRematch, renderRematch: (c) => last && renderRematch(c, last, false) };
}
