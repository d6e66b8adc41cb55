// The home page: a form that creates a game and shows one invitation link per human seat.
(function () {
  const JK = JSON.parse(document.getElementById("jk-config").textContent);
  const seats = document.getElementById("seats");
  const row = document.getElementById("seat-row");

  function addSeat(kind) {
    if (seats.children.length >= JK.maxPlayers) return;
    const node = row.content.firstElementChild.cloneNode(true);
    node.querySelector(".seat-label").textContent = JK.seatWord + " " + (seats.children.length + 1);
    node.querySelector(".seat-kind").value = kind;
    seats.appendChild(node);
  }
  ["human", "bot:greedy", "bot:greedy", "bot:greedy"].forEach(addSeat);
  document.getElementById("add-seat").onclick = () => addSeat("bot:greedy");
  document.getElementById("remove-seat").onclick = () => {
    if (seats.children.length > 3) seats.lastElementChild.remove();
  };

  document.getElementById("new-game").onsubmit = async (event) => {
    event.preventDefault();
    const spec = {
      wave_pairs: Number(document.getElementById("wave-pairs").value),
      turn_timer: Number(document.getElementById("turn-timer").value) || null,
      takeover_bot: document.getElementById("takeover-bot").value,
      seats: [...seats.children].map((node) => {
        const [kind, bot] = node.querySelector(".seat-kind").value.split(":");
        return {kind, bot: bot || null, name: node.querySelector(".seat-name").value || null,
                language: node.querySelector(".seat-lang").value};
      }),
    };
    const response = await fetch("/api/games", {method: "POST", headers: {"Content-Type": "application/json"},
                                                 body: JSON.stringify(spec)});
    const data = await response.json();
    if (!response.ok) { alert(data.message || "error"); return; }
    // The creator's own seat (its credential came back as this game's cookie) and one
    // invitation per other human seat, to send to its player: opening one takes the seat.
    const list = document.getElementById("link-list");
    list.innerHTML = "";
    const item = (href, text, className, shown) => {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = href; a.textContent = text; a.className = className;
      li.appendChild(a);
      if (shown) { const code = document.createElement("code"); code.textContent = href; li.appendChild(code); }
      list.appendChild(li);
    };
    item(data.link, data.seats[data.seat].name + " — " + JK.yourSeat, "own-seat", false);
    data.seats.filter((s) => s.invitation).forEach((s) => item(s.invitation, s.name + " — " + JK.open, "seat-link", true));
    document.getElementById("links").hidden = false;
  };
})();
