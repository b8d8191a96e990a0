// E-mail (issue 41): the links mailed (#confirm=, #reset=, #unsubscribe=), the "forgot your
// password" form (#forgot) and a logged-in player's address and settings. Hidden where the
// server sends no mail. The links' tokens travel in the fragment: never sent in a request line.
import { api } from "/static/js/dom.js";
import { $, me, notice, refused, send, t, translatePage } from "/static/js/community-api.js";

function fragment() {
  const [key, value] = location.hash.slice(1).split("=");
  return { key, value };
}

async function settings() {
  const r = await send("GET", "/api/community/mail");
  const card = $("settings-card");
  card.hidden = false;
  const d = r.data || {};
  $("status").textContent = d.address ? (d.confirmed ? t("{address}: confirmed", { address: d.address }) : t("{address}: not confirmed yet (open the link mailed to it)", { address: d.address })) : t("No address yet.");
  const form = /** @type {HTMLFormElement} */ ($("address"));
  if (d.address) /** @type {HTMLInputElement} */ (form.elements.namedItem("address")).value = d.address;
  if (d.language) /** @type {HTMLSelectElement} */ (form.elements.namedItem("language")).value = d.language;
  const reminders = /** @type {HTMLInputElement} */ ($("reminders"));
  reminders.checked = Boolean(d.reminders);
  reminders.disabled = !d.address;
}

async function start() {
  translatePage();
  const info = await api("GET", "/api/community/mail");
  if (!info.ok || !info.data.enabled) { $("disabled").hidden = false; document.body.dataset.ready = "1"; return; }
  const { key, value } = fragment();
  if (key === "confirm" || key === "unsubscribe") {
    history.replaceState(null, "", "/mail");
    const r = await send("POST", `/api/community/mail/${key}`, { token: value });
    notice(r.ok ? (key === "confirm" ? t("{address} is confirmed.", { address: r.data.confirmed }) : t("No more reminders or notices by mail.")) : refused(r), !r.ok);
  }
  if (key === "reset") {
    $("reset-card").hidden = false;
    $("reset").addEventListener("submit", async (e) => {
      e.preventDefault();
      const form = /** @type {HTMLFormElement} */ (e.target);
      const r = await send("POST", "/api/community/password/reset", { token: value, password: /** @type {HTMLInputElement} */ (form.elements.namedItem("password")).value });
      notice(r.ok ? t("Your password is changed, {name}: log in with it.", { name: r.data.username }) : refused(r), !r.ok);
      if (r.ok) { form.reset(); history.replaceState(null, "", "/mail"); }
    });
  }
  const who = await me();
  if (!who.account && key !== "reset") {
    $("forgot-card").hidden = false;
    $("forgot").addEventListener("submit", async (e) => {
      e.preventDefault();
      const form = /** @type {HTMLFormElement} */ (e.target);
      const r = await send("POST", "/api/community/password/forgot", { username: /** @type {HTMLInputElement} */ (form.elements.namedItem("username")).value.trim() });
      notice(r.ok ? t("If this account has a confirmed e-mail address, a reset link is on its way.") : refused(r), !r.ok);
    });
  }
  if (who.account) {
    await settings();
    $("address").addEventListener("submit", async (e) => {
      e.preventDefault();
      const form = /** @type {HTMLFormElement} */ (e.target);
      const r = await send("POST", "/api/community/mail", { address: /** @type {HTMLInputElement} */ (form.elements.namedItem("address")).value.trim(), language: /** @type {HTMLSelectElement} */ (form.elements.namedItem("language")).value });
      notice(r.ok ? t("Saved: open the link we mailed to confirm the address.") : refused(r), !r.ok);
      await settings();
    });
    $("reminders").addEventListener("change", async (e) => {
      const box = /** @type {HTMLInputElement} */ (e.target);
      const r = await send("POST", "/api/community/mail/settings", { reminders: box.checked });
      notice(r.ok ? (box.checked ? t("Reminders on.") : t("Reminders off.")) : refused(r), !r.ok);
    });
  }
  document.body.dataset.ready = "1";
}

start();
