// Decision windows (votes, appointments, foresights, plunder...), the bell, the banner that
// says the game is over or the seat is out, and the final table.
import {store, update} from "./store.js";
import {$, el, icon, swatch} from "./dom.js";
import {t, seatName, seatColour, placeName, capitalised} from "./i18n.js";
import {act, isSending} from "./connection.js";
import {label, ON_MAP} from "./targets.js";
import {eliminated, playing, readKey} from "./panels.js";

const windowKinds = () => store.protocol.decisions.filter((d) => d.opens_window).map((d) => d.name);
const answeredBy = (kind) => store.protocol.decisions.find((d) => d.name === kind).actions.map((a) => a.type);
const kindIcon = (kind) => store.protocol.decisions.find((d) => d.name === kind)?.icon || "turn";

// A window's name as the catalogs (and the manual) write it, "🗳 Vote", drawn with the icon of
// the sprite instead of the emoji, which not every system draws (a blank box on some): the
// emoji stays in the text (copied, and what the manual names) but takes no room on screen.
const GLYPH = /^(\p{Extended_Pictographic}\uFE0F?)\s*/u;
export function decisionName(kind) {
  const text = t("decision." + kind);
  const m = text.match(GLYPH);
  return [icon(kindIcon(kind)), el("span", {class: "decision-name"},
    m ? el("span", {class: "glyph", "aria-hidden": "true"}, m[0]) : null, m ? text.slice(m[0].length) : text)];
}

// What a candidate of an election judges ("Judge of Naphtali, Asher"): the titles he holds.
function judges(general) {
  const regions = store.view.state.titles.map((title, i) => (title.holder === general ? placeName(store.world.regions[i].name) : null))
    .filter((name) => name !== null);
  return regions.length ? t("ui.judge_of", {region: regions.join(", ")}) : "";
}

// A choice of a window: its words, and for a card (a discard) the card's icon and what it
// does; for a candidate (a vote), his player's colour and what he judges.
function choice(a) {
  const card = a.card && store.protocol.cards.find((c) => c.name === a.card);
  const candidate = a.type === "vote" ? store.view.state.generals[a.candidate] : null;
  const help = card ? t("card_help." + a.card) : candidate ? judges(a.candidate) : "";
  const mark = card ? icon(card.icon) : candidate ? swatch(seatColour(candidate.owner)) : null;
  const button = el("button", {type: "button", class: "action " + a.type + (help ? " with-help" : "") + (isSending(a) ? " pressed" : ""),
    dataset: {type: a.type}, "aria-busy": isSending(a) ? "true" : null,
    onclick: (e) => act(a, e.currentTarget)}, mark, el("span", {class: "choice-label"}, label(a)),
    help ? el("span", {class: "choice-help"}, help) : null);
  if (help) button.title = help;
  return button;
}

// An election's sides: the votes each player holds (§ 10: a title each, a prophet each).
function votesHeld() {
  const votes = store.view.votes || {};
  const seats = Object.keys(votes).map(Number).sort((a, b) => votes[b] - votes[a] || a - b);
  if (!seats.length) return null;
  return el("div", {class: "votes-held", dataset: {panel: "votes"}}, el("strong", {}, `${t("ui.votes")}: `),
    ...seats.map((seat) => el("span", {class: "vote-side", dataset: {seat: String(seat), votes: String(votes[seat])}},
      swatch(seatColour(seat)), seatName(seat), seat === store.app.seat ? ` (${t("ui.you")})` : "", " ", el("strong", {}, String(votes[seat])))));
}

function owedKinds() {
  if (!playing()) return [];
  const kinds = windowKinds();
  return [...new Set(store.view.my_decisions.map((d) => d.kind).filter((k) => kinds.includes(k)))];
}

export function renderBottomBar() {
  $("bottombar").replaceChildren(...owedKinds().map((kind) =>
    el("button", {type: "button", class: "reopen", dataset: {kind}, onclick: () => openWindow(kind)}, ...decisionName(kind))));
  $("bottombar").hidden = !owedKinds().length;
}

function openWindow(kind) {
  store.dismissed.delete(kind);
  update({openKind: kind});
}

