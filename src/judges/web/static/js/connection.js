// Talking to the server: the static data once, then the view live (a seat's websocket, or the
// public one for a spectator), the board drawing and the public log whenever the game moves.
import {store, update} from "./store.js";
import {$, toast} from "./dom.js";
import {receiveChat} from "./chat.js";
import {setServerTime} from "./clock.js";

/** @typedef {import('./wire').View} View  the view the server sends (server/games/judges/wire.py) */
/** @typedef {import('./store.js').ScreenView} ScreenView */
/** @typedef {{type: "full", version: number, view: View}} FullMessage */
/**
 * @typedef {{type: "delta", version: number, base: number, set?: Partial<View>,
 *   state?: Partial<import('./wire').GameState>, patch?: Record<string, Edits>,
 *   notifications?: import('./wire').Note[]}} DeltaMessage
 */
/**
 * A part's edits (server/table/updates.py): an array's [start, end, items] (items [start, end)
 * replaced), or an object's keys set and dropped.
 * @typedef {Array<[number, number, any[]]> | {set: Record<string, any>, drop: string[]}} Edits
 */

// The seat's credential is an HttpOnly cookie the browser sends by itself: the screen holds no
// token and sends none.
const get = (url) => fetch(url, {credentials: "same-origin"}).then((r) => { if (!r.ok) throw new Error(url + " " + r.status); return r; });
const json = (url) => get(url).then((r) => r.json());

export async function loadStatic() {
  const {gameId, lang} = store.app;
  const [world, strings, protocol] = await Promise.all([
    json(`/api/games/${gameId}/world`), json(`/api/i18n/${lang}`), json(`/api/games/${gameId}/protocol`)]);
  update({world, strings, protocol});
}

let boardSeq = -1, logSeq = -1;
let board = {hash: "", text: null};  // the drawing held, named by the server's hash of it
let known = [];                      // the public actions received, by seq
// A seat's socket sends the board's edits and the log's new entries after each view (its
// `follow` messages): no request per step. Else (a spectator, or a socket out of step) they
// are fetched (GET /api/games/{id}/follow).
let following = false, followedSeq = -1, waiters = [];

// A text with line edits applied ([start, end, lines]: old lines [start, end) replaced, as
// `applyEdits` does to a view's arrays; the reference is server/table/textdelta.py's apply_edits).
export function patchText(text, edits) {
  return applyEdits(text.split("\n"), edits).join("\n");
}

// A board and log update (a `follow` message, or the answer of GET .../follow); false when
// its edits are of a drawing not held.
function absorb(data) {
  const b = data.board;
  if (b.svg === undefined && (b.base !== board.hash || board.text === null)) return false;
  board = {hash: b.hash, text: b.svg !== undefined ? b.svg : patchText(board.text, b.edits)};
  const seen = new Set(known.map((a) => a.seq));
  known = [...known, ...data.log.entries.filter((e) => !seen.has(e.seq))];
  logSeq = Math.max(logSeq, data.log.seq - 1);
  return true;
}

function fetchFollow() {
  const {gameId, lang} = store.app;
  return json(`/api/games/${gameId}/follow?lang=${lang}&since=${logSeq}` + (board.text === null ? "" : `&base=${board.hash}`))
    .then((data) => { if (!absorb(data)) { board = {hash: "", text: null}; return fetchFollow(); } });
}

function receiveFollow(message) {
  if (!following) return;
  if (!absorb(message)) { following = false; return; }  // out of step: fetched from now on
  followedSeq = Math.max(followedSeq, message.seq);
  waiters = waiters.filter((w) => !w());
  if (!busy && store.view && store.view.seq <= followedSeq && board.text !== store.boardSvg) {
    update({boardSvg: board.text, actions: known});  // the board moved on after the view drawn
  }
}

// Until the socket's follow message for step `seq` came (false: it did not, in time).
function followed(seq) {
  if (followedSeq >= seq) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => { waiters = waiters.filter((w) => w !== check); resolve(false); }, 5000);
    const check = () => { if (!following || followedSeq >= seq) { clearTimeout(timer); resolve(following); return true; } return false; };
    waiters.push(check);
  });
}

// The board and the log of the view's seq (the board may be of a later step).
/** @param {ScreenView} view */
async function follow(view) {
  const seq = view.seq;
  let failed = null;
  if (following && !(await followed(seq))) following = false;
  if (!following && (seq !== boardSeq || seq - 1 > logSeq)) {
    try { await fetchFollow(); } catch (err) { failed = err; }
  }
  const patch = {actions: known};
  if (board.text !== null && seq >= boardSeq) { boardSeq = seq; patch.boardSvg = board.text; }
  return {patch, failed};
}

// Views are handled one at a time, in order; when several arrived meanwhile only the latest
// is drawn (its notifications were merged on arrival, so none is lost).
let latest = null, busy = false, notes = [];

