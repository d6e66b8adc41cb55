// Table talk (server/community/chat.py): a tab per conversation (the table, the spectators' channel, each
// private conversation), unread counts, the sender's tribe colour, settlement and general
// names that light up on the board. Every text is put in as text (never as HTML). The bell
// never fills with chat. Read marks are the reader's own, kept by this browser; so are mutes of a
// guest's seat, while a player signed in mutes an account on the server (server/community/moderation.py):
// its messages then never reach this reader's screens, at any table. A message of another player
// may be reported to the operators, with a reason.
import {store} from "./store.js";
import {$, el, swatch, toast} from "./dom.js";
import {t, seatName, seatColour, placeName} from "./i18n.js";

const TABLE = "table", SPECTATORS = "spectators", PRIVATE = "seats:";
let messages = [];          // every message received, by id
let tab = TABLE;
let opened = [];            // private channels opened here before their first message
let shown = "";
let sending = false;
const chosen = new Set();   // the seats ticked for a new private conversation
let accountMutes = new Set(); // the names of the accounts this reader muted (GET /api/me/mutes)
let signedIn = false;         // the reader is an account's: he mutes accounts and reports
let members = new Set();      // the seats of this table bound to an account

const mySeat = () => store.app.seat;
const playing = () => store.app.mode === "play";
const watching = () => store.app.mode === "watch";
const key = (what) => `jk-chat-${what}-${store.app.gameId}-${store.app.seat}`;
const load = (what, fallback) => { try { return JSON.parse(localStorage.getItem(key(what))) ?? fallback; } catch { return fallback; } };
const save = (what, value) => localStorage.setItem(key(what), JSON.stringify(value));

export const parties = (channel) => channel.startsWith(PRIVATE) ? channel.slice(PRIVATE.length).split(".").map(Number) : null;
export const privateChannel = (seats) => PRIVATE + [...new Set(seats)].sort((a, b) => a - b).join(".");

// A message from the socket: a history replaces what is held, new messages are added (by id).
export function receiveChat(message) {
  const byId = new Map((message.history ? [] : messages).map((m) => [m.id, m]));
  for (const m of message.messages) byId.set(m.id, m);
  messages = [...byId.values()].sort((a, b) => a.id - b.id);
  renderChat();
  document.dispatchEvent(new Event("jk-chat"));  // the phone's tab counts the new ones (layout.js)
}

const muted = () => new Set(load("mute", []));
const isMuted = (s) => muted().has(s.seat) || accountMutes.has(s.name);
const lang = () => store.app.lang;

function setAccountMutes(data) {
  accountMutes = new Set((data.mutes || []).map((m) => m.name));
  if (data.members) { members = new Set(data.members); signedIn = !!data.signed_in; }
  shown = "";
  renderChat();
}

async function loadAccountMutes() {
  const response = await fetch(`/api/me/mutes?game=${store.app.gameId}`, {credentials: "same-origin"}).catch(() => null);
  if (response && response.ok) setAccountMutes(await response.json());
}

// A seat of an account is muted on the server (its player signed in); a guest's seat, or a reader
// who is no account's, in this browser.
async function toggleMute(s) {
  const on = !isMuted(s);
  const local = () => { const m = muted(); if (on) m.add(s.seat); else m.delete(s.seat); save("mute", [...m]); };
  const server = on ? signedIn && members.has(s.seat) : accountMutes.has(s.name);
  const response = server && await fetch(on ? `/api/me/mutes?lang=${lang()}` : `/api/me/mutes/${encodeURIComponent(s.name)}?lang=${lang()}`, {
    method: on ? "POST" : "DELETE", headers: {"Content-Type": "application/json"}, credentials: "same-origin",
    body: on ? JSON.stringify({game: store.app.gameId, seat: s.seat}) : undefined}).catch(() => null);
  if (response && response.ok) {
    if (!on) local();
    setAccountMutes(await response.json());
    return;
  }
  local();
  shown = "";
  renderChat();
}
const hideSpectators = () => playing() && load("hide-spectators", false);

