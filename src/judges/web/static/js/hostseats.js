// The host's seat controls on the game screen: under each other human player's
// board, a button that opens a new invitation for the seat (POST /api/games/{id}/seats/{seat}/
// invitation; the server's rules apply: a player present keeps his seat unless the others
// present agree). The new link is shown once, to send to the seat's next player.
import {store, subscribe} from "./store.js";
import {el} from "./dom.js";
import {t} from "./i18n.js";

const links = {};  // seat -> the link just opened, or an error's text

function isHost() {
  const view = store.view, app = store.app;
  return Boolean(view && app && app.mode === "play" && app.seat >= 0 && !view.ending && view.seats[app.seat]?.host);
}

async function reissue(seat) {
  const response = await fetch(`/api/games/${store.app.gameId}/seats/${seat}/invitation`,
    {method: "POST", credentials: "same-origin"});
  const data = await response.json();
  links[seat] = response.ok ? {link: data.invitation} : {error: data.text || data.message};
  decorate();
}

function decorate() {
  const host = isHost();
  for (const board of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#players .player-board[data-seat]"))) {
    const seat = Number(board.dataset.seat);
    let box = board.querySelector(".host-seat");
    const wanted = host && seat !== store.app.seat && store.view.seats[seat]?.kind === "human";
    if (!wanted) { box?.remove(); continue; }
    if (!box) {
      box = el("div", {class: "host-seat"},
        el("button", {type: "button", class: "reissue", dataset: {action: "reissue", seat}, onclick: () => reissue(seat)},
          t("ui.reissue_invitation")));
      board.append(box);
    }
    const shown = links[seat];
    box.querySelector(".reissued")?.remove();
    if (shown?.link) {
      box.append(el("div", {class: "reissued"}, el("span", {}, t("ui.reissued_help")),
        el("input", {class: "reissued-link", readonly: true, value: shown.link, onfocus: (e) => e.target.select()})));
    } else if (shown?.error) {
      box.append(el("div", {class: "reissued error", role: "alert"}, shown.error));
    }
  }
}

// after the screen's own render of the same update
subscribe(() => requestAnimationFrame(decorate));
