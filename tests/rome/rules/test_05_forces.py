"""Phase 5, Senate: recalling proconsuls and reinforcing commanders in the field (VG 1.09.64;
R156, R160, R161)."""

from __future__ import annotations

import pytest
from test_05_senate import business_game, vote_all

from judges.engine.dice import ScriptedDice
from judges.engine.errors import IllegalAction
from judges.rome.engine import senate as senate_rules
from judges.rome.engine.actions import CloseSenate, Deploy, Disband, RaiseForces, Recall, Reinforce, Withdraw
from judges.rome.engine.state import Force, WarInPlay, state_to_json


def proconsul_game():
    """Julius (faction 1) is a proconsul on the 1st Gallic War with 5 legions, 1 a veteran."""
    game = business_game()
    game.state.senators["4"].location = "field"
    game.state.forces = [Force(war="gallic_1", commander="4", legions=5, veterans=1)]
    return game


def test_a_recalled_proconsul_comes_home_with_his_units():
    """R160, R161: a proposal like any other; passed, he is in Rome and his units in Rome's box,
    to be sent again at once."""
    game = proconsul_game()
    assert Recall(player=0, commander="4") in game.legal_actions(0)
    game.apply(Recall(player=0, commander="4"))
    vote_all(game, "yea", "nay", "yea")
    state = game.state
    assert state.forces == [] and state.senators["4"].location == "rome"
    assert (state.units.legions, state.units.veterans) == (13, 1)
    assert state.report[-1].key == "rome.senate.recalled"
    assert Deploy(player=0, commander="3", war="gallic_1", legions=13, veterans=1, fleets=2) in game.legal_actions(0)


def test_a_commander_sent_by_this_senate_cannot_be_recalled():
    """R160: a consul just sent stays, with his units, until the next Senate."""
    game = business_game()
    game.apply(Deploy(player=0, commander="3", war="syrian_1", legions=6, fleets=2))
    vote_all(game, "yea", "yea", "nay")
    assert not any(isinstance(a, Recall) and a.commander == "3" for a in game.legal_actions(0))
    with pytest.raises(IllegalAction) as err:
        game.apply(Recall(player=0, commander="3"))
    assert err.value.key == "rome.error.sent_this_senate" and "R160" in err.value.rule
    assert Reinforce(player=0, commander="3", legions=2, fleets=0) in game.legal_actions(0)


def short_of_fleets():
    game = business_game()
    state = game.state
    state.wars.append(WarInPlay(id="illyrian_1", state="active"))
    state.senators["4"].location = "field"
    state.forces = [Force(war="illyrian_1", commander="4", legions=4, fleets=1)]
    return game, state


def test_reinforcements_keep_a_proconsul_short_of_fleet_support_in_the_field():
    """R156, VG 1.09.9: a proconsul below his war's fleet support (3) comes home when the Senate
    closes, unless it sends him the fleets."""
    game, state = short_of_fleets()
    senate_rules.close(game.ctx)
    assert state.forces == [] and state.senators["4"].location == "rome"
    game, state = short_of_fleets()
    with pytest.raises(IllegalAction) as err:
        game.apply(Reinforce(player=0, commander="4", legions=0, fleets=3))
    assert err.value.key == "rome.error.units_not_in_rome"
    game.apply(Reinforce(player=0, commander="4", legions=1, fleets=2))
    vote_all(game, "yea", "nay", "yea")
    assert state.forces == [Force(war="illyrian_1", commander="4", legions=5, fleets=3)]
    assert (state.units.legions, state.units.fleets) == (7, 0)
    senate_rules.close(game.ctx)
    assert state.forces and state.senators["4"].location == "field"


def test_a_rejected_recall_is_not_proposed_again():
    """R87: the same proposal may not return this turn."""
    game = proconsul_game()
    game.apply(Recall(player=0, commander="4"))
    vote_all(game, "nay", "yea", "nay")
    assert Recall(player=0, commander="4") not in game.legal_actions(0)
    with pytest.raises(IllegalAction):
        game.apply(Recall(player=0, commander="4"))


def test_units_are_withdrawn_only_down_to_the_wars_strength():
    """R160, R162, R154: Julius (military 1) must keep 10 against the 1st Gallic War (10): with
    8 legions, 2 of them veterans (10 + 1), one regular legion may come home (9 + 1), not a
    veteran with it (8 + 1); then nothing more."""
    game = business_game()
    state = game.state
    state.senators["4"].location = "field"
    state.senators["4"].military = 1
    state.forces = [Force(war="gallic_1", commander="4", legions=8, veterans=2)]
    with pytest.raises(IllegalAction) as err:
        game.apply(Withdraw(player=0, commander="4", legions=1, veterans=1))
    assert err.value.key == "rome.error.too_weak"
    assert Withdraw(player=0, commander="4", legions=1) in game.legal_actions(0)
    game.apply(Withdraw(player=0, commander="4", legions=1))
    vote_all(game, "yea", "nay", "yea")
    assert state.forces == [Force(war="gallic_1", commander="4", legions=7, veterans=2)]
    assert state.units.legions == 9
    assert not any(isinstance(a, Withdraw) for a in game.legal_actions(0))  # 7 + 2 + 1 = 10: no more


