"""§ 15 What the player sees — the screen's polish after a Board Game Arena review:

- whom the game waits for stays whole in the top bar at 1400 px, in the longest language;
- on a phone the board is as tall as the fitted map (no empty bands), the top bar's rows hold
  the phase and whom the game waits for on one line;
- a battle's dice: in the log as dice, and shown when a replay steps forward into the battle;
- the decision windows: a window's name drawn with the sprite's icon (no emoji glyph drawn),
  each card to discard with its icon and what it does;
- a hex an event landed on names the event in its tooltip, in the reader's language.

Games start from scenario positions (docs/scenarios.md)."""

from __future__ import annotations

import time

import httpx

from browser.play import HTTP_TIMEOUT, TIMEOUT, new_game, open_host_seat, open_page, watch_console
from browser.positions import APPOINT, BATTLE, BOTS_GENERALS, ELECTION, FORESEE, HOLDINGS
from browser.support import shot
from judges import i18n
from judges.i18n import catalog
from judges.world import load_world

# Seat 0 holds five cards at the Intrigue phase: its free draw brings a sixth, a discard is owed.
DISCARD = {
    "phase": "intrigue",
    "clear_board": True,
    "settlements": HOLDINGS,
    "generals": [{"id": 10, "owner": 0, "at": "Hazor"}, *BOTS_GENERALS],
    "players": [{"seat": 0, "hand": ["tax", "plague", "revolt", "famine", "sandstorm"]}],
}

# Famine is in force on the desert this round; seat 0 plays its Intrigue turn with no card.
FAMINE = {
    "phase": "intrigue",
    "clear_board": True,
    "players": [{"seat": 0, "hand": []}],
    "settlements": HOLDINGS,
    "generals": [{"id": 10, "owner": 0, "at": "Hazor"}, *BOTS_GENERALS],
    "events_landed": [{"card": "famine", "terrain": "desert"}],
}

TRUNCATED = "(n) => n.scrollWidth > n.clientWidth + 1"


def test_whom_the_game_waits_for_stays_whole_in_the_top_bar(server, browser):
    # Two human seats: seat 1's page waits for seat 0 (Portuguese: the longest phase names).
    data = httpx.post(
        server + "/api/games",
        json={
            "seats": [{"kind": "human", "name": "Bartolomeu"}, {"kind": "human", "name": "Gideon"}, {"kind": "bot"}],
            "seed": 5,
        },
        timeout=HTTP_TIMEOUT,
    ).json()
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(page)
    page.goto(data["seats"][1]["invitation"] + "?lang=pt_BR")
    page.click("#take-seat")
    page.wait_for_url(f"**/games/{data['id']}*")  # the redirect to the game's page, with the seat's cookie
    page.wait_for_function("() => !!document.body && document.body.dataset.seq !== undefined")
    waiting = page.locator("#waiting")
    page.wait_for_function("() => document.querySelector('#waiting').textContent.includes('Bartolomeu')")
    expected = f"{catalog('pt_BR')['ui.waiting_for']}: Bartolomeu"
    assert waiting.inner_text() == expected and waiting.get_attribute("title") == expected
    assert not waiting.evaluate(TRUNCATED), "the name of the player we wait for is cut off"
    assert waiting.locator(".swatch").count() == 1  # in their colour, as in the Players panel
    # each player's numbers: an icon each, the word in its tooltip and for screen readers
    words = catalog("pt_BR")
    row = page.locator("[data-panel='players'] [data-seat='0']")
    for stat, key in (("coins", "ui.coins"), ("hand", "ui.hand"), ("settlements", "ui.settlements")):
        chip = row.locator(f".stat[data-stat='{stat}']")
        assert chip.locator("svg.ico").count() == 1 and chip.get_attribute("title") == words[key]
        assert chip.get_attribute("aria-label") == f"{words[key]} {chip.inner_text().strip()}"
    # the seven phases are all still there, the current one whole
    assert page.locator("#phases li").count() == 7
    assert not page.locator("#phases li.current").evaluate(TRUNCATED)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    shot(page, "topbar-waiting-pt_BR")
    assert errors == []
    page.context.close()


def test_the_phone_board_is_as_tall_as_the_fitted_map(server, browser):
    page = open_page(browser, viewport={"width": 390, "height": 844})
    errors = watch_console(page)
    data = new_game(server, seed=11)
    open_host_seat(page, server, data, "?lang=pt_BR")
    page.locator("#board svg [data-settlement='Hazor']").wait_for()
    page.locator("#actions .end-turn").wait_for()
    drawn = page.evaluate(
        """() => {
      const svg = document.querySelector('#board svg'), box = svg.viewBox.baseVal;
      const wrap = document.querySelector('#board-wrap').getBoundingClientRect();
      const scale = Math.min(wrap.width / box.width, wrap.height / box.height);
      return {width: box.width * scale, height: box.height * scale, wrapWidth: wrap.width, wrapHeight: wrap.height};
    }"""
    )
    # the map fills the board's frame both ways: no empty band above, below or beside it
    assert abs(drawn["height"] - drawn["wrapHeight"]) <= 2 and abs(drawn["width"] - drawn["wrapWidth"]) <= 2, drawn
    # the phase and "your turn" share one row, neither cut off
    phase, waiting = page.locator("#phases li.current"), page.locator("#waiting")
    assert waiting.inner_text() == catalog("pt_BR")["ui.your_turn"]
    assert abs(phase.bounding_box()["y"] - waiting.bounding_box()["y"]) < 8
    assert waiting.bounding_box()["height"] < 24 and not waiting.evaluate(TRUNCATED)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    shot(page, "phone-board-pt_BR")
    assert errors == []
    page.context.close()


