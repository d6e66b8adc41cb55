"""§ 4 The round: seven phases, turn order, pending decisions, typed refusals."""

from __future__ import annotations

import json
import random

import pytest

from conftest import hurried_action, make_game
from judges.engine import (
    EndTurn,
    Game,
    GameOver,
    MalformedAction,
    NotYourDecision,
    Options,
    Vote,
    action_from_json,
    action_to_dict,
)


def _phases_seen(game: Game, rounds: int) -> list[tuple[int, str]]:
    seen = []
    while game.state.round <= rounds and not game.is_over:
        key = (game.state.round, game.phase_name)
        if not seen or seen[-1] != key:
            seen.append(key)
        seat = game.waiting_for()[0]
        game.apply(hurried_action(game, seat))
    return seen


def test_a_round_runs_the_phases_in_order_and_stops_only_for_players():
    game = Game.new(Options(players=3, seed=5))
    seen = _phases_seen(game, 2)
    # Automatic phases (1, 3, 6 without a plunder choice, 7) never stop when nobody owes a
    # decision: players are only ever waited for in the turn phases here.
    assert seen[:4] == [(1, "intrigue"), (1, "acquisitions"), (1, "movement"), (2, "intrigue")]
    kinds = [n.key for n in game.notifications if n.round == 1]
    assert (
        kinds.index("notification.announcements")
        < kinds.index("notification.income")
        < kinds.index("notification.round_report")
    )


@pytest.mark.parametrize(
    "round_,expected", [(1, [0, 1, 2, 3]), (2, [1, 2, 3, 0]), (4, [3, 0, 1, 2]), (5, [0, 1, 2, 3])]
)
def test_turn_order_starts_at_seat_round_minus_one_mod_n(round_, expected):
    game = make_game({"round": round_, "phase": "acquisitions"}, players=4)
    order = []
    while game.phase_name == "acquisitions":
        (decision,) = game.pending
        order.append(decision.player)
        game.apply(EndTurn(player=decision.player))
    assert order == expected


def test_turn_order_skips_eliminated_players_and_starts_at_the_next_living_seat():
    game = make_game({"round": 2, "phase": "movement", "players": [{"seat": 1, "eliminated": True}]}, players=4)
    order = []
    while game.phase_name == "movement":
        (decision,) = game.pending
        order.append(decision.player)
        game.apply(EndTurn(player=decision.player))
    assert order == [2, 3, 0]


def test_only_the_player_whose_turn_it_is_may_act():
    game = make_game({"phase": "intrigue"})
    assert game.waiting_for() == [0]
    before = game.state_json()
    with pytest.raises(NotYourDecision, match="§4 Turn order") as err:
        game.apply(EndTurn(player=1))
    assert err.value.key == "error.not_your_decision"
    assert "waiting for: player 0 (turn)" in str(err.value)
    assert game.state_json() == before and game.log == []


def test_an_action_nobody_asked_for_is_refused_and_changes_nothing():
    game = make_game({"phase": "intrigue"})
    before = game.state_json()
    with pytest.raises(NotYourDecision, match="§10 Election"):
        game.apply(Vote(player=0, candidate=1))
    assert game.state_json() == before


@pytest.mark.parametrize(
    "payload",
    [
        '{"type": "vote", "player": 0}',
        '{"type": "teleport", "player": 0}',
        '{"player": 0}',
        '{"type": "end_turn", "player": "zero"}',
        "not json",
    ],
)
def test_malformed_actions_raise_a_typed_error(payload):
    with pytest.raises(MalformedAction):
        action_from_json(payload)


def test_an_unknown_seat_is_malformed():
    game = make_game({"phase": "intrigue"})
    with pytest.raises(MalformedAction, match="no player 9"):
        game.apply(EndTurn(player=9))


def test_a_dict_action_is_accepted_and_validated():
    game = make_game({"phase": "intrigue"})
    game.apply({"type": "end_turn", "player": 0})
    assert game.waiting_for() == [1]
    with pytest.raises(MalformedAction):
        game.apply({"type": "end_turn"})


def test_several_players_can_owe_decisions_at_once():
    position = {
        "clear_board": True,
        "generals": [
            {"id": 10, "owner": 0, "at": "Hazor"},
            {"id": 11, "owner": 1, "at": "Hebron"},
            {"id": 12, "owner": 2, "at": "Shechem"},
        ],
        "titles": {"Naphtali": {"holder": 10}, "Judah": {"holder": 11}, "Manasseh": {"holder": 12}},
    }
    game = make_game(position)
    assert game.waiting_for() == [0, 1, 2]
    assert {d.kind for d in game.pending} == {"vote"}


def test_nothing_can_be_played_after_the_end():
    game = make_game({"phase": "victory", "clear_board": True})
    assert game.is_over
    with pytest.raises(GameOver):
        game.apply(EndTurn(player=0))
    assert list(game.legal_actions()) == []


def test_the_legal_actions_of_a_turn_are_listed_per_player():
    game = make_game({"phase": "intrigue", "players": [{"seat": 0, "hand": []}]}, dice=[])
    # Seat 0 drew one card (the free draw) and may play it or pass; seat 1 waits its turn.
    legal = list(game.legal_actions(0))
    assert EndTurn(player=0) in legal
    assert len(game.state.players[0].hand) == 1
    assert list(game.legal_actions(1)) == []


def test_same_seed_and_same_actions_give_the_identical_game():
    options = Options(players=4, seed=99, round_limit=5)
    a = Game.new(options)
    rng = random.Random(4)
    while not a.is_over:
        a.apply(rng.choice(list(a.legal_actions(rng.choice(a.waiting_for())))))
    log = json.loads(json.dumps([action_to_dict(x) for x in a.log]))  # through JSON, as stored
    b = Game.replay(options, log)
    assert b.is_over and len(b.log) == len(a.log) > 0
    assert b.state_json() == a.state_json()
    assert b.to_dict()["notifications"] == a.to_dict()["notifications"]


def test_a_different_seed_gives_a_different_game():
    a = Game.new(Options(players=4, seed=1, round_limit=3))
    b = Game.new(Options(players=4, seed=2, round_limit=3))
    assert a.state.deck != b.state.deck
