// The log beside the board: every public action and every report line (dice included), oldest
// first, newest at the bottom, each report with its manual chapter.
import {store} from "./store.js";
import {$, el, icon} from "./dom.js";
import {t} from "./i18n.js";

let shown = "";

export function logEntries() {
  const items = [];
  for (const a of store.actions) items.push({at: a.seq + 0.5, order: 0, kind: "action", text: a.text, type: a.type, player: a.player});
  for (const n of store.notes) {
    if (n.id >= 1e9) continue;  // the server's seat notices are the bell's
    items.push({at: n.after, order: 1 + n.id / 1e6, kind: "note", title: n.title, lines: n.lines, key: n.key, chapter: n.chapter, round: n.round});
  }
  items.sort((a, b) => a.at - b.at || a.order - b.order);
  return items;
}

export function renderLog() {
  const list = $("log-list");
  const items = logEntries();
  const signature = items.length + ":" + (items.length ? JSON.stringify(items[items.length - 1]) : "");
  if (signature === shown) return;
  shown = signature;
  if (!list.dataset.watched) {  // the log follows the newest entry unless the reader scrolled up
    list.dataset.watched = "1";
    list.addEventListener("scroll", () => { list.dataset.pinned = list.scrollHeight - list.scrollTop - list.clientHeight < 40 ? "1" : "0"; });
  }
  list.replaceChildren(...items.map((item) => item.kind === "action"
    ? el("li", {class: "log-action", dataset: {logEntry: "action", type: item.type}}, item.text)
    : el("li", {class: "log-note", dataset: {logEntry: "note", key: item.key}},
        el("div", {class: "log-title"}, el("span", {class: "log-round"}, t("ui.round_n", {n: item.round})), " ", item.title,
          item.chapter ? el("a", {href: `/manual/${store.app.lang}/${item.chapter}`, target: "_blank", class: "manual-ref",
            title: t("ui.manual"), "aria-label": t("ui.manual")}, icon("book")) : null),
        item.lines.length ? el("ul", {}, ...item.lines.map((l) => el("li", {}, l))) : null)));
  if (list.dataset.pinned !== "0") list.scrollTop = list.scrollHeight;
}
