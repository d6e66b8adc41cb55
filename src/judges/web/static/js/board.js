// The board: the server's drawing (render/svg.py, the same as the CLI's and the replays'),
// inserted as it is, its data-* groups wired to clicks, keys and hints; moves animated.
import {store, update} from "./store.js";
import {$, el, icon} from "./dom.js";
import {t, placeName} from "./i18n.js";
import {act} from "./connection.js";
import {movesOf, selectable, generalActions, hexActions, label, extrasOf, hexOf} from "./targets.js";

let shownSvg = null, zoom = 1;
const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

function parseBoard(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  return document.importNode(doc.documentElement, true);
}

// Where a piece stands: a general's group is translated to his spot; others by their box.
function centre(node) {
  const m = (node.getAttribute("transform") || "").match(/translate\(([-\d.]+)[ ,]+([-\d.]+)\)/);
  if (m) return [Number(m[1]), Number(m[2]), true];
  const b = node.getBBox();
  return [b.x + b.width / 2, b.y + b.height / 2, false];
}

function positions(root, attr) {
  const out = {};
  root.querySelectorAll(`[${attr}]`).forEach((node) => { out[node.getAttribute(attr)] = centre(node); });
  return out;
}

const PIECES = ["data-general", "data-invaders"];

// Generals and invaders slide from where they stood to where they stand (short; a click skips).
function animateMoves(before, root) {
  if (reduced) return;
  for (const attr of PIECES) {
    root.querySelectorAll(`[${attr}]`).forEach((node) => {
      const old = before[attr][node.getAttribute(attr)];
      if (!old) return;
      const [x, y, translated] = centre(node);
      if (Math.abs(old[0] - x) + Math.abs(old[1] - y) < 1) return;
      const frames = translated
        ? [{transform: `translate(${old[0]}px, ${old[1]}px)`}, {transform: `translate(${x}px, ${y}px)`}]
        : [{transform: `translate(${old[0] - x}px, ${old[1] - y}px)`}, {transform: "translate(0px, 0px)"}];
      node.animate(frames, {duration: 600, easing: "ease-in-out"});
    });
  }
}

// A settlement that changed hands (taken, revolted, razed...) flashes its new colour once.
const ownerOf = (node) => node.dataset.owner + (node.classList.contains("razed") ? "/razed" : "");

function owners(root) {
  const out = {};
  root.querySelectorAll("[data-settlement]").forEach((node) => { out[node.dataset.settlement] = ownerOf(node); });
  return out;
}

function animateOwners(before, root) {
  root.querySelectorAll("[data-settlement]").forEach((node) => {
    const was = before[node.dataset.settlement];
    if (was === undefined || was === ownerOf(node)) return;
    node.dataset.ownerChanged = "true";  // also when motion is reduced: the screen's tests read it
    if (reduced) return;
    const mark = node.querySelector(".holder") || node.querySelector("use");
    if (mark) mark.animate([{transform: "scale(2.2)", opacity: 0.3}, {transform: "scale(1)", opacity: 1}], {duration: 900, easing: "ease-out"});
    const ring = node.querySelector(".settlement-hex");
    if (ring) ring.animate([{fill: "#ffd23fcc"}, {fill: "#ffd23f00"}], {duration: 1400, easing: "ease-out"});
  });
}

export function renderBoard() {
  const holder = $("board");
  if (store.boardSvg && store.boardSvg !== shownSvg) {
    const old = holder.querySelector("svg");
    const before = old ? Object.fromEntries(PIECES.map((attr) => [attr, positions(old, attr)])) : null;
    const held = old ? owners(old) : null;
    const fresh = parseBoard(store.boardSvg);
    holder.replaceChildren(fresh);
    shownSvg = store.boardSvg;
    applyZoom();
    if (before) animateMoves(before, fresh);
    if (held) animateOwners(held, fresh);
  }
  const svg = holder.querySelector("svg");
  if (svg) decorate(svg);
}

// Classes and handlers from the view: what can be clicked, what is selected, who acts.
function decorate(svg) {
  const view = store.view;
  svg.querySelectorAll(".target, .reachable, .selected, .waiting").forEach((n) => n.classList.remove("target", "reachable", "selected", "waiting"));
  svg.querySelectorAll("[tabindex]").forEach((n) => { n.removeAttribute("tabindex"); n.removeAttribute("role"); n.removeAttribute("aria-label"); });
  const playing = store.app.mode === "play" && !view.ending;
  const waiting = new Set(view.waiting_for);
  svg.querySelectorAll("[data-general]").forEach((node) => {
    if (waiting.has(Number(node.dataset.seat))) node.classList.add("waiting");
  });
  if (!playing) return;
  const moves = movesOf(store.selected);
  svg.querySelectorAll("[data-general]").forEach((node) => {
    const gid = Number(node.dataset.general);
    const hint = generalHint(node, moves);
    if (gid === store.selected) node.classList.add("selected");
    if (hint) target(node, hint);
  });
  svg.querySelectorAll("polygon.hex[data-hex]").forEach((node) => {
    const h = Number(node.dataset.hex);
    if (moves[h]) { node.classList.add("reachable"); }
  });
  svg.querySelectorAll("[data-settlement]").forEach((node) => {
    const h = Number(node.dataset.hex);
    const hint = hexHint(h, moves);
    if (moves[h]) node.classList.add("reachable");
    if (hint) target(node, hint);
  });
  svg.querySelectorAll("polygon.hex[data-hex]").forEach((node) => {
    const h = Number(node.dataset.hex);
    if (store.world.hexes[h].settlement !== null) return;
    const hint = hexHint(h, moves);
    if (hint) target(node, hint, !moves[h]);
  });
}

