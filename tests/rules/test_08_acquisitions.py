"""§ 8 Phase 4 — Acquisitions (rules brief §§ 2, 4, 8, 12; rules reference § 8).

Each item's cost and placement, the caps (developments, walls, generals, hand), what a
siege forbids, refusals (IllegalAction naming § 8 with a reason, changing nothing), the
manual's scale example, turns, and the coins-spent counter.

Positions start from an empty land (`clear_board`) directly at `phase: "acquisitions"`
(no Income runs), round 1: player 0's turn comes first. No dice are scripted: nothing
here rolls a die, and with ScriptedDice a reshuffle keeps the order.
"""

from __future__ import annotations

import pytest

from conftest import WORLD, H, S, end_turns, make_game, refused
from judges.engine import DEFAULT_RULES, Buy, EndTurn, IllegalAction, NotYourDecision

OFF_SETTLEMENT = {"q": 7, "r": 0}  # a mountain hex without a settlement, north of Galilee
assert WORLD.hexes[WORLD.hex_at[(7, 0)]].settlement is None


# --- helpers -------------------------------------------------------------------------------


def garrison(owner: int, troops: int = 1, **extra) -> dict:
    return {"owner": owner, "troops": troops, **extra}


def gen(gid: int, owner: int, at, **extra) -> dict:
    return {"id": gid, "owner": owner, "at": at, **extra}


def shop(
    coins: int,
    settlements: dict | None = None,
    generals=(),
    hand=None,
    deck=None,
    round_: int = 1,
    players: int = 3,
    rules: dict | None = None,
    **extra,
):
    p0 = {"seat": 0, "coins": coins}
    if hand is not None:
        p0["hand"] = list(hand)
    position = {
        "clear_board": True,
        "round": round_,
        "phase": "acquisitions",
        "settlements": settlements or {},
        "generals": list(generals),
        "players": [p0],
        **extra,
    }
    if deck is not None:
        position["deck"] = list(deck)
    game = make_game(position, dice=[], players=players, rules=rules)
    assert game.phase_name == "acquisitions"
    return game


def buy(game, item: str, settlement: str | None = None, general: int | None = None, player: int = 0):
    return game.apply(Buy(player=player, item=item, settlement=settlement, general=general))


def coins(game, seat: int = 0) -> int:
    return game.state.players[seat].coins


def garrison_of(game, name: str) -> tuple:
    s = game.state.settlements[S(name)]
    return (s.owner, s.troops)


def assert_refused(
    game, action, words: tuple[str, ...] = (), error: type = IllegalAction, section: str | None = "§8"
) -> None:
    """The purchase raises `error` naming § 8 and a reason (its message contains `words`),
    and changes nothing at all."""
    message = refused(game, action, error, section).message.lower()
    for word in words:
        assert word.lower() in message, message


# --- Costs ------------------------------------------------------------------------------------


def test_a_troop_costs_one_coin_and_joins_the_garrison_of_your_settlement():
    game = shop(5, {"Kedesh": garrison(0, 2)})
    buy(game, "troop", settlement="Kedesh")
    assert coins(game) == 4
    assert garrison_of(game, "Kedesh") == (0, 3)


def test_a_mercenary_costs_two_coins_and_registers_one_wrath():
    game = shop(5, {"Kedesh": garrison(0)}, generals=[gen(10, 0, "Kedesh")])
    buy(game, "mercenary", general=10)
    assert coins(game) == 3
    assert game.state.generals[10].army == 1
    assert game.state.wrath_registered == 1
    assert game.state.wrath == 0  # on the meter only at the next Announcements


def test_a_development_costs_four_coins():
    game = shop(5, {"Kedesh": garrison(0)})
    buy(game, "development", settlement="Kedesh")
    assert coins(game) == 1
    assert game.state.settlements[S("Kedesh")].developments == 1


def test_a_wall_costs_ten_coins():
    game = shop(12, {"Hazor": garrison(0)})
    buy(game, "wall", settlement="Hazor")
    assert coins(game) == 2
    assert game.state.settlements[S("Hazor")].walls


