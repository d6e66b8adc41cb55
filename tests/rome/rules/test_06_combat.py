"""Phase 6, Combat (VG 1.10; R198-R232; E5, E6; ror-data §9): strength with matching wars and
leaders, battles at sea and on land, disasters and standoffs, defeat, victory's rewards, the
commander's fate, unprosecuted wars and Rome's fall under four wars."""

from __future__ import annotations

from rome_position import DECK, ctx, position, senator

from judges.engine.dice import ScriptedDice
from judges.rome.engine import combat, legions
from judges.rome.engine.context import Ctx
from judges.rome.engine.effects import kill_senator
from judges.rome.engine.state import Force, WarInPlay


def test_e5_matching_wars_multiply_then_leaders_add():
    """E5, R198, R201, R204: Hamilcar with the 1st and 2nd Punic Wars both active."""
    state = position()
    first = WarInPlay(id="punic_1", state="active", leaders=["hamilcar"])
    second = WarInPlay(id="punic_2", state="active")
    state.wars = [first, second]
    c = ctx(state)
    assert combat.strength(c, first) == (23, 23)
    assert combat.strength(c, second) == (33, 0)
    second.state = "imminent"  # E4: an imminent war doubles nothing
    assert combat.strength(c, first) == (13, 13)


def test_e6_the_commander_adds_no_more_than_his_armys_strength():
    """E6, R212, R213."""
    army = combat.army(Force(war="x", legions=9, veterans=2), naval=False)
    assert army + combat.commander_bonus(senator(position(), "1", 0, military=4), army) == 15
    small = combat.army(Force(war="x", legions=4), naval=False)
    assert small + combat.commander_bonus(senator(position(), "2", 0, military=5), small) == 8


def land_position(mil=4, legions=10, war="gallic_1", statesman=""):
    state = position()
    senator(state, "1", 0, military=mil, office="field_consul", location="field", statesman=statesman)
    state.wars = [WarInPlay(id=war, state="active")]
    force = Force(war=war, commander="1", legions=legions)
    state.forces = [force]
    state.unrest = 2
    return state, force


def test_a_land_victory_removes_the_war_pays_spoils_and_makes_a_province():
    """R222-R224: 17 + 10 + 4 − 10 = 21: victory without loss; 20T spoils; Gallia Cisalpina to the
    Forum; +5 influence and popularity (half of 10); unrest −1; a veteran."""
    state, force = land_position()
    combat.combat(ctx(state, [6, 6, 5]))
    assert state.wars == [] and state.removed == ["gallic_1"]
    assert state.treasury == 100 + 20 and [p.id for p in state.provinces] == ["gallia_cisalpina"]
    s = state.senators["1"]
    assert (s.influence, s.popularity, state.unrest) == (5 + 5, 5, 1)
    assert (force.legions, force.veterans, force.won) == (10, 1, True)


def test_a_disaster_on_the_unmodified_dice_costs_half_and_unrest():
    """R214, VG 1.10.21: 13 is the 1st Gallic War's disaster number: half of 9 legions, rounded
    up, lost, +1 unrest, five chits (none his), he stays as proconsul, losing his office."""
    state, force = land_position(legions=9)
    combat.combat(ctx(state, [6, 4, 3, 30, 29, 28, 27, 26]))
    assert (force.legions, state.unrest) == (4, 3)
    s = state.senators["1"]
    assert (s.office, s.prior_consul, s.location, s.popularity) == ("", True, "field", -2)
    assert state.wars[0].id == "gallic_1"


def test_a_standoff_costs_a_quarter_rounded_up():
    """R215: 15 is its standoff number: 3 of 10 legions."""
    state, force = land_position()
    combat.combat(ctx(state, [6, 5, 4, 30, 29, 28]))
    assert (force.legions, state.unrest) == (7, 2)


def test_each_disaster_number_strikes_once_a_turn_per_war():
    """R157, VG 1.09.645: the second commander's 13 reads the table instead."""
    state, force = land_position()
    senator(state, "2", 0, military=3, office="rome_consul", location="field")
    second = Force(war="gallic_1", commander="2", legions=5)
    state.forces.append(second)
    combat.combat(ctx(state, [6, 4, 3, 30, 29, 28, 27, 26, 6, 4, 3, 30, 29]))
    # second: 13 + 5 + 3 − 10 = 11: a stalemate losing 2, not a disaster
    assert second.legions == 3


def test_a_statesman_ignores_his_wars_numbers_but_not_a_leaders():
    """R216: Paullus (19A) against the 2nd Macedonian War rolls its disaster number 13."""
    state, force = land_position(mil=5, legions=12, war="macedonian_2", statesman="19A")
    force.fleets = 5
    combat.combat(ctx(state, [6, 4, 3, 30, 29]))  # 13 + 12 + 5 − 10 = 20: a victory, no loss
    assert state.wars == [] and force.won


