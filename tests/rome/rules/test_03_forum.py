"""Phase 3, Forum (VG 1.07; R40-R69; E4, E5): initiatives and their auction, cards and events,
wars and leaders reaching the board, persuasion with bribes and counter-bribes, knights, games,
the faction leader, putting Rome in order, and the end of the era."""

from __future__ import annotations

import pytest
from rome_position import DECK, ctx, game_in, position, senator

from judges.engine.errors import IllegalAction
from judges.rome.engine import alliances, events, forum, wars
from judges.rome.engine.actions import (
    AttractKnight,
    Bid,
    ChooseLeader,
    CounterBribe,
    Persuade,
    PressureKnights,
    Raise,
    Roll,
    Skip,
    SponsorGames,
)
from judges.rome.engine.state import Force, WarInPlay, state_to_json


def forum_game(faces, players=3, deck=()):
    """Three factions with two senators each (faction 0 holds the Rome Consul), the deck given."""
    state = position(players)
    senator(state, "1", 0, office="rome_consul")  # Cornelius: ORA 3, INF 5
    senator(state, "2", 0)
    senator(state, "3", 1)
    senator(state, "4", 1)
    senator(state, "5", 2)
    senator(state, "6", 2)
    for f, leader in zip(state.factions, ("1", "3", "5")):
        f.leader = leader
    state.deck = list(deck)
    return game_in(state, "forum", faces)


def skip_initiative(game, seat):
    for _ in forum.STAGES:
        game.apply(Skip(player=seat))


def test_events_of_one_turn_leave_when_the_forum_begins():
    """R40: most events end; those that last until used stay."""
    state = position()
    state.events = {"drought": 2, "evil_omens": 1, "allied_enthusiasm": 1, "new_alliance": 1}
    forum.passage_of_time(ctx(state))
    assert state.events == {"allied_enthusiasm": 1, "new_alliance": 1}


def test_the_hraos_faction_starts_then_clockwise_then_three_auctions_with_three_players():
    """R41, R42; VG 1.07.22."""
    game = forum_game([3, 3, 3, 3])
    assert game.state.scratch["auctions"] == 3
    assert [(d.player, d.kind) for d in game.pending] == [(0, "initiative")]
    skip_initiative(game, 0)
    assert [(d.player, d.kind) for d in game.pending] == [(1, "initiative")]


def test_a_roll_of_7_draws_an_event_instead_of_a_card():
    """R45: 3d6 on the era's column (3+2+3 = 8: Epidemic), the deck untouched."""
    game = forum_game([3, 4, 3, 2, 3, 30, 29, 28, 27, 26, 25], deck=["10"])
    assert game.state.events == {"epidemic": 1}
    assert game.state.deck == ["10"]


def test_a_drawn_card_goes_to_hand_or_forum():
    """R48, R49: a faction card to the drawer's hand (hidden), a senator unaligned to the Forum."""
    game = forum_game([2, 3, 2, 3], deck=["10", "tribune.1"])
    assert game.state.factions[0].hand == ["tribune.1"]
    assert "10" not in game.state.senators
    skip_initiative(game, 0)
    assert game.state.senators["10"].faction == -1 and game.state.senators["10"].location == "rome"
    assert game.state.deck == []


def test_e4_matching_wars_go_imminent_and_leaders_do_not_move_them():
    """E4, R196, R202: the 2nd Punic War finds the 1st inactive: the 1st becomes active, the 2nd
    imminent; Hamilcar joins the 1st and leaves the imminent 2nd alone; the 2nd Macedonian,
    unarmed, is inactive until Philip V arrives and activates it."""
    state = position()
    state.wars = [WarInPlay(id="punic_1", state="inactive")]
    c = ctx(state)
    wars.place_war(c, "punic_2")
    assert [(w.id, w.state) for w in state.wars] == [("punic_1", "active"), ("punic_2", "imminent")]
    wars.place_leader(c, "hamilcar")
    assert state.wars[0].leaders == ["hamilcar"] and state.wars[1].state == "imminent"
    wars.place_war(c, "macedonian_2")
    assert state.wars[2].state == "inactive"
    wars.place_leader(c, "philip_v")
    assert (state.wars[2].state, state.wars[2].leaders) == ("active", ["philip_v"])