def test_a_game_prices_its_items_by_its_own_rules():
    # Walls cost 8 in this game: 8 coins buy one, 7 do not, whatever the default rules say.
    cheap_walls = {"costs": {**DEFAULT_RULES.costs, "wall": 8}}
    game = shop(8, {"Hazor": garrison(0)}, rules=cheap_walls)
    assert Buy(player=0, item="wall", settlement="Hazor") in list(game.legal_actions(0))
    buy(game, "wall", settlement="Hazor")
    assert coins(game) == 0 and game.state.settlements[S("Hazor")].walls
    assert game.state.spent["wall"] == 8
    poor = shop(7, {"Hazor": garrison(0)}, rules=cheap_walls)
    assert Buy(player=0, item="wall", settlement="Hazor") not in list(poor.legal_actions(0))
    error = refused(poor, Buy(player=0, item="wall", settlement="Hazor"), IllegalAction, "§8")
    assert error.key == "error.buy.too_poor" and error.params["cost"] == 8 and error.params["coins"] == 7
    # ...and under the default rules the same 8 coins buy no wall.
    default = shop(8, {"Hazor": garrison(0)})
    error = refused(default, Buy(player=0, item="wall", settlement="Hazor"), IllegalAction, "§8")
    assert error.params["cost"] == DEFAULT_RULES.costs["wall"] == 10


def test_a_general_costs_six_coins_and_appears_on_your_settlement():
    game = shop(8, {"Hazor": garrison(0)})
    first_id = game.state.next_general_id
    buy(game, "general", settlement="Hazor")
    assert coins(game) == 2
    g = game.state.generals[first_id]
    assert (g.owner, g.hex, g.captor, g.army, g.prophet, g.anointed, g.ark) == (
        0,
        H("Hazor"),
        None,
        0,
        False,
        False,
        False,
    )
    assert [x.id for x in game.state.generals.values() if x.owner == 0] == [first_id]


def test_a_card_costs_three_coins_and_is_drawn_from_the_top_of_the_deck():
    game = shop(4, hand=["tax"], deck=["plague", "revolt"])
    buy(game, "card")
    assert coins(game) == 1
    assert game.state.players[0].hand == ["tax", "revolt"]
    assert game.state.deck == ["plague"]


# --- Placement ----------------------------------------------------------------------------------


def test_a_troop_bought_for_a_settlement_held_by_your_general_gives_it_your_garrison():
    # Merom is free; player 0's general stands in it, so player 0 controls it.
    game = shop(3, {}, generals=[gen(10, 0, "Merom")])
    buy(game, "troop", settlement="Merom")
    assert garrison_of(game, "Merom") == (0, 1)
    assert coins(game) == 2


def test_a_troop_can_join_the_army_of_your_general_standing_in_your_settlement():
    game = shop(3, {"Hazor": garrison(0)}, generals=[gen(10, 0, "Hazor")])
    buy(game, "troop", general=10)
    assert game.state.generals[10].army == 1
    assert garrison_of(game, "Hazor") == (0, 1)
    assert coins(game) == 2
    assert game.state.wrath_registered == 0  # a troop is no mercenary


def test_a_troop_cannot_join_an_army_outside_a_settlement_you_control():
    game = shop(
        3,
        {"Kedesh": garrison(1)},
        generals=[gen(10, 0, OFF_SETTLEMENT), gen(11, 0, "Hazor", captor=1), gen(12, 1, "Kedesh")],
    )
    assert_refused(game, Buy(player=0, item="troop", general=10))  # not in a settlement
    assert_refused(game, Buy(player=0, item="troop", general=11))  # captive
    assert_refused(game, Buy(player=0, item="troop", general=12))  # not his


@pytest.mark.parametrize(
    "name,spec",
    [
        ("Kedesh", garrison(1)),  # another player's
        ("Acco", None),  # Canaanite-held (as set up)
        ("Merom", {}),  # free
        ("Hammath", {"razed": True}),  # razed: nobody controls it
    ],
)
def test_nothing_can_be_placed_in_a_settlement_you_do_not_control(name, spec):
    settlements = {"Lachish": garrison(0)}
    if spec is not None:
        settlements[name] = spec
    game = shop(20, settlements)
    for item in ("troop", "development", "wall", "general"):
        assert_refused(game, Buy(player=0, item=item, settlement=name), ("control",))


