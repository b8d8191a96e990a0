// E-mail (issue 41): the links mailed (#confirm=, #reset=, #unsubscribe=), the "forgot your
// password" form (#forgot) and a logged-in player's address and settings. Hidden where the
// server sends no mail. The links' tokens travel in the fragment: never sent in a request line.
import { api } from "/static/js/dom.js";
import { $, me, notice, send } from "/static/js/community-api.js";

function fragment() {
  const [key, value] = location.hash.slice(1).split("=");
  return { key, value };
}

async function settings() {
  const r = await send("GET", "/api/community/mail");
  const card = $("settings-card");
  card.hidden = false;
  const d = r.data || {};
  $("status").textContent = d.address ? `${d.address}: ${d.confirmed ? "confirmed" : "not confirmed yet (open the link mailed to it)"}` : "No address yet.";
  const form = /** @type {HTMLFormElement} */ ($("address"));
  if (d.address) /** @type {HTMLInputElement} */ (form.elements.namedItem("address")).value = d.address;
  if (d.language) /** @type {HTMLSelectElement} */ (form.elements.namedItem("language")).value = d.language;
  const reminders = /** @type {HTMLInputElement} */ ($("reminders"));
  reminders.checked = Boolean(d.reminders);
  reminders.disabled = !d.address;
}

async function start() {
  const info = await api("GET", "/api/community/mail");
  if (!info.ok || !info.data.enabled) { $("disabled").hidden = false; document.body.dataset.ready = "1"; return; }
  const { key, value } = fragment();
  if (key === "confirm" || key === "unsubscribe") {
    history.replaceState(null, "", "/mail");
    const r = await send("POST", `/api/community/mail/${key}`, { token: value });
    notice(r.ok ? (key === "confirm" ? `${r.data.confirmed} is confirmed.` : "No more reminders or notices by mail.") : r.error, !r.ok);
  }
  if (key === "reset") {
    $("reset-card").hidden = false;
    $("reset").addEventListener("submit", async (e) => {
      e.preventDefault();
      const form = /** @type {HTMLFormElement} */ (e.target);
      const r = await send("POST", "/api/community/password/reset", { token: value, password: /** @type {HTMLInputElement} */ (form.elements.namedItem("password")).value });
      notice(r.ok ? `Your password is changed, ${r.data.username}: log in with it.` : r.error, !r.ok);
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
      notice(r.ok ? "If this account has a confirmed e-mail address, a reset link is on its way." : r.error, !r.ok);
    });
  }
  if (who.account) {
    await settings();
    $("address").addEventListener("submit", async (e) => {
      e.preventDefault();
      const form = /** @type {HTMLFormElement} */ (e.target);
      const r = await send("POST", "/api/community/mail", { address: /** @type {HTMLInputElement} */ (form.elements.namedItem("address")).value.trim(), language: /** @type {HTMLSelectElement} */ (form.elements.namedItem("language")).value });
      notice(r.ok ? "Saved: open the link we mailed to confirm the address." : r.error, !r.ok);
      await settings();
    });
    $("reminders").addEventListener("change", async (e) => {
      const box = /** @type {HTMLInputElement} */ (e.target);
      const r = await send("POST", "/api/community/mail/settings", { reminders: box.checked });
      notice(r.ok ? (box.checked ? "Reminders on." : "Reminders off.") : r.error, !r.ok);
    });
  }
  document.body.dataset.ready = "1";
}

start();
