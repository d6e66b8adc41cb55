"""§ 6 Phase 2 — Intrigue (rules brief §§ 2, 4, 6, 12; rules reference § 6).

The free draw, the two cards of a turn, every card's effect, executions and releases, and
the Round report lines they leave. Positions start from an empty land (`clear_board`: only
the pieces placed here and the Canaanite holdings), at `phase: "intrigue"`, so the free
draw happens first; the deck is set by each test (its top is its LAST card). Round 1's turn
order is 0, 1, 2. Dice are scripted exactly: a test fails if the engine rolls a die the
rules do not call for.

Every position keeps each player alive with a village in a region of their own (BASE), so
that the round can be played to its Victory Check without eliminations or battles.
"""

from __future__ import annotations

import pytest

from conftest import WORLD, H, R, S, end_turns, entries, make_game, refused, terrain
from judges.engine import (
    Discard,
    EndTurn,
    Execute,
    IllegalAction,
    NotYourDecision,
    PlayAnointing,
    PlayAssassin,
    PlayEvent,
    PlayProphet,
    PlayRevolt,
    PlayTax,
    Release,
)

# One village each, in three different regions (Judah, Negev, Gilead): nobody controls a
# settlement in another player's base region, so none of these is a Revolt target.
BASE = {"Lachish": {"owner": 0, "troops": 1}, "Tamar": {"owner": 1, "troops": 1}, "Succoth": {"owner": 2, "troops": 1}}
FILLER = ["famine"] * 6  # a deck for the free draws of two rounds


# --- helpers -------------------------------------------------------------------------------


def garrison(owner: int, troops: int = 1, **extra) -> dict:
    return {"owner": owner, "troops": troops, **extra}


def gen(gid: int, owner: int, at, **extra) -> dict:
    return {"id": gid, "owner": owner, "at": at, **extra}


def intrigue_position(
    settlements: dict | None = None,
    hands: dict | None = None,
    coins: dict | None = None,
    generals=(),
    deck=None,
    discard=(),
    round_: int = 1,
    base: bool = True,
    **extra,
) -> dict:
    players = {}
    for seat, hand in (hands or {}).items():
        players.setdefault(seat, {"seat": seat})["hand"] = list(hand)
    for seat, c in (coins or {}).items():
        players.setdefault(seat, {"seat": seat})["coins"] = c
    holdings = dict(BASE) if base else {}
    holdings.update(settlements or {})
    return {
        "clear_board": True,
        "round": round_,
        "phase": "intrigue",
        "settlements": holdings,
        "generals": list(generals),
        "players": list(players.values()),
        "deck": list(FILLER if deck is None else deck),
        "discard": list(discard),
        **extra,
    }


def game_at(dice=(), players: int = 3, **kw):
    return make_game(intrigue_position(**kw), dice=list(dice), players=players)


def hand(game, seat: int) -> list[str]:
    return list(game.state.players[seat].hand)


def coins(game) -> list[int]:
    return [p.coins for p in game.state.players]


def owed(game) -> list[tuple[int, str]]:
    return sorted((d.player, d.kind) for d in game.pending)


def garrison_of(game, name: str) -> tuple:
    s = game.state.settlements[S(name)]
    return (s.owner, s.troops)


def rolled(game) -> list[int]:
    return [face for _, face in game.dice.rolled]


def assert_refused(game, action, error: type = IllegalAction, section: str | None = "§6") -> None:
    """The action raises `error` naming the rule section, and changes nothing at all (no die
    rolled either)."""
    refused(game, action, error, section)


def round_log(game, key: str) -> list[dict]:
    return [e.params for e in game.state.round_log if e.key == key]


def play_round_out(game) -> None:
    """Ends every turn until the next round's Intrigue (nothing else may be owed)."""
    end_turns(game, until_phase="intrigue", until_round=game.state.round + 1)
    assert all(d.kind == "turn" for d in game.pending), game.pending


def round_report(game, round_: int):
    notes = [n for n in game.notifications if n.key == "notification.round_report" and n.round == round_]
    assert len(notes) == 1, notes
    return notes[0]


def report_lines(game, round_: int, key: str) -> list[dict]:
    return [e.params for e in round_report(game, round_).entries if e.key == key]


# --- The free draw ---------------------------------------------------------------------------


def test_free_draw_every_living_player_draws_one_card_in_turn_order_before_any_turn():
    # Round 2: turn order 1, 2, 0. The deck's top is its last card: seat 1 draws "tax",
    # seat 2 "revolt", seat 0 "prophet"; "assassin" stays in the deck.
    game = game_at(
        round_=2, deck=["assassin", "prophet", "revolt", "tax"], hands={0: ["famine"], 1: [], 2: ["abundance"]}
    )
    assert game.phase_name == "intrigue"
    assert (hand(game, 0), hand(game, 1), hand(game, 2)) == (["famine", "prophet"], ["tax"], ["abundance", "revolt"])
    assert game.state.deck == ["assassin"]
    # The draw came first; now the first player's turn.
    assert owed(game) == [(1, "turn")]


