// On the game page (one import line in js/game.js): a game of an arena has "Back to the arena" on
// its end screen, first of the ways on, as lichess's arena games do; the next pairing takes the
// player on to their next game from here too (js/arena-follow.js).
import { api, el } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";

const gid = decodeURIComponent(location.pathname.split("/")[2] || "");

// The end screen is drawn again at each update that ends the game: the link is put back each time.
function addLink(box, arena) {
  const actions = box.querySelector(".actions");
  if (!actions || actions.querySelector("[data-testid=back-to-arena]")) return;
  const a = el("a", { href: `/arena?id=${encodeURIComponent(arena.id)}`, class: "primary", text: t("Back to the arena"),
                      "data-testid": "back-to-arena", title: arena.name });
  actions.prepend(a);
  for (const other of actions.querySelectorAll(".primary")) if (other !== a) { other.classList.remove("primary"); other.classList.add("secondary"); }
}

async function start() {
  const box = document.getElementById("end-screen");
  if (!gid || !box) return;
  const r = await api("GET", `/api/community/arenas/of-game/${encodeURIComponent(gid)}`);
  const arena = r.ok && r.data.arena;
  if (!arena) return; // not an arena's game
  document.body.dataset.arena = arena.id;
  addLink(box, arena);
  new MutationObserver(() => addLink(box, arena)).observe(box, { childList: true });
}

start();
