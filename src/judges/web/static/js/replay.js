// A finished game step by step: first/previous/play/next/last, a slider, a step of one action,
// one phase or one round, autoplay at a chosen speed, the keyboard's arrows (← →: a step back
// and on, Home/End: the start and the end, space: play or pause), a jump to a round; every hand
// shown. The controls are built once and kept (the focus stays where it was), their values
// follow each step.
import {store} from "./store.js";
import {$, el, icon} from "./dom.js";
import {t} from "./i18n.js";
import {loadReplay} from "./connection.js";

const UNITS = ["action", "phase", "round"];
const SPEEDS = [0.5, 1, 2, 4];
const DELAY = 1200;  // ms between two steps of the autoplay at speed 1
const saved = (key, fallback, allowed) => {
  const value = localStorage.getItem(key);
  return allowed.map(String).includes(value) ? value : String(fallback);
};
let unit = saved("jk-replay-unit", "action", UNITS);
let speed = Number(saved("jk-replay-speed", 1, SPEEDS));
let playing = false, timer = 0, loading = false, built = false, keys = false;

const replay = () => store.view && store.view.replay;

// The step one unit away from `step` in direction `dir` (+1 on, -1 back).
export function stepFrom(r, step, dir, by = unit) {
  if (by === "action") return Math.max(0, Math.min(r.steps, step + dir));
  const marks = by === "round" ? Object.values(r.rounds) : (r.phases || []);
  const sorted = [...new Set([0, ...marks, r.steps])].sort((a, b) => a - b);
  return dir > 0 ? (sorted.find((s) => s > step) ?? r.steps) : ([...sorted].reverse().find((s) => s < step) ?? 0);
}

async function go(step) {
  const r = replay();
  if (!r) return;
  const to = Math.max(0, Math.min(r.steps, step));
  if (to === r.step && !loading) { renderReplay(); return; }
  loading = true;
  $("replay").dataset.loading = "true";  // a step on its way (a pause lets it land)
  try { await loadReplay(to); } finally { loading = false; $("replay").dataset.loading = "false"; }
}

function schedule() {
  clearTimeout(timer);
  if (playing) timer = setTimeout(advance, DELAY / speed);
}

async function advance() {
  const r = replay();
  if (!playing || !r) return;
  if (r.step >= r.steps) { setPlaying(false); return; }
  try { await go(stepFrom(r, r.step, +1)); } catch { setPlaying(false); return; }
  if (replay().step >= replay().steps) setPlaying(false);
  else schedule();
}

function setPlaying(on) {
  playing = on;
  renderReplay();
  if (on) {
    const r = replay();
    if (r && r.step >= r.steps) go(0).then(schedule);  // at the end, play again from the start
    else schedule();
  } else {
    clearTimeout(timer);
  }
}

const stop = () => { if (playing) setPlaying(false); };

function onKey(e) {
  if (!replay() || e.altKey || e.ctrlKey || e.metaKey) return;
  const target = /** @type {HTMLElement} */ (e.target);
  if (target.closest("input, select, textarea, [contenteditable]") && !(target.id === "replay-slider" && e.key === " ")) return;
  const r = replay();
  const moves = {ArrowRight: () => stepFrom(r, r.step, +1), ArrowLeft: () => stepFrom(r, r.step, -1),
                 Home: () => 0, End: () => r.steps};
  if (e.key in moves) { e.preventDefault(); stop(); go(moves[e.key]()); }
  else if (e.key === " " && !target.closest("button, a")) { e.preventDefault(); setPlaying(!playing); }
}

function button(id, name, key, onclick) {
  return el("button", {type: "button", id, onclick, "aria-label": t(key), title: t(key)}, icon(name, "ico step"));
}