def test_free_draw_skips_an_eliminated_player():
    # Seat 1 is out of the game: seats 0 and 2 draw, in that order (round 1).
    game = make_game(
        {
            **intrigue_position(deck=["abundance", "revolt", "tax"], hands={0: [], 2: []}),
            "players": [{"seat": 0, "hand": []}, {"seat": 1, "hand": [], "eliminated": True}, {"seat": 2, "hand": []}],
        },
        dice=[],
    )
    assert (hand(game, 0), hand(game, 1), hand(game, 2)) == (["tax"], [], ["revolt"])
    assert game.state.deck == ["abundance"]


def test_hand_above_five_owes_a_discard_and_the_turns_wait_for_it():
    game = game_at(
        deck=["famine", "famine", "revolt"], hands={0: ["tax", "tax", "plague", "assassin", "prophet"], 1: [], 2: []}
    )
    assert hand(game, 0) == ["tax", "tax", "plague", "assassin", "prophet", "revolt"]
    assert owed(game) == [(0, "discard")]
    # No turn is owed before the discard: a card cannot be played yet.
    assert_refused(game, PlayTax(player=0, region="Naphtali"), NotYourDecision, section=None)
    game.apply(Discard(player=0, card="plague"))
    assert hand(game, 0) == ["tax", "tax", "assassin", "prophet", "revolt"]
    assert game.state.discard == ["plague"]
    assert owed(game) == [(0, "turn")]


def test_several_players_above_the_limit_discard_at_the_same_time():
    five = ["tax", "famine", "abundance", "assassin", "revolt"]
    game = game_at(deck=["famine", "plague", "sandstorm", "prophet"], hands={0: list(five), 1: list(five), 2: ["tax"]})
    # Seats 0 and 1 are above the limit; both owe their discard now; seat 2 (2 cards) owes none.
    assert owed(game) == [(0, "discard"), (1, "discard")]
    assert game.waiting_for() == [0, 1]
    # Either may answer first.
    game.apply(Discard(player=1, card="tax"))
    assert owed(game) == [(0, "discard")]
    game.apply(Discard(player=0, card="prophet"))
    assert game.state.discard == ["tax", "prophet"]
    assert [len(hand(game, s)) for s in range(3)] == [5, 5, 2]
    assert owed(game) == [(0, "turn")]


def test_discards_are_made_one_card_at_a_time():
    # Seven cards after the draw: two discards, each its own decision of one card.
    game = game_at(
        deck=["famine", "famine", "revolt"],
        hands={0: ["tax", "tax", "plague", "assassin", "prophet", "abundance"], 1: [], 2: []},
    )
    assert len(hand(game, 0)) == 7
    assert owed(game) == [(0, "discard")]
    game.apply(Discard(player=0, card="tax"))
    assert len(hand(game, 0)) == 6
    assert owed(game) == [(0, "discard")]
    game.apply(Discard(player=0, card="plague"))
    assert hand(game, 0) == ["tax", "assassin", "prophet", "abundance", "revolt"]
    assert game.state.discard == ["tax", "plague"]
    assert owed(game) == [(0, "turn")]


def test_a_discard_of_a_card_not_in_hand_is_refused():
    game = game_at(
        deck=["famine", "famine", "revolt"], hands={0: ["tax", "tax", "plague", "assassin", "prophet"], 1: [], 2: []}
    )
    assert_refused(game, Discard(player=0, card="anointing"))
    assert_refused(game, Discard(player=1, card="famine"), NotYourDecision, section=None)


def test_an_empty_deck_is_rebuilt_from_the_shuffled_discard_pile():
    # One card in the deck for three players: seat 0 draws it; then the discard pile
    # ["tax", "revolt"] becomes the deck, shuffled by the dice (the script's second shuffle,
    # [1, 0], reverses it; the first shuffle is the setup's 30-card deck).
    dice = {"faces": [], "shuffles": [list(range(30)), [1, 0]]}
    game = make_game(
        intrigue_position(deck=["abundance"], discard=["tax", "revolt"], hands={0: [], 1: [], 2: []}), dice=dice
    )
    # Shuffled deck: ["revolt", "tax"]: seat 1 draws "tax", seat 2 "revolt".
    assert (hand(game, 0), hand(game, 1), hand(game, 2)) == (["abundance"], ["tax"], ["revolt"])
    assert game.state.deck == []
    assert game.state.discard == []


def test_with_deck_and_discard_pile_both_empty_nothing_is_drawn():
    game = game_at(deck=[], discard=[], hands={0: ["tax"], 1: [], 2: []})
    assert (hand(game, 0), hand(game, 1), hand(game, 2)) == (["tax"], [], [])
    assert owed(game) == [(0, "turn")]


# --- Up to two cards per turn -------------------------------------------------------------------


