"""Phase 2, Revenue (VG 1.06; R21-R39; ror-data §16 GAP-9): personal revenue, redistribution
owed by every faction at once, the State's revenue, contributions, debits and bankruptcy,
returning governors."""

from __future__ import annotations

import pytest
from rome_position import ctx, game_in, position, senator

from judges.engine.errors import IllegalAction, NotYourDecision
from judges.rome.engine import revenue
from judges.rome.engine.actions import Contribute, Done, Grain, Transfer
from judges.rome.engine.state import ProvinceInPlay, Rebellion, Units, WarInPlay, state_to_json


def test_personal_revenue_leader_3_senators_1_knights_1_concessions_and_corruption():
    """R21, R22, R23, R26."""
    state = position()
    senator(state, "1", 0, knights=2)
    senator(state, "2", 0, concessions=["tax_farmer_1", "mining"])
    senator(state, "3", 1)
    state.factions[0].leader = "1"
    revenue.personal_revenue(ctx(state))
    assert state.factions[0].treasury == (3 + 2) + (1 + 2 + 3)
    assert state.factions[1].treasury == 1
    assert state.senators["2"].corrupt and not state.senators["1"].corrupt


def test_the_land_commissioner_pays_only_while_a_land_bill_is_in_force():
    """R24."""
    state = position()
    senator(state, "1", 0, concessions=["land_commissioner"])
    revenue.personal_revenue(ctx(state))
    assert state.factions[0].treasury == 1 and not state.senators["1"].corrupt
    state.land_bills = [2]
    revenue.personal_revenue(ctx(state))
    assert state.factions[0].treasury == 1 + 4


def test_captives_rebels_and_unaligned_senators_earn_nothing():
    """R33, R34, VG 1.06.1."""
    state = position()
    senator(state, "1", 0, location="captive")
    senator(state, "2", 0, location="rebel")
    senator(state, "3", 0, location="province")
    senator(state, "4")
    revenue.personal_revenue(ctx(state))
    assert state.factions[0].treasury == 1


def test_a_rebel_receives_no_money_from_his_faction_or_a_loyal_senator():
    """R34 (VG 1.11.33): loyal senators may still fund his faction's treasury."""
    state = position()
    senator(state, "1", 0, location="rebel")
    senator(state, "2", 0, talents=5)
    state.factions[0].treasury = 5
    c = ctx(state)
    assert revenue.transfer_refusal(c, 0, Transfer(player=0, source="treasury", target="1", talents=1))
    assert revenue.transfer_refusal(c, 0, Transfer(player=0, source="2", target="1", talents=1))
    assert revenue.transfer_refusal(c, 0, Transfer(player=0, source="2", target="treasury", talents=1)) is None


def revenue_game(*senators_by_faction):
    state = position()
    for seat, cards in enumerate(senators_by_faction):
        for card in cards:
            senator(state, card, seat)
    return game_in(state, "revenue")


def test_every_faction_owes_its_redistribution_at_once_in_any_order():
    game = revenue_game(["1"], ["2"], ["3"])
    assert [(d.player, d.kind) for d in game.pending] == [(0, "redistribute"), (1, "redistribute"), (2, "redistribute")]
    game.apply(Done(player=2))
    game.apply(Transfer(player=0, source="treasury", target="1", talents=1))
    assert game.state.senators["1"].talents == 1 and game.state.factions[0].treasury == 0
    game.apply(Done(player=0))
    game.apply(Done(player=1))
    assert [d.kind for d in game.pending] == ["contribute"] * 3
    assert game.state.treasury == 200


def test_a_transfer_beyond_the_money_there_is_refused_and_changes_nothing():
    game = revenue_game(["1"], ["2"], ["3"])
    before = state_to_json(game.state)
    for bad in (
        Transfer(player=0, source="treasury", target="1", talents=2),
        Transfer(player=0, source="treasury", target="2", talents=1),  # faction 1's senator
        Transfer(player=0, source="1", target="treasury", talents=1),  # he holds nothing
        Transfer(player=0, source="treasury", target="faction:0", talents=1),
        Transfer(player=0, source="treasury", target="faction:9", talents=1),
    ):
        with pytest.raises(IllegalAction) as err:
            game.apply(bad)
        assert "Redistribution" in err.value.rule
        assert state_to_json(game.state) == before
    with pytest.raises(NotYourDecision):
        game.apply(Contribute(player=0, senator="1", talents=1))


def test_gifts_to_another_player_land_in_his_faction_treasury():
    """VG 1.06.3."""
    game = revenue_game(["1"], ["2"], ["3"])
    game.apply(Transfer(player=0, source="treasury", target="faction:2", talents=1))
    assert game.state.factions[2].treasury == 2 and game.state.factions[0].treasury == 0
    assert game.state.report[-1].key == "rome.revenue.gift"


