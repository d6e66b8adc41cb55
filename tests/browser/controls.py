"""The screen's controls as a player reaches them: a real click (or tap) on a piece at a point
where the piece itself is hit (not a general standing over a settlement), and a survey of every
action the screen's controls send in a position (every legal action is reachable).

The survey answers every action the page sends itself (over its socket or by POST /actions:
nothing is applied), so that every
control of one position can be tried: the windows' choices, the Actions panel's buttons, each
target on the board and each choice of its menu, and for each general the screen lets one
select, every hex and settlement lit for him and every button his selection adds."""

from __future__ import annotations

import json

# A point of the element (viewport coordinates) where a click lands on it or on one of its
# children, not on a piece drawn over it (nor on a bar fixed over the page: the element is
# brought to the middle of the screen when it is not hit where it is); null when none is free.
FREE_POINT = """(node) => {
  const find = () => {
    const r = node.getBoundingClientRect();
    const steps = [0.5, 0.35, 0.65, 0.2, 0.8, 0.1, 0.9];
    for (const fy of steps) for (const fx of steps) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === node || node.contains(hit))) return [x, y];
    }
    return null;
  };
  const point = find();
  if (point) return point;
  node.scrollIntoView({block: "center", inline: "center"});
  return find();
}"""


# Chromium turns a touch into its click a moment after the tap returns: a one-shot listener
# tells when the click has been handled (the board's handlers run within its dispatch).
ARM_CLICK = """() => { window.__judgesTapped = false;
  document.addEventListener("click", () => { window.__judgesTapped = true; }, {capture: true, once: true}); }"""


def tap_at(page, x: float, y: float) -> None:
    """A finger's tap at (x, y), returning once the page has handled the click it makes."""
    page.evaluate(ARM_CLICK)
    page.touchscreen.tap(x, y)
    page.wait_for_function("() => window.__judgesTapped === true")