def test_a_player_plays_at_most_two_cards_per_turn_the_third_is_refused():
    game = game_at(hands={0: ["famine", "abundance", "sandstorm"], 1: ["plague", "abundance", "sandstorm"]})
    game.apply(PlayEvent(player=0, card="famine"))
    game.apply(PlayEvent(player=0, card="abundance"))
    assert_refused(game, PlayEvent(player=0, card="sandstorm"))
    assert hand(game, 0) == ["sandstorm", "famine"]  # the free draw's famine is still there too
    # The next player has two cards of his own.
    game.apply(EndTurn(player=0))
    game.apply(PlayEvent(player=1, card="plague"))
    game.apply(PlayEvent(player=1, card="abundance"))
    assert_refused(game, PlayEvent(player=1, card="sandstorm"))
    assert game.state.events_area == ["famine", "abundance", "plague", "abundance"]


def test_the_two_card_limit_counts_every_kind_of_card():
    game = game_at(hands={0: ["tax", "famine", "revolt"]}, settlements={"Hazor": garrison(0), "Kedesh": garrison(1)})
    game.apply(PlayTax(player=0, region="Naphtali"))
    game.apply(PlayEvent(player=0, card="famine"))
    assert_refused(game, PlayRevolt(player=0, settlement="Kedesh"))


def test_executions_and_releases_do_not_count_as_cards():
    # Player 0 holds three captives at Hazor (his garrison). He releases one, plays two
    # cards, then still executes another and releases the third.
    game = game_at(
        hands={0: ["famine", "abundance"]},
        settlements={"Hazor": garrison(0, 2)},
        generals=[gen(20, 1, "Hazor", captor=0), gen(21, 2, "Hazor", captor=0), gen(22, 1, "Hazor", captor=0)],
    )
    game.apply(Release(player=0, general=20))
    game.apply(PlayEvent(player=0, card="famine"))
    game.apply(PlayEvent(player=0, card="abundance"))
    game.apply(Execute(player=0, general=21))
    game.apply(Release(player=0, general=22))
    assert 21 not in game.state.generals
    assert game.state.generals[20].captor is None and game.state.generals[22].captor is None
    assert game.state.events_area == ["famine", "abundance"]


# --- Tax --------------------------------------------------------------------------------------


def test_tax_names_a_region_and_registers_one_wrath():
    game = game_at(hands={0: ["tax"]})
    game.apply(PlayTax(player=0, region="Naphtali"))
    assert game.state.taxes == {R("Naphtali"): 0}
    assert game.state.wrath_registered == 1
    assert game.state.wrath == 0  # not on the meter yet
    assert "tax" not in hand(game, 0)


def test_only_one_tax_per_region_per_round():
    game = game_at(hands={0: ["tax", "tax"], 1: ["tax"]})
    game.apply(PlayTax(player=0, region="Naphtali"))
    # The same player cannot tax it twice ...
    assert_refused(game, PlayTax(player=0, region="Naphtali"))
    game.apply(EndTurn(player=0))
    # ... nor can anyone else this round; another region is fine.
    assert_refused(game, PlayTax(player=1, region="Naphtali"))
    game.apply(PlayTax(player=1, region="Gilead"))
    assert game.state.taxes == {R("Naphtali"): 0, R("Gilead"): 1}
    assert game.state.wrath_registered == 2


def test_tax_wrath_reaches_the_meter_at_the_next_announcements():
    game = game_at(hands={0: ["tax"]})
    game.apply(PlayTax(player=0, region="Negev"))
    assert (game.state.wrath, game.state.wrath_registered) == (0, 1)
    play_round_out(game)
    # Round 2's Announcements: + the tax's 1, + 1 because Canaanites still hold settlements
    # of Israel and Judah (Acco, Megiddo, Beth-shean, Gezer, Jebus).
    (line,) = entries(game, "wrath.reconciled")[-1:]
    assert line.params["registered"] == 1
    assert (game.state.wrath, game.state.wrath_registered) == (2, 0)


def test_tax_acts_in_this_rounds_income_collector_double_owners_nothing():
    # Round 4 (turn order 0, 1, 2; no dowry). Naphtali: Hazor (player 1: city + 1
    # development = 4), Kedesh (player 2: 1), Merom (player 0, the collector: 1), Chinnereth
    # and Hammath free (1 each). Player 0 taxes Naphtali in Intrigue.
    game = game_at(
        round_=4,
        hands={0: ["tax"]},
        settlements={"Hazor": garrison(1, developments=1), "Kedesh": garrison(2), "Merom": garrison(0)},
    )
    game.apply(PlayTax(player=0, region="Naphtali"))
    end_turns(game, until_phase="acquisitions")
    assert game.phase_name == "acquisitions"
    # Collector: 2 x (4 + 1 + 1 + 1 + 1) = 16, + Lachish 1. Owners get nothing from Naphtali,
    # only their base villages (1 each).
    assert coins(game) == [17, 1, 1]


