"""§ 4 Taking back, as a property: in random games, free steps played and then taken back
change nothing. Two copies of one game are played with the same random choices; before some of
them, one copy plays a few free steps (moves, troops, the Ark, purchases that draw no card) and
takes them all back. After every choice the two positions are identical: the state (the dice
included: a free step rolls no die), the notifications (but where each stands in the longer
log), the decisions owed. At the end the log,
Undos included, replays from the seed to the same game, and `taken_back` pairs each Undo with
the step it took back.
"""

from __future__ import annotations

import random

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from judges.engine import Game, Options
from judges.engine.actions import Undo
from judges.engine.undo import is_free, taken_back


def notes(game: Game) -> bytes:
    """The notifications but where each stands in the log (`after`: the Undos count there)."""
    return msgspec.json.encode([msgspec.structs.replace(n, after=0) for n in game.notifications])


def same(a: Game, b: Game) -> None:
    assert a.state_json() == b.state_json()
    assert notes(a) == notes(b)
    assert a.pending == b.pending


@given(
    seed=st.integers(0, 2**40),
    players=st.integers(2, 5),
    choices=st.integers(0, 2**32),
)
@settings(max_examples=30, deadline=None)
def test_free_steps_taken_back_leave_the_game_as_it_was(seed, players, choices):
    rng = random.Random(choices)
    options = Options(players=players, seed=seed, round_limit=3)
    plain = Game.new(options, undoable=False)  # keeping no copy changes nothing either
    tried = Game.new(options)
    inserted = 0
    for _ in range(600):
        if plain.is_over:
            break
        seat = plain.waiting_for()[0]
        legal = plain.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        if rng.random() < 0.4:
            before = []  # the position before each free step: each Undo goes back to one
            for _ in range(rng.randint(1, 3)):
                free = [a for a in tried.legal_actions(seat) if is_free(a)]
                if not free:
                    break
                before.append(tried.state_json())
                tried.apply(free[rng.randrange(len(free))])
            assert not before or tried.can_undo(seat)
            for position in reversed(before):
                tried.apply(Undo(player=seat))
                assert tried.state_json() == position
            inserted += len(before)
            same(plain, tried)
        plain.apply(action)
        tried.apply(action)
        same(plain, tried)
    pairs = taken_back(tried.log)
    assert len(pairs) == inserted
    assert all(type(tried.log[undo]) is Undo and is_free(tried.log[step]) for step, undo in pairs.items())
    assert len(tried.log) == len(plain.log) + 2 * inserted
    again = Game.replay(options, tried.log)
    same(again, tried)