def test_armed_wars_arrive_active():
    """R194: the Syrian War and the 1st Gallic War carry armaments."""
    state = position()
    c = ctx(state)
    wars.place_war(c, "syrian_1")
    wars.place_war(c, "illyrian_1")
    assert [(w.id, w.state) for w in state.wars] == [("syrian_1", "active"), ("illyrian_1", "inactive")]


def test_a_leader_with_no_war_waits_in_the_curia_and_joins_his_war_when_it_comes():
    """R203; VG 1.07.341: the war and the leader are then both active, even an unarmed war."""
    state = position()
    c = ctx(state)
    wars.place_leader(c, "philip_v")
    assert state.curia == ["philip_v"]
    wars.place_war(c, "macedonian_2")
    assert (state.wars[0].state, state.wars[0].leaders, state.curia) == ("active", ["philip_v"], [])


def test_a_leader_finding_only_an_imminent_war_waits_and_joins_it_when_it_activates():
    """R202, VG 1.07.341 and 1.05.1: a leader never activates an imminent war; it waits in the
    Curia and joins the war when the war turns active at the start of the next turn."""
    from judges.rome.engine import mortality

    state = position()
    state.wars = [WarInPlay(id="macedonian_2", state="imminent")]
    c = ctx(state)
    wars.place_leader(c, "philip_v")
    assert state.curia == ["philip_v"] and state.wars[0].leaders == []
    mortality.activate_imminent(c)
    assert (state.wars[0].state, state.wars[0].leaders, state.curia) == ("active", ["philip_v"], [])


def test_a_leader_whose_wars_are_all_gone_leaves_the_game():
    state = position()
    state.removed = ["syrian_1"]
    wars.place_leader(ctx(state), "antiochus_iii")
    assert state.removed == ["syrian_1", "antiochus_iii"] and state.curia == []


def persuasion_game(faces, **target):
    """Faction 0's Cornelius (ORA 3 + INF 5) against the unaligned Valerius (LOY 10), Manlius
    (LOY 7) or faction 1's Claudius; factions 1 and 2 have 5T each in their treasuries."""
    game = forum_game([2, 3] + list(faces))
    senator(game.state, "7", -1, **target)  # Fulvius, LOY 8, unaligned in the Forum
    game.state.factions[1].treasury = 5
    game.state.factions[2].treasury = 5
    game.state.senators["1"].talents = 10
    return game


def test_persuasion_base_bribes_counter_bribes_and_the_money_to_the_target():
    """R52-R56: 3 + 5 − 8 (loyalty) − 1 (his talents) = −1; +6 bribed, −2 and −1 countered: 2;
    a DR of 2 succeeds; all 9 talents end in the target's treasury."""
    game = persuasion_game([1, 1], talents=1)
    game.apply(Persuade(player=0, persuader="1", target="7", bribe=4))
    assert [(d.player, d.kind) for d in game.pending] == [(1, "counter_bribe")]
    game.apply(CounterBribe(player=1, talents=2))
    game.apply(CounterBribe(player=2, talents=0))
    assert [(d.player, d.kind) for d in game.pending] == [(0, "persuasion")]
    game.apply(Raise(player=0, talents=2))
    game.apply(CounterBribe(player=1, talents=1))
    game.apply(CounterBribe(player=2, talents=0))
    game.apply(Roll(player=0))
    target = game.state.senators["7"]
    assert target.faction == 0 and target.talents == 1 + 6 + 3
    assert game.state.senators["1"].talents == 4
    assert (game.state.factions[1].treasury, game.state.factions[2].treasury) == (2, 5)
    assert game.state.report[-1].params["number"] == 2
    assert [(d.player, d.kind) for d in game.pending] == [(0, "initiative")]  # on to the knights


def test_a_persuasion_roll_above_the_number_fails():
    game = persuasion_game([2, 1])
    game.apply(Persuade(player=0, persuader="1", target="7", bribe=2))
    game.apply(CounterBribe(player=1, talents=0))
    game.apply(CounterBribe(player=2, talents=0))
    game.apply(Roll(player=0))  # number 3 + 5 − 8 + 2 = 2, roll 3
    assert game.state.senators["7"].faction == -1 and game.state.senators["7"].talents == 2


