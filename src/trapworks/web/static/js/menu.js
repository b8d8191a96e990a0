// The site header on a phone (issue 39): a compact app header as lichess's mobile site, the logo
// and a menu button; the header's links open under it as a list, one tap away. On wide screens
// the button is hidden (CSS) and the links stay in the header as they are.
import { el } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";

function setUp() {
  const header = document.querySelector("header.top");
  const nav = header && header.querySelector("nav");
  if (!header || !nav || header.querySelector(".menu-button")) return;
  if (!nav.id) nav.id = "site-nav";
  const button = /** @type {HTMLButtonElement} */ (el("button", {
    type: "button", class: "menu-button head-button", "aria-controls": nav.id, "aria-expanded": "false",
    "aria-label": t("Menu"), title: t("Menu"), "data-testid": "menu-button",
  }));
  el("span", { "aria-hidden": "true", text: "☰" }, button);
  header.appendChild(button);
  /** @param {boolean} open */
  const show = (open) => {
    header.classList.toggle("menu-open", open);
    button.setAttribute("aria-expanded", open ? "true" : "false");
  };
  button.addEventListener("click", (e) => { e.stopPropagation(); show(!header.classList.contains("menu-open")); });
  document.addEventListener("click", (e) => {
    if (header.classList.contains("menu-open") && !nav.contains(/** @type {Node} */ (e.target))) show(false);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && header.classList.contains("menu-open")) { show(false); button.focus(); }
  });
  nav.addEventListener("click", (e) => { if (/** @type {Element} */ (e.target).closest("a")) show(false); });
  // Wider than a phone, the links stay in the header only while it holds them on one line: logged
  // in, or in French, the links wrapped to a second line at 1366 and cut the game's title ("Vous
  // gag…", a player-judge of 2026-11-29); then the header is compact, as on a phone.
  let queued = false;
  const fit = () => {
    queued = false;
    header.classList.remove("compact");
    // Measured with the game page's Skip shown, which comes and goes with the computer's moves: the
    // header is laid out once for it, and does not change (nor cut the title) as it comes and goes.
    const skip = /** @type {HTMLElement | null} */ (header.querySelector(".skip-moves"));
    const skipHidden = !!skip && skip.hidden;
    if (skip) skip.hidden = false;
    const items = /** @type {HTMLElement[]} */ ([...header.children]).filter((c) => c.offsetParent !== null && c !== button);
    const top = Math.min(...items.map((c) => c.offsetTop));
    const wrapped = items.some((c) => c.offsetTop > top + c.offsetHeight / 2 && c.offsetTop - top > 8);
    const link = /** @type {HTMLElement | null} */ (nav.querySelector("a"));
    const twoLines = !!link && nav.offsetParent !== null && nav.offsetHeight > link.offsetHeight * 1.6;
    const title = /** @type {HTMLElement | null} */ (header.querySelector(".title"));
    const cut = !!title && nav.offsetParent !== null && title.scrollWidth > title.clientWidth + 1;
    if (skip) skip.hidden = skipHidden;
    header.classList.toggle("compact", wrapped || twoLines || cut);
  };
  const refit = () => { if (!queued) { queued = true; requestAnimationFrame(fit); } };
  window.addEventListener("resize", refit);
  const watch = new MutationObserver(refit);
  watch.observe(nav, { childList: true, subtree: true, characterData: true });
  const named = header.querySelector(".title");
  if (named) watch.observe(named, { childList: true, subtree: true, characterData: true });
  if (document.fonts) document.fonts.ready.then(refit);
  refit();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
else setUp();