def tap(page, locator) -> None:
    """A finger's tap in the middle of `locator` (a button), once the page has handled it."""
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    assert box is not None, f"{locator} is not on screen"
    tap_at(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def press(page, locator, touch: bool = False) -> None:
    """Clicks (or taps) `locator` where it is itself hit: a settlement under a general token is
    clicked beside the token, as a player would."""
    locator.scroll_into_view_if_needed()
    point = locator.evaluate(FREE_POINT)
    if point is None:
        covering = locator.evaluate(
            "(n) => { const r = n.getBoundingClientRect(); const e = document.elementFromPoint(r.left + r.width / 2,"
            " r.top + r.height / 2); return e ? e.outerHTML.slice(0, 200) : 'nothing (off screen)'; }"
        )
        raise AssertionError(f"no free point to click on {locator}: its middle is {covering}")
    if not touch:
        page.mouse.click(*point)
        return
    # (the piece named before the tap: the locator may no longer match once the tap acted)
    which = locator.evaluate(
        "(n) => n.dataset.general !== undefined ? `[data-general='${n.dataset.general}']`"
        " : `[data-hex='${n.dataset.hex}']`"
    )
    tap_at(page, *point)
    # a tap within reach of several pieces opens the cluster chooser (board.js): the player
    # then taps the piece he meant in it
    pieces = page.locator("#chooser:not([hidden]) .piece-choice")
    if pieces.count():
        choice = page.locator(f"#chooser:not([hidden]) .piece-choice{which}")
        assert choice.count() == 1, f"the cluster chooser does not name {which}: {pieces.all_inner_texts()}"
        tap(page, choice)


def push(page, locator, touch: bool = False) -> None:
    """A button of the page (a menu's choice, the Actions panel's), clicked or tapped."""
    if touch:
        tap(page, locator)
    else:
        locator.click()


def canonical(action: dict) -> str:
    """An action as one string, whatever its field order, without the seat (the screen adds it)
    and without the optional fields left empty."""
    return json.dumps({k: v for k, v in action.items() if k != "player" and v is not None}, sort_keys=True)


# The page's socket keeps the actions it would send (`act` messages, connection.js) in
# `window.__judgesHeld` and answers each itself, as the server would (seq 0: taken as shown).
HOLD_SOCKET_ACTIONS = """() => {
  window.__judgesHeld = [];
  const installed = window.__judgesHolding !== undefined;
  window.__judgesHolding = true;
  if (installed) return;
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    const message = typeof data === "string" && window.__judgesHolding ? JSON.parse(data) : null;
    if (!message || message.type !== "act") return send.call(this, data);
    window.__judgesHeld.push(message.action);
    const answer = JSON.stringify({type: "acted", id: message.id, seq: 0, duplicate: false});
    setTimeout(() => this.dispatchEvent(new MessageEvent("message", {data: answer})));
  };
}"""


class Sent:
    """The actions the page sends while the survey holds them (none reaches the server): over
    its socket, or by POST /actions when it has none open."""

    def __init__(self, page) -> None:
        self.page = page
        self.posted: list[dict] = []
        page.route("**/api/games/*/actions*", self._hold)
        page.evaluate(HOLD_SOCKET_ACTIONS)

    def _hold(self, route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        self.posted.append(json.loads(route.request.post_data)["action"])
        # an answer the page takes as already shown (seq 0): its controls come back at once
        # (connection.js keeps a pressed control until the view of its answer is drawn)
        route.fulfill(status=200, content_type="application/json", body='{"seq": 0, "duplicate": false}')

    def stop(self) -> None:
        self.page.unroute("**/api/games/*/actions*")
        self.page.evaluate("() => { window.__judgesHolding = false; }")

    def held(self) -> list[dict]:
        return self.page.evaluate("() => window.__judgesHeld")

    def after(self, do) -> list[dict]:
        """What `do()` sent."""
        posted, held = len(self.posted), len(self.held())
        do()
        # an action leaves from the click's handler, which marks the page as sending until its
        # answer is in (connection.js: a click meanwhile would be dropped): wait for that
        self.page.wait_for_function("() => document.body.dataset.sending !== 'true'")
        return self.posted[posted:] + self.held()[held:]


def _escape(page) -> None:
    page.keyboard.press("Escape")
    page.evaluate("() => { const c = document.querySelector('#chooser'); if (c) c.hidden = true; }")


def survey(page, touch: bool = False) -> set[str]:
    """Every action (canonical) a control of the screen sends in the shown position (`touch`:
    the board's pieces tapped)."""
    sent = Sent(page)
    page.set_default_timeout(20_000)  # nothing is applied: every answer is local and quick
    found: set[str] = set()

    def take(actions: list[dict]) -> None:
        found.update(canonical(a) for a in actions)

    try:
        # the windows: each owed one, opened from the bottom bar, every choice (Foresee: the
        # current card's terrains)
        kinds = page.evaluate("[...document.querySelectorAll('#bottombar .reopen')].map((b) => b.dataset.kind)")
        for kind in kinds:
            if page.locator("#modal:not([hidden])").count():
                page.click("#modal-close")
            page.locator(f"#bottombar .reopen[data-kind='{kind}']").click()
            page.locator(f"#modal:not([hidden]) h3[data-kind='{kind}']").wait_for()
            buttons = page.locator("#modal .options button:not([disabled])")
            for i in range(buttons.count()):
                take(sent.after(lambda i=i: push(page, buttons.nth(i), touch)))
        if page.locator("#modal:not([hidden])").count():
            page.click("#modal-close")
        # the Actions panel's buttons (events, a card to buy, End turn)
        buttons = page.locator("#actions:not([hidden]) button.action:not([disabled])")
        for i in range(buttons.count()):
            take(sent.after(lambda i=i: push(page, buttons.nth(i), touch)))
        # every target of the board and every choice of its menu
        # (a target whose hint another one had already offers the same actions: the hint lists
        # their words; a Tax's region has many hexes)
        targets = page.locator("#board svg [data-hint]")
        hints = targets.evaluate_all("(nodes) => nodes.map((n) => n.dataset.hint)")
        for i, hint in enumerate(hints):
            if hint in hints[:i]:
                continue
            node = targets.nth(i)
            take(sent.after(lambda: press(page, node, touch)))
            if _selected(page):  # a general selected by the click: his moves and buttons
                _explore_selection(page, sent, take, touch)
            count = page.locator("#chooser:not([hidden]) .choice:not(.cancel)").count()
            _escape(page)
            for c in range(count):
                press(page, node, touch)
                choice = page.locator("#chooser:not([hidden]) .choice:not(.cancel)").nth(c)
                if choice.get_attribute("data-type") == "select":
                    push(page, choice, touch)
                    _explore_selection(page, sent, take, touch)
                else:
                    take(sent.after(lambda choice=choice: push(page, choice, touch)))
                _escape(page)
        return found
    finally:
        sent.stop()


def _selected(page) -> bool:
    return page.locator("#board [data-general].selected").count() > 0


def _select(page, general: str, touch: bool) -> None:
    if page.locator(f"#board [data-general='{general}'].selected").count():
        return
    press(page, page.locator(f"#board [data-general='{general}']"), touch)
    choice = page.locator("#chooser:not([hidden]) .choice[data-type='select']")
    if choice.count():
        push(page, choice, touch)
    page.locator(f"#board [data-general='{general}'].selected").wait_for()


def _explore_selection(page, sent: Sent, take, touch: bool) -> None:
    """A selected general: every button his selection adds to the Actions panel, and every
    place lit for him (a settlement, else its hex)."""
    general = page.locator("#board [data-general].selected").get_attribute("data-general")
    buttons = page.locator("#actions:not([hidden]) button.action:not(.end-turn):not([disabled])")
    for i in range(buttons.count()):
        _select(page, general, touch)
        take(sent.after(lambda i=i: push(page, buttons.nth(i), touch)))
    _select(page, general, touch)
    # a settlement lit for him is clicked as a settlement (its hex is the same move)
    places = page.evaluate(
        """() => {
          const lit = [...document.querySelectorAll('#board [data-settlement].reachable')];
          const theirs = new Set(lit.map((n) => n.dataset.hex));
          return [...lit.map((n) => `[data-settlement="${n.dataset.settlement}"]`),
                  ...[...document.querySelectorAll('#board polygon.hex.reachable')]
                    .filter((n) => !theirs.has(n.dataset.hex)).map((n) => `polygon.hex[data-hex="${n.dataset.hex}"]`)];
        }"""
    )
    for place in places:
        _select(page, general, touch)
        take(sent.after(lambda place=place: press(page, page.locator(f"#board svg {place}"), touch)))
        _escape(page)
    _escape(page)  # deselects him
