"""Phase 1, Mortality (VG 1.05; R17-R20; ror-data §13 and §3.2): imminent wars activate, one
chit is drawn, "draw 2" chits call two more, and what a death does."""

from __future__ import annotations

from rome_position import chit_face, ctx, game_in, position, senator

from judges.engine.dice import ScriptedDice
from judges.rome.engine import mortality
from judges.rome.engine.effects import kill_senator
from judges.rome.engine.state import Force, ProvinceInPlay, WarInPlay


def test_one_imminent_war_of_each_series_becomes_active_the_lowest_first():
    """R197, VG 1.05.1 / 1.07.3321."""
    state = position()
    state.wars = [
        WarInPlay(id="macedonian_2", state="imminent"),
        WarInPlay(id="macedonian_1", state="imminent"),
        WarInPlay(id="punic_2", state="imminent"),
        WarInPlay(id="gallic_1", state="inactive"),
    ]
    mortality.activate_imminent(ctx(state))
    assert [(w.id, w.state) for w in state.wars] == [
        ("macedonian_2", "imminent"),
        ("macedonian_1", "active"),
        ("punic_2", "active"),
        ("gallic_1", "inactive"),
    ]


def test_the_chit_of_a_senator_in_play_kills_him_and_one_chit_is_drawn():
    """R17, VG 1.05.2: one chit; senator 4 (Julius) dies; unaligned senators die too."""
    state = position()
    senator(state, "4", 1)
    senator(state, "5", 1)
    game = game_in(state, "mortality", [chit_face("4")])
    assert "4" not in state.senators and "5" in state.senators
    assert state.curia == ["4"]
    assert [d.kind for d in game.pending] == ["redistribute"] * 3  # and on to Revenue


def test_a_chit_of_a_senator_not_in_play_does_nothing():
    state = position()
    senator(state, "5", 1)
    game_in(state, "mortality", [chit_face("7")])
    assert "5" in state.senators
    assert [e.key for e in state.report[:2]] == ["rome.mortality.chit", "rome.mortality.no_one"]


def test_a_draw_two_chit_goes_back_and_calls_two_more():
    """VG 1.05.21: the "draw 2" returns to the cup at once; the other chits stay out until the
    whole draw is done (the second roll is over 35 chits, "1" being out)."""
    state = position()
    senator(state, "1", 0)
    senator(state, "2", 1)
    senator(state, "3", 2)
    c = ctx(state, [chit_face("draw_two"), 1, 1])
    assert mortality.draw_chits(c, 1) == ["1", "2"]
    assert isinstance(c.dice, ScriptedDice)
    assert c.dice.rolled == [(36, 35), (36, 1), (35, 1)]


def test_a_faction_leader_keeps_his_family_card_stripped_and_back_in_rome():
    """R18, VG 1.05.3."""
    state = position()
    s = senator(state, "6", 0, influence=12, popularity=3, knights=2, talents=9, office="censor", prior_consul=True,
                corrupt=True, concessions=["mining"], location="province")  # fmt: skip
    state.factions[0].leader = "6"
    state.provinces = [ProvinceInPlay(id="sicilia", governor="6", term=2)]
    s.governor_of = "sicilia"
    kill_senator(ctx(state), "6", "mortality")
    fresh = state.senators["6"]
    assert (fresh.faction, fresh.influence, fresh.popularity, fresh.knights, fresh.talents) == (0, 4, 0, 0, 0)
    assert (fresh.office, fresh.prior_consul, fresh.corrupt, fresh.location, fresh.concessions) == (
        "",
        False,
        False,
        "rome",
        [],
    )
    assert state.factions[0].leader == "6"
    assert state.forum_concessions == ["mining"]  # R19
    assert (state.provinces[0].governor, state.provinces[0].term) == ("", 0)  # back to the Forum


def test_any_other_senator_goes_to_the_curia_and_a_statesman_leaves_the_game():
    """VG 1.05.3 / 1.05.31."""
    state = position()
    senator(state, "1", 0, statesman="1A")
    senator(state, "2", 0, statesman="2A")
    state.factions[0].leader = "2"
    c = ctx(state)
    kill_senator(c, "1", "mortality")
    assert "1" not in state.senators and state.curia == ["1"] and state.removed == ["1A"]
    kill_senator(c, "2", "mortality")  # the leader: his statesman goes, the family card stays
    assert state.removed == ["1A", "2A"] and state.senators["2"].statesman == "" and state.factions[0].leader == "2"


def test_a_lone_statesman_who_led_his_faction_leaves_it_without_a_leader():
    """VG 1.05.31: a new leader is named in the Forum."""
    state = position()
    senator(state, "19", 1, statesman="19A", family_card=False)
    state.factions[1].leader = "19"
    kill_senator(ctx(state), "19", "mortality")
    assert "19" not in state.senators and state.curia == [] and state.removed == ["19A"]
    assert state.factions[1].leader == ""


def test_a_proconsul_who_dies_leaves_his_force_on_the_war_without_him():
    """VG 1.05.3, 1.10.2: the survivors wait for the next Senate (found by the random games: a
    dead proconsul must not fight again)."""
    state = position()
    senator(state, "7", 0, location="field")
    state.forces = [Force(war="gallic_1", commander="7", legions=5)]
    kill_senator(ctx(state), "7", "mortality")
    assert state.forces == [Force(war="gallic_1", commander="", legions=5)]
