"""Setup of the Early Republic (VG 3.01; ror-data §14; R3-R6): the State, the deal, the bottom
block, the Temporary Rome Consul, faction leaders and the first cards."""

from __future__ import annotations

from collections import Counter

import pytest
from rome_position import DECK, ctx, position, senator

from judges.engine.dice import ScriptedDice
from judges.engine.errors import IllegalAction, NotYourDecision, SetupError
from judges.rome.cards import ERA_ENDS
from judges.rome.engine import setup
from judges.rome.engine.actions import ChooseLeader, Done, PlayConcession, PlayStatesman
from judges.rome.engine.game import RomeGame
from judges.rome.engine.playing import concession_refusal, statesman_refusal
from judges.rome.engine.state import RomeOptions, card_places, state_to_json


def scripted_game(players: int = 3, faces=(5, 12)) -> RomeGame:
    """Shuffles keep the file's order: faction 0 gets senators 20, 19, 18, faction 1 17, 16, 15,
    faction 2 14, 13, 12; the chit faces 5 then 12 draw "5" (not in play) then "13"."""
    return RomeGame.new(RomeOptions(players=players), ScriptedDice(faces))


def test_the_state_starts_with_100_talents_4_legions_no_unrest_and_the_1st_punic_war_inactive():
    """R4, R5; ror-data §14."""
    game = RomeGame.new(RomeOptions(players=4, seed=9))
    s = game.state
    assert (s.treasury, s.unrest, s.units.legions, s.units.fleets) == (100, 0, 4, 0)
    assert [(w.id, w.state) for w in s.wars] == [("punic_1", "inactive")]
    assert s.provinces == []


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_three_senators_and_three_faction_cards_each_and_every_card_somewhere_once(players):
    """R3 and ror-data §14: forum cards met while dealing faction cards go back to the deck."""
    game = RomeGame.new(RomeOptions(players=players, seed=players))
    s = game.state
    for f in s.factions:
        assert len([x for x in s.senators.values() if x.faction == f.seat]) == 3
        assert len(f.hand) == 3
        assert all(DECK.kind_of(c) in ("statesman", "concession", "intrigue") for c in f.hand)
    places = card_places(s)
    cards = Counter(c for c, _ in places)
    assert all(n == 1 for n in cards.values())
    assert set(cards) == set(DECK.deck_cards("early")) | {"punic_1", ERA_ENDS}


def test_the_era_ends_card_lies_in_the_bottom_block():
    for seed in range(5):
        game = RomeGame.new(RomeOptions(players=5, seed=seed))
        assert ERA_ENDS in game.state.deck[: DECK.setup.bottom_block_early + 1]


def test_the_temporary_rome_consul_is_the_first_chit_naming_a_senator_in_play():
    """VG 3.01 (change 9): chits until one names a senator in play; +5 influence, prior consul."""
    game = scripted_game()
    consul = game.state.senators["13"]
    assert (consul.office, consul.prior_consul, consul.influence) == ("rome_consul", True, 3 + 5)
    assert [x.id for x in game.state.senators.values() if x.office] == ["13"]
    assert game.state.report[3].key == "rome.setup.temporary_consul"


def test_faction_leaders_are_named_from_the_consuls_faction_clockwise():
    game = scripted_game()
    assert [(d.player, d.kind) for d in game.pending] == [(2, "choose_leader")]
    with pytest.raises(NotYourDecision):
        game.apply(ChooseLeader(player=0, senator="20"))
    before = state_to_json(game.state)
    with pytest.raises(IllegalAction) as err:
        game.apply(ChooseLeader(player=2, senator="20"))  # faction 0's senator
    assert err.value.key == "rome.error.not_your_senator" and "R65" in err.value.rule
    assert state_to_json(game.state) == before
    game.apply(ChooseLeader(player=2, senator="14"))
    assert [d.player for d in game.pending] == [0]
    game.apply(ChooseLeader(player=0, senator="19"))
    game.apply(ChooseLeader(player=1, senator="17"))
    assert [f.leader for f in game.state.factions] == ["19", "17", "14"]
    assert [(d.player, d.kind) for d in game.pending] == [(2, "play_cards")]  # then the first cards


