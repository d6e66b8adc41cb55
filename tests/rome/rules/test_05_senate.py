"""Phase 5, Senate (VG 1.09; R80-R103, R122-R124; E10): the presiding magistrate, proposals voted
by every faction at once, bought votes, tribunes' vetoes, the consuls and the censor."""

from __future__ import annotations

import pytest
from rome_position import ctx, game_in, position, senator

from judges.engine.errors import IllegalAction, NotYourDecision
from judges.rome.engine.actions import ProposeCensor, ProposeConsuls, Veto, Vote
from judges.rome.engine.view import player_view


def senate_game(faces=(6, 1), **extra):
    """Faction 0: Cornelius (Rome Consul, ORA 3) and Fabius (ORA 2); faction 1: Valerius (ORA 2)
    and Julius (ORA 3); faction 2: Claudius (ORA 3, prior consul) and Manlius (ORA 2)."""
    state = position()
    senator(state, "1", 0, office="rome_consul")
    senator(state, "2", 0)
    senator(state, "3", 1)
    senator(state, "4", 1)
    senator(state, "5", 2, prior_consul=True)
    senator(state, "6", 2)
    for card, changes in extra.items():
        for name, value in changes.items():
            setattr(state.senators[card.removeprefix("s")], name, value)
    return game_in(state, "senate", faces)


def vote_all(game, *choices):
    for seat, choice in enumerate(choices):
        if isinstance(choice, tuple):
            game.apply(Vote(player=seat, choice=choice[0], talents=choice[1]))
        else:
            game.apply(Vote(player=seat, choice=choice))


def test_the_hrao_opens_and_nominates_a_pair_the_current_consul_excluded():
    """R80, R94, R96, R97."""
    game = senate_game()
    assert [(d.player, d.kind) for d in game.pending] == [(0, "propose_consuls")]
    pairs = {(a.first, a.second) for a in game.legal_actions(0)}
    assert ("2", "3") in pairs and not any("1" in p for p in pairs)
    with pytest.raises(NotYourDecision):
        game.apply(ProposeConsuls(player=1, first="3", second="4"))
    with pytest.raises(IllegalAction):
        game.apply(ProposeConsuls(player=0, first="1", second="2"))


def test_every_faction_votes_at_once_and_a_majority_of_votes_cast_elects_the_pair():
    """R88 (as simultaneous ballots), R89, R91, R100-R102: 2+3 for (faction 1), 3+2 against
    (faction 2), faction 0 abstains: 5 to 5 fails; with faction 0 for, 10 to 5 passes."""
    game = senate_game()
    game.apply(ProposeConsuls(player=0, first="3", second="4"))
    assert sorted((d.player, d.kind) for d in game.pending) == [(0, "vote"), (1, "vote"), (2, "vote")]
    vote_all(game, "abstain", "yea", "nay")
    assert game.state.report[-1].params == {"yea": 5, "nay": 5, "won": False}
    game.apply(ProposeConsuls(player=0, first="2", second="3"))
    vote_all(game, "yea", "yea", "nay")
    s = game.state.senators
    assert (s["2"].office, s["3"].office) == ("rome_consul", "field_consul")  # dice 6 and 1
    assert (s["2"].influence, s["3"].influence) == (5 + 5, 5 + 5)
    assert s["1"].office == "" and s["1"].prior_consul  # R101
    assert game.state.scratch["senate"]["presiding"] == "2"  # R102


def test_a_rejected_pair_is_not_proposed_again_but_its_members_may_be():
    """R98, E10."""
    game = senate_game()
    game.apply(ProposeConsuls(player=0, first="3", second="4"))
    vote_all(game, "nay", "yea", "nay")
    pairs = {(a.first, a.second) for a in game.legal_actions(0)}
    assert ("3", "4") not in pairs and ("2", "3") in pairs and ("2", "4") in pairs
    with pytest.raises(IllegalAction):
        game.apply(ProposeConsuls(player=0, first="4", second="3"))


def test_bought_votes_count_one_a_talent_and_go_to_the_bank():
    """VG 1.09.141."""
    game = senate_game(s6={"talents": 4})
    game.apply(ProposeConsuls(player=0, first="2", second="3"))
    vote_all(game, "yea", "abstain", ("nay", 4))
    assert game.state.report[-1].params == {"yea": 5, "nay": 9, "won": False}
    assert game.state.senators["6"].talents == 0