def test_a_tax_played_this_round_does_not_carry_into_the_next_income():
    game = game_at(round_=4, hands={0: ["tax"]}, settlements={"Hazor": garrison(1)})
    game.apply(PlayTax(player=0, region="Naphtali"))
    end_turns(game, until_phase="acquisitions", until_round=5)
    # Round 4: 2 x 6 + 1 = 13 to player 0; round 5: Hazor 2 to its owner, Lachish 1.
    assert coins(game) == [13 + 1, 1 + 2 + 1, 1 + 1]


# --- Events -----------------------------------------------------------------------------------


def test_event_cards_go_to_the_events_area_in_the_order_played():
    game = game_at(hands={0: ["famine", "abundance"], 1: ["sandstorm"]}, deck=["tax"] * 6)
    game.apply(PlayEvent(player=0, card="famine"))
    game.apply(PlayEvent(player=0, card="abundance"))
    game.apply(EndTurn(player=0))
    game.apply(PlayEvent(player=1, card="sandstorm"))
    assert game.state.events_area == ["famine", "abundance", "sandstorm"]
    assert hand(game, 0) == ["tax"] and hand(game, 1) == ["tax"]
    assert "famine" not in game.state.discard
    assert game.state.events_landed == []  # nothing is in force yet


def test_events_played_now_do_not_touch_this_rounds_income_and_land_next_round():
    # Lachish (player 0's village) is on plain. Player 0 plays Famine, then Abundance; they
    # land at round 2's Announcements: Famine d6 1 -> plain, Abundance d6 3 -> mountains.
    assert terrain("Lachish") == "plain"
    game = game_at(hands={0: ["famine", "abundance"]}, deck=["tax"] * 6, dice=[1, 3])
    game.apply(PlayEvent(player=0, card="famine"))
    game.apply(PlayEvent(player=0, card="abundance"))
    end_turns(game, until_phase="acquisitions")
    assert coins(game)[0] == 6 + 1  # dowry + Lachish, no Famine yet
    play_round_out(game)
    assert game.state.round == 2
    assert [(e.card, e.terrain) for e in game.state.events_landed] == [("famine", "plain"), ("abundance", "mountains")]
    assert game.state.events_area == []
    assert rolled(game) == [1, 3]


def test_play_order_decides_which_card_is_newer_when_two_land_on_one_terrain():
    # Famine played first, Abundance second; both roll plain: the newer (Abundance) stays.
    game = game_at(hands={0: ["famine", "abundance"]}, deck=["tax"] * 6, dice=[2, 1])
    game.apply(PlayEvent(player=0, card="famine"))
    game.apply(PlayEvent(player=0, card="abundance"))
    play_round_out(game)
    assert [(e.card, e.terrain) for e in game.state.events_landed] == [("abundance", "plain")]


def test_only_event_cards_go_to_the_events_area():
    game = game_at(hands={0: ["tax", "assassin"]})
    assert_refused(game, PlayEvent(player=0, card="tax"))


def test_a_card_not_in_hand_cannot_be_played():
    game = game_at(hands={0: ["tax"]})
    assert_refused(game, PlayEvent(player=0, card="plague"))


# --- Assassin ---------------------------------------------------------------------------------


def assassin_game(face: int, coins0: int = 5, **target):
    return game_at(
        hands={0: ["assassin"]},
        coins={0: coins0, 1: 0},
        settlements={"Kedesh": garrison(1)},
        generals=[gen(10, 0, "Lachish"), gen(11, 1, "Kedesh", **target)],
        dice=[face],
    )


@pytest.mark.parametrize("face", [5, 6])
def test_assassin_on_five_or_six_kills_the_target_and_registers_two_wrath(face):
    game = assassin_game(face)
    game.apply(PlayAssassin(player=0, target=11))
    assert 11 not in game.state.generals
    assert game.state.wrath_registered == 2
    assert coins(game) == [5, 0, 0]
    assert rolled(game) == [face]


@pytest.mark.parametrize("face", [3, 4])
def test_assassin_on_three_or_four_does_nothing(face):
    game = assassin_game(face)
    game.apply(PlayAssassin(player=0, target=11))
    assert 11 in game.state.generals
    assert game.state.wrath_registered == 0
    assert coins(game) == [5, 0, 0]
    assert "assassin" not in hand(game, 0)  # the card is spent all the same


@pytest.mark.parametrize("face", [1, 2])
def test_an_assassination_exposed_pays_three_coins_to_the_targets_owner_and_one_wrath(face):
    game = assassin_game(face, coins0=5)
    game.apply(PlayAssassin(player=0, target=11))
    assert 11 in game.state.generals
    assert coins(game) == [2, 3, 0]
    assert game.state.wrath_registered == 1
    (line,) = round_log(game, "intrigue.assassin")
    assert (line["player"], line["target"], line["die"], line["outcome"]) == (0, 11, face, "exposed")


