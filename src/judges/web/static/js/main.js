// The game screen: the one state (store.js), and every panel derived from it on each change.
import {store, subscribe, update} from "./store.js";
import {$} from "./dom.js";
import {loadStatic, connect, loadReplay} from "./connection.js";
import {initBoard, renderBoard, closeChooser} from "./board.js";
import {initPanels, renderTop, renderMe, renderActions, renderPlayers, renderEvents} from "./panels.js";
import {renderBottomBar, renderModal, renderBell, renderBanner, toggleBell} from "./windows.js";
import {renderLog} from "./log.js";
import {renderReplay} from "./replay.js";
import {effects, initEffects} from "./effects.js";
import {initChat, renderChat} from "./chat.js";
import {initLayout, renderLayout} from "./layout.js";
import {announce, initClock, renderBoardClock} from "./clock.js";
import {initResume} from "./resume.js";

const app = $("app").dataset;
store.app = {gameId: app.gameId, seat: Number(app.seat), lang: app.lang, mode: app.mode};

function render() {
  if (!store.view || !store.world) return;
  renderTop(); renderBoard(); renderBanner(); renderReplay(); renderMe(); renderActions(); renderPlayers();
  renderEvents(); renderLog(); renderChat(); renderBell(); renderBottomBar(); renderModal(); renderLayout();
  renderBoardClock(); announce();
  effects();
  document.body.dataset.phase = store.view.phase_name;
  document.body.dataset.seq = String(store.view.seq);
  document.body.dataset.mode = store.app.mode;
  document.body.dataset.over = store.view.ending ? "true" : "false";
}

subscribe(render);
$("modal-close").addEventListener("click", () => {
  store.dismissed.add(store.openKind);
  update({openKind: null});
});
$("bell").addEventListener("click", toggleBell);
document.addEventListener("click", (e) => { if (!/** @type {Element} */ (e.target).closest("#chooser, #board")) closeChooser(); });

loadStatic().then(() => {
  initBoard(); initPanels(); initEffects(); initChat(); initLayout(); initClock(); initResume();
  if (store.app.mode === "replay") loadReplay(0); else connect();  // a replay opens at its start: the result is not spoiled
});