function senderName(m) {
  if (m.sender < 0) return t("ui.chat_spectator", {tag: m.name});
  return (store.view && store.view.seats[m.sender] && store.view.seats[m.sender].name) || m.name;
}

function channelLabel(channel) {
  if (channel === TABLE) return t("ui.chat_table");
  if (channel === SPECTATORS) return t("ui.chat_spectators");
  return parties(channel).filter((s) => s !== mySeat()).map(seatName).join(", ");
}

function channels() {
  const out = [TABLE];
  if (!hideSpectators()) out.push(SPECTATORS);
  const privates = new Set(opened);
  for (const m of messages) if (m.channel.startsWith(PRIVATE)) privates.add(m.channel);
  out.push(...[...privates].sort());
  if (!out.includes(tab)) tab = TABLE;
  return out;
}

const visible = (channel) => {
  const mute = muted();
  return messages.filter((m) => m.channel === channel && !mute.has(m.sender));
};

function unread(channel) {
  const mark = load("read", {})[channel] ?? 0;
  return visible(channel).filter((m) => m.id > mark && m.sender !== mySeat()).length;
}

function markRead(channel) {
  const list = visible(channel);
  if (!list.length) return;
  const reads = load("read", {});
  if ((reads[channel] ?? 0) >= list[list.length - 1].id) return;
  reads[channel] = list[list.length - 1].id;
  save("read", reads);
}

// Settlement names (as the map and the reader's language write them) and generals ("#12")
// become buttons that light the piece up on the board.
function references() {
  if (!store.world) return null;
  const names = new Map();
  for (const s of store.world.settlements) { names.set(s.name.toLowerCase(), s.name); names.set(placeName(s.name).toLowerCase(), s.name); }
  const words = [...names.keys()].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return {names, pattern: new RegExp(`(#\\d+|\\b(?:${words.join("|")})\\b)`, "giu")};
}

let refs = null;
function withReferences(text) {
  refs = refs || references();
  if (!refs) return [text];
  const out = [];
  let last = 0;
  for (const match of text.matchAll(refs.pattern)) {
    const word = match[0];
    let node = null;
    if (word.startsWith("#")) {
      const id = word.slice(1);
      if (store.view && store.view.state.generals[id]) node = el("button", {type: "button", class: "chat-ref", dataset: {general: id}}, word);
    } else {
      const name = refs.names.get(word.toLowerCase());
      if (name) node = el("button", {type: "button", class: "chat-ref", dataset: {settlement: name}}, word);
    }
    if (!node) continue;
    out.push(text.slice(last, match.index), node);
    last = match.index + word.length;
  }
  out.push(text.slice(last));
  return out;
}

function highlight(ref) {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  const selector = ref.dataset.general !== undefined ? `[data-general="${CSS.escape(ref.dataset.general)}"]`
    : `[data-settlement="${CSS.escape(ref.dataset.settlement)}"]`;
  const node = /** @type {SVGGraphicsElement & {chatTimer?: number}} */ (svg.querySelector(selector));
  if (!node) return;
  node.classList.remove("chat-highlight");
  void node.getBBox();  // restart the animation
  node.classList.add("chat-highlight");
  clearTimeout(node.chatTimer);
  node.chatTimer = setTimeout(() => node.classList.remove("chat-highlight"), 2600);
}

// --- reporting a message to the operators, with a reason ----------------------------------------

const canReport = (m) => playing() && signedIn && m.sender >= 0 && m.sender !== mySeat();

// `m`: a message, or a player's seat ({seat, name}) reported as a whole
function openReport(m) {
  const box = $("chat-report");
  const reason = el("textarea", {class: "chat-text", rows: "2", maxlength: "500", required: true, dataset: {reportReason: "1"},
    "aria-label": t("ui.chat_report_reason"), placeholder: t("ui.chat_report_reason")});
  box.replaceChildren(
    el("p", {class: "chat-report-quote"}, m.text === undefined ? el("b", {}, t("ui.chat_report_player", {player: m.name}))
      : [el("b", {}, senderName(m) + ": "), m.text]),
    reason,
    el("div", {class: "chat-row"},
      el("button", {type: "submit", class: "chat-send", dataset: {reportSend: "1"}}, t("ui.chat_report_send")),
      el("button", {type: "button", class: "chat-toggle", onclick: closeReport}, t("ui.chat_cancel"))));
  box.dataset.target = JSON.stringify(m.text === undefined ? {seat: m.seat} : {message: m.id});
  box.hidden = false;
  reason.focus();
}