def test_a_battles_dice_in_the_log_and_when_a_replay_steps_into_it(server, browser):
    # Seat 0 ends its Movement turn on Hebron with an army (a battle follows), then a bot plays
    # its seat to the end of the round; the replay is stepped forward into the battle.
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(page)
    data = new_game(server, seed=3, round_limit=1, position=BATTLE)
    open_host_seat(page, server, data)
    page.locator("#actions .end-turn").click()
    httpx.post(
        f"{server}/api/games/{data['id']}/seat/away", headers={"X-Seat-Token": data["token"]}, timeout=HTTP_TIMEOUT
    )
    page.wait_for_function("() => document.body.dataset.over === 'true'", timeout=TIMEOUT * 2)
    replay = httpx.get(f"{server}/api/games/{data['id']}/replay", timeout=HTTP_TIMEOUT).json()
    battles = [n for n in replay["notifications"] if n["key"] == "notification.battle"]
    assert battles, "the scenario fights a battle"
    battle = battles[0]
    faces = sum(len(r["attacker"]) + len(r["defender"]) for r in battle["params"]["rounds"])
    # the log shows that battle's dice as dice, one row per roll
    entry = page.locator("[data-panel='log'] [data-log-entry][data-key='notification.battle']").first
    assert entry.locator(".log-dice .battle-round").count() == len(battle["params"]["rounds"])
    assert entry.locator(".log-dice .die").count() == faces
    # issue 32: the seat handed to a bot is a notice of the bell, not of the game log (its
    # declaration says so: server/community/notices.py, log=False)
    page.click("#bell")
    assert page.locator("#bell-panel .note[data-key='notification.seat_bot']").count() >= 1
    assert page.locator("[data-panel='log'] [data-log-entry][data-key^='notification.seat']").count() == 0
    # the replay, one step before the battle, then one step forward: its dice show
    page.goto(f"{server}/games/{data['id']}/replay")
    page.locator(".replay-where").wait_for()
    before = battle["after"] - 1
    page.locator("#replay-slider").evaluate(f"(s) => {{ s.value = '{before}'; s.dispatchEvent(new Event('change')); }}")
    page.wait_for_selector(f".replay-where[data-step='{before}']")
    assert page.locator(".battle-overlay").count() == 0  # a jump shows no dice
    # the step buttons are the sprite's drawings (no ⏮ ⏭ glyph a system may lack), named
    for button, drawing in (
        ("first", "step-first"),
        ("prev", "step-back"),
        ("next", "step-next"),
        ("last", "step-last"),
    ):
        control = page.locator(f"#replay-{button}")
        assert control.locator("svg use").get_attribute("href").endswith("#" + drawing)
        assert control.inner_text().strip() == "" and control.get_attribute("title") == control.get_attribute(
            "aria-label"
        )
    page.click("#replay-next")
    overlay = page.locator(".battle-overlay")
    overlay.wait_for()
    assert overlay.locator(".die").count() >= faces
    page.wait_for_timeout(700)  # the dice have rolled
    shot(page, "replay-battle")
    assert errors == []
    page.context.close()


EMOJI_DRAWN = r"""(root) => {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const drawn = [];
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const size = parseFloat(getComputedStyle(node.parentElement).fontSize);
    if (size > 0 && /\p{Extended_Pictographic}/u.test(node.textContent)) drawn.push(node.textContent);
  }
  return drawn;
}"""


def test_a_windows_name_is_drawn_with_the_sprites_icon_not_an_emoji(server, browser):
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(page)
    data = new_game(server, position=ELECTION, seed=3)
    open_host_seat(page, server, data, "?lang=es")
    title = page.locator("#modal:not([hidden]) h3[data-kind='vote']")
    title.wait_for()
    assert title.locator("svg.ico use").get_attribute("href").endswith("#vote")
    assert title.evaluate(EMOJI_DRAWN) == []
    assert page.locator("#bottombar .reopen[data-kind='vote']").evaluate(EMOJI_DRAWN) == []
    # the text is still the catalog's (the manual's name of the window)
    assert title.inner_text().strip() == catalog("es")["decision.vote"]
    assert errors == []
    page.context.close()


