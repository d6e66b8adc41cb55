"""Phase 5, Senate: assassinations (VG 1.09.7; R184-R191; ror-data §12, GAP-30): announced while
answering a vote, once a Senate phase per faction, one attempt per targeted faction; the die with
Assassin cards and Secret Bodyguards; the caught assassin's faction leader tried at once."""

from __future__ import annotations

import msgspec
import pytest
from rome_position import DECK, chit_face, game_in, position, senator
from test_05_prosecutions import trial_game
from test_05_senate import business_game, vote_all

from judges.engine.errors import IllegalAction, RuleError
from judges.rome.engine.actions import (
    Appeal,
    Assassinate,
    Bodyguards,
    Consent,
    DeclareAssassination,
    LandBill,
    ProposeConsuls,
    Prosecute,
    Skip,
    Veto,
    Vote,
)
from judges.rome.engine.view import player_view


def assassination_game(faces=(), hands=None, **changes):
    """Faction 0: Cornelius (Rome Consul, presiding) and Fabius; faction 1: Valerius, Julius
    (its leader) and Manlius; faction 2: Claudius (prior consul) and Aemilius. The HRAO has
    proposed Fabius and Claudius as consuls; every faction owes its vote."""
    state = position()
    senator(state, "1", 0, office="rome_consul")
    senator(state, "2", 0)
    senator(state, "3", 1)
    senator(state, "4", 1, influence=8)
    senator(state, "6", 1)
    senator(state, "5", 2, prior_consul=True)
    senator(state, "7", 2)
    state.factions[1].leader = "4"
    for seat, cards in (hands or {}).items():
        state.factions[seat].hand = list(cards)
    for card, fields in changes.items():
        for name, value in fields.items():
            setattr(state.senators[card.removeprefix("s")], name, value)
    game = game_in(state, "senate", faces)
    game.apply(ProposeConsuls(player=0, first="2", second="5"))
    return game


def kinds(game):
    return sorted((d.player, d.kind) for d in game.pending)


def guards(game, seat):
    return [a for a in game.legal_actions(seat) if isinstance(a, Bodyguards)]


def attempt(game, seat, assassin, target, cards=0, guards=0):
    game.apply(DeclareAssassination(player=seat))
    game.apply(Assassinate(player=seat, assassin=assassin, target=target, cards=cards))
    game.apply(Bodyguards(player=game.state.senators[target].faction, cards=guards))


def test_an_attempt_is_announced_during_a_vote_and_a_5_kills_the_target():
    """R184, R186: announced while answering a vote (its ballot still owed); 5 or more kills."""
    game = assassination_game(faces=[5, 6, 1])
    assert DeclareAssassination(player=1) in game.legal_actions(1)
    game.apply(DeclareAssassination(player=1))
    assert kinds(game) == [(1, "assassination")]  # the vote waits for the attempt
    assert Assassinate(player=1, assassin="3", target="7") in game.legal_actions(1)
    assert not any(isinstance(a, Assassinate) and a.target in ("3", "4", "6") for a in game.legal_actions(1))
    game.apply(Assassinate(player=1, assassin="3", target="7"))
    assert kinds(game) == [(2, "bodyguards")]
    game.apply(Bodyguards(player=2, cards=0))
    assert kinds(game) == [(0, "vote"), (1, "vote"), (2, "vote")]
    assert "7" not in game.state.senators and "7" in game.state.curia
    assert game.state.report[-1].key == "rome.mortality.dies"
    assert game.state.report[-1].params == {"senator": "7", "cause": "assassination"}
    vote_all(game, "yea", "yea", "yea")  # the consuls' vote goes on
    assert game.state.senators["2"].office == "rome_consul"


def test_a_3_or_4_fails_and_the_assassin_goes_free():
    """R186: 3-4, nothing happens."""
    game = assassination_game(faces=[4])
    attempt(game, 1, "3", "7")
    assert "7" in game.state.senators and "3" in game.state.senators
    assert game.state.report[-1].key == "rome.senate.assassination_fails"
    assert game.state.senators["4"].influence == 8


