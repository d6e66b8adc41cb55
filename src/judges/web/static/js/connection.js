// Talking to the server: the static data once, then the view live (a seat's websocket, or the
// public one for a spectator), the board drawing and the public log whenever the game moves.
import {store, update} from "./store.js";
import {toast} from "./dom.js";

const get = (url) => fetch(url).then((r) => { if (!r.ok) throw new Error(url + " " + r.status); return r; });
const json = (url) => get(url).then((r) => r.json());

export async function loadStatic() {
  const {gameId, lang} = store.app;
  const [world, strings, protocol] = await Promise.all([
    json(`/api/games/${gameId}/world`), json(`/api/i18n/${lang}`), json(`/api/games/${gameId}/protocol`)]);
  update({world, strings, protocol});
}

let boardSeq = -1, logSeq = -1;

// The board and the log follow the view's seq; replies of an older seq are dropped.
async function follow(view) {
  const {gameId, lang} = store.app;
  const seq = view.seq;
  const jobs = [];
  if (seq !== boardSeq) {
    jobs.push(get(`/api/games/${gameId}/board.svg?lang=${lang}`).then((r) => r.text()).then((svg) => {
      if (seq >= boardSeq) { boardSeq = seq; return {boardSvg: svg}; }
      return {};
    }));
  }
  if (seq - 1 > logSeq) {
    const since = logSeq;
    jobs.push(json(`/api/games/${gameId}/log?lang=${lang}&since=${since}`).then((data) => {
      const known = new Set(store.actions.map((a) => a.seq));
      const fresh = data.entries.filter((e) => !known.has(e.seq));
      logSeq = Math.max(logSeq, data.seq - 1);
      return {actions: [...store.actions, ...fresh]};
    }));
  }
  // what came is kept even if the other request failed (the board of this seq is not asked twice)
  const results = await Promise.allSettled(jobs);
  const failed = results.find((r) => r.status === "rejected");
  return {patch: Object.assign({}, ...results.filter((r) => r.status === "fulfilled").map((r) => r.value)),
          failed: failed ? failed.reason : null};
}

// Views are handled one at a time, in order; when several arrived meanwhile only the latest
// is drawn (its notifications were merged on arrival, so none is lost).
let latest = null, busy = false, notes = [];

function receive(payload, first) {
  if (first) notes = [];
  const known = new Set(notes.map((n) => n.id));
  notes = [...notes, ...payload.notifications.filter((n) => !known.has(n.id))];
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

export function connect() {
  const {gameId, token, lang, mode} = store.app;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const path = mode === "watch" ? `/ws/games/${gameId}/spectate?lang=${lang}`
    : `/ws/games/${gameId}?token=${encodeURIComponent(token)}&lang=${lang}`;
  const socket = new WebSocket(`${scheme}://${location.host}${path}`);
  let first = true;
  socket.addEventListener("message", (event) => { receive(JSON.parse(event.data), first); first = false; });
  socket.addEventListener("close", () => setTimeout(connect, 1000));  // the first message resends everything
}

export async function act(action) {
  const {gameId, token, seat, lang} = store.app;
  const body = {action: {...action, player: seat}, client_action_id: crypto.randomUUID()};
  const response = await fetch(`/api/games/${gameId}/actions?lang=${lang}`, {
    method: "POST", headers: {"Content-Type": "application/json", "X-Seat-Token": token},
    body: JSON.stringify(body)});
  if (!response.ok) {
    const data = await response.json().catch(() => ({}));
    toast(data.text || data.message || response.statusText);
  }
}

export function seatControl(away) {
  const {gameId, token} = store.app;
  return fetch(`/api/games/${gameId}/seat/${away ? "back" : "away"}`, {method: "POST", headers: {"X-Seat-Token": token}});
}

// A replay: the finished game at one step, every hand shown (GET /api/games/{id}/replay).
export async function loadReplay(step) {
  const {gameId, lang} = store.app;
  const data = await json(`/api/games/${gameId}/replay?lang=${lang}` + (step === undefined ? "" : `&step=${step}`));
  update({view: data, notes: data.notifications.filter((n) => n.after <= data.replay.step),
          actions: data.log, boardSvg: data.board_svg, selected: null});
}
