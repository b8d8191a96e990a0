// The password rules shown as the player types (issue 39: a weak password was refused only by the
// browser's own popup). The rules are the server's (server/accounts/credentials.py check_password):
// the list only says them ahead; the server's refusal, said under the field, stays the judge.
import { clear, el } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";

export const PASSWORD_MIN = 10;
const PASSWORD_MAX = 128;

// Each rule: its words and whether `password` (typed for `username`) keeps it.
function rules(password, username) {
  const name = (username || "").trim().toLowerCase();
  return [
    { id: "length", text: t("At least {n} characters (a short phrase is good)", { n: PASSWORD_MIN }),
      met: password.length >= PASSWORD_MIN && password.length <= PASSWORD_MAX },
    { id: "varied", text: t("Not a common password, not one letter repeated"),
      met: password.length > 0 && new Set(password).size >= 4 },
    { id: "name", text: t("Does not contain your username"),
      met: password.length > 0 && !(name.length >= 3 && password.toLowerCase().includes(name)) },
  ];
}

// A live list under `input`, kept in step with what is typed; `username()` gives the name to
// compare with. Returns a function that redraws it (call it when the username changes).
export function passwordRules(input, list, username = () => "") {
  const draw = () => {
    clear(list);
    for (const r of rules(input.value, username())) {
      const li = el("li", { "data-rule": r.id, "data-met": r.met ? "1" : "0", class: r.met ? "met" : "" }, list);
      el("span", { class: "rule-mark", "aria-hidden": "true", text: r.met ? "✓" : "•" }, li);
      li.append(` ${r.text}`);
      el("span", { class: "sr-only", text: r.met ? ` (${t("done")})` : ` (${t("not yet")})` }, li);
    }
  };
  input.addEventListener("input", draw);
  draw();
  return draw;
}

// The server's refusal of a sign-up or change, under the field it is about.
export function fieldOfRefusal(code) {
  return code === "weak_password" || code === "long_password" || code === "wrong_password" ? "password"
    : code === "bad_username" || code === "reserved_username" || code === "username_taken" ? "username" : "";
}