export function renderModal() {
  const modal = $("modal");
  const kinds = owedKinds();
  let open = store.openKind;
  if (open && !kinds.includes(open)) open = null;
  [...store.dismissed].forEach((k) => { if (!kinds.includes(k)) store.dismissed.delete(k); });
  // a decision window opens by itself, unless it is chosen on the map
  if (!open) open = kinds.find((k) => !store.dismissed.has(k) && !ON_MAP.includes(k)) || null;
  store.openKind = open;
  if (!open) { modal.hidden = true; return; }
  const options = store.view.legal_actions.filter((a) => answeredBy(open).includes(a.type));
  const chapter = store.view.manual.decisions[open];
  $("modal-body").replaceChildren(...[
    el("h3", {dataset: {kind: open}}, ...decisionName(open)),
    el("p", {}, t("decision_help." + open), " ",
      chapter ? el("a", {href: `/manual/${store.app.lang}/${chapter}`, target: "_blank", class: "manual-ref"}, icon("book"), t("ui.manual")) : null),
    open === "vote" ? votesHeld() : null,
    open === "foresee_events" ? foreseeChooser(options)
      : ON_MAP.includes(open) ? el("div", {class: "options"}, el("button", {type: "button", class: "action primary", dataset: {action: "to-map"},
        onclick: () => { store.dismissed.add(open); update({openKind: null}); }}, t("ui.choose_on_map")))
      : el("div", {class: "options"}, ...options.map(choice)),
  ].filter((part) => part !== null));
  modal.hidden = false;
}

// Foresee: one terrain per card, card by card in the Events Area's order. The engine offers the
// next card's terrains, each action repeating those chosen already; a click sends it.
function foreseeChooser(options) {
  const cards = store.view.state.events_area;
  const chosen = options.length ? options[0].terrains.slice(0, -1) : [];
  const terrainButton = (terrain, extra) => el("button", {type: "button", class: "terrain-choice", dataset: {terrain},
    "aria-pressed": "false", ...extra}, capitalised(t("terrain." + terrain)));
  const rows = cards.map((card, i) => {
    const info = store.protocol.cards.find((c) => c.name === card);
    let choices = [];
    if (i < chosen.length) {
      choices = [terrainButton(chosen[i], {class: "terrain-choice chosen", "aria-pressed": "true", disabled: true})];
    } else if (i === chosen.length) {
      choices = options.map((a) => terrainButton(a.terrains[i], {dataset: {terrain: a.terrains[i], type: a.type},
        "aria-busy": isSending(a) ? "true" : null, onclick: (e) => act(a, e.currentTarget)}));
    }
    return el("div", {class: "foresee-row" + (i === chosen.length ? " current" : ""), dataset: {card}},
      el("span", {class: "foresee-card", title: t("card_help." + card)}, info ? icon(info.icon) : null, t("card." + card)),
      ...choices);
  });
  return el("div", {class: "options foresee"}, ...rows);
}

export function renderBell() {
  const panel = $("bell-panel");
  if (panel.hidden) return;
  panel.replaceChildren(el("h3", {}, t("ui.bell")), ...[...store.notes].reverse().map((n) =>
    el("details", {class: "note", dataset: {key: n.key}},
      el("summary", {}, `${t("ui.round")} ${n.round} · ${n.title}`),
      el("ul", {}, ...n.lines.map((l) => el("li", {}, l))),
      n.chapter ? el("a", {href: `/manual/${store.app.lang}/${n.chapter}`, target: "_blank", class: "manual-ref"}, icon("book"), t("ui.manual")) : null)));
}

export function toggleBell() {
  const panel = $("bell-panel");
  panel.hidden = !panel.hidden;
  if (!panel.hidden && store.notes.length) localStorage.setItem(readKey(), String(Math.max(...store.notes.map((n) => n.id))));
  update({});
}