function closeReport() {
  const box = $("chat-report");
  box.hidden = true;
  box.replaceChildren();
}

async function sendReport() {
  const box = $("chat-report");
  const reason = /** @type {HTMLTextAreaElement} */ (box.querySelector("textarea")).value;
  const response = await fetch(`/api/reports?lang=${lang()}`, {method: "POST", headers: {"Content-Type": "application/json"},
    credentials: "same-origin", body: JSON.stringify({game: store.app.gameId, ...JSON.parse(box.dataset.target), reason})})
    .catch((err) => ({ok: false, statusText: String(err), json: async () => ({})}));
  if (!response.ok) {
    const data = await response.json().catch(() => ({}));
    showError(data.text || data.message || response.statusText);
    return;
  }
  closeReport();
  showError("");
  toast(t("ui.chat_reported"));
}

function messageNode(m) {
  const node = el("li", {class: "chat-message" + (m.sender === mySeat() ? " mine" : ""),
                         dataset: {chatMessage: m.id, sender: m.sender, channel: m.channel}},
    canReport(m) ? el("button", {type: "button", class: "chat-report-button", dataset: {report: m.id},
      title: t("ui.chat_report_title"), "aria-label": t("ui.chat_report_title"), onclick: () => openReport(m)}, "⚑") : null,
    el("span", {class: "chat-sender"}, m.sender >= 0 ? swatch(seatColour(m.sender)) : null, senderName(m)),
    el("span", {class: "chat-body"}, ...m.text.split("\n").flatMap((line, i) => i ? [el("br", {}), ...withReferences(line)] : withReferences(line))));
  if (m.sender >= 0) node.style.borderLeftColor = seatColour(m.sender);
  return node;
}

function canWrite(channel) {
  if (store.app.mode === "replay") return false;
  if (watching()) return channel === SPECTATORS;
  if (!playing() || !store.view) return false;
  return !store.view.seats[mySeat()].chat_closed;
}

// --- the settings: mutes, the spectators' channel, a new private conversation, the host's closing

function settings() {
  const view = store.view;
  const others = view.seats.filter((s) => s.seat !== mySeat());
  const parts = [el("summary", {}, t(playing() ? "ui.chat_settings" : "ui.chat_mute_players"))];
  if (playing()) {
    const humans = others.filter((s) => s.kind === "human");
    if (humans.length) {
      const boxes = humans.map((s) => el("label", {class: "chat-pick"},
        el("input", {type: "checkbox", checked: chosen.has(s.seat), dataset: {seat: s.seat}, onchange: (e) => { if (e.target.checked) chosen.add(s.seat); else chosen.delete(s.seat); }}),
        swatch(seatColour(s.seat)), seatName(s.seat)));
      parts.push(el("div", {class: "chat-row"}, el("span", {class: "muted"}, t("ui.chat_private_to")), ...boxes,
        el("button", {type: "button", class: "chat-start", dataset: {chatStart: "1"}, onclick: () => {
          if (!chosen.size) return;
          const channel = privateChannel([mySeat(), ...chosen]);
          if (!opened.includes(channel)) opened.push(channel);
          chosen.clear(); tab = channel; shown = ""; renderChat(); $("chat-text").focus();
        }}, t("ui.chat_start"))));
    }
  }
  const writers = others.filter((s) => s.kind === "human");
  if (writers.length) {
    parts.push(el("div", {class: "chat-row"}, el("span", {class: "muted"}, t("ui.chat_mute")), ...writers.map((s) =>
      el("button", {type: "button", class: "chat-toggle", "aria-pressed": String(isMuted(s)), dataset: {mute: s.seat},
        onclick: () => toggleMute(s)},
        swatch(seatColour(s.seat)), seatName(s.seat)))));
    if (playing()) parts.push(el("p", {class: "muted chat-hint"}, t("ui.chat_mute_everywhere")));
    const reportable = writers.filter((s) => signedIn && playing() && members.has(s.seat));
    if (reportable.length) {
      parts.push(el("div", {class: "chat-row"}, el("span", {class: "muted"}, t("ui.chat_report_a_player")), ...reportable.map((s) =>
        el("button", {type: "button", class: "chat-toggle", dataset: {reportSeat: s.seat}, onclick: () => openReport({seat: s.seat, name: seatName(s.seat)})},
          swatch(seatColour(s.seat)), seatName(s.seat)))));
    }
  }
  if (playing()) {
    parts.push(el("div", {class: "chat-row"}, el("button", {type: "button", class: "chat-toggle", "aria-pressed": String(hideSpectators()),
      dataset: {hideSpectators: "1"}, onclick: () => { save("hide-spectators", !hideSpectators()); shown = ""; renderChat(); }},
      t("ui.chat_hide_spectators"))));
    if (isHost()) {
      parts.push(el("div", {class: "chat-row"}, el("span", {class: "muted"}, t("ui.chat_host_close")), ...writers.map((s) =>
        el("button", {type: "button", class: "chat-toggle", "aria-pressed": String(!!s.chat_closed), dataset: {closeChat: s.seat},
          onclick: () => hostClose(s.seat, !s.chat_closed)}, swatch(seatColour(s.seat)), seatName(s.seat)))));
    }
  }
  return parts;
}

