"""The Censor's prosecutions (VG 1.09.41-1.09.45; R125-R136; ror-data §11): eligibility, the
consenting prosecutor, the vote with the accused's influence, the popular appeal, vetoes, the
consequences of conviction, and the markers cleared afterwards."""

from __future__ import annotations

import pytest
from rome_position import position, senator

from judges.engine.dice import ScriptedDice
from judges.engine.errors import IllegalAction
from judges.rome.engine import prosecutions, senate
from judges.rome.engine.actions import Appeal, Consent, Done, Prosecute, Veto, Vote
from judges.rome.engine.game import RomeGame
from judges.rome.engine.phases import PHASE_STEPS
from judges.rome.engine.state import PHASES


def trial_game(faces=()):
    """The Senate after its elections: Cornelius (faction 0) Censor, Fabius (0) Rome Consul,
    Valerius (1) Field Consul. Julius (1) is corrupt with Mining; Claudius (2) held an office
    last turn; Manlius (2) is corrupt, governing a province."""
    state = position()
    senator(state, "1", 0, office="censor")
    senator(state, "2", 0, office="rome_consul")
    senator(state, "3", 1, office="field_consul")
    senator(state, "4", 1, corrupt=True, concessions=["mining"])
    senator(state, "5", 2, held_office="field_consul")
    senator(state, "6", 2, corrupt=True, location="province")
    state.phase = PHASES.index("senate")
    state.step = PHASE_STEPS["senate"].index(prosecutions.prosecutions)
    game = RomeGame(state, ScriptedDice(faces))
    senate.open_senate(game.ctx)
    game.advance()
    assert [(d.player, d.kind) for d in game.pending] == [(0, "prosecute")]
    return game


def charges(game):
    return {(a.accused, a.major) for a in game.legal_actions(0) if isinstance(a, Prosecute)}


def test_who_may_be_prosecuted():
    """R126, R128, VG 1.09.41: minor for a corrupt or major marker, major for the major marker;
    in Rome only; never the Censor himself."""
    game = trial_game()
    assert charges(game) == {("4", False), ("5", False), ("5", True)}
    with pytest.raises(IllegalAction) as err:
        game.apply(Prosecute(player=0, accused="4", prosecutor="2", major=True))
    assert err.value.key == "rome.error.not_prosecutable" and "R125" in err.value.rule


def test_no_trial_without_a_consenting_prosecutor():
    """R130: the refusal uses none of the allowance; that prosecutor is not asked again."""
    game = trial_game()
    game.apply(Prosecute(player=0, accused="4", prosecutor="5"))
    assert [(d.player, d.kind) for d in game.pending] == [(2, "consent")]
    game.apply(Consent(player=2, agree=False))
    assert [(d.player, d.kind) for d in game.pending] == [(0, "prosecute")]
    assert not any(isinstance(a, Prosecute) and (a.accused, a.prosecutor) == ("4", "5") for a in game.legal_actions(0))


def test_the_accused_adds_his_influence_to_his_factions_votes():
    """R132: for 2+3 (faction 0) + 3 (faction 2) = 8; against 2+3 + his 4 influence = 9."""
    game = trial_game()
    game.apply(Prosecute(player=0, accused="4", prosecutor="2"))
    game.apply(Consent(player=0, agree=True))
    game.apply(Vote(player=0, choice="yea"))
    game.apply(Vote(player=1, choice="nay"))
    game.apply(Vote(player=2, choice="yea"))
    assert game.state.report[-1].params == {"yea": 8, "nay": 9, "won": False}
    assert game.state.senators["4"].influence == 4


def test_a_minor_conviction_and_the_prosecutors_reward():
    """R127, R131: −5 influence (not below 0), −5 popularity, the prior-consul marker and the
    concessions lost; the prosecutor takes the marker and half the influence lost, rounded up."""
    game = trial_game()
    game.state.senators["4"].prior_consul = True
    game.apply(Prosecute(player=0, accused="4", prosecutor="2"))
    game.apply(Consent(player=0, agree=True))
    for seat, choice in ((0, "yea"), (1, "abstain"), (2, "yea")):
        game.apply(Vote(player=seat, choice=choice))
    accused, prosecutor = game.state.senators["4"], game.state.senators["2"]
    assert (accused.influence, accused.popularity, accused.prior_consul, accused.concessions) == (0, -5, False, [])
    assert game.state.forum_concessions == ["mining"]
    assert (prosecutor.influence, prosecutor.prior_consul) == (5 + 2, True)