def test_one_attempt_a_faction_and_one_against_a_faction_a_turn():
    """R185 (GAP-30: the target is a faction), a faction may not target its own."""
    game = assassination_game(faces=[3])
    attempt(game, 1, "3", "7")
    assert DeclareAssassination(player=1) not in game.legal_actions(1)
    with pytest.raises(IllegalAction) as err:
        game.apply(DeclareAssassination(player=1))
    assert err.value.key == "rome.error.no_assassination" and "R184" in err.value.rule
    game.apply(DeclareAssassination(player=0))
    targets = {a.target for a in game.legal_actions(0) if isinstance(a, Assassinate)}
    assert targets == {"3", "4", "6"}  # faction 2 was targeted already; faction 0's own are not
    with pytest.raises(IllegalAction) as err:
        game.apply(Assassinate(player=0, assassin="1", target="5"))
    assert err.value.key == "rome.error.not_an_assassination_target"
    game.apply(Skip(player=0))  # [D] withdrawn: the announced attempt is spent
    assert DeclareAssassination(player=0) not in game.legal_actions(0)


def test_assassin_cards_add_and_bodyguards_subtract_and_chase_the_assassin():
    """R187, R188: +1 per Assassin card, −1 per Secret Bodyguard and a further roll per
    bodyguard, caught on 2 or less (+1 per Assassin card); the cards are discarded."""
    hands = {1: ["assassin"], 2: ["secret_bodyguard"]}
    game = assassination_game(faces=[4, 1, 3, 4], hands=hands)
    game.apply(DeclareAssassination(player=1))
    assert Assassinate(player=1, assassin="3", target="7", cards=1) in game.legal_actions(1)
    game.apply(Assassinate(player=1, assassin="3", target="7", cards=1))
    assert guards(game, 2) == [Bodyguards(player=2, cards=0), Bodyguards(player=2, cards=1)]
    game.apply(Bodyguards(player=2, cards=1))
    rolls = [e.params["int"] for e in game.state.report if e.key.endswith(("assassination_roll", "catch_roll"))]
    assert rolls == [4, 2]  # 4 + 1 − 1 survives; the bodyguard's roll, 1 + 1, catches him
    assert "7" in game.state.senators and "3" not in game.state.senators
    assert {"assassin", "secret_bodyguard"} <= set(game.state.discard)
    assert game.state.factions[1].hand == [] and game.state.factions[2].hand == []


def test_a_faction_without_bodyguards_is_asked_too():
    """Hidden information: the target's faction always answers, so its hand stays unknown."""
    game = assassination_game(faces=[3])
    game.apply(DeclareAssassination(player=1))
    game.apply(Assassinate(player=1, assassin="3", target="7"))
    assert guards(game, 2) == [Bodyguards(player=2, cards=0)]
    with pytest.raises(IllegalAction):
        game.apply(Bodyguards(player=2, cards=1))


def test_a_caught_assassin_dies_and_his_leader_is_tried_at_once():
    """R186, R189, R190, ror-data §12: caught on 2 or less, executed; his faction leader −5
    influence and a special major trial: the appeal subtracts the victim's popularity, no tribune
    may veto; convicted, he dies and chits equal to the victim's popularity strike his faction's
    other senators in Rome. Then the interrupted vote resumes."""
    faces = [2, 4, 4, chit_face("6"), 6, 1]  # caught; appeal 4 + 4 − 1 = 7 (no votes); a chit: 6
    game = assassination_game(faces=faces, hands={0: ["tribune.1"]}, s7={"popularity": 1})
    game.apply(Vote(player=2, choice="nay"))
    attempt(game, 1, "3", "7")
    state = game.state
    assert "3" not in state.senators
    assert state.senators["4"].influence == 3
    floor = state.scratch["senate"]["floor"]
    assert floor["kind"] == "assassin_trial" and floor["subject"] == ["4"]
    assert [e.params["int"] for e in state.report if e.key == "rome.senate.appeal"] == [7]
    assert kinds(game) == [(0, "vote"), (1, "vote"), (2, "vote")]
    assert not any(isinstance(a, Veto) for a in game.legal_actions(0))
    assert DeclareAssassination(player=0) not in game.legal_actions(0)  # [D] not during the trial
    vote_all(game, "yea", "nay", "yea")
    assert ("rome.mortality.dies", {"senator": "4", "cause": "execution"}) in [(e.key, e.params) for e in state.report]
    assert "6" not in state.senators  # the chit struck Manlius, faction 1, in Rome
    assert state.senators["4"].influence == DECK.senators["4"].influence  # his card returns, stripped
    # the consuls' vote resumes: faction 2's nay stands, factions 0 and 1 owe their ballots again
    assert state.scratch["senate"]["floor"]["kind"] == "consuls"
    assert state.scratch["senate"]["ballots"] == {"2": ["nay", 0]}
    assert kinds(game) == [(0, "vote"), (1, "vote")]
    game.apply(Vote(player=0, choice="yea"))
    game.apply(Vote(player=1, choice="yea"))
    assert state.senators["2"].office == "rome_consul"