def test_each_card_to_discard_shows_its_icon_and_what_it_does(server, browser):
    page = open_page(browser, viewport={"width": 390, "height": 844})
    errors = watch_console(page)
    data = new_game(server, position=DISCARD, seed=3)
    open_host_seat(page, server, data, "?lang=pt_BR")
    page.locator("#modal:not([hidden]) h3[data-kind='discard']").wait_for()
    choices = page.locator("#modal .options button[data-type='discard']")
    assert choices.count() >= 5
    words = catalog("pt_BR")
    helps = {words[f"card_help.{c}"] for c in ("tax", "plague", "revolt", "famine", "sandstorm")}
    for i in range(choices.count()):
        assert choices.nth(i).locator("svg.ico").count() == 1
        assert choices.nth(i).locator(".choice-help").inner_text().strip()
    shown = {choices.nth(i).locator(".choice-help").inner_text() for i in range(choices.count())}
    assert helps <= shown
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    shot(page, "discard-window-pt_BR-phone")
    assert errors == []
    page.context.close()


def test_a_hex_an_event_landed_on_names_it_in_its_tooltip(server, browser):
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(page)
    data = new_game(server, position=FAMINE, seed=3)
    open_host_seat(page, server, data, "?lang=es")
    page.locator("#board svg [data-settlement='Hazor']").wait_for()
    words = catalog("es")
    expected = f"{words['card.famine']} → {words['terrain.desert']}"
    marked = page.locator("#board svg polygon.hex.terrain-desert:has(title)")
    assert marked.count() > 0
    assert marked.first.locator("title").text_content() == expected
    # hovering over it shows the same words in the board's hint (as a tap does on a phone)
    box = marked.first.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    time.sleep(0.2)
    assert page.locator("#hint").inner_text() == expected
    assert errors == []
    page.context.close()


def test_a_move_names_where_the_general_goes_as_the_board_shows_it():
    # the log and the hints read "to mountains near Hebron", not the hex's coordinates
    world = load_world()
    hebron = world.hexes[world.settlements[world.settlement_by_name["Hebron"]].hex]
    bare = next(
        h
        for h in world.hexes
        if h.settlement is None
        and world.hex_distance(h.index, hebron.index) == 1
        and all(world.hex_distance(h.index, s.hex) > 1 for s in world.settlements if s.hex != hebron.index)
    )
    move = {"type": "move", "player": 1, "general": 11, "q": bare.q, "r": bare.r}
    for lang in ("en", "es", "pt_BR"):
        words = catalog(lang)
        text = i18n.render_action(move, lang, world)
        assert words[f"terrain.{bare.terrain}"] in text and i18n.place_name(lang, "Hebron") in text, text
        assert f"({bare.q}, {bare.r})" not in text
        on_hebron = i18n.render_action({**move, "q": hebron.q, "r": hebron.r}, lang, world)
        assert on_hebron.endswith(i18n.place_name(lang, "Hebron")), on_hebron


def test_the_settlements_a_click_acts_on_are_outlined(server, browser):
    # Acquisitions: the seat's own settlements take a purchase; their hexes are outlined (a
    # glow alone is lost on a phone), the others' are not.
    page = open_page(browser, viewport={"width": 390, "height": 844})
    errors = watch_console(page)
    data = new_game(server, seed=11)
    open_host_seat(page, server, data)
    page.locator("#actions .end-turn").click()  # the Intrigue turn
    page.wait_for_function(
        "() => document.body.dataset.phase === 'acquisitions' && !!document.querySelector('#actions .end-turn')"
    )
    stroke = "(n) => getComputedStyle(n.querySelector('.settlement-hex')).stroke"
    targets = page.locator("#board [data-settlement].target")
    assert targets.count() > 0
    assert all(s != "none" for s in targets.evaluate_all(f"(ns) => ns.map({stroke})"))
    others = page.locator("#board [data-settlement]:not(.target)")
    assert all(s == "none" for s in others.evaluate_all(f"(ns) => ns.map({stroke})"))
    assert errors == []
    page.context.close()


def test_a_choice_begins_with_a_capital_and_each_card_to_foresee_shows_what_it_is(server, browser):
    page = open_page(browser, viewport={"width": 390, "height": 844})
    errors = watch_console(page)
    # "general #10 (Deborah), Juez de Neftalí": the Spanish label begins with a lower-case word
    open_host_seat(page, server, new_game(server, position=APPOINT, seed=3), "?lang=es")
    choice = page.locator("#modal:not([hidden]) .options button[data-type='appoint_judge']").first
    choice.wait_for()
    assert choice.text_content().strip()[0].islower()
    assert choice.evaluate("(n) => getComputedStyle(n, '::first-letter').textTransform") == "uppercase"
    open_host_seat(page, server, new_game(server, position=FORESEE, seed=3), "?lang=es")
    rows = page.locator("#modal:not([hidden]) .foresee-row")
    rows.first.wait_for()
    words = catalog("es")
    for i in range(rows.count()):
        card = rows.nth(i).get_attribute("data-card")
        name = rows.nth(i).locator(".foresee-card")
        assert name.locator("svg.ico").count() == 1 and name.get_attribute("title") == words[f"card_help.{card}"]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert errors == []
    page.context.close()
