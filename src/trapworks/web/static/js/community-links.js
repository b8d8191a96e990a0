// On the account page (issue 41): a way to the friends page, and the "forgot your password?" and
// "your e-mail" links, shown only where the server sends mail.
import { api, el } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";

const nav = document.querySelector("header.top nav");
if (nav) el("a", { href: "/friends", text: t("Friends"), "data-testid": "nav-friends" }, nav);
const r = await api("GET", "/api/community/mail");
if (r.ok && r.data.enabled) for (const a of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-mail-link]"))) a.hidden = false;
