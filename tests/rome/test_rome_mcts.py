"""Rome's `mcts` bot (the game protocol's search, bots/mcts_protocol.py): it plays whole games
from its faction's view, the same game for the same seed, and never uses what its view hides
(VG 1.04.9, 1.06.31): its choice is the same whatever the hidden hands, deck, treasuries, secret
ballots and dice are."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from judges.games import GAMES
from judges.games.protocol import play_to_end
from judges.games.rome_game import RomeProtocolGame
from judges.rome.engine.game import RomeGame
from judges.rome.engine.search import determinize
from judges.rome.engine.state import state_to_json

ROME = GAMES["rome"]

# whole games searched at every decision: a few CPU minutes in all, longer on a shared machine
pytestmark = pytest.mark.timeout(1800)


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
        bots = ROME.seat_bots(["mcts:2:1:1", "random", "random"], 11)
        play_to_end(game, bots)
        assert game.outcome() is not None and bots[0].searched > 0
        runs.append((_encoded(game), game.outcome()))
    assert runs[0] == runs[1]
    other = ROME.new(3, 11)
    play_to_end(other, ROME.seat_bots(["mcts:2:1:1", "random", "random"], 12))
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


def _bench():
    """bench/rome_mcts_vs_neutral.py, the paired measurement (docs/rome/bots.md)."""
    path = Path(__file__).resolve().parents[2] / "bench" / "rome_mcts_vs_neutral.py"
    spec = importlib.util.spec_from_file_location("rome_mcts_vs_neutral", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its NamedTuples resolve their module
    spec.loader.exec_module(module)
    return module


def test_mcts_and_neutral_are_measured_on_the_same_deal_differing_only_in_one_seat():
    """The pairing of bench/rome_mcts_vs_neutral.py: on one deal the seat is played by `mcts`,
    then by `neutral`, the other seats by `neutral` both times; the deal is the same and the
    neutral game repeats exactly, so only the seat's bot differs."""
    deal = 63000  # no other test or measurement plays it
    games, searched = [], []
    for specs in (["mcts:2:1", "neutral", "neutral"], ["neutral"] * 3, ["neutral"] * 3):
        game = ROME.new(3, deal)
        start = state_to_json(game.game.state)
        bots = ROME.seat_bots(specs, deal)
        play_to_end(game, bots)
        assert game.outcome() is not None
        games.append((start, _encoded(game), game.returns()))
        searched.append(getattr(bots[0], "searched", -1))
    assert games[0][0] == games[1][0] and games[1] == games[2]
    assert searched[0] > 0 and searched[1:] == [-1, -1]  # the seat searched only in the mcts game


def test_the_paired_score_is_the_result_then_the_share_of_influence_and_seats_rotate():
    """A seat's score is its result first (a win over anything else), then its share of the
    factions' influence (docs/decisions/0028); every deal is another seed, its seat rotating."""
    bench = _bench()
    deals = bench.deals(90000, 3)
    assert len({seed for _, seed, _ in deals}) == 12
    assert [seat for players, _, seat in deals if players == 5] == [0, 1, 2]
    win, lost_big, lost_small = (
        bench.SeatScore(1.0, 0.2, False),
        bench.SeatScore(0.0, 0.6, False),
        bench.SeatScore(0.0, 0.3, True),
    )
    assert bench.Pair(3, 1, 0, win, lost_big).sign == 1  # a win beats a larger share
    assert bench.Pair(3, 1, 0, lost_small, lost_big).sign == -1  # no win: the share decides
    assert bench.Pair(3, 1, 0, lost_big, lost_big).sign == 0
    assert bench.sign_test(5, 0) == 2 / 32 and bench.sign_test(3, 3) == 1.0 and bench.sign_test(0, 0) == 1.0


def test_mcts_beats_neutral_on_fresh_deals():
    """The paired measurement on eight deals (84300-84601, two for each of 3-6 factions) no
    other test or measurement plays: `mcts:8:1` in the rotating seat scores higher than
    `neutral` there on more deals than it scores lower (its result, then its influence share)."""
    bench = _bench()
    rows = bench.paired(84000, 2, "mcts:8:1")
    assert all(0.0 <= r.mcts.share <= 1.0 and 0.0 <= r.neutral.share <= 1.0 for r in rows)
    better, worse = sum(r.sign > 0 for r in rows), sum(r.sign < 0 for r in rows)
    assert better > worse, [r.sign for r in rows]
