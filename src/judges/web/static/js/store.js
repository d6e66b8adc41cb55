// The screen's state in one place; every panel is derived from it by render().
// The view's types are the server's (server/games/judges/wire.py), generated into wire.d.ts.
/** @typedef {import('./wire').View} View */
/** @typedef {import('./wire').Note} Note */
/** @typedef {View & Partial<import('./wire').ReplayView>} ScreenView  a live view, or a replay's step */

export const store = {
  app: null,          // {gameId, seat, lang, mode} from the page (the seat's credential is a cookie)
  world: null,        // GET /api/games/{id}/world
  strings: {},        // GET /api/i18n/{lang}
  protocol: null,     // GET /api/games/{id}/protocol: kinds, items, cards
  /** @type {ScreenView | null} */
  view: null,         // the seat's view (or the public one, or a replay step)
  /** @type {Note[]} */
  notes: [],          // every notification received (the bell), by id
  actions: [],        // the public actions (GET /api/games/{id}/log), by seq
  boardSvg: null,     // the board drawing of the current seq (render/svg.py)
  selected: null,     // the general chosen to move
  dismissed: new Set(), openKind: null,
  sound: localStorage.getItem("jk-sound") === "on",
};

const listeners = [];
export const subscribe = (fn) => listeners.push(fn);
export function update(patch) {
  Object.assign(store, patch || {});
  for (const fn of listeners) fn(store);
}
