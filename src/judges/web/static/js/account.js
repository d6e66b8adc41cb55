// The account's panels of the home page: sign in, sign up, sign out (server/community/accounts.py), and
// "My games": the signed-in player's running games (yours to play first), then finished ones.
import {$, el, ago as agoIn} from "./dom.js";

const lang = $("account").dataset.lang;
let strings = {};
const t = (key, params) => {
  let text = strings[key] ?? key;
  for (const [k, v] of Object.entries(params || {})) text = text.split("{" + k + "}").join(String(v));
  return text;
};

const ago = (seconds) => agoIn(lang, seconds);

function until(seconds) {
  const format = new Intl.RelativeTimeFormat(lang.replace("_", "-"), {numeric: "auto"});
  /** @type {[Intl.RelativeTimeFormatUnit, number][]} */
  const units = [["day", 86400], ["hour", 3600], ["minute", 60]];
  for (const [unit, size] of units) {
    if (seconds >= size) return format.format(Math.floor(seconds / size), unit);
  }
  return format.format(Math.max(0, Math.floor(seconds)), "second");
}

async function send(method, url, body) {
  const response = await fetch(url, {method, credentials: "same-origin",
    headers: {"Content-Type": "application/json"}, body: body ? JSON.stringify(body) : undefined});
  return [response.ok, await response.json()];
}

function show(account) {
  // the lobby's Join asks a guest his name; a player signed in sits under his account's
  const was = document.body.dataset.account;
  if (account) document.body.dataset.account = account.name; else delete document.body.dataset.account;
  if (was !== document.body.dataset.account) document.dispatchEvent(new CustomEvent("account"));  // the lobby's Join (home.js)
  $("account-form").hidden = Boolean(account);
  $("signed-in").hidden = !account;
  $("my-games").hidden = !account;
  if (account) {
    $("account-name").textContent = t("ui.signed_in_as", {name: account.name});
    /** @type {HTMLAnchorElement} */ ($("account-name")).href = `/players/${encodeURIComponent(account.name)}?lang=${lang}`;  // ratings, history
    loadGames();
  }
}

async function submit(action) {
  const form = /** @type {HTMLFormElement} */ ($("account-form"));
  const field = (name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
  const body = {name: field("name").value, password: field("password").value};
  if (action === "sign-up" && field("email").value) body.email = field("email").value;
  const [ok, data] = await send("POST", action === "sign-up" ? "/api/accounts" : "/api/session", body);
  $("account-error").hidden = ok;
  if (!ok) { $("account-error").textContent = data.text || data.message; return; }
  field("password").value = "";
  show(data.account);
}

async function loadGames() {
  const response = await fetch(`/api/me/games?lang=${lang}`, {credentials: "same-origin"});
  if (!response.ok) return;
  const data = await response.json();
  $("my-running").replaceChildren(...data.running.map((g) => el("tr",
    {dataset: {myGame: g.id, yourTurn: String(g.your_turn)}, class: g.your_turn ? "my-turn" : null},
    el("td", {}, g.your_turn ? el("span", {class: "mark", title: t("ui.your_turn")}) : null, g.names.join(", "),
      el("br"), el("span", {class: "my-games-when table-number"}, t("ui.table_number", {n: g.table}))),
    el("td", {}, g.where,
      el("br"), el("span", {class: "my-games-when"},
        (g.your_turn ? t("ui.your_turn") : t("ui.waiting_for_others")) + " · " + t("ui.waited", {time: ago(g.waiting)})
        + (g.deadline ? " · " + t("ui.deadline_in", {time: until(g.deadline - Date.now() / 1000)}) : ""))),
    el("td", {}, el("a", {href: `${g.link}?lang=${lang}`, class: "play primary"}, t("ui.play"))))));
  $("my-finished").replaceChildren(...data.finished.slice(0, 10).map((g) => el("tr", {dataset: {myGame: g.id, finished: "true"}},
    el("td", {}, g.names.join(", "), el("br"), el("span", {class: "my-games-when table-number"}, t("ui.table_number", {n: g.table}))),
    el("td", {}, g.ending === "abandoned" ? t("ui.abandoned") : g.won ? t("ui.you_won") : t("ui.you_lost")),
    el("td", {}, g.ending === "abandoned" ? null : el("a", {href: `${g.replay}?lang=${lang}`, class: "replay"}, t("ui.replay")),
      " ", el("button", {type: "button", class: "rematch", dataset: {rematch: g.id}, onclick: () => rematch(g.id)},
        g.rematch ? t("ui.rematch_join") : t("ui.rematch"))))));
  $("no-my-games").hidden = data.running.length + data.finished.length > 0;
}

// A rematch with the same seats (server/community/rematch.py): the first to ask makes it (the other human
// seats' invitations are shown, as for a new game); a player asking after joins his kept seat.
async function rematch(id) {
  const [ok, data] = await send("POST", `/api/games/${id}/rematch`);
  if (!ok) { $("account-error").hidden = false; $("account-error").textContent = data.text || data.message; return; }
  const invited = (data.seats || []).filter((s) => s.invitation);
  if (!data.made || !invited.length) { location.href = data.link; return; }
  $("link-list").replaceChildren(
    el("li", {}, el("a", {href: data.link, class: "own-seat"}, data.seats[data.seat].name)),
    ...invited.map((s) => el("li", {}, el("a", {href: s.invitation, class: "seat-link"}, s.name), " ", el("code", {}, s.invitation))));
  $("links").hidden = false;
  loadGames();
}

$("send-reset").addEventListener("click", async () => {
  const form = /** @type {HTMLFormElement} */ ($("account-form"));
  const field = /** @type {HTMLInputElement} */ (form.elements.namedItem("name"));
  const name = field.value;
  if (!name) { field.reportValidity(); return; }
  const [ok, data] = await send("POST", "/api/password-reset", {name});
  $("reset-sent").hidden = !ok;
  $("account-error").hidden = ok;
  if (!ok) $("account-error").textContent = data.text || data.message;
});

$("account-form").addEventListener("submit", (event) => { event.preventDefault(); submit("sign-in"); });
$("sign-up").addEventListener("click", () => { if (/** @type {HTMLFormElement} */ ($("account-form")).reportValidity()) submit("sign-up"); });
$("sign-out").addEventListener("click", async () => { await send("DELETE", "/api/session"); show(null); });

fetch(`/api/i18n/${lang}`).then((r) => r.json()).then(async (s) => {
  strings = s;
  const [, me] = await send("GET", "/api/me");
  show(me.account);
  setInterval(() => { if (!$("my-games").hidden) loadGames(); }, 10000);
});