function target(node, hint, quiet) {
  if (!quiet) node.classList.add("target");
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", hint);
  node.dataset.hint = hint;
}

// What a click on a general's token does (onActivate): select him, or move the selected
// general onto another player's, or open his menu.
function generalHint(node, moves) {
  const gid = Number(node.dataset.general), h = Number(node.dataset.hex), mine = Number(node.dataset.seat) === store.app.seat;
  if (moves[h] && !mine) return hexHint(h, moves);
  const list = generalActions(gid);
  if (selectable(gid)) return gid === store.selected ? t("ui.deselect_general", {general: gid}) : t("ui.select_to_move", {general: gid});
  const menu = moves[h] && gid !== store.selected ? [hexHint(h, moves), ...list.map(label)] : list.map(label);
  return menu.length ? menu.join(" · ") : null;
}

function hexHint(h, moves) {
  if (moves[h]) return t("ui.move_here", {general: store.selected, place: hexPlace(h)});
  const list = hexActions(h);
  return list.length ? list.map(label).join(" · ") : null;
}

function hexPlace(h) {
  const hex = store.world.hexes[h];
  return hex.settlement !== null ? placeName(store.world.settlements[hex.settlement].name) : t("terrain." + hex.terrain);
}

// --- clicks and keys -----------------------------------------------------------------------

// A click on a general's token is about him: one's own other general is selected (never
// moved onto: that is a click on his settlement or hex beside the token, or his menu when he
// cannot be selected); another player's general is the place the selected one moves to.
function onActivate(event) {
  if (store.app.mode !== "play" || !store.view || store.view.ending) return;
  const node = event.target.closest("[data-general], [data-settlement], polygon.hex[data-hex]");
  if (!node) { if (store.selected !== null) update({selected: null}); closeChooser(); return; }
  const h = Number(node.dataset.hex);
  const move = store.selected !== null ? movesOf(store.selected)[h] : undefined;
  if (node.dataset.general !== undefined) {
    const gid = Number(node.dataset.general);
    const mine = Number(node.dataset.seat) === store.app.seat;
    const list = generalActions(gid);
    if (move && !mine) { go(move, node); return; }
    if (selectable(gid) && !list.length) { update({selected: store.selected === gid ? null : gid}); closeChooser(); return; }
    const menu = move && gid !== store.selected ? [move, ...list] : list;
    if (menu.length) { openChooser(event, menu, selectable(gid) ? gid : null); return; }
  } else if (move) {
    go(move, node);
    return;
  }
  const list = hexActions(h);
  if (list.length) { openChooser(event, list, null); return; }
  if (store.selected !== null) update({selected: null});
  closeChooser();
}

function go(move, control) {
  act(move, control);  // the control shows it is pressed until the answer (connection.js)
  update({selected: null});
  closeChooser();
}

// The small menu of what may be done at one target: each action with its words (and cost).
function openChooser(event, list, selectGeneral) {
  const box = $("chooser");
  const items = list.map((a) => el("button", {type: "button", role: "menuitem", class: "choice", dataset: {type: a.type},
    onclick: () => {
      const target = event.target.closest("[data-general], [data-settlement], polygon.hex[data-hex]");
      if (a.type === "move") go(a, target); else { closeChooser(); act(a, target); }
    }},
    a.item ? icon(store.protocol.items.find((i) => i.name === a.item)?.icon || "card") : null,
    a.type === "move" ? t("ui.move_here", {general: a.general, place: hexPlace(hexOf(a.q, a.r))}) : label(a)));
  if (selectGeneral !== null) {
    items.unshift(el("button", {type: "button", role: "menuitem", class: "choice", dataset: {type: "select"},
      onclick: () => { closeChooser(); update({selected: selectGeneral}); }}, t("ui.select_to_move", {general: selectGeneral})));
  }
  box.replaceChildren(...items, el("button", {type: "button", class: "choice cancel", onclick: closeChooser}, t("ui.cancel")));
  const wrap = $("board-wrap").getBoundingClientRect();
  const x = (event.clientX || wrap.left + wrap.width / 2) - wrap.left, y = (event.clientY || wrap.top + wrap.height / 2) - wrap.top;
  box.hidden = false;
  box.style.left = Math.max(4, Math.min(x, wrap.width - box.offsetWidth - 4)) + "px";
  box.style.top = Math.max(4, Math.min(y, wrap.height - box.offsetHeight - 4)) + "px";
  box.querySelector("button").focus();
}

