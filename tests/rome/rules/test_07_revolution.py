"""Phase 7, Revolution (VG 1.11; R233-R255): cards are played in table order from the HRAO,
hands are cut to five, victors lay down their command or revolt; the civil war."""

from __future__ import annotations

import pytest
from rome_position import ctx, game_in, position, senator

from judges.engine.dice import ScriptedDice
from judges.engine.errors import IllegalAction
from judges.rome.engine import combat
from judges.rome.engine.actions import Discard, Done, GiveCard, JoinRevolt, LayDown, Revolt, RollLegions
from judges.rome.engine.board import active_wars
from judges.rome.engine.state import CIVIL_WAR, Force, Rebellion, WarInPlay
from judges.rome.engine.view import player_view


def to_declarations(game):
    """Answers the trading and cards steps (nobody gives or plays) until a commander owes his
    declaration."""
    while game.pending and game.pending[0].kind in ("trade_cards", "play_cards"):
        game.apply(Done(player=game.pending[0].player))
    return game


def victor(state, card="1", faction=0, legions=6, veterans=0, fleets=0, **changes):
    senator(state, card, faction, location="field", **changes)
    force = Force(war="gallic_1", commander=card, legions=legions, veterans=veterans, fleets=fleets, won=True)
    state.forces.append(force)
    return force


def test_a_victorious_commander_comes_home_with_his_force():
    """R238: he lays down his command: his force goes back to Rome's box."""
    state = position()
    victor(state, legions=6, veterans=1)
    game = to_declarations(game_in(state, "revolution"))
    assert [(d.player, d.kind, d.subject) for d in game.pending] == [(0, "revolt", "1")]
    dice = game.ctx.dice
    assert isinstance(dice, ScriptedDice)
    dice.faces += [31]  # the next turn's Mortality chit: a blank
    game.apply(LayDown(player=0))
    assert state.forces == [] and state.senators["1"].location == "rome"
    assert (state.units.legions, state.units.veterans) == (6, 1)
    assert state.rebellion is None


def test_legions_follow_on_5_a_talent_adds_1_and_fleets_stay_with_rome():
    """R240-R242: four legions (the first a veteran), 2T spent on the first two rolls: 4+1, 3+1,
    5, 1: two follow, the veteran among them; the others and the fleets go back to Rome."""
    state = position()
    victor(state, legions=4, veterans=1, fleets=3, talents=5, office="field_consul", knights=2)
    senator(state, "5", 0)  # he will owe his declaration of loyalty
    game = to_declarations(game_in(state, "revolution", [4, 3, 5, 1]))
    with pytest.raises(IllegalAction):
        game.apply(Revolt(player=0))  # he rolls first
    game.apply(RollLegions(player=0, talents=2))
    assert state.senators["1"].talents == 3
    with pytest.raises(IllegalAction):
        game.apply(RollLegions(player=0, talents=0))
    game.apply(Revolt(player=0))
    assert state.rebellion == Rebellion(rebel="1", legions=2, veterans=1)
    assert (state.units.legions, state.units.veterans, state.units.fleets) == (2, 0, 3)
    s = state.senators["1"]  # R246
    assert (s.location, s.office, s.knights) == ("rebel", "", 0)


def test_veterans_owing_him_follow_without_a_roll_others_roll():
    """R240 (VG 1.11.31): of three legions, his own veteran follows; the veteran owing "5" rolls
    a 6 and follows, the regular rolls a 1: two dice only."""
    state = position()
    force = victor(state, legions=3, veterans=2)
    force.loyal = {"1": 1, "5": 1}
    senator(state, "2", 0)  # he will owe his declaration of loyalty
    game = to_declarations(game_in(state, "revolution", [6, 1]))
    game.apply(RollLegions(player=0, talents=0))
    game.apply(Revolt(player=0))
    assert state.rebellion == Rebellion(rebel="1", legions=2, veterans=2, loyal={"1": 1, "5": 1})
    assert (state.units.legions, state.units.veterans) == (1, 0)


def test_veterans_owing_a_rebel_desert_to_him_wherever_they_are():
    """R244 (VG 1.11.34): the secondary rebel's veterans in Rome's box and the rebel's own in
    another force desert to the rebel army."""
    state = position()
    victor(state, legions=1)
    senator(state, "2", 0)
    senator(state, "6", 0)  # he will owe his declaration of loyalty after "2"
    state.units.legions, state.units.veterans, state.units.loyal = 4, 2, {"2": 2}
    state.wars = [WarInPlay(id="punic_1", state="active")]
    senator(state, "3", 1, location="field")
    other = Force(war="punic_1", commander="3", legions=3, veterans=1, loyal={"1": 1})
    state.forces.append(other)
    game = to_declarations(game_in(state, "revolution", [6]))
    game.apply(RollLegions(player=0, talents=0))
    game.apply(Revolt(player=0))
    assert (other.legions, other.veterans, other.loyal) == (2, 0, {})
    game.apply(JoinRevolt(player=0, join=True))
    assert state.rebellion == Rebellion(rebel="1", legions=4, veterans=3, loyal={"1": 1, "2": 2})
    assert (state.units.legions, state.units.veterans, state.units.loyal) == (2, 0, {})


