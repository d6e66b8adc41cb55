// The guided first game's progress (server/advice/learn.py), kept in the browser: the lesson and step
// the player is at, the tables of the course, the lessons done. Leaving and coming back resumes.
const KEY = "jk-learn";

export function loadProgress() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "null");
    if (data && typeof data === "object" && data.games) return data;
  } catch { /* a broken record starts the course again */ }
  return {lesson: 0, step: 0, games: {}, done: [], started: false};
}

export const saveProgress = (p) => localStorage.setItem(KEY, JSON.stringify(p));
export const clearProgress = () => localStorage.removeItem(KEY);

// The first lesson played on the same table as lesson `i` (a new table starts there).
export const firstOfGame = (lessons, i) => lessons.findIndex((l) => l.game === lessons[i].game);

async function alive(id) {
  const response = await fetch(`/api/games/${id}/view`, {credentials: "same-origin"});
  return response.ok;
}

// Opens lesson `i`: on its table if the player still holds it, else on a new one (from the
// table's first lesson). Throws the server's words when a table cannot be made.
export async function openLesson(lessons, i, lang, fresh = false) {
  const p = loadProgress();
  const key = lessons[i].game;
  let id = fresh ? null : p.games[key];
  if (id && !(await alive(id))) id = null;
  if (!id) {
    const response = await fetch(`/api/learn/games/${key}?lang=${lang}`, {method: "POST", credentials: "same-origin"});
    const body = await response.json();
    if (!response.ok) throw new Error(body.text || body.message);
    id = body.id;
    p.games[key] = id;
    i = firstOfGame(lessons, i);
    p.step = 0;
  } else if (p.lesson !== i) {
    p.step = 0;
  }
  p.lesson = i;
  p.started = true;
  saveProgress(p);
  location.href = `/games/${id}?lang=${lang}`;
}

// The real game at the end of the course: the player against two easy (greedy) bots.
export async function playReal(lang) {
  const seats = [{kind: "human", language: lang}, {kind: "bot", bot: "greedy"}, {kind: "bot", bot: "greedy"}];
  const response = await fetch("/api/games", {method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify({seats})});
  const body = await response.json();
  if (!response.ok) throw new Error(body.text || body.message);
  location.href = `/games/${body.id}?lang=${lang}`;
}