// (the host's rights are the server's to check; the buttons only ask)
const isHost = () => playing() && !!store.view.seats[mySeat()].host;

async function hostClose(seat, close) {
  const response = await fetch(`/api/games/${store.app.gameId}/chat/seats/${seat}/${close ? "close" : "open"}?lang=${store.app.lang}`,
    {method: "POST", credentials: "same-origin"});
  if (!response.ok) {
    const data = await response.json().catch(() => ({}));
    toast(data.text || data.message || response.statusText);
  }
}

// --- sending: stored before it is acknowledged; a busy server is asked again with the same id

function spectatorKey() {
  let k = localStorage.getItem("jk-spectator-key");
  if (!k) { k = crypto.randomUUID(); localStorage.setItem("jk-spectator-key", k); }
  return k;
}

function showError(text) {
  const box = $("chat-error");
  box.textContent = text || "";
  box.hidden = !text;
  const list = $("chat-list");
  list.scrollTop = list.scrollHeight;  // the list just lost (or gained) room: keep the newest in sight
}

async function send() {
  const box = /** @type {HTMLTextAreaElement} */ ($("chat-text"));
  const text = box.value;
  if (!text.trim() || sending) return;
  const {gameId, lang} = store.app;
  const clientId = crypto.randomUUID();
  let url, body;
  if (watching()) {
    url = `/api/games/${gameId}/chat/spectate?lang=${lang}`;
    body = {text, key: spectatorKey(), client_message_id: clientId};
  } else {
    const members = parties(tab);
    url = `/api/games/${gameId}/chat?lang=${lang}`;
    body = members ? {channel: "private", to: members.filter((s) => s !== mySeat()), text, client_message_id: clientId}
      : {channel: tab, text, client_message_id: clientId};
  }
  sending = true;
  try {
    for (let attempt = 0; attempt < 4; attempt++) {
      const response = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
        credentials: "same-origin", body: JSON.stringify(body)});
      if (response.ok) {
        box.value = "";
        showError("");
        return;
      }
      const data = await response.json().catch(() => ({}));
      if (response.status === 503 && attempt < 3) {
        await new Promise((r) => setTimeout(r, 1000 * Number(response.headers.get("retry-after") || 1)));
        continue;
      }
      showError(data.text || data.message || response.statusText);
      return;
    }
  } catch (err) {
    showError(String(err));
  } finally {
    sending = false;
  }
}