def test_a_tribune_vetoes_the_vote_and_is_discarded():
    """R84, R86, VG 1.09.152: the slate may not come back this turn."""
    game = senate_game()
    game.state.factions[2].hand = ["tribune.3"]
    game.apply(ProposeConsuls(player=0, first="2", second="3"))
    game.apply(Vote(player=0, choice="yea"))
    game.apply(Veto(player=2, card="tribune.3"))
    assert game.state.discard == ["tribune.3"] and game.state.factions[2].hand == []
    assert [(d.player, d.kind) for d in game.pending] == [(0, "propose_consuls")]
    assert ("2", "3") not in {(a.first, a.second) for a in game.legal_actions(0)}
    with pytest.raises(IllegalAction):
        game.apply(ProposeConsuls(player=0, first="2", second="3"))


def test_a_unanimous_rejection_costs_the_presiding_magistrate_1_influence():
    """R90, VG 1.09.144; with no influence he steps down."""
    game = senate_game()
    game.apply(ProposeConsuls(player=0, first="2", second="3"))
    vote_all(game, "yea", "nay", "nay")
    assert game.state.senators["1"].influence == 5 - 1
    game.state.senators["1"].influence = 0
    game.apply(ProposeConsuls(player=0, first="2", second="4"))
    vote_all(game, "yea", "nay", "nay")
    assert game.state.scratch["senate"]["presiding"] == "2"  # influence 5, oratory 2, the lowest id


def test_the_last_legal_pair_is_appointed_without_a_vote():
    """R85, VG 1.09.21."""
    state = position()
    senator(state, "1", 0, office="rome_consul")
    senator(state, "2", 0, office="field_consul")
    senator(state, "3", 1)
    senator(state, "4", 2)
    game = game_in(state, "senate", [2, 5])
    assert (state.senators["4"].office, state.senators["3"].office) == ("rome_consul", "field_consul")
    assert state.senators["1"].prior_consul and state.senators["2"].prior_consul
    assert [(d.player, d.kind) for d in game.pending] == [(2, "propose_censor")]  # the new Rome Consul


def test_the_censor_comes_from_the_prior_consuls_and_gains_5():
    """R122, R124, VG 1.09.4: the only eligible candidate is appointed."""
    game = senate_game()
    game.apply(ProposeConsuls(player=0, first="2", second="3"))
    vote_all(game, "yea", "yea", "nay")
    # prior consuls free of other offices: Cornelius (just left the consulship) and Claudius
    assert [(d.player, d.kind) for d in game.pending] == [(0, "propose_censor")]
    assert {a.senator for a in game.legal_actions(0) if isinstance(a, ProposeCensor)} == {"1", "5"}
    game.apply(ProposeCensor(player=0, senator="5"))
    vote_all(game, "nay", "nay", "yea")
    assert game.state.senators["1"].office == "censor" and game.state.senators["1"].influence == 5 + 5
    assert [(d.player, d.kind) for d in game.pending] == [(0, "propose_business")]


def test_a_single_eligible_censor_is_appointed_then_other_business():
    """VG 1.09.4."""
    state = position()
    senator(state, "1", 0, office="rome_consul")
    senator(state, "2", 0, office="field_consul", location="province")
    senator(state, "3", 1)
    senator(state, "4", 2)
    game = game_in(state, "senate", [2, 5])  # 3 and 4 the last pair; Cornelius the only prior consul in Rome
    assert state.senators["1"].office == "censor" and state.senators["1"].influence == 5 + 5
    assert [(d.player, d.kind) for d in game.pending] == [(2, "propose_business")]  # the new Rome Consul


def test_a_ballot_is_secret_until_the_tally():
    game = senate_game()
    game.apply(ProposeConsuls(player=0, first="2", second="3"))
    game.apply(Vote(player=1, choice="nay"))
    view = player_view(game.state, 2)
    assert view["scratch"]["senate"]["ballots"] == {"1": "voted"}
    assert player_view(game.state, 1)["scratch"]["senate"]["ballots"] == {"1": ["nay", 0]}


def test_without_a_senator_in_rome_there_is_no_senate():
    """R80."""
    state = position()
    senator(state, "1", 0, location="province")
    game = game_in(state, "senate")
    assert [d.kind for d in game.pending] == ["trade_cards"] * 3  # no Senate: Combat, then the Revolution


# --- other business: levies, deployments, closing ------------------------------------------------

from judges.rome.engine import alliances  # noqa: E402
from judges.rome.engine import senate as senate_rules  # noqa: E402
from judges.rome.engine.actions import CloseSenate, Deploy, RaiseForces, SueForPeace  # noqa: E402
from judges.rome.engine.state import CIVIL_WAR, Force, Rebellion, WarInPlay  # noqa: E402
from judges.rome.i18n import render_entry  # noqa: E402