def test_an_acquitted_leader_keeps_his_life():
    """R190: acquitted, the assassin's death is all."""
    faces = [1, 3, 4]  # caught; appeal 3 + 4 − 0 = 7
    game = assassination_game(faces=faces)
    attempt(game, 1, "3", "7")
    vote_all(game, "nay", "yea", "nay")
    assert "4" in game.state.senators and game.state.senators["4"].influence == 3
    assert any(e.key == "rome.senate.acquitted" for e in game.state.report)
    assert game.state.scratch["senate"]["floor"]["kind"] == "consuls"


def test_the_suspended_proposals_ballots_stay_secret():
    """A ballot is secret until its tally, also while its proposal waits for a special trial."""
    game = assassination_game(faces=[1, 3, 4])
    game.apply(Vote(player=2, choice="nay"))
    attempt(game, 1, "3", "7")
    assert player_view(game.state, 0)["scratch"]["senate"]["suspended"]["ballots"] == {"2": "voted"}
    assert player_view(game.state, 2)["scratch"]["senate"]["suspended"]["ballots"] == {"2": ["nay", 0]}


def test_a_proposal_naming_the_victim_falls():
    """[D] A proposal whose named senator dies during its vote falls: the presiding magistrate
    proposes again."""
    game = assassination_game(faces=[6])
    attempt(game, 1, "3", "5")
    assert game.state.scratch["senate"]["floor"] is None
    assert kinds(game) == [(0, "propose_consuls")]
    assert game.state.report[-1].key == "rome.senate.proposal_falls"


def test_no_attempt_once_a_consul_for_life_is_proclaimed():
    """R181."""
    game = assassination_game()
    game.state.consul_for_life = "1"
    assert DeclareAssassination(player=1) not in game.legal_actions(1)
    with pytest.raises(IllegalAction):
        game.apply(DeclareAssassination(player=1))


def test_an_assassin_caught_attacking_a_land_bills_sponsor_is_only_executed():
    """R191: sponsor and co-sponsor of one faction: the caught assassin dies, no other penalty."""
    game = business_game()
    state = game.state
    state.factions[1].leader = "4"
    influence = state.senators["4"].influence
    game.apply(LandBill(player=0, bill=1, sponsor="2", cosponsor="1"))
    game.dice.faces.extend([1])
    attempt(game, 1, "3", "2")
    assert "3" not in state.senators and state.senators["4"].influence == influence
    assert state.scratch["senate"]["floor"]["kind"] == "land_bill"
    assert kinds(game) == [(0, "vote"), (1, "vote"), (2, "vote")]


def test_a_trial_of_a_leader_who_is_away_is_not_held():
    """[D] The special trial needs the leader in Rome; he loses the 5 influence anyway."""
    game = assassination_game(faces=[1], s4={"location": "province"})
    attempt(game, 1, "3", "7")
    assert game.state.senators["4"].influence == 3
    assert game.state.scratch["senate"]["floor"]["kind"] == "consuls"