@pytest.mark.parametrize("have,pays", [(2, 2), (0, 0), (3, 3)])
def test_an_exposed_assassin_with_fewer_than_three_coins_pays_all_he_has(have, pays):
    game = assassin_game(1, coins0=have)
    game.apply(PlayAssassin(player=0, target=11))
    assert coins(game) == [have - pays, pays, 0]
    assert game.state.wrath_registered == 1


def test_an_assassination_exposed_is_told_in_the_round_report_and_its_wrath_reaches_the_meter():
    game = assassin_game(2, coins0=4)
    game.apply(PlayAssassin(player=0, target=11))
    play_round_out(game)
    (line,) = report_lines(game, 1, "intrigue.assassin")
    assert (line["player"], line["target"], line["outcome"]) == (0, 11, "exposed")
    assert sorted(round_report(game, 1).to) == [0, 1, 2]
    # Round 2's meter: 1 (exposed) + 1 (Canaanite presence).
    assert game.state.wrath == 2
    assert 11 in game.state.generals


def test_the_exposed_fine_goes_to_the_targets_owner_not_his_captor():
    # General 11 (player 1's) is player 2's captive: the fine goes to player 1.
    game = game_at(
        hands={0: ["assassin"]},
        coins={0: 5},
        settlements={"Kedesh": garrison(2)},
        generals=[gen(11, 1, "Kedesh", captor=2)],
        dice=[1],
    )
    game.apply(PlayAssassin(player=0, target=11))
    assert coins(game) == [2, 3, 0]


def test_assassin_cannot_target_your_own_general():
    game = assassin_game(6)
    assert_refused(game, PlayAssassin(player=0, target=10))
    assert_refused(game, PlayAssassin(player=0, target=99))  # no such general


def test_killing_a_prophet_carrier_registers_three_more_wrath_and_frees_the_token():
    # Both Prophet tokens are in play (generals 11 and 12). Player 0 kills 11 (d6 6):
    # 2 + 3 Wrath; the token returns to the supply, so player 0's Prophet card becomes playable.
    game = game_at(
        hands={0: ["assassin", "prophet"]},
        settlements={"Kedesh": garrison(1)},
        generals=[gen(10, 0, "Lachish"), gen(11, 1, "Kedesh", prophet=True), gen(12, 2, "Succoth", prophet=True)],
        dice=[6],
    )
    assert_refused(game, PlayProphet(player=0, general=10))  # no token left in the supply
    game.apply(PlayAssassin(player=0, target=11))
    assert game.state.wrath_registered == 2 + 3
    game.apply(PlayProphet(player=0, general=10))
    assert game.state.generals[10].prophet


def test_killing_a_judge_leaves_his_title_vacant_with_its_owner():
    game = game_at(
        hands={0: ["assassin"]},
        settlements={"Kedesh": garrison(1)},
        generals=[gen(10, 0, "Lachish"), gen(11, 1, "Kedesh")],
        titles={"Naphtali": {"holder": 11}},
        dice=[5],
    )
    game.apply(PlayAssassin(player=0, target=11))
    title = game.state.titles[R("Naphtali")]
    assert (title.owner, title.holder, title.in_play) == (1, None, True)


# --- Revolt -----------------------------------------------------------------------------------


def revolt_game(face=None, **kw):
    # Player 0 holds Hazor (Naphtali); player 1 holds Kedesh (Naphtali) with 2 troops.
    settlements = {"Hazor": garrison(0), "Kedesh": garrison(1, 2)}
    settlements.update(kw.pop("settlements", {}))
    return game_at(hands={0: ["revolt"]}, settlements=settlements, dice=[] if face is None else [face], **kw)


def test_a_revolt_with_a_die_above_the_garrison_wipes_it_out_and_leaves_one_troop_of_the_rebel():
    game = revolt_game(3)
    game.apply(PlayRevolt(player=0, settlement="Kedesh"))
    assert garrison_of(game, "Kedesh") == (0, 1)
    assert "revolt" not in hand(game, 0)
    assert game.state.wrath_registered == 0
    (line,) = round_log(game, "intrigue.revolt")
    assert (line["player"], line["settlement"], line["die"], line["success"]) == (0, S("Kedesh"), 3, True)


@pytest.mark.parametrize("face", [1, 2])
def test_a_revolt_that_fails_leaves_the_garrison_untouched(face):
    # d6 <= the garrison's 2 troops: nothing changes but the spent card.
    game = revolt_game(face)
    game.apply(PlayRevolt(player=0, settlement="Kedesh"))
    assert garrison_of(game, "Kedesh") == (1, 2)
    assert garrison_of(game, "Hazor") == (0, 1)
    assert "revolt" not in hand(game, 0)
    (line,) = round_log(game, "intrigue.revolt")
    assert (line["player"], line["settlement"], line["die"], line["success"]) == (0, S("Kedesh"), face, False)