def test_a_major_conviction_executes_and_uses_the_whole_allowance():
    """R125, R129, VG 1.09.44: the prosecutor gains half of all the influence the dead man had."""
    game = trial_game()
    game.apply(Prosecute(player=0, accused="5", prosecutor="3", major=True))
    game.apply(Consent(player=1, agree=True))
    for seat, choice in ((0, "yea"), (1, "yea"), (2, "nay")):
        game.apply(Vote(player=seat, choice=choice))
    assert "5" not in game.state.senators
    assert game.state.senators["3"].influence == 5 + 2
    assert [(d.player, d.kind) for d in game.pending] == [(0, "propose_business")]  # no allowance left


def test_two_minor_prosecutions_then_the_markers_in_rome_are_cleared():
    """R125, R136: the governor away keeps his corrupt marker."""
    game = trial_game()
    for accused, prosecutor, seat in (("4", "2", 0), ("5", "3", 1)):
        game.apply(Prosecute(player=0, accused=accused, prosecutor=prosecutor))
        game.apply(Consent(player=seat, agree=True))
        for voter in (0, 1, 2):
            game.apply(Vote(player=voter, choice="nay"))
    s = game.state.senators
    assert not s["4"].corrupt and s["5"].held_office == "" and s["6"].corrupt
    assert [(d.player, d.kind) for d in game.pending] == [(0, "propose_business")]
    assert game.state.scratch["senate"]["presiding"] == "2"  # the chair back to the Rome Consul


def test_a_vetoed_trial_still_counts():
    """R135, VG 1.09.422."""
    game = trial_game()
    game.state.factions[2].hand = ["tribune.1"]
    game.apply(Prosecute(player=0, accused="5", prosecutor="3", major=True))
    game.apply(Consent(player=1, agree=True))
    game.apply(Veto(player=2, card="tribune.1"))
    assert "5" in game.state.senators
    assert [(d.player, d.kind) for d in game.pending] == [(0, "propose_business")]


@pytest.mark.parametrize(
    "dice, popularity, outcome",
    [((1, 1), 0, "killed"), ((6, 6), 0, "freed"), ((3, 4), 0, "no change"), ((5, 5), 1, "16 against")],
)
def test_the_popular_appeal(dice, popularity, outcome):
    """R133, VG board: DR + popularity: 2 killed (guilty), 7 no change, 11 16 votes against,
    12+ freed with a chit per point above 11 against the Censor and the prosecutor."""
    game = trial_game(faces=[*dice, 30])
    game.state.senators["4"].popularity = popularity
    game.apply(Prosecute(player=0, accused="4", prosecutor="2"))
    game.apply(Consent(player=0, agree=True))
    game.apply(Appeal(player=1))
    if outcome == "killed":
        assert "4" not in game.state.senators and game.state.senators["2"].influence == 5 + 2
    elif outcome == "freed":
        assert "4" in game.state.senators and game.state.report[-2].key == "rome.senate.freed"
        assert not any(d.kind == "vote" for d in game.pending)
    else:
        with pytest.raises(IllegalAction):
            game.apply(Appeal(player=1))  # once
        for seat in (0, 1, 2):
            game.apply(Vote(player=seat, choice="yea" if seat != 1 else "abstain"))
        convicted = game.state.senators["4"].influence == 0
        assert convicted is (outcome == "no change")  # 8 for, 0 against; or 8 for, 16 against


def test_the_censor_may_declare_no_prosecutions():
    game = trial_game()
    game.apply(Done(player=0))
    assert [(d.player, d.kind) for d in game.pending] == [(0, "propose_business")]
    assert prosecutions.RULE.startswith("R125")
