// The board: the server's drawing (render/svg.py, the same as the CLI's and the replays'),
// inserted as it is, its data-* groups wired to clicks, keys and hints; moves animated.
import {store, update} from "./store.js";
import {$, el, icon} from "./dom.js";
import {t, placeName} from "./i18n.js";
import {act} from "./connection.js";
import {movesOf, selectable, generalActions, hexActions, label, extrasOf, hexOf, settlementActions, regionActions, regionOfHex} from "./targets.js";

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
  svg.querySelectorAll("[tabindex], [data-hint]").forEach((n) => { n.removeAttribute("tabindex"); n.removeAttribute("role"); n.removeAttribute("aria-label"); n.removeAttribute("data-hint"); });
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
  // a settlement is outlined when a click acts on it (a purchase, a Revolt); a card naming its
  // region (Tax) lights the region's border under the pointer instead (lightRegion)
  svg.querySelectorAll("[data-settlement]").forEach((node) => {
    const h = Number(node.dataset.hex);
    const hint = hexHint(h, moves);
    if (moves[h]) node.classList.add("reachable");
    if (hint) target(node, hint, !moves[h] && !settlementActions(node.dataset.settlement).length);
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
  placeChooser(event);
  box.querySelector("button").focus();
}

// A menu opens where the finger (or the pointer) was, inside the part of the board one sees:
// the bars fixed over a phone's page (the status on top, the actions and the windows' bar at
// the bottom) never cover it; a menu taller than that room scrolls.
function placeChooser(event) {
  const box = $("chooser"), wrap = $("board-wrap").getBoundingClientRect();
  let top = Math.max(wrap.top, 0), bottom = Math.min(wrap.bottom, window.innerHeight);
  for (const bar of document.querySelectorAll("[data-panel=status], #actions, #bottombar")) {
    const position = getComputedStyle(bar).position, r = bar.getBoundingClientRect();
    if ((position !== "fixed" && position !== "sticky") || !r.height) continue;
    if (r.top + r.bottom > window.innerHeight) bottom = Math.min(bottom, r.top);
    else top = Math.max(top, r.bottom);
  }
  box.hidden = false;
  box.style.maxHeight = Math.max(88, bottom - top - 8) + "px";
  box.style.overflowY = "auto";
  const x = event.clientX || wrap.left + wrap.width / 2, y = event.clientY || (top + bottom) / 2;
  const left = Math.max(4, Math.min(x - wrap.left, wrap.width - box.offsetWidth - 4));
  const above = Math.max(top + 4, Math.min(y, bottom - box.offsetHeight - 4));
  box.style.left = left + "px";
  box.style.top = (above - wrap.top) + "px";
}

// --- a tap on a phone: the pieces are small, so a tap reaches every piece within TOUCH_PX of
// the finger (a target of 44 px); when it reaches several, a chooser names each (what it is,
// and what a tap on it does) in buttons a finger can press, and the one chosen is clicked.
const TOUCH_PX = 22;
let lastPointer = "mouse";

/** The pieces within a finger's reach of a tap. @returns {SVGElement[]} */
function reach(event) {
  const svg = $("board").querySelector("svg");
  if (!svg) return [];
  const x = event.clientX, y = event.clientY;
  const near = [.../** @type {NodeListOf<SVGElement>} */ (svg.querySelectorAll("[data-general][data-hint]"))].filter((node) => {
    const r = (node.querySelector(".token") || node).getBoundingClientRect();
    return Math.hypot(Math.max(r.left - x, 0, x - r.right), Math.max(r.top - y, 0, y - r.bottom)) <= TOUCH_PX;
  });
  const under = event.target.closest && event.target.closest("[data-settlement][data-hint], polygon.hex[data-hint]");
  if (under) near.push(under);
  return near;
}

function pieceName(node) {
  const title = node.querySelector(":scope > title");
  if (title) return title.textContent.split(" · ").slice(0, 2).join(" · ");
  return hexPlace(Number(node.dataset.hex));
}

function clickPiece(node) {
  const r = (node.querySelector(".token") || node).getBoundingClientRect();
  node.dispatchEvent(new MouseEvent("click", {bubbles: true, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2}));
}

function onTap(event) {
  if (lastPointer !== "touch" || !event.isTrusted || store.app.mode !== "play" || !store.view || store.view.ending) return;
  const near = reach(event);
  const hit = event.target.closest("[data-general], [data-settlement], polygon.hex[data-hex]");
  if (!near.length || (near.length === 1 && near[0] === hit)) return;
  event.stopImmediatePropagation();
  if (near.length === 1) { clickPiece(near[0]); return; }
  const box = $("chooser");
  box.replaceChildren(...near.map((node) => el("button", {type: "button", role: "menuitem", class: "choice piece-choice",
    dataset: node.dataset.general !== undefined ? {general: node.dataset.general} : {hex: node.dataset.hex},
    // the piece's own menu replaces this one: the click must not reach the page's "a click
    // outside closes the menu" (main.js), for its button is gone from the page by then
    onclick: (e) => { e.stopPropagation(); closeChooser(); clickPiece(node); }},
    el("span", {class: "choice-label"}, pieceName(node)), el("span", {class: "choice-help"}, node.dataset.hint))),
    el("button", {type: "button", class: "choice cancel", onclick: closeChooser}, t("ui.cancel")));
  placeChooser(event);
}

export function closeChooser() { $("chooser").hidden = true; }

// The border of the region under the pointer lights up when a card may name it (Tax): the
// region is the target, not each settlement in it.
function lightRegion(event) {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  svg.querySelectorAll(".region-outline.lit").forEach((n) => n.classList.remove("lit"));
  const node = event.target.closest && event.target.closest("[data-hex]");
  if (!node || store.app.mode !== "play") return;
  const region = regionOfHex(Number(node.dataset.hex));
  if (region === null) return;
  const name = store.world.regions[region].name;
  if (!regionActions(name).length) return;
  svg.querySelector(`[data-region-outline="${CSS.escape(name)}"]`)?.classList.add("lit");
}

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

// Zoom 1: the map fills its frame's width (taller than the frame on a wide screen: the frame
// scrolls up and down); `whole()`: the zoom at which the whole map fits in the frame.
function whole() {
  const svg = $("board").querySelector("svg"), frame = $("board");
  const box = svg && svg.viewBox.baseVal;
  if (!box || !box.height || !frame.clientWidth) return 1;
  return Math.min(1, frame.clientHeight * (box.width / box.height) / frame.clientWidth);
}

function applyZoom() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  const box = svg.viewBox.baseVal;  // the frame is sized from the map's proportions
  if (box && box.height) $("board-wrap").style.setProperty("--board-ratio", String(box.width / box.height));
  zoom = Math.max(zoom, whole());
  svg.classList.toggle("zoomed", zoom > 1);
  svg.style.width = zoom !== 1 ? `${zoom * 100}%` : "";
  fitLabels(svg);
}

