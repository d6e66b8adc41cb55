"""Phase 4, Population (VG 1.08; R70-R79; ror-data §10): unrest from unprosecuted wars and
droughts, the HRAO's speech on the population table (E7), revolt, mob, manpower."""

from __future__ import annotations

from rome_position import chit_face, ctx, position, senator

from judges.rome.engine import population
from judges.rome.engine.board import hrao
from judges.rome.engine.state import Rebellion, RomeState, WarInPlay


def hrao_id(state: RomeState) -> str:
    top = hrao(state)
    assert top is not None
    return top.id


def test_unprosecuted_wars_and_droughts_raise_unrest():
    """R70: the 1st Illyrian War's drought counts even while it is inactive (ror-data §3.1)."""
    state = position()
    state.unrest = 1
    state.wars = [
        WarInPlay(id="punic_1", state="unprosecuted"),
        WarInPlay(id="gallic_1", state="active"),
        WarInPlay(id="illyrian_1", state="inactive"),
    ]
    state.events = {"drought": 2}
    population.unrest_from_wars_and_droughts(ctx(state))
    assert state.unrest == 1 + 1 + 1 + 2


def test_e7_a_speech_of_10_adds_one_unrest():
    """E7: 3d6 = 14, HRAO popularity -2, unrest 2: 10, +1 unrest."""
    state = position()
    senator(state, "1", 0, office="rome_consul", popularity=-2)
    state.unrest = 2
    population.state_of_the_republic(ctx(state, [4, 5, 5]))
    assert state.unrest == 3


def test_unrest_never_falls_below_zero():
    """R74."""
    state = position()
    senator(state, "1", 0, popularity=5)
    population.state_of_the_republic(ctx(state, [6, 6, 6]))
    assert state.unrest == 0


def test_a_total_below_the_table_is_a_peoples_revolt_and_rome_falls():
    """R76 (VG board: 0 is the last row, below it the revolt)."""
    state = position()
    senator(state, "1", 0)
    state.unrest = 4
    population.state_of_the_republic(ctx(state, [1, 1, 1]))
    assert state.result is not None and state.result.ending == "people_revolt"


def test_a_peoples_revolt_while_a_senator_is_in_revolt_makes_him_win():
    """R259 (VG 1.12.2 (2))."""
    state = position()
    senator(state, "1", 0)
    senator(state, "2", 1, location="rebel")
    state.rebellion = Rebellion(rebel="2", legions=1)
    state.unrest = 4
    population.state_of_the_republic(ctx(state, [1, 1, 1]))
    assert state.result is not None and (state.result.ending, state.result.winners) == ("rebel", (1,))


def test_a_mob_kills_senators_in_rome_only_and_forbids_recruitment():
    """ror-data §10: a total of 1: +5 unrest, no recruitment, six chits against senators in Rome."""
    state = position()
    senator(state, "1", 0, office="rome_consul")
    senator(state, "2", 1, location="province")
    state.unrest = 2
    faces = [1, 1, 1, chit_face("1"), 1, 1, 1, 1, 1]  # "2" is the second chit: away, he lives
    population.state_of_the_republic(ctx(state, faces))
    assert state.unrest == 2 + 5
    assert state.no_recruitment
    assert "1" not in state.senators and "2" in state.senators


def test_evil_omens_lower_the_speech_and_a_shortage_is_recorded():
    """ror-data §5.2 Evil Omens: -1 to the roll; 7 gives +3 unrest and a manpower shortage."""
    state = position()
    senator(state, "1", 0)
    state.events = {"evil_omens": 1}
    population.state_of_the_republic(ctx(state, [2, 3, 3]))
    assert state.unrest == 3 and state.events["manpower_shortage"] == 1


def test_the_hrao_is_the_highest_office_present_in_rome():
    """R8, R9, E12: consuls away, the Censor opens; without officers the most influential."""
    state = position()
    senator(state, "1", 0, office="rome_consul", location="field")
    senator(state, "2", 1, office="field_consul", location="field")
    senator(state, "3", 2, office="censor")
    senator(state, "4", 0, influence=20)
    assert hrao_id(state) == "3"
    state.senators["3"].office = ""
    assert hrao_id(state) == "4"
    senator(state, "5", 1, influence=20, oratory=5)  # GAP-19: the tie goes to oratory
    assert hrao_id(state) == "5"
