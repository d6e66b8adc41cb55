// What a click on the board would do: the seat's legal actions sorted by what they name
// (a hex to move to, a settlement, a general, a region), with their server-rendered words.
import {store} from "./store.js";

// Actions a general does where he stands, offered in the Actions panel once he is selected.
export const GENERAL_EXTRAS = ["take_troops", "leave_troops", "pick_up_ark", "drop_ark"];
const GENERAL_FIELDS = {buy: "general", play_assassin: "target", play_prophet: "general", play_anointing: "general",
                        execute: "general", release: "general"};
// (a foresight of the invasion names the settlement the pair strikes: chosen on the map too)
const SETTLEMENT_TYPES = ["buy", "play_revolt", "foresee_invasion"];

// Decisions chosen on the board, not in a window of buttons: their window never opens by
// itself, and says to choose on the map.
export const ON_MAP = ["foresee_invasion"];

export const label = (a) => store.view.action_labels[store.view.legal_actions.indexOf(a)] || a.type;

export function hexOf(q, r) {
  return store.world.hexes.findIndex((h) => h.q === q && h.r === r);
}

// general id -> hex index -> move action
export function movesOf(gid) {
  const out = {};
  if (gid === null || !store.view) return out;
  for (const a of store.view.legal_actions) if (a.type === "move" && a.general === gid) out[hexOf(a.q, a.r)] = a;
  return out;
}

export const extrasOf = (gid) => store.view.legal_actions.filter((a) => "general" in a && a.general === gid && GENERAL_EXTRAS.includes(a.type));

export function selectable(gid) {
  return Object.keys(movesOf(gid)).length + extrasOf(gid).length > 0;
}

export function generalActions(gid) {
  return store.view.legal_actions.filter((a) => GENERAL_FIELDS[a.type] && a[GENERAL_FIELDS[a.type]] === gid);
}

// The fields by which an action names something on the board (a place, a general, a hex; the
// server sends an unused optional field as null). A turn's action naming none of them (an
// event card, an intrigue card bought) cannot be clicked on the board: the Actions panel
// offers it as a button.
const BOARD_FIELDS = ["settlement", "region", "general", "target", "q"];
export const offBoard = (a) => a.type !== "end_turn" && BOARD_FIELDS.every((f) => a[f] === undefined || a[f] === null);

export function settlementActions(name) {
  return store.view.legal_actions.filter((a) => SETTLEMENT_TYPES.includes(a.type) && "settlement" in a && a.settlement === name);
}

export function regionActions(region) {
  return store.view.legal_actions.filter((a) => a.type === "play_tax" && a.region === region);
}

// Everything a click on hex `h` may do now (the settlement on it and its region included).
export function hexActions(h) {
  const hex = store.world.hexes[h];
  const out = [];
  if (hex.settlement !== null) out.push(...settlementActions(store.world.settlements[hex.settlement].name));
  const region = regionOfHex(h);
  if (region !== null) out.push(...regionActions(store.world.regions[region].name));
  return out;
}

// The region a hex belongs to on the board (its territory, as the drawing shades it).
export function regionOfHex(h) {
  const node = document.querySelector(`#board [data-hex="${h}"].hex`);
  const group = node && /** @type {HTMLElement | null} */ (node.closest("[data-region]"));
  if (!group) return null;
  const name = group.dataset.region;
  return store.world.regions.findIndex((r) => r.name === name);
}
