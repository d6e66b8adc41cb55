// The game screen. The server is the only authority: this page renders the seat's view it
// receives over the websocket, and submits actions the server validates. No build step.
(function () {
  "use strict";
  // The page's settings (a JSON data block: the page runs no inline script). No secret: the
  // seat's credential is an HttpOnly cookie the browser sends by itself.
  const JK = JSON.parse(document.getElementById("jk-config").textContent);
  const SEAT_COLORS = ["#2b6cb0", "#c05621", "#2f855a", "#805ad5", "#b83280", "#b7791f"];
  const TERRAIN_COLORS = {plain: "#cfe8b0", mountains: "#b9aa98", desert: "#f0d9a0"};
  // From GET /api/games/{id}/protocol (the protocol with the game's own costs): the decision
  // kinds that open a window, the action types that answer each kind, the items for sale.
  let WINDOW_KINDS = [], ANSWERED_BY = {}, ITEMS = {};
  const SIZE = 22;
  let world = null, S = {}, view = null, notes = [], socket = null, selected = null;
  let dismissed = new Set(), openKind = null, lang = JK.lang;
  const readKey = `jk-read-${JK.gameId}-${JK.seat}`;

  const $ = (id) => document.getElementById(id);
  const t = (key, params) => {
    let text = S[key] || key;
    for (const [k, v] of Object.entries(params || {})) text = text.split("{" + k + "}").join(v);
    return text;
  };
  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "onclick") node.onclick = v; else if (k === "text") node.textContent = v;
      else node.setAttribute(k, v);
    }
    children.flat().forEach((c) => node.append(c instanceof Node ? c : document.createTextNode(c)));
    return node;
  };
  const svg = (tag, attrs, text) => {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const seatName = (seat) => seat === -1 ? t("ui.canaanites") : (view.seats[seat] || {}).name || "#" + (seat + 1);
  const placeName = (name) => S["place." + name] || name;  // the map's names, as each language spells them
  const settlementName = (i) => placeName(world.settlements[i].name);
  const hexCenter = (h) => [SIZE * Math.sqrt(3) * (h.q + h.r / 2), SIZE * 1.5 * h.r];

  // --- talking to the server -----------------------------------------------------------

  async function loadStatic() {
    // The game's own world and protocol: its map, and the costs of ITS rules.
    const [w, s, p] = await Promise.all([fetch(`/api/games/${JK.gameId}/world`).then((r) => r.json()),
                                         fetch("/api/i18n/" + lang).then((r) => r.json()),
                                         fetch(`/api/games/${JK.gameId}/protocol`).then((r) => r.json())]);
    world = w; S = s;
    WINDOW_KINDS = p.decisions.filter((d) => d.opens_window).map((d) => d.name);
    p.decisions.forEach((d) => { ANSWERED_BY[d.name] = d.actions.map((a) => a.type); });
    p.items.forEach((i) => { ITEMS[i.name] = i; });
  }

  // One live-update message applied to the view (docs/web.md, "Live updates"): a full view
  // replaces it; a delta sets the parts and state fields it names and appends notifications.
  // null: the delta does not follow this view (a message was missed): ask for a full view.
  function applyUpdate(view, message) {
    if (message.type === "full") return message.view;
    if (message.type !== "delta" || !view || view.version !== message.base) return null;
    const next = {...view, ...(message.set || {}), version: message.version};
    if (message.state) next.state = {...view.state, ...message.state};
    if (message.notifications) next.notifications = view.notifications.concat(message.notifications).slice(-next.max_notifications);
    return next;
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/games/${JK.gameId}?lang=${lang}`);
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "error") { toast(message.text); return; }
      const next = applyUpdate(view, message);
      if (next === null) { socket.send(JSON.stringify({type: "resync"})); return; }
      receive(next);
    };
    // Reconnect (the first message is a full view), unless the server closed for good reasons.
    socket.onclose = (event) => { if (event.code !== 1008) setTimeout(connect, 1000); };
  }

  function receive(next) {
    view = next;
    // The bell: the engine's notifications and the seat takeovers, by id.
    const known = new Set(notes.map((n) => n.id));
    view.notifications.concat(view.seat_events).forEach((n) => { if (!known.has(n.id)) notes.push(n); });
    notes.sort((a, b) => a.id - b.id);
    if (selected !== null && !(view.state.generals[selected])) selected = null;
    render();
  }

  async function act(action) {
    const body = {action: {...action, player: JK.seat}, client_action_id: crypto.randomUUID()};
    const response = await fetch(`/api/games/${JK.gameId}/actions?lang=${lang}`, {
      method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify(body)});
    if (!response.ok) {
      const data = await response.json().catch(() => ({}));
      toast(data.text || data.message || response.statusText);
    }
  }

  function toast(text) {
    const node = $("toast");
    node.textContent = text; node.hidden = false;
    clearTimeout(toast.timer); toast.timer = setTimeout(() => { node.hidden = true; }, 4000);
  }

  // --- the board -------------------------------------------------------------------------

  function renderBoard() {
    const board = $("board");
    board.innerHTML = "";
    const centers = world.hexes.map(hexCenter);
    const xs = centers.map((c) => c[0]), ys = centers.map((c) => c[1]);
    const pad = SIZE * 1.5;
    board.setAttribute("viewBox", `${Math.min(...xs) - pad} ${Math.min(...ys) - pad} ${Math.max(...xs) - Math.min(...xs) + 2 * pad} ${Math.max(...ys) - Math.min(...ys) + 2 * pad}`);
    const st = view.state;
    const moves = movesOf(selected);
    const generalsByHex = {};
    Object.values(st.generals).forEach((g) => { (generalsByHex[g.hex] = generalsByHex[g.hex] || []).push(g); });
    const besieged = new Set(st.invaders.map((p) => p.at));
    world.hexes.forEach((h, i) => {
      const [x, y] = centers[i];
      const points = [...Array(6).keys()].map((k) => {
        const a = Math.PI / 180 * (60 * k - 30);
        return `${x + SIZE * Math.cos(a)},${y + SIZE * Math.sin(a)}`;
      }).join(" ");
      const sealed = h.terrain === "desert" && st.events_landed.some((e) => e.card === "sandstorm");
      const poly = svg("polygon", {points, class: "hex " + h.terrain + (sealed ? " sealed" : ""),
                                   fill: TERRAIN_COLORS[h.terrain], "data-hex": i, "data-q": h.q, "data-r": h.r});
      if (moves[i]) {
        poly.classList.add("reachable");
        poly.onclick = () => act(moves[i]);
      }
      board.append(poly);
      if (i === world.tabernacle_hex) board.append(svg("text", {x: x - 14, y: y - 8, class: "icon"}, "⛺"));
      if (h.settlement !== null) drawSettlement(board, h.settlement, x, y, besieged.has(h.settlement));
      if (st.ark_hex === i) board.append(svg("text", {x: x + 6, y: y - 8, class: "icon ark"}, "📦"));
      (generalsByHex[i] || []).forEach((g, k) => drawGeneral(board, g, x - 12 + 9 * k, y + 11));
    });
    st.invaders.forEach((p) => {
      if (p.at < 0) return;
      const [x, y] = centers[world.settlements[p.at].hex];
      board.append(svg("text", {x: x + 8, y: y + 4, class: "icon invaders"}, "⚔"));
    });
  }

  function drawSettlement(board, i, x, y, besieged) {
    const info = world.settlements[i], s = view.state.settlements[i];
    const group = svg("g", {class: "settlement", "data-settlement": info.name});
    if (s.razed) {
      group.append(svg("text", {x: x - 5, y: y + 4, class: "razed"}, "✕"));
    } else {
      const color = s.owner === null ? "#fff" : s.owner === -1 ? "#7b1e1e" : SEAT_COLORS[s.owner];
      group.append(svg("circle", {cx: x, cy: y, r: info.is_city ? 9 : 7, fill: color,
                                  class: (s.walls ? "walls " : "") + (besieged ? "besieged" : ""),
                                  stroke: s.walls ? "#222" : "#555", "stroke-width": s.walls ? 3 : 1}));
      if (s.troops) group.append(svg("text", {x, y: y + 3.5, class: "troops"}, String(s.troops)));
      if (s.developments) group.append(svg("text", {x: x + 8, y: y - 6, class: "dev"}, "+" + s.developments));
    }
    group.append(svg("text", {x, y: y - 11, class: "label"}, settlementName(i)));
    const title = svg("title");
    title.textContent = `${settlementName(i)} — ${s.razed ? t("ui.razed") : s.owner === null ? t("ui.free") : seatName(s.owner)}` +
      (s.troops ? ` · ${t("ui.garrison")} ${s.troops}` : "") + (s.walls ? ` · ${t("ui.walls")}` : "") +
      (s.developments ? ` · ${t("ui.developments")} ${s.developments}` : "") + (besieged ? ` · ${t("ui.besieged")}` : "");
    group.append(title);
    board.append(group);
  }

  function drawGeneral(board, g, x, y) {
    const st = view.state;
    const mine = g.owner === JK.seat && g.captor === null;
    const node = svg("circle", {cx: x, cy: y, r: 4.5, fill: SEAT_COLORS[g.owner],
                                class: "general" + (g.captor !== null ? " captive" : "") + (selected === g.id ? " selected" : ""),
                                "data-general": g.id});
    const marks = [];
    if (st.king === g.id) marks.push("👑");
    if (st.titles.some((tt) => tt.holder === g.id)) marks.push("⚖");
    if (g.prophet) marks.push("👁");
    if (g.anointed) marks.push("🫗");
    if (g.ark) marks.push("📦");
    const title = svg("title");
    title.textContent = `${t("ui.general")} #${g.id} · ${seatName(g.owner)}` + (g.army ? ` · ${t("ui.army")} ${g.army}` : "") +
      (g.captor !== null ? ` · ${t("ui.captive")} (${seatName(g.captor)})` : "") + (marks.length ? " " + marks.join("") : "");
    node.append(title);
    if (mine && Object.keys(movesOf(g.id)).length + extrasOf(g.id).length > 0) {
      node.classList.add("movable");
      node.onclick = (e) => { e.stopPropagation(); selected = selected === g.id ? null : g.id; render(); };
    }
    board.append(node);
    if (marks.length) board.append(svg("text", {x: x - 4, y: y + 11, class: "marks"}, marks.join("")));
  }

  function movesOf(gid) {
    const out = {};
    if (gid === null || !view) return out;
    view.legal_actions.filter((a) => a.type === "move" && a.general === gid).forEach((a) => {
      const h = world.hexes.findIndex((x) => x.q === a.q && x.r === a.r);
      out[h] = a;
    });
    return out;
  }
  const extrasOf = (gid) => view.legal_actions.filter((a) => a.general === gid &&
    ["take_troops", "leave_troops", "pick_up_ark", "drop_ark"].includes(a.type));

  // --- panels --------------------------------------------------------------------------------

  function renderTop() {
    $("round").textContent = t("ui.round") + " " + view.round;
    $("phases").replaceChildren(...world.phases.map((p, i) =>
      el("li", {class: i + 1 === view.phase ? "current" : ""}, t("phase." + p))));
    const waiting = view.waiting_for.map(seatName);
    $("waiting").textContent = view.ending ? t("ui.game_over") :
      view.waiting_for.includes(JK.seat) ? t("ui.your_turn") : t("ui.waiting_for") + ": " + waiting.join(", ");
    const level = Math.min(view.state.wrath, world.wrath_threshold);
    const height = 34 * level / world.wrath_threshold;
    const cup = svg("svg", {width: 34, height: 40, viewBox: "0 0 34 40", class: "cup"});
    cup.append(svg("rect", {x: 4, y: 2 + 34 - height, width: 26, height, fill: "#a61b1b"}),
               svg("path", {d: "M3 2 L31 2 L29 36 L5 36 Z", fill: "none", stroke: "#333", "stroke-width": 2}));
    $("wrath").replaceChildren(cup, el("span", {}, `${t("ui.wrath")} ${view.state.wrath}/${world.wrath_threshold}`));
    $("manual-link").href = `/manual/${lang}/${view.manual.phase}`;
    const away = view.seats[JK.seat].away;
    const control = $("seat-control");
    control.textContent = away ? t("ui.take_back") : t("ui.leave_seat");
    control.dataset.away = away ? "1" : "0";
    control.onclick = () => fetch(`/api/games/${JK.gameId}/seat/${away ? "back" : "away"}`,
                                  {method: "POST"});
    const unread = notes.filter((n) => n.id > Number(localStorage.getItem(readKey) || -1)).length;
    $("unread").textContent = unread ? String(unread) : "";
  }

  function renderMe() {
    const me = view.state.players[JK.seat];
    const score = view.scores[String(JK.seat)];
    const hand = Array.isArray(me.hand) ? me.hand : [];
    $("me").replaceChildren(
      el("h3", {}, `${seatName(JK.seat)} (${t("ui.you")})`),
      el("p", {}, `${t("ui.coins")}: ${me.coins} · ${t("ui.score")}: ${score.total}`),
      el("div", {class: "hand"}, t("ui.hand") + ": ", ...hand.map((c) => el("span", {class: "card-chip"}, t("card." + c)))));
  }

  // The words of a legal action come rendered by the server, in the reader's language.
  const describe = (a) => view.action_labels[view.legal_actions.indexOf(a)] || a.type;

  function actionButton(a) {
    return el("button", {class: "action " + a.type, "data-type": a.type, onclick: () => act(a)}, describe(a));
  }

  function renderActions() {
    const box = $("actions");
    const legal = view.legal_actions;
    const kinds = new Set(view.my_decisions.map((d) => d.kind));
    const parts = [el("h3", {}, t("phase." + view.phase_name))];
    if (view.ending) {
      const winners = view.winners.map(seatName).join(", ");
      box.replaceChildren(el("h3", {}, t("ui.game_over")), el("p", {class: "ending", "data-ending": view.ending},
        t("ending." + view.ending)), el("p", {class: "winners"}, winners ? `${t(view.winners.length > 1 ? "ui.winners" : "ui.winner")}: ${winners}` : t("ui.no_winner")));
      return;
    }
    if (!kinds.has("turn")) {
      if (!legal.length) parts.push(el("p", {class: "muted"}, view.ending ? t("ui.game_over") : t("ui.nothing_to_do")));
      else parts.push(el("p", {}, t("ui.decision_waiting")));
      box.replaceChildren(...parts);
      return;
    }
    if (selected !== null) {
      parts.push(el("p", {class: "selected-general"}, `${t("ui.general")} #${selected}: ${t("ui.click_hex")}`));
      extrasOf(selected).forEach((a) => parts.push(actionButton(a)));
    } else if (legal.some((a) => a.type === "move")) {
      parts.push(el("p", {class: "muted"}, t("ui.select_general")));
    }
    const groups = {};
    legal.filter((a) => !["move", "take_troops", "leave_troops", "pick_up_ark", "drop_ark", "end_turn"].includes(a.type))
      .forEach((a) => { (groups[a.type] = groups[a.type] || []).push(a); });
    for (const [type, list] of Object.entries(groups)) {
      if (list.length <= 4) { list.forEach((a) => parts.push(actionButton(a))); continue; }
      const select = el("select", {"data-type": type}, ...list.map((a, i) => el("option", {value: i}, describe(a))));
      parts.push(el("div", {class: "action-row"}, select,
        el("button", {class: "action", "data-type": type, onclick: () => act(list[Number(select.value)])}, t("ui.do"))));
    }
    const end = legal.find((a) => a.type === "end_turn");
    if (end) parts.push(el("button", {class: "action end-turn primary", "data-type": "end_turn", onclick: () => { selected = null; act(end); }}, t("ui.end_turn")));
    box.replaceChildren(...parts);
  }

  function renderEvents() {
    const st = view.state;
    $("events").replaceChildren(el("h3", {}, t("ui.events_area")),
      ...st.events_landed.map((e) => el("div", {class: "event"}, `${t("card." + e.card)} → ${t("terrain." + e.terrain)}`)),
      ...st.events_area.map((c) => el("div", {class: "event pending"}, `${t("card." + c)} (${t("ui.next_round")})`)));
  }

  function renderPlayers() {
    const st = view.state;
    const rows = st.players.filter((p) => !p.eliminated).map((p) => {
      const settlements = st.settlements.filter((s, i) => !s.razed && s.owner === p.seat).length;
      const generals = Object.values(st.generals).filter((g) => g.owner === p.seat);
      const hand = view.hand_sizes[p.seat];
      const sc = view.scores[String(p.seat)];
      return el("div", {class: "player-board", "data-seat": p.seat, style: `border-left: 6px solid ${SEAT_COLORS[p.seat]}`},
        el("strong", {}, seatName(p.seat) + (p.seat === JK.seat ? ` (${t("ui.you")})` : "") +
          (view.seats[p.seat].away ? ` · ${t("ui.bot_plays")}` : "")),
        el("div", {}, `${t("ui.score")} ${sc.total} · ${t("ui.coins")} ${p.coins} · ${t("ui.hand")} ${hand}`),
        el("div", {}, `${t("ui.settlements")} ${settlements} · ${t("ui.general")} ${generals.length}` +
          (generals.some((g) => g.id === st.king) ? " · 👑" : "")));
    });
    $("players").replaceChildren(el("h3", {}, t("ui.players")), ...rows);
  }

  function renderBell() {
    const panel = $("bell-panel");
    if (panel.hidden) return;
    panel.replaceChildren(el("h3", {}, t("ui.bell")), ...[...notes].reverse().map((n) =>
      el("details", {class: "note", "data-key": n.key},
        el("summary", {}, `${t("ui.round")} ${n.round} · ${n.title}`),
        el("ul", {}, ...n.lines.map((l) => el("li", {}, l))),
        n.chapter ? el("a", {href: `/manual/${lang}/${n.chapter}`, target: "_blank", class: "manual-ref"}, "📖 " + t("ui.manual")) : "")));
  }

  // --- decision windows ------------------------------------------------------------------

  function decisionKinds() {
    return [...new Set(view.my_decisions.map((d) => d.kind).filter((k) => WINDOW_KINDS.includes(k)))];
  }

  function renderBottomBar() {
    $("bottombar").replaceChildren(...decisionKinds().map((kind) =>
      el("button", {class: "reopen", "data-kind": kind, onclick: () => openWindow(kind)},
        t("decision." + kind))));
  }

  function openWindow(kind) {
    openKind = kind;
    dismissed.delete(kind);
    renderModal();
  }

  function renderModal() {
    const modal = $("modal");
    const kinds = decisionKinds();
    if (openKind && !kinds.includes(openKind)) openKind = null;
    [...dismissed].forEach((k) => { if (!kinds.includes(k)) dismissed.delete(k); });
    if (!openKind) {
      const fresh = kinds.find((k) => !dismissed.has(k));
      if (fresh) openKind = fresh;  // a decision window opens by itself
    }
    if (!openKind) { modal.hidden = true; return; }
    const options = view.legal_actions.filter((a) => ANSWERED_BY[openKind].includes(a.type));
    $("modal-body").replaceChildren(
      el("h3", {"data-kind": openKind}, t("decision." + openKind)),
      el("p", {}, t("decision_help." + openKind),
        view.manual.decisions[openKind] ? el("a", {href: `/manual/${lang}/${view.manual.decisions[openKind]}`, target: "_blank",
                                                   class: "manual-ref"}, " 📖 " + t("ui.manual")) : ""),
      el("div", {class: "options"}, ...options.map(actionButton)));
    modal.hidden = false;
  }

  $("modal-close").onclick = () => { dismissed.add(openKind); openKind = null; $("modal").hidden = true; renderBottomBar(); };
  $("bell").onclick = () => {
    const panel = $("bell-panel");
    panel.hidden = !panel.hidden;
    if (!panel.hidden && notes.length) localStorage.setItem(readKey, String(Math.max(...notes.map((n) => n.id))));
    renderBell(); renderTop();
  };
  document.querySelectorAll("#langs .lang").forEach((b) => b.onclick = () => {
    const url = new URL(location.href);
    url.searchParams.set("lang", b.dataset.lang);
    location.href = url.toString();
  });
  $("board").onclick = () => { if (selected !== null) { selected = null; render(); } };

  function render() {
    if (!view || !world) return;
    renderTop(); renderBoard(); renderMe(); renderActions(); renderEvents(); renderPlayers(); renderBell();
    renderBottomBar(); renderModal();
    document.body.dataset.phase = view.phase_name;
    document.body.dataset.seq = view.seq;
  }

  loadStatic().then(connect);
})();