def test_a_revolt_that_fails_is_told_in_the_round_report():
    game = revolt_game(2)
    game.apply(PlayRevolt(player=0, settlement="Kedesh"))
    play_round_out(game)
    (line,) = report_lines(game, 1, "intrigue.revolt")
    assert (line["player"], line["settlement"], line["success"]) == (0, S("Kedesh"), False)
    assert garrison_of(game, "Kedesh") == (1, 2)


def test_revolt_targets_are_only_other_players_garrison_only_settlements_where_you_control_one():
    # Player 0 controls Hazor (Naphtali) by garrison, Ophrah (Manasseh) by a general only,
    # and Achzib (Asher). Targets:
    #   Kedesh  (player 1, Naphtali, garrison only)           yes
    #   Chinnereth (player 2, Naphtali, 3 troops)             yes
    #   Dothan  (player 1, Manasseh: control by general counts) yes
    #   Kabul   (player 2, Asher)                             yes
    #   Merom   (player 1 with his own general in it)         no
    #   Acco    (Canaanite-held)                              no
    #   Hammath (free)                                        no
    #   Hazor, Achzib (player 0's own)                        no
    #   Tamar, Succoth (bases, in regions player 0 has no settlement) no
    game = game_at(
        hands={0: ["revolt"]},
        settlements={
            "Hazor": garrison(0),
            "Achzib": garrison(0),
            "Kedesh": garrison(1, 2),
            "Chinnereth": garrison(2, 3),
            "Dothan": garrison(1),
            "Kabul": garrison(2),
            "Merom": garrison(1),
        },
        generals=[gen(10, 0, "Ophrah"), gen(11, 1, "Merom")],
    )
    assert game.state.settlements[S("Acco")].owner == -1  # Canaanite
    legal = sorted(a.settlement for a in game.legal_actions(0) if isinstance(a, PlayRevolt))
    assert legal == sorted(["Kedesh", "Chinnereth", "Dothan", "Kabul"])


@pytest.mark.parametrize("target", ["Merom", "Acco", "Hammath", "Hazor", "Tamar", "Succoth"])
def test_a_revolt_against_an_invalid_target_is_refused_without_a_die(target):
    # Player 0 holds Hazor (Naphtali) and Achzib (Asher, where Acco is Canaanite-held).
    game = revolt_game(settlements={"Merom": garrison(1), "Achzib": garrison(0)}, generals=[gen(11, 1, "Merom")])
    assert_refused(game, PlayRevolt(player=0, settlement=target))
    assert "revolt" in hand(game, 0)


def test_a_revolt_needs_a_settlement_of_yours_in_the_region():
    # Player 0 holds nothing in Naphtali: Kedesh cannot revolt for him.
    game = game_at(hands={0: ["revolt"]}, settlements={"Kedesh": garrison(1)})
    assert_refused(game, PlayRevolt(player=0, settlement="Kedesh"))


# --- Prophet and Anointing --------------------------------------------------------------------


def test_prophet_goes_to_one_of_your_free_generals():
    game = game_at(hands={0: ["prophet"]}, generals=[gen(10, 0, "Lachish")])
    game.apply(PlayProphet(player=0, general=10))
    assert game.state.generals[10].prophet
    assert "prophet" not in hand(game, 0)
    (line,) = round_log(game, "intrigue.prophet")
    assert (line["player"], line["general"]) == (0, 10)


def test_prophet_cannot_go_to_a_captive_or_to_another_players_general():
    game = game_at(
        hands={0: ["prophet"]},
        settlements={"Kedesh": garrison(1)},
        generals=[gen(10, 0, "Kedesh", captor=1), gen(11, 1, "Kedesh")],
    )
    assert_refused(game, PlayProphet(player=0, general=10))
    assert_refused(game, PlayProphet(player=0, general=11))


def test_no_prophet_while_both_tokens_are_in_play():
    game = game_at(
        hands={0: ["prophet"]},
        generals=[gen(10, 0, "Lachish"), gen(11, 1, "Tamar", prophet=True), gen(12, 2, "Succoth", prophet=True)],
    )
    assert_refused(game, PlayProphet(player=0, general=10))


def test_no_second_prophet_on_the_same_general():
    # One token is still in the supply, but general 10 already carries one.
    game = game_at(hands={0: ["prophet"]}, generals=[gen(10, 0, "Lachish", prophet=True), gen(13, 0, "Lachish")])
    assert_refused(game, PlayProphet(player=0, general=10))
    game.apply(PlayProphet(player=0, general=13))
    assert game.state.generals[13].prophet


def test_anointing_with_your_prophet_gives_the_anointed_to_one_of_your_free_generals():
    game = game_at(hands={0: ["anointing"]}, generals=[gen(10, 0, "Lachish", prophet=True), gen(13, 0, "Lachish")])
    game.apply(PlayAnointing(player=0, general=13))
    assert game.state.generals[13].anointed
    assert not game.state.generals[10].anointed
    assert "anointing" not in hand(game, 0)
    (line,) = round_log(game, "intrigue.anointing")
    assert (line["player"], line["general"]) == (0, 13)