// Every piece stays legible at every size. The drawing sizes its pieces (names, holders,
// generals' tokens, render/svg.py) in drawing units; when the board is drawn small, each piece
// grows around its spot on the map (`.grow`, --k) so that a village's name is at least
// READABLE_PX on the screen (a general's army size then reads larger still), and the generals
// of one hex spread apart as their tokens grow. Zooming in brings the pieces back to their
// drawn size. On a board too small for every name (a phone, before zooming in), the villages'
// names give way: each stays in its tooltip, a tap or a long press shows it.
const READABLE_PX = 11.5;
const VILLAGE_LABEL_UNITS = 12.5;
const COMPACT_SCALE = 0.62;  // screen px per drawing unit under which villages go unnamed

export function pieceScale(svg) {
  const box = svg.viewBox.baseVal, rect = svg.getBoundingClientRect();
  if (!box || !box.width || !rect.width) return null;
  const scale = Math.min(rect.width / box.width, rect.height / box.height);  // screen px per drawing unit
  return {scale, k: Math.max(1, READABLE_PX / (VILLAGE_LABEL_UNITS * scale))};
}

function fitLabels(svg) {
  const fit = pieceScale(svg);
  if (!fit) return;
  const {scale, k} = fit;
  svg.classList.toggle("compact", scale < COMPACT_SCALE);
  svg.style.setProperty("--k", k.toFixed(3));
  layOut(svg, k);
}

// --- where the pieces go, in the drawing's units --------------------------------------------
// Each general stands at his place under his hex's settlement, his distance from it grown with
// him (a small step aside when his token would lie on a settlement or on another general). Then
// each settlement's name takes the nearest spot clear of every token, settlement and name placed
// before it: above its holder, a little aside, beside it or under it (a neighbour's general, a
// long name next to it), turned inwards at the board's edge. So a general never lies on a name; and the
// names are drawn above every piece. The regions' names find the free room left.
const rect = (left, top, right, bottom) => ({left, top, right, bottom});
const overlap = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
  * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