def test_a_defeat_kills_the_commander_and_raises_unrest_by_2():
    """R217, R218: 3 + 4 + 4 − 10 = 1: defeat, all lost."""
    state, force = land_position(legions=4)
    combat.combat(ctx(state, [1, 1, 1]))
    assert "1" not in state.senators and state.unrest == 4
    assert (force.commander, force.legions) == ("", 0)


def test_the_last_chit_of_two_or_more_captures_instead():
    """R228, VG 1.10.71: a stalemate losing 2; the second chit is his."""
    state, force = land_position(legions=6)
    combat.combat(ctx(state, [2, 3, 4, 30, 29, 28, 1]))  # 9 + 6 + 4 − 10 = 9: stalemate, 4 lost
    s = state.senators["1"]
    assert (s.location, s.captive_of, force.commander) == ("captive", "gallic_1", "")


def test_at_sea_first_then_on_land_with_fleet_support():
    """R208-R211: the 1st Punic War (naval 10, fleet support 5): a naval victory marks the war,
    then the land battle."""
    state = position()
    senator(state, "1", 0, military=4, location="field")
    state.wars = [WarInPlay(id="punic_1", state="active")]
    force = Force(war="punic_1", commander="1", legions=10, fleets=10)
    state.forces = [force]
    combat.combat(ctx(state, [6, 6, 6, 6, 6, 6]))  # at sea 18 + 10 + 4 − 10; on land the same
    assert state.wars == [] and force.won
    assert state.senators["1"].influence == 5 + 5 + 5  # half of 10 at sea, half of 10 on land


def test_unattacked_active_wars_are_unprosecuted_and_four_active_wars_lose_the_game():
    """R231, R232: inactive and imminent wars do not count."""
    state = position()
    state.wars = [
        WarInPlay(id="punic_1", state="active"),
        WarInPlay(id="gallic_1", state="active"),
        WarInPlay(id="syrian_1", state="unprosecuted"),
        WarInPlay(id="illyrian_1", state="inactive"),
    ]
    combat.end_of_combat(ctx(state))
    assert [w.state for w in state.wars] == ["unprosecuted"] * 3 + ["inactive"]
    assert state.result is None
    state.wars.append(WarInPlay(id="macedonian_1", state="active"))
    combat.end_of_combat(ctx(state))
    assert state.result is not None and state.result.ending == "wars"


def test_once_the_last_war_of_a_series_is_beaten_the_earlier_ones_are_revolts():
    """R200, VG 1.07.333: the 2nd Punic War beaten, the 1st pays no spoils when it falls."""
    state = position()
    senator(state, "1", 0, military=4, location="field")
    senator(state, "2", 1, military=4, location="field")
    first = WarInPlay(id="punic_1", state="active", naval_won=True)
    state.wars = [WarInPlay(id="punic_2", state="active"), first]
    state.forces = [
        Force(war="punic_2", commander="1", legions=25, fleets=5),
        Force(war="punic_1", commander="2", legions=25, fleets=5),
    ]
    combat.combat(ctx(state, [6, 6, 6, 30, 29, 6, 6, 6]))  # 18 + 25 + 4 − 30 (doubled): 17, two chits
    assert state.wars == [] and state.treasury == 100 + 25  # the 2nd's spoils only
    assert first.revolt


def dictator_position(legions=10, **master):
    """The Dictator "1" (military 2) on the 1st Gallic War with his Master of Horse "2"
    (military 3, unless `master` says otherwise)."""
    state = position()
    senator(state, "1", 0, military=2, office="dictator", location="field")
    changes = {"military": 3, "office": "master_of_horse", "location": "field", **master}
    senator(state, "2", 1, **changes)
    state.wars = [WarInPlay(id="gallic_1", state="active")]
    force = Force(war="gallic_1", commander="1", legions=legions)
    state.forces = [force]
    return state, force


def test_the_master_of_horse_adds_his_rating_and_gains_nothing_from_the_victory():
    """R113, R212 (VG 1.09.34): 14 + 10 + (2 + 3) − 10 = 19: a victory without loss (with the
    Dictator's 2 alone, 16 would cost 2 legions); only the Dictator gains."""
    state, force = dictator_position()
    combat.combat(ctx(state, [5, 5, 4]))
    assert state.wars == [] and (force.legions, force.veterans) == (10, 1)
    assert state.senators["1"].influence == DECK.senators["1"].influence + 5
    assert state.senators["2"].influence == DECK.senators["2"].influence