function build(box) {
  const slider = el("input", {type: "range", min: "0", id: "replay-slider", "aria-label": t("ui.replay_step"),
    onchange: (e) => { stop(); go(Number(e.target.value)); }});
  const units = el("select", {id: "replay-unit", "aria-label": t("ui.replay_by"),
    onchange: (e) => { unit = e.target.value; localStorage.setItem("jk-replay-unit", unit); renderReplay(); }},
    ...UNITS.map((u) => el("option", {value: u, selected: u === unit ? true : null}, t(`ui.replay_by_${u}`))));
  const speeds = el("select", {id: "replay-speed", "aria-label": t("ui.replay_speed"),
    onchange: (e) => { speed = Number(e.target.value); localStorage.setItem("jk-replay-speed", String(speed)); schedule(); }},
    ...SPEEDS.map((s) => el("option", {value: String(s), selected: s === speed ? true : null}, t("ui.replay_speed_n", {n: s}))));
  box.replaceChildren(
    el("h3", {}, t("ui.replay")),
    el("div", {class: "replay-controls"},
      button("replay-first", "step-first", "ui.replay_first", () => { stop(); go(0); }),
      button("replay-prev", "step-back", "ui.replay_previous", () => { stop(); go(stepFrom(replay(), replay().step, -1)); }),
      el("button", {type: "button", id: "replay-play", class: "replay-play", onclick: () => setPlaying(!playing)}),
      button("replay-next", "step-next", "ui.replay_next", () => { stop(); go(stepFrom(replay(), replay().step, +1)); }),
      button("replay-last", "step-last", "ui.replay_last", () => { stop(); go(replay().steps); })),
    slider,
    el("div", {class: "replay-options"},
      el("label", {}, t("ui.replay_by"), " ", units),
      el("label", {}, t("ui.replay_speed"), " ", speeds)),
    el("p", {class: "replay-where"}),
    el("p", {class: "replay-keys muted"}, t("ui.replay_keys")),
    el("div", {class: "replay-hands"}));
}

export function renderReplay() {
  const box = $("replay");
  const r = replay();
  if (!r) { box.hidden = true; return; }
  box.hidden = false;
  if (!built) { built = true; build(box); }
  if (!keys) { keys = true; document.addEventListener("keydown", onKey); }
  const play = /** @type {HTMLButtonElement} */ ($("replay-play"));
  const words = playing ? t("ui.replay_pause") : t("ui.replay_play");
  play.replaceChildren(icon(playing ? "pause" : "play", "ico step"), el("span", {class: "replay-play-word"}, words));
  play.setAttribute("aria-label", words);
  play.title = words;
  play.setAttribute("aria-pressed", String(playing));
  play.dataset.playing = String(playing);
  const slider = /** @type {HTMLInputElement} */ ($("replay-slider"));
  slider.max = String(r.steps);
  slider.value = String(r.step);
  box.dataset.at = r.step <= 0 ? "start" : r.step >= r.steps ? "end" : "";
  for (const [id, key] of [["replay-next", `ui.replay_next_${unit}`], ["replay-prev", `ui.replay_previous_${unit}`]]) {
    $(id).title = t(key);
    $(id).setAttribute("aria-label", t(key));
  }
  const rounds = el("select", {id: "replay-round", "aria-label": t("ui.jump_to_round"), onchange: (e) => { stop(); go(Number(e.target.value)); }},
    ...Object.entries(r.rounds).map(([round, step]) => el("option", {value: String(step), selected: store.view.round === Number(round) ? true : null},
      t("ui.round_n", {n: round}))));
  const where = /** @type {HTMLElement} */ (box.querySelector(".replay-where"));
  where.dataset.step = String(r.step);
  where.dataset.steps = String(r.steps);
  where.replaceChildren(t("ui.replay_at", {step: r.step, steps: r.steps}), " · ", rounds, " · ",
    el("span", {class: "replay-phase"}, t("phase." + store.view.phase_name)));
  const hands = store.view.state.players.map((p) => el("div", {class: "replay-hand", dataset: {seat: p.seat}},
    el("strong", {}, store.view.seats[p.seat].name), ": ", p.hand.map((c) => t("card." + c)).join(", ") || "—"));
  box.querySelector(".replay-hands").replaceChildren(el("div", {class: "muted"}, t("ui.hands_revealed")), ...hands);
}
