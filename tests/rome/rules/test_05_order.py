"""Phase 5, Senate: the order of business (VG 1.09; R82)."""

from __future__ import annotations

from rome_position import game_in, position, senator
from test_05_senate import vote_all

from judges.rome.engine.actions import Done, ProposeCensor, ProposeConsuls, ProposeGovernor, Skip
from judges.rome.engine.state import ProvinceInPlay, WarInPlay


def test_consuls_dictator_censor_prosecutions_governors_then_other_business():
    """R82: (a) consuls, (b) the optional Dictator, (d) the censor, (e) his prosecutions, (f)
    governors, (g) other business (the Pontifex, (c), belongs to the advanced game)."""
    state = position()
    senator(state, "1", 0, office="rome_consul")
    senator(state, "2", 0)
    senator(state, "3", 1)
    senator(state, "4", 1, corrupt=True)
    senator(state, "5", 2, prior_consul=True)
    senator(state, "6", 2)
    state.wars = [WarInPlay(id="punic_1", state="active")]  # a Dictator may be named
    state.provinces = [ProvinceInPlay(id="sicilia")]
    game = game_in(state, "senate", [6, 1])

    def owed():
        return [(d.player, d.kind) for d in game.pending]

    assert owed() == [(0, "propose_consuls")]
    game.apply(ProposeConsuls(player=0, first="2", second="3"))
    vote_all(game, "yea", "yea", "yea")
    assert owed() == [(0, "propose_dictator")]
    game.apply(Skip(player=0))
    assert owed() == [(0, "propose_censor")]
    game.apply(ProposeCensor(player=0, senator="5"))
    vote_all(game, "yea", "yea", "yea")
    assert owed() == [(2, "prosecute")]
    game.apply(Done(player=2))
    assert owed() == [(0, "propose_governor")]
    game.apply(ProposeGovernor(player=0, senator="6", province="sicilia"))
    vote_all(game, "yea", "yea", "yea")
    assert owed() == [(0, "propose_business")]
