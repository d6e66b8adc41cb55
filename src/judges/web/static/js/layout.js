// The screen's arrangement where it depends on the room: on a phone the log and the table talk
// are two tabs (one shown at a time, the reader's choice kept for the game; the talk's tab counts
// the messages come since it was last open), and the actions' bar fixed at the bottom keeps the
// page's end (and the windows' bar above it) clear of itself.
import {store} from "./store.js";
import {$} from "./dom.js";
import {messageCount} from "./chat.js";

let tab = "log", seenMessages = 0, primed = false;
const tabKey = () => `jk-tab-${store.app.gameId}`;

function showTab(name) {
  tab = name;
  localStorage.setItem(tabKey(), tab);
  if (tab === "chat") seenMessages = messageCount();
  renderLayout();
}

export function renderLayout() {
  const main = /** @type {HTMLElement} */ (document.querySelector(".main"));
  main.dataset.tab = tab;
  /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#panel-tabs .panel-tab")).forEach((b) => {
    b.setAttribute("aria-selected", String(b.dataset.tab === tab));
  });
  if (tab === "chat") seenMessages = messageCount();
  const fresh = messageCount() - seenMessages;
  document.querySelector("#panel-tabs .tab-unread").textContent = fresh > 0 ? String(fresh) : "";
}

// The bars fixed at the bottom (a phone): their heights, for the page's end and for each other.
function dock() {
  const actions = $("actions"), bar = $("bottombar");
  const fixed = (node) => !node.hidden && getComputedStyle(node).position === "fixed" && getComputedStyle(node).display !== "none";
  const a = fixed(actions) ? actions.offsetHeight : 0, b = fixed(bar) ? bar.offsetHeight : 0;
  const root = document.documentElement.style;
  root.setProperty("--actions-h", `${a}px`);
  root.setProperty("--dock-h", `${a + b}px`);
}

export function initLayout() {
  tab = localStorage.getItem(tabKey()) === "chat" ? "chat" : "log";
  /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#panel-tabs .panel-tab")).forEach((b) => b.addEventListener("click", () => showTab(b.dataset.tab)));
  const observer = new ResizeObserver(dock);
  observer.observe($("actions"));
  observer.observe($("bottombar"));
  new MutationObserver(dock).observe($("actions"), {attributes: true, attributeFilter: ["hidden"]});
  window.addEventListener("resize", dock);
  document.addEventListener("jk-chat", () => {
    if (!primed) { primed = true; seenMessages = messageCount(); }  // the history at the page's opening is no news
    renderLayout();
  });
  renderLayout();
}
