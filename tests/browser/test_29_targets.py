"""What a click on the board does:

- a click on another of one's own generals selects him (and his tooltip says so); it never
  moves the selected general onto his hex: that is a click on the settlement (or hex) beside
  the token;
- every legal action is reachable: for every action type of the decision registry, a position
  where it is legal, and the control of the screen that sends it (`controls.survey`).

Games start from scenario positions (docs/scenarios.md; tests/browser/positions.py)."""

from __future__ import annotations

import pytest

from browser.controls import canonical, press, survey
from browser.play import SentActions, new_game, open_host_seat, open_page, seq, wait_change, watch_console
from browser.positions import APPOINT, BOTS_GENERALS, ELECTION, FORESEE, HOLDINGS
from browser.support import shot
from browser.test_15_screen_polish import DISCARD
from judges import verify
from judges.engine.actions import action_to_dict
from judges.i18n import gettext
from judges.protocol import protocol as published_protocol

# Seat 0 moves first in this Movement phase; its generals 10 (Hazor) and 13 (Chinnereth) can
# each reach the other's settlement.
TWO_OWN_GENERALS = {
    "phase": "movement",
    "clear_board": True,
    "settlements": {**HOLDINGS, "Chinnereth": {"owner": 0, "troops": 1}},
    "generals": [{"id": 10, "owner": 0, "at": "Hazor"}, {"id": 13, "owner": 0, "at": "Chinnereth"}, *BOTS_GENERALS],
}

