// The page tells a player whose decision is awaited (docs/accounts.md): while it is
// his turn the tab's title starts with a mark and "Your turn", the installed app's badge shows
// it, and a tab out of sight raises the browser's notification (the permission is asked by a
// button: browsers ask only after a click). Read from the status bar (#waiting gets "mine").
import {$} from "./dom.js";

const app = $("app");
const waiting = $("waiting");
if (app && waiting && app.dataset.mode === "play") {
  const base = document.title;
  let strings = {};
  let mine = false;
  const word = () => strings["ui.your_turn"] || "";

  const update = () => {
    const now = waiting.classList.contains("mine");
    if (now === mine) return;
    mine = now;
    document.title = mine ? `● ${word()} · ${base}` : base;
    app.dataset.yourTurn = String(mine);
    if (navigator.setAppBadge) (mine ? navigator.setAppBadge(1) : navigator.clearAppBadge()).catch(() => {});
    if (mine && document.hidden && "Notification" in window && Notification.permission === "granted") {
      try {
        new Notification(base, {body: word(), tag: `jk-turn-${app.dataset.gameId}`});
      } catch { /* a browser that shows notifications through a service worker only */ }
    }
  };

  fetch(`/api/i18n/${app.dataset.lang}`).then((r) => r.json()).then((s) => {
    strings = s;
    mine = false;
    update();
    if ("Notification" in window && Notification.permission === "default") {
      const button = document.createElement("button");
      button.type = "button";
      button.id = "notify-me";
      button.className = "notify-me";
      button.textContent = strings["ui.notify_me"] || "";
      button.addEventListener("click", async () => {
        await Notification.requestPermission();
        button.remove();
      });
      document.querySelector(".tools")?.prepend(button);
    }
  });
  new MutationObserver(update).observe(waiting, {attributes: true, attributeFilter: ["class"]});
}
