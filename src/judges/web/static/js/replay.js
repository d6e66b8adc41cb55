// A finished game step by step: slider, previous/next, jump to a round; every hand shown.
import {store} from "./store.js";
import {$, el, icon} from "./dom.js";
import {t} from "./i18n.js";
import {loadReplay} from "./connection.js";

export function renderReplay() {
  const box = $("replay");
  const r = store.view && store.view.replay;
  if (!r) { box.hidden = true; return; }
  box.hidden = false;
  const go = (step) => loadReplay(Math.max(0, Math.min(r.steps, step)));
  const slider = el("input", {type: "range", min: "0", max: String(r.steps), value: String(r.step), id: "replay-slider",
    "aria-label": t("ui.replay_step"), onchange: (e) => go(Number(e.target.value))});
  const rounds = el("select", {id: "replay-round", "aria-label": t("ui.jump_to_round"), onchange: (e) => go(Number(e.target.value))},
    ...Object.entries(r.rounds).map(([round, step]) => el("option", {value: String(step), selected: store.view.round === Number(round) ? true : null},
      t("ui.round_n", {n: round}))));
  const hands = store.view.state.players.map((p) => el("div", {class: "replay-hand", dataset: {seat: p.seat}},
    el("strong", {}, store.view.seats[p.seat].name), ": ", p.hand.map((c) => t("card." + c)).join(", ") || "—"));
  box.replaceChildren(
    el("h3", {}, t("ui.replay")),
    el("div", {class: "replay-controls"},
      el("button", {type: "button", id: "replay-first", onclick: () => go(0), "aria-label": t("ui.replay_first"), title: t("ui.replay_first")}, icon("step-first", "ico step")),
      el("button", {type: "button", id: "replay-prev", onclick: () => go(r.step - 1), "aria-label": t("ui.replay_previous"), title: t("ui.replay_previous")}, icon("step-back", "ico step")),
      slider,
      el("button", {type: "button", id: "replay-next", onclick: () => go(r.step + 1), "aria-label": t("ui.replay_next"), title: t("ui.replay_next")}, icon("step-next", "ico step")),
      el("button", {type: "button", id: "replay-last", onclick: () => go(r.steps), "aria-label": t("ui.replay_last"), title: t("ui.replay_last")}, icon("step-last", "ico step"))),
    el("p", {class: "replay-where", dataset: {step: r.step, steps: r.steps}}, t("ui.replay_at", {step: r.step, steps: r.steps}), " · ", rounds),
    el("div", {class: "replay-hands"}, el("div", {class: "muted"}, t("ui.hands_revealed")), ...hands));
}
