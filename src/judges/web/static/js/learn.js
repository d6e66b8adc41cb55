// The course's page (/learn): the lessons done, Start / Resume / Start over, and the real game.
import {$} from "./dom.js";
import {clearProgress, loadProgress, openLesson, playReal} from "./learnstate.js";

const lang = $("learn").dataset.lang;
/** @type {HTMLElement[]} */
const rows = [...document.querySelectorAll("#lessons li")].map((li) => /** @type {HTMLElement} */ (li));
let payload = null;

function show() {
  const p = loadProgress();
  rows.forEach((li) => {
    const done = p.done.includes(li.dataset.id);
    li.classList.toggle("done", done);
    li.classList.toggle("current", p.started && Number(li.dataset.lesson) === p.lesson && !p.finished);
    /** @type {HTMLElement} */ (li.querySelector(".lesson-done")).hidden = !done;
  });
  $("learn-start").hidden = p.started;
  $("learn-resume").hidden = !p.started || !!p.finished;
  $("learn-restart").hidden = !p.started;
  $("learn-real").hidden = !p.finished;
}

async function lessonsData() {
  if (!payload) payload = await (await fetch(`/api/learn?lang=${lang}`)).json();
  return payload.lessons;
}

function failed(e) {
  $("learn-error").textContent = e.message;
  $("learn-error").hidden = false;
}

$("learn-start").addEventListener("click", async () => {
  try { await openLesson(await lessonsData(), 0, lang, true); } catch (e) { failed(e); }
});
$("learn-resume").addEventListener("click", async () => {
  try { await openLesson(await lessonsData(), loadProgress().lesson, lang); } catch (e) { failed(e); }
});
$("learn-restart").addEventListener("click", async () => {
  clearProgress();
  try { await openLesson(await lessonsData(), 0, lang, true); } catch (e) { failed(e); }
});
$("learn-real").addEventListener("click", async () => {
  try { await playReal(lang); } catch (e) { failed(e); }
});
show();
