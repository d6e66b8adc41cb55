// The panels around the board: the top bar, your hand and actions, the players, the events.
import {store, update} from "./store.js";
import {$, el, icon, swatch} from "./dom.js";
import {t, seatName, seatColour} from "./i18n.js";
import {act, isSending, seatControl} from "./connection.js";
import {label, extrasOf, offBoard, ON_MAP} from "./targets.js";
import {decisionName} from "./windows.js";
import {hintParts, markHint, tableKind} from "./hint.js";
import {clockNode} from "./clock.js";

const me = () => store.app.seat >= 0 ? store.view.state.players[store.app.seat] : null;
export const eliminated = () => { const p = me(); return !!(p && p.eliminated); };
// A seat's controls are gone once the game is over or the seat is out of it.
export const playing = () => store.app.mode === "play" && !store.view.ending && !eliminated();

export function renderTop() {
  const view = store.view, world = store.world;
  $("round").textContent = t("ui.round_n", {n: view.round});
  $("phases").replaceChildren(...world.phases.map((p, i) =>
    el("li", {class: i + 1 === view.phase ? "current" : "", "aria-current": i + 1 === view.phase ? "step" : null,
              title: t("phase." + p)}, t("phase." + p))));
  // whom the game waits for, each with the clock of his decision; a seat a bot plays says so
  const botPlays = (seat) => view.seats[seat].away || view.seats[seat].kind === "bot";
  const waiting = view.waiting_for.map((seat, i) => [i ? ", " : "", swatch(seatColour(seat)), seatName(seat),
    view.seats[seat].away ? ` (${t("ui.bot_plays")})` : "", clockNode(seat)]);
  const mine = playing() && view.waiting_for.includes(store.app.seat);
  const myBot = mine && botPlays(store.app.seat);
  $("waiting").replaceChildren(...(view.ending ? [t("ui.game_over")]
    : myBot ? [t("ui.bot_plays_for_you")]
    : mine ? [t("ui.your_turn"), clockNode(store.app.seat)]
    : waiting.length ? [`${t("ui.waiting_for")}: `, ...waiting.flat()] : []));
  $("waiting").title = $("waiting").textContent;
  $("waiting").classList.toggle("mine", mine && !myBot);
  $("waiting").classList.toggle("bot", myBot);
  renderWrath();
  const manual = /** @type {HTMLAnchorElement} */ ($("manual-link"));
  manual.href = `/manual/${store.app.lang}/${view.manual.phase}`;
  if (!manual.firstChild) manual.append(icon("book"), el("span", {class: "label"}, t("ui.manual")));
  const sound = $("sound");
  sound.replaceChildren(icon(store.sound ? "sound" : "mute"));
  sound.setAttribute("aria-pressed", String(store.sound));
  const control = $("seat-control");
  control.hidden = !playing() || Boolean(view.sanction);  // a sanctioned account's seat is not taken back
  if (!control.hidden) {
    const away = view.seats[store.app.seat].away;
    control.textContent = away ? t("ui.take_back") : t("ui.leave_seat");
    control.dataset.away = away ? "1" : "0";
  }
  const bell = $("bell");
  if (!bell.querySelector("svg")) bell.prepend(icon("bell"));
  const unread = store.notes.filter((n) => n.id > readMark()).length;
  $("unread").textContent = unread ? String(unread) : "";
}

// The Wrath of God: a cup that fills toward the threshold (the level slides when it rises).
function renderWrath() {
  const box = $("wrath");
  const level = Math.min(store.view.state.wrath, store.world.wrath_threshold);
  let fill = /** @type {HTMLElement} */ (box.querySelector(".cup-fill"));
  if (!fill) {
    const cup = el("span", {class: "cup", "aria-hidden": "true"}, fill = el("span", {class: "cup-fill"}));
    box.replaceChildren(cup, el("span", {class: "wrath-text"}, el("span", {class: "wrath-word"}), " ", el("span", {class: "wrath-count"})));
  }
  fill.style.height = `${100 * level / store.world.wrath_threshold}%`;
  // the word gives way on a phone; the count (x/13) always shows
  box.querySelector(".wrath-word").textContent = t("ui.wrath");
  box.querySelector(".wrath-count").textContent = `${store.view.state.wrath}/${store.world.wrath_threshold}`;
  box.title = t("ui.wrath_meter");
}

export const readKey = () => `jk-read-${store.app.gameId}-${store.app.seat}`;
export const readMark = () => Number(localStorage.getItem(readKey()) ?? -1);