export function closeChooser() { $("chooser").hidden = true; }

// What a piece is or what a click on it would do; a piece with nothing to do shows its
// tooltip (a settlement's name, owner and garrison; a general's titles), so that a tap or a
// long press on a phone names what the compact board leaves unlabelled.
function showHint(event) {
  const target = event.target.closest && event.target;
  const node = target && target.closest("[data-hint]");
  const piece = target && target.closest("[data-settlement], [data-general], [data-invaders], polygon.hex");
  const title = piece && piece.querySelector(":scope > title");
  const hint = $("hint");
  const text = node ? node.dataset.hint : title ? title.textContent : "";
  hint.textContent = text;
  hint.hidden = !text;
}

// --- zoom: buttons, ctrl+wheel; the page itself never scrolls sideways ----------------------

function applyZoom() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  const box = svg.viewBox.baseVal;  // a narrow screen sizes the board to the map's proportions
  if (box && box.height) $("board-wrap").style.setProperty("--board-ratio", String(box.width / box.height));
  svg.classList.toggle("zoomed", zoom > 1);
  svg.style.width = zoom > 1 ? `${zoom * 100}%` : "";
  svg.style.height = zoom > 1 ? `${zoom * 100}%` : "";
  fitLabels(svg);
}

// Names stay legible at every size: when the board is drawn small (a phone, before zooming in),
// the villages' names give way (each stays in its tooltip, a tap or a long press shows it) and
// the cities' and regions' names grow to a readable size on the screen. Zooming in brings
// every name back at its drawn size.
const READABLE_PX = {city: 11, region: 9.5};
const VILLAGE_NAME_UNITS = 8.5;
const MIN_VILLAGE_PX = 6;

function fitLabels(svg) {
  const box = svg.viewBox.baseVal, rect = svg.getBoundingClientRect();
  if (!box || !box.width || !rect.width) return;
  const scale = Math.min(rect.width / box.width, rect.height / box.height);  // screen px per drawing unit
  const compact = VILLAGE_NAME_UNITS * scale < MIN_VILLAGE_PX;
  svg.classList.toggle("compact", compact);
  svg.style.setProperty("--city-label", `${Math.max(9.5, READABLE_PX.city / scale)}px`);
  svg.style.setProperty("--region-label", `${Math.max(11, READABLE_PX.region / scale)}px`);
  // a grown name at the board's edge turns inwards rather than leave the drawing
  svg.querySelectorAll(".settlement.city text.label").forEach((label) => {
    label.dataset.anchor = label.dataset.anchor || label.getAttribute("text-anchor");
    label.setAttribute("text-anchor", label.dataset.anchor);
    if (!compact) return;
    const b = label.getBBox();
    if (b.x + b.width > box.x + box.width) label.setAttribute("text-anchor", "end");
    else if (b.x < box.x) label.setAttribute("text-anchor", "start");
  });
}

// Zooming keeps the middle of what is shown in the middle (the board pans inside its frame).
function setZoom(z) {
  const b = $("board");
  const cx = (b.scrollLeft + b.clientWidth / 2) / (b.scrollWidth || 1), cy = (b.scrollTop + b.clientHeight / 2) / (b.scrollHeight || 1);
  zoom = Math.max(1, Math.min(4, z));
  applyZoom();
  b.scrollLeft = cx * b.scrollWidth - b.clientWidth / 2;
  b.scrollTop = cy * b.scrollHeight - b.clientHeight / 2;
}

export function initBoard() {
  const board = $("board");
  board.addEventListener("click", onActivate);
  board.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onActivate(e); } });
  board.addEventListener("mouseover", showHint);
  board.addEventListener("click", showHint);
  window.addEventListener("resize", applyZoom);
  board.addEventListener("focusin", showHint);
  board.addEventListener("mouseleave", () => { $("hint").hidden = true; });
  board.addEventListener("wheel", (e) => { if (e.ctrlKey) { e.preventDefault(); setZoom(zoom * (e.deltaY < 0 ? 1.2 : 1 / 1.2)); } }, {passive: false});
  // a long press shows the hint, as a hover does
  let press = null;
  board.addEventListener("touchstart", (e) => { press = setTimeout(() => showHint(e), 450); }, {passive: true});
  board.addEventListener("touchend", () => clearTimeout(press), {passive: true});
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") { closeChooser(); if (store.selected !== null) update({selected: null}); } });
  $("zoom").replaceChildren(
    el("button", {type: "button", "aria-label": t("ui.zoom_in"), title: t("ui.zoom_in"), onclick: () => setZoom(zoom * 1.4)}, "+"),
    el("button", {type: "button", "aria-label": t("ui.zoom_out"), title: t("ui.zoom_out"), onclick: () => setZoom(zoom / 1.4)}, "−"),
    el("button", {type: "button", "aria-label": t("ui.zoom_fit"), title: t("ui.zoom_fit"), onclick: () => setZoom(1)}, "⤢"));
}

export {extrasOf};
