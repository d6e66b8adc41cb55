// Short, skippable effects: a battle's dice, the "your turn" chime (sound off by default).
import {store} from "./store.js";
import {$, el, icon} from "./dom.js";
import {t, diceParam} from "./i18n.js";

let seenBattle = null, replayStep = null, wasMyTurn = false, audio = null;
const isBattle = (n) => diceParam(n) !== null;

// A battle fought since the last drawing shows its dice; those already fought when the page
// opened do not (seenBattle starts at the newest of them). In a replay, stepping forward by
// one step shows the battles that step fought (a jump, or a step back, shows none).
export function effects() {
  const view = store.view;
  if (view.replay) {
    const step = view.replay.step;
    if (replayStep !== null && step === replayStep + 1) {
      showBattles(store.notes.filter((n) => isBattle(n) && n.after > replayStep && n.after <= step));
    }
    replayStep = step;
  } else {
    const ids = store.notes.filter(isBattle).map((n) => n.id);
    if (seenBattle !== null) showBattles(store.notes.filter((n) => isBattle(n) && n.id > seenBattle));
    seenBattle = Math.max(seenBattle ?? -1, ...ids);
  }
  placeBattles();
  const mine = store.app.mode === "play" && view.waiting_for.includes(store.app.seat) && !view.ending;
  if (mine && !wasMyTurn && store.sound) chime();
  wasMyTurn = mine;
}

// One die: its face, drawn as a small square (the log uses the same).
export const die = (face) => el("span", {class: "die"}, String(face));

// The dice of one battle's rounds: the attacker's against the defender's, each with its hits.
export function battleRounds(note) {
  const rolls = (note.params || {})[diceParam(note)];
  const side = (faces, hits, cls) => el("span", {class: "dice " + cls}, ...(faces || []).map(die),
    el("span", {class: "hits"}, t("ui.hits_n", {n: hits ?? 0})));
  return (rolls || []).map((r) => el("div", {class: "battle-round"},
    side(r.attacker, r.attacker_hits, "attacker"), el("span", {class: "vs"}, "×"), side(r.defender, r.defender_hits, "defender")));
}

// The battles of one moment, one box, never over a decision: in the window that opened with it
// (plunder), else over the log's newest lines (which tell the same battle), else (a phone, where
// the log is further down) at the top of the board. It goes after a few seconds or at a click;
// a window opening meanwhile takes it in.
const phone = () => window.matchMedia("(max-width: 900px)").matches;

function battleHome() {
  if (!$("modal").hidden) return $("modal-battle");
  return phone() ? $("board-wrap") : $("log");
}

function placeBattles() {
  const box = document.querySelector(".battle-overlay");
  const home = battleHome();
  if (box && box.parentElement !== home) home.append(box);
}

function showBattles(notes) {
  if (!notes.length || window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  document.querySelectorAll(".battle-overlay").forEach((n) => n.remove());
  const box = el("div", {class: "battle-overlay", role: "status", dataset: {battles: notes.length}},
    ...notes.slice(-3).map((note) => el("div", {class: "battle", dataset: {hex: note.params?.hex}},
      el("div", {class: "battle-title"}, icon("battle"), note.title), ...battleRounds(note))));
  box.addEventListener("click", () => box.remove());
  battleHome().append(box);
  setTimeout(() => box.remove(), 2600 + 900 * Math.min(notes.length, 3));
}

function chime() {
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.frequency.value = 660; gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.5);
    osc.connect(gain).connect(audio.destination); osc.start(); osc.stop(audio.currentTime + 0.5);
  } catch { /* no sound device: the screen still says it */ }
}

// A click anywhere finishes the running animations at once.
export function initEffects() {
  // (The battles' box is not taken away here: it never lies over a decision, and taking it out
  // of a window between the press and the release would move the choice under the pointer.)
  document.addEventListener("pointerdown", () => document.getAnimations()
    .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity).forEach((a) => a.finish()));
}
