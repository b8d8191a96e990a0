// Small DOM helpers shared by the pages and given to renderers as ctx.el / ctx.svg.
import { refusalText } from "/static/js/i18n.js";
const SVG_NS = "http://www.w3.org/2000/svg";

function setAttrs(node, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  return node;
}

/**
 * A new HTML element with attributes (`text`: its text; `on...`: a listener), appended to `parent`.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [attrs]
 * @param {Node|null} [parent]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs, parent) {
  const node = setAttrs(document.createElement(tag), attrs);
  if (parent) parent.appendChild(node);
  return node;
}

/**
 * A new SVG element, as `el`.
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [attrs]
 * @param {Node|null} [parent]
 * @returns {SVGElementTagNameMap[K]}
 */
export function svg(tag, attrs, parent) {
  const node = setAttrs(document.createElementNS(SVG_NS, tag), attrs);
  if (parent) parent.appendChild(node);
  return node;
}

/** @template {Node} N @param {N} node @returns {N} */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

export async function api(method, url, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(url, init);
  } catch (e) {
    return { ok: false, status: 0, error: "the server cannot be reached (is trapworks serve running?)" };
  }
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    // The refusal in the page's language (its message id and values: i18n.js refusalText).
    return { ok: false, status: res.status, error: (data && refusalText(data)) || `HTTP ${res.status}`, data };
  }
  return { ok: true, status: res.status, data };
}

// "My games": seats this browser holds, kept in localStorage (tokens are the keys to the seats).
const MY_GAMES = "trapworks.myGames";

export function myGames() {
  try { return JSON.parse(localStorage.getItem(MY_GAMES) || "[]"); } catch (e) { return []; }
}

export function rememberGame(entry) {
  const list = myGames().filter((g) => !(g.id === entry.id && g.token === entry.token));
  list.unshift({ ...entry, seen: new Date().toISOString() });
  localStorage.setItem(MY_GAMES, JSON.stringify(list.slice(0, 100)));
}

export function forgetGame(id, token) {
  localStorage.setItem(MY_GAMES, JSON.stringify(myGames().filter((g) => !(g.id === id && g.token === token))));
}

export function hashParams() {
  return new URLSearchParams(location.hash.replace(/^#/, ""));
}