def test_no_withdrawal_from_a_commander_sent_by_this_senate():
    """R160."""
    game = business_game()
    game.apply(Deploy(player=0, commander="3", war="syrian_1", legions=8, fleets=2))
    vote_all(game, "yea", "yea", "nay")
    with pytest.raises(IllegalAction) as err:
        game.apply(Withdraw(player=0, commander="3", legions=1))
    assert err.value.key == "rome.error.sent_this_senate"


def test_units_raised_in_this_senate_cannot_be_disbanded_in_it():
    """R148, VG 1.09.63: the Senate disbands units waiting in Rome's box, never those it raised in
    this Senate phase, and raises none in place of those it disbanded."""
    game = business_game()  # 8 legions and 2 fleets in Rome's box
    state = game.state
    game.apply(RaiseForces(player=0, legions=3, fleets=1))
    vote_all(game, "yea", "yea", "yea")
    assert (state.units.legions, state.units.fleets) == (11, 3)
    assert Disband(player=0, legions=8) in game.legal_actions(0)
    assert Disband(player=0, fleets=2) in game.legal_actions(0)
    before = state_to_json(state)
    for too_many in (Disband(player=0, legions=9), Disband(player=0, fleets=3)):
        with pytest.raises(IllegalAction) as err:
            game.apply(too_many)
        assert err.value.key == "rome.error.raised_this_senate" and "R145-R150" in err.value.rule
    assert state_to_json(state) == before
    game.apply(Disband(player=0, legions=8, fleets=2))
    vote_all(game, "yea", "nay", "yea")
    assert (state.units.legions, state.units.fleets, state.treasury) == (3, 1, 60)
    with pytest.raises(IllegalAction) as err:  # 3 + 8 disbanded + 15 > 25
        game.apply(RaiseForces(player=0, legions=15))
    assert err.value.key == "rome.error.too_many_units"
    game.apply(RaiseForces(player=0, legions=2))
    vote_all(game, "yea", "yea", "yea")
    assert state.units.legions == 5


def test_the_dispatch_decides_whether_a_commander_fights_on_land_after_winning_at_sea():
    """R163 (the Senate decides, not the general), VG 1.10.12: sent with fleets and no legions
    against a war with a fleet, he fights at sea only and comes home with his force after a naval
    victory; sent with legions as well, he goes on to the land battle in the same Combat phase
    (tests/rome/rules/test_06_combat.py::test_at_sea_first_then_on_land_with_fleet_support)."""
    game = business_game()  # the 1st Gallic War has no fleet
    state = game.state
    state.wars.append(WarInPlay(id="punic_1", state="active"))
    state.units.fleets = 10
    at_sea = Deploy(player=0, commander="3", war="punic_1", legions=0, fleets=10)
    assert at_sea in game.legal_actions(0)
    with pytest.raises(IllegalAction) as err:  # no fleet to fight there
        game.apply(Deploy(player=0, commander="3", war="gallic_1", legions=0, fleets=10))
    assert err.value.key == "rome.error.too_weak"
    game.apply(at_sea)
    vote_all(game, "yea", "yea", "yea")
    game.dice.fallback = ScriptedDice([6] * 40)  # the Combat phase that follows
    game.apply(CloseSenate(player=0))  # a force with no legions stays in the field
    assert [f.commander for f in state.forces] == []  # it fought at once (the Combat phase)
    keys = [e.key for e in state.report]
    assert keys.index("rome.combat.naval_victory") + 1 == keys.index("rome.combat.home_from_sea")
    punic = next(w for w in state.wars if w.id == "punic_1")
    assert punic.naval_won and state.senators["3"].location == "rome" and state.units.fleets == 10


def test_a_later_war_of_a_series_is_attacked_only_with_the_earlier_one():
    """R199: the 2nd Illyrian War only once the 1st (active) has a force sent against it."""
    game = business_game()
    state = game.state
    state.wars = [WarInPlay(id="illyrian_1", state="active"), WarInPlay(id="illyrian_2", state="active")]
    state.units.legions, state.units.fleets = 25, 25
    second = Deploy(player=0, commander="3", war="illyrian_2", legions=25, fleets=25)
    assert senate_rules.deploy_refusal(game.ctx, second) == "rome.error.earlier_war_first"
    assert second not in game.legal_actions(0)
    game.apply(Deploy(player=0, commander="3", war="illyrian_1", legions=12, fleets=12))
    vote_all(game, "yea", "yea", "yea")
    later = Deploy(player=0, commander="2", war="illyrian_2", legions=13, fleets=13)
    assert senate_rules.deploy_refusal(game.ctx, later) is None