def test_battle_chits_strike_the_master_of_horse_too():
    """R230 (VG 1.10.7): 6 + 10 + 5 − 10 = 11: a stalemate losing 2; the first chit is his."""
    state, force = dictator_position()
    combat.combat(ctx(state, [2, 2, 2, 2, 30]))
    assert "2" not in state.senators and force.commander == "1"


def test_a_dictator_lost_sends_his_master_home_in_office():
    """R230 (VG 1.09.34): the first chit kills the Dictator; his Master returns to Rome, still
    Master of Horse."""
    state, _ = dictator_position()
    combat.combat(ctx(state, [2, 2, 2, 1, 30]))
    assert "1" not in state.senators
    assert (state.senators["2"].location, state.senators["2"].office) == ("rome", "master_of_horse")


def test_a_defeat_kills_the_dictator_and_his_master():
    """R113, R217: 3 + 4 + 4 − 10 = 1."""
    state, _ = dictator_position(legions=4)
    combat.combat(ctx(state, [1, 1, 1]))
    assert "1" not in state.senators and "2" not in state.senators


def test_a_statesmans_ability_does_not_work_for_the_master_of_horse():
    """R114 (VG 1.09.34): Fabius (2A) as Master of Horse: 4 + 10 + 7 − 10 = 11, a stalemate
    losing 2, not halved."""
    state, force = dictator_position(statesman="2A", military=5)
    combat.combat(ctx(state, [1, 1, 2, 30, 29]))
    assert force.legions == 8


def test_ally_deserts_adds_the_black_die_to_the_war_on_an_even_roll():
    """ror-data §5.2 Ally Deserts: 6+6+2 = 14, even: the 1st Gallic War is 10 + 6 = 16; 14 + 10
    + 4 − 16 = 12: a stalemate losing 1 (18, a victory, without it)."""
    state, force = land_position()
    state.events["ally_deserts"] = 1
    combat.combat(ctx(state, [6, 6, 2, 30]))
    assert state.wars[0].id == "gallic_1" and force.legions == 9


def test_enemys_ally_deserts_intensified_takes_the_white_dice_away_on_an_odd_roll():
    """ror-data §5.2 Enemy Mercenaries Desert: 1+1+3 = 5, odd: 10 − 4 = 6; 5 + 10 + 4 − 6 = 13:
    a stalemate losing nothing (9, losing 4, without it)."""
    state, force = land_position()
    state.events["enemys_ally_deserts"] = 2
    combat.combat(ctx(state, [1, 1, 3]))
    assert force.legions == 10


def test_the_new_veteran_owes_the_commander_and_a_lost_veteran_takes_it_along():
    """R224-R226 (VG 1.10.5, 1.10.6): the victory's veteran owes allegiance to the commander; a
    lost veteran (drawn 1 of 2 legions, then 1 of 1 veterans) takes its allegiance with it; a dead
    senator's markers are gone, his veterans stay veterans."""
    state, force = land_position()
    combat.combat(ctx(state, [6, 6, 5]))
    assert (force.veterans, force.loyal) == (1, {"1": 1})
    small = Force(war="x", legions=2, veterans=1, loyal={"1": 1})
    legions.lose(ctx(state, [1, 1]), small, 1)
    assert (small.legions, small.veterans, small.loyal) == (1, 0, {})
    state.units.legions, state.units.veterans, state.units.loyal = 3, 2, {"1": 2}
    kill_senator(ctx(state), "1", "mortality")
    assert (state.units.veterans, state.units.loyal) == (2, {})


def test_a_sea_battle_sinks_legions_too_and_without_fleet_support_no_land_battle():
    """R211, R219 (VG 1.10.1, 1.10.6): the 1st Punic War at sea: 16 + 6 + 4 − 10 = 16, a victory
    losing 2 fleets and 2 of the legions aboard; 4 fleets no longer give its support of 5: no land
    battle this turn."""
    state = position()
    senator(state, "1", 0, military=4, location="field")
    war = WarInPlay(id="punic_1", state="active")
    state.wars = [war]
    force = Force(war="punic_1", commander="1", legions=10, fleets=6)
    state.forces = [force]
    combat.combat(ctx(state, [6, 6, 4, 30, 29, 28, 27]))
    assert war.naval_won and state.wars == [war]
    assert (force.fleets, force.legions) == (4, 8)


def test_battles_follow_the_order_of_dispatch_proconsuls_of_earlier_turns_first():
    """R206: a proconsul left from an earlier turn (sent first), then this turn's Field Consul,
    then the Rome Consul; whatever their wars."""
    from judges.engine.dice import SeededDice
    from judges.rome.engine.context import Ctx

    state = position()
    senator(state, "1", 0, location="field")
    senator(state, "2", 1, location="field", office="field_consul")
    senator(state, "3", 2, location="field", office="rome_consul")
    state.wars = [
        WarInPlay(id="syrian_1", state="active"),
        WarInPlay(id="gallic_1", state="active"),
        WarInPlay(id="illyrian_1", state="active"),
    ]
    state.forces = [
        Force(war="illyrian_1", commander="1", legions=10, fleets=5),
        Force(war="gallic_1", commander="2", legions=10),
        Force(war="syrian_1", commander="3", legions=10, fleets=5),
    ]
    combat.combat(Ctx(state, SeededDice(state)))
    fought = [e.params["senator"] for e in state.report if e.key == "rome.combat.battle"]
    assert list(dict.fromkeys(fought)) == ["1", "2", "3"]


