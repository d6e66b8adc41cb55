// Short, skippable effects: a battle's dice, the "your turn" chime (sound off by default).
import {store} from "./store.js";
import {$, el, icon} from "./dom.js";

let seenBattle = -1, wasMyTurn = false, audio = null;

export function effects(previousNotes) {
  const view = store.view;
  const battles = store.notes.filter((n) => n.key === "notification.battle" && n.id > seenBattle);
  if (seenBattle >= 0 && battles.length && previousNotes) showBattle(battles[battles.length - 1]);
  if (store.notes.length) seenBattle = Math.max(seenBattle, ...store.notes.filter((n) => n.key === "notification.battle").map((n) => n.id), 0);
  const mine = store.app.mode === "play" && view.waiting_for.includes(store.app.seat) && !view.ending;
  if (mine && !wasMyTurn && store.sound) chime();
  wasMyTurn = mine;
}

function showBattle(note) {
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const rounds = note.params.rounds || [];
  const dice = (faces, side) => el("span", {class: "dice " + side}, ...faces.map((f) => el("span", {class: "die"}, String(f))));
  const box = el("div", {class: "battle-overlay", role: "status"},
    el("div", {class: "battle-title"}, icon("battle"), note.title),
    ...rounds.map((r) => el("div", {class: "battle-round"}, dice(r.attacker || [], "attacker"), el("span", {class: "vs"}, "×"), dice(r.defender || [], "defender"))));
  box.addEventListener("click", () => box.remove());
  $("board-wrap").append(box);
  setTimeout(() => box.remove(), 2200);
}

function chime() {
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.frequency.value = 660; gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.5);
    osc.connect(gain).connect(audio.destination); osc.start(); osc.stop(audio.currentTime + 0.5);
  } catch (e) { /* no sound device: the screen still says it */ }
}

// A click anywhere finishes the running animations at once.
export function initEffects() {
  document.addEventListener("pointerdown", () => document.getAnimations()
    .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity).forEach((a) => a.finish()));
}