// The bell: the engine's notifications and the seat takeovers (`seat_events`), by id.
/** @param {View} payload @param {boolean} first */
function receive(payload, first) {
  if (first) notes = [];
  setServerTime(payload.server_time);  // the seats' deadlines are on the server's clock
  const known = new Set(notes.map((n) => n.id));
  const fresh = [...payload.notifications, ...(payload.seat_events || [])].filter((n) => !known.has(n.id));
  notes = [...notes, ...fresh].sort((a, b) => a.id - b.id);
  latest = payload;
  if (!busy) pump();
}

// A view is drawn even when its board or log could not be fetched (a busy server): what the
// seat owes must show. The fetch is tried again shortly unless a newer view came meanwhile.
async function pump() {
  busy = true;
  while (latest) {
    const payload = latest;
    latest = null;
    const {patch, failed} = await follow(payload);
    try {
      let selected = store.selected;
      if (selected !== null && !payload.state.generals[selected]) selected = null;
      update({view: payload, notes, selected, ...patch});
      drawn(payload);
    } catch (err) {
      console.error(err);  // a panel that cannot draw this view
      toast(String(err));
    }
    if (failed) {
      toast(String(failed));
      setTimeout(() => { if (!latest && store.view === payload) receive(payload, false); }, 1000);
    }
  }
  busy = false;
}

/**
 * A part with a delta's edits applied: a new value (`updates.apply_edits` is the reference).
 * @param {any} value
 * @param {Edits} change
 * @returns {any}
 */
export function applyEdits(value, change) {
  if (Array.isArray(change)) {
    const items = value.slice();
    for (let i = change.length - 1; i >= 0; i--) {
      const [start, end, replacement] = change[i];
      items.splice(start, end - start, ...replacement);
    }
    return items;
  }
  const out = {...value, ...change.set};
  for (const key of change.drop) delete out[key];
  return out;
}

// One live-update message applied to the view (docs/web.md, "Live updates"; the reference is
// `updates.apply_update`): a full view replaces it; a delta sets the parts and state fields it
// names, applies the edits of its `patch` and appends its notifications. null: the delta does not follow this view (a message
// was missed): ask for a full view.
/**
 * @param {View | null} view
 * @param {FullMessage | DeltaMessage} message  (any other: null)
 * @returns {View | null}
 */
export function applyUpdate(view, message) {
  if (message.type === "full") return message.view;
  if (message.type !== "delta" || !view || view.version !== message.base) return null;
  const next = {...view, ...(message.set || {}), version: message.version};
  const patch = message.patch || {};
  if (message.state || Object.keys(patch).some((name) => name.startsWith("state."))) {
    next.state = {...view.state, ...(message.state || {})};
  }
  for (const [name, change] of Object.entries(patch)) {
    /** @type {Record<string, any>} */
    const holder = name.startsWith("state.") ? next.state : next;
    const key = name.startsWith("state.") ? name.slice(6) : name;
    holder[key] = applyEdits(holder[key], change);
  }
  if (message.notifications) {
    next.notifications = view.notifications.concat(message.notifications).slice(-next.max_notifications);
  }
  return next;
}

// The view as the socket built it (the drawn one may lag behind while the board is fetched).
let live = null;

// When the server holds all the live connections it may (close code 4503, its reason shown),
// the table is followed by asking for the view every few seconds, and a socket is tried again
// later; the first view a new socket sends ends the asking.
const FULL = 4503, POLL_MS = 3000, RETRY_FULL_MS = 20000;
let polling = null;

function startPolling() {
  if (polling !== null) return;
  const {gameId, lang, mode} = store.app;
  const url = mode === "watch" ? `/api/games/${gameId}/spectate?lang=${lang}` : `/api/games/${gameId}/view?lang=${lang}`;
  const ask = async () => {
    try {
      const view = await json(url);
      if (live && view.version === live.version) return;
      receive(view, live === null);
      live = view;
    } catch { /* the next turn asks again */ }
  };
  polling = setInterval(ask, POLL_MS);
  ask();
}

function stopPolling() {
  if (polling !== null) clearInterval(polling);
  polling = null;
}

export async function connect() {
  const {gameId, lang, mode} = store.app;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  // the first drawing by HTTP (compressed); then the seat's socket sends the edits
  if (mode === "play" && board.text === null) await fetchFollow().catch(() => {});
  following = mode === "play" && board.text !== null;
  const path = (mode === "watch" ? `/ws/games/${gameId}/spectate?lang=${lang}` : `/ws/games/${gameId}?lang=${lang}`) + "&chat=1"
    + (following ? `&follow=1&board=${board.hash}&since=${logSeq}` : "");
  const socket = new WebSocket(`${scheme}://${location.host}${path}`);
  live = null;
  if (mode === "play") {
    socket.addEventListener("open", () => { seatSocket = socket; });
  }
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "acted" || message.type === "refused") { answered(message); return; }
    if (message.type === "error") { toast(message.text); return; }
    if (message.type === "chat") { receiveChat(message); return; }  // table talk: not the view's
    if (message.type === "follow") { receiveFollow(message); return; }  // the board and the log
    const next = applyUpdate(live, message);
    if (next === null) { socket.send(JSON.stringify({type: "resync"})); return; }
    if (message.type === "full") stopPolling();
    receive(next, message.type === "full" && live === null);
    live = next;
  });
  // Reconnect (the first message is a full view), unless the server closed for good reasons
  // (1008); too many spectators (4429): much later; the server full (4503): by asking meanwhile.
  socket.addEventListener("close", (event) => {
    if (seatSocket === socket) { seatSocket = null; unanswered(); }
    if (event.code === FULL) { startPolling(); setTimeout(connect, RETRY_FULL_MS); return; }
    if (event.code !== 1008) setTimeout(connect, event.code === 4429 ? 30000 : 1000);
  });
}