def test_captives_neither_give_nor_receive():
    state = position()
    senator(state, "1", 0, location="captive", talents=5)
    c = ctx(state)
    assert revenue.transfer_refusal(c, 0, Transfer(player=0, source="1", target="treasury", talents=1))
    assert revenue.transfer_refusal(c, 0, Transfer(player=0, source="treasury", target="1", talents=0))


@pytest.mark.parametrize("talents, influence", [(9, 0), (10, 1), (25, 3), (49, 3), (50, 7), (60, 7)])
def test_contributions_buy_influence_once_per_senator(talents, influence):
    """VG 1.06.52 (ror-data §12)."""
    state = position()
    senator(state, "1", 0, talents=100)
    c = ctx(state)
    state.scratch["contributed"] = []
    from judges.rome.engine.state import Decision

    decision = Decision(0, "contribute")
    state.pending.append(decision)
    revenue.apply_contribute(c, decision, Contribute(player=0, senator="1", talents=talents))
    assert state.senators["1"].influence == 5 + influence and state.treasury == 100 + talents
    with pytest.raises(IllegalAction) as err:
        revenue.apply_contribute(c, decision, Contribute(player=0, senator="1", talents=1))
    assert err.value.key == "rome.error.one_contribution"


def test_debits_wars_land_bills_and_forces():
    """R28, R29, VG 1.06.53: active and unprosecuted wars cost 20T each, inactive and imminent
    nothing; type I once (then gone), type II every turn; 2T per legion and fleet."""
    state = position()
    state.wars = [
        WarInPlay(id="punic_1", state="active"),
        WarInPlay(id="gallic_1", state="unprosecuted"),
        WarInPlay(id="illyrian_1", state="inactive"),
        WarInPlay(id="punic_2", state="imminent"),
    ]
    state.land_bills = [1, 2]
    state.units = Units(legions=4, fleets=3)
    state.treasury = 100
    revenue.debits(ctx(state))
    assert state.treasury == 100 - 40 - 25 - 14
    assert state.land_bills == [2]
    assert state.result is None


def test_a_state_that_cannot_pay_is_bankrupt_and_rome_falls():
    """R39, ror-data §15."""
    state = position()
    state.wars = [WarInPlay(id="punic_1", state="active")] * 2
    state.treasury = 39
    revenue.debits(ctx(state))
    assert state.result is not None and (state.result.ending, state.result.winners) == ("bankruptcy", ())


def test_a_bankruptcy_while_a_senator_is_in_revolt_makes_him_win():
    """R39, R259 (VG 1.12.2 (2), 1.12.3): with fewer than four active wars once his army no
    longer counts, the rebel's faction wins; [D] with four or more Rome falls (the rebel end game
    is not played)."""
    state = position()
    senator(state, "1", 2, location="rebel")
    state.rebellion = Rebellion(rebel="1", legions=2)
    state.wars = [WarInPlay(id="punic_1", state="active")] * 3
    state.treasury = 10
    revenue.debits(ctx(state))
    assert state.result is not None and (state.result.ending, state.result.winners) == ("rebel", (2,))
    state.result, state.rebellion = None, Rebellion(rebel="1", legions=2)
    state.wars.append(WarInPlay(id="gallic_1", state="active"))
    revenue.debits(ctx(state))
    assert state.result is not None and (state.result.ending, state.result.winners) == ("wars", ())


def test_the_rebel_pays_2_a_legion_from_his_purse_his_secondaries_then_his_faction():
    """R35, R37 (VG 1.11.35): five legions (one a veteran), 9T in all: four are paid, the fifth
    (a regular) goes back to Rome's box, before any revenue."""
    state = position()
    senator(state, "1", 0, location="rebel", talents=3)
    senator(state, "2", 0, location="rebel", talents=4)
    senator(state, "3", 0, talents=10)  # loyal: his money is not the rebel's
    state.factions[0].treasury = 2
    state.rebellion = Rebellion(rebel="1", legions=5, veterans=1)
    revenue.rebel_upkeep(ctx(state))
    assert (state.rebellion.legions, state.rebellion.veterans) == (4, 1)
    assert (state.units.legions, state.units.veterans) == (1, 0)
    assert [state.senators[x].talents for x in "123"] == [0, 0, 10] and state.factions[0].treasury == 1