def test_no_legion_following_means_no_revolt():
    """R241: every die below 5."""
    state = position()
    victor(state, legions=2)
    game = to_declarations(game_in(state, "revolution", [4, 4]))
    game.apply(RollLegions(player=0, talents=0))
    assert Revolt(player=0) not in game.legal_actions(0)
    with pytest.raises(IllegalAction):
        game.apply(Revolt(player=0))


def test_the_other_senators_of_the_rebels_faction_join_him_or_stay_loyal():
    """R243, R244, R246: a senator who joins loses his knights, office and concessions and gives
    back his command (his force waits on its war); one who stays goes on as before."""
    state = position()
    victor(state, legions=3)
    senator(state, "2", 0, office="censor", knights=2, concessions=["harbor_fees"])
    senator(state, "3", 0, location="field")
    senator(state, "4", 0, office="rome_consul")
    state.wars = [WarInPlay(id="punic_1", state="active")]
    other = Force(war="punic_1", commander="3", legions=5)
    state.forces.append(other)
    game = to_declarations(game_in(state, "revolution", [6, 6, 6]))
    game.apply(RollLegions(player=0, talents=0))
    game.apply(Revolt(player=0))
    assert sorted(d.subject for d in game.pending) == ["2", "3", "4"]
    assert {d.kind for d in game.pending} == {"join_revolt"}
    game.apply(JoinRevolt(player=0, join=True))  # "2"
    game.apply(JoinRevolt(player=0, join=True))  # "3"
    game.ctx.dice.faces += [31]
    game.apply(JoinRevolt(player=0, join=False))  # "4"
    two, three, four = (state.senators[x] for x in "234")
    assert (two.location, two.office, two.knights, two.concessions) == ("rebel", "", 0, [])
    assert "harbor_fees" in state.forum_concessions
    assert three.location == "rebel" and other.commander == "" and other in state.forces
    assert (four.location, four.office) == ("rome", "rome_consul")


def test_a_master_of_horse_joins_only_a_rebel_dictator_and_adds_his_rating():
    """R245, R248: the rebel Dictator's Master of Horse of his faction may join; his rating
    counts with the rebel's (no more than the army's strength)."""
    state = position()
    victor(state, legions=4, office="dictator", military=2)
    senator(state, "2", 0, office="master_of_horse", military=3)
    game = to_declarations(game_in(state, "revolution", [6, 6, 6, 6]))
    game.apply(RollLegions(player=0, talents=0))
    game.apply(Revolt(player=0))
    assert [(d.kind, d.subject) for d in game.pending] == [("join_revolt", "2")]
    game.ctx.dice.faces += [31]
    game.apply(JoinRevolt(player=0, join=True))
    assert state.rebellion is not None and state.rebellion.master == "2"
    assert combat.rebel_strength(game.ctx, state.senators["1"], 4, 0, state.senators["2"]) == 4 + 4

    state = position()  # no Dictator: his Master of Horse is not asked
    victor(state, legions=4, office="field_consul")
    senator(state, "2", 0, office="master_of_horse")
    game = to_declarations(game_in(state, "revolution", [6, 6, 6, 6, 31]))
    game.apply(RollLegions(player=0, talents=0))
    game.apply(Revolt(player=0))
    assert state.turn == 2 and state.senators["2"].office == "master_of_horse"


def test_only_the_stronger_of_two_declared_rebels_stands():
    """R239 (VG 1.11.3): a later declaration with a stronger army replaces the first, whose
    legions go back to Rome; a weaker one may not revolt."""
    state = position()
    victor(state, "1", 0, legions=2, military=1)
    senator(state, "2", 1, location="field", military=3)
    state.forces.append(Force(war="punic_1", commander="2", legions=4, won=True))
    senator(state, "3", 2, location="field", military=1)
    state.forces.append(Force(war="illyrian_1", commander="3", legions=2, won=True))
    senator(state, "4", 1)  # he will owe his declaration of loyalty
    game = to_declarations(game_in(state, "revolution", [6, 6] + [6, 6, 6, 6] + [6, 6]))
    assert game.pending[0].subject == "1"
    game.apply(RollLegions(player=0, talents=0))
    game.apply(Revolt(player=0))
    game.apply(RollLegions(player=1, talents=0))
    game.apply(Revolt(player=1))  # 4 + 3 beats 2 + 1
    assert state.senators["1"].location == "rome" and state.units.legions == 2
    game.apply(RollLegions(player=2, talents=0))
    with pytest.raises(IllegalAction):
        game.apply(Revolt(player=2))  # 2 + 1 does not beat 4 + 3
    game.apply(LayDown(player=2))
    assert state.rebellion == Rebellion(rebel="2", legions=4)