// An answer on its way: pressed at once (the control clicked, and the spinner of the top bar),
// until the view that follows it is drawn or the server refuses it. One at a time: a second
// click meanwhile was aimed at a position about to change, and is dropped.
let sending = null;  // {key, seq, answered, timer}
export const actionKey = (a) => JSON.stringify(a);
export const isSending = (a) => sending !== null && sending.key === actionKey(a);

function press(control) {
  document.body.dataset.sending = "true";
  $("sending").hidden = false;
  if (control && control.setAttribute) { control.setAttribute("aria-busy", "true"); control.classList.add("pressed"); }
}

function released() {
  if (sending) clearTimeout(sending.timer);
  sending = null;
  document.body.dataset.sending = "false";
  $("sending").hidden = true;
  document.querySelectorAll("#app [aria-busy='true']").forEach((n) => { n.removeAttribute("aria-busy"); n.classList.remove("pressed"); });
}

// A view was drawn: the answer on its way is done once the game moved past where it was sent.
/** @param {ScreenView} view */
function drawn(view) {
  if (sending && sending.answered && view.seq > sending.seq) released();
}

// A seat's actions go over its open socket (`act`, answered `acted` or `refused` with the same
// id); with no socket open, or none answering, by HTTP (POST .../actions) with the same
// client_action_id: the server applies it once either way.
let seatSocket = null, asked = 0;
/** @type {Map<number, (answer: any) => void>} */
const waiting = new Map();
const SOCKET_ANSWER_MS = 10000;

function answered(message) {
  const done = waiting.get(message.id);
  if (done) done(message);
}

function unanswered() {
  for (const done of [...waiting.values()]) done(null);
}

// {ok, data} as the server answered, or null when the socket could not carry it.
function overSocket(body) {
  const socket = seatSocket;
  if (!socket || socket.readyState !== WebSocket.OPEN) return Promise.resolve(null);
  const id = ++asked;
  return new Promise((resolve) => {
    const done = (message) => {
      clearTimeout(timer);
      waiting.delete(id);
      resolve(message && {ok: message.type === "acted", data: message});
    };
    const timer = setTimeout(() => done(null), SOCKET_ANSWER_MS);
    waiting.set(id, done);
    socket.send(JSON.stringify({type: "act", id, ...body}));
  });
}

async function overHttp(body) {
  const {gameId, lang} = store.app;
  let response = null;
  try {
    response = await fetch(`/api/games/${gameId}/actions?lang=${lang}`, {
      method: "POST", headers: {"Content-Type": "application/json"}, credentials: "same-origin",
      body: JSON.stringify(body)});
  } catch (err) {
    toast(String(err));
    return null;
  }
  const data = await response.json().catch(() => ({}));
  return {ok: response.ok, data: response.ok ? data : {text: data.text || data.message || response.statusText}};
}

export async function act(action, control) {
  if (sending) return;
  const {seat} = store.app;
  sending = {key: actionKey(action), seq: store.view.seq, answered: false, timer: null};
  press(control);
  const body = {action: {...action, player: seat}, client_action_id: crypto.randomUUID()};
  const answer = (await overSocket(body)) || (await overHttp(body));
  if (!answer || !answer.ok) {
    if (answer) toast(answer.data.text || answer.data.message);
    released();
    return;
  }
  sending.answered = true;
  // the view after it may be drawn already (the socket is often first), or soon
  if (store.view.seq >= (answer.data.seq ?? sending.seq + 1)) released();
  else sending.timer = setTimeout(released, 8000);  // a view lost on the way: the controls come back
}

export function seatControl(away) {
  const {gameId} = store.app;
  return fetch(`/api/games/${gameId}/seat/${away ? "back" : "away"}`, {method: "POST", credentials: "same-origin"});
}

// A replay: the finished game at one step, every hand shown (GET /api/games/{id}/replay).
export async function loadReplay(step) {
  const {gameId, lang} = store.app;
  const data = await json(`/api/games/${gameId}/replay?lang=${lang}` + (step === undefined ? "" : `&step=${step}`));
  update({view: data, notes: data.notifications.filter((n) => n.after <= data.replay.step),
          actions: data.log, boardSvg: data.board_svg, selected: null});
}