def business_game(**state_changes):
    """Consuls already chosen: Fabius (faction 0) Rome Consul, Valerius (faction 1) Field Consul;
    Cornelius, the only prior consul, censor: the presiding Rome Consul proposes business."""
    state = position()
    senator(state, "1", 0, office="rome_consul")
    senator(state, "2", 0)
    senator(state, "3", 1)
    senator(state, "4", 1, location="province")
    senator(state, "5", 2, location="province")
    state.units.legions = 8
    state.units.fleets = 2
    state.wars = [WarInPlay(id="gallic_1", state="active"), WarInPlay(id="syrian_1", state="inactive")]
    for name, value in state_changes.items():
        setattr(state, name, value)
    game = game_in(state, "senate", [6, 1])  # the last pair (2, 3): Fabius rolls 6
    assert state.senators["2"].office == "rome_consul" and state.senators["1"].office == "censor"
    return game


def test_a_levy_costs_the_state_10_a_unit_and_pays_the_armaments_holder():
    """R146, R147, R149, VG 1.09.631."""
    game = business_game()
    game.state.senators["1"].concessions = ["armaments"]
    assert [(d.player, d.kind) for d in game.pending] == [(0, "propose_business")]
    game.apply(RaiseForces(player=0, legions=3, fleets=1))
    vote_all(game, "yea", "yea", "yea")
    assert (game.state.treasury, game.state.units.legions, game.state.units.fleets) == (60, 11, 3)
    assert game.state.senators["1"].talents == 6 and game.state.senators["1"].corrupt


def test_a_manpower_shortage_raises_the_price_and_no_recruitment_forbids_levies():
    """R77, R147; ror-data §5.2."""
    game = business_game(events={"manpower_shortage": 1})
    assert senate_rules.unit_cost(game.ctx) == 20
    game.state.no_recruitment = True
    assert senate_rules.raise_refusal(game.ctx, RaiseForces(player=0, legions=1)) == "rome.error.no_recruitment"
    assert not any(isinstance(a, RaiseForces) for a in game.legal_actions(0))


def test_the_field_consul_goes_first_with_enough_force_and_fleet_support():
    """R151-R155, R159: the Rome Consul waits for the Field Consul; the Syrian War needs 2 fleets
    and, inactive, becomes active when attacked."""
    game = business_game()
    ctx_ = game.ctx
    assert senate_rules.deploy_refusal(ctx_, Deploy(player=0, commander="2", war="gallic_1", legions=8)) == (
        "rome.error.not_a_commander"
    )
    assert senate_rules.deploy_refusal(ctx_, Deploy(player=0, commander="3", war="syrian_1", legions=8)) == (
        "rome.error.too_weak"
    )
    assert senate_rules.deploy_refusal(ctx_, Deploy(player=0, commander="3", war="gallic_1", legions=5)) == (
        "rome.error.too_weak"  # 5 + 1 < 10: he would have to consent
    )
    assert senate_rules.deploy_refusal(ctx_, Deploy(player=0, commander="3", war="syrian_1", legions=4, fleets=2)) == (
        "rome.error.too_weak"  # 4 + 1 < 6
    )
    game.apply(Deploy(player=0, commander="3", war="syrian_1", legions=6, fleets=2))
    vote_all(game, "yea", "yea", "nay")
    assert game.state.wars[1].state == "active" and game.state.senators["3"].location == "field"
    assert game.state.forces == [Force(war="syrian_1", commander="3", legions=6, fleets=2)]
    assert [s.id for s in senate_rules.commanders(ctx_)] == ["2"]  # now the Rome Consul may go


def test_e11_a_rejected_dispatch_is_dead_for_the_turn_but_a_variant_may_be_proposed():
    """E11, R83 (VG 1.09.13): Valerius with 4 legions is rejected; that exact proposal may not come
    back this turn, Valerius with 6 legions may. The review sends Julius to Gaul; here the Syrian
    War (land 6) stands in, since [D] a dispatch weaker than its war (4 legions against Gaul's 10)
    is refused before any vote."""
    game = business_game()
    game.state.senators["3"].military = 2
    four = Deploy(player=0, commander="3", war="syrian_1", legions=4, fleets=2)
    six = Deploy(player=0, commander="3", war="syrian_1", legions=6, fleets=2)
    assert senate_rules.deploy_refusal(game.ctx, four) is None
    game.apply(four)
    vote_all(game, "abstain", "nay", "nay")
    assert game.state.forces == [] and game.state.units.legions == 8
    with pytest.raises(IllegalAction) as err:
        game.apply(four)
    assert err.value.key == "rome.error.proposal_rejected"
    game.apply(six)
    vote_all(game, "yea", "yea", "nay")
    assert game.state.forces == [Force(war="syrian_1", commander="3", legions=6, fleets=2)]