def test_a_replaced_rebel_dictator_comes_home_with_his_master_of_horse():
    """R239, R230 (VG 1.11.3, 1.09.34): a declared rebel Dictator's Master of Horse rides with
    his army until the revolt stands; when a stronger declaration replaces the Dictator's, both
    come home to Rome and keep their offices."""
    state = position()
    victor(state, "1", 0, legions=2, office="dictator", military=1)
    senator(state, "5", 2, location="field", office="master_of_horse")
    senator(state, "2", 1, location="field", military=3)
    state.forces.append(Force(war="punic_1", commander="2", legions=4, won=True))
    senator(state, "4", 1)  # he will owe his declaration of loyalty
    game = to_declarations(game_in(state, "revolution", [6, 6] + [6, 6, 6, 6]))
    game.apply(RollLegions(player=0, talents=0))
    game.apply(Revolt(player=0))
    assert state.senators["5"].location == "field"  # with the declared Dictator's army
    game.apply(RollLegions(player=1, talents=0))
    game.apply(Revolt(player=1))  # 4 + 3 beats 2 + 1
    assert (state.senators["1"].location, state.senators["1"].office) == ("rome", "dictator")
    assert (state.senators["5"].location, state.senators["5"].office) == ("rome", "master_of_horse")


def test_no_revolt_while_a_rebel_marches_on_rome():
    """R239: once a primary rebel stands, a victor simply lays down his command."""
    state = position()
    senator(state, "2", 1, location="rebel", talents=6)  # pays his 3 legions in the next Revenue
    state.rebellion = Rebellion(rebel="2", legions=3)
    victor(state, legions=5)
    to_declarations(game_in(state, "revolution", [31]))
    assert state.turn == 2 and state.forces == [] and state.units.legions == 5


def rebel_position(rebel_legions=4, legions=10, **changes):
    """The rebel "2" (military 3) with a secondary rebel "3", against "1" (military 4) sent by
    the Senate."""
    state = position()
    senator(state, "1", 0, military=4, location="field", **changes)
    senator(state, "2", 1, military=3, location="rebel")
    senator(state, "3", 1, location="rebel")
    senator(state, "4", 1)
    state.rebellion = Rebellion(rebel="2", legions=rebel_legions)
    force = Force(war=CIVIL_WAR, commander="1", legions=legions)
    state.forces = [force]
    state.unrest = 2
    return state, force


def test_a_civil_war_is_an_active_war():
    """VG 1.11.3 (R247): the rebel's army counts among the active wars until he has won."""
    state, _ = rebel_position()
    assert active_wars(state) == [CIVIL_WAR]
    state.rebellion.won = True
    assert active_wars(state) == []


def test_a_senate_victory_executes_every_rebel_and_rewards_the_commander():
    """R248, R250, R251: 6+6+6 + 10 + 4 − (4 + 3) = 25: victory losing nothing; the rebel and
    his secondary die, his 4 legions go back to Rome, unrest −1, +4 influence and popularity
    (half of 7, rounded up)."""
    state, force = rebel_position()
    combat.combat(ctx(state, [6, 6, 6]))
    assert state.rebellion is None and "2" not in state.senators and "3" not in state.senators
    assert state.senators["4"].location == "rome"
    assert state.units.legions == 4 and state.unrest == 1
    s = state.senators["1"]
    assert (s.influence, s.popularity) == (5 + 4, 4)
    assert force.won and force in state.forces  # he declares in the Revolution phase


def test_a_senate_defeat_kills_the_commander_and_the_rebel_wins():
    """R250, R253, VG 1.11.373: 1+1+1 + 4 + 4 − 7 = 4: defeat losing 4: the rebel loses nothing,
    the Senate's survivors go back to Rome, four chits (none the rebel's), and the rebel's faction
    wins at the end of the phase."""
    state, force = rebel_position(legions=4)
    combat.combat(ctx(state, [1, 1, 1, 30, 29, 28, 27]))
    assert "1" not in state.senators and state.rebellion.legions == 4
    assert state.units.legions == 0 and force not in state.forces
    combat.end_of_combat(ctx(state))
    assert state.result is not None and (state.result.ending, state.result.winners) == ("rebel", (1,))


def test_a_stalemate_costs_both_armies_and_the_civil_war_goes_on():
    """R250, R252, VG 1.10.7: 2+3+3 + 6 + 4 − 7 = 11: stalemate, two legions lost on each side,
    two chits for the Senate's losses."""
    state, force = rebel_position(legions=6)
    combat.combat(ctx(state, [2, 3, 3, 30, 29]))
    assert (force.legions, state.rebellion.legions) == (4, 2)
    combat.end_of_combat(ctx(state))
    assert state.result is None and state.rebellion is not None