def test_a_captive_general_gives_no_control_to_buy_in():
    # Player 0's general is player 1's captive in the free village Merom.
    game = shop(20, {}, generals=[gen(10, 0, "Merom", captor=1)])
    assert_refused(game, Buy(player=0, item="troop", settlement="Merom"), ("control",))


def test_mercenaries_join_the_army_of_your_free_general_anywhere():
    # General 10 stands on an empty mountain hex, general 11 in player 1's village: both
    # may hire. Each mercenary registers one Wrath.
    game = shop(7, {"Kedesh": garrison(1)}, generals=[gen(10, 0, OFF_SETTLEMENT), gen(11, 0, "Kedesh")])
    buy(game, "mercenary", general=10)
    buy(game, "mercenary", general=10)
    buy(game, "mercenary", general=11)
    assert (game.state.generals[10].army, game.state.generals[11].army) == (2, 1)
    assert coins(game) == 1
    assert game.state.wrath_registered == 3


def test_mercenaries_only_for_your_own_free_generals():
    game = shop(7, {"Kedesh": garrison(1)}, generals=[gen(10, 0, "Kedesh", captor=1), gen(11, 1, "Kedesh")])
    assert_refused(game, Buy(player=0, item="mercenary", general=10), ("captive",))
    assert_refused(game, Buy(player=0, item="mercenary", general=11))
    assert_refused(game, Buy(player=0, item="mercenary"))  # no general named


def test_mercenary_wrath_reaches_the_meter_at_the_next_announcements():
    game = shop(
        4,
        {"Lachish": garrison(0), "Tamar": garrison(1), "Succoth": garrison(2)},
        generals=[gen(10, 0, "Lachish")],
        deck=["famine"] * 3,
    )
    buy(game, "mercenary", general=10)
    buy(game, "mercenary", general=10)
    assert (game.state.wrath, game.state.wrath_registered) == (0, 2)
    end_turns(game, until_phase="intrigue", until_round=2)
    # 2 mercenaries + 1 for the Canaanite holdings in Israel and Judah.
    assert (game.state.round, game.state.wrath, game.state.wrath_registered) == (2, 3, 0)


# --- Caps ---------------------------------------------------------------------------------------


def test_a_village_holds_one_development():
    game = shop(20, {"Kedesh": garrison(0)})
    buy(game, "development", settlement="Kedesh")
    assert_refused(game, Buy(player=0, item="development", settlement="Kedesh"), ("development",))
    assert game.state.settlements[S("Kedesh")].developments == 1
    assert coins(game) == 16


def test_a_city_holds_three_developments():
    assert WORLD.settlements[S("Hazor")].is_city
    game = shop(20, {"Hazor": garrison(0, developments=1)})
    buy(game, "development", settlement="Hazor")
    buy(game, "development", settlement="Hazor")
    assert game.state.settlements[S("Hazor")].developments == 3
    assert_refused(game, Buy(player=0, item="development", settlement="Hazor"), ("development",))
    assert coins(game) == 12


def test_one_wall_per_settlement():
    game = shop(30, {"Hazor": garrison(0)})
    buy(game, "wall", settlement="Hazor")
    assert_refused(game, Buy(player=0, item="wall", settlement="Hazor"), ("wall",))
    assert coins(game) == 20


def test_no_wall_where_there_already_are_walls():
    game = shop(30, {"Hazor": garrison(0, walls=True)})
    assert_refused(game, Buy(player=0, item="wall", settlement="Hazor"), ("wall",))


def test_at_most_six_generals():
    game = shop(20, {"Hazor": garrison(0)}, generals=[gen(10 + i, 0, "Hazor") for i in range(5)])
    buy(game, "general", settlement="Hazor")
    assert sum(1 for g in game.state.generals.values() if g.owner == 0) == 6
    assert_refused(game, Buy(player=0, item="general", settlement="Hazor"), ("6",))
    assert coins(game) == 14


def test_captive_generals_count_toward_the_six():
    # Five free generals and one held by player 1: the sixth slot is taken.
    game = shop(
        20,
        {"Hazor": garrison(0), "Kedesh": garrison(1)},
        generals=[gen(10 + i, 0, "Hazor") for i in range(5)] + [gen(20, 0, "Kedesh", captor=1)],
    )
    assert_refused(game, Buy(player=0, item="general", settlement="Hazor"), ("6",))


