// The site header's language and theme switches, on every page that is not a game (issue 39: they
// were only in the game page's settings dialog). They read and write the same stored settings as
// that dialog (js/settings.js), so a choice made here holds on every page, the game's too. A game
// page keeps its own settings button (the full dialog) and gets no second pair.
import { el } from "/static/js/dom.js";
import { LANGUAGES, lang, t } from "/static/js/i18n.js";

/**
 * @param {{ settings: () => Record<string, any>, change: (patch: Record<string, any>) => void }} store
 */
export function setUpHeaderPrefs(store) {
  const header = document.querySelector("header.top");
  if (!header || header.querySelector(".head-prefs") || document.getElementById("settings-button")) return;
  const box = el("div", { class: "head-prefs", "data-testid": "head-prefs" });

  const theme = /** @type {HTMLButtonElement} */ (el("button", {
    type: "button", class: "head-button theme-toggle", "data-testid": "theme-toggle",
    "aria-label": t("Dark theme"), title: t("Dark theme"),
  }, box));
  const icon = el("span", { "aria-hidden": "true" }, theme);
  const showTheme = () => {
    const dark = document.documentElement.dataset.theme === "dark";
    theme.setAttribute("aria-pressed", dark ? "true" : "false");
    icon.textContent = dark ? "☀" : "☾"; // what a tap turns to
  };
  theme.addEventListener("click", () => {
    store.change({ theme: document.documentElement.dataset.theme === "dark" ? "light" : "dark" });
    showTheme();
  });
  showTheme();
  // The system's theme may change while the page is open (settings.js follows it).
  new MutationObserver(showTheme).observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });

  const pick = /** @type {HTMLSelectElement} */ (el("select", {
    class: "lang-pick", "data-testid": "language-pick", "aria-label": t("Language"), title: t("Language"),
  }, box));
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = el("option", { value: code, lang: code, text: name }, pick);
    option.selected = code === lang;
  }
  // The page's words come with the page: it opens again in the chosen language.
  pick.addEventListener("change", () => { store.change({ language: pick.value }); location.reload(); });

  // A page with a game's header (the replay: its title fills the phone's bar) has them in its
  // menu, where its links are; any other page in the bar, beside the menu button.
  const nav = header.querySelector("nav");
  if (document.body.classList.contains("game-page") && nav) {
    nav.appendChild(box);
    // Last in the menu, after the account's links (js/account-nav.js adds them later).
    new MutationObserver(() => { if (nav.lastElementChild !== box) nav.appendChild(box); }).observe(nav, { childList: true });
  } else {
    header.insertBefore(box, header.querySelector(".menu-button"));
  }
}
