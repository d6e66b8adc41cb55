"""Republic of Rome through the game protocol (games/protocol.py): the adapter answers as the
engine does, an illegal action is refused whole, and the search's sample (rome/engine/search.py)
keeps everything the faction sees and redraws only what it cannot (VG 1.04.9, 1.06.31)."""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest

from judges.engine.errors import RuleError
from judges.games import GAMES
from judges.games.protocol import GameProtocol
from judges.rome.engine.search import determinize
from judges.rome.engine.state import card_places, state_to_json
from judges.rome.engine.view import player_view

ROME = GAMES["rome"]


def _walk(seed: int, players: int = 4, steps: int = 400):
    """A random game of Rome, yielding (game, seat) before each action."""
    game = ROME.new(players, seed)
    bots = ROME.seat_bots(["random"] * players, seed)
    for _ in range(steps):
        if game.is_over:
            return
        seat = game.to_move()[0]
        yield game, seat
        game.apply_legal(bots[seat].choose(seat, game.legal_actions(seat), lambda: game.view(seat)))


def test_both_games_answer_the_protocol():
    for name, gd in GAMES.items():
        game = gd.new(gd.min_players + 1, 3)
        assert isinstance(game, GameProtocol) and game.name == name
        seat = game.to_move()[0]
        assert {o.seat for o in game.owed()} >= {seat} and game.legal_actions(seat)


def test_an_illegal_action_is_refused_and_changes_nothing():
    game = ROME.new(4, 2)
    seat = game.to_move()[0]
    before = state_to_json(game.game.state)
    with pytest.raises(RuleError):
        game.apply({"type": "roll", "player": seat})  # no persuasion is under way at setup
    with pytest.raises(RuleError):
        game.apply({"type": "no_such_action", "player": seat})
    assert state_to_json(game.game.state) == before


@pytest.mark.parametrize("seed", [1, 2])
def test_the_sample_keeps_what_the_faction_sees_and_every_card(seed):
    for game, seat in _walk(seed):
        state = game.game.state
        sample = determinize(state, seat, seed)
        assert Counter(c for c, _ in card_places(sample)) == Counter(c for c, _ in card_places(state))
        assert [len(f.hand) for f in sample.factions] == [len(f.hand) for f in state.factions]
        assert len(sample.deck) == len(state.deck)
        # what the faction sees is the same in the sample, and so are its choices
        seen, sampled = player_view(state, seat), player_view(sample, seat)
        seen.pop("rng"), sampled.pop("rng")
        seen["options"].pop("dice"), sampled["options"].pop("dice")
        assert seen == sampled
        assert game.determinize(seat, seed).legal_actions(seat) == game.legal_actions(seat)


def test_the_sample_redraws_the_hidden_hands():
    game = ROME.new(5, 4)
    seat = game.to_move()[0]
    truth = [f.hand for f in game.game.state.factions]
    draws = [[f.hand for f in determinize(game.game.state, seat, s).factions] for s in range(8)]
    assert all(d[seat] == truth[seat] for d in draws)
    assert any(d != truth for d in draws)


def test_a_secret_ballot_is_redrawn_not_read():
    for game, seat in _walk(5, steps=3000):
        sitting = game.game.state.scratch.get("senate")
        if sitting and sitting.get("ballots") and "veto" not in sitting["ballots"]:
            others = [k for k in sitting["ballots"] if k != str(seat)]
            if others:
                view = game.view(seat)
                assert all(view["scratch"]["senate"]["ballots"][k] == "voted" for k in others)
                sample = determinize(game.game.state, seat, 9).scratch["senate"]["ballots"]
                assert all(sample[k][0] in ("yea", "nay") and sample[k][1] == 0 for k in others)
                return
    pytest.fail("no vote with another faction's secret ballot in the game")


def test_actions_round_trip_through_the_shared_encoding():
    for game, seat in _walk(3, steps=300):
        for action in game.legal_actions(seat)[:5]:
            wire = msgspec.json.decode(ROME.codec.to_json(action))
            assert ROME.codec.from_dict(wire) == action