const translation = (node) => (node.getAttribute("transform") || "").match(/translate\(([-\d.]+)[ ,]+([-\d.]+)\)/).slice(1).map(Number);
// a piece drawn around (x, y), grown by k, moved by (dx, dy): its box
const boxOf = (b, x, y, k, dx = 0, dy = 0) => rect(x + dx + b.x * k, y + dy + b.y * k, x + dx + (b.x + b.width) * k, y + dy + (b.y + b.height) * k);

function cheapest(tries, boxAt, others) {
  let pick = null;
  for (const t of tries) {
    const box = boxAt(t);
    const cost = others.reduce((sum, o) => sum + overlap(box, o), 0);
    if (!pick || cost < pick.cost) pick = {t, cost};
    if (cost === 0) break;
  }
  return pick ? pick.t : null;
}

function layOut(svg, k) {
  const fixed = [];  // the settlements' pieces (holder, walls, developments) and the Tabernacle
  const pieceAt = {};
  svg.querySelectorAll(".settlement .grow, .tabernacle > .grow").forEach((grow) => {
    const [x, y] = translation(grow.parentNode);
    const box = boxOf(grow.getBBox(), x, y, k);
    fixed.push(box);
    const settlement = grow.closest("[data-settlement]");
    if (settlement) pieceAt[settlement.dataset.settlement] = box;
  });
  // the generals, each within a step or two of his place
  const tokens = [];
  const near = [[0, 0], [0, 1], [1, 0], [-1, 0], [0, -1], [1, 1], [-1, 1], [0, 2]];
  svg.querySelectorAll("[data-general][data-anchor]").forEach((node) => {
    if (!node.dataset.base) node.dataset.base = translation(node).join(" ");
    const [ax, ay] = node.dataset.anchor.split(" ").map(Number), [bx, by] = node.dataset.base.split(" ").map(Number);
    const x0 = ax + (bx - ax) * k, y0 = ay + (by - ay) * k, step = 4 * k;
    const b = node.querySelector(".grow").getBBox();
    const [dx, dy] = cheapest(near, ([i, j]) => boxOf(b, x0, y0, k, i * step, j * step), [...fixed, ...tokens]);
    node.setAttribute("transform", `translate(${(x0 + dx * step).toFixed(1)} ${(y0 + dy * step).toFixed(1)})`);
    tokens.push(boxOf(b, x0, y0, k, dx * step, dy * step));
  });
  // the names, cities first
  const view = svg.viewBox.baseVal;
  const labels = [...svg.querySelectorAll("text.label")].filter((n) => getComputedStyle(n).display !== "none");
  labels.sort((a, b) => Number(b.classList.contains("city")) - Number(a.classList.contains("city")));
  const placed = [];
  // (a name above a settlement of the top row would be cut by the board's edge: it goes beside it)
  const inside = (box) => box.left >= view.x && box.right <= view.x + view.width
    && box.top >= view.y && box.bottom <= view.y + view.height;
  for (const label of labels) {
    const group = label.parentNode.parentNode;  // <g translate(x y)><g class="grow"><text>
    if (!group.dataset.base) group.dataset.base = translation(group).join(" ");
    const [x0, y0] = group.dataset.base.split(" ").map(Number);
    label.dataset.anchor = label.dataset.anchor || label.getAttribute("text-anchor");
    label.setAttribute("text-anchor", label.dataset.anchor);
    let b = label.getBBox();
    if (x0 + (b.x + b.width) * k > view.x + view.width) label.setAttribute("text-anchor", "end");
    else if (x0 + b.x * k < view.x) label.setAttribute("text-anchor", "start");
    b = label.getBBox();
    const u = 4 * k, tries = [[0, 0], [0, -u], [u, 0], [-u, 0], [u, -u], [-u, -u], [0, -2 * u]];
    // beside the settlement, on its right or on its left, level with it
    const piece = pieceAt[label.dataset.label];
    if (piece) {
      const box = boxOf(b, x0, y0, k), dy = (piece.top + piece.bottom) / 2 - (box.top + box.bottom) / 2;
      const right = piece.right + 2 * k - box.left, left = piece.left - 2 * k - box.right;
      tries.push([right, dy], [left, dy], [right, dy - u], [left, dy - u], [right, dy + u], [left, dy + u]);
      const below = piece.bottom + k - box.top;  // under it, when no general stands there
      tries.push([0, below], [u, below], [-u, below]);
    }
    tries.push([2 * u, 0], [-2 * u, 0], [2 * u, -2 * u], [-2 * u, -2 * u], [0, -3 * u], [3 * u, 0], [-3 * u, 0]);
    const others = [...fixed, ...tokens, ...placed];
    const [dx, dy] = cheapest(tries.filter(([i, j]) => inside(boxOf(b, x0, y0, k, i, j))), ([i, j]) => boxOf(b, x0, y0, k, i, j), others)
      || [0, 0];
    group.setAttribute("transform", `translate(${(x0 + dx).toFixed(1)} ${(y0 + dy).toFixed(1)})`);
    placed.push(boxOf(b, x0, y0, k, dx, dy));
  }
  // the regions' names last, where they hide the least within a hex or so of their spot
  const wide = [[0, 0]];
  for (let d = 1; d <= 6; d++) wide.push([0, d], [0, -d], [d, 0], [-d, 0], [d, d], [-d, d], [d, -d], [-d, -d]);
  svg.querySelectorAll("text.region-label").forEach((label) => {
    const group = label.parentNode.parentNode;
    if (!group.dataset.base) group.dataset.base = translation(group).join(" ");
    const [x0, y0] = group.dataset.base.split(" ").map(Number), b = label.getBBox(), step = 4 * k;
    const inBoard = wide.filter(([i, j]) => inside(boxOf(b, x0, y0, k, i * step, j * step)));
    const [dx, dy] = cheapest(inBoard, ([i, j]) => boxOf(b, x0, y0, k, i * step, j * step), [...fixed, ...tokens, ...placed]) || [0, 0];
    group.setAttribute("transform", `translate(${(x0 + dx * step).toFixed(1)} ${(y0 + dy * step).toFixed(1)})`);
    placed.push(boxOf(b, x0, y0, k, dx * step, dy * step));
  });
}