def test_the_senate_may_send_an_army_against_the_rebel():
    """R247, R248 (VG 1.11.36, 1.11.37): a commander with legions only, at least as strong as the
    rebel's army [D]; no civil war, no such target."""
    game = business_game()
    ctx_ = game.ctx
    send = Deploy(player=0, commander="3", war=CIVIL_WAR, legions=4)
    assert senate_rules.deploy_refusal(ctx_, send) == "rome.error.no_such_war"
    senator(game.state, "6", 2, location="rebel", military=2)
    game.state.rebellion = Rebellion(rebel="6", legions=3)
    game.state.senators["3"].military = 1
    assert senate_rules.deploy_refusal(ctx_, Deploy(player=0, commander="3", war=CIVIL_WAR, legions=3)) == (
        "rome.error.too_weak"  # 3 + 1 < 3 + 2
    )
    assert senate_rules.deploy_refusal(ctx_, Deploy(player=0, commander="3", war=CIVIL_WAR, legions=4, fleets=1)) == (
        "rome.error.too_weak"  # fleets play no part in a civil war
    )
    everything = Deploy(player=0, commander="3", war=CIVIL_WAR, legions=8)
    assert everything in game.legal_actions(0)
    game.apply(everything)
    vote_all(game, "yea", "yea", "nay")
    assert game.state.forces == [Force(war=CIVIL_WAR, commander="3", legions=8)]
    assert render_entry(game.state.report[-1], "es", {}).startswith("Valerius")


def test_the_master_of_horse_goes_to_war_with_the_dictator():
    """R113 (VG 1.09.34): the Dictator "6" (military 2) with 6 legions is strong enough against
    the 1st Gallic War (10) only with his Master's 3."""
    game = business_game()
    state = game.state
    senator(state, "6", 2, office="dictator", military=2)
    senator(state, "7", 2, office="master_of_horse", military=3, location="province")
    send = Deploy(player=0, commander="6", war="gallic_1", legions=6)
    assert senate_rules.deploy_refusal(game.ctx, send) == "rome.error.too_weak"  # 6 + 2 < 10
    state.senators["7"].location = "rome"
    assert senate_rules.deploy_refusal(game.ctx, send) is None  # 6 + 2 + 3
    game.apply(send)
    vote_all(game, "yea", "yea", "yea")
    assert state.senators["6"].location == state.senators["7"].location == "field"


def test_a_new_alliance_makes_the_hraos_war_sue_for_peace_at_the_end_of_the_senate():
    """ror-data §5.2 New Alliance: half the spoils (10 of 20), the card back into the top six of
    the deck, the force on it home."""
    game = business_game()
    state = game.state
    state.events["new_alliance"] = 1
    senator(state, "6", 2, location="field")
    state.forces = [Force(war="gallic_1", commander="6", legions=2)]
    game.apply(CloseSenate(player=0))
    assert [(d.player, d.kind) for d in game.pending] == [(0, "sue_for_peace")]
    assert {a.war for a in game.legal_actions(0)} == {"gallic_1", "syrian_1"}
    game.ctx.dice.faces += [1]
    game.apply(SueForPeace(player=0, war="gallic_1"))
    assert [w.id for w in state.wars] == ["syrian_1"] and state.deck[-1] == "gallic_1"
    assert state.treasury == 100 + 10 and state.units.legions == 8 + 2
    assert state.senators["6"].location == "rome" and "new_alliance" not in state.events  # used


def test_another_new_alliance_beats_the_war_for_good_but_never_a_revolt():
    """ror-data §5.2 Another New Alliance: all the spoils, the war gone, its province created."""
    state = position()
    senator(state, "1", 0, office="rome_consul")
    state.events["new_alliance"] = 2
    state.wars = [WarInPlay(id="gallic_1", state="active"), WarInPlay(id="punic_1", state="active", revolt=True)]
    c = ctx(state)
    alliances.new_alliance(c)
    assert [a.war for a in c_legal(c)] == ["gallic_1"]
    with pytest.raises(IllegalAction):
        alliances.apply_sue_for_peace(c, state.pending[0], SueForPeace(player=0, war="punic_1"))
    alliances.apply_sue_for_peace(c, state.pending[0], SueForPeace(player=0, war="gallic_1"))
    assert state.removed == ["gallic_1"] and state.treasury == 120
    assert [p.id for p in state.provinces] == ["gallia_cisalpina"]


