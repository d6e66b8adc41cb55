"""Phase 5, Senate: proposals made with a tribune (VG 1.09.13; R83, R85, R178)."""

from __future__ import annotations

import pytest
from rome_position import senator
from test_05_senate import business_game, senate_game, vote_all

from judges.engine.dice import ScriptedDice
from judges.engine.errors import IllegalAction
from judges.rome.engine.actions import (
    CloseSenate,
    Deploy,
    NominateConsulForLife,
    ProposeConsuls,
    RaiseForces,
    Reinforce,
    TribuneProposal,
    Veto,
    Vote,
)
from judges.rome.engine.state import Force


def tribune_game(**state_changes):
    """Other business: the presiding Rome Consul (faction 0) proposes a levy of one legion;
    Valerius's faction 1 holds a tribune, faction 2 another."""
    game = business_game(**state_changes)
    game.state.factions[1].hand = ["tribune.1"]
    game.state.factions[2].hand = ["tribune.2"]
    game.apply(RaiseForces(player=0, legions=1))
    return game


def queue(game, seat, proposal):
    game.apply(TribuneProposal(player=seat, card=f"tribune.{seat}"))
    game.apply(proposal)


def test_a_faction_makes_its_own_proposal_with_a_tribune():
    """R83: played while answering a vote; voted as soon as that one is settled, before the
    presiding magistrate proposes again; its rejection costs him nothing."""
    game = tribune_game()
    state = game.state
    assert TribuneProposal(player=1, card="tribune.1") in game.legal_actions(1)
    game.apply(TribuneProposal(player=1, card="tribune.1"))
    assert "tribune.1" in state.discard and state.factions[1].hand == []
    assert (1, "tribune_proposal") in [(d.player, d.kind) for d in game.pending]
    assert CloseSenate(player=1) not in game.legal_actions(1)
    game.apply(RaiseForces(player=1, legions=3))
    vote_all(game, "yea", "yea", "yea")
    assert state.units.legions == 8 + 1
    floor = state.scratch["senate"]["floor"]
    assert floor["subject"] == ["raise", "3", "0"] and floor["tribune"] == 1
    influence = state.senators["2"].influence
    vote_all(game, "nay", "nay", "nay")  # every faction but the presiding one against: no rebuke
    assert state.units.legions == 9 and state.senators["2"].influence == influence
    assert [(d.player, d.kind) for d in game.pending] == [(0, "propose_business")]


def test_no_tribune_may_veto_a_tribunes_proposal():
    """R85."""
    game = tribune_game()
    queue(game, 1, RaiseForces(player=1, legions=3))
    vote_all(game, "yea", "yea", "yea")
    assert not any(isinstance(a, Veto) for a in game.legal_actions(2))
    with pytest.raises(IllegalAction) as err:
        game.apply(Veto(player=2, card="tribune.2"))
    assert err.value.key == "rome.error.no_veto_here"


def test_a_proposal_no_longer_legal_when_its_turn_comes_lapses():
    """[D] The levy of 3 was payable when made; after the levy of 8 the State cannot pay it."""
    game = business_game()
    game.state.factions[1].hand = ["tribune.1"]
    game.apply(RaiseForces(player=0, legions=8))
    queue(game, 1, RaiseForces(player=1, legions=3))
    vote_all(game, "yea", "yea", "yea")
    assert game.state.treasury == 20 and game.state.scratch["senate"]["floor"] is None
    assert game.state.report[-1].key == "rome.senate.tribune_lapses"
    assert [(d.player, d.kind) for d in game.pending] == [(0, "propose_business")]


def test_a_tribune_may_nominate_a_consul_for_life():
    """R178: "el HRO o cualquier jugador con uso de tribuno"."""
    game = tribune_game()
    game.state.senators["3"].influence = 21
    game.apply(TribuneProposal(player=1, card="tribune.1"))
    assert NominateConsulForLife(player=1, senator="3") in game.legal_actions(1)


def test_no_tribune_proposal_during_the_elections():
    """[D] Only while other business is voted (the consuls are mandatory business)."""
    game = senate_game()
    game.state.factions[1].hand = ["tribune.1"]
    game.apply(ProposeConsuls(player=0, first="2", second="3"))
    assert not any(isinstance(a, TribuneProposal) for a in game.legal_actions(1))
    with pytest.raises(IllegalAction) as err:
        game.apply(TribuneProposal(player=1, card="tribune.1"))
    assert err.value.key == "rome.error.no_tribune_proposal" and "R83" in err.value.rule


def dispatch_game():
    """The Field Consul is away governing; the presiding Rome Consul, Fabius (faction 0), is put
    to the vote to go to the 1st Gallic War with 12 legions; Julius (faction 1) is a proconsul on
    the Syrian War; faction 1 holds a tribune."""
    game = business_game()
    state = game.state
    state.senators["3"].location = "province"
    state.senators["4"].location = "field"
    state.forces = [Force(war="syrian_1", commander="4", legions=2, fleets=2)]
    senator(state, "7", 1)  # faction 1's senator in Rome
    state.units.legions = 12
    game.state.factions[1].hand = ["tribune.1"]
    game.apply(Deploy(player=0, commander="2", war="gallic_1", legions=12))
    game.apply(Vote(player=0, choice="yea"))
    return game


def test_a_tribune_suspends_the_vote_sending_the_presiding_magistrate_then_it_resumes():
    """R93, VG 1.09.151: not a veto: the tribune's proposal is voted first, then the dispatch is
    voted again (the ballots cast before are set aside) and, passed, closes the Senate."""
    game = dispatch_game()
    state = game.state
    game.apply(TribuneProposal(player=1, card="tribune.1"))
    assert [(d.player, d.kind) for d in game.pending] == [(1, "tribune_proposal")]
    sitting = state.scratch["senate"]
    assert sitting.get("floor") is None
    game.apply(RaiseForces(player=1, legions=1))
    assert sitting["floor"]["subject"] == ["raise", "1", "0"]
    vote_all(game, "yea", "yea", "yea")
    floor = sitting["floor"]
    assert floor["kind"] == "deploy" and floor["subject"][1] == "2"
    assert sorted((d.player, d.kind) for d in game.pending) == [(0, "vote"), (1, "vote"), (2, "vote")]
    game.dice.fallback = ScriptedDice([3] * 60)  # the Combat phase that follows
    vote_all(game, "yea", "nay", "yea")
    keys = [e.key for e in state.report]
    assert keys.index("rome.senate.dispatch_resumes") < keys.index("rome.senate.deployed")
    assert keys.index("rome.senate.deployed") + 1 == keys.index("rome.senate.closed")
    assert "rome.senate.dispatch_cancelled" not in keys


def test_a_tribunes_proposal_that_makes_the_dispatch_impossible_cancels_it():
    """R93: the legions go to the proconsul first: the dispatch on its terms can no longer be made,
    and the presiding magistrate proposes again."""
    game = dispatch_game()
    state = game.state
    game.apply(TribuneProposal(player=1, card="tribune.1"))
    game.apply(Reinforce(player=1, commander="4", legions=12))
    vote_all(game, "yea", "yea", "yea")
    assert state.forces[0].legions == 14 and state.senators["2"].location == "rome"
    assert state.report[-1].key == "rome.senate.dispatch_cancelled"
    assert [(d.player, d.kind) for d in game.pending] == [(0, "propose_business")]