// The banner: out of the game, watching, or the end with its table.
export function renderBanner() {
  const box = $("banner");
  const view = store.view;
  const parts = [];
  if (view.ending && view.final) {
    parts.push(finalTable(view.final));
  } else if (view.ending) {  // ended early (closed by an operator, or abandoned): no final table
    parts.push(el("div", {class: "ended-message", dataset: {ending: view.ending}},
      el("h3", {}, t("ui.game_over")),
      el("p", {}, view.ending === "closed" ? t("ui.table_closed") : t("ui.table_abandoned")),
      el("p", {class: "after-links"}, el("a", {href: "/"}, t("ui.back_to_lobby")))));
  } else if (store.app.mode === "play" && view.sanction) {
    // the seat's account is banned or suspended: the bot holds the seat, which cannot be taken back meanwhile
    const s = view.sanction;
    const until = s.until === null ? "" : new Date(s.until * 1000).toISOString().slice(0, 16).replace("T", " ");
    const help = s.kind === "ban" ? t("ui.sanction_banned_help")
      : s.kind === "suspend" && until ? t("ui.sanction_suspended_help", {until}) : t("ui.sanction_help");
    parts.push(el("div", {class: "away-message sanction-message", dataset: {away: "true", sanction: s.kind ?? "unknown"}},
      el("h3", {}, icon("turn"), t("ui.bot_plays_for_you")), el("p", {}, help)));
  } else if (store.app.mode === "play" && view.seats[store.app.seat] && view.seats[store.app.seat].away) {
    // a bot plays this seat (its time ran out, or its player handed it over): said at once
    parts.push(el("div", {class: "away-message", dataset: {away: "true"}},
      el("h3", {}, icon("turn"), t("ui.bot_plays_for_you")), el("p", {}, t("ui.away_help"))));
  } else if (store.app.mode === "play" && eliminated()) {
    const p = view.state.players[store.app.seat];
    parts.push(el("div", {class: "eliminated-message", dataset: {eliminated: "true"}},
      el("h3", {}, t("ui.you_are_eliminated")), el("p", {}, t("ui.eliminated_help", {round: p.eliminated_round}))));
  } else if (store.app.mode === "watch") {
    parts.push(el("p", {class: "spectating"}, icon("eye"), t("ui.spectating")));
  }
  box.hidden = !parts.length;
  box.replaceChildren(...parts);
}

function finalTable(final) {
  const winners = final.winners.map(seatName).join(", ");
  const rows = [...final.players].sort((a, b) => b.total - a.total || b.settlements - a.settlements).map((r) =>
    el("tr", {class: r.winner ? "winner" : "", dataset: {seat: r.seat}},
      el("th", {scope: "row"}, swatch(seatColour(r.seat)), seatName(r.seat), r.winner ? icon("crown") : null,
        r.eliminated_round ? el("div", {class: "muted small"}, t("ui.eliminated_in_round", {round: r.eliminated_round})) : null),
      el("td", {dataset: {source: "judges"}}, String(r.judges)), el("td", {dataset: {source: "king"}}, String(r.king)),
      el("td", {dataset: {source: "tabernacle"}}, String(r.tabernacle)), el("td", {class: "total", dataset: {source: "total"}}, String(r.total)),
      el("td", {dataset: {source: "settlements"}}, String(r.settlements))));
  // the sources as icons, their words in the tooltip and for screen readers
  const head = (name, key) => el("th", {title: t(key), "aria-label": t(key)}, icon(name));
  return el("div", {class: "final", dataset: {panel: "final", ending: final.ending}},
    el("h3", {}, t("ui.game_over")),
    el("p", {class: "ending", dataset: {ending: final.ending}}, t("ending." + final.ending), " · ", t("ui.round_n", {n: final.round})),
    el("p", {class: "winners"}, winners ? `${t(final.winners.length > 1 ? "ui.winners" : "ui.winner")}: ${winners}` : t("ui.no_winner")),
    final.tie_break ? el("p", {class: "tie-break", dataset: {tieBreak: final.tie_break}}, t("ui.tie_break." + final.tie_break)) : null,
    el("table", {class: "final-table"},
      el("thead", {}, el("tr", {}, el("th", {}, t("ui.players")), head("seal", "ui.points_judges"), head("crown", "ui.king"),
        head("tabernacle", "ui.tabernacle"), el("th", {}, t("ui.points")), head("development", "ui.settlements"))),
      el("tbody", {}, ...rows)),
    el("p", {class: "after-links"},
      el("a", {href: `/games/${store.app.gameId}/replay?lang=${store.app.lang}`, class: "replay-link"}, t("ui.watch_replay")), " · ",
      el("a", {href: "/"}, t("ui.back_to_lobby"))));
}