let lastCoins = null;
export function renderMe() {
  const box = $("me");
  const p = me();
  if (!p || store.app.mode !== "play" || p.eliminated) {  // out of the game: nothing of a seat to show
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const score = store.view.scores[String(store.app.seat)];
  const hand = Array.isArray(p.hand) ? p.hand : [];
  const cards = Object.fromEntries(store.protocol.cards.map((c) => [c.name, c]));
  const coins = el("span", {class: "coins", dataset: {coins: p.coins}}, icon("tax"), ` ${p.coins}`);
  box.replaceChildren(
    el("h3", {}, swatch(seatColour(store.app.seat)), `${seatName(store.app.seat)} (${t("ui.you")})`),
    el("p", {class: "me-line"}, coins, " · ", el("span", {class: "my-score"}, `${t("ui.score")}: ${score.total}`)),
    el("div", {class: "hand", "aria-label": t("ui.hand")}, el("span", {class: "muted"}, t("ui.hand") + ":"),
      ...hand.map((c) => el("span", {class: "card-chip", title: t("card_help." + c), tabindex: "0"},
        icon(cards[c] ? cards[c].icon : "card"), t("card." + c)))));
  if (lastCoins !== null && p.coins > lastCoins) floatGain(coins, p.coins - lastCoins);
  lastCoins = p.coins;
}

// "+3": income and plunder rise from the coins for a moment.
function floatGain(anchor, gain) {
  const node = el("span", {class: "gain", "aria-hidden": "true"}, `+${gain}`);
  anchor.append(node);
  node.addEventListener("animationend", () => node.remove());
}

export function renderActions() {
  const box = $("actions");
  const view = store.view;
  if (!playing()) { box.hidden = true; return; }
  box.hidden = false;
  const legal = view.legal_actions;
  const kinds = new Set(view.my_decisions.map((d) => d.kind));
  const parts = [el("h3", {}, t("phase." + view.phase_name))];
  const onMap = view.my_decisions.find((d) => ON_MAP.includes(d.kind));
  if (onMap && !kinds.has("turn")) {  // a decision chosen on the map: said here, the targets lit there
    parts.push(el("p", {class: "on-map", dataset: {kind: onMap.kind}}, el("strong", {}, ...decisionName(onMap.kind))),
      el("p", {class: "on-map-help"}, t("decision_help." + onMap.kind)), el("p", {class: "muted hint-line"}, t("ui.choose_on_map_help")));
    box.replaceChildren(...parts);
    return;
  }
  if (!kinds.has("turn")) {
    parts.push(el("p", {class: "muted"}, legal.length ? t("ui.decision_waiting") : t("ui.nothing_to_do")));
    box.replaceChildren(...parts);
    return;
  }
  const protocol = store.protocol, item = (a) => a.item && protocol.items.find((i) => i.name === a.item);
  const card = (a) => a.card && protocol.cards.find((c) => c.name === a.card);
  const button = (a) => el("button", {type: "button", class: "action " + a.type + (isSending(a) ? " pressed" : ""),
    dataset: {type: a.type}, "aria-busy": isSending(a) ? "true" : null, onclick: (e) => act(a, e.currentTarget)},
    item(a) || card(a) ? icon((item(a) || card(a)).icon) : null, label(a));
  if (store.selected !== null) {
    parts.push(el("p", {class: "selected-general"}, t("ui.general_selected", {general: store.selected})));
    parts.push(...extrasOf(store.selected).map(button));
  } else if (legal.some((a) => a.type === "move")) {
    parts.push(el("p", {class: "muted"}, t("ui.select_general")));
  }
  // What the board cannot name: events to play, cards to buy (no target).
  parts.push(...legal.filter(offBoard).map(button));
  // what a click on the board does now: buy there (Acquisitions) or play a card there (Intrigue)
  if (legal.some((a) => a.type === "buy"))
    parts.push(el("p", {class: "muted hint-line"}, t("ui.click_targets")));
  else if (legal.some((a) => ["play_tax", "play_revolt", "play_assassin", "play_prophet", "play_anointing", "execute", "release"].includes(a.type)))
    parts.push(el("p", {class: "muted hint-line"}, t("ui.click_card_targets")));
  const end = legal.find((a) => a.type === "end_turn");
  const tools = [undoButton()];
  if (end) tools.push(el("button", {type: "button", class: "action end-turn primary" + (isSending(end) ? " pressed" : ""),
    dataset: {type: "end_turn"}, "aria-busy": isSending(end) ? "true" : null,
    onclick: (e) => { const control = e.currentTarget; update({selected: null}); act(end, control); }}, t("ui.end_turn")));
  parts.push(el("div", {class: "turn-tools"}, ...tools));
  parts.push(...hintParts());
  box.replaceChildren(...parts);
  markHint();
}

// Undo (§ 4 Taking back): the seat's last move, troops or purchase, until something hidden is
// revealed or another player acts. The server says when (`view.undo`); Ctrl+Z does the same.
const UNDO = () => ({type: "undo", player: store.app.seat});

function undoButton() {
  const sending = isSending(UNDO());
  return el("button", {type: "button", class: "action undo" + (sending ? " pressed" : ""), dataset: {action: "undo", type: "undo"},
    disabled: store.view.undo ? null : true, "aria-busy": sending ? "true" : null,
    title: t("ui.undo_help"), "aria-keyshortcuts": "Control+Z", onclick: (e) => takeBack(e.currentTarget)}, icon("undo"), t("ui.undo"));
}

function takeBack(control) {
  if (!playing() || !store.view.undo) return;
  act(UNDO(), control || document.querySelector("#actions [data-action='undo']"));
}

// Ctrl+Z (⌘Z) takes back, unless the reader is typing (the chat keeps its own undo).
function onUndoKey(event) {
  if (!(event.ctrlKey || event.metaKey) || event.shiftKey || event.altKey || event.key.toLowerCase() !== "z") return;
  if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable='true']")) return;
  event.preventDefault();
  takeBack(null);
}

