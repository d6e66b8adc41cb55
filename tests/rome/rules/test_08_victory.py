"""How the game is won (VG 1.12.2, 1.09.82; R256-R258, R261): the Consul for Life, appointed at 35
influence or elected from 21, wins at the end of a Revolution phase, or with the Era Ends card."""

from __future__ import annotations

from typing import Any

import pytest
from rome_position import ctx, game_in, position, senator

from judges.engine.errors import IllegalAction
from judges.games.registry import SERVED
from judges.rome.engine import forum, victory
from judges.rome.engine.actions import Done, NominateConsulForLife, Veto


def test_35_influence_makes_a_consul_for_life_who_wins_at_the_end_of_the_revolution():
    """R256, VG 1.09.822, 1.12.2 (4)."""
    state = position()
    senator(state, "1", 0, influence=36, office="rome_consul")
    senator(state, "2", 1)
    senator(state, "3", 2)
    game = game_in(state, "revolution")
    assert state.consul_for_life == "1"
    for seat in (0, 1, 2, 0, 1, 2):  # no card given (R237), none played
        game.apply(Done(player=seat))
    assert state.result is not None and (state.result.ending, state.result.winners) == ("consul_for_life", (0,))


def test_of_two_at_35_the_one_furthest_above_then_the_richer_faction():
    """VG 1.09.822."""
    state = position()
    senator(state, "1", 0, influence=35)
    senator(state, "2", 1, influence=37)
    victory.consul_for_life_appointed(ctx(state))
    assert state.consul_for_life == "2"
    state.consul_for_life = ""
    state.senators["2"].influence = 35
    senator(state, "3", 1, influence=1)
    victory.consul_for_life_appointed(ctx(state))
    assert state.consul_for_life == "2"  # faction 1: 36 influence against 35


def test_only_senators_in_rome_are_appointed():
    state = position()
    senator(state, "1", 0, influence=40, location="province")
    victory.consul_for_life_appointed(ctx(state))
    assert state.consul_for_life == ""


def test_an_elected_consul_for_life_21_influence_once_a_turn_no_veto():
    """R178-R180: the nominee adds his influence to his votes; the vote cannot be vetoed."""
    from test_05_senate import business_game, vote_all

    game = business_game()
    game.state.senators["2"].influence = 21
    game.state.factions[1].hand = ["tribune.1"]
    assert NominateConsulForLife(player=0, senator="2") in game.legal_actions(0)
    assert NominateConsulForLife(player=0, senator="1") not in game.legal_actions(0)  # 5 influence
    game.apply(NominateConsulForLife(player=0, senator="2"))
    assert not any(isinstance(a, Veto) for a in game.legal_actions(1))
    with pytest.raises(IllegalAction):
        game.apply(Veto(player=1, card="tribune.1"))
    vote_all(game, "yea", "nay", "nay")  # 5 + 21 against 2
    assert game.state.consul_for_life == "2"
    with pytest.raises(IllegalAction):
        game.apply(NominateConsulForLife(player=0, senator="2"))


def test_a_living_consul_for_life_wins_when_the_era_ends():
    """VG 1.12.2 (3)."""
    state = position()
    senator(state, "1", 0)
    senator(state, "2", 1, influence=30)
    state.consul_for_life = "1"
    state.era_ended = True
    forum.era_ends(ctx(state))
    assert state.result is not None and state.result.winners == (0,)


def test_a_consul_for_life_casts_the_votes_of_every_faction_but_a_rebels():
    """R258, VG 1.09.823: his player votes for every non-rebel faction (his block vote, without
    bought votes); the rebel's faction votes for itself, and so does every faction on a land bill
    (he may not make them vote against one)."""
    from test_05_senate import business_game

    from judges.rome.engine.actions import LandBill, RaiseForces, Vote
    from judges.rome.engine.state import Rebellion

    game = business_game()  # faction 0 presides; Valerius (faction 1) will be Consul for Life
    state = game.state
    state.consul_for_life = "3"
    state.senators["1"].talents = 10
    game.apply(RaiseForces(player=0, legions=1))
    assert [(d.player, d.kind) for d in game.pending] == [(1, "vote")]
    game.apply(Vote(player=1, choice="nay"))
    s = state.senators
    tally = next(e.params for e in reversed(state.report) if e.key == "rome.senate.tally")
    assert tally == {"yea": 0, "nay": sum(s[x].oratory + s[x].knights for x in ("1", "2", "3")), "won": False}
    assert state.units.legions == 8 and s["1"].talents == 10
    state.senators["5"].location = "rebel"
    state.rebellion = Rebellion(rebel="5", legions=1)
    game.apply(RaiseForces(player=0, legions=3))
    assert sorted((d.player, d.kind) for d in game.pending) == [(1, "vote"), (2, "vote")]
    game.apply(Vote(player=1, choice="yea"))
    game.apply(Vote(player=2, choice="nay"))
    assert state.units.legions == 11
    game.apply(LandBill(player=0, bill=1, sponsor="1", cosponsor="2"))
    assert sorted((d.player, d.kind) for d in game.pending) == [(0, "vote"), (1, "vote"), (2, "vote")]


# --- places: what a finished game gives each faction for the ratings ---------------------------


def _rome_ended(ending, winners, influence):
    """A Rome game of four factions ended by `ending`, each faction's senators holding, in all,
    `influence` (None: the faction is eliminated)."""
    from judges.rome.engine.board import faction_influence
    from judges.rome.engine.state import Result

    played: Any = SERVED["rome"].new_table(4, 3, None, None)  # the served table: its engine game is `.game`
    state = played.game.state
    for faction, wanted in zip(state.factions, influence):
        mine = [s for s in state.senators.values() if s.faction == faction.seat]
        for s in mine:
            s.influence = 0
        if wanted is None:
            faction.eliminated = True
        else:
            mine[0].influence = wanted
        assert wanted is None or faction_influence(state, faction.seat) == wanted
    state.result = Result(ending, winners)
    return played


def test_rome_places_the_winner_first_then_by_influence_the_eliminated_last():
    """docs/rome/rules-reference.md, "Places": the winner first, the others by influence (equal
    influence shares a place), the eliminated last."""
    played = _rome_ended("consul_for_life", (2,), [9, 12, 4, None])
    assert SERVED["rome"].placements(played) == [3, 2, 1, 4]
    tied = _rome_ended("era_ends", (0, 3), [20, 7, 7, 20])  # a tie the Era Ends leaves shared
    assert SERVED["rome"].placements(tied) == [1, 3, 3, 1]


@pytest.mark.parametrize("ending", ["wars", "people_revolt", "bankruptcy"])
def test_when_rome_falls_every_faction_shares_one_place(ending):
    """R39 (docs/rome/rules-reference.md, "Places"): Rome falls and everybody loses, whatever
    influence each gathered: a draw."""
    played = _rome_ended(ending, (), [30, 2, 11, None])
    assert SERVED["rome"].placements(played) == [1, 1, 1, 1]