@pytest.mark.parametrize(
    "era_ended, faces, won", [(False, [5, 4], True), (False, [5, 5], False), (True, [5, 4], False)]
)
def test_an_unmodified_10_always_fails_and_9_after_the_era_ends(era_ended, faces, won):
    """R56, R57."""
    game = persuasion_game(faces)
    game.state.era_ended = era_ended
    game.state.senators["1"].talents = 30
    game.apply(Persuade(player=0, persuader="1", target="7", bribe=30))
    game.apply(CounterBribe(player=1, talents=0))
    game.apply(CounterBribe(player=2, talents=0))
    game.apply(Roll(player=0))
    assert (game.state.senators["7"].faction == 0) is won


def test_an_aligned_target_costs_7_and_a_faction_leader_cannot_be_persuaded():
    """R51, R52."""
    game = persuasion_game([])
    c = game.ctx
    assert forum.persuasion_base(c, game.state.senators["1"], game.state.senators["4"]) == 3 + 5 - 9 - 7
    before = state_to_json(game.state)
    with pytest.raises(IllegalAction) as err:
        game.apply(Persuade(player=0, persuader="1", target="3"))
    assert err.value.key == "rome.error.leader_not_persuadable" and "R51" in err.value.rule
    assert state_to_json(game.state) == before
    game.state.senators["4"].location = "province"
    with pytest.raises(IllegalAction):
        game.apply(Persuade(player=0, persuader="1", target="4"))


def test_knights_attract_on_6_with_talents_paid_to_the_bank_either_way():
    """R61, R62, R63: one attempt per initiative."""
    game = forum_game([2, 3, 3])
    game.state.senators["2"].talents = 3
    game.apply(Skip(player=0))
    game.apply(AttractKnight(player=0, senator="2", talents=3))
    assert (game.state.senators["2"].knights, game.state.senators["2"].talents) == (1, 0)
    with pytest.raises(IllegalAction) as err:  # the knights step is over
        game.apply(AttractKnight(player=0, senator="2", talents=0))
    assert err.value.key == "rome.error.wrong_step"


def test_pressured_knights_pay_a_die_each_and_are_lost():
    """R64."""
    game = forum_game([2, 3, 4, 6])
    game.state.senators["2"].knights = 3
    game.apply(Skip(player=0))
    game.apply(PressureKnights(player=0, senator="2", knights=2))
    assert (game.state.senators["2"].knights, game.state.senators["2"].talents) == (1, 10)


def test_games_raise_popularity_and_lower_unrest():
    """R66 with VG's prices (GAP-15): Gladiator Gala 18T, +3, −3; popularity stays within 9."""
    game = forum_game([2, 3, 2, 3])
    game.state.unrest = 2
    s = game.state.senators["2"]
    s.talents, s.popularity = 20, 8
    game.apply(Skip(player=0))
    game.apply(Skip(player=0))
    game.apply(SponsorGames(player=0, senator="2", games="gladiator_gala"))
    assert (s.talents, s.popularity, game.state.unrest) == (2, 9, 0)
    game.apply(ChooseLeader(player=0, senator="2"))  # R65: then the faction leader
    assert game.state.factions[0].leader == "2"


def test_an_auctioned_initiative_goes_to_the_highest_bid_paid_to_the_bank():
    """R43, R44, GAP-12: once around from the HRAO, each bid beating the last."""
    game = forum_game([2, 3, 2, 3, 2, 3, 2, 3])
    for seat in (0, 1, 2):
        skip_initiative(game, seat)
    assert [(d.player, d.kind) for d in game.pending] == [(0, "bid")]
    game.state.senators["2"].talents = 5
    game.state.senators["4"].talents = 5
    game.apply(Bid(player=0, senator="2", talents=2))
    with pytest.raises(IllegalAction) as err:
        game.apply(Bid(player=1, senator="4", talents=2))
    assert err.value.key == "rome.error.bid_too_low"
    game.apply(Bid(player=1, senator="4", talents=3))
    game.apply(Skip(player=2))
    assert game.state.senators["4"].talents == 2 and game.state.senators["2"].talents == 5
    assert [(d.player, d.kind) for d in game.pending] == [(1, "initiative")]


def test_an_initiative_nobody_bids_for_goes_to_the_hraos_faction():
    game = forum_game([2, 3, 2, 3, 2, 3, 2, 3])
    for seat in (0, 1, 2):
        skip_initiative(game, seat)
    for seat in (0, 1, 2):
        game.apply(Skip(player=seat))
    assert [(d.player, d.kind) for d in game.pending] == [(0, "initiative")]


