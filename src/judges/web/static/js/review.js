// The review after the game: under the final table, the seat's three costliest
// decisions by the hint's measure (GET /api/games/{id}/review), in the reader's language.
import {store, subscribe} from "./store.js";
import {el} from "./dom.js";
import {t} from "./i18n.js";

let review = null, asked = false;

async function ask() {
  asked = true;
  try {
    const {gameId, lang} = store.app;
    const response = await fetch(`/api/games/${gameId}/review?lang=${lang}`, {credentials: "same-origin"});
    if (response.ok) review = await response.json();
  } catch { /* no review: the final table stands alone */ }
  place();
}

function box() {
  if (!review) return el("section", {class: "review muted", dataset: {panel: "review"}, "aria-busy": "true"}, t("ui.busy"));
  return el("section", {class: "review", dataset: {panel: "review"}},
    el("h3", {}, review.title),
    review.decisions.length
      ? el("ol", {class: "review-list"}, ...review.decisions.map((d) => el("li", {dataset: {cost: d.cost}}, d.text)))
      : el("p", {class: "muted"}, review.none),
    el("p", {class: "muted review-measure"}, review.measure));
}

// The banner is drawn again at every change: the review goes back under the final table.
function place() {
  const final = document.querySelector("#banner [data-panel='final']");
  if (!final) return;
  /** @type {HTMLElement | null} */
  const old = final.querySelector("[data-panel='review']");
  if (old && old.dataset.ready === String(!!review)) return;
  const node = box();
  node.dataset.ready = String(!!review);
  if (old) old.replaceWith(node); else final.append(node);
}

subscribe(() => requestAnimationFrame(() => {
  if (!store.view || store.app.mode !== "play" || !store.view.final) return;  // a closed table has no review
  if (!asked) ask();
  place();
}));
