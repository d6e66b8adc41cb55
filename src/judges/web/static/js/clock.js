// The clock of whoever owes a decision: each seat's deadline comes from the server (`deadline`
// of the view's seats, on the server's clock; `server_time` is that clock when the view was
// made), never from this computer's guess. A live table counts down ("0:42"), a paced one shows
// its deadline ("until Tue 14:05"); the last seconds (the last hour of a paced table) are
// marked and the seat is warned once; a seat taken over by a bot is announced.
import {store} from "./store.js";
import {el, icon, toast, $} from "./dom.js";
import {t, seatName} from "./i18n.js";

let offset = 0;  // the server's clock minus this computer's, in seconds

/** The server's clock at the view's making. @param {number | undefined} serverTime */
export function setServerTime(serverTime) {
  if (serverTime) offset = serverTime - Date.now() / 1000;
}

const now = () => Date.now() / 1000 + offset;
const paced = () => !!(store.view && store.view.table && store.view.table.pace_hours);

/** Seconds left to the seat's deadline, or null when no clock runs for it. @param {number} seat */
export function remaining(seat) {
  const s = store.view && store.view.seats[seat];
  return s && s.deadline !== null && s.deadline !== undefined ? s.deadline - now() : null;
}

// The last seconds of a live table's turn timer (a fifth of it, 5 to 20 s), the last hour of a
// paced table's deadline: the clock is marked and its seat warned.
function warnAt() {
  if (paced()) return 3600;
  const timer = (store.view && store.view.table && store.view.table.turn_timer) || 60;
  return Math.max(5, Math.min(20, timer / 5));
}

function duration(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const pad = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(r)}` : `${m}:${pad(r)}`;
}

function when(deadline) {
  const lang = store.app.lang.replace("_", "-");
  const date = new Date((deadline - offset) * 1000);  // the instant on this computer's clock
  return new Intl.DateTimeFormat(lang, {weekday: "short", hour: "2-digit", minute: "2-digit"}).format(date);
}

/** The words of a seat's clock, or "" when none runs. @param {number} seat */
export function clockText(seat) {
  const left = remaining(seat);
  if (left === null) return "";
  return paced() && left > 3600 ? t("ui.clock_until", {when: when(store.view.seats[seat].deadline)}) : duration(left);
}

/** A seat's clock, filled and kept current by the ticker. @param {number} seat */
export function clockNode(seat) {
  const node = el("span", {class: "clock", dataset: {clock: String(seat)}, title: t("ui.time_left", {player: seatName(seat)}),
    role: "timer"}, icon("turn"), el("span", {class: "clock-time"}));
  fill(node);
  return node;
}

function fill(node) {
  const seat = Number(node.dataset.clock), left = remaining(seat);
  node.hidden = left === null;
  if (left === null) return;
  node.querySelector(".clock-time").textContent = clockText(seat);
  node.classList.toggle("urgent", left <= warnAt());
}

// The clock drawn over the board: the seat's own when it owes a decision, else the first seat
// the game waits for whose clock runs.
export function renderBoardClock() {
  const box = $("board-clock");
  const view = store.view;
  const mine = store.app.mode === "play" && view.waiting_for.includes(store.app.seat) ? store.app.seat : null;
  const seat = mine !== null && remaining(mine) !== null ? mine : view.waiting_for.find((s) => remaining(s) !== null);
  box.hidden = view.ending !== null || seat === undefined || seat === null;
  if (box.hidden) { box.replaceChildren(); return; }
  box.replaceChildren(el("span", {class: "board-clock-name"}, seat === store.app.seat ? t("ui.your_turn") : seatName(seat)), clockNode(seat));
}

let warned = "";  // the deadline the seat was warned of
let seen = null;  // each seat's `away` and deadline in the last view drawn

// After each view: a seat a bot took over is announced (your own when your time ran out; not
// when you handed it over yourself).
export function announce() {
  const view = store.view;
  const seats = view.seats.map((s) => ({away: s.away, deadline: s.deadline}));
  if (seen && seen.length === seats.length && store.app.mode !== "replay") {
    seats.forEach((s, seat) => {
      if (!s.away || seen[seat].away) return;
      const ranOut = seen[seat].deadline !== null && seen[seat].deadline - now() <= 2;
      if (seat !== store.app.seat) toast(t("ui.bot_took_seat", {player: seatName(seat)}));
      else if (ranOut) toast(t("ui.bot_took_your_seat"));
    });
  }
  seen = seats;
}

function tick() {
  if (!store.view) return;
  document.querySelectorAll(".clock[data-clock]").forEach(fill);
  const seat = store.app.seat, left = store.app.mode === "play" && seat >= 0 ? remaining(seat) : null;
  if (left !== null && left > 0 && left <= warnAt() && store.view.waiting_for.includes(seat)) {
    const key = String(store.view.seats[seat].deadline);
    if (warned !== key) {
      warned = key;
      toast(t("ui.clock_warning", {left: paced() ? duration(left) : `${Math.ceil(left)} s`}));
    }
  }
}

export function initClock() {
  setInterval(tick, 250);
}