def test_a_loyal_senators_veterans_leave_the_rebel_army_for_the_senates():
    """R249 [D: their senator so orders]: the rebel army's veteran owing "4" (loyal) joins the
    Senate's army before the battle: 18 + 11 + 4 − (3 + 3) = 27, a victory."""
    state, force = rebel_position()
    state.rebellion.veterans, state.rebellion.loyal = 1, {"4": 1}
    state.senators["4"].faction = 0
    combat.combat(ctx(state, [6, 6, 6]))
    assert (force.legions, force.veterans, force.loyal) == (11, 2, {"4": 1, "1": 1})


def test_a_civil_war_stalemate_makes_a_veteran_on_each_side():
    """VG 1.10.5: each owing its own general."""
    state, force = rebel_position(legions=6)
    combat.combat(ctx(state, [2, 3, 3, 30, 29]))
    assert (force.veterans, force.loyal) == (1, {"1": 1})
    assert (state.rebellion.veterans, state.rebellion.loyal) == (1, {"2": 1})


def test_a_chit_can_kill_the_rebel_and_end_the_revolt():
    """R254, VG 1.10.7: the chits drawn for the Senate's losses strike either side: the second is
    the rebel's: the revolt fails, his secondary dies, his surviving legions go back to Rome and
    the Senate's army comes home."""
    state, force = rebel_position(legions=6)
    combat.combat(ctx(state, [2, 3, 3, 30, 2]))
    assert state.rebellion is None and "3" not in state.senators
    assert state.units.legions == 2 + 4 and force not in state.forces
    assert state.senators["1"].location == "rome"


def test_a_rebel_nobody_attacks_wins():
    """R247, VG 1.11.36: no army sent against him in a Combat phase: his coup succeeds."""
    state, _ = rebel_position()
    state.forces = []
    combat.combat(ctx(state))
    combat.end_of_combat(ctx(state))
    assert state.result is not None and (state.result.ending, state.result.winners) == ("rebel", (1,))


def test_cards_are_given_in_the_revolution_phase_only_seen_by_giver_and_receiver():
    """R237 (VG 1.11.1): every faction at once may give cards to another player; the report names
    no card and the others' views show only the hands' sizes."""
    state = position()
    senator(state, "1", 0)
    state.factions[0].hand = ["tribune.1", "seduction"]
    game = game_in(state, "revolution")
    assert sorted((d.player, d.kind) for d in game.pending) == [
        (0, "trade_cards"),
        (1, "trade_cards"),
        (2, "trade_cards"),
    ]
    with pytest.raises(IllegalAction):
        game.apply(GiveCard(player=0, card="blackmail", to=1))
    with pytest.raises(IllegalAction):
        game.apply(GiveCard(player=0, card="seduction", to=0))
    game.apply(GiveCard(player=0, card="seduction", to=2))
    assert state.factions[2].hand == ["seduction"] and state.factions[0].hand == ["tribune.1"]
    assert state.report[-1].params == {"faction": 0, "receiver": 2}
    assert player_view(state, 1)["factions"][2]["hand"] == 1


def test_cards_in_table_order_from_the_hrao_then_hands_cut_to_five_all_at_once():
    """R234, R236."""
    state = position()
    senator(state, "1", 1, office="rome_consul")
    senator(state, "2", 0)
    senator(state, "3", 2)
    state.factions[0].hand = [f"tribune.{n}" for n in range(1, 8)]
    state.factions[2].hand = ["assassin", "seduction", "blackmail", "tribune.8", "tribune.9", "influence_peddling"]
    game = game_in(state, "revolution")
    for seat in (0, 1, 2):
        game.apply(Done(player=seat))  # R237: nobody gives a card
    assert [(d.player, d.kind) for d in game.pending] == [(1, "play_cards")]
    game.apply(Done(player=1))
    game.apply(Done(player=2))
    game.apply(Done(player=0))
    assert sorted((d.player, d.kind) for d in game.pending) == [(0, "discard"), (2, "discard")]
    with pytest.raises(IllegalAction):
        game.apply(Discard(player=2, card="tribune.1"))
    game.apply(Discard(player=2, card="blackmail"))
    game.apply(Discard(player=0, card="tribune.1"))
    assert [(d.player, d.kind) for d in game.pending] == [(0, "discard")]
    dice = game.ctx.dice
    assert isinstance(dice, ScriptedDice)
    dice.faces += [31]  # the next turn's Mortality chit: a blank
    game.apply(Discard(player=0, card="tribune.2"))
    assert len(state.factions[0].hand) == 5 and state.discard == ["tribune.1", "tribune.2", "blackmail"]
    assert state.turn == 2