def test_a_card_is_refused_with_a_full_hand():
    game = shop(9, hand=["tax", "tax", "revolt", "famine"], deck=["plague", "prophet"])
    buy(game, "card")
    assert len(game.state.players[0].hand) == 5
    assert_refused(game, Buy(player=0, item="card"), ("hand",))
    assert coins(game) == 6


def test_a_card_with_an_empty_deck_comes_from_the_reshuffled_discard_pile():
    game = shop(3, hand=[], deck=[], discard=["assassin"])
    buy(game, "card")
    assert game.state.players[0].hand == ["assassin"]
    assert (game.state.deck, game.state.discard) == ([], [])


# --- Sieges -------------------------------------------------------------------------------------


def test_no_development_or_wall_in_a_besieged_settlement():
    game = shop(20, {"Hazor": garrison(0, 3)}, invaders=[{"at": "Hazor"}])
    assert_refused(game, Buy(player=0, item="development", settlement="Hazor"), ("besieged",))
    assert_refused(game, Buy(player=0, item="wall", settlement="Hazor"), ("besieged",))


def test_troops_may_be_bought_for_a_besieged_settlement():
    game = shop(20, {"Hazor": garrison(0, 3)}, generals=[gen(10, 0, "Hazor")], invaders=[{"at": "Hazor"}])
    buy(game, "troop", settlement="Hazor")
    buy(game, "troop", general=10)
    assert garrison_of(game, "Hazor") == (0, 4)
    assert game.state.generals[10].army == 1
    assert coins(game) == 18


def test_a_siege_elsewhere_does_not_bar_developments_here():
    game = shop(20, {"Hazor": garrison(0), "Kedesh": garrison(0)}, invaders=[{"at": "Hazor"}])
    buy(game, "development", settlement="Kedesh")
    buy(game, "wall", settlement="Kedesh")
    assert (game.state.settlements[S("Kedesh")].developments, game.state.settlements[S("Kedesh")].walls) == (1, True)
    assert coins(game) == 6


# --- Coins ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "item,have,target",
    [
        ("troop", 0, {"settlement": "Hazor"}),
        ("mercenary", 1, {"general": 10}),
        ("development", 3, {"settlement": "Hazor"}),
        ("wall", 9, {"settlement": "Hazor"}),
        ("general", 5, {"settlement": "Hazor"}),
        ("card", 2, {}),
    ],
)
def test_a_purchase_without_enough_coins_is_refused(item, have, target):
    game = shop(have, {"Hazor": garrison(0)}, generals=[gen(10, 0, "Hazor")], hand=[])
    assert_refused(game, Buy(player=0, item=item, **target), ("coins",))
    assert coins(game) == have


@pytest.mark.parametrize(
    "item,cost,target",
    [
        ("troop", 1, {"settlement": "Hazor"}),
        ("mercenary", 2, {"general": 10}),
        ("development", 4, {"settlement": "Hazor"}),
        ("wall", 10, {"settlement": "Hazor"}),
        ("general", 6, {"settlement": "Hazor"}),
        ("card", 3, {}),
    ],
)
def test_exactly_the_cost_is_enough_and_leaves_nothing(item, cost, target):
    game = shop(cost, {"Hazor": garrison(0)}, generals=[gen(10, 0, "Hazor")], hand=[], deck=["tax"])
    buy(game, item, **target)
    assert coins(game) == 0


def test_an_unknown_item_is_refused():
    game = shop(20, {"Hazor": garrison(0)})
    assert_refused(game, Buy(player=0, item="chariot", settlement="Hazor"))


# --- Refusals: a message key with parameters, in the player's language ---------------------------

