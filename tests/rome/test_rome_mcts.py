"""Rome's `mcts` bot (the game protocol's search, bots/mcts_protocol.py): it plays whole games
from its faction's view, the same game for the same seed, and never uses what its view hides
(VG 1.04.9, 1.06.31): its choice is the same whatever the hidden hands, deck, treasuries, secret
ballots and dice are."""

from __future__ import annotations

from judges.games import GAMES
from judges.games.protocol import play_to_end
from judges.games.rome_game import RomeProtocolGame
from judges.rome.engine.game import RomeGame
from judges.rome.engine.search import determinize
from judges.rome.engine.state import state_to_json

ROME = GAMES["rome"]


def _encoded(game):
    return [ROME.codec.to_json(a) for a in game.log()]


def test_mcts_is_a_rome_bot_of_the_registry():
    assert "mcts" in ROME.bots
    bot = ROME.make_bot("mcts:8:2", 1)
    assert bot.name == "mcts" and (bot.iterations, bot.horizon) == (8, 2)


def test_mcts_plays_whole_games_from_its_view_the_same_for_the_same_seed():
    runs = []
    for _ in range(2):
        game = ROME.new(3, 11)
        bots = ROME.seat_bots(["mcts:4:1", "random", "random"], 11)
        play_to_end(game, bots)
        assert game.outcome() is not None and bots[0].searched > 0
        runs.append((_encoded(game), game.outcome()))
    assert runs[0] == runs[1]
    other = ROME.new(3, 11)
    play_to_end(other, ROME.seat_bots(["mcts:4:1", "random", "random"], 12))
    assert _encoded(other) != runs[0][0]  # another bot seed, another game


def _hidden(state, seat):
    """What `seat` cannot see: the other hands, the deck, the other treasuries, the dice."""
    others = [(f.hand, f.treasury) for f in state.factions if f.seat != seat]
    return others, state.deck, state.rng


def test_mcts_chooses_the_same_whatever_its_view_hides():
    """At decisions along a game, the real position and positions that differ from it only in what
    the faction cannot see (redrawn by the search's own sampler) give the same choice."""
    seat, checked = 0, 0
    game = ROME.new(4, 21)
    bots = ROME.seat_bots(["random"] * 4, 21)
    while not game.is_over and checked < 6:
        to_move = game.to_move()[0]
        legal = game.legal_actions(to_move)
        if to_move == seat and len(legal) > 1 and len(game.log()) % 3 == 0:
            state = game.game.state
            variants = [state] + [determinize(state, seat, s) for s in (1, 2, 3)]
            positions = [RomeProtocolGame(RomeGame(v)) for v in variants]
            assert len({repr(_hidden(v, seat)) for v in variants}) == len(variants)  # they differ
            choices = []
            for position in positions:
                view = position.view(seat)
                view["options"].pop("dice")  # the dice's kind, not their state (the view hides it)
                assert view == _view_of(game, seat)
                bot = ROME.make_bot("mcts:8:1", 77)
                choices.append(bot.choose(seat, position.legal_actions(seat), lambda p=position: p.view(seat)))
            assert all(c == choices[0] for c in choices), choices
            checked += 1
        game.apply_legal(bots[to_move].choose(to_move, legal, lambda: game.view(to_move)))
    assert checked == 6


def _view_of(game, seat):
    view = game.view(seat)
    view["options"].pop("dice")
    return view


def test_mcts_and_neutral_are_measured_on_the_same_deal_differing_only_in_one_seat():
    """The paired measurement of bench/rome_mcts_vs_neutral.py (docs/rome/bots.md): on one deal
    the seat is played by `mcts`, then by `neutral`, the other seats by `neutral` both times; the
    deal is the same and the neutral game repeats exactly, so only the seat's bot differs."""
    deal = 63000  # no other test or measurement plays it
    games = []
    for specs in (["mcts:2:1", "neutral", "neutral"], ["neutral"] * 3, ["neutral"] * 3):
        game = ROME.new(3, deal)
        start = state_to_json(game.game.state)
        bots = ROME.seat_bots(specs, deal)
        play_to_end(game, bots)
        assert game.outcome() is not None
        games.append((start, _encoded(game), game.returns()))
    assert games[0][0] == games[1][0] and games[1] == games[2]
    assert games[0][1] != games[1][1]
