"""Provinces and governors (VG 1.09.5, 1.06.13, 1.06.4, 1.06.51; R32, R137-R144; ror-data §7):
the Senate names governors for vacant provinces and recalls them; in the Revenue phase spoils,
development and taxes."""

from __future__ import annotations

import pytest
from rome_position import ctx, position, senator
from test_05_senate import business_game, vote_all

from judges.engine.dice import ScriptedDice
from judges.engine.errors import IllegalAction
from judges.rome.engine import provinces, revenue, senate
from judges.rome.engine.actions import ProposeGovernor, RecallGovernor, Spoils, Vote
from judges.rome.engine.game import RomeGame
from judges.rome.engine.phases import PHASE_STEPS
from judges.rome.engine.state import PHASES, Decision, Force, ProvinceInPlay


def governor_game():
    """The Senate after its elections and prosecutions; Sicilia waits for a governor."""
    state = position()
    senator(state, "1", 0, office="censor")
    senator(state, "2", 0, office="rome_consul")
    senator(state, "3", 1, office="field_consul")
    senator(state, "4", 1)
    senator(state, "5")  # unaligned, in the Forum
    state.provinces = [ProvinceInPlay(id="sicilia")]
    state.phase = PHASES.index("senate")
    state.step = PHASE_STEPS["senate"].index(provinces.governors)
    game = RomeGame(state, ScriptedDice())
    senate.open_senate(game.ctx)
    game.advance()
    return game


def test_a_vacant_province_gets_a_governor_who_leaves_rome_for_three_turns():
    """R137, R141, R142, R143: any senator in Rome holding no office, even unaligned."""
    game = governor_game()
    assert [(d.player, d.kind) for d in game.pending] == [(0, "propose_governor")]
    assert {(a.senator, a.province) for a in game.legal_actions(0)} == {("4", "sicilia"), ("5", "sicilia")}
    game.apply(ProposeGovernor(player=0, senator="4", province="sicilia"))
    for seat in (0, 1, 2):
        game.apply(Vote(player=seat, choice="yea"))
    s = game.state.senators["4"]
    assert (s.location, s.governor_of) == ("province", "sicilia")
    assert (game.state.provinces[0].governor, game.state.provinces[0].term) == ("4", 3)
    assert [(d.player, d.kind) for d in game.pending] == [(0, "propose_business")]


def revenue_position():
    state = position()
    senator(state, "1", 0, location="province", governor_of="hispania_ulterior")
    senator(state, "2", 1, location="province", governor_of="sicilia")
    state.provinces = [
        ProvinceInPlay(id="hispania_ulterior", governor="1", term=2),
        ProvinceInPlay(id="sicilia", governor="2", term=2),
    ]
    return state


def test_spoils_make_the_governor_corrupt_and_the_state_pays_a_negative_roll():
    """VG 1.06.13 and its example: undeveloped Hispania Ulterior, 1d6−3, a 2: −1, paid by the
    State at the debits."""
    state = revenue_position()
    c = ctx(state, [2, 6])
    state.pending = [Decision(0, "spoils"), Decision(1, "spoils")]
    provinces.apply_spoils(c, state.pending[0], Spoils(player=0, governors=["1"]))
    provinces.apply_spoils(c, state.pending[0], Spoils(player=1, governors=["2"]))  # Sicilia 1d6: 6
    assert state.senators["1"].corrupt and state.senators["1"].talents == 0
    assert state.senators["2"].talents == 6
    revenue.debits(c)
    assert state.treasury == 100 - 1


def test_a_province_develops_on_6_with_1_more_for_an_honest_governor():
    """VG 1.06.4 (1.07B): the corrupt governor of Hispania Ulterior rolls 5: no; the honest one of
    Sicilia rolls 5 + 1: developed, +3 influence."""
    state = revenue_position()
    state.senators["1"].corrupt = True
    provinces.develop(ctx(state, [5, 5]))
    assert [p.developed for p in state.provinces] == [False, True]
    assert state.senators["2"].influence == 5 + 3


def test_governed_provinces_pay_their_taxes_even_negative_ones():
    """VG 1.06.51: Hispania Ulterior −1d6−1 (a 3: −4, a debit), Sicilia 2d6−2 (4 and 5: 7)."""
    state = revenue_position()
    c = ctx(state, [3, 4, 5])
    provinces.taxes(c)
    assert state.treasury == 107 and state.scratch["state_owes"] == 4


def test_forces_in_the_field_cost_their_upkeep_too():
    """VG 1.06.53: 2T for every legion and fleet not in revolt, wherever it is."""
    state = position()
    state.units.legions = 2
    state.forces = [Force(war="gallic_1", commander="", legions=3, fleets=1)]
    revenue.debits(ctx(state))
    assert state.treasury == 100 - 2 * 6


def test_a_governor_past_his_first_year_may_be_recalled_and_replaced():
    """R144: an ordinary proposal of other business, never in his first year (before a Revenue
    phase has shortened his term); his replacement leaves Rome for a full term."""
    game = business_game()
    state = game.state
    senator(state, "6", 2)
    state.senators["4"].governor_of = "sicilia"
    state.provinces = [ProvinceInPlay(id="sicilia", governor="4", term=3)]
    recall = RecallGovernor(player=0, governor="4", replacement="6")
    assert recall not in game.legal_actions(0)
    with pytest.raises(IllegalAction) as err:
        game.apply(recall)
    assert err.value.key == "rome.error.first_year" and "R144" in err.value.rule
    state.provinces[0].term = 2
    assert recall in game.legal_actions(0)
    game.apply(recall)
    vote_all(game, "yea", "yea", "nay")
    four, six = state.senators["4"], state.senators["6"]
    assert (four.location, four.governor_of) == ("rome", "")
    assert (six.location, six.governor_of) == ("province", "sicilia")
    assert (state.provinces[0].governor, state.provinces[0].term) == ("6", 3)