REFUSALS = [  # (position arguments of shop(), the purchase, its key, its parameters)
    (dict(coins=20), dict(item="chariot"), "error.buy.not_for_sale", {"item": "chariot"}),
    (
        dict(coins=9),
        dict(item="wall", settlement="Hazor"),
        "error.buy.too_poor",
        {"item": "wall", "cost": 10, "coins": 9},
    ),
    (
        dict(coins=5),
        dict(item="troop", settlement="Atlantis"),
        "error.buy.unknown_settlement",
        {"item": "troop", "settlement": "Atlantis"},
    ),
    (
        dict(coins=5),
        dict(item="mercenary", general=11),
        "error.buy.not_your_general",
        {"item": "mercenary", "general": 11},
    ),
    (
        dict(coins=5, generals=[gen(12, 0, "Shechem", captor=1)]),
        dict(item="mercenary", general=12),
        "error.buy.general_captive",
        {"item": "mercenary", "general": 12},
    ),
    (dict(coins=5), dict(item="card", settlement="Hazor"), "error.buy.names_nothing", {"item": "card"}),
    (dict(coins=5, hand=["tax"] * 5), dict(item="card"), "error.buy.hand_full", {"item": "card", "limit": 5}),
    (dict(coins=5, deck=[]), dict(item="card"), "error.buy.deck_empty", {"item": "card"}),
    (dict(coins=5), dict(item="mercenary", settlement="Hazor"), "error.buy.needs_general", {"item": "mercenary"}),
    (dict(coins=5), dict(item="troop", settlement="Hazor", general=10), "error.buy.both_named", {"item": "troop"}),
    (
        dict(coins=5, generals=[gen(13, 0, OFF_SETTLEMENT)]),
        dict(item="troop", general=13),
        "error.buy.army_outside",
        {"item": "troop", "general": 13},
    ),
    (dict(coins=5), dict(item="development", general=10), "error.buy.needs_settlement", {"item": "development"}),
    (
        dict(coins=5),
        dict(item="troop", settlement="Kedesh"),
        "error.buy.not_controlled",
        {"item": "troop", "settlement": "Kedesh"},
    ),
    (
        dict(coins=20, invaders=[{"at": "Hazor"}]),
        dict(item="wall", settlement="Hazor"),
        "error.buy.besieged",
        {"item": "wall", "settlement": "Hazor"},
    ),
    (
        dict(coins=20, walls=True),
        dict(item="wall", settlement="Hazor"),
        "error.buy.has_walls",
        {"item": "wall", "settlement": "Hazor"},
    ),
    (
        dict(coins=20, developments=3),
        dict(item="development", settlement="Hazor"),
        "error.buy.development_cap",
        {"item": "development", "settlement": "Hazor", "limit": 3},
    ),
    (
        dict(coins=20, generals=[gen(20 + i, 0, "Hazor") for i in range(5)]),
        dict(item="general", settlement="Hazor"),
        "error.buy.general_limit",
        {"item": "general", "limit": 6},
    ),
]


def _refusal_shop(coins, generals=(), walls=False, developments=0, **extra):
    hazor = garrison(0, walls=walls, developments=developments)
    return shop(
        coins,
        {"Hazor": hazor, "Kedesh": garrison(1)},
        generals=[gen(10, 0, "Hazor"), *generals],
        **{"hand": [], "deck": ["tax"], **extra},
    )


@pytest.mark.parametrize("where, purchase, key, params", REFUSALS, ids=[r[2] for r in REFUSALS])
def test_a_refused_purchase_names_its_reason_by_key_and_parameters(where, purchase, key, params):
    game = _refusal_shop(**where)
    error = refused(game, Buy(player=0, **purchase), IllegalAction, "§8")
    assert (error.key, error.params) == (key, params)
    assert error.message and not error.message.startswith("error.")  # the developers' English sentence


def test_every_purchase_refusal_is_translated_in_every_language():
    from judges import i18n

    assert len({key for _, _, key, _ in REFUSALS}) == 17
    for _, _, key, params in REFUSALS:
        texts = {
            lang: i18n.render_error({"key": key, "params": params, "message": "-"}, lang, strict=True)
            for lang in i18n.LANGUAGES
        }
        assert len(set(texts.values())) == 3, texts
        assert not any("{" in t or "None" in t for t in texts.values()), texts


