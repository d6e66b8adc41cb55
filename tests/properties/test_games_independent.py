"""Games on one map share what the map's World keeps for them (the actions they list, its
movement tables, the greedy bot's settlement facts: docs/performance.md), and nothing else:
two games played step by step in turn end exactly as the same two games played apart, each on
a World of its own. One of the pair keeps what an Undo needs and, now and then, plays free
steps (moves, troops, the Ark, purchases that draw no card) and takes them back; the other
keeps no copy; the seats are played by the greedy and random bots.
"""

from __future__ import annotations

import random
from importlib import resources

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from judges.bots import make_bot
from judges.engine import Game, Options
from judges.engine.actions import Undo
from judges.engine.undo import is_free
from judges.world import World, load_world, load_world_file


class Player:
    """One game and its own random choices: the same choices whenever it is stepped."""

    def __init__(self, options: Options, world: World, undoable: bool, choices: int) -> None:
        self.game = Game.new(options, world=world, undoable=undoable)
        self.rng = random.Random(choices)
        self.bots = [
            make_bot("greedy" if seat % 2 else "random", options.seed + seat) for seat in range(options.players)
        ]

    def step(self) -> None:
        game, rng = self.game, self.rng
        seat = game.waiting_for()[0]
        if game.undoable and rng.random() < 0.3:
            free = [a for a in game.legal_actions(seat) if is_free(a)]
            if free:
                game.apply_legal(free[rng.randrange(len(free))])
                game.apply(Undo(player=seat))
        legal = game.legal_actions(seat)
        action = self.bots[seat].choose(seat, legal, lambda: game.view(seat))
        game.apply_legal(action)


def fingerprint(game: Game) -> tuple[bytes, bytes, bytes]:
    return (
        game.state_json(),
        msgspec.json.encode(game.notifications),
        msgspec.json.encode([msgspec.to_builtins(a) for a in game.log]),
    )


def own_world() -> World:
    """The packaged map read again: a World that shares nothing with any other game's."""
    return load_world_file(str(resources.files("judges") / "data" / "maps" / "canaan.toml"))


@given(seeds=st.tuples(st.integers(0, 2**40), st.integers(0, 2**40)), order=st.integers(0, 2**32))
@settings(max_examples=4, deadline=None)
def test_two_games_played_in_turn_equal_the_two_played_apart(seeds, order):
    a_options = Options(players=4, seed=seeds[0], round_limit=3)
    b_options = Options(players=3, seed=seeds[1], round_limit=3)
    shared = load_world()
    a = Player(a_options, shared, True, seeds[0] + 1)
    b = Player(b_options, shared, False, seeds[1] + 1)
    turns = random.Random(order)
    while not (a.game.is_over and b.game.is_over):
        pick = a if b.game.is_over or (not a.game.is_over and turns.random() < 0.5) else b
        pick.step()
    for options, undoable, played in ((a_options, True, a), (b_options, False, b)):
        alone = Player(options, own_world(), undoable, options.seed + 1)
        while not alone.game.is_over:
            alone.step()
        assert fingerprint(alone.game) == fingerprint(played.game)
