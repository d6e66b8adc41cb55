// Words: the catalogs' strings (GET /api/i18n/{lang}), place names in the reader's language.
import {store} from "./store.js";

export function t(key, params) {
  let text = store.strings[key] ?? key;
  for (const [k, v] of Object.entries(params || {})) text = text.split("{" + k + "}").join(String(v));
  return text;
}

export const placeName = (name) => store.strings["place." + name] || name;

export function seatName(seat) {
  if (seat === -1) return t("ui.canaanites");
  const s = store.view && store.view.seats[seat];
  return (s && s.name) || t("ui.player_n", {n: seat + 1});
}

export const seatColour = (seat) => store.world.seat_colours[seat % store.world.seat_colours.length];