def test_first_cards_each_in_the_same_order_then_mortality_and_revenue():
    game = scripted_game(faces=(5, 12, 31))  # the Mortality phase draws a blank chit
    for seat, leader in ((2, "14"), (0, "20"), (1, "17")):
        game.apply(ChooseLeader(player=seat, senator=leader))
    for seat in (2, 0, 1):
        assert [d.player for d in game.pending] == [seat]
        game.apply(Done(player=seat))
    assert game.state.turn == 1
    assert [(d.player, d.kind) for d in game.pending] == [(0, "redistribute"), (1, "redistribute"), (2, "redistribute")]


def test_a_statesman_goes_on_his_family_card_taking_the_higher_influence():
    """VG 1.07.312 (GAP-40)."""
    state = position()
    senator(state, "1", 0, talents=4, knights=1)
    state.factions[0].hand = ["1A"]
    c = ctx(state)
    assert statesman_refusal(c, 0, "1A") is None
    setup_play(c, 0, PlayStatesman(player=0, card="1A"))
    s = state.senators["1"]
    assert (s.statesman, s.military, s.oratory, s.loyalty, s.influence, s.talents, s.knights) == (
        "1A",
        5,
        5,
        7,
        6,
        4,
        1,
    )
    assert s.card == "1A" and s.family_card


def test_a_statesman_whose_family_is_in_the_forum_takes_it_and_one_whose_family_is_away_stands_alone():
    state = position()
    senator(state, "2")  # Fabius unaligned in the Forum
    state.factions[1].hand = ["2A", "19A"]
    c = ctx(state)
    setup_play(c, 1, PlayStatesman(player=1, card="2A"))
    assert state.senators["2"].faction == 1 and state.senators["2"].family_card
    setup_play(c, 1, PlayStatesman(player=1, card="19A"))  # Aemilius is in the deck
    alone = state.senators["19"]
    assert (alone.statesman, alone.family_card, alone.influence, alone.faction) == ("19A", False, 4, 1)
    assert ("19", "senator:19") not in card_places(state)


def test_no_statesman_when_another_faction_holds_his_family_card():
    state = position()
    senator(state, "1", 1)
    state.factions[0].hand = ["1A"]
    assert statesman_refusal(ctx(state), 0, "1A") == "rome.error.family_held_by_other"


def test_the_land_commissioner_needs_a_land_bill_in_force():
    state = position()
    senator(state, "3", 0)
    state.factions[0].hand = ["land_commissioner", "mining"]
    c = ctx(state)
    assert concession_refusal(c, 0, "land_commissioner", "3") == "rome.error.needs_land_bill"
    assert concession_refusal(c, 0, "mining", "3") is None
    state.land_bills = [2]
    assert concession_refusal(c, 0, "land_commissioner", "3") is None


def test_the_game_seats_three_to_six_factions():
    with pytest.raises(SetupError):
        RomeGame.new(RomeOptions(players=2))
    with pytest.raises(SetupError):
        RomeGame.new(RomeOptions(players=7))


def setup_play(c, seat, action):
    from judges.rome.engine.playing import apply_play_cards
    from judges.rome.engine.state import Decision

    decision = Decision(seat, "play_cards")
    c.state.pending.append(decision)
    apply_play_cards(c, decision, action)
    c.state.pending.remove(decision)


def test_concessions_go_under_ones_own_senator():
    state = position()
    senator(state, "3", 0)
    senator(state, "4", 1)
    state.factions[0].hand = ["mining"]
    c = ctx(state)
    assert concession_refusal(c, 0, "mining", "4") == "rome.error.not_your_senator"
    setup_play(c, 0, PlayConcession(player=0, card="mining", senator="3"))
    assert state.senators["3"].concessions == ["mining"] and state.factions[0].hand == []


def test_setup_is_deterministic_from_the_seed():
    a = RomeGame.new(RomeOptions(players=5, seed=42))
    b = RomeGame.new(RomeOptions(players=5, seed=42))
    assert state_to_json(a.state) == state_to_json(b.state)
    assert setup.RULE_LEADER.startswith("R65")
