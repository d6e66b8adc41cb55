// Words: the catalogs' strings (GET /api/i18n/{lang}), place names in the reader's language.
import {store} from "./store.js";

export function t(key, params) {
  let text = store.strings[key] ?? key;
  for (const [k, v] of Object.entries(params || {})) text = text.split("{" + k + "}").join(String(v));
  return text;
}

export const placeName = (name) => store.strings["place." + name] || name;

// A word at the start of a button ("llanura" -> "Llanura"), as each language writes it.
export const capitalised = (text) => text.charAt(0).toLocaleUpperCase(store.app.lang.replace("_", "-")) + text.slice(1);

export function seatName(seat) {
  if (seat === -1) return t("ui.canaanites");
  const s = store.view && store.view.seats[seat];
  return (s && s.name) || t("ui.player_n", {n: seat + 1});
}

// A message's declaration (GET /api/games/{id}/protocol, `messages`: judges/engine/messages.py):
// its parameters' types, the lines under its title, whether the game log shows it.
export const message = (key) => (store.protocol && store.protocol.messages[key]) || null;

// The parameter of a notification whose battle rolls are its first lines (`battle_rounds`,
// drawn as dice), or null.
export function diceParam(note) {
  const m = message(note.key), first = m && m.lines[0];
  return typeof first === "string" && m.params[first] === "battle_rounds" ? first : null;
}

export const seatColour = (seat) => store.world.seat_colours[seat % store.world.seat_colours.length];
