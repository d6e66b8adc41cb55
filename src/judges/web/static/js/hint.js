// The Hint button: the strong bot's choice for the decision the seat owes, its reasons in the
// reader's language (POST /api/games/{id}/hint: one per decision; asked again, the same one),
// its target marked on the board.
import {store, update} from "./store.js";
import {el, toast} from "./dom.js";
import {t} from "./i18n.js";

let asking = false;

async function ask(control) {
  if (asking) return;
  asking = true;
  control.setAttribute("aria-busy", "true");
  try {
    const {gameId, lang} = store.app;
    const response = await fetch(`/api/games/${gameId}/hint?lang=${lang}`, {method: "POST", credentials: "same-origin"});
    const body = await response.json();
    if (!response.ok) { toast(body.text || body.message); return; }
    update({hint: body});
  } catch {
    toast(t("ui.hint_failed"));
  } finally {
    asking = false;
    control.removeAttribute("aria-busy");
  }
}

// The hint of the decision on screen, if any: shown while the seat owes the decision it was
// asked for (the same round, phase and step: its free steps and their Undo keep it).
function current() {
  const {hint, view} = store;
  if (!hint || !view || !view.waiting_for.includes(view.seat)) return null;
  const s = view.state;
  return [s.round, s.phase, s.step].every((n, i) => n === hint.at[i]) ? hint : null;
}

// Whether the table plays with hints, decided at its creation: with hints it is not rated.
const hinted = () => Boolean(store.view.table && store.view.table.hints);

// The table's kind, shown on the table (players' panel): hints and unrated, or rated without.
export function tableKind() {
  return el("p", {class: "muted table-kind", dataset: {tableKind: hinted() ? "hints" : "rated"}},
    t(hinted() ? "ui.table_hints" : "ui.table_rated"));
}

// The button, saying what a hint costs before it is pressed (the table is unrated), and the
// hint's words once asked for; nothing on a table that refuses hints.
export function hintParts() {
  if (!hinted()) return [];
  const button = el("button", {type: "button", class: "action hint-button", dataset: {action: "hint"}, title: t("ui.hint_help"),
    onclick: (e) => ask(e.currentTarget)}, t("ui.hint"), " ", el("small", {class: "hint-cost"}, t("ui.hint_cost")));
  const hint = current();
  if (!hint) return [button];
  // the words can be long: the box closes (a phone's bottom bar grows with it)
  const box = el("div", {class: "hint-box", role: "status"},
    el("button", {type: "button", class: "hint-close", dataset: {action: "close-hint"}, "aria-label": t("ui.close"), title: t("ui.close"),
      onclick: () => update({hint: null})}, "×"),
    el("p", {class: "hint-action"}, el("strong", {}, hint.text)),
    el("ul", {class: "hint-reasons"}, ...hint.reasons.map((r) => el("li", {}, r.text))),
    hint.alternatives.length ? el("p", {class: "muted hint-alternatives"}, t("ui.hint_alternatives", {
      alternatives: hint.alternatives.map((a) => `${a.text} (${a.note})`).join(" · ")})) : null);
  return [button, box];
}

// Marks the hinted target on the board: the settlement of a purchase or card, the hex and the
// general of a move.
export function markHint() {
  const svg = document.querySelector("#board svg");
  if (!svg) return;
  svg.querySelectorAll(".hinted").forEach((n) => n.classList.remove("hinted"));
  const hint = current();
  if (!hint) return;
  const a = hint.action;
  const nodes = [];
  const place = a.settlement || a.region;
  if (a.settlement) nodes.push(...svg.querySelectorAll(`[data-settlement="${CSS.escape(a.settlement)}"]`));
  if (a.type === "move") {
    nodes.push(...svg.querySelectorAll(`polygon.hex[data-q="${a.q}"][data-r="${a.r}"]`));
    nodes.push(...svg.querySelectorAll(`[data-general="${a.general}"]`));
  } else if (a.general !== undefined && a.general !== null && !place) {
    nodes.push(...svg.querySelectorAll(`[data-general="${a.general}"]`));
  }
  nodes.forEach((n) => n.classList.add("hinted"));
}