def test_putting_rome_in_order_tax_farmers_and_the_curia():
    """VG 1.07.8, R68, R69: the 2nd Punic War's die destroys Tax Farmer 3; the Curia's senator
    returns on 5, its concession stays on 4, its leader dies on 6."""
    state = position()
    senator(state, "2", 0, concessions=["tax_farmer_3"], office="censor")
    state.wars = [WarInPlay(id="punic_2", state="active")]
    state.curia = ["9", "mining", "hannibal"]
    forum.put_rome_in_order(ctx(state, [3, 5, 4, 6, 4]))
    assert state.senators["2"].concessions == [] and state.senators["2"].held_office == "censor"
    assert state.senators["9"].faction == -1
    assert state.curia == ["mining", "tax_farmer_3"]
    assert state.removed == ["hannibal"]


def test_the_era_ends_the_game_with_this_forum_phase_most_influence_wins():
    """R261, VG 1.12.2: influence of senators not captive; ties by the highest senator."""
    state = position()
    senator(state, "1", 0)  # 5
    senator(state, "2", 0)  # 5
    senator(state, "3", 1, influence=10)
    senator(state, "4", 2, influence=20, location="captive")
    state.era_ended = True
    forum.era_ends(ctx(state))
    assert state.result is not None and (state.result.ending, state.result.winners) == ("era_ends", (1,))


def test_events_natural_disaster_evil_omens_storm_and_the_intensified_side():
    """R46 and ror-data §5.2: Natural Disaster costs 50T and destroys Mining on 1-2; Evil Omens
    20T once; a second Drought stacks; a storm sinks 2d6 fleets (no more than there are)."""
    state = position()
    senator(state, "2", 0, concessions=["mining"])
    state.units.fleets = 5
    c = ctx(state, [1, 1, 2, 1, 1, 1, 4, 1, 1, 2, 6, 1, 2, 2, 3, 3, 3, 4, 4, 4, 3, 4, 4, 3, 4])
    events.draw_event(c)  # 4: Natural Disaster, die 1: Mining
    assert state.treasury == 50 and state.curia == ["mining"]
    events.draw_event(c)  # 6: Evil Omens
    events.draw_event(c)  # 4 again: intensified, no second 50T; die 6: Ship Building not in play
    assert state.treasury == 30 and state.events["natural_disaster"] == 2
    events.draw_event(c)  # 5: Ally Deserts (its effect is the Combat phase's)
    events.draw_event(c)  # 9: Drought
    events.draw_event(c)  # 12: Manpower Shortage
    assert state.events["drought"] == 1 and state.events["manpower_shortage"] == 1
    events.draw_event(c)  # 11: Storm at Sea, 3 + 4 fleets lost, but only 5 exist
    assert state.units.fleets == 0


def test_allied_enthusiasm_promises_50_then_75_then_nothing_more():
    state = position()
    c = ctx(state, [4, 4, 5] * 3)
    for due in (50, 75, 75):
        events.draw_event(c)
        assert state.state_due == due


def test_an_epidemic_kills_only_senators_in_rome():
    state = position()
    senator(state, "1", 0)
    senator(state, "2", 1, location="province")
    c = ctx(state, [2, 3, 3, 1, 1, 30, 29, 28, 27])  # 8: Epidemic; chits "1", "2", then 30 down to 27
    events.draw_event(c)
    assert "1" not in state.senators and "2" in state.senators


def test_a_state_that_cannot_pay_for_a_disaster_is_bankrupt():
    state = position()
    state.treasury = 40
    events.draw_event(ctx(state, [1, 1, 2, 1]))
    assert state.result is not None and state.result.ending == "bankruptcy"


def test_every_war_and_leader_named_in_the_data_can_be_placed():
    state = position()
    c = ctx(state)
    for w in DECK.wars:
        if w != "punic_1":
            wars.place_war(c, w)
    assert len(state.wars) == 7


