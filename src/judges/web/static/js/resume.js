// A guest's seat lives in this browser's cookie: a link brings it to another browser or device
// (POST /api/games/{id}/resume; opened there, it takes the seat and this browser stops playing
// it). A player signed in needs none: his account opens the seat anywhere.
import {store} from "./store.js";
import {$, el} from "./dom.js";
import {t} from "./i18n.js";

export async function initResume() {
  const box = /** @type {HTMLDetailsElement} */ ($("resume"));
  if (store.app.mode !== "play") return;
  const me = await fetch("/api/me", {credentials: "same-origin"}).then((r) => r.json()).catch(() => ({account: {}}));
  box.dataset.checked = "true";  // who holds the seat is known (the tests wait for it)
  if (me.account) return;
  box.hidden = false;
  box.addEventListener("toggle", async () => {
    if (!box.open || box.querySelector(".resume-link")) return;
    const response = await fetch(`/api/games/${store.app.gameId}/resume`, {method: "POST", credentials: "same-origin"});
    const data = await response.json();
    box.append(response.ok
      ? el("div", {}, el("p", {class: "muted"}, t("ui.resume_help")),
          el("input", {class: "resume-link", readonly: true, value: data.link, "aria-label": t("ui.resume_link"),
            onfocus: (e) => e.target.select()}))
      : el("p", {class: "error", role: "alert"}, data.text || data.message));
  });
}