def test_anointing_needs_one_of_your_generals_carrying_a_prophet():
    # Player 1's general carries a Prophet; player 0's do not.
    game = game_at(hands={0: ["anointing"]}, generals=[gen(10, 0, "Lachish"), gen(11, 1, "Tamar", prophet=True)])
    assert_refused(game, PlayAnointing(player=0, general=10))


def test_anointing_is_refused_while_the_anointed_is_in_play():
    game = game_at(
        hands={0: ["anointing"]}, generals=[gen(10, 0, "Lachish", prophet=True), gen(11, 1, "Tamar", anointed=True)]
    )
    assert_refused(game, PlayAnointing(player=0, general=10))


def test_anointing_cannot_go_to_a_captive_or_to_another_players_general():
    game = game_at(
        hands={0: ["anointing"]},
        settlements={"Kedesh": garrison(1)},
        generals=[gen(10, 0, "Lachish", prophet=True), gen(13, 0, "Kedesh", captor=1), gen(11, 1, "Kedesh")],
    )
    assert_refused(game, PlayAnointing(player=0, general=13))
    assert_refused(game, PlayAnointing(player=0, general=11))


# --- Execute and Release ------------------------------------------------------------------------


def captive_game(**captive):
    # Player 2's general 20 is player 0's captive at Hazor (player 0's garrison).
    return game_at(settlements={"Hazor": garrison(0, 2)}, generals=[gen(20, 2, "Hazor", captor=0, **captive)])


def test_execute_a_captive_he_dies():
    game = captive_game()
    game.apply(Execute(player=0, general=20))
    assert 20 not in game.state.generals
    assert game.state.wrath_registered == 0
    (line,) = round_log(game, "intrigue.execution")
    assert (line["player"], line["general"]) == (0, 20)


def test_executing_a_judge_leaves_his_title_vacant():
    game = game_at(
        settlements={"Hazor": garrison(0, 2)},
        generals=[gen(20, 2, "Hazor", captor=0)],
        titles={"Gilead": {"holder": 20}},
    )
    game.apply(Execute(player=0, general=20))
    title = game.state.titles[R("Gilead")]
    assert (title.owner, title.holder) == (2, None)


def test_executing_a_judge_of_two_regions_leaves_both_titles_vacant():
    # § 10: a general may hold several titles; at his death each is vacant and keeps its owner.
    game = game_at(
        settlements={"Hazor": garrison(0, 2)},
        generals=[gen(20, 2, "Hazor", captor=0)],
        titles={"Gilead": {"holder": 20}, "Negev": {"holder": 20}},
    )
    game.apply(Execute(player=0, general=20))
    for region in ("Gilead", "Negev"):
        title = game.state.titles[R(region)]
        assert (title.owner, title.holder) == (2, None)


def test_executing_a_prophet_registers_three_wrath():
    game = captive_game(prophet=True)
    game.apply(Execute(player=0, general=20))
    assert game.state.wrath_registered == 3
    assert 20 not in game.state.generals


def test_only_your_own_captives_can_be_executed_or_released():
    # General 21 is player 1's captive, general 10 is player 0's own free general.
    game = game_at(
        settlements={"Hazor": garrison(0, 2), "Kedesh": garrison(1)},
        generals=[gen(10, 0, "Hazor"), gen(21, 2, "Kedesh", captor=1)],
    )
    for gid in (10, 21):
        assert_refused(game, Execute(player=0, general=gid))
        assert_refused(game, Release(player=0, general=gid))


def test_release_puts_the_captive_on_the_nearest_settlement_his_owner_controls():
    # Captive 20 (player 1's) held at Hammath. Player 1 controls Hazor (4 hexes away),
    # Endor (2 hexes away) and Tamar (far): he goes to Endor, free.
    assert WORLD.hex_distance(H("Hammath"), H("Endor")) == 2
    assert WORLD.hex_distance(H("Hammath"), H("Hazor")) == 4
    assert WORLD.hex_distance(H("Hammath"), H("Tamar")) > 4
    game = game_at(
        settlements={"Hammath": garrison(0), "Hazor": garrison(1), "Endor": garrison(1)},
        generals=[gen(20, 1, "Hammath", captor=0)],
    )
    game.apply(Release(player=0, general=20))
    g = game.state.generals[20]
    assert (g.hex, g.captor, g.owner) == (H("Endor"), None, 1)
    (line,) = round_log(game, "intrigue.release")
    assert (line["player"], line["general"], line["hex"]) == (0, 20, H("Endor"))


def test_release_counts_a_settlement_his_owner_controls_by_a_general():
    # Player 1 has no garrison near, but his free general 11 stands in Merom (free village).
    assert WORLD.hex_distance(H("Hammath"), H("Merom")) < WORLD.hex_distance(H("Hammath"), H("Tamar"))
    game = game_at(
        settlements={"Hammath": garrison(0)}, generals=[gen(20, 1, "Hammath", captor=0), gen(11, 1, "Merom")]
    )
    game.apply(Release(player=0, general=20))
    assert game.state.generals[20].hex == H("Merom")