def test_seduction_makes_the_attempt_unopposed_and_blackmail_punishes_a_failure():
    """R58, R269, R270 (VG cards): nobody may counter-bribe; a failed Blackmail costs the target
    2d6 influence and 2d6 popularity."""
    game = persuasion_game([6, 5, 2, 1, 3, 3])
    game.state.factions[0].hand = ["blackmail"]
    game.state.senators["7"].influence = 10
    game.apply(Persuade(player=0, persuader="1", target="7", bribe=0, card="blackmail"))
    assert [(d.player, d.kind) for d in game.pending] == [(0, "persuasion")]  # no counter-bribes
    game.apply(Roll(player=0))  # 11: fails
    target = game.state.senators["7"]
    assert (target.influence, target.popularity, target.faction) == (10 - 3, -6, -1)
    assert game.state.discard == ["blackmail"] and game.state.factions[0].hand == []
    with pytest.raises(IllegalAction) as err:  # the card must be in the hand
        forum_game([2, 3]).apply(Persuade(player=0, persuader="1", target="4", card="seduction"))
    assert err.value.key == "rome.error.not_in_hand"


def test_the_rhodian_alliance_lends_fleets_until_the_war_needing_most_is_gone():
    """ror-data §5.2 Rhodian Maritime Alliance: drawn on an initiative's 7 (3d6 of 15), 8 fleets
    while the 1st Punic War needs them; drawn again, 12 in all; they leave at the end of the Combat
    phase in which that war is gone (from Rome's box first, then the forces)."""
    state = position()
    senator(state, "1", 0, location="field")
    state.wars = [WarInPlay(id="punic_1", state="active"), WarInPlay(id="gallic_1", state="active")]
    state.units.fleets = 1
    force = Force(war="gallic_1", commander="1", legions=5, fleets=10)
    state.forces = [force]
    c = ctx(state, [3, 4, 5, 5, 5, 3, 4, 5, 5, 5])
    forum.start_initiative(c, 0)
    assert state.units.fleets == 1 + 8 and state.rhodian_wars == ["punic_1"]
    forum.start_initiative(c, 0)
    assert state.units.fleets == 1 + 12 and state.events["rhodian_maritime_alliance"] == 2
    assert alliances.rhodian_alliance_ends(c) and state.units.fleets == 13  # the war is still there
    state.wars.pop(0)
    state.units.fleets = 4  # the others went to war
    alliances.rhodian_alliance_ends(c)
    assert (state.units.fleets, force.fleets) == (0, 10 - 8)
    assert "rhodian_maritime_alliance" not in state.events and state.rhodian_fleets == 0


def test_the_rhodian_alliance_does_nothing_when_no_war_needs_fleets():
    """ror-data §5.2: the card is discarded at once; the 25-fleet limit caps the gift."""
    state = position()
    state.wars = [WarInPlay(id="gallic_1", state="active")]
    c = ctx(state, [3, 4, 5, 5, 5])
    forum.start_initiative(c, 0)
    assert state.units.fleets == 0 and "rhodian_maritime_alliance" not in state.events
    state.wars.append(WarInPlay(id="punic_1", state="active"))
    state.units.fleets = 20
    state.events["rhodian_maritime_alliance"] = 1
    alliances.rhodian_alliance(c, 1)
    assert state.units.fleets == 25 and state.rhodian_fleets == 5


def senate_after_the_forum(game):
    """The same position taken on to the Senate: the HRAO (faction 0's Rome Consul) nominates
    a pair and every faction votes at once."""
    from rome_position import game_in

    from judges.rome.engine.actions import ProposeConsuls, Vote

    state = game.state
    state.pending.clear()
    state.scratch.clear()
    for sid in [s.id for s in state.senators.values() if s.faction == -1]:
        del state.senators[sid]  # none to repopulate the Senate with
    senate = game_in(state, "senate", [6, 1])
    senate.apply(ProposeConsuls(player=0, first="2", second="5"))
    for seat, choice in enumerate(("yea", "nay", "abstain")):
        senate.apply(Vote(player=seat, choice=choice))
    return next(e.params for e in reversed(state.report) if e.key == "rome.senate.tally")


