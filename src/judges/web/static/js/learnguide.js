// The guide of the guided first game (server/advice/learn.py) on the game screen: on a table of the
// course, a panel says what to do and why, rings what to click, and moves on when the seat's
// view shows the step done (or at the player's "Next"). Inert on every other table.
import {store, subscribe} from "./store.js";
import {$, el} from "./dom.js";
import {loadProgress, saveProgress, openLesson, playReal} from "./learnstate.js";

const gameId = $("app").dataset.gameId, lang = $("app").dataset.lang;
let payload = null, panel = null, shown = "", lastTarget = null, pointedAt = "";

const sIndex = (name) => store.world.settlements.find((s) => s.name === name).index;
const rIndex = (name) => store.world.regions.findIndex((r) => r.name === name);

// The step's condition in the seat's view (server/advice/learn.py, `done`).
function holds(done) {
  const v = store.view, st = v.state, w = store.world, phases = w.phases;
  if (done.over) return !!v.ending;
  if (done.past) return !!v.ending || phases.indexOf(v.phase_name) > phases.indexOf(done.past);
  if (done.invaders) return st.invaders.some((p) => p.at >= 0);
  if (done.king) return st.king !== null;
  if (done.landed) return st.events_landed.length > 0;
  if (done.taxed) return st.taxes[String(rIndex(done.taxed))] === store.app.seat;
  if (done.walls) return st.settlements[sIndex(done.walls)].walls;
  if (done.judge) return st.titles[rIndex(done.judge[0])].holder === done.judge[1];
  if (done.discarded) return st.discard.includes(done.discarded);
  if (done.gone) return !st.generals[String(done.gone)];
  if (done.ark) { const g = st.generals[String(done.ark)]; return !!g && !!g.ark; }
  if (done.at) { const g = st.generals[String(done.at[0])]; return !!g && g.hex === w.settlements[sIndex(done.at[1])].hex; }
  if (done.owner) return st.settlements[sIndex(done.owner[0])].owner === done.owner[1];
  return false;
}

const visible = (node) => !!node && !node.closest("[hidden]") && node.getClientRects().length > 0;

// What the step points at: the button of its action when one is on screen (a window's choice,
// the chooser's item, the actions panel's button), else the first of its selectors shown.
function target(step) {
  if (step.action) {
    const v = store.view;
    const i = v.legal_actions.findIndex((a) => Object.entries(step.action).every(([k, x]) => a[k] === x));
    const words = i >= 0 ? v.action_labels[i] : null;
    if (words) {
      const buttons = document.querySelectorAll(
        "#modal:not([hidden]) .options button, #chooser:not([hidden]) .choice, #actions:not([hidden]) button.action");
      const hit = [...buttons].find((b) => visible(b) && b.textContent.trim().startsWith(words));
      if (hit) return hit;
      const inside = [...buttons].find((b) => visible(b) && b.textContent.includes(words));
      if (inside) return inside;
    }
  }
  for (const selector of step.point) {
    const hit = [...document.querySelectorAll(selector)].find(visible);
    if (hit) return hit;
  }
  return null;
}

function point(node, key, stepKey) {
  if (lastTarget && lastTarget !== node) { lastTarget.classList.remove("learn-target"); delete lastTarget.dataset.learnStep; }
  lastTarget = node;
  if (!node) return;
  node.classList.add("learn-target");
  node.dataset.learnStep = stepKey;  // the step it is pointed at for
  if (pointedAt !== key) {  // once a step (and a new target): bring it into sight
    pointedAt = key;
    node.scrollIntoView({block: "center", inline: "nearest"});
  }
}

const words = (key, params) => {
  let text = payload.texts[key] || key;
  for (const [k, v] of Object.entries(params || {})) text = text.split("{" + k + "}").join(String(v));
  return text;
};

async function go(i) {
  try { await openLesson(payload.lessons, i, lang); } catch (e) { panel.querySelector(".learn-status").textContent = e.message; }
}

