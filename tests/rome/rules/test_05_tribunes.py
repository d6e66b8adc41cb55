"""Phase 5, Senate: proposals made with a tribune (VG 1.09.13; R83, R85, R178)."""

from __future__ import annotations

import pytest
from test_05_senate import business_game, senate_game, vote_all

from judges.engine.errors import IllegalAction
from judges.rome.engine.actions import (
    CloseSenate,
    NominateConsulForLife,
    ProposeConsuls,
    RaiseForces,
    TribuneProposal,
    Veto,
)


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