def test_a_persuaded_senator_changes_both_factions_votes_at_once():
    """R60, VG 1.09.1 (the vote tally follows every gain or loss): Claudius (faction 1) joins
    faction 0; the next vote counts his oratory and knights for faction 0, not for faction 1."""
    game = persuasion_game([1, 1])
    senator(game.state, "8", 1)  # Claudius's faction keeps two senators (no repopulation)
    claudius = game.state.senators["4"]
    claudius.knights = 2
    game.apply(Persuade(player=0, persuader="1", target="4", bribe=10))  # 3 + 5 − 9 − 7 + 10 = 2
    game.apply(CounterBribe(player=1, talents=0))
    game.apply(CounterBribe(player=2, talents=0))
    game.apply(Roll(player=0))
    assert claudius.faction == 0
    s = game.state.senators
    tally = senate_after_the_forum(game)
    assert tally["yea"] == sum(s[x].oratory + s[x].knights for x in ("1", "2", "4"))
    assert tally["nay"] == sum(s[x].oratory + s[x].knights for x in ("3", "8"))


def test_knights_won_in_the_forum_vote_in_the_next_senate():
    """R67, R91, R22: the vote markers after the initiatives: a knight adds a vote to his
    senator's faction (oratory plus one per knight)."""
    game = forum_game([2, 3, 3])
    fabius = game.state.senators["2"]
    fabius.talents = 3
    game.apply(Skip(player=0))
    game.apply(AttractKnight(player=0, senator="2", talents=3))
    assert fabius.knights == 1
    s = game.state.senators
    tally = senate_after_the_forum(game)
    assert tally["yea"] == s["1"].oratory + s["2"].oratory + 1


def test_influence_peddling_takes_a_card_at_random_from_the_named_opponent():
    """R268 (VG's card): discarded while taking one's initiative, at any of its steps (the step
    goes on); the die picks the card among the opponent's; nobody but the two sees which."""
    from judges.rome.engine.actions import PeddleInfluence

    game = forum_game([2, 3, 2])
    state = game.state
    state.factions[0].hand = ["influence_peddling"]
    state.factions[1].hand = ["tribune.1", "assassin", "seduction"]
    assert PeddleInfluence(player=0, card="influence_peddling", target=1) in game.legal_actions(0)
    assert PeddleInfluence(player=0, card="influence_peddling", target=2) not in game.legal_actions(0)  # no cards
    before = state_to_json(state)
    with pytest.raises(IllegalAction) as err:
        game.apply(PeddleInfluence(player=0, card="influence_peddling", target=2))
    assert err.value.key == "rome.error.no_card_to_take" and "R268" in err.value.rule
    assert state_to_json(state) == before
    game.apply(PeddleInfluence(player=0, card="influence_peddling", target=1))  # the die: 2
    assert state.factions[0].hand == ["assassin"] and state.factions[1].hand == ["tribune.1", "seduction"]
    assert "influence_peddling" in state.discard
    assert state.report[-1].params == {"faction": 0, "target": 1}
    assert [(d.player, d.kind) for d in game.pending] == [(0, "initiative")]
    assert any(isinstance(a, Persuade) for a in game.legal_actions(0))  # still the persuasion step
    assert not any(isinstance(a, PeddleInfluence) for a in game.legal_actions(0))  # the card is gone


def test_a_foreign_epidemic_kills_the_first_senator_drawn_away_from_rome_a_captive_too():
    """R20 (captives are exposed to the epidemics abroad) with VG's Foreign Epidemic (the
    Epidemic drawn again): six chits, Rome spared, only the first senator away dies."""
    state = position()
    senator(state, "1", 0)
    senator(state, "2", 1, location="captive", captive_of="punic_1")
    senator(state, "3", 2, location="province")
    state.events["epidemic"] = 1
    c = ctx(state, [2, 3, 3, 1, 1, 1, 30, 29, 28])  # 8: Epidemic again; chits "1", "2", "3", blanks
    events.draw_event(c)
    assert "1" in state.senators and "2" not in state.senators and "3" in state.senators


def test_scipio_counts_no_loyalty_while_cato_is_in_his_faction():
    """R59 (VG: a statesman's loyalty is 0 while a statesman he opposes is in his faction):
    Scipio Africanus (1A) and Cato the Elder (22A)."""
    from judges.rome.engine.board import effective_loyalty

    state = position()
    scipio = senator(state, "1", 0, statesman="1A", loyalty=7)
    senator(state, "22", 1, statesman="22A")
    assert effective_loyalty(state, scipio, DECK) == 7
    state.senators["22"].faction = 0
    assert effective_loyalty(state, scipio, DECK) == 0
