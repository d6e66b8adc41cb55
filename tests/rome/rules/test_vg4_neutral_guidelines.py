"""The neutral bot's guidelines (VG 4.03-4.07, the solitaire "Neutral" factions; our own choices
where VG is silent, docs/rome/bots.md): each test builds a position, asks the bot from the seat's
view only, and checks the guideline's answer."""

from __future__ import annotations

from rome_position import game_in, position, senator

from judges.rome.bots.neutral import ANSWERS, NeutralRomeBot
from judges.rome.engine.actions import (
    AttractKnight,
    Consent,
    Contribute,
    CounterBribe,
    Deploy,
    Done,
    Persuade,
    ProposeConsuls,
    Prosecute,
    RaiseForces,
    SponsorGames,
    Vote,
)
from judges.rome.engine.decisions import KINDS
from judges.rome.engine.forum import persuasion_base
from judges.rome.engine.state import Decision, WarInPlay
from judges.rome.engine.view import player_view


def ask(game, seat):
    """The neutral's answer for `seat`, from its view alone."""
    return NeutralRomeBot().choose(game.legal_actions(seat), player_view(game.state, seat))


def senate_position(**changes):
    """Three factions of two senators in Rome; faction 0's Cornelius is Rome Consul (HRAO)."""
    state = position()
    senator(state, "1", 0, office="rome_consul")
    senator(state, "2", 0)
    senator(state, "3", 1)
    senator(state, "4", 1)
    senator(state, "5", 2, prior_consul=True)
    senator(state, "6", 2)
    for name, value in changes.items():
        setattr(state, name, value)
    return state


def test_every_decision_kind_of_the_registry_has_a_guideline():
    assert set(ANSWERS) == set(KINDS)


def test_a_neutral_never_buys_votes():
    """VG 4.05.2: talents do not add to a Neutral's votes."""
    state = senate_position()
    for s in state.senators.values():
        s.talents = 30
    game = game_in(state, "senate", (6, 1))
    seat = game.state.pending[0].player
    game.apply(ask(game, seat))  # the nomination
    for seat in range(3):
        vote = ask(game, seat)
        assert isinstance(vote, Vote) and vote.talents == 0
        assert any(isinstance(a, Vote) and a.talents for a in game.legal_actions(seat))


def test_in_a_crisis_each_consul_is_his_factions_best_soldier():
    """VG 4.05.34: three active wars make a crisis; only each faction's highest military is eligible."""
    state = senate_position()
    state.wars = [WarInPlay(id=w, state="active") for w in ("gallic_1", "illyrian_1", "macedonian_1")]
    game = game_in(state, "senate", (6, 1))
    proposal = ask(game, game.state.pending[0].player)
    assert isinstance(proposal, ProposeConsuls)
    s = game.state.senators
    for nominee in (proposal.first, proposal.second):
        faction = s[nominee].faction
        best = max(x.military for x in s.values() if x.faction == faction and x.office != "rome_consul")
        assert s[nominee].military == best
    assert s[proposal.first].faction != s[proposal.second].faction


def test_rome_raises_an_adequate_force_and_sends_it():
    """VG 4.05.31, 4.05.33: legions equal to the war's strength (commander and veterans not
    counted), built when the State can pay, then the consul goes with them."""
    state = senate_position(treasury=300)
    state.units.legions = 4
    state.wars = [WarInPlay(id="gallic_1", state="active")]  # land 10, no fleets
    game = game_in(state, "senate", (6, 1, 6, 1, 6, 1, 6, 1))
    for _ in range(200):
        decision = game.state.pending[0]
        if decision.kind == "propose_business":
            break
        game.apply(ask(game, decision.player))
    levy = ask(game, game.state.pending[0].player)
    assert levy == RaiseForces(player=levy.player, legions=6, fleets=0)
    game.apply(levy)
    for seat in range(3):
        game.apply(ask(game, seat))
    assert game.state.units.legions == 10
    send = ask(game, game.state.pending[0].player)
    assert isinstance(send, Deploy) and send.war == "gallic_1" and send.legions >= 10


def forum_game(**changes):
    """Faction 0 holds the initiative (its Cornelius is HRAO); the dice show 1, 1 (no event, and
    the deck is empty)."""
    state = senate_position(**changes)
    game = game_in(state, "forum", (1, 1))
    assert game.state.pending == [Decision(0, "initiative")]
    return game


