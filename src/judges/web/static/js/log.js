// The log beside the board: every public action and every report line (dice included), oldest
// first, newest at the bottom, each report with its manual chapter.
import {store} from "./store.js";
import {$, el, icon, swatch} from "./dom.js";
import {t, seatName, seatColour, message, diceParam} from "./i18n.js";
import {battleRounds} from "./effects.js";

let shown = "";

export function logEntries() {
  const items = [];
  // a step taken back (§ 4 Taking back) stays in the log, struck through; its Undo names it
  const undone = new Set(store.actions.filter((a) => a.undoes !== undefined).map((a) => a.undoes));
  for (const a of store.actions) items.push({at: a.seq + 0.5, order: 0, kind: "action", text: a.text, type: a.type, player: a.player,
                                              undone: a.undone !== undefined || undone.has(a.seq)});
  for (const n of store.notes) {
    if (message(n.key)?.log === false) continue;  // the server's seat notices are the bell's
    items.push({at: n.after, order: 1 + n.id / 1e6, kind: "note", title: n.title, lines: n.lines, key: n.key, chapter: n.chapter, round: n.round,
                note: n});
  }
  items.sort((a, b) => a.at - b.at || a.order - b.order);
  return items;
}

// A player's same step taken again and again in a row (twelve troops bought for one
// settlement) is one line with its count; a step taken back stays a line of its own.
export function grouped(items) {
  const out = [];
  for (const item of items) {
    const last = out[out.length - 1];
    if (item.kind === "action" && last && last.kind === "action" && !item.undone && !last.undone
        && last.player === item.player && last.type === item.type && last.text === item.text) {
      out[out.length - 1] = {...last, count: (last.count || 1) + 1};
    } else {
      out.push(item);
    }
  }
  return out;
}

const times = (item) => item.count > 1
  ? el("span", {class: "log-count", title: t("ui.log_times_title", {n: item.count})}, t("ui.log_times", {n: item.count}))
  : null;

// A battle's report shows its dice as dice, each side named (and coloured) before its own;
// the words of each roll (the report's first lines, one per roll) stay as the row's label.
const party = (p) => typeof p === "number" ? el("span", {class: "party"}, swatch(seatColour(p)), seatName(p))
  : el("span", {class: "party"}, t("party." + p));

function battleDice(item) {
  const p = item.note.params || {};
  const rows = battleRounds(item.note);
  rows.forEach((row, i) => {
    row.setAttribute("aria-label", item.lines[i] || "");
    row.title = item.lines[i] || "";
    row.querySelector(".attacker").prepend(party(p.attacker));
    row.querySelector(".defender").prepend(party(p.defender));
  });
  return el("div", {class: "log-dice", dataset: {rolls: rows.length}}, ...rows);
}

// a battle's rolls are drawn as dice: their lines (the first ones) are not repeated below
const lines = (item) => {
  const dice = diceParam(item.note);
  return dice ? item.lines.slice((item.note.params?.[dice] || []).length) : item.lines;
};

// The log follows the newest entry unless the reader scrolled up. Only the reader's own
// scrolling (wheel, touch, keys, the scroll bar) decides it: the panels around it growing or
// shrinking (a window's button in the bottom bar, a hand of cards) move the list without a
// reader, and it stays at its newest entry.
function follow(list) {
  list.dataset.watched = "1";
  let touched = 0;
  for (const name of ["wheel", "touchmove", "keydown", "pointerdown"]) list.addEventListener(name, () => { touched = Date.now(); }, {passive: true});
  list.addEventListener("scroll", () => {
    if (Date.now() - touched > 1500) return;
    list.dataset.pinned = list.scrollHeight - list.scrollTop - list.clientHeight < 40 ? "1" : "0";
  });
  new ResizeObserver(() => { if (list.dataset.pinned !== "0") list.scrollTop = list.scrollHeight; }).observe(list);
}

export function renderLog() {
  const list = $("log-list");
  const items = logEntries();
  const signature = items.length + ":" + (items.length ? JSON.stringify(items[items.length - 1]) : "");
  if (signature === shown) return;
  shown = signature;
  if (!list.dataset.watched) follow(list);
  list.replaceChildren(...grouped(items).map((item) => item.kind === "action"
    ? el("li", {class: "log-action" + (item.undone ? " undone" : ""), dataset: {logEntry: "action", type: item.type,
        ...(item.undone ? {undone: "true"} : {}), ...(item.count > 1 ? {count: item.count} : {})}}, item.text, times(item))
    : el("li", {class: "log-note", dataset: {logEntry: "note", key: item.key}},
        el("div", {class: "log-title"}, el("span", {class: "log-round"}, t("ui.round_n", {n: item.round})), " ", item.title,
          item.chapter ? el("a", {href: `/manual/${store.app.lang}/${item.chapter}`, target: "_blank", class: "manual-ref",
            title: t("ui.manual"), "aria-label": t("ui.manual")}, icon("book")) : null),
        diceParam(item.note) ? battleDice(item) : null,
        lines(item).length ? el("ul", {}, ...lines(item).map((l) => el("li", {}, l))) : null)));
  if (list.dataset.pinned !== "0") list.scrollTop = list.scrollHeight;
}
