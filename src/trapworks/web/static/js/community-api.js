// The community pages' shared helpers (issue 41): requests with the session's CSRF token and the
// page's status line.
import { el } from "/static/js/dom.js";
import { me, send } from "/static/js/account-api.js";

export { me, send };
export const $ = (id) => document.getElementById(id);

export function notice(text, isError) {
  const box = $("notice");
  box.hidden = !text;
  box.textContent = text || "";
  box.classList.toggle("error", Boolean(isError));
}

// A table of rows; `cells(row, tr)` fills one row. Empty: the `empty` sentence instead.
export function table(parent, heads, rows, cells, empty) {
  parent.textContent = "";
  if (!rows.length) { el("p", { class: "muted", text: empty }, parent); return; }
  const t = el("table", {}, parent);
  const head = el("tr", {}, el("thead", {}, t));
  for (const h of heads) el("th", { scope: "col", text: h }, head);
  const body = el("tbody", {}, t);
  for (const row of rows) cells(row, el("tr", {}, body));
}

export function button(parent, text, testid, action) {
  return el("button", { type: "button", text, "data-testid": testid, onclick: action }, parent);
}

// Run a request; say its error (the server's words) or `done`, then refresh the page's lists.
export async function act(method, url, body, done, refresh) {
  const r = await send(method, url, body);
  if (!r.ok) { notice(r.error, true); return null; }
  notice(done, false);
  if (refresh) await refresh();
  return r.data;
}