def test_a_spanish_player_reads_why_a_purchase_is_refused_in_spanish():
    from judges.i18n import render_error

    game = shop(9, {"Hazor": garrison(0)})
    error = refused(game, Buy(player=0, item="wall", settlement="Hazor"), IllegalAction, "§8")
    assert render_error(error, "es") == "El precio de Murallas es 10 monedas y tienes 9."
    assert render_error(error, "pt_BR") == "O preço de Muralhas é 10 moedas e você tem 9."
    assert render_error(error, "en") == "The price of Walls is 10 coins and you have 9."
    assert error.message == "a wall costs 10 coins and you have 9"


def test_manual_example_seven_coins_buy_three_troops_and_a_development_leaving_nothing():
    # Manual: 7 coins = "a wall minus three coins, or three troops and a development".
    game = shop(7, {"Hazor": garrison(0)})
    assert_refused(game, Buy(player=0, item="wall", settlement="Hazor"), ("10", "7"))
    for _ in range(3):
        buy(game, "troop", settlement="Hazor")
    buy(game, "development", settlement="Hazor")
    assert coins(game) == 0
    assert garrison_of(game, "Hazor") == (0, 4)
    assert game.state.settlements[S("Hazor")].developments == 1
    assert_refused(game, Buy(player=0, item="troop", settlement="Hazor"), ("coins",))


# --- Turns --------------------------------------------------------------------------------------


def test_purchases_only_in_your_own_turn():
    game = make_game(
        {
            "clear_board": True,
            "phase": "acquisitions",
            "settlements": {"Hazor": garrison(0), "Kedesh": garrison(1)},
            "players": [{"seat": 0, "coins": 10}, {"seat": 1, "coins": 10}],
        },
        dice=[],
    )
    assert game.waiting_for() == [0]
    assert_refused(game, Buy(player=1, item="troop", settlement="Kedesh"), error=NotYourDecision, section=None)
    buy(game, "troop", settlement="Hazor")
    game.apply(EndTurn(player=0))
    # Player 0 has passed: no more shopping for him this round; now it is player 1's turn.
    assert_refused(game, Buy(player=0, item="troop", settlement="Hazor"), error=NotYourDecision, section=None)
    buy(game, "troop", settlement="Kedesh", player=1)
    assert (coins(game, 0), coins(game, 1)) == (9, 9)
    assert (garrison_of(game, "Hazor"), garrison_of(game, "Kedesh")) == ((0, 2), (1, 2))


def test_a_turn_takes_any_mix_of_purchases():
    game = shop(20, {"Hazor": garrison(0)}, generals=[gen(10, 0, "Hazor")], hand=[], deck=["tax"])
    buy(game, "troop", settlement="Hazor")
    buy(game, "mercenary", general=10)
    buy(game, "development", settlement="Hazor")
    buy(game, "card")
    buy(game, "troop", general=10)
    assert coins(game) == 20 - 1 - 2 - 4 - 3 - 1
    assert game.waiting_for() == [0]  # still his turn until he passes


def test_nothing_can_be_bought_outside_acquisitions():
    game = make_game(
        {
            "clear_board": True,
            "phase": "intrigue",
            "deck": ["famine"] * 6,
            "settlements": {"Hazor": garrison(0)},
            "players": [{"seat": 0, "coins": 10}],
        },
        dice=[],
    )
    assert game.phase_name == "intrigue"
    assert_refused(game, Buy(player=0, item="troop", settlement="Hazor"), section=None)
    end_turns(game, until_phase="movement")
    assert game.phase_name == "movement"
    assert_refused(game, Buy(player=0, item="troop", settlement="Hazor"), section=None)


# --- Coins spent ----------------------------------------------------------------------------------


def test_coins_spent_are_counted_by_item():
    game = shop(24, {"Hazor": garrison(0)}, generals=[gen(10, 0, "Hazor")], hand=[], deck=["tax"])
    before = dict(game.state.spent)
    buy(game, "troop", settlement="Hazor")
    buy(game, "troop", general=10)
    buy(game, "mercenary", general=10)
    buy(game, "development", settlement="Hazor")
    buy(game, "wall", settlement="Hazor")
    buy(game, "card")
    assert_refused(game, Buy(player=0, item="general", settlement="Hazor"), ("coins",))  # 3 left
    assert before == {}
    assert game.state.spent == {"troop": 2, "mercenary": 2, "development": 4, "wall": 10, "card": 3}
    assert coins(game) == 24 - 21