def c_legal(c):
    return alliances.legal_sue_for_peace(c, c.state.pending[0])


def test_sending_the_presiding_magistrate_closes_the_senate():
    """R92, R158."""
    from judges.engine.dice import SeededDice

    game = business_game()
    game.state.units.legions = 16
    game.ctx.dice.fallback = SeededDice(game.state)  # the battles that follow
    game.apply(Deploy(player=0, commander="3", war="syrian_1", legions=6, fleets=2))
    vote_all(game, "yea", "yea", "yea")
    game.apply(Deploy(player=0, commander="2", war="gallic_1", legions=10))
    vote_all(game, "yea", "yea", "yea")
    keys = [e.key for e in game.state.report]
    assert keys[keys.index("rome.senate.deployed", keys.index("rome.senate.deployed") + 1) + 1] == "rome.senate.closed"
    assert "rome.combat.battle" in keys  # straight on to the Combat phase


def test_closing_brings_home_forces_without_a_commander():
    """VG 1.09.9."""
    game = business_game()
    game.state.forces = [Force(war="gallic_1", legions=3)]
    game.ctx.dice.faces += [1, 1, 1]
    game.apply(CloseSenate(player=0))
    assert game.state.units.legions == 8 + 3


from judges.rome.engine.actions import AwardConcession, LandBill  # noqa: E402


def test_a_concession_in_the_forum_is_voted_on_once_a_turn():
    """R164, R167."""
    game = business_game()
    game.state.forum_concessions = ["mining", "harbor_fees"]
    game.apply(AwardConcession(player=0, card="mining", senator="3"))
    vote_all(game, "nay", "yea", "yea")
    assert game.state.forum_concessions == ["mining", "harbor_fees"]
    with pytest.raises(IllegalAction) as err:
        game.apply(AwardConcession(player=0, card="mining", senator="2"))
    assert err.value.key == "rome.error.no_such_concession"
    game.apply(AwardConcession(player=0, card="harbor_fees", senator="2"))
    vote_all(game, "yea", "nay", "nay")
    assert game.state.senators["2"].concessions == ["harbor_fees"] and game.state.forum_concessions == ["mining"]


def test_a_land_bill_lowers_unrest_rewards_its_sponsors_and_costs_those_against():
    """R168, R172, R174, R177 (VG: type III −3 unrest, +4 / +2, −2 against); no abstaining
    (VG 1.09.14); one proposal of a type a turn."""
    game = business_game()
    game.state.unrest = 5
    game.apply(LandBill(player=0, bill=3, sponsor="2", cosponsor="1"))
    assert Vote(player=1, choice="abstain") not in game.legal_actions(1)
    with pytest.raises(IllegalAction):
        game.apply(Vote(player=1, choice="abstain"))
    vote_all(game, "yea", "nay", "yea")
    s = game.state.senators
    assert game.state.land_bills == [3] and game.state.unrest == 2
    assert (s["2"].popularity, s["1"].popularity, s["3"].popularity) == (4, 2, -2)
    with pytest.raises(IllegalAction) as err:
        game.apply(LandBill(player=0, bill=3, sponsor="1", cosponsor="2"))
    assert err.value.key == "rome.error.no_such_bill" and "R168" in err.value.rule


from judges.rome.engine.actions import Repopulate  # noqa: E402


def test_repopulating_rome_below_eight_senators():
    """VG 1.09.81: the faction with fewest senators (then least influence in Rome) takes a senator
    of its choice from the Curia, until eight aligned senators are in Rome; with the Curia empty,
    from the Forum."""
    state = position()
    senator(state, "1", 0, office="rome_consul")
    senator(state, "2", 0)
    senator(state, "3", 1)
    senator(state, "4", 2, influence=9)
    senator(state, "5", 2)
    senator(state, "11")  # unaligned, in the Forum
    state.curia = ["9", "10", "mining"]
    game = game_in(state, "senate", [6, 1])
    assert [(d.player, d.kind) for d in game.pending] == [(1, "repopulate")]
    assert {a.senator for a in game.legal_actions(1) if isinstance(a, Repopulate)} == {"9", "10"}
    game.apply(Repopulate(player=1, senator="10"))
    assert state.senators["10"].faction == 1 and state.curia == ["9", "mining"]
    # two senators each now; faction 1 has the least influence in Rome (5 + 3): it takes again
    assert [(d.player, d.kind) for d in game.pending] == [(1, "repopulate")]
    game.apply(Repopulate(player=1, senator="9"))
    assert [(d.player, d.kind) for d in game.pending] == [(0, "repopulate")]  # the Forum's Papirius
    assert {a.senator for a in game.legal_actions(0) if isinstance(a, Repopulate)} == {"11"}
    game.apply(Repopulate(player=0, senator="11"))
    assert state.senators["11"].faction == 0
    assert [d.kind for d in game.pending] == ["propose_consuls"]


