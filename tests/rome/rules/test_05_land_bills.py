"""Phase 5, Senate: repealing land bills (VG 1.09.62; R170, R171, R176; ror-data §8, K8)."""

from __future__ import annotations

import pytest
from test_05_senate import business_game, vote_all

from judges.engine.errors import IllegalAction
from judges.rome.engine.actions import RepealLandBill, Vote


def repeals(game, seat=0):
    return [a for a in game.legal_actions(seat) if isinstance(a, RepealLandBill)]


def test_a_repeal_removes_the_bill_raises_unrest_and_costs_popularity():
    """R171, R176 (ror-data §8, K8 as the VG board): type III: the sponsor −4 popularity, every
    senator in Rome of a faction voting for −2, unrest +3; no abstaining; once a turn."""
    game = business_game(land_bills=[3, 2], unrest=2)
    s = game.state.senators
    s["2"].popularity = 4
    assert repeals(game) == [
        RepealLandBill(player=0, bill=3, sponsor="2"),
        RepealLandBill(player=0, bill=2, sponsor="2"),
    ]  # Cornelius (popularity 0) cannot sponsor either
    game.apply(RepealLandBill(player=0, bill=3, sponsor="2"))
    with pytest.raises(IllegalAction):
        game.apply(Vote(player=1, choice="abstain"))
    vote_all(game, "yea", "nay", "yea")
    assert game.state.land_bills == [2] and game.state.unrest == 5
    assert (s["2"].popularity, s["1"].popularity, s["3"].popularity) == (-2, -2, 0)
    assert repeals(game) == []  # one repeal proposal a turn
    with pytest.raises(IllegalAction) as err:
        game.apply(RepealLandBill(player=0, bill=2, sponsor="2"))
    assert "R168" in err.value.rule


def test_type_one_cannot_be_repealed_and_the_sponsor_needs_popularity():
    """R170; R176: the sponsor's popularity must cover the repeal's penalty (2 for type II)."""
    game = business_game(land_bills=[1, 2])
    game.state.senators["2"].popularity = 1
    assert repeals(game) == []
    with pytest.raises(IllegalAction) as err:
        game.apply(RepealLandBill(player=0, bill=1, sponsor="2"))
    assert err.value.key == "rome.error.no_such_bill"
    with pytest.raises(IllegalAction) as err:
        game.apply(RepealLandBill(player=0, bill=2, sponsor="2"))
    assert err.value.key == "rome.error.too_unpopular"
    game.state.senators["2"].popularity = 2
    assert repeals(game) == [RepealLandBill(player=0, bill=2, sponsor="2")]


def test_a_rejected_repeal_changes_nothing():
    """R176: a failed repeal leaves the bill, unrest and popularity as they were."""
    game = business_game(land_bills=[2], unrest=1)
    game.state.senators["2"].popularity = 3
    game.apply(RepealLandBill(player=0, bill=2, sponsor="2"))
    vote_all(game, "nay", "yea", "nay")
    assert game.state.land_bills == [2] and game.state.unrest == 1
    assert game.state.senators["2"].popularity == 3


def test_another_factions_senator_sponsors_a_land_bill_only_with_its_consent():
    """R173: sponsor and co-sponsor from the same or different factions; a faction whose senator
    is named agrees before the vote; its refusal keeps the bill off the floor (the type may be
    proposed again this turn), its consent puts it to the vote."""
    from judges.rome.engine.actions import Consent, LandBill

    game = business_game()
    state = game.state
    bill = LandBill(player=0, bill=1, sponsor="1", cosponsor="3")  # Valerius is faction 1's
    assert bill in game.legal_actions(0)
    game.apply(bill)
    assert [(d.player, d.kind) for d in game.pending] == [(1, "sponsor_consent")]
    assert state.scratch["senate"]["floor"] is None
    game.apply(Consent(player=1, agree=False))
    assert state.land_bills == [] and [(d.player, d.kind) for d in game.pending] == [(0, "propose_business")]
    game.apply(bill)
    game.apply(Consent(player=1, agree=True))
    assert sorted(d.player for d in game.pending if d.kind == "vote") == [0, 1, 2]
    vote_all(game, "yea", "yea", "yea")
    assert state.land_bills == [1]
    assert (state.senators["1"].popularity, state.senators["3"].popularity) == (2, 1)


def test_a_land_bill_vetoed_by_a_tribune_costs_nobody_popularity():
    """R175: the veto ends the vote: no bill, and no senator (the vetoing faction's neither)
    loses popularity."""
    from judges.rome.engine.actions import LandBill, Veto

    game = business_game()
    state = game.state
    state.factions[1].hand = ["tribune.1"]
    game.apply(LandBill(player=0, bill=1, sponsor="1", cosponsor="2"))
    game.apply(Vote(player=0, choice="yea"))
    game.apply(Veto(player=1, card="tribune.1"))
    assert state.land_bills == [] and all(s.popularity == 0 for s in state.senators.values())
    assert [(d.player, d.kind) for d in game.pending] == [(0, "propose_business")]