// Zooming keeps the middle of what is shown in the middle (the board pans inside its frame).
function setZoom(z) {
  const b = $("board");
  const cx = (b.scrollLeft + b.clientWidth / 2) / (b.scrollWidth || 1), cy = (b.scrollTop + b.clientHeight / 2) / (b.scrollHeight || 1);
  zoom = Math.max(whole(), Math.min(4, z));
  applyZoom();
  b.scrollLeft = cx * b.scrollWidth - b.clientWidth / 2;
  b.scrollTop = cy * b.scrollHeight - b.clientHeight / 2;
}

export function initBoard() {
  const board = $("board");
  board.addEventListener("pointerdown", (e) => { lastPointer = e.pointerType; }, {capture: true});
  board.addEventListener("click", onTap, {capture: true});
  board.addEventListener("click", onActivate);
  board.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onActivate(e); } });
  board.addEventListener("mouseover", showHint);
  board.addEventListener("mouseover", lightRegion);
  board.addEventListener("click", showHint);
  window.addEventListener("resize", applyZoom);
  // the board's frame changes size with the panels around it too (a bar appears, a name wraps)
  let frame = "";
  new ResizeObserver(() => {
    const r = board.getBoundingClientRect(), size = `${Math.round(r.width)}x${Math.round(r.height)}`;
    if (size !== frame) { frame = size; applyZoom(); }
  }).observe(board);
  board.addEventListener("focusin", showHint);
  board.addEventListener("mouseleave", (e) => { $("hint").hidden = true; lightRegion(e); });
  board.addEventListener("wheel", (e) => { if (e.ctrlKey) { e.preventDefault(); setZoom(zoom * (e.deltaY < 0 ? 1.2 : 1 / 1.2)); } }, {passive: false});
  // a long press shows the hint, as a hover does
  let press = null;
  board.addEventListener("touchstart", (e) => { press = setTimeout(() => showHint(e), 450); }, {passive: true});
  board.addEventListener("touchend", () => clearTimeout(press), {passive: true});
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") { closeChooser(); if (store.selected !== null) update({selected: null}); } });
  $("zoom").replaceChildren(
    el("button", {type: "button", "aria-label": t("ui.zoom_in"), title: t("ui.zoom_in"), onclick: () => setZoom(zoom * 1.4)}, "+"),
    el("button", {type: "button", "aria-label": t("ui.zoom_out"), title: t("ui.zoom_out"), onclick: () => setZoom(zoom / 1.4)}, "−"),
    el("button", {type: "button", "aria-label": t("ui.zoom_fit"), title: t("ui.zoom_fit"), onclick: () => setZoom(zoom === 1 ? whole() : 1)}, "⤢"));
}

export {extrasOf};