def test_after_a_battle_the_war_stays_active_only_with_units_and_fleet_support_left():
    """R218, VG 1.10.9: legions with the war's fleet support (the Syrian War needs 2), or fleets
    after a sea battle, keep the war active; otherwise it is unprosecuted."""
    state = position()
    senator(state, "1", 0, location="field")
    senator(state, "2", 1, location="field")
    state.wars = [WarInPlay(id="syrian_1", state="active"), WarInPlay(id="punic_1", state="active")]
    short = Force(war="syrian_1", commander="1", legions=3, fleets=1, fought=True)
    at_sea = Force(war="punic_1", commander="2", legions=0, fleets=3, fought=True)
    state.forces = [short, at_sea]
    combat.end_of_combat(ctx(state))
    assert [w.state for w in state.wars] == ["unprosecuted", "active"]
    short.fleets, short.fought, at_sea.fought = 2, True, True
    state.wars[0].state = "active"
    combat.end_of_combat(ctx(state))
    assert [w.state for w in state.wars] == ["active", "active"]


def sea_position(mil, legions, fleets):
    """The 1st Punic War (naval 10, fleet support 5) with Hamilcar, against the Field Consul
    Cornelius at sea."""
    state = position()
    senator(state, "1", 0, military=mil, office="field_consul", location="field")
    war = WarInPlay(id="punic_1", state="active", leaders=["hamilcar"])
    state.wars = [war]
    force = Force(war="punic_1", commander="1", legions=legions, fleets=fleets)
    state.forces = [force]
    state.unrest = 2
    return state, war, force


def test_e2_a_disaster_number_at_sea_beats_a_winning_total():
    """E2 (Cornelius), R214, R227, R220: military 4, 12 fleets and 12 legions at sea against the
    1st Punic War; 3d6 = 13 would total 13 + 12 + 4 − 13 = 16, a victory, but 13 is the war's
    disaster number: half of 12 fleets and of 12 legions, rounded up, lost (6 and 6, K2), +1
    unrest, 12 chits, none his; he stays as proconsul with 6 fleets and 6 legions, the war not
    won at sea."""
    state, war, force = sea_position(mil=4, legions=12, fleets=12)
    chits = list(range(30, 18, -1))  # twelve chits, 30 down to 19
    dice = ScriptedDice([6, 4, 3, *chits])
    combat.combat(Ctx(state, dice))
    assert (force.fleets, force.legions, state.unrest) == (6, 6, 3)
    battle = [e for e in state.report if e.key == "rome.combat.battle"]
    assert [(e.params["int"], e.params["result"]) for e in battle] == [(13, "disaster")]
    s = state.senators["1"]
    assert (s.office, s.prior_consul, s.location) == ("", True, "field")
    assert state.wars == [war] and not war.naval_won and force.commander == "1"
    assert dice.remaining == [] and len([f for sides, f in dice.rolled if sides > 6]) == 12


def test_e3_a_modified_8_at_sea_loses_5_and_5_and_the_last_chit_captures():
    """E3, R227, R228 (K5: 8 is a stalemate): Calpurnio, military 3, 8 fleets and 8 legions; 3d6 =
    7: 7 + 8 + 3 − 10 = 8 (neither the war's 13 nor Hamilcar's 8 and 12): 5 legions and 5
    fleets lost, 10 chits; his chit drawn last captures him, drawn earlier kills him."""
    state, war, force = sea_position(mil=3, legions=8, fleets=8)
    war.leaders = []  # the 1st Punic War alone: naval 10
    combat.combat(ctx(state, [1, 2, 4, *range(30, 21, -1), 1]))
    assert (force.fleets, force.legions) == (3, 3)
    battle = [e for e in state.report if e.key == "rome.combat.battle"][0]
    assert (battle.params["total"], battle.params["result"]) == (8, "stalemate")
    s = state.senators["1"]
    assert (s.location, s.captive_of, force.commander) == ("captive", "punic_1", "")

    state, war, force = sea_position(mil=3, legions=8, fleets=8)
    war.leaders = []
    combat.combat(ctx(state, [1, 2, 4, 1, *range(29, 20, -1)]))
    assert "1" not in state.senators and force.commander == ""
