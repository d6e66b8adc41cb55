// Building the page: elements from data, never from HTML strings (no innerHTML with data).
const SVG_NS = "http://www.w3.org/2000/svg";

/** @param {string} id */
export const $ = (id) => document.getElementById(id);

// el("button", {class: "x", onclick: f, dataset: {seat: 1}}, "text", child...)
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false || c === "") continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function setAttrs(node, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
}

// An icon of the sprite (web/static/icons.svg), the same drawing the board uses.
export function icon(name, cls = "ico") {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", cls);
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS(SVG_NS, "use");
  use.setAttribute("href", `/static/icons.svg#${name}`);
  svg.append(use);
  return svg;
}

// A colour swatch set through the CSSOM (inline style attributes are refused by the CSP).
export function swatch(colour, cls = "swatch") {
  const node = el("span", {class: cls, "aria-hidden": "true"});
  node.style.backgroundColor = colour;
  return node;
}

// "12 minutes ago" in the reader's language (`lang`: en, es, pt_BR).
export function ago(lang, seconds) {
  const format = new Intl.RelativeTimeFormat(lang.replace("_", "-"), {numeric: "auto"});
  /** @type {[Intl.RelativeTimeFormatUnit, number][]} */
  const units = [["day", 86400], ["hour", 3600], ["minute", 60]];
  for (const [unit, size] of units) {
    if (seconds >= size) return format.format(-Math.floor(seconds / size), unit);
  }
  return format.format(-Math.floor(Math.max(0, seconds)), "second");
}

let toastTimer = 0;
export function toast(text) {
  const node = $("toast");
  node.textContent = text;
  node.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { node.hidden = true; }, 4000);
}