function render(p, lesson, step, ready, finished) {
  const n = payload.lessons.length, here = p.lesson;
  const key = JSON.stringify([here, p.step, ready, finished]);
  if (key === shown) return;
  shown = key;
  const next = () => {
    const q = loadProgress();
    q.step += 1;
    saveProgress(q);
    tick();
  };
  const buttons = [];
  if (finished) {
    const last = here + 1 >= n;
    buttons.push(last
      ? el("button", {type: "button", class: "primary learn-next", dataset: {learn: "real"}, onclick: () => playReal(lang)}, words("learn.play_real"))
      : el("button", {type: "button", class: "primary learn-next", dataset: {learn: "next-lesson"}, onclick: () => go(here + 1)}, words("learn.next_lesson")));
  } else if (ready && step.next) {
    buttons.push(el("button", {type: "button", class: "primary learn-next", dataset: {learn: "next"}, onclick: next}, words("learn.next")));
  }
  buttons.push(el("a", {href: `/learn?lang=${lang}`, class: "learn-course"}, words("learn.course")));
  panel.replaceChildren(...[
    el("p", {class: "learn-lesson"}, words("learn.lesson_n", {n: here + 1, total: n, title: lesson.title})),
    el("p", {class: "learn-text", dataset: {step: step ? step.key : "done"}},
      finished ? (here + 1 >= n ? words("learn.finish") : words("learn.done")) : step.text),
    step && !finished ? el("p", {class: "muted learn-step"}, words("learn.step_n", {n: p.step + 1, total: lesson.steps.length})) : null,
    el("p", {class: "learn-buttons"}, ...buttons,
      el("a", {href: lesson.manual, target: "_blank", rel: "noopener", class: "manual-ref"}, words("learn.read_chapter"))),
    el("p", {class: "learn-status muted", role: "status"})].filter(Boolean));  // no "null" line for a step not shown
}

// The guide stands above whatever is docked at the screen's bottom (the windows' bar, and on a
// phone the actions' bar), so that it never covers the button that reopens a window.
function dock() {
  let top = window.innerHeight;
  for (const id of ["actions", "bottombar"]) {  // from the lowest up
    const node = $(id);
    if (!node || node.hidden || getComputedStyle(node).display === "none") continue;
    if (id === "actions" && getComputedStyle(node).position !== "fixed") continue;  // a panel beside the board
    const box = node.getBoundingClientRect();
    // a bar at the bottom of the screen: it reaches the screen's bottom edge, or the bar below it
    if (box.height > 0 && box.bottom >= top - 2 && box.top < top) top = box.top;
  }
  panel.style.bottom = `${Math.max(0, window.innerHeight - top) + 8}px`;
}

function tick() {
  if (!payload || !store.view || !store.world) return;
  dock();
  const p = loadProgress();
  const lesson = payload.lessons[p.lesson];
  if (!lesson || p.games[lesson.game] !== gameId) { panel.hidden = true; point(null, "", ""); return; }
  panel.hidden = false;
  let step = lesson.steps[p.step];
  // Steps done by the view move on by themselves (a step with "Next" waits for the player).
  while (step && step.done && !step.next && holds(step.done)) {
    p.step += 1;
    saveProgress(p);
    step = lesson.steps[p.step];
  }
  const finished = !step;
  if (finished && !p.done.includes(lesson.id)) {
    p.done.push(lesson.id);
    if (p.lesson + 1 >= payload.lessons.length) p.finished = true;
    saveProgress(p);
  }
  const ready = !!step && (!step.done || holds(step.done));
  render(p, lesson, step, ready, finished);
  point(finished ? null : target(step), `${p.lesson}/${p.step}`, step ? step.key : "");
}

async function start() {
  const p = loadProgress();
  if (!Object.values(p.games).includes(gameId)) return;  // not a table of the course
  payload = await (await fetch(`/api/learn?lang=${lang}`)).json();
  panel = el("aside", {id: "learn-guide", class: "learn-guide card", "aria-live": "polite"});
  document.body.append(panel);
  subscribe(() => requestAnimationFrame(tick));
  window.addEventListener("resize", tick);
  // the bars at the bottom change (a window closed leaves its button there): the guide moves up at once
  const redock = () => { if (!panel.hidden) dock(); };
  const bars = new ResizeObserver(redock);
  for (const id of ["bottombar", "actions"]) {
    bars.observe($(id));
    new MutationObserver(redock).observe($(id), {attributes: true, attributeFilter: ["hidden"]});
  }
  setInterval(tick, 400);  // the board and the windows draw after the view: look again
  tick();
}

start();
