"""The review after the game (bots/review.py): what a player took back is not a decision, the
costs listed are beyond their noise, and the review never calls costly what the hint at that very
position recommended."""

from __future__ import annotations

import random

from judges.bots import make_bot
from judges.bots.hint import hint_for
from judges.bots.paired import Z
from judges.bots.review import KEPT, decisions_of, review
from judges.engine import action_from_dict
from judges.engine.actions import Undo
from judges.engine.undo import is_free, taken_back
from judges.verify import new_game


def _game_with_regrets(seed: int, players: int = 3, rounds: int = 3):
    """Seat 0 tries a random free step, takes it back, then plays as greedy; the other seats are
    greedy. The steps taken back are the worst of seat 0's game: a review that counted them would
    list them."""
    options = {"players": players, "seed": seed, "round_limit": rounds}
    game = new_game(options)
    bots = {s: make_bot("greedy", seed * 10 + s) for s in range(players)}
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.waiting_for()[0]
        legal = list(game.legal_actions(seat))
        if seat == 0 and len(legal) > 1:
            free = [a for a in legal if is_free(a)]
            if free and rng.random() < 0.7:
                game.apply(rng.choice(free))
                if game.can_undo(0):
                    game.apply(Undo(player=0))
                continue
        game.apply(bots[seat].choose(seat, legal, lambda: game.view(seat)))
    return options, list(game.log)


def test_steps_taken_back_are_not_decisions_of_the_review():
    options, log = _game_with_regrets(11)
    undone = taken_back(log)
    assert len(undone) >= 5  # the game does take steps back
    found = decisions_of(new_game(options), log, 0)
    assert found, "seat 0 decided something"
    seqs = {d.seq for d in found}
    assert not seqs & set(undone)
    assert all(type(log[s]) is not Undo for s in seqs)
    # every step that still stands and had a choice is there
    standing = [
        s for s, a in enumerate(log) if getattr(a, "player", None) == 0 and s not in undone and type(a) is not Undo
    ]
    assert seqs <= set(standing) and len(seqs) >= len(standing) // 2


def test_a_review_never_lists_a_step_taken_back():
    for seed in (11, 12):
        options, log = _game_with_regrets(seed)
        undone = taken_back(log)
        for item in review(new_game(options), log, 0, seed):
            assert item.seq not in undone, (seed, item)
            assert action_from_dict(item.played) == log[item.seq]


def _random_seat_game(seed: int, players: int = 3, rounds: int = 3):
    options = {"players": players, "seed": seed, "round_limit": rounds}
    game = new_game(options)
    bots = {s: make_bot("random" if s == 0 else "greedy", seed * 10 + s) for s in range(players)}
    while not game.is_over:
        seat = game.waiting_for()[0]
        game.apply(bots[seat].choose(seat, list(game.legal_actions(seat)), lambda: game.view(seat)))
    return options, list(game.log)


def test_the_review_and_the_hint_never_contradict_each_other_at_a_position():
    """Each listed decision: the hint at that position (the server's seed for it) recommends the
    review's better action, not the player's; the cost is beyond its stated noise."""
    listed = 0
    for seed in (5, 6):
        options, log = _random_seat_game(seed)
        items = review(new_game(options), log, 0, 100 * seed)
        assert len(items) <= KEPT
        assert [i.cost for i in items] == sorted((i.cost for i in items), reverse=True)
        positions = {d.seq: d for d in decisions_of(new_game(options), log, 0)}
        for item in items:
            d = positions[item.seq]
            hinted = hint_for(0, d.legal, d.view, 100 * seed + item.seq, cpu_budget=None)
            assert hinted.action == action_from_dict(item.best) != d.action
            assert item.cost > Z * item.error and 0.975 <= item.sure <= 1.0
            listed += 1
    assert listed >= 1  # a random player's game has costly decisions