def test_veterans_owing_a_rebel_cost_him_nothing():
    """R36 (VG 1.11.35): of four legions, two veterans owe rebels: 4T for the other two."""
    state = position()
    senator(state, "1", 0, location="rebel", talents=10)
    senator(state, "2", 0, location="rebel")
    senator(state, "5", 1)
    state.rebellion = Rebellion(rebel="1", legions=4, veterans=3, loyal={"1": 1, "2": 1, "5": 1})
    revenue.rebel_upkeep(ctx(state))
    assert state.senators["1"].talents == 6 and state.rebellion.legions == 4


def test_the_civil_war_costs_the_state_20_but_the_rebels_legions_nothing():
    """R29, R36 (ror-data §12): the rebel army is an active war; its legions are his to pay."""
    state = position()
    senator(state, "1", 0, location="rebel")
    state.rebellion = Rebellion(rebel="1", legions=5)
    state.units = Units(legions=2)
    revenue.debits(ctx(state))
    assert state.treasury == 100 - 20 - 2 * 2


def test_governors_come_home_when_their_term_runs_out():
    """R31, VG 1.06.6."""
    state = position()
    senator(state, "1", 0, location="province", governor_of="sicilia")
    senator(state, "2", 1, location="province", governor_of="illyricum")
    state.provinces = [
        ProvinceInPlay(id="sicilia", governor="1", term=1),
        ProvinceInPlay(id="illyricum", governor="2", term=3),
    ]
    revenue.returning_governors(ctx(state))
    assert (state.senators["1"].location, state.provinces[0].governor) == ("rome", "")
    assert (state.senators["2"].location, state.provinces[1].term) == ("province", 2)


def test_allied_enthusiasm_pays_at_the_next_revenue_phase():
    """R30."""
    state = position()
    state.state_due = 50
    revenue.state_revenue(ctx(state))
    assert state.treasury == 250 and state.state_due == 0


def test_a_captive_is_ransomed_from_his_treasury_then_the_factions():
    """R229 as VG 1.10.71: the greater of 10T and 2T per influence; he returns to Rome."""
    from judges.rome.engine.actions import Ransom

    game = revenue_game(["1"], ["2"], ["3"])
    s = game.state.senators["2"]
    s.location, s.captive_of, s.talents, s.influence = "captive", "punic_1", 4, 7
    game.state.factions[1].treasury = 9
    with pytest.raises(IllegalAction) as err:
        game.apply(Ransom(player=1, senator="2"))  # 14T needed, 4 + 9 = 13 at hand
    assert err.value.key == "rome.error.not_enough_talents"
    game.state.factions[1].treasury = 11
    game.apply(Ransom(player=1, senator="2"))
    assert (s.location, s.talents, game.state.factions[1].treasury) == ("rome", 0, 1)
    with pytest.raises(IllegalAction):
        game.apply(Ransom(player=0, senator="1"))  # not a captive


@pytest.mark.parametrize("droughts", [1, 2])
def test_a_grain_concession_in_a_drought_may_pay_more_for_popularity(droughts):
    """R25 with VG's grain cards: in a drought each holder says at once whether his grain
    concession takes the bonus: its income times 2 and 2 popularity lost, +1 and −1 more for each
    further drought effect (an intensified Drought counts 2). There are no pirates in the Early
    Republic."""
    state = position()
    senator(state, "1", 0, concessions=["sicilian_grain"])  # 4T
    senator(state, "3", 1, concessions=["aegyptian_grain"])  # 5T
    senator(state, "5", 2)
    state.events["drought"] = droughts
    game = game_in(state, "revenue")
    assert sorted((d.player, d.kind) for d in game.pending) == [(0, "grain"), (1, "grain")]
    assert Grain(player=0, cards=["sicilian_grain"]) in game.legal_actions(0)
    before = state_to_json(state)
    with pytest.raises(IllegalAction) as err:
        game.apply(Grain(player=0, cards=["aegyptian_grain"]))
    assert err.value.key == "rome.error.not_your_grain" and "R25" in err.value.rule
    assert state_to_json(state) == before
    with pytest.raises(NotYourDecision):
        game.apply(Grain(player=2, cards=[]))
    game.apply(Grain(player=0, cards=["sicilian_grain"]))
    game.apply(Grain(player=1, cards=[]))
    times = 1 + droughts
    assert state.factions[0].treasury == 1 + 4 * times and state.senators["1"].popularity == -times
    assert state.factions[1].treasury == 1 + 5 and state.senators["3"].popularity == 0
    assert state.senators["1"].corrupt and state.senators["3"].corrupt


def test_without_a_drought_nobody_is_asked_about_grain():
    """R25: the bonus exists only while a drought effect is in force."""
    state = position()
    senator(state, "1", 0, concessions=["sicilian_grain"])
    game = game_in(state, "revenue")
    assert [d.kind for d in game.pending] == ["redistribute"] * 3
    assert state.factions[0].treasury == 1 + 4