def test_the_assassin_who_leads_his_faction_only_dies():
    """[D] A faction leader caught as the assassin: his death is all."""
    game = assassination_game(faces=[1])
    state = game.state
    attempt(game, 1, "4", "7")
    assert state.senators["4"].influence == DECK.senators["4"].influence
    assert state.scratch["senate"]["floor"]["kind"] == "consuls"
    assert any(e.params == {"senator": "4", "cause": "execution"} for e in state.report)


def test_the_vote_waits_for_the_attempt_and_the_accused_cannot_appeal_meanwhile():
    """R184: the attempt interrupts the vote; until its die nobody answers the vote. The accused
    of a trial, targeted, cannot appeal to the People (whose mob might kill him) before the die:
    the attempt is on a senator alive when it is rolled. After the die the vote goes on."""
    game = trial_game(faces=[3, 3, 4])  # the die: 3, nothing happens; the appeal 3 + 4 + 0 = 7
    game.apply(Prosecute(player=0, accused="4", prosecutor="2"))
    game.apply(Consent(player=0, agree=True))
    game.apply(Vote(player=2, choice="nay"))
    game.apply(DeclareAssassination(player=0))
    for seat in (1, 2):
        assert game.legal_actions(seat) == []
    game.apply(Assassinate(player=0, assassin="1", target="4"))
    assert kinds(game) == [(1, "bodyguards")]
    assert game.legal_actions(1) == [Bodyguards(player=1, cards=0)]
    for action in (Appeal(player=1), Vote(player=1, choice="nay"), Vote(player=0, choice="yea")):
        with pytest.raises(RuleError):
            game.apply(action)
    assert "4" in game.state.senators
    game.apply(Bodyguards(player=1, cards=0))
    assert game.state.report[-1].key == "rome.senate.assassination_fails"
    assert kinds(game) == [(0, "vote"), (1, "vote")]  # faction 2's nay stands
    assert game.state.scratch["senate"]["ballots"] == {"2": ["nay", 0]}
    game.apply(Appeal(player=1))
    assert [e.params["int"] for e in game.state.report if e.key == "rome.senate.appeal"] == [7]


def test_a_withdrawn_attempt_gives_the_vote_back():
    """[D] Withdrawn (Skip), the vote goes on: every faction that had not voted owes its ballot."""
    game = assassination_game()
    game.apply(Vote(player=0, choice="yea"))
    game.apply(DeclareAssassination(player=1))
    assert kinds(game) == [(1, "assassination")]
    game.apply(Skip(player=1))
    assert kinds(game) == [(1, "vote"), (2, "vote")]


def test_asking_whether_an_attempt_may_be_announced_changes_nothing():
    """R184, GAP-30: the legal answers to a vote (an announcement among them) are read from the
    position without writing to it: a game replayed from its log, which never asks, holds the
    same state as one whose seats were shown their legal actions."""
    game = assassination_game()
    before = msgspec.to_builtins(game.state)
    for seat in (0, 1, 2):
        assert DeclareAssassination(player=seat) in game.legal_actions(seat)
        player_view(game.state, seat)
    assert msgspec.to_builtins(game.state) == before


def test_e8_lucius_against_cesar_two_assassins_one_bodyguard():
    """E8, R186-R188: two Assassin cards (+2) against one Secret Bodyguard (−1): a die of 2 makes 3,
    the attempt fails and the assassin is not caught; the bodyguard's further roll, 6 (+2, [D] the
    Assassin cards count there too), lets him go unknown. Valerius tries Aemilius."""
    hands = {1: ["assassin", "assassin"], 2: ["secret_bodyguard"]}
    game = assassination_game(faces=[2, 6], hands=hands)
    attempt(game, 1, "3", "7", cards=2, guards=1)
    rolls = [e.params["int"] for e in game.state.report if e.key.endswith(("assassination_roll", "catch_roll"))]
    assert rolls == [3, 8]
    assert "7" in game.state.senators and "3" in game.state.senators
    assert any(e.key == "rome.senate.assassination_fails" for e in game.state.report)
    assert game.state.senators["4"].influence == 8  # no one caught, the leader loses nothing
    assert game.state.factions[1].hand == [] and game.state.factions[2].hand == []
