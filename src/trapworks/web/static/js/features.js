// The server's features' own page parts (issue 38). A feature that has one names its module in the
// game's info (`info.features`: URLs under /static/); the game page imports each and calls its
// `install(page)`, so a new feature's page part needs no edit of game.html or game.js.
//
// `page`: { box (the feature's own element), gid, token, info, request(msg) (a socket message;
// resolves { ok, ... } or { ok: false, error, code }), message(text, kind), seatLabel }.
// `install` may return { update(u) (every state message), receive(msg) (a socket message of a
// type the page does not know; true: handled) }.
import { clear, el } from "/static/js/dom.js";

export function createFeatures(area) {
  let parts = [];
  let generation = 0;

  async function load(info, page) {
    const mine = ++generation;
    parts = [];
    clear(area);
    for (const url of info.features || []) {
      let mod;
      try {
        mod = await import(url);
      } catch (e) {
        console.error(`feature module ${url} did not load`, e);
        continue;
      }
      if (mine !== generation) return; // another seat was opened meanwhile
      const box = el("div", { class: "feature", "data-feature": url.split("/").pop().replace(/\.js$/, "") }, area);
      try {
        parts.push(mod.install({ ...page, box, info }) || {});
      } catch (e) {
        console.error(`feature module ${url} failed to start`, e);
      }
    }
  }

  function update(u) {
    for (const p of parts) if (p.update) p.update(u);
  }

  function receive(msg) {
    return parts.some((p) => p.receive && p.receive(msg));
  }

  return { load, update, receive };
}