// One number of a player's board with its icon (the same as the final table's), its word in
// the tooltip and for screen readers.
const stat = (name, iconName, key, value) => el("span", {class: "stat", dataset: {stat: name}, title: t(key),
  "aria-label": `${t(key)} ${value}`}, icon(iconName), String(value));

export function renderPlayers() {
  const view = store.view, st = view.state;
  // Each living player's board; an eliminated player's board leaves the panel (§ 14, § 15),
  // one line below still says who is out and since when.
  const rows = st.players.filter((p) => !p.eliminated).map((p) => {
    const generals = Object.values(st.generals).filter((g) => g.owner === p.seat);
    const sc = view.scores[String(p.seat)];  // the engine's numbers, as the final table shows them
    const active = view.waiting_for.includes(p.seat);
    const marks = [];
    if (generals.some((g) => g.id === st.king)) marks.push(icon("crown"));
    if (st.titles.some((tt) => tt.holder !== null && generals.some((g) => g.id === tt.holder))) marks.push(icon("seal"));
    const row = el("div", {class: "player-board", dataset: {seat: p.seat, active: String(active)},
                           "aria-current": active ? "true" : null},
      el("div", {class: "player-name"}, swatch(seatColour(p.seat)),
        el("strong", {}, seatName(p.seat)), p.seat === store.app.seat ? ` (${t("ui.you")})` : "",
        view.seats[p.seat].away ? ` · ${t("ui.bot_plays")}` : "", ...marks,
        active ? el("span", {class: "turn-badge"}, icon("turn"), t("ui.acting")) : null, active ? clockNode(p.seat) : null),
      el("div", {class: "stats"}, el("span", {class: "score", dataset: {stat: "score"}}, `${t("ui.score")} ${sc.total}`),
        stat("coins", "tax", "ui.coins", p.coins), stat("hand", "card", "ui.hand", view.hand_sizes[p.seat]),
        stat("settlements", "development", "ui.settlements", sc.settlements), stat("generals", "general", "ui.generals", generals.length)));
    row.style.borderLeftColor = seatColour(p.seat);
    return row;
  });
  const out = st.players.filter((p) => p.eliminated).map((p) => el("li", {dataset: {outSeat: p.seat}},
    swatch(seatColour(p.seat)), seatName(p.seat), " — ", t("ui.eliminated_in_round", {round: p.eliminated_round})));
  $("players").replaceChildren(el("h3", {}, t("ui.players")), tableKind(), ...rows,
    ...(out.length ? [el("ul", {class: "eliminated-list muted"}, ...out)] : []));
}

export function renderEvents() {
  const st = store.view.state;
  const cards = Object.fromEntries(store.protocol.cards.map((c) => [c.name, c]));
  const box = $("events");
  const landed = st.events_landed.map((e) => el("div", {class: "event", title: t("card_help." + e.card)},
    icon(cards[e.card]?.icon || "card"), `${t("card." + e.card)} → ${t("terrain." + e.terrain)}`));
  const coming = st.events_area.map((c) => el("div", {class: "event pending", title: t("card_help." + c)},
    icon(cards[c]?.icon || "card"), `${t("card." + c)} (${t("ui.next_round")})`));
  box.hidden = !landed.length && !coming.length && !st.discard.length;
  box.replaceChildren(el("h3", {}, t("ui.events_area")), ...landed, ...coming, cardPiles(cards));
}

// The deck's size and the discard pile, face up (§ 6): every card in it, with how many, for
// anyone to count which cards may still come.
function cardPiles(cards) {
  const st = store.view.state;
  const counts = new Map();
  for (const c of st.discard) counts.set(c, (counts.get(c) || 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || t("card." + a[0]).localeCompare(t("card." + b[0])));
  return el("details", {class: "card-piles", dataset: {discard: st.discard.length}},
    el("summary", {}, t("ui.deck_size", {n: store.view.deck_size}), " · ", t("ui.discard_pile_size", {n: st.discard.length})),
    el("ul", {class: "discard-pile", "aria-label": t("ui.discard_pile")}, ...sorted.map(([card, n]) =>
      el("li", {class: "event", dataset: {card}, title: t("card_help." + card)}, icon(cards[card]?.icon || "card"),
        n > 1 ? `${t("card." + card)} ×${n}` : t("card." + card)))));
}

export function initPanels() {
  document.addEventListener("keydown", onUndoKey);
  $("seat-control").addEventListener("click", () => seatControl(store.view.seats[store.app.seat].away));
  $("sound").addEventListener("click", () => {
    localStorage.setItem("jk-sound", store.sound ? "off" : "on");
    update({sound: !store.sound});
  });
  /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#langs .lang")).forEach((b) => b.addEventListener("click", () => {
    const url = new URL(location.href);
    url.searchParams.set("lang", b.dataset.lang);
    location.href = url.toString();
  }));
}
