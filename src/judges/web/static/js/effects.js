// Short, skippable effects: a battle's dice, the "your turn" chime (sound off by default).
import {store} from "./store.js";
import {$, el, icon} from "./dom.js";

let seenBattle = null, wasMyTurn = false, audio = null;

// A battle fought since the last drawing shows its dice; those already fought when the page
// opened do not (seenBattle starts at the newest of them).
export function effects() {
  const view = store.view;
  const ids = store.notes.filter((n) => n.key === "notification.battle").map((n) => n.id);
  if (seenBattle !== null) {
    const fresh = store.notes.filter((n) => n.key === "notification.battle" && n.id > seenBattle);
    if (fresh.length) showBattle(fresh[fresh.length - 1]);
  }
  seenBattle = Math.max(seenBattle ?? -1, ...ids);
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
