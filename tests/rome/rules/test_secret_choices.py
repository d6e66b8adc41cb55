"""Choices the factions make at once, in secret (docs/rome/rules-reference.md, "Choices made at
once"): the spoils (R32), the grain bonus in a drought (R25), the land bill sponsors' consent
(R173), the ballots (R88 as simultaneous ballots) and the discards down to the hand limit (R236).

Until the last faction owing such a choice has made it, another faction (or a spectator) learns
only that it was made: its view before and after the choice are the same but for who still owes
(and a ballot's "voted"). The faction that chose sees its own choice. Once every faction has
chosen, the rules reveal them all at once, in seat order whatever order they came in."""

from __future__ import annotations

import copy
from typing import Any

from rome_position import game_in, position, senator
from test_05_senate import business_game

from judges.engine.dice import ScriptedDice
from judges.rome.engine.actions import Consent, Discard, Done, Grain, LandBill, Spoils, Vote
from judges.rome.engine.state import ProvinceInPlay
from judges.rome.engine.view import player_view

#: how a view marks another faction's choice made but not yet revealed (a ballot: "voted")
MARKERS = ("voted", "answered")


def views(game) -> dict[int | None, dict[str, Any]]:
    """Every seat's view and a spectator's (None)."""
    return {seat: player_view(game.state, seat) for seat in [*range(game.state.players), None]}


def without_markers(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: without_markers(v) for k, v in data.items() if not (isinstance(v, str) and v in MARKERS)}
    if isinstance(data, list):
        return [without_markers(v) for v in data]
    return data


def learned(view: dict[str, Any]) -> dict[str, Any]:
    """What a view tells beyond who still owes and who made a choice still secret."""
    out = copy.deepcopy(view)
    out.pop("pending")
    return without_markers(out)


def assert_nothing_learned(before, after, chooser: int) -> None:
    for seat, view in before.items():
        if seat != chooser:
            assert learned(after[seat]) == learned(view), f"seat {seat} learns seat {chooser}'s choice"


# --- R32: spoils ----------------------------------------------------------------------------


def spoils_game():
    """Faction 0 governs Hispania Ulterior (1d6-3), faction 1 Sicilia (1d6); both owe spoils."""
    state = position()
    senator(state, "1", 0, location="province", governor_of="hispania_ulterior")
    senator(state, "2", 1, location="province", governor_of="sicilia")
    senator(state, "3", 2)
    state.provinces = [
        ProvinceInPlay(id="hispania_ulterior", governor="1", term=2),
        ProvinceInPlay(id="sicilia", governor="2", term=2),
    ]
    game = game_in(state, "revenue", [5, 2] + [1] * 40)
    assert sorted((d.player, d.kind) for d in game.pending) == [(0, "spoils"), (1, "spoils")]
    return game


def test_spoils_taken_are_hidden_from_the_others_until_every_governor_has_chosen():
    """R32 "at once": faction 1 takes Sicilia's spoils first; faction 0, still to choose, sees
    no roll, no talents and no corrupt governor; faction 1 sees its own choice."""
    game = spoils_game()
    before = views(game)
    game.apply(Spoils(player=1, governors=["2"]))
    after = views(game)
    assert_nothing_learned(before, after, 1)
    assert not game.state.senators["2"].corrupt and game.state.senators["2"].talents == 0
    assert after[1]["scratch"]["spoils"]["1"] == ["2"]
    assert after[0]["scratch"]["spoils"]["1"] == "answered"


def test_spoils_are_rolled_in_seat_order_once_all_have_chosen():
    """The rolls do not follow the order the choices came in: faction 0's Hispania first
    (5 - 3 = 2), then faction 1's Sicilia (2)."""
    game = spoils_game()
    game.apply(Spoils(player=1, governors=["2"]))
    game.apply(Spoils(player=0, governors=["1"]))
    s = game.state.senators
    assert (s["1"].talents, s["1"].corrupt, s["2"].talents, s["2"].corrupt) == (2, True, 2, True)
    spoils = [e.params for e in game.state.report if e.key == "rome.province.spoils"]
    assert [p["senator"] for p in spoils] == ["1", "2"]
    assert "spoils" not in game.state.scratch