def test_release_with_no_settlement_of_his_owner_leaves_him_where_he_was_held():
    game = game_at(
        base=False,
        settlements={"Hazor": garrison(0, 2), "Lachish": garrison(0)},
        generals=[gen(20, 1, "Hazor", captor=0)],
    )
    game.apply(Release(player=0, general=20))
    g = game.state.generals[20]
    assert (g.hex, g.captor) == (H("Hazor"), None)


# --- The phase and the Round report -------------------------------------------------------------


def test_cards_cannot_be_played_in_another_phase():
    game = make_game(
        {
            **intrigue_position(
                hands={0: ["tax", "famine"]},
                settlements={"Hazor": garrison(0)},
                generals=[gen(20, 1, "Hazor", captor=0)],
            ),
            "phase": "acquisitions",
        },
        dice=[],
    )
    assert game.phase_name == "acquisitions"
    assert_refused(game, PlayTax(player=0, region="Naphtali"), section=None)
    assert_refused(game, PlayEvent(player=0, card="famine"), section=None)
    assert_refused(game, Execute(player=0, general=20), section=None)
    end_turns(game, until_phase="movement")
    assert_refused(game, PlayTax(player=0, region="Naphtali"), section=None)
    assert_refused(game, Release(player=0, general=20), section=None)
    with pytest.raises(IllegalAction) as info:
        game.apply(PlayTax(player=0, region="Naphtali"))
    assert "intrigue" in str(info.value).lower()


def test_it_is_only_your_turn_in_your_turn():
    game = game_at(hands={0: ["tax"], 1: ["tax"]})
    assert_refused(game, PlayTax(player=1, region="Naphtali"), NotYourDecision, section=None)


def test_every_play_execution_and_release_is_in_the_round_report():
    # Round 1 (order 0, 1, 2), dice: the Revolt 6, the Assassin 3.
    #  Player 0: Tax on Gilead, Famine; executes captive 20 (player 2's), releases 21
    #            (player 1's; he goes to Kedesh, player 1's village next to Hazor).
    #  Player 1: Revolt on Chinnereth (player 2's, 1 troop), Prophet to general 11.
    #  Player 2: Anointing of his prophet 12, Assassin on general 10 (nothing happens).
    game = game_at(
        hands={0: ["tax", "famine"], 1: ["revolt", "prophet"], 2: ["anointing", "assassin"]},
        settlements={"Hazor": garrison(0, 2), "Kedesh": garrison(1), "Chinnereth": garrison(2)},
        generals=[
            gen(10, 0, "Lachish"),
            gen(11, 1, "Tamar"),
            gen(12, 2, "Succoth", prophet=True),
            gen(20, 2, "Hazor", captor=0),
            gen(21, 1, "Hazor", captor=0),
        ],
        dice=[6, 3],
    )
    game.apply(PlayTax(player=0, region="Gilead"))
    game.apply(PlayEvent(player=0, card="famine"))
    game.apply(Execute(player=0, general=20))
    game.apply(Release(player=0, general=21))
    game.apply(EndTurn(player=0))
    game.apply(PlayRevolt(player=1, settlement="Chinnereth"))
    game.apply(PlayProphet(player=1, general=11))
    game.apply(EndTurn(player=1))
    game.apply(PlayAnointing(player=2, general=12))
    game.apply(PlayAssassin(player=2, target=10))
    game.apply(EndTurn(player=2))
    assert game.state.generals[21].hex == H("Kedesh")
    assert garrison_of(game, "Chinnereth") == (1, 1)
    end_turns(game, until_phase="announcements", until_round=2)
    report = round_report(game, 1)
    assert sorted(report.to) == [0, 1, 2]
    lines = [(e.key, e.params.get("player")) for e in report.entries if e.key.startswith("intrigue.")]
    assert lines == [
        ("intrigue.tax", 0),
        ("intrigue.event", 0),
        ("intrigue.execution", 0),
        ("intrigue.release", 0),
        ("intrigue.revolt", 1),
        ("intrigue.prophet", 1),
        ("intrigue.anointing", 2),
        ("intrigue.assassin", 2),
    ]
    params = {e.key: e.params for e in report.entries}
    assert params["intrigue.tax"]["region"] == R("Gilead")
    assert params["intrigue.event"]["card"] == "famine"
    assert params["intrigue.execution"]["general"] == 20
    assert params["intrigue.release"]["general"] == 21
    assert (params["intrigue.revolt"]["settlement"], params["intrigue.revolt"]["success"]) == (S("Chinnereth"), True)
    assert params["intrigue.prophet"]["general"] == 11
    assert params["intrigue.anointing"]["general"] == 12
    assert (params["intrigue.assassin"]["target"], params["intrigue.assassin"]["outcome"]) == (10, "failed")
    assert rolled(game) == [6, 3]