export function initChat() {
  const panel = $("chat");
  const text = el("textarea", {id: "chat-text", class: "chat-text", rows: "2", maxlength: "600", "aria-label": t("ui.chat_write")});
  text.addEventListener("keydown", (e) => { if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); send(); } });
  const form = el("form", {id: "chat-form", class: "chat-form", onsubmit: (e) => { e.preventDefault(); send(); }},
    text, el("button", {type: "submit", class: "chat-send"}, t("ui.chat_send")));
  panel.replaceChildren(
    el("h3", {}, t("ui.chat")),
    el("div", {id: "chat-tabs", class: "chat-tabs", role: "tablist"}),
    el("details", {id: "chat-settings", class: "chat-settings", ontoggle: (e) => { if (e.target.open && playing()) loadAccountMutes(); }}),
    el("ol", {id: "chat-list", class: "chat-list", "aria-live": "polite"}),
    el("form", {id: "chat-report", class: "chat-report", hidden: true, "aria-label": t("ui.chat_report_title"),
      onsubmit: (e) => { e.preventDefault(); sendReport(); }}),
    el("p", {id: "chat-note", class: "muted chat-note", hidden: true}),
    el("p", {id: "chat-error", class: "chat-error", role: "alert", hidden: true, dataset: {chatError: "1"}}),
    form);
  panel.hidden = false;
  panel.addEventListener("click", (e) => { const ref = /** @type {Element} */ (e.target).closest(".chat-ref"); if (ref) highlight(ref); });
  if (playing()) loadAccountMutes();
  if (store.app.mode === "replay") {
    fetch(`/api/games/${store.app.gameId}/chat/public`).then((r) => r.json()).then((data) => receiveChat({history: true, messages: data.messages}));
  }
}

// How many messages this reader can read (their tab on a phone counts the new ones).
export const messageCount = () => messages.filter((m) => !muted().has(m.sender)).length;

export function renderChat() {
  if (!store.view || !store.world) return;
  const list = channels();
  const writable = canWrite(tab);
  const view = store.view;
  const signature = JSON.stringify([messages.length && messages[messages.length - 1].id, messages.length, tab, list, writable,
    view.seats.map((s) => [s.name, s.chat_closed]), [...muted()], [...accountMutes], signedIn, [...members], hideSpectators(), list.map(unread)]);
  if (signature === shown) return;
  shown = signature;
  $("chat-tabs").replaceChildren(...list.map((channel) => {
    const n = channel === tab ? 0 : unread(channel);
    return el("button", {type: "button", role: "tab", class: "chat-tab" + (channel === tab ? " current" : ""),
      "aria-selected": String(channel === tab), dataset: {chatTab: channel, unread: n},
      onclick: () => { tab = channel; shown = ""; renderChat(); }},
      channelLabel(channel), n ? el("span", {class: "chat-unread"}, String(n)) : null);
  }));
  const details = /** @type {HTMLDetailsElement} */ ($("chat-settings"));
  const open = details.open;
  details.replaceChildren(...settings());
  details.open = open;
  const box = $("chat-list");
  // the list follows the newest message unless the reader scrolled up (a new tab, or one's own
  // message, goes to the newest)
  const last = messages[messages.length - 1];
  const pinned = box.scrollHeight - box.scrollTop - box.clientHeight < 40 || box.dataset.tab !== tab
    || (last && last.sender === mySeat() && String(last.id) !== box.dataset.last);
  box.dataset.tab = tab;
  box.dataset.last = last ? String(last.id) : "";
  const items = visible(tab).map(messageNode);
  const hidden = messages.filter((m) => m.channel === tab).length - items.length;
  box.replaceChildren(...(items.length ? items : [el("li", {class: "muted chat-empty"}, t("ui.chat_empty"))]));
  if (pinned) box.scrollTop = box.scrollHeight;
  markRead(tab);
  const note = $("chat-note");
  const closed = playing() && view.seats[mySeat()].chat_closed;
  note.textContent = closed ? t("ui.chat_closed_notice") : hidden ? t("ui.chat_hidden_n", {n: hidden})
    : watching() && tab === TABLE ? t("ui.chat_read_only") : "";
  note.hidden = !note.textContent;
  $("chat-form").hidden = !writable;
  /** @type {HTMLTextAreaElement} */ ($("chat-text")).placeholder = t("ui.chat_placeholder", {channel: channelLabel(tab)});
}