# --- R25: the grain bonus in a drought ---------------------------------------------------------


def grain_game():
    state = position()
    senator(state, "1", 0, concessions=["sicilian_grain"])
    senator(state, "3", 1, concessions=["aegyptian_grain"])
    senator(state, "5", 2)
    state.events["drought"] = 1
    game = game_in(state, "revenue")
    assert sorted((d.player, d.kind) for d in game.pending) == [(0, "grain"), (1, "grain")]
    return game


def test_a_grain_choice_is_hidden_from_the_others_until_every_holder_has_chosen():
    """R25 "at once": faction 0 takes the bonus; faction 1, still to choose, and faction 2 and
    the spectators see only that faction 0 chose; faction 0 sees its own choice."""
    game = grain_game()
    before = views(game)
    game.apply(Grain(player=0, cards=["sicilian_grain"]))
    after = views(game)
    assert_nothing_learned(before, after, 0)
    assert "sicilian_grain" in str(after[0]["scratch"])
    for seat in (1, 2, None):
        assert "sicilian_grain" not in str(after[seat]["scratch"])


def test_the_grain_choices_are_revealed_by_the_personal_revenue():
    game = grain_game()
    game.apply(Grain(player=1, cards=[]))
    game.apply(Grain(player=0, cards=["sicilian_grain"]))
    for view in views(game).values():
        lines = [e for e in view["report"] if e["key"] == "rome.revenue.grain"]
        assert [e["params"]["card"] for e in lines] == ["sicilian_grain"]
    assert game.state.senators["1"].popularity == -2 and game.state.senators["3"].popularity == 0


# --- R173: a land bill's sponsors of two other factions consent at once -------------------------


def consent_game():
    """Faction 0 proposes a land bill sponsored by faction 1's Valerius and co-sponsored by
    faction 2's senator: both are asked at once."""
    game = business_game()
    senator(game.state, "6", 2)
    game.apply(LandBill(player=0, bill=1, sponsor="3", cosponsor="6"))
    assert sorted((d.player, d.kind) for d in game.pending) == [(1, "sponsor_consent"), (2, "sponsor_consent")]
    return game


def test_a_sponsors_consent_is_hidden_from_the_others_until_both_have_answered():
    """Faction 1 agrees first: faction 2, still to answer, cannot tell an agreement from a
    refusal, nor can the proposer or a spectator."""
    for agree in (True, False):
        game = consent_game()
        before = views(game)
        game.apply(Consent(player=1, agree=agree))
        after = views(game)
        assert_nothing_learned(before, after, 1)
        assert [(d.player, d.kind) for d in game.pending] == [(2, "sponsor_consent")]


def test_one_refusal_keeps_the_bill_off_the_floor_once_both_have_answered():
    game = consent_game()
    game.apply(Consent(player=1, agree=False))
    game.apply(Consent(player=2, agree=True))
    assert [(d.player, d.kind) for d in game.pending] == [(0, "propose_business")]
    assert [e.params for e in game.state.report if e.key == "rome.senate.sponsor_refuses"] == [{"faction": 1}]
    game.apply(LandBill(player=0, bill=1, sponsor="3", cosponsor="6"))
    game.apply(Consent(player=2, agree=True))
    game.apply(Consent(player=1, agree=True))
    assert sorted(d.player for d in game.pending if d.kind == "vote") == [0, 1, 2]


# --- R88: the ballots ----------------------------------------------------------------------------


def test_a_ballot_and_its_bought_votes_are_hidden_until_the_tally():
    """A block vote with bought votes: the others see that faction 0 voted, neither how nor the
    talents (its senators' purses are paid at the tally)."""
    game = business_game()
    game.state.senators["2"].talents = 5
    game.apply(LandBill(player=0, bill=1, sponsor="1", cosponsor="2"))
    before = views(game)
    game.apply(Vote(player=0, choice="yea", talents=3))
    after = views(game)
    assert_nothing_learned(before, after, 0)
    assert after[0]["scratch"]["senate"]["ballots"]["0"] == ["yea", 3]