def test_the_persuader_bribes_up_to_nine_only_when_seven_can_be_reached():
    """VG 4.04.2."""
    game = forum_game()
    s = game.state.senators
    s["1"].talents = 40
    attempt = ask(game, 0)
    assert isinstance(attempt, Persuade)
    base = persuasion_base(game.ctx, s[attempt.persuader], s[attempt.target])
    assert base + attempt.bribe == 9
    poor = forum_game()
    attempt = ask(poor, 0)
    assert isinstance(attempt, Persuade) and attempt.bribe == 0


def test_counter_bribes_bring_the_number_to_exactly_four_or_are_not_paid():
    """VG 4.04.21."""
    for treasury, expected in ((50, None), (2, 0)):
        game = forum_game()
        game.state.senators["1"].talents = 40
        game.state.factions[1].treasury = treasury
        attempt = ask(game, 0)
        game.apply(attempt)
        assert game.state.pending[0].kind == "counter_bribe"
        seat = game.state.pending[0].player
        s = game.state.senators
        p = game.state.scratch["persuasion"]
        number = persuasion_base(game.ctx, s[p["persuader"]], s[p["target"]]) + p["bribes"] - p["counters"]
        answer = ask(game, seat)
        assert isinstance(answer, CounterBribe)
        want = number - 4 if expected is None else expected
        assert number - 4 > treasury or expected is None
        assert answer.talents == want


def test_games_only_while_the_unrest_is_above_the_sponsors_popularity():
    """VG 4.04.4: the most expensive games the richest senator can afford."""
    for unrest, popularity, sponsored in ((5, 0, True), (2, 2, False)):
        game = forum_game(unrest=unrest)
        s = game.state.senators
        s["2"].talents, s["2"].popularity = 20, popularity
        game.state.scratch["turn"]["stage"] = 2  # the games' step
        answer = ask(game, 0)
        if sponsored:
            assert answer == SponsorGames(player=0, senator="2", games="gladiator_gala")  # 18T, the dearest
        else:
            assert isinstance(answer, Done) or type(answer).__name__ == "Skip"


def test_the_richest_senator_attracts_a_knight_for_free():
    game = forum_game()
    game.state.senators["2"].talents = 7
    game.state.scratch["turn"]["stage"] = 1
    assert ask(game, 0) == AttractKnight(player=0, senator="2", talents=0)


def test_a_contribution_reaching_35_influence_is_always_made():
    """VG 4.03.4: a Neutral contributes when that gives him 35 influence, the State rich or not."""
    state = senate_position(treasury=900)
    state.senators["3"].influence, state.senators["3"].talents = 30, 60
    game = game_in(state, "revenue", ())
    while game.state.pending and game.state.pending[0].kind != "contribute":
        d = game.state.pending[0]
        game.apply(ask(game, d.player))
    answers = {seat: ask(game, seat) for seat in range(3)}
    assert answers[1] == Contribute(player=1, senator="3", talents=50)  # +7: 37 influence
    assert isinstance(answers[0], Done) and isinstance(answers[2], Done)  # the State needs nothing


def test_a_poor_state_gets_each_factions_share_of_what_it_lacks():
    """[D] Contributions when the State cannot meet its coming debits and reserve."""
    state = senate_position(treasury=0)
    state.wars = [WarInPlay(id="gallic_1", state="active")]
    for s in state.senators.values():
        s.talents = 40
    game = game_in(state, "revenue", ())
    while game.state.pending and game.state.pending[0].kind != "contribute":
        d = game.state.pending[0]
        game.apply(ask(game, d.player))
    gifts = [ask(game, seat) for seat in range(3)]
    assert all(isinstance(g, Contribute) and g.talents > 0 for g in gifts)


def test_the_censor_prosecutes_nobody_and_no_one_consents():
    """VG 4.05.1: no prosecutions."""
    state = senate_position()
    state.senators["5"].office = "censor"
    state.senators["3"].corrupt = True
    game = game_in(state, "senate", (6, 1))
    for _ in range(200):
        d = game.state.pending[0]
        if d.kind == "prosecute":
            assert isinstance(ask(game, d.player), Done)
            charge = next(a for a in game.legal_actions(d.player) if isinstance(a, Prosecute))
            game.apply(charge)  # another player's Censor names a neutral prosecutor
            asked = game.state.pending[0]
            assert asked.kind == "consent" and ask(game, asked.player) == Consent(player=asked.player, agree=False)
            return
        game.apply(ask(game, d.player))
    raise AssertionError("no prosecution step reached")
