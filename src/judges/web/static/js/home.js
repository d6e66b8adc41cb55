// The home page: the lobby (open tables to join, games to watch or replay) and the form that
// creates a game and shows one invitation link per human seat.
import {$, el, ago} from "./dom.js";

const home = $("home").dataset;
const seats = $("seats");
const row = /** @type {HTMLTemplateElement} */ ($("seat-row"));
/** A form control of the page, or of one seat's row. @returns {HTMLInputElement} */
const input = (node, selector) => node.querySelector(selector);
let strings = {};
const t = (key, params) => {
  let text = strings[key] ?? key;
  for (const [k, v] of Object.entries(params || {})) text = text.split("{" + k + "}").join(String(v));
  return text;
};

function addSeat(kind) {
  if (seats.children.length >= Number(home.maxPlayers)) return;
  const node = /** @type {Element} */ (row.content.firstElementChild.cloneNode(true));
  node.querySelector(".seat-label").textContent = home.seatWord + " " + (seats.children.length + 1);
  input(node, ".seat-kind").value = kind;
  seats.append(node);
}
["human", "bot:greedy", "bot:greedy", "bot:greedy"].forEach(addSeat);
$("add-seat").addEventListener("click", () => addSeat("bot:greedy"));
$("remove-seat").addEventListener("click", () => { if (seats.children.length > Number(home.minPlayers)) seats.lastElementChild.remove(); });

$("new-game").addEventListener("submit", async (event) => {
  event.preventDefault();
  const spec = {
    wave_pairs: Number(input(document, "#wave-pairs").value),
    turn_timer: Number(input(document, "#pace").value) ? null : Number(input(document, "#turn-timer").value) || null,
    pace: Number(input(document, "#pace").value) ? {hours: Number(input(document, "#pace").value)} : null,  // a game over days
    takeover_bot: input(document, "#takeover-bot").value,
    hints: input(document, "#hints").value === "on",  // decided now: a table with hints is not rated
    seats: [...seats.children].map((node) => {
      const [kind, bot] = input(node, ".seat-kind").value.split(":");
      return {kind: kind === "open" ? "human" : kind, open: kind === "open", bot: bot || null,
              name: input(node, ".seat-name").value || null, language: input(node, ".seat-lang").value};
    }),
  };
  const response = await fetch("/api/games", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(spec)});
  const data = await response.json();
  if (!response.ok) { $("links").hidden = false; $("link-list").replaceChildren(el("li", {class: "error"}, data.text || data.message)); return; }
  // The creator's own seat (its credential came back as this game's cookie) and one invitation
  // per other human seat, to send to its player: opening one takes the seat.
  $("link-list").replaceChildren(
    el("li", {}, el("a", {href: data.link, class: "own-seat"}, data.seats[data.seat].name + " — " + home.yourSeat)),
    ...data.seats.filter((s) => s.invitation).map((s) =>
      el("li", {}, el("a", {href: s.invitation, class: "seat-link"}, s.name + " — " + home.open), el("code", {}, s.invitation))));
  $("links").hidden = false;
  loadLobby();
});

// Hints or a rating, as the table was created (an older table without the choice allowed hints).
const kind = (g) => el("td", {class: "table-kind", dataset: {tableKind: g.hints === false ? "rated" : "hints"}},
  t(g.hints === false ? "ui.table_rated" : "ui.table_hints"));

// A lobby's row tells its table from the others: its number, where it is (its game's words for
// its round and phase, in the reader's language: "round 3, Movement"), how long ago it
// began, and who sits where: an account's name with its rating, a guest's name, a bot, a free seat.
function player(s) {
  if (s.open) return el("span", {class: "lobby-seat free"}, t("ui.free_seat"));
  return el("span", {class: "lobby-seat", dataset: {kind: s.kind}},
    s.account ?? s.name,
    s.rating !== undefined ? el("span", {class: "rating", title: t("ui.rating")}, ` ${s.rating}`) : null,
    s.kind === "bot" ? el("span", {class: "muted"}, ` · ${t("ui.bot")}`) : null);
}

function table(g) {
  const now = Date.now() / 1000;
  const when = t("ui.table_started", {time: ago(home.lang, now - g.created)});
  return el("td", {class: "lobby-where"}, el("strong", {class: "table-number"}, t("ui.table_number", {n: g.table})),
    el("br"), el("span", {class: "muted"}, [g.where, when].filter(Boolean).join(" · ")));
}

const players = (g) => el("td", {class: "lobby-players"}, ...g.seats.flatMap((s, i) => i ? [", ", player(s)] : [player(s)]));

async function join(id, name) {
  // the seat's credential comes back as the game's cookie; the game's page reads it
  const response = await fetch(`/api/games/${id}/join`, {method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify({name: name || null})});
  const data = await response.json();
  if (response.ok) { location.href = data.link; return; }
  const row = document.querySelector(`[data-open-game='${id}']`);
  const error = /** @type {HTMLElement | null} */ (row?.querySelector(".join-error"));
  if (error) { error.textContent = data.text || data.message; error.hidden = false; } else loadLobby();
}

// Signed in, a player sits under his account's name at once; a guest first says his name.
function joinCell(g) {
  if (document.body.dataset.account) {
    return el("td", {}, el("button", {type: "button", class: "join primary", onclick: () => join(g.id)}, t("ui.join_game")));
  }
  const form = el("form", {class: "join-as", onsubmit: (e) => {
    e.preventDefault();
    join(g.id, /** @type {HTMLInputElement} */ (form.querySelector("input")).value.trim());
  }},
    el("input", {name: "name", required: true, maxlength: 40, placeholder: t("ui.your_name"), "aria-label": t("ui.your_name"),
      autocomplete: "nickname"}),
    el("button", {type: "submit", class: "join primary"}, t("ui.join_game")),
    el("span", {class: "join-error error", role: "alert", hidden: true}));
  return el("td", {}, form);
}

async function loadLobby() {
  const lang = home.lang;
  const data = await fetch(`/api/lobby?lang=${lang}`).then((r) => r.json());
  // a guest typing his name in a row keeps it: the lobby waits for the next round
  if (document.activeElement?.closest?.("#open-games form")) return;
  $("open-games").replaceChildren(...data.open.map((g) => el("tr", {dataset: {openGame: g.id}},
    table(g), players(g), kind(g), joinCell(g))));
  $("no-open").hidden = data.open.length > 0;
  $("running-games").replaceChildren(...data.running.map((g) => el("tr", {dataset: {runningGame: g.id}},
    table(g), players(g), kind(g), el("td", {}, el("a", {href: `/games/${g.id}/watch?lang=${lang}`, class: "watch"}, t("ui.watch"))))));
  $("finished-games").replaceChildren(...data.finished.slice(0, 10).map((g) => el("tr", {dataset: {finishedGame: g.id}},
    table(g), players(g), kind(g), el("td", {}, el("a", {href: `/games/${g.id}/replay?lang=${lang}`, class: "replay"}, t("ui.watch_replay"))))));
}

fetch(`/api/i18n/${home.lang}`).then((r) => r.json()).then((s) => {
  strings = s;
  loadLobby();
  setInterval(loadLobby, 5000);
  document.addEventListener("account", () => loadLobby());  // signed in or out: Join asks a name or not
});