PROFILES = {
    "desktop-en": ({"viewport": {"width": 1400, "height": 900}}, "en"),
    "phone-es": ({"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}, "es"),
}


def general_hex(page, gid: int) -> str:
    return page.locator(f"#board [data-general='{gid}']").get_attribute("data-hex")


@pytest.mark.parametrize("profile", list(PROFILES))
def test_a_click_on_another_own_general_selects_him_and_moves_nobody(server, browser, profile):
    options, lang = PROFILES[profile]
    touch = options.get("has_touch", False)
    page = open_page(browser, **options)
    errors = watch_console(page)
    sent = SentActions(page)
    open_host_seat(page, server, new_game(server, position=TWO_OWN_GENERALS, seed=3), f"?lang={lang}")
    page.locator("#actions .end-turn").wait_for()
    hazor = page.locator("#board [data-settlement='Hazor']").get_attribute("data-hex")
    chinnereth = page.locator("#board [data-settlement='Chinnereth']").get_attribute("data-hex")
    assert (general_hex(page, 10), general_hex(page, 13)) == (hazor, chinnereth)

    press(page, page.locator("#board [data-general='13']"), touch)
    page.locator("#board [data-general='13'].selected").wait_for()
    # general 10's tooltip says what a click on him does: select him
    ten = page.locator("#board [data-general='10']")
    assert ten.get_attribute("data-hint") == gettext(lang, "ui.select_to_move", general=10)
    shot(page, f"own-general-hint-{profile}")
    mark = len(sent.sent)
    before = seq(page)
    press(page, ten, touch)
    page.wait_for_timeout(500)  # a click handler's action leaves at once
    assert sent.actions(mark) == [], f"the click on general 10 sent {sent.actions(mark)}"
    page.locator("#board [data-general='10'].selected").wait_for(timeout=10_000)
    assert page.locator("#board [data-general='13'].selected").count() == 0
    assert seq(page) == before and general_hex(page, 13) == chinnereth
    assert page.locator("#chooser").is_hidden()
    shot(page, f"own-general-selected-{profile}")

    # general 10 goes onto general 13's settlement by a click on the settlement beside the token
    settlement = page.locator("#board [data-settlement='Chinnereth']")
    assert settlement.get_attribute("data-hint") == gettext(
        lang, "ui.move_here", general=10, place=gettext(lang, "place.Chinnereth")
    )
    press(page, settlement, touch)
    wait_change(page, before)
    page.wait_for_function(
        f"() => document.querySelector('#board [data-general=\"10\"]').dataset.hex === '{chinnereth}'"
    )
    assert general_hex(page, 13) == chinnereth
    assert errors == []
    page.context.close()


# Seat 1 holds Chinnereth, where seat 0's general 13 is its captive; seat 0's general 10 can
# reach it from Hazor.
OWN_CAPTIVE_THERE = {
    "phase": "movement",
    "clear_board": True,
    "settlements": {**HOLDINGS, "Chinnereth": {"owner": 1, "troops": 1}},
    "generals": [
        {"id": 10, "owner": 0, "at": "Hazor"},
        {"id": 13, "owner": 0, "at": "Chinnereth", "captor": 1},
        *BOTS_GENERALS,
    ],
}


@pytest.mark.parametrize("profile", list(PROFILES))
def test_an_own_general_who_cannot_be_selected_offers_the_move_onto_his_hex_in_his_menu(server, browser, profile):
    options, lang = PROFILES[profile]
    touch = options.get("has_touch", False)
    page = open_page(browser, **options)
    errors = watch_console(page)
    sent = SentActions(page)
    open_host_seat(page, server, new_game(server, position=OWN_CAPTIVE_THERE, seed=3), f"?lang={lang}")
    page.locator("#actions .end-turn").wait_for()
    chinnereth = page.locator("#board [data-settlement='Chinnereth']").get_attribute("data-hex")
    press(page, page.locator("#board [data-general='10']"), touch)
    page.locator("#board [data-general='10'].selected").wait_for()
    captive = page.locator("#board [data-general='13']")
    move = gettext(lang, "ui.move_here", general=10, place=gettext(lang, "place.Chinnereth"))
    assert captive.get_attribute("data-hint") == move
    mark = len(sent.sent)
    before = seq(page)
    press(page, captive, touch)  # his menu opens; nothing is sent yet
    choice = page.locator("#chooser:not([hidden]) .choice[data-type='move']")
    choice.wait_for()
    assert choice.inner_text() == move and sent.actions(mark) == []
    shot(page, f"own-captive-menu-{profile}")
    choice.click()
    wait_change(page, before)
    assert [a["type"] for a in sent.actions(mark)] == ["move"] and general_hex(page, 10) == chinnereth
    assert errors == []
    page.context.close()


# --- item 3: every legal action is reachable ---------------------------------------------------

G10 = {"id": 10, "owner": 0, "at": "Hazor"}
NAPHTALI_VILLAGES = ("Kedesh", "Merom", "Chinnereth", "Hammath")

# Positions where, together, every action type of the decision registry is legal for seat 0
# (the human); each is surveyed whole: every legal action must be sent by a control.
REGISTRY_POSITIONS = {
    "election": ELECTION,  # vote
    "appoint": APPOINT,  # appoint_judge
    "foresee-events": FORESEE,  # foresee_events
    # a judgment at these Announcements: a wave enters where seat 0's prophet says
    "foresee-invasion": {
        "clear_board": True,
        "settlements": HOLDINGS,
        "wrath": 12,
        "wrath_registered": 1,
        "generals": [{**G10, "prophet": True}, *BOTS_GENERALS],
    },
    # seat 0's King died: it names his successor
    "succession": {
        "clear_board": True,
        "settlements": HOLDINGS,
        "king": None,
        "succession_owner": 0,
        "generals": [G10, {"id": 13, "owner": 0, "at": "Hazor"}, *BOTS_GENERALS],
    },
    "discard": DISCARD,  # discard
    # a Tax, events, the Assassin and a Revolt (Merom: seat 1's garrison in seat 0's Naphtali)
    "intrigue-cards": {
        "phase": "intrigue",
        "clear_board": True,
        "settlements": {**HOLDINGS, "Kedesh": {"owner": 0, "troops": 1}, "Merom": {"owner": 1, "troops": 1}},
        "generals": [G10, *BOTS_GENERALS],
        "players": [{"seat": 0, "hand": ["tax", "plague", "assassin", "revolt"]}],
        "deck": ["abundance"],
    },
    # a Prophet, an Anointing (general 13 carries a prophet), a captive to execute or release
    "intrigue-captive": {
        "phase": "intrigue",
        "clear_board": True,
        "settlements": HOLDINGS,
        "generals": [
            G10,
            {"id": 13, "owner": 0, "at": "Hazor", "prophet": True},
            {"id": 14, "owner": 1, "at": "Hazor", "captor": 0},
            *BOTS_GENERALS,
        ],
        "players": [{"seat": 0, "hand": ["prophet", "anointing"]}],
        "deck": ["famine"],
    },
    # every item: troops (garrison, army), a mercenary, a development, a wall, a general, a card
    "acquisitions": {
        "phase": "acquisitions",
        "clear_board": True,
        "settlements": HOLDINGS,
        "generals": [{**G10, "army": 1}, *BOTS_GENERALS],
        "players": [{"seat": 0, "coins": 40}],
    },
    # moves, troops taken and left, the Ark dropped
    "movement-ark": {
        "phase": "movement",
        "clear_board": True,
        "settlements": HOLDINGS,
        "generals": [{**G10, "army": 1, "ark": True}, *BOTS_GENERALS],
        "ark": None,
    },
    "movement-pick-up": {  # the Ark picked up
        "phase": "movement",
        "clear_board": True,
        "settlements": HOLDINGS,
        "generals": [G10, *BOTS_GENERALS],
        "ark": "Hazor",
    },
    # general 10 and his army of 8 take Kedesh from seat 1's single troop: plunder or hold
    "plunder": {
        "phase": "combat",
        "clear_board": True,
        "settlements": {**HOLDINGS, "Kedesh": {"owner": 1, "troops": 1}},
        "generals": [{"id": 10, "owner": 0, "at": "Kedesh", "army": 8}, *BOTS_GENERALS],
    },
    # seat 0 controls all Naphtali, whose title seat 1 owns: two generals may be its Judge
    "claim": {
        "phase": "combat",
        "clear_board": True,
        "settlements": {**HOLDINGS, **{name: {"owner": 0, "troops": 1} for name in NAPHTALI_VILLAGES}},
        "generals": [G10, {"id": 13, "owner": 0, "at": "Hazor"}, *BOTS_GENERALS],
        "titles": {"Naphtali": {"owner": 1}},
    },
}
SEED = 3


def legal_in(position: dict) -> list[dict]:
    """Seat 0's legal actions in the position, as the test server builds it (same seed)."""
    game = verify.new_game({"players": 3, "seed": SEED}, position)
    return [action_to_dict(a) for a in game.legal_actions(0)]


def test_the_positions_make_every_action_type_of_the_registry_legal():
    # A new action type of the registry fails here until a position makes it legal; the survey
    # below then fails until a control of the screen sends it.
    registry = {a["type"] for kind in published_protocol()["decisions"] for a in kind["actions"]}
    covered = {a["type"] for position in REGISTRY_POSITIONS.values() for a in legal_in(position)}
    assert registry - covered == set(), "action types no position makes legal"


@pytest.mark.parametrize("profile", list(PROFILES))
@pytest.mark.parametrize("name", list(REGISTRY_POSITIONS))
def test_every_legal_action_is_sent_by_a_control_of_the_screen(server, browser, name, profile):
    # on the phone the board's pieces are tapped: a tap near several of them opens the cluster
    # chooser, where the survey taps the piece it meant, then the choice of that piece's menu
    options, lang = PROFILES[profile]
    page = open_page(browser, **options)
    errors = watch_console(page)
    data = new_game(server, position=REGISTRY_POSITIONS[name], seed=SEED)
    open_host_seat(page, server, data, f"?lang={lang}")
    page.wait_for_function("() => document.body.dataset.seq !== undefined")
    page.locator("#board svg [data-settlement='Hazor']").wait_for()
    view = page.evaluate(f"fetch('/api/games/{data['id']}/view').then((r) => r.json())")
    legal = {canonical(a) for a in view["legal_actions"]}
    assert legal, "the position owes seat 0 nothing"
    page.wait_for_function(  # a window, a turn, or a decision chosen on the map
        """() => !document.querySelector('#modal').hidden
                 || !!document.querySelector('#actions:not([hidden]) .end-turn')
                 || !!document.querySelector('#actions:not([hidden]) .on-map')"""
    )
    sent = survey(page, touch=options.get("has_touch", False))
    assert sorted(legal - sent) == [], "legal actions no control sends"
    assert sorted(sent - legal) == [], "controls that send an illegal action"
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("profile", list(PROFILES))
def test_an_intrigue_card_is_bought_from_the_actions_panel(server, browser, profile):
    # The purchase that names nothing on the board (the server sends `general: null`) has its
    # button; clicking it buys the card: 3 coins (the game's protocol), one card more in hand.
    options, lang = PROFILES[profile]
    page = open_page(browser, **options)
    errors = watch_console(page)
    data = new_game(server, position=REGISTRY_POSITIONS["acquisitions"], seed=SEED)
    open_host_seat(page, server, data, f"?lang={lang}")
    page.locator("#actions .end-turn").wait_for()
    view = page.evaluate(f"fetch('/api/games/{data['id']}/view').then((r) => r.json())")
    index = next(i for i, a in enumerate(view["legal_actions"]) if a["type"] == "buy" and a["item"] == "card")
    price = next(
        i["cost"]
        for i in page.evaluate(f"fetch('/api/games/{data['id']}/protocol').then((r) => r.json())")["items"]
        if i["name"] == "card"
    )
    button = page.locator("#actions button.action.buy", has_text=view["action_labels"][index])
    assert button.count() == 1 and button.is_enabled()
    button.scroll_into_view_if_needed()
    shot(page, f"buy-card-{profile}")
    coins = int(page.locator("#me .coins").get_attribute("data-coins"))
    hand = page.locator("#me .card-chip").count()
    before = seq(page)
    button.click()
    wait_change(page, before)
    page.wait_for_function(f"() => document.querySelectorAll('#me .card-chip').length === {hand + 1}")
    assert int(page.locator("#me .coins").get_attribute("data-coins")) == coins - price
    assert errors == []
    page.context.close()