from judges.rome.engine.actions import AppointMaster, ProposeDictator  # noqa: E402
from judges.rome.engine.phases import PHASE_STEPS  # noqa: E402
from judges.rome.engine.state import PHASES  # noqa: E402


def dictator_game(wars):
    """The consuls just elected (Fabius Rome, Valerius Field); Cornelius (0) and Julius (2) hold
    no office."""
    from judges.engine.dice import ScriptedDice
    from judges.rome.engine.game import RomeGame

    state = position()
    senator(state, "1", 0)
    senator(state, "2", 0, office="rome_consul")
    senator(state, "3", 1, office="field_consul")
    senator(state, "4", 2)
    state.wars = wars
    state.phase = PHASES.index("senate")
    state.step = PHASE_STEPS["senate"].index(senate_rules.dictator_election)
    game = RomeGame(state, ScriptedDice())
    senate_rules.open_senate(game.ctx)
    game.state.scratch["senate"]["consuls_elected"] = True
    game.advance()
    return game


def test_a_dictator_only_when_wars_call_for_one():
    """R104 (K13 as VG): three active wars, or one of printed strength 20 (the 1st Punic War's
    land 10 + naval 10)."""
    calm = dictator_game([WarInPlay(id="gallic_1", state="active")])
    assert [(d.player, d.kind) for d in calm.pending] == [(0, "propose_censor")]
    game = dictator_game([WarInPlay(id="punic_1", state="active")])
    assert [(d.player, d.kind) for d in game.pending] == [(0, "propose_dictator")]
    assert {getattr(a, "senator", None) for a in game.legal_actions(0)} == {None, "1", "4"}


def test_the_dictator_gains_7_presides_names_his_master_and_cannot_be_vetoed():
    """R107-R111."""
    game = dictator_game([WarInPlay(id="punic_1", state="active")])
    game.apply(ProposeDictator(player=0, senator="4"))
    vote_all(game, "yea", "yea", "yea")
    d = game.state.senators["4"]
    assert (d.office, d.influence, d.prior_consul) == ("dictator", 4 + 7, True)
    assert [(x.player, x.kind) for x in game.pending] == [(2, "appoint_master")]
    with pytest.raises(IllegalAction):
        game.apply(AppointMaster(player=2, senator="2"))  # a consul
    game.apply(AppointMaster(player=2, senator="1"))
    m = game.state.senators["1"]
    assert (m.office, m.influence, m.prior_consul) == ("master_of_horse", 5 + 3, False)
    # nobody is left for the censorship; the Dictator presides over the business
    assert [(x.player, x.kind) for x in game.pending] == [(2, "propose_business")]
    game.state.factions[1].hand = ["tribune.2"]
    game.apply(RaiseForces(player=2, legions=1))
    assert not any(isinstance(a, Veto) for a in game.legal_actions(1))


def test_last_turns_dictator_and_master_may_hold_office_again():
    """R112: the next consuls end both offices, and the Senate may name the same men again."""
    game = dictator_game([WarInPlay(id="punic_1", state="active")])
    state = game.state
    state.senators["4"].office, state.senators["1"].office = "dictator", "master_of_horse"
    state.senators["2"].office = state.senators["3"].office = ""
    game.dice.faces.extend([6, 1])
    senate_rules.install_consuls(game.ctx, ["2", "3"])
    assert (state.senators["4"].office, state.senators["1"].office) == ("", "")
    assert {getattr(a, "senator", None) for a in game.legal_actions(0)} == {None, "1", "4"}
    game.apply(ProposeDictator(player=0, senator="4"))
    vote_all(game, "yea", "yea", "yea")
    assert state.senators["4"].office == "dictator"
    game.apply(AppointMaster(player=2, senator="1"))
    assert state.senators["1"].office == "master_of_horse"
