// The lobby's open tables: public games with a free seat (GET /api/tables), refreshed every
// REFRESH_MS while the lobby is visible; "Join" takes a free seat (POST /api/tables/{id}/join:
// the server hands that seat's token out once) and opens it.
import { api, clear, el, rememberGame } from "/static/js/dom.js";
import { storedName } from "/static/js/names.js";
import { lang, seatName, t, tn } from "/static/js/i18n.js";

const REFRESH_MS = 5000;

function waited(seconds) {
  if (seconds < 60) return t("just now");
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  return `${h} h ${m % 60} min`;
}

// The options a table changed, in the page's language from the server's typed words (issue 37:
// no option name is turned into words here): "Rules: Advanced · Rounds to win: 3".
/** @param {{name: string, label: string, value: any, value_label: string|null}[]} changed */
function optionWords(changed) {
  const number = new Intl.NumberFormat(lang);
  return (changed || [])
    .filter((o) => o.name !== "players") // the table's title says how many play
    .map((o) => t("{option}: {value}", { option: t(o.label), value: o.value_label !== null && o.value_label !== undefined ? t(o.value_label)
      : typeof o.value === "number" ? number.format(o.value) : Array.isArray(o.value) ? o.value.join(", ") : String(o.value) }))
    .join(" · ");
}

// A seat as every page names it (i18n.js seatName: a name, "Computer (easy)"), or a free seat.
function seatWords(s, _i, seats) {
  if (s.free) return t("free seat");
  const name = seatName(s.seat, s, undefined, seats);
  return s.kind === "agent" || !s.status ? name : `${name}, ${t(s.status)}`;
}

export function startTables(box, error) {
  let timer = null;

  async function join(table, button) {
    button.disabled = true;
    const name = storedName();
    const r = await api("POST", `/api/tables/${encodeURIComponent(table.id)}/join`, name ? { name } : {});
    if (!r.ok) {
      // A bad or taken name must not keep anyone out: try once more without it.
      const retry = r.data && (r.data.code === "bad_name" || r.data.code === "name_taken")
        ? await api("POST", `/api/tables/${encodeURIComponent(table.id)}/join`, {}) : null;
      if (!retry || !retry.ok) {
        button.disabled = false;
        error.textContent = t("Could not join: {error}", { error: (retry || r).error });
        refresh();
        return;
      }
      Object.assign(r, retry);
    }
    rememberGame({ id: table.id, token: r.data.token, seat: r.data.seat, game: table.game, title: table.title,
                   label: t("Player {n}", { n: r.data.seat + 1 }), link: r.data.link });
    location.href = r.data.link;
  }

  function draw(tables) {
    clear(box);
    if (!tables.length) {
      el("p", { class: "muted", text: t("No open tables right now. Create a game with “Open table” ticked to start one.") }, box);
      return;
    }
    for (const tb of tables) {
      const row = el("div", { class: "open-table", "data-table": tb.id, "data-game": tb.game }, box);
      const infoBox = el("div", { class: "table-info" }, row);
      // "opened just now", never "waiting since just now" (issue 37)
      const since = tb.waiting_s < 60 ? t("opened just now") : t("waiting {time}", { time: waited(tb.waiting_s) });
      el("div", { class: "table-title", text: `${t(tb.title)} · ${tn("{n} player", "{n} players", tb.seats.length)} · ${since}` }, infoBox);
      el("div", { class: "table-seats", text: tb.seats.map(seatWords).join(" · "), "data-testid": "table-seats" }, infoBox);
      const changed = optionWords(tb.changed);
      el("div", { class: "table-options muted", text: changed || t("standard options") }, infoBox);
      const button = el("button", { type: "button", class: "primary", text: tb.free > 1 ? tn("Join ({n} free seat)", "Join ({n} free seats)", tb.free) : t("Join"),
                                    "data-join": tb.id }, row);
      button.addEventListener("click", () => join(tb, button));
    }
  }

  async function refresh() {
    clearTimeout(timer);
    const r = await api("GET", "/api/tables");
    if (r.ok) { error.textContent = error.textContent.startsWith(t("Open tables")) ? "" : error.textContent; draw(r.data.tables); }
    else error.textContent = t("Open tables: {error}", { error: r.error });
    box.dataset.loaded = "1";
    if (!document.hidden) timer = setTimeout(refresh, REFRESH_MS);
  }

  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
  refresh();
  return { refresh };
}
