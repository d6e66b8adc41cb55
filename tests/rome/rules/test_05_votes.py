"""Phase 5, Senate: split votes (VG 1.09.14): a faction's senators in Rome may vote apart from
its block; each senator's votes count on his own side, and a land bill's penalty strikes only the
senators who voted against it (R174)."""

from __future__ import annotations

import pytest
from rome_position import senator
from test_05_senate import business_game, senate_game

from judges.engine.errors import IllegalAction
from judges.rome.engine.actions import LandBill, ProposeConsuls, SplitVote, Vote


def test_a_senator_voting_apart_counts_on_his_own_side():
    """Cornelius (3) votes against while Fabius (2) votes for: 2 + 2 + 3 for, 3 + 3 + 2 against."""
    game = senate_game()
    game.apply(ProposeConsuls(player=0, first="2", second="3"))
    game.apply(SplitVote(player=0, choice="yea", split={"1": "nay"}))
    game.apply(Vote(player=1, choice="yea"))
    game.apply(Vote(player=2, choice="nay"))
    assert game.state.report[-1].params == {"yea": 7, "nay": 8, "won": False}


def test_only_the_senators_who_voted_against_a_land_bill_lose_popularity():
    """R174 (the review: splitting a faction's vote spares some of its senators)."""
    game = business_game()
    state = game.state
    senator(state, "6", 1)
    game.apply(LandBill(player=0, bill=1, sponsor="2", cosponsor="1"))
    game.apply(Vote(player=0, choice="yea"))
    game.apply(SplitVote(player=1, choice="nay", split={"6": "yea"}))
    game.apply(Vote(player=2, choice="yea"))
    assert state.land_bills == [1]
    assert (state.senators["3"].popularity, state.senators["6"].popularity) == (-1, 0)


def test_a_split_names_only_the_factions_senators_in_rome_and_legal_choices():
    game = business_game()
    game.apply(LandBill(player=0, bill=1, sponsor="2", cosponsor="1"))
    with pytest.raises(IllegalAction) as err:
        game.apply(SplitVote(player=1, choice="nay", split={"2": "yea"}))
    assert err.value.key == "rome.error.not_your_senator_in_rome"
    with pytest.raises(IllegalAction) as err:
        game.apply(SplitVote(player=0, choice="yea", split={"1": "abstain"}))  # VG 1.09.14
    assert err.value.key == "rome.error.not_a_choice"
    assert [d.kind for d in game.pending].count("vote") == 3


def test_senators_away_from_rome_cast_no_votes():
    """R10, VG 1.09.11: governors, commanders, captives and rebels do not vote: Julius (faction 1)
    and Claudius (faction 2) govern provinces; faction 2, with nobody in Rome, casts nothing."""
    from judges.rome.engine.actions import RaiseForces

    game = business_game()
    s = game.state.senators
    s["3"].knights = 1
    game.apply(RaiseForces(player=0, legions=1))
    game.apply(Vote(player=0, choice="yea"))
    game.apply(Vote(player=1, choice="nay"))
    game.apply(Vote(player=2, choice="nay"))
    tally = next(e.params for e in reversed(game.state.report) if e.key == "rome.senate.tally")
    assert tally == {"yea": s["1"].oratory + s["2"].oratory, "nay": s["3"].oratory + 1, "won": True}