# --- R236: discards down to the hand limit ---------------------------------------------------------


def discard_game():
    state = position()
    senator(state, "1", 1, office="rome_consul")
    senator(state, "2", 0)
    senator(state, "3", 2)
    state.factions[0].hand = [f"tribune.{n}" for n in range(1, 8)]
    state.factions[2].hand = ["assassin", "seduction", "blackmail", "tribune.8", "tribune.9", "influence_peddling"]
    game = game_in(state, "revolution")
    for seat in (0, 1, 2, 1, 2, 0):  # nobody trades, nobody plays a card
        game.apply(Done(player=seat))
    assert sorted((d.player, d.kind) for d in game.pending) == [(0, "discard"), (2, "discard")]
    return game


def test_a_discard_is_hidden_from_the_others_until_every_hand_is_cut():
    """R236 "all at once": faction 2 discards its Blackmail, faction 0 its first tribune: the
    others see neither card, nor a hand grown shorter, until the last discard."""
    game = discard_game()
    before = views(game)
    game.apply(Discard(player=2, card="blackmail"))
    after = views(game)
    assert_nothing_learned(before, after, 2)
    assert "blackmail" in after[2]["scratch"]["discarding"]["2"]
    before = after
    game.apply(Discard(player=0, card="tribune.1"))
    after = views(game)
    assert_nothing_learned(before, after, 0)
    assert game.legal_actions(0) and Discard(player=0, card="tribune.1") not in game.legal_actions(0)


def test_the_discards_reach_the_pile_in_seat_order_once_every_hand_is_cut():
    game = discard_game()
    game.apply(Discard(player=2, card="blackmail"))
    game.apply(Discard(player=0, card="tribune.1"))
    dice = game.ctx.dice
    assert isinstance(dice, ScriptedDice)
    dice.faces += [31]  # the next turn's Mortality chit: a blank
    game.apply(Discard(player=0, card="tribune.2"))
    state = game.state
    assert state.discard == ["tribune.1", "tribune.2", "blackmail"]
    assert len(state.factions[0].hand) == 5 and "blackmail" not in state.factions[2].hand
    assert "discarding" not in state.scratch


# --- a search's sample ------------------------------------------------------------------------------


def test_a_search_sample_draws_the_others_secret_choices_anew_and_plays_on():
    """search.py: from faction 1's view the grain choice faction 0 made is unknown; each sample
    draws one of faction 0's own possible choices, and the game plays on from it."""
    from judges.rome.engine.game import RomeGame
    from judges.rome.engine.search import determinize

    game = grain_game()
    game.apply(Grain(player=0, cards=["sicilian_grain"]))
    drawn = set()
    for seed in range(12):
        sample = RomeGame(determinize(game.state, 1, seed))
        choice = sample.state.scratch["grain"]["0"]
        assert choice in ([], ["sicilian_grain"])
        drawn.add(tuple(choice))
        sample.apply(Grain(player=1, cards=["aegyptian_grain"]))
        assert sample.state.senators["3"].popularity == -2
    assert drawn == {(), ("sicilian_grain",)}


def test_a_search_sample_lets_a_faction_still_discarding_choose_again():
    """Faction 0 has chosen one of its two discards: a sample from faction 2's view forgets it
    (faction 0 chooses both again); faction 2's own choice stays."""
    from judges.rome.engine.game import RomeGame
    from judges.rome.engine.search import determinize

    game = discard_game()
    game.apply(Discard(player=2, card="blackmail"))
    game.apply(Discard(player=0, card="tribune.1"))
    sample = RomeGame(determinize(game.state, 2, 5))
    assert sample.state.scratch["discarding"] == {"2": ["blackmail"]}
    assert len(sample.legal_actions(0)) == len(set(sample.state.factions[0].hand))
    done = RomeGame(determinize(game.state, 0, 5))
    guessed = done.state.scratch["discarding"]["2"]
    assert len(guessed) == 1 and guessed[0] in done.state.factions[2].hand
